"""Item pipelines: thin Scrapy glue around the extraction modules."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, NoReturn

from scrapy.exceptions import DropItem, NotConfigured

from newsstem import defaults, readability
from newsstem.items import Article, Page
from newsstem.metadata import FIELDS as METADATA_FIELDS
from newsstem.metadata import MetadataOptions, extract_metadata
from newsstem.text import meaningful_length

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.statscollectors import StatsCollector

logger = logging.getLogger(__name__)


class ExtractionPipeline:
    """Turn each :class:`Page` into an :class:`Article`, or drop it with a reason.

    Pages whose main text is shorter than ``NEWSSTEM_MIN_ARTICLE_CHARS``
    meaningful characters are hubs (index, category, tag pages): the spider
    has followed their links already; they are not exported. Each drop counts
    in ``newsstem/dropped/<reason>``, each export in ``newsstem/method/<method>``.
    """

    def __init__(self, stats: StatsCollector, min_chars: int, keep_body_html: bool) -> None:
        self.stats = stats
        self.min_chars = min_chars
        self.keep_body_html = keep_body_html

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ExtractionPipeline:
        settings = crawler.settings
        return cls(
            crawler.stats,
            settings.getint("NEWSSTEM_MIN_ARTICLE_CHARS", defaults.NEWSSTEM_MIN_ARTICLE_CHARS),
            settings.getbool("NEWSSTEM_BODY_HTML", defaults.NEWSSTEM_BODY_HTML),
        )

    def process_item(self, item: object) -> object:
        if not isinstance(item, Page):
            return item
        result = readability.extract(item.html, url=item.url)
        length = meaningful_length(result.body)
        if not result.body:
            self._drop("no_article", item, result.reason or "no article found")
        if length < self.min_chars:
            self._drop("too_short", item, f"{length} meaningful characters < {self.min_chars}")
        method = "readability"
        self.stats.inc_value(f"newsstem/method/{method}")
        return Article(
            url=item.url,
            site=item.site,
            title=result.title,
            body=result.body,
            length=length,
            method=method,
            depth=item.depth,
            fetched_at=item.fetched_at,
            anchor_texts=item.anchor_texts,
            body_html=result.body_html if self.keep_body_html else None,
            page=item,
        )

    def _drop(self, reason: str, page: Page, detail: str) -> NoReturn:
        self.stats.inc_value(f"newsstem/dropped/{reason}")
        raise DropItem(f"not an article ({detail}): {page.url}", log_level="DEBUG")


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
        metadata = extract_metadata(page.html, url=page.url, text=item.body, options=self.options)
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
