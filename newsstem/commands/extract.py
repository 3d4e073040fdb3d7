"""``scrapy extract --input crawl.warc.gz -O articles.jsonl``: extraction offline.

Every HTML page of the archives (each URL once: its latest capture, when several
crawls appended to one archive) goes through the project's item pipelines, the
same as in a crawl (learned patterns first, readability otherwise), with no
request made; use the feed options (-o/-O) as with ``scrapy crawl``. Without one (and
without ``FEEDS``) the articles would be written nowhere: a usage error. An archive
damaged part-way (a record that cannot be read, gzip data that does not decompress)
is one ERROR line: the pages before the damage are extracted, and the command exits
with status 1.
"""

from __future__ import annotations

import argparse
import logging
from collections.abc import AsyncIterator, Sequence
from typing import Any

from scrapy import Spider
from scrapy.commands import BaseRunSpiderCommand
from scrapy.exceptions import UsageError

from newsstem.archive import (
    ArchivedPage,
    ArchiveError,
    LatestCaptures,
    is_html_page,
    read_archive,
)
from newsstem.commands import leave_out_urldb_middleware
from newsstem.encoding import decode_html
from newsstem.items import Page
from newsstem.layout.patterns import PatternFileError, PatternLibrary
from newsstem.paths import check_feed_options, check_outputs
from newsstem.pipelines import hand_patterns, load_patterns_before_logging, log_later
from newsstem.setting_values import check_dict_options, check_setting_types
from newsstem.usage_errors import archive_hint, one_line_errors

logger = logging.getLogger(__name__)

LOGSTATS = "scrapy.extensions.logstats.LogStats"


class ArchiveSpider(Spider):
    """Yields a :class:`Page` for every HTML page of the archives (no requests): each
    URL's latest capture, once (an archive appended to by several crawls holds a page
    once per crawl; the older captures count in ``newsstem/archive/older``)."""

    name = "archive"
    reads_archives = True  # fetches nothing: the run summary leaves out the crawl's figures
    # Offline: nothing is fetched, so the URL store (which remembers crawls) stays out.
    custom_settings = {"NEWSSTEM_URLDB": ""}

    def __init__(self, inputs: list[str], site: str | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.inputs = inputs
        self.site = site

    async def start(self) -> AsyncIterator[Any]:
        stats = self.crawler.stats
        captures = LatestCaptures(self.inputs)  # each URL once: its latest capture
        for path in self.inputs:
            try:
                for archived in read_archive(path):
                    if not is_html_page(archived):  # judged once a record (its body scanned)
                        stats.inc_value("newsstem/archive/skipped")
                        continue
                    latest = captures.is_latest(archived)  # (every HTML page is ranked)
                    if self.site is not None and archived.page_site != self.site:
                        continue
                    if not latest:
                        stats.inc_value("newsstem/archive/older")
                        continue
                    yield self._page(archived)
            except ArchiveError as error:  # damaged part-way: what came before is extracted
                stats.inc_value("newsstem/archive/unreadable")
                logger.error("newsstem: %s; the pages after the damage are not extracted", error)

    def _page(self, archived: ArchivedPage) -> Page:
        """The page to extract of an archived HTML page (the latest capture of its URL)."""
        html, encoding = decode_html(archived.body, archived.content_type)
        self.crawler.stats.inc_value("newsstem/archive/read")
        return Page(
            url=archived.url,
            site=archived.page_site,
            html=html,
            encoding=encoding,
            depth=archived.depth,
            fetched_at=archived.fetched_at,
            status=archived.status,
            anchor_texts=list(archived.anchor_texts),
        )


class Command(BaseRunSpiderCommand):
    requires_project = True
    _patterns: PatternLibrary | None = None  # read by process_options(), with its log lines
    _pattern_log: Sequence[logging.LogRecord] = ()

    def syntax(self) -> str:
        return "--input ARCHIVE [--input ARCHIVE ...] [--site SITE] -O FILE"

    def short_desc(self) -> str:
        return "Extract the articles of a WARC archive with the crawl's pipelines, offline"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument(
            "--input", "-i", action="append", default=[], metavar="ARCHIVE",
            help="WARC archive to read (written with -s NEWSSTEM_ARCHIVE=...); may be repeated",
        )
        parser.add_argument("--site", metavar="SITE", help="only the pages of this site")
        # argparse took --out (learn's directory of pattern files) for Scrapy's --output
        # and appended the articles to the file: an option is given whole
        parser.allow_abbrev = False
        one_line_errors(parser)

    def process_options(self, args: list[str], opts: argparse.Namespace) -> None:
        """Bad arguments or settings: one usage error line, before Scrapy starts (and logs
        its versions and settings)."""
        check_feed_options(opts, "extract")  # (a directory: before Scrapy reads it)
        check_dict_options(self.settings, opts.set)  # (-s FEEDS={bad: before Scrapy reads it)
        super().process_options(args, opts)
        assert self.settings is not None
        if args and args[0].split("=", 1)[0] == "--out":
            raise UsageError(
                "extract: unknown option '--out'; the articles are written with -O FILE "
                "(-o FILE appends; --out is learn's directory of pattern files)",
                print_help=False,
            )
        if args:
            # learn takes its SITE alone, extract with --site: the one told the other's way
            # (an archive: one of a shell pattern after --input)
            hint = "" if args[0].startswith("-") else "; " + (
                archive_hint(args[0]) or f"a site is given with --site {args[0]}")
            raise UsageError(f"extract: unexpected argument {args[0]!r}{hint}",
                             print_help=False)
        if not opts.input:
            raise UsageError(
                "extract: give the archive to read: --input crawl.warc.gz", print_help=False
            )
        if not self.settings.getdict("FEEDS"):  # the articles would be written nowhere
            raise UsageError(
                "extract: give the file to write the articles to: -O articles.jsonl "
                "(or -o, or the FEEDS setting)", print_help=False,
            )
        for path in opts.input:
            try:
                next(iter(read_archive(path)), None)
            except ArchiveError as error:
                raise UsageError(f"extract: {error}", print_help=False) from None
        if opts.site is not None:
            _check_site(opts.input, opts.site)
        check_setting_types(self.settings)
        try:  # a corrupt pattern file: one line, before Scrapy starts
            self._patterns, self._pattern_log = load_patterns_before_logging(self.settings)
        except PatternFileError as error:
            raise UsageError(f"extract: {error}", print_help=False) from None
        check_outputs(self.settings, "extract")  # -O, NEWSSTEM_STATS_FILE, feed fields, -o

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        assert self.settings is not None and self.crawler_process is not None
        assert self._patterns is not None
        log_later(self._pattern_log)  # which sites have patterns, now that Scrapy logs
        # Archived pages are read, not fetched: nothing to be polite to.
        self.settings.set("AUTOTHROTTLE_ENABLED", False, priority="cmdline")
        # The URL store is off (ArchiveSpider): its middleware is left out too.
        leave_out_urldb_middleware(self.settings)
        # Scrapy's periodic line counts responses, none here ("Crawled 0 pages"): this
        # one counts the pages read from the archives and the articles exported.
        extensions = self.settings.getdict("EXTENSIONS")
        extensions[LOGSTATS] = None
        extensions["newsstem.extensions.ExtractionLogStats"] = 0
        self.settings.set("EXTENSIONS", extensions, priority="cmdline")
        # Archived pages are no news of a site: an archive read again would count its
        # pages twice towards a redesign. The run judges the pages it reads, alone.
        self.settings.set("NEWSSTEM_REDESIGN_COUNTS", "", priority="cmdline")
        # Offline: the pattern files of NEWSSTEM_PATTERNS_DIR as they are. A Redis URL store
        # given with -s (the spider's NEWSSTEM_URLDB "" does not outrank it) would load the
        # files other workers published into the directory, and publish (NEWSSTEM_RELEARN).
        self.settings.set("NEWSSTEM_SHARED_PATTERNS", False, priority="cmdline")
        crawler = self._create_crawler(ArchiveSpider)
        hand_patterns(crawler, self.settings, self._patterns)  # read once
        self.crawler_process.crawl(crawler, inputs=opts.input, site=opts.site, **opts.spargs)
        self.crawler_process.start()
        damaged = crawler.stats.get_value("newsstem/archive/unreadable") if crawler.stats else 0
        if self.crawler_process.bootstrap_failed or damaged:
            self.exitcode = 1


def _check_site(paths: list[str], site: str) -> None:
    """UsageError naming the archives' sites unless they hold an HTML page of ``site``:
    checked before the feed is opened (``-O`` empties the file), reading up to the
    first such page. A damaged archive is left to the run, which says so."""
    sites: set[str] = set()
    try:
        for archived in (page for path in paths for page in read_archive(path)):
            if is_html_page(archived):
                if archived.page_site == site:
                    return
                sites.add(archived.page_site)
    except ArchiveError:
        return
    raise UsageError(
        f"extract: no HTML page of site {site!r} in the archive "
        f"(sites: {', '.join(sorted(sites)) or 'none'})",
        print_help=False,
    )
