"""The learned-layouts benchmark (tests/benchmarks/learned.py) run on a tiny corpus of
real pages: five msnbc articles of one layout (tests/layout/fixtures/msnbc) with their
gold texts, under a site of the tuning half and again under one of the held-out half."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "benchmarks"))

from corpora import CorpusPage, halves  # noqa: E402
from learned import main  # noqa: E402
from support.layoutpages import write_corpus  # noqa: E402

MSNBC = Path(__file__).parent / "layout" / "fixtures" / "msnbc"
PAGES = ("news_06", "news_09", "news_10", "news_12", "news_13")
CORPUS = "learned"
# the same pages under two sites, one in each half (corpora.halves: by a hash of the site)
TUNE_SITE, HELD_OUT_SITE = "tv.msnbc.test", "tv.msnbc.com"
# the last three elements of the keys of the blocks holding the headline and a caption
HEADLINE_BLOCK = "div:id=content-sidebar-wrap > div:id=content:class=hfeed > h1:class=entry-title"
CAPTION_BLOCK = ("div:class=embedded-player > div:class=embedded-player > "
                 "div:class=embedded-caption-box")
CAPTION = "IRS Director of Exempt Organizations Lois Lerner addresses a House committee"


def first_line(name: str) -> str:
    return (MSNBC / f"{name}.txt").read_text(encoding="utf-8").splitlines()[0].strip()


@pytest.fixture
def corpora(tmp_path: Path, monkeypatch) -> Path:
    """A corpora folder of one corpus (index.jsonl, html/, gold/) built in ``tmp_path``
    from the repository's msnbc fixtures and found through $NEWSSTEM_CORPORA: nothing
    outside the repository is read (a clone without ../shared runs it)."""
    write_corpus(tmp_path, CORPUS, [
        (f"{site}_{name}", f"http://{site}/{name}.html", site, "msnbc", name)
        for site in (TUNE_SITE, HELD_OUT_SITE) for name in PAGES])
    monkeypatch.setenv("NEWSSTEM_CORPORA", str(tmp_path))
    return tmp_path


def test_the_two_sites_fall_into_the_two_halves():
    page = {site: CorpusPage(CORPUS, site, None, site, b"", "", "")
            for site in (TUNE_SITE, HELD_OUT_SITE)}
    assert halves(list(page.values())) == {TUNE_SITE: "tune", HELD_OUT_SITE: "held-out"}


def test_diff_reads_the_tuning_pages_listed_line_by_line_and_never_a_held_out_one(
    corpora: Path, capsys
):
    worst = 2 * len(PAGES)  # every page listed
    assert main(["--worst", str(worst), "--diff"]) == 0
    out = capsys.readouterr().out
    listed = re.findall(r"^  [+-]\d\.\d\d (\S+) +(\S+) ", out.split("(--diff)")[0], re.M)
    assert sorted(listed) == sorted((site, f"{site}_{name}")
                                    for site in (TUNE_SITE, HELD_OUT_SITE) for name in PAGES)
    diff = out.split("(--diff)")[1].split(f"\n\nthe {worst} pages where learned gains most")[0]
    # one heading per tuning page (its F1 delta, site, id, method and guard), none of the
    # held-out site's pages although they are listed among the worst
    shown = re.findall(r"^  [+-]\d\.\d\d\d (\S+) (\S+) (\S+) guard (\S+)$", diff, re.M)
    assert sorted(page_id for _, page_id, _, _ in shown) == [f"{TUNE_SITE}_{n}" for n in PAGES]
    assert {(site, method) for site, _, method, _ in shown} == {
        (TUNE_SITE, f"pattern:{TUNE_SITE}/1")}
    assert HELD_OUT_SITE not in diff
    # under each heading, the lines one text has and the other lacks ('+': the learned
    # text's), each with the gold's verdict and the last three elements of the key of the
    # pattern's block holding it, the line cut at 110 characters
    by_page: dict[str, list[tuple[str, ...]]] = {}
    for block in diff.split("\n\n")[1:]:
        heading, *lines = block.strip("\n").splitlines()
        by_page[heading.split()[2]] = [
            re.fullmatch(r"    ([+-]) (keep|drop) \[(.+?)\] (.{1,110})", line).groups()
            for line in lines
        ]
    assert sorted(by_page) == sorted(page_id for _, page_id, _, _ in shown)
    # news_10: the pattern takes the headline, which the gold keeps, and a video caption,
    # which the gold drops; the fallback took neither
    (headline, caption) = by_page[f"{TUNE_SITE}_news_10"]
    assert headline == ("+", "keep", HEADLINE_BLOCK, first_line("news_10"))
    assert caption[:3] == ("+", "drop", CAPTION_BLOCK) and caption[3].startswith(CAPTION)
    assert CAPTION not in (MSNBC / "news_10.txt").read_text(encoding="utf-8")
    # and the headlines of three more pages, the gold text's first line
    for name in ("news_09", "news_12", "news_13"):
        assert ("+", "keep", HEADLINE_BLOCK, first_line(name)) in by_page[f"{TUNE_SITE}_{name}"]
