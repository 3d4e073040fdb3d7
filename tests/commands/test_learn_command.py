"""What ``scrapy learn`` prints per site (newsstem.commands.learn), on real pages of two
CleanPortalEval sites (tests/layout/fixtures/SOURCES.md)."""

from __future__ import annotations

from support.layoutpages import layout_pages

from newsstem.commands.learn import _report
from newsstem.layout.learn import TrainingPage, learn


def test_layouts_of_one_page_are_said_so_every_layout_counted_has_a_line(tmp_path, capsys):
    # "17 pages, 5 layouts" above four lines: the fifth, a page of a layout of its own,
    # was left out, and a user looked for it (a local site of 16 dragnet pages)
    pages = [TrainingPage(p.url, p.html) for p in layout_pages("bbc", "http://bbc.co.uk/news")
             if p.name != "news_05"]
    other = layout_pages("msnbc", "http://bbc.co.uk/tv")[0]  # a page of another layout
    pages.append(TrainingPage(other.url, other.html))
    result = learn("bbc.co.uk", pages)
    lone = [o for o in result.outcomes if o.pages == 1 and o.pattern_id is None]
    assert len(lone) == 1, result.outcomes
    _report("bbc.co.uk", result, str(tmp_path), 0.1)
    lines = capsys.readouterr().out.splitlines()
    assert f", {len(result.outcomes)} layouts, " in lines[0]
    said = [line for line in lines if "of one page" in line]
    assert len(said) == 1, lines
    assert said[0].split() == ["-", "1", "page", "a", "layout", "of", "one", "page:", "too",
                               "few", "to", "learn", "from"]


def test_a_site_of_hub_layouts_only_says_why_nothing_was_written(tmp_path, capsys):
    # stop 38's new user learned from a shallow crawl, its pages all section fronts, and
    # read "no article layout learned": the hub pattern counted above it went nowhere,
    # unexplained. Hubs alone are not written (they would replace the previous file):
    # the line says so, and what to do.
    pages = [TrainingPage(p.url, p.html) for p in layout_pages("bbc", "http://bbc.co.uk/news")
             if p.name in ("news_04", "news_05")]  # two section fronts, one layout
    previous = tmp_path / "bbc.co.uk.json"
    previous.write_text("the previous file", encoding="utf-8")
    result = learn("bbc.co.uk", pages)
    assert [p.kind for p in result.pattern_set.patterns] == ["hub"]
    assert _report("bbc.co.uk", result, str(tmp_path), 0.1) is False
    last = capsys.readouterr().out.splitlines()[-1]
    assert last.startswith("  nothing written: only 1 hub pattern, no article layout learned "
                           "(bbc.co.uk keeps its previous pattern file, if any)"), last
    assert "-a depth=N" in last, last
    assert previous.read_text(encoding="utf-8") == "the previous file"
    assert [p.name for p in tmp_path.iterdir()] == ["bbc.co.uk.json"]
