"""The Chinese and Japanese labelled pages in their legacy encodings, charset declaration removed:
the same text, the same extracted title and body, the same metadata as the UTF-8 page."""

from __future__ import annotations

import re

import pytest

from newsstem.encoding import decode_html
from newsstem.metadata import extract_metadata
from newsstem.readability import extract
from labelled import labelled_page

_DECLARATION = re.compile(
    r"<meta\b[^>]*(?:charset|http-equiv\s*=\s*[\"']?content-type)[^>]*>|<\?xml[^>]*\?>", re.I
)
CASES = [
    ("yahoo-4", "shift_jis"), ("yahoo-4", "euc_jp"), ("yahoo-4", "iso2022_jp"),
    ("gmw", "gbk"), ("youth", "gbk"), ("qq", "gb18030"), ("pixnet", "big5"),
    ("aktualne", "cp1250"), ("lemonde", "cp1252"),
]


@pytest.mark.parametrize(("name", "encoding"), CASES)
def test_legacy_bytes_without_a_declaration_read_like_the_utf8_page(name, encoding):
    # Characters the legacy encoding lacks become character references, as a
    # server would have written them.
    legacy = _DECLARATION.sub("", labelled_page(name)).encode(encoding, errors="xmlcharrefreplace")
    utf8 = legacy.decode(encoding)
    decoded, _ = decode_html(legacy)
    assert decoded == utf8
    from_bytes, from_text = extract(legacy), extract(utf8)
    assert (from_bytes.title, from_bytes.body) == (from_text.title, from_text.body)
    assert from_text.body  # there is an article to compare
    assert extract_metadata(legacy) == extract_metadata(utf8)
