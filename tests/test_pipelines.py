"""MetadataPipeline (newsstem/pipelines.py) on items as the extraction pipeline makes them."""

from __future__ import annotations

import pytest
from itemadapter import ItemAdapter
from scrapy.exceptions import NotConfigured
from scrapy.statscollectors import MemoryStatsCollector
from scrapy.utils.test import get_crawler

from newsstem.items import Article, Page
from newsstem.pipelines import MetadataPipeline

HTML = """<html lang="en"><head><meta name="author" content="By Jane Doe">
<meta property="og:image" content="/img/lead.jpg"></head>
<body><h1>Headline</h1><p>The minister said that the plan was not ready and that it would be
changed by the end of the year, as the budget for this work is not yet in place.</p></body></html>"""


def _article(html: str = HTML, listed: str | None = None) -> Article:
    page = Page(url="https://site.example/a/1.html", site="site.example", html=html,
                encoding="utf-8", depth=0, fetched_at="2026-11-21T00:00:00Z",
                listed_published=listed)
    return Article(url=page.url, site=page.site, title="Headline", body="The minister said ...",
                   length=20, method="readability", depth=0, fetched_at=page.fetched_at, page=page)


def _pipeline(**settings) -> tuple[MetadataPipeline, MemoryStatsCollector]:
    crawler = get_crawler(settings_dict=settings)
    stats = MemoryStatsCollector(crawler)
    crawler.stats = stats
    return MetadataPipeline.from_crawler(crawler), stats


def test_fields_are_filled_counted_and_the_page_let_go():
    pipeline, stats = _pipeline()
    article = pipeline.process_item(_article())
    assert article.authors == ["Jane Doe"]
    assert article.image == "https://site.example/img/lead.jpg"
    assert article.language == "en"
    assert article.source is None
    assert stats.get_value("newsstem/metadata/articles") == 1
    assert stats.get_value("newsstem/metadata/authors") == 1
    assert stats.get_value("newsstem/metadata/section") is None


def test_a_listing_date_is_the_fallback():
    pipeline, stats = _pipeline()
    article = pipeline.process_item(_article(listed="2026-11-20T08:00:00+00:00"))
    assert article.published == "2026-11-20T08:00:00+00:00"
    dated = HTML.replace("<head>", '<head><meta property="article:published_time" content="2026-11-19">')
    assert pipeline.process_item(_article(dated, "2026-11-20T08:00:00+00:00")).published == "2026-11-19"


def test_the_page_is_never_exported():
    exported = ItemAdapter(_article()).asdict()
    assert "page" not in exported and "source" not in exported
    assert exported["authors"] == [] and exported["published"] is None


def test_other_items_pass_and_the_pipeline_can_be_switched_off():
    pipeline, _ = _pipeline()
    assert pipeline.process_item({"x": 1}) == {"x": 1}
    with pytest.raises(NotConfigured):
        _pipeline(NEWSSTEM_METADATA=False)
