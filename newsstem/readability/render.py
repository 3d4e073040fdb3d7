"""HTML to plain text: one paragraph per block, paragraphs separated by one blank line.

Block elements (p, div, headings, list items, table rows, blockquote, pre, figcaption,
dd/dt ...) and ``<br>`` end a paragraph; inline text is whitespace-normalized; the cells
of a table row are joined by a space; ``<pre>`` keeps its line breaks.
The same function turns any extractor's HTML output into text, so extractors that
return HTML are compared on equal terms.
"""

from __future__ import annotations

from lxml import etree

from newsstem.readability.tree import Element, parser, text_of
from newsstem.text import normalize_space

__all__ = ["BLOCK_TAGS", "CELL_TAGS", "SKIPPED_TAGS", "element_text", "html_text"]

BLOCK_TAGS = frozenset(
    ["address", "article", "aside", "blockquote", "body", "caption", "center", "dd", "details", "dialog", "dir", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hgroup", "hr", "html", "legend", "li", "main", "menu", "nav", "ol", "p", "pre", "section", "summary", "table", "tbody", "tfoot", "thead", "tr", "ul"]
)
CELL_TAGS = frozenset({"td", "th"})
SKIPPED_TAGS = frozenset({"script", "style", "noscript", "template", "head", "title"})


def _cut(pieces: list[str], done: list[str]) -> None:
    """Add the pieces of text collected since the last block's end to ``done`` as one
    normalized paragraph (none when they are only whitespace)."""
    paragraph = normalize_space("".join(pieces))
    if paragraph:
        done.append(paragraph)


def element_text(element: Element) -> str:
    """The text of ``element`` and its descendants, one paragraph per block.

    >>> f = etree.fromstring
    >>> element_text(f("<div><h2>Title</h2>Some <b>bold</b>\\n text<br/>next<ul><li>a</li><li>b</li></ul></div>"))
    'Title\\n\\nSome bold text\\n\\nnext\\n\\na\\n\\nb'
    >>> element_text(f("<table><tr><td>1</td><td>2</td></tr><tr><td>3</td></tr></table>"))
    '1 2\\n\\n3'
    """
    # (one loop, its pieces and paragraphs in local lists: a method call per text piece
    # and per block cost more than the walk)
    done: list[str] = []
    pieces: list[str] = []
    skipping = 0
    blocks, cells, skipped = BLOCK_TAGS, CELL_TAGS, SKIPPED_TAGS
    for event, node in etree.iterwalk(element, events=("start", "end")):
        tag = node.tag
        if not isinstance(tag, str):
            if event == "end" and not skipping:
                tail = node.tail
                if tail:
                    pieces.append(tail)
            continue
        if event == "start":
            if skipping or tag in skipped:
                skipping += 1
                continue
            if tag == "pre":
                if pieces:
                    _cut(pieces, done)
                    pieces = []
                lines = (normalize_space(line) for line in text_of(node).splitlines())
                block = "\n".join(line for line in lines if line)
                if block:
                    done.append(block)
                skipping += 1  # its text is taken whole
                continue
            if pieces and (tag in blocks or tag == "br"):
                # (_cut written out here and below: a call per block costs 0.4% of a pass)
                paragraph = normalize_space("".join(pieces))
                if paragraph:
                    done.append(paragraph)
                pieces = []
            text = node.text
            if text:
                pieces.append(text)
        else:
            if skipping:
                skipping -= 1
                if skipping:
                    continue
                # leaving a skipped or preformatted element: only its tail is left
            elif tag in blocks:
                if pieces:
                    paragraph = normalize_space("".join(pieces))
                    if paragraph:
                        done.append(paragraph)
                    pieces = []
            elif tag in cells:
                pieces.append(" ")
            if node is not element:
                tail = node.tail
                if tail:
                    pieces.append(tail)
    if pieces:
        _cut(pieces, done)
    return "\n\n".join(done)


def html_text(html: str) -> str:
    """Parse an HTML string (a document or a fragment) and return :func:`element_text` of it.

    >>> html_text("<div><p>One.</p><p>Two.</p></div>")
    'One.\\n\\nTwo.'
    >>> html_text("")
    ''
    """
    data = html.replace("\x00", "").encode("utf-8", "replace")
    root = etree.fromstring(data, parser()) if data.strip() else None
    return element_text(root) if root is not None else ""
