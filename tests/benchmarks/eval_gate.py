"""The extraction gate: newsstem alone on every corpus half, against floors pinned in git.

    python tests/benchmarks/eval_gate.py                     # measure and check (exit 1 on a fall)
    python tests/benchmarks/eval_gate.py --repin             # raise floors to today's figures
    python tests/benchmarks/eval_gate.py --repin --allow-regression "why it is worth it"

``tests/test_eval_gate.py`` runs the check in the test suite (CI included), so a change to
shared extraction code (readability fallback, layout, titles) that makes any corpus half
worse fails there. The figures (:data:`METRICS`):

- ``body_f1``: token-shingle F1 of ``newsstem.readability.extract(html, url).body`` against
  the gold text, per corpus and half (:func:`corpora.halves`);
- ``title_match``: on ``fundus`` (the corpus with labelled headlines), the share of pages
  whose exported title (the extraction's title weighed with the page's own headline
  statements by :func:`newsstem.metadata.extract_metadata`, as a crawl exports it) is
  the publisher's headline (case and spacing ignored);
- ``learned_f1``: on the corpora made for layout learning (:data:`LAYOUT_CORPORA`: many
  sites with 5 pages or more), the learned layouts read leave-one-out exactly as
  ``tests/benchmarks/learned.py`` does (learn from the site's other pages, extract with
  pattern, guard and fallback; token-shingle F1 pooled over the half's pages), so a
  change to the fallback, to learning or to matching that costs the learned path fails
  here too (about a minute).

The floors live in ``tests/eval_floors.json`` with a fingerprint of each corpus: if a
corpus changed, its floors say nothing and the gate asks for a re-pin. The rules:

- a figure more than :data:`TOLERANCE` below its floor fails the gate;
- ``--repin`` raises the floors that today's figures beat, and writes the fingerprints;
  commit it on its own ("Gate: raise floors after ..."), so the rise is reviewable;
- a lower floor is written only with ``--allow-regression REASON``; the commit message
  must say the reason too (the script prints it).

Without the corpora (``../shared/corpora`` or ``$NEWSSTEM_CORPORA``) nothing is measured:
the script says so and exits 0, the test skips.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repo, when run as a script
sys.path.insert(0, str(Path(__file__).resolve().parent))  # corpora.py beside this file

from corpora import HALVES, CorpusPage, corpora_root, corpus_names, halves, load_corpus

from newsstem.evaluation import score_corpus
from newsstem.metadata import extract_metadata
from newsstem.readability import Extraction, extract
from newsstem.text import normalize_space

__all__ = [
    "FLOORS_PATH",
    "TOLERANCE",
    "Fall",
    "Measurement",
    "check",
    "fingerprint",
    "load_floors",
    "measure",
    "repin",
]

FLOORS_PATH = Path(__file__).resolve().parents[1] / "eval_floors.json"
# A figure may fall this far below its floor and pass: above the last-digit differences of
# libxml2 builds, below what one page costs in the smallest half (cleaneval-dev's 28-page
# tune half: one page losing 0.1 F1 moves it 0.0036).
TOLERANCE = 0.003
# Floors are written rounded down to this many decimals (a floor never exceeds its figure).
DECIMALS = 4

Figures = dict[str, dict[str, dict[str, float]]]  # metric -> corpus -> half -> value


@dataclass(frozen=True)
class Fall:
    """A figure below its floor by more than the tolerance (or a floor with no figure)."""

    metric: str
    corpus: str
    half: str
    floor: float
    value: float | None

    def __str__(self) -> str:
        found = "not measured" if self.value is None else f"{self.value:.4f}"
        return f"{self.metric} {self.corpus}/{self.half}: {found}, floor {self.floor:.4f}"


@dataclass(frozen=True)
class Measurement:
    figures: Figures
    fingerprints: dict[str, str]  # corpus -> fingerprint of its files


def _body_f1(pages: list[CorpusPage], bodies: dict[str, str], _meta: dict) -> float:
    return score_corpus((bodies[page.id], page.gold) for page in pages).f1


def _title_match(pages: list[CorpusPage], titles: dict[str, str], meta: dict) -> float:
    matches = [_same_title(titles[page.id], meta[page.id]["title"]) for page in pages]
    return sum(matches) / len(matches) if matches else 0.0


def _same_title(found: str, headline: str) -> bool:
    return normalize_space(found).casefold() == normalize_space(headline).casefold()


@dataclass(frozen=True)
class Metric:
    """A figure of one corpus half: read from the pages, their extractions and index metadata."""

    name: str
    field: str  # "body" or "title" of the extraction
    score: Callable[[list[CorpusPage], dict[str, str], dict], float]
    needs: str | None = None  # a metadata key every scored page must have in index.jsonl


METRICS = (
    Metric("body_f1", "body", _body_f1),
    Metric("title_match", "title", _title_match, needs="title"),
)


def _exported_title(page: CorpusPage, result: Extraction) -> str:
    """The title a crawl exports: the extraction's, weighed with the page's own headline
    statements (:func:`newsstem.metadata.extract_metadata`)."""
    metadata = extract_metadata(
        page.html, page.url, title_candidates=[("extraction", result.title)] if result.title else []
    )
    return metadata.headline or result.title


def fingerprint(root: Path, name: str) -> str:
    """SHA-256 over a corpus's index and the pages and gold texts it names."""
    digest = hashlib.sha256()
    folder = root / name
    index = (folder / "index.jsonl").read_bytes()
    digest.update(index)
    for line in index.decode("utf-8").splitlines():
        if line.strip():
            entry = json.loads(line)
            for key in ("html", "gold"):
                digest.update((folder / entry[key]).read_bytes())
    return digest.hexdigest()


def _metadata(root: Path, name: str) -> dict[str, dict]:
    with (root / name / "index.jsonl").open(encoding="utf-8") as index:
        entries = (json.loads(line) for line in index if line.strip())
        return {str(entry["id"]): entry.get("meta") or {} for entry in entries}


# Corpora whose sites have several pages each: the learned layouts are measured on them.
LAYOUT_CORPORA = ("cleanportal", "dragnet")
# A site needs this many pages to be learned leave-one-out (as learned.py's default).
LAYOUT_MIN_PAGES = 5


def _learned_f1(root: Path, names: list[str]) -> Figures:
    """``learned_f1`` per corpus half: learned.py's leave-one-out protocol."""
    import learned  # tests/benchmarks/learned.py, beside this file

    results: dict[str, dict[str, list]] = {}
    fallback_cache: dict = {}
    corpora = [name for name in names if name in LAYOUT_CORPORA]
    for corpus, site, pages, half in learned.sites_of(root, corpora, LAYOUT_MIN_PAGES):
        outcome = learned.run_site(corpus, site, pages, half, {}, True, fallback_cache)
        results.setdefault(corpus, {}).setdefault(half, []).extend(outcome.pages)
    return {
        "learned_f1": {
            corpus: {half: learned.f1(pages, learned.learned_of) for half, pages in by_half.items()}
            for corpus, by_half in results.items()
        }
    }


def measure(root: Path, names: list[str] | None = None) -> Measurement:
    """Extract every page of the corpora once and compute every metric per half."""
    figures: Figures = {metric.name: {} for metric in METRICS}
    fingerprints = {}
    names = names or corpus_names(root)
    for name in names:
        pages = load_corpus(root, name)
        half = halves(pages)
        meta = _metadata(root, name)
        results = {page.id: extract(page.html, url=page.url, body_html=False) for page in pages}
        fields = {"body": {page_id: result.body for page_id, result in results.items()}}
        if all(meta[p.id].get("title") for p in pages):
            fields["title"] = {page.id: _exported_title(page, results[page.id]) for page in pages}
        for metric in METRICS:
            if metric.field not in fields or (
                metric.needs and not all(meta[p.id].get(metric.needs) for p in pages)
            ):
                continue
            figures[metric.name][name] = {
                h: metric.score([p for p in pages if half[p.id] == h], fields[metric.field], meta)
                for h in HALVES
            }
        fingerprints[name] = fingerprint(root, name)
    figures.update(_learned_f1(root, names))
    return Measurement({m: c for m, c in figures.items() if c}, fingerprints)


def load_floors(path: Path = FLOORS_PATH) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _entries(figures: Figures) -> Iterator[tuple[str, str, str, float]]:
    for metric, corpora in figures.items():
        for corpus, by_half in corpora.items():
            for half, value in by_half.items():
                yield metric, corpus, half, value


def changed_corpora(floors: dict, measurement: Measurement) -> list[str]:
    """Corpora whose files differ from the ones the floors were pinned on (or new ones)."""
    pinned = floors.get("fingerprints", {})
    return sorted(
        name for name, digest in measurement.fingerprints.items() if pinned.get(name) != digest
    )


def check(floors: dict, measurement: Measurement) -> list[Fall]:
    """Every figure more than :data:`TOLERANCE` below its floor."""
    falls = []
    for metric, corpus, half, floor in _entries(floors.get("floors", {})):
        if corpus not in measurement.fingerprints:
            continue  # a corpus not measured in this run (absent, or not asked for)
        value = measurement.figures.get(metric, {}).get(corpus, {}).get(half)
        if value is None or value < floor - TOLERANCE:
            falls.append(Fall(metric, corpus, half, floor, value))
    return falls


def repin(floors: dict, measurement: Measurement, allow_regression: str | None = None) -> dict:
    """The floors file to write: each floor raised to today's figure where that is higher,
    new figures added; with ``allow_regression`` (a reason), every measured floor set to
    today's figure. Without it, a figure below its floor by more than the tolerance raises
    :class:`ValueError` listing them (nothing is to be written)."""
    falls = check(floors, measurement)
    if falls and not allow_regression:
        raise ValueError("; ".join(map(str, falls)))
    new = json.loads(json.dumps(floors.get("floors", {})))  # a deep copy of plain JSON
    for metric, corpus, half, value in _entries(measurement.figures):
        slot = new.setdefault(metric, {}).setdefault(corpus, {})
        floor = _floor_of(value)
        if allow_regression or floor > slot.get(half, -1.0):
            slot[half] = floor
    return {
        "fingerprints": {**floors.get("fingerprints", {}), **measurement.fingerprints},
        "floors": new,
    }


def _floor_of(value: float) -> float:
    return math.floor(value * 10**DECIMALS) / 10**DECIMALS


def write_floors(floors: dict, path: Path = FLOORS_PATH) -> None:
    path.write_text(json.dumps(floors, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def _table(floors: dict, measurement: Measurement) -> str:
    rows = []
    for metric, corpus, half, value in _entries(measurement.figures):
        floor = floors.get("floors", {}).get(metric, {}).get(corpus, {}).get(half)
        pinned = f"{floor:.4f}" if floor is not None else "  -   "
        margin = f"{value - floor:+.4f}" if floor is not None else ""
        rows.append(f"  {metric:<12} {corpus:<14} {half:<9} {value:.4f}  floor {pinned} {margin}")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repin", action="store_true", help="raise the floors to today's figures")
    parser.add_argument(
        "--allow-regression",
        metavar="REASON",
        help="with --repin: also lower floors, for this reason (say it in the commit message)",
    )
    args = parser.parse_args(argv)
    if args.allow_regression is not None and not args.repin:
        parser.error("--allow-regression only goes with --repin")
    if args.allow_regression is not None and not args.allow_regression.strip():
        parser.error("--allow-regression needs a reason")
    root = corpora_root()
    if root is None:
        print("No corpora found (../shared/corpora or $NEWSSTEM_CORPORA): gate skipped.")
        return 0
    floors = load_floors() if FLOORS_PATH.exists() else {"floors": {}, "fingerprints": {}}
    measurement = measure(root)
    print(_table(floors, measurement))
    if args.repin:
        try:
            write_floors(repin(floors, measurement, args.allow_regression))
        except ValueError as error:
            print(f"Not re-pinned, figures fell below their floors: {error}. To lower floors,"
                  " add --allow-regression REASON.", file=sys.stderr)
            return 1
        print(f"Floors written to {FLOORS_PATH}; commit that file on its own.")
        if args.allow_regression:
            print(f"Floors lowered: the commit message must say why ({args.allow_regression}).")
        return 0
    changed = changed_corpora(floors, measurement)
    falls = check(floors, measurement)
    for name in changed:
        print(f"corpus {name} differs from the one the floors were pinned on: re-pin",
              file=sys.stderr)
    for fall in falls:
        print(f"below floor: {fall}", file=sys.stderr)
    return 1 if falls or changed else 0


if __name__ == "__main__":
    sys.exit(main())
