"""Fixtures of the distributed-mode tests: a fresh Redis database, worker processes."""

from __future__ import annotations

import itertools

import pytest
import redis

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
