"""newsstem.text: meaningful_length counts what the plain regex counts, faster; the
one-pass meaningful and CJK counts are the two functions'; utf8 (slice by slice) is
str.encode("utf-8"), bytes and errors."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

import newsstem.text
from newsstem.text import (
    cjk_count,
    meaningful_and_cjk_counts,
    meaningful_length,
    normalize_space,
    utf8,
)

# The definition: letters, digits and CJK count once each; "_", punctuation, symbols and
# spaces do not (Python's \w, less "_").
_DEFINITION = re.compile(r"[\W_]+")


@pytest.mark.parametrize(
    "text",
    [
        "",
        "plain ASCII, with punctuation! and_underscores 42",
        "“Curly quotes”, no-break\u00a0spaces — and dashes",
        "Ünïcödé lätin façade, œuvre, ½ ² Ⅻ",
        "東京、大阪。ひらがな カタカナ 한국어",
        "emoji 😀 and 𠀀 (an ideograph outside the BMP)",
        "lone surrogate \ud800 in a Python string",
        "\x00\x01\x02 control characters \x1c\x1f",
    ],
)
def test_meaningful_length_is_the_regex_definition(text):
    assert meaningful_length(text) == len(_DEFINITION.sub("", text))


def test_meaningful_length_on_random_unicode():
    rng = random.Random(11)
    alphabet = [chr(c) for c in range(0x3100)] + ["_", "😀", "\U00020000", "\ud800"]
    for _ in range(500):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(40)))
        assert meaningful_length(text) == len(_DEFINITION.sub("", text))


def test_meaningful_and_cjk_counts_are_the_two_counts():
    rng = random.Random(12)
    alphabet = [chr(c) for c in range(0x3200)] + ["東", "\uac01", "\uf900", "😀", "\ud800", "\u30fb"]
    for _ in range(500):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(40)))
        assert meaningful_and_cjk_counts(text) == (meaningful_length(text), cjk_count(text))


# Stretches of one width each (ASCII, Latin-1, the BMP, beyond it, lone surrogates),
# joined: slices of a page fall inside one stretch or across two.
_STRETCH = st.one_of(
    st.text(st.characters(max_codepoint=0x7F), max_size=40),
    st.text(st.characters(max_codepoint=0xFF), max_size=40),
    st.text(st.characters(max_codepoint=0xFFFF, blacklist_categories=("Cs",)), max_size=40),
    st.text(st.characters(min_codepoint=0x10000), max_size=10),
    st.just("\ud800"),
)


def _encoded(text: str) -> bytes | type[UnicodeEncodeError]:
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return UnicodeEncodeError


def _utf8(text: str) -> bytes | type[UnicodeEncodeError]:
    try:
        return utf8(text)
    except UnicodeEncodeError:
        return UnicodeEncodeError


@given(st.lists(_STRETCH, max_size=12).map("".join), st.integers(1, 9))
def test_utf8_is_str_encode(text, slice_length):
    # Short slices, so that a generated text crosses many of their ends.
    saved = newsstem.text._UTF8_SLICE
    newsstem.text._UTF8_SLICE = slice_length
    try:
        assert _utf8(text) == _encoded(text)
    finally:
        newsstem.text._UTF8_SLICE = saved


@pytest.mark.parametrize(
    "piece",
    ["<p>ascii</p>", "Grüße ", "“quoted” — ", "東京 ", "😀", "\ud800", "\x00\x0b"],
)
def test_utf8_of_a_page_sized_text(piece):
    rng = random.Random(13)
    markup = "<div class='x'>" * 700
    text = "".join(rng.choice((markup, piece)) for _ in range(40))  # 400+ KB, across slices
    assert _utf8(text) == _encoded(text)


# Whitespace of every kind, marks that compose or reorder, characters NFC changes.
_SPACING = st.sampled_from(
    [" ", "  ", "\n", "\t", "\r", "\x0b", "\x1c", "\xa0", "\u3000", "\u2028", "\u2001",
     "a", "e", "\u0301", "\u0316", "\u0345", "\u0958", "\u093c", "\u212b", "x" * 60]
)


@given(st.one_of(st.text(), st.lists(_SPACING, max_size=30).map("".join)))
def test_normalize_space_gives_back_a_text_it_made(text):
    # (the extractor's lead rule reads the article's rendered lines as normalized)
    once = normalize_space(text)
    assert normalize_space(once) == once
