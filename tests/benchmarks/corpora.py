"""Load the shared evaluation corpora (``<repo>/../shared/corpora`` or ``$NEWSSTEM_CORPORA``).

Each corpus folder has ``index.jsonl`` (``id``, ``url``, ``site``, ``html``, ``gold``), the
original page bytes under ``html/`` and UTF-8 gold text under ``gold/``. Pages are decoded
with :func:`newsstem.encoding.decode_html`, as the crawler decodes them. A user's clone has
no corpora: :func:`corpora_root` returns None and callers skip with a message.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from newsstem.encoding import decode_html

__all__ = [
    "HALVES",
    "CorpusPage",
    "gold_headline",
    "corpora_location",
    "corpora_root",
    "corpus_names",
    "halves",
    "load_corpus",
    "site_keys",
    "split_key",
]

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
    language: str | None = None  # the corpus's own tag of the page's language (fundus)


def corpora_location() -> Path:
    """``$NEWSSTEM_CORPORA`` if set, else ``<repo>/../shared/corpora``, there or not."""
    configured = os.environ.get("NEWSSTEM_CORPORA")
    return Path(configured) if configured else REPO.parent / "shared" / "corpora"


def corpora_root() -> Path | None:
    """:func:`corpora_location`; None when absent."""
    root = corpora_location()
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
                language=(entry.get("meta") or {}).get("language") or None,
            )


# The two fixed halves of every corpus: rules are tuned on the first and checked on the
# second; a rule is kept only if the held-out half gains too.
HALVES = ("tune", "held-out")
# A host that more than this share of a corpus's pages have is a placeholder (mozilla's
# "fakehost"), not a site.
PLACEHOLDER_HOST_SHARE = 0.5


def split_key(page: CorpusPage, placeholder_hosts: frozenset[str] = frozenset()) -> str:
    """What decides a page's half: its site, else the host of its URL, else its id, so
    that the pages of one site never straddle the halves."""
    if page.site:
        return page.site
    host = (urlsplit(page.url).hostname or "") if page.url else ""
    host = host.removeprefix("www.")
    if host and host not in placeholder_hosts:
        return host
    return page.id


def site_keys(pages: list[CorpusPage]) -> dict[str, str]:
    """Page id -> :func:`split_key` of the page, placeholder hosts (one host for most of
    a corpus, such as mozilla's "fakehost") not counted as sites."""
    hosts: Counter[str] = Counter(
        ((urlsplit(page.url).hostname or "") if page.url else "").removeprefix("www.")
        for page in pages
    )
    placeholders = frozenset(
        host for host, count in hosts.items() if count > PLACEHOLDER_HOST_SHARE * len(pages)
    )
    return {page.id: split_key(page, placeholders) for page in pages}


def halves(pages: list[CorpusPage]) -> dict[str, str]:
    """Page id -> "tune" or "held-out", fixed by a hash of the page's corpus and
    :func:`split_key` (the same on every machine and in every run)."""
    result = {}
    for page_id, key in site_keys(pages).items():
        corpus = pages[0].corpus
        digest = hashlib.sha1(f"{corpus}/{key}".encode()).digest()
        result[page_id] = HALVES[digest[0] % 2]
    return result


# A first line longer than this is not a headline: the gold text starts with the story.
MAX_HEADLINE_CHARS = 200


def gold_headline(gold: str) -> str | None:
    """The headline a gold text starts with (chaos, cleanportal), or None.

    Its first line, and the lines after it that carry on its sentence: cleanportal's
    gold wraps a long headline ("… turns would-be" / "enemy into ally"), chaos's puts the
    standfirst on the next line ("… landing soon" / "LAUNCH date for …").

    >>> gold_headline("Storm hits the\\ncoast\\nTHE storm came at night.\\n\\nIt rained.")
    'Storm hits the coast'
    >>> gold_headline("A story that starts at once. " * 10) is None
    True
    """
    lines = gold.strip().split("\n\n", 1)[0].split("\n")
    headline = lines[0]
    for line in lines[1:]:
        if not line[:1].islower():
            break
        headline += " " + line
    headline = " ".join(headline.split())
    return headline if headline and len(headline) <= MAX_HEADLINE_CHARS else None
