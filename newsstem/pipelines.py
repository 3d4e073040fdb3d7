"""Item pipelines: thin Scrapy glue around the extraction modules."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, NoReturn

from scrapy.exceptions import DropItem

from newsstem import defaults, readability
from newsstem.items import Article, Page
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
        )

    def _drop(self, reason: str, page: Page, detail: str) -> NoReturn:
        self.stats.inc_value(f"newsstem/dropped/{reason}")
        raise DropItem(f"not an article ({detail}): {page.url}", log_level="DEBUG")
