"""What the page says its story is about: the words of its meta description.

Pages summarise their story for search engines and social networks in
``<meta name="description">``, ``og:description`` and ``twitter:description``. The
summary is evidence, not text: an extraction that holds almost none of its words is
about something else (terms and conditions in a sign-up dialog, the next story of an
endless scroll), and the standfirst under a headline is the block that repeats it
(:mod:`lead`).
"""

from __future__ import annotations

import re

from newsstem.readability.tree import Element

__all__ = ["coverage", "description_words", "key_words"]

_WORD = re.compile(r"\w+")
# The meta elements that describe the story.
_DESCRIPTIONS = frozenset({"description", "og:description", "twitter:description"})
# Latin words this short are mostly function words ("the", "and", "von"); words in other
# scripts are kept whatever their length (a CJK word is one or two characters).
_MIN_KEY_WORD = 4


def description_words(root: Element) -> set[str]:
    """The words of the page's meta descriptions, case folded.

    >>> from lxml import etree
    >>> page = "<html><head><meta name='Description' content='Storm hits the coast.'/></head></html>"
    >>> sorted(description_words(etree.fromstring(page)))
    ['coast', 'hits', 'storm', 'the']
    """
    words: set[str] = set()
    for meta in root.iterfind("head/meta"):
        name = (meta.get("name") or meta.get("property") or "").lower()
        if name in _DESCRIPTIONS:
            words.update(_WORD.findall((meta.get("content") or "").casefold()))
    return words


def key_words(words: set[str]) -> frozenset[str]:
    """The words that say what a description is about (not its short Latin words).

    >>> sorted(key_words({"the", "storm", "hits", "東京"}))
    ['hits', 'storm', '東京']
    """
    return frozenset(w for w in words if len(w) >= _MIN_KEY_WORD or not w.isascii())


def coverage(text: str, words: frozenset[str]) -> float:
    """Share of ``words`` found as words in ``text`` (0.0 without words).

    >>> coverage("A storm hit the coastal towns.", frozenset({"storm", "coast", "towns"}))
    0.6666666666666666
    """
    if not words:
        return 0.0
    # One scan for the few key words, not a split of the whole (long) text into words.
    pattern = re.compile(r"\b(?:" + "|".join(map(re.escape, sorted(words))) + r")\b")
    return len(set(pattern.findall(text.casefold()))) / len(words)
