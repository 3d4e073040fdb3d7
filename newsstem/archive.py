"""WARC archive of a crawl: the writer (Scrapy glue) and the reader (plain Python).

With ``NEWSSTEM_ARCHIVE=crawl.warc.gz`` every response the spider gets is written
to a gzipped WARC file as it arrives: a ``response`` record with the page's
original bytes and HTTP headers, followed, for every HTML page, by a
``metadata`` record (JSON, ``WARC-Concurrent-To`` the response) holding what
only the crawl knows: the anchor texts of the links to the page, its depth,
site, encoding and fetch time. ``scrapy learn`` and ``scrapy extract`` read it
back with :func:`read_archive`.

The writer is a spider middleware, not a signal handler: it needs the response
and the page item the spider made of it at the same time. Records are flushed
page by page, so a crawl stopped at any moment leaves a readable archive; an
existing file is appended to (WARC files are concatenations of records).
"""

from __future__ import annotations

import dataclasses
import gzip
import itertools
import json
import logging
import re
import zlib
from collections.abc import AsyncIterator, Iterable, Iterator
from dataclasses import dataclass
from http import HTTPStatus
from io import BytesIO
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from warcio.archiveiterator import ArchiveIterator
from warcio.bufferedreaders import DecompressingBufferedReader
from warcio.exceptions import ArchiveLoadFailed
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from newsstem import defaults
from newsstem.encoding import looks_binary
from newsstem.items import Page
from newsstem.paths import unwritable
from newsstem.rules import site_of

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.crawler import Crawler
    from scrapy.http import Response
    from scrapy.statscollectors import StatsCollector

__all__ = [
    "PAGE_METADATA_TYPE",
    "ArchiveError",
    "ArchivedPage",
    "WarcArchive",
    "check_writable",
    "fetched_since",
    "html_pages_by_site",
    "is_html_page",
    "LatestCaptures",
    "latest_captures",
    "read_archive",
]

logger = logging.getLogger(__name__)

# Content type of the metadata records newsstem writes (and reads back).
PAGE_METADATA_TYPE = "application/vnd.newsstem.page+json"
# Headers that describe the bytes on the wire, not the decoded body stored here.
_WIRE_HEADERS = {b"content-encoding", b"transfer-encoding", b"content-length"}


class ArchiveError(Exception):
    """An archive that cannot be read; the message says which file and why."""


@dataclass(frozen=True)
class ArchivedPage:
    """One archived response and what the crawl knew about it."""

    url: str
    body: bytes
    status: int
    content_type: str | None
    fetched_at: str  # ISO 8601 UTC
    anchor_texts: tuple[str, ...] = ()
    depth: int = 0
    site: str | None = None  # None when the archive holds no metadata for the page
    encoding: str | None = None
    rendered: bool = False  # the body is the DOM a browser rendered (browser mode)

    @property
    def page_site(self) -> str:
        """The page's site: as the crawl recorded it, else its URL's (archives without
        newsstem's metadata records)."""
        return self.site or site_of(self.url)


class WarcArchive:
    """Spider middleware writing every response and page to ``NEWSSTEM_ARCHIVE``.

    Counts ``newsstem/archive/responses`` and ``newsstem/archive/pages``.
    """

    def __init__(self, path: str, stats: StatsCollector | None = None) -> None:
        self.path = Path(path)
        self.stats = stats
        self._file: IO[bytes] | None = None
        self._writer: WARCWriter | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> WarcArchive:
        from scrapy import signals
        from scrapy.exceptions import NotConfigured

        path = crawler.settings.get("NEWSSTEM_ARCHIVE", defaults.NEWSSTEM_ARCHIVE)
        if not path:
            raise NotConfigured
        archive = cls(str(path), crawler.stats)
        crawler.signals.connect(archive.close, signal=signals.spider_closed)
        return archive

    def open(self) -> WARCWriter:
        if self._writer is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._file = self.path.open("ab")
            self._writer = WARCWriter(self._file, gzip=True)
            logger.info("newsstem: archiving responses to %s", self.path)
        return self._writer

    def close(self, spider: Spider | None = None) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
            self._writer = None

    async def process_spider_output(
        self, response: Response, result: AsyncIterator[Any]
    ) -> AsyncIterator[Any]:
        record_id = self.write_response(response)
        async for item in result:
            if isinstance(item, Page) and record_id is not None:
                self.write_page(item, record_id)
            yield item

    def write_response(self, response: Response) -> str | None:
        writer = self.open()
        headers = [
            (name.decode("latin-1"), value.decode("latin-1"))
            for name, values in response.headers.items()
            if name.lower() not in _WIRE_HEADERS
            for value in values
        ]
        headers.append(("Content-Length", str(len(response.body))))
        try:
            phrase = HTTPStatus(response.status).phrase
        except ValueError:
            phrase = "Unknown"
        record = writer.create_warc_record(
            response.url,
            "response",
            payload=BytesIO(response.body),
            http_headers=StatusAndHeaders(
                f"{response.status} {phrase}", headers, protocol="HTTP/1.1"
            ),
        )
        writer.write_record(record)
        self._flush()
        self._count("responses")
        return record.rec_headers.get_header("WARC-Record-ID")

    def write_page(self, page: Page, record_id: str) -> None:
        writer = self.open()
        metadata = {
            "url": page.url,
            "site": page.site,
            "depth": page.depth,
            "encoding": page.encoding,
            "fetched_at": page.fetched_at,
            "anchor_texts": list(page.anchor_texts),
        }
        if page.rendered:  # the response record holds the DOM the browser rendered
            metadata["rendered"] = True
        record = writer.create_warc_record(
            page.url,
            "metadata",
            payload=BytesIO(json.dumps(metadata, ensure_ascii=False).encode("utf-8")),
            warc_content_type=PAGE_METADATA_TYPE,
            warc_headers_dict={"WARC-Concurrent-To": record_id, "WARC-Date": page.fetched_at},
        )
        writer.write_record(record)
        self._flush()
        self._count("pages")

    def _flush(self) -> None:
        if self._file is not None:
            self._file.flush()

    def _count(self, what: str) -> None:
        if self.stats is not None:
            self.stats.inc_value(f"newsstem/archive/{what}")


def check_writable(path: str | Path) -> None:
    """ArchiveError unless the archive ``path`` can be written (appended to, its
    directories made), checked before a crawl starts: the writer opens the file with
    the first page, and failing then lost the crawl's output.

    >>> try:
    ...     check_writable("/dev/null/crawl.warc.gz")
    ... except ArchiveError as error:
    ...     print(error)
    cannot write the archive /dev/null/crawl.warc.gz: /dev/null is not a directory
    """
    problem = unwritable(path)
    if problem is not None:
        raise ArchiveError(f"cannot write the archive {path}: {problem}")


def is_html_page(page: ArchivedPage) -> bool:
    """An HTML page fetched whole (status 200, an HTML content type, not binary)."""
    content_type = (page.content_type or "").lower()
    return page.status == 200 and "html" in content_type and not looks_binary(page.body)


#: the key of an HTML capture among those of the archives read together: its fetch time,
#: then its rank (the order it was read in, archive after archive)
CaptureKey = tuple[tuple[str, str], int]


def html_pages_by_site(
    paths: Iterable[str | Path], since: str | None = None, last: int | None = None
) -> dict[str, list[ArchivedPage]]:
    """The HTML pages of the archives by site, each URL once (its latest fetch), in the
    order they were fetched: those fetched at ``since`` (ISO 8601 UTC, as ``fetched_at``
    is written) or later, or the ``last`` fetched of each site. Raises
    :class:`ArchiveError` for an archive that cannot be read."""
    # Fetch times have whole seconds (WARC/1.0): pages fetched in the same second are
    # in the order they were read, archive after archive.
    latest: dict[str, tuple[CaptureKey, ArchivedPage]] = {}
    ranks = itertools.count(1)
    for path in paths:
        for key, page in _keyed_html_pages(read_archive(path), ranks):
            known = latest.get(page.url)
            if known is None or key > known[0]:
                latest[page.url] = (key, page)
    start = _fetch_instant(since) if since is not None else None
    by_site: dict[str, list[ArchivedPage]] = {}
    for (instant, _), page in sorted(latest.values(), key=lambda entry: entry[0]):
        if start is None or instant >= start:
            by_site.setdefault(page.page_site, []).append(page)
    if last is not None:
        by_site = {site: pages[-last:] for site, pages in by_site.items()}
    return by_site


def fetched_since(pages: Iterable[ArchivedPage], since: str | None) -> list[ArchivedPage]:
    """The ``pages`` fetched at ``since`` (ISO 8601 UTC) or later, as
    :func:`html_pages_by_site` picks them; all of them for None."""
    if since is None:
        return list(pages)
    start = _fetch_instant(since)
    return [page for page in pages if _fetch_instant(page.fetched_at) >= start]


def latest_captures(paths: Iterable[str | Path]) -> dict[str, CaptureKey]:
    """URL -> the key of its latest HTML capture in the archives (the first pass of
    :class:`LatestCaptures`). An archive damaged part-way counts up to the damage (where the
    second pass stops too)."""
    latest: dict[str, CaptureKey] = {}
    ranks = itertools.count(1)
    for path in paths:
        try:
            for key, page in _keyed_html_pages(read_archive(path), ranks):
                if page.url not in latest or key > latest[page.url]:
                    latest[page.url] = key
        except ArchiveError:
            continue
    return latest


def _keyed_html_pages(
    pages: Iterable[ArchivedPage], ranks: Iterator[int]
) -> Iterator[tuple[CaptureKey, ArchivedPage]]:
    """The HTML pages of ``pages`` with their capture keys, ranked by ``ranks`` (one count
    shared by the archives read together)."""
    for page in pages:
        if is_html_page(page):
            yield (_fetch_instant(page.fetched_at), next(ranks)), page


class LatestCaptures:
    """Tells each URL's latest HTML capture among the archives read together: the latest
    fetch time; of two fetched in the same second, the one read last. An archive appended
    to by several crawls (each ``NEWSSTEM_ARCHIVE`` run appends) holds a page once per
    crawl that fetched it; ``scrapy extract`` reads each URL's latest capture once.

    Two passes: this one reads the fetch times (one URL and key a page in memory), then
    the caller reads the archives again in the same order, asking :meth:`is_latest` of
    every HTML page (:func:`is_html_page`, which the caller checks: once a record, as it
    scans the body).
    """

    def __init__(self, paths: Iterable[str | Path]) -> None:
        self.latest = latest_captures(paths)
        self._rank = 0

    def is_latest(self, page: ArchivedPage) -> bool:
        """False for an HTML capture of a URL captured again later, True for its latest;
        ``page`` is an HTML page (asked of every one, in the order read, and of no other
        record: a record that is none is not ranked, whatever its URL)."""
        self._rank += 1
        return self.latest.get(page.url) == (_fetch_instant(page.fetched_at), self._rank)


_FETCH_TIME = re.compile(r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?Z?")


def _fetch_instant(text: str) -> tuple[str, str]:
    """A fetch time (ISO 8601 UTC, as a WARC-Date) as a key that sorts in time order,
    whatever its precision: strings put "05.5Z" (WARC/1.1) before "05Z"; ("", "") for
    a time that is none.

    >>> _fetch_instant("2026-11-21T23:55:05Z") < _fetch_instant("2026-11-21T23:55:05.5Z")
    True
    >>> _fetch_instant("yesterday")
    ('', '')
    """
    match = _FETCH_TIME.fullmatch(text.strip())
    if match is None:
        return ("", "")
    return (match[1], (match[2] or "").ljust(9, "0"))


def read_archive(path: str | Path) -> Iterator[ArchivedPage]:
    """The responses of a WARC file (gzipped or not), each with its newsstem metadata."""
    path = Path(path)
    try:
        stream = path.open("rb")
    except OSError as error:
        raise ArchiveError(f"{path}: cannot open the archive: {error.strerror}") from None
    with stream:
        _check_warc(stream, path)
        pending: tuple[str, ArchivedPage] | None = None
        try:
            for record in _records(stream):
                if record.rec_type == "response":
                    if pending is not None:
                        yield pending[1]
                    pending = (
                        record.rec_headers.get_header("WARC-Record-ID"),
                        _response(record),
                    )
                elif record.rec_type == "metadata" and pending is not None:
                    target = record.rec_headers.get_header("WARC-Concurrent-To")
                    content_type = record.rec_headers.get_header("Content-Type") or ""
                    if target == pending[0] and content_type.startswith(PAGE_METADATA_TYPE):
                        yield _with_metadata(pending[1], record.content_stream().read(), path)
                        pending = None
        except ArchiveLoadFailed as error:
            raise ArchiveError(f"{path}: not a readable WARC file: {error}") from None
        if pending is not None:
            yield pending[1]


class _StrictReader(DecompressingBufferedReader):
    """warcio's reader, raising on gzip data damaged after a member's start: warcio
    writes the zlib error ("Error -3 ...") to stderr and reads on as if the archive
    ended there, so the damaged page came out cut and every page after it was lost
    without a word."""

    def _decompress(self, data: bytes) -> bytes:
        if self.decompressor and data and self.num_block_read:
            try:
                return self.decompressor.decompress(data)  # type: ignore[no-any-return]
            except zlib.error as error:
                raise ArchiveLoadFailed(f"damaged gzip data: {error}") from None
        return super()._decompress(data)  # type: ignore[no-any-return]


def _records(stream: IO[bytes]) -> ArchiveIterator:
    """The records of a WARC stream, an :class:`ArchiveLoadFailed` where it is damaged."""
    iterator = ArchiveIterator(stream)
    iterator.reader = _StrictReader(iterator.fh)
    return iterator


def _check_warc(stream: IO[bytes], path: Path) -> None:
    """A WARC file starts with "WARC/" (after gzip decompression); warcio would warn and
    skip through anything else."""
    magic = stream.read(2)
    stream.seek(0)
    try:
        head = gzip.GzipFile(fileobj=stream).read(5) if magic == b"\x1f\x8b" else stream.read(5)
    except (OSError, EOFError, zlib.error) as error:
        raise ArchiveError(f"{path}: not a readable WARC file: {error}") from None
    finally:
        stream.seek(0)
    if head and head != b"WARC/":
        raise ArchiveError(f"{path}: not a readable WARC file (no WARC record at its start)")


def _response(record: Any) -> ArchivedPage:
    headers = record.http_headers
    status = int(headers.get_statuscode() or 0) if headers is not None else 0
    content_type = headers.get_header("Content-Type") if headers is not None else None
    return ArchivedPage(
        url=record.rec_headers.get_header("WARC-Target-URI") or "",
        body=record.content_stream().read(),
        status=status,
        content_type=content_type,
        fetched_at=record.rec_headers.get_header("WARC-Date") or "",
    )


def _with_metadata(page: ArchivedPage, payload: bytes, path: Path) -> ArchivedPage:
    """The page with what its metadata record says; the page alone (and a warning) when
    the record is not the JSON object :class:`WarcArchive` writes."""
    try:
        metadata = json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        metadata = None
    fields = _metadata_fields(metadata) if isinstance(metadata, dict) else None
    if fields is None:
        logger.warning("%s: unreadable metadata for %s, ignored", path, page.url)
        return page
    return dataclasses.replace(page, **fields)


def _metadata_fields(metadata: dict[str, Any]) -> dict[str, Any] | None:
    """The :class:`ArchivedPage` fields of a metadata record, or None if one is malformed."""
    anchors = metadata.get("anchor_texts") or []
    depth = metadata.get("depth") or 0
    site, encoding = metadata.get("site"), metadata.get("encoding")
    if (
        not isinstance(anchors, list)
        or not isinstance(depth, int)
        or not isinstance(site, (str, type(None)))
        or not isinstance(encoding, (str, type(None)))
    ):
        return None
    fields: dict[str, Any] = {
        "anchor_texts": tuple(str(text) for text in anchors),
        "depth": depth,
        "site": site,
        "encoding": encoding,
        "rendered": bool(metadata.get("rendered")),
    }
    if metadata.get("fetched_at"):
        fields["fetched_at"] = str(metadata["fetched_at"])
    return fields
