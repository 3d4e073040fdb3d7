"""Every public function that reads page bytes or text, on mutated real pages: no exception,
no call slower than 2 s.

    python tests/benchmarks/robustness.py                # 10,000 mutated pages
    python tests/benchmarks/robustness.py --pages 500 -v # fewer, listing every failure

Real pages of ``../shared/corpora`` (every corpus, in turn) are mutated the way a crawl
meets bad input: random bytes changed, control characters and NUL bytes sprinkled, lone
surrogates inserted (text input), cut at a random place, rotated (the end first), a tag
nested 100,000 deep, a 5 MB text node, an invalid charset declared. Each mutated page goes
through :func:`newsstem.encoding.decode_html`, :func:`newsstem.readability.extract`,
:func:`newsstem.metadata.extract_metadata`, :func:`newsstem.extraction.extract_page`
(with patterns learned from the page's unmutated siblings), the layout
:class:`~newsstem.layout.blocks.BlockParser`, :func:`newsstem.layout.learn.learn` (the
mutated page among real ones) and, written to a WARC file, :func:`newsstem.archive.read_archive`.
Figures: calls, exceptions (by function and type, the first examples kept under
``--keep DIR``), the slowest call per function, and calls over 2 s.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import traceback
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repo, when run as a script
sys.path.insert(0, str(Path(__file__).resolve().parent))  # corpora.py beside this file

from corpora import corpora_root, corpus_names, load_corpus

from newsstem import readability
from newsstem.encoding import decode_html
from newsstem.extraction import extract_page
from newsstem.layout.blocks import BlockParser
from newsstem.layout.learn import TrainingPage, learn
from newsstem.layout.patterns import SitePatterns
from newsstem.metadata import extract_metadata

SLOW_SECONDS = 2.0
CONTROL = [chr(c) for c in range(32) if c not in (9, 10, 13)] + ["\x7f", "\ufffe", "\uffff"]


def mutate(raw: bytes, rng: random.Random) -> tuple[str, bytes | str]:
    """One mutation of a page's bytes: (its name, bytes or text)."""
    kind = rng.choice(MUTATIONS)
    return kind.__name__, kind(raw, rng)


def flip_bytes(raw: bytes, rng: random.Random) -> bytes:
    data = bytearray(raw)
    for _ in range(rng.randint(1, 50)):
        if data:
            data[rng.randrange(len(data))] = rng.randrange(256)
    return bytes(data)


def control_characters(raw: bytes, rng: random.Random) -> str:
    text = decode_html(raw)[0]
    for _ in range(rng.randint(1, 40)):
        at = rng.randrange(len(text) + 1)
        text = text[:at] + rng.choice(CONTROL) + text[at:]
    return text


def nul_bytes(raw: bytes, rng: random.Random) -> bytes:
    data = bytearray(raw)
    for _ in range(rng.randint(1, 20)):
        data.insert(rng.randrange(len(data) + 1), 0)
    return bytes(data)


def lone_surrogates(raw: bytes, rng: random.Random) -> str:
    text = decode_html(raw)[0]
    for _ in range(rng.randint(1, 10)):
        at = rng.randrange(len(text) + 1)
        text = text[:at] + chr(rng.randrange(0xD800, 0xE000)) + text[at:]
    return text


def cut(raw: bytes, rng: random.Random) -> bytes:
    return raw[: rng.randrange(len(raw) + 1)]


def rotate(raw: bytes, rng: random.Random) -> bytes:
    at = rng.randrange(len(raw) + 1)
    return raw[at:] + raw[:at]


def deep_nesting(raw: bytes, rng: random.Random) -> bytes:
    depth = 100_000
    tag = rng.choice([b"div", b"span", b"b", b"table", b"li"])
    nest = b"<" + tag + b">"
    body = raw.lower().find(b"<body")
    at = raw.find(b">", body) + 1 if body >= 0 else 0
    return raw[:at] + nest * depth + b"deep text" + raw[at:]


def huge_text_node(raw: bytes, rng: random.Random) -> bytes:
    words = b" ".join(rng.choice([b"lorem", b"ipsum", b"dolor", b"amet"]) for _ in range(10))
    return raw.replace(b"</body>", b"<p>" + (words + b" ") * 90_000 + b"</p></body>", 1)


def invalid_charset(raw: bytes, rng: random.Random) -> bytes:
    charset = rng.choice([b"x-unknown-42", b"utf-7", b"utf-32", b"\xff\xfe", b"ebcdic"])
    return b'<meta charset="' + charset + b'">' + raw


MUTATIONS: list[Callable[[bytes, random.Random], bytes | str]] = [
    flip_bytes, control_characters, nul_bytes, lone_surrogates, cut, rotate,
    deep_nesting, huge_text_node, invalid_charset,
]


class Runner:
    def __init__(self, verbose: bool, keep: Path | None) -> None:
        self.calls: Counter[str] = Counter()
        self.errors: Counter[tuple[str, str]] = Counter()
        self.slowest: dict[str, tuple[float, str]] = {}
        self.slow: list[tuple[str, str, float]] = []
        self.verbose = verbose
        self.keep = keep
        self.kept: set[tuple[str, str]] = set()

    def call(self, name: str, where: str, page: bytes | str, function: Callable[[], object]):
        self.calls[name] += 1
        started = time.perf_counter()
        try:
            function()
        except Exception as error:  # the benchmark counts what the product must never do
            key = (name, type(error).__name__)
            self.errors[key] += 1
            if self.verbose:
                print(f"  {name} raised {type(error).__name__} on {where}: {error}"[:300])
            if self.keep is not None and key not in self.kept:
                self.kept.add(key)
                self.keep.mkdir(parents=True, exist_ok=True)
                stem = f"{name}-{type(error).__name__}".replace(".", "_")
                data = page if isinstance(page, bytes) else page.encode("utf-8", "surrogatepass")
                (self.keep / f"{stem}.html").write_bytes(data)
                (self.keep / f"{stem}.txt").write_text(traceback.format_exc())
        seconds = time.perf_counter() - started
        if seconds > self.slowest.get(name, (0.0, ""))[0]:
            self.slowest[name] = (seconds, where)
        if seconds > SLOW_SECONDS:
            self.slow.append((name, where, seconds))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=10_000, help="mutated pages to try")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", type=Path, help="write the first failing page of each kind here")
    parser.add_argument("-v", "--verbose", action="store_true", help="list every failure")
    args = parser.parse_args(argv)
    root = corpora_root()
    if root is None:
        print("No corpora found (../shared/corpora or $NEWSSTEM_CORPORA): benchmark skipped.")
        return 0
    rng = random.Random(args.seed)
    pages = [page for name in corpus_names(root) for page in load_corpus(root, name)]
    rng.shuffle(pages)
    by_site: dict[str, list] = defaultdict(list)
    for page in pages:
        if page.site:
            by_site[page.site].append(page)
    patterns: dict[str, SitePatterns] = {}
    runner = Runner(args.verbose, args.keep)
    blocks = BlockParser()
    mutations: Counter[str] = Counter()
    started = time.perf_counter()
    for number in range(args.pages):
        page = pages[number % len(pages)]
        kind, mutated = mutate(page.raw, rng)
        mutations[kind] += 1
        where = f"{page.corpus}/{page.id} ({kind})"
        runner.call("decode_html", where, mutated, lambda: decode_html(mutated))
        runner.call("readability.extract", where, mutated, lambda: readability.extract(mutated))
        runner.call("extract_metadata", where, mutated, lambda: extract_metadata(mutated))
        runner.call("BlockParser.decompose", where, mutated, lambda: blocks.decompose(mutated))
        siblings = [p for p in by_site.get(page.site or "", []) if p.id != page.id][:6]
        if len(siblings) >= 3:
            if page.site not in patterns:
                learned = learn(page.site, [TrainingPage(p.url or p.id, p.html) for p in siblings])
                patterns[page.site] = SitePatterns(learned.pattern_set)
            site_patterns = patterns[page.site]
            runner.call("SitePatterns.extract", where, mutated, lambda: site_patterns.extract(mutated))
            runner.call("extract_page", where, mutated,
                        lambda: extract_page(mutated, page.url, site_patterns))
            if number % 20 == 0:
                training = [TrainingPage(p.url or p.id, p.html) for p in siblings[:3]]
                training.append(TrainingPage(page.url or page.id, mutated))
                runner.call("learn", where, mutated, lambda: learn(page.site, training))
        if number % 100 == 0:
            print(f"  {number} pages, {sum(runner.errors.values())} exceptions, "
                  f"{time.perf_counter() - started:.0f} s", flush=True)
    print(f"\n{args.pages} mutated pages ({dict(mutations)}) in "
          f"{time.perf_counter() - started:.0f} s")
    print(f"{'function':<24}{'calls':>8}{'exceptions':>12}{'slowest s':>11}  slowest page")
    for name, calls in runner.calls.items():
        raised = sum(n for (f, _), n in runner.errors.items() if f == name)
        seconds, where = runner.slowest.get(name, (0.0, ""))
        print(f"{name:<24}{calls:>8}{raised:>12}{seconds:>11.2f}  {where}")
    for (name, kind), count in runner.errors.most_common():
        print(f"  {name}: {kind} x{count}")
    print(f"calls over {SLOW_SECONDS:.0f} s: {len(runner.slow)}")
    for name, where, seconds in runner.slow[:20]:
        print(f"  {name} {seconds:.1f} s on {where}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
