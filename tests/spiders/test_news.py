"""The news spider end to end: a real `scrapy crawl` against the fixture site over HTTP.

Fixture site (tests/fixtures/site): / links to /news/index.html, /about.html,
/news/fiscal-cliff.html (+ a #comments link to it), /news/print/fiscal-cliff.html,
a nofollow link, media files, /private/ (disallowed by robots.txt), another
host name and another port of the same server, ftp:, mailto:, javascript:.
/news/index.html links /news/sandra-fluke.html and /news/paul-ryan.html, which
links /news/deep/fab-5.html. The four articles are tv.msnbc.com pages of
CleanPortalEval (see tests/fixtures/SOURCES.md).
"""

from __future__ import annotations

import pytest

from support.crawl import run_crawl

DEPTH_0 = {"/robots.txt", "/index.html"}
DEPTH_1 = DEPTH_0 | {
    "/news/index.html",
    "/about.html",
    "/news/fiscal-cliff.html",
    "/news/print/fiscal-cliff.html",
}
DEPTH_2 = DEPTH_1 | {"/news/sandra-fluke.html", "/news/paul-ryan.html"}
DEPTH_3 = DEPTH_2 | {"/news/deep/fab-5.html"}

NEVER = (
    "/private/",
    "/news/nofollow.html",
    "/img/photo.jpg",
    "/files/report.pdf",
    "/news/offsite-host.html",
    "/news/other-port.html",
    "/news/ftp.html",
)


@pytest.mark.parametrize(
    ("depth", "expected"), [(0, DEPTH_0), (1, DEPTH_1), (2, DEPTH_2), (3, DEPTH_3)]
)
def test_depth_fetches_exactly_the_pages_within_the_limit(tmp_path, site, depth, expected):
    result = run_crawl(tmp_path, "-a", f"start_url={site.url}/index.html", "-a", f"depth={depth}")
    assert result.returncode == 0, result.log
    fetched = site.paths(status=None)
    assert set(fetched) == expected
    assert len(fetched) == len(set(fetched)), "a page was fetched twice"
    for path in NEVER:
        assert not any(p.startswith(path) for p in fetched)


def test_articles_are_exported_hubs_are_not(tmp_path, site, gold):
    result = run_crawl(tmp_path, "-a", f"start_url={site.url}/index.html", "-a", "depth=2")
    assert result.returncode == 0, result.log
    exported = {item["url"].removeprefix(site.url) for item in result.items}
    assert exported == {"/news/fiscal-cliff.html", "/news/sandra-fluke.html", "/news/paul-ryan.html"}
    dropped = sum(v for k, v in result.stats.items() if k.startswith("newsstem/dropped/"))
    assert dropped == 4  # home, news index, about, print
    assert result.stats["newsstem/method/readability"] == 3


def test_article_lines_carry_every_field(tmp_path, site, gold):
    from newsstem.evaluation import score_page

    result = run_crawl(
        tmp_path, "-a", f"start_url={site.url}/index.html", "-a", "depth=1",
        settings={"NEWSSTEM_BODY_HTML": "True"},
    )
    lines = result.output.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1
    [article] = result.items
    assert set(article) >= {
        "url", "site", "title", "body", "body_html", "anchor_texts", "fetched_at", "depth",
        "method", "length",
    }
    assert article["url"] == f"{site.url}/news/fiscal-cliff.html"
    assert article["site"] == f"127.0.0.1:{site.port}"
    assert article["depth"] == 1
    assert article["method"] == "readability"
    assert "fiscal cliff" in article["title"].lower()
    assert article["fetched_at"].endswith("Z") and article["fetched_at"][10] == "T"
    assert article["length"] >= 200
    assert "<p" in article["body_html"]
    assert "\n\n" in article["body"]
    # Both links on the home page, the #comments one included, were recorded.
    assert {"People don't understand the fiscal cliff", "Comments"} <= set(article["anchor_texts"])
    assert score_page(article["body"], gold("/news/fiscal-cliff.html")).f1 >= 0.9


def test_every_exported_body_matches_its_gold_text(tmp_path, site, gold):
    from newsstem.evaluation import score_page

    result = run_crawl(tmp_path, "-a", f"start_url={site.url}/index.html", "-a", "depth=3")
    assert len(result.items) == 4
    for article in result.items:
        path = article["url"].removeprefix(site.url)
        assert score_page(article["body"], gold(path)).f1 >= 0.9, path
        assert article["body_html"] is None  # NEWSSTEM_BODY_HTML is off by default


@pytest.mark.parametrize(
    ("rules", "print_fetched"),
    [("+/news/ -print", True), ("-print +/news/", False)],
)
def test_rules_first_match_wins(tmp_path, site, rules, print_fetched):
    result = run_crawl(
        tmp_path, "-a", f"start_url={site.url}/index.html", "-a", "depth=1", "-a", f"rules={rules}"
    )
    assert result.returncode == 0, result.log
    fetched = set(site.paths(status=None))
    assert ("/news/print/fiscal-cliff.html" in fetched) is print_fetched
    assert "/news/index.html" in fetched and "/news/fiscal-cliff.html" in fetched
    assert "/about.html" not in fetched  # no rule matches: rejected
    assert "/img/photo.jpg" not in fetched


def test_rules_setting_is_used_when_no_argument(tmp_path, site):
    result = run_crawl(
        tmp_path, "-a", f"start_url={site.url}/index.html",
        settings={"NEWSSTEM_URL_RULES": r"+/about\.html$"},
    )
    assert result.returncode == 0, result.log
    assert set(site.paths(status=None)) == DEPTH_0 | {"/about.html"}


def test_bad_rule_regex_fails_at_start_with_a_clear_message(tmp_path, site):
    result = run_crawl(tmp_path, "-a", f"start_url={site.url}/index.html", "-a", "rules=+/news/[")
    assert result.returncode != 0
    assert "is not a valid regular expression" in result.log
    assert site.paths(status=None) == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((), "give at least one start URL"),
        (("-a", "start_url=ftp://127.0.0.1/x"), "is not an http(s) URL"),
        (("-a", "start_url=http://127.0.0.1/", "-a", "depth=two"), "depth must be an integer"),
        (("-a", "start_url=http://127.0.0.1/", "-a", "depth=-1"), "depth must be an integer"),
        (("-a", "start_url=http://127.0.0.1/", "-a", "rules=news"), "must start with '+'"),
        # a misspelt argument was ignored (the crawl ran at depth 1)
        (("-a", "start_url=http://127.0.0.1/", "-a", "depht=2"),
         "news: unknown argument 'depht' (did you mean depth?)"),
        (("-a", "start_urls=http://127.0.0.1/"),
         "news: unknown argument 'start_urls' (did you mean start_url?)"),
    ],
)
def test_bad_arguments_fail_with_a_clear_message(tmp_path, args, message):
    result = run_crawl(tmp_path, *args)
    assert result.returncode != 0
    assert message in result.log


def test_several_start_urls(tmp_path, site):
    result = run_crawl(
        tmp_path, "-a", f"start_url={site.url}/news/index.html {site.url}/about.html",
        "-a", "depth=0",
    )
    assert result.returncode == 0, result.log
    assert set(site.paths(status=None)) == {"/robots.txt", "/news/index.html", "/about.html"}


def test_bad_responses_do_not_break_the_crawl(tmp_path, site):
    site.routes["/bad/image.html"] = (200, "image/jpeg", b"\xff\xd8\xff\xe0 not a page")
    result = run_crawl(tmp_path, "-a", f"start_url={site.url}/bad/index.html", "-a", "depth=1",
                       settings={"NEWSSTEM_URL_RULES": "+."})
    assert result.returncode == 0, result.log
    assert "Traceback" not in result.log
    # The page with bytes invalid in its declared UTF-8 still has an article: kept, bytes replaced.
    assert result.item_urls() == {
        f"{site.url}/news/sandra-fluke.html", f"{site.url}/bad/undecodable.html"
    }
    [broken] = [i for i in result.items if i["url"].endswith("/bad/undecodable.html")]
    assert "\ufffd" in broken["body"] and "broken bytes in a declared UTF-8 page" in broken["body"]
    assert result.stats["newsstem/dropped/not_html"] == 2  # the image, the random bytes
    fetched = set(site.paths(status=None))
    assert {"/bad/empty.html", "/bad/binary.html", "/bad/nobody.html", "/bad/undecodable.html",
            "/bad/missing.html", "/bad/image.html"} <= fetched


def test_scrapy_spider_attributes_and_scrapyd_job_ids_stay_allowed_arguments(tmp_path, site):
    result = run_crawl(tmp_path, "-a", f"start_url={site.url}/index.html", "-a", "depth=0",
                       "-a", "user_agent=newsstem-test", "-a", "_job=abc")
    assert result.returncode == 0, result.log
    assert [h.user_agent for h in site.hits if h.path == "/index.html"] == ["newsstem-test"]


def test_the_anchor_book_keeps_a_short_key_for_each_page_fetched():
    # it remembers every page fetched for the whole crawl (links to it are not recorded
    # after): by its canonical URL, ~140 bytes a news URL, a URL's length more than the
    # URL store's 16-byte digest (stop 49's crawl memory), in a KeySet: ~20 bytes a page,
    # not ~90 a key and its slot in a set (stop 50)
    import sys

    from newsstem.spiders.news import AnchorBook

    book = AnchorBook(max_per_url=3)
    for n in range(200):
        url = f"https://news.example.com/world/europe/2026/12/01/minister-resigns-story-{n}.html"
        book.add(url, f"Minister resigns {n}")
        assert book.pop(url) == [f"Minister resigns {n}"]
        book.add(url + "#comments", "Comments")  # fetched: not recorded
    assert len(book) == 0
    held = sys.getsizeof(book._fetched)  # (a KeySet's counts its buckets)
    assert len(book._fetched) == 200 and held / 200 < 30
