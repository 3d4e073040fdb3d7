"""Conditional cleaning of the assembled article, with recorded reasons."""

from __future__ import annotations

from lxml import etree

from newsstem.readability.cleaning import assemble, clean_article
from newsstem.readability.options import Flags, Options
from newsstem.readability.tree import parser, text_of

PROSE = "This sentence has words, and commas, and it runs on for a while longer. "


def clean(html: str, flags: Flags | None = None):
    root = etree.fromstring(html.encode("utf-8"), parser()).find("body")[0]
    article, scores = assemble([root], {})
    removals = clean_article(article, scores, flags or Flags(), Options())
    return article, removals


def test_fishy_containers_go_and_prose_stays():
    article, removals = clean(
        "<div><p>" + PROSE * 3 + "</p>"
        "<div class='box'><p>Related:</p><ul><li><a href='/1'>One story here</a></li>"
        "<li><a href='/2'>Another story there</a></li></ul></div>"
        "<div class='share'><p>Share this:</p><ul><li><a href='/s'>Mail</a></li></ul></div>"
        "<p>" + PROSE * 2 + "</p></div>"
    )
    text = text_of(article)
    assert "One story" not in text and "Mail" not in text
    assert text.count("This sentence") == 5
    assert {r.reason for r in removals} >= {"too many links"}


def test_a_div_without_blocks_is_a_paragraph_and_never_fishy():
    article, _ = clean("<div><p>" + PROSE + "</p><div><a href='/a'>A lone link</a></div></div>")
    assert "A lone link" in text_of(article)


def test_nothing_is_cleaned_conditionally_once_the_flag_is_off():
    html = "<div><p>" + PROSE + "</p><ul><li><a href='/a'>Only a link list</a></li></ul></div>"
    article, _ = clean(html, Flags(False, False, False))
    assert "Only a link list" in text_of(article)
    article, _ = clean(html)
    assert "Only a link list" not in text_of(article)


def test_headings_of_links_and_negative_headings_go():
    article, removals = clean(
        "<div><h2><a href='/more'>More news</a></h2><h3 class='comment-title'>Comments</h3>"
        "<h2>Real subheading</h2><p>" + PROSE + "</p></div>"
    )
    text = text_of(article)
    assert "Real subheading" in text
    assert "More news" not in text and "Comments" not in text
    assert sorted(r.reason for r in removals if r.tag != "p") == [
        "heading of links", "heading with a negative class"]


def test_widgets_and_empty_paragraphs_go_but_images_stay():
    article, _ = clean(
        "<div><p>" + PROSE + "</p><p>  </p><p><img src='a.jpg'></p>"
        "<select><option>Choose a section</option></select><button>Subscribe</button></div>"
    )
    assert article.find(".//img") is not None
    assert "Choose" not in text_of(article) and "Subscribe" not in text_of(article)
    assert len(article.findall(".//p")) == 2
