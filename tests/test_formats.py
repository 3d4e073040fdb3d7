"""Body formats (newsstem/formats.py): Markdown that reads as the page, and as the text body.

Real pages: tests/readability/fixtures and tests/fixtures/formats (sources in their
SOURCES.md). The Markdown is read back by markdown-it-py (a CommonMark parser, not ours) to
check that what newsstem escapes stays text and what it marks up becomes structure.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from lxml import html as lxml_html
from markdown_it import MarkdownIt

from newsstem.formats import blocks_to_markdown, html_to_markdown, markdown_text
from newsstem.readability import extract
from newsstem.readability.render import html_text
from newsstem.text import normalize_space

TESTS = Path(__file__).parent
PAGES = sorted((TESTS / "readability" / "fixtures").glob("*.html")) + sorted(
    (TESTS / "fixtures" / "formats").glob("*.html")
)


def rendered(markdown: str) -> str:
    """What a Markdown reader shows: the HTML of a CommonMark parser, GitHub tables on."""
    return MarkdownIt("commonmark").enable("table").render(markdown)


def page_markdown(name: str, links: bool = False) -> tuple[str, str]:
    """(Markdown body, text body) of a page of tests/fixtures/formats."""
    result = extract((TESTS / "fixtures" / "formats" / name).read_bytes())
    return html_to_markdown(result.body_html, links=links), result.body


@pytest.mark.parametrize("path", PAGES, ids=lambda path: path.name)
@pytest.mark.parametrize("links", [False, True])
def test_the_markdown_of_a_real_page_holds_its_text_body_paragraph_for_paragraph(path, links):
    result = extract(path.read_bytes())
    markdown = html_to_markdown(result.body_html, links=links)
    assert markdown_text(markdown) == html_text(result.body_html)
    if result.body:
        assert markdown_text(markdown) == result.body


@pytest.mark.parametrize(
    ("name", "headings", "lists", "quotes"),
    # (e3.html's other heading, the gallery's label "gallery", is not the article's)
    [("e3.html", 1, 1, 1), ("factorio.html", 13, 2, 0)],
)
def test_headings_lists_and_quotes_are_those_of_the_page(name, headings, lists, quotes):
    """Every heading, list and quote of the page that the article holds is marked up as
    the page has it: the level of the heading, the items of the list in order."""
    page = lxml_html.fromstring((TESTS / "fixtures" / "formats" / name).read_bytes())
    markdown, body = page_markdown(name)
    paragraphs = set(body.split("\n\n"))
    lines = markdown.split("\n")
    found = {"headings": 0, "lists": 0, "quotes": 0}
    for level in range(1, 7):
        for heading in page.iter(f"h{level}"):
            text = normalize_space(heading.text_content())
            if text in paragraphs:
                assert "#" * level + " " + text in lines
                found["headings"] += 1
    for listing in page.xpath("//ul[not(.//ul or .//ol)] | //ol[not(.//ul or .//ol)]"):
        items = [normalize_space(item.text_content()) for item in listing.iter("li")]
        if items and all(item in paragraphs for item in items):
            numbered = listing.tag == "ol"
            expected = [f"{n}. " if numbered else "- " for n in range(1, len(items) + 1)]
            assert "\n".join(m + item for m, item in zip(expected, items)) in markdown
            found["lists"] += 1
    for quote in page.iter("blockquote"):
        text = normalize_space(quote.text_content())
        if text in paragraphs:
            assert "> " + text in lines
            found["quotes"] += 1
    assert found == {"headings": headings, "lists": lists, "quotes": quotes}
    shown = rendered(markdown)
    assert shown.count("<blockquote>") == quotes
    assert shown.count("<ul>") + shown.count("<ol>") >= lists


def test_links_of_a_real_page_are_kept_when_asked():
    with_links, _ = page_markdown("e3.html", links=True)
    assert "Via: [Nintendo Everything](http://nintendoeverything.com/" in with_links
    assert 'href="http://nintendoeverything.com/' in rendered(with_links)
    assert "Via: Nintendo Everything" in page_markdown("e3.html")[0]


def test_a_table_of_figures_is_a_markdown_table():
    markdown, _ = page_markdown("poll.html")
    assert "|  | Clinton | Obama | Edwards |" in markdown
    assert "| Women | 47 | 36 | 8 |" in markdown
    shown = rendered(markdown)
    assert "<table>" in shown and "<td>Women</td>" in shown


@pytest.mark.parametrize(
    "text",
    [
        "# not a heading",
        "1. not a list",
        "2024) nor this",
        "- nor this",
        "> nor a quote",
        "*not emphasis* and **not strong**",
        "snake_case and _not emphasis_",
        "[not a link](http://e.org)",
        "<b>not a tag</b> & &amp; not an entity",
        "`not code`",
        "| not | a table |",
        "=== not an underline",
        "back\\slash",
    ],
)
def test_text_that_looks_like_markup_stays_text(text):
    markdown = html_to_markdown(f"<p>{lxml_escape(text)}</p>")
    assert markdown_text(markdown) == text
    shown = lxml_html.fragment_fromstring(rendered(markdown))
    assert shown.tag == "p" and len(shown) == 0, rendered(markdown)  # one paragraph, no markup
    assert shown.text == text


def lxml_escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def test_nested_lists_quotes_and_code_keep_their_structure():
    markdown = html_to_markdown(
        "<ul><li>a<ol><li>a1</li><li>a2</li></ol></li><li>b<p>b, more</p></li></ul>"
        "<blockquote><p>q1</p><blockquote><p>q2</p></blockquote></blockquote>"
        "<pre>x = `1`\n  y = 2\n</pre>"
    )
    assert markdown == (
        "- a\n  1. a1\n  2. a2\n- b\n\n  b, more\n\n"
        "> q1\n>\n> > q2\n\n"
        "```\nx = `1`\n  y = 2\n```"
    )
    shown = rendered(markdown)
    assert shown.count("<li>") == 4 and shown.count("<blockquote>") == 2
    assert "<pre><code>x = `1`\n  y = 2\n</code></pre>" in shown


def test_layout_tables_and_one_column_tables_are_paragraphs():
    layout = html_to_markdown("<table><tr><td><p>first</p><p>second</p></td><td>x</td></tr></table>")
    one_column = html_to_markdown("<table><tr><td>a</td><td></td></tr><tr><td>b</td></tr></table>")
    assert layout == "first\n\nsecond\n\nx"
    assert one_column == "a\n\nb"


def test_cjk_text_is_not_spaced_or_escaped():
    markdown = html_to_markdown("<h2>東京</h2><p>日本語の文章です。</p><ul><li>一つ目</li></ul>")
    assert markdown == "## 東京\n\n日本語の文章です。\n\n- 一つ目"


def test_links_are_kept_only_when_asked_and_only_to_web_pages():
    html = '<p>See <a href="https://e.org/a b(1)">the <b>report</b></a> or <a href="#x">here</a>.</p>'
    assert html_to_markdown(html) == "See the report or here."
    assert html_to_markdown(html, links=True) == "See [the report](https://e.org/a%20b%281%29) or here."
    assert 'href="https://e.org/a%20b%281%29"' in rendered(html_to_markdown(html, links=True))


def test_pattern_blocks_are_marked_up_by_their_element():
    blocks = [
        ("body/div:id=main/h1", "A headline"),
        ("body/div:id=main/div:class=story", "First.\n2. not a list"),
        ("body/div:id=main/div:class=story/ul:class=facts", "one\ntwo"),
        ("body/div:id=main/div:class=story/blockquote", "Said.\nAgain."),
        ("body/div:id=main/div:class=story/pre", "code()"),
        ("body/div:id=main/div:class=story/table/tbody/td", "a cell"),
    ]
    markdown = blocks_to_markdown(blocks)
    assert markdown == (
        "# A headline\n\nFirst.\n\n2\\. not a list\n\n- one\n- two\n\n> Said.\n>\n> Again.\n\n"
        "```\ncode()\n```\n\na cell"
    )
    body = "\n\n".join(line for _, text in blocks for line in text.split("\n"))
    assert markdown_text(markdown) == body
    assert blocks_to_markdown([]) == "" and blocks_to_markdown([("", "only text")]) == "only text"
