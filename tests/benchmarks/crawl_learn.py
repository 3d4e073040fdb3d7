"""The product path of learned layouts, end to end: crawl, ``scrapy learn``, crawl again.

    python tests/benchmarks/crawl_learn.py                  # dragnet sites of 8+ pages, cleanportal's
    python tests/benchmarks/crawl_learn.py --corpus cleanportal --min-pages 5
    python tests/benchmarks/crawl_learn.py --anchors title  # anchor texts as learned.py's
    python tests/benchmarks/crawl_learn.py --keep DIR       # keep the archive, patterns, exports
    python tests/benchmarks/crawl_learn.py --redesign       # a redesign, detected and learned again

``tests/benchmarks/learned.py`` measures learned layouts by calling the library
(:func:`newsstem.layout.learn.learn`, :func:`newsstem.extraction.extract_page`); this
script measures what a user gets from the commands README gives. Each site of the chosen
corpora (default: dragnet's sites of ``--min-pages`` 8 pages or more, and cleanportal's)
is served by a real HTTP server of its own on 127.0.0.1 (one free port per site: a site
is its host and port, so every site is crawled, learned and named apart, and no original
hostname is in a URL): ``/`` is an index page linking every page of the site, each page's
raw bytes at ``/a/<n>.html`` (``text/html`` without a charset, so that the crawler
decodes them as :mod:`corpora` does), ``/robots.txt`` a 404. The anchor text of each link
(``--anchors``): ``labelled`` (default) the page's labelled headline where its corpus has
one (cleanportal: :func:`corpora.gold_headline`), else a neutral ``Article <n>``;
``title`` learned.py's anchor text (the labelled headline, else the page's ``<title>``
without the site's name); ``neutral`` always ``Article <n>``.

Then, in subprocesses, from the repository's directory (its ``scrapy.cfg``), every path in
a temporary directory (``--keep DIR`` keeps them):

1. ``scrapy crawl news -a start_url="<every site's index>" -a depth=1 -O first.jsonl
   -s NEWSSTEM_ARCHIVE=first.warc.gz`` with a fresh URL store and an empty patterns
   directory: the fallback alone (the figures *without* patterns);
2. ``scrapy learn --input first.warc.gz --out patterns``;
3. the same crawl with ``-s NEWSSTEM_PATTERNS_DIR=patterns``, a second fresh URL store and
   no archive, ``-O second.jsonl`` (the figures *with* patterns); ``--same-store``: the
   first crawl's store and ``-a refresh=1`` instead, as README's step 3.

Both crawls also get ``-s AUTOTHROTTLE_ENABLED=False -s DOWNLOAD_DELAY=0``: every site
is on 127.0.0.1, one download slot for Scrapy, and the polite default (1 s to start
with) would make the benchmark wait, not measure. Nothing else differs from README's
commands.

Scoring: each exported item is matched to its page by URL; a page not exported (dropped
as a hub, too short, not reached) scores as an empty body, as in learned.py. Body F1 is
:func:`newsstem.evaluation.score_corpus` (token shingles, pooled); titles are right when
equal to the scored headline after case and punctuation are ignored
(learned.py's :func:`scored_headline`: the labelled headline, on dragnet the gold text's
first line where the page's own title statements say it). Printed per corpus, per half
(:func:`corpora.halves`, by site) and overall: F1 with and without patterns, pages
exported by each crawl, the methods of the second crawl's items (``pattern`` /
``readability``), titles right, and the wall seconds of each step. The **library
path in sample** is printed beside them: :func:`~newsstem.layout.learn.learn` on every
page of a site with the same anchor texts and the fallback, then
:func:`~newsstem.extraction.extract_page` of every page with the result, which is what
the product path should reproduce (it learns from the first crawl's pages and reads the
same pages again); and, over the library path's title, the headline decision of
:mod:`newsstem.metadata` without anchor texts (learned.py's E) and with them (as the
crawl makes it). A gap between the two is a glue problem between the crawl, the
archive, ``scrapy learn`` and the pipeline, not an extraction rule; the pages where the
two differ are listed (``--diff N``).

**The redesign scenario** (``--redesign``): pairs of corpus sites of one corpus (default:
dragnet's sites of 10 pages or more, ``--redesign-min-site-pages``, and cleanportal's 4,
in order, two by two: each corpus site in one pair only, since a page served by two hosts
would be dropped as a copy). Each pair is one host on 127.0.0.1 that serves, in turn:

1. layout A: site A's pages at ``/a/1.html`` … linked from ``/``; ``scrapy crawl news``
   (no patterns, ``-s NEWSSTEM_ARCHIVE=site.warc.gz``), then ``scrapy learn --input
   site.warc.gz --out patterns-a``;
2. the redesign: the first half of site B's pages as new articles at the next numbers of
   the same URL scheme, ``/`` linking them and a fifth as many of A's pages (still on the
   site); the same crawl with a copy of ``patterns-a``, ``-s NEWSSTEM_RELEARN=True``, the
   same archive (appended to) and ``-s NEWSSTEM_REDESIGN_MIN_PAGES=N`` (the least of
   ``--redesign-min-pages``, 20, and the pages it reads of a pair: the corpus sites are
   small). Then, on two more copies of ``patterns-a``, the commands a user runs after the
   summary's advice: ``scrapy learn SITE --input site.warc.gz --since <after crawl 1>``
   and ``scrapy learn SITE --input site.warc.gz --last <pages of crawl 2>``;
3. later: B's second half published too, ``/`` linking every page; the crawl again (fresh
   store, no archive) once per patterns directory: none (the fallback), ``patterns-a``
   (not learned again), NEWSSTEM_RELEARN's, ``--since``'s, ``--last``'s.

Printed per pair: whether crawl 2's run summary named the site (``layout changed: SITE:``),
what each way of learning again did (``written``, ``not better``: the self-check kept the
old file, ``nothing``: no article layout), how many of ``patterns-a``'s article patterns
each new file still has, and whether crawl 3 with NEWSSTEM_RELEARN's file named the site
again (a false alarm); then per pair and pooled per corpus, for B's new pages (read by
no learning), B's first half and A's pages: F1 of crawl 3 with each patterns directory,
of the library path (``learn()`` on phase 1's pages, ``relearn()`` on crawl 2's, its
result kept only if better, as the commands do; ``extract_page()``), pages by pattern,
titles right with NEWSSTEM_RELEARN's file and with the fallback. The pages where
``--since``'s crawl and the library path differ are listed (a glue problem).
``--same-store``: crawl 2 with crawl 1's URL store (a daily crawl: A's pages are not read
again); ``--days N``: B's first half published over N such daily crawls, judged on their
pages together (``.redesign-counts``); ``--control``: no redesign, each site its own pair
(first half of its pages "A", second half "B"): what must not be called a change, and
where the self-check must say ``not better``.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from html import escape
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repo, when run as a script
sys.path.insert(0, str(Path(__file__).resolve().parent))  # corpora.py beside this file
sys.path.insert(1, str(Path(__file__).resolve().parents[1]))  # tests/support

from corpora import HALVES, CorpusPage, corpora_root
from learned import _normalized, anchor_text, labelled_headline, scored_headline, sites_of

from newsstem import defaults
from newsstem.evaluation import score_corpus, score_page
from newsstem.text import meaningful_length
from support.httpserver import serve as serve_http
from support.httpserver import shut_down

REPO = Path(__file__).resolve().parents[2]
MIN_CHARS = defaults.NEWSSTEM_MIN_ARTICLE_CHARS
DEFAULT_CORPORA = ("dragnet", "cleanportal")
# cleanportal's sites all have 8 pages or more too; its 4 sites are taken whatever their size
ALWAYS_ALL_SITES = ("cleanportal",)


@dataclass
class ServedPage:
    page: CorpusPage
    path: str  # /a/<n>.html
    anchor: str
    headline: str | None  # the scored headline (titles), or None


class Hosted:
    """A site served on 127.0.0.1 by ``server``, its pages at their paths."""

    server: ThreadingHTTPServer | None

    @property
    def base(self) -> str:
        assert self.server is not None
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def url(self, served: ServedPage) -> str:
        return self.base + served.path


@dataclass
class Site(Hosted):
    corpus: str
    key: str  # the corpus's site (never printed in a URL)
    half: str
    pages: list[ServedPage] = field(default_factory=list)
    server: ThreadingHTTPServer | None = None


def index_html(pages: list[ServedPage], teasers: bool = False) -> bytes:
    """A site's index: a link to each of ``pages`` with its anchor text; with ``teasers``,
    each also linked before by an image and after by "Read more", as real index pages do."""
    if teasers:
        links = "\n".join(
            f'<li><a href="{p.path}"><img src="/i/{n}.jpg" alt=""></a> '
            f'<a href="{p.path}">{escape(p.anchor)}</a> <a href="{p.path}">Read more</a></li>'
            for n, p in enumerate(pages, 1)
        )
    else:
        links = "\n".join(
            f'<li><a href="{p.path}">{escape(p.anchor)}</a></li>' for p in pages
        )
    return (f"<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Latest news</title>"
            f"</head><body><h1>Latest news</h1><ul>\n{links}\n</ul></body></html>").encode()


def serve(site: Site, teasers: bool = False) -> None:
    """Start a real HTTP server for the site on a free port of 127.0.0.1, in a thread."""
    routes = {p.path: p.page.raw for p in site.pages}
    routes["/"] = index_html(site.pages, teasers)
    site.server = serve_routes(routes)


def serve_routes(routes: dict[str, bytes]) -> ThreadingHTTPServer:
    """A real HTTP server on a free port of 127.0.0.1 answering each path of ``routes``
    (read at each request: a caller may change them between crawls) with its bytes."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = routes.get(self.path.split("?", 1)[0])
            if body is None:
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args) -> None:
            pass

    return serve_http(Handler)


def choose_sites(root: Path, corpora: list[str], min_pages: int, anchors: str) -> list[Site]:
    sites = []
    for corpus in corpora:  # (learned.py's sites, all of an ALWAYS_ALL_SITES corpus)
        least = 1 if corpus in ALWAYS_ALL_SITES else min_pages
        for _, key, site_pages, half in sites_of(root, [corpus], least):
            site = Site(corpus, key, half)
            site.pages = [served_page(page, n, anchors) for n, page in enumerate(site_pages, 1)]
            sites.append(site)
    return sites


def served_page(page: CorpusPage, n: int, anchors: str) -> ServedPage:
    """``page`` served at ``/a/<n>.html``, linked with the anchor text ``anchors`` says."""
    labelled = labelled_headline(page, None)
    if anchors == "title":
        anchor = anchor_text(page, labelled)
    elif anchors == "labelled" and labelled:
        anchor = labelled
    else:
        anchor = f"Article {n}"
    return ServedPage(page, f"/a/{n}.html", anchor, scored_headline(page, None))


def mixed(sites: list[Site], mix: int) -> list[Site]:
    """Sites of ``mix`` corpus sites each (the issue's real crawl: one site mixing the
    layouts of several), grouped in order within a corpus and half, pages interleaved."""
    groups: dict[tuple[str, str], list[Site]] = defaultdict(list)
    for site in sites:
        groups[(site.corpus, site.half)].append(site)
    result = []
    for (corpus, half), members in groups.items():
        for start in range(0, len(members), mix):
            chunk = members[start : start + mix]
            merged = Site(corpus, "+".join(s.key for s in chunk), half)
            longest = max(len(s.pages) for s in chunk)
            pages = [s.pages[i] for i in range(longest) for s in chunk if i < len(s.pages)]
            for n, served in enumerate(pages, 1):
                anchor = served.anchor
                if anchor.startswith("Article "):
                    anchor = f"Article {n}"
                merged.pages.append(ServedPage(served.page, f"/a/{n}.html", anchor,
                                               served.headline))
            result.append(merged)
    return result


def run(step: str, command: list[str], log: Path) -> float:
    """Run a command from the repository's directory; its wall seconds. Output to ``log``."""
    started = time.perf_counter()
    with log.open("wb") as out:
        done = subprocess.run(command, cwd=REPO, stdout=out, stderr=subprocess.STDOUT,
                              check=False)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        tail = log.read_text(errors="replace").splitlines()[-15:]
        print(f"{step}: exit status {done.returncode}; last lines of {log}:", *tail, sep="\n  ")
    return seconds


def crawl_command(sites: list[Site], out: Path, urldb: Path, patterns: Path,
                  archive: Path | None, depth: int = 1) -> list[str]:
    command = [
        "scrapy", "crawl", "news",
        "-a", "start_url=" + " ".join(site.base + "/" for site in sites),
        "-a", f"depth={depth}",
        "-O", str(out),
        "-s", f"NEWSSTEM_URLDB=sqlite:///{urldb}",
        "-s", f"NEWSSTEM_PATTERNS_DIR={patterns}",
        "-s", "AUTOTHROTTLE_ENABLED=False", "-s", "DOWNLOAD_DELAY=0",
        "-s", "LOG_LEVEL=DEBUG",  # the lines of the items dropped as copies
    ]
    if archive:
        command += ["-s", f"NEWSSTEM_ARCHIVE={archive}"]
    return command


def read_items(path: Path) -> dict[str, dict]:
    items = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                item = json.loads(line)
                items[item["url"]] = item
    return items


_COPY = re.compile(r"a copy of an article already exported: (\S+)")


def copies(log: Path) -> set[str]:
    """The URLs a crawl dropped as copies of an article it exported (its DEBUG lines)."""
    if not log.exists():
        return set()
    return set(_COPY.findall(log.read_text(encoding="utf-8", errors="replace")))


@dataclass
class Outcome:
    body: str
    title: str
    method: str  # "pattern", "readability", "-" (not exported)
    exported: bool
    # the library path's title after the headline decision: without, with anchor texts
    decided: tuple[str, ...] = ()


def outcome(item: dict | None) -> Outcome:
    if not item:
        return Outcome("", "", "-", False)
    method = str(item.get("method") or "?")
    return Outcome(item.get("body") or "", item.get("title") or "",
                   "pattern" if method.startswith("pattern:") else method, True)


def library_path(site: Site) -> tuple[dict[str, Outcome], dict[str, Outcome]]:
    """The library path in sample: learn from every page of the site (the same anchor
    texts, the fallback), extract every page with the result, as learned.py does; and
    the fallback alone (:func:`~newsstem.extraction.extract_page` without patterns, what
    the first crawl should export)."""
    from newsstem.extraction import extract_page
    from newsstem.layout.learn import TrainingPage, learn
    from newsstem.layout.patterns import SitePatterns
    from newsstem.metadata import extract_metadata

    training = [TrainingPage(site.url(p), p.page.html, (p.anchor,)) for p in site.pages]
    fallback: dict = {}

    def fallback_body(page: TrainingPage) -> str:
        if page.url not in fallback:
            fallback[page.url] = extract_page(page.html, page.url)
        return fallback[page.url].body

    learned = learn(site.base.removeprefix("http://"), training, fallback=fallback_body)
    patterns = SitePatterns(learned.pattern_set)
    result, alone = {}, {}
    for page in training:
        got = extract_page(page.html, page.url, patterns, page.anchor_texts)
        result[page.url] = _exported(got)
        if result[page.url].exported:
            # the headline decision as learned.py's E makes it (no anchor texts, the
            # pattern file's site names) and with the anchor texts, as the crawl makes it
            for anchors in ((), page.anchor_texts):
                decided = extract_metadata(
                    page.html, page.url, text=got.body,
                    title_candidates=[(got.title_source, got.title)] if got.title else [],
                    anchor_texts=anchors, site_names=learned.pattern_set.site_names,
                ).headline or got.title
                result[page.url].decided += (decided,)
        fallback_body(page)
        alone[page.url] = _exported(fallback[page.url])
    return result, alone


def _exported(got) -> Outcome:
    """A PageExtraction as a crawl exports it: too short a body is no article."""
    if meaningful_length(got.body) < MIN_CHARS:
        return Outcome("", "", "-", False)
    method = "pattern" if got.method.startswith("pattern:") else got.method
    return Outcome(got.body, got.title, method, True)


@dataclass
class Row:
    site: Site
    served: ServedPage
    without: Outcome  # first crawl
    with_: Outcome  # second crawl
    library: Outcome | None
    library_fallback: Outcome | None = None


def report(rows: list[Row], seconds: dict[str, float]) -> None:
    groups: list[tuple[str, list[Row]]] = []
    for corpus in sorted({r.site.corpus for r in rows}):
        part = [r for r in rows if r.site.corpus == corpus]
        groups.append((corpus, part))
        for half in HALVES:
            groups.append((f"  {corpus} {half}", [r for r in part if r.site.half == half]))
    for half in HALVES:
        groups.append((f"all {half}", [r for r in rows if r.site.half == half]))
    groups.append(("all", rows))
    has_library = all(r.library for r in rows)
    print(f"\n{'set':<24}{'sites':>6}{'pages':>6}{'with':>9}{'without':>9}{'diff':>9}"
          + (f"{'library':>9}{'lib fb':>9}" if has_library else "")
          + f"{'exported w/wo':>15}{'by pattern':>11}{'titles w/wo':>13}"
          + (f"{'lib':>5}" if has_library else ""))
    for name, group in groups:
        if not group:
            continue
        with_f1 = score_corpus((r.with_.body, r.served.page.gold) for r in group).f1
        without_f1 = score_corpus((r.without.body, r.served.page.gold) for r in group).f1
        labelled = [r for r in group if r.served.headline]
        titles_with = sum(_normalized(r.with_.title) == _normalized(r.served.headline or "")
                          for r in labelled)
        titles_without = sum(_normalized(r.without.title) == _normalized(r.served.headline or "")
                             for r in labelled)
        line = (f"{name:<24}{len({id(r.site) for r in group}):>6}{len(group):>6}"
                f"{with_f1:>9.5f}{without_f1:>9.5f}{with_f1 - without_f1:>+9.5f}")
        if has_library:
            line += f"{score_corpus((r.library.body, r.served.page.gold) for r in group).f1:>9.5f}"
            line += (f"{score_corpus((r.library_fallback.body, r.served.page.gold) for r in group).f1:>9.5f}")
        exported = f"{sum(r.with_.exported for r in group)}/{sum(r.without.exported for r in group)}"
        line += f"{exported:>15}{sum(r.with_.method == 'pattern' for r in group):>11}"
        line += f"{f'{titles_with}/{titles_without}/{len(labelled)}':>13}"
        if has_library:
            lib_titles = sum(_normalized(r.library.title) == _normalized(r.served.headline or "")
                             for r in labelled)
            line += f"{lib_titles:>5}"
        print(line)
    if has_library:
        labelled = [r for r in rows if r.served.headline]

        def right(title_of) -> int:
            return sum(_normalized(title_of(r)) == _normalized(r.served.headline or "")
                       for r in labelled)

        print(f"\ntitles right of {len(labelled)}: second crawl {right(lambda r: r.with_.title)}; "
              f"library path: its extraction's {right(lambda r: r.library.title)}, the "
              "headline decision over it without anchor texts (learned.py's E) "
              f"{right(lambda r: (r.library.decided or ('',))[0])}, with them "
              f"{right(lambda r: (r.library.decided or ('', ''))[-1])}")
    print("\nmethods of the second crawl (with patterns):",
          dict(Counter(r.with_.method for r in rows)))
    print("methods of the first crawl (without):", dict(Counter(r.without.method for r in rows)))
    if has_library:
        print("methods of the library path in sample:", dict(Counter(r.library.method for r in rows)))
    print("\nwall seconds: " + ", ".join(f"{step} {s:.1f}" for step, s in seconds.items()))


def differences(rows: list[Row], limit: int) -> None:
    """The pages where a crawl and the library path differ most: the second crawl against
    the library path in sample, the first against the fallback alone."""
    for name, crawl, lib in (("second crawl", lambda r: r.with_, lambda r: r.library),
                             ("first crawl", lambda r: r.without,
                              lambda r: r.library_fallback)):
        diffs = []
        for r in rows:
            if lib(r) is None:
                continue
            a = score_page(crawl(r).body, r.served.page.gold).f1
            b = score_page(lib(r).body, r.served.page.gold).f1
            if crawl(r).method != lib(r).method or abs(a - b) > 0.001:
                diffs.append((a - b, r, a, b))
        diffs.sort(key=lambda d: d[0])
        changed = Counter((lib(r).method, crawl(r).method) for _, r, _, _ in diffs)
        print(f"\npages where the {name} differs from the library path: {len(diffs)} "
              f"(library method -> crawl method: {dict(changed)})")
        for delta, r, a, b in diffs[:limit]:
            print(f"  {delta:+.3f} {r.site.corpus}/{r.site.key:<30} {r.served.page.id:<28} "
                  f"{r.site.half:<9} library {lib(r).method:<12} {b:.3f}  crawl "
                  f"{crawl(r).method:<12} {a:.3f}")
        # titles: the crawl exports the headline decision of newsstem.metadata (with the
        # anchor texts); the library path's title is the extraction's own
        right = [r for r in rows if lib(r) is not None and r.served.headline]
        lost = [r for r in right if _normalized(lib(r).title) == _normalized(r.served.headline)
                and _normalized(crawl(r).title) != _normalized(r.served.headline)]
        won = [r for r in right if _normalized(lib(r).title) != _normalized(r.served.headline)
               and _normalized(crawl(r).title) == _normalized(r.served.headline)]
        print(f"titles: right in the library path and wrong in the {name}: {len(lost)}; "
              f"the other way: {len(won)}")
        for r in [r for r in lost if r.site.half == "tune"][:limit]:
            print(f"  {r.site.corpus}/{r.served.page.id}: crawl {crawl(r).title[:70]!r}, "
                  f"library {lib(r).title[:70]!r}, anchor {r.served.anchor[:50]!r}")


# ------------------------------------------------------------------- the redesign scenario

# the least pages of a site of each corpus for the default pairs (cleanportal: all 4;
# another corpus: REDESIGN_LEAST)
REDESIGN_SITES = {"cleanportal": 1, "dragnet": 10}
REDESIGN_LEAST = 12


@dataclass
class Pair(Hosted):
    """One host serving, in turn, the pages of corpus site A (layout A) and then, after
    the "redesign", new articles that are the pages of corpus site B (layout B), at the
    same URL scheme: ``/a/<n>.html``, numbered on from A's."""

    corpus: str
    a_key: str
    b_key: str
    a: list[ServedPage] = field(default_factory=list)
    b_recent: list[ServedPage] = field(default_factory=list)  # read by crawl 2
    b_new: list[ServedPage] = field(default_factory=list)  # published after relearning
    still: list[ServedPage] = field(default_factory=list)  # A's pages linked after it
    routes: dict[str, bytes] = field(default_factory=dict)
    server: ThreadingHTTPServer | None = None

    @property
    def site(self) -> str:
        """The site as newsstem names it (``host:port``)."""
        return self.base.removeprefix("http://")

    @property
    def name(self) -> str:
        return f"{self.a_key} -> {self.b_key}"

    def show(self, phase: int, published: int | None = None) -> None:
        """Serve the site as it is at ``phase``: 1 layout A; 2 the redesign (B's first
        half linked as new articles, a fifth as many of A's pages still linked); 3 later
        (B's second half published too; every page linked). ``published``: only the first
        of B's first half are out yet (the daily crawls of ``--days``)."""
        recent = self.b_recent[:published]
        linked = {1: self.a, 2: recent + self.still,
                  3: self.a + self.b_recent + self.b_new}[phase]
        served = {1: self.a, 2: self.a + recent, 3: self.a + self.b_recent + self.b_new}
        routes = {p.path: p.page.raw for p in served[phase]}
        routes["/"] = index_html(linked)
        self.routes.clear()
        self.routes.update(routes)


def choose_pairs(root: Path, corpora: list[str], min_pages: int | None, anchors: str,
                 names: list[str] | None, control: bool = False) -> list[Pair]:
    """Per corpus, its sites of enough pages in order, taken two by two: the first is
    layout A, the second layout B (``names``: only the pairs of these sites). Each corpus
    site is in one pair only: all pairs are crawled together, and a page served by two
    hosts would be dropped by the crawl as a copy of an article already exported.
    ``control``: no redesign; each site is its own pair, its first half of pages layout
    "A", its second half the new articles "B" (the same layout)."""
    pairs = []
    for corpus in corpora:
        least = REDESIGN_SITES.get(corpus, REDESIGN_LEAST) if min_pages is None else min_pages
        sites = [(key, pages) for _, key, pages, _ in sites_of(root, [corpus], max(least, 1))]
        if len(sites) < (1 if control else 2):
            continue
        couples = (
            [(key, pages[: len(pages) // 2], key, pages[len(pages) // 2:]) for key, pages in sites]
            if control else
            [(a[0], a[1], b[0], b[1]) for a, b in zip(sites[0::2], sites[1::2])]
        )
        for a_key, a_pages, b_key, b_pages in couples:
            if names and a_key not in names and b_key not in names:
                continue
            pair = Pair(corpus, a_key, b_key)
            served = [served_page(page, n, anchors)
                      for n, page in enumerate(list(a_pages) + list(b_pages), 1)]
            pair.a = served[: len(a_pages)]
            b = served[len(a_pages):]
            pair.b_recent, pair.b_new = b[: len(b) // 2], b[len(b) // 2:]
            pair.still = pair.a[: max(1, len(pair.b_recent) // 5)]
            pairs.append(pair)
    return pairs


def crawl_stats(path: Path) -> dict:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def _signature(pattern) -> tuple:
    return (pattern.kind, pattern.learned_at, tuple((b.key, b.role) for b in pattern.blocks))


def old_kept(old, new) -> tuple[int, int]:
    """How many of the old file's article patterns the new file still has, of how many."""
    if old is None:
        return 0, 0
    articles = [p for p in old.patterns if p.kind == "article"]
    if new is None:
        return 0, len(articles)
    have = {_signature(p) for p in new.patterns}
    return sum(_signature(p) in have for p in articles), len(articles)


def library_relearn(pair: Pair, crawl2_index: bytes, crawl1_index: bytes,
                    same_store: bool = False) -> dict[str, Outcome]:
    """The library path of the scenario in sample: learn() on layout A's pages (and the
    index page), relearn() on the pages crawl 2 reads (its result kept only when better,
    with an article layout, as the commands write it), extract_page() of every page of
    phase 3 with the result. ``scrapy learn SITE --since`` should reproduce it (and
    NEWSSTEM_RELEARN, on a site it judged changed)."""
    from newsstem.extraction import extract_page
    from newsstem.layout.learn import TrainingPage, learn
    from newsstem.layout.patterns import SitePatterns
    from newsstem.layout.redesign import relearn

    def training(pages: list[ServedPage], index: bytes) -> list[TrainingPage]:
        return ([TrainingPage(pair.base + "/", index.decode(), ())]
                + [TrainingPage(pair.url(p), p.page.html, (p.anchor,)) for p in pages])

    old = learn(pair.site, training(pair.a, crawl1_index)).pattern_set
    recent = pair.b_recent + ([] if same_store else pair.still)  # the pages crawl 2 reads
    again = relearn(pair.site, training(recent, crawl2_index), old)
    # written only when better, and only with an article layout: else the old file stays
    written = again.better and any(p.kind == "article" for p in again.pattern_set.patterns)
    patterns = SitePatterns(again.pattern_set if written else old)
    result = {}
    for p in pair.a + pair.b_recent + pair.b_new:
        result[pair.url(p)] = _exported(extract_page(p.page.html, pair.url(p), patterns,
                                                     (p.anchor,)))
    return result


CHANGED = re.compile(r"layout changed: (\S+): ")


def redesign_main(args: argparse.Namespace, root: Path) -> int:
    from newsstem.layout.patterns import load_patterns_dir

    pairs = choose_pairs(root, args.corpus, args.redesign_min_site_pages, args.anchors,
                         args.site, args.control)
    if not pairs:
        print("no pair of sites with enough pages")
        return 0
    work = args.keep or Path(tempfile.mkdtemp(prefix="crawl-relearn-"))
    work.mkdir(parents=True, exist_ok=True)
    for old in work.iterdir():  # (only what an earlier run wrote there)
        if old.is_dir() and old.name.startswith("patterns-"):
            shutil.rmtree(old)
        elif old.name.startswith(("crawl-", "learn", "urldb-", "site.warc.gz")):
            old.unlink()
    archive = work / "site.warc.gz"  # every crawl appends to it, as NEWSSTEM_ARCHIVE does

    def read_by_crawl_2(pair: Pair) -> int:
        """The pages crawl 2 reads of a pair: the index, B's first half, and A's pages
        still linked unless crawl 1's store has them (--same-store)."""
        return 1 + len(pair.b_recent) + (0 if args.same_store else len(pair.still))

    if args.days > 1:
        args.same_store = True
    judged = args.redesign_min_pages if args.days > 1 else min(
        args.redesign_min_pages, min(read_by_crawl_2(p) for p in pairs))
    print(f"{len(pairs)} pairs, {sum(len(p.a) + len(p.b_recent) + len(p.b_new) for p in pairs)}"
          f" pages; NEWSSTEM_REDESIGN_MIN_PAGES={judged}; files in {work}")
    seconds: dict[str, float] = {}
    outcomes: dict[str, dict[str, str]] = defaultdict(dict)  # site -> way -> outcome
    exports: dict[str, dict[str, dict]] = {}
    changed: dict[str, set[str]] = {}
    indexes: dict[str, dict[int, bytes]] = defaultdict(dict)

    def crawl(step: str, phase: int, patterns: Path, extra: dict[str, str],
              archived: bool, store: str | None = None, day: int = 0) -> None:
        for pair in pairs:
            pair.show(phase, -(-len(pair.b_recent) * day // args.days) if day else None)
            indexes[pair.site][phase] = pair.routes["/"]
        command = crawl_command(pairs, work / f"{step}.jsonl",
                                work / f"urldb-{store or step}.sqlite",
                                patterns, archive if archived else None)
        command += ["-s", f"NEWSSTEM_STATS_FILE={work / (step + '.stats.json')}",
                    "-s", f"NEWSSTEM_REDESIGN_MIN_PAGES={judged}"]
        for key, value in extra.items():
            command += ["-s", f"{key}={value}"]
        seconds[step] = run(step, command, work / f"{step}.log")
        exports[step] = read_items(work / f"{step}.jsonl")
        log = (work / f"{step}.log").read_text(encoding="utf-8", errors="replace")
        changed[step] = set(CHANGED.findall(log))

    try:
        for pair in pairs:
            pair.server = serve_routes(pair.routes)
        (work / "patterns-none").mkdir()
        crawl("crawl-1", 1, work / "patterns-none", {}, archived=True)
        seconds["learn"] = run("learn", ["scrapy", "learn", "--input", str(archive), "--out",
                                         str(work / "patterns-a")], work / "learn.log")
        # the period --since asks for: from the second after crawl 1's last fetch
        time.sleep(1.1)
        since = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        time.sleep(1.1)
        shutil.copytree(work / "patterns-a", work / "patterns-relearn")
        # a daily crawl (--same-store) reads only the pages crawl 1 did not export; with
        # --days N, B's first half is published over N such crawls
        for day in range(1, args.days + 1):
            step = "crawl-2" if args.days == 1 else f"crawl-2-day{day}"
            crawl(step, 2, work / "patterns-relearn", {"NEWSSTEM_RELEARN": "True"},
                  archived=True, store="crawl-1" if args.same_store else None,
                  day=day if args.days > 1 else 0)
            stats = crawl_stats(work / f"{step}.stats.json")
            for pair in pairs:
                done = stats.get(f"newsstem/relearn/{pair.site}")
                if done:
                    outcomes[pair.site]["relearn"] = f"{done}" + (
                        f" d{day}" if args.days > 1 else "")
            if day > 1:
                exports["crawl-2"].update(exports.pop(step))
                changed["crawl-2"] |= changed.pop(step)
            elif step != "crawl-2":
                exports["crawl-2"], changed["crawl-2"] = exports.pop(step), changed.pop(step)
        for way in ("since", "last"):
            shutil.copytree(work / "patterns-a", work / f"patterns-{way}")
            started = time.perf_counter()
            for pair in pairs:
                period = (["--since", since] if way == "since" else
                          ["--last", str(read_by_crawl_2(pair))])
                log = work / f"learn-{way}-{pair.site.replace(':', '_')}.log"
                run(f"learn --{way}", ["scrapy", "learn", pair.site, "--input", str(archive),
                                       "--out", str(work / f"patterns-{way}"), *period], log)
                text = log.read_text(encoding="utf-8", errors="replace")
                outcomes[pair.site][way] = (
                    "not better" if "not better than the old file" in text
                    else "written" if "written to" in text
                    else "nothing" if "nothing written" in text else "?")
            seconds[f"learn --{way} (each pair)"] = time.perf_counter() - started
        for way in ("none", "a", "relearn", "since", "last"):
            crawl(f"crawl-3-{way}", 3, work / f"patterns-{way}", {}, archived=False)
    finally:
        for pair in pairs:
            if pair.server:
                shut_down(pair.server)
    library: dict[str, Outcome] = {}  # by URL, of every pair
    if not args.no_library:
        started = time.perf_counter()
        for pair in pairs:
            library.update(library_relearn(pair, indexes[pair.site][2],
                                           indexes[pair.site][1], args.same_store))
        seconds["library path"] = time.perf_counter() - started
    sets = {way: load_patterns_dir(work / f"patterns-{way}")
            for way in ("a", "relearn", "since", "last")}
    # a page that is a copy of another of its site (cleanportal's blog1_8 and blog1_15) is
    # rightly exported once: scored in no column, as in the main scenario
    dropped = set().union(*(copies(work / f"{step}.log") for step in exports))
    if dropped:
        print(f"pages dropped as copies of another page exported, not scored: {len(dropped)}")
    for pair in pairs:
        for group in (pair.a, pair.b_recent, pair.b_new):
            group[:] = [p for p in group if pair.url(p) not in dropped]
    redesign_report(pairs, exports, changed, outcomes, sets, library, seconds)
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 0


def _got(items: dict, url: str) -> Outcome:
    """A page's outcome in a crawl's exports (items by URL) or the library path's."""
    got = items.get(url)
    return got if isinstance(got, Outcome) else outcome(got)


# (pages of several pairs as (pair, page); items: outcomes by URL, a crawl's exports or
# the library path's, whose URLs differ from pair to pair by the port)
def _f1(pages: list[tuple[Pair, ServedPage]], items: dict) -> float:
    return score_corpus((_got(items, pair.url(p)).body, p.page.gold) for pair, p in pages).f1


def _titles(pages: list[tuple[Pair, ServedPage]], items: dict) -> tuple[int, int]:
    """Titles right, of the pages with a scored headline."""
    labelled = [(pair, p) for pair, p in pages if p.headline]
    right = sum(_normalized(_got(items, pair.url(p)).title) == _normalized(p.headline)
                for pair, p in labelled)
    return right, len(labelled)


def _by_pattern(pages: list[tuple[Pair, ServedPage]], items: dict) -> int:
    return sum(_got(items, pair.url(p)).method == "pattern" for pair, p in pages)


def redesign_report(pairs: list[Pair], exports: dict, changed: dict, outcomes: dict,
                    sets: dict, library: dict, seconds: dict) -> None:
    ways = ("relearn", "since", "last")
    print("\nredesign: learned on layout A (crawl 1), then the same host serves new articles "
          "in layout B\n(crawl 2, NEWSSTEM_RELEARN; scrapy learn SITE --since / --last)")
    print(f"  {'pair (A -> B)':<52}{'A':>3}{'B':>3}+{'new':<3} {'detected':<9}"
          f"{'RELEARN':<11}{'--since':<11}{'--last':<11}{'A kept r/s/l':<16}{'alarm 3':<8}")
    for pair in pairs:
        kept = "/".join("{}of{}".format(*old_kept(sets["a"].get(pair.site),
                                                   sets[w].get(pair.site))) for w in ways)
        print(f"  {pair.corpus + ': ' + pair.name:<52}{len(pair.a):>3}{len(pair.b_recent):>3}"
              f"+{len(pair.b_new):<3} {'yes' if pair.site in changed['crawl-2'] else 'no':<9}"
              + "".join(f"{outcomes[pair.site].get(w, '-'):<11}" for w in ways)
              + f"{kept:<16}"
              + f"{'yes' if pair.site in changed['crawl-3-relearn'] else 'no':<8}")
    groups = (("B new (after relearning)", lambda p: p.b_new),
              ("B recent (learned from)", lambda p: p.b_recent),
              ("A (before the redesign)", lambda p: p.a))
    columns = ("none", "a", "relearn", "since", "last")
    for title, pages_of in groups:
        print(f"\n{title}: F1 of crawl 3 with the patterns of: fallback (none) | A's (old) | "
              "NEWSSTEM_RELEARN | --since | --last" + (" | library relearn()" if library else "")
              + "; by pattern, titles right (relearn / fallback)")
        rows = []
        for pair in pairs:
            pages = [(pair, p) for p in pages_of(pair)]
            line = f"  {pair.corpus + ': ' + pair.name:<52}{len(pages):>3}"
            line += "".join(f"{_f1(pages, exports['crawl-3-' + c]):>8.3f}" for c in columns)
            if library:
                line += f"{_f1(pages, library):>8.3f}"
            line += (f"{_by_pattern(pages, exports['crawl-3-relearn']):>4}/{len(pages):<3}"
                     f"{'{}/{}'.format(*_titles(pages, exports['crawl-3-relearn'])):>7} "
                     f"{'{}/{}'.format(*_titles(pages, exports['crawl-3-none'])):<7}")
            print(line)
            rows.extend(pages)
        for corpus in sorted({pair.corpus for pair in pairs}) + ["all"]:
            part = [(pair, p) for pair, p in rows if corpus in ("all", pair.corpus)]
            line = f"  {'pooled ' + corpus:<52}{len(part):>3}"
            line += "".join(f"{_f1(part, exports['crawl-3-' + c]):>8.3f}" for c in columns)
            if library:
                line += f"{_f1(part, library):>8.3f}"
            line += f"{_by_pattern(part, exports['crawl-3-relearn']):>4}/{len(part):<3}"
            for step in ("crawl-3-relearn", "crawl-3-none"):
                line += "{:>4}/{}".format(*_titles(part, exports[step]))
            print(line)
    before = [(pair, p) for pair in pairs for p in pair.b_recent]
    print(f"\ncrawl 2 (the redesign read with A's patterns): B pages F1 "
          f"{_f1(before, exports['crawl-2']):.3f}, by pattern "
          f"{_by_pattern(before, exports['crawl-2'])} of {len(before)}")
    if library:
        since = exports["crawl-3-since"]
        differ = [
            (pair, p) for pair in pairs for p in pair.a + pair.b_recent + pair.b_new
            if _got(library, pair.url(p)).body != _got(since, pair.url(p)).body
        ]
        print(f"pages where crawl 3 (learn --since's file) differs from the library path: "
              f"{len(differ)}" + "".join(f"\n  {pair.name}: {p.path} library "
                                         f"{_got(library, pair.url(p)).method} "
                                         f"crawl {_got(since, pair.url(p)).method}"
                                         for pair, p in differ[:15]))
    print("\nwall seconds: " + ", ".join(f"{step} {s:.1f}" for step, s in seconds.items()))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", nargs="*", default=list(DEFAULT_CORPORA),
                        help="corpora to serve (default: dragnet cleanportal)")
    parser.add_argument("--min-pages", type=int, default=8,
                        help="least pages of a site (cleanportal's sites are always taken)")
    parser.add_argument("--site", nargs="*", help="only these sites (the corpus's site names)")
    parser.add_argument("--anchors", choices=("labelled", "title", "neutral"), default="labelled",
                        help="anchor texts of the index pages' links (see the module's help)")
    parser.add_argument("--mix", type=int, default=1, metavar="N",
                        help="serve the pages of N corpus sites (of one corpus and half) "
                             "as one site: a site of several layouts")
    parser.add_argument("--depth", type=int, default=1,
                        help="the crawls' depth (2: the pages' own links too, which lead "
                             "off the site or to pages the server does not have)")
    parser.add_argument("--teasers", action="store_true",
                        help="link each page three times from the index: an image, its "
                             "anchor text, \"Read more\"")
    parser.add_argument("--same-store", action="store_true",
                        help="the second crawl with the first's URL store and -a refresh=1, "
                             "as README's step 3 (default: a fresh store); with --redesign, "
                             "crawl 2 with crawl 1's store, no refresh (a daily crawl)")
    parser.add_argument("--no-library", action="store_true",
                        help="skip the library path in sample")
    parser.add_argument("--diff", type=int, default=15, metavar="N",
                        help="list the N pages where the product and library paths differ most")
    parser.add_argument("--redesign", action="store_true",
                        help="the redesign scenario instead: pairs of sites, A's pages then "
                             "B's served by one host (see the module's help; --min-pages, "
                             "--mix, --depth, --teasers and --diff do not apply)")
    parser.add_argument("--redesign-min-site-pages", type=int, metavar="N",
                        help="with --redesign: least pages of a corpus site to pair (default "
                             "10 on dragnet, every cleanportal site, 12 on another)")
    parser.add_argument("--redesign-min-pages", type=int, default=20, metavar="N",
                        help="with --redesign: NEWSSTEM_REDESIGN_MIN_PAGES of the crawls, at "
                             "most the fewest pages crawl 2 reads of a pair (default 20; "
                             "with --days, as given: the daily crawls add up to it)")
    parser.add_argument("--control", action="store_true",
                        help="with --redesign: no redesign, each site's second half of pages "
                             "published after its first (what must not be called a change)")
    parser.add_argument("--days", type=int, default=1, metavar="N",
                        help="with --redesign: B's first half published over N daily "
                             "crawls with crawl 1's URL store (--same-store), judged on "
                             "their pages together")
    parser.add_argument("--keep", type=Path, metavar="DIR",
                        help="write the archive, patterns, exports and logs here and keep them")
    args = parser.parse_args(argv)
    root = corpora_root()
    if root is None:
        print("No corpora found (../shared/corpora or $NEWSSTEM_CORPORA): benchmark skipped.")
        return 0
    if shutil.which("scrapy") is None:
        print("scrapy is not on PATH: activate the virtualenv first.")
        return 2
    if args.redesign:
        return redesign_main(args, root)
    sites = choose_sites(root, args.corpus, args.min_pages, args.anchors)
    if args.site:
        sites = [s for s in sites if s.key in args.site]
    if args.mix > 1:
        sites = mixed(sites, args.mix)
    if not sites:
        print("no site with enough pages")
        return 0
    work = args.keep or Path(tempfile.mkdtemp(prefix="crawl-learn-"))
    work.mkdir(parents=True, exist_ok=True)
    for name in ("urldb-1.sqlite", "urldb-2.sqlite", "first.warc.gz", "first.jsonl",
                 "second.jsonl"):
        (work / name).unlink(missing_ok=True)
    for name in ("patterns-none", "patterns"):
        shutil.rmtree(work / name, ignore_errors=True)
        (work / name).mkdir()
    print(f"{len(sites)} sites, {sum(len(s.pages) for s in sites)} pages; files in {work}")
    seconds: dict[str, float] = {}
    try:
        for site in sites:
            serve(site, args.teasers)
        seconds["crawl 1"] = run("crawl 1", crawl_command(
            sites, work / "first.jsonl", work / "urldb-1.sqlite", work / "patterns-none",
            work / "first.warc.gz", args.depth), work / "crawl-1.log")
        seconds["learn"] = run("learn", [
            "scrapy", "learn", "--input", str(work / "first.warc.gz"),
            "--out", str(work / "patterns")], work / "learn.log")
        second = crawl_command(
            sites, work / "second.jsonl",
            work / ("urldb-1.sqlite" if args.same_store else "urldb-2.sqlite"),
            work / "patterns", None, args.depth)
        if args.same_store:  # README's step 3: the first crawl's store, refresh=1
            second[3:3] = ["-a", "refresh=1"]
        seconds["crawl 2"] = run("crawl 2", second, work / "crawl-2.log")
    finally:
        for site in sites:
            if site.server:
                shut_down(site.server)
    first, second = read_items(work / "first.jsonl"), read_items(work / "second.jsonl")
    library: dict[str, Outcome] = {}
    library_fallback: dict[str, Outcome] = {}
    if not args.no_library:
        started = time.perf_counter()
        for site in sites:
            learned, alone = library_path(site)
            library.update(learned)
            library_fallback.update(alone)
        seconds["library path"] = time.perf_counter() - started
    # a page of the corpus that is a copy of another (blog1_8 and blog1_15 of cleanportal,
    # one article at two URLs) is rightly exported once: copies are scored in no column
    dropped = copies(work / "crawl-1.log") | copies(work / "crawl-2.log")
    rows = [
        Row(site, p, outcome(first.get(site.url(p))), outcome(second.get(site.url(p))),
            library.get(site.url(p)), library_fallback.get(site.url(p)))
        for site in sites for p in site.pages if site.url(p) not in dropped
    ]
    if dropped:
        print(f"pages dropped as copies of another page exported, not scored: {len(dropped)}")
    pattern_files = sorted((work / "patterns").glob("*.json"))
    print(f"pattern files written by scrapy learn: {len(pattern_files)} of {len(sites)} sites")
    report(rows, seconds)
    if library:
        differences(rows, args.diff)
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
