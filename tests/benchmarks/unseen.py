"""A check on pages no one here tuned on: the article pages of newspaper4k's own tests.

    python tests/benchmarks/unseen.py newspaper4k-0.9.6.tar.gz
    python tests/benchmarks/unseen.py --cache-dir ~/.cache/newsstem-unseen   # pip fetches it
    python tests/benchmarks/unseen.py SDIST --extractors newsstem trafilatura newspaper

The source distribution of newspaper4k carries about thirty real pages of news sites
(``tests/data/html/NAME.html``: English, Arabic, Chinese, Japanese, Thai, Burmese,
Spanish, Latvian and more) and, for most, the article text its tests expect
(``tests/data/txt/NAME.txt``) and its metadata (``tests/data/metadata/NAME.json``:
title, authors, URL). This script reads them straight from the archive (nothing is
unpacked or kept), pairs each page with its text by name and scores newsstem,
trafilatura and readability-lxml side by side in one run, as ``extraction.py`` runs
them (the same calls, interleaved page by page, pages/s of the extraction call alone):
token-shingle F1 (:mod:`newsstem.evaluation`), and on characters too for the pages
written without spaces (Chinese, Japanese, Korean as ``extraction.py`` decides it;
Thai, Lao, Burmese and Khmer likewise). The ten pages where newsstem loses most to
trafilatura are listed with what it lost (expected lines it misses) or kept (lines of
its output the expected text lacks). Titles and authors are scored against the
metadata where the archive has it (newsstem's headline as a crawl exports it, from
the one page without the site's other pages; trafilatura's ``extract_metadata``;
readability-lxml's ``short_title``).

Skipped, and listed: a page without an expected text (the archive's front pages, feed
and redirect pages have none), an expected text without its page, and a page that is
no article (a feed; a redirect page; an empty expected text).

Read the figures for what they are:

- The expected texts were written by newspaper's authors for newspaper's own output (its
  tests compare ``article.text`` with them): they follow its choices (no headline, no
  captions, its paragraph breaks) and favour it. newspaper4k itself is scored only when
  installed and named (``--extractors ... newspaper``).
- About thirty pages: one page moves a figure by a few hundredths.
- This set is a CHECK ONLY. No rule is designed from it, no threshold is set on it and
  no page of it becomes a fixture: it stays a set of pages no one here tuned on.

The archive is given as a path, or fetched with ``pip download newspaper4k==VERSION
--no-binary :all: --no-deps`` into ``--cache-dir`` (reused when already there). The
pages are not committed.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import re
import subprocess
import sys
import tarfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repo, when run as a script
sys.path.insert(0, str(Path(__file__).resolve().parent))  # extraction.py beside this file

from corpora import CorpusPage
from extraction import CJK_PAGE_SHARE, EXTRACTORS, DEFAULT_EXTRACTORS, OURS, PEER, Run
from extraction import is_cjk, run_corpus

from newsstem.encoding import decode_html
from newsstem.evaluation import (
    SHINGLE_SIZE, UNSPACED_CHARACTERS, score_corpus, score_page, shingles,
)
from newsstem.text import meaningful_length

CORPUS = "newspaper4k"
RELEASE = "0.9.6"  # the release whose pages were first scored (docs/benchmarks.md)
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


def pair_pages(sdist: Path) -> Pairing:
    """The pages of ``sdist`` (a newspaper4k source archive) with their expected texts:
    ``tests/data/html/NAME.html`` with ``tests/data/txt/NAME.txt`` and, when there,
    ``tests/data/metadata/NAME.json``; the rest in ``skipped`` with the reason."""
    files: dict[str, dict[str, bytes]] = {"html": {}, "txt": {}, "metadata": {}}
    suffixes = {"html": ".html", "txt": ".txt", "metadata": ".json"}
    with tarfile.open(sdist) as archive:
        for member in archive:
            path = PurePosixPath(member.name)
            if not member.isfile() or len(path.parts) < 5:
                continue
            folder, kind = PurePosixPath(*path.parts[1:-2]), path.parts[-2]
            if folder != DATA or kind not in files or path.suffix != suffixes[kind]:
                continue
            handle = archive.extractfile(member)
            if handle is not None:
                files[kind][path.stem] = handle.read()
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


def by_character(text: str) -> bool:
    """Whether a page is scored on characters too: CJK as ``extraction.py`` decides it,
    or as large a share of Thai, Lao, Burmese or Khmer letters and digits among its
    meaningful characters."""
    if is_cjk(text):
        return True
    meaningful = meaningful_length(text)
    return bool(meaningful) and len(_UNSPACED.findall(text)) >= CJK_PAGE_SHARE * meaningful


def fetch_sdist(cache_dir: Path, release: str) -> Path:
    """newspaper4k's source archive of ``release`` in ``cache_dir``, fetched by pip the
    first time (pip reads its index from the user's own configuration)."""
    cached = cache_dir / f"newspaper4k-{release}.tar.gz"
    if cached.is_file():
        return cached
    cache_dir.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-m", "pip", "download", f"newspaper4k=={release}",
               "--no-binary", ":all:", "--no-deps", "--quiet", "-d", str(cache_dir)]
    done = subprocess.run(command, check=False)
    if done.returncode != 0 or not cached.is_file():
        raise SystemExit(f"pip could not fetch newspaper4k {release} into {cache_dir}: "
                         "give the archive's path instead")
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


def report_texts(pairing: Pairing, runs: dict[str, Run], worst: int) -> None:
    pages = pairing.pages
    print(f"\n{len(pages)} pages scored; expected texts written by newspaper's authors for "
          "newspaper's own output (they favour it); a check only: nothing is tuned on it")
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
    ours = runs.get(OURS)
    if ours is not None and ours.seconds:
        for peer, run in runs.items():
            if peer != OURS and run.seconds:
                print(f"  speed {OURS} / {peer}: {run.seconds / ours.seconds:.2f}x")
    if ours is not None and PEER in runs:
        report_losses(pages, runs, worst)


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


def report_skipped(pairing: Pairing) -> None:
    print(f"skipped {len(pairing.skipped)}:")
    for name, reason in pairing.skipped.items():
        print(f"  {name}: {reason}")


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sdist", nargs="?", type=Path,
                        help="newspaper4k's source archive (.tar.gz); absent: --cache-dir")
    parser.add_argument("--cache-dir", type=Path, metavar="DIR",
                        help="where pip downloads the archive when no path is given "
                        "(and where a later run finds it)")
    parser.add_argument("--release", default=RELEASE,
                        help=f"newspaper4k release to download (default {RELEASE})")
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
    parser.add_argument("--no-titles", action="store_true", help="skip titles and authors")
    args = parser.parse_args(None if argv is None else list(argv))
    if args.sdist is None and args.cache_dir is None:
        parser.error("give newspaper4k's source archive, or --cache-dir to download it there")
    sdist = args.sdist or fetch_sdist(args.cache_dir, args.release)
    try:
        pairing = pair_pages(sdist)
    except (OSError, tarfile.TarError) as error:
        parser.error(f"cannot read {sdist}: {error}")
    print(f"{sdist.name}: {len(pairing.pages)} pages with an expected text")
    report_skipped(pairing)
    if not pairing.pages:
        return 1
    runs = timed_runs(pairing.pages, args.extractors, args.rounds)
    report_texts(pairing, runs, args.worst)
    if not args.no_titles:
        report_titles(pairing)
    return 0


if __name__ == "__main__":
    sys.exit(main())
