"""decode_html: every legacy encoding comes out as the right text, declared or not.

Fixtures: tests/fixtures/encoding/*.html are short news paragraphs written for
these tests (one per language), stored as UTF-8 and encoded here into the
code page given in encodings.json; ja-hukumusume holds the story text of the
Mozilla corpus page "hukumusume". The real CJK pages of the metadata fixtures
are re-encoded in tests/metadata/test_encodings.py.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from newsstem.encoding import decode_html, detect_encoding, mojibake_score

FIXTURES = Path(__file__).parent / "fixtures" / "encoding"
ENCODINGS: dict[str, str] = json.loads((FIXTURES / "encodings.json").read_text())


def _page(name: str) -> str:
    return (FIXTURES / f"{name}.html").read_text(encoding="utf-8")


@pytest.mark.parametrize(("name", "encoding"), sorted(ENCODINGS.items()))
def test_undeclared_legacy_encodings_decode_to_the_original_text(name, encoding):
    text = _page(name)
    decoded, _ = decode_html(text.encode(encoding))
    assert decoded == text


@pytest.mark.parametrize(
    ("name", "encoding", "declared"),
    [
        ("ja", "cp932", "euc-jp"),
        ("ja-hukumusume", "euc_jp", "shift_jis"),
        ("ko", "euc_kr", "iso-8859-1"),
        ("ru", "cp1251", "koi8-r"),
        ("ru-koi8", "koi8_r", "windows-1251"),
        ("pl", "cp1250", "windows-1252"),
        ("de", "cp1252", "utf-8"),
    ],
)
def test_a_wrong_declaration_loses_to_a_clearly_better_reading(name, encoding, declared):
    text = _page(name).replace("<head>", f'<head>\n<meta charset="{declared}">', 1)
    decoded, _ = decode_html(text.encode(encoding))
    assert decoded == text


def test_a_right_declaration_is_used_as_is():
    text = _page("hu").replace("<head>", '<head>\n<meta charset="iso-8859-2">', 1)
    decoded, encoding = decode_html(text.encode("iso8859_2"))
    assert (decoded, encoding) == (text, "iso8859-2")


def test_the_http_charset_comes_before_the_meta_declaration():
    body = _page("ru").replace("<head>", '<head>\n<meta charset="koi8-r">', 1).encode("cp1251")
    decoded, encoding = decode_html(body, "text/html; charset=windows-1251")
    assert encoding == "cp1251"
    assert "Москве" in decoded


def test_utf8_wins_over_a_stale_declaration():
    text = '<meta charset="shift_jis"><p>東京の天気</p>'
    assert decode_html(text.encode("utf-8")) == (text, "utf-8")


def test_iso2022jp_is_recognised_by_its_escapes():
    text = _page("ja")
    decoded, encoding = decode_html(text.encode("iso2022_jp"))
    assert (decoded, encoding) == (text, "iso2022_jp")


def test_ascii_pages_keep_their_declared_label():
    assert decode_html(b'<meta charset="windows-1252"><p>plain</p>')[1] == "cp1252"
    assert decode_html(b"<p>plain</p>") == ("<p>plain</p>", "utf-8")


def test_undecodable_bytes_are_replaced_never_raised():
    rng = random.Random(7)
    for _ in range(50):
        noise = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 400)))
        text, encoding = decode_html(b"<p>" + noise)
        assert isinstance(text, str) and encoding
    cut_in_half = "東京".encode("shift_jis")[:-1]
    text, _ = decode_html(b'<meta charset="shift_jis"><p>' + cut_in_half)
    assert text.startswith('<meta charset="shift_jis"><p>')


def test_detect_encoding_of_nothing_is_none():
    assert detect_encoding(b"") is None


def test_mojibake_scores_high_and_clean_text_low():
    for name in ENCODINGS:
        assert mojibake_score(_page(name)) < 0.02, name
    japanese = _page("ja").encode("cp932")
    assert mojibake_score(japanese.decode("cp1252", errors="replace")) > 0.2
    assert mojibake_score(japanese.decode("gb18030", errors="replace")) > 0.2
    assert mojibake_score(_page("de").encode("utf-8").decode("cp1252")) > 0.2


def test_binary_bytes_are_not_read_as_text_in_some_code_page():
    text, encoding = decode_html(b"\x89PNG\r\n\x1a\n" + bytes(range(256)))
    assert encoding == "utf-8" and "\ufffd" in text


def test_utf16_without_byte_order_mark():
    text = _page("ru")
    assert decode_html(text.encode("utf-16-le")) == (text, "utf-16-le")
    assert decode_html(text.encode("utf-16-be")) == (text, "utf-16-be")


def test_ascii_pages_declaring_an_encoding_that_reads_them_otherwise_are_utf8():
    # <meta charset="utf-16"> on an 8-bit page (browsers read it as UTF-8): the spider
    # re-reads the response by the encoding given here to find its links
    for label in ("utf-16", "utf-16le", "cp037"):
        body = f'<meta charset="{label}"><a href="/story">Story</a>'.encode("ascii")
        text, encoding = decode_html(body)
        assert (text, encoding) == (body.decode("ascii"), "utf-8"), label
    assert decode_html(b"<p>plain</p>", "text/html; charset=utf-16")[1] == "utf-8"
