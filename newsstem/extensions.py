"""Scrapy extensions of newsstem."""

from __future__ import annotations

import json
import logging
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING

from scrapy import Spider, signals
from scrapy.exceptions import NotConfigured
from scrapy.extensions.logstats import LogStats
from tldextract import TLDExtract

from newsstem import defaults
from newsstem.archive import ArchivedPage, ArchiveError, fetched_since, html_pages_by_site
from newsstem.commands.learn import training_page
from newsstem.layout.learn import LearnOptions, TrainingPage
from newsstem.layout.patterns import (
    PatternFileError,
    PatternSet,
    load_patterns_dir,
    save_pattern_file,
)
from newsstem.layout.redesign import relearn
from newsstem.setting_values import read_setting
from newsstem.sharedpatterns import LOADED_WHEN, publish, shared_patterns_store
from newsstem.urldb import StoreError, hide_password

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.settings import BaseSettings
    from scrapy.statscollectors import StatsCollector

logger = logging.getLogger(__name__)


def offline_tldextract(*, include_psl_private_domains: bool = False) -> TLDExtract:
    """A TLDExtract that uses only the Public Suffix List bundled with tldextract.

    The default instance downloads the list on first use (and logs tracebacks
    when offline); crawls must not depend on that.
    """
    return TLDExtract(
        suffix_list_urls=(),
        cache_dir=None,
        include_psl_private_domains=include_psl_private_domains,
    )


class OfflineTldExtract:
    """Keep Scrapy's cookie middleware from fetching the Public Suffix List.

    Scrapy >= 2.19 checks cookie domains with a module-level ``TLDExtract`` that
    goes to the network on its first call. This extension swaps it, once, for
    an instance bound to the bundled snapshot. If a Scrapy release renames the
    attribute, it logs a warning and changes nothing.
    """

    def __init__(self) -> None:
        from scrapy.downloadermiddlewares import cookies

        if isinstance(getattr(cookies, "_split_domain", None), TLDExtract):
            cookies._split_domain = offline_tldextract(include_psl_private_domains=True)
        else:
            logger.warning(
                "newsstem: scrapy.downloadermiddlewares.cookies._split_domain not found; "
                "cookie domain checks may download the Public Suffix List"
            )

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> OfflineTldExtract:
        return cls()


class ExtractionLogStats(LogStats):
    """Scrapy's periodic stats line for ``scrapy extract``, which fetches nothing.

    LogStats counts responses received, always 0 when pages are read from archives
    ("Crawled 0 pages (at 0 pages/min)"); this line counts the pages read and the
    articles exported, as the extraction summary does::

        Read 1200 pages from archives (at 600 pages/min), exported 1100 articles (at ...)

    Every ``LOGSTATS_INTERVAL`` seconds, as LogStats; ``items_per_minute`` at the end,
    with no ``responses_per_minute`` (there were none).
    """

    def log(self, spider: Spider) -> None:
        self.calculate_stats()
        logger.info(
            "Read %(pages)d %(page_word)s from archives (at %(pagerate)d pages/min), "
            "exported %(items)d %(article_word)s (at %(itemrate)d articles/min)",
            {"pages": self.pages, "page_word": "page" if self.pages == 1 else "pages",
             "pagerate": self.prate, "items": self.items,
             "article_word": "article" if self.items == 1 else "articles",
             "itemrate": self.irate},
            extra={"spider": spider},
        )

    def calculate_stats(self) -> None:
        self.items = self.stats.get_value("item_scraped_count", 0)
        self.pages = self.stats.get_value("newsstem/archive/read", 0)
        self.irate = (self.items - self.itemsprev) * self.multiplier
        self.prate = (self.pages - self.pagesprev) * self.multiplier
        self.pagesprev, self.itemsprev = self.pages, self.items

    def spider_closed(self, spider: Spider, reason: str) -> None:
        if self.task and self.task.running:
            self.task.stop()
        self.stats.set_value("items_per_minute", self.calculate_final_stats(spider)[1])


class StatsFile:
    """Write the crawl's stats as JSON to ``NEWSSTEM_STATS_FILE`` when the crawl ends.

    Written when the engine stops, not at ``spider_closed``: other components
    still count during ``spider_closed`` (feeds being stored, the URL store's
    last export marks).
    """

    def __init__(self, path: str, stats: StatsCollector) -> None:
        self.path = Path(path)
        self.stats = stats
        self.reason: str | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> StatsFile:
        path = crawler.settings.get("NEWSSTEM_STATS_FILE", defaults.NEWSSTEM_STATS_FILE)
        if not path:
            raise NotConfigured
        extension = cls(path, crawler.stats)
        crawler.signals.connect(extension.spider_closed, signal=signals.spider_closed)
        crawler.signals.connect(extension.engine_stopped, signal=signals.engine_stopped)
        return extension

    def spider_closed(self, spider: Spider, reason: str) -> None:
        self.reason = reason

    def engine_stopped(self) -> None:
        stats = {**self.stats.get_stats(), "finish_reason": self.reason}
        tmp = self.path.with_name(self.path.name + ".tmp")
        try:  # its directory made, as the archive's; a path that cannot be written: one line
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_text(json.dumps(stats, default=_json_default, indent=1, sort_keys=True))
            tmp.replace(self.path)
        except OSError as error:
            blocked = next((p for p in self.path.parents if p.exists() and not p.is_dir()), None)
            logger.error(
                "newsstem: cannot write NEWSSTEM_STATS_FILE %s: %s",
                self.path, f"{blocked} is not a directory" if blocked else error.strerror or error,
            )


def _json_default(value: object) -> str:
    if isinstance(value, datetime):
        return value.isoformat()
    return str(value)


def relearn_problem(settings: BaseSettings) -> str | None:
    """Why ``NEWSSTEM_RELEARN`` cannot work with these settings, or None (it is off, or
    it has what it needs). ``scrapy crawl`` makes it a usage error (one line, before
    Scrapy starts), as it does other bad settings.

    >>> from scrapy.settings import Settings
    >>> print(relearn_problem(Settings({"NEWSSTEM_RELEARN": "True"})))  # doctest: +ELLIPSIS
    NEWSSTEM_RELEARN needs NEWSSTEM_ARCHIVE, the pages to learn again from: give ...
    >>> relearn_problem(Settings({"NEWSSTEM_RELEARN": "True", "NEWSSTEM_ARCHIVE": "a.warc.gz"}))
    >>> relearn_problem(Settings({"NEWSSTEM_RELEARN": "False"}))
    """
    if not read_setting(settings, "NEWSSTEM_RELEARN"):
        return None
    if not settings.get("NEWSSTEM_ARCHIVE", defaults.NEWSSTEM_ARCHIVE):
        return (
            "NEWSSTEM_RELEARN needs NEWSSTEM_ARCHIVE, the pages to learn again from: give "
            "-s NEWSSTEM_ARCHIVE=crawl.warc.gz, or leave NEWSSTEM_RELEARN off"
        )
    if not settings.get("NEWSSTEM_PATTERNS_DIR", defaults.NEWSSTEM_PATTERNS_DIR):
        return (
            "NEWSSTEM_RELEARN needs NEWSSTEM_PATTERNS_DIR, where the patterns learned "
            "again are written: set it, or leave NEWSSTEM_RELEARN off"
        )
    return None


class Relearn:
    """Learn again, when the crawl ends, the sites whose layout changed (``NEWSSTEM_RELEARN``).

    A site the extraction pipeline found redesigned (``newsstem/patterns/<site>/
    layout_changed``) is learned again from the pages of this crawl in its archive
    (``NEWSSTEM_ARCHIVE``; a site judged on the pages of earlier crawls too, from those
    archived since the first of them started: ``.../judged_since``): :func:`newsstem.layout.redesign.relearn` keeps the old
    patterns that recent pages still need, and the new file replaces the old one in
    ``NEWSSTEM_PATTERNS_DIR`` only when it reads this crawl's pages better. Each site
    counts ``newsstem/relearn/<site>``: ``written`` or why not. A directory that cannot
    be written, or a pattern file unusable by then, is one ERROR line.

    With a Redis URL store shared by workers (``NEWSSTEM_SHARED_PATTERNS``), a file written
    is also published there (:func:`newsstem.sharedpatterns.publish`), for the workers of
    the other machines to load: ``newsstem/shared_patterns/published``, or
    ``…/not_published`` (the store holds a file of the site learned later, or cannot be
    reached: one WARNING line).
    """

    def __init__(self, archive: str, patterns_dir: str, stats: StatsCollector,
                 min_chars: int, shared_store: str | None = None) -> None:
        self.archive = archive
        self.shared_store = shared_store  # the Redis URL store files are published in
        self.patterns_dir = patterns_dir
        self.stats = stats
        self.min_chars = min_chars
        self.started: str | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Relearn:
        settings = crawler.settings
        if not read_setting(settings, "NEWSSTEM_RELEARN"):
            raise NotConfigured
        problem = relearn_problem(settings)
        if problem is not None:
            # (`scrapy crawl` stops before Scrapy starts: a crawl run from Python code of
            # one's own gets this warning)
            logger.warning("newsstem: %s: sites will not be learned again", problem)
            raise NotConfigured
        extension = cls(
            settings.get("NEWSSTEM_ARCHIVE", defaults.NEWSSTEM_ARCHIVE),
            settings.get("NEWSSTEM_PATTERNS_DIR", defaults.NEWSSTEM_PATTERNS_DIR),
            crawler.stats,
            settings.getint("NEWSSTEM_MIN_ARTICLE_CHARS", defaults.NEWSSTEM_MIN_ARTICLE_CHARS),
            shared_patterns_store(settings),
        )
        crawler.signals.connect(extension.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(extension.engine_stopped, signal=signals.engine_stopped)
        return extension

    def spider_opened(self, spider: Spider) -> None:
        self.started = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")

    def changed_sites(self) -> list[str]:
        return sorted(
            name[len("newsstem/patterns/") : -len("/layout_changed")]
            for name in self.stats.get_stats()
            if name.startswith("newsstem/patterns/") and name.endswith("/layout_changed")
        )

    def engine_stopped(self) -> None:
        sites = self.changed_sites()
        if not sites:
            return
        # a site judged on the pages of several crawls (NEWSSTEM_REDESIGN_COUNTS) learns
        # from the archived pages of all of them
        since: dict[str, str | None] = {}
        for site in sites:
            earlier = self.stats.get_value(f"newsstem/patterns/{site}/judged_since")
            since[site] = (
                str(earlier) if earlier and self.started and str(earlier) < self.started
                else self.started
            )
        try:  # read once (every record is read whatever ``since``): each site's pages picked
            by_site = html_pages_by_site([self.archive])
        except ArchiveError as error:
            logger.error("newsstem: cannot learn again, the archive is unreadable: %s", error)
            return
        try:
            old_sets = load_patterns_dir(self.patterns_dir)
        except PatternFileError as error:  # (the crawl read them at its start)
            logger.error("newsstem: cannot learn again, a pattern file is unusable: %s", error)
            return
        for site in sites:
            archived = fetched_since(by_site.get(site, ()), since[site])
            pages = [training_page(page) for page in archived]
            outcome = self.relearn(
                site, pages, old_sets.get(site), self.describe(archived, since[site])
            )
            self.stats.set_value(f"newsstem/relearn/{site}", outcome)

    def describe(self, pages: list[ArchivedPage], since: str | None) -> str:
        """The pages a site is learned again from, in words: ``12 pages of this crawl``,
        or, judged on the pages of earlier crawls too, how many the archive holds since
        the first of them started and how many this crawl fetched:

        >>> from newsstem.archive import ArchivedPage
        >>> relearn = Relearn("a.warc.gz", "patterns", None, 200)
        >>> relearn.started = "2026-11-03T06:00:00Z"
        >>> pages = [ArchivedPage(f"http://a.example/{n}", b"", 200, "text/html", at)
        ...          for n, at in enumerate(["2026-11-01T06:00:04Z", "2026-11-02T06:00:09Z",
        ...                                  "2026-11-03T06:00:02Z"])]
        >>> print(relearn.describe(pages, "2026-11-01T06:00:00Z"))  # doctest: +ELLIPSIS
        3 pages archived since 2026-11-01T06:00:00Z by this crawl and the crawls it was ...
        >>> relearn.describe(pages, "2026-11-01T06:00:00Z").split(" with ")[1]
        '(1 fetched by this crawl, 2 by earlier ones, from 2026-11-01T06:00:04Z)'
        >>> print(relearn.describe(pages[2:], "2026-11-03T06:00:00Z"))
        1 page of this crawl
        """
        counted = f"{len(pages)} page{'s' if len(pages) != 1 else ''}"
        if since is None or since == self.started or self.started is None:
            return f"{counted} of this crawl"
        ours = sum(page.fetched_at[:19] >= self.started[:19] for page in pages)
        first = min((page.fetched_at for page in pages), default=None)
        return (
            f"{counted} archived since {since} by this crawl and the crawls it was judged "
            f"with ({ours} fetched by this crawl, {len(pages) - ours} by earlier ones"
            + (f", from {first})" if first is not None and ours < len(pages) else ")")
        )

    def relearn(
        self, site: str, pages: list[TrainingPage], old: PatternSet | None,
        described: str | None = None,
    ) -> str:
        """Learn ``site`` again from ``pages`` (``described`` in words: :meth:`describe`);
        write its file if better. Says what it did."""
        described = described or f"{len(pages)} pages of this crawl"
        options = LearnOptions(min_main_chars=self.min_chars)
        if len(pages) < options.min_pages:
            logger.warning("newsstem: %s changed, but the archive holds %s: too few to learn "
                           "from", site, described)
            return "too few pages"
        relearned = relearn(site, pages, old, options)
        if not any(p.kind == "article" for p in relearned.pattern_set.patterns):
            logger.warning("newsstem: %s changed, and no article layout was learned from the "
                           "%s: its pattern file is kept", site, described)
            return "no article layout"
        if not relearned.better:
            logger.warning(
                "newsstem: %s changed; learned again from %s, the new patterns read "
                "them no better (%.0f%% vs %.0f%%): its pattern file is kept",
                site, described, 100 * relearned.new_fit, 100 * relearned.old_fit,
            )
            return "not better"
        try:
            path = save_pattern_file(relearned.pattern_set, self.patterns_dir)
        except OSError as error:
            logger.error(
                "newsstem: %s changed; learned again, but its pattern file cannot be written "
                "to %s (%s): set NEWSSTEM_PATTERNS_DIR to a writable directory",
                site, self.patterns_dir, error.strerror or error,
            )
            return "cannot write"
        logger.warning(
            "newsstem: %s changed; learned again from %s: %s written "
            "(they read %.0f%% of them well, the old patterns %.0f%%)%s",
            site, described, path, 100 * relearned.new_fit, 100 * relearned.old_fit,
            f"; kept the old patterns {', '.join(relearned.unseen)}: no page learned from "
            "has their layouts" if relearned.unseen else "",
        )
        if relearned.dropped:
            logger.warning(
                "newsstem: %s: the old patterns %s were dropped: no page learned from has "
                "their layouts, and they would read pages of a new one; learn the site "
                "again from all its pages to get them back", site, ", ".join(relearned.dropped),
            )
        if self.shared_store is not None:
            self.publish(relearned.pattern_set, path)
        return "written"

    def publish(self, pattern_set: PatternSet, path: Path) -> None:
        """Publish the file written at ``path`` in the shared Redis URL store, for the other
        workers."""
        site, shown = pattern_set.site, hide_password(self.shared_store or "")
        try:
            held = publish(self.shared_store or "", pattern_set)
        except StoreError as error:
            self.stats.inc_value("newsstem/shared_patterns/not_published")
            logger.warning(
                "newsstem: %s: its new pattern file cannot be published for the other "
                "workers (%s): they read the site with their own files (copy %s to their "
                "patterns directories)", site, error, path,
            )
            return
        if held.published:
            self.stats.inc_value("newsstem/shared_patterns/published")
            logger.info(
                "newsstem: %s: its new pattern file is published in %s (version %d): %s",
                site, shown, held.version, LOADED_WHEN,
            )
            return
        self.stats.inc_value("newsstem/shared_patterns/not_published")
        logger.warning(
            "newsstem: %s: its new pattern file (learned at %s) is not published: %s holds "
            "one learned later (at %s, version %d; ordered on the store's clock), which "
            "stays; this worker loads it at its next crawl start", site, pattern_set.learned_at,
            shown, held.learned_at, held.version,
        )
