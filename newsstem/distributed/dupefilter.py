"""The shared duplicate filter of a distributed crawl: a Redis set per site, forgotten when idle."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from scrapy.dupefilters import BaseDupeFilter

from newsstem.distributed.connection import DUPEFILTER_KEY, connect
from newsstem.distributed.options import DistributedOptions
from newsstem.rules import site_of

if TYPE_CHECKING:
    import redis
    from scrapy import Request, Spider
    from scrapy.utils.request import RequestFingerprinterProtocol

logger = logging.getLogger(__name__)


class SiteDupeFilter(BaseDupeFilter):
    """``DUPEFILTER_CLASS`` of distributed mode (built by scrapy-redis's scheduler, with the
    spider).

    A request is new if its fingerprint (Scrapy's ``REQUEST_FINGERPRINTER_CLASS``,
    as in a single process) is not yet in the set of its site; adding it and
    renewing the set's time-to-live is one round trip, atomic in Redis, so two
    workers never both admit a URL.

    Semantics, unlike a single process's :class:`newsstem.dupefilter.DepthAwareDupeFilter`:
    the first admission wins. A page reached first through a longer path is
    not fetched again when a shorter one shows up (that would fetch it twice);
    the shared queue is ordered breadth-first, so the first path is nearly
    always a shortest one.

    The set of a site expires ``NEWSSTEM_DISTRIBUTED_FORGET`` seconds after a
    link to the site was last seen: a crawl of the site started after that
    fetches its hubs again, where the URL store still skips the articles
    exported before.
    """

    def __init__(
        self,
        server: redis.Redis,
        key: str,
        fingerprinter: RequestFingerprinterProtocol,
        forget_seconds: int,
    ) -> None:
        self.server = server
        self.key = key  # %(site)s left to fill
        self.fingerprinter = fingerprinter
        self.forget_seconds = forget_seconds
        self._logged = False

    @classmethod
    def from_spider(cls, spider: Spider) -> SiteDupeFilter:
        crawler = spider.crawler
        options = DistributedOptions.from_settings(crawler.settings)
        key = DUPEFILTER_KEY.replace("%(spider)s", spider.name)
        return cls(
            connect(options.url), key, crawler.request_fingerprinter, options.forget_seconds
        )

    def site_key(self, request: Request) -> str:
        return self.key % {"site": site_of(request.url) or "-"}

    def request_seen(self, request: Request) -> bool:
        fingerprint = self.fingerprinter.fingerprint(request).hex()
        key = self.site_key(request)
        with self.server.pipeline(transaction=True) as pipe:
            pipe.sadd(key, fingerprint)
            pipe.expire(key, self.forget_seconds)
            added, _ = pipe.execute()
        return added == 0

    def clear(self) -> None:
        """Forget every site (scrapy-redis calls it when ``SCHEDULER_PERSIST`` is off)."""
        pattern = self.key % {"site": "*"}
        for key in self.server.scan_iter(match=pattern, count=1000):
            self.server.delete(key)

    def log(self, request: Request, spider: Spider) -> None:
        if not self._logged:
            logger.debug(
                "Filtered duplicate request %s (shared filter in Redis) - no more duplicates "
                "will be shown",
                request,
            )
            self._logged = True
