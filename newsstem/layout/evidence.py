"""What a site's pages say about their blocks beyond layout: the article text a generic
extractor finds on each page.

Learning asks, for every block of every training page, how much of its text the
readability fallback took as the page's article. Aggregated over the pages of a layout,
this is a vote that varies less than any single page: the fallback misses a standfirst on
one page but takes it on the others, takes a comment thread on one page but leaves it on
the others. Text is compared as sets of word shingles, so the two tools may cut
paragraphs and spaces differently.

    >>> article = TextShingles.of("The council voted on Tuesday to close the old bridge.")
    >>> article.share_of("Council voted on Tuesday to close the old bridge")
    1.0
    >>> article.share_of("Subscribe to our newsletter")
    0.0
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from newsstem.text import CJK_CHARACTERS

__all__ = ["TextShingles", "shingles", "word_shingles"]

# Word trigrams: long enough that a few common words do not make two texts agree,
# short enough that a sentence cut differently by two tools still shares most of them.
SHINGLE_WORDS = 3
# A token is a run of word characters; a run of CJK characters is read one character a
# token (Chinese and Japanese do not separate words with spaces).
_TOKEN = re.compile(rf"[{CJK_CHARACTERS}]|[^\W{CJK_CHARACTERS}]+")


def shingles(text: str) -> frozenset[int]:
    """The hashed word trigrams of ``text`` (case ignored); a text of fewer words is one
    shorter shingle.

    >>> len(shingles("one two three four")), len(shingles("one two")), shingles("")
    (2, 1, frozenset())
    >>> shingles("Tokyo 東京都") == shingles("tokyo 東京 都")
    True
    """
    return word_shingles(_TOKEN.findall(text.lower()))


def word_shingles(words: Sequence[str]) -> frozenset[int]:
    """The hashed trigrams of ``words`` (fewer words are one shorter shingle): the
    shingles of a text its caller cut into words.

    >>> word_shingles(["one", "two", "three", "four"]) == shingles("one two three four")
    True
    """
    if len(words) < SHINGLE_WORDS:
        return frozenset((hash(tuple(words)),)) if words else frozenset()
    return frozenset(
        hash(tuple(words[i : i + SHINGLE_WORDS])) for i in range(len(words) - SHINGLE_WORDS + 1)
    )


@dataclass(frozen=True)
class TextShingles:
    """The shingles of one text (an extractor's article), to measure other texts against;
    and, apart, those of its lines too short for a trigram (a two-word heading), so that
    a block holding just such a line is found in the text, not counted out for want of
    a trigram.

    >>> TextShingles.of("Why?\\nBecause the old bridge was unsafe.").share_of("Why?")
    1.0
    """

    shingles: frozenset[int]
    # the shingles with those of the short lines (made once: the guard asks per block)
    with_short_lines: frozenset[int]

    @classmethod
    def of(cls, text: str) -> TextShingles:
        found = shingles(text)
        short = [shingles(line) for line in text.split("\n") if _is_short(line)]
        return cls(found, found.union(*short) if short else found)

    def share_of(self, text: str, short_lines: bool = True) -> float:
        """The share of ``text``'s shingles found in this text (0 for an empty text);
        without ``short_lines``, a text too short for a trigram is never found."""
        own = shingles(text)
        if not own or not self.shingles:
            return 0.0
        found = self.with_short_lines if short_lines else self.shingles
        return len(own & found) / len(own)

    def agreement(self, other: TextShingles) -> float:
        """Shingle F1 of this text and ``other`` (0 when they share nothing): how far two
        readings of one page agree.

        >>> TextShingles.of("the old bridge was unsafe").agreement(
        ...     TextShingles.of("the old bridge was closed"))
        0.6666666666666666
        """
        common = len(self.shingles & other.shingles)
        return 2 * common / (len(self.shingles) + len(other.shingles)) if common else 0.0


def _is_short(line: str) -> bool:
    return 0 < len(_TOKEN.findall(line)) < SHINGLE_WORDS
