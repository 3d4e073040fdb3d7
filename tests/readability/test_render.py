"""HTML to plain text with one blank line between paragraphs."""

from __future__ import annotations

from lxml import etree

from newsstem.readability.render import element_text, html_text
from newsstem.readability.tree import parser


def text(html: str) -> str:
    body = etree.fromstring(html.encode("utf-8"), parser()).find("body")
    return element_text(body[0])


def test_blocks_and_breaks_make_paragraphs_and_inline_text_flows():
    assert text("<div>a <b>b</b>\n  c<br>d<p>e</p>f</div>") == "a b c\n\nd\n\ne\n\nf"


def test_lists_headings_quotes_and_definitions_are_kept_as_paragraphs():
    html = (
        "<div><h2>Head</h2><ul><li>one</li><li>two <i>2</i></li></ul>"
        "<blockquote>quoted</blockquote><dl><dt>term</dt><dd>meaning</dd></dl>"
        "<figure><img src='x'><figcaption>caption</figcaption></figure></div>"
    )
    assert text(html).split("\n\n") == [
        "Head", "one", "two 2", "quoted", "term", "meaning", "caption"]


def test_table_rows_are_paragraphs_and_cells_are_joined():
    assert text("<table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2</td></tr></table>") == (
        "A B\n\n1 2")


def test_pre_keeps_its_lines_and_tails_follow():
    assert text("<div><pre>x = 1\n\n  y = 2\n</pre>after</div>") == "x = 1\ny = 2\n\nafter"


def test_no_triple_newlines_and_no_outer_space():
    out = text("<div>\n\n<p> </p><p>\u3000a\u00a0 b </p><br><br><br><p>c</p>\n</div>")
    assert out == "a b\n\nc"


def test_html_text_parses_fragments_and_documents():
    assert html_text("<html><body><p>x</p><p>y</p></body></html>") == "x\n\ny"
    assert html_text("<p>x</p>tail") == "x\n\ntail"
    assert html_text("   ") == ""
