"""Learned layouts against the fallback, leave-one-out, on every site with 5 pages or more.

    python tests/benchmarks/learned.py                 # every site of every corpus
    python tests/benchmarks/learned.py --corpus dragnet -v
    python tests/benchmarks/learned.py --worst 20      # the pages where patterns lose most
    python tests/benchmarks/learned.py --worst 30 --diff   # and, on tuning pages, the lines why
    python tests/benchmarks/learned.py --choices --half tune   # how the guard chose, per outcome
    python tests/benchmarks/learned.py --redesign      # the redesign scenario only
    python tests/benchmarks/learned.py --check-sites -v   # never-tuned sites (l3s, mozilla)

**Protocol** (issue 11): for each site of ``../shared/corpora`` with at least
``--min-pages`` pages (dragnet's 83 sites, cleanportal's 4, the chaos hosts with 5+),
learn the site's layouts from all of its pages but one, each page with its headline as
the anchor text of a link to it (as the crawler records it from an index page), and
extract the left-out page exactly as a crawl does (:func:`newsstem.extraction.extract_page`
with the learned patterns: pattern, guard, readability fallback); repeat for every page.
The fallback alone is :func:`~newsstem.extraction.extract_page` without patterns. A body
shorter than ``NEWSSTEM_MIN_ARTICLE_CHARS`` is a hub, dropped (an empty output), as a
crawl exports it.

The headline used as anchor text: the page's labelled headline where the corpus has one
(cleanportal and chaos: the gold text's first line with the lines that carry on its
sentence, :func:`corpora.gold_headline`; fundus: ``meta.title``),
else the page's ``<title>`` with the site name cut off (dragnet has no labelled
headline). ``--no-anchors`` learns without any anchor text. Titles are scored against
the labelled headline too, and on dragnet against the gold text's first line where one
of the page's own title statements says it (:func:`scored_headline`; never an anchor
text, so learning does not depend on it).

**Check sites** (``--check-sites [FILE]``, issue 11): the same protocol on sites the layout
code was never tuned on: the pages of l3s (Google News, 2008) and mozilla that
``tests/benchmarks/check_sites.tsv`` places on one site each (from evidence in the page
itself: canonical, og:url, ``<base>``, share links, the domain its links point to; every
site checked by hand, see the file's header), sites of ``--min-pages`` pages or more. Each
page is read under the address a crawl of its site would give it, ``http://SITE/ID``
(mozilla's pages all share one placeholder URL). The sets are reported per corpus and
overall (half ``check``: these sites are in neither half); the pages are also pooled by
the fixed extraction half of their corpus (:func:`corpora.halves`, by the site
``page_sites.tsv`` gives each page, the same as this file's, so each check site is in one
half: the readability fallback's rules were tuned on the tuning half's pages, so on the
held-out half's pages neither path was tuned). Titles are scored as on dragnet (no
headline is labelled): against the gold text's first line where the page's own title
statements say it. ``--diff`` shows none of these pages (they are in no tuning half). No
product rule reads the file. The redesign scenario is not run with it.

**Redesign scenario** (``--redesign``): every site whose pages fall into two article
layouts of 4 pages or more (two templates, as a site has before and after a redesign).
Learn on layout A; read the pages of layout B (with a fifth as many of layout A mixed in)
as a crawl does, and ask :func:`~newsstem.layout.redesign.layout_change` whether the site
changed; learn again from the first half of those pages
(:func:`~newsstem.layout.redesign.relearn`, the old patterns kept where still needed) and
extract the second half with the result: how many by pattern, F1 against the fallback.

Figures: token-shingle F1 of the body (:mod:`newsstem.evaluation`), pooled over the pages
of a set and per site; the sites where learned is worse than the fallback by more than
0.01 and 0.02; titles right (exact after case and punctuation are ignored) where a
headline is labelled, of the learned path's extraction (L), of the fallback (F) and as
a crawl exports them (E: the headline decision of :mod:`newsstem.metadata.headline`
over the learned path's title, with the site names of the pattern file; anchor texts
left out, since here they are the labels); how pages were extracted (method); learning CPU seconds. Each set
is also reported by the fixed halves of :func:`corpora.halves` (by site): tune on the
first, check on the second.

``--worst N`` lists the N pages where the learned path loses most to the fallback (and
gains most); with ``--diff`` each of those pages *of a tuning site* (held-out pages are
never shown: rules are designed on the tuning halves) is read line by line: ``-`` a line
of the fallback's article that the learned text lacks (under half of its word trigrams in
it), ``+`` a line the learned text has and the fallback's lacks, each with the gold's
verdict (``keep`` where half of its trigrams are in the gold text) and the layout block
holding it (the last three elements of its key: the pattern's main block for ``+``, the
page's block for ``-``), so that the cause (a slot dropped or taken, a caption, a
title, a guard decision) can be read off.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repo, when run as a script
sys.path.insert(0, str(Path(__file__).resolve().parent))  # corpora.py beside this file

from corpora import (
    HALVES,
    CorpusPage,
    corpora_root,
    corpus_names,
    gold_headline,
    halves,
    load_corpus,
    site_keys,
)

from newsstem import defaults
from newsstem.evaluation import score_corpus, score_page
from newsstem.layout.blocks import decompose
from newsstem.readability.title import clean_title
from newsstem.text import meaningful_length

MIN_CHARS = defaults.NEWSSTEM_MIN_ARTICLE_CHARS
_WORD = re.compile(r"\w+")


@dataclass
class Outcome:
    body: str
    title: str
    method: str
    guard: str = ""  # PageExtraction.guard of the learned path
    blocks: tuple[tuple[str, str], ...] = ()  # the pattern's main blocks (key, text)


@dataclass
class PageResult:
    page: CorpusPage
    headline: str | None  # labelled headline, if the corpus has one
    learned: Outcome
    fallback: Outcome
    # the title a crawl exports (the headline decision of newsstem.metadata, the site
    # names of the learned pattern file, no anchor texts: here they are the labels)
    exported_title: str = ""


@dataclass
class SiteResult:
    corpus: str
    site: str
    half: str
    pages: list[PageResult] = field(default_factory=list)
    learn_seconds: float = 0.0
    learned_pages: int = 0  # pages learned from, summed over the folds


def labelled_headline(page: CorpusPage, meta: dict | None) -> str | None:
    if page.corpus == "fundus" and meta:
        return meta.get("title")
    if page.corpus in ("cleanportal", "chaos"):
        return gold_headline(page.gold)
    return None


def scored_headline(
    page: CorpusPage, meta: dict | None, gold_first_line: bool = False
) -> str | None:
    """The headline titles are scored against: the labelled one, else (dragnet, and the
    check sites with ``gold_first_line``) the gold text's first line where one of the page's
    own title statements says it (the heading, JSON-LD, og:title, the ``<title>`` alone or
    with an affix): the headline a reader sees, where the page names it. Not used as anchor
    text (learning is unchanged by it)."""
    labelled = labelled_headline(page, meta)
    if labelled or not (gold_first_line or page.corpus == "dragnet"):
        return labelled
    from newsstem.metadata.evidence import collect_evidence, parse_html
    from newsstem.metadata.headline import _agrees, comparable, headline_candidates

    gold = gold_headline(page.gold)
    key = comparable(gold or "")
    if not key:
        return None
    evidence = collect_evidence(parse_html(page.html), page.url, page.html)
    stated = any(_agrees(key, comparable(text), text) for _, text in headline_candidates(evidence))
    return gold if stated else None


def anchor_text(page: CorpusPage, headline: str | None) -> str:
    if headline:
        return headline
    return clean_title(decompose(page.html).title, [])


def exported(
    body: str, title: str, method: str, guard: str = "", blocks: tuple = ()
) -> Outcome:
    if meaningful_length(body) < MIN_CHARS:
        return Outcome("", "", method, guard)
    return Outcome(body, title, method, guard, blocks)


def _normalized(text: str) -> str:
    return " ".join(_WORD.findall(text.lower()))


def sites_of(
    root: Path, corpora: list[str], min_pages: int
) -> list[tuple[str, str, list[CorpusPage], str]]:
    """(corpus, site, pages, half) of every site with at least ``min_pages`` pages."""
    found = []
    for corpus in corpora:
        pages = load_corpus(root, corpus)
        half_of = halves(pages)
        keys = site_keys(pages, {})  # the corpus's own sites: page_sites.tsv only splits
        by_site: dict[str, list[CorpusPage]] = defaultdict(list)
        for page in pages:
            key = keys[page.id]
            if key != page.id:  # pages without a site are not a layout-learning set
                by_site[key].append(page)
        for site, site_pages in sorted(by_site.items()):
            if len(site_pages) >= min_pages:
                found.append((corpus, site, site_pages, half_of[site_pages[0].id]))
    return found


# The check sites (issue 11): pages of corpora without a usable site field, placed on the
# site each names (made and checked by hand: see the file's header). Benchmark data only.
CHECK_SITES = Path(__file__).resolve().with_name("check_sites.tsv")
CHECK_HALF = "check"


def read_check_sites(path: Path) -> dict[str, dict[str, str]]:
    """Corpus -> page id -> site, from a check-sites file (tab-separated: corpus, page id,
    site, then notes; lines starting with ``#`` are comments)."""
    sites: dict[str, dict[str, str]] = defaultdict(dict)
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            corpus, page_id, site = line.split("\t")[:3]
            sites[corpus][page_id] = site
    return dict(sites)


def check_sites_of(
    root: Path, path: Path, min_pages: int, extraction_half: dict[str, str]
) -> list[tuple[str, str, list[CorpusPage], str]]:
    """(corpus, site, pages, "check") of every site of the check-sites file with at least
    ``min_pages`` pages, each page under the address a crawl of its site gives it
    (``http://SITE/ID``); ``extraction_half`` is filled with each page's fixed half of its
    corpus (corpus/id -> half). Corpora absent from ``root`` are skipped with a message."""
    found = []
    present = set(corpus_names(root))
    for corpus, wanted in sorted(read_check_sites(path).items()):
        if corpus not in present:
            print(f"check sites: corpus {corpus} not found under {root}: skipped")
            continue
        pages = load_corpus(root, corpus)
        half_of = halves(pages)
        by_site: dict[str, list[CorpusPage]] = defaultdict(list)
        for page in pages:
            site = wanted.get(page.id)
            if site:
                by_site[site].append(replace(page, url=f"http://{site}/{page.id}", site=site))
                extraction_half[f"{corpus}/{page.id}"] = half_of[page.id]
        missing = set(wanted) - {p.id for p in pages}
        if missing:
            print(f"check sites: {len(missing)} page ids of {corpus} not in the corpus")
        for site, site_pages in sorted(by_site.items()):
            if len(site_pages) >= min_pages:
                found.append((corpus, site, site_pages, CHECK_HALF))
    return found


def report_extraction_halves(sites: list["SiteResult"], extraction_half: dict[str, str]) -> None:
    """The check sites' pages pooled by the fixed extraction half of their corpus."""
    print("\ncheck sites' pages by the extraction half of their corpus (the fallback's rules "
          "were tuned on the tuning half):")
    print(f"  {'set':<24}{'pages':>6}{'learned':>9}{'fallback':>9}{'diff':>10}")
    corpora = sorted({s.corpus for s in sites})
    for corpus in [*corpora, None]:
        for half in HALVES:
            pages = [r for s in sites if corpus in (None, s.corpus) for r in s.pages
                     if extraction_half.get(f"{s.corpus}/{r.page.id}") == half]
            if pages:
                learned, fallback = f1(pages, learned_of), f1(pages, fallback_of)
                print(f"  {(corpus or 'all') + ' ' + half:<24}{len(pages):>6}{learned:>9.5f}"
                      f"{fallback:>9.5f}{learned - fallback:>+10.5f}")


def run_site(
    corpus: str, site: str, pages: list[CorpusPage], half: str, metas: dict, use_anchors: bool,
    fallback_cache: dict,
) -> SiteResult:
    from newsstem.extraction import extract_page
    from newsstem.layout.learn import TrainingPage, learn
    from newsstem.layout.patterns import SitePatterns
    from newsstem.metadata import extract_metadata

    result = SiteResult(corpus, site, half)
    labelled = [labelled_headline(p, metas.get(p.id)) for p in pages]
    anchors = [(anchor_text(p, h),) if use_anchors else () for p, h in zip(pages, labelled)]
    headlines = [scored_headline(p, metas.get(p.id), half == CHECK_HALF) for p in pages]
    training = [TrainingPage(p.url or p.id, p.html, a) for p, a in zip(pages, anchors)]

    def fallback(page: TrainingPage):
        if page.url not in fallback_cache:
            fallback_cache[page.url] = extract_page(page.html, page.url)
        return fallback_cache[page.url]

    for index, page in enumerate(pages):
        others = training[:index] + training[index + 1 :]
        started = time.process_time()
        learned = learn(site, others, fallback=lambda page: fallback(page).body)
        result.learn_seconds += time.process_time() - started
        result.learned_pages += len(others)
        patterns = SitePatterns(learned.pattern_set)
        by_pattern = extract_page(page.html, training[index].url, patterns, anchors[index])
        alone = fallback(training[index])
        decided = extract_metadata(
            page.html, training[index].url, text=by_pattern.body or None,
            title_candidates=[(by_pattern.title_source, by_pattern.title)],
            site_names=learned.pattern_set.site_names,
        ).headline if headlines[index] else None
        result.pages.append(
            PageResult(
                page,
                headlines[index],
                exported(by_pattern.body, by_pattern.title, by_pattern.method, by_pattern.guard,
                         by_pattern.blocks),
                exported(alone.body, alone.title, alone.method),
                decided or by_pattern.title,
            )
        )
    return result


def f1(results: list[PageResult], which: Callable[[PageResult], Outcome]) -> float:
    return score_corpus((which(r).body, r.page.gold) for r in results).f1


def learned_of(r: PageResult) -> Outcome:
    return r.learned


def fallback_of(r: PageResult) -> Outcome:
    return r.fallback


def exported_of(r: PageResult) -> Outcome:
    return Outcome(r.learned.body, r.exported_title, r.learned.method)


def titles_right(results: list[PageResult], which: Callable[[PageResult], Outcome]) -> tuple[int, int]:
    labelled = [r for r in results if r.headline]
    right = sum(_normalized(which(r).title) == _normalized(r.headline or "") for r in labelled)
    return right, len(labelled)


def _words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text)]


def _grams(words: list[str], n: int) -> set[tuple[str, ...]]:
    return {tuple(words[i : i + n]) for i in range(len(words) - n + 1)}


def _held(line: str, text_grams: dict[int, set]) -> float:
    """Share of the line's word n-grams (trigrams; shorter lines whole) found in a text."""
    words = _words(line)
    n = min(3, len(words))
    if not n:
        return 1.0
    grams = _grams(words, n)
    return len(grams & text_grams[n]) / len(grams)


def _text_grams(text: str) -> dict[int, set]:
    words = _words(text)
    return {n: _grams(words, n) for n in (1, 2, 3)}


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if _words(line)]


def _key_of(line: str, blocks: list[tuple[str, dict[int, set]]]) -> str:
    best, key = 0.0, "?"
    for block_key, grams in blocks:
        share = _held(line, grams)
        if share > best:
            best, key = share, block_key
    return " > ".join(key.split("/")[-3:]) if key != "?" else key


def print_diff(delta: float, site: SiteResult, r: PageResult, width: int = 110) -> None:
    """The lines one text has and the other lacks on a page, with the gold's verdict and
    the layout block holding each (the pattern's main key for '+', the page's block for '-')."""
    learned, fallback, gold = r.learned, r.fallback, r.page.gold
    print(f"\n  {delta:+.3f} {site.site} {r.page.id} {learned.method} guard {learned.guard}")
    grams = {"learned": _text_grams(learned.body), "fallback": _text_grams(fallback.body),
             "gold": _text_grams(gold)}
    # each block's n-grams once, not once per line
    page_blocks = [(b.key, _text_grams(b.text)) for b in decompose(r.page.html).blocks]
    main_blocks = [(key, _text_grams(text)) for key, text in learned.blocks]
    for sign, text, other, blocks in (("-", fallback.body, "learned", page_blocks),
                                      ("+", learned.body, "fallback", main_blocks)):
        for line in _lines(text):
            if _held(line, grams[other]) >= 0.5:
                continue
            verdict = "keep" if _held(line, grams["gold"]) >= 0.5 else "drop"
            key = _key_of(line, blocks or page_blocks)
            print(f"    {sign} {verdict} [{key}] {line[:width]}")


def report(sites: list[SiteResult], verbose: bool, worst: int, title_misses: bool = False,
           diff: bool = False) -> None:
    by_corpus: dict[str, list[SiteResult]] = defaultdict(list)
    for site in sites:
        by_corpus[site.corpus].append(site)
    print(f"\n{'set':<26}{'sites':>6}{'pages':>6}{'learned':>9}{'fallback':>9}{'diff':>10}"
          f"{'worse>.01':>10}{'worse>.02':>10}{'min site':>9}{'titles L/F/E':>16}{'learn s/page':>13}")
    groups: list[tuple[str, list[SiteResult]]] = []
    for corpus, corpus_sites in sorted(by_corpus.items()):
        groups.append((corpus, corpus_sites))
        for half in HALVES:
            part = [s for s in corpus_sites if s.half == half]
            if part and len(corpus_sites) > 1:
                groups.append((f"  {corpus} {half}", part))
    groups.append(("all", sites))
    for name, group in groups:
        pages = [r for s in group for r in s.pages]
        learned, fallback = f1(pages, learned_of), f1(pages, fallback_of)
        diffs = [f1(s.pages, learned_of) - f1(s.pages, fallback_of) for s in group]
        worse1 = sum(d < -0.01 for d in diffs)
        worse2 = sum(d < -0.02 for d in diffs)
        lowest = min(f1(s.pages, learned_of) for s in group)
        tl, tn = titles_right(pages, learned_of)
        tf, _ = titles_right(pages, fallback_of)
        te, _ = titles_right(pages, exported_of)
        titles = f"{tl}/{tf}/{te}/{tn}" if tn else "-"
        seconds = sum(s.learn_seconds for s in group) / max(1, sum(s.learned_pages for s in group))
        print(f"{name:<26}{len(group):>6}{len(pages):>6}{learned:>9.5f}{fallback:>9.5f}"
              f"{learned - fallback:>+10.5f}{worse1:>10}{worse2:>10}{lowest:>9.3f}{titles:>16}"
              f"{1000 * seconds:>10.2f} ms")
    pages = [r for s in sites for r in s.pages]
    best = score_corpus(
        max(((r.learned.body, r.page.gold), (r.fallback.body, r.page.gold)),
            key=lambda pair: score_page(*pair).f1)
        for r in pages
    )
    print(f"\nper page the better of the two (the bound of any choice between them): {best.f1:.3f}")
    methods = Counter(
        r.learned.method.split(":")[0] if r.learned.method.startswith("pattern:") else r.learned.method
        for s in sites for r in s.pages
    )
    print(f"\nmethods of the learned path: {dict(methods)}")
    print("\nevery site, worst against its fallback first:" if verbose else
          "\nsites where learned is worse than the fallback by > 0.01:")
    for site in sorted(sites, key=lambda s: f1(s.pages, learned_of) - f1(s.pages, fallback_of)):
        learned, fallback = f1(site.pages, learned_of), f1(site.pages, fallback_of)
        if learned - fallback < -0.01 or verbose:
            print(f"  {site.corpus:<12}{site.site:<36}{site.half:<9}{len(site.pages):>4} pages"
                  f"  learned {learned:.3f}  fallback {fallback:.3f}")
    if title_misses:
        print("\ntitles exported wrong on the tuning sites (E; learned path L, fallback F):")
        for site in sites:
            for r in site.pages:
                if site.half == "tune" and r.headline and \
                        _normalized(r.exported_title) != _normalized(r.headline):
                    print(f"  {site.corpus} {r.page.id}: E {r.exported_title!r} L "
                          f"{r.learned.title!r} F {r.fallback.title!r} != {r.headline!r}")
    if worst:
        print(f"\nthe {worst} pages where learned loses most against the fallback:")
        rows = []
        for site in sites:
            for r in site.pages:
                a = score_page(r.learned.body, r.page.gold)
                b = score_page(r.fallback.body, r.page.gold)
                rows.append((a.f1 - b.f1, site, r, a, b))
        rows.sort(key=lambda row: row[0])
        for delta, site, r, a, b in rows[:worst]:
            print(f"  {delta:+.2f} {site.site:<28} {r.page.id:<40} {r.learned.method:<24}"
                  f" P/R {a.precision:.2f}/{a.recall:.2f} vs {b.precision:.2f}/{b.recall:.2f}")
        if diff:
            print("\n(--diff) the tuning pages among them, line by line: '-' a line of the"
                  " fallback's article the learned text lacks, '+' a line the learned text has"
                  " and the fallback's lacks; gold keep/drop; the block key holding it")
            for delta, site, r, a, b in rows[:worst]:
                if site.half == "tune":
                    print_diff(delta, site, r)
        print(f"\nthe {worst} pages where learned gains most against the fallback:")
        for delta, site, r, a, b in rows[::-1][:worst]:
            print(f"  {delta:+.2f} {site.site:<28} {r.page.id:<40} {r.learned.method:<24}"
                  f" P/R {a.precision:.2f}/{a.recall:.2f} vs {b.precision:.2f}/{b.recall:.2f}")


# How the learned path decided a page, from its method and guard (PageExtraction).
DECISIONS = {
    ("pattern", "none"): "pattern, no doubt (guard not run)",
    ("pattern", "agreed"): "guard: the fallback confirmed it",
    ("pattern", "changed"): "guard: blocks decided by the fallback",
    ("pattern", "nearest"): "nearest layout, the fallback agreeing",
    ("readability", "replaced"): "guard: the fallback's article used",
    ("readability", "none"): "no layout matched: the fallback",
    ("hub", "none"): "hub layout: dropped",
}


def choices(sites: list[SiteResult], margin: float = 0.01) -> None:
    """Per half, how the learned path decided its pages (pattern, guard, nearest layout,
    fallback) and, of the pages read by a pattern, on how many the fallback's article
    was better by more than ``margin`` of page F1 (wrong) or worse (right); with the
    pooled F1 of the better of the two per page (the pattern's text is not kept where
    the fallback's article was used: those rows count no page)."""
    print(f"\nthe choice between the pattern's text and the fallback's (wrong: the other "
          f"better by > {margin}):")
    print(f"  {'half':<10}{'decision':<42}{'pages':>6}{'wrong':>7}{'right':>7}"
          f"{'learned':>9}{'fallback':>9}{'better of two':>14}")
    for half in HALVES:
        pages = [r for s in sites if s.half == half for r in s.pages]
        groups: dict[str, list[PageResult]] = defaultdict(list)
        for r in pages:
            key = (r.learned.method.split(":")[0], r.learned.guard)
            groups[DECISIONS.get(key, " ".join(key))].append(r)
        for name, group in [*sorted(groups.items()), ("all", pages)]:
            if not group:
                continue
            # where the fallback's article was used, the pattern's text is not kept:
            # only the pattern's decisions are counted
            deltas = [score_page(r.learned.body, r.page.gold).f1
                      - score_page(r.fallback.body, r.page.gold).f1
                      for r in group if r.learned.method.startswith("pattern:")]
            wrong = sum(d < -margin for d in deltas)
            right = sum(d > margin for d in deltas)
            best = score_corpus(
                max(((r.learned.body, r.page.gold), (r.fallback.body, r.page.gold)),
                    key=lambda pair: score_page(*pair).f1)
                for r in group
            ).f1
            print(f"  {half:<10}{name:<42}{len(group):>6}{wrong:>7}{right:>7}"
                  f"{f1(group, learned_of):>9.5f}{f1(group, fallback_of):>9.5f}{best:>14.5f}")


def redesigns(root: Path, corpora: list[str], metas: dict) -> None:
    from newsstem.extraction import extract_page
    from newsstem.layout.learn import TrainingPage, learn
    from newsstem.layout.patterns import SitePatterns
    from newsstem.layout.redesign import SiteCounts, layout_change, relearn

    print("\nredesign scenario: learn layout A, then read layout B")
    print(f"  {'site':<34}{'A':>4}{'B':>4}  {'detected':<9}{'relearned':<10}"
          f"{'by pattern':>11}{'F1 new':>8}{'fallback':>9}  why")
    found = 0
    for _, site, pages, _ in sites_of(root, corpora, 8):
        training = {
            p.url or p.id: TrainingPage(p.url or p.id, p.html,
                                        (anchor_text(p, labelled_headline(p, metas.get(p.id))),))
            for p in pages
        }
        layouts = [
            pattern for pattern in learn(site, list(training.values())).pattern_set.patterns
            if pattern.kind == "article" and pattern.pages >= 4
        ]
        if len(layouts) < 2:
            continue
        found += 1
        by_url = {p.url or p.id: p for p in pages}
        a, b = ([by_url[u] for u in layout.sources if u in by_url] for layout in layouts[:2])
        old = learn(site, [training[p.url or p.id] for p in a]).pattern_set
        crawl = b + a[: max(1, len(b) // 5)]
        counts = SiteCounts()
        old_patterns = SitePatterns(old)
        for page in crawl:
            counts.add(extract_page(page.html, page.url, old_patterns))
        change = layout_change(counts, old, min_pages=min(len(crawl), 20))
        half = len(b) // 2
        recent = [training[p.url or p.id] for p in b[:half] + a[: max(1, len(b) // 5)]]
        again = relearn(site, recent, old)
        new_patterns = SitePatterns(again.pattern_set)
        rows, fallback_rows, by_pattern = [], [], 0
        for page in b[half:]:
            result = extract_page(page.html, page.url, new_patterns)
            by_pattern += result.method.startswith("pattern:")
            rows.append((exported(result.body, "", "").body, page.gold))
            alone = extract_page(page.html, page.url)
            fallback_rows.append((exported(alone.body, "", "").body, page.gold))
        new_f1 = score_corpus(rows).f1
        fallback_f1 = score_corpus(fallback_rows).f1
        print(f"  {site:<34}{len(a):>4}{len(b):>4}  {'yes' if change else 'no':<9}"
              f"{'better' if again.better else 'no':<10}{by_pattern:>6}/{len(b) - half:<4}"
              f"{new_f1:>8.3f}{fallback_f1:>9.3f}  {change or '-'}")
    if not found:
        print("  no site with two article layouts of 4 pages or more")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", nargs="*", help="corpora to use (default: all)")
    parser.add_argument("--min-pages", type=int, default=5, help="least pages of a site")
    parser.add_argument("--no-anchors", action="store_true", help="learn without anchor texts")
    parser.add_argument("--site", nargs="*", help="only these sites")
    parser.add_argument("--half", choices=HALVES, help="only the sites of this half")
    parser.add_argument("--worst", type=int, default=0, help="list the N worst pages")
    parser.add_argument("-v", "--verbose", action="store_true", help="every site")
    parser.add_argument("--diff", action="store_true",
                        help="with --worst: the lines each text lacks on the tuning pages listed")
    parser.add_argument("--choices", action="store_true",
                        help="how the guard chose between the two texts, per half")
    parser.add_argument("--redesign", action="store_true", help="the redesign scenario only")
    parser.add_argument("--title-misses", action="store_true",
                        help="list the tuning sites' pages whose exported title is wrong")
    parser.add_argument("--check-sites", nargs="?", const=CHECK_SITES, type=Path, metavar="FILE",
                        help="the never-tuned check sites of FILE (default "
                             "tests/benchmarks/check_sites.tsv) instead of the corpora's sites")
    args = parser.parse_args(argv)
    root = corpora_root()
    if root is None:
        print("No corpora found (../shared/corpora or $NEWSSTEM_CORPORA): benchmark skipped.")
        return 0
    corpora = args.corpus or corpus_names(root)
    metas = _metas(root, corpora)
    if args.redesign:
        redesigns(root, corpora, metas)
        return 0
    fallback_cache: dict = {}
    results = []
    started = time.perf_counter()
    extraction_half: dict[str, str] = {}
    if args.check_sites:
        found = check_sites_of(root, args.check_sites, args.min_pages, extraction_half)
    else:
        found = sites_of(root, corpora, args.min_pages)
    for corpus, site, pages, half in found:
        if args.corpus and corpus not in args.corpus:
            continue
        if args.site and site not in args.site or args.half and half != args.half:
            continue
        results.append(
            run_site(corpus, site, pages, half, metas, not args.no_anchors, fallback_cache)
        )
    if not results:
        print("no site with enough pages")
        return 0
    report(results, args.verbose, args.worst, args.title_misses, args.diff)
    if args.check_sites:
        report_extraction_halves(results, extraction_half)
    if args.choices:
        choices(results)
    if not (args.site or args.half or args.check_sites):
        redesigns(root, corpora, metas)
    print(f"\n{time.perf_counter() - started:.0f} s in all")
    return 0


def _metas(root: Path, corpora: list[str]) -> dict[str, dict]:
    import json

    metas = {}
    for corpus in corpora:
        with (root / corpus / "index.jsonl").open(encoding="utf-8") as index:
            for line in index:
                if line.strip():
                    entry = json.loads(line)
                    if entry.get("meta"):
                        metas[str(entry["id"])] = entry["meta"]
    return metas


if __name__ == "__main__":
    sys.exit(main())
