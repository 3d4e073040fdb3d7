"""The redesign check's counts: hub pages that still match their hub patterns must not
hide an article layout that stopped matching (stop 33: a site with two article layouts,
one redesigned, 7 of its 13 articles read by the fallback, and no word of it)."""
from __future__ import annotations

from newsstem.extraction import PageExtraction
from newsstem.layout.patterns import PatternSet
from newsstem.layout.redesign import SiteCounts, layout_change

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
