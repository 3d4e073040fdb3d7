"""Small text measures shared by extraction, layout learning and the pipelines.

"Meaningful" characters follow Webstemmer (seed 004): letters, digits and CJK
ideographs/kana count; punctuation, symbols and whitespace do not. Every
character counts once, so a Japanese or Chinese sentence (no spaces, one
character per word or syllable) weighs what it reads like.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = [
    "CJK_CHARACTERS",
    "cjk_count",
    "counted",
    "meaningful_and_cjk_counts",
    "meaningful_length",
    "non_ascii_meaningful_length",
    "normalize_space",
    "normalize_title_space",
    "utf8",
    "xml_safe",
    "xml_safe_utf8",
]

# \w in Python's re is Unicode-aware: letters, digits, marks of every script,
# CJK ideographs, kana and hangul, plus "_" (removed below).
_NOT_MEANINGFUL = re.compile(r"[\W_]+")
# Counted on bytes (one C loop each, where the regex above cuts prose into one piece per
# word): the ASCII letters and digits, then the non-ASCII characters, isolated by deleting
# the ASCII bytes of the UTF-8 encoding, go through the regex.
_ASCII_NOT_MEANINGFUL = bytes(c for c in range(128) if not chr(c).isalnum())
_ASCII_BYTES = bytes(range(128))
# What a text's UTF-8 keeps of its ASCII letters and digits once these are deleted: every
# byte of a longer character is 0x80 or above (a lone surrogate's too, passed).
_NOT_ASCII_MEANINGFUL = _ASCII_NOT_MEANINGFUL + bytes(range(128, 256))
# Hiragana, Katakana, CJK Unified Ideographs (+ext. A), Hangul syllables, CJK
# compatibility ideographs: a character class range, for the modules that read CJK text
# a character a token.
CJK_CHARACTERS = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
_CJK = re.compile(f"[{CJK_CHARACTERS}]")


def meaningful_length(text: str) -> int:
    """Count letters, digits and CJK characters; punctuation and spaces are free.

    >>> meaningful_length("Hello, world!  42")
    12
    >>> meaningful_length("東京、大阪。")
    4
    >>> meaningful_length("snake_case: naïve")
    14
    >>> meaningful_length("“Naïve” café — 3½ ½")
    12
    """
    if text.isascii():  # (known to the str: no scan)
        return len(text.encode("ascii").translate(None, _ASCII_NOT_MEANINGFUL))
    # (one UTF-8 encoding for both counts: an ASCII encoding that drops the other
    # characters, "ignore", costs more than the UTF-8 one and a translate)
    utf8 = text.encode("utf-8", "surrogatepass")
    meaningful = len(utf8.translate(None, _NOT_ASCII_MEANINGFUL))
    return meaningful + non_ascii_meaningful_length(_beyond_ascii_of(utf8))


def meaningful_and_cjk_counts(text: str) -> tuple[int, int]:
    """:func:`meaningful_length` and :func:`cjk_count` of ``text`` in one pass: the CJK
    characters are counted among its non-ASCII ones only (in Latin-script prose, a few).

    >>> meaningful_and_cjk_counts("東京 Tokyo、ひらがな"), meaningful_and_cjk_counts("Hi, you")
    ((11, 6), (5, 0))
    """
    if text.isascii():  # (known to the str: no scan)
        return len(text.encode("ascii").translate(None, _ASCII_NOT_MEANINGFUL)), 0
    # (one UTF-8 encoding for both counts, as in meaningful_length: the 6,854 texts of a
    # fundus pass, 3,360 of them not ASCII, 11.3-12.4 -> 10.3-11.7 ms)
    utf8 = text.encode("utf-8", "surrogatepass")
    meaningful = len(utf8.translate(None, _NOT_ASCII_MEANINGFUL))
    others = _beyond_ascii_of(utf8)
    return meaningful + non_ascii_meaningful_length(others), len(_CJK.findall(others))


def _beyond_ascii_of(utf8: bytes) -> str:
    """The characters that are not ASCII of a text encoded as ``utf8`` (with lone
    surrogates passed), in order: dropped from its bytes at once, where a regex would look
    at every character."""
    return utf8.translate(None, _ASCII_BYTES).decode("utf-8", "surrogatepass")


def non_ascii_meaningful_length(text: str) -> int:
    """:func:`meaningful_length` of a text that holds no ASCII character, in one pass.

    >>> non_ascii_meaningful_length("“—”")
    0
    >>> non_ascii_meaningful_length("ïé東京、")
    4
    """
    return len(_NOT_MEANINGFUL.sub("", text))


def cjk_count(text: str) -> int:
    """Count CJK ideographs, kana and hangul syllables.

    >>> cjk_count("東京 Tokyo、ひらがな")
    6
    >>> cjk_count("naïve")
    0
    """
    if text.isascii():
        return 0
    return len(_CJK.findall(text))


# Characters of an ASCII text below which :func:`normalize_space` splits it at once: the
# tests of the replacing way cost more than the few words they spare (a cleaneval-dev
# pass's texts: 99 M instructions, 115 M replacing at every length, 128 M splitting all).
_SPLIT_LENGTH = 100


def normalize_space(text: str) -> str:
    """Collapse runs of whitespace (including NBSP and ideographic space) to one space,
    and drop U+FEFF (a byte order mark pasted into the text, or the zero-width no-break
    space it once was: invisible either way, and no whitespace to ``str.split``).

    >>> normalize_space("  a\\u00a0 b\\n\\tc\\u3000")
    'a b c'
    >>> normalize_space("\\ufeff\\u3000「逮捕」"), normalize_space("\\ufeff")
    ('「逮捕」', '')
    """
    if not text.isascii():  # ASCII is NFC already
        if "\ufeff" in text:
            text = text.replace("\ufeff", "")
        # (str.split's whitespace is re's \s: NBSP and the ideographic space too)
        return " ".join(unicodedata.normalize("NFC", text).split())
    if len(text) < _SPLIT_LENGTH:
        return " ".join(text.split())
    # HTML's text is spaced with spaces and line feeds: where those are all its
    # whitespace and its runs are short, they are collapsed by replacing (memchr speed),
    # where splitting made a str per word
    if (
        "\t" in text or "\r" in text or "\x0b" in text or "\x0c" in text
        or "\x1c" in text or "\x1d" in text or "\x1e" in text or "\x1f" in text
    ):  # (the ASCII whitespace but the space and the line feed: split the general way)
        return " ".join(text.split())
    if "\n" in text:
        text = text.replace("\n", " ")
    if "    " in text:  # (a run of indentation: one split, where replacing took rounds)
        return " ".join(text.split())
    while "  " in text:
        text = text.replace("  ", " ")
    return text.strip(" ")


# A run of ideographic spaces (U+3000) between two characters that are no whitespace.
_IDEOGRAPHIC_GAP = re.compile(r"(?<!\s)(\u3000+)(?!\s)")


def normalize_title_space(text: str) -> str:
    """:func:`normalize_space` for a headline, but a run of ideographic spaces standing
    alone between two words is kept as written: a Japanese or Chinese headline's
    full-width space (``岸田首相\u3000訪米へ``) is its typography, where an ASCII space
    reads as a gap the page does not have. Leading and trailing ones go.

    >>> normalize_title_space("\u3000岸田首相\u3000訪米へ\u3000"), normalize_title_space("a \u3000b")
    ('岸田首相\u3000訪米へ', 'a b')
    """
    if "\u3000" not in text:
        return normalize_space(text)
    pieces = _IDEOGRAPHIC_GAP.split(text)  # (the runs at odd positions)
    return "".join(
        piece if index % 2 else normalize_space(piece) for index, piece in enumerate(pieces)
    ).strip()


# Characters no XML text may hold (lxml refuses them in a text it is given): the C0
# controls but tab, line feed and carriage return, lone surrogates (a str never decoded
# from bytes may hold them) and the noncharacters U+FFFE/FFFF. Pages pasted from word
# processors carry controls (a vertical tab for a line break, a backspace); each becomes
# a space, so the words they separate stay apart.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_safe(text: str) -> str:
    r"""``text`` without the characters an XML tree cannot hold (each becomes a space).
    Applied where page text enters an lxml tree.

    >>> xml_safe("a\x08b\x0bc\x00d" + chr(0xD800) + "e\tf")
    'a b c d e\tf'
    """
    return _NOT_XML.sub(" ", text)


# The same characters as UTF-8 bytes (C0 controls are single bytes in UTF-8, never part of
# a longer sequence): bytes.translate removes them at memory speed, where the regex above
# walks the text in Python's regex engine (a millisecond on a 300 KB page).
_CONTROLS = bytes(range(0x00, 0x09)) + b"\x0b\x0c" + bytes(range(0x0E, 0x20))
_CONTROLS_TO_SPACE = bytes.maketrans(_CONTROLS, b" " * len(_CONTROLS))
# Each control alone, for a membership test: ``in`` on bytes is a memchr, which skips
# through a page many bytes at a time, where translate copies it byte by byte. Most pages
# hold none of them, and 29 such scans of a page take half the time of one translate.
# (ints, not one-byte ``bytes``: ``bytes in bytes`` first tries its operand as an int,
# raising and clearing a TypeError each time)
_CONTROL_BYTES = tuple(_CONTROLS)
_NONCHARACTERS = (b"\xef\xbf\xbe", b"\xef\xbf\xbf")  # U+FFFE, U+FFFF
_NONCHARACTER_LEAD = 0xEF  # the first byte of both (an int: a memchr at once)


# Characters of a page encoded at a time by :func:`utf8`. A page is mostly ASCII markup
# with its non-ASCII text in places (a 4,096-character slice of a fundus page is ASCII
# in 63% of the page, Latin-1 in 20%); slices much shorter add a Python step each, much
# longer ones hold a wide character more often (a fundus pass: 416 M instructions encoded
# whole, 312 M in slices of 1,024, 291 M of 4,096, 414 M of 16,384).
_UTF8_SLICE = 4096


def utf8(text: str) -> bytes:
    """``text.encode("utf-8")``, the same bytes and errors, fewer instructions on a page.

    A ``str`` holding one character beyond U+00FF stores every character in two bytes
    (four beyond U+FFFF), and CPython encodes such a ``str`` character by character. A
    slice is stored as narrow as its own characters allow, and an ASCII one's UTF-8 is a
    copy of its bytes: encoded slice by slice, the ASCII stretches of a page cost a copy.
    UTF-8 encodes each code point alone, so the encoded slices joined are the whole text
    encoded (a slice of a ``str`` never parts a character; a lone surrogate raises
    ``UnicodeEncodeError`` in its slice as in the whole).

    >>> utf8("a\u00e9\u2019\U0001f600" * 3000) == ("a\u00e9\u2019\U0001f600" * 3000).encode()
    True
    """
    if len(text) <= _UTF8_SLICE or text.isascii():
        return text.encode("utf-8")
    step = _UTF8_SLICE
    return b"".join(
        [text[start : start + step].encode("utf-8") for start in range(0, len(text), step)]
    )


def xml_safe_utf8(text: str) -> bytes:
    r"""``text`` as UTF-8 for lxml's parser: NUL bytes dropped (libxml2 stops at them),
    the other characters of :func:`xml_safe` turned into spaces.

    >>> xml_safe_utf8("a\x08b\x0bc\x00d" + chr(0xD800) + "e\tf\ufffe")
    b'a b cd e\tf '
    """
    try:
        data = utf8(text)
    except UnicodeEncodeError:  # lone surrogates: the slow way
        return xml_safe(text.replace("\x00", "")).encode("utf-8")
    if any(control in data for control in _CONTROL_BYTES):
        data = data.translate(_CONTROLS_TO_SPACE, b"\x00")
    # (looked for in the str: most pages' strs can't hold them, and Python knows it at once;
    # in a str stored two bytes a character both are searched, where their UTF-8 (EF BF BE,
    # EF BF BF) starts with a byte that 15 of fundus's 133 pages hold: one memchr first)
    if _NONCHARACTER_LEAD in data and ("\ufffe" in text or "\uffff" in text):
        for noncharacter in _NONCHARACTERS:
            data = data.replace(noncharacter, b" ")
    return data


def counted(count: int, noun: str) -> str:
    """``1 page``, ``2 pages``, ``0 hub patterns``: a count and its noun, read right.

    >>> counted(1, "page"), counted(10, "page"), counted(0, "hub pattern")
    ('1 page', '10 pages', '0 hub patterns')
    """
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"
