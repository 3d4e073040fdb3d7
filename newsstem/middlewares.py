"""Downloader middlewares of newsstem."""

from __future__ import annotations

from typing import TYPE_CHECKING

from scrapy.downloadermiddlewares.robotstxt import RobotsTxtMiddleware
from scrapy.utils.defer import maybe_deferred_to_future
from scrapy.utils.httpobj import urlparse_cached
from twisted.internet.defer import Deferred

if TYPE_CHECKING:
    from scrapy import Request
    from scrapy.robotstxt import RobotParser


class SafeRobotsTxtMiddleware(RobotsTxtMiddleware):
    """Scrapy's robots.txt middleware without its first-burst race (Scrapy 2.14–2.19).

    While a host's robots.txt downloads, Scrapy parks every other request to that
    host on one shared Deferred and awaits it with ``asFuture``; the first waiter's
    callback returns ``None`` into the chain, so every later waiter reads ``None``
    ("no robots.txt, allow all") and disallowed pages are fetched: in the first
    wave to a new host, after a JOBDIR resume, at every worker start.

    Here each waiter gets its own Deferred, fired from the shared one, and then
    reads the parser the parent stored (a parser, or ``None`` when robots.txt
    could not be fetched).
    """

    async def robot_parser(self, request: Request) -> RobotParser | None:
        netloc = urlparse_cached(request).netloc
        pending = self._parsers.get(netloc)
        if isinstance(pending, Deferred):
            done: Deferred[None] = Deferred()

            def _wake(result: object) -> object:
                done.callback(None)
                return result  # leave the shared chain's result intact for the next waiter

            pending.addBoth(_wake)
            await maybe_deferred_to_future(done)
            return self._parsers.get(netloc)
        return await super().robot_parser(request)
