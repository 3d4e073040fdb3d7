"""The run summary and the exit status of `scrapy crawl` for unattended runs."""

from __future__ import annotations

import json
import re
from http.server import BaseHTTPRequestHandler

import pytest
from scrapy import Spider
from scrapy.crawler import Crawler
from scrapy.settings import Settings
from scrapy.statscollectors import MemoryStatsCollector
from scrapy.utils.test import get_crawler
from support.crawl import run_crawl, scrapy
from support.httpserver import FixtureSite, serve, shut_down
from support.newssite import GeneratedNewsSite
from support.redisserver import free_port

from newsstem.commands.crawl import Command as CrawlCommand
from newsstem.operations import (
    EXIT_NOTHING_REACHED,
    OutputFile,
    RunReport,
    close_limit,
    summarize,
)

FINISHED = {
    "finish_reason": "finished",
    "elapsed_time_seconds": 12.34,
    "item_scraped_count": 5,
    "newsstem/method/readability": 1,
    "newsstem/method/pattern:site/1": 4,
    "newsstem/dropped/too_short": 7,
    "newsstem/dropped/not_html": 1,
    "newsstem/urldb/skipped": 30,
    "newsstem/urldb/withheld": 2,
    "downloader/response_status_count/200": 14,
    "downloader/response_status_count/404": 3,  # robots.txt and 2 pages
    "robotstxt/response_status_count/404": 1,
    "downloader/exception_type_count/twisted.internet.error.TimeoutError": 2,
    "spider_exceptions/ValueError": 1,
    "robotstxt/forbidden": 4,
}


def test_a_summary_counts_what_an_operator_looks_for():
    summary = summarize(FINISHED, pages=13)
    assert summary.outcome == "ok"
    assert summary.articles == 5 and summary.by_method == {"pattern:site/1": 4, "readability": 1}
    assert summary.dropped == {"too_short": 7, "not_html": 1}
    assert summary.http_errors == {"404": 2}, "robots.txt's 404 is not an error"
    assert summary.download_errors == {"TimeoutError": 2}
    assert summary.errors == 2 + 2 + 1
    lines = summary.lines()
    assert lines[0] == "newsstem run summary (finished, 12.3 s):"
    assert "  articles exported: 5 (pattern:site/1 4, readability 1)" in lines
    assert "  pages not exported: 8 (too_short 7, not_html 1)" in lines
    assert "  known URLs skipped (URL store): 30, 2 fetched pages not exported again" in lines
    assert "  errors: 5 (download: TimeoutError 2; HTTP: 404 2; spider: ValueError 1)" in lines
    assert "  robots.txt refused: 4" in lines
    assert summary.stats()["newsstem/summary/dropped"] == 8


def test_a_stopped_crawl_advises_o_for_each_json_lines_file_and_another_file_for_json():
    """`-O a.jsonl -O b.jsonl`, stopped: the advice read "give that run -o a.jsonl b.jsonl",
    and Scrapy takes the second file for a spider's name; each file needs its own -o. And
    `-o c.json` appends a second JSON array to c.json, which no JSON reader then reads."""
    def advice(*files):
        summary = summarize({**FINISHED, "finish_reason": "shutdown"}, pages=13, jobdir="",
                            url_store=True, replaced=files)
        [line] = [x for x in summary.lines() if x.startswith("  stopped before its end")]
        return line.split("stopped crawl)", 1)[1]

    assert advice(OutputFile("a.jsonl", True), OutputFile("b.jsonl", True)) == (
        "; give that run -o a.jsonl -o b.jsonl instead of -O (or another file): -O empties it "
        "of this run's articles, which the URL store will not export again")
    assert advice(OutputFile("a.jsonl", True), OutputFile("c.json", False)) == (
        "; give that run -o a.jsonl instead of -O (or another file), and another -O file than "
        "c.json (-o would append a second JSON array, XML document or CSV header to it): -O "
        "empties it of this run's articles, which the URL store will not export again")


def test_an_extraction_summary_shows_only_what_applies_to_archives():
    # scrapy extract fetches nothing: its summary said "known URLs skipped (URL store): 0",
    # "errors: 0" and "robots.txt refused: 0" (stop 33)
    stats = {"finish_reason": "finished", "elapsed_time_seconds": 2.0,
             "item_scraped_count": 5, "newsstem/method/readability": 5,
             "newsstem/dropped/too_short": 2, "newsstem/archive/read": 7,
             "newsstem/archive/unreadable": 1}
    summary = summarize(stats, pages=0, offline=True)
    assert summary.outcome == "ok"
    assert summary.lines() == [
        "newsstem extraction summary (finished, 2.0 s):",
        "  articles exported: 5 (readability 5)",
        "  pages read from archives: 7",
        "  pages not exported: 2 (too_short 2)",
        "  archives damaged (pages after the damage not read): 1",
    ]
    empty = summarize({"finish_reason": "finished"}, pages=0, offline=True)
    assert empty.outcome == "idle"  # not "nothing_reached": no request failed


def test_a_run_that_reached_nothing_is_told_apart_from_an_idle_one():
    down = {"downloader/exception_type_count/twisted.internet.error.DNSLookupError": 2}
    assert summarize(down, pages=0).outcome == "nothing_reached"
    refused = {"robotstxt/forbidden": 1}
    assert summarize(refused, pages=0).outcome == "nothing_reached"
    errors_only = {"downloader/response_status_count/503": 3}
    assert summarize(errors_only, pages=0).outcome == "nothing_reached"
    # a recurring run that found nothing new still fetched its start page
    assert summarize({"newsstem/urldb/skipped": 9}, pages=1).outcome == "ok"
    assert summarize({}, pages=0).outcome == "idle"  # e.g. a worker given no work


def test_the_report_puts_its_summary_into_the_stats_when_the_engine_stops():
    crawler = get_crawler(settings_dict={})
    stats = MemoryStatsCollector(crawler)
    for name, value in FINISHED.items():
        stats.set_value(name, value)
    report = RunReport(stats)
    report.pages = 13
    report.engine_stopped()
    assert stats.get_value("newsstem/summary/articles") == 5
    assert stats.get_value("newsstem/summary/outcome") == "ok"
    assert not report.reached_nothing


def test_a_crawl_whose_every_request_fails_exits_3_with_one_clear_line(tmp_path):
    dead = f"http://127.0.0.1:{free_port()}/"  # nothing listens there
    result = run_crawl(tmp_path, "-a", f"start_url={dead}", settings={"RETRY_TIMES": "0"})
    assert result.returncode == EXIT_NOTHING_REACHED, result.log
    assert "the crawl reached nothing: every request failed" in result.log
    assert result.stats["newsstem/summary/outcome"] == "nothing_reached"
    assert result.stats["newsstem/summary/errors"] >= 1
    assert result.items == []


def test_a_start_page_answering_404_is_a_failed_run_and_a_good_crawl_is_not(tmp_path, site):
    missing = run_crawl(tmp_path, "-a", f"start_url={site.url}/nowhere/", name="missing")
    assert missing.returncode == EXIT_NOTHING_REACHED, missing.log
    good = run_crawl(tmp_path, "-a", f"start_url={site.url}/index.html", name="good")
    assert good.returncode == 0, good.log
    stats = json.loads((tmp_path / "good.stats.json").read_text())
    assert stats["newsstem/summary/articles"] == len(good.items) > 0
    assert "newsstem run summary (finished" in good.log


def test_rules_that_reject_every_link_are_named_in_the_summary(tmp_path, site):
    # -a rules='+/nowhere/': the start page fetched, nothing exported, exit status 0, and the
    # summary said nothing of the rules that had rejected every link of the page
    narrow = run_crawl(tmp_path, "-a", f"start_url={site.url}/index.html",
                       "-a", "rules=+/nowhere/", name="narrow")
    assert narrow.returncode == 0, narrow.log
    rejected = narrow.stats["newsstem/links/rejected/rules"]
    assert rejected > 0 and narrow.items == []
    # its links off the site are not the rules' (offsite, judged before them)
    assert narrow.stats.get("newsstem/links/rejected/offsite", 0) > 0
    assert (f"  no link followed: the URL rules rejected all {rejected} links to the site "
            "found (-a rules or NEWSSTEM_URL_RULES: the first rule that matches decides"
            ) in narrow.log
    good = run_crawl(tmp_path, "-a", f"start_url={site.url}/index.html", name="good")
    assert good.items and "no link followed" not in good.log


def test_default_rules_that_reject_every_link_say_what_they_accept(tmp_path):
    """Started from a section page (/section/news.html) whose articles lie elsewhere
    (/2026/12/01/a.html), a crawl given no rules followed no link, and its summary blamed
    "the URL rules ... (-a rules or NEWSSTEM_URL_RULES ...)", rules the user never gave: the
    default ones accept only what lies under the start URL's directory."""
    root = tmp_path / "site"
    (root / "section").mkdir(parents=True)
    (root / "2026" / "12" / "01").mkdir(parents=True)
    text = " ".join(["The council voted on the new budget after a long debate."] * 6)
    stories = ""
    for name in ("a", "b"):
        (root / "2026" / "12" / "01" / f"{name}.html").write_text(
            f"<html><head><title>Story {name}</title></head><body><h1>Story {name}</h1>"
            + f"<p>{text}</p>" * 4 + "</body></html>")
        stories += f'<h2><a href="/2026/12/01/{name}.html">Story {name}</a></h2><p>Teaser.</p>'
    (root / "section" / "news.html").write_text(
        f"<html><head><title>News</title></head><body>{stories}</body></html>")
    site = FixtureSite(root).start()
    host = site.url[len("http://"):]
    try:
        section = run_crawl(tmp_path, "-a", f"start_url={site.url}/section/news.html",
                            name="section")
        whole = run_crawl(tmp_path, "-a", f"start_url={site.url}/section/news.html",
                          "-a", f"rules=+^https?://{host}/", name="whole")
    finally:
        site.stop()
    rejected = section.stats["newsstem/links/rejected/rules"]
    assert rejected == 2 and section.items == [], section.log
    assert (f"  no link followed: the default URL rules rejected all {rejected} links to the "
            "site found (given no -a rules, they accept only the URLs under the start URL's "
            f"directory, {host}/section/; start higher up, or give rules, e.g. "
            f"-a rules='-") in section.log, section.log
    assert (f" +^https?://{re.escape(host)}/' for the whole site: the default rules from the "
            "site root, media files still rejected)") in section.log, section.log
    # the rule it suggests follows them
    assert sorted(item["url"] for item in whole.items) == [
        f"{site.url}/2026/12/01/a.html", f"{site.url}/2026/12/01/b.html"], whole.log


def test_the_whole_site_rules_advised_keep_the_media_rule_and_cover_every_start_site(tmp_path):
    """Two start URLs on two sites, each a section page whose articles and photo lie
    elsewhere: the rule the summary advised for "the whole site" named the first site only,
    and no reject rule, so run as advised it fetched the photos and none of the second
    site's articles. Run as advised now, it exports every article of both, no photo."""
    text = " ".join(["The council voted on the new budget after a long debate."] * 6)
    sites = []
    for number in range(2):
        root = tmp_path / f"site{number}"
        (root / "section").mkdir(parents=True)
        (root / "2026").mkdir()
        (root / "img").mkdir()
        (root / "img" / "photo.jpg").write_bytes(b"\xff\xd8\xff\xe0 not much of a photo")
        (root / "2026" / "a.html").write_text(
            f"<html><head><title>Story {number}</title></head><body><h1>Story {number}</h1>"
            + f"<p>{text}</p>" * 4 + "</body></html>")
        (root / "section" / "news.html").write_text(
            '<html><head><title>News</title></head><body><h2><a href="/2026/a.html">Story'
            '</a></h2><p>Teaser.</p><a href="/img/photo.jpg">Photo</a></body></html>')
        sites.append(FixtureSite(root).start())
    starts = " ".join(f"{site.url}/section/news.html" for site in sites)
    try:
        section = run_crawl(tmp_path, "-a", f"start_url={starts}", name="section")
        [rules] = re.findall(r"-a rules='([^']*)' for the whole site", section.log)
        for site in sites:
            site.clear()
        whole = run_crawl(tmp_path, "-a", f"start_url={starts}", "-a", f"rules={rules}",
                          name="whole")
        fetched = [path for site in sites for path in site.paths()]
    finally:
        for site in sites:
            site.stop()
    assert section.items == [] and section.stats["newsstem/links/rejected/rules"] == 4, section.log
    assert sorted(item["url"] for item in whole.items) == sorted(
        f"{site.url}/2026/a.html" for site in sites), whole.log
    assert "/img/photo.jpg" not in fetched, fetched


def test_default_rules_from_a_home_page_that_reject_every_link_blame_the_media_rule():
    """From a home page the default rules accept the whole site: only their media rule
    rejects a link to it, and the summary said "start higher up", from the site's root."""
    stats = {**FINISHED, "item_scraped_count": 0, "newsstem/links/rejected/rules": 3,
             "newsstem/links/followed": 0}
    stats = {k: v for k, v in stats.items() if not k.startswith("newsstem/method/")}
    lines = summarize(stats, pages=1, default_directories=("site/",)).lines()
    assert ("  no link followed: the default URL rules rejected all 3 links to the site found "
            "(given no -a rules, they reject media and document files, images, PDFs, "
            "archives…, and accept the rest of the start URL's site)") in lines, lines
    lines = summarize(stats, pages=1, default_directories=("site/news/",)).lines()
    assert any("start higher up" in line for line in lines), lines


def test_a_crawl_whose_articles_lie_beyond_the_depth_limit_says_so(tmp_path):
    # The documented first crawl, `scrapy crawl news -a start_url=https://site/`, from the
    # home page of a site that lists its articles on section pages: the default depth 1
    # fetched the home and section pages, exported nothing, exit status 0, and the summary
    # said nothing of the depth (a new user saw "articles exported: 0" and no reason)
    site = GeneratedNewsSite(sections=2, articles_per_section=3).start()
    try:
        shallow = run_crawl(tmp_path, "-a", f"start_url={site.url}/", name="shallow")
        deep = run_crawl(tmp_path, "-a", f"start_url={site.url}/", "-a", "depth=2", name="deep")
    finally:
        site.stop()
    assert shallow.returncode == 0 and shallow.items == [], shallow.log
    assert shallow.stats["newsstem/depth/limit_pages"] == 2  # the two section pages
    assert ("  no article within depth 1: the links of the 2 pages at that depth were not "
            "followed (-a depth=2 goes one level deeper") in shallow.log
    assert len(deep.items) == 6 and "no article within depth" not in deep.log, deep.log


def test_a_crawl_closed_early_or_resumed_names_the_right_depth_or_none(tmp_path):
    """A crawl closed by CLOSESPIDER_PAGECOUNT (or _TIMEOUT, _ITEMCOUNT) left pages unfetched:
    its summary blamed the depth ("no article within depth 1") for articles it had no time
    to reach. Resumed from its JOBDIR, the same crawl parsed the queued pages at the limit
    and made no request: the depth came from Scrapy's request_depth_max, so it said "no
    article within depth 0 … (-a depth=1 goes one level deeper", the depth it had."""
    site = GeneratedNewsSite(sections=3, articles_per_section=2, delay=0.2).start()
    args = ("-a", f"start_url={site.url}/", "-s", f"JOBDIR={tmp_path / 'job'}",
            "-s", "CONCURRENT_REQUESTS=1")
    try:
        # robots.txt, the home page, a section page: the pages of 2 sections still queued
        closed = run_crawl(tmp_path, *args, "-s", "CLOSESPIDER_PAGECOUNT=3", name="closed")
        resumed = run_crawl(tmp_path, *args, name="resumed")
    finally:
        site.stop()
    assert closed.stats["finish_reason"] == "closespider_pagecount", closed.log
    assert closed.stats["newsstem/depth/limit_pages"] >= 1 and closed.items == []
    assert "no article within depth" not in closed.log, closed.log
    # the limit in words, and how many pages were left: the ones the resumed run fetches
    [line] = [x for x in closed.log.splitlines() if x.startswith("  closed early by ")]
    fetched = resumed.stats["newsstem/summary/pages"]
    left = "1 request still queued was not" if fetched == 1 else f"{fetched} requests still queued were not"
    assert line == ("  closed early by CLOSESPIDER_PAGECOUNT=3 (closing after 3 responses, "
                    f"robots.txt and error pages included): {left} fetched; they are kept in "
                    f"JOBDIR {tmp_path / 'job'}, and the next run with the same JOBDIR resumes "
                    "them"), line
    assert "closed early" not in resumed.log, resumed.log
    assert resumed.stats["finish_reason"] == "finished" and resumed.items == [], resumed.log
    assert "request_depth_max" not in resumed.stats  # (no request made: only the queue's)
    pages = resumed.stats["newsstem/depth/limit_pages"]
    assert pages + closed.stats["newsstem/depth/limit_pages"] == 3
    assert (f"  no article within depth 1: the links of the {pages} pages at that depth"
            if pages > 1 else "  no article within depth 1: the links of the page at that"
            ) in resumed.log, resumed.log
    assert "(-a depth=2 goes one level deeper" in resumed.log


def test_a_crawl_closed_early_without_jobdir_says_its_queue_was_dropped_and_what_a_rerun_does(
        tmp_path):
    """Closed by CLOSESPIDER_ITEMCOUNT or _TIMEOUT, a crawl's summary named the reason only in
    its header, "(closespider_itemcount, 2.0 s)": not the limit, nor that pages were left.
    Without JOBDIR the queue is dropped; a re-run starts from the start pages again, and
    its URL store (when it has one) skips the articles the closed run exported."""
    site = GeneratedNewsSite(sections=3, articles_per_section=4, delay=0.2).start()
    store = {"NEWSSTEM_URLDB": f"sqlite:///{tmp_path / 'urldb.sqlite'}"}
    args = ("-a", f"start_url={site.url}/", "-a", "depth=2", "-s", "CONCURRENT_REQUESTS=1")
    try:
        first = run_crawl(tmp_path, *args, "-s", "CLOSESPIDER_ITEMCOUNT=2", settings=store,
                          name="first")
        site.hits.clear()
        again = run_crawl(tmp_path, *args, "-s", "CLOSESPIDER_ITEMCOUNT=2", settings=store,
                          name="again")
        rerun = set(site.hits)
        timed = run_crawl(tmp_path, *args, "-s", "CLOSESPIDER_TIMEOUT=1", name="timed")
    finally:
        site.stop()
    assert first.stats["finish_reason"] == "closespider_itemcount" and first.items, first.log
    [line] = [x for x in first.log.splitlines() if x.startswith("  closed early by ")]
    assert re.fullmatch(
        r"  closed early by CLOSESPIDER_ITEMCOUNT=2 \(closing after 2 articles\): \d+ requests "
        r"still queued were not fetched, and were dropped; a re-run starts again from the "
        r"start pages \(the URL store skips the articles exported so far, the other pages "
        r"are fetched again; -s JOBDIR=DIR keeps the queue of a closed crawl\); give that run "
        r"-o \S+/first\.jsonl instead of -O \(or another file\): -O empties it of this run's "
        r"articles, which the URL store will not export again", line), line
    # what the line says of a re-run holds: the hubs again, none of the articles exported
    assert site.hub_paths() <= rerun
    assert not rerun & {item["url"][len(site.url):] for item in first.items}
    assert again.stats["newsstem/urldb/skipped"] == len(first.items), again.log
    # no URL store: nothing is skipped
    assert timed.stats["finish_reason"] == "closespider_timeout", timed.log
    [line] = [x for x in timed.log.splitlines() if x.startswith("  closed early by ")]
    assert line.startswith("  closed early by CLOSESPIDER_TIMEOUT=1 (closing 1 s after the "
                           "start): "), line
    assert line.endswith(", and were dropped; a re-run starts again from the start pages (its "
                         "pages are fetched again; -s JOBDIR=DIR keeps the queue of a closed "
                         "crawl)"), line


def test_the_closed_early_line_of_a_queue_that_ran_out_an_unknown_one_or_a_shared_one():
    closed = {"finish_reason": "closespider_pagecount"}

    def line(**given):
        found = [x for x in summarize(closed, 3, **given).lines() if "closed early" in x]
        return found[0] if found else None

    head = ("  closed early by CLOSESPIDER_PAGECOUNT=3 (closing after 3 responses, robots.txt "
            "and error pages included)")
    assert line(close_limit="3", queued=0) == f"{head}: no request was still queued, none was dropped"
    assert line(close_limit="3", jobdir="j").startswith(  # (start requests unread)
        f"{head}: pages were left unfetched; they are kept in JOBDIR j")
    assert line(close_limit="3", jobdir=None, queued=5) == head  # a worker's queue is shared
    assert line() is None  # (the limit not known: the header alone, as before)


@pytest.mark.parametrize("setting, value, said", [
    ("CLOSESPIDER_PAGECOUNT", 1234567, "1234567"),  # (":g" said 1.23457e+06: another limit)
    ("CLOSESPIDER_PAGECOUNT", "1000000", "1000000"),  # (1e+06)
    ("CLOSESPIDER_TIMEOUT", 1209600, "1209600"),  # two weeks (1.2096e+06)
    ("CLOSESPIDER_TIMEOUT", "0.5", "0.5"),
])
def test_the_closed_early_line_names_the_limit_as_it_was_given(setting, value, said):
    reason = setting.lower()
    limit = close_limit(Settings({setting: value}), reason)
    [line] = [x for x in summarize({"finish_reason": reason}, 3, close_limit=limit).lines()
              if "closed early" in x]
    assert line.startswith(f"  closed early by {setting}={said} ("), line


def test_a_worker_that_exported_articles_or_skipped_known_ones_says_nothing_of_its_depth():
    # an article page at depth 2 of a depth-2 message is at the limit too: every worker
    # that exported something has such pages, a line of them would be noise
    worker = {"finish_reason": "idle", "newsstem/depth/limit_pages": 4, "newsstem/depth/limit": 2}
    said = "depth limit reached"
    assert any(said in x for x in summarize(worker, 5, jobdir=None).lines())
    for more in ({"item_scraped_count": 1}, {"newsstem/urldb/skipped": 3}):
        assert not any(said in x for x in summarize({**worker, **more}, 5, jobdir=None).lines())
    assert not any(said in x for x in summarize(worker, 5, jobdir="").lines())  # one process


def test_pages_refused_by_robots_txt_are_not_counted_as_errors(tmp_path, site):
    # Scrapy counts the IgnoreRequest of a robots.txt refusal (and of the offsite middleware)
    # as a downloader exception: the summary must not report it as a download error too.
    result = run_crawl(tmp_path, "-a", f"start_url={site.url}/index.html")
    assert result.returncode == 0, result.log
    assert result.stats["robotstxt/forbidden"] >= 1
    assert result.stats["downloader/exception_type_count/scrapy.exceptions.IgnoreRequest"] >= 1
    assert result.stats["newsstem/summary/errors"] == 0
    assert "  errors: 0\n" in result.log
    assert f"  robots.txt refused: {result.stats['robotstxt/forbidden']}" in result.log


def test_a_crawler_that_failed_while_being_built_has_no_report_and_no_second_traceback():
    # Scrapy logs why the spider could not be made; asking the crawler for an extension
    # then raised a RuntimeError of its own ("can only be called after the extension
    # manager has been created"), a second traceback hiding the first
    command = CrawlCommand()
    command._crawler = Crawler(Spider)  # made, never started: no extension manager yet
    assert command._run_report() is None


def test_a_start_page_redirecting_off_the_site_is_a_run_that_reached_nothing(tmp_path):
    # Scrapy's OffsiteMiddleware drops the redirect: no error, no robots.txt refusal, no
    # page; the run was judged idle ("no request was made") and exited 0 without a word
    assert summarize({"offsite/filtered": 1}, pages=0).outcome == "nothing_reached"
    assert "  redirected off the site: 1" in summarize({"offsite/filtered": 1}, pages=0).lines()

    class Away(BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(404 if self.path == "/robots.txt" else 301)
            self.send_header("Location", "http://localhost:1/")  # another host: off the site
            self.end_headers()

        def log_message(self, format, *args):
            pass

    server = serve(Away)
    try:
        result = run_crawl(tmp_path, "-a", f"start_url=http://127.0.0.1:{server.server_port}/")
    finally:
        shut_down(server)
    assert result.returncode == EXIT_NOTHING_REACHED, result.log
    assert "(0 errors, 0 refused by robots.txt, 1 redirected off the site)" in result.log


def test_a_run_that_exports_nothing_because_all_was_known_says_how_to_export_again():
    # Getting started: crawl, learn, crawl again. The second crawl exported nothing (the
    # URL store remembered the first one's articles) and its summary said only
    # "articles exported: 0 ... known URLs skipped (URL store): 16"
    known = {"finish_reason": "finished", "newsstem/urldb/skipped": 16,
             "newsstem/dropped/hub_layout": 1}
    hint = ("  nothing new: the articles found were exported by earlier runs "
            "(-a refresh=1 exports them again)")
    assert hint in summarize(known, pages=1).lines()
    assert hint not in summarize(FINISHED, pages=13).lines()  # it exported some
    assert hint not in summarize({"finish_reason": "finished"}, pages=1).lines()


def test_a_crawl_with_no_feed_says_its_articles_are_in_no_file(tmp_path, site):
    # a scrapyd job scheduled as docs/unattended.md's first example (no FEEDS, scrapyd's
    # items_dir empty by default) said "articles exported: 24" and wrote them nowhere
    line = "  written to no file: the crawl had no feed output (-o/-O or FEEDS"
    result = scrapy("crawl", "news", "-a", f"start_url={site.url}/index.html")
    assert result.returncode == 0, result.stderr
    summary = result.stderr[result.stderr.index("newsstem run summary"):]
    exported, written = summary.splitlines()[1:3]
    assert exported.startswith("  articles exported: ") and exported != "  articles exported: 0"
    assert written.startswith(line), summary
    # a pipeline storing the articles, or a feed: no such line
    stored = scrapy("crawl", "news", "-a", f"start_url={site.url}/index.html",
                    settings={"NEWSSTEM_URLDB_MARK_AFTER": "item_scraped"})
    assert "newsstem run summary" in stored.stderr and line not in stored.stderr
    fed = run_crawl(tmp_path, "-a", f"start_url={site.url}/index.html")
    assert fed.items and "newsstem run summary" in fed.log and line not in fed.log


@pytest.mark.filterwarnings("ignore:The `FEED_URI`")
def test_a_feed_of_scrapys_deprecated_feed_uri_is_a_feed():
    # Scrapy 2.19 still exports to FEED_URI (a crawl given -s FEED_URI=out.jl wrote its
    # articles, and the summary said "written to no file")
    def no_feed(settings: dict) -> bool:
        return RunReport.from_crawler(get_crawler(settings_dict=settings)).no_feed

    assert no_feed({})
    assert not no_feed({"FEED_URI": "out.jl", "FEED_FORMAT": "jsonlines"})
    assert not no_feed({"FEEDS": {"out.jl": {"format": "jsonlines"}}})
    assert not no_feed({"NEWSSTEM_URLDB_MARK_AFTER": "item_scraped"})


def test_a_crawl_without_a_url_store_has_no_line_about_it(tmp_path, site):
    # a new user's crawl with -s NEWSSTEM_URLDB= read "known URLs skipped (URL store): 0",
    # as if a store had been asked and found nothing known
    line = "  known URLs skipped (URL store): "
    assert not any(x.startswith(line) for x in summarize(FINISHED, 13, url_store=False).lines())
    without = run_crawl(tmp_path, "-a", f"start_url={site.url}/index.html", name="without")
    assert without.returncode == 0 and without.items, without.log
    assert "newsstem run summary (finished" in without.log and line not in without.log
    store = f"sqlite:///{tmp_path / 'urldb.sqlite'}"
    stored = run_crawl(tmp_path, "-a", f"start_url={site.url}/index.html", name="with",
                       settings={"NEWSSTEM_URLDB": store})
    assert stored.returncode == 0, stored.log
    assert f"{line}0" in stored.log


def test_a_stopped_crawl_whose_queue_was_empty_says_nothing_was_dropped():
    stopped = {"finish_reason": "shutdown"}
    for jobdir in ("", "crawls/site-1"):
        lines = summarize(stopped, pages=3, jobdir=jobdir, queued=0).lines()
        assert ("  stopped before its end (Ctrl-C or SIGTERM): no request was still queued, "
                "none was dropped") in lines
    # not known (start requests unread) or some left: what happened to them
    assert any("still queued were dropped" in x for x in summarize(stopped, 3).lines())
    assert any("kept in JOBDIR j" in x for x in summarize(stopped, 3, jobdir="j", queued=2).lines())


def test_start_read_says_the_start_requests_ended_as_the_engine_sees_them_end():
    """A stop mid-start drops the start requests not read: only their end (or the error
    that ends them, after which the engine reads no further) counts as read."""
    import asyncio

    from newsstem.operations import StartRead

    async def start(fail: bool):
        yield "a"
        yield "b"
        if fail:
            raise ValueError("a broken start")

    async def read(middleware: StartRead, fail: bool = False, stop: bool = False) -> None:
        wrapped = middleware.process_start(start(fail))
        try:
            async for _ in wrapped:
                if stop:
                    await wrapped.aclose()  # a stop after the first: no more are read
                    return
        except ValueError:
            pass

    for kwargs, read_to_end in (({}, True), ({"fail": True}, True), ({"stop": True}, False)):
        middleware = StartRead()
        asyncio.run(read(middleware, **kwargs))
        assert middleware.read is read_to_end, kwargs


def test_a_stopped_crawl_resumed_by_the_same_command_keeps_the_articles_of_its_o_file(tmp_path):
    """A crawl stopped with its queue kept in JOBDIR says "the same command resumes them";
    run again with its -O file, the resumed crawl emptied that file of the articles
    exported before the stop, which the URL store had marked exported: lost for good.
    Resuming, an -O JSON Lines file is appended to, so the two runs make the whole crawl."""
    site = GeneratedNewsSite(sections=2, articles_per_section=4, delay=0.05).start()
    # one -O file (run_crawl's crawl.jsonl) for the three runs, each with a log of its own
    store = {"NEWSSTEM_URLDB": f"sqlite:///{tmp_path / 'urldb.sqlite'}",
             "LOG_FILE_APPEND": "False"}
    args = ("-a", f"start_url={site.url}/", "-a", "depth=2", "-s", f"JOBDIR={tmp_path / 'job'}",
            "-s", "CONCURRENT_REQUESTS=1")
    try:
        stopped = run_crawl(tmp_path, *args, "-s", "CLOSESPIDER_ITEMCOUNT=2", settings=store)
        resumed = run_crawl(tmp_path, *args, settings=store)
        # a crawl that resumes nothing (its queue ran out) still overwrites, as -O says
        again = run_crawl(tmp_path, *args, settings=store)
    finally:
        site.stop()
    assert stopped.stats["finish_reason"] == "closespider_itemcount", stopped.log
    assert 2 <= len(stopped.items) < len(site.article_urls()), stopped.log
    assert "the next run with the same JOBDIR resumes them" in stopped.log, stopped.log
    urls = [item["url"] for item in resumed.items]
    assert sorted(urls) == sorted(site.article_urls()), resumed.log
    assert "Overwriting" not in resumed.log, resumed.log
    assert "give that run -o" not in stopped.log, stopped.log  # the same command is right
    assert f"appending to {tmp_path / 'crawl.jsonl'} (-O) instead of emptying it" in resumed.log
    assert again.items == [] and "appending to" not in again.log, again.log


def test_a_stopped_crawl_without_jobdir_says_how_to_run_again_without_losing_its_articles(
        tmp_path):
    """Stopped without JOBDIR, a crawl said "the same command starts again from the start
    pages": the same command's -O emptied the file of the articles this run exported, which
    the URL store then skipped. Its summary now says to give that run -o, and -o keeps them."""
    site = GeneratedNewsSite(sections=2, articles_per_section=4, delay=0.05).start()
    store = {"NEWSSTEM_URLDB": f"sqlite:///{tmp_path / 'urldb.sqlite'}"}
    args = ("-a", f"start_url={site.url}/", "-a", "depth=2", "-s", "CONCURRENT_REQUESTS=1")
    try:
        stopped = run_crawl(tmp_path, *args, "-s", "CLOSESPIDER_ITEMCOUNT=2", settings=store,
                            name="stopped")
        [line] = [x for x in stopped.log.splitlines() if x.startswith("  closed early by ")]
        output = tmp_path / "stopped.jsonl"
        assert line.endswith(f"; give that run -o {output} instead of -O (or another file): -O "
                             "empties it of this run's articles, which the URL store will not "
                             "export again"), line
        # as the line says: the same command with -o
        again = run_crawl(tmp_path, *args, settings=store, name="stopped", append=True)
    finally:
        site.stop()
    assert sorted(item["url"] for item in again.items) == sorted(site.article_urls()), again.log


@pytest.mark.parametrize("store", [False, True])
def test_a_resumed_crawl_keeps_the_stopped_crawls_json_o_file_aside(tmp_path, store):
    """A crawl resumed from its JOBDIR does not fetch again what the stopped crawl fetched
    (JOBDIR's seen requests). Its -O JSON file, which cannot be appended to, was emptied:
    without a URL store with no word at all, the stopped crawl's articles were lost. It is
    now moved aside (crawl.1.json), and the two files hold every article once."""
    site = GeneratedNewsSite(sections=2, articles_per_section=4, delay=0.05).start()
    settings = {"LOG_FILE_APPEND": "False"}
    if store:
        settings["NEWSSTEM_URLDB"] = f"sqlite:///{tmp_path / 'urldb.sqlite'}"
    output = tmp_path / "crawl.json"
    args = ("-a", f"start_url={site.url}/", "-a", "depth=2", "-s", f"JOBDIR={tmp_path / 'job'}",
            "-s", "CONCURRENT_REQUESTS=1", "-O", str(output))
    try:
        stopped = run_crawl(tmp_path, *args, "-s", "CLOSESPIDER_ITEMCOUNT=2", settings=settings)
        first = [item["url"] for item in json.loads(output.read_text())]
        resumed = run_crawl(tmp_path, *args, settings=settings)
    finally:
        site.stop()
    assert stopped.stats["finish_reason"] == "closespider_itemcount", stopped.log
    assert 2 <= len(first) < len(site.article_urls()), stopped.log
    assert "another -O file than" not in stopped.log, stopped.log  # the same command keeps it
    aside = tmp_path / "crawl.1.json"
    assert aside.exists(), resumed.log
    assert [item["url"] for item in json.loads(aside.read_text())] == first
    second = [item["url"] for item in json.loads(output.read_text())]
    assert sorted(first + second) == sorted(site.article_urls()), resumed.log
    assert (f"{output} (-O, json) cannot be appended to (a second JSON array, XML document or "
            f"CSV header), so the articles the stopped crawl wrote there are kept in {aside}"
            ) in resumed.log, resumed.log
    assert "Overwriting" not in resumed.log, resumed.log


class _AllowedOrNot(BaseHTTPRequestHandler):
    """A site whose home page links to a 404, a 500, a redirect to an article, a page
    robots.txt forbids and a redirect off the site; /only-gone.html answers 404 alone."""

    def do_GET(self):
        port = self.server.server_port
        routes = {
            "/robots.txt": (200, "User-agent: *\nDisallow: /private/\n"),
            "/index.html": (200, "<html><body><h1>Home</h1>" + "".join(
                f"<a href='/{page}'>{page}</a>" for page in (
                    "gone.html", "broken.html", "moved.html", "private/page.html",
                    "away.html")) + "</body></html>"),
            "/story.html": (200, "<html><body><p>A story.</p></body></html>"),
            "/moved.html": (301, f"http://127.0.0.1:{port}/story.html"),
            "/away.html": (302, "http://localhost:1/"),  # another host: off the site
            "/broken.html": (500, "<html><body><h1>Server error</h1></body></html>"),
        }
        status, text = routes.get(self.path, (404, "<html><body><h1>Gone</h1></body></html>"))
        self.send_response(status)
        if 300 <= status < 400:
            self.send_header("Location", text)
            text = ""
        self.send_header("Content-Type", "text/plain" if self.path == "/robots.txt"
                         else "text/html; charset=utf-8")
        self.end_headers()
        self.wfile.write(text.encode())

    def log_message(self, format, *args):
        pass


def _summary(log: str) -> list[str]:
    return log[log.index("newsstem run summary"):].split("\n\n", 1)[0].splitlines()


def test_an_allowed_status_is_a_page_not_an_error_and_an_unwanted_one_still_is(tmp_path):
    # HTTPERROR_ALLOWED_CODES=404: the 404 reached the spider, yet the summary said
    # "errors: 1 (HTTP: 404 1)" (every 4xx/5xx response counted), and a crawl whose only
    # page was an allowed 404 exited with status 3, "the crawl reached nothing"
    server = serve(_AllowedOrNot)
    site = f"http://127.0.0.1:{server.server_port}"
    try:
        mixed = run_crawl(tmp_path, "-a", f"start_url={site}/index.html", name="mixed",
                          settings={"HTTPERROR_ALLOWED_CODES": "404", "RETRY_TIMES": "1"})
        only = {
            setting: run_crawl(tmp_path, "-a", f"start_url={site}/only-gone.html",
                               name=setting or "none",
                               settings={setting: value} if setting else {})
            for setting, value in (("HTTPERROR_ALLOWED_CODES", "404,410"),
                                   ("HTTPERROR_ALLOW_ALL", "True"), (None, None))
        }
    finally:
        shut_down(server)
    assert mixed.returncode == 0, mixed.log
    lines = _summary(mixed.log)
    # the 500 stays an error, each attempt (retried once), and a request failed for good
    assert "  errors: 2 (HTTP: 500 2)" in lines, lines
    assert "  requests failed: 1 (http_500 1)" in lines, lines
    # the home page, the allowed 404 and the article the redirect led to
    assert "  pages fetched: 3 (allowed HTTP statuses: 404 1)" in lines, lines
    # a redirect, a page robots.txt forbids and a redirect off the site: as before
    assert "  robots.txt refused: 1" in lines and "  redirected off the site: 1" in lines
    stats = mixed.stats
    assert stats["newsstem/summary/errors"] == 2 and stats["newsstem/summary/pages"] == 3
    assert stats["newsstem/allowed/http_404"] == 1 and "newsstem/errors/http_404" not in stats
    assert stats["newsstem/summary/outcome"] == "ok"
    for setting in ("HTTPERROR_ALLOWED_CODES", "HTTPERROR_ALLOW_ALL"):
        allowed = only[setting]
        assert allowed.returncode == 0, allowed.log
        assert "the crawl reached nothing" not in allowed.log
        lines = _summary(allowed.log)
        assert "  pages fetched: 1 (allowed HTTP statuses: 404 1)" in lines, lines
        assert "  errors: 0" in lines, lines
        assert allowed.stats["newsstem/summary/outcome"] == "ok"
    refused = only[None]  # not allowed: the crawl failed
    assert refused.returncode == EXIT_NOTHING_REACHED, refused.log
    assert "  errors: 1 (HTTP: 404 1)" in _summary(refused.log)
    assert refused.stats["newsstem/summary/outcome"] == "nothing_reached"
