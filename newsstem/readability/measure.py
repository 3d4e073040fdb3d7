"""Text measures of elements: weighted length, link density, class weight.

Every measure reads the tree through lxml's C-level text serializer and XPath, never
through serialized HTML. :class:`Measure` caches them per element for one attempt of the
sieve, while the tree does not change; the cleaning stage, which changes its tree as it
goes, calls the uncached functions.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import islice

from lxml import etree

from newsstem.readability.options import Options
from newsstem.readability.patterns import DIV_TO_P_BLOCKS, NEGATIVE, POSITIVE
from newsstem.readability.tree import Element, text_of
from newsstem.text import meaningful_and_cjk_counts

__all__ = [
    "Measure",
    "capped_weight",
    "class_weight",
    "dense_length",
    "dense_length_of",
    "has_block",
    "leaves_page",
    "link_density",
    "navigation_density",
    "navigation_length",
    "text_weight",
]


def text_weight(text: str, cjk_char_weight: float) -> float:
    """Meaningful characters, a CJK character counting ``cjk_char_weight`` times.

    >>> text_weight("Hello, world!", 3.0)
    10.0
    >>> text_weight("東京、大阪。", 2.0)
    8.0
    """
    meaningful, cjk = meaningful_and_cjk_counts(text)
    return meaningful + (cjk_char_weight - 1.0) * cjk


def capped_weight(text: str, cap: float, cjk_char_weight: float) -> float:
    """:func:`text_weight` when it is below ``cap``, else some weight >= ``cap``.

    Thresholds only ask "is it at least N?": a prefix answers that for long texts, which
    saves measuring a whole page's text in each nested container.

    >>> capped_weight("word " * 1000, 10, 1.0) >= 10, capped_weight("a b c", 10, 1.0)
    (True, 3.0)
    """
    head = text[: int(4 * cap) + 1]  # real text has well over 1 meaningful char in 4
    weight = text_weight(head, cjk_char_weight)
    if weight >= cap or len(head) == len(text):
        return weight
    return text_weight(text, cjk_char_weight)


# The whitespace of HTML text: the ASCII spaces, deleted in one pass over the text's bytes
# (three times faster than six counts on a long text, twice on a link's few words; in
# UTF-8 an ASCII byte is never part of another character), and two wider ones, counted.
_ASCII_SPACES = b" \n\t\r\f\v"
_NBSP, _IDEOGRAPHIC_SPACE = "\xa0", "\u3000"


def dense_length(text: str) -> int:
    """Characters that are not whitespace: the unit of link density.

    >>> dense_length("  a b\\n c\\u3000"), dense_length(" a\\tb\\x0bc\\r\\n\\xa0é")
    (3, 4)
    """
    if text.isascii():  # (known to the str: no scan)
        return len(text.encode("ascii").translate(None, _ASCII_SPACES))
    # (encoding and one translate cost a third less than counting the eight spaces)
    encoded = text.encode("utf-8", "surrogatepass")
    ascii_spaces = len(encoded) - len(encoded.translate(None, _ASCII_SPACES))
    return len(text) - ascii_spaces - _wide_spaces(encoded)


# The same whitespace in UTF-8, with the continuation bytes of the longer characters:
# deleting both leaves one byte per character that is not an ASCII space.
_SPACES_AND_CONTINUATIONS = _ASCII_SPACES + bytes(range(0x80, 0xC0))
_NBSP_UTF8, _IDEOGRAPHIC_SPACE_UTF8 = _NBSP.encode(), _IDEOGRAPHIC_SPACE.encode()
# A byte of each wide space that most texts lack: NBSP's second byte (also that of "à",
# "Ġ" ...), the ideographic space's first (also that of kana and CJK punctuation, never
# of a Latin, Greek or Cyrillic letter nor of a typographic quote or dash). As ints:
# ``int in bytes`` is a memchr at once, where a one-byte ``bytes`` is first tried as an
# int, which raises and clears a TypeError (half the instructions of a short text's test).
_NBSP_BYTE, _IDEOGRAPHIC_BYTE = 0xA0, 0xE3


def _wide_spaces(data: bytes) -> int:
    """How many NBSPs and ideographic spaces the UTF-8 ``data`` holds.

    A text without one of their bytes is not counted for that space: a byte looked for
    (memchr) costs a tenth of a count of the two- or three-byte sequence. In UTF-8 (and
    with lone surrogates passed) a sequence counted is always that character.

    >>> _wide_spaces("a\u00a0b\u3000c\u00e0\u3001".encode())
    2
    """
    count = data.count(_NBSP_UTF8) if _NBSP_BYTE in data else 0
    return count + data.count(_IDEOGRAPHIC_SPACE_UTF8) if _IDEOGRAPHIC_BYTE in data else count


def dense_length_of(element: Element) -> int:
    """:func:`dense_length` of the element's text, read as the UTF-8 bytes lxml serializes:
    a container's text (the whole page's, high in the tree) is neither decoded into a str
    nor encoded again to be measured.

    >>> dense_length_of(etree.fromstring("<p> a <b>b\\u00a0é</b>\\n c\\u3000東</p>"))
    5
    """
    data = etree.tostring(element, method="text", encoding="utf-8", with_tail=False)
    if data.isascii():
        return len(data.translate(None, _ASCII_SPACES))
    return len(data.translate(None, _SPACES_AND_CONTINUATIONS)) - _wide_spaces(data)


def link_density(element: Element, text: str | None = None) -> float:
    """Share of the element's text inside links (0.0 for an element without text).

    ``text``: the element's text, when the caller has read it already."""
    total = dense_length_of(element) if text is None else dense_length(text)
    if not total:
        return 0.0
    return min(1.0, _link_length(element) / total)


def navigation_density(element: Element) -> float:
    """Share of the element's text inside links that lead off the page (not "#..." nor
    "javascript:" buttons): what a page of navigation is made of.

    >>> navigation_density(etree.fromstring("<div><a href='/a'>Home</a> text</div>"))
    0.5
    >>> buttons = "<div><a href='javascript:'>Show</a><a href='#x'>more</a></div>"
    >>> navigation_density(etree.fromstring(buttons))
    0.0
    """
    total = dense_length_of(element)
    if not total:
        return 0.0
    return min(1.0, navigation_length(element) / total)


def navigation_length(element: Element) -> int:
    """The dense length of the element's links that lead off the page (see
    :func:`navigation_density`)."""
    return dense_length(" ".join(text_of(link) for link in element.iter("a") if leaves_page(link)))


def leaves_page(link: Element) -> bool:
    """A link to another page: an ``href`` that is not empty, a fragment or a script."""
    href = (link.get("href") or "").strip()
    return bool(href) and not href.lower().startswith(("#", "javascript:"))


def _link_length(element: Element) -> int:
    """Characters of ``element``'s links that are not whitespace."""
    links = (element,) if element.tag == "a" else element.iterdescendants("a")
    # Not XPath ".//a//text()": libxml2 merges its node sets in quadratic time (9 s for a
    # page of 30,000 links). Joining the links' texts is linear, and faster on real pages.
    return dense_length(" ".join(map(text_of, links)))


def class_weight(element: Element, weight: int) -> int:
    """+weight for a positive class or id name, -weight for a negative one (each counts)."""
    key = (element.get("class"), element.get("id"))
    units = _CLASS_UNITS.get(key)
    if units is None:
        if len(_CLASS_UNITS) >= _CLASS_UNITS_LIMIT:
            _CLASS_UNITS.clear()
        units = _CLASS_UNITS[key] = _class_units(*key)
    return units * weight


def _class_units(classes: str | None, identifier: str | None) -> int:
    """The class weight in units: +1 for each positive name, -1 for each negative one."""
    units = 0
    for feature in (classes, identifier):
        if feature:
            feature = feature.lower()
            if NEGATIVE.search(feature):
                units -= 1
            if POSITIVE.search(feature):
                units += 1
    return units


# Class weights in units by (class, id), kept across pages: scoring weighs each candidate,
# cleaning each heading and container, and a page (and a site) repeats its names; the
# two regex searches of a name cost three times a look-up. Bounded.
_CLASS_UNITS: dict[tuple[str | None, str | None], int] = {}
_CLASS_UNITS_LIMIT = 50_000


def has_block(element: Element) -> bool:
    """True when a block element (Readability's divToPElements) is below ``element``.

    >>> has_block(etree.fromstring("<div>a <b>b</b><span><i>c</i><p>d</p></span></div>"))
    True
    >>> has_block(etree.fromstring("<p>a <b>b</b><!-- c --><i>d</i></p>"))
    False
    """
    # (the first descendants tested in Python: lxml sets up a matcher of the nine tags at
    # each filtered walk, which costs more than the one or two elements a fundus pass's
    # 3,652 calls read on average before their answer; a subtree of more than eight
    # descendants and no block among them is walked again, from its first, in C)
    descendants = element.iterdescendants()
    for node in islice(descendants, _BLOCK_LOOKAHEAD):
        if node.tag in _BLOCK_TAGS:
            return True
    if next(descendants, None) is None:
        return False
    return next(element.iterdescendants(*DIV_TO_P_BLOCKS), None) is not None


_BLOCK_TAGS = frozenset(DIV_TO_P_BLOCKS)
_BLOCK_LOOKAHEAD = 8


class Measure:
    """Cached measures of the elements of one unchanging tree."""

    def __init__(self, options: Options) -> None:
        self._cjk_weight = options.cjk_char_weight
        self._text: dict[Element, str] = {}
        self._density: dict[Element, float] = {}
        self._block: dict[Element, bool] = {}
        self._link: dict[Element, int] = {}  # a link's characters that are not whitespace
        # (dense length, link characters below) of the elements whose density was read,
        # and the parents of such elements (see :meth:`_lengths`)
        self._lengths_of: dict[Element, tuple[int, int]] = {}
        self._parents: set[Element] = set()

    def text(self, element: Element) -> str:
        text = self._text.get(element)
        if text is None:
            text = self._text[element] = text_of(element)
        return text

    def weight(self, element: Element, cap: float) -> float:
        """The element's text weight, exact below ``cap`` (see :func:`capped_weight`)."""
        return capped_weight(self.text(element), cap, self._cjk_weight)

    def link_density(self, element: Element) -> float:
        density = self._density.get(element)
        if density is None:
            if element.tag == "a":  # a link's own text: all of it in a link
                total, links = self._dense_length(element), self._links_length(element)
            else:
                total, links = self._lengths(element)
            density = min(1.0, links / total) if total else 0.0
            self._density[element] = density
        return density

    def _lengths(self, element: Element) -> tuple[int, int]:
        """The dense length of ``element``'s text and the dense length of the links below
        it (:func:`_link_length` but of an ``<a>`` itself), kept for its parent.

        Candidates are read from the highest unscaled score down, which is mostly from
        the paragraphs' container up to its ancestors, each holding the one before: an
        element with a measured child adds up its children, the measured ones from here,
        where its whole text (the page's, high in the tree) would be serialized and its
        links walked again."""
        if element in self._parents:
            total, links = self._lengths_by_child(element)
        else:
            total, links = self._dense_length(element), self._links_length(element)
        self._lengths_of[element] = (total, links)
        parent = element.getparent()
        if parent is not None:
            self._parents.add(parent)
        return total, links

    def _dense_length(self, element: Element) -> int:
        """:func:`dense_length` of the element's text, from the text when it was read."""
        text = self._text.get(element)
        return dense_length(text) if text is not None else dense_length_of(element)

    def _lengths_by_child(self, element: Element) -> tuple[int, int]:
        """:meth:`_lengths` of an element summed over its children (dense length is a
        count of characters, and link lengths a sum: both add up over the parts)."""
        known = self._lengths_of
        head = element.text
        total = dense_length(head) if head else 0
        links = 0
        for child in element:
            if isinstance(child.tag, str):  # (a comment's text is not the element's)
                lengths = known.get(child)  # (never a link's: see link_density)
                if lengths is None:
                    total += dense_length_of(child)
                    links += self._sum_of_links(child.iter("a"))  # (it may be one)
                else:
                    total += lengths[0]
                    links += lengths[1]
            tail = child.tail
            if tail:
                total += dense_length(tail)
        return total, links

    def _links_length(self, element: Element) -> int:
        """:func:`_link_length`, each link measured once: the nested candidates of a page
        hold the same links (a loop, not a call per link: a page has hundreds)."""
        links = (element,) if element.tag == "a" else element.iterdescendants("a")
        return self._sum_of_links(links)

    def _sum_of_links(self, links: Iterable[Element]) -> int:
        lengths = self._link
        total = 0
        for link in links:
            length = lengths.get(link)
            if length is None:
                if len(link):  # (markup inside: its text serialized)
                    length = dense_length_of(link)
                else:  # its text alone, without the serializer's set-up
                    text = link.text
                    length = dense_length(text) if text else 0
                lengths[link] = length
            total += length
        return total

    def has_block(self, element: Element) -> bool:
        block = self._block.get(element)
        if block is None:
            block = self._block[element] = has_block(element)
        return block

    def reads_as_paragraph(self, element: Element) -> bool:
        """A <p>, or a <div> without block children (Readability's div-to-p rule)."""
        return element.tag == "p" or (element.tag == "div" and not self.has_block(element))
