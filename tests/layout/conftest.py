"""Real pages of two CleanPortalEval sites (fixtures/SOURCES.md), decoded as the crawler does."""

from __future__ import annotations

import pytest
from support.layoutpages import FixturePage, layout_pages

@pytest.fixture(scope="session")
def msnbc() -> list[FixturePage]:
    """12 article pages of one layout (tv.msnbc.com), with gold texts."""
    return layout_pages("msnbc", "http://tv.msnbc.com")


@pytest.fixture(scope="session")
def bbc() -> dict[str, FixturePage]:
    """6 bbc.co.uk articles (01, 02, 03, 06, 08, 09) and 2 section index pages (04, 05)."""
    return {page.name: page for page in layout_pages("bbc", "http://bbc.co.uk/news")}


BBC_INDEX_PAGES = ("news_04", "news_05")
