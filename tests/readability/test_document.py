"""Parsing once, hidden and junk removal, unlikely candidates and their exact restore."""

from __future__ import annotations

from lxml.etree import tostring

from newsstem.readability.document import Page, detached, load_page
from newsstem.readability.tree import text_of


def load(html: str) -> Page:
    page = load_page(html)
    assert isinstance(page, Page)
    return page


def test_scripts_styles_and_hidden_elements_are_gone():
    page = load(
        "<html><head><title> A  title </title></head><body><script>var x;</script>"
        "<p>kept</p><div style='display: none'>hidden</div><p hidden>also hidden</p>"
        "<style>p {}</style><p style='color: red'>visible</p>"
        "<noembed><a href='/ad'>Ad markup</a></noembed></body></html>"
    )
    assert page.title == "A title"
    assert text_of(page.body) == "keptvisible"


def test_hiding_styles_are_read_in_any_case_and_among_other_declarations():
    page = load(
        "<body><p>kept</p><div style='color: red;DISPLAY:None !important'>hidden</div>"
        "<div style='Visibility: HIDDEN'>hidden too</div>"
        "<div style='background: none; overflow: hidden'>shown</div></body>"
    )
    assert text_of(page.body) == "keptshown"


def test_a_class_alone_and_with_other_attributes_is_read_alike():
    page = load(
        "<body><div class='sidebar'>one</div><div class='sidebar' data-x='1'>two</div>"
        "<div data-x='1' class='sidebar' style='color: red'>three</div><p>text</p></body>"
    )
    assert [text_of(e) for e in page.unlikely] == ["one", "two", "three"]


def test_unlikely_names_and_roles_are_found_but_maybe_names_are_kept():
    page = load(
        "<body><div class='sidebar'><p>side</p><div class='comment'>inner</div></div>"
        "<div class='main-sidebar'>maybe</div><div id='comments'>talk</div>"
        "<nav role='navigation'>nav</nav><div class='footer'><article>story</article></div>"
        "<div class='modal fade' id='login'>Sign in first.</div><p>text</p></body>"
    )
    found = page.unlikely
    assert [text_of(e) for e in found] == ["sideinner", "talk", "nav", "Sign in first."]


def test_detached_elements_come_back_exactly_with_their_tails():
    html = (
        "<body><div id='a'>one<div class='menu'>m</div>tail after menu"
        "<p>two</p><div class='footer'>f</div>end</div></body>"
    )
    page = load(html)
    before = tostring(page.body)
    unlikely = page.unlikely
    assert len(unlikely) == 2
    with detached(unlikely):
        assert text_of(page.body) == "onetail after menutwoend"
    assert tostring(page.body) == before


def test_bad_documents_give_a_reason():
    assert load_page(b"") == "empty document"
    assert load_page("<!-- only a comment -->") == "empty document"
    assert load_page("<html><head><title>no body</title></head></html>") == "empty document"
    assert load_page(b"\x89PNG\r\n\x1a\n" + bytes(range(256))) == "binary data"


def test_content_left_in_head_by_the_parser_is_still_read():
    # An unknown tag before <body> keeps libxml2 inside <head>: no <body> element at all.
    page = load("<html><head><title>T</title><mbox><table><tr><td>Story text here.</td></tr>"
                "</table></mbox></head></html>")
    assert page.title == "T"
    assert text_of(page.body).strip() == "Story text here."


def test_a_title_never_closed_does_not_swallow_the_page():
    prose = "A paragraph of the story, long enough to count, with commas, and words. " * 3
    page = load(
        "<html><head><title>Storm hits the coast\nfunction x() { return 1; }"
        f"<body><div><p>{prose}</p><p>{prose}</p></div></body></html>"
    )
    assert page.title == "Storm hits the coast"
    assert text_of(page.body).count("A paragraph of the story") == 6


def test_content_after_a_stray_body_end_tag_is_still_read():
    prose = "A paragraph of the story, long enough to count, with commas, and words. "
    page = load(
        "<html><head><title>T</title></head><table><tr><td>menu</td></tr></table></body>"
        f"</td></tr></table><table><tr><td><p>{prose}</p></td></tr></table></html>"
    )
    assert "A paragraph of the story" in text_of(page.body)
    assert "menu" in text_of(page.body) and "T" not in text_of(page.body)


def test_a_broken_html_start_tag_does_not_end_the_document():
    # l3s: a logo's <img> attributes pasted into <html ...>, closed by "/>": libxml2 kept
    # nothing after it.
    prose = "A paragraph of the story, long enough to count, with commas, and words. "
    page = load(
        '<!DOCTYPE html><html xmogo.jpg" alt="News &amp; PR" width="145" border="0" /></a>'
        f"</td><td><title>Rice in Baghdad</title><table><tr><td><p>{prose}</p></td></tr>"
        "</table></html>"
    )
    assert page.title == "Rice in Baghdad"
    assert "A paragraph of the story" in text_of(page.body)


def test_content_after_the_html_end_tag_is_read():
    # l3s: two documents served as one; libxml2 dropped all of the second, HTML5 reads it.
    prose = "A paragraph of the story, long enough to count, with commas, and words. "
    page = load(
        "<html><head><title>Weather</title></head><body><p>menu</p></body></html>"
        f"<html><head><title>News</title></head><body><table><tr><td><span>{prose}<br><br>"
        f"{prose}</span></td></tr></table></body></html>"
    )
    assert text_of(page.body).count("A paragraph of the story") == 2


def test_ruby_readings_are_not_text():
    # A Japanese page glosses a word with its kana: the reading is an aid, not the text
    # (trafilatura's evaluation counts "漢字(かんじ)" as a miss).
    page = load(
        "<html><body><p>東京で<ruby>漢字<rp>(</rp><rt>かんじ</rt><rp>)</rp></ruby>を学ぶ。</p>"
        "</body></html>"
    )
    assert text_of(page.body) == "東京で漢字を学ぶ。"
