"""Item pipelines: thin Scrapy glue around the extraction modules."""

from __future__ import annotations

import logging
from array import array
from collections.abc import Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, NoReturn
from weakref import WeakKeyDictionary

import lxml.etree
from scrapy.exceptions import DropItem, NotConfigured

from newsstem import defaults
from newsstem.deployment import bundled_pattern_sets
from newsstem.extraction import GUARD_NEAREST, GUARD_REPLACED, PageExtraction, extract_page
from newsstem.items import Article, Page
from newsstem.layout.patterns import MatchOptions, PatternLibrary, load_patterns_dir
from newsstem.layout.redesign import (
    Counts,
    CountsFile,
    SiteCounts,
    Window,
    judge_sites,
    window_alone,
)
from newsstem.metadata import FIELDS as METADATA_FIELDS
from newsstem.metadata import MetadataOptions, extract_metadata
from newsstem.metadata.evidence import parse_html
from newsstem.metadata.headline import SiteNames
from newsstem.rules import canonical_elsewhere, copy_of
from newsstem.setting_values import read_setting
from newsstem.sharedpatterns import SharedPatterns, shared_patterns_store
from newsstem.text import meaningful_length
from newsstem.urldb import StoreError, open_store, redis_store_uri
from newsstem.urldb.store import TEXT, text_key, url_key

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.settings import BaseSettings
    from scrapy.statscollectors import StatsCollector

    from newsstem.urldb.redis_store import RedisUrlStore

logger = logging.getLogger(__name__)


class ExtractionPipeline:
    """Turn each :class:`Page` into an :class:`Article`, or drop it with a reason.

    Pages whose main text is shorter than ``NEWSSTEM_MIN_ARTICLE_CHARS``
    meaningful characters are hubs (index, category, tag pages): the spider
    has followed their links already; they are not exported. Each drop counts
    in ``newsstem/dropped/<reason>``, each export in ``newsstem/method/<method>``.

    The decision is :func:`newsstem.extraction.extract_page`'s: pages of a site with
    learned patterns (``NEWSSTEM_PATTERNS_DIR``, loaded once) are matched first: an
    article layout gives the body (method ``pattern:<id>``, checked by the guard), a hub
    layout drops the page (``hub_layout``); no match, or a main text too short, falls
    back to readability. Per site: ``newsstem/patterns/<site>/matched``,
    ``.../unmatched``, ``.../matched_rate``, ``.../articles_matched_rate`` (of the pages
    with an article, those an article pattern matched), ``.../disagreed`` (the guard changed the
    pattern's text or used the fallback's), ``.../too_short`` (the pattern's text was too
    short: readability was used), ``.../nearest`` (an unmatched page read by its nearest
    article layout, the fallback agreeing) and, when the crawl ends, ``.../layout_changed`` for a
    site whose pages stopped fitting its patterns. A site this crawl read fewer than
    ``NEWSSTEM_REDESIGN_MIN_PAGES`` pages of is judged with the pages of the crawls
    before it (``NEWSSTEM_REDESIGN_COUNTS``: :class:`newsstem.layout.redesign.CountsFile`):
    ``.../judged_pages``, ``.../judged_since``.

    With a Redis URL store shared by workers (``NEWSSTEM_SHARED_PATTERNS``), the pattern
    files other workers learned again and published there replace the crawl's own when
    they were learned later (:class:`newsstem.sharedpatterns.SharedPatterns`): at the
    crawl's start, and every ``NEWSSTEM_SHARED_PATTERNS_CHECK`` seconds while it runs (a
    site's pages read before are not counted for the redesign check then: they were read
    by the old file, and its ``newsstem/patterns/<site>/…`` counts start again: those
    pages go to ``…/before_load``). ``newsstem/shared_patterns/loaded``.
    """

    def __init__(
        self,
        stats: StatsCollector,
        min_chars: int,
        keep_body_html: bool,
        patterns: PatternLibrary | None = None,
        body_format: str = defaults.NEWSSTEM_BODY_FORMAT,
        body_links: bool = defaults.NEWSSTEM_BODY_LINKS,
        redesign_min_pages: int = defaults.NEWSSTEM_REDESIGN_MIN_PAGES,
        counts_path: Path | None = None,
        counts_store: str | None = None,
        shared: SharedPatterns | None = None,
        match_options: MatchOptions | None = None,
    ) -> None:
        self.stats = stats
        self.min_chars = min_chars
        self.keep_body_html = keep_body_html
        self.patterns = patterns if patterns is not None else PatternLibrary({})
        self.body_format = body_format
        self.body_links = body_links
        self.sites: dict[str, SiteCounts] = {}  # sites with patterns: how pages matched
        self.redesign_min_pages = redesign_min_pages
        self.counts_path = counts_path  # NEWSSTEM_REDESIGN_COUNTS's file, or None
        # ... or the Redis URL store that keeps the counts in its place (shared by workers)
        self.counts_store = counts_store
        self.shared = shared  # the pattern files other workers publish, or None
        self.match_options = match_options
        self.started = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ExtractionPipeline:
        settings = crawler.settings
        return cls(
            crawler.stats,
            settings.getint("NEWSSTEM_MIN_ARTICLE_CHARS", defaults.NEWSSTEM_MIN_ARTICLE_CHARS),
            read_setting(settings, "NEWSSTEM_BODY_HTML"),
            crawl_patterns(crawler),
            settings.get("NEWSSTEM_BODY_FORMAT", defaults.NEWSSTEM_BODY_FORMAT),
            read_setting(settings, "NEWSSTEM_BODY_LINKS"),
            settings.getint(
                "NEWSSTEM_REDESIGN_MIN_PAGES", defaults.NEWSSTEM_REDESIGN_MIN_PAGES
            ),
            redesign_counts_path(settings),
            redesign_counts_store(settings),
            shared_patterns(settings),
            match_options(settings),
        )

    def open_spider(self) -> None:
        if self.shared is not None:
            self._load_shared()

    def _load_shared(self) -> None:
        """Load the pattern files other workers published since this crawl's own were
        written (:class:`SharedPatterns`)."""
        assert self.shared is not None
        current = {site: found.pattern_set for site, found in self.patterns.sites.items()}
        for loaded in self.shared.check(current):
            site = loaded.pattern_set.site
            self.patterns.put(loaded.pattern_set, self.match_options)
            counted = self.sites.pop(site, None)  # read by the old file: not counted
            before = counted.pages if counted is not None else 0
            if before:
                self._restart_site_stats(site, before)
            self.stats.inc_value("newsstem/shared_patterns/loaded")
            logger.info(
                "newsstem: %s: loaded the pattern file published in %s (by a worker that "
                "learned the site again, or by learn --publish; version %d, learned at "
                "%s)%s%s%s",
                site, self.shared.shown, loaded.published.version, loaded.published.learned_at,
                f" in place of those learned at {loaded.replaced.learned_at or '(unknown)'}"
                if loaded.replaced is not None else "",
                f"; written to {loaded.path}" if loaded.path is not None else "",
                f"; the {before} pages read before are not counted for the redesign check, "
                f"and its stats count again ({before} in newsstem/patterns/{site}/before_load)"
                if before else "",
            )

    def _restart_site_stats(self, site: str, pages: int) -> None:
        """A site switched to a loaded file mid-crawl: its counts (``newsstem/patterns/
        <site>/matched`` …) start again, so that they describe the pages read with the file
        the crawl reads it with, the pages its redesign check judges (``matched_rate`` was
        already of those: ``matched`` and ``unmatched`` of both files disagreed with it);
        the ``pages`` read with the old file go to ``…/before_load``."""
        prefix = f"newsstem/patterns/{site}/"
        names = {prefix + name for name in _SITE_COUNTS}
        stats = self.stats.get_stats()
        if names & stats.keys():
            self.stats.set_stats({k: v for k, v in stats.items() if k not in names})
        self.stats.inc_value(f"{prefix}before_load", pages)

    def process_item(self, item: object) -> object:
        if not isinstance(item, Page):
            return item
        if self.shared is not None and self.shared.due():
            self._load_shared()
        site_patterns = self.patterns.get(item.site)
        try:
            result = extract_page(
                item.html, item.url, site_patterns, item.anchor_texts,
                min_chars=self.min_chars,
                body_html=self.keep_body_html or self.body_format != "text",
                rendered=item.boxes,
            )
        except Exception:  # a bug: its traceback is logged, the crawl's other pages go on
            logger.exception("newsstem: extraction failed on %s (a bug: please report it)",
                             item.url)
            self._drop("error", item, "extraction failed")
        if site_patterns is not None:
            self._count_match(item.site, result)
        if result.method == "hub":
            self._drop("hub_layout", item, result.reason or "a hub layout")
        if not result.body:
            if item.boxes is None and looks_script_built(item.html, self.min_chars):
                # a plain crawl of a site whose articles arrive by script: the run summary
                # said "no_article" and advised a deeper crawl, not browser mode
                self.stats.inc_value("newsstem/render/shells")
            self._drop("no_article", item, result.reason or "no article found")
        length = result.length
        if length < self.min_chars:
            self._drop("too_short", item, f"{length} meaningful characters < {self.min_chars}")
        affixes = site_patterns.pattern_set.site_names if site_patterns is not None else ()
        return self._article(item, result, length, affixes)

    def _article(
        self, page: Page, result: PageExtraction, length: int, title_affixes: tuple[str, ...]
    ) -> Article:
        """The exported article of *page*, its body in ``NEWSSTEM_BODY_FORMAT``: the HTML
        and the Markdown are built only when exported."""
        self._count_method(result.method)
        formats = {
            "text": lambda: result.body,
            "markdown": lambda: result.markdown(links=self.body_links),
            "html": result.html,
        }
        return Article(
            url=page.url,
            site=page.site,
            title=result.title,
            body=formats[self.body_format](),
            length=length,
            method=result.method,
            depth=page.depth,
            fetched_at=page.fetched_at,
            anchor_texts=page.anchor_texts,
            body_html=result.html() if self.keep_body_html else None,
            sub=result.sub or None,
            page=page,
            text=result.body,
            title_affixes=title_affixes,
            title_source=result.title_source,
        )

    def _count_method(self, method: str) -> None:
        self.stats.inc_value(f"newsstem/method/{method}")

    def _count_match(self, site: str, result: PageExtraction) -> None:
        """Per site with patterns: how its pages matched them (the signs of a redesign)."""
        prefix = f"newsstem/patterns/{site}"
        counts = self.sites.setdefault(site, SiteCounts())
        counts.add(result)
        self.stats.inc_value(f"{prefix}/{'matched' if result.pattern_id else 'unmatched'}")
        self.stats.set_value(f"{prefix}/matched_rate", round(counts.matched_rate, 4))
        if counts.article_pages:
            self.stats.set_value(
                f"{prefix}/articles_matched_rate", round(counts.articles_matched_rate, 4)
            )
        if result.disagreed:
            self.stats.inc_value(f"{prefix}/disagreed")
        if result.guard == GUARD_REPLACED:
            self.stats.inc_value(f"{prefix}/too_short")
        elif result.guard == GUARD_NEAREST:
            self.stats.inc_value(f"{prefix}/nearest")

    def close_spider(self) -> None:
        """Name the sites whose pages stopped fitting their patterns: a redesign. A site
        this crawl read too few pages of is judged with the pages earlier crawls read
        (``NEWSSTEM_REDESIGN_COUNTS``)."""
        pattern_sets = {
            site: found.pattern_set for site in self.sites
            if (found := self.patterns.get(site)) is not None
        }
        store = self._open_counts_store() if pattern_sets else None
        counts_file: Counts | None = None
        if store is not None:
            counts_file = _SharedCounts(store)
        elif self.counts_path is not None and pattern_sets and self.counts_store is None:
            counts_file = CountsFile(self.counts_path)
        try:
            judged = judge_sites(
                self.sites, pattern_sets, self.started, counts_file, self.redesign_min_pages
            )
        finally:
            if store is not None:
                store.close()
        for site, (change, window) in judged.items():
            earlier = window.counts.pages > self.sites[site].pages  # earlier crawls' pages too
            if earlier:
                prefix = f"newsstem/patterns/{site}"
                self.stats.set_value(f"{prefix}/judged_pages", window.counts.pages)
                self.stats.set_value(f"{prefix}/judged_since", window.since)
            if change is not None:
                if earlier:
                    change += f" (crawls since {window.since})"
                self.stats.set_value(f"newsstem/patterns/{site}/layout_changed", change)
                logger.warning("newsstem: %s: the layout seems to have changed: %s", site, change)
        if isinstance(counts_file, CountsFile):
            try:
                counts_file.save()
            except OSError as error:
                logger.warning(
                    "newsstem: cannot write the redesign counts file %s (%s): sites with "
                    "few pages in this crawl are judged on later crawls' pages only",
                    self.counts_path, error.strerror or error,
                )

    def _open_counts_store(self) -> RedisUrlStore | None:
        """The Redis URL store that keeps the redesign counts (``NEWSSTEM_REDESIGN_COUNTS``
        with a Redis ``NEWSSTEM_URLDB``), or None: none, or it cannot be reached (one
        warning: a site is judged on this crawl's pages alone if they are enough)."""
        if self.counts_store is None:
            return None
        try:
            store = open_store(self.counts_store)
        except StoreError as error:
            _counts_store_failed(error)
            return None
        return store  # type: ignore[return-value]  (redesign_counts_store: a Redis URI)

    def _drop(self, reason: str, page: Page, detail: str) -> NoReturn:
        self.stats.inc_value(f"newsstem/dropped/{reason}")
        raise DropItem(f"not an article ({detail}): {page.url}", log_level="DEBUG")


def looks_script_built(html: str, min_chars: int) -> bool:
    """Whether a page with no article is a shell its scripts fill in a browser: it has
    scripts, and its body's text (scripts, styles and templates left out) is shorter than
    an article (``min_chars`` meaningful characters).

    >>> looks_script_built('<html><body><div id=app>Loading…</div>'
    ...                    '<script src="/app.js"></script></body></html>', 200)
    True
    >>> looks_script_built('<html><body><p>Page not found</p></body></html>', 200)
    False
    >>> looks_script_built('<html><head><script type="application/ld+json">{}</script>'
    ...                    '</head><body><p>A short brief.</p></body></html>', 200)
    False
    """
    if "<script" not in html and "<script" not in html.lower():
        return False
    root = parse_html(html)  # metadata's parse: NULs and XML encoding declarations too
    if root is None:
        return False
    # code, not data (JSON-LD, templates: a short brief's metadata is no sign of a shell)
    # (libxml2 may leave elements beside the root: //script finds their scripts too)
    if not any(_is_code(script.get("type")) for script in root.xpath("//script")):
        return False
    body = root.find("body")
    if body is None:
        return True
    lxml.etree.strip_elements(body, "script", "style", "noscript", "template",
                              with_tail=False)
    return meaningful_length(body.text_content()) < min_chars


def _is_code(kind: str | None) -> bool:
    """Whether a ``<script>`` of this ``type`` is code (no type, an empty one, a module,
    a JavaScript type), not data."""
    return (not kind or kind == "module" or "javascript" in kind or "ecmascript" in kind)


# The per-site counts of _count_match, started again when a site switches files mid-crawl
_SITE_COUNTS = ("matched", "unmatched", "matched_rate", "articles_matched_rate", "disagreed",
                "too_short", "nearest")


def redesign_counts_path(settings: BaseSettings) -> Path | None:
    """``NEWSSTEM_REDESIGN_COUNTS``'s file (relative to ``NEWSSTEM_PATTERNS_DIR``), or
    None: off, or no patterns directory to keep it in."""
    name = settings.get("NEWSSTEM_REDESIGN_COUNTS", defaults.NEWSSTEM_REDESIGN_COUNTS)
    directory = settings.get("NEWSSTEM_PATTERNS_DIR", defaults.NEWSSTEM_PATTERNS_DIR)
    if not name or not (directory or Path(name).is_absolute()):
        return None
    path = Path(directory) / name
    return path if path.parent.is_dir() else None


def shared_patterns(settings: BaseSettings) -> SharedPatterns | None:
    """The pattern files other workers publish in the Redis URL store
    (``NEWSSTEM_SHARED_PATTERNS``), or None."""
    uri = shared_patterns_store(settings)
    if uri is None:
        return None
    return SharedPatterns(
        uri,
        settings.get("NEWSSTEM_PATTERNS_DIR", defaults.NEWSSTEM_PATTERNS_DIR),
        settings.getfloat(
            "NEWSSTEM_SHARED_PATTERNS_CHECK", defaults.NEWSSTEM_SHARED_PATTERNS_CHECK
        ),
    )


def match_options(settings: BaseSettings) -> MatchOptions:
    """How pages are matched to patterns (``NEWSSTEM_PATTERN_THRESHOLD``, ``…_STRICT``)."""
    return MatchOptions(
        threshold=settings.getfloat(
            "NEWSSTEM_PATTERN_THRESHOLD", defaults.NEWSSTEM_PATTERN_THRESHOLD
        ),
        strict=read_setting(settings, "NEWSSTEM_PATTERN_STRICT"),
    )


def redesign_counts_store(settings: BaseSettings) -> str | None:
    """The Redis URL store (``NEWSSTEM_URLDB``) that keeps the redesign counts in place of
    ``NEWSSTEM_REDESIGN_COUNTS``'s file, so that the workers of several machines add up
    one another's; None with a SQLite store, none, or ``NEWSSTEM_REDESIGN_COUNTS`` empty.

    >>> from scrapy.settings import Settings
    >>> redesign_counts_store(Settings({"NEWSSTEM_URLDB": "redis://127.0.0.1:7000/0"}))
    'redis://127.0.0.1:7000/0'
    >>> redesign_counts_store(Settings({"NEWSSTEM_URLDB": "redis://h:7000/0",
    ...                                 "NEWSSTEM_REDESIGN_COUNTS": ""}))
    >>> redesign_counts_store(Settings({"NEWSSTEM_URLDB": "sqlite:///urldb.sqlite"}))
    """
    if not settings.get("NEWSSTEM_REDESIGN_COUNTS", defaults.NEWSSTEM_REDESIGN_COUNTS):
        return None
    return redis_store_uri(settings.get("NEWSSTEM_URLDB", defaults.NEWSSTEM_URLDB))


def _counts_store_failed(error: StoreError) -> None:
    logger.warning(
        "newsstem: the redesign counts cannot be kept in the URL store (%s): this crawl's "
        "pages of the sites it read too few of are not counted (the counts of earlier "
        "crawls wait in the store for later ones); the others are judged on this crawl's "
        "pages alone", error,
    )


class _SharedCounts:
    """The redesign counts in the Redis URL store; a store that fails part-way is one
    warning, and the sites left are judged on this crawl's pages alone if they are enough
    (the others' pages of this crawl are not counted)."""

    def __init__(self, store: RedisUrlStore) -> None:
        from newsstem.urldb.redis_store import RedisRedesignCounts

        self.counts: Counts | None = RedisRedesignCounts(store)

    def add(
        self, site: str, patterns: str, started: str, counts: SiteCounts, min_pages: int
    ) -> Window | None:
        if self.counts is not None:
            try:
                return self.counts.add(site, patterns, started, counts, min_pages)
            except StoreError as error:
                _counts_store_failed(error)
                self.counts = None
        return window_alone(patterns, started, counts, min_pages)


# Pattern libraries the commands loaded (checking the files before any request), each
# for the pipeline of one crawler, with the settings it was loaded with.
_HANDED: WeakKeyDictionary[Crawler, tuple[tuple[Any, ...], PatternLibrary]] = (
    WeakKeyDictionary()
)


def hand_patterns(crawler: Crawler, settings: BaseSettings, library: PatternLibrary) -> None:
    """Give the crawler's :class:`ExtractionPipeline` the ``library`` a command loaded
    from ``settings``, so that the files are read (and their log lines said) once."""
    _HANDED[crawler] = (_pattern_settings(settings), library)


def crawl_patterns(crawler: Crawler) -> PatternLibrary:
    """The crawler's pattern library: the one handed by its command if the crawler's
    settings (a spider's ``custom_settings``, add-ons) did not change how it is loaded,
    else read with :func:`load_patterns`."""
    handed = _HANDED.pop(crawler, None)
    if handed is not None and handed[0] == _pattern_settings(crawler.settings):
        return handed[1]
    return load_patterns(crawler.settings)


def _pattern_settings(settings: BaseSettings) -> tuple[Any, ...]:
    """The settings :func:`load_patterns` reads."""
    return tuple(
        settings.get(name, getattr(defaults, name))
        for name in (
            "NEWSSTEM_PATTERNS_DIR", "NEWSSTEM_PATTERNS_BUNDLED",
            "NEWSSTEM_PATTERN_THRESHOLD", "NEWSSTEM_PATTERN_STRICT",
        )
    )


def load_patterns(settings: BaseSettings) -> PatternLibrary:
    """The pattern files shipped in the package, overridden by those of ``NEWSSTEM_PATTERNS_DIR``.

    The package's files (:func:`newsstem.deployment.bundled_pattern_sets`: a
    scrapyd egg carries the repository's ``patterns/``; a checkout has none)
    come first, unless ``NEWSSTEM_PATTERNS_BUNDLED`` is off; a file of the
    directory replaces the package's file of the same site. A missing
    directory has none. A corrupt file raises
    :class:`~newsstem.layout.patterns.PatternFileError` naming the file and the
    problem; the commands turn it into a usage error.
    """
    directory = settings.get("NEWSSTEM_PATTERNS_DIR", defaults.NEWSSTEM_PATTERNS_DIR)
    bundled = read_setting(settings, "NEWSSTEM_PATTERNS_BUNDLED")
    sets = bundled_pattern_sets() if bundled else {}
    own: dict = {}
    if directory:
        missing = directory != defaults.NEWSSTEM_PATTERNS_DIR and not Path(directory).exists()
        if missing:
            # "(relative to CWD)" only for a relative path: after an absolute one it read as
            # if the absolute path had been taken relative to the working directory
            where = "" if Path(directory).is_absolute() else f" (relative to {Path.cwd()})"
            logger.warning(
                "newsstem: NEWSSTEM_PATTERNS_DIR %s does not exist%s: "
                "no pattern files from it", directory, where,
            )
        own = load_patterns_dir(Path(directory))
        sets.update(own)
    if not sets:
        return PatternLibrary({})
    library = PatternLibrary.from_sets(sets, match_options(settings))
    logger.info(
        "newsstem: layout patterns for %d site(s) (%d from the package, %d from %s): %s",
        len(library), len(library) - len(own), len(own), directory or "-",
        ", ".join(sorted(library)),
    )
    return library


class _Keep(logging.Handler):
    def __init__(self, records: list[logging.LogRecord]) -> None:
        super().__init__(logging.DEBUG)
        self.records = records

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def load_patterns_before_logging(
    settings: BaseSettings,
) -> tuple[PatternLibrary, list[logging.LogRecord]]:
    """:func:`load_patterns` for a command checking its settings before Scrapy starts, so
    that a corrupt file is its one error line: Scrapy has not set up logging yet, so the
    lines loading logs (which sites have patterns, a missing directory) are kept and
    returned, for the command to log with :func:`log_later` once Scrapy has started."""
    records: list[logging.LogRecord] = []
    keep = _Keep(records)
    level, propagate = logger.level, logger.propagate
    logger.addHandler(keep)
    logger.setLevel(logging.DEBUG)
    logger.propagate = False
    try:
        return load_patterns(settings), records
    finally:
        logger.removeHandler(keep)
        logger.setLevel(level)
        logger.propagate = propagate


def log_later(records: Sequence[logging.LogRecord]) -> None:
    """Log the lines :func:`load_patterns_before_logging` kept (Scrapy's log level applies)."""
    for record in records:
        logging.getLogger(record.name).handle(record)


# -- metadata ------------------------------------------------------------------------


class MetadataPipeline:
    """Fill the metadata fields of each :class:`Article` from its page's HTML, and
    decide its headline.

    Runs after extraction, so the language is checked against the article text.
    A date a sitemap or feed gave the page is the fallback when the page states
    none. The ``title`` becomes the headline :mod:`newsstem.metadata.headline`
    decides from the extraction's title, the page's own statements, the anchor
    texts of links to it and the site's name (learned from the ``<title>``s of the
    site's pages in this crawl, and recorded in its pattern file; exported as
    ``site_name`` when the page states none). Counts
    ``newsstem/metadata/articles``, per field the articles that got it
    (``newsstem/metadata/<field>``), and where each headline came from
    (``newsstem/metadata/headline/<source>``).
    """

    def __init__(self, stats: StatsCollector, options: MetadataOptions) -> None:
        self.stats = stats
        self.options = options
        self.site_names: dict[str, SiteNames] = {}  # per site: its <title> affixes so far

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> MetadataPipeline:
        settings = crawler.settings
        if not read_setting(settings, "NEWSSTEM_METADATA"):
            raise NotConfigured
        options = MetadataOptions(
            htmldate=read_setting(settings, "NEWSSTEM_METADATA_HTMLDATE"),
            htmldate_extensive=read_setting(settings, "NEWSSTEM_METADATA_HTMLDATE_EXTENSIVE"),
        )
        return cls(crawler.stats, options)

    def process_item(self, item: object) -> object:
        if not isinstance(item, Article):
            return item
        page = item.source
        if page is None:  # an Article made elsewhere, without its page
            self.stats.inc_value("newsstem/metadata/no_page")
            return item
        names = self.site_names.get(item.site)
        if names is None:
            names = self.site_names[item.site] = SiteNames(item.title_affixes)
        try:
            metadata = extract_metadata(
                page.html, url=page.url, text=item.text, options=self.options,
                title_candidates=[(item.title_source, item.title)] if item.title else [],
                anchor_texts=item.anchor_texts, site_names=names.names(),
            )
        except Exception:  # a bug: the article goes out without metadata, the traceback logged
            logger.exception("newsstem: metadata failed on %s (a bug: please report it)",
                             page.url)
            self.stats.inc_value("newsstem/metadata/error")
            item.source = None
            return item
        names.add(metadata.page_title)
        if metadata.site_name is None and names.names():  # the page states none
            metadata.site_name = names.names()[0]
            metadata.sources["site_name"] = "title-affix"
        if metadata.headline:
            item.title = metadata.headline
            self.stats.inc_value(f"newsstem/metadata/headline/{metadata.sources['headline']}")
        if metadata.published is None and page.listed_published:
            metadata.published = page.listed_published
        for name in METADATA_FIELDS:
            value = getattr(metadata, name)
            setattr(item, name, value)
            if value:
                self.stats.inc_value(f"newsstem/metadata/{name}")
        self.stats.inc_value("newsstem/metadata/articles")
        item.source = None  # the HTML is not needed any more
        return item


# -- copies ----------------------------------------------------------------------------

# How much of this crawl DuplicatePipeline remembers: this many URLs of exported articles
# (an article's own, and the original it names: one or two an article) and as many texts
# (about 45 MB: ~0.45 KB an article, stop 49); the URL store knows the older ones.
REMEMBERED_ARTICLES = 100_000


class DuplicatePipeline:
    """Export each article once, whichever of its URLs the crawl reached first.

    A page that declares another URL of its site canonical (``canonical_url``, filled
    by :class:`MetadataPipeline`: a print page, a share or tracking variant) is a copy
    of the article there (:func:`newsstem.rules.copy_of`). A copy is dropped
    (``newsstem/dropped/duplicate``) when this crawl exported its canonical article
    under the same headline, or when the URL store says an earlier crawl exported it
    (unless refreshing); a copy exported first stands for its canonical article, which
    is then dropped the same way when reached. A different headline means a canonical
    URL declared by mistake (every page naming the home page): both are exported; so
    are two pages under one headline that share no paragraph (page 2 of an article
    naming page 1 canonical: its text is not page 1's). The URL store records a dropped
    copy's URL as exported along with the article it copies, never before that article
    is durably in the output (:meth:`newsstem.urldb.middleware.UrlDbMiddleware.mark_along`).

    Copies that declare nothing (no canonical URL, or no metadata) are known by their
    text: an article under the same headline with the same first :data:`_KEY_PARAGRAPHS`
    long paragraphs as one exported on its site (by this crawl, or by an earlier one: the
    URL store records the article's :func:`newsstem.urldb.text_key` with it) is dropped
    the same way. So is an original reached in a later crawl than its exported copy.

    Pages of this crawl that name one canonical URL on another site (a mobile host's or a
    mirror's story and its print page, :func:`newsstem.rules.canonical_elsewhere`) are
    copies of each other under the same headline and text: the first reached goes out.

    The crawl's own exports are remembered for the last ``remembered`` URLs (an article's
    own, and the original it names: one or two an article) and the last ``remembered``
    texts (about 0.45 KB an article, so a worker that never stops keeps a bounded memory);
    an older article's copies are still known through the URL store, which keeps them all.
    """

    def __init__(
        self, stats: StatsCollector, crawler: Crawler | None = None,
        remembered: int = REMEMBERED_ARTICLES,
    ) -> None:
        self.stats = stats
        self.crawler = crawler
        self.remembered = remembered
        # key of a URL whose article went out -> (hash of its headline, key of the item's
        # URL, hashes of its first paragraphs packed: _packed)
        self.exported: dict[bytes, tuple[int, bytes, bytes]] = {}
        self.urldb: Any = None  # the crawl's UrlDbMiddleware, if any
        self.texts: dict[bytes, bytes] = {}  # text key of an exported article -> its URL key

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> DuplicatePipeline:
        return cls(crawler.stats, crawler)

    def open_spider(self) -> None:
        from newsstem.urldb.middleware import UrlDbMiddleware

        if self.crawler is not None:
            self.urldb = self.crawler.get_spider_middleware(UrlDbMiddleware)

    def process_item(self, item: object) -> object:
        if not isinstance(item, Article):
            return item
        marks = _marks(item)
        self._drop_copy(item, marks)
        self._remember(marks)
        return item

    def _drop_copy(self, item: Article, marks: _Marks) -> None:
        """Drop ``item`` (:meth:`_duplicate`) if it copies an article this crawl exported
        or, the URL store says, an earlier one."""
        for key in (marks.own, *marks.named):
            found = self.exported.get(key)
            if found is not None and marks.title and found[0] == marks.title and _same_text(
                _unpacked(found[2]), marks.paragraphs
            ):
                self._duplicate(item, found[1])
        if (
            marks.original is not None and self.urldb is not None
            and self.urldb.was_exported(marks.original)
        ):
            self._duplicate(item, marks.named[0])
        if marks.text is not None:
            if marks.text in self.texts:
                self._duplicate(item, self.texts[marks.text])
            if self.urldb is not None and self.urldb.text_was_exported(marks.text):
                self._duplicate(item, marks.text)

    def _remember(self, marks: _Marks) -> None:
        """Remember an exported article by its URLs and its text (the last
        ``remembered`` of each); the URL store records its text key with it."""
        entry = (marks.title, marks.own, _packed(marks.paragraphs))
        self.exported[marks.own] = entry
        for key in marks.named:
            self.exported.setdefault(key, entry)
        if marks.text is not None:
            self.texts[marks.text] = marks.own
            if self.urldb is not None:
                self.urldb.mark_key_along(marks.text, marks.own, TEXT)  # with the article
        for remembered in (self.exported, self.texts):
            while len(remembered) > self.remembered:  # the oldest first (insertion order)
                del remembered[next(iter(remembered))]

    def _duplicate(self, item: Article, article: bytes) -> NoReturn:
        self.stats.inc_value("newsstem/dropped/duplicate")
        # not exported after all: newsstem/method/<method> counts exports (the summary's
        # "articles exported: N (readability N)" must add up)
        self.stats.inc_value(f"newsstem/method/{item.method}", -1)
        if self.urldb is not None:
            self.urldb.mark_along(item.url, article)
        raise DropItem(f"a copy of an article already exported: {item.url}", log_level="DEBUG")


class _Marks(NamedTuple):
    """What :class:`DuplicatePipeline` tells an article and its copies by."""

    own: bytes  # the key of the article's URL
    # the keys of the URLs it names as its original: on its site (copy_of), or on another
    # (canonical_elsewhere); one at most
    named: tuple[bytes, ...]
    original: str | None  # the URL on its site it names as its original (copy_of)
    title: int  # hash of its headline, case and whitespace folded; 0 without one
    paragraphs: frozenset[int]  # hashes of its first long paragraphs
    text: bytes | None  # its text key (site, headline, opening); None without those


def _marks(item: Article) -> _Marks:
    """The marks of an exported article (or of a copy of one)."""
    original = copy_of(item.url, item.canonical_url)
    elsewhere = canonical_elsewhere(item.url, item.canonical_url)
    headline = " ".join((item.title or "").casefold().split())
    opening = _long_paragraphs(item.text or "")  # the plain text, whatever the body format
    return _Marks(
        url_key(item.url),
        tuple(url_key(url) for url in (original, elsewhere) if url is not None),
        original,
        hash(headline) if headline else 0,
        frozenset(hash(p) for p in opening),
        text_key(item.site, headline, opening[:_KEY_PARAGRAPHS]) if headline and opening
        else None,
    )


# A copy shares its article's text: the hashes of the first paragraphs of this many
# characters or more, this many of them, are compared.
_PARAGRAPH_CHARS = 40
_PARAGRAPHS = 8
# The text key of an article (a copy without a canonical URL, an earlier crawl's article)
# is its headline and its first two long paragraphs, exactly: strong evidence (page 2 of
# an article, a follow-up under the same headline, open with other paragraphs), and a
# print page that adds or drops a box further down still matches.
_KEY_PARAGRAPHS = 2


def _long_paragraphs(body: str) -> list[str]:
    """The first distinct long paragraphs of a body (whitespace and case folded).

    >>> _long_paragraphs("Short.\\n  The minister  said so on Monday, in the House, twice.")
    ['the minister said so on monday, in the house, twice.']
    """
    found: dict[str, None] = {}
    for line in body.splitlines():
        words = " ".join(line.casefold().split())
        if len(words) >= _PARAGRAPH_CHARS:
            found[words] = None
            if len(found) == _PARAGRAPHS:
                break
    return list(found)


def _packed(hashes: frozenset[int]) -> bytes:
    """Paragraph hashes as one bytes object, 8 bytes a hash: a frozenset of 8 ints held
    ~1 KB, most of the ~1.1 KB an exported article cost DuplicatePipeline (stop 49's crawl
    memory); unpacked only for an article a copy names.

    >>> sorted(_unpacked(_packed(frozenset({-3, 2**62}))))
    [-3, 4611686018427387904]
    """
    return array("q", hashes).tobytes()


def _unpacked(packed: bytes) -> frozenset[int]:
    hashes = array("q")
    hashes.frombytes(packed)
    return frozenset(hashes)


def _same_text(first: frozenset[int], second: frozenset[int]) -> bool:
    """Whether two bodies are one text: half the long paragraphs of the shorter in the
    other (bodies without a long paragraph, a few lines each, count as one text).

    >>> _same_text(frozenset({1, 2, 3}), frozenset({2, 3, 4})), _same_text(
    ...     frozenset({1, 2}), frozenset({3, 4}))
    (True, False)
    """
    if not first or not second:
        return True
    return 2 * len(first & second) >= min(len(first), len(second))
