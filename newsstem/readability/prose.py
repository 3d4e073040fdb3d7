"""The blocks of an assembled article: its paragraphs, with where each begins in the tree.

ExtractContent (seed 003) reads a page as a sequence of text blocks and judges each by
its length outside links, its punctuation and its "waste expressions". Three stages read
the article this way: the end-of-article cut (:mod:`trailer`), the choice between a
selection and a wider one (:func:`added_prose_share`), and the stray lines' test of a
story beside them (cleaning._has_prose_paragraph).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from lxml import etree

from newsstem.readability.options import Options
from newsstem.readability.render import BLOCK_TAGS
from newsstem.readability.tree import Element
from newsstem.text import normalize_space

__all__ = ["Block", "added_prose_share", "article_blocks", "ends_sentence", "reads_as_prose"]

# A block ends a sentence: a Latin or CJK stop (a closing quote may follow), or a closing
# parenthesis (a photo credit ends a caption).
_SENTENCE_END = re.compile(r"(?:[.!?。！？…][\"”’」』]?|\))\s*$")
# ExtractContent's waste expressions (its default: Copyright, All Rights Reserved), with the
# legal and comment-policy lines that follow news stories.
_WASTE = re.compile(
    r"copyright|©|all rights reserved|terms (?:of|and) |privacy|\bcomments?\b", re.IGNORECASE
)


@dataclass(frozen=True)
class Block:
    """One paragraph of the article: its text, characters outside links, where it begins."""

    text: str
    prose: int
    start: Element  # the block begins at this element ...
    at_tail: bool  # ... or at its tail


def reads_as_prose(block: Block, options: Options) -> bool:
    """A sentence-ending paragraph of some length outside links, without waste expressions.

    >>> legal = "Copyright 2008 The Daily Planet, a newspaper of the coast. All rights reserved."
    >>> reads_as_prose(Block(legal, len(legal), None, False), Options())
    False
    >>> story = "The storm hit the coast on Tuesday night, and officials said the damage was severe."
    >>> reads_as_prose(Block(story, len(story), None, False), Options())
    True
    """
    return (
        block.prose >= options.prose_block_length
        and ends_sentence(block.text)
        and _WASTE.search(block.text) is None
    )


def ends_sentence(text: str) -> bool:
    """True when ``text`` ends a sentence (or a caption's credit in parentheses).

    >>> ends_sentence("It rained."), ends_sentence("雨が降った。"), ends_sentence("Read more")
    (True, True, False)
    """
    # (searched from the second character before the trailing whitespace: a match ends
    # there, at most two characters long, where a search of the whole text tried the
    # pattern at each of its characters)
    return _SENTENCE_END.search(text, max(len(text.rstrip()) - 2, 0)) is not None


def added_prose_share(narrow: Sequence[Block], wide: Sequence[Block], options: Options) -> float:
    """Share of the text a wider selection adds that reads as prose (0.0 if it adds none)."""
    known = {block.text for block in narrow}
    added = [block for block in wide if block.text not in known]
    total = sum(len(block.text) for block in added)
    if not total:
        return 0.0
    return sum(len(block.text) for block in added if reads_as_prose(block, options)) / total


def article_blocks(article: Element) -> list[Block]:
    """The blocks of the article, with where each begins.

    Cut like :func:`render.element_text` cuts paragraphs, except at ``<br>``: a line of
    a ``<br>``-set block is not a block (for the tool lines of :mod:`trailer`, cutting
    there measured worse: "Print News | Mail News" under a headline, above the story).

    >>> div = etree.fromstring("<div><p>One, <a href='/x'>two</a>.</p>three<br/>four</div>")
    >>> [(b.text, b.prose, b.start.tag, b.at_tail) for b in article_blocks(div)]
    [('One, two.', 6, 'p', False), ('three four', 10, 'p', True)]
    """
    blocks: list[Block] = []
    pieces: list[str] = []
    # [characters of the pieces inside links, where the block begins, ... or at its tail]
    state: list = [0, article, False]
    tag = article.tag
    in_link = 1 if tag == "a" else 0
    if tag == "br":
        pieces.append(" ")
    text = article.text
    if text:
        pieces.append(text)
        if in_link:
            state[0] += len(" ".join(text.split()))
    try:
        _blocks_below(article, in_link, pieces, state, blocks)
    except RecursionError:  # markup nested deeper than Python's call stack: the walk
        return _walked_blocks(article)
    _cut(article, True, pieces, state, blocks)
    return blocks


def _cut(
    next_start: Element, next_at_tail: bool, pieces: list[str], state: list, blocks: list[Block]
) -> None:
    """End the block of the ``pieces`` (emptied in place) and begin the next one."""
    if pieces:
        text = normalize_space("".join(pieces))
        if text:
            blocks.append(Block(text, len(text) - state[0], state[1], state[2]))
        pieces.clear()
    state[0], state[1], state[2] = 0, next_start, next_at_tail


def _blocks_below(
    parent: Element, in_link: int, pieces: list[str], state: list, blocks: list[Block]
) -> None:
    """:func:`article_blocks` over the children of ``parent`` and their tails (``in_link``:
    how many links hold them), a call per element with children where ``iterwalk`` gave
    two events per element."""
    for node in parent:
        tag = node.tag
        if tag.__class__ is not str:
            continue  # (a comment: its tail is left out too)
        link = in_link
        block = tag in BLOCK_TAGS
        if block:
            _cut(node, False, pieces, state, blocks)
        elif tag == "a":
            link += 1
        elif tag == "br":
            pieces.append(" ")
        text = node.text
        if text:
            pieces.append(text)
            if link:
                state[0] += len(" ".join(text.split()))
        if len(node):
            _blocks_below(node, link, pieces, state, blocks)
        if block:
            _cut(node, True, pieces, state, blocks)
        tail = node.tail
        if tail:
            pieces.append(tail)
            if in_link:
                state[0] += len(" ".join(tail.split()))


def _walked_blocks(article: Element) -> list[Block]:
    """:func:`article_blocks` as one loop over ``iterwalk``'s events, for a tree nested
    too deep to be read by calls."""
    blocks: list[Block] = []
    pieces: list[str] = []
    linked = 0
    start, at_tail = article, False
    in_link = 0

    def cut(next_start: Element, next_at_tail: bool) -> None:
        nonlocal pieces, linked, start, at_tail
        text = normalize_space("".join(pieces))
        if text:
            blocks.append(Block(text, len(text) - linked, start, at_tail))
        pieces, linked = [], 0
        start, at_tail = next_start, next_at_tail

    def add(text: str | None) -> None:
        nonlocal linked
        if text:
            pieces.append(text)
            if in_link:
                linked += len(" ".join(text.split()))

    for event, node in etree.iterwalk(article, events=("start", "end")):
        tag = node.tag
        if not isinstance(tag, str):
            continue
        if event == "start":
            if tag in BLOCK_TAGS:
                cut(node, False)
            elif tag == "a":
                in_link += 1
            elif tag == "br":
                pieces.append(" ")
            add(node.text)
        else:
            if tag == "a":
                in_link -= 1
            if tag in BLOCK_TAGS:
                cut(node, True)
            if node is not article:
                add(node.tail)
    cut(article, True)
    return blocks
