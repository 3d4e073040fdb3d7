"""Decode page bytes to text, the same way during the crawl and offline.

Order of evidence:

1. a byte-order mark;
2. bytes that are valid UTF-8 and not plain ASCII are UTF-8, whatever the page
   declares: pages re-saved as UTF-8 keep their old ``charset=gb2312`` or
   ``windows-1252`` declaration surprisingly often, while text in a legacy
   encoding almost never happens to form valid multi-byte UTF-8 sequences;
3. the HTTP ``Content-Type`` charset, then the page's ``<meta>`` declaration
   (w3lib maps labels to their supersets, e.g. gb2312 -> gb18030, as browsers do);
4. detection with charset-normalizer; UTF-8 as the last resort.

Undecodable bytes are replaced (U+FFFD), never raised.
"""

from __future__ import annotations

from charset_normalizer import from_bytes
from w3lib.encoding import html_to_unicode, read_bom, resolve_encoding, to_unicode

__all__ = ["decode_html", "detect_encoding", "looks_binary"]

# Bytes that never occur in text: C0 controls except tab, LF, FF, CR and ESC
# (ESC starts ISO-2022-JP sequences).
_BINARY_BYTES = bytes(b for b in range(32) if b not in (9, 10, 12, 13, 27))
# Share of such bytes above which a body is binary (images, archives, random
# data served as text/html); real pages have none or a stray one.
BINARY_BYTE_SHARE = 0.01
_SNIFF_BYTES = 4096


def detect_encoding(body: bytes) -> str | None:
    """Guess the encoding of undeclared, non-UTF-8 bytes.

    >>> detect_encoding(b"plain ascii")
    'cp1252'
    """
    match = from_bytes(body).best()
    return resolve_encoding(match.encoding) if match is not None else None


def looks_binary(body: bytes) -> bool:
    """True for bodies that are not text in any encoding (sniffs the first 4 KiB).

    >>> looks_binary(b"\\x89PNG\\r\\n\\x1a\\n\\x00\\x00\\x00\\rIHDR"), looks_binary("<p>日本</p>".encode("utf-16"))
    (True, False)
    >>> looks_binary(b""), looks_binary("<p>テキスト</p>".encode("shift_jis"))
    (False, False)
    """
    head = body[:_SNIFF_BYTES]
    if not head or read_bom(head)[0] is not None:
        return False
    controls = len(head) - len(head.translate(None, _BINARY_BYTES))
    return controls > BINARY_BYTE_SHARE * len(head)


def _is_utf8(body: bytes) -> bool:
    if body.isascii():
        return False
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def decode_html(body: bytes | str, content_type: str | None = None) -> tuple[str, str]:
    """Return ``(text, encoding)``; ``str`` input is returned as is (encoding ``"unicode"``).

    >>> decode_html(b'<meta charset="shift_jis"><p>' + "記事".encode("shift_jis"))[1]
    'cp932'
    >>> decode_html('<meta charset="gb2312"><p>谷歌'.encode("utf-8"))[1]  # re-saved page
    'utf-8'
    >>> decode_html(b"\\xef\\xbb\\xbfhello")
    ('hello', 'utf-8')
    """
    if isinstance(body, str):
        return body, "unicode"
    bom_encoding, bom = read_bom(body)
    if bom_encoding is not None and bom is not None:
        return to_unicode(body[len(bom) :], bom_encoding), bom_encoding
    if _is_utf8(body):
        return body.decode("utf-8"), "utf-8"
    encoding, text = html_to_unicode(
        content_type, body, default_encoding="utf-8", auto_detect_fun=detect_encoding
    )
    return text, encoding
