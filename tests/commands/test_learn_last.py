"""`scrapy learn --last N` keeps the layouts that the last N pages happen not to have.

A site of two article layouts (tests/layout/fixtures: 12 msnbc pages and 6 bbc article
pages, served gzipped over real HTTP on 127.0.0.1 under one host) is crawled and learned.
Then its front page links the msnbc pages only, and a second crawl archives those: the
last pages of the site are all of one layout. Learning again from them must not drop
the bbc layout, whose pages are still on the site, without a word.
"""

from __future__ import annotations

import json
from html import escape
from pathlib import Path

import pytest
from support.crawl import run_crawl, scrapy
from support.httpserver import FixtureSite

from newsstem.layout.patterns import pattern_file_name

ROOT = Path(__file__).resolve().parents[1] / "layout" / "fixtures"
MSNBC = sorted(f"/msnbc/{p.name.removesuffix('.gz')}" for p in ROOT.glob("msnbc/*.html.gz"))
BBC = [f"/bbc/news_{n}.html" for n in ("01", "02", "03", "06", "08", "09")]


def front(paths: list[str]) -> bytes:
    links = "".join(f'<li><a href="{p}">Story {escape(p)}</a></li>' for p in paths)
    return (f'<!DOCTYPE html><html><head><title>News</title></head><body><h1>News</h1>'
            f'<ul>{links}</ul></body></html>').encode()


@pytest.fixture(scope="module")
def crawled(tmp_path_factory):
    site = FixtureSite(ROOT).start()
    work = tmp_path_factory.mktemp("last")
    try:
        site.routes["/index.html"] = (200, "text/html", front(MSNBC + BBC))
        first = run_crawl(work, "-a", f"start_url={site.url}/index.html", name="first",
                          settings={"NEWSSTEM_ARCHIVE": str(work / "a.warc.gz")})
        assert first.returncode == 0, first.log
        site.routes["/index.html"] = (200, "text/html", front(MSNBC))
        second = run_crawl(work, "-a", f"start_url={site.url}/index.html", name="second",
                           settings={"NEWSSTEM_ARCHIVE": str(work / "b.warc.gz")})
        assert second.returncode == 0, second.log
    finally:
        site.stop()
    return f"127.0.0.1:{site.port}", work


def _layouts(path: Path) -> dict[str, set[str]]:
    """Article pattern id -> the paths of the pages it was learned from."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return {
        p["id"]: {url.split("/", 3)[3].rsplit("/", 1)[0] for url in p["sources"]}
        for p in data["patterns"] if p["kind"] == "article"
    }


def _learn_from_both_crawls(crawled, patterns: str) -> tuple[str, list[str], Path, Path]:
    """The site learned from both crawls' archives: its name, the --input arguments, the
    patterns directory and the pattern file written there."""
    site_name, work = crawled
    out = work / patterns
    inputs = ["--input", str(work / "a.warc.gz"), "--input", str(work / "b.warc.gz")]
    learned = scrapy("learn", site_name, *inputs, "--out", str(out))
    assert learned.returncode == 0, learned.stdout + learned.stderr
    return site_name, inputs, out, out / pattern_file_name(site_name)


def test_learn_last_keeps_the_layout_the_last_pages_lack(crawled):
    site_name, inputs, out, path = _learn_from_both_crawls(crawled, "patterns")
    before = _layouts(path)
    assert sorted(before.values(), key=sorted) == [{"bbc"}, {"msnbc"}], before

    again = scrapy("learn", site_name, *inputs, "--out", str(out), "--last", "12",
                   "--force")
    assert again.returncode == 0, again.stdout + again.stderr
    after = _layouts(path)
    # the msnbc layout learned again from the last 12 pages, the bbc one kept
    assert sorted(after.values(), key=sorted) == [{"bbc"}, {"msnbc"}], again.stdout
    [bbc_id] = [pattern_id for pattern_id, dirs in after.items() if dirs == {"bbc"}]
    assert f"{bbc_id}" in again.stdout and "no recent page has it" in again.stdout, again.stdout


def test_learn_last_keeps_a_file_the_new_patterns_do_not_beat(crawled):
    """As NEWSSTEM_RELEARN: the old file, reading the last pages as well as the new
    patterns do, is kept (one line says so); ``--force`` writes the new one."""
    site_name, inputs, out, path = _learn_from_both_crawls(crawled, "patterns-kept")
    before = path.read_bytes()

    again = scrapy("learn", site_name, *inputs, "--out", str(out), "--last", "12")
    assert again.returncode == 0, again.stdout + again.stderr
    assert "100% with these patterns, 100% with the old file's" in again.stdout, again.stdout
    assert f"not better than the old file: {path} kept (--force writes the new one)" in (
        again.stdout
    ), again.stdout
    assert "written to" not in again.stdout and path.read_bytes() == before

    forced = scrapy("learn", site_name, *inputs, "--out", str(out), "--last", "12", "--force")
    assert forced.returncode == 0, forced.stdout + forced.stderr
    assert f"written to {path}" in forced.stdout and path.read_bytes() != before

    alone = scrapy("learn", site_name, *inputs, "--out", str(out), "--force")
    assert alone.returncode == 2 and "--force goes with --since or --last" in alone.stderr


def test_learn_last_reads_the_old_file_renamed_by_hand(crawled):
    # the site's file renamed by hand (save_pattern_file writes over it): --last looked
    # for <site>.json only, found no old file, and wrote the patterns of the last pages
    # over the renamed one unjudged, the bbc layout they lack lost without a word
    site_name, inputs, out, path = _learn_from_both_crawls(crawled, "patterns-renamed")
    renamed = path.rename(out / "by-hand.json")
    before = renamed.read_bytes()

    again = scrapy("learn", site_name, *inputs, "--out", str(out), "--last", "12")
    assert again.returncode == 0, again.stdout + again.stderr
    assert f"not better than the old file: {renamed} kept" in again.stdout, again.stdout
    assert renamed.read_bytes() == before and not path.exists()

    forced = scrapy("learn", site_name, *inputs, "--out", str(out), "--last", "12", "--force")
    assert forced.returncode == 0, forced.stdout + forced.stderr
    assert f"written to {renamed}" in forced.stdout and not path.exists()
    assert sorted(_layouts(renamed).values(), key=sorted) == [{"bbc"}, {"msnbc"}]
