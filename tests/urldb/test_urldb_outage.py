"""The Redis URL store not answering mid-crawl (a network partition): a real redis-server on
a free port paused with SIGSTOP and resumed with SIGCONT (by PID), a real HTTP site, real
``scrapy crawl news`` subprocesses.

A paused server accepts connections and never answers, so each store call waits for the
socket timeout (2 s here, ``?socket_timeout=2``; 5 s by default). Without the middleware's
backoff, every page waited for it (one page per few seconds, a log line per call).
"""

from __future__ import annotations

import threading
import time
from collections import Counter

import pytest

from newsstem.urldb import StoreError, open_store, url_key
from support.crawl import run_crawl
from support.newssite import GeneratedNewsSite
from support.redisserver import RedisServer

SOCKET_TIMEOUT = 2


def crawl_paused(tmp_path, server: RedisServer, site: GeneratedNewsSite,
                 resume_after: float | None, **settings):
    """Crawl ``site`` (started here, stopped after) with its URL store on ``server``,
    paused (SIGSTOP) when the crawl asks for its first article and resumed (SIGCONT)
    ``resume_after`` seconds later (never, if None): the result and the crawl's seconds."""
    site.start()
    try:
        watcher = server.pause_when(site.article_asked, resume_after)
        started = time.monotonic()
        result = run_crawl(
            tmp_path, "-a", f"start_url={site.url}/", "-a", "depth=2",
            settings={"NEWSSTEM_URLDB": f"{server.url}?socket_timeout={SOCKET_TIMEOUT}",
                      "NEWSSTEM_URLDB_SYNC_SECONDS": "1", **settings},
            timeout=120,
        )
        took = time.monotonic() - started
        watcher.join(timeout=5)
    finally:
        site.stop()
    return result, took


def error_lines(log: str) -> list[str]:
    return [line for line in log.splitlines() if "] ERROR: " in line]


def exported_in_store(server: RedisServer, site: GeneratedNewsSite) -> set[str]:
    with open_store(server.url) as store:
        urls = {site.url + p for p in site.article_paths() | site.hub_paths()}
        found = store.lookup([url_key(u) for u in urls])
    return {u for u in urls if (entry := found.get(url_key(u))) and entry.exported_at}


def test_a_store_out_until_the_crawl_ends_costs_seconds_not_a_timeout_per_page(
    tmp_path, own_redis
):
    site = GeneratedNewsSite(sections=3, articles_per_section=8)
    result, took = crawl_paused(tmp_path, own_redis, site, resume_after=None)
    assert result.returncode == 0, result.log
    urls = [item["url"] for item in result.items]
    assert sorted(urls) == sorted(site.article_urls()), "every article exported once"
    # without the backoff: a socket timeout per article (its text key lookup) at least,
    # 24 x 2 s; with it: the first timeout, a few one-second pings, the crawl
    assert took < 30, f"the crawl took {took:.0f} s"
    assert result.stats["newsstem/urldb/errors"] <= 10, result.stats
    errors = error_lines(result.log)
    assert len(errors) == 2, "\n".join(errors)  # the outage; what could not be recorded
    recorded = result.stats.get("newsstem/urldb/exported", 0)
    unrecorded = len(urls) - recorded
    assert unrecorded > 0
    assert f"{unrecorded} exported articles could not be recorded" in errors[1]
    assert result.stats["newsstem/urldb/unmarked"] == unrecorded
    assert "Traceback" not in result.log
    # Redis answers again after the crawl: what it holds is true (the crawl is gone, so the
    # articles it could not record will be exported again by the next crawl)
    own_redis.resume()
    assert len(exported_in_store(own_redis, site)) == recorded


def test_exports_made_while_the_store_is_out_are_recorded_when_it_answers(
    tmp_path, own_redis
):
    # slow enough that the crawl outlives the outage
    site = GeneratedNewsSite(sections=3, articles_per_section=8, delay=0.25)
    result, took = crawl_paused(tmp_path, own_redis, site, resume_after=3.0,
                                CONCURRENT_REQUESTS="2")
    assert result.returncode == 0, result.log
    urls = [item["url"] for item in result.items]
    assert sorted(urls) == sorted(site.article_urls()), "every article exported once"
    counts = Counter(p for p in site.paths() if p != "/robots.txt")
    assert {p: n for p, n in counts.items() if n > 1} == {}, "no page fetched twice"
    assert took < 40, f"the crawl took {took:.0f} s"
    errors = error_lines(result.log)
    assert len(errors) == 1, "\n".join(errors)
    assert "answers again" in result.log
    assert "could not be recorded" not in result.log
    assert result.stats["newsstem/urldb/errors"] >= 1
    assert result.stats["newsstem/urldb/exported"] == len(urls)
    assert "newsstem/urldb/unmarked" not in result.stats
    assert exported_in_store(own_redis, site) == set(urls)


def test_a_store_call_redis_does_not_answer_fails_in_seconds_not_half_a_minute(own_redis):
    # redis-py's usual 30 s held the whole crawl that long at the first call of an outage
    # (the URI gave no ?socket_timeout=): now 5 s
    with open_store(own_redis.url) as store:
        key = url_key("https://a.example/1.html")
        store.mark_exported([key], 1)
        own_redis.pause()
        started = time.monotonic()
        with pytest.raises(StoreError, match="Timeout"):
            store.lookup([key])
        took = time.monotonic() - started
        own_redis.resume()
        assert 4 < took < 10, f"the call failed after {took:.1f} s"
        assert store.lookup([key])[key].exported_at == 1, "answers again"


def test_stats_and_prune_wait_longer_for_redis_than_a_crawl_call(own_redis):
    # their scripts go over every bucket and may run for seconds on a big store: a Redis
    # slow for 7 s (paused here) does not fail them
    with open_store(own_redis.url) as store:
        store.mark_seen([url_key(f"https://a.example/{n}.html") for n in range(50)], 1)
        def entries():
            return store.stats().entries

        def prunable():
            return store.prune(seen_before=2, dry_run=True)

        for call in (entries, prunable):
            own_redis.pause()
            resume = threading.Timer(7.0, own_redis.resume)
            resume.start()
            started = time.monotonic()
            try:
                assert call() == 50
            finally:
                resume.join()
            assert time.monotonic() - started > 6, "Redis was paused"
