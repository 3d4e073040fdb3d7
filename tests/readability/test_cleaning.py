"""Conditional cleaning of the assembled article, with recorded reasons."""

from __future__ import annotations

import random
import re

from lxml import etree

from newsstem.readability.cleaning import (
    _LETTER_OR_DIGIT,
    _date_commas,
    _holds_text,
    _inside_prose,
    _link_lines,
    _may_hold_notice,
    assemble,
    clean_article,
)
from newsstem.readability.options import Flags, Options
from newsstem.readability.tree import parser, text_of

PROSE = "This sentence has words, and commas, and it runs on for a while longer. "


def clean(html: str, flags: Flags | None = None):
    root = etree.fromstring(html.encode("utf-8"), parser()).find("body")[0]
    article = assemble([root])
    removals = clean_article(article, flags or Flags(), Options())
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
    # The link list sits between two prose paragraphs: only its links condemn it.
    assert {r.reason for r in removals} >= {"list of links"}


def test_lists_and_tables_inside_the_prose_stay_but_a_list_after_it_goes():
    steps = "".join(
        f"<li>Open the <a href='/s{i}'>settings</a> and choose the option {i}.</li>"
        for i in range(4)
    )
    table = "".join(
        f"<tr><td><a href='/{team}'>{team}</a></td><td>won 3 of 5, lost 2</td></tr>"
        for team in ("Team A", "Team B")
    )
    table = f"<table>{table}</table>"
    related = "".join(f"<li><a href='/r{i}'>A related story {i}</a></li>" for i in range(3))
    article, removals = clean(
        f"<div><p>{PROSE * 2}</p><ol>{steps}</ol><p>{PROSE * 2}</p>{table}<p>{PROSE * 2}</p>"
        f"<ul>{related}</ul></div>"
    )
    text = text_of(article)
    assert text.count("Open the settings") == 4 and "Team A" in text
    assert "A related story" not in text
    assert [r.reason for r in removals if r.tag == "ul"] == ["too many links"]


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


def test_asides_and_footers_inside_the_article_go_but_a_selected_aside_stays():
    article, removals = clean(
        f"<div><p>{PROSE * 3}</p><aside><p>{PROSE} Related reading.</p></aside>"
        f"<p>{PROSE}</p><footer><p>Filed under {PROSE}</p></footer></div>"
    )
    text = text_of(article)
    assert "Related reading" not in text and "Filed under" not in text
    assert text.count("This sentence") == 4
    assert [r.reason for r in removals if r.tag in ("aside", "footer")] == ["aside or footer"] * 2
    selected, _ = clean(f"<aside><p>{PROSE * 3}</p></aside>")
    assert text_of(selected).count("This sentence") == 3


def test_a_list_of_prose_is_not_condemned_by_the_score_of_its_tag():
    # A <ul> starts at -3 (Readability's tag score); python-readability removed it when the
    # paragraphs of its items credited it too little. Only a negative class name condemns.
    items = "".join(f"<li><p>{PROSE}</p></li>" for _ in range(3))
    article, _ = clean(f"<div><p>{PROSE * 3}</p><ul>{items}</ul></div>")
    assert text_of(article).count("This sentence") == 6
    _, named = clean(f"<div><p>{PROSE * 3}</p><ul class='promo-links'>{items}</ul></div>")
    assert [r.reason for r in named if r.tag == "ul"] == ["negative class"]


def test_the_parts_of_a_figure_are_not_too_short():
    # A gallery figure: three images and a short credit in one wrapper.
    images = "<img src='a.jpg'><img src='b.jpg'><img src='c.jpg'>"
    article, _ = clean(
        f"<div><p>{PROSE * 3}</p><figure><div class='photos'>{images}"
        "<span>Crowds at the door (AP)</span></div></figure>"
        f"<p>{PROSE}</p></div>"
    )
    assert "Crowds at the door" in text_of(article)
    assert len(list(article.iter("img"))) == 3


def test_a_heading_with_a_permalink_to_itself_stays_but_a_heading_of_links_goes():
    # Sphinx and blog themes link a section heading to itself ("Setting up¶"), or to its
    # table-of-contents entry plus a permalink (mozilla's mercurial, toc-missing).
    article, removals = clean(
        f"<div><p>{PROSE * 2}</p>"
        "<div id='setting-up'><h3><a href='#toc-7'>Setting up</a><a href='#setting-up'>¶</a></h3>"
        f"<p>{PROSE * 2}</p></div>"
        "<h3 id='backtesting'><a href='#backtesting'>Backtesting</a></h3>"
        f"<p>{PROSE * 2}</p>"
        "<h3><a href='#comments'>Add your comment</a></h3>"
        "<h2><a href='/other-story'>Another story</a></h2></div>"
    )
    text = text_of(article)
    assert "Setting up" in text and "Backtesting" in text
    assert "Add your comment" not in text and "Another story" not in text
    assert [r.reason for r in removals if r.tag in ("h2", "h3")] == ["heading of links"] * 2


def test_a_container_wrapping_a_list_of_the_prose_is_judged_by_its_links_like_the_list():
    # Mozilla's mozilla-2: a feature list, each item a heading, a sentence and a "Learn
    # more" link, in a container with its heading. The list is a third links: kept inside
    # the prose, and its container, mostly the list, must not go for "too many links".
    features = "".join(
        f"<li><h3>Tool {i}</h3><p>{PROSE}</p>"
        f"<a href='/tools/{i}'>Learn more about tool {i}</a></li>"
        for i in range(4)
    )
    related = "".join(f"<li><a href='/r{i}'>A related story number {i}</a></li>" for i in range(4))
    article, removals = clean(
        f"<div><p>{PROSE * 2}</p><section><div class='container'><header><h2>Features and tools"
        f"</h2></header><ul>{features}</ul></div></section><p>{PROSE * 2}</p>"
        f"<div class='box'><h2>Related stories</h2><ul>{related}</ul></div></div>"
    )
    text = text_of(article)
    assert text.count("Learn more about tool") == 4
    assert "A related story" not in text
    assert "container" not in {r.names for r in removals}
    assert {(r.tag, r.reason) for r in removals if r.tag in ("ul", "div")} == {
        ("ul", "too many links"), ("div", "too short")
    }


def test_in_a_story_written_as_lists_the_prose_items_span_the_prose():
    # Release notes (mozilla's firefox-nightly-blog): no paragraphs, only list items. In
    # the attempt that reads list items as paragraphs, a list between two prose items is
    # inside the prose and judged by its links only.
    note = "The team fixed the startup hang that the disk cache caused on slow disks, and more."
    fixes = "".join(
        f"<li>Fixed crash {i} (<a href='/bug/{i}'>Bug 100{i}</a>, thanks)</li>" for i in range(4)
    )
    html = f"<div><ul><li>{note}</li></ul><ul>{fixes}</ul><ul><li>{note}</li></ul></div>"
    article, _ = clean(html, Flags(score_lists=True))
    assert text_of(article).count("Fixed crash") == 4
    article, removals = clean(html, Flags())
    assert "Fixed crash" not in text_of(article)
    assert [r.reason for r in removals] == ["too many links"]


def test_a_short_code_sample_stays_but_a_short_box_goes():
    # Technical articles (mozilla's toc-missing) wrap short data in <div class="highlight">.
    article, removals = clean(
        f"<div><p>{PROSE * 2}</p><div class='highlight'><pre>2, 3, 5, 12</pre></div>"
        f"<p>{PROSE * 2}</p><div><p><code>x = 1</code></p></div><div><p>Sponsored</p></div></div>"
    )
    text = text_of(article)
    assert "2, 3, 5, 12" in text and "x = 1" in text and "Sponsored" not in text
    assert [r.reason for r in removals] == ["too short"]


def test_a_wrapper_of_a_section_heading_stays_but_a_box_left_with_its_heading_goes():
    # Sites built of components wrap each block in its own <div>s (9News, 2024): a
    # crosshead's wrapper is short, but nearly all its text is the heading. A box of
    # related links whose list goes by its class name held more than its heading.
    article, removals = clean(
        f"<div><div><p>{PROSE * 2}</p></div><div><div><h3>WHAT'S NEXT</h3></div></div>"
        f"<div><p>{PROSE * 2}</p></div><div class='box'><h3>Read more</h3>"
        "<div class='related'><a href='/1'>Another story</a></div></div></div>"
    )
    text = text_of(article)
    assert "WHAT'S NEXT" in text
    assert "Read more" not in text and "Another story" not in text
    assert "too short" in {r.reason for r in removals}


def _plain_may_hold_notice(text: str) -> bool:
    """_may_hold_notice as first written: the whole str lowered."""
    lowered = text.lower()
    if any(word in lowered for word in ("©", "(c)", "copyright", "all rights reserved")):
        return True
    return not text.isascii() and any(letter in text for letter in ("\u0130", "\u0131", "\u017f"))


def test_only_two_characters_beyond_ascii_lower_to_ascii_and_only_the_sign_to_a_copyright_sign():
    # what _may_hold_notice's reading of the UTF-8 bytes relies on
    beyond = [c for c in range(128, 0x110000) if not 0xD800 <= c < 0xE000]
    assert [c for c in beyond if any(ord(x) < 128 for x in chr(c).lower())] == [0x130, 0x212A]
    assert [c for c in range(0x110000) if not 0xD800 <= c < 0xE000 and "©" in chr(c).lower()] == [0xA9]


def test_may_hold_notice_equals_its_plain_definition():
    rng = random.Random(13)
    pieces = ["Copyright", "COPYR", "IGHT", "İ", "ı", "ſ", "K", "\u212a", "©", "(C)", "(c", ")",
              "All Rights", " reserved", "ALL RIGHTS RESERVED", "Straße", "東京", "é", "\ud800",
              " ", "\n\n", "c", "opyright", "word"]
    for _ in range(20000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randrange(0, 12)))
        assert _may_hold_notice(text) == _plain_may_hold_notice(text), repr(text)


def test_holds_text_is_a_stripped_text():
    """_holds_text reads a paragraph's own first text before its whole text: the same
    answer as ``text_of(p).strip()``, with the spaces str.strip knows beyond HTML's."""
    rng = random.Random(9)
    alphabet = [" ", "\n", "\t", "\xa0", "\u2009", "\u3000", "\x85", "\u2028", "a", "é", "東"]

    def text() -> str:
        return "".join(rng.choice(alphabet) for _ in range(rng.randrange(4)))

    for _ in range(2000):
        paragraph = etree.Element("p")
        paragraph.text = text() or None
        for _ in range(rng.randrange(3)):
            child = etree.SubElement(paragraph, rng.choice(["b", "img", "span"]))
            child.text, child.tail = text() or None, text() or None
        paragraph.tail = "not counted"
        assert _holds_text(paragraph) == bool(text_of(paragraph).strip())


def test_date_commas_are_the_matches_findall_finds():
    # The pattern the comma rule searched the whole text with, and the digits \d matches.
    findall = re.compile(r"\d, ?(?:1[89]|20)\d\d\b").findall
    rng = random.Random(14)
    pieces = ["1", "2", "0", "9", "8", ", ", ",", " ", "\u0663", "a", "20", "19", "18", "May "]
    for _ in range(20_000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randrange(25)))
        assert _date_commas(text) == len(findall(text)), text


def test_letter_or_digit_is_what_isalnum_takes():
    # (every code point: the pattern _link_lines and _remarks_on_link search with)
    taken = [c for c in range(0x110000) if _LETTER_OR_DIGIT.match(chr(c))]
    assert taken == [c for c in range(0x110000) if chr(c).isalnum()]


def _plain_link_lines(paragraph: etree._Element) -> int:
    """_link_lines as it was written first: every line's links and letters counted."""
    lines = [[0, 0]]

    def outside(text: str | None) -> None:
        lines[-1][1] += sum(character.isalnum() for character in text or "")

    def walk(node: etree._Element) -> None:
        for child in node:
            tag = child.tag
            if isinstance(tag, str) and tag not in ("br", "a"):
                outside(child.text)
                walk(child)
            elif tag == "br":
                lines.append([0, 0])
            elif tag == "a":
                lines[-1][0] += 1
            outside(child.tail)

    outside(paragraph.text)
    walk(paragraph)
    count = 0
    for links, letters in lines:
        if links == 1 and letters == 0:
            count += 1
        elif links or letters:
            return 0
    return count


def test_link_lines_equals_its_plain_definition():
    """_link_lines stops at the first letter or digit outside a link and at a line's
    second link: the same count as every line's links and letters counted."""
    rng = random.Random(58)
    texts = [None, "", " ", "\n", "- ", "_", "—", "ab", "\u0663", "\u00bd", "東"]

    def element(depth: int) -> etree._Element:
        node = etree.Element(rng.choice(["a", "a", "br", "span", "b"]))
        node.text = rng.choice(texts)
        if depth < 3 and node.tag != "br":
            for _ in range(rng.randrange(5)):
                child = element(depth + 1) if rng.random() < 0.9 else etree.Comment("c")
                child.tail = rng.choice(texts)
                node.append(child)
        return node

    counted = 0
    for _ in range(20_000):
        paragraph = element(0)
        paragraph.tag = "p"
        expected = _plain_link_lines(paragraph)
        counted += expected > 0
        assert _link_lines(paragraph) == expected, etree.tostring(paragraph)
    assert counted > 500  # (the cases that count lines, not only the zeros)


STORY_LINE = (
    "The council met on Monday and voted, after a long debate, to keep the library open for"
    " another year."
)


def spanned(markup: str, items_are_paragraphs: bool = False) -> set[str]:
    """The ids (or tags) of the lists and tables :func:`_inside_prose` finds in ``markup``."""
    article = etree.fromstring(markup)
    found = _inside_prose(article, Options(), items_are_paragraphs)
    return {element.get("id", element.tag) for element in found}


def test_the_prose_spans_from_its_first_to_its_last_prose_paragraph():
    """Lists and tables between the first and the last prose paragraphs (a ``<p>``, a
    ``<div>`` without blocks, and in the attempt reading items as paragraphs a ``<li>``
    without blocks) are the prose's; those before the first or after the last are not,
    and one prose paragraph spans nothing."""
    links = "<li><a href='/a'>Another story</a></li>"
    assert spanned(
        f"<div><ul id='before'>{links}</ul><p>{STORY_LINE}</p><ul id='steps'>{links}</ul>"
        f"<p>Short.</p><table id='data'><tr><td>1</td></tr></table><div>{STORY_LINE}</div>"
        f"<ul id='after'>{links}</ul></div>"
    ) == {"steps", "data"}
    # a div holding a block is no paragraph, nor a paragraph short of prose
    assert spanned(
        f"<div><p>{STORY_LINE}</p><ul id='inside'>{links}</ul><div><p>Short.</p>{STORY_LINE}"
        f"<ul id='after'>{links}</ul></div></div>"
    ) == set()
    assert spanned(f"<div><ul id='a'>{links}</ul><p>{STORY_LINE}</p><ul id='b'>{links}</ul></div>") == set()
    assert spanned(f"<div><p>{STORY_LINE}</p><p>{STORY_LINE}</p></div>") == set()
    items = (
        f"<div><ol id='first'><li>{STORY_LINE}</li><li>{STORY_LINE}</li></ol><ul id='links'>{links}</ul>"
        f"<ol id='last'><li>{STORY_LINE}</li></ol></div>"
    )
    assert spanned(items) == set()
    # the list holding the last prose item comes before it in the walk; the one holding
    # the first, before the first
    assert spanned(items, items_are_paragraphs=True) == {"links", "last"}
