"""newsstem.text: meaningful_length counts what the plain regex counts, faster; the
one-pass meaningful and CJK counts are the two functions'."""

from __future__ import annotations

import random
import re

import pytest

from newsstem.text import cjk_count, meaningful_and_cjk_counts, meaningful_length

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
