"""The pattern tables: the fast forms find what the plain ones find."""

from __future__ import annotations

import random
import re

from newsstem.readability.patterns import (
    BOILERPLATE,
    BOILERPLATE_WORDS,
    UNLIKELY_CANDIDATES,
    UNLIKELY_WORDS,
    any_word,
    hides,
)


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


def test_every_hiding_class_holds_a_hint_and_the_hints_test_finds_each():
    from newsstem.readability import patterns

    hints = patterns._HIDING_HINTS
    assert all(any(hint in name for hint in hints) for name in patterns._HIDING_CLASSES)
    assert all(patterns._may_hide(hint) for hint in hints)
    assert not patterns._may_hide("hi-de sr-onl")


def test_the_quick_rejection_of_hides_rejects_no_hiding_class():
    words = ("hidden", "hide", "is-", "u-", "d-none", "display", "-none", "_none", "visually",
             "sr-only", "screen-reader-text", "invisible", "element", "offscreen", "--",
             "md:block", "d-lg-flex", "HIDDEN", "Sr-Only", "box", "overflow")
    for text in _texts(words, 20_000):
        assert hides(text) == _hides_by_tokens(text), text


# BOILERPLATE as one flat alternation, before its words went into a trie (and the words
# added since: "gallery").
_FLAT_BOILERPLATE = re.compile(
    r"^shar|share|social|viral|sociable|newsletter|sign-?up|subscribe|mailing-?list|"
    r"syndication|cookie|consent|"
    r"tags|tag-list|sidebar|banner|bread-?crumb|button|author|byline|footer|"
    r"(?:^|[ _-])nav|navigation|menu|related|next-|-stories|most-popular|more-on|"
    r"(?:^| )ad(?:$| |-)|-ad-|dfpad|outbrain|taboola|criteo|paid-?content|widget|"
    r"meta|rating|attachment|timestamp|disclaimer|user-info|user-profile|-icon|article-infos|"
    r"slide|viewport|overlay|expand|obfuscated|blurred|caption|teaser|gallery"
)


def test_the_furniture_names_are_found_as_the_flat_alternation_found_them():
    words = (*BOILERPLATE_WORDS, "shar", "nav", "ad", "sign", "up", "paid", "bread", "crumb",
             "content", "main", "story")
    for text in _texts(words, 30_000):
        found = BOILERPLATE.search(text) is not None
        assert found == (_FLAT_BOILERPLATE.search(text) is not None), text
