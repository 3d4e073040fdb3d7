"""Side-by-side extraction benchmark: newsstem readability vs trafilatura vs readability-lxml.

    python tests/benchmarks/extraction.py                       # every corpus, the three
    python tests/benchmarks/extraction.py --corpus mozilla l3s  # some corpora
    python tests/benchmarks/extraction.py --extractors newsstem --compare before.json
    python tests/benchmarks/extraction.py --per-page mozilla    # per-page F1, worst first
    python tests/benchmarks/extraction.py --extractors newsstem trafilatura news-please \
        newspaper goose3                                        # the peers users compare with

All extractors run in one process over the same decoded pages, interleaved page by page
(their order rotates) so machine noise hits them equally. Speed is pages per second of
the extraction call alone (``time.perf_counter`` around it). Scores are the project's
token-shingle F1 (:mod:`newsstem.evaluation`); pages whose gold is mostly Chinese,
Japanese or Korean are also scored on characters (``by_character``).

Every corpus is reported on its two fixed halves (:func:`corpora.halves`, by site, else
URL host, else the site the page names in ``page_sites.tsv``, else page id): heuristics are tuned on the first, and a change is kept only
if the held-out half gains too. Under each corpus, the tuning pages where newsstem loses
most to trafilatura are listed with the figures that tell why (precision or recall,
lengths, newsstem's ``reason``); ``--per-page`` lists tuning pages too. Held-out pages
are scored and counted but listed only with ``--show-held-out``, to report on a finished
rule: rules are designed from tuning pages only. ``--compare`` lists the changed tuning pages
and counts the held-out ones (how many got better or worse in each half is what the
held-out rule asks); ``--show-held-out`` lists those too.

``--save FILE`` writes every page's outputs and scores as JSON; ``--compare FILE`` reads
such a file and prints, per corpus and half, the F1 change of each extractor run now
against the saved run (the extractors not run now are taken from the file, so a change
to newsstem is measured in seconds with the peers' saved outputs), and the pages that
changed most.

``--by-language`` adds one more table: F1 per language of the page and half, over all
the corpora run (:func:`page_language`: the corpus's own tag where it has one, as
fundus's ``meta.language``, else :func:`newsstem.metadata.language.detect_language`
of the gold text, else the language newsstem's metadata gives the page, its markup
checked against the gold; the primary subtag; ``?`` where none of them tells).
Languages whose pages are mostly CJK get a second row scored on characters.
It tells whether a language loses more than its corpus does; as everywhere, rules are
designed from the tuning rows alone.

``--hash-names`` rewrites every ``class`` and ``id`` value of every page before any
extractor reads it (:func:`hash_names`): each class token and each id becomes ``x``
and eight digits of a hash of it, the same name the same hash, so the page keeps its
structure and its repeated names but loses their words, as on a site whose CSS-in-JS,
CSS modules or utility classes name nothing (``css-1x2y3z``, ``sc-bdfBwQ``). All
three extractors read names (newsstem's and readability-lxml's positive and negative
words, trafilatura's boilerplate patterns), so all three run on the hashed page; a
``--save`` or ``--compare`` file of such a run is compared with another such run.

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

The other extractors users compare newsstem with are optional (``requirements-peers.txt``,
in a venv of its own: CI never installs them): each is registered only where its module
imports and runs only when ``--extractors`` names it; the default stays the three above.
Each is given the page's HTML and URL and called as its docs say for given HTML, never
fetching: image fetching is turned off where it is on by default (it downloads the
page's images to size them; the text does not depend on it). Run them under ``unshare -n``
to be sure nothing reaches the network.

- news-please: ``NewsPlease.from_html(html, url=url, fetch_images=False).maintext``.
- newspaper (newspaper4k, or newspaper3k: the same module): ``Article(url,
  fetch_images=False)``, ``download(input_html=html)``, ``parse()``, ``.text``.
- goose3: ``Goose().extract(url=url, raw_html=html).cleaned_text`` (one ``Goose()`` for
  every page; given ``raw_html`` it never fetches the URL).

Fundus is not among them: its per-publisher parsers made the gold of the ``fundus``
corpus and apply to few pages of the others (``fundus_peer.py`` beside this file).

An extractor that raises on a page scores that page as empty and the error is counted.
Without the shared corpora the script prints a message and exits 0.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import importlib.util
import json
import re
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repo, when run as a script
sys.path.insert(0, str(Path(__file__).resolve().parent))  # corpora.py beside this file

from corpora import HALVES, CorpusPage, corpora_root, corpus_names, halves, load_corpus

from newsstem.evaluation import CorpusScore, score_corpus, score_page
from newsstem.metadata import extract_metadata
from newsstem.metadata.language import detect_language
from newsstem.readability import extract as newsstem_extract
from newsstem.readability.render import html_text
from newsstem.text import cjk_count, meaningful_length


@dataclass(frozen=True)
class Output:
    text: str
    note: str = ""  # newsstem's reason for an empty body


Extractor = Callable[[str, "str | None"], Output]


def run_newsstem(html: str, url: str | None) -> Output:
    result = newsstem_extract(html, url=url, body_html=False)
    return Output(result.body, result.reason or "")


def run_trafilatura(html: str, url: str | None) -> Output:
    import trafilatura

    return Output(trafilatura.extract(html, url=url, include_comments=False) or "")


def run_readability_lxml(html: str, url: str | None) -> Output:
    from readability import Document

    return Output(html_text(Document(html, url=url).summary(html_partial=True)))


def run_news_please(html: str, url: str | None) -> Output:
    from newsplease import NewsPlease

    # fetch_images=False: its default downloads the page's images to size them
    article = NewsPlease.from_html(html, url=url, fetch_images=False)
    return Output(getattr(article, "maintext", None) or "")  # {} for an empty page


def run_newspaper(html: str, url: str | None) -> Output:
    from newspaper import Article

    # fetch_images=False: its default downloads the page's images to size them
    article = Article(url or "", fetch_images=False)
    article.download(input_html=html)
    article.parse()
    return Output(article.text or "")


@functools.cache
def _goose():  # one configured extractor for every page, as a crawl would keep it
    from goose3 import Goose

    return Goose()


def run_goose3(html: str, url: str | None) -> Output:
    return Output(_goose().extract(url=url, raw_html=html).cleaned_text or "")


EXTRACTORS: dict[str, Extractor] = {
    "newsstem": run_newsstem,
    "trafilatura": run_trafilatura,
    "readability-lxml": run_readability_lxml,
}
# What runs without --extractors: CI and the saved runs the helpers compare with.
DEFAULT_EXTRACTORS = list(EXTRACTORS)
# The other extractors users compare newsstem with (requirements-peers.txt), each
# registered only where its module imports: CI never installs them.
OPTIONAL_EXTRACTORS: dict[str, tuple[str, Extractor]] = {
    "news-please": ("newsplease", run_news_please),
    "newspaper": ("newspaper", run_newspaper),
    "goose3": ("goose3", run_goose3),
}


def register_optional(extractors: dict[str, Extractor]) -> list[str]:
    """Add to ``extractors`` every optional extractor whose module is installed; return
    the names added (looked up without importing the module: importing is slow)."""
    added = []
    for name, (module, extractor) in OPTIONAL_EXTRACTORS.items():
        try:
            installed = importlib.util.find_spec(module) is not None
        except (ImportError, ValueError):
            installed = False
        if installed:
            extractors[name] = extractor
            added.append(name)
    return added


register_optional(EXTRACTORS)
OURS, PEER = "newsstem", "trafilatura"
# A page is scored on characters too when CJK characters are this share of its gold's
# meaningful characters (a Japanese page quoting English names is still Japanese).
CJK_PAGE_SHARE = 0.3
# Pages listed under each corpus where newsstem loses most to trafilatura.
WORST_PAGES = 5


@dataclass
class Run:
    """One extractor's outputs and timings over one corpus."""

    outputs: dict[str, Output] = field(default_factory=dict)
    seconds: float = 0.0
    errors: int = 0

    def pages_per_second(self) -> float:
        return len(self.outputs) / self.seconds if self.seconds else 0.0


@dataclass
class CorpusRun:
    name: str
    pages: list[CorpusPage]
    half: dict[str, str]  # page id -> "tune" / "held-out"
    runs: dict[str, Run]

    def chosen(self, half: str | None) -> list[CorpusPage]:
        return [p for p in self.pages if half is None or self.half[p.id] == half]

    def score(self, extractor: str, half: str | None, by_character: bool = False) -> CorpusScore:
        outputs = self.runs[extractor].outputs
        pages = self.chosen(half)
        if by_character:
            pages = [p for p in pages if is_cjk(p.gold)]
        pairs = ((outputs[p.id].text, p.gold) for p in pages)
        return score_corpus(pairs, by_character=by_character)


def is_cjk(text: str) -> bool:
    meaningful = meaningful_length(text)
    return bool(meaningful) and cjk_count(text) >= CJK_PAGE_SHARE * meaningful


# A comment, or a start tag and one part of what it holds after its name, read as a
# browser does: a quote opens a value only after "="; every quantifier possessive, so
# that no page makes the search backtrack.
_ATTRIBUTE_PARTS = r"""\s++|/|=|(?P<name>[^\s/>=]++)(?:(?P<equals>\s*+=\s*+)(?>"(?P<dq>[^"]*+)"
    |'(?P<sq>[^']*+)'|(?P<bare>[^\s>]++)))?"""
_MARKUP = re.compile(
    rf"<!--(?:-?>|.*?(?:--!?>|\Z))|(?P<tag><(?P<tag_name>[a-zA-Z][^\s/>]*+))"
    rf"(?P<attributes>(?>{_ATTRIBUTE_PARTS})*+)>",
    re.VERBOSE | re.DOTALL,
)
_ATTRIBUTE_PART = re.compile(_ATTRIBUTE_PARTS, re.VERBOSE)
# Elements whose content is text, not tags, up to their end tag: left as they are.
_RAW_TEXT = ("script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes")


def hashed_name(name: str) -> str:
    """A class token or id written as "x" and eight digits of a hash of it: no word of
    the name is left, and the same name always gets the same hash."""
    return f"x{int(hashlib.sha1(name.encode()).hexdigest()[:12], 16) % 10**8:08d}"


def hash_names(html: str) -> str:
    """``html`` with every class token and every id of its start tags hashed
    (:func:`hashed_name`; class tokens joined by one space); nothing else changes (the
    content of comments, scripts, styles and other raw-text elements neither)."""
    parts = []
    done = 0
    while (markup := _MARKUP.search(html, done)) is not None:
        parts.append(html[done : markup.start()])
        done = markup.end()
        if markup.group("tag") is None:  # a comment
            parts.append(markup.group())
            continue
        attributes = _ATTRIBUTE_PART.sub(_hash_attribute, markup.group("attributes"))
        parts.append(f"{markup.group('tag')}{attributes}>")
        name = markup.group("tag_name").lower()
        if name in _RAW_TEXT:
            end = re.compile(rf"</{name}[\s/>]", re.IGNORECASE).search(html, done)
            raw_end = end.start() if end else len(html)
            parts.append(html[done:raw_end])
            done = raw_end
    parts.append(html[done:])
    return "".join(parts)


def _hash_attribute(part: re.Match[str]) -> str:
    name = (part.group("name") or "").lower()
    if name not in ("class", "id") or part.group("equals") is None:
        return part.group()
    quote, value = next(
        (q, v) for q, v in zip(('"', "'", ""), part.group("dq", "sq", "bare")) if v is not None
    )
    if name == "class":
        value = " ".join(hashed_name(token) for token in value.split())
    elif value:
        value = hashed_name(value)
    return f"{part.group('name')}{part.group('equals')}{quote}{value}{quote}"


def run_corpus(
    pages: list[CorpusPage], names: list[str], hashed: bool = False
) -> dict[str, Run]:
    runs = {name: Run() for name in names}
    for number, page in enumerate(pages):
        shift = number % len(names)
        html = hash_names(page.html) if hashed else page.html
        for name in names[shift:] + names[:shift]:
            run = runs[name]
            started = time.perf_counter()
            try:
                output = EXTRACTORS[name](html, page.url)
            except Exception as error:  # noqa: BLE001 - a peer's crash is a counted result
                output = Output("", f"error: {error!r}")
                run.errors += 1
                print(f"  {name} failed on {page.corpus}/{page.id}: {error!r}", file=sys.stderr)
            run.seconds += time.perf_counter() - started
            run.outputs[page.id] = output
    return runs


def report_corpus(corpus: CorpusRun, worst: int, show_held_out: bool = False) -> None:
    counts = {half: len(corpus.chosen(half)) for half in HALVES}
    print(f"\n{corpus.name} ({len(corpus.pages)} pages: "
          + ", ".join(f"{counts[h]} {h}" for h in HALVES) + ")")
    print(f"  {'extractor':<18} {'half':<9} {'F1':>6} {'P':>6} {'R':>6}")
    for extractor in corpus.runs:
        for half in (*HALVES, None):
            score = corpus.score(extractor, half)
            print(
                f"  {extractor:<18} {half or 'all':<9} {score.f1:6.3f} {score.precision:6.3f}"
                f" {score.recall:6.3f}"
            )
    cjk = [p for p in corpus.pages if is_cjk(p.gold)]
    if cjk:
        for by_character, unit in ((False, "tokens"), (True, "characters")):
            figures = "  ".join(
                f"{extractor} {corpus.score(extractor, None, by_character).f1:.3f}"
                if by_character
                else f"{extractor} {_cjk_token_f1(corpus, extractor, cjk):.3f}"
                for extractor in corpus.runs
            )
            print(f"  CJK pages ({len(cjk)}) on {unit:<10}: {figures}")
    timed = {name: run for name, run in corpus.runs.items() if run.seconds}
    if timed:
        speeds = "  ".join(f"{n} {r.pages_per_second():.1f}" for n, r in timed.items())
        errors = "".join(f"  ({n} errors: {r.errors})" for n, r in timed.items() if r.errors)
        print(f"  pages/s: {speeds}{errors}")
        ours = timed.get(OURS)
        for peer, run in timed.items():
            if ours is not None and peer != OURS and run.pages_per_second():
                ratio = ours.pages_per_second() / run.pages_per_second()
                print(f"  speed {OURS} / {peer}: {ratio:.2f}x")
    if worst and OURS in corpus.runs and PEER in corpus.runs:
        report_worst(corpus, worst, show_held_out)


def _cjk_token_f1(corpus: CorpusRun, extractor: str, cjk: list[CorpusPage]) -> float:
    outputs = corpus.runs[extractor].outputs
    return score_corpus((outputs[p.id].text, p.gold) for p in cjk).f1


def report_worst(corpus: CorpusRun, count: int, show_held_out: bool = False) -> None:
    """The pages where newsstem's F1 falls furthest below trafilatura's: of the tuning half
    only, unless ``show_held_out`` (rules are designed from tuning pages only)."""
    ours, peer = corpus.runs[OURS].outputs, corpus.runs[PEER].outputs
    losses = []
    for page in corpus.pages:
        mine = score_page(ours[page.id].text, page.gold)
        theirs = score_page(peer[page.id].text, page.gold)
        if mine.f1 < theirs.f1:
            losses.append((theirs.f1 - mine.f1, page, mine, theirs))
    losses.sort(key=lambda loss: -loss[0])
    listed = [loss for loss in losses if show_held_out or corpus.half[loss[1].id] == "tune"]
    where = "" if show_held_out else f" ({len(listed)} of them in the tuning half)"
    print(f"  newsstem below trafilatura on {len(losses)} pages{where}; the worst:")
    losses = listed
    for gap, page, mine, theirs in losses[:count]:
        output = ours[page.id]
        print(
            f"    -{gap:.2f} {corpus.half[page.id]:<8} {page.id[:40]:<40}"
            f" newsstem P {mine.precision:.2f} R {mine.recall:.2f} ({len(output.text)} chars"
            f"{', ' + output.note if output.note else ''})"
            f" trafilatura P {theirs.precision:.2f} R {theirs.recall:.2f}"
            f" ({len(peer[page.id].text)} chars), gold {len(page.gold)} chars"
        )


def report_summary(corpora: list[CorpusRun]) -> None:
    """One Markdown table: F1 per corpus and half for every extractor, and the speed ratio."""
    names = list(corpora[0].runs)
    print("\n| corpus | half | pages | " + " | ".join(names) + f" | {OURS} - {PEER} |")
    print("| --- | --- | --- | " + " | ".join("---" for _ in names) + " | --- |")
    for corpus in corpora:
        for half in (*HALVES, None):
            f1 = {n: corpus.score(n, half).f1 for n in names}
            margin = f"{f1[OURS] - f1[PEER]:+.3f}" if OURS in f1 and PEER in f1 else ""
            print(
                f"| {corpus.name} | {half or 'all'} | {len(corpus.chosen(half))} | "
                + " | ".join(f"{f1[n]:.3f}" for n in names)
                + f" | {margin} |"
            )
    timed = [c for c in corpora if c.runs.get(OURS) and c.runs[OURS].seconds
             and c.runs.get(PEER) and c.runs[PEER].seconds]
    if timed:
        print(f"\nspeed {OURS} / {PEER} (pages/s of the extraction call, same run):")
        ratios = []
        for corpus in timed:
            ratio = corpus.runs[OURS].pages_per_second() / corpus.runs[PEER].pages_per_second()
            ratios.append(ratio)
            print(f"  {corpus.name:<14} {ratio:5.2f}x")
        seconds = {n: sum(c.runs[n].seconds for c in timed) for n in (OURS, PEER)}
        print(f"  {'all pages':<14} {seconds[PEER] / seconds[OURS]:5.2f}x"
              f"  (lowest corpus {min(ratios):.2f}x)")
    others = [n for n in names if n not in (OURS, PEER, "readability-lxml")
              and all(c.runs[n].seconds and c.runs[OURS].seconds for c in corpora)]
    if others:  # the optional peers: one line per corpus, all pages last
        print(f"\nspeed {OURS} / each optional peer (same run):")
        print(f"  {'corpus':<14} " + " ".join(f"{n:>12}" for n in others))
        for corpus in corpora:
            mine = corpus.runs[OURS].pages_per_second()
            print(f"  {corpus.name:<14} " + " ".join(
                f"{mine / corpus.runs[n].pages_per_second():11.2f}x" for n in others))
        total = sum(c.runs[OURS].seconds for c in corpora)
        print(f"  {'all pages':<14} " + " ".join(
            f"{sum(c.runs[n].seconds for c in corpora) / total:11.2f}x" for n in others))


def report_comparison(corpora: list[CorpusRun], saved: dict[str, dict], count: int,
                      show_held_out: bool = False) -> None:
    """F1 now against a saved run, per corpus and half, and the pages that moved most:
    tuning pages only unless ``show_held_out`` (held-out pages are counted, not named, so
    that a rule under design is not shaped by them)."""
    print("\nchange against the saved run (F1 now - F1 then):")
    for corpus in corpora:
        then_outputs = saved.get(corpus.name, {})
        for extractor in corpus.runs:
            if not corpus.runs[extractor].seconds:
                continue  # taken from the file: unchanged by definition
            then = CorpusRun(corpus.name, corpus.pages, corpus.half, {extractor: _saved_run(
                then_outputs, extractor, corpus.pages)})
            figures = []
            for half in (*HALVES, None):
                before, after = then.score(extractor, half).f1, corpus.score(extractor, half).f1
                change = f"{before:.5f} -> {after:.5f} ({after - before:+.5f})"
                figures.append(f"{half or 'all'} {change}")
            print(f"  {corpus.name:<14} {extractor:<12} " + "   ".join(figures))
            moved = []
            for page in corpus.pages:
                before = then.runs[extractor].outputs[page.id].text
                after = corpus.runs[extractor].outputs[page.id].text
                if before != after:
                    delta = score_page(after, page.gold).f1 - score_page(before, page.gold).f1
                    moved.append((delta, page.id, corpus.half[page.id]))
            moved.sort()
            if moved:
                gains = sum(1 for d, _, _ in moved if d > 0)
                losses = sum(1 for d, _, _ in moved if d < 0)
                print(f"    {len(moved)} pages changed: {gains} better, {losses} worse")
                hidden = [m for m in moved if m[2] != "tune"] if not show_held_out else []
                if hidden:
                    better = sum(1 for d, _, _ in hidden if d > 0)
                    worse = sum(1 for d, _, _ in hidden if d < 0)
                    print(f"    held-out: {len(hidden)} of them, {better} better, {worse} worse"
                          " (not listed: --show-held-out)")
                    moved = [m for m in moved if m[2] == "tune"]
                shown = moved[:count] + moved[max(count, len(moved) - count):][::-1]
                for delta, page_id, half in shown:
                    if delta:
                        print(f"      {delta:+.3f} {half:<8} {page_id}")


def page_language(page: CorpusPage) -> str:
    """The page's language: the corpus's tag, else the primary subtag of
    :func:`detect_language` of its gold, else of the page's
    :func:`~newsstem.metadata.extract_metadata` language (its markup, checked against
    the gold), else ``?``."""
    if page.language:
        return page.language.split("-")[0].lower()
    detected = detect_language(page.gold)
    if detected:
        return detected.tag.split("-")[0]
    # (a gold too short to tell: the page's language as newsstem's metadata finds it,
    # its markup checked against the gold)
    found = extract_metadata(page.html, page.url, text=page.gold).language
    return found.split("-")[0].lower() if found else "?"


def report_languages(corpora: list[CorpusRun]) -> None:
    """One Markdown table: F1 per language and half over every corpus run, the corpora the
    pages come from, and (for languages most of whose pages are CJK) F1 on characters."""
    names = list(corpora[0].runs)
    pages: dict[tuple[str, str], list[tuple[CorpusRun, CorpusPage]]] = {}
    for corpus in corpora:
        for page in corpus.pages:
            pages.setdefault((page_language(page), corpus.half[page.id]), []).append((corpus, page))
    count: Counter[str] = Counter()
    for (language, _), chosen in pages.items():
        count[language] += len(chosen)
    print("\nF1 per language of the page (the corpus tag, else the gold's, else the page's):")
    print("| language | half | unit | pages | corpora | " + " | ".join(names)
          + (f" | {OURS} - {PEER} |" if OURS in names and PEER in names else " |"))
    print("| --- | --- | --- | --- | --- | " + " | ".join("---" for _ in names)
          + (" | --- |" if OURS in names and PEER in names else " |"))
    for language in sorted(count, key=lambda lang: (-count[lang], lang)):
        for half in HALVES:
            chosen = pages.get((language, half), [])
            if not chosen:
                continue
            where = Counter(corpus.name for corpus, _ in chosen)
            units = [False] + ([True] if 2 * sum(is_cjk(p.gold) for _, p in chosen)
                               > len(chosen) else [])
            for by_character in units:
                f1 = {n: score_corpus(((c.runs[n].outputs[p.id].text, p.gold)
                                       for c, p in chosen), by_character=by_character).f1
                      for n in names}
                margin = (f" | {f1[OURS] - f1[PEER]:+.3f}" if OURS in f1 and PEER in f1
                          else "")
                print(f"| {language} | {half} | {'characters' if by_character else 'tokens'}"
                      f" | {len(chosen)} | "
                      + " ".join(f"{n} {k}" for n, k in where.most_common()) + " | "
                      + " | ".join(f"{f1[n]:.3f}" for n in names) + f"{margin} |")


def _saved_run(outputs: dict, extractor: str, pages: list[CorpusPage]) -> Run:
    run = Run()
    for page in pages:
        entry = outputs.get(page.id, {}).get(extractor)
        run.outputs[page.id] = Output(entry["text"], entry.get("note", "")) if entry else Output("")
    return run


def save(corpora: list[CorpusRun], path: Path) -> None:
    data = {
        corpus.name: {
            page.id: {
                name: {"text": run.outputs[page.id].text, "note": run.outputs[page.id].note}
                for name, run in corpus.runs.items()
            }
            for page in corpus.pages
        }
        for corpus in corpora
    }
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")


def report_pages(corpus: CorpusRun, show_held_out: bool = False) -> None:
    names = list(corpus.runs)
    rows = [
        (p.id, [score_page(corpus.runs[n].outputs[p.id].text, p.gold).f1 for n in names])
        for p in corpus.pages
        if show_held_out or corpus.half[p.id] == "tune"
    ]
    rows.sort(key=lambda row: row[1][0])
    print("  " + " ".join(f"{n[:12]:>12}" for n in names) + "  half      page")
    for page_id, f1s in rows:
        figures = " ".join(f"{f1:12.3f}" for f1 in f1s)
        print(f"  {figures}  {corpus.half[page_id]:<9} {page_id}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", nargs="+", help="corpora to run (default: all)")
    parser.add_argument(
        "--extractors", nargs="+", choices=list(EXTRACTORS), default=DEFAULT_EXTRACTORS,
        help=f"default: {' '.join(DEFAULT_EXTRACTORS)}; installed peers to choose too: "
        + (" ".join(n for n in EXTRACTORS if n not in DEFAULT_EXTRACTORS) or "none"),
    )
    parser.add_argument("--per-page", metavar="CORPUS", help="print per-page F1 of one corpus")
    parser.add_argument("--worst", type=int, default=WORST_PAGES, metavar="N",
                        help=f"pages listed where newsstem loses most (default {WORST_PAGES})")
    parser.add_argument("--save", type=Path, metavar="FILE", help="write every output as JSON")
    parser.add_argument("--compare", type=Path, metavar="FILE",
                        help="a --save file: report the change against it; extractors not "
                        "run now are read from it")
    parser.add_argument("--show-held-out", action="store_true",
                        help="list held-out pages too (--per-page, the worst pages): to "
                        "report on a rule, not to design one")
    parser.add_argument("--by-language", action="store_true",
                        help="add a table of F1 per language of the page and half")
    parser.add_argument("--hash-names", action="store_true",
                        help="replace every class and id of every page by a hash of it "
                        "before the extractors run (a site whose names say nothing)")
    args = parser.parse_args(argv)

    root = corpora_root()
    if root is None:
        print("No corpora found (../shared/corpora or $NEWSSTEM_CORPORA): benchmark skipped.")
        return 0
    saved: dict[str, dict] = {}
    if args.compare:
        try:
            saved = json.loads(args.compare.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            parser.error(f"cannot read {args.compare}: {error}")
    available = corpus_names(root)
    wanted = [args.per_page] if args.per_page else (args.corpus or available)
    unknown = sorted(set(wanted) - set(available))
    if unknown:
        parser.error(f"unknown corpus {', '.join(unknown)}; available: {', '.join(available)}")
    done = []
    for name in wanted:
        pages = load_corpus(root, name)
        runs = run_corpus(pages, args.extractors, args.hash_names)
        outputs = saved.get(name, {})
        for extractor in EXTRACTORS:
            # (only an extractor the saved run has: one it never ran is not an empty one)
            if extractor not in runs and any(extractor in page for page in outputs.values()):
                runs[extractor] = _saved_run(outputs, extractor, pages)
        runs = {n: runs[n] for n in EXTRACTORS if n in runs}
        corpus = CorpusRun(name, pages, halves(pages), runs)
        report_corpus(corpus, args.worst, args.show_held_out)
        if args.per_page:
            report_pages(corpus, args.show_held_out)
        done.append(corpus)
    report_summary(done)
    if args.by_language:
        report_languages(done)
    if saved:
        report_comparison(done, saved, args.worst, args.show_held_out)
    if args.save:
        save(done, args.save)
    return 0


if __name__ == "__main__":
    sys.exit(main())
