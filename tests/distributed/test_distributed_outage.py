"""A Redis outage in the middle of a distributed crawl: real workers, a real redis-server killed
with ``kill -9`` and started again (with its append-only file, as a production Redis keeps its
data), a real HTTP site.

Nothing may be lost: every article exported exactly once by the workers together, every
export recorded in the URL store and nothing else, and each worker's log says what happened
in a line or two (not a traceback per request).
"""

from __future__ import annotations

import json
import time
from collections import Counter

import pytest
import redis
from support.distributed import start_worker, wait_ready
from support.newssite import GeneratedNewsSite
from support.redisserver import own_redis_server

from newsstem.urldb import open_store, url_key

START_KEY = "newsstem:news:start_urls"
OUTAGE_SECONDS = 2.0


@pytest.fixture
def appendonly_redis(tmp_path):
    """A redis-server of this test alone (it is killed), with an append-only file."""
    with own_redis_server(tmp_path, appendonly=True) as server:
        yield server


def sections_asked(site: GeneratedNewsSite) -> int:
    return sum(p.startswith("/section/") for p in site.paths())


def test_a_redis_outage_mid_crawl_loses_nothing_and_is_told_in_a_line(
    tmp_path, appendonly_redis, slow_site
):
    started = [
        start_worker(tmp_path, appendonly_redis.url, name, CONCURRENT_REQUESTS="4",
                     NEWSSTEM_DISTRIBUTED_IDLE="10")
        for name in ("a", "b")
    ]
    try:
        wait_ready(*started)
        message = json.dumps({"start_url": slow_site.url + "/", "depth": 2})
        appendonly_redis.client().rpush(START_KEY, message)
        deadline = time.monotonic() + 60
        # Redis dies while the workers wait for section pages (answered after 0.1 s): the
        # links on them are found during the outage
        while not sections_asked(slow_site):
            assert time.monotonic() < deadline, started[0].log()
            time.sleep(0.01)
        appendonly_redis.kill()
        time.sleep(OUTAGE_SECONDS)
        appendonly_redis.restart()
        codes = [worker.wait(timeout=120) for worker in started]
    finally:
        for worker in started:
            if worker.process.poll() is None:
                worker.kill()
    logs = [worker.log() for worker in started]
    assert codes == [0, 0], logs

    urls = [url for worker in started for url in worker.urls()]
    assert sorted(urls) == sorted(slow_site.article_urls()), "every article exactly once"
    counts = Counter(p for p in slow_site.paths() if p != "/robots.txt")
    assert {p: n for p, n in counts.items() if n > 1} == {}, "no page fetched twice"
    # the URL store (on the same Redis) recorded every export, and nothing else
    with open_store(appendonly_redis.url) as store:
        keys = [url_key(slow_site.url + p) for p in slow_site.article_paths()]
        keys += [url_key(slow_site.url + p) for p in slow_site.hub_paths()]
        found = store.lookup(keys)
    exported = {k for k, entry in found.items() if entry.exported_at}
    assert exported == {url_key(u) for u in urls}
    for log in logs:
        assert "Traceback" not in log, log
        errors = [line for line in log.splitlines() if "] ERROR: " in line]
        assert len(errors) <= 2, "\n".join(errors)
    said = "\n".join(logs)
    assert "Redis answers again" in said, said
    stats = [worker.stats() for worker in started]
    assert sum(s.get("newsstem/distributed/redis_errors", 0) for s in stats) >= 1
    # links found during the outage were kept and queued after it, none lost
    assert sum(s.get("newsstem/distributed/kept_requests", 0) for s in stats) >= 1
    assert sum(s.get("newsstem/distributed/lost_requests", 0) for s in stats) == 0
    assert all(s["finish_reason"] == "idle" for s in stats)
    assert redis.Redis.from_url(appendonly_redis.url).zcard("newsstem:news:requests") == 0


def test_the_scheduler_keeps_requests_while_redis_is_down_and_queues_them_after(appendonly_redis):
    from scrapy import Request
    from scrapy.utils.test import get_crawler

    from newsstem.distributed import DistributedMode
    from newsstem.distributed.connection import connect
    from newsstem.distributed.scheduler import RedisScheduler
    from newsstem.spiders.news import NewsSpider

    crawler = get_crawler(NewsSpider, {"NEWSSTEM_DISTRIBUTED": appendonly_redis.url,
                                       "ADDONS": {DistributedMode: 0}})
    crawler._apply_settings()
    crawler.spider = spider = NewsSpider.from_crawler(crawler)
    scheduler = RedisScheduler.from_crawler(crawler)
    scheduler.open(spider)
    urls = [f"https://a.example/{n}.html" for n in range(3)]
    assert scheduler.enqueue_request(Request(urls[0]))
    appendonly_redis.kill()
    assert scheduler.enqueue_request(Request(urls[1]))
    assert scheduler.enqueue_request(Request(urls[2]))
    assert scheduler.enqueue_request(Request(urls[1]))  # kept too: the filter is in Redis
    assert scheduler.has_pending_requests(), "kept requests are work: the worker is not idle"
    assert scheduler.next_request() is None
    appendonly_redis.restart()
    scheduler.outage.backoff.retry_now()  # the backoff's wait is over
    assert [scheduler.next_request().url for _ in urls] == urls
    assert scheduler.next_request() is None and not scheduler.has_pending_requests()
    stats = crawler.stats
    assert stats.get_value("newsstem/distributed/kept_requests") == 3
    assert stats.get_value("dupefilter/filtered") == 1
    assert stats.get_value("scheduler/enqueued/redis") == 3
    # the filter and the queue agree: every fingerprint in the set was queued
    client = connect(appendonly_redis.url)
    assert client.scard("newsstem:news:dupefilter:a.example") == 3
    # stopped while Redis is down: what is kept is lost, and said so
    appendonly_redis.kill()
    scheduler.enqueue_request(Request("https://a.example/late.html"))
    scheduler.close("shutdown")
    assert stats.get_value("newsstem/distributed/lost_requests") == 1
