"""JSON-LD articleBody: evidence used when the page's markup gives no article."""

from __future__ import annotations

import json

import pytest

from newsstem.readability import extract
from newsstem.readability.structured import extends

STORY = "The council voted on Tuesday to close the old bridge, and traffic will move east. "


def page(body_html: str, article_body: str | None, raw_json: str | None = None) -> str:
    data = {"@context": "https://schema.org", "@type": "NewsArticle", "headline": "Bridge"}
    if article_body is not None:
        data["articleBody"] = article_body
    block = raw_json if raw_json is not None else json.dumps(data)
    return (
        "<html><head><title>Bridge to close | Daily Planet</title>"
        f'<script type="application/ld+json">{block}</script></head>'
        f"<body><div id='app'>{body_html}</div></body></html>"
    )


def test_a_script_rendered_page_falls_back_to_its_declared_article_body():
    # The story is drawn by scripts: the HTML the crawler gets has a shell and a menu.
    shell = "<nav><a href='/'>Home</a> <a href='/news'>News</a></nav><div>Loading...</div>"
    declared = f"{STORY * 3}\n\n{STORY * 2}\n{STORY}"
    result = extract(page(shell, declared))
    assert result.reason is None
    assert result.body.split("\n\n") == [(STORY * n).strip() for n in (3, 2, 1)]
    assert result.body_html.startswith("<div><p>The council") and result.body_html.count("<p>") == 3


def test_the_markup_wins_over_a_declared_teaser_and_a_declared_text_alike():
    markup = "".join(f"<p>{STORY * 2} Paragraph {i}.</p>" for i in range(4))
    teaser = extract(page(markup, "The council voted to close the bridge."))
    full = extract(page(markup, STORY * 8))
    other = extract(page(markup, "Another text on other matters, at length. " * 40))
    assert teaser.body == full.body == other.body and teaser.body.count("Paragraph") == 4


def test_a_declared_text_holding_the_markups_and_twice_as_long_wins():
    # The markup shows the start of the story (the rest comes by script or for subscribers).
    markup = f"<p>{STORY * 3}</p>"
    declared = f"{STORY * 3}\n\nThe mayor said the new bridge opens in May. {STORY * 3}"
    assert extract(page(markup, declared)).body.count("The mayor said") == 1


def test_a_declared_article_body_beats_a_short_page():
    # The shell's only text is a placeholder: short, but all the page has.
    shell = "<div>Loading...</div>"
    assert extract(page(shell, None)).body == "Loading..."
    assert extract(page(shell, STORY * 4)).body == (STORY * 4).strip()


def test_short_or_broken_declarations_give_the_markups_result():
    shell = "<nav>" + "<a href='/s'>A section of the site</a> " * 10 + "</nav><div>Loading...</div>"
    assert extract(page(shell, "Too short to stand in for a story.")).reason
    broken = extract(page(shell, None, raw_json='{"articleBody": "' + STORY * 5))
    assert broken.body == "" and broken.reason


@pytest.mark.parametrize("ratio", [float("nan"), 5e-324])
def test_extends_at_a_ratio_its_head_count_cannot_use_reads_the_whole_text(ratio):
    # (no count of words outnumbers a NaN ratio's or the smallest float's declared words:
    # the answer is the whole text's, as before the head's words were counted apart)
    assert extends(STORY * 3, STORY * 3, ratio, 0.8)
