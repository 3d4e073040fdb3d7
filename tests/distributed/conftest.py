"""Fixtures of the distributed-mode tests: a fresh Redis database, worker processes, news
sites served on 127.0.0.1."""

from __future__ import annotations

import itertools

import pytest
import redis
from support.newssite import GeneratedNewsSite

# Databases 1-15 of the session's redis-server (0 is the URL store tests'), one per test.
_DATABASES = itertools.cycle(range(1, 16))


@pytest.fixture
def redis_db(redis_server):
    """The URL of an empty Redis database (flushed before and after the test)."""
    url = f"redis://127.0.0.1:{redis_server.port}/{next(_DATABASES)}"
    client = redis.Redis.from_url(url)
    client.flushdb()
    yield url
    client.flushdb()
    client.close()


@pytest.fixture
def workers(tmp_path, redis_db):
    """Start workers of the crawl in ``redis_db``; any still running after the test is killed."""
    from support.distributed import start_worker

    started = []

    def start(name, *args, **settings):
        worker = start_worker(tmp_path, redis_db, name, *args, **settings)
        started.append(worker)
        return worker

    yield start
    for worker in started:
        if worker.process.poll() is None:
            worker.kill()  # a failed test must not leave a worker running (kill -9 by PID)


@pytest.fixture
def news_site():
    """Serve ``GeneratedNewsSite(**options)`` on 127.0.0.1 (``news_site(sections=2,
    delay=0.1)``); every site started is stopped after the test."""
    started = []

    def start(**options) -> GeneratedNewsSite:
        site = GeneratedNewsSite(**options).start()
        started.append(site)
        return site

    yield start
    for site in started:
        site.stop()


@pytest.fixture
def slow_site(news_site):
    """4 sections of 12 articles, 0.1 s per answer: a crawl long enough for every worker to
    take part (and to be stopped, or to see Redis go, in the middle)."""
    return news_site(sections=4, articles_per_section=12, delay=0.1)
