"""Side-by-side extraction benchmark: newsstem readability vs trafilatura vs readability-lxml.

    python tests/benchmarks/extraction.py                       # every corpus, every extractor
    python tests/benchmarks/extraction.py --corpus mozilla l3s  # some corpora
    python tests/benchmarks/extraction.py --per-page mozilla    # per-page F1, worst first

All extractors run in one process over the same decoded pages, interleaved page by page
(their order rotates) so machine noise hits them equally. Speed is pages per second of
the extraction call alone (``time.perf_counter`` around it). Scores are the project's
token-shingle F1 (:mod:`newsstem.evaluation`). Each corpus is also scored on two halves
(page ids sorted: even positions are the half heuristics were tuned on, odd positions
the held-out half), to show that a change generalizes.

How the peers are called, and why:

- trafilatura: ``trafilatura.extract(html, url=url, include_comments=False)`` with its
  other defaults (``favor_precision`` and ``favor_recall`` off, fallbacks on, tables on,
  plain text). Measured (trafilatura 2.3.1, F1 mozilla / cleanportal / l3s /
  cleaneval-dev): defaults 0.931 / 0.942 / 0.901 / 0.843; ``favor_recall`` 0.934 / 0.939
  / 0.895 / 0.837; ``favor_precision`` 0.927 / 0.935 / 0.896 / 0.804; ``fast`` (no
  fallback) 0.926 / 0.935 / 0.876 / 0.787. The defaults are its best overall.
- readability-lxml: ``Document(html, url=url).summary(html_partial=True)``; its HTML is
  turned into text by :func:`newsstem.readability.render.html_text`, the same function
  that renders newsstem's own article, so both are compared on the same text layout.

An extractor that raises on a page scores that page as empty and the error is counted.
Without the shared corpora the script prints a message and exits 0.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repo, when run as a script
sys.path.insert(0, str(Path(__file__).resolve().parent))  # corpora.py beside this file

from corpora import CorpusPage, corpora_root, corpus_names, load_corpus

from newsstem.evaluation import score_corpus, score_page
from newsstem.readability import extract as newsstem_extract
from newsstem.readability.render import html_text

# The Chinese and Japanese pages of the mozilla corpus (shared/README.md).
CJK_PAGES = ("gmw", "hukumusume", "pixnet", "qq", "yahoo-4", "youth")

Extractor = Callable[[str, "str | None"], str]


def run_newsstem(html: str, url: str | None) -> str:
    return newsstem_extract(html, url=url).body


def run_trafilatura(html: str, url: str | None) -> str:
    import trafilatura

    return trafilatura.extract(html, url=url, include_comments=False) or ""


def run_readability_lxml(html: str, url: str | None) -> str:
    from readability import Document

    return html_text(Document(html, url=url).summary(html_partial=True))


EXTRACTORS: dict[str, Extractor] = {
    "newsstem": run_newsstem,
    "trafilatura": run_trafilatura,
    "readability-lxml": run_readability_lxml,
}


@dataclass
class Run:
    """One extractor's outputs and timings over one corpus."""

    outputs: dict[str, str] = field(default_factory=dict)
    seconds: float = 0.0
    errors: int = 0

    def pages_per_second(self) -> float:
        return len(self.outputs) / self.seconds if self.seconds else 0.0


def run_corpus(pages: list[CorpusPage], names: list[str]) -> dict[str, Run]:
    runs = {name: Run() for name in names}
    for number, page in enumerate(pages):
        shift = number % len(names)
        for name in names[shift:] + names[:shift]:
            run = runs[name]
            started = time.perf_counter()
            try:
                output = EXTRACTORS[name](page.html, page.url)
            except Exception as error:  # noqa: BLE001 - a peer's crash is a counted result
                output = ""
                run.errors += 1
                print(f"  {name} failed on {page.corpus}/{page.id}: {error!r}", file=sys.stderr)
            run.seconds += time.perf_counter() - started
            run.outputs[page.id] = output
    return runs


def report_corpus(name: str, pages: list[CorpusPage], runs: dict[str, Run]) -> None:
    print(f"\n{name} ({len(pages)} pages)")
    print(f"  {'extractor':<18} {'F1':>6} {'P':>6} {'R':>6} {'pages/s':>8} {'errors':>6}")
    for extractor, run in runs.items():
        score = score_corpus((run.outputs[p.id], p.gold) for p in pages)
        print(
            f"  {extractor:<18} {score.f1:6.3f} {score.precision:6.3f} {score.recall:6.3f}"
            f" {run.pages_per_second():8.1f} {run.errors:6d}"
        )
    ours = runs.get("newsstem")
    if ours is not None:
        for peer, run in runs.items():
            if peer != "newsstem" and run.pages_per_second():
                ratio = ours.pages_per_second() / run.pages_per_second()
                print(f"  speed newsstem / {peer}: {ratio:.2f}x")
    sites = sorted({p.site for p in pages if p.site})
    if len(sites) > 1:
        for site in sites:
            on_site = [p for p in pages if p.site == site]
            figures = "  ".join(
                f"{extractor} {score_corpus((run.outputs[p.id], p.gold) for p in on_site).f1:.3f}"
                for extractor, run in runs.items()
            )
            print(f"    {site:<24} ({len(on_site):2d})  {figures}")
    ordered = sorted(pages, key=lambda p: p.id)
    for half, chosen in (("tune half (even)", ordered[0::2]), ("held-out half (odd)", ordered[1::2])):
        figures = "  ".join(
            f"{extractor} {score_corpus((run.outputs[p.id], p.gold) for p in chosen).f1:.3f}"
            for extractor, run in runs.items()
        )
        print(f"  {half:<20} ({len(chosen):3d})  {figures}")
    cjk = [p for p in pages if name == "mozilla" and any(key in p.id for key in CJK_PAGES)]
    if cjk:
        figures = "  ".join(
            f"{extractor} {_mean_f1(run, cjk):.3f}" for extractor, run in runs.items()
        )
        print(f"  CJK pages ({len(cjk)}) mean F1: {figures}")


def report_pages(pages: list[CorpusPage], runs: dict[str, Run]) -> None:
    names = list(runs)
    rows = [
        (p.id, [score_page(runs[n].outputs[p.id], p.gold).f1 for n in names]) for p in pages
    ]
    rows.sort(key=lambda row: row[1][0])
    print("  " + " ".join(f"{n[:12]:>12}" for n in names) + "  page")
    for page_id, f1s in rows:
        print("  " + " ".join(f"{f1:12.3f}" for f1 in f1s) + f"  {page_id}")


def _mean_f1(run: Run, pages: list[CorpusPage]) -> float:
    return sum(score_page(run.outputs[p.id], p.gold).f1 for p in pages) / len(pages)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", nargs="+", help="corpora to run (default: all)")
    parser.add_argument(
        "--extractors", nargs="+", choices=list(EXTRACTORS), default=list(EXTRACTORS)
    )
    parser.add_argument("--per-page", metavar="CORPUS", help="print per-page F1 of one corpus")
    args = parser.parse_args(argv)

    root = corpora_root()
    if root is None:
        print("No corpora found (../shared/corpora or $NEWSSTEM_CORPORA): benchmark skipped.")
        return 0
    available = corpus_names(root)
    wanted = [args.per_page] if args.per_page else (args.corpus or available)
    unknown = sorted(set(wanted) - set(available))
    if unknown:
        parser.error(f"unknown corpus {', '.join(unknown)}; available: {', '.join(available)}")
    for name in wanted:
        pages = load_corpus(root, name)
        runs = run_corpus(pages, args.extractors)
        report_corpus(name, pages, runs)
        if args.per_page:
            report_pages(pages, runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
