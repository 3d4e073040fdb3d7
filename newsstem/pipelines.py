"""Item pipelines: thin Scrapy glue around the extraction modules."""

from __future__ import annotations

import html
import logging
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from scrapy.exceptions import DropItem, NotConfigured

from newsstem import defaults, readability
from newsstem.deployment import bundled_pattern_sets
from newsstem.formats import blocks_to_markdown, html_to_markdown
from newsstem.items import Article, Page
from newsstem.layout.patterns import (
    Extraction,
    HubPage,
    MatchOptions,
    PatternLibrary,
    load_patterns_dir,
)
from newsstem.metadata import FIELDS as METADATA_FIELDS
from newsstem.metadata import MetadataOptions, extract_metadata
from newsstem.text import meaningful_length

if TYPE_CHECKING:
    from collections.abc import Callable

    from scrapy.crawler import Crawler
    from scrapy.statscollectors import StatsCollector

logger = logging.getLogger(__name__)


class ExtractionPipeline:
    """Turn each :class:`Page` into an :class:`Article`, or drop it with a reason.

    Pages whose main text is shorter than ``NEWSSTEM_MIN_ARTICLE_CHARS``
    meaningful characters are hubs (index, category, tag pages): the spider
    has followed their links already; they are not exported. Each drop counts
    in ``newsstem/dropped/<reason>``, each export in ``newsstem/method/<method>``.

    Pages of a site with learned patterns (``NEWSSTEM_PATTERNS_DIR``, loaded
    once) are matched first: an article layout gives the body (method
    ``pattern:<id>``), a hub layout drops the page (``hub_layout``); no match,
    or a main text too short, falls back to readability. Per site:
    ``newsstem/patterns/<site>/matched``, ``.../unmatched``, ``.../matched_rate``
    and ``.../too_short`` (matched, main text too short: readability was used).
    """

    def __init__(
        self,
        stats: StatsCollector,
        min_chars: int,
        keep_body_html: bool,
        patterns: PatternLibrary | None = None,
        body_format: str = defaults.NEWSSTEM_BODY_FORMAT,
        body_links: bool = defaults.NEWSSTEM_BODY_LINKS,
    ) -> None:
        self.stats = stats
        self.min_chars = min_chars
        self.keep_body_html = keep_body_html
        self.patterns = patterns or PatternLibrary({})
        self.body_format = body_format
        self.body_links = body_links

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ExtractionPipeline:
        settings = crawler.settings
        return cls(
            crawler.stats,
            settings.getint("NEWSSTEM_MIN_ARTICLE_CHARS", defaults.NEWSSTEM_MIN_ARTICLE_CHARS),
            settings.getbool("NEWSSTEM_BODY_HTML", defaults.NEWSSTEM_BODY_HTML),
            load_patterns(settings),
            settings.get("NEWSSTEM_BODY_FORMAT", defaults.NEWSSTEM_BODY_FORMAT),
            settings.getbool("NEWSSTEM_BODY_LINKS", defaults.NEWSSTEM_BODY_LINKS),
        )

    def process_item(self, item: object) -> object:
        if not isinstance(item, Page):
            return item
        site_patterns = self.patterns.get(item.site)
        if site_patterns is not None:
            article = self._by_pattern(item, site_patterns.extract(item.html))
            if article is not None:
                return article
        needs_html = self.keep_body_html or self.body_format != "text"
        result = readability.extract(item.html, url=item.url, body_html=needs_html)
        length = meaningful_length(result.body)
        if not result.body:
            self._drop("no_article", item, result.reason or "no article found")
        if length < self.min_chars:
            self._drop("too_short", item, f"{length} meaningful characters < {self.min_chars}")
        return self._article(
            item, "readability", result.title, result.body, length, lambda: result.body_html,
            lambda: html_to_markdown(result.body_html, links=self.body_links),
        )

    def _by_pattern(self, page: Page, result: Extraction | HubPage | object) -> Article | None:
        """The article a pattern found, None to fall back to readability; drops hubs."""
        site = page.site
        if not isinstance(result, (Extraction, HubPage)):
            self._count_match(site, matched=False)
            return None
        self._count_match(site, matched=True)
        if isinstance(result, HubPage):
            self._drop("hub_layout", page, f"layout of hub pages {result.pattern_id}")
        body = result.body
        length = meaningful_length(body)
        if length < self.min_chars:
            self.stats.inc_value(f"newsstem/patterns/{site}/too_short")
            return None
        # The blocks' keys are not at hand here yet: their text comes as paragraphs.
        blocks = [("", text) for text in result.main]
        return self._article(
            page, f"pattern:{result.pattern_id}", result.title, body, length,
            lambda: _paragraphs_html(body), lambda: blocks_to_markdown(blocks),
            sub=result.sub_text or None,
        )

    def _article(self, page: Page, method: str, title: str, text: str, length: int,
                 body_html: Callable[[], str], markdown: Callable[[], str],
                 sub: str | None = None) -> Article:
        """The exported article of *page*, its body in ``NEWSSTEM_BODY_FORMAT``: the HTML
        and the Markdown are built only when exported."""
        self.stats.inc_value(f"newsstem/method/{method}")
        formats = {"text": lambda: text, "markdown": markdown, "html": body_html}
        return Article(
            url=page.url,
            site=page.site,
            title=title,
            body=formats[self.body_format](),
            length=length,
            method=method,
            depth=page.depth,
            fetched_at=page.fetched_at,
            anchor_texts=page.anchor_texts,
            body_html=body_html() if self.keep_body_html else None,
            sub=sub,
            page=page,
            text=text,
        )

    def _count_match(self, site: str, matched: bool) -> None:
        prefix = f"newsstem/patterns/{site}"
        self.stats.inc_value(f"{prefix}/{'matched' if matched else 'unmatched'}")
        hits = self.stats.get_value(f"{prefix}/matched", 0)
        misses = self.stats.get_value(f"{prefix}/unmatched", 0)
        self.stats.set_value(f"{prefix}/matched_rate", round(hits / (hits + misses), 4))

    def _drop(self, reason: str, page: Page, detail: str) -> NoReturn:
        self.stats.inc_value(f"newsstem/dropped/{reason}")
        raise DropItem(f"not an article ({detail}): {page.url}", log_level="DEBUG")


def load_patterns(settings: object) -> PatternLibrary:
    """The pattern files shipped in the package, overridden by those of ``NEWSSTEM_PATTERNS_DIR``.

    The package's files (:func:`newsstem.deployment.bundled_pattern_sets`: a
    scrapyd egg carries the repository's ``patterns/``; a checkout has none)
    come first, unless ``NEWSSTEM_PATTERNS_BUNDLED`` is off; a file of the
    directory replaces the package's file of the same site. A missing
    directory has none. A corrupt file raises
    :class:`~newsstem.layout.patterns.PatternFileError` naming the file and the
    problem; the commands turn it into a usage error.
    """
    get = settings.get  # type: ignore[attr-defined]
    directory = get("NEWSSTEM_PATTERNS_DIR", defaults.NEWSSTEM_PATTERNS_DIR)
    bundled = settings.getbool(  # type: ignore[attr-defined]
        "NEWSSTEM_PATTERNS_BUNDLED", defaults.NEWSSTEM_PATTERNS_BUNDLED
    )
    sets = bundled_pattern_sets() if bundled else {}
    own: dict = {}
    if directory:
        if directory != defaults.NEWSSTEM_PATTERNS_DIR and not Path(directory).exists():
            logger.warning(
                "newsstem: NEWSSTEM_PATTERNS_DIR %s does not exist (relative to %s): "
                "no pattern files from it", directory, Path.cwd(),
            )
        own = load_patterns_dir(Path(directory))
        sets.update(own)
    if not sets:
        return PatternLibrary({})
    options = MatchOptions(
        threshold=settings.getfloat(  # type: ignore[attr-defined]
            "NEWSSTEM_PATTERN_THRESHOLD", defaults.NEWSSTEM_PATTERN_THRESHOLD
        ),
        strict=settings.getbool(  # type: ignore[attr-defined]
            "NEWSSTEM_PATTERN_STRICT", defaults.NEWSSTEM_PATTERN_STRICT
        ),
    )
    library = PatternLibrary.from_sets(sets, options)
    logger.info(
        "newsstem: layout patterns for %d site(s) (%s from the package, the others from %s): %s",
        len(library), len(library) - len(own), directory or "-", ", ".join(sorted(library)),
    )
    return library


def _paragraphs_html(body: str) -> str:
    return "".join(f"<p>{html.escape(p)}</p>" for p in body.split("\n\n") if p)


# -- metadata ------------------------------------------------------------------------


class MetadataPipeline:
    """Fill the metadata fields of each :class:`Article` from its page's HTML.

    Runs after extraction, so the language is checked against the article text.
    A date a sitemap or feed gave the page is the fallback when the page states
    none. Counts ``newsstem/metadata/articles`` and, per field, the articles that
    got it: ``newsstem/metadata/<field>``.
    """

    def __init__(self, stats: StatsCollector, options: MetadataOptions) -> None:
        self.stats = stats
        self.options = options

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> MetadataPipeline:
        settings = crawler.settings
        if not settings.getbool("NEWSSTEM_METADATA", defaults.NEWSSTEM_METADATA):
            raise NotConfigured
        options = MetadataOptions(
            htmldate=settings.getbool(
                "NEWSSTEM_METADATA_HTMLDATE", defaults.NEWSSTEM_METADATA_HTMLDATE
            ),
            htmldate_extensive=settings.getbool(
                "NEWSSTEM_METADATA_HTMLDATE_EXTENSIVE",
                defaults.NEWSSTEM_METADATA_HTMLDATE_EXTENSIVE,
            ),
        )
        return cls(crawler.stats, options)

    def process_item(self, item: object) -> object:
        if not isinstance(item, Article):
            return item
        page = item.source
        if page is None:  # an Article made elsewhere, without its page
            self.stats.inc_value("newsstem/metadata/no_page")
            return item
        metadata = extract_metadata(page.html, url=page.url, text=item.text, options=self.options)
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
