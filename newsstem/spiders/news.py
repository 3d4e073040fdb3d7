"""The ``news`` spider: the crawl policy of newsstem.

Webstemmer's crawler semantics (seed 004) on Scrapy: start URLs, a depth limit
counted in links from a start page (1 = the start pages and what they link
to), ordered accept/reject URL rules, same site only, robots.txt always
obeyed, and every anchor text seen for a page kept for title detection.
Every HTML page becomes a :class:`~newsstem.items.Page` item; the extraction
pipeline decides whether it is an article.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterable
from datetime import datetime, timezone
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from scrapy import Request, Spider
from scrapy.exceptions import UsageError
from scrapy.http import HtmlResponse, Response, TextResponse
from scrapy.linkextractors import LinkExtractor
from w3lib.url import canonicalize_url

from newsstem import defaults
from newsstem.dupefilter import REVISIT_META_KEY
from newsstem.encoding import decode_html
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

    @classmethod
    def from_arguments(
        cls,
        settings: BaseSettings,
        start_url: str | None = None,
        depth: str | int | None = None,
        rules: str | None = None,
    ) -> CrawlScope:
        urls = _split_urls(start_url) or _split_urls(
            settings.get("NEWSSTEM_START_URLS", defaults.NEWSSTEM_START_URLS)
        )
        if not urls:
            raise UsageError("news: give at least one start URL: -a start_url=https://site/")
        for url in urls:
            if not is_crawlable_scheme(url) or not site_of(url):
                raise UsageError(f"news: start URL {url!r} is not an http(s) URL with a host")
        spec = rules if rules is not None else settings.get(
            "NEWSSTEM_URL_RULES", defaults.NEWSSTEM_URL_RULES
        )
        try:
            url_rules = UrlRules.parse(spec) if spec else UrlRules.default_for(urls)
        except RuleError as exc:
            raise UsageError(f"news: {exc}") from None
        return cls(tuple(urls), frozenset(map(site_of, urls)), _parse_depth(depth), url_rules)


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
        see :mod:`newsstem.rules`.
    """

    name = "news"

    def __init__(
        self,
        start_url: str | None = None,
        depth: str | int | None = None,
        rules: str | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self._arguments = {"start_url": start_url, "depth": depth, "rules": rules}

    @classmethod
    def check_arguments(cls, settings: BaseSettings, **arguments: Any) -> CrawlScope:
        """Validate spider arguments before the crawl starts (the ``crawl`` command calls it)."""
        known = {k: arguments.get(k) for k in ("start_url", "depth", "rules")}
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
        logger.info(
            "news: start %s, depth %s, rules: %s",
            " ".join(self.start_urls),
            self.depth_limit if self.follow_links else 0,
            self.url_rules,
        )

    async def start(self) -> AsyncIterator[Any]:
        # Not dont_filter=True (Scrapy's default start()): a JOBDIR resume would
        # fetch and export the start pages again.
        for url in self.start_urls:
            yield Request(url, callback=self.parse)

    def parse(self, response: Response) -> Iterable[Any]:
        stats = self.crawler.stats
        anchor_texts = []
        for url in [*response.meta.get("redirect_urls", []), response.url]:
            anchor_texts.extend(t for t in self.anchors.pop(url) if t not in anchor_texts)
        if not isinstance(response, TextResponse) or not _is_html(response):
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
    if isinstance(response, HtmlResponse):
        return True
    content_type = response.headers.get(b"Content-Type", b"").decode("latin-1").lower()
    return "html" in content_type
