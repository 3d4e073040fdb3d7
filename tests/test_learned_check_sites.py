"""``tests/benchmarks/learned.py --check-sites``: the learned-layouts benchmark on sites
named by a check-sites file, for corpora without a usable site field (l3s, mozilla), run
on a tiny corpus built in ``tmp_path`` from the repository's msnbc fixtures (five articles
of one layout, tests/layout/fixtures/msnbc): nothing outside the repository is read.
The shipped file, tests/benchmarks/check_sites.tsv, is checked for its form."""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "benchmarks"))

from learned import CHECK_SITES, check_sites_of, main, read_check_sites  # noqa: E402
from support.layoutpages import write_corpus  # noqa: E402

PAGES = ("news_06", "news_09", "news_10", "news_12", "news_13")
CORPUS = "nosite"
SITE = "tv.msnbc.com"
# as in mozilla: one placeholder URL for every page
PLACEHOLDER = "http://fakehost/test/page.html"


@pytest.fixture
def corpora(tmp_path: Path, monkeypatch) -> Path:
    """A corpus of the five msnbc pages with neither site nor a page's own URL (as l3s and
    mozilla), plus a sixth page (a copy) the check-sites file leaves out."""
    write_corpus(tmp_path, CORPUS, [(f"page-{index}", PLACEHOLDER, None, "msnbc", name)
                                    for index, name in enumerate((*PAGES, PAGES[0]))])
    monkeypatch.setenv("NEWSSTEM_CORPORA", str(tmp_path))
    return tmp_path


def write_check_file(tmp_path: Path, pages: int = len(PAGES)) -> Path:
    path = tmp_path / "check_sites.tsv"
    path.write_text(
        "# a comment\n"
        + "".join(f"{CORPUS}\tpage-{i}\t{SITE}\tlinks:{SITE}\t0.99\n" for i in range(pages))
        + "absent\tx\tother.test\tcanonical:other.test\t1.00\n",
        encoding="utf-8")
    return path


def test_check_sites_are_read_with_a_url_of_their_own_on_their_site(corpora: Path):
    path = write_check_file(corpora)
    halves: dict[str, str] = {}
    found = check_sites_of(corpora, path, 5, halves)
    assert [(corpus, site, half, len(pages)) for corpus, site, pages, half in found] == [
        (CORPUS, SITE, "check", 5)]
    pages = found[0][2]
    # each page under its own address on its site, not mozilla's shared placeholder
    assert [p.url for p in pages] == [f"http://{SITE}/page-{i}" for i in range(5)]
    assert {p.site for p in pages} == {SITE}
    # the page left out of the file is not read; every page read has its extraction half
    assert sorted(halves) == [f"{CORPUS}/page-{i}" for i in range(5)]
    assert set(halves.values()) <= {"tune", "held-out"}
    # a site under --min-pages is not a set
    assert check_sites_of(corpora, write_check_file(corpora, 4), 5, {}) == []


def test_learned_check_sites_reports_the_site_leave_one_out(corpora: Path, capsys):
    path = write_check_file(corpora)
    assert main(["--check-sites", str(path), "-v"]) == 0
    out = capsys.readouterr().out
    assert f"corpus absent not found under {corpora}: skipped" in out
    # one set, the corpus and all, of 1 site and 5 pages: learned and fallback F1, diff
    rows = re.findall(rf"^({CORPUS}|all) +1 +5 +(\d\.\d{{5}}) +(\d\.\d{{5}}) +([+-]\d\.\d{{5}})",
                      out, re.M)
    assert [name for name, *_ in rows] == [CORPUS, "all"]
    learned, fallback, diff = (float(x) for x in rows[0][1:])
    assert abs(learned - fallback - diff) < 1e-5
    assert learned > 0.8 and fallback > 0.8
    # every page left out in turn was read by the pattern learned from the four others
    assert "methods of the learned path: {'pattern': 5}" in out
    assert re.search(rf"^  {CORPUS} +{re.escape(SITE)} +check +5 pages  learned "
                     rf"{learned:.3f}  fallback {fallback:.3f}$", out, re.M)
    # the pages pooled by their corpus's extraction half add up to the five
    section = out.split("by the extraction half of their corpus")[1]
    counts = [int(n) for n in re.findall(rf"^  {CORPUS} (?:tune|held-out) +(\d+)", section, re.M)]
    assert sum(counts) == 5
    # no redesign scenario with the check sites
    assert "redesign scenario" not in out


def test_the_shipped_check_sites_file_is_well_formed():
    lines = [line for line in CHECK_SITES.read_text(encoding="utf-8").splitlines()
             if line.strip() and not line.startswith("#")]
    rows = [line.split("\t") for line in lines]
    assert all(len(row) == 5 for row in rows)
    ids = Counter((corpus, page_id) for corpus, page_id, *_ in rows)
    assert max(ids.values()) == 1  # no page on two sites
    sites = Counter((corpus, site) for corpus, _, site, *_ in rows)
    assert min(sites.values()) >= 4
    assert sum(n >= 5 for n in sites.values()) >= 15  # the sets learned.py runs by default
    assert {corpus for corpus, _ in sites} == {"l3s", "mozilla"}
    # the evidence of every page says how its site was found and the host it named
    kinds = {"canonical", "og:url", "base", "share-url", "own-url", "links"}
    assert all(row[3].split(":")[0] in kinds for row in rows)
    assert all(0.0 <= float(row[4]) <= 1.0 for row in rows)
    assert read_check_sites(CHECK_SITES)["mozilla"]["nytimes-1"] == "nytimes.com"
