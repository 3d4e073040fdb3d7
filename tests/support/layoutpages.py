"""Real pages of two CleanPortalEval sites (tests/layout/fixtures/SOURCES.md), decoded as
the crawler does: the layout tests' fixtures, also read by tests of other modules."""

from __future__ import annotations

import gzip
from dataclasses import dataclass
from pathlib import Path

from newsstem.encoding import decode_html

FIXTURES = Path(__file__).resolve().parents[1] / "layout" / "fixtures"


@dataclass(frozen=True)
class FixturePage:
    name: str
    url: str
    html: str
    gold: str = ""

    @property
    def gold_title(self) -> str:
        return " ".join(self.gold.strip().split("\n\n", 1)[0].split())


def layout_pages(group: str, base: str) -> list[FixturePage]:
    """The pages of ``fixtures/<group>`` (``msnbc``, ``bbc``), at URLs under ``base``."""
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
