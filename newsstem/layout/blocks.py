"""HTML → a sequence of layout blocks (Webstemmer's LayoutBlock, seed 004).

A page is read as the text runs between block-level tags. Each run belongs to
its nearest enclosing *layout element* (``div``, ``td``, ``h2``, ``ul`` …) and
gets that element's **key**: the path of layout elements from ``body`` down,
each with its distinguishing attributes, e.g.
``body/div:id=main/div:class=story-body/h2``. Paragraph tags (``p``, ``li``,
``br`` …) break lines but are not part of the key, so an article body of 3 or
30 paragraphs is one block with one key, as in Webstemmer. Consecutive runs
with the same key are one block.

Keys must be equal on every page of one layout, so volatile parts of
attribute values are normalized (Webstemmer did not, and learned one layout
per page on sites that number their elements):

- digit runs of two or more digits become ``0`` (``post-35697`` → ``post-0``,
  ``col1``/``col2`` stay apart: one digit is usually a designed position);
- letter-and-digit runs of 8+ characters become ``*`` (hashes, encoded ids);
- values that look like URLs or queries (``/ : ? = &``) become ``*``.

Pages are parsed as browsers parse them (HTML5, lexbor through ``selectolax``).
A block's **weight** counts its meaningful characters (letters, digits, CJK;
:func:`newsstem.text.meaningful_length`); ``link_weight`` counts those inside
links, so navigation (all links) and prose (few links) are told apart.

    >>> page = decompose('''<html><head><title>Big news - Site</title></head><body>
    ...   <div id="nav"><a href="/">Home</a> <a href="/w">World</a></div>
    ...   <div class="story post-4711"><h1>Big news</h1>
    ...     <p>First paragraph.</p><p>Second <a href="/x">one</a>.</p></div>
    ... </body></html>''')
    >>> page.title
    'Big news - Site'
    >>> [(b.key, b.text, b.weight, b.link_weight)
    ...  for b in page.blocks]  # doctest: +NORMALIZE_WHITESPACE
    [('body/div:id=nav', 'Home World', 9, 9),
     ('body/div:class=post-0.story/h1', 'Big news', 7, 0),
     ('body/div:class=post-0.story', 'First paragraph.\\nSecond one.', 23, 3)]
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import compress

from lxml import etree
from lxml.html import HTMLParser
from selectolax.lexbor import LexborDocumentOptions, LexborHTMLParser, LexborNode

from newsstem.encoding import decode_html
from newsstem.text import meaningful_length, non_ascii_meaningful_length, xml_safe_utf8

__all__ = [
    "BlockParser",
    "KeyFilter",
    "LayoutBlock",
    "PageLayout",
    "component_tokens",
    "element_tokens",
    "decompose",
    "key_through",
    "normalize_token",
    "stable_tokens",
]

# Elements whose content is never page text. (<object> is not among them: its
# fallback content is what a browser without the plugin shows, e.g. video captions.)
SKIPPED_TAGS = (
    "script", "style", "noscript", "template", "svg", "math", "iframe", "embed", "select",
    "textarea", "button", "head", "title", "map", "audio", "video", "canvas", "noembed",
    "noframes", "rt", "rp",
)
# Layout elements: they start a new block and are components of its key.
LAYOUT_TAGS = frozenset((
    "address", "article", "aside", "blockquote", "body", "caption", "center", "details",
    "dialog", "dir", "div", "dl", "fieldset", "figcaption", "figure", "footer", "form",
    "frame", "frameset", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hgroup", "legend",
    "main", "menu", "nav", "noframes", "ol", "pre", "section", "summary", "table", "tbody",
    "td", "tfoot", "th", "thead", "ul",
))
# Paragraph elements: they break lines inside a block, as <br> does (Webstemmer's output
# lines follow <p> and <br>), but they are not key components.
PARAGRAPH_TAGS = frozenset(["p", "li", "dt", "dd", "br", "hr", "tr", "option"])
# Attributes that distinguish layout elements; table cells also get their column.
KEY_ATTRIBUTES = ("id", "class", "itemprop")
TABLE_KEY_ATTRIBUTES = ("id", "class", "itemprop", "align", "valign", "width")
CELL_TAGS = frozenset(("td", "th"))
# A letter+digit run this long is a hash or an encoded id, not a designed name
# ("9b5c4247…", "gIQAm03DZN"); shorter runs only have their 2+ digit runs zeroed.
HASH_MIN_LENGTH = 8
# Bound of the per-parser cache of normalized attribute values and of a KeyFilter's memo.
CACHE_LIMIT = 50_000
# A token seen on fewer pages than this says nothing about a layout (it may be an
# article's own id or tag); learning needs it on two pages at least.
MIN_TOKEN_PAGES = 2
# A token that sits on its element in fewer than this share of the pages where the
# element's steadiest other token is found is content, not layout: WordPress's
# "tag-guns" next to "hentry", a section name ("technology") next to "has-no-ticker".
MIN_COMPANION_SHARE = 0.75

_ALNUM_WITH_DIGIT = re.compile(r"[A-Za-z0-9]*[0-9][A-Za-z0-9]*")
_DIGIT_RUN = re.compile(r"[0-9]{2,}")
_URL_LIKE = re.compile(r"[/:?=&]")
# Separators of the key syntax; a token never contains them.
_KEY_SYNTAX = str.maketrans({".": "_", "/": "_", ":": "_", "=": "_"})


class LayoutBlock:
    """A run of page text under one layout element.

    ``text`` holds the block's lines (paragraphs, list items, ``<br>`` lines)
    separated by ``"\\n"``; ``weight`` and ``link_weight`` count meaningful
    characters of the whole text and of its link texts. A block is a value
    (compared by these four; do not change it). A decomposed page's blocks keep
    their raw text, and work out their text and link weight from it when these are
    first read: matching a page to a pattern reads the weight of every block, the
    text of a few and the link weight of fewer.
    """

    __slots__ = ("_link_weight", "_raw", "_text", "key", "weight")

    def __init__(self, key: str, text: str, weight: int, link_weight: int) -> None:
        self.key = key
        self.weight = weight
        self._text: str | None = text
        self._link_weight: int | None = link_weight
        self._raw: str | None = None

    @classmethod
    def of_run(cls, key: str, raw: str, weight: int) -> LayoutBlock:
        """A block of raw page text: spaces as in the page, ``LINE_BREAK`` between lines,
        link texts between ``LINK_START`` and ``LINK_END``; ``weight`` counts its
        meaningful characters."""
        block = cls.__new__(cls)
        block.key, block.weight, block._raw = key, weight, raw
        block._text = block._link_weight = None
        return block

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = _normalize_lines(self._raw or "")
        return self._text

    @property
    def link_weight(self) -> int:
        if self._link_weight is None:
            self._link_weight = meaningful_length("".join(_LINK_TEXTS.findall(self._raw or "")))
        return self._link_weight

    def rekeyed(self, key: str) -> LayoutBlock:
        """The same block with another key."""
        block = LayoutBlock.of_run(key, self._raw or "", self.weight)
        block._raw, block._text, block._link_weight = self._raw, self._text, self._link_weight
        return block

    def joined(self, other: LayoutBlock, key: str) -> LayoutBlock:
        """This block and the next one as one block with ``key`` (one line break between)."""
        weight = self.weight + other.weight
        if self._raw is not None and other._raw is not None:
            return LayoutBlock.of_run(key, f"{self._raw}{LINE_BREAK}{other._raw}", weight)
        return LayoutBlock(
            key, f"{self.text}\n{other.text}", weight, self.link_weight + other.link_weight
        )

    @property
    def link_share(self) -> float:
        """Share of the block's meaningful characters that are link text (0 when empty)."""
        return self.link_weight / self.weight if self.weight else 0.0

    @property
    def own_weight(self) -> int:
        """Meaningful characters outside links: what prose weighs."""
        return self.weight - self.link_weight

    def _fields(self) -> tuple[str, str, int, int]:
        return (self.key, self.text, self.weight, self.link_weight)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LayoutBlock):
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        key, text, weight, link_weight = self._fields()
        return (
            f"LayoutBlock(key={key!r}, text={text!r}, weight={weight!r},"
            f" link_weight={link_weight!r})"
        )


@dataclass(frozen=True, slots=True)
class PageLayout:
    """A page as layout blocks, in document order, plus its ``<title>`` text."""

    blocks: tuple[LayoutBlock, ...]
    title: str

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(block.key for block in self.blocks)


def normalize_token(token: str) -> str:
    """The stable part of one attribute token (a class name, an id).

    >>> [normalize_token(t) for t in ["post-35697", "col1", "col12", "story-body"]]
    ['post-0', 'col1', 'col0', 'story-body']
    >>> normalize_token("grofile-hash-map-9b5c424704da515ea57bf4725e37c77b")
    'grofile-hash-map-*'
    >>> normalize_token("http://blogs.example.com/tag/x"), normalize_token("gIQAm03DZN_blog")
    ('*', '*_blog')
    """
    if _URL_LIKE.search(token):
        return "*"
    return _ALNUM_WITH_DIGIT.sub(_normalize_run, token).translate(_KEY_SYNTAX)


def _normalize_run(match: re.Match[str]) -> str:
    run = match.group()
    if len(run) >= HASH_MIN_LENGTH and not run.isdigit():
        return "*"
    return _DIGIT_RUN.sub("0", run)


def _normalize_value(value: str) -> str:
    tokens = sorted({normalize_token(token) for token in value.split()})
    return ".".join(tokens)


class BlockParser:
    """Decompose pages into layout blocks; keeps a cache of normalized attribute values.

    Pages are parsed with lexbor (``selectolax``), an HTML5 parser: it builds the
    tree browsers build, in about a quarter of the time libxml2 takes, and its
    nodes are cheap to visit from Python, so the one pass over the tree below costs
    less than libxml2's parse alone. One parser can serve many pages (the cache
    makes keys cheaper on pages of one site); it is not thread-safe.
    """

    def __init__(self) -> None:
        # (tag, key attribute values[, column]) -> key component
        self._components: dict[tuple[str | int | None, ...], str] = {}
        self._standard_kinds, self._names = _tag_kinds()
        self._kinds = dict(self._standard_kinds)  # and the custom elements met: see _walk
        self._text_id = next(tag_id for tag_id, kind in self._kinds.items() if kind == _TEXT)
        self._cell_ids = frozenset(i for i, name in self._names.items() if name in CELL_TAGS)
        self._table_ids = frozenset(i for i, name in self._names.items() if name in _TABLE_TAGS)
        self._child_keys: dict[KeyFilter | None, dict[tuple, str]] = {}

    def decompose(self, html: str | bytes, key_filter: KeyFilter | None = None) -> PageLayout:
        """The layout blocks of ``html`` (bytes are decoded like the crawler does), their keys
        filtered by ``key_filter`` if given (as ``key_filter.apply`` would, without a
        second pass)."""
        if isinstance(html, bytes):
            html = decode_html(html)[0]
        if not html or html.isspace():
            return PageLayout(blocks=(), title="")
        # lexbor reads UTF-8: encoded here as selectolax would encode the str, so that the
        # tags are counted on bytes
        utf8 = html.encode("utf-8", "ignore")
        if _unclosed_tags_over(utf8, MAX_UNCLOSED_TAGS):
            return _flat_layout(html)
        # Without mutation events (the DOM callbacks a browser needs, e.g. <selectedcontent>
        # copies) lexbor parses faster; the walk reads nothing they change.
        document = LexborHTMLParser(utf8, options=LexborDocumentOptions.WO_EVENTS)
        title_node = document.css_first("title")
        title = " ".join(title_node.text().split()) if title_node is not None else ""
        body = document.body
        if body is None:
            return PageLayout(blocks=(), title=title)
        return PageLayout(blocks=tuple(self._walk(body, key_filter)), title=title)

    def _component(self, tag: str, attributes: dict[str, str | None], column: int) -> str:
        table = tag in _TABLE_TAGS
        names = TABLE_KEY_ATTRIBUTES if table else KEY_ATTRIBUTES
        values = tuple(map(attributes.get, names))
        cache_key = (tag, *values, column) if table else (tag, *values)
        cache = self._components
        component = cache.get(cache_key)
        if component is None:
            parts = [tag]
            for name, value in zip(names, values):
                if value and value.strip():
                    normalized = _normalize_value(value)
                    if normalized:
                        parts.append(f"{name}={normalized}")
            if tag in CELL_TAGS:
                parts.append(f"col={column}")
            component = ":".join(parts)
            if len(cache) >= CACHE_LIMIT:
                cache.clear()
            cache[cache_key] = component
        return component

    def _walk(self, body: LexborNode, key_filter: KeyFilter | None) -> list[LayoutBlock]:
        """One depth-first pass over the tree, in document order.

        Text goes to the run of its nearest layout element; paragraph elements
        break lines, links count their text, skipped elements hide theirs. Nodes
        are told apart by lexbor's tag id (an int; no tag name is decoded) and
        visited through ``first_child``/``next``: the cheapest way through the tree
        from Python. Below ``MAX_DEPTH`` elements, a subtree is read as plain text.

        The text of the whole page is collected in one list, runs separated by
        ``RUN_END``, link texts marked in it, and cut into runs at the end (most runs,
        between two layout elements, are blank).
        """
        kinds, text_id, cell_ids = self._kinds, self._text_id, self._cell_ids
        if len(kinds) > MAX_KNOWN_TAGS:  # the custom elements of many pages: forget them
            kinds = self._kinds = dict(self._standard_kinds)
        table_ids, new_key = self._table_ids, self._new_key
        # A layout element's key is its parent's key and its own component, cached by
        # (parent key, tag, key attributes): the elements of a site's template cost a
        # lookup here, and a key is the same string on every page.
        known_keys = self._child_keys.setdefault(key_filter, {})
        pieces: list[str] = []  # text nodes and the marks: see RUN_END, LINE_BREAK, LINK_START
        body_component = self._component("body", body.attributes, 0)
        keys = [key_filter.component(body_component) if key_filter else body_component]
        append, start_run = pieces.append, keys.append
        links = 0  # open links: their marks are set when the count leaves and comes back to 0

        def visit(node: LexborNode, depth: int) -> None:
            nonlocal links
            if depth > MAX_DEPTH:
                _read_flat(node, pieces, links > 0, text_id, kinds)
                return
            cells = 0
            child = node.first_child
            while child is not None:
                text = child.text_content  # None unless a text node
                if text is not None:
                    append(text)
                else:
                    tag_id = child.tag_id
                    try:  # (a subscript: cheaper than a get call)
                        kind = kinds[tag_id]
                    except KeyError:  # a custom element (its id is a pointer): inline
                        kind = kinds[tag_id] = _INLINE
                    if kind == _LAYOUT:
                        if tag_id in cell_ids:
                            cells += 1
                        outer = keys[-1]
                        append(_LINK_RUN_END if links else RUN_END)  # marks closed in each run
                        attributes = child.attributes
                        if tag_id in table_ids:
                            signature: tuple = (
                                outer, tag_id, cells, *map(attributes.get, TABLE_KEY_ATTRIBUTES)
                            )
                        else:  # (three method calls: faster in 3.11 than one bound .get)
                            signature = (
                                outer, tag_id, attributes.get("id"), attributes.get("class"),
                                attributes.get("itemprop"),
                            )
                        key = known_keys.get(signature)
                        if key is None:
                            key = new_key(
                                known_keys, signature, key_filter, tag_id, attributes, cells
                            )
                        start_run(key)
                        visit(child, depth + 1)
                        append(_LINK_RUN_END if links else RUN_END)
                        start_run(outer)
                    elif kind == _LINK:
                        if not links:
                            append(LINK_START)
                        links += 1
                        # most links hold one text node: read here, without a visit
                        only = child.first_child
                        if only is not None:
                            text = only.text_content if only.next is None else None
                            if text is not None:
                                append(text)
                            else:
                                visit(child, depth + 1)
                        links -= 1
                        if not links:
                            append(LINK_END)
                    elif kind == _SKIP:  # (kinds by how often they come, most first)
                        pass
                    elif kind == _PARAGRAPH:
                        append(LINE_BREAK)
                        visit(child, depth + 1)
                        append(LINE_BREAK)
                    elif kind == _INLINE:
                        visit(child, depth + 1)
                    elif kind == _BREAK:
                        append(LINE_BREAK)
                child = child.next

        visit(body, 1)
        visit = None  # it refers to itself: without this, each page's text waits for the GC
        return _blocks(keys, "".join(pieces))

    def _new_key(
        self,
        cache: dict[tuple, str],
        signature: tuple,
        key_filter: KeyFilter | None,
        tag_id: int,
        attributes: dict[str, str | None],
        column: int,
    ) -> str:
        """The key of a layout element not in ``cache`` yet: its parent's key (the first item
        of ``signature``) and its own component; kept in ``cache`` under ``signature``."""
        component = self._component(self._names[tag_id], attributes, column)
        if key_filter is not None:
            component = key_filter.component(component)
        key = f"{signature[0]}/{component}"
        if len(cache) >= CACHE_LIMIT:
            cache.clear()
        cache[signature] = key
        return key


# Deeper than this, a subtree is one run of text (a guard for pathological nesting: the
# walk recurses; real pages nest 20-60 elements deep).
MAX_DEPTH = 250
# lexbor's parse slows down with the square of the nesting of block elements (100,000
# <div>s opened and never closed: 15 s; 20,000: 0.5 s). A page holding more tags than
# this that are not closed (start tags, less twice the end tags: void elements count
# too) is read as one block of text, without lexbor: real pages hold a few hundred.
MAX_UNCLOSED_TAGS = 20_000


def _unclosed_tags_over(html: bytes, limit: int) -> bool:
    """Whether ``html`` (UTF-8) holds more than ``limit`` tags that are not closed (start
    tags less twice the end tags). The end tags are counted only on a page with more than
    ``limit`` tags: counting ``"</"`` costs twice counting ``"<"``, and few pages get that far.

    >>> _unclosed_tags_over(b"<div>" * 5 + b"</div>" * 2, 2)
    True
    >>> _unclosed_tags_over(b"<p>a</p>" * 9, 2)
    False
    """
    tags = _count_byte(html, b"<")
    return tags > limit and tags - 2 * html.count(b"</") > limit


def _count_byte(data: bytes, byte: bytes) -> int:
    """How many times ``byte`` is in ``data``. ``bytes.replace`` finds them with memchr,
    which skips many bytes at a time, where ``bytes.count`` compares each byte: on real
    pages (a tag every 40 bytes) this takes 40% of the instructions.

    >>> _count_byte(b"<p>a</p><br>", b"<")
    3
    """
    return len(data) - len(data.replace(byte, b""))


def _flat_layout(html: str) -> PageLayout:
    """A page too deeply nested for the layout parser, as one block of its text (it then
    matches no pattern; libxml2, which gives up below 256 levels, reads it)."""
    try:
        root = etree.fromstring(
            xml_safe_utf8(html), HTMLParser(encoding="utf-8", remove_comments=True)
        )
    except (etree.ParserError, ValueError):
        return PageLayout(blocks=(), title="")
    if root is None:
        return PageLayout(blocks=(), title="")
    title = " ".join(root.findtext(".//title", "").split())
    etree.strip_elements(root, *SKIPPED_TAGS, with_tail=False)
    body = root.find("body")
    text = _normalize_lines((body if body is not None else root).text_content())
    weight = meaningful_length(text)
    blocks = (LayoutBlock("body", text, weight, 0),) if weight else ()
    return PageLayout(blocks=blocks, title=title)


def _read_flat(
    node: LexborNode, pieces: list[str], in_link: bool, text_id: int, kinds: dict[int, int]
) -> None:
    """The text of ``node``'s children, each element's subtree as one piece (skipped
    elements left out, and out of the link if in one: their links are not known)."""
    for child in node.iter(include_text=True):
        tag_id = child.tag_id
        if tag_id == text_id:
            pieces.append(child.text_content)
        elif kinds.get(tag_id) != _SKIP:
            text = child.text(deep=True)
            if text and not text.isspace():
                pieces.append(f"{LINK_END}{text}{LINK_START}" if in_link else text)


# Kinds of nodes for the walk: inline elements are transparent; breaks are empty
# paragraph elements (<br>, <hr>).
_INLINE, _LAYOUT, _PARAGRAPH, _BREAK, _LINK, _SKIP, _TEXT = range(7)
# Elements that never have content (HTML5 void elements): nothing to visit.
_VOID_TAGS = (
    "area", "base", "col", "embed", "img", "input", "keygen", "link", "meta", "param",
    "source", "track", "wbr",
)
_TABLE_TAGS = frozenset(("table", "td", "th"))
# Separators in the text of a page as collected. RUN_END ends a run: HTML5 parsers drop or
# replace NUL, so no page text holds it. LINE_BREAK breaks a line: a control character
# that pages do not use (one in a text would break its line, which is all it can do).
RUN_END = "\x00"
LINE_BREAK = "\x01"
# Link texts are marked between LINK_START and LINK_END (control characters too, and as
# harmless in a text: they can only make its link weight wrong). A run inside a link ends
# with LINK_END and the next one starts with LINK_START.
LINK_START = "\x02"
LINK_END = "\x03"
_LINK_RUN_END = f"{LINK_END}{RUN_END}{LINK_START}"
_LINK_TEXTS = re.compile("\x02([^\x03]*)")


def _tag_kinds() -> tuple[dict[int, int], dict[int, str]]:
    """lexbor tag id -> kind of node for the walk, and -> name for layout elements (the ids
    of standard tags are fixed)."""
    probe = LexborHTMLParser("<!DOCTYPE html><body><!-- -->text</body>")
    kinds, names = {}, {}
    for tags, kind in (
        (_VOID_TAGS, _SKIP),
        (SKIPPED_TAGS, _SKIP),
        (LAYOUT_TAGS, _LAYOUT),
        (PARAGRAPH_TAGS, _PARAGRAPH),
        (("br", "hr"), _BREAK),
        (("a",), _LINK),
    ):
        for name in tags:
            tag_id = probe.create_node(name).tag_id
            kinds[tag_id] = kind
            if kind == _LAYOUT:
                names[tag_id] = name
    for node in (probe.root.prev, probe.body.first_child):  # doctype, comment
        kinds[node.tag_id] = _SKIP
    kinds[probe.body.last_child.tag_id] = _TEXT
    # every other standard tag is inline: listed too, so that the walk looks a kind up with
    # a subscript (custom elements, with ids beyond these, are added as the walk meets them)
    for tag_id in range(_STANDARD_TAG_IDS):
        kinds.setdefault(tag_id, _INLINE)
    return kinds, names


# lexbor's ids of standard tags are below this (LXB_TAG__LAST_ENTRY, 0xC6 in lexbor 2);
# a custom element's id is the address of its name in its document, far above.
_STANDARD_TAG_IDS = 0x100
# A parser remembers the kind of the custom elements it met (inline; a KeyError costs as
# much as a hundred lookups) until it knows this many tags: the ids of custom elements
# are new on every page.
MAX_KNOWN_TAGS = _STANDARD_TAG_IDS + 2000


def _blocks(keys: list[str], text: str) -> list[LayoutBlock]:
    """The blocks of the runs of ``text`` that have meaningful text (most runs, between
    two layout elements, are blank); a run with the key of the block before it extends
    that block (a layout element between them broke the line).

    The runs are cut from the page's UTF-8 bytes, which the weights need anyway, and only
    those with text are decoded: cheaper than cutting the whole ``str`` (a third of its
    runs have text)."""
    utf8 = text.encode()
    runs = utf8.split(_RUN_END_BYTE)
    weights = _run_weights(utf8)
    blocks: list[LayoutBlock] = []
    for run in compress(range(len(runs)), weights):
        key = keys[run]
        block = LayoutBlock.of_run(key, runs[run].decode(), weights[run])
        if blocks and blocks[-1].key == key:
            blocks[-1] = blocks[-1].joined(block, key)
        else:
            blocks.append(block)
    return blocks


def _run_weights(text: bytes) -> list[int]:
    """The meaningful characters of each run of ``text`` (UTF-8), counted for the whole
    page at once (as :func:`newsstem.text.meaningful_length` counts one text): deleting
    the ASCII bytes that are not letters or digits leaves, per run, the ASCII letters and
    digits and the UTF-8 bytes of the other characters. Whitespace and the marks are not
    meaningful: the weight of a raw run is that of its text."""
    kept = text.translate(None, _ASCII_NOT_MEANINGFUL)
    weights = list(map(len, kept.split(_RUN_END_BYTE)))
    if kept.isascii():
        return weights
    # The runs' other characters, their ASCII letters and digits deleted too, in one more
    # pass over the page: cheaper than testing each run for them and decoding the whole run
    # (a run's ASCII bytes, all meaningful, are counted as they are). No ASCII is left: they
    # are counted without meaningful_length's passes looking for it.
    others = kept.translate(None, _ASCII_BUT_NUL).split(_RUN_END_BYTE)
    for run in compress(range(len(others)), others):
        other = others[run]
        weights[run] += non_ascii_meaningful_length(other.decode("utf-8")) - len(other)
    return weights


_ASCII_NOT_MEANINGFUL = bytes(c for c in range(1, 128) if not chr(c).isalnum())  # not NUL
_ASCII_BUT_NUL = bytes(range(1, 128))
_RUN_END_BYTE = RUN_END.encode()


def _normalize_lines(raw: str) -> str:
    """Raw run text -> its lines, spaces collapsed, blank lines dropped, joined by "\n"
    (U+FEFF dropped, as :func:`newsstem.text.normalize_space` drops it)."""
    if "\ufeff" in raw:
        raw = raw.replace("\ufeff", "")
    text = " ".join(raw.replace(LINK_START, "").replace(LINK_END, "").split())
    if LINE_BREAK not in text:
        return text
    return "\n".join(filter(None, map(str.strip, text.split(LINE_BREAK))))


def decompose(html: str | bytes) -> PageLayout:
    """Decompose one page (see :class:`BlockParser` to reuse a parser across pages)."""
    return BlockParser().decompose(html)


class KeyFilter:
    """Drop the attribute tokens of keys that are not in a vocabulary of layout tokens.

    Tokens are written ``tag:name=token`` (``div:class=story-body``, ``div:id=main``:
    :func:`element_tokens`), so a token is kept on the elements of the tag that bore it
    where it was learned: a microformat class that one page puts on ``<body>`` and the
    others on the story's ``<div>`` (``hentry``), or a category class that the sidebar's
    links bear, does not change the keys of every block of that page. The ``col`` of
    table cells is always kept. Re-keying a page can make neighbouring blocks equal; they
    merge, as in :class:`BlockParser`.

    >>> keep = KeyFilter({"div:class=story", "div:id=main"})
    >>> keep("body:class=story/div:id=main:class=hentry.story.tag-x/td:class=a:col=2")
    'body/div:id=main:class=story/td:col=2'
    """

    def __init__(self, tokens: Iterable[str]) -> None:
        self.tokens = frozenset(tokens)
        self._memo: dict[str, str] = {}
        self._component_memo: dict[str, str] = {}

    @classmethod
    def from_keys(cls, keys: Iterable[str]) -> KeyFilter:
        """The vocabulary of the tokens used in ``keys`` (e.g. the keys of a pattern file)."""
        tokens: set[str] = set()
        for key in keys:
            for component in key.split("/"):
                tokens.update(element_tokens(component))
        return cls(tokens)

    def __call__(self, key: str) -> str:
        filtered = self._memo.get(key)
        if filtered is None:
            filtered = "/".join(self.component(c) for c in key.split("/"))
            if len(self._memo) >= CACHE_LIMIT:
                self._memo.clear()
            self._memo[key] = filtered
        return filtered

    def component(self, component: str) -> str:
        """One component of a key (``div:id=main:class=story``), filtered.

        >>> KeyFilter({"div:class=story"}).component("div:id=x:class=hentry.story")
        'div:class=story'
        """
        filtered = self._component_memo.get(component)
        if filtered is None:
            filtered = self._filter_component(component)
            if len(self._component_memo) >= CACHE_LIMIT:
                self._component_memo.clear()
            self._component_memo[component] = filtered
        return filtered

    def _filter_component(self, component: str) -> str:
        tag, *attributes = component.split(":")
        parts = [tag]
        for attribute in attributes:
            name, _, value = attribute.partition("=")
            if name == "col":
                parts.append(attribute)
                continue
            kept = [t for t in value.split(".") if f"{tag}:{name}={t}" in self.tokens]
            if kept:
                parts.append(f"{name}={'.'.join(kept)}")
        return ":".join(parts)

    def apply(self, page: PageLayout) -> PageLayout:
        """``page`` with filtered keys (``BlockParser.decompose(html, key_filter)`` gives the
        same page in one pass)."""
        blocks: list[LayoutBlock] = []
        for block in page.blocks:
            key = self(block.key)
            if blocks and blocks[-1].key == key:
                blocks[-1] = blocks[-1].joined(block, key)
            elif key == block.key:
                blocks.append(block)
            else:
                blocks.append(block.rekeyed(key))
        return PageLayout(blocks=tuple(blocks), title=page.title)


def key_through(tag: str) -> re.Pattern[str]:
    """A pattern that finds, in a key, an element of ``tag`` on the way to the block.

    >>> bool(key_through("nav").search("body/nav:class=crumbs/ul")), bool(
    ...     key_through("nav").search("body/div:class=navbar/ul"))
    (True, False)
    """
    return re.compile(rf"(^|/){tag}(:|/|$)")


def component_tokens(component: str) -> list[str]:
    """The attribute tokens of one key component (``col`` left out).

    >>> component_tokens("div:id=main:class=story.wide")
    ['id=main', 'class=story', 'class=wide']
    """
    tokens = []
    for attribute in component.split(":")[1:]:
        name, _, value = attribute.partition("=")
        if name != "col":
            tokens.extend(f"{name}={t}" for t in value.split("."))
    return tokens


def element_tokens(component: str) -> list[str]:
    """The attribute tokens of one key component, each with its element's tag: a token
    describes layout on the elements that bear it, not on every element.

    >>> element_tokens("div:id=main:class=story.wide")
    ['div:id=main', 'div:class=story', 'div:class=wide']
    """
    tag = component.partition(":")[0]
    return [f"{tag}:{token}" for token in component_tokens(component)]


def stable_tokens(pages: Iterable[PageLayout]) -> set[str]:
    """The attribute tokens of ``pages`` that describe layout rather than content, each
    with its element's tag (:func:`element_tokens`: ``hentry`` on the story's ``<div>``
    on most pages is no layout token of the one ``<body>`` that bears it too).

    A token is stable when it is on :data:`MIN_TOKEN_PAGES` pages or more, and, for each
    other token of its element that is on at least as many pages (its
    *companion*), it is on that element in :data:`MIN_COMPANION_SHARE` of the
    companion's pages or more.

    >>> pages = [decompose(f'<div class="post hentry {tag}"><p>Text {i}</p></div>')
    ...          for i, tag in enumerate(["tag-a", "tag-b", "tag-a", "", ""])]
    >>> sorted(stable_tokens(pages))
    ['div:class=hentry', 'div:class=post']
    """
    token_pages: Counter[str] = Counter()
    pair_pages: Counter[tuple[str, str]] = Counter()
    for page in pages:
        components = {c for block in page.blocks for c in block.key.split("/")}
        tokens: set[str] = set()
        pairs: set[tuple[str, str]] = set()
        for component in components:
            own = element_tokens(component)
            tokens.update(own)
            if len(own) > 1:
                pairs.update((t, c) for t in own for c in own if t != c)
        token_pages.update(tokens)
        pair_pages.update(pairs)
    companions: dict[str, list[str]] = {}
    for token, companion in pair_pages:
        companions.setdefault(token, []).append(companion)
    stable = set()
    for token, count in token_pages.items():
        if count < MIN_TOKEN_PAGES:
            continue
        if all(
            pair_pages[token, companion] >= MIN_COMPANION_SHARE * token_pages[companion]
            for companion in companions.get(token, ())
            if token_pages[companion] >= count
        ):
            stable.add(token)
    return stable
