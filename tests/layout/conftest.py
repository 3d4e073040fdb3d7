"""Real pages of two CleanPortalEval sites (fixtures/SOURCES.md), decoded as the crawler does."""

from __future__ import annotations

import gzip
from dataclasses import dataclass
from pathlib import Path

import pytest

from newsstem.encoding import decode_html

FIXTURES = Path(__file__).parent / "fixtures"


@dataclass(frozen=True)
class FixturePage:
    name: str
    url: str
    html: str
    gold: str = ""

    @property
    def gold_title(self) -> str:
        return " ".join(self.gold.strip().split("\n\n", 1)[0].split())


def _pages(group: str, base: str) -> list[FixturePage]:
    pages = []
    for path in sorted((FIXTURES / group).glob("*.html.gz")):
        name = path.name.removesuffix(".html.gz")
        gold_path = path.with_name(f"{name}.txt")
        pages.append(
            FixturePage(
                name=name,
                url=f"{base}/{name}.html",
                html=decode_html(gzip.decompress(path.read_bytes()))[0],
                gold=gold_path.read_text(encoding="utf-8") if gold_path.exists() else "",
            )
        )
    return pages


@pytest.fixture(scope="session")
def msnbc() -> list[FixturePage]:
    """12 article pages of one layout (tv.msnbc.com), with gold texts."""
    return _pages("msnbc", "http://tv.msnbc.com")


@pytest.fixture(scope="session")
def bbc() -> dict[str, FixturePage]:
    """6 bbc.co.uk articles (01, 02, 03, 06, 08, 09) and 2 section index pages (04, 05)."""
    return {page.name: page for page in _pages("bbc", "http://bbc.co.uk/news")}


BBC_INDEX_PAGES = ("news_04", "news_05")
