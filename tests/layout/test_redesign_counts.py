"""The redesign check's counts: hub pages that still match their hub patterns must not
hide an article layout that stopped matching (stop 33: a site with two article layouts,
one redesigned, 7 of its 13 articles read by the fallback, and no word of it)."""
from __future__ import annotations

import json
import logging
import sys
import uuid

from scrapy.statscollectors import MemoryStatsCollector
from scrapy.utils.test import get_crawler

from newsstem.extraction import PageExtraction
from newsstem.items import Page
from newsstem.layout.learn import TrainingPage, learn
from newsstem.layout.patterns import PatternLibrary, PatternSet, dumps, save_pattern_file
from newsstem.layout.redesign import (
    CountsFile,
    SiteCounts,
    judge_sites,
    layout_change,
    patterns_key,
)
from newsstem.pipelines import ExtractionPipeline, _SharedCounts
from newsstem.urldb import open_store
from newsstem.urldb.redis_store import RedisRedesignCounts

PATTERNS = PatternSet("example.com", (), parameters={"matched": 1.0})


def crawl(hubs: int, by_pattern: int, by_fallback: int, hub_fallback: int = 0) -> SiteCounts:
    counts = SiteCounts()
    for _ in range(hubs):  # section pages, matching a hub layout
        counts.add(PageExtraction("", "", "hub", reason="a hub layout", pattern_id="example.com/3"))
    for _ in range(by_pattern):  # articles of the layout that did not change
        counts.add(PageExtraction("T", "text " * 200, "pattern:example.com/2",
                                  pattern_id="example.com/2"))
    for _ in range(by_fallback):  # articles of the redesigned layout: no pattern matches
        counts.add(PageExtraction("T", "text " * 200, "readability"))
    for _ in range(hub_fallback):  # unmatched pages without article text
        counts.add(PageExtraction("", "", "readability", reason="no article found"))
    return counts


def test_one_of_two_article_layouts_redesigned_is_noticed_through_matching_hubs():
    counts = crawl(hubs=3, by_pattern=6, by_fallback=7)
    assert counts.matched_rate == 9 / 16  # above half: the hubs hide the lost layout
    assert counts.article_pages == 13 and counts.articles_matched_rate == 6 / 13
    assert layout_change(counts, PATTERNS, min_pages=5) == (
        "6 of 13 pages with an article matched an article pattern "
        "(46%; 100% of the pages they were learned from)"
    )


def test_pages_without_article_text_are_not_counted_as_lost_articles():
    counts = crawl(hubs=0, by_pattern=10, by_fallback=0, hub_fallback=8)
    assert counts.article_pages == 10 and counts.articles_matched_rate == 1.0
    assert layout_change(counts, PATTERNS, min_pages=5) is None


def test_a_site_whose_articles_still_match_is_not_flagged():
    assert layout_change(crawl(hubs=3, by_pattern=12, by_fallback=1), PATTERNS, 5) is None


def test_counts_of_small_crawls_add_up_in_the_counts_file_until_judged(tmp_path, caplog):
    # (stop 48: a daily crawl reading a few new articles of a site never reached the least
    # number of pages, and a redesign went unnoticed for weeks)
    path = tmp_path / ".redesign-counts"
    small = {"example.com": crawl(hubs=1, by_pattern=0, by_fallback=3)}  # 4 pages
    sets = {"example.com": PATTERNS}
    for day in ("2026-11-01T06:00:00Z", "2026-11-02T06:00:00Z"):
        counts_file = CountsFile(path)
        assert judge_sites(small, sets, day, counts_file, min_pages=10) == {}
        counts_file.save()
    judged = judge_sites(small, sets, "2026-11-03T06:00:00Z", CountsFile(path), min_pages=10)
    change, window = judged["example.com"]
    assert change.startswith("3 of 12 pages matched its patterns")
    assert window.since == "2026-11-01T06:00:00Z" and window.counts.pages == 12
    # judged: the window starts again (taken from the file, not kept)
    counts_file = CountsFile(path)
    judge_sites(small, sets, "2026-11-03T06:00:00Z", counts_file, min_pages=10)
    assert counts_file.windows == {}
    # counts against other patterns (the site learned again) are dropped
    counts_file = CountsFile(path)
    judge_sites(small, sets, "2026-11-04T06:00:00Z", counts_file, min_pages=10)
    counts_file.save()
    relearned = {"example.com": PatternSet("example.com", (), parameters={"matched": 0.9})}
    counts_file = CountsFile(path)
    judge_sites(small, relearned, "2026-11-05T06:00:00Z", counts_file, min_pages=10)
    assert counts_file.windows["example.com"].counts.pages == 4
    assert counts_file.windows["example.com"].since == "2026-11-05T06:00:00Z"
    # a corrupt file: one warning, and it starts again empty
    path.write_text("{not json", encoding="utf-8")
    assert CountsFile(path).windows == {}
    assert [r.getMessage() for r in caplog.records if "counts file" in r.getMessage()] == [
        f"newsstem: the redesign counts file {path} is not a counts file (JSONDecodeError: "
        "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)): it "
        "starts again empty (sites are judged on the pages read from now on)"
    ]


def _story(site: str, n: int, layout: str) -> Page:
    """An article of ``site`` in one of two layouts, as the crawl's spider yields it."""
    words = " ".join(f"word{n}x{i}" for i in range(120))
    if layout == "old":
        html = (f"<html><head><title>Story {n}</title></head><body><div id=nav><a href=/>"
                f"Home</a></div><div class=post><h1>Story number {n}</h1><div class=text>"
                f"<p>{words}.</p><p>More {words}.</p></div></div></body></html>")
    else:  # redesigned: no pattern of the old layout matches
        html = (f"<html><head><title>Story {n}</title></head><body><header><a href=/>Home"
                f"</a></header><main><article class=story><h2 class=headline>Story number "
                f"{n}</h2><section class=story-body><p>{words}.</p><p>More {words}.</p>"
                f"</section></article></main></body></html>")
    return Page(f"http://{site}/{layout}/{n}", site, html, "utf-8", 1, "2026-11-02T06:00:00Z")


def test_a_crawls_end_digests_each_sites_pattern_set_once(tmp_path):
    # (stop 42: judge_sites digested each site's pattern set twice, to take its window and
    # to keep or judge it). The digest is a pure function of the pattern set, loaded once
    # at the crawl's start: digesting it twice changes no result, file, stat or log line,
    # only the time taken, so no output can tell. The digests made are counted here as the
    # interpreter's profile hook sees them: real calls of patterns_key (and of dumps, the
    # serialisation it hashes), nothing replaced, along the path a crawl takes: the
    # pipeline made from the crawler's settings (pattern files learned into the patterns
    # directory, the counts file beside them), its pages, and its end.
    for site in ("a.example", "b.example"):
        stories = [_story(site, n, "old") for n in range(8)]
        pages = [TrainingPage(s.url, s.html, [f"Story number {n}"]) for n, s in enumerate(stories)]
        save_pattern_file(learn(site, pages).pattern_set, tmp_path)
    crawler = get_crawler(settings_dict={
        "NEWSSTEM_PATTERNS_DIR": str(tmp_path), "NEWSSTEM_REDESIGN_MIN_PAGES": 10,
    })
    crawler.stats = MemoryStatsCollector(crawler)
    digests: list[str] = []
    serialised: list[str] = []

    def profile(frame, event, arg):
        if event == "call" and frame.f_code is patterns_key.__code__:
            digests.append(frame.f_locals["pattern_set"].site)
        elif event == "call" and frame.f_code is dumps.__code__:
            serialised.append(frame.f_locals["pattern_set"].site)

    previous = sys.getprofile()  # (a profiler's, under pytest-profiling: given back)
    sys.setprofile(profile)
    try:
        pipeline = ExtractionPipeline.from_crawler(crawler)
        pipeline.open_spider()
        for n in range(12):  # a.example redesigned: judged on this crawl's 12 pages
            assert pipeline.process_item(_story("a.example", 100 + n, "new")).method == (
                "readability")
        for n in range(3):  # b.example unchanged, too few pages: kept for later crawls
            assert pipeline.process_item(_story("b.example", 100 + n, "old")).method.startswith(
                "pattern:b.example/")
        pipeline.process_item(_story("c.example", 1, "old"))  # no patterns
        pipeline.close_spider()
    finally:
        sys.setprofile(previous)
    stats = crawler.stats.get_stats()
    assert "newsstem/patterns/a.example/layout_changed" in stats
    assert "newsstem/patterns/b.example/layout_changed" not in stats
    kept = json.loads((tmp_path / ".redesign-counts").read_text())
    assert "b.example" in json.dumps(kept) and "a.example" not in json.dumps(kept)
    assert digests == serialised == ["a.example", "b.example"]


def test_counts_in_a_shared_redis_store_add_up_across_workers(redis_server):
    # Two workers on two machines (each its own patterns directory, so its own counts
    # file) share a Redis URL store: the counts are kept there, each worker's crawl adds
    # its own in one atomic script, and the window is judged by the crawl that brings it
    # to the least number of pages, since the earliest start of the crawls counted.
    half = {"example.com": crawl(hubs=1, by_pattern=0, by_fallback=5)}  # 6 pages
    sets = {"example.com": PATTERNS}
    uri = f"{redis_server.url}?prefix=redesign-{uuid.uuid4().hex[:8]}"
    with open_store(uri) as one, open_store(uri) as two:
        # the second worker started first, and ends last
        first = RedisRedesignCounts(one)
        assert judge_sites(half, sets, "2026-11-01T06:00:05Z", first, 10) == {}
        judged = judge_sites(half, sets, "2026-11-01T06:00:00Z", RedisRedesignCounts(two), 10)
        change, window = judged["example.com"]
        assert change.startswith("2 of 12 pages matched its patterns")
        assert window.since == "2026-11-01T06:00:00Z" and window.counts.pages == 12
        assert window.counts == half["example.com"] + half["example.com"]
        key = f"{uri.split('prefix=')[1]}:redesign-counts"
        assert not one.client.exists(key)  # judged: counting starts again
        # a window is one pattern file's: a worker whose file of the site differs (it
        # learned the site again, the other did not get the new file) counts apart, and
        # neither drops the other's window (they did, one field a site: the site was
        # never judged again)
        assert judge_sites(half, sets, "2026-11-02T06:00:00Z", first, 10) == {}
        relearned = {"example.com": PatternSet("example.com", (), parameters={"matched": 0.9})}
        assert judge_sites(half, relearned, "2026-11-02T06:00:09Z",
                           RedisRedesignCounts(two), 10) == {}
        new_field = f"example.com {patterns_key(relearned['example.com'])}"
        entry = json.loads(one.client.hget(key, new_field))
        assert entry["pages"] == 6 and entry["since"] == "2026-11-02T06:00:09Z"
        judged = judge_sites(half, sets, "2026-11-03T06:00:00Z", first, 10)
        change, window = judged["example.com"]  # the old file's worker is told
        assert window.counts.pages == 12 and window.since == "2026-11-02T06:00:00Z"
        assert window.patterns == patterns_key(PATTERNS)
        # an entry that is not JSON is dropped, not an error
        one.client.hset(key, new_field, b"{not json")
        assert judge_sites(half, relearned, "2026-11-03T06:00:00Z",
                           RedisRedesignCounts(one), 10) == {}
        assert json.loads(one.client.hget(key, new_field))["pages"] == 6


def test_a_shared_store_unreachable_at_the_crawls_end_is_one_warning(own_redis, tmp_path, caplog):
    # The Redis URL store keeping the counts stops before a crawl ends (a real
    # redis-server of this test, stopped by PID): first while the counts are added (the
    # store was opened), then before the crawl's end opens it. Each is one warning, the
    # sites this crawl read enough pages of are judged on them alone, the others wait for
    # later crawls, and no counts file is written in the store's place.
    read = {"example.com": crawl(hubs=1, by_pattern=0, by_fallback=5),  # 6 pages: too few
            "example.org": crawl(hubs=1, by_pattern=0, by_fallback=11)}  # 12: judged
    sets = {site: PATTERNS for site in read}
    with open_store(own_redis.url) as store:
        shared = _SharedCounts(store)
        own_redis.stop()
        with caplog.at_level(logging.WARNING, "newsstem.pipelines"):
            judged = judge_sites(read, sets, "2026-11-01T06:00:00Z", shared, 10)
    assert list(judged) == ["example.org"] and judged["example.org"][1].counts.pages == 12
    assert len(caplog.records) == 1, caplog.text  # once, not once per site
    assert "the redesign counts cannot be kept in the URL store" in caplog.text

    caplog.clear()
    crawler = get_crawler()
    pipeline = ExtractionPipeline(
        crawler.stats, 200, False, PatternLibrary.from_sets(sets),
        redesign_min_pages=10, counts_path=tmp_path / ".redesign-counts",
        counts_store=own_redis.url,
    )
    pipeline.sites = {"example.com": read["example.com"]}
    with caplog.at_level(logging.WARNING, "newsstem.pipelines"):
        pipeline.close_spider()
    assert [r.getMessage()[:58] for r in caplog.records] == [
        "newsstem: the redesign counts cannot be kept in the URL st"
    ], caplog.text
    assert not (tmp_path / ".redesign-counts").exists()
