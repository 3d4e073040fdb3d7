"""Parsing once, hidden and junk removal, unlikely candidates and their exact restore."""

from __future__ import annotations

from lxml.html import tostring

from newsstem.readability.document import Page, detached, find_unlikely, load_page


def load(html: str) -> Page:
    page = load_page(html)
    assert isinstance(page, Page)
    return page


def test_scripts_styles_and_hidden_elements_are_gone():
    page = load(
        "<html><head><title> A  title </title></head><body><script>var x;</script>"
        "<p>kept</p><div style='display: none'>hidden</div><p hidden>also hidden</p>"
        "<style>p {}</style><p style='color: red'>visible</p></body></html>"
    )
    assert page.title == "A title"
    assert page.body.text_content() == "keptvisible"


def test_unlikely_names_and_roles_are_found_but_maybe_names_are_kept():
    page = load(
        "<body><div class='sidebar'><p>side</p><div class='comment'>inner</div></div>"
        "<div class='main-sidebar'>maybe</div><div id='comments'>talk</div>"
        "<nav role='navigation'>nav</nav><div class='footer'><article>story</article></div>"
        "<p>text</p></body>"
    )
    found = find_unlikely(page.body)
    assert [e.text_content() for e in found] == ["sideinner", "talk", "nav"]


def test_detached_elements_come_back_exactly_with_their_tails():
    html = (
        "<body><div id='a'>one<div class='menu'>m</div>tail after menu"
        "<p>two</p><div class='footer'>f</div>end</div></body>"
    )
    page = load(html)
    before = tostring(page.body)
    unlikely = find_unlikely(page.body)
    assert len(unlikely) == 2
    with detached(unlikely):
        assert page.body.text_content() == "onetail after menutwoend"
    assert tostring(page.body) == before


def test_bad_documents_give_a_reason():
    assert load_page(b"") == "empty document"
    assert load_page("<!-- only a comment -->") == "empty document"
    assert load_page("<html><head><title>no body</title></head></html>") == "empty document"
