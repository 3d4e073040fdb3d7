"""The end of an article: a line of sharing and printing tools after its prose (seed 003).

ExtractContent scores blocks down for "waste expressions", words typical of footers,
forms and affiliate links. The strongest such marker measured here is the tool line
that closes a story on countless news sites ("Print | Email this | Comment",
"Printer friendly page", "Share this article"): on old pages the reader comments,
related links and site footer follow it inside the same container, so Readability
keeps them. A block made only of tool and furniture words, with at least one tool word
(print, email, share ...), met after a paragraph of some length, ends the article: it
and everything after it are cut. As the article's last block it goes whatever came
before it (it cuts nothing else), and so does the label of a comment form or thread
("Leave a Reply", "The comments to this entry are closed.") after 200 characters of
prose. Above the story's prose, a block that is such a line and an element of its own
("Print Story  Email to a Friend" under a byline) goes alone.

Lines that merely *name* a section (a "Comments" heading, "See also", "Related") are
not cut: the gold of the corpora keeps what follows them about as often as not. A thread
of reader comments inside the post's container is told by its bylines instead ("Posted
by: Ellen at September 10, 2012 11:40 AM", of three people or more): it is cut at its
label, or after its first byline.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from newsstem.readability.options import Options
from newsstem.readability.prose import Block
from newsstem.readability.tree import Element, cut_after, drop, text_of
from newsstem.text import cjk_count, normalize_space

__all__ = [
    "cut_after_tool_line",
    "cut_comment_thread",
    "is_comment_label",
    "is_tool_line",
    "may_have_comment_thread",
    "may_have_tool_line",
]


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# A tool line names at least one of these ...
_TOOL_WORDS = _words(
    "print printer printable email e mail send share save bookmark tweet digg reddit"
    " facebook report subscribe rss"
    # The buttons Facebook and Pinterest lent to pages ("Recommend", "Pin It", 2010-2013)
    " recommend pin"
)
# ... and nothing but these besides (English furniture; digits are ignored).
_FURNITURE_WORDS = _TOOL_WORDS | _words(
    """friendly version this article story page post posted comment comments reply replies
    respond discuss add leave your a the to friend friends by on of and or link links permalink
    trackback related more other news stories articles also see read you view feed our in
    an it its here click sign up log login register for top back return previous next"""
)
# Japanese and Chinese tool words (no spaces between words: a token is a tool line word
# when these and the particles below make up all of it).
_CJK_TOOL_WORDS = ("印刷", "打印", "分享", "シェア", "ツイート", "メール", "邮件", "转发", "收藏")
_CJK_FILLER = re.compile(r"この記事を|記事|本文|する|送る|送信|で|を|に|到|此文|此页|这篇文章")
_WORD = re.compile(r"\w+")
_URL = re.compile(r"\w+://\S+")
# Characters a tool line may have per word, separators included ("Printer-friendly | ").
_MAX_WORD_LENGTH = 20


def may_have_tool_line(
    text: str, options: Options, paragraphs: Sequence[str] | None = None
) -> bool:
    r"""False when no paragraph of ``text`` (rendered, cut at ``<br>`` too) is a tool line
    and the last one is no comment label (:func:`is_comment_label`); ``paragraphs``:
    ``text`` already split at its blank lines, when the caller has it.

    A block that is a tool line is cut into paragraphs made of its words alone, one of
    them a tool word; so without such a paragraph there is no tool-line block, and the
    walk over the article's blocks is spared.

    >>> may_have_tool_line("She shared the story.\n\nMore.", Options())
    False
    >>> may_have_tool_line("A story.\n\nPrint\n\nE-mail this", Options())
    True
    """
    if paragraphs is None:
        paragraphs = text.split("\n\n")
    # (is_tool_line's own first test, made here: most paragraphs are longer than a line)
    longest = options.tool_line_max_words * _MAX_WORD_LENGTH
    return any(
        len(paragraph) <= longest and is_tool_line(paragraph, options) for paragraph in paragraphs
    ) or is_comment_label(paragraphs[-1], options)


def is_tool_line(text: str, options: Options) -> bool:
    """True for a short line of sharing/printing tools.

    >>> is_tool_line("Print | Email this | Comment", Options())
    True
    >>> is_tool_line("Printer friendly page", Options())
    True
    >>> is_tool_line("Comments (5 posted)", Options())
    False
    >>> is_tool_line("Read or Share this story: https://usat.ly/2xaZUuG", Options())
    True
    >>> is_tool_line("Print statements or log files", Options())
    False
    >>> is_tool_line("印刷 | メールで送る", Options())
    True
    >>> is_tool_line("Recommend this article...", Options()), is_tool_line("Pin It", Options())
    (True, True)
    >>> is_tool_line("We recommend it", Options())
    False
    """
    if len(text) > options.tool_line_max_words * _MAX_WORD_LENGTH:
        return False  # a paragraph, not a line of tools (skips the regex on long text)
    if "://" in text:  # an address is not a word of the line ("Share this story: http://...")
        text = _URL.sub(" ", text)
    first = _WORD.search(text)
    if first is None or not _may_be_on_tool_line(first.group()):
        return False  # (most paragraphs: told by their first word, no list of words made)
    words = _line_words(text, options)
    if not words:
        return False
    tools = 0
    for word in words:
        if word in _TOOL_WORDS or (cjk_count(word) and _is_cjk_tool(word)):
            tools += 1
        elif word not in _FURNITURE_WORDS:
            return False
    return tools > 0


# The words of a comment form's or thread's label, beside the furniture words ("No
# comments yet.", "The comments to this entry are closed.", "Be the first to comment").
_COMMENT_WORDS = _words("comment comments reply replies respond responses")
_COMMENT_LABEL_WORDS = _FURNITURE_WORDS | _COMMENT_WORDS | _words(
    "no yet closed entry are is be first there one thought thoughts"
)


def is_comment_label(text: str, options: Options) -> bool:
    """True for a short line that labels a comment form or thread.

    >>> is_comment_label("Leave a Reply", Options())
    True
    >>> is_comment_label("No comments yet.", Options())
    True
    >>> is_comment_label("Reply to the minister's critics", Options())
    False
    """
    if len(text) > options.tool_line_max_words * _MAX_WORD_LENGTH:
        return False
    words = _line_words(text, options)
    return (
        bool(words)
        and all(word in _COMMENT_LABEL_WORDS for word in words)
        and any(word in _COMMENT_WORDS for word in words)
    )


def _line_words(text: str, options: Options) -> list[str]:
    """The words of a line, lowercased, numbers left out; none when there are more than
    a line of tools has (``tool_line_max_words``)."""
    words = [word.lower() for word in _WORD.findall(text) if not word.isdigit()]
    return words if len(words) <= options.tool_line_max_words else []


def _may_be_on_tool_line(word: str) -> bool:
    """Whether a word (as ``_WORD`` finds it) may stand on a tool line: a number (not
    counted), a tool word or a furniture word."""
    if word.isdigit():
        return True
    word = word.lower()
    return (
        word in _TOOL_WORDS
        or word in _FURNITURE_WORDS
        or bool(cjk_count(word) and _is_cjk_tool(word))
    )


def _is_cjk_tool(word: str) -> bool:
    rest = word
    found = False
    for tool in _CJK_TOOL_WORDS:
        if tool in rest:
            found = True
            rest = rest.replace(tool, "")
    return found and not _CJK_FILLER.sub("", rest)


def cut_after_tool_line(article: Element, blocks: list[Block], options: Options) -> int:
    """Cut the article at its first tool line after a long paragraph, and remove the tool
    lines above its prose, each alone ("Print | E-mail" under the headline cannot end the
    story that follows it).

    ``blocks`` are the article's (:func:`prose.article_blocks`); returns the index of the
    first block cut or removed, ``len(blocks)`` when none was. A line above the
    prose that is not an element of its own (a line of a ``<br>``-set block) stays.
    """
    above: list[tuple[int, Element]] = []  # the tool lines above the prose
    seen_prose = False
    for index, block in enumerate(blocks):
        if seen_prose:
            if is_tool_line(block.text, options):
                return _cut_below(article, above, block, index)
        elif (
            not block.at_tail
            and block.start is not article
            and is_tool_line(block.text, options)
            and normalize_space(text_of(block.start)) == block.text
        ):
            above.append((index, block.start))
        if block.prose >= options.tool_line_min_prose:
            seen_prose = True
    # A tool line that ends the article ends it whatever came before: it cuts nothing
    # but itself (a post of short paragraphs and its "Tweet" button); so does the label
    # of a comment form or thread left with nothing after it ("Leave a Reply").
    if len(blocks) > 1 and (
        is_tool_line(blocks[-1].text, options)
        or is_comment_label(blocks[-1].text, options)
        and sum(block.prose for block in blocks[:-1]) >= options.tool_line_min_prose
    ):
        return _cut_below(article, above, blocks[-1], len(blocks) - 1)
    return _cut_below(article, above, None, len(blocks))


def _cut_below(
    article: Element, above: list[tuple[int, Element]], end: Block | None, index: int
) -> int:
    """Remove the tool lines ``above`` the prose, then cut the article from ``end`` (at
    ``index``) when there is one; returns the first index cut or removed."""
    for _, line in above:
        if line.getparent() is not None:  # (not inside a line removed before it)
            drop(line)
    if end is not None:
        _cut(article, end.start, end.at_tail)
    return min(above[0][0], index) if above else index


def _cut(article: Element, start: Element, at_tail: bool) -> None:
    """Remove everything from ``start`` (or from its tail) to the end of the article."""
    if start is article:
        if at_tail:
            start.tail = None
        return
    cut_after(article, start, keep=at_tail)


# The byline of a post or of a comment on it, on a line of its own: "Posted by: Ellen at
# September 10, 2012 11:40 AM", "Posted by Kathy on March 21, 2007 | Permalink".
_BYLINE = re.compile(
    r"(?:posted|written|submitted) by:?\s+(?P<name>[^\W\d][^|,\n]{0,59}?)\s*"
    r"(?:\bat\b|\bon\b|\||,|-|\u2014)[^\n]*\d",
    re.I,
)
# A byline's first words at the start of the text, and at the start of each later line
# ("\n", the only break re.M's "^" follows): a search for the "\n" runs through the
# text fast, where re.M's "^" tried its test at each character (80 instructions each).
_BYLINE_START = re.compile(r"(?:posted|written|submitted) by\b", re.I)
_BYLINE_LINE = re.compile(r"\n(?:posted|written|submitted) by\b", re.I)
# Bylines of this many people at least make a comment thread.
_THREAD_PEOPLE = 3
_MAX_BYLINE_LENGTH = 200


def may_have_comment_thread(
    text: str, options: Options, paragraphs: Sequence[str] | None = None
) -> bool:
    """False when fewer than :data:`_THREAD_PEOPLE` paragraphs of ``text`` begin like a
    byline: the walk over the article's blocks is spared (``options``, ``paragraphs``:
    unused, as :func:`may_have_tool_line` is called)."""
    starts = len(_BYLINE_LINE.findall(text)) + (_BYLINE_START.match(text) is not None)
    return starts >= _THREAD_PEOPLE


def cut_comment_thread(article: Element, blocks: list[Block], options: Options) -> int:
    """Cut a thread of comments off the end of the article; returns the blocks left.

    A thread is told by its bylines: lines "Posted by <name> at/on <date>" of three
    people at least (one author's posts on a blog's front page are not a thread). It is
    cut at the comment label ("Comments", "3 Responses") before its second byline; with
    no label, after its first byline (the post's own, or a first comment's).
    """
    bylines = []
    for index, block in enumerate(blocks):
        if len(block.text) <= _MAX_BYLINE_LENGTH:
            found = _BYLINE.match(block.text)
            if found:
                bylines.append((index, found.group("name").lower()))
    if len({name for _, name in bylines}) < _THREAD_PEOPLE:
        return len(blocks)
    first, second = bylines[0][0], bylines[1][0]
    labels = [i for i in range(second) if is_comment_label(blocks[i].text, options)]
    cut = labels[-1] if labels else first + 1
    if sum(block.prose for block in blocks[:cut]) < options.tool_line_min_prose:
        return len(blocks)
    _cut(article, blocks[cut].start, blocks[cut].at_tail)
    return cut
