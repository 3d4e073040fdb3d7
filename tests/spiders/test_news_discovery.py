"""Sitemaps and feeds in a real crawl of the fixture site (tests/fixtures/site) over HTTP.

The listings are served as routes of the fixture server: a sitemap index with a
Google News sitemap, an old sitemap and a gzipped one; an RSS and an Atom feed;
robots.txt with a Sitemap: line; a page that announces a feed. They list the
site's articles, a page robots.txt forbids, a page the rules reject and a page
on another site.
"""

from __future__ import annotations

import gzip

import pytest

from support.crawl import run_crawl

ROBOTS = b"User-agent: *\nDisallow: /private/\nSitemap: /sitemap_index.xml\n"


def _urlset(*entries: tuple[str, str]) -> bytes:
    urls = "".join(
        f"<url><loc>{loc}</loc><news:news><news:publication_date>{date}"
        f"</news:publication_date><news:title>{loc.rsplit('/', 1)[-1]}</news:title></news:news></url>"
        for loc, date in entries
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
        f' xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">{urls}</urlset>'
    ).encode()


def _serve_listings(site) -> None:
    routes = site.routes
    routes["/robots.txt"] = (200, "text/plain", ROBOTS)
    routes["/sitemap_index.xml"] = (200, "application/xml", (
        '<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        "<sitemap><loc>/sitemaps/news.xml</loc><lastmod>2026-11-20</lastmod></sitemap>"
        "<sitemap><loc>/sitemaps/2012.xml</loc><lastmod>2012-12-31</lastmod></sitemap>"
        "<sitemap><loc>/sitemaps/more.xml.gz</loc><lastmod>2026-11-21</lastmod></sitemap>"
        "</sitemapindex>").encode())
    routes["/sitemaps/news.xml"] = (200, "application/xml", _urlset(
        ("/news/fiscal-cliff.html", "2026-11-20T08:00:00Z"),
        ("/news/sandra-fluke.html", "2026-10-01T08:00:00Z"),       # older than since
        ("/private/secret.html", "2026-11-20T09:00:00Z"),          # robots.txt forbids it
        ("/news/print/fiscal-cliff.html", "2026-11-20T09:00:00Z"), # the rules reject it
        (f"http://localhost:{site.port}/news/elsewhere.html", "2026-11-20T09:00:00Z"),  # offsite
    ))
    routes["/sitemaps/2012.xml"] = (200, "application/xml", _urlset(
        ("/news/deep/fab-5.html", "2012-12-07T08:00:00Z"),
    ))
    routes["/sitemaps/more.xml.gz"] = (200, "application/x-gzip", gzip.compress(_urlset(
        ("/news/paul-ryan.html", "2026-11-21T08:00:00Z"),
    )))
    routes["/feeds/rss.xml"] = (200, "application/rss+xml", (
        '<?xml version="1.0"?><rss version="2.0"><channel><title>Fixture news</title>'
        "<item><title>Paul Ryan</title><link>/news/paul-ryan.html</link>"
        "<pubDate>Sat, 21 Nov 2026 08:00:00 GMT</pubDate></item>"
        "<item><title>Fab 5</title><link>/news/deep/fab-5.html</link>"
        "<pubDate>Fri, 07 Dec 2012 08:00:00 GMT</pubDate></item>"
        "</channel></rss>").encode())
    routes["/feeds/atom.xml"] = (200, "application/atom+xml", (
        '<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>Fixture</title>'
        '<entry><title>Sandra Fluke</title><link href="/news/sandra-fluke.html"/>'
        "<published>2026-11-19T08:00:00Z</published></entry></feed>").encode())
    routes["/announces-feed.html"] = (200, "text/html", (
        '<html><head><link rel="alternate" type="application/rss+xml" href="/feeds/rss.xml">'
        "</head><body><p>A page with a feed.</p></body></html>").encode())


@pytest.fixture
def listed_site(site):
    _serve_listings(site)
    return site


RULES = {"NEWSSTEM_URL_RULES": r"-/print/ +."}


def test_sitemap_index_to_sitemaps_to_articles_since_a_date(tmp_path, listed_site):
    site = listed_site
    result = run_crawl(tmp_path, "-a", f"sitemap={site.url}/sitemap_index.xml", "-a", "depth=0",
                       "-a", "since=2026-11-01", settings=RULES)
    assert result.returncode == 0, result.log
    fetched = set(site.paths(status=None))
    assert {"/sitemap_index.xml", "/sitemaps/news.xml", "/sitemaps/more.xml.gz",
            "/news/fiscal-cliff.html", "/news/paul-ryan.html"} <= fetched
    assert "/sitemaps/2012.xml" not in fetched  # its lastmod is before since
    assert "/news/sandra-fluke.html" not in fetched  # listed as older than since
    assert not any(p.startswith(("/private/", "/news/print/")) for p in fetched)  # robots, rules
    assert result.item_urls() == {f"{site.url}/news/fiscal-cliff.html", f"{site.url}/news/paul-ryan.html"}
    stats = result.stats
    assert stats["newsstem/discovery/sitemaps"] == 3
    assert stats["newsstem/discovery/too_old"] == 2  # the 2012 sitemap, sandra-fluke
    assert stats["newsstem/discovery/rejected/rules"] == 1
    assert stats["newsstem/discovery/rejected/offsite"] == 1
    assert stats["robotstxt/forbidden"] == 1
    # Entries are start pages: depth 0, even though depth=0 follows no links.
    assert {item["depth"] for item in result.items} == {0}


def test_robots_txt_sitemaps_with_a_start_url(tmp_path, listed_site):
    site = listed_site
    result = run_crawl(tmp_path, "-a", f"start_url={site.url}/index.html", "-a", "sitemap=robots",
                       "-a", "depth=0", "-a", "since=2026-11-01", settings=RULES)
    assert result.returncode == 0, result.log
    fetched = set(site.paths(status=None))
    assert {"/index.html", "/sitemap_index.xml", "/news/fiscal-cliff.html", "/news/paul-ryan.html"} <= fetched
    assert "/news/index.html" not in fetched  # depth 0: the start page's links are not followed


def test_robots_txt_without_a_sitemap_line_is_a_warning(tmp_path, site):
    # -a sitemap=robots on a site whose robots.txt lists no sitemap read nothing, silently
    site.routes["/robots.txt"] = (200, "text/plain", b"User-agent: *\nDisallow: /private/\n")
    result = run_crawl(tmp_path, "-a", f"start_url={site.url}/index.html", "-a", "sitemap=robots",
                       "-a", "depth=0", settings=RULES)
    assert result.returncode == 0, result.log
    assert "/robots.txt" in site.paths()
    assert result.stats["newsstem/discovery/robots_without_sitemaps"] == 1
    assert (f"WARNING: news: {site.url}/robots.txt lists no sitemap (no Sitemap: line): "
            "-a sitemap=robots reads nothing from it") in result.log


def test_robots_txt_that_is_missing_says_sitemap_robots_read_nothing(tmp_path, site):
    # a site without robots.txt (404): only "download failed (http_404): .../robots.txt"
    # was said, nothing about -a sitemap=robots having found no sitemap to read
    site.routes["/robots.txt"] = (404, "text/plain", b"not found")
    result = run_crawl(tmp_path, "-a", f"start_url={site.url}/index.html", "-a", "sitemap=robots",
                       "-a", "depth=0", settings=RULES)
    assert result.returncode == 0, result.log
    assert "/robots.txt" in site.paths(status=None)
    assert result.stats["newsstem/discovery/robots_without_sitemaps"] == 1
    assert (f"WARNING: news: {site.url}/robots.txt could not be read (see the line above): "
            "-a sitemap=robots reads nothing from it") in result.log


def test_rss_and_atom_feeds(tmp_path, listed_site):
    site = listed_site
    result = run_crawl(tmp_path, "-a", f"feed={site.url}/feeds/rss.xml {site.url}/feeds/atom.xml",
                       "-a", "depth=0", "-a", "since=2026-11-01", settings=RULES)
    assert result.returncode == 0, result.log
    assert result.item_urls() == {f"{site.url}/news/paul-ryan.html", f"{site.url}/news/sandra-fluke.html"}
    assert "/news/deep/fab-5.html" not in site.paths(status=None)  # dated 2012
    assert result.stats["newsstem/discovery/feeds"] == 2
    [ryan] = [i for i in result.items if i["url"].endswith("paul-ryan.html")]
    assert "Paul Ryan" in ryan["anchor_texts"]  # the feed's item title


@pytest.mark.parametrize(("depth", "reached"), [(1, False), (2, True)])
def test_a_feed_a_page_announces_is_a_hub(tmp_path, listed_site, depth, reached):
    site = listed_site
    result = run_crawl(tmp_path, "-a", f"start_url={site.url}/announces-feed.html",
                       "-a", f"depth={depth}", settings=RULES)
    assert result.returncode == 0, result.log
    fetched = set(site.paths(status=None))
    assert "/feeds/rss.xml" in fetched
    assert ("/news/paul-ryan.html" in fetched) is reached


def test_articles_carry_every_metadata_field(tmp_path, listed_site):
    site = listed_site
    result = run_crawl(tmp_path, "-a", f"feed={site.url}/feeds/rss.xml", "-a", "depth=0",
                       settings=RULES)
    assert result.returncode == 0, result.log
    assert result.items
    for item in result.items:
        assert {"published", "modified", "authors", "language", "description", "image",
                "canonical_url", "site_name", "tags", "section"} <= set(item)
        assert isinstance(item["authors"], list) and isinstance(item["tags"], list)
        assert item["language"] == "en"
        assert item["published"]  # the page's own date, or the feed's
    stats = result.stats
    assert stats["newsstem/metadata/articles"] == len(result.items)
    assert stats["newsstem/metadata/language"] == len(result.items)


@pytest.mark.parametrize(
    ("argument", "message"),
    [("since=last week", "since must be a date"),
     ("sitemap=ftp://example.org/sitemap.xml", "is not an http(s) URL"),
     ("sitemap=robots", "give a start URL too")],
)
def test_bad_discovery_arguments_are_usage_errors(tmp_path, argument, message):
    args = ["-a", argument]
    if not argument.startswith("sitemap="):
        args += ["-a", "feed=https://news.example/rss"]
    result = run_crawl(tmp_path, *args)
    assert result.returncode == 2
    assert message in result.log
    assert "Traceback" not in result.log


def test_a_page_given_as_a_feed_is_named_in_the_run_summary(tmp_path, site):
    # the site's front page given as -a feed=: nothing exported, one WARNING line among the
    # log, and a summary of "articles exported: 0", "errors: 0" that said nothing of why
    result = run_crawl(tmp_path, "-a", f"feed={site.url}/index.html")
    assert result.returncode == 0, result.log
    assert result.items == []
    summary = result.log.split("newsstem run summary", 1)[1]
    assert ("  not a sitemap or feed: 1 of the listings fetched (their WARNING lines name "
            "them; a site's page given as -a feed= or -a sitemap= goes in -a start_url=)"
            ) in summary
    assert f"{site.url}/index.html is neither a sitemap nor an RSS/Atom feed" in result.log
    # a crawl whose listings all read says nothing of them
    _serve_listings(site)
    fine = run_crawl(tmp_path, "-a", f"feed={site.url}/feeds/rss.xml", name="fine")
    assert fine.items and "not a sitemap or feed" not in fine.log
