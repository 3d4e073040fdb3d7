"""The report of ``scrapy learn --report`` (newsstem.layout.report), on real pages of a
CleanPortalEval site (fixtures/SOURCES.md); without a browser (screenshots: tests of
browser mode)."""

from __future__ import annotations

import re

from newsstem.layout.learn import TrainingPage, learn
from newsstem.layout.report import site_report, write_report


def test_a_pattern_of_one_page_says_1_page(tmp_path, bbc):
    # the 6 articles and one of the two section pages: a hub pattern learned from 1 page
    pages = [TrainingPage(page.url, page.html) for name, page in bbc.items() if name != "news_05"]
    result = learn("bbc.co.uk", pages)
    sizes = {p.id: p.pages for p in result.pattern_set.patterns}
    assert sorted(sizes.values()) == [1, 6], sizes

    page = write_report(tmp_path, [site_report("bbc.co.uk", result, pages)], None,
                        "no Chromium found").read_text(encoding="utf-8")
    headings = dict(re.findall(r"<h3 id='([^']+)'>[^<]*?, (\d+ pages?), score", page))
    assert headings == {
        pattern_id: ("1 page" if size == 1 else f"{size} pages")
        for pattern_id, size in sizes.items()
    }
    assert "1 pages" not in page
