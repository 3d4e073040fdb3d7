"""newsstem.backoff: the waits between tries of a server that fails, and the outage's
start and end as the crawl tells them (one line each)."""

from __future__ import annotations

from newsstem.backoff import Backoff


def test_the_wait_doubles_from_the_first_up_to_the_longest():
    backoff = Backoff(first=1.0, longest=60.0)
    waits = []
    for _ in range(8):
        backoff.failed()
        waits.append(backoff.wait)
    assert waits == [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 60.0, 60.0]
    assert backoff.retry_at - backoff.since >= 60.0  # counted from the last failure


def test_an_outage_starts_once_and_ends_once():
    backoff = Backoff()
    assert backoff.due() and not backoff.failing and backoff.answered() is None
    assert [backoff.failed() for _ in range(3)] == [True, False, False]
    assert backoff.failing and not backoff.due()
    seconds, failures = backoff.answered()
    assert failures == 3 and 0 <= seconds < 60
    assert backoff.answered() is None  # told once
    assert backoff.due() and backoff.wait == 0.0
    assert backoff.failed()  # the next failure starts another outage, waiting 1 s again
    assert backoff.wait == 1.0


def test_retry_now_ends_the_wait_not_the_outage():
    backoff = Backoff()
    backoff.failed()
    backoff.retry_now()
    assert backoff.due() and backoff.failing
