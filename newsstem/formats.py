"""Article bodies in the formats downstream tools read: plain text, Markdown, HTML.

``NEWSSTEM_BODY_FORMAT`` chooses what an article's ``body`` holds:

- ``text``: the paragraphs, separated by one blank line;
- ``markdown``: the same paragraphs with their headings, lists, quotes, tables and
  code marked up (CommonMark, tables as GitHub tables), links optional: what RAG and
  LLM pipelines read;
- ``html``: the cleaned article HTML.

Markdown is rendered here, by a walk of the cleaned article tree that cuts paragraphs
exactly where :func:`newsstem.readability.render.element_text` cuts them, so the
Markdown of a body holds the words of its text body, paragraph for paragraph:
``markdown_text(html_to_markdown(h)) == html_text(h)``. General converters were not
used: they re-parse the HTML with rules of their own, so their paragraphs differ from
the text body's. markdownify, on the same cleaned HTML and read back to text, lost text
on messy pages (F1 0.774 against 0.894 on cleaneval-dev: it keeps layout tables as
Markdown tables of whole paragraphs and joins ``<br>`` lines) and ran 4-10x slower
(``tests/benchmarks/formats.py``); html2text is GPL; and none knows the layout-pattern
path, whose body is text blocks keyed by their element (:func:`blocks_to_markdown`).

    >>> markdown = html_to_markdown(
    ...     "<h2>Rates</h2><p>Up <b>again</b>.</p><ul><li>one</li><li>two</li></ul>")
    >>> print(markdown)
    ## Rates
    <BLANKLINE>
    Up again.
    <BLANKLINE>
    - one
    - two
    >>> markdown_text(markdown)
    'Rates\\n\\nUp again.\\n\\none\\n\\ntwo'

No Scrapy import: HTML or text in, text out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from lxml import etree

from newsstem.readability.render import BLOCK_TAGS, CELL_TAGS, SKIPPED_TAGS
from newsstem.readability.tree import Element, parser, text_of
from newsstem.text import normalize_space

__all__ = [
    "BODY_FORMATS",
    "blocks_to_markdown",
    "element_markdown",
    "html_to_markdown",
    "markdown_text",
]

#: the values of NEWSSTEM_BODY_FORMAT
BODY_FORMATS = ("text", "markdown", "html")

_HEADINGS = {f"h{level}": level for level in range(1, 7)}
_LISTS = frozenset({"ul", "ol", "menu", "dir"})
_TABLE_PARTS = frozenset(
    {"table", "caption", "colgroup", "col", "thead", "tbody", "tfoot", "tr", "td", "th"}
)
# Link targets kept in Markdown (a reader can follow them); others are dropped.
_LINK_SCHEMES = ("http://", "https://")

# Characters that would be read as markup inside a line: code and emphasis marks and
# brackets (links) get a backslash, "_" only at a word edge (inside a word it is no
# emphasis); "<" opening a tag and "&" opening an entity become entities (python-markdown
# knows no backslash before them, CommonMark readers know both).
_INLINE_SPECIAL = re.compile(r"[\\`*\[\]]|(?<!\w)_|_(?!\w)|<(?=[A-Za-z/!?])|&(?=#?\w+;)")
_ENTITIES = {"<": "&lt;", "&": "&amp;"}
# What would start a heading, a quote, a list, a thematic break, a fence or a table at the
# start of a paragraph ("=" is no setext underline there: a blank line precedes it);
# and "1." / "1)" before a space: a list item.
_LINE_START_MARKS = "#>+-~|"
_ORDINAL = re.compile(r"^(\d{1,9})([.)])(?=\s|$)")


def _escape(text: str) -> str:
    return _INLINE_SPECIAL.sub(_escaped, text)


def _escaped(match: re.Match[str]) -> str:
    mark = match.group()
    return _ENTITIES.get(mark) or "\\" + mark


def _safe_line(text: str) -> str:
    """A paragraph (inline marks escaped already) that reads as text at a line start.

    >>> _safe_line("# 1"), _safe_line("2024. A year"), _safe_line("3.5 m"), _safe_line("-")
    ('\\\\# 1', '2024\\\\. A year', '3.5 m', '\\\\-')
    """
    if text[:1] in _LINE_START_MARKS and text:
        return "\\" + text
    return _ORDINAL.sub(r"\1\\\2", text)


# -- the readability path: cleaned article HTML -> Markdown --------------------------------


@dataclass
class _List:
    ordered: bool
    next_number: int = 1


@dataclass
class _Item:
    marker: str  # "- " or "3. "
    used: bool = False  # its marker was written (a later paragraph is a continuation)


@dataclass(frozen=True)
class _Unit:
    """One Markdown block: a paragraph, a heading, a code block or a table, in its context."""

    lines: tuple[str, ...]
    kind: Literal["paragraph", "code", "table"]
    quotes: tuple[int, ...]  # the enclosing <blockquote>s (their serial numbers)
    lists: tuple[_List, ...]  # the enclosing lists, outermost first
    items: tuple[_Item, ...]  # the enclosing list items, outermost first
    first_in_item: bool

    def render(self) -> list[str]:
        lines = list(self.lines)
        if self.items:
            outer = " " * sum(len(item.marker) for item in self.items[:-1])
            inner = outer + " " * len(self.items[-1].marker)
            first = outer + self.items[-1].marker if self.first_in_item else inner
            lines = [first + lines[0]] + [inner + line if line else line for line in lines[1:]]
        if self.quotes:
            prefix = "> " * len(self.quotes)
            lines = [(prefix + line).rstrip() for line in lines]
        return lines


def _separator(previous: _Unit, unit: _Unit) -> str:
    """What goes between two blocks: nothing (items of one tight list) or a blank line."""
    tight = (
        previous.kind == unit.kind == "paragraph"
        and bool(previous.lists)
        and bool(unit.lists)
        and previous.lists[0] is unit.lists[0]
        and unit.first_in_item
        and previous.quotes == unit.quotes
    )
    if tight:
        return "\n"
    shared = 0
    for mine, theirs in zip(previous.quotes, unit.quotes):
        if mine != theirs:
            break
        shared += 1
    return "\n" + ("> " * shared).rstrip() + "\n"


@dataclass
class _Context:
    heading: int = 0
    quotes: list[int] = field(default_factory=list)
    lists: list[_List] = field(default_factory=list)
    items: list[_Item] = field(default_factory=list)


class _MarkdownWriter:
    """Walks an element as :func:`~newsstem.readability.render.element_text` does and
    writes each paragraph it cuts as a Markdown block of its context."""

    def __init__(self, links: bool) -> None:
        self.links = links
        self.units: list[_Unit] = []
        self.pieces: list[str] = []
        self.cuts = 0  # paragraphs cut so far: a link is written only within one paragraph
        self.context = _Context()
        self.quote_serial = 0
        self.open_link: tuple[int, int, str] | None = None  # (cuts, first piece, href)

    # -- output ------------------------------------------------------------------
    def add(self, text: str | None) -> None:
        if text:
            self.pieces.append(_escape(text))

    def cut(self) -> None:
        if not self.pieces:
            return
        text = normalize_space("".join(self.pieces))
        self.pieces = []
        self.cuts += 1
        if not text:
            return
        line = _safe_line(text)
        if self.context.heading:
            line = "#" * self.context.heading + " " + line
        self.emit((line,), "paragraph")

    def emit(self, lines: tuple[str, ...], kind: Literal["paragraph", "code", "table"]) -> None:
        context = self.context
        first = bool(context.items) and not context.items[-1].used
        if context.items:
            context.items[-1].used = True
        self.units.append(
            _Unit(lines, kind, tuple(context.quotes), tuple(context.lists),
                  tuple(context.items), first)
        )

    def markdown(self) -> str:
        out: list[str] = []
        previous: _Unit | None = None
        for unit in self.units:
            if previous is not None:
                out.append(_separator(previous, unit))
            out.append("\n".join(unit.render()))
            previous = unit
        return "".join(out)

    # -- the walk ----------------------------------------------------------------
    def walk(self, element: Element) -> None:
        walker = etree.iterwalk(element, events=("start", "end"))
        skipping = 0
        for event, node in walker:
            tag = node.tag
            if not isinstance(tag, str):
                if event == "end" and not skipping:
                    self.add(node.tail)
                continue
            if event == "start":
                if skipping or tag in SKIPPED_TAGS:
                    skipping += 1
                    continue
                if tag == "pre":
                    self.cut()
                    self.code_block(text_of(node))
                    skipping += 1
                    continue
                if tag == "table" and (rows := _data_table_rows(node)) is not None:
                    self.cut()
                    self.table(node, rows)
                    skipping += 1
                    continue
                if tag in BLOCK_TAGS or tag == "br":
                    self.cut()
                self.enter(node, tag)
                self.add(node.text)
            else:
                if skipping:
                    skipping -= 1
                    if skipping:
                        continue
                elif tag in BLOCK_TAGS:
                    self.cut()
                    self.leave(tag)
                elif tag in CELL_TAGS:
                    self.add(" ")
                elif tag == "a":
                    self.close_link()
                if node is not element:
                    self.add(node.tail)
        self.cut()

    def enter(self, node: Element, tag: str) -> None:
        context = self.context
        if tag in _HEADINGS:
            context.heading = _HEADINGS[tag]
        elif tag == "blockquote":
            self.quote_serial += 1
            context.quotes.append(self.quote_serial)
        elif tag in _LISTS:
            context.lists.append(_List(ordered=tag == "ol", next_number=_start(node)))
        elif tag == "li":
            marker = "- "
            if context.lists and context.lists[-1].ordered:
                marker = f"{context.lists[-1].next_number}. "
                context.lists[-1].next_number += 1
            context.items.append(_Item(marker))
        elif tag == "a" and self.links:
            href = (node.get("href") or "").strip()
            if href.startswith(_LINK_SCHEMES) and self.open_link is None:
                self.open_link = (self.cuts, len(self.pieces), href)

    def leave(self, tag: str) -> None:
        context = self.context
        if tag in _HEADINGS:
            context.heading = 0
        elif tag == "blockquote" and context.quotes:
            context.quotes.pop()
        elif tag in _LISTS and context.lists:
            context.lists.pop()
        elif tag == "li" and context.items:
            context.items.pop()

    def close_link(self) -> None:
        if self.open_link is None:
            return
        cuts, start, href = self.open_link
        self.open_link = None
        if cuts != self.cuts:  # a block inside the link cut the paragraph: no link
            return
        inner = "".join(self.pieces[start:])
        label = inner.strip()
        if not label:
            return
        before = inner[: len(inner) - len(inner.lstrip())]
        after = inner[len(inner.rstrip()) :]
        self.pieces[start:] = [f"{before}[{label}]({_link_target(href)}){after}"]

    def code_block(self, text: str) -> None:
        lines = [line.rstrip() for line in text.splitlines()]
        while lines and not lines[0].strip():
            lines.pop(0)
        while lines and not lines[-1].strip():
            lines.pop()
        if not lines:
            return
        longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
        fence = "`" * max(3, longest + 1)
        self.emit((fence, *lines, fence), "code")

    def table(self, table: Element, rows: list[list[Element]]) -> None:
        for caption in table.iterchildren("caption"):
            self.walk_inline(caption)
        texts = [[self.cell_text(cell) for cell in row] for row in rows]
        texts = [row for row in texts if any(row)]
        width = max((len(row) for row in texts), default=0)
        texts = [row + [""] * (width - len(row)) for row in texts]
        # Columns empty in every row (icons, spacers) go; with one column left, the
        # rows are paragraphs.
        filled = [column for column in range(width) if any(row[column] for row in texts)]
        if len(filled) < 2:
            for row in texts:
                self.emit((" ".join(cell for cell in row if cell),), "paragraph")
            return
        lines = [_table_row([row[column] for column in filled]) for row in texts]
        lines.insert(1, _table_row(["---"] * len(filled)))
        self.emit(tuple(lines), "table")

    def walk_inline(self, element: Element) -> None:
        writer = _MarkdownWriter(self.links)
        writer.walk(element)
        for unit in writer.units:
            self.emit(unit.lines, unit.kind)

    def cell_text(self, cell: Element) -> str:
        writer = _MarkdownWriter(self.links)
        writer.walk(cell)
        return " ".join(unit.lines[0] for unit in writer.units).replace("|", "\\|")


def _start(node: Element) -> int:
    value = node.get("start", "1").strip()
    return int(value) if value.isdigit() else 1


def _link_target(href: str) -> str:
    return href.replace(" ", "%20").replace("(", "%28").replace(")", "%29").replace("<", "%3C")


def _table_row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _data_table_rows(table: Element) -> list[list[Element]] | None:
    """The rows of cells of a table of data; None for a table used for layout.

    A table of data has cells of inline text only (no paragraphs, lists, line breaks,
    code or inner tables) and at least two columns: a Markdown table can show it. A
    layout table is read as its cells' paragraphs, as the text body reads it.
    """
    for node in table.iterdescendants():
        tag = node.tag
        if not isinstance(tag, str) or (tag in _TABLE_PARTS and tag != "table"):
            continue
        if tag in BLOCK_TAGS or tag in ("br", "pre", "table"):
            return None
    rows = [
        [cell for cell in row if cell.tag in CELL_TAGS] for row in table.iterdescendants("tr")
    ]
    rows = [row for row in rows if row]
    if not rows or max(len(row) for row in rows) < 2:
        return None
    return rows


def element_markdown(element: Element, *, links: bool = False) -> str:
    """The Markdown of an article element (the cleaned tree of the readability path).

    ``links``: write links to http(s) targets as ``[text](url)``; off, their text only.

    >>> root = etree.fromstring('<div><blockquote><p>Said.</p><p>Again.</p></blockquote>'
    ...     '<p>See <a href="https://e.org/a">this</a>.</p></div>')
    >>> print(element_markdown(root, links=True))
    > Said.
    >
    > Again.
    <BLANKLINE>
    See [this](https://e.org/a).
    """
    writer = _MarkdownWriter(links)
    writer.walk(element)
    return writer.markdown()


def html_to_markdown(html: str, *, links: bool = False) -> str:
    """The Markdown of cleaned article HTML (``newsstem.readability.extract(...).body_html``).

    >>> print(html_to_markdown("<table><tr><th>City</th><th>Pop.</th></tr>"
    ...                        "<tr><td>Oslo</td><td>709,037</td></tr></table>"))
    | City | Pop. |
    | --- | --- |
    | Oslo | 709,037 |
    >>> print(html_to_markdown(
    ...     "<ol start='3'><li>three<ul><li>sub</li></ul></li><li>four</li></ol>"))
    3. three
       - sub
    4. four
    >>> html_to_markdown("")
    ''
    """
    data = html.replace("\x00", "").encode("utf-8", "replace")
    if not data.strip():
        return ""
    root = etree.fromstring(data, parser())
    return element_markdown(root, links=links) if root is not None else ""


# -- the layout-pattern path: text blocks keyed by their element -> Markdown ---------------


def blocks_to_markdown(blocks: Sequence[tuple[str, str]]) -> str:
    """The Markdown of a pattern's main blocks: ``(key, text)``, lines separated by "\\n".

    The last element of a block's key says what the block is (``.../h2``, ``.../ul``,
    ``.../blockquote``, ``.../pre``); each line of a block is one paragraph of the text
    body, as in :attr:`newsstem.layout.patterns.Extraction.body`. A pattern block keeps no
    link targets and no table cells (each ``<td>`` is a block of its own), so their text
    comes as paragraphs.

    >>> print(blocks_to_markdown([("body/div:id=a/h2:class=x", "Rates"),
    ...                           ("body/div:id=a/div:class=story", "Up again.\\n#1 in May."),
    ...                           ("body/div:id=a/ol", "one\\ntwo"),
    ...                           ("body/div:id=a/blockquote", "Said.")]))
    ## Rates
    <BLANKLINE>
    Up again.
    <BLANKLINE>
    \\#1 in May.
    <BLANKLINE>
    1. one
    2. two
    <BLANKLINE>
    > Said.
    """
    parts: list[str] = []
    for key, text in blocks:
        tag = key.rsplit("/", 1)[-1].split(":", 1)[0]
        lines = [line for line in text.split("\n") if line.strip()]
        if not lines:
            continue
        if tag == "pre":
            writer = _MarkdownWriter(links=False)
            writer.code_block(text)
            parts.append("\n".join(writer.units[0].lines))
            continue
        safe = [_safe_line(_escape(line)) for line in lines]
        if tag in _HEADINGS:
            parts.extend("#" * _HEADINGS[tag] + " " + line for line in safe)
        elif tag in _LISTS:
            markers = (f"{n}. " if tag == "ol" else "- " for n in range(1, len(safe) + 1))
            parts.append("\n".join(marker + line for marker, line in zip(markers, safe)))
        elif tag == "blockquote":
            parts.append("\n>\n".join("> " + line for line in safe))
        else:
            parts.extend(safe)
    return "\n\n".join(parts)


# -- back to text ----------------------------------------------------------------------

_QUOTE_MARKS = re.compile(r"^(?:>[ ]?)+")
_FENCE = re.compile(r"^(`{3,}|~{3,})")
_DELIMITER_ROW = re.compile(r"^\|(?:\s*:?-{3,}:?\s*\|)+$")
_CELL_SEPARATOR = re.compile(r"(?<!\\)\|")
_LIST_MARKER = re.compile(r"^(?:[-+*]|\d{1,9}[.)])(?:\s+|$)")
_HEADING_MARKS = re.compile(r"^#{1,6}(?:\s+|$)")
# An escaped character (kept as it is) or a link (replaced by its label), left to right.
_ESCAPE_OR_LINK = re.compile(r"\\.|\[((?:[^\]\\]|\\.)*)\]\((?:[^)\s\\]|\\.)*\)")
_ESCAPED_OR_ENTITY = re.compile(r"\\([!-/:-@\[-`{-~])|&(lt|amp);")
_CHARACTERS = {"lt": "<", "amp": "&"}


def markdown_text(markdown: str) -> str:
    """The text of Markdown written by this module: markup removed, one paragraph per block.

    Gives the text body of the same article (paragraphs separated by one blank line):
    table rows are their cells separated by spaces, code blocks their non-blank lines.

    >>> markdown_text("## A \\\\*star\\\\*\\n\\n> - [x](https://e.org) y"
    ...               "\\n\\n| a | b \\\\| c |\\n| --- | --- |")
    'A *star*\\n\\nx y\\n\\na b | c'
    """
    paragraphs: list[str] = []
    code: list[str] | None = None
    fence = ""
    code_quotes = 0  # the quote marks before the lines of the open code block
    for raw in markdown.split("\n"):
        if code is not None:
            line = _unquote(raw.strip(), code_quotes).strip()
            if line == fence:
                block = "\n".join(filter(None, map(normalize_space, code)))
                if block:
                    paragraphs.append(block)
                code = None
            else:
                code.append(line)
            continue
        marks = _QUOTE_MARKS.match(raw.strip())
        line = raw.strip()[marks.end() if marks else 0 :].strip()
        if (match := _FENCE.match(line)) is not None:
            code, fence = [], match.group(1)
            code_quotes = marks.group().count(">") if marks else 0
            continue
        if not line or _DELIMITER_ROW.match(line):
            continue
        if line.startswith("|"):
            cells = (
                _unescape(_unlink(cell.strip()))
                for cell in _CELL_SEPARATOR.split(line.strip("|"))
            )
            line = " ".join(cell for cell in cells if cell)
        else:
            line = _HEADING_MARKS.sub("", _LIST_MARKER.sub("", line))
            line = _unescape(_unlink(line))
        line = normalize_space(line)
        if line:
            paragraphs.append(line)
    return "\n\n".join(paragraphs)


def _unquote(line: str, quotes: int) -> str:
    for _ in range(quotes):
        line = line[1:].removeprefix(" ") if line.startswith(">") else line
    return line


def _unlink(text: str) -> str:
    return _ESCAPE_OR_LINK.sub(lambda match: match.group(1) or match.group(), text)


def _unescape(text: str) -> str:
    return _ESCAPED_OR_ENTITY.sub(lambda match: match.group(1) or _CHARACTERS[match.group(2)], text)
