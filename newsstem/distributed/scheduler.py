"""scrapy-redis's scheduler, without its deprecated stats calls."""

from __future__ import annotations

from typing import TYPE_CHECKING

from scrapy_redis.scheduler import Scheduler

if TYPE_CHECKING:
    from scrapy import Request


class RedisScheduler(Scheduler):
    """``SCHEDULER``: the shared queue of scrapy-redis 0.9.1.

    Its ``enqueue_request``/``next_request`` pass ``spider=`` to the stats
    collector, deprecated since Scrapy 2.15 (a warning per call site, an error
    under ``-W error``); these are the same methods without it, and they count
    the requests the duplicate filter refused (``dupefilter/filtered``, as
    Scrapy's own scheduler does).
    """

    def enqueue_request(self, request: Request) -> bool:
        if not request.dont_filter and self.df.request_seen(request):
            self.df.log(request, self.spider)
            if self.stats:
                self.stats.inc_value("dupefilter/filtered")
            return False
        if self.stats:
            self.stats.inc_value("scheduler/enqueued/redis")
        self.queue.push(request)
        return True

    def next_request(self) -> Request | None:
        request = self.queue.pop(self.idle_before_close)
        if request and self.stats:
            self.stats.inc_value("scheduler/dequeued/redis")
        return request
