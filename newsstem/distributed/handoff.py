"""What a worker took from the shared queue, kept in Redis until done: nothing lost to a kill -9.

A request popped from the shared queue is written, in the same atomic script, under
the worker's key (a hash ``newsstem:<spider>:requests:popped:<id>``, one entry per
pop); the entry is deleted only once the page is done: its response handled (its
links admitted to the shared queue, its items through the pipelines) and, for an
article, the article durably in the output and recorded by the URL store (the
store's :data:`~newsstem.urldb.middleware.exports_durable` signal, sent after the
feed files were fsynced and the exports marked). A page that had no item scraped since
that signal last came (a hub, a page of no article) is let go at the next heartbeat: a
feed recorded only at the crawl's end (JSON, stdout) holds the article pages, not all.

Each worker keeps a heartbeat key (``newsstem:<spider>:requests:alive:<id>``) that
lapses ``NEWSSTEM_DISTRIBUTED_HEARTBEAT`` seconds after it was last renewed, and is in
the set ``newsstem:<spider>:requests:workers``. At start, and every third of the
heartbeat, a worker runs one atomic script that puts back in the shared queue the
entries of every worker whose heartbeat has lapsed (a ``kill -9``, an out-of-memory
kill, a machine gone) and forgets that worker: two live workers cannot both put the
same request back. Counted in ``newsstem/distributed/requeued_from_dead_workers``,
told in one INFO line. The fingerprints of those requests are in the shared duplicate
filter already: without this, no worker would fetch them in this crawl.

A worker idle for ``NEWSSTEM_DISTRIBUTED_IDLE`` seconds does not stop while another
worker holds requests it took and is not idle (:meth:`HandOff.others_at_work`; idle
workers are in the set ``newsstem:<spider>:requests:idle`` until their next pop): a
worker killed at work has its requests put back when its heartbeat lapses, by a worker
still up to fetch them.

A worker that stops cleanly lets go of its heartbeat and puts back what it did not
finish itself (``newsstem/distributed/requeued_at_stop``; nothing, unless the URL
store could not record the last exports, a feed file could not be opened (the articles
since are in no output: their pages go to the other workers) or a second signal cut the
work short).

A page is done when the request has left Scrapy's ``engine._slot.inprogress`` (a private
set; checked at start: a Scrapy without it stops the crawl with an error rather than let
pages go too early). The engine adds a request there before its download and removes it
only after ``Scraper.enqueue_scrape`` has finished: the callback's (or the errback's)
output consumed, its requests handed to the scheduler, its items through the pipelines
(item_scraped sent, so the URL store holds the article's export). No public signal says
that much. The candidates fall short: a spider middleware last in
``process_spider_output`` sees only the outputs of callbacks, not of errbacks (a
download error's output goes straight to the scraper), and nothing for a request a
downloader middleware ignored (IgnoreRequest from offsite or robots.txt: no signal names
it) or a download error without errback; ``item_scraped``/``item_dropped``/``item_error``
carry the response (a Failure for errback items, None for items of no response), and an
item still in a pipeline when the output ends is announced by no signal until it leaves;
``request_dropped`` is the scheduler refusing a request, not a popped page.
``request_left_downloader`` comes before the callback. Put together, each missed path
either leaks an entry (fetched twice, harmless) or lets a page go before its links and
items are handled (lost with a kill -9): the private set is the one place that knows.

A page is fetched at least once, not exactly once: a page whose worker died after
exporting its article but before the store recorded it is fetched again (and the
store then withholds an article it did record). A worker frozen longer than its
heartbeat (its reactor blocked, Redis out that long) sees the others fetch its pages
too.
"""

from __future__ import annotations

import logging
import os
import socket
import time
from typing import TYPE_CHECKING, Any

import redis
from scrapy import signals
from scrapy_redis.queue import FifoQueue, LifoQueue, PriorityQueue

from newsstem.urldb.middleware import UrlDbMiddleware, exports_durable

if TYPE_CHECKING:
    from collections.abc import Callable

    from scrapy import Request
    from scrapy.crawler import Crawler

    from newsstem.distributed.connection import RedisOutage

logger = logging.getLogger(__name__)

STATS_PREFIX = "newsstem/distributed"

# One pop, as scrapy-redis's queues pop, that also records what it took in the worker's
# hash under the call's token, with its score ("<score> <request>"), and names the worker
# in the set of workers. A pop whose reply never came (Redis paused, then a socket
# timeout) may still have run when Redis woke up: the worker reads its entry then. A worker
# that takes work is out of the set of idle workers.
# KEYS: the queue, the worker's hash, the set of workers, the set of idle workers.
# ARGV: how to pop, the token, the worker's id.
POP = """
local data, score = nil, '0'
if ARGV[1] == 'ZPOP' then
  local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  data = first[1]
  if data then
    score = first[2]
    redis.call('ZREMRANGEBYRANK', KEYS[1], 0, 0)
  end
elseif ARGV[1] == 'RPOP' then
  data = redis.call('RPOP', KEYS[1])
else
  data = redis.call('LPOP', KEYS[1])
end
if not data then return false end
redis.call('HSET', KEYS[2], ARGV[2], score .. ' ' .. data)
redis.call('SADD', KEYS[3], ARGV[3])
redis.call('SREM', KEYS[4], ARGV[3])
return data
"""
# Start messages popped as the worker's pops of requests are: each recorded in the worker's
# hash under "<token>:<n>" as "start <message>" in the same script, so Redis going away
# between the pop and the admission of the message's start requests (or the pop's reply
# lost) loses nothing: the entries live until those requests are in the shared queue, and
# a worker that stops first leaves them to go back in the start list.
# KEYS: the start list, the worker's hash, the set of workers, the set of idle workers.
# ARGV: how many, the token, the worker's id.
POP_STARTS = """
local messages = redis.call('LPOP', KEYS[1], ARGV[1])
if not messages then return {} end
for n, message in ipairs(messages) do
  redis.call('HSET', KEYS[2], ARGV[2] .. ':' .. n, 'start ' .. message)
end
redis.call('SADD', KEYS[3], ARGV[3])
redis.call('SREM', KEYS[4], ARGV[3])
return messages
"""
# Every worker of the set whose heartbeat has lapsed (or only the one given): its entries
# back in the queue (where its pops took them: the same score; the end lists pop from),
# its start messages back at the head of the start list, its hash deleted, its name out
# of the sets. One script: a request is put back once.
# KEYS: the set of workers, the queue, the set of idle workers, the start list.
# ARGV: prefix of heartbeats, prefix of hashes, how to push back (ZADD, LPUSH, RPUSH), one
# worker's id or ''. Returns the entries moved, the workers they were of, and how many of
# those entries were start messages.
REQUEUE = """
local ids
if ARGV[4] ~= '' then ids = {ARGV[4]} else ids = redis.call('SMEMBERS', KEYS[1]) end
local moved, workers, starts = 0, 0, 0
for _, id in ipairs(ids) do
  if redis.call('EXISTS', ARGV[1] .. id) == 0 then
    local hash = ARGV[2] .. id
    local entries = redis.call('HVALS', hash)
    for _, entry in ipairs(entries) do
      local space = string.find(entry, ' ', 1, true)
      local data = string.sub(entry, space + 1)
      if string.sub(entry, 1, space - 1) == 'start' then
        redis.call('LPUSH', KEYS[4], data)
        starts = starts + 1
      elseif ARGV[3] == 'ZADD' then
        redis.call('ZADD', KEYS[2], string.sub(entry, 1, space - 1), data)
      else
        redis.call(ARGV[3], KEYS[2], data)
      end
    end
    if #entries > 0 then workers = workers + 1 end
    moved = moved + #entries
    redis.call('DEL', hash)
    redis.call('SREM', KEYS[1], id)
    redis.call('SREM', KEYS[3], id)
  end
end
return {moved, workers, starts}
"""
# A worker about to stop as idle: it joins the set of idle workers and is told how many
# other workers hold requests they took and are not idle themselves: live workers at work
# (their pages may lead to more) or workers that died at work and whose heartbeat has not
# lapsed yet (their requests go back in the queue when it does). Idle workers holding
# pages (done, their exports not yet durable) are not waited for: two of them would wait
# for each other. KEYS: the set of workers, the set of idle workers. ARGV: prefix of
# hashes, the worker's id.
OTHERS_AT_WORK = """
redis.call('SADD', KEYS[2], ARGV[2])
local busy = 0
for _, id in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  if id ~= ARGV[2] and redis.call('SISMEMBER', KEYS[2], id) == 0
      and redis.call('HLEN', ARGV[1] .. id) > 0 then
    busy = busy + 1
  end
end
return busy
"""
# How scrapy-redis's queues pop, and how a request goes back where the next pop finds it
# soon (FifoQueue pushes on the left and pops on the right; LifoQueue pops on the left).
POP_COMMANDS = {PriorityQueue: "ZPOP", FifoQueue: "RPOP", LifoQueue: "LPOP"}
REQUEUE_COMMANDS = {PriorityQueue: "ZADD", FifoQueue: "RPUSH", LifoQueue: "LPUSH"}


def entry_request(entry: bytes) -> bytes:
    """The encoded request of an entry of a worker's hash ("<score> <request>").

    >>> entry_request(b"-1 \\x80\\x05 request")
    b'\\x80\\x05 request'
    """
    return entry.split(b" ", 1)[1]


class HandOff:
    """The requests one worker took from the shared queue, until their pages are done.

    Built by :class:`~newsstem.distributed.scheduler.RedisScheduler` for scrapy-redis's
    three queues. :meth:`took` records a request its pop returned; the entries of the
    pages done are deleted when the URL store says the exports so far are durable, and at
    each heartbeat those of the pages done that had no item scraped since (without a URL
    store: every page done, at each heartbeat). A page is done when the
    engine has finished with its request (``engine._slot.inprogress``: after its
    download, its callback's links and its items' pipelines), and while the scheduler
    keeps links in memory (Redis out) nothing is let go. Every Redis call goes through
    the worker's :class:`RedisOutage`: a Redis that does not answer costs no more calls.
    """

    def __init__(
        self,
        crawler: Crawler,
        server: redis.Redis,
        queue_key: str,
        worker_id: str,
        requeue_command: str,
        heartbeat_seconds: float,
        outage: RedisOutage,
        keeps_requests: Callable[[], bool],
        *,
        start_key: str,
    ) -> None:
        self.crawler = crawler
        self.server = server
        self.stats = crawler.stats
        self.worker_id = worker_id
        self.hash_key = f"{queue_key}:popped:{worker_id}"
        self.workers_key = f"{queue_key}:workers"
        self.idle_key = f"{queue_key}:idle"
        self.alive_prefix = f"{queue_key}:alive:"
        self.hash_prefix = f"{queue_key}:popped:"
        self.queue_key = queue_key
        self.start_key = start_key
        self.requeue_command = requeue_command
        self.heartbeat_seconds = heartbeat_seconds
        self.outage = outage
        self.keeps_requests = keeps_requests
        self.requeue_script = server.register_script(REQUEUE)
        self.others_script = server.register_script(OTHERS_AT_WORK)
        self.pop_starts_script = server.register_script(POP_STARTS)
        # the fields of the start messages taken, until their start requests are admitted
        self.starts: list[str] = []
        self.taken: dict[Request, str] = {}  # request -> its entry's token, until released
        # (with a URL store) the requests whose pages had an item scraped since the store
        # last said the exports were durable; an item of no request taken: all wait for it
        self._exports_waiting: set[Request] = set()
        self._unknown_exports = False
        self._next_tick = 0.0  # time.monotonic() of the next tick
        self._stopped = False
        engine = _engine(crawler)  # (the scheduler opens once the engine has its slot)
        slot = getattr(engine, "_slot", None)
        if engine is not None and not isinstance(getattr(slot, "inprogress", None), set):
            raise RuntimeError(
                "newsstem's distributed hand-off reads Scrapy's engine._slot.inprogress to "
                "know when a page is done, and this Scrapy has none: install the Scrapy "
                "version in newsstem's requirements"
            )
        self._durability = engine is not None and any(
            isinstance(m, UrlDbMiddleware) for m in engine.scraper.spidermw.middlewares
        )

    # -- the scheduler's side --------------------------------------------------------

    def start(self) -> None:
        """Heartbeat and requeue at once (then :meth:`tick` every third of the heartbeat,
        called by the worker's timer through :meth:`wake`)."""
        if self._durability:
            self.crawler.signals.connect(self.exports_durable, signal=exports_durable)
            self.crawler.signals.connect(self.item_scraped, signal=signals.item_scraped)
        self.tick()

    def wake(self) -> None:
        """:meth:`tick` if a third of the heartbeat has passed since the last one."""
        if time.monotonic() >= self._next_tick:
            self.tick()

    def took(self, request: Request, token: bytes) -> None:
        """A pop returned ``request``: its entry (``token``) lives until its page is done."""
        self.taken[request] = token.decode()

    # -- start messages (the worker's side) -----------------------------------------

    def pop_starts(self, count: int, token: str) -> list[bytes]:
        """Up to ``count`` start messages, each recorded under ``<token>:<n>`` in the
        same script (:data:`POP_STARTS`). Raises redis.RedisError."""
        messages = self.pop_starts_script(
            keys=[self.start_key, self.hash_key, self.workers_key, self.idle_key],
            args=[count, token, self.worker_id],
        ) or []
        self.starts.extend(f"{token}:{n}" for n in range(1, len(messages) + 1))
        return messages

    def popped_starts(self, count: int, token: str) -> list[bytes]:
        """The start messages a pop whose reply was lost took, if it ran (recorded under
        its token). Raises redis.RedisError."""
        fields = [f"{token}:{n}" for n in range(1, count + 1)]
        values = self.server.hmget(self.hash_key, fields)
        taken = [(field, value) for field, value in zip(fields, values) if value]
        self.starts.extend(field for field, _ in taken)
        return [entry_request(value) for _, value in taken]

    def release_starts(self) -> None:
        """Delete the entries of the start messages taken, once their start requests are
        in the shared queue (none while the scheduler keeps requests in memory). Raises
        redis.RedisError."""
        if not self.starts or self.keeps_requests():
            return
        self.server.hdel(self.hash_key, *self.starts)
        self.starts.clear()

    # -- time -----------------------------------------------------------------------

    def tick(self) -> None:
        """Renew the heartbeat, put back the requests of dead workers, let go of the pages
        done (with a URL store, those that had no item scraped since it last said the
        exports were durable) and of the start messages whose requests are queued."""
        if self._stopped:
            return
        self._next_tick = time.monotonic() + self.heartbeat_seconds / 3
        if not self.outage.ready():
            return
        try:
            self._beat()
            # within a heartbeat of a failed call (Redis out), the others' heartbeats may
            # have lapsed for the outage: give them the time to renew before calling them dead
            if time.monotonic() >= self.outage.last_failed + self.heartbeat_seconds:
                self._requeue("", "requeued_from_dead_workers")
            self.release_done(durable=not self._durability)
            self.release_starts()
        except redis.RedisError as exc:
            self.outage.failed("renewing the worker's heartbeat", exc)
            return
        self.outage.answered()

    def _beat(self) -> None:
        with self.server.pipeline(transaction=True) as pipe:
            pipe.set(
                self.alive_prefix + self.worker_id,
                f"{socket.gethostname()} pid {os.getpid()}",
                px=int(self.heartbeat_seconds * 1000),
            )
            pipe.sadd(self.workers_key, self.worker_id)
            pipe.execute()

    def _requeue(self, worker_id: str, stat: str) -> int:
        moved, workers, starts = self.requeue_script(
            keys=[self.workers_key, self.queue_key, self.idle_key, self.start_key],
            args=[self.alive_prefix, self.hash_prefix, self.requeue_command, worker_id],
        )
        if moved:
            self.stats.inc_value(f"{STATS_PREFIX}/{stat}", moved)  # (start messages too)
            what, where = _requeued_where(moved - starts, starts)
            if worker_id:
                logger.info(
                    "newsstem: %s this worker took and did not finish %s, for the other "
                    "workers",
                    what, where,
                )
            else:
                logger.info(
                    "newsstem: %s taken and not finished by stopped workers (%d; no "
                    "heartbeat for %g s) %s",
                    what, workers, self.heartbeat_seconds, where,
                )
        return int(moved)

    def others_at_work(self) -> int:
        """How many other workers hold requests they took and are not idle (a worker about
        to stop as idle waits for them: one that died at work has its requests put back
        when its heartbeat lapses); this worker counts as idle until its next pop.
        Raises redis.RedisError."""
        return int(
            self.others_script(
                keys=[self.workers_key, self.idle_key], args=[self.hash_prefix, self.worker_id]
            )
        )

    # -- pages done -----------------------------------------------------------------

    def item_scraped(self, item: Any, response: Any = None, **kwargs: Any) -> None:
        """An item through the pipelines: its page waits for the store's next word that
        exports are durable (an article in a feed synced later, or only at the end)."""
        request = getattr(response, "request", None)
        if request is not None and request in self.taken:
            self._exports_waiting.add(request)
        else:
            self._unknown_exports = True  # (an errback's item, a redirect's...): wait for all

    def exports_durable(self) -> None:
        """The URL store recorded every export so far: let go of the pages done."""
        # (sent at the end of a sync, in the same call: no item was scraped in between)
        self._exports_waiting.clear()
        self._unknown_exports = False
        if self._stopped or not self.outage.ready():
            return
        try:
            self.release_done()
        except redis.RedisError as exc:
            self.outage.failed("letting go of the pages done", exc)
            return
        self.outage.answered()

    def release_done(self, durable: bool = True) -> None:
        """Delete the entries of the requests the engine has finished with; none while
        the scheduler keeps links in memory (they came from some of these pages).
        ``durable``: every export so far is; else only the pages that had no item scraped
        since the store last said so are let go (a hub, a page of no article, an article
        the store withheld), or none if an item's page is not known."""
        if not self.taken or self.keeps_requests():
            return
        if not durable and self._unknown_exports:
            return
        slot = getattr(_engine(self.crawler), "_slot", None)
        in_progress = slot.inprogress if slot is not None else ()
        waiting = () if durable else self._exports_waiting
        done = [
            request
            for request in self.taken
            if request not in in_progress and request not in waiting
        ]
        if not done:
            return
        self.server.hdel(self.hash_key, *(self.taken[request] for request in done))
        for request in done:
            del self.taken[request]

    # -- the end --------------------------------------------------------------------

    def stop(self) -> None:
        """The worker stops (after the URL store's last sync): no heartbeat any more, and
        what it did not finish back in the queue now, for the others."""
        if self._stopped:
            return
        self._stopped = True
        if not self.outage.ready():
            logger.info(
                "newsstem: Redis does not answer: the %d requests this worker did not finish "
                "(and %d start messages) go back to the shared queue (the start list) when "
                "another worker finds its heartbeat lapsed",
                len(self.taken), len(self.starts),
            )
            return
        try:
            self.release_done(durable=not self._durability)
            self.release_starts()
            self.server.delete(self.alive_prefix + self.worker_id)
            self._requeue(self.worker_id, "requeued_at_stop")
        except redis.RedisError as exc:
            self.outage.failed("putting back the requests this worker did not finish", exc)
        self.taken.clear()
        self.starts.clear()


def _requeued_where(requests: int, starts: int) -> tuple[str, str]:
    """What went back, and where, for :meth:`HandOff._requeue`'s INFO line.

    >>> _requeued_where(3, 0)
    ('3 requests', 'are back in the shared queue')
    >>> _requeued_where(2, 1)
    ('2 requests and 1 start messages', 'are back in the shared queue and the start list')
    >>> _requeued_where(0, 2)
    ('2 start messages', 'are back in the start list')
    """
    what = [f"{requests} requests"] if requests else []
    where = ["the shared queue"] if requests else []
    if starts:
        what.append(f"{starts} start messages")
        where.append("the start list")
    return " and ".join(what), "are back in " + " and ".join(where)


def _engine(crawler: Crawler) -> Any:
    """The crawler's engine, or None before the crawl starts (a scheduler built by a test)."""
    try:
        return crawler.engine
    except RuntimeError:
        return None
