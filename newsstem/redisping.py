"""A PING that costs a second, not a socket timeout: asked before trying again a Redis that failed.

A paused or partitioned Redis accepts connections and never replies: a call on a client
with the usual timeouts (seconds; a URL store's scans, a minute) waits them out. A
:class:`QuickPing` asks on a connection pool of its own, with the client's server and
options but for a short timeout (connecting and waiting for the reply) and no retry.
The URL store (``RedisUrlStore.ping``) and a distributed worker (``RedisOutage``) ask it.
"""

from __future__ import annotations

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

__all__ = ["PING_TIMEOUT_SECONDS", "QuickPing", "client_like"]

# A server that does not answer a PING within this long is taken as out (a crawl asks
# before trying again a Redis that failed: a paused one costs it this long per try).
PING_TIMEOUT_SECONDS = 1.0


def client_like(client: redis.Redis, **overrides: object) -> redis.Redis:
    """A client of ``client``'s server and options on a connection pool of its own, but
    for ``overrides`` (timeouts, retries).

    >>> base = redis.Redis(host="127.0.0.1", port=6390, socket_timeout=5.0)
    >>> kwargs = client_like(base, socket_timeout=1.0).connection_pool.connection_kwargs
    >>> kwargs["port"], kwargs["socket_timeout"]
    (6390, 1.0)
    >>> base.connection_pool.connection_kwargs["socket_timeout"]  # unchanged
    5.0
    """
    pool = client.connection_pool
    return redis.Redis(
        connection_pool=redis.ConnectionPool(
            connection_class=pool.connection_class,
            **{**pool.connection_kwargs, **overrides},
        )
    )


class QuickPing:
    """PING ``client``'s server within ``timeout`` seconds (or the client's own timeout if
    shorter), once: :meth:`ping` raises ``redis.RedisError`` if it does not answer. Its
    connection is made when first needed and let go by :meth:`close`."""

    def __init__(self, client: redis.Redis, timeout: float = PING_TIMEOUT_SECONDS) -> None:
        given = client.connection_pool.connection_kwargs.get("socket_timeout")
        self.timeout = min(timeout, given or timeout)
        self.client = client
        self._quick: redis.Redis | None = None

    def ping(self) -> None:
        if self._quick is None:
            self._quick = client_like(
                self.client,
                socket_timeout=self.timeout,
                socket_connect_timeout=self.timeout,
                retry=Retry(NoBackoff(), 0),
            )
        self._quick.ping()

    def close(self) -> None:
        """Let go of the PING connection, if any (the next :meth:`ping` makes another)."""
        if self._quick is not None:
            self._quick.close()
            self._quick = None
