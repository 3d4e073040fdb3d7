"""newsstem.redisping on a real redis-server of the test alone (own_redis), paused by SIGSTOP."""

from __future__ import annotations

import time

import pytest
import redis

from newsstem.redisping import QuickPing


def test_a_paused_redis_costs_a_ping_its_timeout_not_the_clients(own_redis):
    # the client's own calls wait 30 s for a reply; the PING gives up after 0.5 s, once
    client = redis.Redis.from_url(own_redis.url, socket_timeout=30)
    ping = QuickPing(client, timeout=0.5)
    ping.ping()
    own_redis.pause()
    try:
        began = time.monotonic()
        with pytest.raises(redis.TimeoutError):
            ping.ping()
        assert time.monotonic() - began < 3
    finally:
        own_redis.resume()
    ping.ping()  # answers again on the same connection pool
    ping.close()
    ping.ping()  # a new one after close
    ping.close()
    client.close()


def test_a_client_timeout_shorter_than_the_pings_wins():
    client = redis.Redis(host="127.0.0.1", port=1, socket_timeout=0.2)
    assert QuickPing(client, timeout=1.0).timeout == 0.2
    assert QuickPing(redis.Redis(host="127.0.0.1", port=1)).timeout == 1.0
