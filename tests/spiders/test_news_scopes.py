"""Scopes: every request names the scope of its start URL, and any process rebuilds it the same."""

from __future__ import annotations

import json

import pytest
from scrapy.crawler import Crawler
from scrapy.exceptions import UsageError
from scrapy.settings import Settings
from scrapy.statscollectors import MemoryStatsCollector
from scrapy.utils.test import get_crawler

from newsstem.spiders.news import SCOPE_META_KEY, NewsSpider


def spider(**settings_and_arguments) -> NewsSpider:
    arguments = {k: v for k, v in settings_and_arguments.items() if k.islower()}
    settings = {k: v for k, v in settings_and_arguments.items() if k.isupper()}
    # As `scrapy crawl` does: the spider is made before the settings are frozen.
    crawler = Crawler(NewsSpider, Settings({"DEPTH_LIMIT": 1, **settings}))
    crawler.stats = MemoryStatsCollector(crawler)
    return NewsSpider.from_crawler(crawler, **arguments)


def start_requests(news: NewsSpider) -> list:
    return list(news.start_requests_for(news.scope))


def test_a_scope_is_rebuilt_the_same_by_a_process_with_other_settings():
    origin = spider(
        start_url="https://site.example/news/", DEPTH_LIMIT=3,
        NEWSSTEM_URL_RULES=["-/print/", "+^https://site.example/"],
    )
    [request] = start_requests(origin)
    key = request.meta[SCOPE_META_KEY]
    elsewhere = spider(NEWSSTEM_DISTRIBUTED="redis://127.0.0.1:6390/0")  # no start URL, defaults
    assert elsewhere.scope is None
    scope = elsewhere.scope_of(request.meta)
    assert scope.start_urls == ("https://site.example/news/",)
    assert elsewhere.max_depth(scope) == 3
    for url in ("https://site.example/sport/1.html", "https://site.example/print/1.html"):
        assert scope.rules.accepts(url) == origin.scope.rules.accepts(url)
    assert scope.rules.accepts("https://site.example/sport/1.html")
    assert elsewhere.scope_of(request.meta) is scope, "built once per process"
    assert json.loads(key) == {
        "depth_limit": "3", "rules": "-/print/ +^https://site.example/",
        "start_url": "https://site.example/news/",
    }


def test_depth_0_and_depth_limit_0_keep_their_meanings_across_processes():
    start_only = spider(start_url="https://a.example/", depth="0")
    unlimited = spider(start_url="https://a.example/", DEPTH_LIMIT=0)
    other = spider(NEWSSTEM_DISTRIBUTED="redis://127.0.0.1:6390/0")
    for origin, follows_deep in ((start_only, False), (unlimited, True)):
        [request] = start_requests(origin)
        scope = other.scope_of(request.meta)
        assert other.follows(scope, 0) is follows_deep
        assert other.follows(scope, 50) is follows_deep


def test_list_settings_may_be_json_strings_as_scrapyd_passes_them():
    news = spider(
        NEWSSTEM_START_URLS='["https://a.example/", "https://b.example/x/"]',
        NEWSSTEM_URL_RULES='["+^https://a\\\\.example/", "+/x/"]',
    )
    assert news.start_urls == ["https://a.example/", "https://b.example/x/"]
    assert news.scope.rules.accepts("https://b.example/x/1.html")
    assert not news.scope.rules.accepts("https://b.example/y/1.html")
    with pytest.raises(UsageError, match="not a JSON list of strings"):
        spider(NEWSSTEM_START_URLS='["https://a.example/", 3]')


@pytest.mark.parametrize("distributed", ["", "redis://127.0.0.1:6390/0"])
def test_a_broken_json_list_of_tracking_params_is_refused_before_the_crawl(distributed):
    # scrapy crawl checks the arguments and settings with check_arguments before Scrapy
    # starts; this list was read only when the spider was made: a traceback, exit status 1
    settings = {"NEWSSTEM_TRACKING_PARAMS": '["share", "ref"', "NEWSSTEM_DISTRIBUTED": distributed}
    with pytest.raises(UsageError, match="NEWSSTEM_TRACKING_PARAMS: .* not a JSON list"):
        NewsSpider.check_arguments(get_crawler(settings_dict=settings).settings,
                                   start_url="https://a.example/")
    fine = {"NEWSSTEM_TRACKING_PARAMS": '["share", "ref"]'}
    assert NewsSpider.check_arguments(get_crawler(settings_dict=fine).settings,
                                      start_url="https://a.example/") is not None
    assert spider(start_url="https://a.example/", **fine).tracking_params == {"share", "ref"}


def test_a_distributed_worker_may_start_without_a_start_url_others_may_not():
    settings = {"NEWSSTEM_DISTRIBUTED": "redis://127.0.0.1:6390/0"}
    worker = spider(**settings)
    assert worker.scope is None and worker.start_urls == [] and worker.allowed_domains == []
    assert NewsSpider.check_arguments(get_crawler(settings_dict=settings).settings) is None
    with pytest.raises(UsageError, match="give at least one start URL"):
        spider()


def test_bad_scopes_are_refused_or_counted():
    news = spider(start_url="https://a.example/")
    with pytest.raises(UsageError, match=r"unknown argument\(s\): dpeth \(did you mean depth\?\)"):
        news.scope_from({"start_url": "https://a.example/", "dpeth": "2"})
    # found pushing {"refresh": 1} to a worker: say why, not just "unknown"
    with pytest.raises(UsageError, match="refresh: the worker's own, for all it crawls "
                                         r"\(-a or -s when it starts\), not a start message's"):
        news.scope_from({"start_url": "https://a.example/", "refresh": "1"})
    with pytest.raises(UsageError, match="depth must be an integer"):
        news.scope_from({"start_url": "https://a.example/", "depth": "deep"})
    assert news.scope_of({SCOPE_META_KEY: "{not json"}) is None
    assert news.scope_of({SCOPE_META_KEY: '["start_url"]'}) is None  # JSON, not arguments
    assert news.crawler.stats.get_value("newsstem/scope/unreadable") == 2
