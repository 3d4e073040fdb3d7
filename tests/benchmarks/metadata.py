"""Metadata and encoding benchmark: newsstem vs trafilatura on the labelled pages, one run.

    python tests/benchmarks/metadata.py [--repeat N] [--verbose] [--show-held-out]
        [--held-out | --headlines | --author-precision | --corpus-encodings | --scaling]
    python tests/benchmarks/metadata.py --first-lines [-v] [--half H] [--save F] [--compare F]

Labelled set: tests/fixtures/metadata/labels.jsonl (57 pages of 43 sites from the
Mozilla, CleanPortalEval and L3S corpora; expected values read off each page, see
SOURCES.md there). Scored:

- published: the same calendar day as labelled (as the page writes it, its own
  time zone); pages labelled with no date count as right when no date is given;
- authors: the same set of names (case and spacing ignored); pages whose authors
  are not labelled are skipped;
- language: the same primary subtag (``zh-TW`` matches ``zh``). trafilatura's
  metadata has no language; the markup alone (``<html lang>``) is shown instead;
- speed: milliseconds per page of each metadata call alone, interleaved per page,
  next to newsstem's readability extraction of the same page (what a crawl already
  spends per page).

``--headlines`` scores the exported title, the authors and the publication day on the
labelled pages of ../shared/corpora/fundus (133 news pages of 2024-2026, 94 publishers,
20+ languages; each publisher's own headline, authors and date in ``meta``), by the
fixed halves of :func:`corpora.halves` (tune / held-out, by publisher), newsstem and
trafilatura side by side; and the title on chaos and cleanportal, whose gold text
starts with the headline as a reader sees it (compared with case and punctuation
ignored). newsstem's title is what a crawl exports: :func:`extract_page`'s title
weighed with the page's own statements by :func:`extract_metadata`, the site-name
affixes learned from the site's other pages in the corpus (:class:`SiteNames`).
Scored: title exact (spacing and invisible characters ignored), exact up to quote
and dash style, lenient (one contains the other); authors exact set and overlap
(the share of labelled names found); persons overlap, the same with the labels that
name an agency, a desk or the publisher itself set aside (fundus labels follow the
publishers' credits, ``dpa``, ``BBC News``; README's authors are people, an agency
only where no person is named); day. ``--verbose`` lists the misses of the tuning
half: fundus titles and authors, chaos and cleanportal titles.

``--first-lines`` scores the exported title (as ``--headlines`` computes it) on every
corpus without headline labels (dragnet, l3s, cleaneval-dev, mozilla) against the gold
text's first line with the lines that carry on its sentence (:func:`corpora.gold_headline`),
only on the pages where one of the page's own title statements (the heading, JSON-LD,
og:title, the ``<title>`` alone or with an affix) says that line
(``learned.scored_headline``): the headline a reader sees, where the page names it. By
corpus and half, with readability's title and trafilatura's in the same run; ``-v`` lists
the tuning misses with the page's title statements, ``--save F`` writes every page's
exported title (JSON) and ``--compare F`` lists the tuning pages whose title changed
against such a file (held-out ones counted); ``--half tune`` reads the tuning pages alone.

Rules are designed from tuning pages only, so no mode lists a held-out page (its misses,
junk names or authors) unless ``--show-held-out`` asks for it (to report on a finished rule,
not to find one); the held-out figures are printed all the same.

``--corpus-encodings`` re-encodes every page of the corpora instead (CJK pages
into Shift_JIS/EUC-JP or GBK, the others into windows-1252) and counts identical
decodings.

``--author-precision`` runs :func:`extract_metadata` on every corpus page and counts, by
half, the pages with authors, their sources, and the names that
:func:`author_names.doubt` finds not plausibly a person's (listed; organisations apart).

``--scaling`` times :func:`extract_metadata` and readability's extraction (CPU
seconds, one call) on synthetic pages of 5,000 to 40,000 paragraphs (an endless live
blog, an archive page, a forum dump): ``<p>`` after ``<p>`` in an ``<article>``, and
each in its own ``<div>`` with a link in every 50th, a byline first. The time per
1,000 paragraphs should stay about the same as the page grows; a step that walks the
tree once per element shows as a column that doubles with each row. No corpora needed.

``--held-out`` scores 12 more pages (holdout.jsonl) labelled after the extractor
was frozen, read from ../shared/corpora (or $NEWSSTEM_CORPORA).

Encoding round trip: the Chinese, Japanese and European pages re-encoded into
their legacy encodings with the charset declaration removed must decode to the
identical text, and readability must find the identical title and body.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import statistics
import sys
import time
import warnings
from collections import Counter, defaultdict
from pathlib import Path
from urllib.parse import urlsplit

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))  # corpora, learned, author_names

import trafilatura  # noqa: E402
from lxml import html as lxml_html  # noqa: E402

from newsstem.encoding import decode_html  # noqa: E402
from newsstem.extraction import extract_page  # noqa: E402
from newsstem.metadata import extract_metadata  # noqa: E402
from newsstem.metadata.evidence import collect_evidence, parse_html  # noqa: E402
from newsstem.metadata.headline import SiteNames, comparable, headline_candidates  # noqa: E402
from newsstem.metadata.language import normalize_tag, primary  # noqa: E402
from newsstem.readability import extract  # noqa: E402

FIXTURES = REPO / "tests" / "fixtures" / "metadata"
# Re-encodings of the round trip: the page, the legacy encodings its text fits in.
ROUND_TRIPS = {
    "gmw": ("gbk", "gb18030"),
    "youth": ("gbk", "gb18030"),
    "qq": ("gbk", "gb18030"),
    "pixnet": ("big5", "cp950"),
    "yahoo-4": ("shift_jis", "euc_jp", "cp932", "iso2022_jp"),
    "aktualne": ("cp1250", "iso8859_2"),
    "heise": ("cp1252",),
    "lemonde": ("cp1252",),
    "folha": ("cp1252",),
    "videos-2": ("cp1252",),
}
_DECLARATION = re.compile(
    r"<meta\b[^>]*(?:charset|http-equiv\s*=\s*[\"']?content-type)[^>]*>|<\?xml[^>]*\?>", re.I
)


CORPORA = Path(os.environ.get("NEWSSTEM_CORPORA", REPO.parent / "shared" / "corpora"))
_HELD_OUT: dict[str, dict] = {}


def load_labels(held_out: bool = False) -> list[dict]:
    """The labelled fixtures, or the held-out pages (labelled after the code was frozen,
    read from the corpora: they are no fixtures, so nothing was tuned on them)."""
    name = "holdout.jsonl" if held_out else "labels.jsonl"
    labels = [json.loads(line) for line in (FIXTURES / name).read_text(encoding="utf-8").splitlines()]
    if held_out:
        _HELD_OUT.update({label["name"]: label for label in labels})
    return labels


def page_html(name: str) -> str:
    if name in _HELD_OUT:
        label = _HELD_OUT[name]
        index = (CORPORA / label["corpus"] / "index.jsonl").read_text().splitlines()
        entry = next(json.loads(row) for row in index if json.loads(row)["id"] == label["id"])
        return decode_html((CORPORA / label["corpus"] / entry["html"]).read_bytes())[0]
    return gzip.decompress((FIXTURES / "pages" / f"{name}.html.gz").read_bytes()).decode("utf-8")


def _names(values: list[str] | None) -> set[str]:
    return {" ".join(v.split()).casefold() for v in values or [] if v.strip()}


# News agencies, by the names their credits use. The benchmark's own list (the extractor
# has none like it): it only sets labels apart for the "persons" overlap below.
_AGENCIES = frozenset([
    *"ap afp dpa reuters ansa efe kyodo xinhua tass ria pa kna epd apa sda ats ntb tt ritzau "
    "anp belga yonhap cna aap pti ians ani anadolu aa bernama antara".split(),
    "associated press", "agence france-presse", "deutsche presse-agentur", "press association",
])
# Words of an editorial desk's credit, in the fundus languages ("Redaktion hessenschau.de").
_DESK_WORDS = re.compile(r"redaktion|redacci[oó]n|r[ée]daction|redazione|redactie|staff|編集部", re.I)


def _compact(text: str) -> str:
    return re.sub(r"[\W_]+", "", text.casefold())


def _organisation_label(name: str, publisher: list[str]) -> bool:
    """Does a labelled author name an agency, a desk or the publisher, not a person?

    README's authors are people: an agency is an author only where no person is named,
    the publisher and its desks never. fundus labels follow the publishers' own
    credits, which often name them (``dpa``, ``BBC News``, ``mbl.is``); the "persons"
    overlap sets such labels aside to show how much of the gap is that convention.
    ``publisher``: the page's own names for itself (og:site_name, the JSON-LD
    publisher, the host). An agency is its whole name or a first word written as a
    code ("AFP Deutschland", "dpa"), not a capitalised first name ("Ria Smith").
    """
    from author_names import ORGANISATION, doubt

    if doubt(name) in (ORGANISATION, "web address") or _DESK_WORDS.search(name):
        return True
    first = name.replace(",", " ").split()[0] if name.split() else ""
    if name.casefold() in _AGENCIES or (first.casefold() in _AGENCIES and not first.istitle()):
        return True
    own = _compact(name)
    return len(own) > 3 and any(own in _compact(p) for p in publisher if p)


def _day(value: str | None) -> str | None:
    return value[:10] if value else None


def _language_ok(expected: str, found: str | None) -> bool:
    return bool(found) and primary(normalize_tag(found) or "") == primary(expected)


def run(repeat: int, verbose: bool, held_out: bool = False, show_held_out: bool = False) -> int:
    labels = load_labels(held_out)
    scores = {tool: {"date": 0, "date_n": 0, "authors": 0, "authors_n": 0, "lang": 0}
              for tool in ("newsstem", "trafilatura", "markup")}
    times: dict[str, list[float]] = {"newsstem": [], "trafilatura": [], "readability": []}
    misses = []
    for label in labels:
        html = page_html(label["name"])
        url = label.get("url")
        ours = theirs = None
        for _ in range(repeat):
            start = time.perf_counter()
            article = extract(html, url=url)  # the crawl's extraction step, for scale
            times["readability"].append(time.perf_counter() - start)
            start = time.perf_counter()
            # As in the crawl: the article text checks the declared language.
            ours = extract_metadata(html, url=url, text=article.body or None)
            times["newsstem"].append(time.perf_counter() - start)
            start = time.perf_counter()
            theirs = trafilatura.extract_metadata(html, default_url=url)
            times["trafilatura"].append(time.perf_counter() - start)
        assert ours is not None
        their_date = theirs.date if theirs else None
        their_authors = (theirs.author or "").split("; ") if theirs and theirs.author else []
        markup_lang = lxml_html.fromstring(html.encode("utf-8")).get("lang")
        expected_day = label["published"]
        for tool, day in (("newsstem", _day(ours.published)), ("trafilatura", _day(their_date))):
            scores[tool]["date_n"] += 1
            scores[tool]["date"] += day == expected_day
        if label["authors"] is not None:
            for tool, found in (("newsstem", ours.authors), ("trafilatura", their_authors)):
                scores[tool]["authors_n"] += 1
                scores[tool]["authors"] += _names(found) == _names(label["authors"])
        scores["newsstem"]["lang"] += _language_ok(label["language"], ours.language)
        scores["markup"]["lang"] += _language_ok(label["language"], markup_lang)
        wrong = []
        if _day(ours.published) != expected_day:
            wrong.append(f"published {ours.published} != {expected_day} ({ours.sources.get('published')})")
        if label["authors"] is not None and _names(ours.authors) != _names(label["authors"]):
            wrong.append(f"authors {ours.authors} != {label['authors']} ({ours.sources.get('authors')})")
        if not _language_ok(label["language"], ours.language):
            wrong.append(f"language {ours.language} != {label['language']}")
        if wrong:
            misses.append((label["name"], wrong))
        if verbose and (show_held_out or not held_out):
            print(f"{label['name']:16} ours {ours.published} {ours.authors} {ours.language} | "
                  f"trafilatura {their_date} {their_authors}")

    n = len(labels)
    sites = len({label["site"] for label in labels})
    print(f"labelled pages: {n} ({sites} sites); "
          f"authors labelled on {scores['newsstem']['authors_n']}")
    print(f"{'':12} {'published (same day)':>22} {'authors exact':>16} {'language':>12} {'ms/page':>9}")
    for tool in ("newsstem", "trafilatura"):
        s = scores[tool]
        lang = f"{s['lang']}/{n}" if tool == "newsstem" else "n/a"
        print(f"{tool:12} {_pct(s['date'], s['date_n']):>22} {_pct(s['authors'], s['authors_n']):>16} "
              f"{lang:>12} {statistics.median(times[tool]) * 1000:>9.1f}")
    s = scores["markup"]
    print(f"{'<html lang>':12} {'':>22} {'':>16} {_pct(s['lang'], n):>12}")
    mean_ours = statistics.mean(times["newsstem"]) * 1000
    mean_theirs = statistics.mean(times["trafilatura"]) * 1000
    mean_extraction = statistics.mean(times["readability"]) * 1000
    print(f"mean ms/page: newsstem {mean_ours:.1f}, trafilatura {mean_theirs:.1f} "
          f"(ratio {mean_theirs / mean_ours:.1f}x); newsstem readability extraction "
          f"{mean_extraction:.1f} (metadata adds {100 * mean_ours / mean_extraction:.0f}% to it)")
    if held_out and not show_held_out:
        print(f"{len(misses)} pages with a miss (--show-held-out lists them)")
        misses = []
    for name, wrong in misses:
        print(f"  miss {name}: " + "; ".join(wrong))
    return 0 if held_out else round_trip()


def _pct(hits: int, total: int) -> str:
    return f"{hits}/{total} {100 * hits / total:.1f}%" if total else "-"


def round_trip() -> int:
    text_same = extraction_same = total = 0
    failures = []
    for name, encodings in ROUND_TRIPS.items():
        original = _DECLARATION.sub("", page_html(name))
        for encoding in encodings:
            legacy = original.encode(encoding, errors="xmlcharrefreplace")
            expected = legacy.decode(encoding)  # the text, with unencodable characters as &#...;
            decoded, detected = decode_html(legacy)
            total += 1
            same_text = decoded == expected
            text_same += same_text
            reference, result = extract(expected), extract(legacy)
            same_extraction = (result.title, result.body) == (reference.title, reference.body)
            extraction_same += same_extraction
            if not (same_text and same_extraction):
                failures.append(f"{name}:{encoding} read as {detected}")
    print(f"encoding round trip (no charset declared): text identical {text_same}/{total}, "
          f"readability title+body identical {extraction_same}/{total}")
    for failure in failures:
        print(f"  differs: {failure}")
    return 0 if text_same == total == extraction_same else 1


_KANA = re.compile(r"[\u3040-\u30ff]")
_HAN_RUN = re.compile(r"[\u4e00-\u9fff]{20}")


def corpus_round_trip() -> int:
    """Every corpus page re-encoded without its declaration into the legacy encoding
    its text calls for (Japanese: Shift_JIS and EUC-JP, Chinese: GBK, others:
    windows-1252 with character references for what it lacks): identical text?"""
    counts: dict[str, list[int]] = {}
    failures = []
    start = time.perf_counter()
    for corpus in sorted(p.name for p in CORPORA.iterdir() if (p / "index.jsonl").is_file()):
        for row in (CORPORA / corpus / "index.jsonl").read_text().splitlines():
            entry = json.loads(row)
            text, _ = decode_html((CORPORA / corpus / entry["html"]).read_bytes())
            text = _DECLARATION.sub("", text)
            if text.isascii():
                continue
            if _HAN_RUN.search(text):
                encodings = ("shift_jis", "euc_jp") if _KANA.search(text) else ("gbk",)
            else:
                encodings = ("cp1252",)
            for encoding in encodings:
                legacy = text.encode(encoding, errors="xmlcharrefreplace")
                if _is_utf8(legacy) or legacy.startswith(b"\xef\xbb\xbf"):
                    continue  # the page holds UTF-8 mojibake: its bytes are UTF-8 (or a BOM) again
                same = decode_html(legacy)[0] == legacy.decode(encoding)
                counts.setdefault(encoding, [0, 0])[same] += 1
                if not same:
                    failures.append(f"{corpus}/{entry['id']}:{encoding}")
    elapsed = time.perf_counter() - start
    print("corpus pages re-encoded without a declaration, text identical: " + ", ".join(
        f"{enc} {ok}/{ok + bad}" for enc, (bad, ok) in sorted(counts.items())
    ) + f" ({elapsed:.1f} s)")
    for failure in failures:
        print(f"  differs: {failure}")
    return 1 if failures else 0


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


# -- headlines, authors and days of the modern pages (fundus) -------------------------

_INVISIBLE = re.compile("[\u00ad\u200b-\u200f\u2060\ufeff]")
_QUOTE_STYLE = str.maketrans("‘’‚‛“”„‟–—", "''''\"\"\"\"--")


def _exact(text: str) -> str:
    return " ".join(_INVISIBLE.sub("", text).split())


def _lenient(ours: str, gold: str) -> bool:
    a, b = comparable(ours), comparable(gold)
    return bool(a and b) and (a in b or b in a)


def _stated_by(html: str, url: str | None, gold: str) -> str | None:
    """Which of the page's own title statements the label is (None: none of them)."""
    evidence = collect_evidence(parse_html(html), url, html)
    key = comparable(gold)
    return next((source for source, text in headline_candidates(evidence)
                 if comparable(text) == key), None)


# The corpora whose pages label the headline (fundus: meta.title; chaos, cleanportal: the
# gold text's first line); the others are scored by --first-lines.
LABELLED_CORPORA = ("fundus", "chaos", "cleanportal")


class SiteTitles:
    """The ``<title>`` of every page of a corpus, by site: what a crawl has learned the
    site's name from when it reaches a page (its other pages)."""

    def __init__(self, pages: list) -> None:
        self.by_site: dict[str, list] = {}
        for page in pages:
            self.by_site.setdefault(page.site or page.id, []).append(page)
        self.titles = {page.id: extract_metadata(page.html, page.url).page_title for page in pages}

    def names(self, page) -> list[str]:
        """The site names learned from the ``<title>``s of the site's other pages."""
        names = SiteNames()
        for other in self.by_site[page.site or page.id]:
            if other.id != page.id:
                names.add(self.titles[other.id])
        return names.names()


def exported(page, site_titles: SiteTitles):
    """The fallback's extraction of a page and the metadata a crawl exports with it (the
    extraction's title weighed with the page's statements, the site names of
    :class:`SiteTitles`, the body as the text)."""
    extraction = extract_page(page.html, page.url, None, [], min_chars=0)
    ours = extract_metadata(
        page.html, page.url, text=extraction.body or None,
        title_candidates=[("extraction", extraction.title)], site_names=site_titles.names(page),
    )
    return extraction, ours


def headlines(verbose: bool, show_held_out: bool = False) -> int:
    from corpora import gold_headline, halves, load_corpus

    scores: dict[tuple[str, str, str], list[float]] = {}  # (set, tool, measure) -> hits, n

    def score(group: str, tool: str, measure: str, hit: bool | float) -> None:
        cell = scores.setdefault((group, tool, measure), [0, 0])
        cell[0] += hit
        cell[1] += 1

    misses: list[str] = []
    label_kind: dict[str, Counter[str]] = defaultdict(Counter)
    for corpus in LABELLED_CORPORA:
        pages = load_corpus(CORPORA, corpus)
        half = halves(pages)
        labels = {
            json.loads(row)["id"]: json.loads(row).get("meta") or {}
            for row in (CORPORA / corpus / "index.jsonl").read_text().splitlines() if row.strip()
        }
        site_titles = SiteTitles(pages)
        for page in pages:
            label = labels[page.id]
            if corpus == "fundus":
                gold = label["title"]
            else:
                gold = gold_headline(page.gold)
                if gold is None:  # the gold text does not start with a headline
                    continue
            group = f"{corpus}/{half[page.id]}"
            extraction, ours = exported(page, site_titles)
            theirs = trafilatura.extract_metadata(page.html, default_url=page.url)
            publisher = [ours.site_name or "", (theirs.sitename if theirs else "") or "",
                         urlsplit(page.url or "").hostname or ""]
            results = {
                "newsstem": (ours.headline or "", ours.authors, ours.published),
                "readability": (extraction.title, None, None),
                "trafilatura": (
                    (theirs.title if theirs else "") or "",
                    (theirs.author or "").split("; ") if theirs and theirs.author else [],
                    theirs.date if theirs else None,
                ),
            }
            for tool, (title, authors, day) in results.items():
                if corpus == "fundus":
                    score(group, tool, "title", _exact(title) == _exact(gold))
                    score(group, tool, "title~quotes", _exact(title).translate(_QUOTE_STYLE)
                          == _exact(gold).translate(_QUOTE_STYLE))
                else:
                    score(group, tool, "title", comparable(title) == comparable(gold))
                score(group, tool, "lenient", _lenient(title, gold))
                if corpus == "fundus" and authors is not None:
                    expected = _names(label.get("authors"))
                    if expected:
                        found = _names(authors)
                        score(group, tool, "authors", found == expected)
                        score(group, tool, "author overlap", len(found & expected) / len(expected))
                        persons = _names([name for name in label["authors"]
                                          if not _organisation_label(name, publisher)])
                        if persons:
                            score(group, tool, "persons overlap", len(found & persons) / len(persons))
                    score(group, tool, "day", _day(day) == _day(label.get("publishing_date")))
            # the held-out half's pages are not listed: rules are not designed from them
            listed = half[page.id] == "tune" or (show_held_out and corpus == "fundus")
            if corpus == "fundus":
                missed = _exact(ours.headline or "") != _exact(gold)
            else:
                missed = half[page.id] == "tune" and (
                    comparable(ours.headline or "") != comparable(gold))
            if missed:
                same_words = corpus == "fundus" and _exact(ours.headline or "").translate(
                    _QUOTE_STYLE) == _exact(gold).translate(_QUOTE_STYLE)
                stated = "quote style" if same_words else _stated_by(page.html, page.url, gold)
                if corpus == "fundus":
                    label_kind[group][stated or "-"] += 1
                if listed:
                    misses.append(f"  title {group} {page.id}: {ours.headline!r} "
                                  f"({ours.sources.get('headline')}) != {gold!r} "
                                  f"[label stated by: {stated or '-'}]")
            if corpus == "fundus" and listed and label.get("authors") and \
                    _names(ours.authors) != _names(label["authors"]):
                misses.append(f"  authors {group} {page.id}: {ours.authors} "
                              f"({ours.sources.get('authors')}) != {label['authors']}")

    measures = ("title", "title~quotes", "lenient", "authors", "author overlap",
                "persons overlap", "day")
    print("headlines, authors, days (exact: spacing and invisible characters ignored; "
          "chaos/cleanportal titles: case and punctuation ignored)")
    print(f"{'set':22} {'tool':12} " + " ".join(f"{m:>15}" for m in measures))
    for group in sorted({key[0] for key in scores}):
        for tool in ("newsstem", "readability", "trafilatura"):
            cells = []
            for measure in measures:
                hits, n = scores.get((group, tool, measure), (0, 0))
                cells.append(f"{100 * hits / n:>9.1f}% /{n:<3}" if n else f"{'-':>15}")
            print(f"{group:22} {tool:12} " + " ".join(cells))
    for group, kinds in sorted(label_kind.items()):
        print(f"title misses {group}: {sum(kinds.values())}; the labelled headline is the page's "
              + ", ".join(f"{kind} ({count})" for kind, count in kinds.most_common())
              + "  (-: by no source)")
    if verbose:
        print("\n".join(misses))
    else:
        print(f"{len(misses)} misses (--verbose lists them)")
    return 0


# -- headlines of the corpora without labels: the gold text's first line --------------


def first_lines(verbose: bool, show_held_out: bool = False, save: str | None = None,
                compare: str | None = None, only: str | None = None) -> int:
    """The exported title on every corpus without headline labels (dragnet, l3s,
    cleaneval-dev, mozilla) against the gold text's first line, on the pages where one of
    the page's own title statements says it (``learned.scored_headline``), by corpus and
    half; newsstem, readability's title and trafilatura's. ``--save`` writes every page's
    exported title, ``--compare`` lists the tuning pages whose title differs from a saved
    run's (scored or not) and counts the held-out ones; ``only``, one half's pages alone."""
    from corpora import corpora_root, corpus_names, halves, load_corpus
    from learned import scored_headline

    root = corpora_root()
    if root is None:
        print("corpora not found: skipped")
        return 0
    scores: dict[tuple[str, str], list[int]] = {}  # (set, tool) -> hits, n
    misses: list[str] = []
    decisions: dict[str, str] = {}
    previous = json.loads(Path(compare).read_text(encoding="utf-8")) if compare else None
    changed: Counter[str] = Counter()
    changes: list[str] = []
    for corpus in [c for c in corpus_names(root) if c not in LABELLED_CORPORA]:
        pages = load_corpus(root, corpus)
        half = halves(pages)
        site_titles = SiteTitles(pages)
        for page in pages:
            if only and half[page.id] != only:
                continue
            group = f"{corpus}/{half[page.id]}"
            gold = scored_headline(page, None, gold_first_line=True)
            if gold is None and not (save or compare):
                continue
            extraction, ours = exported(page, site_titles)
            key = f"{corpus}/{page.id}"
            decisions[key] = ours.headline or ""
            if previous is not None and previous.get(key) != decisions[key]:
                changed[group] += 1
                if half[page.id] == "tune" or show_held_out:
                    changes.append(f"  {group} {page.id}: {previous.get(key)!r} -> "
                                   f"{decisions[key]!r} (gold first line: {gold!r})")
            if gold is None:
                continue
            theirs = trafilatura.extract_metadata(page.html, default_url=page.url)
            results = {"newsstem": ours.headline, "readability": extraction.title,
                       "trafilatura": theirs.title if theirs else None}
            for tool, title in results.items():
                cell = scores.setdefault((group, tool), [0, 0])
                cell[0] += comparable(title or "") == comparable(gold)
                cell[1] += 1
            if comparable(ours.headline or "") != comparable(gold) and (
                    half[page.id] == "tune" or show_held_out):
                evidence = collect_evidence(parse_html(page.html), page.url, page.html)
                misses.append(
                    f"  miss {group} {page.id}: {ours.headline!r} "
                    f"({ours.sources.get('headline')}) != {gold!r}\n"
                    + "".join(f"      {source}: {text!r}\n"
                              for source, text in headline_candidates(evidence))
                    + f"      extraction: {extraction.title!r}; site names "
                    f"{site_titles.names(page)[:3]}")
    print("titles against the gold text's first line where the page states it (case and "
          "punctuation ignored)")
    print(f"{'set':24} " + " ".join(f"{tool:>18}" for tool in ("newsstem", "readability",
                                                                 "trafilatura")))
    for group in sorted({group for group, _ in scores}):
        print(f"{group:24} " + " ".join(
            f"{_pct(*scores[(group, tool)]):>18}" for tool in ("newsstem", "readability",
                                                                 "trafilatura")))
    if verbose:
        print("\n".join(misses))
    else:
        print(f"{len(misses)} misses listed by --verbose")
    if save:
        Path(save).write_text(json.dumps(decisions, ensure_ascii=False, indent=0),
                              encoding="utf-8")
    if previous is not None:
        print("exported titles changed vs " + compare + ": " + (", ".join(
            f"{group} {n}" for group, n in sorted(changed.items())) or "none"))
        print("\n".join(changes))
    return 0


# -- author precision on every corpus page ----------------------------------------------


def author_precision(verbose: bool, show_held_out: bool = False) -> int:
    """Authors exported on every corpus page, by half: how many pages have any, from which
    source, and the names :func:`author_names.doubt` finds implausible (listed), an
    organisation's name counted apart. Most corpus pages have no labelled authors: this
    counts junk, not recall."""
    from author_names import ORGANISATION, doubt
    from corpora import HALVES, corpus_names, halves, load_corpus

    count: dict[str, Counter[str]] = defaultdict(Counter)  # half -> measure -> count
    by_source: dict[str, Counter[str]] = defaultdict(Counter)
    junk_by_source: dict[str, Counter[str]] = defaultdict(Counter)
    listed: dict[str, list[str]] = defaultdict(list)
    start = time.perf_counter()
    for corpus in corpus_names(CORPORA):
        pages = load_corpus(CORPORA, corpus)
        half = halves(pages)
        for page in pages:
            group = half[page.id]
            meta = extract_metadata(page.html, page.url)
            count[group]["pages"] += 1
            if not meta.authors:
                continue
            source = meta.sources.get("authors", "-").split(":")[0]
            count[group]["with authors"] += 1
            count[group]["names"] += len(meta.authors)
            by_source[group][source] += 1
            if verbose:
                listed[group + " all"].append(
                    f"  {group} {corpus}/{page.id} ({source}): {meta.authors}")
            doubts = [(name, doubt(name)) for name in meta.authors]
            junk = [(name, why) for name, why in doubts if why and why != ORGANISATION]
            count[group]["organisations"] += sum(why == ORGANISATION for _, why in doubts)
            count[group]["junk"] += len(junk)
            count[group]["junk pages"] += bool(junk)
            junk_by_source[group][source] += len(junk)
            listed[group] += [f"  {group} {corpus}/{page.id} ({source}): {name!r} [{why}]"
                              for name, why in doubts if why]
    print(f"authors on every corpus page ({sum(c['pages'] for c in count.values())} pages, "
          f"{time.perf_counter() - start:.0f} s); junk: names not plausibly a person's, "
          "organisations apart (tests/benchmarks/author_names.py)")
    for group in HALVES:
        c = count[group]
        sources = ", ".join(f"{s} {n}" for s, n in by_source[group].most_common())
        print(f"{group:9} pages {c['pages']}, with authors {c['with authors']} "
              f"({c['names']} names) by source: {sources}")
        print(f"{'':9} junk names {c['junk']} on {c['junk pages']} pages, by source: "
              + (", ".join(f"{s} {n}" for s, n in junk_by_source[group].most_common() if n)
                 or "-") + f"; organisations {c['organisations']}")
    shown = [group for group in HALVES if group == "tune" or show_held_out]
    if len(shown) < len(HALVES):
        print("(held-out names not listed: --show-held-out lists them)")
    for group in shown:
        print("\n".join(listed[group]))
    if verbose:
        for group in shown:
            print("\n".join(listed[group + " all"]))
    return 0


SCALING_SIZES = (5_000, 10_000, 20_000, 40_000)


def scaling_page(paragraphs: int, in_divs: bool) -> str:
    """A page of ``paragraphs`` paragraphs (see ``--scaling``)."""
    parts = ["<html><head><title>T</title></head><body><article><h1>Headline</h1>",
             '<p class="byline">By Jane Smith</p>']
    for i in range(paragraphs):
        if not in_divs:
            parts.append(f"<p>Some sentence number {i} with words.</p>")
        elif i % 50 == 0:
            parts.append(f'<div><p>Some sentence {i} with <a href="/x/{i}">a link</a>.</p></div>')
        else:
            parts.append(f"<div><p>Some sentence number {i} with words.</p></div>")
    parts.append("</article></body></html>")
    return "".join(parts)


def scaling() -> int:
    """CPU seconds of one extract_metadata and one readability extract per page size."""
    print("CPU seconds of one call on a synthetic page of N paragraphs (ms per 1,000 paragraphs)")
    print(f"{'page':<16}{'N':>7}{'extract_metadata':>26}{'readability':>24}")
    for name, in_divs in (("<p> in article", False), ("<div><p>, links", True)):
        for size in SCALING_SIZES:
            html = scaling_page(size, in_divs)
            cells = []
            for call in (extract_metadata, extract):
                start = time.process_time()
                call(html)
                seconds = time.process_time() - start
                cells.append(f"{seconds:8.2f} s ({1000 * seconds / (size / 1000):6.1f} ms)")
            print(f"{name:<16}{size:>7}{cells[0]:>26}{cells[1]:>24}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="calls per page and tool (timing)")
    parser.add_argument("-v", "--verbose", action="store_true")
    parser.add_argument("--show-held-out", action="store_true",
                        help="list held-out pages too (their misses, names): to report on a "
                             "rule, not to design one")
    parser.add_argument("--held-out", action="store_true",
                        help="score the held-out pages (holdout.jsonl, read from the corpora)")
    parser.add_argument("--headlines", action="store_true",
                        help="titles, authors and days of the fundus pages (and chaos/cleanportal "
                             "titles), newsstem and trafilatura by half")
    parser.add_argument("--first-lines", action="store_true",
                        help="titles of the corpora without headline labels against the gold "
                             "text's first line where the page states it, by corpus and half")
    parser.add_argument("--save", metavar="FILE",
                        help="with --first-lines: write every page's exported title (JSON)")
    parser.add_argument("--compare", metavar="FILE",
                        help="with --first-lines: list the tuning pages whose exported title "
                             "differs from a --save file's, count the held-out ones")
    parser.add_argument("--half", choices=("tune", "held-out"),
                        help="with --first-lines: only the pages of this half (to design a rule "
                             "on the tuning half alone, faster)")
    parser.add_argument("--corpus-encodings", action="store_true",
                        help="re-encode every corpus page and check decode_html gives its text back")
    parser.add_argument("--author-precision", action="store_true",
                        help="authors of every corpus page by half, with the names that are "
                             "not plausibly a person's (listed)")
    parser.add_argument("--scaling", action="store_true",
                        help="seconds of extract_metadata and readability on synthetic pages of "
                             "5,000 to 40,000 paragraphs (should grow linearly)")
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")  # dateparser's tz-name warnings from htmldate
    if args.scaling:
        return scaling()
    uses_corpora = args.held_out or args.corpus_encodings or args.headlines or args.author_precision
    if uses_corpora and not CORPORA.is_dir():
        print(f"corpora not found at {CORPORA}: skipped")
        return 0
    if args.corpus_encodings:
        return corpus_round_trip()
    if args.first_lines:
        return first_lines(args.verbose, args.show_held_out, args.save, args.compare, args.half)
    if args.headlines:
        return headlines(args.verbose, args.show_held_out)
    if args.author_precision:
        return author_precision(args.verbose, args.show_held_out)
    return run(args.repeat, args.verbose, args.held_out, args.show_held_out)


if __name__ == "__main__":
    sys.exit(main())
