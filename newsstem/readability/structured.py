"""The article text a page declares in JSON-LD (schema.org ``articleBody``).

Pages that render their story with scripts often ship it for search engines in a
``<script type="application/ld+json">`` block; the crawler sees the HTML before any
script runs, so the DOM may hold no story at all. The declared text is evidence, not
truth: on the corpora two of three ``articleBody`` values are teasers of 134 and 298
characters for stories of thousands. It is used only when the page's own markup gives
no article (see :func:`newsstem.readability.extractor.extract`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from newsstem.readability.tree import Element

__all__ = ["MARKER", "declared_article_body"]

# Looked for in the page text first: pages without it pay nothing.
MARKER = "articleBody"
_JSON_LD = "application/ld+json"


def declared_article_body(root: Element) -> str:
    """The longest ``articleBody`` string of the page's JSON-LD blocks, or "".

    Blocks that are not valid JSON are skipped.

    >>> from lxml import etree
    >>> page = etree.fromstring(
    ...     '<html><head><script type="application/ld+json">{"@graph": [{"@type": '
    ...     '"NewsArticle", "articleBody": "The story."}]}</script></head></html>',
    ...     etree.HTMLParser(),
    ... )
    >>> declared_article_body(page)
    'The story.'
    """
    bodies = [
        body
        for script in root.iter("script")
        if (script.get("type") or "").strip().lower() == _JSON_LD and script.text
        for body in _article_bodies(_load(script.text))
    ]
    return max(bodies, key=len, default="").strip()


def _load(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:  # not JSON (a template, a comment-wrapped block): no evidence
        return None


def _article_bodies(data: Any) -> Iterator[str]:
    """Every ``articleBody`` string in a JSON value, depth first, without recursion."""
    stack = [data]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            for key, item in value.items():
                if key == MARKER and isinstance(item, str):
                    yield item
                else:
                    stack.append(item)
        elif isinstance(value, list):
            stack.extend(value)
