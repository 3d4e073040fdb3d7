"""Decode page bytes to text, the same way during the crawl and offline.

Order of evidence:

1. a byte-order mark;
2. bytes that are valid UTF-8 and not plain ASCII are UTF-8, whatever the page
   declares: pages re-saved as UTF-8 keep their old ``charset=gb2312`` or
   ``windows-1252`` declaration surprisingly often, while text in a legacy
   encoding almost never happens to form valid multi-byte UTF-8 sequences;
   7-bit ISO-2022-JP is recognised by its escape sequences;
3. the HTTP ``Content-Type`` charset, then the page's ``<meta>`` declaration
   (w3lib maps labels to their supersets, e.g. gb2312 -> gb18030, as browsers
   do), *if the page reads as plausible text in it*;
4. otherwise detection: every candidate encoding of the web's legacy families
   (Shift_JIS, EUC-JP, GB18030, Big5, EUC-KR, windows-125x, KOI8-R,
   ISO-8859-2, TIS-620) decodes a sample of the page, and the one whose text
   looks least like mojibake wins (:func:`mojibake_score`); charset-normalizer
   is asked only when none of them reads well.

Undecodable bytes are replaced (U+FFFD), never raised.

The mojibake score needs no language model: wrong decodings betray
themselves by undefined bytes, control and private-use characters, letters of
two scripts glued together, symbols between letters, uppercase after
lowercase inside a word, accented letters that no single language uses
together, kana or hangul sprinkled into Chinese, and ideographs outside the
character sets people write with (a Japanese text's kanji are all in JIS X
0208, a Chinese text's hanzi in GB2312 or Big5's frequent set).
"""

from __future__ import annotations

import codecs
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from functools import cache

from charset_normalizer import from_bytes
from w3lib.encoding import (
    html_body_declared_encoding,
    http_content_type_encoding,
    read_bom,
    resolve_encoding,
    to_unicode,
)

__all__ = ["decode_html", "detect_encoding", "looks_binary", "mojibake_score", "CANDIDATES"]

# Legacy encodings tried by detection, most common on the web first (ties go
# to the earlier one). Supersets stand for their base: cp932 for Shift_JIS,
# gb18030 for GB2312/GBK, cp949 for EUC-KR, cp950 for Big5, cp874 for TIS-620.
CANDIDATES = (
    "cp1252",
    "gb18030",
    "cp932",
    "euc_jp",
    "cp950",
    "cp949",
    "cp1251",
    "cp1250",
    "iso8859_2",
    "koi8_r",
    "cp1253",
    "cp1254",
    "cp1255",
    "cp1256",
    "cp1257",
    "cp874",
)

# A declared encoding whose text scores at most this is used without running
# detection: about one odd character in 50, what real pages with a few foreign
# names or stray symbols reach; mojibake scores 0.2 and more.
DECLARED_GOOD_ENOUGH = 0.02
# Detection overrides a declaration only when it reads clearly better: at
# most half the declared score and at least this much lower.
OVERRIDE_MARGIN = 0.03
# ... and only by a reading this clean: when every reading is odd, the bytes are
# broken, not mislabelled, and the declaration stands (browsers' choice).
CLEAN_READING = 0.05
# Scores within this are a tie: the earlier candidate (more common) wins.
TIE = 0.002
# A reading with at most one odd character in 200 ends detection early.
GOOD_READING = 0.005
# Above this even the best candidate is unreadable: ask charset-normalizer.
UNREADABLE = 0.10
# Bytes of the page looked at by detection (spread over the page): a few
# thousand characters decide reliably, whole pages cost 10x more.
SAMPLE_BYTES = 8_000
# A run of non-ASCII bytes enters the sample with up to this many bytes of
# ASCII context on each side (the letters around an accented one) ...
CONTEXT_BYTES = 16
# ... and cut after this many bytes (CJK text is one long run).
RUN_BYTES = 240
# Japanese text has kana among its ideographs (particles, endings); below
# this share of kana a text is read as Chinese.
JAPANESE_MIN_KANA = 0.10
# Korean text is mostly hangul.
KOREAN_MIN_HANGUL = 0.30


def decode_html(body: bytes | str, content_type: str | None = None) -> tuple[str, str]:
    """Return ``(text, encoding)``; ``str`` input is returned as is (encoding ``"unicode"``).

    >>> decode_html(b'<meta charset="shift_jis"><p>' + "記事です".encode("shift_jis"))[1]
    'cp932'
    >>> decode_html('<meta charset="gb2312"><p>谷歌'.encode("utf-8"))[1]  # re-saved page
    'utf-8'
    >>> decode_html(b"\\xef\\xbb\\xbfhello")
    ('hello', 'utf-8')
    >>> decode_html("<p>東京の天気は晴れです。明日も晴れるでしょう。".encode("euc_jp"))
    ('<p>東京の天気は晴れです。明日も晴れるでしょう。', 'euc_jp')
    """
    if isinstance(body, str):
        return body, "unicode"
    bom_encoding, bom = read_bom(body)
    if bom_encoding is not None and bom is not None:
        return to_unicode(body[len(bom) :], bom_encoding), bom_encoding
    utf16 = _utf16_byte_order(body)
    if utf16 is not None:
        return body.decode(utf16, errors="replace"), utf16
    if body.isascii():
        if _ISO2022JP_ESCAPE.search(body):
            return body.decode("iso2022_jp", errors="replace"), "iso2022_jp"
        declared = _declared(body, content_type)
        # a label that would read these bytes otherwise (utf-16, EBCDIC) is not theirs: a
        # crawl re-reading the page by it (the spider's links) would get nothing but noise
        ascii_label = declared is not None and _reads_ascii_as_ascii(declared)
        return body.decode("ascii"), declared if ascii_label else "utf-8"
    try:  # valid UTF-8 (decoded once: this is every page's path)
        return body.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    if looks_binary(body):
        return body.decode("utf-8", errors="replace"), "utf-8"
    encoding = _choose(body, _declared(body, content_type))
    return body.decode(encoding, errors="replace"), _name(encoding)


def detect_encoding(body: bytes) -> str | None:
    """Guess the encoding of undeclared, non-UTF-8 bytes (``None`` for empty input).

    >>> detect_encoding("Ça coûte très cher, déjà à Noël.".encode("cp1252"))
    'cp1252'
    >>> detect_encoding("Příliš žluťoučký kůň úpěl ďábelské ódy.".encode("cp1250"))
    'cp1250'
    >>> detect_encoding("中华人民共和国的首都是北京，人口超过两千万。".encode("gbk"))
    'gb18030'
    """
    if not body:
        return None
    return _name(_detect(_sample(body)).encoding)


def mojibake_score(text: str) -> float:
    """Odd characters per non-ASCII character of ``text``: 0 for clean text, high for mojibake.

    >>> mojibake_score("déjà vu, naïve café")
    0.0
    >>> round(mojibake_score("dÃ©jÃ  vu, naÃ¯ve cafÃ©"), 2) > 0.3
    True
    >>> mojibake_score("日本語の文章です。")
    0.0
    """
    return _score(text)


# -- declared encodings ---------------------------------------------------------

_ISO2022JP_ESCAPE = re.compile(rb"\x1b\$[@B]|\x1b\(J")


def _declared(body: bytes, content_type: str | None) -> str | None:
    encoding = http_content_type_encoding(content_type) if content_type else None
    if not encoding:
        encoding = html_body_declared_encoding(body)
    if not encoding:
        return None
    resolved = resolve_encoding(encoding)
    try:
        return codecs.lookup(resolved).name if resolved else None
    except LookupError:
        return None


_ASCII_TEXT = bytes(range(32, 127)) + b"\t\n\r"


@cache
def _reads_ascii_as_ascii(encoding: str) -> bool:
    """Whether an encoding gives ASCII text for ASCII bytes (not UTF-16/32 nor EBCDIC).

    >>> _reads_ascii_as_ascii("cp1252"), _reads_ascii_as_ascii("utf-16")
    (True, False)
    """
    try:
        return _ASCII_TEXT.decode(encoding) == _ASCII_TEXT.decode("ascii")
    except UnicodeDecodeError:
        return False


def _name(encoding: str) -> str:
    """Python's canonical name of an encoding ("utf-8", "euc_jp", "iso8859-2", "cp1252")."""
    return codecs.lookup(encoding).name


# Bytes that never occur in text: C0 controls except tab, LF, FF, CR and ESC
# (ESC starts ISO-2022-JP sequences).
_BINARY_BYTES = bytes(b for b in range(32) if b not in (9, 10, 12, 13, 27))
# Share of such bytes above which a body is binary (images, archives, random
# data served as text/html); real pages have none or a stray one.
BINARY_BYTE_SHARE = 0.01
_SNIFF_BYTES = 4096


def looks_binary(body: bytes) -> bool:
    """True for bodies that are not text in any encoding (sniffs the first 4 KiB).

    UTF-16 (with or without a byte-order mark) is text.

    >>> looks_binary(b"\\x89PNG\\r\\n\\x1a\\n\\x00\\x00\\x00\\rIHDR")
    True
    >>> looks_binary("<p>日本</p>".encode("utf-16"))
    False
    >>> looks_binary(b""), looks_binary("<p>テキスト</p>".encode("shift_jis"))
    (False, False)
    >>> looks_binary("<html><p>日本語のページ</p></html>".encode("utf-16-le"))
    False
    """
    head = body[:_SNIFF_BYTES]
    if not head or read_bom(head)[0] is not None or _utf16_byte_order(head) is not None:
        return False
    controls = len(head) - len(head.translate(None, _BINARY_BYTES))
    return controls > BINARY_BYTE_SHARE * len(head)


def _utf16_byte_order(body: bytes) -> str | None:
    """``utf-16-le``/``-be`` when every other byte of the head is NUL (ASCII markup in UTF-16)."""
    head = body[:_SNIFF_BYTES]
    if len(head) < 2 or b"\x00" not in head:
        return None
    even, odd = head[0::2].count(0), head[1::2].count(0)
    half = len(head) / 2
    # ASCII markup gives NULs on one side only; a quarter is plenty even when
    # most of the text is in another script (Cyrillic is 0x04 there, not NUL).
    if odd >= 0.25 * half and even <= 0.02 * half:
        return "utf-16-le"
    if even >= 0.25 * half and odd <= 0.02 * half:
        return "utf-16-be"
    return None


def _choose(body: bytes, declared: str | None) -> str:
    """The declared encoding unless it reads badly and another reads cleanly."""
    sample = _sample(body)
    if declared is None:
        return _detect(sample).encoding
    stated = Guess.of(sample, declared)
    if stated.score <= DECLARED_GOOD_ENOUGH:
        return declared
    best = _detect(sample)
    if (
        best.score <= CLEAN_READING
        and best.score <= stated.score / 2
        and stated.score - best.score >= OVERRIDE_MARGIN
    ):
        return best.encoding
    return declared  # broken bytes in the right encoding: replaced, as browsers do


# -- detection -----------------------------------------------------------------

@dataclass(frozen=True)
class Guess:
    encoding: str
    odd: float  # odd characters in the sample read this way
    chars: int  # non-ASCII characters in the sample read this way

    @classmethod
    def of(cls, sample: bytes, encoding: str) -> Guess:
        return cls(encoding, *_odd_characters(sample.decode(encoding, errors="replace")))

    @property
    def score(self) -> float:
        return self.odd / self.chars if self.chars else 0.0

    def beats(self, other: Guess) -> bool:
        """Reads clearly better: a lower score by more than a tie and one odd character."""
        margin = max(TIE, 1.0 / other.chars if other.chars else 0.0)
        return self.score < other.score - margin


def _detect(sample: bytes) -> Guess:
    best = Guess.of(sample, CANDIDATES[0])
    for encoding in CANDIDATES[1:]:
        if best.score <= GOOD_READING:
            break  # the most common candidate that reads this well: done
        guess = Guess.of(sample, encoding)
        if guess.beats(best):
            best = guess
    if best.score > UNREADABLE:
        match = from_bytes(sample).best()
        if match is not None:
            guess = Guess.of(sample, resolve_encoding(match.encoding) or match.encoding)
            if guess.beats(best):
                best = guess
    return best


_HIGH_RUN = re.compile(rb"[\x80-\xff]+")
# Bytes below 0x30 are never part of a multi-byte character in the CJK
# encodings (their trail bytes are >= 0x40; GB18030's 4-byte form uses digits).
_SAFE_CUT = re.compile(rb"[\x00-\x2f]")


def _sample(body: bytes) -> bytes:
    """Runs of non-ASCII bytes with a little ASCII context, spread over the page.

    A window around each run reaches out ``CONTEXT_BYTES`` and is cut at a byte
    below 0x30, so no multi-byte character is split; a long run (CJK text) is cut
    after ``RUN_BYTES`` (an even count: CJK encodings are mostly two bytes wide).
    """
    runs = list(_HIGH_RUN.finditer(body))
    total = sum(min(m.end() - m.start(), RUN_BYTES) + 2 * CONTEXT_BYTES for m in runs)
    stride = max(1, -(-total // SAMPLE_BYTES))
    windows = []
    last_end = 0
    for match in runs[::stride]:
        start = max(match.start() - CONTEXT_BYTES, last_end)
        start = _first_safe_cut(body, start, match.start())
        end = min(match.end(), match.start() + RUN_BYTES)
        end = _last_safe_cut(body, end, min(end + CONTEXT_BYTES, len(body)), default=end + 1)
        windows.append(body[start:end])
        last_end = end
    return b"\n".join(windows)


def _first_safe_cut(body: bytes, start: int, end: int) -> int:
    """Position after the first byte < 0x30 in ``body[start:end]`` (``end`` if none)."""
    match = _SAFE_CUT.search(body, start, end)
    return match.end() if match else end


def _last_safe_cut(body: bytes, start: int, end: int, default: int) -> int:
    """Position of the last byte < 0x30 in ``body[start:end]`` (``default`` if none)."""
    cut = default
    for match in _SAFE_CUT.finditer(body, start, end):
        cut = match.start()
    return min(cut, len(body))


# -- the mojibake score ----------------------------------------------------------

# Character classes, one letter each (see _class_table).
_ASCII_LOWER, _ASCII_UPPER = "a", "A"
_BAD = "X"  # U+FFFD, controls, private use, unassigned
# Letters of one "script group"; adjacent letters of different groups are mixed-script words.
_GROUPS = {
    "l": "latin", "L": "latin", "a": "ascii", "A": "ascii",
    "c": "cyrillic", "C": "cyrillic", "g": "greek", "G": "greek",
    "h": "hebrew", "r": "arabic", "t": "thai",
    "I": "cjk", "K": "cjk", "k": "cjk", "U": "cjk", "B": "cjk",
}
# Adjacent letters of different groups mix scripts inside a word; ASCII next to
# CJK is normal ("iPhone手机"), ASCII next to accented Latin too.
_MIXED = re.compile(
    "|".join(
        "[{}][{}]".format(
            re.escape("".join(c for c, g in _GROUPS.items() if g == group)),
            re.escape(
                "".join(
                    c
                    for c, g in _GROUPS.items()
                    if g != group and {g, group} not in ({"ascii", "latin"}, {"ascii", "cjk"})
                )
            ),
        )
        for group in sorted(set(_GROUPS.values()))
    )
)
_SANDWICHED_SYMBOL = re.compile(r"(?<=[lLcCgGaA])S+(?=[lLcCgGaA])")
_CASE_BREAK = re.compile(r"[lcg][LCG]|[lcg]A|a[LCG]")
# A letter of a non-Latin alphabet alone between non-letters ("144Ч144"): real
# text has a few one-letter words, a wrong code page scatters them (counts half).
_LONE_LETTER = re.compile(r"(?<![a-zA-Z])[cCgGhrt](?![a-zA-Z])")
# One or two CJK characters inside a Latin word ("Espa帽a"): a misread accent.
_CJK_IN_LATIN_WORD = re.compile(r"(?<=[aAlL])[IKkUB]{1,2}(?=[aAlL])")
# Ideographs separated by ASCII spaces ("대책 발표" read as GB2312): Chinese and
# Japanese do not put spaces between words, Korean does.
_SPACED_IDEOGRAPHS = re.compile(r"(?<=I)_(?=I)")
# Lowercase Cyrillic and Greek words of three letters or more always have a
# vowel; words without one are consonant-heavy text (Hebrew) in a Cyrillic code page.
_VOWELLESS_WORD = re.compile(
    r"(?<![^\W\d_])(?:[б-джзй-нп-тф-щъьђѓјљњћќџґ]{3,}|[β-δζθκ-ξπ-σςτφ-ψ]{3,})(?![^\W\d_])"
)
# Combining marks belong after a letter of their script (Thai vowels after Thai
# consonants...); after anything else they are misread bytes.
_STRAY_MARK = re.compile(r"(?<![tT])T|(?<![hH])H|(?<![rR])R|(?<![a-zA-Z])M")
_NON_ASCII = re.compile(r"[^\x00-\x7f]")
_LATIN_EXTRA = re.compile(r"[\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f]")  # letters, not × ÷
_IDEOGRAPH = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")

# Accented Latin letters each language writes with. A text whose accented
# letters no single language explains is likely a Latin-1 reading of other bytes.
_LATIN_ALPHABETS = {
    lang: frozenset(letters)
    for lang, letters in {
        "fr": "àâæçéèêëîïôœùûüÿ",
        "de": "äöüßé",
        "es": "áéíñóúüç",
        "pt": "áàâãçéêíóôõúü",
        "it": "àèéìíîòóùú",
        "nl": "éëïóöü",
        "nordic": "åäæøöéü",
        "is": "áðéíóúýþæö",
        "cs_sk": "áäčďéěíĺľňóôŕřšťúůýž",
        "pl": "ąćęłńóśźż",
        "hu": "áéíóöőúüű",
        "ro": "ăâîșțşţ",
        "hr_sl": "čćđšž",
        "tr": "çğıöşüâîû",
        "baltic": "āčēģīķļņšūžąęėįųõäöü",
        "vi": "àáâãèéêìíòóôõùúýăđĩũơư",
        "ca": "àçèéíïòóúü·",
    }.items()
}


def _score(text: str) -> float:
    odd, chars = _odd_characters(text)
    return odd / chars if chars else 0.0


def _odd_characters(text: str) -> tuple[float, int]:
    """(odd characters, non-ASCII characters) of ``text``."""
    non_ascii = len(_NON_ASCII.findall(text))
    if non_ascii == 0:
        return 0.0, 0
    classes = text.translate(_class_table())
    odd = float(classes.count(_BAD))
    odd += len(_MIXED.findall(classes))
    odd += 0.5 * len(_SANDWICHED_SYMBOL.findall(classes))
    odd += len(_CASE_BREAK.findall(classes))
    odd += 0.5 * len(_LONE_LETTER.findall(classes))
    odd += len(_CJK_IN_LATIN_WORD.findall(classes))
    odd += len(_STRAY_MARK.findall(classes))
    odd += len(_SPACED_IDEOGRAPHS.findall(classes))
    odd += len(_VOWELLESS_WORD.findall(text))
    odd += _capitals_text(classes)
    odd += _mixed_alphabets(classes)
    odd += _unfit_latin(text)
    odd += _unfit_cjk(text, classes)
    return odd, non_ascii


def _mixed_alphabets(classes: str) -> float:
    """Accented Latin and another alphabet in one text: all but the main one are odd.

    A code page puts its letters where another has accented Latin ones; text in
    one language uses one of them ("Café پچ" is windows-1252 bytes read as 1256).
    """
    counts = sorted(
        (sum(classes.count(c) for c in letters) for letters in ("lL", "cC", "gG", "h", "r", "t")),
        reverse=True,
    )
    return float(sum(counts[1:]))


def _capitals_text(classes: str) -> float:
    """Cyrillic or Greek text mostly in capitals: half an odd character per capital.

    Headlines and abbreviations are capitals, running text is not; KOI8-R read
    as windows-1251 (or Hebrew read as KOI8-R) swaps or inflates the capitals.
    """
    upper = classes.count("C") + classes.count("G")
    lower = classes.count("c") + classes.count("g")
    return 0.5 * upper if upper > lower else 0.0


def _unfit_latin(text: str) -> int:
    # "İ".lower() is "i" + a combining dot: only its base counts, and it is ASCII.
    letters = Counter(ch.lower()[:1] for ch in _LATIN_EXTRA.findall(text))
    letters = Counter({ch: n for ch, n in letters.items() if not ch.isascii()})
    if not letters:
        return 0
    total = sum(letters.values())
    return min(
        total - sum(n for ch, n in letters.items() if ch in alphabet)
        for alphabet in _LATIN_ALPHABETS.values()
    )


def _unfit_cjk(text: str, classes: str) -> int:
    kana, ideographs, hangul = classes.count("K"), classes.count("I"), classes.count("U")
    if not (kana or ideographs or hangul):
        return 0
    sets = _cjk_charsets()
    cjk = kana + ideographs + hangul
    if kana >= JAPANESE_MIN_KANA * cjk and kana >= hangul:
        rare = sum(1 for ch in _IDEOGRAPH.findall(text) if ch not in sets.jis)
        return rare + classes.count("k") + hangul + classes.count("B")
    if hangul >= KOREAN_MIN_HANGUL * cjk:
        rare = sum(1 for ch in text if "\uac00" <= ch <= "\ud7a3" and ch not in sets.ksx)
        return rare + kana + classes.count("k")
    rare = sum(1 for ch in _IDEOGRAPH.findall(text) if ch not in sets.hanzi)
    return rare + kana + hangul + classes.count("k")


@dataclass(frozen=True)
class _CjkCharsets:
    jis: frozenset[str]  # JIS X 0208 kanji (Japanese)
    hanzi: frozenset[str]  # GB2312 + Big5 frequent hanzi (Chinese)
    ksx: frozenset[str]  # KS X 1001 hangul (Korean)


def double_byte_chars(encoding: str, leads: range, trails: range) -> frozenset[str]:
    """The characters a double-byte codec gives for every (lead, trail) byte pair that decodes."""
    chars = set()
    for lead in leads:
        for trail in trails:
            try:
                chars.add(bytes((lead, trail)).decode(encoding))
            except UnicodeDecodeError:
                pass
    return frozenset(chars)


@cache
def _cjk_charsets() -> _CjkCharsets:
    """The character sets of the national standards, read from Python's codecs once."""
    euc_rows = range(0xA1, 0xFF)
    big5_frequent = double_byte_chars("big5", range(0xA4, 0xC7), range(0x40, 0xFF))
    return _CjkCharsets(
        jis=double_byte_chars("euc_jp", range(0xB0, 0xF5), euc_rows),
        hanzi=double_byte_chars("gb2312", range(0xB0, 0xF8), euc_rows) | big5_frequent,
        ksx=double_byte_chars("euc_kr", range(0xB0, 0xC9), euc_rows),
    )


@cache
def _class_table() -> dict[int, str]:
    """``str.translate`` table: every BMP character to its one-letter class."""
    table: dict[int, str] = {}
    for code in range(0x10000):
        ch = chr(code)
        table[code] = _classify(ch)
    return table


def _classify(ch: str) -> str:
    code = ord(ch)
    if code < 0x80:
        if ch.islower():
            return _ASCII_LOWER
        if ch.isupper():
            return _ASCII_UPPER
        if ch == " ":
            return "_"
        return " " if ch.isprintable() or ch in "\t\n\r" else _BAD
    category = unicodedata.category(ch)
    if code == 0xFFFD or category in ("Cc", "Co", "Cn", "Cs"):
        return _BAD
    if 0x3040 <= code <= 0x30FF or 0x31F0 <= code <= 0x31FF:
        return "K" if category.startswith("L") else " "
    if 0xFF66 <= code <= 0xFF9F:
        return "k"  # halfwidth katakana: a classic Shift_JIS misreading
    if 0x3100 <= code <= 0x312F or 0x31A0 <= code <= 0x31BF:
        return "B"  # bopomofo
    if 0xAC00 <= code <= 0xD7A3 or 0x1100 <= code <= 0x11FF or 0x3130 <= code <= 0x318F:
        return "U"
    if 0x3400 <= code <= 0x4DBF or 0x4E00 <= code <= 0x9FFF or 0xF900 <= code <= 0xFAFF:
        return "I"
    if category.startswith("L"):
        name = unicodedata.name(ch, "")
        upper = category == "Lu"
        if name.startswith("LATIN"):
            return "L" if upper else "l"
        if name.startswith("CYRILLIC"):
            return "C" if upper else "c"
        if name.startswith("GREEK"):
            return "G" if upper else "g"
        if name.startswith("HEBREW"):
            return "h"
        if name.startswith("ARABIC"):
            return "r"
        if name.startswith("THAI"):
            return "t"
        return " "
    if category in ("So", "Sm", "Sc"):
        return "S"  # not Sk: a spacing accent often stands for an apostrophe ("don´t")
    if category == "Mn":
        name = unicodedata.name(ch, "")
        for script, mark in (("THAI", "T"), ("HEBREW", "H"), ("ARABIC", "R")):
            if name.startswith(script):
                return mark
        return "M"
    return " "
