"""Offsite and depth checks that read each request's scope (distributed mode).

In a single crawl the scope is known at start: Scrapy's OffsiteMiddleware reads
the spider's ``allowed_domains`` and its DepthMiddleware reads ``DEPTH_LIMIT``.
In a distributed crawl, start messages bring scopes at any time and any worker
handles any request: these subclasses take the hosts and the depth limit from
the scope the request carries (:meth:`newsstem.spiders.news.NewsSpider.scope_of`),
with the same rules as Scrapy's.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from scrapy.downloadermiddlewares.offsite import OffsiteMiddleware
from scrapy.spidermiddlewares.depth import DepthMiddleware
from scrapy.utils.httpobj import urlparse_cached

from newsstem.spiders.news import SCOPE_META_KEY, allowed_hosts

if TYPE_CHECKING:
    from scrapy import Request, Spider
    from scrapy.http import Response
    from scrapy.statscollectors import StatsCollector


def host_regex(hosts: tuple[str, ...]) -> re.Pattern[str]:
    """Scrapy's offsite rule: the hosts and their subdomains; no hosts allow all.

    >>> bool(host_regex(("site.example",)).search("www.site.example")), host_regex(()).pattern
    (True, '')
    """
    if not hosts:
        return re.compile("")
    return re.compile(rf"^(.*\.)?({'|'.join(re.escape(h) for h in hosts)})$")


class ScopeOffsiteMiddleware(OffsiteMiddleware):
    """Scrapy's OffsiteMiddleware with the hosts of the request's scope (its start URLs)."""

    def __init__(self, stats: StatsCollector) -> None:
        super().__init__(stats)
        self._regexes: dict[str | None, re.Pattern[str]] = {}

    def should_follow(self, request: Request, spider: Spider) -> bool:
        key = request.meta.get(SCOPE_META_KEY)
        regex = self._regexes.get(key)
        if regex is None:
            scope = spider.scope_of(request.meta)  # type: ignore[attr-defined]
            regex = self._regexes[key] = host_regex(tuple(allowed_hosts(scope)))
        return bool(regex.search(urlparse_cached(request).hostname or ""))


class ScopeDepthMiddleware(DepthMiddleware):
    """Scrapy's DepthMiddleware with the depth limit of the request's scope."""

    def get_processed_request(self, request: Request, response: Response | None) -> Request | None:
        spider = self.crawler.spider
        scope = spider.scope_of(request.meta)  # type: ignore[union-attr]
        # Scrapy's method reads self.maxdepth: set it for this request.
        self.maxdepth = (
            spider.max_depth(scope)  # type: ignore[union-attr]
            if scope is not None
            else self.crawler.settings.getint("DEPTH_LIMIT")
        )
        return super().get_processed_request(request, response)
