"""The tree walks made of calls (element_text, article_blocks, scoring's text runs) read
every element exactly as their iterwalk twins do, which they hand a tree nested deeper
than Python's call stack: the two versions of each walk may not drift apart."""

from pathlib import Path

from lxml import etree

from newsstem.readability.prose import _walked_blocks, article_blocks
from newsstem.readability.render import _walked_text, element_text
from newsstem.readability.scoring import _text_runs, _walked_runs

FIXTURES = Path(__file__).parent / "fixtures"
PARSER = etree.HTMLParser(huge_tree=True)  # as newsstem parses: deep trees kept


def test_each_walk_reads_every_element_of_the_real_page_fixtures_as_its_twin():
    checked = 0
    for path in sorted(FIXTURES.rglob("*.html")):
        root = etree.fromstring(path.read_bytes(), PARSER)
        for element in root.iter():
            if not isinstance(element.tag, str):
                continue
            assert element_text(element) == _walked_text(element), (path.name, element)
            assert article_blocks(element) == _walked_blocks(element), (path.name, element)
            if element.tag == "div":
                assert _text_runs(element) == _walked_runs(element), (path.name, element)
            checked += 1
    assert checked > 5_000  # (8,366 elements when written)


def test_a_tree_deeper_than_the_call_stack_is_read_by_the_twins():
    root = etree.fromstring(
        "<html><body><div>" + "<span>" * 1500 + "Deep <b>text</b><br><br>more"
        + "</span>" * 1500 + "<p>After.</p></div></body></html>",
        PARSER,
    )
    div = next(root.iter("div"))
    assert element_text(div) == _walked_text(div) == "Deep text\n\nmore\n\nAfter."
    assert article_blocks(div) == _walked_blocks(div)
    assert _text_runs(div) == _walked_runs(div)


def test_links_made_absolute_on_the_elements_whose_names_hold_a_url_attribute():
    # make_links_absolute reads an element's URLs only when its attribute names hold one:
    # the same document as reading each URL attribute of every element.
    from urllib.parse import urljoin

    from newsstem.readability.tree import _HAS_SCHEME, _LINK_ATTRIBUTES, make_links_absolute

    base = "https://site.example/news/a.html"
    for path in sorted(FIXTURES.rglob("*.html"))[:40]:
        fast = etree.fromstring(path.read_bytes(), PARSER)
        slow = etree.fromstring(path.read_bytes(), PARSER)
        make_links_absolute(fast, base)
        for node in slow.iter():
            for attribute in _LINK_ATTRIBUTES:
                value = node.get(attribute)
                if value is not None and not _HAS_SCHEME.match(value):
                    try:
                        node.set(attribute, urljoin(base, value.strip()))
                    except ValueError:
                        pass
        assert etree.tostring(fast) == etree.tostring(slow), path.name
