"""``scrapy parse --spider=news URL``: the page given is the start URL when no ``-a`` names
one (stop 33: it ended in an asyncio traceback, no response downloaded)."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.crawl import scrapy
from support.httpserver import FixtureSite

SITE = Path(__file__).resolve().parents[1] / "layout" / "fixtures" / "msnbc"


@pytest.fixture(scope="module")
def site():
    server = FixtureSite(SITE).start()
    yield server
    server.stop()


def test_parse_reads_the_page_given_without_a_start_url(site):
    result = scrapy("parse", "--spider=news", f"{site.url}/news_03.html")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert "give at least one start URL" not in result.stderr
    assert "Scraped Items" in result.stdout
    assert f"'url': '{site.url}/news_03.html'" in result.stdout
    assert "/news_03.html" in site.paths()


def test_parse_checks_the_spider_arguments_as_crawl_does(site):
    result = scrapy("parse", "--spider=news", "-a", "depht=2", f"{site.url}/news_03.html")
    assert result.returncode == 2
    assert "news: unknown argument 'depht' (did you mean depth?)" in result.stderr
    assert "Traceback" not in result.stderr
