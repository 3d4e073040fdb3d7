"""Conditional cleaning of the assembled article, with recorded reasons."""

from __future__ import annotations

from lxml.html import fragment_fromstring

from newsstem.readability.cleaning import assemble, clean_article
from newsstem.readability.options import Flags, Options

PROSE = "This sentence has words, and commas, and it runs on for a while longer. "


def clean(html: str, flags: Flags = Flags()):
    root = fragment_fromstring(html)
    article, scores = assemble([root], {})
    removals = clean_article(article, scores, flags, Options())
    return article, removals


def test_fishy_containers_go_and_prose_stays():
    article, removals = clean(
        "<div><p>" + PROSE * 3 + "</p>"
        "<div class='box'><p>Related:</p><ul><li><a href='/1'>One story here</a></li>"
        "<li><a href='/2'>Another story there</a></li></ul></div>"
        "<div class='share'><p>Share this:</p><ul><li><a href='/s'>Mail</a></li></ul></div>"
        "<p>" + PROSE * 2 + "</p></div>"
    )
    text = article.text_content()
    assert "One story" not in text and "Mail" not in text
    assert text.count("This sentence") == 5
    assert {r.reason for r in removals} >= {"too many links"}


def test_a_div_without_blocks_is_a_paragraph_and_never_fishy():
    article, _ = clean("<div><p>" + PROSE + "</p><div><a href='/a'>A lone link</a></div></div>")
    assert "A lone link" in article.text_content()


def test_nothing_is_cleaned_conditionally_once_the_flag_is_off():
    html = "<div><p>" + PROSE + "</p><ul><li><a href='/a'>Only a link list</a></li></ul></div>"
    article, _ = clean(html, Flags(False, False, False))
    assert "Only a link list" in article.text_content()
    article, _ = clean(html)
    assert "Only a link list" not in article.text_content()


def test_headings_of_links_and_negative_headings_go():
    article, removals = clean(
        "<div><h2><a href='/more'>More news</a></h2><h3 class='comment-title'>Comments</h3>"
        "<h2>Real subheading</h2><p>" + PROSE + "</p></div>"
    )
    text = article.text_content()
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
    assert "Choose" not in article.text_content() and "Subscribe" not in article.text_content()
    assert len(article.findall(".//p")) == 2
