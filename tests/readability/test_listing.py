"""Teaser lists (section fronts) against articles that carry related-story boxes."""

from __future__ import annotations

from lxml import etree

from newsstem.readability.listing import is_listing, teaser_share
from newsstem.readability.options import Options
from newsstem.readability.tree import parser

PROSE = "The council met on Tuesday, and the vote was closer than expected by anyone. "


def body(html: str):
    return etree.fromstring(f"<html><body>{html}</body></html>".encode(), parser()).find("body")


def teaser(number: int, prose: str = "A short teaser sentence about the story.") -> str:
    return (
        f"<div class='story'><h3 class='story-header'><a href='/news/{number}'>Headline"
        f" number {number} of the day</a></h3><p>{prose}</p>"
        f"<ul><li><a href='/news/{number}a'>See also</a></li></ul></div>"
    )


def test_a_section_front_is_all_teasers():
    front = body("".join(teaser(i) for i in range(4)))
    assert teaser_share([front], Options()) == 1.0


def test_an_article_with_a_related_box_is_not_a_listing():
    related = "<div class='related'>" + "".join(teaser(i) for i in range(4)) + "</div>"
    article = body(f"<div><p>{PROSE * 6}</p><p>{PROSE * 5}</p>{related}</div>")
    assert teaser_share([article], Options()) < 0.3


def test_long_entries_under_linked_headings_are_not_teasers():
    # A listicle: each entry links its heading but has a paragraph of its own.
    entries = body("".join(teaser(i, PROSE * 6) for i in range(5)))
    assert teaser_share([entries], Options()) == 0.0


def test_two_teasers_are_not_a_listing_and_in_page_anchors_are_not_headline_links():
    two = body("".join(teaser(i) for i in range(2)))
    assert teaser_share([two], Options()) == 0.0
    contents = "".join(
        f"<div><h2><a href='#part{i}'>Part {i} of the report</a></h2><p>Short part.</p></div>"
        for i in range(5)
    )
    assert teaser_share([body(contents)], Options()) == 0.0


def test_teasers_spread_over_several_selected_siblings_are_counted_together():
    siblings = list(body("".join(teaser(i) for i in range(3))))
    assert len(siblings) == 3
    assert teaser_share(siblings, Options()) == 1.0


def test_a_short_brief_above_its_related_stories_is_not_a_listing():
    # Teasers may hold most of a brief's selection; the brief still has a story.
    brief = "The airport reopened on Friday after the storm, the authority said today. " * 6
    longer = (
        "A longer teaser of the related story, in two full lines, with what happened there. " * 2
    )
    related = "".join(teaser(i, longer) for i in range(6))
    selection = body(f"<div><p>{brief}</p>{related}</div>")
    assert teaser_share([selection], Options()) >= Options().listing_teaser_share
    assert not is_listing([selection], Options())
    assert is_listing([body(related)], Options())
