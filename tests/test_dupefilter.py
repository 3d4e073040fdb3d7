"""The depth-aware duplicate filter (newsstem/dupefilter.py)."""

from __future__ import annotations

import json
import os
import random
import sys

from scrapy import Request
from scrapy.utils.request import RequestFingerprinter
from support.crawl import run_crawl
from support.httpserver import FixtureSite
from support.memoryprobe import probe_settings
from support.newssite import GeneratedNewsSite

from newsstem.dupefilter import REVISIT_META_KEY, SEEN_FILE, DepthAwareDupeFilter
from newsstem.keyset import DepthBook


def _request(url: str, depth: int) -> Request:
    return Request(url, meta={"depth": depth})


def test_plain_duplicates_are_filtered():
    df = DepthAwareDupeFilter(RequestFingerprinter(), depth_limit=3)
    assert not df.request_seen(_request("http://a/x", 1))
    assert df.request_seen(_request("http://a/x", 1))
    assert df.request_seen(_request("http://a/x", 2))


def test_a_page_found_at_a_smaller_depth_is_admitted_again_as_a_revisit():
    df = DepthAwareDupeFilter(RequestFingerprinter(), depth_limit=3)
    assert not df.request_seen(_request("http://a/x", 3))
    again = _request("http://a/x", 1)
    assert not df.request_seen(again)
    assert again.meta[REVISIT_META_KEY] is True
    assert df.request_seen(_request("http://a/x", 2))  # 1 is now the smallest depth


def test_no_revisit_when_it_cannot_reach_new_pages():
    at_limit = DepthAwareDupeFilter(RequestFingerprinter(), depth_limit=2)
    assert not at_limit.request_seen(_request("http://a/x", 3))
    assert at_limit.request_seen(_request("http://a/x", 2))  # links of a page at the limit are not followed
    unlimited = DepthAwareDupeFilter(RequestFingerprinter(), depth_limit=0)
    assert not unlimited.request_seen(_request("http://a/x", 5))
    assert unlimited.request_seen(_request("http://a/x", 1))  # no limit: the first visit followed every link


def test_jobdir_keeps_the_smallest_depth_across_runs(tmp_path):
    first = DepthAwareDupeFilter(RequestFingerprinter(), depth_limit=3, path=str(tmp_path))
    first.request_seen(_request("http://a/x", 2))
    first.request_seen(_request("http://a/x", 1))
    first.close("shutdown")
    # a line cut short by a hard kill is ignored
    with open(tmp_path / SEEN_FILE, "a") as f:
        f.write("deadbe")
    second = DepthAwareDupeFilter(RequestFingerprinter(), depth_limit=3, path=str(tmp_path))
    assert second.request_seen(_request("http://a/x", 1))
    assert not second.request_seen(_request("http://a/x", 0))
    assert not second.request_seen(_request("http://a/y", 0))


def test_a_jobdir_left_by_a_crawl_that_did_not_stop_cleanly_is_forgotten(tmp_path):
    clean = DepthAwareDupeFilter(RequestFingerprinter(), depth_limit=3, path=str(tmp_path))
    clean.request_seen(_request("http://a/x", 1))
    clean.close("shutdown")
    (tmp_path / "requests.queue").mkdir()
    killed = DepthAwareDupeFilter(RequestFingerprinter(), depth_limit=3, path=str(tmp_path))
    assert killed.request_seen(_request("http://a/x", 1))  # kept by the clean stop
    killed.request_seen(_request("http://a/y", 1))  # ... then killed: no close()
    killed._marker.close()  # (its process gone: its lock too)
    resumed = DepthAwareDupeFilter(RequestFingerprinter(), depth_limit=3, path=str(tmp_path))
    assert not (tmp_path / "requests.queue").exists()
    assert not resumed.request_seen(_request("http://a/x", 1))
    assert not resumed.request_seen(_request("http://a/y", 1))


def test_a_jobdir_of_an_older_newsstem_is_trusted_only_if_its_crawl_stopped_cleanly(tmp_path):
    # an older newsstem appended to requests.depths as requests were scheduled and left no
    # crawl.running: its killed crawl's file held pages whose article the kill had lost
    fp = RequestFingerprinter().fingerprint(_request("http://a/x", 1)).hex()
    for state_after, kept in ((True, True), (False, False)):
        job = tmp_path / str(kept)
        (job / "requests.queue").mkdir(parents=True)
        state, seen = job / "spider.state", job / "requests.depths"
        state.write_bytes(b"")
        seen.write_text(f"{fp} 1\n", encoding="ascii")
        os.utime(seen, ns=(1_000_000_000, 1_000_000_000))
        stamp = 2_000_000_000 if state_after else 500_000_000
        os.utime(state, ns=(stamp, stamp))
        resumed = DepthAwareDupeFilter(RequestFingerprinter(), depth_limit=3, path=str(job))
        assert resumed.request_seen(_request("http://a/x", 1)) is kept
        assert (job / "requests.queue").exists() is kept
        assert resumed.restarts_killed_crawl is not kept
        resumed._marker.close()


def test_the_depths_keep_a_dicts_answers_through_growth_and_revisits():
    # DepthBook answers what the dict of fingerprint → depth answered: new fingerprints,
    # depths lowered (a revisit), depths out of a byte's range, another fingerprint length
    rng = random.Random(5)
    book, plain = DepthBook(), {}
    fingerprints = [rng.randbytes(20) for _ in range(6000)] + [b"short", rng.randbytes(32)]
    for _ in range(30000):
        fp = rng.choice(fingerprints)
        assert book.get(fp) == plain.get(fp)
        depth = rng.choice([0, 1, 2, 3, 7, 255, 256, 10**6, -1])
        if plain.get(fp, depth + 1) > depth:
            book[fp] = plain[fp] = depth
    assert len(book) == len(plain) and dict(book.items()) == plain
    assert all(book.get(rng.randbytes(20)) is None for _ in range(1000))
    # and compact: ~24 bytes a fingerprint (a dict: ~80, the bytes object and its slot)
    compact = DepthBook()
    for n in range(50000):
        compact[rng.randbytes(20)] = n % 4
    assert sys.getsizeof(compact) / len(compact) < 30


def test_a_crawl_keeps_its_depths_in_under_35_bytes_a_request(tmp_path):
    # the filter remembers every request it let through for the whole crawl: in a dict,
    # ~80 bytes each (~76 MiB at a million pages); a DepthBook ~24 (stop 50's crawl memory)
    site = GeneratedNewsSite(sections=3, articles_per_section=150).start()
    try:
        result = run_crawl(tmp_path, "-a", f"start_url={site.url}/", "-a", "depth=2",
                           settings=probe_settings(tmp_path / "held.json"))
    finally:
        site.stop()
    assert result.returncode == 0, result.log
    assert len(result.items) == 450
    held = json.loads((tmp_path / "held.json").read_text())
    name = "DepthAwareDupeFilter._depths"
    assert held[name] == 454, held  # every page (robots.txt is fetched beside the filter)
    assert held[f"{name} bytes"] / held[name] < 35, held


def test_a_page_reached_deep_first_is_fetched_again_when_found_shallower(tmp_path):
    # / links to /slow/ (answered late) and /fast/; /fast/ → /mid/ → /x/ reaches /x/ at
    # depth 3, the limit: its link to /y/ is not followed. /slow/ then finds /x/ at depth
    # 2: the filter admits it once more (a revisit), and /y/ is fetched at depth 3
    def page(*links: str) -> tuple[int, str, bytes]:
        anchors = "".join(f'<li><a href="{link}">{link.strip("/")} page</a></li>' for link in links)
        return 200, "text/html", f"<html><body><ul>{anchors}</ul></body></html>".encode()

    site = FixtureSite(tmp_path / "site", routes={
        "/": page("/slow/", "/fast/"), "/slow/": page("/x/"), "/fast/": page("/mid/"),
        "/mid/": page("/x/"), "/x/": page("/y/"), "/y/": page(),
    }, delays={"/slow/": 3.0})
    (tmp_path / "site").mkdir()
    site.start()
    try:
        result = run_crawl(tmp_path, "-a", f"start_url={site.url}/", "-a", "depth=3",
                           settings={"JOBDIR": str(tmp_path / "job")})
    finally:
        site.stop()
    assert result.returncode == 0, result.log
    fetched = site.paths()
    assert fetched.count("/x/") == 2 and fetched.count("/y/") == 1, fetched
    assert fetched.index("/mid/") < fetched.index("/x/") < fetched.index("/slow/"), fetched
    assert result.stats["newsstem/depth/revisited"] == 1
    # and the JOBDIR keeps its smallest depth, 2
    lines = (tmp_path / "job" / SEEN_FILE).read_text().splitlines()
    x = RequestFingerprinter().fingerprint(Request(f"{site.url}/x/")).hex()
    assert f"{x} 2" in lines and len(lines) == 1 + 6, lines
