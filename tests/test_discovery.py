"""Sitemaps and feeds as documents (newsstem/discovery.py); crawling them: tests/spiders/test_discovery.py."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from newsstem.discovery import Entry, SinceError, looks_like_feed, parse_feed, parse_since, parse_sitemap

BASE = "https://news.example/"

SITEMAP_INDEX = b"""<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>https://news.example/sitemap-news.xml</loc><lastmod>2026-11-20T10:00:00Z</lastmod></sitemap>
  <sitemap><loc>/sitemap-2019.xml.gz</loc><lastmod>2019-12-31</lastmod></sitemap>
</sitemapindex>"""

NEWS_SITEMAP = """<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
        xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">
  <url><loc>https://news.example/2026/11/20/budget.html</loc>
    <news:news><news:publication><news:name>Example</news:name><news:language>ja</news:language>
    </news:publication><news:publication_date>2026-11-20T08:00:00+09:00</news:publication_date>
    <news:title>予算案が成立</news:title></news:news></url>
  <url><loc>https://news.example/2026/10/01/old.html</loc><lastmod>2026-10-01</lastmod></url>
  <url><loc>https://news.example/undated.html</loc></url>
  <url><loc>mailto:desk@news.example</loc></url>
</urlset>""".encode()

RSS2 = b"""<?xml version="1.0"?>
<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><title>Example</title>
  <item><title>First &amp; foremost</title><link>https://news.example/a.html</link>
    <pubDate>Fri, 20 Nov 2026 10:00:00 +0100</pubDate></item>
  <item><title>Relative</title><link>/b.html</link><dc:date>2026-11-01T00:00:00Z</dc:date></item>
  <item><title>Only a guid</title><guid>https://news.example/c.html</guid></item>
</channel></rss>"""

RSS1 = b"""<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"
         xmlns:dc="http://purl.org/dc/elements/1.1/">
  <channel rdf:about="https://news.example/"><title>Example</title></channel>
  <item rdf:about="https://news.example/rdf.html"><title>RDF item</title>
    <dc:date>2026-11-19T12:00:00+09:00</dc:date></item>
</rdf:RDF>"""

ATOM = b"""<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>Example</title>
  <entry><title type="html">Atom entry</title>
    <link rel="enclosure" href="https://news.example/a.mp3"/>
    <link rel="alternate" type="text/html" href="/atom.html"/>
    <updated>2026-11-21T00:00:00Z</updated><published>2026-11-18T06:00:00Z</published></entry>
</feed>"""


def _dates(listing):
    return [(e.url, e.date.isoformat() if e.date else None) for e in listing.entries]


def test_sitemap_index_lists_sitemaps_with_their_lastmod():
    listing = parse_sitemap(SITEMAP_INDEX, BASE + "sitemap.xml")
    assert listing.kind == "sitemapindex"
    assert _dates(listing) == [
        ("https://news.example/sitemap-news.xml", "2026-11-20T10:00:00+00:00"),
        ("https://news.example/sitemap-2019.xml.gz", "2019-12-31T00:00:00+00:00"),
    ]


def test_google_news_sitemap_gives_publication_dates_and_titles():
    listing = parse_sitemap(NEWS_SITEMAP, BASE + "sitemap-news.xml")
    assert listing.kind == "urlset"
    assert _dates(listing) == [
        ("https://news.example/2026/11/20/budget.html", "2026-11-19T23:00:00+00:00"),
        ("https://news.example/2026/10/01/old.html", "2026-10-01T00:00:00+00:00"),
        ("https://news.example/undated.html", None),
    ]
    assert listing.entries[0].title == "予算案が成立"


def test_rss2_rss1_and_atom_entries():
    assert _dates(parse_feed(RSS2, BASE + "rss")) == [
        ("https://news.example/a.html", "2026-11-20T09:00:00+00:00"),
        ("https://news.example/b.html", "2026-11-01T00:00:00+00:00"),
        ("https://news.example/c.html", None),
    ]
    assert parse_feed(RSS2, BASE + "rss").entries[0].title == "First & foremost"
    assert _dates(parse_feed(RSS1, BASE + "rdf")) == [
        ("https://news.example/rdf.html", "2026-11-19T03:00:00+00:00")
    ]
    # Atom: the alternate link, the publication date before the update.
    assert _dates(parse_feed(ATOM, BASE + "atom")) == [
        ("https://news.example/atom.html", "2026-11-18T06:00:00+00:00")
    ]


def test_feeds_and_sitemaps_are_told_apart():
    for feed in (RSS2, RSS1, ATOM):
        assert looks_like_feed(feed)
        assert parse_sitemap(feed) is None
    for sitemap in (SITEMAP_INDEX, NEWS_SITEMAP):
        assert not looks_like_feed(sitemap)
        assert parse_feed(sitemap) is None


@pytest.mark.parametrize("body", [b"", b"<html><body>not xml</body></html>", b"\x00\x01", b"<urlset"])
def test_junk_is_no_listing(body):
    assert parse_feed(body) is None
    listing = parse_sitemap(body)
    assert listing is None or listing.entries == []


def test_since_keeps_newer_and_undated_entries():
    since = parse_since("2026-11-01")
    assert since == datetime(2026, 11, 1, tzinfo=timezone.utc)
    kept = [e.url for e in parse_sitemap(NEWS_SITEMAP, BASE).entries if e.newer_than(since)]
    assert kept == ["https://news.example/2026/11/20/budget.html", "https://news.example/undated.html"]
    assert Entry("x").newer_than(since) and Entry("x", since).newer_than(since)


@pytest.mark.parametrize("value", ["yesterday", "2026-13-01", "11/01/2026", ""])
def test_since_must_be_an_iso_date(value):
    with pytest.raises(SinceError, match="since must be a date"):
        parse_since(value)
