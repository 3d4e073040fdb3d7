"""The redesign scenario of the product-path benchmark (tests/benchmarks/crawl_learn.py
--redesign) run on a tiny corpus of real pages: a site of 8 BBC articles (layout A,
tests/layout/fixtures/bbc, which have no gold texts: empty ones) and a site of 12 msnbc
articles (layout B, tests/layout/fixtures/msnbc), served by one host in turn through real
``scrapy crawl`` and ``scrapy learn`` runs."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "benchmarks"))

from crawl_learn import main, outcome, read_items
from support.layoutpages import FIXTURES, write_corpus

CORPUS = "redesign"
# (site, fixture folder): sorted by site, so that the BBC site is layout A
SITES = (("a.bbc.test", "bbc"), ("b.msnbc.test", "msnbc"))


@pytest.fixture
def corpora(tmp_path: Path, monkeypatch) -> Path:
    """A corpora folder of one corpus of two sites, found through $NEWSSTEM_CORPORA."""
    write_corpus(tmp_path, CORPUS, [
        (f"{site}_{name}", f"http://{site}/{name}.html", site, fixture, name)
        for site, fixture in SITES
        for name in sorted(page.name.removesuffix(".html.gz")
                           for page in (FIXTURES / fixture).glob("*.html.gz"))])
    monkeypatch.setenv("NEWSSTEM_CORPORA", str(tmp_path))
    return tmp_path


def test_a_redesign_is_detected_learned_again_and_read_by_the_new_patterns(corpora, capsys):
    work = corpora / "work"
    assert main(["--redesign", "--corpus", CORPUS, "--redesign-min-site-pages", "5",
                 "--keep", str(work)]) == 0
    out = capsys.readouterr().out
    assert "1 pairs, 20 pages; NEWSSTEM_REDESIGN_MIN_PAGES=8" in out  # 1 + 6 B + 1 A
    # crawl 2's run summary named the site; NEWSSTEM_RELEARN, learn --since and --last
    # each wrote a new file, which keeps A's article pattern; crawl 3 names it no more
    pair = r"^  redesign: a\.bbc\.test -> b\.msnbc\.test +8  6\+6 +(.+)$"
    row = re.search(pair, out, re.MULTILINE)
    assert row and row.group(1).split() == ["yes", "written", "written", "written",
                                            "1of1/1of1/1of1", "no"], out
    assert "by pattern 0 of 6" in out  # crawl 2: A's patterns read none of B's pages

    def figures(group: str) -> tuple[list[float], str]:
        """F1 with no patterns, A's, RELEARN's, --since's, --last's, the library's; and
        the pages by pattern with RELEARN's, of the pair's line under ``group``."""
        line = out.split(group)[1].split("\n")[1]
        *f1, by_pattern = line.split("->")[1].split()[2:9]
        return [float(f) for f in f1], by_pattern

    # B's new pages (read by no learning) by the new patterns, better than the fallback
    f1, by_pattern = figures("B new (after relearning)")
    assert by_pattern == "6/6" and f1[2] == f1[3] == f1[4] == f1[5] > f1[0] == f1[1], out
    # A's pages read as with A's own patterns
    f1, by_pattern = figures("A (before the redesign)")
    assert by_pattern == "6/8" and f1[1] == f1[2] == f1[3] == f1[4] == f1[5], out
    # their F1s, against empty gold texts, cannot tell: the texts and methods page by page
    # A's 8 pages are /a/1.html to /a/8.html, B's numbered on (crawl 1 served A's alone)
    base = next(iter(read_items(work / "crawl-1.jsonl"))).split("/a/")[0]
    a_urls = [f"{base}/a/{n}.html" for n in range(1, 9)]

    def a_pages(step: str) -> dict[str, tuple[str, str]]:
        items = read_items(work / f"{step}.jsonl")
        return {url: (outcome(items.get(url)).body, outcome(items.get(url)).method)
                for url in a_urls}

    with_a = a_pages("crawl-3-a")
    assert len(with_a) == 8 and sum(m == "pattern" for _, m in with_a.values()) == 6, with_a
    for way in ("relearn", "since", "last"):
        assert a_pages(f"crawl-3-{way}") == with_a, way
    assert "pages where crawl 3 (learn --since's file) differs from the library path: 0" in out
