"""The Redis server of a distributed crawl: its URL, its keys, a checked connection."""

from __future__ import annotations

from typing import TYPE_CHECKING

import redis

from newsstem import defaults
from newsstem.urldb import REDIS_SCHEMES, hide_password

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings

# Redis keys; %(spider)s is the spider's name ("news"), %(site)s a site (host[:port]).
QUEUE_KEY = "newsstem:%(spider)s:requests"
START_KEY = "newsstem:%(spider)s:start_urls"
DUPEFILTER_KEY = "newsstem:%(spider)s:dupefilter:%(site)s"

# A worker that cannot reach Redis says so within seconds, not after redis-py's 30 s.
CONNECT_TIMEOUT = 5.0


class DistributedError(Exception):
    """Distributed mode cannot work: bad URL, Redis unreachable; the message says what to do."""


def distributed_url(settings: BaseSettings) -> str:
    """``NEWSSTEM_DISTRIBUTED``, checked: "" (a single process) or a Redis URL.

    >>> from scrapy.settings import Settings
    >>> distributed_url(Settings({"NEWSSTEM_DISTRIBUTED": " redis://127.0.0.1:6379/0 "}))
    'redis://127.0.0.1:6379/0'
    >>> distributed_url(Settings({"NEWSSTEM_DISTRIBUTED": "127.0.0.1:6379"}))
    Traceback (most recent call last):
    ...
    newsstem.distributed.connection.DistributedError: NEWSSTEM_DISTRIBUTED '127.0.0.1:6379' is not a Redis URL; write redis://host:port/db (or rediss://, unix:///path.sock?db=N)
    """
    url = str(settings.get("NEWSSTEM_DISTRIBUTED", defaults.NEWSSTEM_DISTRIBUTED) or "").strip()
    if url and not url.startswith(REDIS_SCHEMES):
        raise DistributedError(
            f"NEWSSTEM_DISTRIBUTED {url!r} is not a Redis URL; write redis://host:port/db "
            "(or rediss://, unix:///path.sock?db=N)"
        )
    return url


def connect(url: str) -> redis.Redis:
    """A client of the crawl's Redis, checked with a PING; DistributedError if unreachable."""
    try:
        client = redis.Redis.from_url(
            url, socket_connect_timeout=CONNECT_TIMEOUT, socket_timeout=30, retry_on_timeout=True
        )
        client.ping()
    except (redis.RedisError, ValueError) as exc:
        raise DistributedError(
            f"distributed mode: cannot use Redis at {hide_password(url)} ({exc}); "
            "check NEWSSTEM_DISTRIBUTED and that the server runs"
        ) from None
    return client

