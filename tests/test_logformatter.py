"""Scrapy's DEBUG item lines stay readable: a crawl at LOG_LEVEL=DEBUG of the fixture site
(real HTTP on 127.0.0.1) logs "Scraped from" and "Dropped" for every item, as Scrapy users
expect, without whole article bodies and hub pages' HTML (stop 33: thousands of characters
a line)."""

from __future__ import annotations

import json
import re

from support.crawl import run_crawl

from newsstem.logformatter import TEXT_CHARS


def _records(log: str, start: str) -> list[str]:
    """The log records (a record runs to the next line that starts with a timestamp)
    whose message starts with ``start``."""
    records = re.split(r"\n(?=\d{4}-\d\d-\d\d \d\d:\d\d:\d\d )", log)
    return [r for r in records if f"] DEBUG: {start}" in r]


def test_debug_item_lines_show_every_field_with_long_texts_shortened(site, tmp_path):
    result = run_crawl(tmp_path, "-a", f"start_url={site.url}/index.html",
                       settings={"LOG_LEVEL": "DEBUG"})
    assert result.returncode == 0, result.log[-3000:]
    assert result.items
    scraped = _records(result.log, "Scraped from <200 ")
    assert len(scraped) == len(result.items)
    for record in scraped:
        assert "Article(url='" in record and ", body='" in record and ", method='" in record
        assert len(record) < 1500, record  # the whole body was there (3,050)
    bodies = {item["url"]: item["body"] for item in result.items}
    longest = max(bodies, key=lambda url: len(bodies[url]))
    assert len(bodies[longest]) > 1000
    [record] = [r for r in scraped if f"Article(url={longest!r}" in r]
    start = json.dumps(bodies[longest][:TEXT_CHARS], ensure_ascii=False)[1:-1]
    assert f"… ({len(bodies[longest]):,} characters)" in record
    assert start.split("\\n")[0] in record  # the body's start, to tell it
    dropped = _records(result.log, "Dropped: not an article")
    assert dropped  # the index pages: their Page item, without its whole HTML
    for record in dropped:
        assert "Page(url='" in record and ", html='" in record and len(record) < 1500, record
