"""Google AdSense section targeting: the page's own mark of its main text (seed 003).

Sites that target AdSense at their text wrap it in ``<!-- google_ad_section_start -->``
... ``<!-- google_ad_section_end -->``; ``google_ad_section_start(weight=ignore)`` marks
text to leave out. ExtractContent calls it a near-certain body marker (seed 003: "close
to 100% accuracy on sites that use it"). The parser keeps comments only when the page
has the marker; this module copies the marked ranges out of the tree, then the comments
go, so nothing downstream sees them.
"""

from __future__ import annotations

import copy
import re

from lxml import etree

from newsstem.readability.tree import Element, cut_after, drop

__all__ = ["MARKER", "marked_sections"]

# Looked for in the page text before parsing: the only cost on pages without it.
MARKER = "google_ad_section_start"
_START = re.compile(r"^\s*google_ad_section_start\s*(?:\((?P<args>[^)]*)\))?\s*$")
_END = re.compile(r"^\s*google_ad_section_end\b")


def marked_sections(body: Element) -> tuple[Element, ...]:
    """Copies of the ranges between start and end markers (not weight=ignore), in order.

    Removes every comment from ``body`` afterwards. A start without an end is ignored.

    >>> from newsstem.readability.tree import text_of
    >>> body = etree.fromstring(
    ...     "<body><p>menu</p><div><!-- google_ad_section_start --><p>Story.</p>"
    ...     "<p>More story.</p><!-- google_ad_section_end --><p>footer</p></div></body>",
    ...     etree.HTMLParser(),
    ... ).find("body")
    >>> [text_of(section) for section in marked_sections(body)]
    ['Story.More story.']
    >>> len(list(body.iter(etree.Comment)))
    0
    """
    sections = []
    start: Element | None = None
    for comment in list(body.iter(etree.Comment)):
        text = comment.text or ""
        opening = _START.match(text)
        if opening:
            ignored = "ignore" in (opening.group("args") or "")
            start = None if ignored else comment
        elif _END.match(text) and start is not None:
            sections.append(_copy_between(start, comment))
            start = None
    etree.strip_elements(body, etree.Comment, with_tail=False)
    return tuple(section for section in sections if section is not None)


def _copy_between(start: Element, end: Element) -> Element | None:
    """A copy of the smallest element holding both markers, cut to what lies between."""
    common = _common_ancestor(start, end)
    if common is None:
        return None
    twin = copy.deepcopy(common)
    twins = dict(zip(common.iter(), twin.iter()))
    start_twin, end_twin = twins[start], twins[end]
    cut_after(twin, end_twin)  # the end comment, its tail and all after it
    _cut_before(twin, start_twin)
    etree.strip_elements(twin, etree.Comment, with_tail=False)
    if twin.tag in ("body", "html"):
        twin.tag = "div"
    return twin


def _common_ancestor(first: Element, second: Element) -> Element | None:
    chain = set(first.iterancestors())  # holding the proxies keeps them the same objects
    return next((node for node in second.iterancestors() if node in chain), None)


def _cut_before(root: Element, node: Element) -> None:
    """Remove everything before ``node`` (a comment) inside ``root``, and the node."""
    current = node
    while current is not root:
        parent = current.getparent()
        for sibling in list(current.itersiblings(preceding=True)):
            parent.remove(sibling)
        parent.text = None
        current = parent
    drop(node)  # its tail is the first text of the section
