"""Article discovery documents: XML sitemaps (indexes, Google News sitemaps) and feeds.

Parsing only, no requests: the ``news`` spider fetches the documents and
decides what to crawl. Sitemaps are read with Scrapy's own
:class:`scrapy.utils.sitemap.Sitemap` (recovering parser, no entity
expansion), extended to read the ``<news:publication_date>`` of Google News
sitemaps, which Scrapy's flat reading of ``<url>`` children loses. Feeds (RSS
2.0, RSS 1.0/RDF, Atom) are read with lxml's recovering XML parser; an entry's
date is its publication date (``pubDate``, ``dc:date``, Atom ``published``),
else its update date.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime
from typing import Any
from urllib.parse import urljoin

import lxml.etree
from scrapy.utils.sitemap import Sitemap

from newsstem.metadata.dates import parse_date

__all__ = [
    "Listing",
    "Entry",
    "parse_sitemap",
    "parse_feed",
    "looks_like_feed",
    "parse_since",
    "SinceError",
]


@dataclass(frozen=True)
class Entry:
    """A URL a sitemap or feed lists, with the date (UTC-aware) and title it gives, if any."""

    url: str
    date: datetime | None = None
    title: str = ""

    def newer_than(self, since: datetime | None) -> bool:
        """Kept by ``since``: no cutoff, no date (nothing to judge by), or not older."""
        return since is None or self.date is None or self.date >= since


@dataclass(frozen=True)
class Listing:
    """A parsed sitemap or feed: ``kind`` is ``"sitemapindex"``, ``"urlset"`` or ``"feed"``."""

    kind: str
    entries: list[Entry]


class _NewsSitemap(Sitemap):
    """Scrapy's Sitemap, plus the nested ``<news:news><news:publication_date>``."""

    def _process_sitemap_element(self, elem: lxml.etree._Element) -> dict[str, Any] | None:
        news: dict[str, str] = {}
        for child in elem:
            if self._get_tag_name(child) == "news":
                for field in child:
                    name = self._get_tag_name(field)
                    if name in ("publication_date", "title") and field.text:
                        news[name] = field.text.strip()
        found = super()._process_sitemap_element(elem)
        if found is not None:
            found.pop("news", None)
            found.update({f"news_{name}": value for name, value in news.items()})
        return found


def parse_sitemap(body: bytes, base_url: str | None = None) -> Listing | None:
    """Entries of a sitemap or sitemap index (``None`` if the body is not one).

    A URL's date is its Google News ``publication_date``, else its ``lastmod``;
    an index lists sitemaps, with their ``lastmod``.

    >>> xml = b'''<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
    ...   xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">
    ...  <url><loc>https://site/a</loc><news:news>
    ...   <news:publication_date>2026-11-20T08:00:00+01:00</news:publication_date></news:news></url>
    ...  <url><loc>/b</loc><lastmod>2026-11-01</lastmod></url></urlset>'''
    >>> [(e.url, e.date.isoformat()) for e in parse_sitemap(xml, "https://site/sitemap.xml").entries]
    [('https://site/a', '2026-11-20T07:00:00+00:00'), ('https://site/b', '2026-11-01T00:00:00+00:00')]
    """
    try:
        sitemap = _NewsSitemap(body)
    except (lxml.etree.XMLSyntaxError, StopIteration):
        return None
    if sitemap.type not in ("sitemapindex", "urlset"):
        return None
    entries = []
    for item in sitemap:
        loc = item.get("loc", "")
        url = urljoin(base_url or "", loc) if loc else ""
        if not url.startswith(("http://", "https://")):
            continue
        raw = item.get("news_publication_date") or item.get("lastmod")
        entries.append(Entry(url, _to_utc(raw), item.get("news_title", "")))
    return Listing(sitemap.type, entries)


_FEED_ROOTS = frozenset({"rss", "rdf", "feed", "channel"})


def looks_like_feed(body: bytes) -> bool:
    """RSS or Atom by its root element (the first kilobyte says enough).

    >>> looks_like_feed(b'<?xml version="1.0"?><rss version="2.0"><channel>'), looks_like_feed(b"<html>")
    (True, False)
    """
    head = body[:1024].lstrip().lower()
    return bool(re.search(rb"<(?:rss|rdf:rdf|feed)[\s>]", head))


def parse_feed(body: bytes, base_url: str | None = None) -> Listing | None:
    """Entries of an RSS 2.0, RSS 1.0 (RDF) or Atom feed; ``None`` if the body is not a feed.

    >>> atom = b'''<feed xmlns="http://www.w3.org/2005/Atom"><entry>
    ...   <link rel="alternate" href="/2026/a.html"/><published>2026-11-20T10:00:00Z</published>
    ... </entry></feed>'''
    >>> [(e.url, e.date.isoformat()) for e in parse_feed(atom, "https://site/feed").entries]
    [('https://site/2026/a.html', '2026-11-20T10:00:00+00:00')]
    """
    parser = lxml.etree.XMLParser(
        recover=True, resolve_entities=False, no_network=True, remove_comments=True, huge_tree=False
    )
    try:
        root = lxml.etree.fromstring(body, parser)
    except lxml.etree.XMLSyntaxError:
        return None
    if root is None or _local(root.tag) not in _FEED_ROOTS:
        return None
    entries = []
    for item in root.iter():
        name = _local(item.tag)
        if name not in ("item", "entry"):
            continue
        url = _item_link(item, base_url)
        if url:
            entries.append(Entry(url, _item_date(item), _item_title(item)))
    return Listing("feed", entries)


def _local(tag: Any) -> str:
    return tag.rsplit("}", 1)[-1].lower() if isinstance(tag, str) else ""


def _item_link(item: lxml.etree._Element, base_url: str | None) -> str | None:
    """RSS ``<link>`` text (``rdf:about`` for RSS 1.0), Atom ``<link rel="alternate" href>``."""
    candidates: list[str] = []
    for child in item:
        if _local(child.tag) != "link":
            continue
        href = child.get("href")
        if href is not None:  # Atom
            if child.get("rel", "alternate") == "alternate":
                candidates.insert(0, href)
            continue
        if child.text and child.text.strip():
            candidates.append(child.text.strip())
    about = item.get("{http://www.w3.org/1999/02/22-rdf-syntax-ns#}about")
    if about:
        candidates.append(about)
    for guid in item:
        if _local(guid.tag) == "guid" and guid.get("isPermaLink", "true") == "true" and guid.text:
            candidates.append(guid.text.strip())
    for candidate in candidates:
        url = urljoin(base_url or "", candidate)
        if url.startswith(("http://", "https://")):
            return url
    return None


def _item_title(item: lxml.etree._Element) -> str:
    for child in item:
        if _local(child.tag) == "title":
            return " ".join("".join(child.itertext()).split())
    return ""


_FEED_DATE_FIELDS = ("pubdate", "published", "issued", "date", "created", "updated", "modified")


def _item_date(item: lxml.etree._Element) -> datetime | None:
    found: dict[str, str] = {}
    for child in item:
        name = _local(child.tag)
        if name in _FEED_DATE_FIELDS and child.text and name not in found:
            found[name] = child.text.strip()
    for name in _FEED_DATE_FIELDS:
        if name in found:
            parsed = _to_utc(found[name])
            if parsed is not None:
                return parsed
    return None


def _to_utc(raw: str | None) -> datetime | None:
    """A sitemap/feed date as an aware UTC datetime (a bare day is taken at 00:00 UTC)."""
    if not raw:
        return None
    value: datetime | None = None
    if re.match(r"^[A-Za-z]{3},|^\d{1,2} [A-Za-z]{3} \d{4}", raw):  # RFC 822 (RSS pubDate)
        try:
            value = parsedate_to_datetime(raw)
        except (TypeError, ValueError, IndexError):
            value = None
    if value is None:
        parsed = parse_date(raw)
        value = parsed.value if parsed is not None else None
    if value is None:
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=timezone.utc)
    return value.astimezone(timezone.utc)


class SinceError(ValueError):
    """A ``since`` value that is not a date."""


def parse_since(value: str) -> datetime:
    """The ``since`` argument: an ISO 8601 date or date-time (UTC when no offset is given).

    >>> parse_since("2026-11-01").isoformat()
    '2026-11-01T00:00:00+00:00'
    >>> parse_since("2026-11-01T12:30:00+09:00").isoformat()
    '2026-11-01T03:30:00+00:00'
    >>> parse_since("last week")
    Traceback (most recent call last):
    ...
    newsstem.discovery.SinceError: since must be a date like 2026-11-01 or 2026-11-01T08:00:00Z, not 'last week'
    """
    text = value.strip()
    try:
        parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise SinceError(
            f"since must be a date like 2026-11-01 or 2026-11-01T08:00:00Z, not {value!r}"
        ) from None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=timezone.utc)
    return parsed.astimezone(timezone.utc)


