"""scrapy-redis's scheduler: admissions atomic, Redis outages waited out, no deprecated calls."""

from __future__ import annotations

import logging
import uuid
from collections import deque
from typing import TYPE_CHECKING

import redis
from scrapy_redis.queue import FifoQueue, LifoQueue, PriorityQueue
from scrapy_redis.scheduler import Scheduler

from newsstem.distributed.connection import START_KEY, RedisOutage
from newsstem.distributed.dupefilter import SiteDupeFilter
from newsstem.distributed.handoff import POP, POP_COMMANDS, REQUEUE_COMMANDS, HandOff, entry_request
from newsstem.distributed.options import DistributedOptions

if TYPE_CHECKING:
    from scrapy import Request, Spider
    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)

STATS_PREFIX = "newsstem/distributed"

# One admission, atomic in Redis: the fingerprint into the site's set (its time-to-live
# renewed) and, only if it was new, the request into the queue. A worker that loses its
# connection in between cannot leave a page marked seen that no queue holds; a worker
# that does not know whether its call ran asks again and is told "seen" only if it did.
# KEYS: the site's set, the queue. ARGV: fingerprint, forget seconds, push command, score
# (ZADD only), encoded request.
_ADMIT = """
local added = redis.call('SADD', KEYS[1], ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[2])
if added == 0 then return 0 end
if ARGV[3] == 'ZADD' then
  redis.call('ZADD', KEYS[2], ARGV[4], ARGV[5])
else
  redis.call('LPUSH', KEYS[2], ARGV[5])
end
return 1
"""
# How scrapy-redis's queues push (PriorityQueue: a sorted set; the others: lists).
_PUSH_COMMANDS = {PriorityQueue: "ZADD", FifoQueue: "LPUSH", LifoQueue: "LPUSH"}


class RedisScheduler(Scheduler):
    """``SCHEDULER``: the shared queue of scrapy-redis 0.9.1, made safe for Redis outages.

    - **Admission** (the duplicate filter and the queue) is one atomic Redis script
      with newsstem's :class:`SiteDupeFilter` and scrapy-redis's queues (other
      classes given in the settings: a check, then a push, as scrapy-redis does).
    - **While Redis does not answer** (restarting, the network down), the requests
      the worker's pages lead to are kept in memory, in order, and admitted when it
      answers again; the worker takes nothing from the queue meanwhile and counts as
      busy while it keeps requests (it does not stop as idle and lose them). The
      outage is one ERROR line and one INFO line (:class:`RedisOutage`, shared with
      the worker's start message reads), not a traceback per request. Requests still
      kept when the worker is stopped are not queued (``newsstem/distributed/lost_requests``):
      with the hand-off below, the pages they were found on go back in the queue (one
      WARNING line); without it, they are lost (one ERROR line).
    - **Hand-off**: what a pop takes stays recorded under the worker's key in Redis
      until its page is done, and the requests of workers whose heartbeat lapsed go
      back in the queue (:class:`~newsstem.distributed.handoff.HandOff`; scrapy-redis's
      three queues).
    - Scrapy's stats calls without the ``spider=`` argument deprecated since 2.15, and
      the requests the duplicate filter refused counted (``dupefilter/filtered``).
    """

    outage: RedisOutage

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> RedisScheduler:
        from newsstem.distributed.worker import Worker

        scheduler = super().from_crawler(crawler)
        scheduler.crawler = crawler
        worker = crawler.get_extension(Worker)
        scheduler.worker = worker
        scheduler.outage = (
            worker.outage
            if worker is not None
            else RedisOutage(crawler.settings.get("REDIS_URL", ""), crawler.stats)
        )
        return scheduler

    def open(self, spider: Spider) -> None:
        super().open(spider)
        self._kept: deque[Request] = deque()
        self._admit_script = self.server.register_script(_ADMIT)
        self._push_command = _PUSH_COMMANDS.get(type(self.queue))
        self._atomic = isinstance(self.df, SiteDupeFilter) and self._push_command is not None
        self._pop_script = self.server.register_script(POP)
        self._pop_command = POP_COMMANDS.get(type(self.queue))
        self._unsure_pop: bytes | None = None  # the token of a pop whose reply never came
        # with the hand-off, pops go through POP under its keys; else scrapy-redis's pop
        self.handoff: HandOff | None = None
        if self._pop_command is not None and self.idle_before_close <= 0:
            options = DistributedOptions.from_settings(self.crawler.settings)
            self.handoff = HandOff(
                self.crawler, self.server, self.queue.key, uuid.uuid4().hex,
                REQUEUE_COMMANDS[type(self.queue)], options.heartbeat_seconds, self.outage,
                lambda: bool(self._kept), start_key=START_KEY % {"spider": spider.name},
            )
            self.outage.hand_off = True  # (its ERROR line says a stop loses nothing)
            if self.worker is not None:
                self.worker.handoff = self.handoff  # stopped when the engine stops
            self.handoff.start()

    def close(self, reason: str) -> None:
        # (a pop whose reply never came stays in the worker's hash: it goes back in the
        # queue when the worker stops, with the rest it did not finish)
        if self._kept:
            self._admit_kept()
        if self._kept:
            self.stats.inc_value(f"{STATS_PREFIX}/lost_requests", len(self._kept))
            if self.handoff is not None:
                # the pages they were found on are still under the worker's key: not let go
                # while links are kept
                logger.warning(
                    "newsstem: %d requests found while Redis did not answer are not queued "
                    "(the worker stopped before Redis answered again); the pages they were "
                    "found on go back to the shared queue once Redis answers and another "
                    "worker finds this one's heartbeat lapsed (or the next one starts)",
                    len(self._kept),
                )
            else:
                logger.error(
                    "newsstem: %d requests found while Redis did not answer are lost (the "
                    "worker stopped before Redis answered again); crawl their pages again "
                    "with a start message",
                    len(self._kept),
                )
        if self.handoff is not None and self.worker is None:
            self.handoff.stop()  # (else the worker stops it when the engine stops)
        self.outage.close()
        super().close(reason)

    # -- admission ------------------------------------------------------------------

    def enqueue_request(self, request: Request) -> bool:
        if self._kept or self.outage.failing:
            self._keep(request)
            self._admit_kept()
            return True
        try:
            self._admit(request)
        except redis.RedisError as exc:
            self.outage.failed("queueing a request", exc)
            self._keep(request)
        else:
            self.outage.answered()
        return True

    def _keep(self, request: Request) -> None:
        self._kept.append(request)
        self.stats.inc_value(f"{STATS_PREFIX}/kept_requests")

    def _admit(self, request: Request) -> bool:
        """Put the request in the shared queue unless the shared filter has seen it."""
        if request.dont_filter:
            self.queue.push(request)
        elif self._atomic:
            fingerprint = self.df.fingerprinter.fingerprint(request).hex()
            added = self._admit_script(
                keys=[self.df.site_key(request), self.queue.key],
                args=[
                    fingerprint,
                    self.df.forget_seconds,
                    self._push_command,
                    -request.priority,
                    self.queue._encode_request(request),
                ],
            )
            if not added:
                return self._refused(request)
        elif self.df.request_seen(request):
            return self._refused(request)
        else:
            self.queue.push(request)
        self.stats.inc_value("scheduler/enqueued/redis")
        return True

    def _refused(self, request: Request) -> bool:
        self.df.log(request, self.spider)
        self.stats.inc_value("dupefilter/filtered")
        return False

    def _admit_kept(self) -> bool:
        """Admit the kept requests, oldest first, when it is time to try; whether all were."""
        if not self.outage.ready():
            return False
        if not self._kept:
            return True
        while self._kept:
            try:
                self._admit(self._kept[0])
            except redis.RedisError as exc:
                self.outage.failed("queueing the requests kept in memory", exc)
                return False
            self._kept.popleft()
        self.outage.answered()
        return True

    # -- taking work --------------------------------------------------------------------

    def next_request(self) -> Request | None:
        if (self._kept or self.outage.failing) and not self._admit_kept():
            return None
        try:
            if self._unsure_pop is not None:
                request = self._popped()
            else:
                request = self._pop()
        except redis.RedisError as exc:
            self.outage.failed("taking a request from the shared queue", exc)
            return None
        self.outage.answered()
        if request:
            self.stats.inc_value("scheduler/dequeued/redis")
        return request

    def _pop(self) -> Request | None:
        """A request from the shared queue, or None; a pop whose reply is lost is recorded."""
        handoff = self.handoff
        if handoff is None:
            return self.queue.pop(self.idle_before_close)  # another queue; a blocking pop
        token = uuid.uuid4().hex.encode()
        self._unsure_pop = token
        data = self._pop_script(
            keys=[self.queue.key, handoff.hash_key, handoff.workers_key, handoff.idle_key],
            args=[self._pop_command, token, handoff.worker_id],
        )
        self._unsure_pop = None
        return self._took(self.queue._decode_request(data), token) if data else None

    def _popped(self) -> Request | None:
        """The request the pop whose reply was lost took, if it ran (None if it did not)."""
        token = self._unsure_pop
        value = self.server.hget(self.handoff.hash_key, token) if token else None
        self._unsure_pop = None
        if value:
            self.stats.inc_value(f"{STATS_PREFIX}/recovered_pops")
            return self._took(self.queue._decode_request(entry_request(value)), token)
        return None

    def _took(self, request: Request, token: bytes) -> Request:
        self.handoff.took(request, token)
        return request

    def has_pending_requests(self) -> bool:
        if self._kept:
            return True  # work only this worker knows of: it must not stop as idle
        if not self.outage.ready():
            return False
        try:
            pending = len(self.queue) > 0
        except redis.RedisError as exc:
            self.outage.failed("looking at the shared queue", exc)
            return False
        self.outage.answered()
        return pending
