"""A worker of a distributed crawl: start messages from Redis, idle timeout, quick wake-ups.

Start messages are pushed to the list ``newsstem:<spider>:start_urls`` (with
``LPUSH``/``RPUSH``; workers pop from the left). Each is one of

- a URL, or several separated by whitespace: ``https://site/news/``;
- a JSON object of spider arguments, as ``-a`` would give them:
  ``{"start_url": "https://site/", "depth": 2, "rules": "-/print/ +^https://site/",
  "sitemap": "...", "feed": "...", "since": "2026-11-01"}`` (``url`` is accepted for
  ``start_url``, as scrapy-redis writes it; lists of strings for the URL and
  rule arguments).

A worker takes messages when it has nothing else to do (up to
``CONCURRENT_REQUESTS`` at a time), checks them like ``-a`` arguments (a bad one
is logged and counted in ``newsstem/distributed/rejected_messages``) and puts
their start requests in the shared queue, for every worker to fetch. With the hand-off
(:mod:`newsstem.distributed.handoff`), the pop records the messages under the worker's name
in the same script until their start requests are in the queue: Redis going away between
the two (or a pop's reply lost) loses no message.
"""

from __future__ import annotations

import json
import logging
import time
import uuid
from typing import TYPE_CHECKING, Any

import redis
from scrapy import signals
from scrapy.exceptions import CloseSpider, DontCloseSpider, NotConfigured, UsageError
from scrapy.utils.asyncio import create_looping_call

from newsstem.backoff import Backoff
from newsstem.distributed.connection import OUTAGE_ERRORS, START_KEY, RedisOutage, connect
from newsstem.distributed.options import DistributedOptions
from newsstem.urldb import hide_password

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.crawler import Crawler

    from newsstem.distributed.handoff import HandOff

logger = logging.getLogger(__name__)

STATS_PREFIX = "newsstem/distributed"
# How often an idle worker looks at the shared queue. Scrapy's own check runs
# every 5 s: a worker would join a crawl another one started seconds late.
POLL_SECONDS = 0.5


class StartMessageError(ValueError):
    """A start message that is not a URL nor a JSON object of spider arguments."""


def _message_text(message: bytes | str) -> str:
    """A start message as pushed, not as the bytes redis-py returns (b'{"start_url": ...}')."""
    return message.decode("utf-8", "replace") if isinstance(message, bytes) else message


def parse_start_message(data: bytes | str) -> dict[str, Any]:
    """The spider arguments of a start message.

    >>> parse_start_message(b"https://site/news/")
    {'start_url': 'https://site/news/'}
    >>> parse_start_message('{"url": "https://site/", "depth": 2}')
    {'depth': 2, 'start_url': 'https://site/'}
    >>> parse_start_message("[1]")
    Traceback (most recent call last):
    ...
    newsstem.distributed.worker.StartMessageError: not a URL nor a JSON object of spider arguments
    """
    text = _message_text(data).strip()
    if not text.startswith(("{", "[", '"')):
        if not text:
            raise StartMessageError("an empty message")
        return {"start_url": text}
    try:
        arguments = json.loads(text)
    except ValueError as exc:
        raise StartMessageError(f"not valid JSON ({exc})") from None
    if not isinstance(arguments, dict):
        raise StartMessageError("not a URL nor a JSON object of spider arguments")
    if "url" in arguments:
        if "start_url" in arguments:
            raise StartMessageError('give "url" or "start_url", not both')
        arguments["start_url"] = arguments.pop("url")
    return arguments


class Worker:
    """Extension (enabled by distributed mode): keeps the spider working as a crawl worker.

    - When the spider is idle it reads start messages from Redis and
      schedules their start requests; it keeps the spider open (DontCloseSpider)
      until there was no work for ``NEWSSTEM_DISTRIBUTED_IDLE`` seconds
      (``finish_reason`` ``idle``), or forever if that is 0. With the hand-off
      (:mod:`~newsstem.distributed.handoff`) an idle worker does not stop while another
      worker at work holds requests it took: it waits (one INFO line), and puts back the
      requests of one killed at work when its heartbeat lapses. It joins the idle workers
      when its idle time is up (at once if that is 0), so idle workers do not wait for
      each other.
    - A Redis error reading start messages is one ERROR line (each failure counted in
      ``newsstem/distributed/redis_errors``): the worker reads again after 1 s, 2 s,
      4 s... (at most 60 s) and the time counts as idle, so it stops after
      ``NEWSSTEM_DISTRIBUTED_IDLE`` seconds (``finish_reason`` ``redis_error``)
      unless Redis answers again. Redis not answering at all (an outage) is
      :attr:`outage`, which the scheduler shares: one line for the worker.
    - An idle spider looks at the shared queue every :data:`POLL_SECONDS`; the same
      timer renews the hand-off's heartbeat when due, and the hand-off ends when the
      engine stops (after the URL store's last marks).
    - SIGTERM/SIGINT stop the worker as they stop any Scrapy crawl: requests in
      progress are finished (their articles exported, their links queued for the
      other workers); what is still queued stays in Redis. A second signal
      stops at once.
    """

    def __init__(self, crawler: Crawler, server: redis.Redis, options: DistributedOptions) -> None:
        self.crawler = crawler
        self.server = server
        self.options = options
        self.stats = crawler.stats
        self.start_key = ""
        self.batch = max(1, crawler.settings.getint("CONCURRENT_REQUESTS"))
        self._idle_since: float | None = None
        self._poll = None
        self.outage = RedisOutage(options.url, crawler.stats)
        self._reads = Backoff()  # start message reads failing (not an outage: an error)
        self.handoff: HandOff | None = None  # set by the scheduler when it opens
        self._waited_for = 0  # other workers at work this idle worker said it waits for
        self._unsure_pop: str | None = None  # the token of a pop whose reply never came

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Worker:
        options = DistributedOptions.from_settings(crawler.settings)
        if not options.url:
            raise NotConfigured("NEWSSTEM_DISTRIBUTED is empty")
        worker = cls(crawler, connect(options.url), options)
        crawler.signals.connect(worker.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(worker.spider_idle, signal=signals.spider_idle)
        crawler.signals.connect(worker.response_received, signal=signals.response_received)
        crawler.signals.connect(worker.spider_closed, signal=signals.spider_closed)
        # before StatsFile's (a later extension): what it counts is in NEWSSTEM_STATS_FILE
        crawler.signals.connect(worker.engine_stopped, signal=signals.engine_stopped)
        return worker

    def spider_opened(self, spider: Spider) -> None:
        self.start_key = START_KEY % {"spider": spider.name}
        idle = (
            f"stops after {self.options.idle_seconds:g} s without work"
            if self.options.idle_seconds
            else "runs until stopped (SIGTERM/SIGINT)"
        )
        logger.info(
            "newsstem: distributed worker on %s: start messages from %s; %s",
            hide_password(self.options.url),
            self.start_key,
            idle,
        )
        self._poll = create_looping_call(self._wake)
        self._poll.start(POLL_SECONDS, now=False)

    def _wake(self) -> None:
        """Let the engine look at the shared queue now (Scrapy itself looks every 5 s);
        the hand-off's heartbeat when due."""
        if self.handoff is not None:
            self.handoff.wake()
        slot = getattr(self.crawler.engine, "_slot", None)
        nextcall = getattr(slot, "nextcall", None)
        if nextcall is not None:
            nextcall.schedule()

    def response_received(self, **kwargs: Any) -> None:
        self._idle_since = None
        self._waited_for = 0

    def spider_idle(self, spider: Spider) -> None:
        if self.schedule_start_messages(spider):
            self._idle_since = None
            raise DontCloseSpider
        now = time.monotonic()
        if self._idle_since is None:
            self._idle_since = now
            if not self.options.idle_seconds:
                # a worker that never stops joins the idle workers now: the others, which
                # do not stop while a worker not idle holds pages, must not wait for it
                self._others_at_work()
        if self.options.idle_seconds and now - self._idle_since >= self.options.idle_seconds:
            others = self._others_at_work()
            if self._reads.failing or self.outage.failing:
                logger.info(
                    "newsstem: Redis failing and no work for %g s: the worker stops",
                    self.options.idle_seconds,
                )
                raise CloseSpider("redis_error")
            if others:
                if others != self._waited_for:
                    logger.info(
                        "newsstem: no work for %g s, but %d other workers hold requests they "
                        "took (at work, or stopped and not yet found dead: their requests go "
                        "back in the queue when their heartbeat lapses, within %g s): waiting",
                        self.options.idle_seconds, others, self.options.heartbeat_seconds,
                    )
                    self._waited_for = others
                raise DontCloseSpider
            logger.info(
                "newsstem: no work for %g s: the worker stops", self.options.idle_seconds
            )
            raise CloseSpider("idle")
        raise DontCloseSpider

    def _others_at_work(self) -> int:
        """How many other workers hold requests and are not idle (0 without the hand-off,
        or if Redis cannot tell: the worker stops as it would have)."""
        if self.handoff is None or not self.outage.ready():
            return 0
        try:
            others = self.handoff.others_at_work()
        except redis.RedisError as exc:
            self.outage.failed("looking for the other workers at work", exc)
            return 0
        self.outage.answered()
        return others

    def schedule_start_messages(self, spider: Spider) -> int:
        """Pop start messages and schedule their start requests; how many requests."""
        messages = self._pop_start_messages()
        scheduled = 0
        for message in messages:
            try:
                arguments = parse_start_message(message)
                scope = spider.scope_from(arguments)  # type: ignore[attr-defined]
            except (StartMessageError, UsageError) as exc:
                self.stats.inc_value(f"{STATS_PREFIX}/rejected_messages")
                logger.error(
                    "newsstem: start message %r rejected: %s", _message_text(message)[:500], exc
                )
                continue
            self.stats.inc_value(f"{STATS_PREFIX}/start_messages")
            spider.log_scope(scope)  # type: ignore[attr-defined]
            # The refusals counted while its requests are scheduled are theirs alone: the
            # scheduler admits them synchronously, and an idle worker keeps no requests of
            # its own (a worker that keeps some is not idle) whose refusals would count too.
            refused_before = self.stats.get_value("dupefilter/filtered", 0)
            starts = list(spider.start_requests_for(scope))  # type: ignore[attr-defined]
            seen_ago = self._seconds_since_seen(starts)  # (admitting them renews it)
            for request in starts:
                self.crawler.engine.crawl(request)
            scheduled += len(starts)
            if starts and self.stats.get_value("dupefilter/filtered", 0) - refused_before \
                    >= len(starts):  # a silent no-op otherwise: "pages fetched: 0", no reason
                logger.info(
                    "newsstem: start message %r adds nothing: the shared filter has seen its "
                    "start pages (a link to their site was last seen %s, by a worker of this "
                    "crawl or of an earlier one; the filter forgets a site "
                    "NEWSSTEM_DISTRIBUTED_FORGET = %d s after the last link to it is seen, "
                    "this message's start pages included); push it again after that, or crawl "
                    "it apart in another Redis database",
                    _message_text(message)[:500],
                    "less than that long ago" if seen_ago is None else f"{seen_ago} s ago",
                    self.options.forget_seconds,
                )
        if messages and self.handoff is not None and self.outage.ready():
            # their start requests admitted (or kept by the scheduler, which then keeps the
            # entries too): the messages are done
            try:
                self.handoff.release_starts()
            except redis.RedisError as exc:
                self.outage.failed("letting go of the start messages read", exc)
        return scheduled

    def _seconds_since_seen(self, requests: list[Any]) -> int | None:
        """How long ago the shared filter last saw a link to the site of ``requests``, from
        the time-to-live of its set (the most recent of their sites); None when it cannot
        tell (no such set, another filter, Redis failing). The store keeps no crawl's
        name: whether this crawl or an earlier one saw the link, it cannot tell."""
        scheduler = getattr(self.crawler.engine, "scheduler", None)  # (Scrapy >= 2.19)
        site_key = getattr(getattr(scheduler, "df", None), "site_key", None)
        if site_key is None or not requests or not self.outage.ready():
            return None
        try:
            with self.server.pipeline(transaction=False) as pipe:
                for key in {site_key(request) for request in requests}:
                    pipe.ttl(key)
                left = max(pipe.execute())
        except redis.RedisError:  # (the scheduler's next call says so if it lasts)
            return None
        if left <= 0:  # (-2: no such set, -1: no time-to-live)
            return None
        return max(0, self.options.forget_seconds - left)

    def _pop_start_messages(self) -> list[bytes]:
        """Up to a batch of start messages; none while Redis fails (read again with backoff)."""
        if not self._reads.due() or not self.outage.ready():
            return []
        try:
            messages = self._pop()
        except OUTAGE_ERRORS as exc:
            self.outage.failed("reading start messages", exc)
            return []
        except redis.RedisError as exc:
            self.stats.inc_value(f"{STATS_PREFIX}/redis_errors")
            if self._reads.failed():
                logger.error(
                    "newsstem: cannot read start messages from Redis at %s (%s): reading "
                    "again with backoff (at most every %g s)",
                    hide_password(self.options.url), exc, self._reads.longest,
                )
            return []
        # (the end of an outage is the scheduler's to tell: it asks Redis all the time)
        if self._reads.answered() is not None:
            logger.info("newsstem: Redis answers again: start messages read")
        return messages

    def _pop(self) -> list[bytes]:
        """``LPOP key count``; with the hand-off, into the worker's hash in the same script
        (a pop whose reply is lost is read there when Redis answers)."""
        handoff = self.handoff
        if handoff is None:
            return self.server.lpop(self.start_key, self.batch) or []
        if self._unsure_pop is not None:
            messages = handoff.popped_starts(self.batch, self._unsure_pop)
            self._unsure_pop = None
            if messages:
                self.stats.inc_value(f"{STATS_PREFIX}/recovered_start_messages", len(messages))
                return messages
        self._unsure_pop = uuid.uuid4().hex
        messages = handoff.pop_starts(self.batch, self._unsure_pop)
        self._unsure_pop = None
        return messages

    def spider_closed(self, spider: Spider, reason: str) -> None:
        if self._poll is not None and self._poll.running:
            self._poll.stop()
        self.server.close()

    def engine_stopped(self) -> None:
        """After the URL store's last marks (``spider_closed``): the hand-off's end."""
        if self.handoff is not None:
            self.handoff.stop()
        self.outage.close()
