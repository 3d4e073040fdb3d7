"""Waiting out a server that fails: tried again after 1 s, 2 s, 4 s... at most every 60 s.

One :class:`Backoff` per thing a crawl asks (the URL store, the distributed crawl's
Redis, its start messages): while it fails, the crawl does not ask it for each page
but once the wait is over, and it tells the outage in two lines (its start, its end),
not one per call. The callers log and count; this only keeps the times.

    >>> backoff = Backoff()
    >>> backoff.failed(), backoff.failed(), backoff.failed()  # the first starts an outage
    (True, False, False)
    >>> backoff.wait  # 1 s, 2 s, 4 s
    4.0
    >>> backoff.due()  # not before the wait is over
    False
    >>> seconds, failures = backoff.answered()
    >>> failures, backoff.failing, backoff.due(), backoff.answered()
    (3, False, True, None)
"""

from __future__ import annotations

import time
from dataclasses import dataclass

__all__ = ["FIRST_SECONDS", "LONGEST_SECONDS", "Backoff"]

# The first wait before trying again (a restart takes seconds), doubled after each failure
# up to the longest (a long outage costs one try a minute).
FIRST_SECONDS = 1.0
LONGEST_SECONDS = 60.0


@dataclass
class Backoff:
    """The times of an outage: since when it fails, how often, when to try again."""

    first: float = FIRST_SECONDS
    longest: float = LONGEST_SECONDS
    since: float | None = None  # time.monotonic() of the outage's first failure
    failures: int = 0  # failed calls in this outage
    wait: float = 0.0  # the current wait between tries
    retry_at: float = 0.0  # time.monotonic() before which no call is tried

    @property
    def failing(self) -> bool:
        return self.since is not None

    def due(self) -> bool:
        """Whether to call now: always, unless failing and the wait is not over."""
        return self.since is None or time.monotonic() >= self.retry_at

    def retry_now(self) -> None:
        """End the current wait: the next :meth:`due` says yes (a crawl's last try)."""
        self.retry_at = 0.0

    def failed(self) -> bool:
        """Count a failed call and wait longer; whether it started an outage."""
        now = time.monotonic()
        self.failures += 1
        self.wait = min(self.longest, 2 * self.wait or self.first)
        self.retry_at = now + self.wait
        if self.since is not None:
            return False
        self.since = now
        return True

    def answered(self) -> tuple[float, int] | None:
        """A call succeeded: the outage that ends, as its seconds and its failed calls
        (None if there was none); the next failure starts another."""
        if self.since is None:
            return None
        ended = (time.monotonic() - self.since, self.failures)
        self.since = None
        self.failures = 0
        self.wait = self.retry_at = 0.0
        return ended
