"""A tool line after the story ends the article (ExtractContent's waste expressions)."""

from __future__ import annotations

from lxml import etree

from newsstem.readability import extract
from newsstem.readability.options import Options
from newsstem.readability.prose import article_blocks
from newsstem.readability.render import element_text
from newsstem.readability.trailer import cut_after_tool_line, is_tool_line
from newsstem.readability.tree import parser

STORY = "The council voted on Tuesday to close the old bridge, and traffic will move east. "
COMMENT = "I drive over that bridge every day, and I think this is a terrible idea for all. "


def cut(article) -> str | None:
    """The tool line the article was cut at, or None."""
    blocks = article_blocks(article)
    kept = cut_after_tool_line(article, blocks, Options())
    return blocks[kept].text if kept < len(blocks) else None


def div(html: str):
    return etree.fromstring(f"<div>{html}</div>".encode(), parser()).find(".//div")


def test_comments_after_the_tool_line_of_an_old_news_page_are_cut():
    # The layout of a 2008 regional news page (l3s): story paragraphs, an inline tool
    # line, then reader comments as siblings in the same container.
    article = div(
        f"<p>{STORY * 3}</p><p>{STORY * 2}</p>"
        "<a href='/print'>Print</a> <a href='/mail'>Email this</a> <a href='#c'>Comment</a>"
        "<div class='b_box'>Posted by: reader, town on 8:21pm Tue 1 Jan 08</div>"
        f"<div class='entry'>{COMMENT * 2}</div>"
    )
    assert cut(article) == "Print Email this Comment"
    assert element_text(article).split("\n\n") == [(STORY * 3).strip(), (STORY * 2).strip()]


def test_a_tool_line_above_the_story_goes_alone():
    # It cannot end the story that follows it: the story stays, and the line goes.
    article = div(f"<p>Share this article</p><p>{STORY * 3}</p><p>{STORY}</p>")
    assert cut(article) == "Share this article"
    assert element_text(article).split("\n\n") == [(STORY * 3).strip(), STORY.strip()]
    # A line of a <br>-set block is no element of its own: it stays.
    article = div(f"<p>Share this article<br/>By A. Writer</p><p>{STORY * 3}</p>")
    assert cut(article) is None
    assert "Share this article" in element_text(article)


def test_section_names_and_sentences_with_tool_words_do_not_end_the_article():
    article = div(
        f"<p>{STORY * 3}</p><h3>Comments (2)</h3><p>See also</p>"
        "<p>Print statements or log files help.</p><p>Send more email, he said.</p>"
    )
    assert cut(article) is None
    for line in ("Comments (2)", "See also", "Related stories", "Email: news@example.com"):
        assert not is_tool_line(line, Options())


def test_tool_lines_in_japanese_and_chinese():
    assert is_tool_line("印刷する | メールで送る", Options())
    assert is_tool_line("打印本文 转发", Options())
    assert not is_tool_line("印刷会社の株価が上がった", Options())


def test_extract_ends_the_body_at_the_tool_line():
    page = (
        "<html><body><div id='story'>"
        f"<h1>Bridge to close</h1><p>{STORY * 3}</p><p>{STORY * 2}</p><p>{STORY * 2}</p>"
        "<p><a href='/p'>Printer friendly page</a></p>"
        f"<p>{COMMENT * 2}</p><p>{COMMENT * 2}</p>"
        "</div></body></html>"
    )
    result = extract(page)
    assert result.reason is None
    assert "Printer friendly" not in result.body and "I drive" not in result.body
    assert "I drive" not in result.body_html
    assert result.body.count("The council voted") == 7
