"""newsstem.archive: the WARC writer (a spider middleware) and the reader."""

from __future__ import annotations

import asyncio
import dataclasses
import gzip
import random

import pytest
from scrapy.http import HtmlResponse, Request, TextResponse
from support.crawl import run_crawl

from newsstem.archive import (
    ArchiveError,
    LatestCaptures,
    WarcArchive,
    html_pages_by_site,
    read_archive,
)
from newsstem.items import Page

HTML = "<html><head><title>Ünïcode</title></head><body><p>Text</p></body></html>"


def page_item(url: str) -> Page:
    return Page(
        url=url, site="example.com", html=HTML, encoding="utf-8", depth=2,
        fetched_at="2026-11-21T23:55:05Z", anchor_texts=["Big news", "Ünïcode story"],
    )


def response(url: str, body: bytes, **headers: str) -> HtmlResponse:
    return HtmlResponse(url, body=body, headers=headers, request=Request(url), status=200)


async def through(archive: WarcArchive, resp, items: list) -> list:
    async def result():
        for item in items:
            yield item

    return [item async for item in archive.process_spider_output(resp, result())]


def test_pages_are_archived_with_what_the_crawl_knew(tmp_path):
    path = tmp_path / "crawl.warc.gz"
    archive = WarcArchive(str(path))
    url = "http://example.com/a.html"
    body = HTML.encode("utf-8")
    resp = response(url, body, **{"Content-Type": "text/html; charset=utf-8",
                                  "Content-Encoding": "gzip"})
    request = Request("http://example.com/b.html")
    out = asyncio.run(through(archive, resp, [page_item(url), request]))
    assert out[1] is request  # the spider's output passes through untouched
    other = TextResponse(
        "http://example.com/x.txt", body=b"plain", headers={"Content-Type": "text/plain"}
    )
    asyncio.run(through(archive, other, []))
    archive.close()
    with gzip.open(path, "rb") as stream:
        assert stream.read(8) == b"WARC/1.0"
    first, second = read_archive(path)
    assert first.url == url and first.body == body and first.status == 200
    assert first.content_type == "text/html; charset=utf-8"
    assert first.anchor_texts == ("Big news", "Ünïcode story")
    assert (first.site, first.depth, first.fetched_at) == ("example.com", 2, "2026-11-21T23:55:05Z")
    assert second.url == "http://example.com/x.txt" and second.site is None
    assert second.anchor_texts == () and second.body == b"plain"


def test_a_second_crawl_appends(tmp_path):
    path = tmp_path / "crawl.warc.gz"
    for name in ("a", "b"):
        archive = WarcArchive(str(path))
        url = f"http://example.com/{name}.html"
        asyncio.run(through(archive, response(url, b"<p>x</p>"), [page_item(url)]))
        archive.close()
    assert [p.url for p in read_archive(path)] == [
        "http://example.com/a.html", "http://example.com/b.html",
    ]


def test_pages_fetched_in_the_same_second_keep_the_order_they_were_fetched_in(tmp_path):
    # fetch times compared as strings: the dict's first-seen order decided between
    # pages of the same second, and "05.5Z" (WARC/1.1 precision) sorted before "05Z"
    path = tmp_path / "crawl.warc.gz"
    archive = WarcArchive(str(path))
    for name, fetched_at in (
        ("a", "2026-11-21T23:55:04Z"),
        ("b", "2026-11-21T23:55:05Z"),
        ("a", "2026-11-21T23:55:05Z"),  # a again, after b, in the same second
        ("c", "2026-11-21T23:55:06.5Z"),
        ("d", "2026-11-21T23:55:06Z"),  # a coarser time: earlier than c
    ):
        url = f"http://example.com/{name}.html"
        item = dataclasses.replace(page_item(url), fetched_at=fetched_at)
        html = response(url, b"<p>x</p>", **{"Content-Type": "text/html"})
        asyncio.run(through(archive, html, [item]))
    archive.close()
    names = [page.url[-6] for page in html_pages_by_site([path])["example.com"]]
    assert names == ["b", "a", "d", "c"]
    last = html_pages_by_site([path], last=3)["example.com"]
    assert [page.url[-6] for page in last] == ["a", "d", "c"]
    since = html_pages_by_site([path], since="2026-11-21T23:55:06Z")["example.com"]
    assert [page.url[-6] for page in since] == ["d", "c"]


def test_an_unreadable_archive_is_a_clear_error(tmp_path):
    with pytest.raises(ArchiveError, match="cannot open the archive"):
        list(read_archive(tmp_path / "missing.warc.gz"))
    junk = tmp_path / "junk.warc.gz"
    junk.write_bytes(b"this is not a WARC file at all\n" * 10)
    with pytest.raises(ArchiveError, match="not a readable WARC file"):
        list(read_archive(junk))


def test_damaged_gzip_data_part_way_is_an_error_not_the_archive_s_end(tmp_path):
    # warcio printed "Error -3 while decompressing data" and stopped as if the archive
    # ended: the damaged page came out cut, the pages after it were lost without a word
    path = tmp_path / "crawl.warc.gz"
    archive = WarcArchive(str(path))
    noise = random.Random(35)
    for name in ("a", "b", "c"):  # pages bigger than warcio's 16 KiB read blocks, gzipped
        url = f"http://example.com/{name}.html"
        body = b"<p>" + noise.randbytes(30_000).hex().encode() + b"</p>"
        asyncio.run(through(archive, response(url, body), [page_item(url)]))
    archive.close()
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x55  # inside page b's gzip member
    path.write_bytes(bytes(data))
    pages = read_archive(path)
    assert next(pages).url == "http://example.com/a.html"
    with pytest.raises(ArchiveError, match=r"crawl.warc.gz: .*damaged gzip data: Error -3"):
        next(pages)


def test_an_archive_that_cannot_be_written_stops_the_crawl_before_any_request(tmp_path, site):
    # the writer opened it with the first page: the start page failed with a traceback,
    # nothing was followed or exported, and the crawl exited 0
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("")
    archive = blocker / "crawl.warc.gz"
    result = run_crawl(tmp_path, "-a", f"start_url={site.url}/index.html",
                       settings={"NEWSSTEM_ARCHIVE": str(archive)})
    assert result.returncode == 1, result.log
    assert f"newsstem: archive error: cannot write the archive {archive}: " in result.log
    assert "Traceback" not in result.log
    assert site.paths(status=None) == []


@pytest.mark.parametrize("payload", [b"[1, 2]", b'{"depth": "two"}', b'{"site": ["a"]}'])
def test_a_malformed_metadata_record_is_ignored_with_a_warning(tmp_path, caplog, payload):
    from io import BytesIO

    from newsstem.archive import PAGE_METADATA_TYPE

    path = tmp_path / "crawl.warc.gz"
    archive = WarcArchive(str(path))
    url = "http://example.com/a.html"
    record_id = archive.write_response(response(url, b"<p>x</p>"))
    writer = archive.open()
    writer.write_record(writer.create_warc_record(
        url, "metadata", payload=BytesIO(payload), warc_content_type=PAGE_METADATA_TYPE,
        warc_headers_dict={"WARC-Concurrent-To": record_id},
    ))
    archive.close()
    [page] = read_archive(path)  # no exception
    assert (page.url, page.site, page.depth, page.anchor_texts) == (url, None, 0, ())
    assert "unreadable metadata for http://example.com/a.html" in caplog.text


def test_latest_captures_tell_each_url_s_last_fetch_across_archives(tmp_path):
    # scrapy extract read an archive appended to by two crawls page for page: every URL
    # twice (the first capture exported, the second dropped as its duplicate)
    paths = [tmp_path / "one.warc.gz", tmp_path / "two.warc.gz"]
    for path, captures in zip(paths, (
        (("a", "2026-11-21T23:55:04Z"), ("b", "2026-11-21T23:55:05Z"),
         ("a", "2026-11-21T23:55:05Z")),  # a again, in the same second as b: a's latest
        (("b", "2026-11-21T23:55:06Z"), ("c", "2026-11-21T23:55:03Z")),
    )):
        archive = WarcArchive(str(path))
        for name, fetched_at in captures:
            url = f"http://example.com/{name}.html"
            item = dataclasses.replace(page_item(url), fetched_at=fetched_at)
            html = response(url, b"<p>x</p>", **{"Content-Type": "text/html"})
            asyncio.run(through(archive, html, [item]))
        archive.close()
    captures = LatestCaptures(paths)
    read = [(page.url[-6], page.fetched_at[-3:-1], captures.is_latest(page))
            for path in paths for page in read_archive(path)]
    assert read == [("a", "04", False), ("b", "05", False), ("a", "05", True),
                    ("b", "06", True), ("c", "03", True)]


def test_extract_judges_each_record_html_or_not_once_a_pass(tmp_path, monkeypatch):
    """scrapy extract asked is_html_page (a scan of the body for binary bytes) twice of
    every HTML page on its second pass: once to rank it among the captures, once to read
    it. Once a pass now, the stats as before: a PDF captured before the HTML page of the
    same URL is a record skipped as no HTML page, not an older capture of that page."""
    from collections import Counter

    from scrapy.utils.test import get_crawler

    import newsstem.archive
    import newsstem.commands.extract
    from newsstem.commands.extract import ArchiveSpider

    path = tmp_path / "crawl.warc.gz"
    archive = WarcArchive(str(path))
    pdf = HtmlResponse("http://example.com/a.html", body=b"%PDF-1.4\x00\x01",
                       headers={"Content-Type": "application/pdf"},
                       request=Request("http://example.com/a.html"), status=200)
    asyncio.run(through(archive, pdf, []))
    for name, fetched_at in (("a", "2026-11-30T00:00:01Z"), ("b", "2026-11-30T00:00:02Z"),
                             ("a", "2026-11-30T00:00:03Z")):
        url = f"http://example.com/{name}.html"
        item = dataclasses.replace(page_item(url), fetched_at=fetched_at)
        html = response(url, HTML.encode("utf-8"), **{"Content-Type": "text/html"})
        asyncio.run(through(archive, html, [item]))
    archive.close()
    judged: Counter[tuple[str, str | None, str]] = Counter()
    is_html_page = newsstem.archive.is_html_page

    def counted(page):
        judged[page.url, page.content_type, page.fetched_at] += 1
        return is_html_page(page)

    monkeypatch.setattr(newsstem.archive, "is_html_page", counted)
    monkeypatch.setattr(newsstem.commands.extract, "is_html_page", counted)
    crawler = get_crawler(ArchiveSpider)
    spider = ArchiveSpider.from_crawler(crawler, inputs=[str(path)])

    async def pages():
        return [page async for page in spider.start()]

    read = asyncio.run(pages())
    assert [(page.url[-6], page.fetched_at[-3:-1]) for page in read] == [("b", "02"), ("a", "03")]
    assert len(judged) == 4 and set(judged.values()) == {2}, judged  # one per pass
    stats = crawler.stats.get_stats()
    assert {name: value for name, value in stats.items() if name.startswith("newsstem/")} == {
        "newsstem/archive/read": 2, "newsstem/archive/older": 1, "newsstem/archive/skipped": 1}
