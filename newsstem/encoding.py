"""Decode page bytes to text the way the crawler does, for offline use.

Scrapy's ``TextResponse`` decodes by BOM, HTTP ``Content-Type`` charset, the
page's own ``<meta>`` declaration, then detection (ASCII, UTF-8, then
charset-normalizer). :func:`decode_html` follows the same order, so a page read
from an archive or a corpus file yields the same text as during the crawl.
Undecodable bytes are replaced, never raised.
"""

from __future__ import annotations

from charset_normalizer import from_bytes
from w3lib.encoding import html_to_unicode, resolve_encoding

__all__ = ["decode_html", "detect_encoding"]


def detect_encoding(body: bytes) -> str | None:
    """Guess the encoding of undeclared bytes: ASCII, then UTF-8, then charset-normalizer.

    >>> detect_encoding("日本語".encode("utf-8"))
    'utf-8'
    >>> detect_encoding(b"plain")
    'cp1252'
    """
    for candidate in ("ascii", "utf-8"):
        try:
            body.decode(candidate)
        except UnicodeError:
            continue
        return resolve_encoding(candidate)
    match = from_bytes(body).best()
    return resolve_encoding(match.encoding) if match is not None else None


def decode_html(body: bytes | str, content_type: str | None = None) -> tuple[str, str]:
    """Return ``(text, encoding)``; ``str`` input is returned as is (encoding "unicode").

    >>> decode_html(b'<meta charset="shift_jis"><p>' + "記事".encode("shift_jis"))[1]  # w3lib maps to the superset
    'cp932'
    >>> decode_html(b"\\xef\\xbb\\xbfhello")
    ('hello', 'utf-8')
    """
    if isinstance(body, str):
        return body, "unicode"
    encoding, text = html_to_unicode(
        content_type, body, default_encoding="utf-8", auto_detect_fun=detect_encoding
    )
    return text, encoding
