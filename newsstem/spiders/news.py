"""The ``news`` spider: the crawl policy of newsstem.

Webstemmer's crawler semantics (seed 004) on Scrapy: start URLs, a depth limit
counted in links from a start page (1 = the start pages and what they link
to), ordered accept/reject URL rules, same site only, robots.txt always
obeyed, and every anchor text seen for a page kept for title detection.
Every HTML page becomes a :class:`~newsstem.items.Page` item; the extraction
pipeline decides whether it is an article.

Discovery: sitemaps (``-a sitemap=``, or ``robots`` for the ``Sitemap:`` lines of
the sites' robots.txt; indexes are followed) and RSS/Atom feeds (``-a feed=``,
and those pages announce with ``<link rel="alternate">``) list articles. What a
sitemap or a given feed lists is crawled like a start page (depth 0), but under
the URL rules, the same-site test and robots.txt, and only if newer than
``-a since`` where the listing dates it. A feed found on a page is a link of that
page, and its entries are links of the feed (a hub, one level further).

Scopes: each request carries the scope it belongs to (``meta["newsstem_scope"]``:
the resolved spider arguments of its start URL, as compact JSON), and the links
of a page are judged by the scope of its request. A single crawl has one; in
distributed mode (:mod:`newsstem.distributed`) every start message pushed to
Redis brings its own, and any worker applies it to any request of the shared
queue.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import AsyncIterator, Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any
from urllib.parse import urljoin, urlsplit

from scrapy import Request, Spider
from scrapy.exceptions import UsageError
from scrapy.http import HtmlResponse, Response, TextResponse
from scrapy.linkextractors import LinkExtractor
from scrapy.utils.gz import gunzip, gzip_magic_number
from scrapy.utils.sitemap import sitemap_urls_from_robots

from newsstem import defaults, render
from newsstem.discovery import (
    Entry,
    SinceError,
    looks_like_feed,
    parse_feed,
    parse_since,
    parse_sitemap,
)
from newsstem.distributed.connection import is_distributed
from newsstem.dupefilter import REVISIT_META_KEY
from newsstem.encoding import decode_html, looks_binary
from newsstem.items import Page
from newsstem.keyset import KeySet
from newsstem.rules import (
    RuleError,
    UrlRules,
    default_directories,
    is_crawlable_scheme,
    same_site,
    site_of,
    strip_tracking,
)
from newsstem.setting_values import read_setting
from newsstem.text import normalize_space
from newsstem.urldb.store import url_key
from newsstem.usage_errors import close_name

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.link import Link
    from scrapy.settings import BaseSettings

logger = logging.getLogger(__name__)


class AnchorBook:
    """Anchor texts of the links to each not-yet-fetched URL.

    A URL's texts are handed over (and forgotten) when its page is fetched;
    links seen after that are not recorded, so memory stays proportional to
    the crawl frontier, not to every link of the site.

    >>> book = AnchorBook(max_per_url=2)
    >>> book.add("http://a/x#top", " Big  news "); book.add("http://a/x", "Big news")
    >>> book.add("http://a/x", "More"); book.add("http://a/x", "Dropped")
    >>> book.pop("http://a/x"), book.pop("http://a/x")
    (['Big news', 'More'], [])
    """

    def __init__(self, max_per_url: int) -> None:
        self.max_per_url = max_per_url
        self._texts: dict[bytes, list[str]] = {}
        # the pages fetched: one entry a page for the whole crawl, so a key is the URL
        # store's 16-byte digest of the canonical URL, not that URL (~50 + its length:
        # ~140 a news URL; stop 49's crawl memory), in a KeySet: ~20 bytes a page, not ~90
        # in a set (stop 50)
        self._fetched = KeySet()

    @staticmethod
    def _key(url: str) -> bytes:
        return url_key(url)

    def add(self, url: str, text: str) -> None:
        text = normalize_space(text)
        key = self._key(url)
        if not text:
            return
        texts = self._texts.get(key)
        if texts is None:  # (a URL with texts waiting is no page fetched: not looked up)
            if key in self._fetched:
                return
            texts = self._texts[key] = []
        if len(texts) < self.max_per_url and text not in texts:
            texts.append(text)

    def pop(self, url: str) -> list[str]:
        key = self._key(url)
        self._fetched.add(key)
        return self._texts.pop(key, [])

    def forget(self, url: str, key: bytes | None = None) -> None:
        """Let go of the texts of a URL that will not be fetched (the URL store skips an
        exported article): a later link to it records them again, and they go again.
        ``key``: the URL's ``url_key``, when the caller has it (the URL store's middleware,
        for each link it skips).

        >>> book = AnchorBook(max_per_url=2)
        >>> book.add("http://a/x", "Big news"); book.forget("http://a/x"); len(book)
        0
        """
        self._texts.pop(key if key is not None else self._key(url), None)

    def __len__(self) -> int:
        """How many URLs have texts waiting for their page."""
        return len(self._texts)


def setting_list(settings: BaseSettings, name: str, default: list[str]) -> list[str] | str:
    """A list setting; a string is kept (whitespace-separated) unless it is a JSON list.

    Settings given on the command line or through scrapyd arrive as strings:
    ``"+^https://a/ -/print/"`` and ``'["+^https://a/", "-/print/"]'`` mean the same.

    >>> from scrapy.settings import Settings
    >>> setting_list(Settings({"X": '["a", "b"]'}), "X", [])
    ['a', 'b']
    >>> setting_list(Settings({"X": "a b"}), "X", [])
    'a b'
    """
    value = settings.get(name, default)
    if isinstance(value, str) and value.lstrip().startswith("["):
        try:
            parsed = json.loads(value)
        except ValueError:
            raise UsageError(f"{name}: {value!r} is not a JSON list of strings") from None
        if not isinstance(parsed, list) or not all(isinstance(v, str) for v in parsed):
            raise UsageError(f"{name}: {value!r} is not a JSON list of strings")
        return parsed
    return value or []


def tracking_params(settings: BaseSettings) -> frozenset[str]:
    """``NEWSSTEM_TRACKING_PARAMS``: a list, a JSON list or names separated by spaces or
    commas; UsageError for a value that looks like JSON and is not.

    >>> from scrapy.settings import Settings
    >>> sorted(tracking_params(Settings({"NEWSSTEM_TRACKING_PARAMS": "share,fbclid"})))
    ['fbclid', 'share']
    """
    params = setting_list(settings, "NEWSSTEM_TRACKING_PARAMS", defaults.NEWSSTEM_TRACKING_PARAMS)
    if isinstance(params, str):  # "share fbclid" or "share,fbclid"
        params = params.replace(",", " ").split()
    return frozenset(params)


# A comma before another URL's scheme: URLs listed with commas, not spaces.
_URL_AFTER_COMMA = re.compile(r",\s*https?://", re.IGNORECASE)


def _split_urls(value: str | Iterable[str] | None) -> list[str]:
    if not value:
        return []
    if isinstance(value, str):
        return value.split()
    return [url for item in value for url in str(item).split()]


def _utc_now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass(frozen=True)
class CrawlScope:
    """What one crawl covers, from spider arguments and settings; bad input raises UsageError."""

    start_urls: tuple[str, ...]
    sites: frozenset[str]
    depth: int | None  # from -a depth; None: DEPTH_LIMIT decides
    rules: UrlRules
    sitemap_urls: tuple[str, ...] = ()
    feed_urls: tuple[str, ...] = ()
    robots_sitemaps: bool = False  # -a sitemap=robots: the Sitemap: lines of the sites' robots.txt
    since: datetime | None = None  # listed entries dated before this are skipped
    # DEPTH_LIMIT of the process that made the scope, when -a depth was not given
    depth_limit: int | None = None
    key: str = ""  # names the scope in request meta (NewsSpider.scope_from)
    # no -a rules nor NEWSSTEM_URL_RULES: the directories the default rules accept
    # (without scheme, "site/news/"), for the run summary; () when rules were given
    default_directories: tuple[str, ...] = ()

    @classmethod
    def from_arguments(
        cls,
        settings: BaseSettings,
        start_url: str | None = None,
        depth: str | int | None = None,
        rules: str | None = None,
        sitemap: str | None = None,
        feed: str | None = None,
        since: str | None = None,
        *,
        spider: str = "news",
    ) -> CrawlScope:
        """``spider``: the name the usage errors start with (a subclass's own, not "news")."""
        urls = _split_urls(start_url) or _split_urls(
            setting_list(settings, "NEWSSTEM_START_URLS", defaults.NEWSSTEM_START_URLS)
        )
        sitemap_tokens = _split_urls(sitemap)
        robots_sitemaps = ROBOTS_SITEMAPS in sitemap_tokens
        sitemaps = [token for token in sitemap_tokens if token != ROBOTS_SITEMAPS]
        feeds = _split_urls(feed)
        if robots_sitemaps and not urls:
            raise UsageError(
                f"{spider}: -a sitemap=robots reads the robots.txt of the start URLs' sites: "
                "give a start URL too"
            )
        if not (urls or sitemaps or feeds):
            raise UsageError(
                f"{spider}: give at least one start URL (-a start_url=https://site/), "
                "sitemap (-a sitemap=https://site/sitemap.xml) or feed (-a feed=https://site/rss)"
            )
        for kind, values in (("start URL", urls), ("sitemap", sitemaps), ("feed", feeds)):
            for index, url in enumerate(values):
                listed = url.endswith(",") and index < len(values) - 1  # "URL1, URL2"
                if listed or _URL_AFTER_COMMA.search(url):  # read as one URL: a 404, exit 3
                    raise UsageError(
                        f"{spider}: {kind} {url!r} holds URLs separated by a comma; separate "
                        f'them by spaces (-a start_url="https://site/a/ https://site/b/")'
                    )
                if not is_crawlable_scheme(url) or not site_of(url):
                    raise UsageError(f"{spider}: {kind} {url!r} is not an http(s) URL with a host")
        spec = rules if rules is not None else setting_list(
            settings, "NEWSSTEM_URL_RULES", defaults.NEWSSTEM_URL_RULES
        )
        # Listed articles can be anywhere on their site: the default rules accept the
        # whole site of a sitemap or feed, and a start URL's directory.
        prefixes = urls + [urljoin(url, "/") for url in sitemaps + feeds]
        try:
            url_rules = UrlRules.parse(spec) if spec else UrlRules.default_for(prefixes)
        except RuleError as exc:
            raise UsageError(f"{spider}: {exc}") from None
        try:
            cutoff = parse_since(since) if since else None
        except SinceError as exc:
            raise UsageError(f"{spider}: {exc}") from None
        sites = frozenset(map(site_of, urls or sitemaps + feeds))
        return cls(
            tuple(urls), sites, _parse_depth(depth, spider), url_rules,
            tuple(sitemaps), tuple(feeds), robots_sitemaps, cutoff,
            default_directories=() if spec else default_directories(prefixes),
        )


# -a sitemap=robots: read the sitemaps the robots.txt of each start site lists.
ROBOTS_SITEMAPS = "robots"
# Request meta: the date (ISO 8601) and kind of listing a page was found in.
LISTED_META_KEY = "newsstem_listed"
# Request meta: a feed found on a page (its entries are links, not start pages).
LINKED_FEED_META_KEY = "newsstem_linked_feed"
# Request meta: the key of the request's CrawlScope (NewsSpider.scope_from).
SCOPE_META_KEY = "newsstem_scope"
# Request meta, distributed mode: the anchor texts the linking page had for the URL.
ANCHORS_META_KEY = "newsstem_anchors"
# In scope keys: the DEPTH_LIMIT that applies when no depth argument was given.
_DEPTH_LIMIT_KEY = "depth_limit"
_FEED_TYPES = ("application/rss+xml", "application/atom+xml", "application/rdf+xml")


# Arguments of the whole process, not of a scope (see NewsSpider).
PROCESS_ARGUMENTS = ("render", "refresh")

#: What each argument (``-a NAME=VALUE``) means, and its default: the one text of them.
#: ``scrapy crawl -h`` lists it (newsstem.commands.crawl), and each meaning in
#: docs/spider.md's table of arguments begins with it (tests/test_docs.py checks), where
#: the details and links follow.
ARGUMENT_HELP = {
    "start_url": "one or more http(s) start URLs, separated by spaces (default "
                 "NEWSSTEM_START_URLS)",
    "depth": "links to follow from a start page (0 the start pages only; default "
             "DEPTH_LIMIT, 1 in this project)",
    "rules": "ordered URL rules, +REGEX accepts and -REGEX rejects, the first match "
             "decides and a URL none matches is rejected (default NEWSSTEM_URL_RULES, else "
             "the start URL's directory, media files rejected)",
    "sitemap": "sitemap or sitemap index URLs, and/or the word robots (those the start "
               "sites' robots.txt lists)",
    "feed": "RSS or Atom feed URLs",
    "since": "a date such as 2026-11-01, sitemap and feed entries dated before it skipped",
    "refresh": "1 exports again the articles the URL store says were exported (default "
               "NEWSSTEM_URLDB_REFRESH)",
    "render": "1 fetches pages through headless Chromium: the one -s "
              "NEWSSTEM_RENDER_BROWSER=PATH names, else the system's chromium, else "
              "Playwright's (default NEWSSTEM_RENDER)",
}


def _check_misspelt(
    arguments: Mapping[str, Any], known: Iterable[str], spider: str = "news"
) -> None:
    """UsageError for an argument that is not one of ``known`` but close to one: a typo
    (``depht``, ``start_urls``) was ignored and the crawl ran without it. Other names
    stay allowed: ``-a`` sets spider attributes Scrapy's components read (``user_agent``,
    ``download_delay``), and scrapyd passes ``_job``.

    >>> _check_misspelt({"depht": "2"}, ("start_url", "depth"))
    Traceback (most recent call last):
    ...
    scrapy.exceptions.UsageError: news: unknown argument 'depht' (did you mean depth?)
    >>> _check_misspelt({"user_agent": "bot", "_job": "1"}, ("start_url", "depth"))
    """
    names = tuple(known)
    for name in arguments:
        if name in names or name.startswith("_"):
            continue
        close = close_name(name, names)
        if close:
            raise UsageError(f"{spider}: unknown argument {name!r} (did you mean {close}?)")


def _parse_depth(value: str | int | None, spider: str = "news") -> int | None:
    if value is None:
        return None
    try:
        depth = int(value)
    except ValueError:
        depth = -1
    if depth < 0:
        raise UsageError(f"{spider}: depth must be an integer >= 0, not {value!r}")
    return depth


class NewsSpider(Spider):
    """Crawl news sites and yield every HTML page for article extraction.

    Arguments (``-a name=value``): :data:`ARGUMENT_HELP` says what each means (as
    ``scrapy crawl -h`` lists them; docs/spider.md has the details).

    ``render`` and ``refresh`` apply to the whole process: they are not in
    :attr:`ARGUMENTS`, the arguments of a scope (a start message may not give them).
    """

    name = "news"

    ARGUMENTS = ("start_url", "depth", "rules", "sitemap", "feed", "since")

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A subclass's ``start_urls`` (Scrapy's attribute) are its ``NEWSSTEM_START_URLS``,
        at the spider's priority (``custom_settings``; one given there wins): the news
        spider starts from its scope, not from ``start_urls``, which it would ignore ("give
        at least one start URL")."""
        super().__init_subclass__(**kwargs)
        urls = cls.__dict__.get("start_urls")
        if urls:
            urls = [urls] if isinstance(urls, str) else list(urls)
            cls.custom_settings = {"NEWSSTEM_START_URLS": urls, **(cls.custom_settings or {})}

    def __init__(
        self,
        start_url: str | None = None,
        depth: str | int | None = None,
        rules: str | None = None,
        sitemap: str | None = None,
        feed: str | None = None,
        since: str | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self._arguments = {
            "start_url": start_url, "depth": depth, "rules": rules,
            "sitemap": sitemap, "feed": feed, "since": since,
        }

    @classmethod
    def with_start(cls, url: str, settings: BaseSettings, **arguments: Any) -> dict[str, Any]:
        """``arguments``, with ``url`` as the start URL if they (and ``NEWSSTEM_START_URLS``)
        give nothing to start from: ``scrapy parse --spider=news URL`` reads ``URL``."""
        if _has_start(arguments, settings):
            return arguments
        return {**arguments, "start_url": url}

    @classmethod
    def check_arguments(cls, settings: BaseSettings, **arguments: Any) -> CrawlScope | None:
        """Validate spider arguments before the crawl starts (the ``crawl`` command calls it).

        A distributed worker needs no start URL (it may get them from Redis).
        """
        # usage errors start with the spider's name: a subclass's own, not "news"
        _check_misspelt(arguments, (*cls.ARGUMENTS, *PROCESS_ARGUMENTS), cls.name)
        tracking_params(settings)  # a broken JSON list: here, not a traceback at the start
        known = {k: arguments.get(k) for k in cls.ARGUMENTS}
        if is_distributed(settings) and not _has_start(known, settings):
            _parse_depth(known["depth"], cls.name)
            return None
        return CrawlScope.from_arguments(settings, **known, spider=cls.name)

    @classmethod
    def from_crawler(cls, crawler: Crawler, *args: Any, **kwargs: Any) -> NewsSpider:
        spider = super().from_crawler(crawler, *args, **kwargs)
        spider._configure(crawler.settings)
        return spider

    def _configure(self, settings: BaseSettings) -> None:
        # Distributed mode (newsstem.distributed): start URLs may also come later,
        # from Redis, each with its own scope; a worker may start without any.
        self.distributed = is_distributed(settings)
        depth = _parse_depth(self._arguments["depth"], self.name)
        if depth is not None:
            settings.set("DEPTH_LIMIT", depth, priority="cmdline")
        # The depth limit of scopes that name none (DEPTH_LIMIT, 1 in this project).
        self.default_depth = settings.getint("DEPTH_LIMIT")
        self._scopes: dict[str, CrawlScope] = {}
        self.scope: CrawlScope | None = None
        if not self.distributed or _has_start(self._arguments, settings):
            self.scope = self.scope_from(self._arguments)
        scope = self.scope
        self.start_urls = list(scope.start_urls) if scope else []
        # OffsiteMiddleware also checks redirects; it ignores ports (ours do not).
        # Distributed: scopes come and go, newsstem.distributed.ScopeOffsiteMiddleware
        # checks each request against its own.
        self.allowed_domains = [] if self.distributed else allowed_hosts(scope)
        self.anchors = AnchorBook(
            settings.getint("NEWSSTEM_MAX_ANCHOR_TEXTS", defaults.NEWSSTEM_MAX_ANCHOR_TEXTS)
        )
        # unique=False: every anchor text of a repeated link is wanted. Media
        # and non-page URLs are left to the rules (deny_extensions would
        # silently override what the user asked for).
        self.link_extractor = LinkExtractor(unique=False, deny_extensions=[])
        self.follow_feeds = read_setting(settings, "NEWSSTEM_FOLLOW_FEEDS")
        self.tracking_params = tracking_params(settings)
        self.max_listing_size = settings.getint("DOWNLOAD_MAXSIZE")
        # Browser mode: page requests carry scrapy-playwright's meta (newsstem.render)
        self.render_meta: dict[str, Any] = {}
        if render.wants_render(settings, getattr(self, "render", None)):
            render.configure(settings, render.browser_path(settings))
            self.render_meta = render.page_meta(settings)
            logger.info("news: pages are rendered in %s",
                        settings.getdict("PLAYWRIGHT_LAUNCH_OPTIONS").get("executable_path"))
        if scope is None:
            logger.info("news: no start URL given: this worker crawls what Redis hands it")
        else:
            self.log_scope(scope)

    def log_scope(self, scope: CrawlScope) -> None:
        logger.info(
            "news: start %s, depth %s, rules: %s",
            " ".join(scope.start_urls) or "-",
            scope.depth if scope.depth is not None else self.max_depth(scope),
            scope.rules,
        )
        if scope.sitemap_urls or scope.feed_urls or scope.robots_sitemaps:
            logger.info(
                "news: sitemaps %s%s, feeds %s, since %s",
                " ".join(scope.sitemap_urls) or "-",
                " + robots.txt" if scope.robots_sitemaps else "",
                " ".join(scope.feed_urls) or "-",
                scope.since.isoformat() if scope.since else "-",
            )

    # -- scopes -------------------------------------------------------------------------

    def scope_from(self, arguments: Mapping[str, Any]) -> CrawlScope:
        """The scope of spider arguments (UsageError if they are bad), named by its key.

        The key is the compact JSON of the arguments with what this process's
        settings fill in made explicit (start URLs, rules, the depth limit), so
        every process that reads it builds the same scope, whatever its own
        settings. Values may be strings, numbers or lists of strings (JSON).
        """
        args = {name: _argument_text(value) for name, value in arguments.items()}
        args = {name: value for name, value in args.items() if value is not None}
        limit_text = args.pop(_DEPTH_LIMIT_KEY, None)  # in keys made by scope_from
        unknown = sorted(set(args) - set(self.ARGUMENTS))
        if unknown:
            own = [name for name in unknown if name in PROCESS_ARGUMENTS]
            close = [
                f"{name} (did you mean {match}?)" if match else name
                for name in unknown
                for match in [close_name(name, self.ARGUMENTS)]
            ]
            raise UsageError(
                f"{self.name}: unknown argument(s): {', '.join(close)}"
                + (f"; {', '.join(own)}: the worker's own, for all it crawls (-a or -s when "
                   "it starts), not a start message's" if own else "")
            )
        scope = CrawlScope.from_arguments(self.settings, **args, spider=self.name)
        limit = None
        if scope.depth is None:
            limit = self.default_depth if limit_text is None else _parse_depth(limit_text, self.name)
        rules = args.get("rules")
        if rules is None:
            rules = _argument_text(
                setting_list(self.settings, "NEWSSTEM_URL_RULES", defaults.NEWSSTEM_URL_RULES)
            )
        resolved = {**args, "start_url": " ".join(scope.start_urls) or None, "rules": rules}
        if limit is not None:
            resolved[_DEPTH_LIMIT_KEY] = str(limit)
        key = json.dumps(
            {name: value for name, value in resolved.items() if value},
            sort_keys=True,
            separators=(",", ":"),
        )
        return self._scopes.setdefault(key, replace(scope, depth_limit=limit, key=key))

    def scope_of(self, meta: Mapping[str, Any]) -> CrawlScope | None:
        """The scope of a request or response (its meta), or None if it cannot be rebuilt."""
        key = meta.get(SCOPE_META_KEY)
        if key is None:
            return self.scope
        scope = self._scopes.get(key)
        if scope is None:  # made by another process of a distributed crawl
            try:
                arguments = json.loads(key)
                if not isinstance(arguments, dict):
                    raise ValueError("not a JSON object of spider arguments")
                scope = self._scopes[key] = self.scope_from(arguments)
            except (ValueError, TypeError, UsageError) as exc:  # TypeError: a key not text
                self.crawler.stats.inc_value("newsstem/scope/unreadable")
                logger.error("news: cannot rebuild the scope %r of a request (%s)", key, exc)
                return None
        return scope

    def max_depth(self, scope: CrawlScope) -> int:
        """The scope's limit in Scrapy's DEPTH_LIMIT terms (0: no limit)."""
        if scope.depth is not None:
            return scope.depth
        return scope.depth_limit if scope.depth_limit is not None else self.default_depth

    def follows(self, scope: CrawlScope, depth: int) -> bool:
        """Whether the links of a page at ``depth`` are followed."""
        if scope.depth == 0:  # DEPTH_LIMIT 0 is "no limit" to Scrapy; -a depth=0 "start pages"
            return False
        limit = self.max_depth(scope)
        return limit <= 0 or depth < limit

    def _meta(self, scope: CrawlScope, **meta: Any) -> dict[str, Any]:
        return {SCOPE_META_KEY: scope.key, **meta}

    def _page_meta(self, scope: CrawlScope, **meta: Any) -> dict[str, Any]:
        """Meta of a page request: in browser mode it goes through the browser."""
        return {**self._meta(scope, **meta), **render.for_one_page(self.render_meta)}

    # -- requests ---------------------------------------------------------------------

    async def start(self) -> AsyncIterator[Any]:
        if self.scope is not None:
            for request in self.start_requests_for(self.scope):
                yield request

    def start_requests_for(self, scope: CrawlScope) -> Iterator[Request]:
        """The first requests of a scope: start pages, robots.txt sitemaps, listings."""
        # Not dont_filter=True (Scrapy's default start()): a JOBDIR resume would
        # fetch and export the start pages again.
        for url in scope.start_urls:
            yield Request(url, callback=self.parse, meta=self._page_meta(scope))
        if scope.robots_sitemaps:
            for site_root in sorted({urljoin(url, "/robots.txt") for url in scope.start_urls}):
                yield Request(site_root, callback=self.parse_robots,
                              errback=self.robots_failed, meta=self._meta(scope))
        for url in scope.sitemap_urls + scope.feed_urls:
            yield Request(
                url, callback=self.parse_listing, meta=self._meta(scope, depth_reset=True)
            )

    def parse_robots(self, response: Response) -> Iterable[Request]:
        """The ``Sitemap:`` lines of a robots.txt (Scrapy's reader)."""
        scope = self.scope_of(response.meta)
        if scope is None:
            return
        listed = list(sitemap_urls_from_robots(response.body, base_url=response.url))
        if not listed:  # -a sitemap=robots read nothing: said, not silent
            self.crawler.stats.inc_value("newsstem/discovery/robots_without_sitemaps")
            logger.warning("news: %s lists no sitemap (no Sitemap: line): -a sitemap=robots "
                           "reads nothing from it", response.url)
        for url in listed:
            if is_crawlable_scheme(url):
                yield Request(
                    url, callback=self.parse_listing, meta=self._meta(scope, depth_reset=True)
                )

    def robots_failed(self, failure: Any) -> None:
        """A robots.txt that could not be read (HTTP 404, a failed download): the
        failure has its own line; this one says what it means for ``sitemap=robots``,
        as for a robots.txt without a ``Sitemap:`` line (before, only ``download failed
        (http_404)`` was said, and nothing about the sitemaps the crawl went without)."""
        self.crawler.stats.inc_value("newsstem/discovery/robots_without_sitemaps")
        # (Scrapy gives every failure it hands an errback the request: failure.request)
        logger.warning("news: %s could not be read (see the line above): -a sitemap=robots "
                       "reads nothing from it", failure.request.url)

    def parse_listing(self, response: Response) -> Iterable[Request]:
        """A sitemap, sitemap index or feed: request what it lists."""
        stats = self.crawler.stats
        scope = self.scope_of(response.meta)
        if scope is None:
            return
        body = self._listing_body(response)
        listing = None
        if body is not None:
            listing = parse_feed(body, response.url) if looks_like_feed(body) else None
            listing = listing or parse_sitemap(body, response.url)
        if listing is None:
            stats.inc_value("newsstem/discovery/unreadable")
            logger.warning("news: %s is neither a sitemap nor an RSS/Atom feed", response.url)
            return
        linked = bool(response.meta.get(LINKED_FEED_META_KEY))
        kind = "feed" if listing.kind == "feed" else "sitemap"
        stats.inc_value(f"newsstem/discovery/{kind}s")
        for entry in listing.entries:
            if not entry.newer_than(scope.since):
                stats.inc_value("newsstem/discovery/too_old")
                continue
            if listing.kind == "sitemapindex":
                yield Request(
                    entry.url, callback=self.parse_listing, meta=self._meta(scope, depth_reset=True)
                )
                continue
            stats.inc_value(f"newsstem/discovery/{kind}_entries")
            request = self._entry_request(scope, entry, kind, linked)
            if request is not None:
                yield request

    def _listing_body(self, response: Response) -> bytes | None:
        """The XML of a listing, gunzipped if it is a .gz file (as Scrapy's SitemapSpider does)."""
        body = response.body
        if gzip_magic_number(response):
            try:
                body = gunzip(body, max_size=self.max_listing_size)
            except ValueError:  # corrupt, or larger than DOWNLOAD_MAXSIZE uncompressed
                return None
        return body

    def _entry_request(
        self, scope: CrawlScope, entry: Entry, kind: str, linked: bool
    ) -> Request | None:
        url = _defragment(entry.url)
        reason = _rejection(scope, url)
        if reason is not None:
            self.crawler.stats.inc_value(f"newsstem/discovery/rejected/{reason}")
            return None
        if entry.title:
            self.anchors.add(url, entry.title)
        listed = {"kind": kind, "published": entry.date.isoformat() if entry.date else None}
        # A given or robots.txt listing's entries are start pages (depth 0); a feed
        # found on a page is a hub one link further, its entries one link more.
        meta = self._page_meta(scope, **{LISTED_META_KEY: listed})
        if not linked:
            meta["depth_reset"] = True
        if self.distributed and entry.title:
            meta[ANCHORS_META_KEY] = [normalize_space(entry.title)]
        return Request(url, callback=self.parse, meta=meta)

    def parse(self, response: Response) -> Iterable[Any]:
        stats = self.crawler.stats
        # Texts carried by the request (distributed mode: the linking page may
        # have been parsed by another process), then those this process saw.
        anchor_texts = list(response.meta.get(ANCHORS_META_KEY, []))
        for url in [*response.meta.get("redirect_urls", []), response.url]:
            anchor_texts.extend(t for t in self.anchors.pop(url) if t not in anchor_texts)
        scope = self.scope_of(response.meta)
        if scope is None:
            return
        if (
            not isinstance(response, TextResponse)
            or not _is_html(response)
            or looks_binary(response.body)
        ):
            stats.inc_value("newsstem/dropped/not_html")
            return
        # One decoding for extraction and links, the same as offline tools use.
        content_type = response.headers.get(b"Content-Type", b"").decode("latin-1") or None
        html, encoding = decode_html(response.body, content_type)
        if encoding != response.encoding:
            response = response.replace(encoding=encoding)
        depth = response.meta.get("depth", 0)
        unfinished = render.unfinished_requests(response)
        if unfinished:  # its text may be missing: said, not only a no_article drop
            stats.inc_value("newsstem/render/unfinished")
            logger.warning(
                "newsstem: read with %d request(s) of its script still in flight after "
                "NEWSSTEM_RENDER_WAIT (%s s): %s", unfinished,
                self.settings.getfloat("NEWSSTEM_RENDER_WAIT", defaults.NEWSSTEM_RENDER_WAIT),
                response.url,
            )
        if not response.meta.get(REVISIT_META_KEY, False):
            yield Page(
                url=response.url,
                site=site_of(response.url),
                html=html,
                encoding=encoding,
                depth=depth,
                fetched_at=_utc_now(),
                status=response.status,
                anchor_texts=anchor_texts,
                listed_published=(response.meta.get(LISTED_META_KEY) or {}).get("published"),
                rendered=bool(response.meta.get("playwright")),
                boxes=render.rendered_boxes(response),
            )
        if self.follows(scope, depth):
            yield from self._follow(scope, response)
        else:  # its links not followed: counted, for the summary of a crawl that found nothing
            stats.inc_value("newsstem/depth/limit_pages")
            # that depth: Scrapy's request_depth_max is of the requests this process made,
            # 0 for a crawl resumed from JOBDIR at its last depth (or a worker given only pages
            # at the limit), whose summary then advised "-a depth=1"
            stats.max_value("newsstem/depth/limit", depth)
            # and the shallowest: a distributed worker's start messages give their own depths
            stats.min_value("newsstem/depth/limit_min", depth)

    def _follow(self, scope: CrawlScope, response: TextResponse) -> Iterable[Request]:
        stats = self.crawler.stats
        requested: dict[str, list[str]] = {}  # URL -> its anchor texts on this page
        for link in self.link_extractor.extract_links(response):
            url = _defragment(link.url)
            cleaned = strip_tracking(url, self.tracking_params)
            if not self._allowed(scope, link, cleaned):
                continue
            if cleaned != url:  # a share/tracking variant: followed as the article's own URL
                stats.inc_value("newsstem/links/cleaned")
                url = cleaned
            self.anchors.add(url, link.text)
            texts = requested.setdefault(url, [])
            if self.distributed:  # the texts travel with the request, to whichever worker
                text = normalize_space(link.text)
                if text and text not in texts and len(texts) < self.anchors.max_per_url:
                    texts.append(text)
        for url, texts in requested.items():
            meta = self._page_meta(scope)
            if texts:
                meta[ANCHORS_META_KEY] = texts
            yield Request(url, callback=self.parse, meta=meta)
        stats.inc_value("newsstem/links/followed", len(requested))
        if self.follow_feeds:
            yield from self._feed_requests(scope, response)

    def _feed_requests(self, scope: CrawlScope, response: TextResponse) -> Iterable[Request]:
        """Feeds the page announces (``<link rel="alternate" type="application/rss+xml">``).

        Same site only; the URL rules judge the feed's entries, not the feed.
        """
        types = " or ".join(f"@type='{t}'" for t in _FEED_TYPES)
        for href in response.xpath(f"//link[contains(@rel, 'alternate')][{types}]/@href").getall():
            url = _defragment(response.urljoin(href.strip()))
            if is_crawlable_scheme(url) and same_site(url, scope.sites):
                self.crawler.stats.inc_value("newsstem/discovery/feeds_linked")
                yield Request(
                    url,
                    callback=self.parse_listing,
                    meta=self._meta(scope, **{LINKED_FEED_META_KEY: True}),
                )

    def _allowed(self, scope: CrawlScope, link: Link, url: str) -> bool:
        reason = "nofollow" if link.nofollow else _rejection(scope, url)
        if reason is not None:
            self.crawler.stats.inc_value(f"newsstem/links/rejected/{reason}")
            return False
        return True


def _rejection(scope: CrawlScope, url: str) -> str | None:
    """Why ``url`` is outside the scope (``scheme``, ``offsite``, ``rules``), or None."""
    if not is_crawlable_scheme(url):
        return "scheme"
    if not same_site(url, scope.sites):
        return "offsite"
    if not scope.rules.accepts(url):
        return "rules"
    return None


def _argument_text(value: Any) -> str | None:
    """A spider argument as the text ``-a`` would give (lists joined by spaces).

    >>> _argument_text(["+^https://a/", "-/print/"]), _argument_text(2), _argument_text(None)
    ('+^https://a/ -/print/', '2', None)
    """
    if value is None:
        return None
    if isinstance(value, (list, tuple)):
        return " ".join(str(item) for item in value)
    return str(value)


def allowed_hosts(scope: CrawlScope | None) -> list[str]:
    """The host names of a scope's start URLs (the ``allowed_domains`` of OffsiteMiddleware)."""
    if scope is None:
        return []
    return sorted({urlsplit(url).hostname or "" for url in scope.start_urls})


def _has_start(arguments: Mapping[str, Any], settings: BaseSettings) -> bool:
    """Whether the arguments (or NEWSSTEM_START_URLS) name anything to start from."""
    return bool(
        arguments.get("start_url")
        or arguments.get("sitemap")
        or arguments.get("feed")
        or _split_urls(setting_list(settings, "NEWSSTEM_START_URLS", defaults.NEWSSTEM_START_URLS))
    )


def _defragment(url: str) -> str:
    return url.split("#", 1)[0]


def _is_html(response: TextResponse) -> bool:
    """The server's Content-Type decides; without one, Scrapy's sniffing does."""
    content_type = response.headers.get(b"Content-Type", b"").decode("latin-1").lower()
    if content_type:
        return "html" in content_type
    return isinstance(response, HtmlResponse)
