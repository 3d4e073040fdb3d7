"""The article text a page declares in JSON-LD (schema.org ``articleBody``).

Pages that render their story with scripts often ship it for search engines in a
``<script type="application/ld+json">`` block; the crawler sees the HTML before any
script runs, so the DOM may hold no story at all. The declared text is evidence, not
truth: on the corpora two of three ``articleBody`` values are teasers of 134 and 298
characters for stories of thousands. It is used only when the page's own markup gives
no article or one under ``min_article_length`` (a body without any text included), or
one the declared text holds with much more besides (:func:`extends`; see
:func:`newsstem.readability.extractor.extract`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from newsstem.readability.tree import Element

__all__ = ["declared_article_body", "extends"]

# Looked for in the text of each JSON-LD block first: a block without it is not parsed
# (a key written with escapes, "article\u0042ody", is not read).
_BODY_KEY = "articleBody"
_JSON_LD = "application/ld+json"
_WORD = re.compile(r"\w+")
# Characters of an extraction's head read per declared word before all of it is (most
# words and their space are shorter: the head then has as many words as the declared text).
_HEAD_CHARS_PER_WORD = 8


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
        if (script.get("type") or "").strip().lower() == _JSON_LD
        # (its text read once: each read of a script's .text decodes it into a new str)
        and (text := script.text)
        and _BODY_KEY in text  # (a block without the key is not parsed)
        for body in _article_bodies(_load(text))
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
                if key == _BODY_KEY and isinstance(item, str):
                    yield item
                else:
                    stack.append(item)
        elif isinstance(value, list):
            stack.extend(value)


def extends(declared: str, extracted: str, min_ratio: float, min_share: float) -> bool:
    """Whether the declared text is the extracted one and much more: at least ``min_ratio``
    times as many words, holding ``min_share`` of the extracted words (a story the markup
    cut short: a "read more" box, a part loaded by a script).

    >>> story = "The storm hit the coast on Tuesday. Officials said the damage was severe."
    >>> extends(story * 3, story, 2.0, 0.8), extends(story, story, 2.0, 0.8)
    (True, False)
    >>> extends("Other words entirely, " * 30, story, 2.0, 0.8)
    False
    """
    declared_words = _WORD.findall(declared.casefold())
    extracted = extracted.casefold()
    # Most declared texts are teasers: the words of the extraction's head outnumber them
    # already (a head has no more words than the whole, casefold maps each character alone).
    head = _WORD.findall(extracted, 0, _HEAD_CHARS_PER_WORD * len(declared_words) + 1)
    if head and len(declared_words) < min_ratio * len(head):
        return False
    extracted_words = _WORD.findall(extracted)
    if not extracted_words or len(declared_words) < min_ratio * len(extracted_words):
        return False
    known = set(declared_words)
    shared = sum(1 for word in extracted_words if word in known)
    return shared >= min_share * len(extracted_words)
