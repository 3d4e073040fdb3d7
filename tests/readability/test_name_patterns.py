"""The pattern tables: the fast forms find what the plain ones find."""

from __future__ import annotations

import random
import re

from newsstem.readability.patterns import UNLIKELY_CANDIDATES, UNLIKELY_WORDS, any_word, hides


def _texts(words: tuple[str, ...], count: int) -> list[str]:
    """Class-name-like texts mixing the words, their pieces and other letters."""
    rng = random.Random(7)
    pieces = [*words, *(w[: rng.randrange(1, len(w) + 1)] for w in words), "-", " ", "_", "x"]
    return ["".join(rng.choice(pieces) for _ in range(rng.randrange(0, 8))) for _ in range(count)]


def test_the_trie_of_words_finds_what_their_plain_alternation_finds():
    words = (*UNLIKELY_WORDS, "foot", "footer", "a", "ab", "abc", "x-y")
    plain = re.compile("|".join(map(re.escape, words)))
    trie = any_word(words)
    for text in _texts(words, 20_000):
        assert (trie.search(text) is None) == (plain.search(text) is None), text


def test_the_unlikely_pattern_finds_what_the_alternation_of_its_words_finds():
    plain = re.compile("|".join(map(re.escape, UNLIKELY_WORDS)))
    for text in _texts(UNLIKELY_WORDS, 5_000):
        assert (UNLIKELY_CANDIDATES.search(text) is None) == (plain.search(text) is None)


def _hides_by_tokens(classes: str) -> bool:
    """hides() without its quick rejection: every token tested."""
    from newsstem.readability import patterns

    tokens = classes.lower().split()
    if not any(
        t in patterns._HIDING_CLASSES or patterns._HIDING_MODIFIER.search(t) for t in tokens
    ):
        return False
    return not any(patterns._SHOWN_ON_SOME_SCREENS.match(t) for t in tokens)


def test_the_quick_rejection_of_hides_rejects_no_hiding_class():
    words = ("hidden", "hide", "is-", "u-", "d-none", "display", "-none", "_none", "visually",
             "sr-only", "screen-reader-text", "invisible", "element", "offscreen", "--",
             "md:block", "d-lg-flex", "HIDDEN", "Sr-Only", "box", "overflow")
    for text in _texts(words, 20_000):
        assert hides(text) == _hides_by_tokens(text), text
