"""Real pages of two CleanPortalEval sites (tests/layout/fixtures/SOURCES.md), decoded as
the crawler does: the layout tests' fixtures, also read by tests of other modules, and
written as a corpus for the benchmarks' tests."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterable
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


def write_corpus(
    root: Path, corpus: str, pages: Iterable[tuple[str, str | None, str | None, str, str]]
) -> None:
    """A corpus folder ``root/corpus`` as tests/benchmarks/corpora.py reads it
    (``index.jsonl``, ``html/``, ``gold/``) of fixture pages given as (id, url, site,
    group, name): the raw bytes of ``fixtures/<group>/<name>.html.gz`` and its gold text
    (empty where it has none)."""
    folder = root / corpus
    (folder / "html").mkdir(parents=True)
    (folder / "gold").mkdir()
    entries = []
    for page_id, url, site, group, name in pages:
        page = FIXTURES / group / f"{name}.html.gz"
        gold = page.with_name(f"{name}.txt")
        (folder / "html" / f"{page_id}.html").write_bytes(gzip.decompress(page.read_bytes()))
        (folder / "gold" / f"{page_id}.txt").write_bytes(
            gold.read_bytes() if gold.exists() else b"")
        entries.append({"id": page_id, "url": url, "site": site,
                        "html": f"html/{page_id}.html", "gold": f"gold/{page_id}.txt"})
    (folder / "index.jsonl").write_text(
        "".join(json.dumps(entry) + "\n" for entry in entries), encoding="utf-8")
