"""Downloader middlewares of newsstem."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from scrapy.downloadermiddlewares.robotstxt import RobotsTxtMiddleware
from scrapy.exceptions import IgnoreRequest
from scrapy.utils.defer import maybe_deferred_to_future
from scrapy.utils.httpobj import urlparse_cached
from twisted.internet.defer import Deferred

from newsstem import render

if TYPE_CHECKING:
    from collections.abc import Collection

    from scrapy import Request
    from scrapy.crawler import Crawler
    from scrapy.http import Response
    from scrapy.robotstxt import RobotParser
    from scrapy.statscollectors import StatsCollector

logger = logging.getLogger(__name__)


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


# What failed, by the exception's class name (and module for the ambiguous ones).
_ERROR_KINDS = {
    "DNSLookupError": "dns",
    "ConnectionRefusedError": "refused",
    "TimeoutError": "timeout",
    "TCPTimedOutError": "timeout",
    "DownloadTimeoutError": "timeout",
    "DownloadCancelledError": "size_limit",
    "ConnectionLost": "connection",
    "ConnectionDone": "connection",
    "ResponseFailed": "connection",
    "ResponseNeverReceived": "connection",
    "PotentialDataLoss": "connection",
    "DownloadFailedError": "connection",
    "DownloadConnectionRefusedError": "refused",
    "CannotResolveHostError": "dns",
    "NoRouteError": "unreachable",
    "ConnectError": "unreachable",
    "SSLError": "tls",
    "Error": "tls",  # OpenSSL.SSL.Error
}


def error_kind(exception: BaseException) -> str:
    """The kind of a download failure: ``dns``, ``refused``, ``timeout``, ``size_limit``,
    ``connection``, ``unreachable``, ``tls``, in browser mode also ``redirects`` and
    ``browser`` (a crashed tab), or ``other``.

    >>> from twisted.internet.error import DNSLookupError
    >>> error_kind(DNSLookupError("no such host")), error_kind(ValueError())
    ('dns', 'other')
    """
    name = type(exception).__name__
    if type(exception).__module__.startswith("playwright."):  # browser mode
        return _browser_error_kind(str(exception), name)
    kind = _ERROR_KINDS.get(name, "other")
    if kind == "tls" and "SSL" not in type(exception).__module__.upper():
        return "other"
    return kind


class DownloadErrors:
    """A request that failed ends in one log line naming the URL and why, and a count.

    Placed next to the engine, it sees what the other middlewares let through: a network
    failure after Scrapy's retries gave up (their last "Gave up retrying" line is left at
    DEBUG: ``RETRY_GIVE_UP_LOG_LEVEL``), or an HTTP error status (4xx, 5xx) that no one
    asked to handle. It logs one WARNING line (``newsstem: download failed (refused, 3
    attempts): http://…``), counts ``newsstem/errors/<kind>`` (``http_<status>`` for
    statuses) and drops the request, so no traceback follows: these are events of any
    crawl, not bugs. A robots.txt that cannot be fetched is the same event: one line, and
    the site's pages are allowed (Scrapy's rule). A failed download larger than
    ``DOWNLOAD_MAXSIZE`` is counted; Scrapy's own warning is its one line.

    A status the crawl allows (:func:`allowed_status`) passes on to the spider and is
    counted in ``newsstem/allowed/http_<status>``: a page, not an error, for the run
    summary (:mod:`newsstem.operations`), which counted every 4xx/5xx response as one.
    """

    def __init__(self, stats: StatsCollector, allowed_codes: frozenset[int], allow_all: bool,
                 crawler: Crawler | None = None):
        self.stats = stats
        self.allowed_codes = allowed_codes
        self.allow_all = allow_all
        self.crawler = crawler  # its spider's handle_httpstatus_list, once it has one

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> DownloadErrors:
        settings = crawler.settings
        return cls(
            crawler.stats,
            # strings when given with -s or by scrapyd (scrapy crawl makes them numbers for
            # Scrapy's HttpErrorMiddleware too: newsstem.setting_values.read_allowed_codes)
            frozenset(int(code) for code in settings.getlist("HTTPERROR_ALLOWED_CODES")),
            settings.getbool("HTTPERROR_ALLOW_ALL"),
            crawler,
        )

    def process_response(self, request: Request, response: Response) -> Response:
        status = response.status
        if status < 400 or request.meta.get("dont_obey_robotstxt"):
            return response  # (robots.txt, read by its middleware: a 404 says "no rules")
        spider = getattr(self.crawler, "spider", None)
        if allowed_status(request, status, spider, self.allowed_codes, self.allow_all):
            self.stats.inc_value(f"newsstem/allowed/http_{status}")
            return response
        self._fail(request, f"http_{status}", f"HTTP status {status}")
        raise IgnoreRequest(f"HTTP status {status}")

    def process_exception(self, request: Request, exception: Exception) -> None:
        if isinstance(exception, IgnoreRequest):
            return None  # refused on purpose (robots.txt, the URL store): not a failure
        held = render.held_for(request)
        if held is not None:  # closed by newsstem: its script held the browser, once read
            self._fail(request, "timeout", render.held_message(held))
            raise IgnoreRequest("download failed (timeout)")
        kind = error_kind(exception)
        if kind == "other" and not _is_network_error(exception):
            return None  # a bug somewhere: Scrapy logs it with its traceback
        # the first line: the browser's errors go on with a call log
        self._fail(request, kind, (str(exception) or type(exception).__name__).splitlines()[0])
        raise IgnoreRequest(f"download failed ({kind})")

    def _fail(self, request: Request, kind: str, reason: str) -> None:
        self.stats.inc_value(f"newsstem/errors/{kind}")
        attempts = request.meta.get("retry_times", 0) + 1
        what = "robots.txt unreadable, its site's pages are allowed" if request.meta.get(
            "dont_obey_robotstxt"
        ) else "download failed"
        level = logging.DEBUG if kind == "size_limit" else logging.WARNING
        logger.log(
            level, "newsstem: %s (%s%s): %s: %s", what, kind,
            f", {attempts} attempts" if attempts > 1 else "", request.url, reason,
        )


def allowed_status(request: Request, status: int, spider: object,
                   allowed_codes: Collection[int], allow_all: bool) -> bool:
    """Whether Scrapy's HttpErrorMiddleware lets a response of this 4xx/5xx ``status`` reach
    the spider, by its own rule: the request's ``handle_httpstatus_all``, else its
    ``handle_httpstatus_list`` (in place of the settings), else ``HTTPERROR_ALLOW_ALL``,
    else the spider's ``handle_httpstatus_list`` (in place of ``HTTPERROR_ALLOWED_CODES``),
    else ``allowed_codes``. A spider's list was not read, so its 404 counted as a failed
    request and never reached it; a request's list was added to the settings', so a
    status it left out passed here and Scrapy dropped it, neither failed nor a page.

    >>> from scrapy import Request
    >>> class Spider:
    ...     handle_httpstatus_list = [410]
    >>> allowed_status(Request("http://a.example/"), 404, None, {404}, False)
    True
    >>> allowed_status(Request("http://a.example/"), 404, Spider(), {404}, False)
    False
    >>> only_500 = Request("http://a.example/", meta={"handle_httpstatus_list": [500]})
    >>> allowed_status(only_500, 404, None, {404}, True), allowed_status(only_500, 500, None, (), False)
    (False, True)
    """
    meta = request.meta
    if meta.get("handle_httpstatus_all"):
        return True
    if "handle_httpstatus_list" in meta:
        return status in meta["handle_httpstatus_list"]
    if allow_all:
        return True
    return status in getattr(spider, "handle_httpstatus_list", allowed_codes)


def _is_network_error(exception: Exception) -> bool:
    """An exception raised by the network stack (Twisted, OpenSSL, Scrapy's handlers, the
    browser of browser mode)."""
    module = type(exception).__module__
    return module.startswith(
        ("twisted.", "OpenSSL.", "scrapy.core.downloader", "scrapy.exceptions", "playwright.")
    )


# What Chromium's network errors (net::ERR_...) and Playwright's say, as kinds.
_BROWSER_ERRORS = (
    ("ERR_NAME_NOT_RESOLVED", "dns"),
    ("ERR_CONNECTION_REFUSED", "refused"),
    ("ERR_TIMED_OUT", "timeout"),
    ("ERR_CONNECTION_", "connection"),
    ("ERR_EMPTY_RESPONSE", "connection"),
    ("ERR_ADDRESS_UNREACHABLE", "unreachable"),
    ("ERR_CERT_", "tls"),
    ("ERR_SSL_", "tls"),
    ("ERR_TOO_MANY_REDIRECTS", "redirects"),
    ("crash", "browser"),
    ("Target closed", "browser"),
    ("has been closed", "browser"),
)


def _browser_error_kind(message: str, name: str) -> str:
    """The kind of a failure in the browser (``TimeoutError``: the page did not load in
    time; ``browser``: the tab or the browser crashed)."""
    if name == "TimeoutError":
        return "timeout"
    for marker, kind in _BROWSER_ERRORS:
        if marker in message:
            return kind
    return "browser"
