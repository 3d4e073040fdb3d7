"""Layout-pattern benchmark: accuracy on cleanportal, learning growth, extraction speed.

    python tests/benchmarks/layout.py                  # everything
    python tests/benchmarks/layout.py --accuracy -v    # cleanportal only, per page
    python tests/benchmarks/layout.py --learning --extraction

**Accuracy** (``../shared/corpora/cleanportal``: 4 portals, 71 pages). Per site, two
protocols: learn on all of the site's pages and extract them ("all"), and 2-fold
(learn on every other page, extract the rest, and the reverse). Extractors, run on the
same decoded pages in one process:

- ``patterns``: what the crawl does: the page's best pattern; no match, or a main
  text shorter than ``NEWSSTEM_MIN_ARTICLE_CHARS``, falls back to readability;
- ``patterns only``: the pattern output alone (empty when no pattern matches);
- ``readability``: newsstem's readability fallback alone;
- ``trafilatura``: ``trafilatura.extract(html, url=url, include_comments=False)``.

Every output is taken as a crawl exports it: a body shorter than
``NEWSSTEM_MIN_ARTICLE_CHARS`` meaningful characters is a hub page, dropped (an empty
output; two bbc pages are index pages with empty gold). Bodies are scored with
:mod:`newsstem.evaluation` against the whole gold text (title line included). The
matched rate is the share of pages a pattern matched (an article or a hub layout);
title accuracy compares the title with the first paragraph of the gold text (its
heading, on pages with gold), exact after case and punctuation are ignored.

**Learning growth**: ``learn()`` (decomposition included) on the first 50/100/200/400
distinct pages of ``l3s`` (Google News pages of hundreds of sites: hundreds of
layouts, the worst case for clustering), as one site. The exponent is the slope of
the least-squares line through (log n, log seconds).

**Extraction speed**: pattern extraction (decompose, match the site's patterns,
extract) of the cleanportal pages with the patterns learned on all of them, against
plain ``lxml.html.fromstring(html).text_content()`` of the same pages (and the same
with script and style removed), each baseline interleaved page by page with pattern
extraction alone, as a crawl parses a page with lxml for its links and then extracts it;
CPU time of the calling thread (other processes on the machine disturb it less than wall
time), best of several rounds. Until stop 27 the three functions ran interleaved in one
loop: two lxml parses between pattern passes evict the pattern path's code and buffers
from a 2 MB L2 (37% more L2 misses in callgrind's cache simulation), which cost the
pattern side 5–8% of its time and none of its instructions.

``--instructions`` counts the same two sides in instructions, under ``valgrind
--tool=callgrind`` (needs valgrind): each side runs in its own process, once with no
pass over the pages and once with two passes after a warm-up pass, and the difference
divided by two is one warm pass. Time on a shared machine moves with its load;
instructions don't (the pattern side's count is the same run after run; lxml's moves by a
few percent between runs, in libxml2), though they weigh a cache miss like any other
instruction.

Webstemmer 0.7.1 on the same data (figures of issue 4, measured outside this repo):
body F1 0.54 with its defaults (0.80 tuned), 41% of pages matched, no pattern for bbc
and msnbc, ~13 pages/s extraction, learning ~n^1.6–2 (400 pages: 107 s CPU).
"""

from __future__ import annotations

import argparse
import hashlib
import math
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repo, when run as a script
sys.path.insert(0, str(Path(__file__).resolve().parent))  # corpora.py beside this file

import lxml.html
from corpora import CorpusPage, corpora_root, load_corpus
from lxml import etree

from newsstem import defaults, readability
from newsstem.evaluation import score_corpus, score_page
from newsstem.layout.blocks import BlockParser
from newsstem.layout.learn import LearnOptions, TrainingPage, learn
from newsstem.layout.patterns import (
    Extraction,
    HubPage,
    MatchOptions,
    PatternSet,
    SitePatterns,
    dumps,
    loads,
)
from newsstem.text import meaningful_length

MIN_CHARS = defaults.NEWSSTEM_MIN_ARTICLE_CHARS
EXTRACTORS = ("patterns", "patterns only", "readability", "trafilatura")
_WORD = re.compile(r"\w+")


@dataclass
class Outcome:
    body: str
    title: str = ""
    matched: bool = False


@dataclass
class SiteRun:
    outputs: dict[str, dict[str, Outcome]] = field(
        default_factory=lambda: {name: {} for name in EXTRACTORS}
    )
    patterns: int = 0


def _trafilatura(page: CorpusPage) -> Outcome:
    import trafilatura

    return Outcome(trafilatura.extract(page.html, url=page.url, include_comments=False) or "")


def _readability(page: CorpusPage) -> Outcome:
    result = readability.extract(page.html, url=page.url)
    return Outcome(result.body, result.title)


def exported(outcome: Outcome) -> Outcome:
    """What a crawl exports: pages whose body is shorter than NEWSSTEM_MIN_ARTICLE_CHARS
    are dropped as hubs (an empty output)."""
    if meaningful_length(outcome.body) < MIN_CHARS:
        return Outcome("", "", outcome.matched)
    return outcome


def run_fold(train: list[CorpusPage], test: list[CorpusPage], site: str, run: SiteRun,
             options: MatchOptions) -> None:
    learned = learn(site, [TrainingPage(p.url or p.id, p.html) for p in train], LearnOptions())
    run.patterns += len(learned.pattern_set.patterns)
    patterns = SitePatterns(learned.pattern_set, options)
    for page in test:
        result = patterns.extract(page.html)
        fallback = exported(_readability(page))
        if isinstance(result, Extraction):
            matched = exported(Outcome(result.body, result.title, True))
            run.outputs["patterns only"][page.id] = matched
            run.outputs["patterns"][page.id] = (
                matched if matched.body else Outcome(fallback.body, fallback.title, True)
            )
        elif isinstance(result, HubPage):  # a hub layout of the site: dropped
            run.outputs["patterns only"][page.id] = Outcome("", "", True)
            run.outputs["patterns"][page.id] = Outcome("", "", True)
        else:
            run.outputs["patterns only"][page.id] = Outcome("")
            run.outputs["patterns"][page.id] = fallback
        run.outputs["readability"][page.id] = fallback
        run.outputs["trafilatura"][page.id] = exported(_trafilatura(page))


def _normalized(text: str) -> str:
    return " ".join(_WORD.findall(text.lower()))


def gold_title(gold: str) -> str:
    """The first paragraph of a gold text (its heading; gold lines are hard-wrapped)."""
    return gold.strip().split("\n\n", 1)[0]


def title_accuracy(outcomes: dict[str, Outcome], pages: list[CorpusPage]) -> tuple[int, int]:
    with_gold = [p for p in pages if p.gold.strip()]
    right = sum(
        _normalized(outcomes[p.id].title) == _normalized(gold_title(p.gold)) for p in with_gold
    )
    return right, len(with_gold)


def accuracy(root: Path, verbose: bool, options: MatchOptions) -> None:
    pages = load_corpus(root, "cleanportal")
    sites: dict[str, list[CorpusPage]] = defaultdict(list)
    for page in pages:
        sites[page.site or "?"].append(page)
    for protocol in ("all", "2-fold"):
        print(f"\ncleanportal, protocol {protocol}: body F1 (P/R) per site")
        header = "".join(f"{name:>22}" for name in EXTRACTORS)
        print(f"  {'site':<24}{header}  matched  title(pattern)  title(readability)")
        means = defaultdict(list)
        for site, site_pages in sites.items():
            run = SiteRun()
            if protocol == "all":
                run_fold(site_pages, site_pages, site, run, options)
            else:
                first, second = site_pages[0::2], site_pages[1::2]
                run_fold(first, second, site, run, options)
                run_fold(second, first, site, run, options)
            cells = []
            for name in EXTRACTORS:
                score = score_corpus((run.outputs[name][p.id].body, p.gold) for p in site_pages)
                means[name].append(score.f1)
                cells.append(f"{score.f1:.3f} ({score.precision:.2f}/{score.recall:.2f})")
            matched = sum(o.matched for o in run.outputs["patterns"].values())
            pattern_titles = title_accuracy(run.outputs["patterns"], site_pages)
            fallback_titles = title_accuracy(run.outputs["readability"], site_pages)
            means["matched"].append(matched / len(site_pages))
            print(
                f"  {site:<24}" + "".join(f"{c:>22}" for c in cells)
                + f"  {matched:3d}/{len(site_pages):<3d}"
                + f"  {pattern_titles[0]:3d}/{pattern_titles[1]:<3d}"
                + f"          {fallback_titles[0]:3d}/{fallback_titles[1]:<3d}"
            )
            if verbose:
                for page in site_pages:
                    figures = "  ".join(
                        f"{score_page(run.outputs[n][page.id].body, page.gold).f1:.2f}"
                        for n in EXTRACTORS
                    )
                    title = run.outputs["patterns"][page.id].title
                    mark = "M" if run.outputs["patterns"][page.id].matched else "-"
                    print(f"      {page.id:<30} {mark} {figures}  {title[:60]!r}")
        print(
            f"  {'mean of sites':<24}"
            + "".join(f"{sum(means[n]) / len(means[n]):>22.3f}" for n in EXTRACTORS)
            + f"  {100 * sum(means['matched']) / len(means['matched']):.0f}% matched"
        )


def distinct_pages(root: Path, corpus: str) -> list[CorpusPage]:
    seen: set[str] = set()
    pages = []
    for page in load_corpus(root, corpus):
        digest = hashlib.sha1(page.raw).hexdigest()
        if digest not in seen:
            seen.add(digest)
            pages.append(page)
    return pages


def learning(root: Path, rounds: int) -> None:
    pages = distinct_pages(root, "l3s")
    sizes = [n for n in (50, 100, 200, 400) if n <= len(pages)]
    print(f"\nlearning time, l3s pooled as one site ({len(pages)} distinct pages available)")
    print(f"  {'pages':>6} {'seconds':>8} {'pages/s':>8} {'clusters':>9} {'patterns':>9}")
    points = []
    for n in sizes:
        training = [TrainingPage(p.url or p.id, p.html) for p in pages[:n]]
        best = math.inf
        for _ in range(rounds):
            started = time.process_time()
            result = learn("l3s", training)
            best = min(best, time.process_time() - started)
        clusters = sum(1 for o in result.outcomes if o.pages > 1)
        points.append((n, best))
        print(
            f"  {n:6d} {best:8.2f} {n / best:8.1f} {clusters:9d}"
            f" {len(result.pattern_set.patterns):9d}"
        )
    if len(points) > 1:
        xs = [math.log(n) for n, _ in points]
        ys = [math.log(t) for _, t in points]
        mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
        slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
        print(f"  growth exponent (log-log slope): {slope:.2f}   (CPU seconds, best of {rounds})")


def _by_site(pages: list[CorpusPage]) -> dict[str, list[CorpusPage]]:
    """``pages`` by site, in their order."""
    by_site: dict[str, list[CorpusPage]] = defaultdict(list)
    for page in pages:
        by_site[page.site or "?"].append(page)
    return by_site


def _learned(by_site: dict[str, list[CorpusPage]]) -> dict[str, PatternSet]:
    """The patterns learned on all of each site's pages."""
    return {
        site: learn(site, [TrainingPage(p.url or p.id, p.html) for p in site_pages]).pattern_set
        for site, site_pages in by_site.items()
    }


def extraction_speed(root: Path, rounds: int, options: MatchOptions) -> None:
    pages = load_corpus(root, "cleanportal")
    by_site = _by_site(pages)
    parser = BlockParser()
    site_patterns = {
        site: SitePatterns(pattern_set, options, parser)
        for site, pattern_set in _learned(by_site).items()
    }

    def plain(page: CorpusPage) -> object:
        return lxml.html.fromstring(page.html).text_content()

    def plain_cleaned(page: CorpusPage) -> object:
        document = lxml.html.fromstring(page.html)
        etree.strip_elements(document, "script", "style", with_tail=False)
        return document.text_content()

    def pattern(page: CorpusPage) -> object:
        return site_patterns[page.site or "?"].extract(page.html)

    baselines = {"lxml parse + text_content": plain, "... without script/style": plain_cleaned}
    print(f"\nextraction speed, cleanportal ({len(pages)} pages, best of {rounds} rounds; "
          "each baseline interleaved page by page with pattern extraction alone)")
    for baseline, function in baselines.items():
        timings = _interleaved({baseline: function, "pattern extraction": pattern}, pages, rounds)
        for name, seconds in timings.items():
            print(f"  {name:<28} {len(pages) / seconds:8.1f} pages/s")
        ratio = timings[baseline] / timings["pattern extraction"]
        print(f"  pattern extraction / {baseline}: {ratio:.2f}x")


def _interleaved(functions: dict[str, Callable[[CorpusPage], object]], pages: list[CorpusPage],
                 rounds: int) -> dict[str, float]:
    """CPU seconds of each function over ``pages``, called in turn page by page (the first
    to run moving each page and round), best of ``rounds``."""
    timings = dict.fromkeys(functions, math.inf)
    for round_ in range(rounds):
        spent = dict.fromkeys(functions, 0.0)
        for number, page in enumerate(pages):
            names = list(functions)
            shift = (number + round_) % len(names)
            for name in names[shift:] + names[:shift]:
                started = time.thread_time()
                functions[name](page)
                spent[name] += time.thread_time() - started
        for name in functions:
            timings[name] = min(timings[name], spent[name])
    return timings


SIDES = {"lxml": "lxml parse + text_content", "pattern": "pattern extraction"}
INSTRUCTION_PASSES = 2
_TOTALS = re.compile(rb"^(?:summary|totals): (\d+)", re.MULTILINE)




def run_side(root: Path, side: str, passes: int, patterns: Path, options: MatchOptions) -> None:
    """One side of ``--instructions``, in the process valgrind counts: a warm-up pass,
    then ``passes`` more."""
    by_site = _by_site(load_corpus(root, "cleanportal"))
    parser = BlockParser()
    site_patterns = {
        site: SitePatterns(loads((patterns / f"{number}.json").read_text()), options, parser)
        for number, site in enumerate(sorted(by_site))
    }
    work = [(site, page.html) for site, site_pages in by_site.items() for page in site_pages]
    for _ in range(1 + passes):
        for site, html in work:
            if side == "lxml":
                lxml.html.fromstring(html).text_content()
            else:
                site_patterns[site].extract(html)


def _instructions(command: list[str], out: Path) -> int:
    subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *command],
        check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    found = _TOTALS.search(out.read_bytes())
    if found is None:
        raise SystemExit(f"no instruction total in {out}")
    return int(found.group(1))


def extraction_instructions(root: Path, options: MatchOptions) -> None:
    if shutil.which("valgrind") is None:
        print("\nvalgrind not found: instruction counts skipped (apt-get install valgrind).")
        return
    by_site = _by_site(load_corpus(root, "cleanportal"))
    per_pass = {}
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        learned = _learned(by_site)
        for number, site in enumerate(sorted(by_site)):
            (folder / f"{number}.json").write_text(dumps(learned[site]))
        for side in SIDES:
            counts = []
            for passes in (0, INSTRUCTION_PASSES):
                command = [
                    sys.executable, __file__, "--side", side, "--passes", str(passes),
                    "--patterns", str(folder), "--threshold", str(options.threshold),
                ]
                counts.append(_instructions(command, folder / f"{side}.{passes}.out"))
            per_pass[side] = (counts[1] - counts[0]) / INSTRUCTION_PASSES
    pages = sum(len(site_pages) for site_pages in by_site.values())
    print(f"\nextraction instructions, cleanportal ({pages} pages, one warm pass, callgrind)")
    for side, name in SIDES.items():
        print(f"  {name:<28} {per_pass[side] / 1e6:8.1f} M instructions")
    print(f"  pattern extraction / lxml parse + text_content: "
          f"{per_pass['lxml'] / per_pass['pattern']:.3f}x")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--accuracy", action="store_true", help="cleanportal accuracy only")
    parser.add_argument("--learning", action="store_true", help="learning growth only")
    parser.add_argument("--extraction", action="store_true", help="extraction speed only")
    parser.add_argument(
        "--instructions", action="store_true",
        help="extraction speed in instructions under callgrind (a few minutes)",
    )
    parser.add_argument("--rounds", type=int, default=3, help="timing rounds (best is kept)")
    parser.add_argument("--threshold", type=float, default=MatchOptions().threshold)
    parser.add_argument("-v", "--verbose", action="store_true", help="per-page figures")
    # one side of --instructions, run by it under valgrind
    parser.add_argument("--side", choices=sorted(SIDES), help=argparse.SUPPRESS)
    parser.add_argument("--passes", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--patterns", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    root = corpora_root()
    if root is None:
        print("No corpora found (../shared/corpora or $NEWSSTEM_CORPORA): benchmark skipped.")
        return 0
    options = MatchOptions(threshold=args.threshold)
    if args.side:
        run_side(root, args.side, args.passes, args.patterns, options)
        return 0
    if args.instructions:
        extraction_instructions(root, options)
    everything = not (args.accuracy or args.learning or args.extraction or args.instructions)
    if everything or args.accuracy:
        accuracy(root, args.verbose, options)
    if everything or args.learning:
        learning(root, args.rounds)
    if everything or args.extraction:
        extraction_speed(root, args.rounds, options)
    return 0


if __name__ == "__main__":
    sys.exit(main())
