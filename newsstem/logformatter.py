"""Scrapy's item log lines, with long texts shortened (``LOG_FORMATTER``).

At DEBUG level (Scrapy's default ``LOG_LEVEL``) Scrapy logs every item it scrapes,
``Scraped from <200 URL>`` and the item's repr, and every item a pipeline drops: for
newsstem, each article's whole body and each hub page's whole HTML, thousands of
characters a line. :class:`ShortItemLogFormatter` logs the same messages at the same
levels, every field named as before, but a text longer than :data:`TEXT_CHARS` shows
its start and its length:

    >>> from newsstem.items import Article
    >>> article = Article(url="https://example.com/a", site="example.com", title="Rates",
    ...                   body="Rates rise. " * 400, length=3600, method="readability",
    ...                   depth=1, fetched_at="2026-11-21T08:00:00Z")
    >>> line = short_item(article)
    >>> line[:64]
    "Article(url='https://example.com/a', site='example.com', title='"
    >>> body = line[line.index("body="):]
    >>> body[:30], body[body.index("…"):][:22]
    ("body='Rates rise. Rates rise. ", '… (4,800 characters), ')
    >>> len(line) < 600
    True

The items exported are not touched: only their log lines. Scrapy's own formatter
logs whole items again: ``-s LOG_FORMATTER=scrapy.logformatter.LogFormatter``.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from scrapy.logformatter import LogFormatter

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.http import Response
    from scrapy.logformatter import LogFormatterResult
    from twisted.python.failure import Failure

__all__ = ["TEXT_CHARS", "ShortItemLogFormatter", "short_item"]

#: characters of a long text field shown in an item's log line
TEXT_CHARS = 80
_REPR_CHARS = 200  # other values (lists, dicts) whose repr is longer are cut there


def _short(value: Any) -> str:
    if isinstance(value, str) and len(value) > TEXT_CHARS:
        return f"{value[:TEXT_CHARS]!r}… ({len(value):,} characters)"
    text = repr(value)
    return text if len(text) <= _REPR_CHARS else f"{text[:_REPR_CHARS]}…"


def short_item(item: Any) -> str:
    """The item's repr with long values shortened (dataclass items and dicts; any
    other item as its repr, cut at 200 characters)."""
    if dataclasses.is_dataclass(item) and not isinstance(item, type):
        fields = ", ".join(
            f"{f.name}={_short(getattr(item, f.name))}" for f in dataclasses.fields(item)
        )
        return f"{type(item).__name__}({fields})"
    if isinstance(item, dict):
        return "{" + ", ".join(f"{key!r}: {_short(value)}" for key, value in item.items()) + "}"
    return _short(item)


class ShortItemLogFormatter(LogFormatter):
    """Scrapy's :class:`~scrapy.logformatter.LogFormatter`, items shown by
    :func:`short_item` in its scraped, dropped and item-error lines."""

    def scraped(
        self, item: Any, response: Response | Failure | None, spider: Spider
    ) -> LogFormatterResult:
        return _shortened(super().scraped(item, response, spider), item)

    def dropped(
        self, item: Any, exception: BaseException, response: Response | Failure | None,
        spider: Spider,
    ) -> LogFormatterResult:
        return _shortened(super().dropped(item, exception, response, spider), item)

    def item_error(
        self, item: Any, exception: BaseException, response: Response | Failure | None,
        spider: Spider,
    ) -> LogFormatterResult:
        return _shortened(super().item_error(item, exception, response, spider), item)


class _ShortItem:
    """An item's :func:`short_item`, made only when a line is written (at DEBUG level, or
    at the level of a dropped item), not for every item of a crawl logged at INFO."""

    __slots__ = ("item",)

    def __init__(self, item: Any) -> None:
        self.item = item

    def __str__(self) -> str:
        return short_item(self.item)

    __repr__ = __str__


def _shortened(result: LogFormatterResult, item: Any) -> LogFormatterResult:
    args = result.get("args")
    if isinstance(args, dict) and "item" in args:
        result["args"] = {**args, "item": _ShortItem(item)}
    return result
