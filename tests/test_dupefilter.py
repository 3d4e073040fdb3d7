"""The depth-aware duplicate filter (newsstem/dupefilter.py)."""

from __future__ import annotations

import os

from scrapy import Request
from scrapy.utils.request import RequestFingerprinter

from newsstem.dupefilter import REVISIT_META_KEY, SEEN_FILE, DepthAwareDupeFilter


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
