"""newsstem.urldb.middleware, driven directly: what a crawl remembers between syncs."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from scrapy import Request
from scrapy.extensions.feedexport import FeedExporter
from scrapy.http import HtmlResponse
from scrapy.statscollectors import MemoryStatsCollector
from scrapy.utils.test import get_crawler

from newsstem.items import Article, Page
from newsstem.urldb.feeds import plan_feeds
from newsstem.urldb.middleware import SEEN_REFRESH_SECONDS, UrlDbMiddleware, UrlDbOptions
from newsstem.urldb.sqlite_store import SqliteUrlStore
from newsstem.urldb.store import UrlStore

ARTICLE = "http://127.0.0.1/news/story.html"


def _page(url: str) -> Page:
    return Page(url=url, site="127.0.0.1", html="<p>x</p>", encoding="utf-8", depth=1,
                fetched_at="2026-11-29T14:00:00Z")


def _article(url: str) -> Article:
    return Article(url=url, site="127.0.0.1", title="Story", body="Text", length=4,
                   method="readability", depth=1, fetched_at="2026-11-29T14:00:00Z")


@contextmanager
def driven(
    store: UrlStore, mark_after: str
) -> Iterator[tuple[UrlDbMiddleware, MemoryStatsCollector]]:
    """A middleware on ``store`` (NEWSSTEM_URLDB_MARK_AFTER ``mark_after``) and its stats;
    its lease released and the store closed after."""
    stats = MemoryStatsCollector(get_crawler())
    options = UrlDbOptions(store.uri, False, 100, 5.0, mark_after)
    middleware = UrlDbMiddleware(store, store.lease(exclusive=False), stats, options)
    try:
        yield middleware, stats
    finally:
        middleware.lease.release()
        store.close()


def _output(middleware: UrlDbMiddleware, response: HtmlResponse, elements: list) -> list:
    async def result():
        for element in elements:
            yield element

    async def run() -> list:
        return [e async for e in middleware.process_spider_output(response, result())]

    return asyncio.run(run())


def test_an_export_the_store_has_not_recorded_outlives_the_hourly_reset(tmp_path):
    # A feed that cannot be synced (JSON, stdout) is marked when the crawl ends; a crawl
    # longer than SEEN_REFRESH_SECONDS forgets its lookups meanwhile, and a page
    # redirected to an article it already exported must still not be exported again.
    with driven(SqliteUrlStore(tmp_path / "urldb.sqlite"), "feed") as (middleware, stats):
        feeds = {str(tmp_path / "articles.json"): {"format": "json"}}  # stored at the end
        middleware._feeds = FeedExporter.from_crawler(
            get_crawler(settings_dict={"FEEDS": feeds})
        )
        middleware._plans = plan_feeds(middleware._feeds)
        assert [plan.syncable for plan in middleware._plans] == [False]
        middleware.item_scraped(_article(ARTICLE), spider=None)
        middleware._remembered_since -= SEEN_REFRESH_SECONDS + 1
        middleware.sync()  # the hourly housekeeping
        old_url = "http://127.0.0.1/old/story.html"
        redirected = HtmlResponse(ARTICLE, body=b"<p>x</p>",
                                  request=Request(ARTICLE, meta={"redirect_urls": [old_url]}))
        assert _output(middleware, redirected, [_page(ARTICLE)]) == []
        assert stats.get_value("newsstem/urldb/withheld") == 1


def test_a_dropped_copy_is_recorded_with_its_article_never_before(tmp_path):
    # DuplicatePipeline drops a copy of an article whose item_scraped signal is still to
    # come: the copy's URL must not be recorded before the article is durably exported.
    from newsstem.urldb import url_key

    store = SqliteUrlStore(tmp_path / "urldb.sqlite")
    copy, late_copy = ARTICLE + "?ref=rss", "http://127.0.0.1/print/news/story.html"
    with driven(store, "item_scraped") as (middleware, _):
        middleware.mark_along(copy, url_key(ARTICLE))
        middleware.sync()
        assert store.lookup([url_key(copy)]) == {}, "recorded before its article"
        middleware.item_scraped(_article(ARTICLE), spider=None)
        middleware.mark_along(late_copy, url_key(ARTICLE))
        middleware.sync()
        found = store.lookup([url_key(u) for u in (ARTICLE, copy, late_copy)])
        assert len(found) == 3 and all(entry.exported_at for entry in found.values())


def test_a_store_that_does_not_answer_is_not_asked_for_each_page(own_redis):
    # A paused redis-server (SIGSTOP: it accepts connections, never answers) is a network
    # partition: each call waits for the socket timeout. The middleware waits once, then
    # answers lookups "unknown" at once and keeps the exports until the store answers.
    import time

    from newsstem.urldb import open_store, url_key

    server = own_redis
    store = open_store(f"{server.url}?socket_timeout=1")
    urls = [f"http://127.0.0.1/news/{n}.html" for n in range(20)]
    with driven(store, "item_scraped") as (middleware, stats):
        try:
            server.pause()
            started = time.monotonic()
            for url in urls:
                response = HtmlResponse(url, body=b"<p>x</p>", request=Request(url))
                assert _output(middleware, response, [_page(url)]) != []  # unknown: exported
                middleware.item_scraped(_article(url), spider=None)
                middleware.sync()
            took = time.monotonic() - started
            assert took < 4, f"{took:.1f} s: a socket timeout per page"
            assert stats.get_value("newsstem/urldb/errors") <= 2
            assert stats.get_value("newsstem/urldb/exported") is None
            server.resume()
            middleware.backoff.retry_now()  # the backoff's wait is over
            middleware.sync()
            found = store.lookup([url_key(u) for u in urls])
            assert len(found) == 20 and all(entry.exported_at for entry in found.values())
            assert stats.get_value("newsstem/urldb/exported") == 20
            assert not middleware.backoff.failing
        finally:
            server.resume()


def test_the_kinds_of_keys_never_recorded_are_not_kept(tmp_path):
    # A crawl with no feed (a worker whose items go to a pipeline of its own) records no
    # export: a redirected article's kinds must not pile up in memory, one a redirect,
    # for as long as the crawl runs.
    with driven(SqliteUrlStore(tmp_path / "urldb.sqlite"), "feed") as (middleware, stats):
        for n in range(3):
            url = f"http://127.0.0.1/news/{n}.html"
            redirected = HtmlResponse(url, body=b"<p>x</p>", request=Request(
                url, meta={"redirect_urls": [f"http://127.0.0.1/old/{n}.html"]}))
            assert _output(middleware, redirected, [_page(url)]) == [_page(url)]
            middleware.item_scraped(_article(url), spider=None)
        assert stats.get_value("newsstem/urldb/unmarked") == 3
        assert middleware._kinds == {}


def test_exports_are_not_said_durable_once_a_feed_file_could_not_be_opened(tmp_path):
    # exports_durable tells a distributed worker that the articles of the pages it took are
    # in the output: it lets those pages go (a kill -9 then loses nothing). After a feed
    # file failed to open, the articles are in no output: their pages must stay the
    # worker's, to go back in the queue when it stops, for a worker whose feed works.
    from scrapy.signalmanager import SignalManager

    from newsstem.urldb.middleware import exports_durable

    said = []
    with driven(SqliteUrlStore(tmp_path / "urldb.sqlite"), "feed") as (middleware, _):
        middleware._signals = SignalManager()
        middleware._signals.connect(lambda: said.append(True), signal=exports_durable,
                                    weak=False)
        feeds = {str(tmp_path / "a.jsonl"): {"format": "jsonlines"}}  # synced in batches
        durable = "newsstem.urldb.feeds.DurableFileFeedStorage"
        middleware._feeds = FeedExporter.from_crawler(get_crawler(settings_dict={
            "FEEDS": feeds, "FEED_STORAGES": {"": durable, "file": durable}}))
        middleware._plans = plan_feeds(middleware._feeds)
        assert [plan.syncable for plan in middleware._plans] == [True]
        middleware.item_scraped(_article(ARTICLE), spider=None)
        middleware.sync()
        assert said == [True], "recorded: durable"
        middleware.storage_failed(SimpleNamespace(path=str(tmp_path / "b.jsonl")),
                                  OSError(28, "No space left on device"))
        middleware.item_scraped(_article(ARTICLE.replace("story", "other")), spider=None)
        middleware.sync()
        assert said == [True], "an article in no output is not durable"


def test_a_copy_of_an_article_in_no_output_is_not_recorded(tmp_path):
    # After a feed file failed to open, an article is in no output and is not recorded as
    # exported; a copy of it dropped later (another URL, the same text) must not be
    # recorded either: the store would call that URL done, with no article exported.
    from newsstem.urldb import url_key

    store = SqliteUrlStore(tmp_path / "urldb.sqlite")
    copy = ARTICLE + "?ref=rss"
    with driven(store, "feed") as (middleware, stats):
        feeds = {str(tmp_path / "a.jsonl"): {"format": "jsonlines"}}  # synced in batches
        durable = "newsstem.urldb.feeds.DurableFileFeedStorage"
        middleware._feeds = FeedExporter.from_crawler(get_crawler(settings_dict={
            "FEEDS": feeds, "FEED_STORAGES": {"": durable, "file": durable}}))
        middleware._plans = plan_feeds(middleware._feeds)
        middleware.storage_failed(SimpleNamespace(path=str(tmp_path / "b.jsonl")),
                                  OSError(28, "No space left on device"))
        middleware.item_scraped(_article(ARTICLE), spider=None)
        middleware.mark_along(copy, url_key(ARTICLE))  # DuplicatePipeline dropped the copy
        middleware.sync()
        assert store.lookup([url_key(ARTICLE), url_key(copy)]) == {}, "nothing recorded"
        assert middleware._to_mark_exported == [] and middleware._kinds == {}


@pytest.mark.parametrize("exporter_first", [True, False], ids=["exporter-first", "store-first"])
def test_the_article_whose_feed_file_cannot_be_opened_is_not_recorded(tmp_path, exporter_first):
    # Scrapy's FeedExporter writes an item in its own item_scraped handler, and opens a feed
    # file only when its first item comes. Connected after this middleware (older Scrapy),
    # the article reaches the middleware first and waits for its sync with the others when
    # the file fails to open: recorded at the sync, it was in no output, and the next crawl
    # skipped it, lost. Both orders, through Scrapy's own signal dispatch.
    from scrapy import Spider, signals

    from newsstem.urldb import url_key
    from newsstem.urldb.feeds import feed_storage_failed, feed_storage_opened

    (tmp_path / "out").write_text("a file where the feed's directory should be")
    durable = "newsstem.urldb.feeds.DurableFileFeedStorage"
    crawler = get_crawler(Spider, settings_dict={
        "FEEDS": {str(tmp_path / "out" / "a.jsonl"): {"format": "jsonlines"}},
        "FEED_STORAGES": {"": durable, "file": durable}})
    spider = Spider("news")
    store = SqliteUrlStore(tmp_path / "urldb.sqlite")
    urls = [ARTICLE, ARTICLE.replace("story", "other")]
    with driven(store, "feed") as (middleware, stats):
        middleware._signals = crawler.signals
        if exporter_first:
            middleware._feeds = FeedExporter.from_crawler(crawler)
        crawler.signals.connect(middleware.item_scraped, signal=signals.item_scraped)
        if not exporter_first:
            middleware._feeds = FeedExporter.from_crawler(crawler)
        crawler.signals.connect(middleware.storage_opened, signal=feed_storage_opened)
        crawler.signals.connect(middleware.storage_failed, signal=feed_storage_failed)
        middleware._feeds.open_spider(spider)

        async def crawl() -> None:  # (its periodic sync is an asyncio task)
            middleware.spider_opened(spider)
            try:
                assert middleware._exporter_writes_first is exporter_first
                assert [plan.syncable for plan in middleware._plans] == [True]
                for url in urls:
                    crawler.signals.send_catch_log(signals.item_scraped, item=_article(url),
                                                   spider=spider)
                middleware.sync()
            finally:
                middleware._sync_task.stop()

        asyncio.run(crawl())
        assert not (tmp_path / "out" / "a.jsonl").exists()
        assert store.lookup([url_key(u) for u in urls]) == {}, "nothing recorded"
        assert stats.get_value("newsstem/urldb/exported") is None
        assert stats.get_value("newsstem/urldb/unmarked") == 2


def test_the_overwriting_warning_reads_a_file_uri_as_scrapy_writes_it(tmp_path):
    """-O file:///dir/a%20b.jsonl writes dir/a b.jsonl (Scrapy decodes the URI); the check
    behind the "Overwriting" warning cut "file://" off and looked for dir/a%20b.jsonl, so an
    -O file of articles the URL store marked exported was emptied without a word."""
    from newsstem.urldb.middleware import _is_nonempty_local_file

    (tmp_path / "a b.jsonl").write_text('{"url": "https://site/a"}\n', encoding="utf-8")
    uri = (tmp_path / "a b.jsonl").as_uri()
    assert "%20" in uri and _is_nonempty_local_file(uri)
    assert not _is_nonempty_local_file((tmp_path / "new.jsonl").as_uri())


def test_a_hub_another_worker_exported_is_recorded_by_the_worker_exporting_its_article(
    redis_server,
):
    # Two workers of a distributed crawl on one Redis store: worker B looked up the link to
    # a section (not exported yet: remembered so), worker A then exported the section (a
    # front taken for an article) and queued its links, and B fetched and exported the
    # article found through it. B knew nothing of the section's export, so no worker
    # recorded its hub key (A exported no article through it): later crawls skipped the
    # section as an exported article and never found what was added to it.
    import uuid

    from newsstem.urldb import open_store
    from newsstem.urldb.store import hub_key

    uri = f"{redis_server.url}?prefix=hub-{uuid.uuid4().hex[:8]}"
    home, section = "http://127.0.0.1/", "http://127.0.0.1/section/0/"
    with driven(open_store(uri), "item_scraped") as (worker_a, _), \
            driven(open_store(uri), "item_scraped") as (worker_b, _):
        worker_a.shared = worker_b.shared = True  # (set from NEWSSTEM_DISTRIBUTED)
        front = HtmlResponse(home, body=b"<p>x</p>", request=Request(home))
        assert _output(worker_b, front, [Request(section)])  # B: the section, not exported
        page = HtmlResponse(section, body=b"<p>x</p>", request=Request(section))
        [link] = _output(worker_a, page, [_page(section), Request(ARTICLE)])[1:]
        worker_a.item_scraped(_article(section), spider=None)  # A: the section exported
        worker_a.sync()
        fetched = HtmlResponse(ARTICLE, body=b"<p>x</p>", request=Request(ARTICLE, meta=link.meta))
        assert _output(worker_b, fetched, [_page(ARTICLE)])  # B: the article, through it
        worker_b.item_scraped(_article(ARTICLE), spider=None)
        worker_b.sync()
        found = worker_b.store.lookup([hub_key(section)])
    assert found and found[hub_key(section)].exported_at, "the section's hub key lost"
