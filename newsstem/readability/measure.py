"""Text measures of elements: weighted length, link density, class weight.

Every measure reads the tree through lxml's C-level ``text_content()`` and XPath, never
through serialized HTML. :class:`Measure` caches them per element for one attempt of the
sieve, while the tree does not change; the cleaning stage, which changes its tree as it
goes, calls the uncached functions.
"""

from __future__ import annotations

from lxml.html import HtmlElement

from newsstem.readability.options import Options
from newsstem.readability.patterns import DIV_TO_P_BLOCKS, NEGATIVE, POSITIVE
from newsstem.text import cjk_count, meaningful_length

__all__ = [
    "Measure",
    "text_weight",
    "dense_length",
    "link_density",
    "class_weight",
    "has_block",
]


def text_weight(text: str, cjk_char_weight: float) -> float:
    """Meaningful characters, a CJK character counting ``cjk_char_weight`` times.

    >>> text_weight("Hello, world!", 3.0)
    10.0
    >>> text_weight("東京、大阪。", 3.0)
    12.0
    """
    return meaningful_length(text) + (cjk_char_weight - 1.0) * cjk_count(text)


def dense_length(text: str) -> int:
    """Characters that are not whitespace: the unit of link density.

    >>> dense_length("  a b\\n c ")
    3
    """
    return len("".join(text.split()))


def link_density(element: HtmlElement) -> float:
    """Share of the element's text inside links (0.0 for an element without text)."""
    total = dense_length(element.text_content())
    if not total:
        return 0.0
    return min(1.0, _link_length(element) / total)


def _link_length(element: HtmlElement) -> int:
    if element.tag == "a":
        return dense_length(element.text_content())
    return dense_length(" ".join(element.xpath(".//a//text()")))


def class_weight(element: HtmlElement, weight: int) -> int:
    """+weight for a positive class or id name, -weight for a negative one (each counts)."""
    score = 0
    for feature in (element.get("class"), element.get("id")):
        if feature:
            if NEGATIVE.search(feature):
                score -= weight
            if POSITIVE.search(feature):
                score += weight
    return score


def has_block(element: HtmlElement) -> bool:
    """True when a block element (Readability's divToPElements) is below ``element``."""
    return next(element.iterdescendants(*DIV_TO_P_BLOCKS), None) is not None


class Measure:
    """Cached measures of the elements of one unchanging tree."""

    def __init__(self, options: Options) -> None:
        self._cjk_weight = options.cjk_char_weight
        self._text: dict[HtmlElement, str] = {}
        self._density: dict[HtmlElement, float] = {}
        self._block: dict[HtmlElement, bool] = {}

    def text(self, element: HtmlElement) -> str:
        text = self._text.get(element)
        if text is None:
            text = self._text[element] = element.text_content()
        return text

    def weight(self, element: HtmlElement) -> float:
        return text_weight(self.text(element), self._cjk_weight)

    def link_density(self, element: HtmlElement) -> float:
        density = self._density.get(element)
        if density is None:
            total = dense_length(self.text(element))
            density = min(1.0, _link_length(element) / total) if total else 0.0
            self._density[element] = density
        return density

    def has_block(self, element: HtmlElement) -> bool:
        block = self._block.get(element)
        if block is None:
            block = self._block[element] = has_block(element)
        return block

    def reads_as_paragraph(self, element: HtmlElement) -> bool:
        """A <p>, or a <div> without block children (Readability's div-to-p rule)."""
        return element.tag == "p" or (element.tag == "div" and not self.has_block(element))
