"""Extraction scoring: the token-shingle F1 of the public article-extraction benchmarks.

Used by the benchmarks and tests, and by users who want to score newsstem on
their own gold texts. The definition (shared/README.md of the project corpora):

1. tokens are maximal runs of Unicode word characters (``\\w+``), case kept;
2. shingles are the 4-token windows (a text of fewer than 4 tokens is one
   shorter shingle), counted as a multiset for gold and prediction;
3. per page TP = sum of min counts, FP = excess predicted, FN = missing gold;
4. precision is the mean of TP/(TP+FP) over pages, recall the mean of
   TP/(TP+FN); both are 1 when FP = FN = 0; F1 = 2PR/(P+R) of the means.

Chinese and Japanese write no spaces, so a ``\\w+`` token there is a whole clause; they
are also scored on characters (``by_character=True``): each CJK ideograph, kana or
hangul syllable is a token of its own, other words stay whole. Thai, Lao, Burmese and
Khmer write no spaces between words either, and their vowel signs are no ``\\w``: a
``\\w+`` token there is a broken syllable; on characters each of their code points is a
token of its own too (:data:`UNSPACED_CHARACTERS`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from newsstem.text import CJK_CHARACTERS

__all__ = [
    "UNSPACED_CHARACTERS", "PageScore", "CorpusScore", "shingles", "score_page", "score_corpus",
]

SHINGLE_SIZE = 4
_TOKEN = re.compile(r"\w+")
# Thai, Lao, Myanmar (Burmese) and Khmer blocks: scripts written without spaces between
# words, scored a code point a token on characters, their vowel signs and tone marks too.
UNSPACED_CHARACTERS = "\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff"
# CJK Unified Ideographs (+ext. A, compatibility), Hiragana, Katakana, Hangul syllables
# and the unspaced scripts: one token each; any other run of word characters is one token.
_ONE_EACH = CJK_CHARACTERS + UNSPACED_CHARACTERS
_CHARACTER_TOKEN = re.compile(rf"[{_ONE_EACH}]|[^\W{_ONE_EACH}]+")


@dataclass(frozen=True)
class PageScore:
    tp: int
    fp: int
    fn: int

    @property
    def precision(self) -> float:
        if self.fp == 0 and self.fn == 0:
            return 1.0
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 0.0

    @property
    def recall(self) -> float:
        if self.fp == 0 and self.fn == 0:
            return 1.0
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0


@dataclass(frozen=True)
class CorpusScore:
    precision: float
    recall: float
    pages: int

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0


def shingles(
    text: str, size: int = SHINGLE_SIZE, *, by_character: bool = False
) -> Counter[tuple[str, ...]]:
    """Multiset of the token windows of ``text`` (CJK characters one token each if
    ``by_character``).

    >>> sorted(shingles("a b c d e").items())
    [(('a', 'b', 'c', 'd'), 1), (('b', 'c', 'd', 'e'), 1)]
    >>> shingles("only two")
    Counter({('only', 'two'): 1})
    >>> shingles("")
    Counter()
    >>> shingles("東京 Tokyo", by_character=True)
    Counter({('東', '京', 'Tokyo'): 1})
    >>> shingles("ข่าว", by_character=True)  # Thai: a vowel sign or tone mark is a token too
    Counter({('ข', '่', 'า', 'ว'): 1})
    """
    tokens = (_CHARACTER_TOKEN if by_character else _TOKEN).findall(text)
    if not tokens:
        return Counter()
    if len(tokens) < size:
        return Counter([tuple(tokens)])
    return Counter(tuple(tokens[i : i + size]) for i in range(len(tokens) - size + 1))


def score_page(predicted: str, gold: str, *, by_character: bool = False) -> PageScore:
    """TP/FP/FN of one page.

    >>> s = score_page("the cat sat on the mat", "the cat sat on the mat today")
    >>> (s.tp, s.fp, s.fn)
    (3, 0, 1)
    >>> s = score_page("東京は晴れ。", "今日の東京は晴れ。", by_character=True)
    >>> (s.tp, s.fp, s.fn), score_page("東京は晴れ。", "今日の東京は晴れ。").tp
    ((2, 0, 3), 0)
    """
    pred = shingles(predicted, by_character=by_character)
    ref = shingles(gold, by_character=by_character)
    tp = sum((pred & ref).values())
    return PageScore(tp=tp, fp=sum(pred.values()) - tp, fn=sum(ref.values()) - tp)


def score_corpus(
    pages: Iterable[tuple[str, str]], *, by_character: bool = False
) -> CorpusScore:
    """Mean precision over pages with output and mean recall over pages with gold.

    ``pages`` yields ``(predicted, gold)`` pairs. A page with neither output nor
    gold counts as perfect in both means (FP = FN = 0).
    """
    precisions: list[float] = []
    recalls: list[float] = []
    n = 0
    for predicted, gold in pages:
        n += 1
        s = score_page(predicted, gold, by_character=by_character)
        has_output, has_gold = s.tp + s.fp > 0, s.tp + s.fn > 0
        if has_output or not has_gold:
            precisions.append(s.precision)
        if has_gold or not has_output:
            recalls.append(s.recall)
    mean = lambda xs: sum(xs) / len(xs) if xs else 0.0  # noqa: E731
    return CorpusScore(precision=mean(precisions), recall=mean(recalls), pages=n)
