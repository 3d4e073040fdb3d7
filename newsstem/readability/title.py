"""The article title: the page <title> without the site name (python-readability shorten_title).

A heading (h1/h2) that is part of the <title> is the headline. Otherwise the <title> is
cut at its separators (" | ", " - ", " » ", and for CJK titles also "_", "｜", then "：") and
the longest part is kept when it is long enough to be a headline.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from newsstem.text import cjk_count, meaningful_length, normalize_space

__all__ = ["clean_title"]

_SEPARATOR = re.compile(r"\s+(?:[|\-–—»·•/\\]{1,2}|::)\s+|\s*[|｜]\s*")
_CJK_SEPARATOR = re.compile(r"\s*(?:[_｜|»]|\s[-–—]\s|[－—–]{1,2})\s*")
# A fullwidth colon joins a site name only when no other separator is there: in a
# headline it usually introduces the subject ("两会：...").
_CJK_COLON = re.compile(r"\s*：\s*")
# A headline has at least 3 words (Mozilla Readability) or 4 CJK characters (python-readability).
_MIN_WORDS = 3
_MIN_CJK = 4
# A heading matching part of the title has 2+ words and 15+ characters (python-readability).
_MIN_HEADING_CHARS = 15


def clean_title(raw_title: str, headings: Iterable[str]) -> str:
    """The headline of a page from its <title> text and its h1/h2 texts.

    >>> clean_title("Storm hits the coast tonight | Daily Planet", [])
    'Storm hits the coast tonight'
    >>> clean_title("Daily Planet - Storm hits the coast tonight", ["Menu"])
    'Storm hits the coast tonight'
    >>> clean_title("Storm hits the coast: live | DP", ["Storm hits the coast: live"])
    'Storm hits the coast: live'
    >>> clean_title("東京で大雪、交通に乱れ_ニュース_サイト", [])
    '東京で大雪、交通に乱れ'
    >>> clean_title("海外留学生看两会：出国前后关注点大不同_教育频道_中国青年网", [])
    '海外留学生看两会：出国前后关注点大不同'
    >>> clean_title("新华网：海外留学生看两会出国前后关注点大不同", [])
    '海外留学生看两会出国前后关注点大不同'
    >>> clean_title("", ["  Only a heading "])
    'Only a heading'
    """
    title = normalize_space(raw_title)
    heading_texts = [normalize_space(text) for text in headings]
    if not title:
        return next((text for text in heading_texts if text), "")
    matches = [text for text in heading_texts if _is_heading_match(text, title)]
    if matches:
        return max(matches, key=len)
    separators = (_CJK_SEPARATOR, _CJK_COLON) if cjk_count(title) else (_SEPARATOR,)
    for separator in separators:
        parts = [part.strip() for part in separator.split(title) if part.strip()]
        if len(parts) > 1:
            longest = max(parts, key=meaningful_length)
            return longest if _is_headline(longest) else title
    return title


def _is_heading_match(heading: str, title: str) -> bool:
    if not heading or heading not in title:
        return False
    if cjk_count(heading) >= _MIN_CJK:
        return True
    return len(heading.split()) >= 2 and len(heading) >= _MIN_HEADING_CHARS


def _is_headline(text: str) -> bool:
    return cjk_count(text) >= _MIN_CJK or len(text.split()) >= _MIN_WORDS
