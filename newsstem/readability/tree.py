"""Small helpers over plain ``lxml.etree`` elements.

The extractor parses with ``lxml.etree.HTMLParser``, not ``lxml.html``: ``lxml.html``
runs a Python class lookup for every element proxy it creates, which makes tree walks
3x slower. These helpers stand in for the few ``HtmlElement`` methods the extractor uses.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from urllib.parse import urljoin

from lxml import etree

__all__ = [
    "Element",
    "common_ancestor",
    "cut_after",
    "drop",
    "in_head",
    "is_below",
    "make_links_absolute",
    "outermost",
    "parser",
    "strip_presentation",
    "text_of",
]

Element = etree._Element

# Attributes holding a URL that a reader of body_html follows or loads.
_LINK_ATTRIBUTES = ("href", "src", "poster", "action", "cite", "longdesc")
_LINK_ATTRIBUTE_SET = frozenset(_LINK_ATTRIBUTES)
# Layout and scripting attributes, dropped from body_html (python-readability's list,
# plus the table and font ones of old pages).
_PRESENTATIONAL = frozenset(
    {
        "style", "width", "height", "align", "valign", "bgcolor", "color", "background",
        "border", "cellpadding", "cellspacing", "face", "size", "nowrap",
    }
)
# A URL with a scheme is absolute already (RFC 3986): skip the slow urljoin.
_HAS_SCHEME = re.compile(r"[a-zA-Z][a-zA-Z0-9+.-]*:")


def parser(keep_comments: bool = False) -> etree.HTMLParser:
    """The parser for pages: UTF-8 input (the caller encodes), no PIs, no comments unless
    asked (a page's comments can mark its text, see :mod:`adsection`). ``huge_tree``
    raises libxml2's depth limit from 255 to 2048: below 255 levels it dropped all text.
    ``collect_ids=False``: libxml2 keeps no table of the ``id`` attributes, which nothing
    here looks up (no XPath ``id()``): the same tree, parsed 4% faster.

    One of each kind per thread, made at its first use and reused (a parser and its
    libxml2 context cost 8-20 us to make, up to 0.3% of a fundus page; lxml resets the
    context for each document, and a parser is not shared between threads).
    """
    parsers = getattr(_PARSERS, "kinds", None)
    if parsers is None:
        parsers = _PARSERS.kinds = {}
    made = parsers.get(keep_comments)
    if made is None:
        made = parsers[keep_comments] = etree.HTMLParser(
            encoding="utf-8",
            remove_comments=not keep_comments,
            remove_pis=True,
            huge_tree=True,
            collect_ids=False,
        )
    return made


_PARSERS = threading.local()


def in_head(root: Element, tag: str) -> Iterator[Element]:
    """The ``tag`` children of the document's ``<head>``, as ``root.iterfind("head/" + tag)``
    without ElementPath's generators set up at each call."""
    return (child for head in root.iterchildren("head") for child in head.iterchildren(tag))


def text_of(element: Element) -> str:
    """All text inside ``element`` (not its tail), like ``HtmlElement.text_content()``.

    >>> text_of(etree.fromstring("<div>a<b>b</b>c</div>"))
    'abc'
    """
    if not len(element):  # its text alone, without the serializer's set-up
        return element.text or ""
    return etree.tostring(element, method="text", encoding="unicode", with_tail=False)


def drop(element: Element) -> None:
    """Remove ``element`` and its children; its tail text stays in the document.

    >>> root = etree.fromstring("<div>a<b>b</b>c<i>i</i>d</div>")
    >>> drop(root[0]); drop(root[0]); etree.tostring(root)
    b'<div>acd</div>'
    """
    parent = element.getparent()
    if parent is None:
        return
    if element.tail:
        previous = element.getprevious()
        if previous is not None:
            previous.tail = (previous.tail or "") + element.tail
        else:
            parent.text = (parent.text or "") + element.tail
    parent.remove(element)


def is_below(element: Element, ancestor: Element) -> bool:
    """Whether ``ancestor`` is an ancestor of ``element``."""
    # (``in`` walks the iterator in C; elements compare by identity)
    return ancestor in element.iterancestors()


def outermost(elements: list[Element]) -> list[Element]:
    """The ``elements`` that are not below another of them, in their order.

    >>> root = etree.fromstring("<div><p><b>x</b></p><i>y</i></div>")
    >>> [e.tag for e in outermost([root[0][0], root[0], root[1]])]
    ['p', 'i']
    """
    return [e for e in elements if not any(is_below(e, other) for other in elements)]


def common_ancestor(first: Element, second: Element) -> Element | None:
    """The nearest element that is an ancestor of both, or None.

    >>> root = etree.fromstring("<div><p><b>x</b></p><i>y</i></div>")
    >>> common_ancestor(root[0][0], root[1]).tag
    'div'
    """
    chain = set(first.iterancestors())  # holding the proxies keeps them the same objects
    return next((node for node in second.iterancestors() if node in chain), None)


def cut_after(root: Element, node: Element, keep: bool = False) -> None:
    """Remove everything after ``node`` inside ``root``, and ``node`` itself (only its tail
    if ``keep``). Nothing happens if ``node`` is not inside ``root``.

    >>> root = etree.fromstring("<div><p>a<b>x</b>t<i>y</i></p><p>z</p></div>")
    >>> cut_after(root, root[0][0]); etree.tostring(root)
    b'<div><p>a</p></div>'
    >>> root = etree.fromstring("<div><p>a<b>x</b>t<i>y</i></p><p>z</p></div>")
    >>> cut_after(root, root[0][0], keep=True); etree.tostring(root)
    b'<div><p>a<b>x</b></p></div>'
    """
    if not is_below(node, root):
        return
    current = node
    while current is not root:
        parent = current.getparent()
        for sibling in list(current.itersiblings()):
            parent.remove(sibling)
        if current is not node:
            current.tail = None
        current = parent
    if keep:
        node.tail = None
    else:
        node.getparent().remove(node)


def make_links_absolute(element: Element, base_url: str) -> None:
    """Resolve the URL attributes below ``element`` against ``base_url``; bad URLs are left.

    >>> root = etree.fromstring('<div><a href="/x">x</a><img src="i.png"/><a href="#n">n</a></div>')
    >>> make_links_absolute(root, "https://site.example/news/a.html")
    >>> [e.get("href") or e.get("src") for e in root]
    ['https://site.example/x', 'https://site.example/news/i.png', 'https://site.example/news/a.html#n']
    """
    for node in element.iter():
        # (its names first: most elements have no URL attribute, and six get()s each cost
        # more than the one list of names)
        names = node.keys()  # noqa: SIM118 - an element's attribute names, not children
        if not names or _LINK_ATTRIBUTE_SET.isdisjoint(names):
            continue
        for attribute in _LINK_ATTRIBUTES:
            value = node.get(attribute)
            if value is None or _HAS_SCHEME.match(value):
                continue
            try:
                node.set(attribute, urljoin(base_url, value.strip()))
            except ValueError:
                continue


def strip_presentation(element: Element) -> None:
    """Remove layout attributes and event handlers (``on*``) below ``element``.

    >>> root = etree.fromstring('<div style="x" onclick="y()"><p class="a" width="3">t</p></div>')
    >>> strip_presentation(root); etree.tostring(root)
    b'<div><p class="a">t</p></div>'
    """
    for node in element.iter():
        for name in node.keys():  # noqa: SIM118 - an element's attribute names, not children
            if name in _PRESENTATIONAL or name.startswith("on"):
                del node.attrib[name]
