"""One parse per page: decode, parse with lxml, remove what is never text.

Everything after this module works on the tree built here; no stage parses again.
Unlikely candidates are *detached* for the first attempt of the sieve and put back
afterwards (:func:`detached`), so a retry needs neither a re-parse nor a copy.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from lxml import etree
from lxml.html import HTMLParser, HtmlElement

from newsstem.encoding import decode_html
from newsstem.readability.patterns import (
    JUNK_TAGS,
    MAYBE_CANDIDATE,
    UNLIKELY_CANDIDATES,
    UNLIKELY_ROLES,
)
from newsstem.text import normalize_space

__all__ = ["Page", "load_page", "find_unlikely", "detached"]

# python-readability's displayNoneRe: inline styles that hide an element.
_HIDDEN_STYLE = re.compile(
    r"(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*(?:!important\s*)?(?:;|$)",
    re.I,
)
_HIDDEN_XPATH = ".//*[@hidden or contains(@style, 'none') or contains(@style, 'hidden')]"
_UNLIKELY_XPATH = ".//*[@class or @id or @role]"
# Never stripped as unlikely: the page itself, code, and anything holding the article.
_NEVER_UNLIKELY_TAGS = frozenset({"html", "body", "article", "main", "a"})
_HOLDS_ARTICLE = "boolean(descendant::article or descendant::main or ancestor::pre or ancestor::code)"


@dataclass(frozen=True)
class Page:
    """A parsed page: its body (junk removed) and its raw <title> text."""

    root: HtmlElement
    body: HtmlElement
    title: str


def load_page(html: str | bytes) -> Page | str:
    """Parse ``html`` once; return the page, or a reason when there is nothing to read."""
    text = decode_html(html)[0] if isinstance(html, bytes) else html
    # libxml2 stops at NUL and rejects str with an XML encoding declaration: feed it UTF-8.
    data = text.replace("\x00", "").encode("utf-8", "replace")
    parser = HTMLParser(encoding="utf-8", remove_comments=True, remove_pis=True)
    try:
        root = etree.fromstring(data, parser)
    except etree.ParserError:
        return "empty document"
    if root is None or not isinstance(root, HtmlElement):
        return "empty document"
    body = root.find("body")
    if body is None:
        return "empty document"
    title = _title_text(root)
    etree.strip_elements(body, *JUNK_TAGS, with_tail=False)
    _drop_hidden(body)
    return Page(root=root, body=body, title=title)


def _title_text(root: HtmlElement) -> str:
    for path in ("head/title", ".//title"):
        element = root.find(path)
        if element is not None:
            return normalize_space(element.text_content())
    return ""


def _drop_hidden(body: HtmlElement) -> None:
    for element in body.xpath(_HIDDEN_XPATH):
        style = element.get("style")
        if element.get("hidden") is not None or (style and _HIDDEN_STYLE.search(style)):
            element.drop_tree()


def find_unlikely(body: HtmlElement) -> list[HtmlElement]:
    """Outermost elements whose class, id or role names page furniture (seed 000 scoreNode).

    A name that also matches "maybe a candidate" (article, content, main ...) is kept,
    and so is an element that holds an <article> or <main> or sits in code.
    """
    found: list[HtmlElement] = []
    for element in body.xpath(_UNLIKELY_XPATH):
        if element.tag in _NEVER_UNLIKELY_TAGS or not _is_unlikely(element):
            continue
        if found and _is_inside(element, found[-1]):
            continue
        if element.xpath(_HOLDS_ARTICLE):
            continue
        found.append(element)
    return found


def _is_unlikely(element: HtmlElement) -> bool:
    if element.get("role") in UNLIKELY_ROLES:
        return True
    names = f"{element.get('class', '')} {element.get('id', '')}"
    return bool(UNLIKELY_CANDIDATES.search(names)) and not MAYBE_CANDIDATE.search(names)


def _is_inside(element: HtmlElement, ancestor: HtmlElement) -> bool:
    return any(parent is ancestor for parent in element.iterancestors())


@contextmanager
def detached(elements: Iterable[HtmlElement]) -> Iterator[None]:
    """Take ``elements`` out of their tree for the block, then put them back exactly.

    The tail text of a detached element stays in the document (it belongs to the parent).
    """
    undo: list[tuple[HtmlElement, HtmlElement, int, str | None, HtmlElement | None, str | None]] = []
    try:
        for element in elements:
            parent = element.getparent()
            if parent is None:
                continue
            tail, previous = element.tail, element.getprevious()
            holder_text = previous.tail if previous is not None else parent.text
            if tail:
                if previous is not None:
                    previous.tail = (holder_text or "") + tail
                else:
                    parent.text = (holder_text or "") + tail
            index = parent.index(element)
            element.tail = None
            parent.remove(element)
            undo.append((element, parent, index, tail, previous, holder_text))
        yield
    finally:
        for element, parent, index, tail, previous, holder_text in reversed(undo):
            if previous is not None:
                previous.tail = holder_text
            else:
                parent.text = holder_text
            parent.insert(index, element)
            element.tail = tail
