"""The Redis server of a distributed crawl: its URL, its keys, a checked connection, and
how a worker waits out its outages."""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

import redis
from scrapy.settings import SETTINGS_PRIORITIES

from newsstem import defaults
from newsstem.backoff import Backoff
from newsstem.redisping import QuickPing
from newsstem.urldb import REDIS_SCHEMES, hide_password

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings
    from scrapy.statscollectors import StatsCollector

logger = logging.getLogger(__name__)

# Redis keys; %(spider)s is the spider's name ("news"), %(site)s a site (host[:port]).
QUEUE_KEY = "newsstem:%(spider)s:requests"
START_KEY = "newsstem:%(spider)s:start_urls"
DUPEFILTER_KEY = "newsstem:%(spider)s:dupefilter:%(site)s"

# A worker that cannot reach Redis says so within seconds, not after redis-py's 30 s.
CONNECT_TIMEOUT = 5.0
# A call Redis does not answer (paused, partitioned: the connection open, no reply) fails
# after this long, once: no retry on timeout. A worker's calls are small (an admission
# script, a pop, a length) and none blocks in Redis (SCHEDULER_IDLE_BEFORE_CLOSE is 0);
# a blocking pop given with -s gets its own seconds on top (see scheduler_redis_params).
SOCKET_TIMEOUT = 5.0
# Redis not answering: restarting, loading its data (BusyLoadingError is a ConnectionError),
# the network down.
OUTAGE_ERRORS = (redis.ConnectionError, redis.TimeoutError)
STATS_PREFIX = "newsstem/distributed"


class DistributedError(Exception):
    """Distributed mode cannot work: bad URL, Redis unreachable; the message says what to do."""


def urldb_of(settings: BaseSettings) -> str:
    """The URL store a crawl with these settings uses, for commands that run no crawl
    (``scrapy learn --publish``): ``NEWSSTEM_URLDB``, or, when it is left at its default
    and ``NEWSSTEM_DISTRIBUTED`` is set, the distributed Redis, where
    :class:`~newsstem.distributed.DistributedMode` puts the store of every worker (the
    add-on is applied to crawls only). Raises :class:`DistributedError` as
    :func:`distributed_url` does.

    >>> from scrapy.settings import Settings
    >>> urldb_of(Settings({"NEWSSTEM_DISTRIBUTED": "redis://h:6379/0"}))
    'redis://h:6379/0'
    >>> urldb_of(Settings({"NEWSSTEM_DISTRIBUTED": "redis://h:6379/0",
    ...                    "NEWSSTEM_URLDB": "redis://other:6379/1"}))
    'redis://other:6379/1'
    >>> urldb_of(Settings({}))
    'sqlite:///newsstem-urldb.sqlite'
    >>> given = Settings({"NEWSSTEM_DISTRIBUTED": "redis://h:6379/0"})
    >>> given.set("NEWSSTEM_URLDB", "sqlite:///newsstem-urldb.sqlite", priority="cmdline")
    >>> urldb_of(given)  # -s NEWSSTEM_URLDB=<the default>: a worker keeps it too
    'sqlite:///newsstem-urldb.sqlite'
    """
    urldb = settings.get("NEWSSTEM_URLDB", defaults.NEWSSTEM_URLDB)
    # the add-on's test (newsstem.distributed.addon): the default at "project" priority or
    # below, which its settings.set(..., priority="project") replaces (-s keeps its value)
    if urldb == defaults.NEWSSTEM_URLDB and (
        settings.getpriority("NEWSSTEM_URLDB") or 0
    ) <= SETTINGS_PRIORITIES["project"]:
        urldb = distributed_url(settings) or urldb
    return str(urldb or "").strip()


def is_distributed(settings: BaseSettings) -> bool:
    """Whether ``NEWSSTEM_DISTRIBUTED`` names a Redis server, unchecked (a worker's queue
    is the shared one: no JOBDIR of its own); :func:`distributed_url` checks it.

    >>> from scrapy.settings import Settings
    >>> is_distributed(Settings({"NEWSSTEM_DISTRIBUTED": " "})), is_distributed(Settings({}))
    (False, False)
    """
    return bool(_given_url(settings))


def _given_url(settings: BaseSettings) -> str:
    return str(settings.get("NEWSSTEM_DISTRIBUTED", defaults.NEWSSTEM_DISTRIBUTED) or "").strip()


def distributed_url(settings: BaseSettings) -> str:
    """``NEWSSTEM_DISTRIBUTED``, checked: "" (a single process) or a Redis URL.

    >>> from scrapy.settings import Settings
    >>> distributed_url(Settings({"NEWSSTEM_DISTRIBUTED": " redis://127.0.0.1:6379/0 "}))
    'redis://127.0.0.1:6379/0'
    >>> distributed_url(Settings({"NEWSSTEM_DISTRIBUTED": "127.0.0.1:6379"}))
    Traceback (most recent call last):
    ...
    newsstem.distributed.connection.DistributedError: NEWSSTEM_DISTRIBUTED '127.0.0.1:6379' is not a Redis URL; write redis://host:port/db (or rediss://, unix:///path.sock?db=N)
    >>> distributed_url(Settings({"NEWSSTEM_DISTRIBUTED": "amqp://user:secret@127.0.0.1/"}))
    Traceback (most recent call last):
    ...
    newsstem.distributed.connection.DistributedError: NEWSSTEM_DISTRIBUTED 'amqp://user:***@127.0.0.1/' is not a Redis URL; write redis://host:port/db (or rediss://, unix:///path.sock?db=N)
    """
    url = _given_url(settings)
    if url and not url.startswith(REDIS_SCHEMES):
        raise DistributedError(
            f"NEWSSTEM_DISTRIBUTED {hide_password(url)!r} is not a Redis URL; write redis://host:port/db "
            "(or rediss://, unix:///path.sock?db=N)"
        )
    return url


def scheduler_redis_params(idle_before_close: int = 0) -> dict[str, object]:
    """``REDIS_PARAMS`` of scrapy-redis's scheduler: the timeouts of :func:`connect`.

    A blocking pop (``SCHEDULER_IDLE_BEFORE_CLOSE`` > 0, FIFO/LIFO queues) waits that
    long in Redis: its socket waits as much longer.

    >>> scheduler_redis_params(10)["socket_timeout"]
    15.0
    """
    return {
        "socket_connect_timeout": CONNECT_TIMEOUT,
        "socket_timeout": SOCKET_TIMEOUT + max(0, idle_before_close),
        "retry_on_timeout": False,
        "encoding": "utf-8",
    }


def connect(url: str) -> redis.Redis:
    """A client of the crawl's Redis, checked with a PING; DistributedError if unreachable.

    A call it makes fails after :data:`SOCKET_TIMEOUT` if Redis does not answer, and is
    not retried: an outage costs a worker seconds, and :class:`RedisOutage` waits it out.
    """
    try:
        client = redis.Redis.from_url(
            url, socket_connect_timeout=CONNECT_TIMEOUT, socket_timeout=SOCKET_TIMEOUT
        )
        client.ping()
    except (redis.RedisError, ValueError) as exc:
        raise DistributedError(
            f"distributed mode: cannot use Redis at {hide_password(url)} ({exc}); "
            "check NEWSSTEM_DISTRIBUTED and that the server runs"
        ) from None
    return client


class RedisOutage:
    """The crawl's Redis not answering, as one worker sees it.

    The first failure is one ERROR line, the first success after it one INFO line
    (``Redis answers again``); each failure is counted in
    ``newsstem/distributed/redis_errors``. Between failures :meth:`ready` says when to
    try again: after 1 s, 2 s, 4 s... at most every 60 s, so a worker asks a dead
    server once a minute, not once per link; and only if a PING on a connection of its
    own answers within a second (:class:`~newsstem.redisping.QuickPing`: a paused or
    partitioned Redis accepts connections and never replies: each try costs a second,
    not a socket timeout).
    The worker's scheduler and its start message reads share one: one outage, one line.
    """

    def __init__(self, url: str, stats: StatsCollector) -> None:
        self.url = url
        self.stats = stats
        self.backoff = Backoff()  # since when it fails, when to ask it again
        self.last_failed = float("-inf")  # time.monotonic() of the last failure
        # whether the worker's pages stay in its hand-off hash until done (set by the
        # scheduler): then a worker stopped during the outage loses nothing either
        self.hand_off = False
        # (made when first needed: a worker without distributed mode has no URL)
        self._quick_ping: QuickPing | None = None

    @property
    def failing(self) -> bool:
        return self.backoff.failing

    def ready(self) -> bool:
        """Whether to ask Redis now: always, unless it is failing and the wait is not
        over or it does not answer a PING (a failure: the next wait is longer)."""
        if not self.backoff.failing:
            return True
        if not self.backoff.due():
            return False
        try:
            self._ping()
        except OUTAGE_ERRORS as exc:
            self.failed("asking it whether it answers", exc)
            return False
        return True

    def _ping(self) -> None:
        if not self.url:
            return
        if self._quick_ping is None:
            self._quick_ping = QuickPing(redis.Redis.from_url(self.url))
        self._quick_ping.ping()

    def close(self) -> None:
        """Let go of the PING connection, if any."""
        if self._quick_ping is not None:
            self._quick_ping.close()

    def failed(self, what: str, exc: Exception) -> None:
        """A call to Redis failed; ``what`` the worker was doing (for the first line)."""
        self.last_failed = time.monotonic()
        self.stats.inc_value(f"{STATS_PREFIX}/redis_errors")
        if self.backoff.failed():
            logger.error(
                "newsstem: Redis at %s does not answer (%s) while %s: the worker keeps the "
                "links it finds in memory and tries again after 1 s, 2 s, 4 s... (at most "
                "every %g s); %s",
                hide_password(self.url), exc, what, self.backoff.longest,
                "nothing is lost (stopped before Redis answers, it leaves the pages those "
                "links came from to go back in the shared queue)"
                if self.hand_off
                else "nothing is lost unless it is stopped before Redis answers",
            )

    def answered(self) -> None:
        """A call to Redis succeeded: the outage, if any, is over."""
        ended = self.backoff.answered()
        if ended is not None:
            logger.info(
                "newsstem: Redis answers again after %.1f s (%d failed calls); the crawl "
                "goes on", *ended,
            )
