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
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterable
from datetime import datetime, timezone
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urljoin
from urllib.parse import urlsplit

from scrapy import Request, Spider
from scrapy.exceptions import UsageError
from scrapy.http import HtmlResponse, Response, TextResponse
from scrapy.linkextractors import LinkExtractor
from scrapy.utils.gz import gunzip, gzip_magic_number
from scrapy.utils.sitemap import sitemap_urls_from_robots
from w3lib.url import canonicalize_url

from newsstem import defaults
from newsstem.discovery import Entry, SinceError, looks_like_feed, parse_feed, parse_since, parse_sitemap
from newsstem.dupefilter import REVISIT_META_KEY
from newsstem.encoding import decode_html, looks_binary
from newsstem.items import Page
from newsstem.rules import RuleError, UrlRules, is_crawlable_scheme, same_site, site_of
from newsstem.text import normalize_space

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.settings import BaseSettings
    from scrapy.link import Link

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
        self._texts: dict[str, list[str]] = {}
        self._fetched: set[str] = set()

    @staticmethod
    def _key(url: str) -> str:
        return canonicalize_url(url)

    def add(self, url: str, text: str) -> None:
        text = normalize_space(text)
        key = self._key(url)
        if not text or key in self._fetched:
            return
        texts = self._texts.setdefault(key, [])
        if len(texts) < self.max_per_url and text not in texts:
            texts.append(text)

    def pop(self, url: str) -> list[str]:
        key = self._key(url)
        self._fetched.add(key)
        return self._texts.pop(key, [])


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
    ) -> CrawlScope:
        urls = _split_urls(start_url) or _split_urls(
            settings.get("NEWSSTEM_START_URLS", defaults.NEWSSTEM_START_URLS)
        )
        sitemap_tokens = _split_urls(sitemap)
        robots_sitemaps = ROBOTS_SITEMAPS in sitemap_tokens
        sitemaps = [token for token in sitemap_tokens if token != ROBOTS_SITEMAPS]
        feeds = _split_urls(feed)
        if robots_sitemaps and not urls:
            raise UsageError("news: -a sitemap=robots reads the robots.txt of the start URLs' sites: "
                             "give a start URL too")
        if not (urls or sitemaps or feeds):
            raise UsageError(
                "news: give at least one start URL (-a start_url=https://site/), "
                "sitemap (-a sitemap=https://site/sitemap.xml) or feed (-a feed=https://site/rss)"
            )
        for kind, values in (("start URL", urls), ("sitemap", sitemaps), ("feed", feeds)):
            for url in values:
                if not is_crawlable_scheme(url) or not site_of(url):
                    raise UsageError(f"news: {kind} {url!r} is not an http(s) URL with a host")
        spec = rules if rules is not None else settings.get(
            "NEWSSTEM_URL_RULES", defaults.NEWSSTEM_URL_RULES
        )
        # Listed articles can be anywhere on their site: the default rules accept the
        # whole site of a sitemap or feed, and a start URL's directory.
        prefixes = urls + [urljoin(url, "/") for url in sitemaps + feeds]
        try:
            url_rules = UrlRules.parse(spec) if spec else UrlRules.default_for(prefixes)
        except RuleError as exc:
            raise UsageError(f"news: {exc}") from None
        try:
            cutoff = parse_since(since) if since else None
        except SinceError as exc:
            raise UsageError(f"news: {exc}") from None
        sites = frozenset(map(site_of, urls or sitemaps + feeds))
        return cls(
            tuple(urls), sites, _parse_depth(depth), url_rules,
            tuple(sitemaps), tuple(feeds), robots_sitemaps, cutoff,
        )


# -a sitemap=robots: read the sitemaps the robots.txt of each start site lists.
ROBOTS_SITEMAPS = "robots"
# Request meta: the date (ISO 8601) and kind of listing a page was found in.
LISTED_META_KEY = "newsstem_listed"
# Request meta: a feed found on a page (its entries are links, not start pages).
LINKED_FEED_META_KEY = "newsstem_linked_feed"
_FEED_TYPES = ("application/rss+xml", "application/atom+xml", "application/rdf+xml")


def _parse_depth(value: str | int | None) -> int | None:
    if value is None:
        return None
    try:
        depth = int(value)
    except ValueError:
        depth = -1
    if depth < 0:
        raise UsageError(f"news: depth must be an integer >= 0, not {value!r}")
    return depth


class NewsSpider(Spider):
    """Crawl news sites and yield every HTML page for article extraction.

    Arguments (``-a name=value``):

    ``start_url``
        one or more start URLs separated by whitespace (or the
        ``NEWSSTEM_START_URLS`` setting);
    ``depth``
        links to follow from a start page (default ``DEPTH_LIMIT``, 1 in this
        project); 0 crawls the start pages only;
    ``rules``
        ordered URL rules, ``"+REGEX -REGEX ..."`` (or ``NEWSSTEM_URL_RULES``);
        see :mod:`newsstem.rules`;
    ``sitemap``
        sitemap or sitemap index URLs, and/or ``robots`` for those the start
        sites' robots.txt lists; their URLs are crawled as start pages;
    ``feed``
        RSS or Atom feed URLs; their entries are crawled as start pages;
    ``since``
        an ISO 8601 date: listed entries dated before it are skipped.
    """

    name = "news"

    ARGUMENTS = ("start_url", "depth", "rules", "sitemap", "feed", "since")

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
    def check_arguments(cls, settings: BaseSettings, **arguments: Any) -> CrawlScope:
        """Validate spider arguments before the crawl starts (the ``crawl`` command calls it)."""
        known = {k: arguments.get(k) for k in cls.ARGUMENTS}
        return CrawlScope.from_arguments(settings, **known)

    @classmethod
    def from_crawler(cls, crawler: Crawler, *args: Any, **kwargs: Any) -> NewsSpider:
        spider = super().from_crawler(crawler, *args, **kwargs)
        spider._configure(crawler.settings)
        return spider

    def _configure(self, settings: BaseSettings) -> None:
        scope = CrawlScope.from_arguments(settings, **self._arguments)
        self.start_urls = list(scope.start_urls)
        self.sites = scope.sites
        self.url_rules = scope.rules
        # OffsiteMiddleware also checks redirects; it ignores ports (ours do not).
        self.allowed_domains = sorted({urlsplit(url).hostname or "" for url in scope.start_urls})
        if scope.depth is not None:
            settings.set("DEPTH_LIMIT", scope.depth, priority="cmdline")
        # DEPTH_LIMIT 0 means "no limit" to Scrapy; -a depth=0 means "start pages only".
        self.follow_links = scope.depth != 0
        self.depth_limit = settings.getint("DEPTH_LIMIT")
        self.anchors = AnchorBook(
            settings.getint("NEWSSTEM_MAX_ANCHOR_TEXTS", defaults.NEWSSTEM_MAX_ANCHOR_TEXTS)
        )
        # unique=False: every anchor text of a repeated link is wanted. Media
        # and non-page URLs are left to the rules (deny_extensions would
        # silently override what the user asked for).
        self.link_extractor = LinkExtractor(unique=False, deny_extensions=[])
        self.scope = scope
        self.follow_feeds = settings.getbool(
            "NEWSSTEM_FOLLOW_FEEDS", defaults.NEWSSTEM_FOLLOW_FEEDS
        )
        self.max_listing_size = settings.getint("DOWNLOAD_MAXSIZE")
        logger.info(
            "news: start %s, depth %s, rules: %s",
            " ".join(self.start_urls) or "-",
            self.depth_limit if self.follow_links else 0,
            self.url_rules,
        )
        if scope.sitemap_urls or scope.feed_urls or scope.robots_sitemaps:
            logger.info(
                "news: sitemaps %s%s, feeds %s, since %s",
                " ".join(scope.sitemap_urls) or "-",
                " + robots.txt" if scope.robots_sitemaps else "",
                " ".join(scope.feed_urls) or "-",
                scope.since.isoformat() if scope.since else "-",
            )

    async def start(self) -> AsyncIterator[Any]:
        # Not dont_filter=True (Scrapy's default start()): a JOBDIR resume would
        # fetch and export the start pages again.
        for url in self.start_urls:
            yield Request(url, callback=self.parse)
        if self.scope.robots_sitemaps:
            for site_root in sorted({urljoin(url, "/robots.txt") for url in self.start_urls}):
                yield Request(site_root, callback=self.parse_robots)
        for url in self.scope.sitemap_urls + self.scope.feed_urls:
            yield Request(url, callback=self.parse_listing, meta={"depth_reset": True})

    def parse_robots(self, response: Response) -> Iterable[Request]:
        """The ``Sitemap:`` lines of a robots.txt (Scrapy's reader)."""
        for url in sitemap_urls_from_robots(response.body, base_url=response.url):
            if is_crawlable_scheme(url):
                yield Request(url, callback=self.parse_listing, meta={"depth_reset": True})

    def parse_listing(self, response: Response) -> Iterable[Request]:
        """A sitemap, sitemap index or feed: request what it lists."""
        stats = self.crawler.stats
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
            if not entry.newer_than(self.scope.since):
                stats.inc_value("newsstem/discovery/too_old")
                continue
            if listing.kind == "sitemapindex":
                yield Request(entry.url, callback=self.parse_listing, meta={"depth_reset": True})
                continue
            stats.inc_value(f"newsstem/discovery/{kind}_entries")
            request = self._entry_request(entry, kind, linked)
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

    def _entry_request(self, entry: Entry, kind: str, linked: bool) -> Request | None:
        stats = self.crawler.stats
        url = _defragment(entry.url)
        for reason, ok in (
            ("scheme", is_crawlable_scheme(url)),
            ("offsite", same_site(url, self.sites)),
            ("rules", self.url_rules.accepts(url)),
        ):
            if not ok:
                stats.inc_value(f"newsstem/discovery/rejected/{reason}")
                return None
        if entry.title:
            self.anchors.add(url, entry.title)
        listed = {"kind": kind, "published": entry.date.isoformat() if entry.date else None}
        # A given or robots.txt listing's entries are start pages (depth 0); a feed
        # found on a page is a hub one link further, its entries one link more.
        meta: dict[str, Any] = {LISTED_META_KEY: listed}
        if not linked:
            meta["depth_reset"] = True
        return Request(url, callback=self.parse, meta=meta)

    def parse(self, response: Response) -> Iterable[Any]:
        stats = self.crawler.stats
        anchor_texts = []
        for url in [*response.meta.get("redirect_urls", []), response.url]:
            anchor_texts.extend(t for t in self.anchors.pop(url) if t not in anchor_texts)
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
        if not response.meta.get(REVISIT_META_KEY, False):
            yield Page(
                url=response.url,
                site=site_of(response.url),
                html=html,
                encoding=encoding,
                depth=response.meta.get("depth", 0),
                fetched_at=_utc_now(),
                status=response.status,
                anchor_texts=anchor_texts,
                listed_published=(response.meta.get(LISTED_META_KEY) or {}).get("published"),
            )
        depth = response.meta.get("depth", 0)
        if self.follow_links and (self.depth_limit <= 0 or depth < self.depth_limit):
            yield from self._follow(response)

    def _follow(self, response: TextResponse) -> Iterable[Request]:
        stats = self.crawler.stats
        requested: set[str] = set()
        for link in self.link_extractor.extract_links(response):
            url = _defragment(link.url)
            if not self._allowed(link, url):
                continue
            self.anchors.add(url, link.text)
            if url not in requested:
                requested.add(url)
                yield Request(url, callback=self.parse)
        stats.inc_value("newsstem/links/followed", len(requested))
        if self.follow_feeds:
            yield from self._feed_requests(response)

    def _feed_requests(self, response: TextResponse) -> Iterable[Request]:
        """Feeds the page announces (``<link rel="alternate" type="application/rss+xml">``).

        Same site only; the URL rules judge the feed's entries, not the feed.
        """
        types = " or ".join(f"@type='{t}'" for t in _FEED_TYPES)
        for href in response.xpath(f"//link[contains(@rel, 'alternate')][{types}]/@href").getall():
            url = _defragment(response.urljoin(href.strip()))
            if is_crawlable_scheme(url) and same_site(url, self.sites):
                self.crawler.stats.inc_value("newsstem/discovery/feeds_linked")
                yield Request(url, callback=self.parse_listing, meta={LINKED_FEED_META_KEY: True})

    def _allowed(self, link: Link, url: str) -> bool:
        stats = self.crawler.stats
        if link.nofollow:
            stats.inc_value("newsstem/links/rejected/nofollow")
            return False
        if not is_crawlable_scheme(url):
            stats.inc_value("newsstem/links/rejected/scheme")
            return False
        if not same_site(url, self.sites):
            stats.inc_value("newsstem/links/rejected/offsite")
            return False
        if not self.url_rules.accepts(url):
            stats.inc_value("newsstem/links/rejected/rules")
            return False
        return True


def _defragment(url: str) -> str:
    return url.split("#", 1)[0]


def _is_html(response: TextResponse) -> bool:
    """The server's Content-Type decides; without one, Scrapy's sniffing does."""
    content_type = response.headers.get(b"Content-Type", b"").decode("latin-1").lower()
    if content_type:
        return "html" in content_type
    return isinstance(response, HtmlResponse)
