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
from collections.abc import Iterable
from collections.abc import Set as AbstractSet

from newsstem.readability.tree import Element, in_head

__all__ = ["KeyWords", "words_and_social_titles"]

_WORD = re.compile(r"\w+")
# The meta elements that describe the story.
_DESCRIPTIONS = frozenset({"description", "og:description", "twitter:description"})
# Latin words this short are mostly function words ("the", "and", "von"); words in other
# scripts are kept whatever their length (a CJK word is one or two characters).
_MIN_KEY_WORD = 4
# Words in a row the title says: the title repeated, not the story's own words.
_TITLE_RUN = 4


def words_and_social_titles(root: Element) -> tuple[set[str], tuple[str, ...]]:
    """The words of the page's meta descriptions, case folded, and its og:title texts:
    those in ``<head>``, else those wherever the parser put them. A page's metadata is
    not always in ``<head>`` once libxml2 has read it (an element of the body written in
    the head, an ``<iframe>`` or a ``<div>``, ends the head there and sends the rest of
    it to ``<body>``; Next.js writes the page's metadata into ``<body>`` after its first
    scripts). Read before the body's metas are removed (document.load_page).

    The metas are read once for both: those of ``<head>``, then, for what the head
    lacks, those of the whole document (the head first: a walk of the whole document
    costs more than the rest of the reading; a page without either in its head is
    walked once, not twice).

    >>> from lxml import etree
    >>> page = "<html><head><meta name='Description' content='Storm hits.'/></head></html>"
    >>> sorted(words_and_social_titles(etree.fromstring(page))[0])
    ['hits', 'storm']
    >>> page = "<html><body><p>Hi</p><meta name='description' content='Rain.'/></body></html>"
    >>> sorted(words_and_social_titles(etree.fromstring(page))[0])
    ['rain']
    >>> page = "<html><body><meta property='og:title' content='Storm hits'/></body></html>"
    >>> words_and_social_titles(etree.fromstring(page))[1]
    ('Storm hits',)
    """
    metas: Iterable[Element] = list(in_head(root, "meta"))
    words, titles = _words_of(metas), _og_titles(metas)
    if not (words and titles):
        metas = list(root.iter("meta"))
        words, titles = words or _words_of(metas), titles or _og_titles(metas)
    return words, titles


def _og_titles(metas: Iterable[Element]) -> tuple[str, ...]:
    return tuple(
        meta.get("content") or "" for meta in metas if meta.get("property") == "og:title"
    )


def _words_of(metas: Iterable[Element]) -> set[str]:
    words: set[str] = set()
    for meta in metas:
        name = (meta.get("name") or meta.get("property") or "").lower()
        if name in _DESCRIPTIONS:
            words.update(_WORD.findall((meta.get("content") or "").casefold()))
    return words


class KeyWords:
    """The words that say what a description is about (not its short Latin words), and
    how much of them a text holds.

    >>> key = KeyWords({"the", "storm", "hits", "東京"})
    >>> sorted(key.words), len(key)
    (['hits', 'storm', '東京'], 3)
    >>> KeyWords({"storm", "coast", "towns"}).coverage("A storm hit the coastal towns.")
    0.6666666666666666
    """

    def __init__(self, words: AbstractSet[str], title: str = "") -> None:
        self.words = frozenset(w for w in words if len(w) >= _MIN_KEY_WORD or not w.isascii())
        # The page's title (casefolded) when its words are the key words, on a page
        # without a description (extractor._judged_text, extractor._with_headline), and
        # its runs of _TITLE_RUN words, made once for the page (not once per candidate)
        self.title = title.casefold()
        said = _WORD.findall(self.title)
        self.title_runs = frozenset(
            tuple(said[i : i + _TITLE_RUN]) for i in range(len(said) - _TITLE_RUN + 1)
        )

    @classmethod
    def of_title(cls, title: str) -> KeyWords:
        """The key words of the page's ``title`` (normalized), which judge as a
        description's do on a page that describes itself in fewer words."""
        folded = title.casefold()
        return cls(set(_WORD.findall(folded)), title=folded)

    def __len__(self) -> int:
        return len(self.words)

    def without_title_runs(self, text: str) -> str:
        """The words of ``text`` (casefolded) but for its runs of :data:`_TITLE_RUN` words
        or more that repeat the title; ``text`` itself without such runs in the title.

        >>> KeyWords.of_title("Storm hits the coast towns").without_title_runs(
        ...     "Storm hits the coast towns, by A. Writer")
        'by a writer'
        >>> KeyWords({"storm"}).without_title_runs("Storm Hits")
        'Storm Hits'
        """
        if not self.title_runs:
            return text
        words = _WORD.findall(text.casefold())
        repeated = [False] * len(words)
        for i in range(len(words) - _TITLE_RUN + 1):
            if tuple(words[i : i + _TITLE_RUN]) in self.title_runs:
                repeated[i : i + _TITLE_RUN] = [True] * _TITLE_RUN
        return " ".join(word for word, said in zip(words, repeated) if not said)

    def coverage(self, text: str) -> float:
        """Share of the key words found as words in ``text`` (0.0 without key words)."""
        if not self.words:
            return 0.0
        folded = text.casefold()
        return sum(1 for word in self.words if _holds_word(folded, word)) / len(self.words)


def _holds_word(text: str, word: str) -> bool:
    """Whether ``word`` stands in ``text`` as a whole word: a look-up per key word (a
    page's text is long, its description's key words are few; a regular expression
    of them cost more to compile than the search).

    >>> _holds_word("the coastal towns", "coast"), _holds_word("the coast, then", "coast")
    (False, True)
    """
    start = text.find(word)
    while start >= 0:
        end = start + len(word)
        before = text[start - 1] if start else " "
        after = text[end] if end < len(text) else " "
        if not (before.isalnum() or before == "_") and not (after.isalnum() or after == "_"):
            return True
        start = text.find(word, start + 1)
    return False
