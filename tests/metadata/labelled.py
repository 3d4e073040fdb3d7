"""The labelled metadata pages (tests/fixtures/metadata, sources in SOURCES.md there).

A helper module, not a conftest: tests import it by name."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

METADATA_FIXTURES = Path(__file__).parents[1] / "fixtures" / "metadata"
LABELS = [
    json.loads(line)
    for line in (METADATA_FIXTURES / "labels.jsonl").read_text(encoding="utf-8").splitlines()
]


def labelled_page(name: str) -> str:
    """The stored HTML of a labelled page, as text."""
    return gzip.decompress((METADATA_FIXTURES / "pages" / f"{name}.html.gz").read_bytes()).decode()


def label(name: str) -> dict:
    return next(item for item in LABELS if item["name"] == name)
