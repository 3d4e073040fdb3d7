"""Redesigns: noticing that a site's pages stopped fitting its patterns, and learning again.

Sites change their templates. A crawl counts, per site with patterns, how its pages
fared (:class:`SiteCounts`); :func:`layout_change` compares that with how the pages the
patterns were learned from fared (the pattern file records it: ``parameters.matched``)
and says, in words, when the site seems to have changed. :func:`relearn` learns the
site again from recent pages, keeps the old patterns of layouts that recent pages still
have and no new pattern covers, and says whether the result reads the recent pages
better than the old patterns. A site whose crawls each read fewer pages than it takes to
judge it (a daily crawl that skips the articles earlier crawls exported) is judged on the
pages of several crawls: :class:`CountsFile` keeps their counts between crawls. No Scrapy
here: the pipeline, ``scrapy learn`` and the crawl's end call these.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, Protocol

from newsstem import defaults
from newsstem.layout.learn import (
    Fallback,
    LearnOptions,
    LearnResult,
    TrainingPage,
    learn,
    matched_share,
    readability_text,
)
from newsstem.layout.patterns import (
    Extraction,
    HubPage,
    LayoutPattern,
    PatternSet,
    SitePatterns,
    dumps,
)

if TYPE_CHECKING:  # (newsstem.extraction imports the layout modules)
    from newsstem.extraction import PageExtraction

logger = logging.getLogger(__name__)

__all__ = [
    "Counts",
    "CountsFile",
    "Relearned",
    "SiteCounts",
    "judge_sites",
    "layout_change",
    "relearn",
    "window_alone",
]

# A site is judged after this many pages of a crawl (NEWSSTEM_REDESIGN_MIN_PAGES's
# default): a few odd pages (a live blog, an error page) prove nothing.
MIN_PAGES = defaults.NEWSSTEM_REDESIGN_MIN_PAGES
# Its layout changed when its pages match its patterns at less than this share of the
# rate of the pages the patterns were learned from ...
MATCH_DROP = 0.5
# ... or when the guard corrected more than this share of the pages that matched an
# article pattern (the layout is still there, its content moved).
MAX_DISAGREED = 1 / 3
# The matched rate assumed for pattern files that do not record theirs (written before
# newsstem recorded it): most pages of a crawl have a learned layout.
ASSUMED_MATCHED = 0.9


@dataclass
class SiteCounts:
    """How the pages of one site fared against its patterns in one crawl."""

    pages: int = 0
    matched: int = 0  # matched an article or a hub pattern
    articles: int = 0  # matched an article pattern
    disagreed: int = 0  # ... and the guard changed or replaced the pattern's text
    # pages with an article: matched an article pattern, or no pattern and the fallback
    # found article text (a page of a hub layout is none)
    article_pages: int = 0

    def add(self, result: PageExtraction) -> None:
        """Count one page's extraction."""
        self.pages += 1
        hub = result.method == "hub"
        if result.pattern_id:
            self.matched += 1
            if not hub:
                self.articles += 1
                self.disagreed += result.disagreed
        if not hub and (result.pattern_id or result.body):
            self.article_pages += 1

    def __add__(self, other: SiteCounts) -> SiteCounts:
        return SiteCounts(*(
            getattr(self, f.name) + getattr(other, f.name) for f in dataclasses.fields(self)
        ))

    @property
    def matched_rate(self) -> float:
        return self.matched / self.pages if self.pages else 0.0

    @property
    def articles_matched_rate(self) -> float:
        """The share of the pages with an article that matched an article pattern: hub
        pages still matching their hub patterns do not hide article layouts lost."""
        return self.articles / self.article_pages if self.article_pages else 0.0


def learned_rate(pattern_set: PatternSet) -> float:
    """The share of its own pages that a pattern set matched when it was learned."""
    value = pattern_set.parameters.get("matched")
    return float(value) if isinstance(value, (int, float)) else ASSUMED_MATCHED


def layout_change(
    counts: SiteCounts, pattern_set: PatternSet, min_pages: int = MIN_PAGES
) -> str | None:
    """Why the site seems to have changed its layout, or None.

    >>> from newsstem.layout.patterns import PatternSet
    >>> patterns = PatternSet("example.com", (), parameters={"matched": 0.95})
    >>> layout_change(SiteCounts(pages=40, matched=3, articles=3), patterns)
    '3 of 40 pages matched its patterns (8%; 95% of the pages they were learned from)'
    >>> layout_change(SiteCounts(pages=40, matched=38, articles=30, disagreed=2), patterns)
    >>> layout_change(SiteCounts(pages=5, matched=0), patterns)

    One of two article layouts redesigned, the hub pages still matching theirs:

    >>> counts = SiteCounts(pages=16, matched=9, articles=6, article_pages=13)
    >>> print(layout_change(counts, patterns, min_pages=10))  # doctest: +ELLIPSIS
    6 of 13 pages with an article matched an article pattern (46%; 95% of the pages they were ...
    """
    if counts.pages < min_pages:
        return None
    expected = learned_rate(pattern_set)
    if counts.matched_rate < MATCH_DROP * expected:
        return (
            f"{counts.matched} of {counts.pages} pages matched its patterns "
            f"({counts.matched_rate:.0%}; {expected:.0%} of the pages they were learned from)"
        )
    if (
        counts.article_pages >= min_pages
        and counts.articles_matched_rate < MATCH_DROP * expected
    ):
        return (
            f"{counts.articles} of {counts.article_pages} pages with an article matched an "
            f"article pattern ({counts.articles_matched_rate:.0%}; {expected:.0%} of the pages "
            "they were learned from)"
        )
    if counts.articles and counts.disagreed > MAX_DISAGREED * counts.articles:
        return (
            f"the guard corrected the patterns' text on {counts.disagreed} of "
            f"{counts.articles} pages that matched an article pattern"
        )
    return None


def patterns_key(pattern_set: PatternSet) -> str:
    """A short digest of a pattern set's file: it changes when the site is learned again
    (or its file edited), which starts a new window of :class:`CountsFile`."""
    return hashlib.sha1(dumps(pattern_set).encode("utf-8")).hexdigest()[:16]


@dataclass(frozen=True)
class Window:
    """The pages of one site counted, by earlier crawls, since its patterns were written
    or last judged: ``since`` (ISO 8601 UTC) is when the first of those crawls started."""

    patterns: str  # patterns_key() of the pattern set they were counted against
    since: str
    counts: SiteCounts


class Counts(Protocol):
    """Where the counts of crawls that read too few of a site's pages wait until enough
    add up: :class:`CountsFile`, or the shared Redis URL store's
    (:class:`newsstem.urldb.redis_store.RedisRedesignCounts`: workers of several machines
    add up one another's counts)."""

    def add(
        self, site: str, patterns: str, started: str, counts: SiteCounts, min_pages: int
    ) -> Window | None: ...


class CountsFile:
    """The per-site counts of the crawls that read too few of a site's pages to judge it,
    kept in a small JSON file until enough pages add up.

    At its end a crawl adds (:meth:`add`) its own counts of a site to the site's window (the
    counts of earlier crawls against the same patterns) and judges the site when the sum
    reaches the least number of pages; the window then starts again empty, and so it does when the
    site's patterns change (learned again, edited). The file is read and written once, at
    the crawl's end (written whole to a temporary file, then renamed: a crash leaves the
    old file or the new one, never half of one; two crawls ending at once may lose one's
    counts). A file that cannot be read or parsed is one warning, and starts empty.
    """

    VERSION = 1

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.windows: dict[str, Window] = self._read()

    def _read(self) -> dict[str, Window]:
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return {}
        except (OSError, UnicodeDecodeError) as error:
            return self._reset(f"cannot be read ({error})")
        try:
            data = json.loads(text)
            if data.get("version") != self.VERSION:
                return self._reset(f"has version {data.get('version')!r}, not {self.VERSION}")
            return {
                str(site): Window(
                    str(entry["patterns"]), str(entry["since"]),
                    SiteCounts(**{f.name: int(entry[f.name])
                                  for f in dataclasses.fields(SiteCounts)}),
                )
                for site, entry in data["sites"].items()
            }
        except (ValueError, TypeError, KeyError, AttributeError) as error:
            return self._reset(f"is not a counts file ({type(error).__name__}: {error})")

    def _reset(self, problem: str) -> dict[str, Window]:
        logger.warning(
            "newsstem: the redesign counts file %s %s: it starts again empty (sites are "
            "judged on the pages read from now on)", self.path, problem,
        )
        return {}

    def add(
        self, site: str, patterns: str, started: str, counts: SiteCounts, min_pages: int
    ) -> Window | None:
        """Add a crawl's ``counts`` of a site (counted against the patterns whose
        :func:`patterns_key` is ``patterns``; the crawl started at ``started``) to its
        window: the window to judge once it holds ``min_pages`` pages (it is then removed
        from the file: counting starts again), else None (kept for the next crawls). A
        window counted against other patterns is dropped."""
        earlier = self.windows.pop(site, None)
        window = Window(patterns, started, counts)
        if earlier is not None and earlier.patterns == patterns:
            window = Window(patterns, min(earlier.since, started), counts + earlier.counts)
        if window.counts.pages < min_pages:
            self.windows[site] = window
            return None
        return window

    def save(self) -> None:
        """Write the file (atomically); raises OSError if it cannot be written."""
        data = {
            "version": self.VERSION,
            "sites": {
                site: {"patterns": w.patterns, "since": w.since, **dataclasses.asdict(w.counts)}
                for site, w in sorted(self.windows.items())
            },
        }
        tmp = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")
        try:
            tmp.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
            tmp.replace(self.path)
        finally:
            tmp.unlink(missing_ok=True)


def window_alone(
    patterns: str, started: str, counts: SiteCounts, min_pages: int
) -> Window | None:
    """A crawl's own ``counts`` of a site as the window to judge, with no earlier crawl's
    counts: None when they hold fewer than ``min_pages`` pages."""
    return Window(patterns, started, counts) if counts.pages >= min_pages else None


def judge_sites(
    crawled: Mapping[str, SiteCounts],
    pattern_sets: Mapping[str, PatternSet],
    started: str,
    counts_file: Counts | None,
    min_pages: int = MIN_PAGES,
) -> dict[str, tuple[str | None, Window]]:
    """Judge the sites a crawl started at ``started`` read: site -> (why its layout
    seems changed or None, the pages judged). A site is judged on this crawl's pages
    plus those of earlier crawls ``counts_file`` kept against the same patterns, once
    they reach ``min_pages``; a site with fewer is not judged (absent) and its counts are
    kept in ``counts_file`` for the next crawls. Without ``counts_file``, each crawl is
    judged alone."""
    judged: dict[str, tuple[str | None, Window]] = {}
    for site, counts in sorted(crawled.items()):
        pattern_set = pattern_sets.get(site)
        if pattern_set is None:
            continue
        key = patterns_key(pattern_set)  # once per site: a digest of the whole file
        if counts_file is not None:
            window = counts_file.add(site, key, started, counts, min_pages)
        else:
            window = window_alone(key, started, counts, min_pages)
        if window is not None:
            judged[site] = (layout_change(window.counts, pattern_set, min_pages), window)
    return judged


@dataclass(frozen=True)
class Relearned:
    """What learning a site again from recent pages gave."""

    result: LearnResult  # the new learning
    pattern_set: PatternSet  # new patterns, plus the old ones still needed
    kept: tuple[str, ...]  # ids of the old patterns kept: recent pages need them
    old_fit: float  # share of the recent pages the old patterns read well
    new_fit: float  # the same for pattern_set
    # ids (in the new set) of the old patterns kept that no recent page matched
    unseen: tuple[str, ...] = field(default=())
    # ids (in the old file) of old patterns no recent page matched that were left out:
    # they would have read recent pages in place of the new patterns
    dropped: tuple[str, ...] = field(default=())

    @property
    def better(self) -> bool:
        """The new pattern set reads the recent pages better than the old one."""
        return self.new_fit > self.old_fit


def relearn(
    site: str,
    pages: Sequence[TrainingPage],
    old: PatternSet | None,
    options: LearnOptions | None = None,
    fallback: Fallback | None = None,
) -> Relearned:
    """Learn ``site`` again from ``pages`` (recent pages of the site).

    The old patterns of layouts that some recent pages still have, and that no new
    pattern matches on those pages, are kept (renumbered after the new ones when their
    ids collide). So are the old patterns that no recent page matched (``unseen``: a
    layout the recent pages happen not to have, a gallery or a section front of the
    site, is not dropped for that), unless one of them would read a recent page in
    place of the new patterns (``dropped``: it would no longer read only its own
    layout). How well a pattern set reads the recent pages (its *fit*) is the
    share of pages that match one of its patterns, less the share whose article the
    guard had to correct: a redesign lowers the first, a move of the article inside a
    kept template the second.
    """
    from newsstem.extraction import extract_page  # (extraction imports layout modules)

    fallback = fallback or readability_text
    result = learn(site, pages, options, fallback=fallback)
    new = result.pattern_set
    kept = (
        _keep_old(site, new, old, pages) if old is not None and old.patterns
        else _OldKept(new.patterns, (), (), ())
    )
    merged = dataclasses.replace(new, patterns=kept.patterns)

    def fit(pattern_set: PatternSet | None) -> float:
        if pattern_set is None or not pattern_set.patterns or not pages:
            return 0.0
        site_patterns = SitePatterns(pattern_set)
        good = 0
        for page in pages:
            extraction = extract_page(page.html, page.url, site_patterns)
            good += bool(extraction.pattern_id) and not extraction.disagreed
        return good / len(pages)

    merged = dataclasses.replace(
        merged, parameters={**merged.parameters, "matched": round(matched_share(merged, pages), 3)}
    )
    return Relearned(
        result, merged, kept.kept, fit(old), fit(merged), unseen=kept.unseen, dropped=kept.dropped
    )


class _OldKept(NamedTuple):
    """What :func:`relearn` keeps of the old patterns (ids as in :class:`Relearned`)."""

    patterns: tuple[LayoutPattern, ...]  # the new patterns, then the old ones kept
    kept: tuple[str, ...]
    unseen: tuple[str, ...]
    dropped: tuple[str, ...]


def _keep_old(
    site: str, new: PatternSet, old: PatternSet, pages: Sequence[TrainingPage]
) -> _OldKept:
    """The new patterns and the old ones :func:`relearn` keeps: those recent pages need
    (no new pattern reads them) and those no recent page matched, renumbered after the
    new ones when their ids collide; an unseen one that would read a recent page in place
    of the new patterns is dropped."""
    seen, still_used = _old_patterns_used(new, old, pages)
    patterns = list(new.patterns)
    kept: list[str] = []
    ids = {pattern.id for pattern in patterns}
    number = len(patterns)
    renamed: dict[str, str] = {}  # new id -> old id of the unseen patterns
    for pattern in old.patterns:
        if pattern.id in seen and pattern.id not in still_used:
            continue  # recent pages have its layout, and a new pattern reads them
        old_id = pattern.id
        if pattern.id in ids:
            number += 1
            while f"{site}/{number}" in ids:
                number += 1
            pattern = dataclasses.replace(pattern, id=f"{site}/{number}")
        ids.add(pattern.id)
        patterns.append(pattern)
        if old_id in still_used:
            kept.append(pattern.id)
        else:
            renamed[pattern.id] = old_id
    taking: set[str] = set()
    if renamed:  # unseen patterns must not take recent pages from the new ones
        merged_patterns = SitePatterns(dataclasses.replace(new, patterns=tuple(patterns)))
        for page in pages:
            read = merged_patterns.extract(page.html)
            if isinstance(read, (Extraction, HubPage)) and read.pattern_id in renamed:
                taking.add(read.pattern_id)
    return _OldKept(
        tuple(p for p in patterns if p.id not in taking),
        tuple(kept),
        tuple(i for i in renamed if i not in taking),
        tuple(sorted(renamed[i] for i in taking)),
    )


def _old_patterns_used(
    new: PatternSet, old: PatternSet, pages: Sequence[TrainingPage]
) -> tuple[set[str], set[str]]:
    """The ids of the old patterns that match a recent page, and of those among them that
    match one no new pattern reads."""
    old_patterns = SitePatterns(old)
    new_patterns = SitePatterns(new) if new.patterns else None
    seen: set[str] = set()
    still_used: set[str] = set()
    for page in pages:
        by_old = old_patterns.extract(page.html)
        if not isinstance(by_old, (Extraction, HubPage)):
            continue
        seen.add(by_old.pattern_id)
        by_new = new_patterns.extract(page.html) if new_patterns is not None else None
        if not isinstance(by_new, (Extraction, HubPage)):
            still_used.add(by_old.pattern_id)
    return seen, still_used
