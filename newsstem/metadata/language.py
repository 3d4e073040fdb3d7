"""The language of a page: what the markup says, checked against what the text is.

Markup is often wrong: CMS templates stamp ``lang="en"`` on every page of a
multilingual site, and ``og:locale`` is a site-wide default. The text decides
when it is unambiguous: its script for Japanese (kana), Korean (hangul),
Chinese (ideographs; simplified or traditional by the national character sets),
Cyrillic, Greek, Hebrew, Arabic, Thai and a few more; function words for the
common Latin-script languages. No model files, a few regular expressions.

Tags are BCP 47: ``en-US`` (``en_us`` and ``en-uk`` are repaired to ``en-US``
and ``en-GB``), ``zh-Hant`` for traditional Chinese found in the text alone.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import cache

# JAPANESE_MIN_KANA: the share of kana among CJK characters from which a text is Japanese.
from newsstem.encoding import JAPANESE_MIN_KANA, double_byte_chars

__all__ = ["normalize_tag", "detect_language", "resolve_language", "Detection"]

# Characters of text looked at: enough for function words and scripts to settle.
SAMPLE_CHARS = 6000
# Fewer letters than this in a script tell nothing.
MIN_SCRIPT_LETTERS = 20
# A script is the text's when it holds this share of its letters (CJK characters
# count double: a Chinese page quotes English words of many letters each).
DOMINANT_SCRIPT = 0.5
# Function words: a language wins with this many weighted hits ...
MIN_WORD_HITS = 8.0
# ... and this many times the hits of the runner-up.
WORD_MARGIN = 2.0

_SCRIPTS = {
    "kana": r"\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9f",
    "han": r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff",
    "hangul": r"\uac00-\ud7af\u1100-\u11ff\u3130-\u318f",
    "latin": r"A-Za-z\u00c0-\u024f",
    "cyrillic": r"\u0400-\u04ff",
    "greek": r"\u0370-\u03ff\u1f00-\u1fff",
    "hebrew": r"\u0590-\u05ff",
    "arabic": r"\u0600-\u06ff\u0750-\u077f",
    "thai": r"\u0e00-\u0e7f",
    "devanagari": r"\u0900-\u097f",
    "bengali": r"\u0980-\u09ff",
    "tamil": r"\u0b80-\u0bff",
    "georgian": r"\u10a0-\u10ff",
    "armenian": r"\u0530-\u058f",
}
_SCRIPT_RES = {name: re.compile(f"[{chars}]") for name, chars in _SCRIPTS.items()}
# The ASCII letters are the Latin script's [A-Za-z] and every other script's letters are
# beyond ASCII: a text's ASCII is counted by bytes.translate (memory speed), the scripts'
# expressions run over its other characters alone (a Latin text's few accents and quotes),
# where fourteen of them over the whole sample took half of the detection's time.
_ASCII_NOT_LETTERS = bytes(
    byte for byte in range(128) if not (65 <= byte <= 90 or 97 <= byte <= 122)
)
_NOT_ASCII = re.compile(r"[^\x00-\x7f]+")
# A script that names one language (the others need a closer look).
_SCRIPT_LANGUAGE = {
    "hangul": "ko", "greek": "el", "hebrew": "he", "thai": "th", "devanagari": "hi",
    "bengali": "bn", "tamil": "ta", "georgian": "ka", "armenian": "hy",
}
_CJK_DOUBLE = ("kana", "han", "hangul")

# Frequent short words, distinctive enough together; a word shared by several
# languages counts for each of them in proportion (1/n).
_FUNCTION_WORDS = {
    "en": "the of and to in is that for it with as was on are be by this have from not but",
    "fr": "le la les des est une du que et dans pour qui sur pas au avec ce il sont aux",
    "de": "der die und den das ist nicht ein eine mit sich des auf für dem von zu im auch",
    "es": "el la los las que de del en por con una para es se lo como más pero sus",
    "pt": "o os as que de do da dos das em para com uma não por se é ao mais foi",
    "it": "il la che di e per non una sono del della con gli le si è lo ha anche",
    "nl": "de het een en van is dat op te in niet zijn met voor er maar ook",
    "sv": "och att det som en på är av för med den till har inte om ett var",
    "da": "og at det som en på er af for med den til har ikke de om et var",
    "no": "og å det som en på er av for med den til har ikke de om et var",
    "fi": "ja on ei se että oli hän mutta ovat kun myös tai sen joka",
    "pl": "i w nie na się z do że to jest jak co po od przez dla",
    "cs": "a v se na je že to s z do o jako ale by jsou pro jsem",
    "sk": "a v sa na je že to s z do o ako ale by sú pre som",
    "hu": "a az és hogy nem is egy van meg de csak ez volt",
    "ro": "și în de la a cu că nu din pe o este un mai care",
    "tr": "ve bir bu da de için ile çok olarak daha ne gibi olan",
    "id": "dan yang di ini itu dengan untuk dari tidak dalam akan pada adalah",
    "ca": "el la els les que de i per amb una és del al no ha",
}
_WORD = re.compile(r"[^\W\d_]+")
_REGION_FIXES = {"UK": "GB"}


@dataclass(frozen=True)
class Detection:
    """A language found in the text; ``confident`` when it may overrule the markup."""

    tag: str
    confident: bool


def normalize_tag(value: str | None) -> str | None:
    """A BCP 47 tag from what pages write, or None for junk.

    >>> normalize_tag("en_us"), normalize_tag("EN-uk"), normalize_tag("zh-hant-tw")
    ('en-US', 'en-GB', 'zh-Hant-TW')
    >>> normalize_tag("{{lang}}"), normalize_tag(""), normalize_tag("x-default")
    (None, None, None)
    """
    if not value:
        return None
    parts = value.strip().replace("_", "-").split("-")
    primary = parts[0].lower()
    if not (2 <= len(primary) <= 3 and primary.isascii() and primary.isalpha()):
        return None
    tag = [primary]
    for part in parts[1:]:
        if len(part) == 4 and part.isalpha():
            tag.append(part.title())
        elif len(part) == 2 and part.isalpha():
            region = part.upper()
            tag.append(_REGION_FIXES.get(region, region))
        elif len(part) == 3 and part.isdigit():
            tag.append(part)
        else:
            break  # variants and extensions: not needed to say which language
    return "-".join(tag)


def primary(tag: str) -> str:
    return tag.split("-", 1)[0]


def detect_language(text: str) -> Detection | None:
    """The language of ``text`` from its script, or its function words for Latin text.

    >>> detect_language("東京は晴れです。明日も晴れるでしょう。気温は二十度です。今日は良い天気でした。")
    Detection(tag='ja', confident=True)
    >>> detect_language("中华人民共和国的首都是北京，人口超过两千万。这是一个很大的城市，历史悠久。")
    Detection(tag='zh-Hans', confident=True)
    >>> detect_language("The minister said that the plan was not ready and that it would be changed "
    ...                 "by the end of the year, as the budget for this work is not yet in place.")
    Detection(tag='en', confident=True)
    """
    sample = text[:SAMPLE_CHARS]
    counts = _script_counts(sample)
    weighted = {name: n * (2 if name in _CJK_DOUBLE else 1) for name, n in counts.items()}
    total = sum(weighted.values())
    if total < MIN_SCRIPT_LETTERS:
        return None
    cjk = counts["kana"] + counts["han"] + counts["hangul"]
    if sum(weighted[n] for n in _CJK_DOUBLE) >= DOMINANT_SCRIPT * total and cjk >= MIN_SCRIPT_LETTERS:
        if counts["hangul"] >= counts["kana"] + counts["han"]:
            return Detection("ko", True)
        if counts["kana"] >= JAPANESE_MIN_KANA * cjk:
            return Detection("ja", True)
        return Detection(_chinese_tag(sample), True)
    script = max(weighted, key=weighted.__getitem__)
    if weighted[script] < DOMINANT_SCRIPT * total or counts[script] < MIN_SCRIPT_LETTERS:
        return None
    if script in _SCRIPT_LANGUAGE:
        return Detection(_SCRIPT_LANGUAGE[script], True)
    if script == "cyrillic":
        return Detection(_cyrillic_language(sample), True)
    if script == "arabic":
        return Detection(_arabic_language(sample), True)
    if script == "latin":
        return _latin_language(sample)
    return None


def _script_counts(sample: str) -> dict[str, int]:
    """Letters of each script of :data:`_SCRIPTS` in ``sample``, in that order.

    >>> _script_counts("Ça va, Мир 東京!")["latin"], _script_counts("Ça va")["cyrillic"]
    (4, 0)
    """
    if sample.isascii():
        ascii_letters, beyond = sample.encode("ascii"), ""
    else:
        ascii_letters = sample.encode("ascii", "ignore")
        beyond = "".join(_NOT_ASCII.findall(sample))
    counts = {
        name: len(regex.findall(beyond)) if beyond else 0 for name, regex in _SCRIPT_RES.items()
    }
    counts["latin"] += len(ascii_letters.translate(None, _ASCII_NOT_LETTERS))
    return counts


def _chinese_tag(sample: str) -> str:
    simplified_only, traditional_only = _chinese_variants()
    ideographs = _SCRIPT_RES["han"].findall(sample)
    simplified = sum(1 for ch in ideographs if ch in simplified_only)
    traditional = sum(1 for ch in ideographs if ch in traditional_only)
    return "zh-Hant" if traditional > simplified else "zh-Hans"


@cache
def _chinese_variants() -> tuple[frozenset[str], frozenset[str]]:
    """Hanzi only in GB2312 (simplified) and only in Big5 (traditional), from Python's codecs."""
    gb2312 = double_byte_chars("gb2312", range(0xB0, 0xF8), range(0xA1, 0xFF))
    big5 = double_byte_chars("big5", range(0xA4, 0xFA), range(0x40, 0xFF))
    return gb2312 - big5, big5 - gb2312


def _cyrillic_language(sample: str) -> str:
    letters = Counter(ch for ch in sample.lower() if "\u0400" <= ch <= "\u04ff")
    if letters["ї"] + letters["є"] + letters["ґ"] + letters["і"] > 0.01 * sum(letters.values()):
        return "uk"
    if letters["ў"]:
        return "be"
    if letters["ђ"] + letters["ћ"] + letters["џ"] + letters["љ"] + letters["њ"] + letters["ј"]:
        return "sr"
    if letters["ѓ"] + letters["ќ"] + letters["ѕ"]:
        return "mk"
    if letters["ъ"] > 0.01 * sum(letters.values()) and not letters["ы"] and not letters["э"]:
        return "bg"
    return "ru"


def _arabic_language(sample: str) -> str:
    if any(ch in sample for ch in "ےٹڈڑں"):
        return "ur"
    persian = sum(sample.count(ch) for ch in "پچژگکی")
    arabic = sum(sample.count(ch) for ch in "ةيك")
    return "fa" if persian > arabic else "ar"


@cache
def _word_weights() -> dict[str, tuple[tuple[str, float], ...]]:
    """Each function word's ``(language, weight)`` pairs."""
    owners: dict[str, list[str]] = {}
    for lang, words in _FUNCTION_WORDS.items():
        for word in words.split():
            owners.setdefault(word, []).append(lang)
    return {word: tuple((lang, 1 / len(langs)) for lang in langs) for word, langs in owners.items()}


def _latin_language(sample: str) -> Detection | None:
    weights = _word_weights()
    scores: Counter[str] = Counter()
    # (the words that are no function word, most of a text's, passed over by filter in C;
    # the weights added in the text's order, so each sum is the same float)
    for word in filter(weights.__contains__, _WORD.findall(sample.lower())):
        for lang, weight in weights[word]:
            scores[lang] += weight
    if not scores:
        return None
    ranked = scores.most_common(2)
    best, hits = ranked[0]
    runner_up = ranked[1][1] if len(ranked) > 1 else 0.0
    if hits < MIN_WORD_HITS / 2:
        return None
    confident = hits >= MIN_WORD_HITS and hits >= WORD_MARGIN * runner_up
    return Detection(best, confident)


def resolve_language(declared: list[str], text: str) -> tuple[str | None, str]:
    """``(tag, source)``: the first declared tag the text agrees with, else the text's language.

    A text language that is not certain (few function words) never overrules
    the markup, and is not given at all when the markup says nothing.

    >>> resolve_language(["en"], "東京は晴れです。明日も晴れるでしょう。気温は二十度です。今日は良い天気。")
    ('ja', 'text')
    >>> resolve_language(["zh-TW"], "中華民國的首都是臺北，這是一個很大的城市，歷史悠久，人口眾多。")
    ('zh-TW', 'markup')
    """
    tags = [tag for tag in map(normalize_tag, declared) if tag]
    detection = detect_language(text) if text else None
    if detection is None:
        return (tags[0], "markup") if tags else (None, "none")
    for tag in tags:
        if _compatible(primary(tag), primary(detection.tag)):
            return tag, "markup"
    if not detection.confident:
        return (tags[0], "markup") if tags else (None, "none")
    return detection.tag, "text"


def _compatible(a: str, b: str) -> bool:
    norwegian = {"no", "nb", "nn"}
    return a == b or (a in norwegian and b in norwegian)
