"""Checks of what the Python API is given (docs/python-api.md): a wrong type is one
``TypeError`` naming the argument at the entry point, not an error from deep inside
(``extract_page(None)`` said "object of type 'NoneType' has no len()"), nor a silent
misreading (``anchor_texts="Story 3"`` was read as seven one-character texts).
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["check_html", "check_texts"]


def check_html(html: object, function: str) -> None:
    """TypeError unless ``html``, the page given to ``function``, is ``str`` or ``bytes``.

    >>> check_html(b"<p>x</p>", "extract_page")
    >>> check_html(None, "extract_page")
    Traceback (most recent call last):
    ...
    TypeError: extract_page: html must be the page as str or bytes, not NoneType
    """
    if not isinstance(html, (str, bytes)):
        raise TypeError(
            f"{function}: html must be the page as str or bytes, not {type(html).__name__}"
        )


def check_texts(texts: object, name: str, function: str) -> None:
    """TypeError if ``texts``, the argument ``name`` of ``function``, is a single
    string (an iterable of characters) or not iterable at all: it is an iterable of
    strings, a list or tuple of them.

    >>> check_texts(["Story 3"], "anchor_texts", "extract_page")
    >>> check_texts("Story 3", "anchor_texts", "extract_page")
    Traceback (most recent call last):
    ...
    TypeError: extract_page: anchor_texts must be an iterable of strings, not a str alone ('Story 3'): ['Story 3'] for one
    """
    if isinstance(texts, (str, bytes)):
        raise TypeError(
            f"{function}: {name} must be an iterable of strings, not a "
            f"{type(texts).__name__} alone ({texts!r}): [{texts!r}] for one"
        )
    if not isinstance(texts, Iterable):
        raise TypeError(
            f"{function}: {name} must be an iterable of strings, not {type(texts).__name__}"
        )
