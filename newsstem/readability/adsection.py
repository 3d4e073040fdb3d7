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
from collections.abc import Collection

from lxml import etree

from newsstem.readability.tree import Element, common_ancestor, cut_after, drop, is_below

__all__ = ["MARKER", "marked_sections"]

# Looked for in the page text before parsing: the only cost on pages without it.
MARKER = "google_ad_section_start"
_START = re.compile(r"^\s*google_ad_section_start\s*(?:\((?P<args>[^)]*)\))?\s*$")
_END = re.compile(r"^\s*google_ad_section_end\b\s*(?:\((?P<args>[^)]*)\))?")
_NAME = re.compile(r"\bname\s*=\s*([^,\s)]+)")


def marked_sections(body: Element, never: Collection[Element] = ()) -> tuple[Element, ...]:
    """Copies of the ranges between start and end markers (not weight=ignore), in order,
    without the elements of ``never`` (what no attempt of the sieve reads as the article:
    reader comments, footers), and none that lies inside one of them: a site marks its
    post and the comments under it alike.

    Ranges nest as the page writes them: an end closes the open start of its ``name``
    (or the last one opened), so a section holding a marked box of related links (or an
    ignored one, which is left out of the copy) is read whole, and only the outermost
    ranges are copied. Removes every comment from ``body`` afterwards. A start without
    an end is ignored.

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
    >>> body = etree.fromstring(
    ...     "<body><!-- google_ad_section_start(name=body) --><p>Story.</p>"
    ...     "<!-- google_ad_section_start(name=related) --><p>Related.</p>"
    ...     "<!-- google_ad_section_end(name=related) --><p>More story.</p>"
    ...     "<!-- google_ad_section_start(weight=ignore) --><p>Ad.</p>"
    ...     "<!-- google_ad_section_end --><p>End.</p>"
    ...     "<!-- google_ad_section_end(name=body) --></body>",
    ...     etree.HTMLParser(),
    ... ).find("body")
    >>> [text_of(section) for section in marked_sections(body)]
    ['Story.Related.More story.End.']

    A comment box inside a section is left out; a section inside a footer is not copied:

    >>> body = etree.fromstring(
    ...     "<body><div><!-- google_ad_section_start --><p>Post.</p><div id=c><p>Comment."
    ...     "</p></div><!-- google_ad_section_end --></div><div id=f>"
    ...     "<!-- google_ad_section_start --><p>Footer.</p><!-- google_ad_section_end -->"
    ...     "</div></body>",
    ...     etree.HTMLParser(),
    ... ).find("body")
    >>> [text_of(section) for section in marked_sections(body, body.xpath("//div[@id]"))]
    ['Post.']
    """
    # (order of the start, of the end, the two markers, ignored ranges inside)
    ranges: list[tuple[int, int, Element, Element, list[tuple[Element, Element]]]] = []
    ignored: list[tuple[int, Element, Element]] = []
    opened: list[tuple[int, Element, str | None, bool]] = []  # (order, marker, name, ignored)
    for order, comment in enumerate(list(body.iter(etree.Comment))):
        text = comment.text or ""
        opening = _START.match(text)
        if opening:
            args = opening.group("args") or ""
            opened.append((order, comment, _name(args), "ignore" in args))
            continue
        closing = _END.match(text)
        if closing is None or not opened:
            continue
        name = _name(closing.group("args") or "")
        index = next(
            (i for i in range(len(opened) - 1, -1, -1) if name and opened[i][2] == name),
            len(opened) - 1,
        )
        start_order, start, _, is_ignored = opened[index]
        enclosed = any(not skip for _, _, _, skip in opened[:index])
        del opened[index:]  # starts opened inside and never ended end here too
        if is_ignored:
            ignored.append((start_order, start, comment))
        elif not enclosed:
            ranges.append((start_order, order, start, comment, []))
    # (copied ranges never overlap: one inside another is not copied; so they are in
    # document order, and an ignored range is inside one at most)
    for start_order, start, end in ignored:
        for section_start, section_end, _, _, holes in ranges:
            if section_start < start_order < section_end:
                holes.append((start, end))
                break
    sections = [_copy_between(start, end, holes, never) for _, _, start, end, holes in ranges]
    etree.strip_elements(body, etree.Comment, with_tail=False)
    return tuple(section for section in sections if section is not None)


def _name(args: str) -> str | None:
    match = _NAME.search(args)
    return match.group(1) if match else None


def _copy_between(
    start: Element,
    end: Element,
    holes: list[tuple[Element, Element]] = (),
    never: Collection[Element] = (),
) -> Element | None:
    """A copy of the smallest element holding both markers, cut to what lies between,
    without the ranges of ``holes`` whose two markers are siblings, and without the
    elements of ``never``; None when it lies inside one of them."""
    common = common_ancestor(start, end)
    if common is None:
        return None
    if not {common, *common.iterancestors()}.isdisjoint(never):
        return None
    twin = copy.deepcopy(common)
    twins = dict(zip(common.iter(), twin.iter()))
    start_twin, end_twin = twins[start], twins[end]
    for hole_start, hole_end in holes:
        if hole_start.getparent() is hole_end.getparent():
            _cut_between(twins[hole_start], twins[hole_end])
    cut_after(twin, end_twin)  # the end comment, its tail and all after it
    _cut_before(twin, start_twin)
    # (after the cuts: a marker inside such an element still bounds the range)
    for element in never:
        left_out = twins.get(element)
        if left_out is not None and is_below(left_out, twin):
            drop(left_out)
    etree.strip_elements(twin, etree.Comment, with_tail=False)
    if twin.tag in ("body", "html"):
        twin.tag = "div"
    return twin


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


def _cut_between(first: Element, last: Element) -> None:
    """Remove what lies between two sibling nodes (``last``'s tail stays)."""
    first.tail = None
    for sibling in list(first.itersiblings()):
        if sibling is last:
            break
        first.getparent().remove(sibling)
