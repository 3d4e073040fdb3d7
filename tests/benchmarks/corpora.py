"""Load the shared evaluation corpora (``<repo>/../shared/corpora`` or ``$NEWSSTEM_CORPORA``).

Each corpus folder has ``index.jsonl`` (``id``, ``url``, ``site``, ``html``, ``gold``), the
original page bytes under ``html/`` and UTF-8 gold text under ``gold/``. Pages are decoded
with :func:`newsstem.encoding.decode_html`, as the crawler decodes them. A user's clone has
no corpora: :func:`corpora_root` returns None and callers skip with a message.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from newsstem.encoding import decode_html

__all__ = ["CorpusPage", "corpora_root", "corpus_names", "load_corpus"]

REPO = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class CorpusPage:
    corpus: str
    id: str
    url: str | None
    site: str | None
    raw: bytes  # the page as fetched
    html: str  # decoded as the crawler would
    gold: str


def corpora_root() -> Path | None:
    """``$NEWSSTEM_CORPORA`` if set, else ``<repo>/../shared/corpora``; None when absent."""
    configured = os.environ.get("NEWSSTEM_CORPORA")
    root = Path(configured) if configured else REPO.parent / "shared" / "corpora"
    return root if root.is_dir() else None


def corpus_names(root: Path) -> list[str]:
    return sorted(path.parent.name for path in root.glob("*/index.jsonl"))


def load_corpus(root: Path, name: str) -> list[CorpusPage]:
    return list(_pages(root / name, name))


def _pages(folder: Path, name: str) -> Iterator[CorpusPage]:
    with (folder / "index.jsonl").open(encoding="utf-8") as index:
        for line in index:
            if not line.strip():
                continue
            entry = json.loads(line)
            raw = (folder / entry["html"]).read_bytes()
            yield CorpusPage(
                corpus=name,
                id=str(entry["id"]),
                url=entry.get("url"),
                site=entry.get("site"),
                raw=raw,
                html=decode_html(raw)[0],
                gold=(folder / entry["gold"]).read_text(encoding="utf-8"),
            )
