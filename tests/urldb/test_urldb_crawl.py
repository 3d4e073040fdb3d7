"""The URL store in real crawls: `scrapy crawl news` subprocesses against a generated site.

Site (tests/support/newssite.py): / → /section/{0,1,2}/ → /{s}/{n}.html, 18
articles of 330+ unique words, recognised by the real extraction pipeline.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import subprocess
import sys

import pytest

from newsstem.urldb import open_store, url_key
from support.crawl import REPO, TEST_SETTINGS, CrawlResult, run_crawl
from support.crawlprocess import start_crawl
from support.memoryprobe import probe_settings
from support.newssite import GeneratedNewsSite, TeaserSectionsSite
from support.redisserver import free_port


def crawl(tmp_path, site, uri, name, *args, **settings):
    return run_crawl(
        tmp_path,
        "-a",
        f"start_url={site.url}/",
        "-a",
        "depth=2",
        *args,
        settings={"NEWSSTEM_URLDB": uri, **settings},
        name=name,
    )


def urldb_stats(result) -> dict:
    """The URL store's counters (its busy time aside)."""
    return {
        k.removeprefix("newsstem/urldb/"): v
        for k, v in result.stats.items()
        if "urldb" in k and not k.endswith("busy_seconds")
    }


def test_recurring_crawls_export_each_article_once_and_fetch_only_hubs_again(
    tmp_path, news_site, store_uri
):
    hubs = news_site.hub_paths() | {"/robots.txt"}
    first = crawl(tmp_path, news_site, store_uri, "first")
    assert first.returncode == 0, first.log
    assert first.item_urls() == news_site.article_urls()
    assert urldb_stats(first) == {"new": 22, "exported": 18, "syncs": 1}

    news_site.clear()
    second = crawl(tmp_path, news_site, store_uri, "second")
    assert second.returncode == 0, second.log
    assert second.items == []
    assert sorted(news_site.paths()) == sorted(hubs), "only hubs are fetched again"
    assert urldb_stats(second) == {"skipped": 18}

    news_site.clear()
    added = news_site.add_article(section=1)
    third = crawl(tmp_path, news_site, store_uri, "third")
    assert third.returncode == 0, third.log
    assert third.item_urls() == {news_site.url + added}
    assert sorted(news_site.paths()) == sorted(hubs | {added})
    assert urldb_stats(third) == {"new": 1, "exported": 1, "skipped": 18, "syncs": 1}

    news_site.clear()
    fourth = crawl(tmp_path, news_site, store_uri, "fourth")
    assert fourth.items == []
    assert added not in news_site.paths()

    with open_store(store_uri) as store:
        stats = store.stats()
        entries = store.lookup([url_key(u) for u in news_site.article_urls()])
    # URLs (19 articles, 4 hubs) and the 19 articles' text entries (newsstem.urldb.text_key)
    assert (stats.entries, stats.urls, stats.articles, stats.texts) == (23 + 19, 23, 19, 19)
    assert len(entries) == 19 and all(e.exported_at for e in entries.values())


def test_refresh_exports_again_and_an_empty_uri_switches_the_store_off(tmp_path, news_site):
    uri = f"sqlite:///{tmp_path / 'urldb.sqlite'}"
    assert crawl(tmp_path, news_site, uri, "first").returncode == 0
    again = crawl(tmp_path, news_site, uri, "first", "-a", "refresh=1")  # -O on the same file
    assert again.item_urls() == news_site.article_urls()
    assert "Overwriting" in again.log and "first.jsonl" in again.log
    assert urldb_stats(again)["exported"] == 18 and "skipped" not in urldb_stats(again)
    off = crawl(tmp_path, news_site, "", "off")
    assert off.item_urls() == news_site.article_urls()
    assert urldb_stats(off) == {}
    # switched off on purpose: said at INFO, not as a warning at every run
    assert "INFO: newsstem: no URL store (NEWSSTEM_URLDB is empty)" in off.log
    assert "WARNING" not in off.log, off.log


def test_an_exported_start_page_is_fetched_but_not_exported_again(tmp_path, news_site):
    uri = f"sqlite:///{tmp_path / 'urldb.sqlite'}"
    article = f"{news_site.url}/0/0.html"
    args = ("-a", f"start_url={article}", "-a", "depth=0")
    first = run_crawl(tmp_path, *args, settings={"NEWSSTEM_URLDB": uri}, name="first")
    assert first.item_urls() == {article}
    news_site.clear()
    second = run_crawl(tmp_path, *args, settings={"NEWSSTEM_URLDB": uri}, name="second")
    assert second.returncode == 0, second.log
    assert "/0/0.html" in news_site.paths()  # start pages are always fetched
    assert second.items == []
    assert urldb_stats(second) == {"withheld": 1}


def test_a_url_redirected_to_an_exported_article_is_not_fetched_again(tmp_path, news_site):
    uri = f"sqlite:///{tmp_path / 'urldb.sqlite'}"
    news_site.redirects["/moved/7.html"] = "/1/77.html"  # an article listed nowhere else
    news_site.home_links.append("/moved/7.html")
    first = crawl(tmp_path, news_site, uri, "first")
    assert f"{news_site.url}/1/77.html" in first.item_urls()
    news_site.clear()
    second = crawl(tmp_path, news_site, uri, "second")
    assert second.items == []
    assert "/moved/7.html" not in news_site.paths()
    assert urldb_stats(second)["skipped"] == 19


def test_skipped_counts_urls_exported_by_earlier_crawls_once_each(tmp_path, news_site):
    # stop 33: it counted links, once per link, also those to articles of the same crawl
    uri = f"sqlite:///{tmp_path / 'urldb.sqlite'}"
    news_site.home_links += ["/0/0.html", "/1/0.html"]  # linked from their sections too
    first = crawl(tmp_path, news_site, uri, "first")
    assert first.item_urls() == news_site.article_urls()
    assert "skipped" not in urldb_stats(first)
    assert "known URLs skipped (URL store): 0" in first.log
    news_site.clear()
    second = crawl(tmp_path, news_site, uri, "second")
    assert second.items == []
    assert urldb_stats(second)["skipped"] == 18  # 20 links to 18 articles
    assert "known URLs skipped (URL store): 18" in second.log


def test_exports_are_marked_when_durable_in_every_feed(tmp_path, news_site):
    uri = f"sqlite:///{tmp_path / 'urldb.sqlite'}"
    feeds = {
        str(tmp_path / "copy.jsonl"): {"format": "jsonlines"},
        str(tmp_path / "all.json"): {"format": "json"},
    }
    result = crawl(tmp_path, news_site, uri, "main", FEEDS=json.dumps(feeds))
    assert result.returncode == 0, result.log
    assert "copy.jsonl are marked exported every 100 articles" in result.log
    assert "all.json are marked exported when the crawl has finished" in result.log
    assert len(json.loads((tmp_path / "all.json").read_text())) == 18
    assert len((tmp_path / "copy.jsonl").read_text().splitlines()) == 18
    assert urldb_stats(result)["exported"] == 18
    with open_store(uri) as store:
        assert (store.stats().articles, store.stats().texts) == (18, 18)


def test_without_a_feed_nothing_is_marked_exported(tmp_path, news_site):
    uri = f"sqlite:///{tmp_path / 'urldb.sqlite'}"
    args = ("-a", f"start_url={news_site.url}/", "-a", "depth=2")
    no_feed = start_crawl(
        tmp_path, *args, settings={"NEWSSTEM_URLDB": uri}, name="nofeed", output_option=None
    )
    assert no_feed.wait() == 0
    assert "no feed output" in no_feed.log()
    assert no_feed.stats()["newsstem/urldb/unmarked"] == 18
    with_feed = crawl(tmp_path, news_site, uri, "feed")
    assert with_feed.item_urls() == news_site.article_urls()
    pipeline_marks = crawl(
        tmp_path,
        news_site,
        uri,
        "scraped",
        "-a",
        "refresh=1",
        NEWSSTEM_URLDB_MARK_AFTER="item_scraped",
    )
    assert urldb_stats(pipeline_marks)["exported"] == 18


def _not_a_store(tmp_path):
    path = tmp_path / "other.sqlite"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE people (name TEXT)")
    db.commit()
    db.close()
    return f"sqlite:///{path}"


def _corrupt(tmp_path):
    path = tmp_path / "corrupt.sqlite"
    path.write_bytes(b"SQLite format 3\x00" + b"\xde\xad\xbe\xef" * 2000)
    return f"sqlite:///{path}"


def _under_a_file(tmp_path):
    (tmp_path / "file").write_text("x")
    return f"sqlite:///{tmp_path / 'file' / 'urldb.sqlite'}"  # its directory cannot exist


BAD_STORES = {
    "unwritable path": (_under_a_file, "cannot create the directory"),
    "corrupt file": (_corrupt, "may be corrupt"),
    "another database": (_not_a_store, "not a newsstem URL store"),
    "unreachable redis": (lambda t: f"redis://127.0.0.1:{free_port()}/0", "cannot reach"),
    "unknown scheme": (lambda t: "mysql://db/urls", "is not one newsstem knows"),
    "bare path": (lambda t: "urldb.sqlite", "is not one newsstem knows"),
    "unknown scheme, password": (  # the password of another database kept out of the log
        lambda t: "postgres://user:secret@127.0.0.1/db",
        "'postgres://user:***@127.0.0.1/db' is not one newsstem knows",
    ),
    "port not a number": (lambda t: "redis://127.0.0.1:port/0", "port is not a number"),
    "port not a number, password": (
        lambda t: "redis://:s3cret@127.0.0.1:port/0", "redis://:***@127.0.0.1:port/0"
    ),
}


@pytest.mark.parametrize("case", sorted(BAD_STORES))
def test_a_bad_store_fails_at_start_with_one_clear_error(tmp_path, news_site, case):
    make, message = BAD_STORES[case]
    uri = make(tmp_path)
    before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    result = crawl(tmp_path, news_site, uri, "bad")
    assert result.returncode == 1
    errors = [line for line in result.log.splitlines() if "error" in line.lower()]
    # the one line on stderr, and its copy in the job's LOG_FILE (a scrapyd job's log)
    assert len(errors) == 2 and errors[1].startswith("newsstem: URL store error:"), result.log
    assert errors[0].endswith(f" [newsstem] ERROR: {errors[1]}")
    assert message in errors[1]
    assert news_site.paths() == [], "nothing may be fetched"
    assert not result.output.exists()
    for path, content in before.items():
        assert path.read_bytes() == content, f"{path.name} was modified"


def test_bad_urldb_arguments_are_usage_errors(tmp_path, news_site):
    uri = f"sqlite:///{tmp_path / 'urldb.sqlite'}"
    result = crawl(tmp_path, news_site, uri, "bad", "-a", "refresh=maybe")
    assert result.returncode == 2
    assert "refresh must be 1/0" in result.log
    assert news_site.paths() == []
    sync = crawl(tmp_path, news_site, uri, "bad2", NEWSSTEM_URLDB_SYNC_ITEMS="many")
    assert sync.returncode == 2  # one line quoting the value, as for the other settings
    said = "scrapy: error: NEWSSTEM_URLDB_SYNC_ITEMS must be a whole number, not 'many'"
    lines = sync.log.strip().splitlines()  # the job's LOG_FILE, then stderr
    assert len(lines) == 2, sync.log
    assert lines[0].endswith(f" [newsstem] ERROR: {said}")
    assert lines[1] == f"{said} (see scrapy crawl -h)"


def test_a_crawl_does_not_start_while_prune_holds_the_store(tmp_path, news_site, store_uri):
    with open_store(store_uri) as store, store.lease(exclusive=True):
        result = crawl(tmp_path, news_site, store_uri, "blocked")
    assert result.returncode == 1
    assert "being pruned" in result.log
    assert news_site.paths() == []


def test_two_crawls_sharing_one_store_lose_no_marks(tmp_path, store_uri):
    site = GeneratedNewsSite(sections=4, articles_per_section=15, delay=0.01, seed=7).start()
    try:
        args = ("-a", f"start_url={site.url}/", "-a", "depth=2")
        settings = {"NEWSSTEM_URLDB": store_uri, "NEWSSTEM_URLDB_SYNC_ITEMS": "5"}
        crawls = [start_crawl(tmp_path, *args, settings=settings, name=f"c{i}") for i in range(2)]
        assert [c.wait() for c in crawls] == [0, 0], crawls[0].log() + crawls[1].log()
        outputs = [set(c.urls()) for c in crawls]
        assert outputs[0] | outputs[1] == site.article_urls()
        for c, urls in zip(crawls, outputs):
            stats = c.stats()
            assert stats.get("newsstem/urldb/exported", 0) == len(urls)
            assert "newsstem/urldb/errors" not in stats and "newsstem/urldb/unmarked" not in stats
        with open_store(store_uri) as store:
            entries = store.lookup([url_key(u) for u in site.article_urls()])
            stats = store.stats()
            if store_uri.startswith("sqlite"):
                assert store.integrity_check() == "ok"
        assert len(entries) == 60 and all(e.exported_at for e in entries.values())
        assert (stats.entries, stats.articles, stats.texts) == (65 + 60, 60, 60)
    finally:
        site.stop()


def _exported_articles(result, site) -> list[str]:
    """The article each exported item is (its canonical URL, else its own), one per item."""
    return sorted(item.get("canonical_url") or item["url"] for item in result.items)


def test_share_and_print_copies_of_an_article_are_exported_once_across_crawls(tmp_path):
    site = GeneratedNewsSite(sections=3, articles_per_section=6, copies=True).start()
    try:
        uri = f"sqlite:///{tmp_path / 'store' / 'urldb.sqlite'}"
        copy, original = f"{site.url}/print/0/1.html", f"{site.url}/0/1.html"
        # a copy first: its article, exported under the copy's URL, stands for the original
        first = crawl(tmp_path, site, uri, "first", "-a", f"start_url={copy} {site.url}/",
                      "-a", "depth=3")
        assert first.returncode == 0, first.log
        assert _exported_articles(first, site) == sorted(site.article_urls())
        assert copy in first.item_urls() and original not in first.item_urls()
        assert not any("share=" in url for url in first.item_urls())
        assert first.stats["newsstem/links/cleaned"] >= 18
        assert first.stats["newsstem/dropped/duplicate"] >= 18  # the print copies, the original
        assert "/0/1.html" in site.paths()

        site.clear()
        second = crawl(tmp_path, site, uri, "second", "-a", f"start_url={copy} {site.url}/",
                       "-a", "depth=3")
        assert second.returncode == 0, second.log
        assert second.items == []
        fetched = set(site.paths()) - site.hub_paths() - {"/robots.txt"}
        assert fetched == {"/print/0/1.html"}, "the start page only: copies and originals known"
        # the 18 articles, and the start page (its own print link) exported before
        assert urldb_stats(second) == {"skipped": 19, "withheld": 1}
    finally:
        site.stop()


def test_copies_are_exported_once_without_a_store_or_link_cleaning(tmp_path):
    site = GeneratedNewsSite(sections=3, articles_per_section=6, copies=True).start()
    try:
        result = crawl(tmp_path, site, "", "once", "-a", "depth=3",
                       NEWSSTEM_TRACKING_PARAMS="[]")
        assert result.returncode == 0, result.log
        assert _exported_articles(result, site) == sorted(site.article_urls())
        assert result.stats["newsstem/dropped/duplicate"] >= 18
        # the copies dropped are not counted as exports by method (stop 34's trial: the
        # summary said "articles exported: 54 (readability 64)")
        assert result.stats["newsstem/method/readability"] == len(result.items) == 18
        assert "  articles exported: 18 (readability 18)" in result.log
    finally:
        site.stop()


@pytest.mark.parametrize("metadata", ["True", "False"])
def test_an_original_reached_by_a_later_crawl_than_its_exported_copy_is_not_exported_again(
    tmp_path, metadata
):
    # the copy's article was exported; the original, reached only by the next crawl, was
    # exported again (its URL unknown to the store); with no metadata, copies were not known
    site = GeneratedNewsSite(sections=3, articles_per_section=6, copies=True).start()
    try:
        uri = f"sqlite:///{tmp_path / 'store' / 'urldb.sqlite'}"
        copy, original = f"{site.url}/print/0/1.html", f"{site.url}/0/1.html"
        first = crawl(tmp_path, site, uri, "first", "-a", f"start_url={copy}", "-a", "depth=0",
                      NEWSSTEM_METADATA=metadata)
        assert first.returncode == 0, first.log
        assert first.item_urls() == {copy}
        second = crawl(tmp_path, site, uri, "second", "-a", "depth=3",
                       NEWSSTEM_METADATA=metadata)
        assert second.returncode == 0, second.log
        assert "/0/1.html" in site.paths()
        assert second.item_urls() == site.article_urls() - {original}, "each article once"
        # the original and its copies are recorded with the copy's article: a third crawl
        # fetches no copy of it
        site.clear()
        third = crawl(tmp_path, site, uri, "third", "-a", "depth=3", NEWSSTEM_METADATA=metadata)
        assert third.returncode == 0 and third.items == [], third.log
        assert set(site.paths()) - site.hub_paths() - {"/robots.txt"} == set()
    finally:
        site.stop()


def test_without_metadata_copies_are_exported_once_by_their_text(tmp_path):
    site = GeneratedNewsSite(sections=3, articles_per_section=6, copies=True).start()
    try:
        result = crawl(tmp_path, site, "", "once", "-a", "depth=3", NEWSSTEM_METADATA="False")
        assert result.returncode == 0, result.log
        assert result.item_urls() == site.article_urls()
        assert result.stats["newsstem/dropped/duplicate"] >= 18  # the print copies
    finally:
        site.stop()


def test_copies_naming_an_original_on_another_site_are_exported_once(tmp_path):
    # a mirror (or a mobile host) whose stories and print pages name the original on
    # another site: both went out (stop 34's trial: 10 of 64 articles twice)
    site = GeneratedNewsSite(sections=3, articles_per_section=6, copies=True,
                             canonical_origin="https://www.gazette.example").start()
    try:
        result = crawl(tmp_path, site, "", "mirror", "-a", "depth=3")
        assert result.returncode == 0, result.log
        exported = _exported_articles(result, site)
        assert len(exported) == len(set(exported)) == 18, exported
        assert result.stats["newsstem/dropped/duplicate"] >= 18  # the print copies
    finally:
        site.stop()



def test_articles_of_a_feed_file_that_cannot_be_opened_are_not_recorded(tmp_path, news_site):
    # Three articles a file (batch_item_count 3); the second batch's directory is taken by
    # a file, so Scrapy cannot open it, nor any later one (it tries the same batch again for
    # each article). The start-up check sees only the directory before %(batch_id)d. Those
    # articles were recorded as exported anyway: the next crawl skipped them, lost. And the
    # first file's three, waiting for their sync when the second failed, were dropped with
    # them: the next crawl exported them again, a second copy in the corpus.
    uri = f"sqlite:///{tmp_path / 'urldb.sqlite'}"
    batches = tmp_path / "batches"
    batches.mkdir()
    (batches / "2").write_text("in the way")
    feeds = {str(batches / "%(batch_id)d" / "a.jsonl"): {"format": "jsonlines",
                                                       "batch_item_count": 3}}
    first = run_crawl_with_feeds(tmp_path, news_site, uri, "first", feeds)
    written = {json.loads(line)["url"] for path in batches.glob("*/a.jsonl")
               for line in path.read_text(encoding="utf-8").splitlines()}
    assert len(written) == 3, first.log
    errors = [line for line in first.log.splitlines() if "ERROR: Cannot open the feed" in line]
    assert len(errors) == 1 and str(batches / "2" / "a.jsonl") in errors[0], first.log
    assert first.stats["newsstem/urldb/exported"] == 3, "the first file's, synced"
    assert first.stats["newsstem/urldb/unmarked"] == 15

    news_site.clear()
    second = crawl(tmp_path, news_site, uri, "second")
    assert second.returncode == 0, second.log
    # none was lost, none of the first file exported twice
    assert second.item_urls() == news_site.article_urls() - written


def run_crawl_with_feeds(tmp_path, site, uri, name, feeds):
    """A crawl whose output is ``FEEDS`` (run_crawl's -O would replace them)."""
    stats_file, log_file = tmp_path / f"{name}.stats.json", tmp_path / f"{name}.log"
    settings = {**TEST_SETTINGS, "NEWSSTEM_URLDB": uri, "FEEDS": json.dumps(feeds),
                "NEWSSTEM_STATS_FILE": str(stats_file), "LOG_FILE": str(log_file)}
    cmd = [sys.executable, "-m", "scrapy", "crawl", "news", "-a", f"start_url={site.url}/",
           "-a", "depth=2"]
    for key, value in settings.items():
        cmd += ["-s", f"{key}={value}"]
    proc = subprocess.run(cmd, cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)},
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    stats = json.loads(stats_file.read_text())
    return CrawlResult(proc.returncode, [], stats, log_file.read_text(), tmp_path / "none")


def the_next_crawl_exports_every_article(tmp_path, site, uri):
    """A crawl after one that recorded none of its articles exports them all: nothing lost."""
    site.clear()
    following = crawl(tmp_path, site, uri, "second")
    assert following.returncode == 0, following.log
    assert following.item_urls() == site.article_urls()


@contextlib.contextmanager
def another_crawl_writes(site, path):
    """Another crawl writes ``path`` (one line of its own, given back) as the crawl run
    inside the block asks for its first page: after that crawl started, before it opens
    the file."""
    theirs = b'{"url": "https://elsewhere.example/1.html"}\n'
    resolve = site._resolve

    def resolve_after_the_other_crawl_wrote(page):
        if not path.exists():
            path.write_bytes(theirs)
        return resolve(page)

    site._resolve = resolve_after_the_other_crawl_wrote
    try:
        yield theirs
    finally:
        site._resolve = resolve


def test_a_feed_file_another_crawl_wrote_since_the_start_is_kept_and_its_articles_come_again(
    tmp_path, news_site
):
    # Two crawls started in the same second with one -O "...%(time)s.jsonl" name: the
    # other wrote the file after this one started (here: as this crawl asks for its first
    # page). This crawl refuses to empty it, records none of its own articles, and the
    # next crawl exports them all.
    uri = f"sqlite:///{tmp_path / 'urldb.sqlite'}"
    with another_crawl_writes(news_site, tmp_path / "first.jsonl") as theirs:
        first = crawl(tmp_path, news_site, uri, "first")
    assert (tmp_path / "first.jsonl").read_bytes() == theirs, first.log
    # One line says so. Scrapy's exporter tried the file again for each article and at the
    # end: an ERROR line with a traceback each (20 here), then "Stored jsonlines feed".
    errors = [line for line in first.log.splitlines() if "] ERROR: " in line]
    assert len(errors) == 1, first.log
    assert f"ERROR: Not overwriting {tmp_path / 'first.jsonl'}: another crawl wrote it since " \
        "this one started" in errors[0] and "the next crawl exports them" in errors[0]
    assert "Traceback" not in first.log and "Stored jsonlines feed" not in first.log
    assert first.stats["newsstem/feeds/refused"] == 1
    assert "newsstem/urldb/exported" not in first.stats, first.stats
    assert first.stats["newsstem/urldb/unmarked"] == 18
    # The run summary said "articles exported: 18 (readability 18)": none reached a file.
    assert first.stats["newsstem/feeds/unwritten"] == 18
    assert first.stats["newsstem/summary/articles"] == 0
    assert "  articles exported: 0 (of 18 extracted: readability 18; 18 written to no file: " \
        "their -O feed file was another crawl's, left alone; the next crawl exports them)" \
        in first.log, first.log
    assert "nothing new" not in first.log

    the_next_crawl_exports_every_article(tmp_path, news_site, uri)


def test_a_refused_feed_file_leaves_the_other_feeds_whole(tmp_path, news_site):
    # Two feeds, the first an -O file another crawl writes as this one starts. Scrapy's
    # exporter raised on opening it for each article before reaching the second feed:
    # that one got no article at all, and a traceback per article was logged.
    uri = f"sqlite:///{tmp_path / 'urldb.sqlite'}"
    shared, own = tmp_path / "shared.jsonl", tmp_path / "own.jsonl"
    feeds = {str(shared): {"format": "jsonlines", "overwrite": True},
             str(own): {"format": "jsonlines", "overwrite": True}}
    with another_crawl_writes(news_site, shared) as theirs:
        first = run_crawl_with_feeds(tmp_path, news_site, uri, "first", feeds)
    assert shared.read_bytes() == theirs
    written = {json.loads(line)["url"] for line in own.read_text(encoding="utf-8").splitlines()}
    assert written == news_site.article_urls(), first.log
    errors = [line for line in first.log.splitlines() if "] ERROR: " in line]
    assert len(errors) == 1 and f"Not overwriting {shared}" in errors[0], first.log
    assert "Traceback" not in first.log
    assert f"Stored jsonlines feed (18 items) in: {own}" in first.log
    # every article reached a file (the other feed's): all exported, none written to no file
    assert "newsstem/feeds/unwritten" not in first.stats
    assert "  articles exported: 18 (readability 18)" in first.log
    # in one feed only, so recorded as exported by none: the next crawl exports them again
    assert "newsstem/urldb/exported" not in first.stats
    assert first.stats["newsstem/urldb/unmarked"] == 18


def test_an_empty_feed_leaves_a_file_another_crawl_wrote_with_one_line(tmp_path, news_site):
    # The second crawl exports nothing (the store knows every article), so Scrapy opens
    # its -O file only at the end, to store it empty: the other crawl's file was kept, but
    # the refusal surfaced as asyncio's "Task exception was never retrieved" traceback.
    uri = f"sqlite:///{tmp_path / 'urldb.sqlite'}"
    first = crawl(tmp_path, news_site, uri, "first")
    assert first.returncode == 0 and len(first.items) == 18, first.log
    output = tmp_path / "second.jsonl"
    with another_crawl_writes(news_site, output) as theirs:
        second = crawl(tmp_path, news_site, uri, "second")
    assert output.read_bytes() == theirs
    errors = [line for line in second.log.splitlines() if "] ERROR: " in line]
    assert len(errors) == 1 and f"Not overwriting {output}" in errors[0], second.log
    assert "Traceback" not in second.log and "Stored jsonlines feed" not in second.log
    assert second.stats["newsstem/feeds/refused"] == 1


def crawl_into(tmp_path, site, uri, name, *output, stdout=subprocess.DEVNULL):
    """A crawl whose output is ``output`` (``-O /dev/null:jsonlines``…), its stdout
    ``stdout``; returns the result and what it printed."""
    stats_file, log_file = tmp_path / f"{name}.stats.json", tmp_path / f"{name}.log"
    settings = {**TEST_SETTINGS, "NEWSSTEM_URLDB": uri,
                "NEWSSTEM_STATS_FILE": str(stats_file), "LOG_FILE": str(log_file)}
    cmd = [sys.executable, "-m", "scrapy", "crawl", "news", "-a", f"start_url={site.url}/",
           "-a", "depth=2", *output]
    for key, value in settings.items():
        cmd += ["-s", f"{key}={value}"]
    proc = subprocess.run(cmd, cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)},
                          stdout=stdout, stderr=subprocess.PIPE, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    stats = json.loads(stats_file.read_text())
    result = CrawlResult(proc.returncode, [], stats, log_file.read_text(), tmp_path / "none")
    return result, proc.stdout or ""


@pytest.mark.parametrize("output", [("-O", "/dev/null:jsonlines"), ("-o", "-:jsonlines")],
                         ids=["dev-null", "stdout-to-dev-null"])
def test_a_dry_run_into_dev_null_records_nothing_and_logs_one_line(tmp_path, news_site, output):
    # -O /dev/null with a URL store: fsync on /dev/null fails with EINVAL, so the crawl
    # logged "Cannot fsync a feed file" twice, "Error storing jsonlines feed" with a
    # traceback and "18 exported articles could not be recorded". And -o - with stdout on
    # /dev/null recorded all 18 as exported: the next crawl skipped them, exported nowhere.
    uri = f"sqlite:///{tmp_path / 'urldb.sqlite'}"
    first, _ = crawl_into(tmp_path, news_site, uri, "first", *output)
    assert "ERROR" not in first.log and "Traceback" not in first.log, first.log
    told = [line for line in first.log.splitlines() if "are not recorded as exported" in line]
    assert len(told) == 1 and "a character device such as /dev/null or a terminal keeps " \
        "nothing): the next crawl exports them again" in told[0], first.log
    assert "newsstem/urldb/exported" not in first.stats, first.stats
    assert "newsstem/urldb/errors" not in first.stats
    assert first.stats["newsstem/urldb/unmarked"] == 18
    assert "articles not recorded as exported: 18 (the next crawl exports them again)" \
        in first.log

    the_next_crawl_exports_every_article(tmp_path, news_site, uri)


def test_a_feed_into_a_pipe_is_recorded_once_closed_without_fsync(tmp_path, news_site):
    # -O /dev/stdout piped into a reader (| gzip > …): fsync on a pipe fails with EINVAL,
    # so nothing was recorded, with three ERROR lines and a traceback. A pipe is recorded
    # as stdout is: when the crawl has finished and the feed was closed.
    uri = f"sqlite:///{tmp_path / 'urldb.sqlite'}"
    first, printed = crawl_into(tmp_path, news_site, uri, "first", "-O", "/dev/stdout:jsonlines",
                                stdout=subprocess.PIPE)
    assert "ERROR" not in first.log and "Traceback" not in first.log, first.log
    assert {json.loads(line)["url"] for line in printed.splitlines()} == \
        news_site.article_urls()
    assert "are marked exported when the crawl has finished and the feed is stored (a pipe" \
        in first.log
    assert first.stats["newsstem/urldb/exported"] == 18
    assert "newsstem/urldb/unmarked" not in first.stats

    news_site.clear()
    second = crawl(tmp_path, news_site, uri, "second")
    assert second.returncode == 0 and second.items == [], second.log


def test_a_users_extensions_enabling_scrapys_feed_exporter_too_write_each_article_once(
    tmp_path, news_site, monkeypatch
):
    # EXTENSIONS of a user's that enables Scrapy's FeedExporter beside newsstem's
    # NewsFeedExporter: both exporters wrote every feed, each article twice in the file (36
    # lines of 18 articles).
    extensions = {"scrapy.extensions.feedexport.FeedExporter": 0}
    monkeypatch.setitem(TEST_SETTINGS, "EXTENSIONS", json.dumps(extensions))
    output = tmp_path / "articles.jsonl"
    uri = f"sqlite:///{tmp_path / 'urldb.sqlite'}"
    first = run_crawl_with_feeds(tmp_path, news_site, uri, "first",
                                 {str(output): {"format": "jsonlines"}})
    urls = [json.loads(line)["url"] for line in output.read_text(encoding="utf-8").splitlines()]
    assert sorted(urls) == sorted(news_site.article_urls()), first.log
    assert "beside newsstem's NewsFeedExporter: newsstem's is off" in first.log
    assert first.stats["newsstem/urldb/exported"] == 18


def test_a_refused_batch_file_is_not_reported_stored(tmp_path, news_site):
    # batch_item_count=1: Scrapy closes each batch's slot in the call that exported its
    # article, before NewsFeedExporter could drop a refused one: "Stored jsonlines feed
    # (1 items) in: batch-1.jsonl" was logged of a file this crawl never wrote, and its
    # article was not counted as written to no file.
    uri = f"sqlite:///{tmp_path / 'urldb.sqlite'}"
    first_batch = tmp_path / "batch-1.jsonl"
    feeds = {str(tmp_path / "batch-%(batch_id)d.jsonl"):
             {"format": "jsonlines", "overwrite": True, "batch_item_count": 1}}
    with another_crawl_writes(news_site, first_batch) as theirs:
        first = run_crawl_with_feeds(tmp_path, news_site, uri, "first", feeds)
    assert first_batch.read_bytes() == theirs
    assert f"in: {first_batch}" in first.log, first.log
    assert f"Stored jsonlines feed (1 items) in: {first_batch}\n" not in first.log
    assert f"Not stored jsonlines feed (1 items) in: {first_batch}: refused" in first.log
    later = sorted(tmp_path.glob("batch-*.jsonl"))
    assert len(later) == 18 and f"Stored jsonlines feed (1 items) in: {later[-1]}" in first.log
    assert first.stats["newsstem/feeds/refused"] == 1
    assert first.stats["newsstem/feeds/unwritten"] == 1
    assert "  articles exported: 17 (of 18 extracted: " in first.log, first.log


def test_a_forked_child_outliving_the_crawl_keeps_no_lock(tmp_path, news_site):
    # An item pipeline forks without exec (os.fork, multiprocessing's "fork"); its child
    # lives on after the crawl. It shared the -O file's open file description, so its
    # flock stayed held: the next crawl refused the file ("another crawl is writing it"),
    # and `scrapy urldb prune` the store (its shared lease, likewise).
    import signal
    import time

    uri = f"sqlite:///{tmp_path / 'urldb.sqlite'}"
    pipelines = {"tests.support.forking.ForkOncePipeline": 500}  # (with newsstem's)
    first = crawl(tmp_path, news_site, uri, "articles", ITEM_PIPELINES=json.dumps(pipelines),
                  FORKING_PIPELINE_DIR=str(tmp_path),
                  FORKING_PIPELINE_AFTER=str(tmp_path / "articles.jsonl"))
    pid_file = tmp_path / "child.pid"
    try:
        assert first.returncode == 0 and len(first.items) == 18, first.log
        deadline = time.monotonic() + 30
        while not pid_file.exists():
            assert time.monotonic() < deadline, "the pipeline's child never started"
            time.sleep(0.05)
        child = int(pid_file.read_text())
        os.kill(child, 0)  # alive after the crawl's end
        with open_store(uri) as store:
            store.lease(exclusive=True).release()  # prune could run
        news_site.clear()
        second = crawl(tmp_path, news_site, "", "articles")  # the same -O file
        assert second.returncode == 0, second.log
        assert "Not overwriting" not in second.log
        assert len(second.items) == 18
        os.kill(child, 0)  # (still alive: the test proves what it says)
    finally:
        (tmp_path / "release").touch()
        if pid_file.exists():
            child = int(pid_file.read_text())
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                try:
                    os.kill(child, 0)
                except ProcessLookupError:
                    break
                time.sleep(0.1)
            else:
                os.kill(child, signal.SIGKILL)


def test_a_section_page_exported_as_an_article_is_still_walked_for_new_articles(
        tmp_path, store_uri):
    """A section page with a long introduction was exported as an article, and the next
    crawl skipped it as an exported URL: never walked again, so the articles added to
    the section later were never found. A page through which the crawl found articles
    is a hub (ARCHITECTURE's dedup: hubs are always walked); it is fetched again for its
    links and not exported again, while the articles stay skipped."""
    site = TeaserSectionsSite(sections=2, articles_per_section=3).start()
    try:
        first = crawl(tmp_path, site, store_uri, "first")
        sections = {f"{site.url}/section/{s}/" for s in range(2)}
        assert first.item_urls() == site.article_urls() | sections, first.log
        added = site.add_article(section=0)
        site.clear()
        second = crawl(tmp_path, site, store_uri, "second")
        fetched = sorted(site.paths())
        site.clear()
        third = crawl(tmp_path, site, store_uri, "third")
        again = sorted(site.paths())
    finally:
        site.stop()
    assert second.item_urls() == {site.url + added}, second.log
    hubs = ["/", "/robots.txt", "/section/0/", "/section/1/"]
    assert fetched == sorted([*hubs, added]), fetched  # the old articles stay skipped
    assert urldb_stats(second)["withheld"] == 2 and urldb_stats(second)["skipped"] == 6
    assert urldb_stats(second)["hubs"] == 2  # both sections, counted as what they are
    assert "2 fetched pages not exported again (2 of them hubs walked for their links)" in (
        second.log)
    assert third.items == [] and again == hubs, (third.log, again)


def test_a_hub_whose_fetch_fails_is_not_counted_as_walked(tmp_path, store_uri):
    """newsstem/urldb/hubs counted a hub when its request was let through, so one whose
    fetch failed (a section gone: 404) was counted, and the summary read "1 fetched pages
    not exported again (2 of them hubs walked for their links)". A hub is counted when its
    page is fetched and withheld, a share of withheld."""
    site = TeaserSectionsSite(sections=2, articles_per_section=3).start()
    try:
        crawl(tmp_path, site, store_uri, "first")
        resolve = site._resolve
        site._resolve = lambda path: None if path == "/section/1/" else resolve(path)
        second = crawl(tmp_path, site, store_uri, "second")
    finally:
        site.stop()
    assert "/section/1/" in site.paths()  # walked, and gone
    assert urldb_stats(second)["withheld"] == 1, second.log
    assert urldb_stats(second)["hubs"] == 1, second.log
    assert "1 fetched pages not exported again (1 of them hubs walked for their links)" in (
        second.log)


class RedirectedTeaserSectionsSite(TeaserSectionsSite):
    """Every link to a section page goes through a redirect (``/s0`` answered 301 to
    ``/section/0/``), as a site whose menu links short section URLs."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self.redirects.update({f"/s{s}": f"/section/{s}/" for s in range(self.sections)})

    def _nav(self) -> str:
        links = "".join(f'<li><a href="/s{s}">Section {s}</a></li>' for s in range(self.sections))
        return f'<nav><ul><li><a href="/">Home</a></li>{links}</ul></nav>'

    def _home(self) -> bytes:
        return self._page("Home", "<main><p>Latest news in the sections above.</p></main>")


def test_a_hub_reached_through_a_redirect_is_still_walked(tmp_path):
    """The hub key was recorded for the page's own URL (the redirect's target) only, while
    later crawls meet the link that redirects to it: the link is exported (the page's
    alias), its hub key unknown, so the section was skipped and its new articles never
    found. The hub key is recorded for every URL of the redirect chain."""
    site = RedirectedTeaserSectionsSite(sections=2, articles_per_section=3).start()
    uri = f"sqlite:///{tmp_path / 'urldb.sqlite'}"
    try:
        first = crawl(tmp_path, site, uri, "first")
        sections = {f"{site.url}/section/{s}/" for s in range(2)}
        assert first.item_urls() == site.article_urls() | sections, first.log
        added = site.add_article(section=0)
        second = crawl(tmp_path, site, uri, "second")
    finally:
        site.stop()
    assert second.item_urls() == {site.url + added}, second.log


def test_a_hub_walked_is_seen_and_survives_a_prune_of_what_was_not(tmp_path):
    """A hub walked by a crawl that found nothing new through it kept the last_seen of
    the crawl that last did: a prune of the entries not seen since dropped its hub key
    (the page's own key, whose link was seen, stayed exported), so later crawls skipped
    the section again and never found the articles added to it. Walked, it is seen."""
    import time

    site = TeaserSectionsSite(sections=2, articles_per_section=3).start()
    uri = f"sqlite:///{tmp_path / 'urldb.sqlite'}"
    try:
        first = crawl(tmp_path, site, uri, "first")
        assert len(first.items) == 8, first.log  # 6 articles, 2 sections
        time.sleep(2.5)
        started = int(time.time())
        second = crawl(tmp_path, site, uri, "second")  # walks the hubs, nothing new
        assert second.items == [], second.log
        with open_store(uri) as store, store.lease(exclusive=True):
            store.prune(seen_before=started)  # what the second crawl did not see
        added = site.add_article(section=0)
        third = crawl(tmp_path, site, uri, "third")
    finally:
        site.stop()
    assert third.item_urls() == {site.url + added}, third.log


def test_a_hub_is_recorded_in_its_first_articles_batch_so_kill_9_keeps_it(tmp_path):
    """The hub key was queued after the article's own batch when that batch was synced at
    once (NEWSSTEM_URLDB_SYNC_ITEMS reached): the article recorded, its hub not yet, a
    kill -9 then lost the hub, and later crawls skipped the section as an exported article
    (its articles known, nothing re-records it) and missed the articles added to it."""
    import time

    from newsstem.urldb.store import hub_key

    site = TeaserSectionsSite(sections=1, articles_per_section=2, delay=0.5).start()
    uri = f"sqlite:///{tmp_path / 'urldb.sqlite'}"
    section = f"{site.url}/section/0/"
    articles = [url_key(url) for url in sorted(site.article_urls())]
    settings = {"NEWSSTEM_URLDB": uri, "NEWSSTEM_URLDB_SYNC_ITEMS": "1",
                "NEWSSTEM_URLDB_SYNC_SECONDS": "60", "CONCURRENT_REQUESTS": "1"}
    try:
        running = start_crawl(tmp_path, "-a", f"start_url={site.url}/", "-a", "depth=2",
                              settings=settings, name="killed")
        hub = None
        deadline = time.monotonic() + 60
        while hub is None and time.monotonic() < deadline and running.process.poll() is None:
            time.sleep(0.02)
            with contextlib.suppress(Exception), open_store(uri) as store:
                found = store.lookup([*articles, hub_key(section)])
                if any(found.get(k) and found[k].exported_at for k in articles):
                    hub = found.get(hub_key(section))
                    running.kill()  # as soon as an article through the section is recorded
                    break
        assert running.killed, running.log()
        added = site.add_article(section=0)
        again = crawl(tmp_path, site, uri, "again")
    finally:
        if running.process.poll() is None:
            running.kill()
        site.stop()
    assert hub is not None and hub.exported_at, "the article recorded without its hub"
    assert site.url + added in again.item_urls(), again.log


def test_a_crawl_after_the_first_keeps_no_anchor_texts_of_the_articles_it_skips(
    tmp_path, news_site
):
    # the spider recorded the anchor texts of every link to an article exported before,
    # which the URL store skips: never fetched, they stayed for the whole crawl, one
    # entry a link target (stop 49's crawl memory)
    uri = f"sqlite:///{tmp_path / 'urldb.sqlite'}"
    first = crawl(tmp_path, news_site, uri, "first", **probe_settings(tmp_path / "first.json"))
    assert first.returncode == 0, first.log
    assert len(first.items) == 18
    second = crawl(tmp_path, news_site, uri, "second",
                   **probe_settings(tmp_path / "second.json"))
    assert second.returncode == 0, second.log
    assert second.items == [] and second.stats["newsstem/urldb/skipped"] == 18
    for name in ("first", "second"):
        lengths = json.loads((tmp_path / f"{name}.json").read_text())
        assert lengths["spider.anchors"] == 0, name


def test_a_crawl_keeps_its_exports_the_pages_it_fetched_and_its_skips_in_20_bytes_a_key(
    tmp_path,
):
    # the URL store's middleware remembers every key this crawl exported and the spider
    # every page it fetched, for the whole crawl: in sets, ~110 bytes a key (a bytes
    # object and a slot), ~200 MiB at a million pages; KeySets hold ~20 (stop 50's crawl
    # memory). What they answer is what a set answers: the crawl again skips every article
    # (exported here: not fetched again), and a copy is still told from an earlier export;
    # the keys of the articles it skips (newsstem/urldb/skipped counts each once) too
    site = GeneratedNewsSite(sections=3, articles_per_section=150).start()
    try:
        uri = f"sqlite:///{tmp_path / 'urldb.sqlite'}"
        first = crawl(tmp_path, site, uri, "first", **probe_settings(tmp_path / "first.json"))
        assert first.returncode == 0, first.log
        assert len(first.items) == 450
        again = crawl(tmp_path, site, uri, "again", **probe_settings(tmp_path / "again.json"))
    finally:
        site.stop()
    assert again.returncode == 0, again.log
    assert again.items == [] and again.stats["newsstem/urldb/skipped"] == 450
    held = json.loads((tmp_path / "first.json").read_text())
    exported, fetched = "UrlDbMiddleware._exported_here", "spider.anchors._fetched"
    assert held[exported] >= 450 and held[fetched] == 454  # articles (and hubs), pages
    for name in (exported, fetched):
        assert held[f"{name} bytes"] / held[name] < 30, (name, held)
    # and the articles a crawl after the first skips (each counted once)
    skipped = json.loads((tmp_path / "again.json").read_text())
    name = "UrlDbMiddleware._skipped"
    assert skipped[name] == 450 and skipped[f"{name} bytes"] / 450 < 30, skipped
