"""Article blocks, and the choice of a wider selection by the prose it adds."""

from __future__ import annotations

from lxml import etree

from newsstem.readability import extract
from newsstem.readability.options import Options
from newsstem.readability.prose import added_prose_share, article_blocks
from newsstem.readability.tree import parser

STORY = "The council voted on Tuesday to close the old bridge, and traffic will move east. "


def blocks(html: str):
    return article_blocks(etree.fromstring(f"<div>{html}</div>".encode(), parser()).find(".//div"))


def test_blocks_follow_block_elements_and_count_text_outside_links():
    found = blocks("<h2>Title</h2><p>One <a href='/x'>linked words</a> here.</p>tail text")
    assert [b.text for b in found] == ["Title", "One linked words here.", "tail text"]
    assert [b.prose for b in found] == [5, 10, 9]
    assert [(b.start.tag, b.at_tail) for b in found] == [("h2", False), ("p", False), ("p", True)]


def test_added_prose_share_counts_only_what_the_wider_selection_adds():
    narrow = blocks(f"<p>{STORY}</p>")
    prose = blocks(f"<p>{STORY}</p><p>Lead: {STORY}</p>")
    legal = blocks(f"<p>{STORY}</p><p>Copyright 2008 Daily Planet. {STORY}</p>")
    links = blocks(f"<p>{STORY}</p><p><a href='/a'>{STORY}</a></p>")
    assert added_prose_share(narrow, prose, Options()) == 1.0
    assert added_prose_share(narrow, legal, Options()) == 0.0
    assert added_prose_share(narrow, links, Options()) == 0.0
    assert added_prose_share(narrow, narrow, Options()) == 0.0


def page(beside: str) -> str:
    # herald-sun-1 (mozilla): the lead is a sibling of the container holding the rest.
    rest = "".join(f"<p>{STORY * 2}</p>" for _ in range(3))
    return (
        "<html><body><div id='wrap'>"
        f"<div class='intro'>{beside}</div>"
        f"<div id='more'><div class='link'>Read more</div><div id='rest'>{rest}</div></div>"
        "</div><div id='nav'><a href='/'>Home</a></div></body></html>"
    )


def test_the_lead_beside_the_best_candidate_joins_when_it_is_prose():
    lead = (
        "<p>A HIGH-powered team has toured newsrooms this week to explain the law, "
        "and editors said the meetings were tense and long.</p>"
    ) * 3
    body = extract(page(lead)).body
    assert body.count("A HIGH-powered team") == 3 and body.count("The council voted") == 6


def test_a_wider_selection_adding_boilerplate_is_not_taken():
    legal = (
        "<p>Copyright 2008 The Daily Planet, a newspaper of the coast. All rights reserved."
        " Republication without permission is not allowed at all, said the lawyers.</p>" * 3
    )
    body = extract(page(legal)).body
    assert "Copyright" not in body and body.count("The council voted") == 6
