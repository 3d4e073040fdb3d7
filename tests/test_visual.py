"""Seed 001's visual scoring (newsstem.visual) on boxes as the browser measures them."""

from __future__ import annotations

from newsstem.visual import Box, boxes_of, main_box, score_box, visual_text

PAGE = (1280.0, 4000.0)
STORY = "The council met again and the plan was changed once more.\n" * 20


def test_the_centred_wide_tall_box_wins_over_columns_banners_and_footers():
    boxes = [
        Box("div", 0, 0, 1280, 4000, STORY + "Menu", wrapper=False, path="div#page"),  # all
        Box("div", 0, 0, 1280, 300, "Town Post " * 30, path="div#banner"),
        Box("div", 220, 320, 800, 2600, STORY, path="div#story"),
        Box("div", 1040, 320, 240, 2600, "Latest " * 100, link_chars=600, path="div#rail"),
        Box("footer", 0, 3700, 1280, 300, "About us " * 30, path="footer"),
    ]
    choice = main_box(boxes, *PAGE, min_chars=200)
    assert choice is not None and choice.box.path == "div#story"


def test_main_counts_double_and_navigation_asides_and_wrappers_are_no_candidates():
    plain = Box("div", 220, 320, 800, 2600, STORY)
    assert score_box(Box("div", 220, 320, 800, 2600, STORY, in_main=True), *PAGE) == 2 * score_box(
        plain, *PAGE
    )
    others = [Box("div", 220, 320, 800, 2600, STORY, in_other=True),
              Box("div", 220, 320, 800, 2600, STORY, wrapper=True),
              Box("nav", 220, 320, 800, 2600, STORY),
              Box("div", 220, 320, 100, 100, STORY)]  # under 5 % of the page
    assert main_box(others, *PAGE) is None


def test_a_box_of_links_or_without_enough_text_is_no_article():
    links = Box("div", 220, 320, 800, 2600, "Teaser headline " * 50, link_chars=700)
    short = Box("div", 220, 320, 800, 2600, "Loading…")
    assert main_box([links, short], *PAGE, min_chars=200) is None


def test_what_the_browser_returned_is_read_defensively():
    width, height, boxes = boxes_of({"width": 1280, "height": 4000, "boxes": [
        {"tag": "DIV", "x": 1, "y": 2, "w": 3, "h": 4, "text": "t", "links": 0, "main": True}]})
    assert (width, height) == PAGE[:1] + (4000.0,) and boxes[0].tag == "div" and boxes[0].in_main
    assert boxes_of(None) == (0.0, 0.0, [])
    assert boxes_of({"width": "wide", "boxes": [{}]}) == (0.0, 0.0, [])


def test_rendered_text_becomes_paragraphs():
    assert visual_text("First line.\n\n  Second\u00a0line. \nThird") == (
        "First line.\n\nSecond line.\n\nThird"
    )
