"""Pattern files, and extraction of TITLE / MAIN / SUB text by a learned pattern.

A pattern file holds what :mod:`newsstem.layout.learn` found for one site:
its layouts, each as the ordered block keys of the layout with their
DiffScore, MainScore, presence and role. It is JSON, one file per site,
written to be read and edited by a person (one block per line; wrapped here)::

    {
      "format": "newsstem-patterns",
      "version": 1,
      "site": "example.com",
      "learned_at": "2026-11-22T10:00:00Z",
      "site_names": ["Example News"],
      "parameters": {...},
      "sources": ["https://example.com/a.html", ...],
      "patterns": [
        {"id": "example.com/1", "score": 5012.3, "pages": 12, "sources": [...],
         "blocks": [
          {"role": "none", "diff": 0.0, "main": 0.0, "presence": 1.0, "weight": 64.0,
           "key": "body/div:id=nav"},
          {"role": "title", "diff": 1.0, "main": 40.2, "presence": 1.0, "weight": 41.0,
           "key": "body/div:id=main/h1"},
          {"role": "main", "diff": 0.99, "main": 2850.0, "presence": 1.0, "weight": 2900.0,
           "key": "body/div:id=main/div:class=story"}
         ]}
      ]
    }

Roles: ``title`` (the headline: one block, or one per template variant; the
first found on a page is used), ``main`` (the article text), ``sub``
(varying text that is not the article: captions, related links, comments),
``none`` (static: navigation, banners). Editing a role is how a person tunes
a pattern; deleting a pattern drops that layout. :func:`load_pattern_file`
validates everything and raises :class:`PatternFileError` naming the file
and the place of the first problem.

Extraction (:class:`SitePatterns`): a page is decomposed, its keys filtered to
the tokens the patterns use, and aligned with every pattern of its site; the
most similar pattern wins if the similarity reaches the threshold (0.7 by
default; see ``_CompiledPattern.similarity``). Page blocks aligned with
``main`` blocks are the body; blocks the pattern has not seen get the role of
the pattern block with the same key nearest to their position, so an article
with more inserts than any learned page still comes out whole; a key the
pattern never saw takes the highest role the site's other article patterns
learned with it give it (main, sub, then none), else it may be guessed main
(``_page_roles``).
"""

from __future__ import annotations

import errno
import json
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import compress, repeat
from operator import attrgetter, itemgetter, not_
from pathlib import Path
from typing import Any

from newsstem import defaults
from newsstem.layout.blocks import (
    BlockParser,
    KeyFilter,
    LayoutBlock,
    PageLayout,
    component_tokens,
    key_through,
)
from newsstem.layout.cluster import KeyInterner, KeySequence, align, layout_weight, layout_weights
from newsstem.readability.title import clean_title
from newsstem.text import meaningful_length

__all__ = [
    "FORMAT",
    "ROLES",
    "VERSION",
    "Extraction",
    "HubPage",
    "LayoutPattern",
    "MatchOptions",
    "NoMatch",
    "PageBlock",
    "PatternBlock",
    "PatternFileError",
    "PatternLibrary",
    "PatternSet",
    "SitePatterns",
    "dice",
    "line_form",
    "load_pattern_file",
    "load_patterns_dir",
    "paragraphs",
    "pattern_dir_problems",
    "pattern_file_name",
    "pattern_file_path",
    "save_pattern_file",
    "site_file",
    "word_set",
]

FORMAT = "newsstem-patterns"
VERSION = 1
ROLES = ("title", "main", "sub", "none")
KINDS = ("article", "hub")
# The role a key takes from the site's other article layouts (SitePatterns._sibling_roles):
# the highest of theirs, their titles counted as none
_SIBLING_RANK = {"none": 0, "sub": 1, "main": 2}
# Below this similarity a page matches no pattern (Webstemmer's extract.py -t, 0.8 there,
# on another measure). On cleanportal, pages of a learned layout score 0.78-1.0 (one
# article with 200 more inserted blocks than any learned page: 0.69), index pages
# against article layouts 0.2 and the two template families of washingtonpost 0.0.
# NEWSSTEM_PATTERN_THRESHOLD's default, declared once.
DEFAULT_MATCH_THRESHOLD = defaults.NEWSSTEM_PATTERN_THRESHOLD
# A page below the match threshold but at least this similar to an article layout is
# still read by it (NoMatch.nearest), for the caller to check against another reading: a
# template that gained a box or lost a class keeps its article where the pattern says.
# Calibrated on the tuning half of dragnet (leave-one-out, tests/benchmarks/learned.py):
# the unmatched pages a nearest layout read better than the fallback were 0.39-0.65
# similar; of the three below 0.38 that it read differently, it read all three worse.
DEFAULT_NEAREST_THRESHOLD = 0.38


class PatternFileError(ValueError):
    """A pattern file that cannot be used; the message names the file and the problem."""


@dataclass(frozen=True, slots=True)
class PatternBlock:
    """One layout block of a pattern."""

    key: str
    role: str  # one of ROLES
    diff_score: float  # 0 = the same text on every page, 1 = different on every page
    main_score: float  # diff_score × mean meaningful characters outside links
    presence: float  # share of the learned pages that have this block
    weight: float  # mean meaningful characters where present


@dataclass(frozen=True, slots=True)
class LayoutPattern:
    """One learned layout of a site."""

    id: str
    score: float  # log(pages) × sum of the MainScores of the main blocks
    pages: int
    blocks: tuple[PatternBlock, ...]
    sources: tuple[str, ...] = ()
    kind: str = "article"  # one of KINDS: "hub" layouts (index pages) have no main text
    # lines the main blocks repeat on many pages, left out of the article (line_form)
    boilerplate: tuple[str, ...] = ()
    # the article text starts with the headline, as the site's article element holds it
    # (the fallback took the title block with the article on the learned pages)
    headline_in_body: bool = False
    # when it was learned: patterns learned together share the tokens their keys keep;
    # a file may hold patterns of several learnings (old ones kept after a redesign)
    learned_at: str = ""


@dataclass(frozen=True)
class PatternSet:
    """The content of one pattern file: the layouts of one site."""

    site: str
    patterns: tuple[LayoutPattern, ...]
    learned_at: str = ""
    parameters: dict[str, Any] = field(default_factory=dict)
    sources: tuple[str, ...] = ()
    version: int = VERSION
    # the site-name affixes of the site's <title>s ("Example News" of "Storm | Example
    # News"): removed from headlines (newsstem.metadata.headline)
    site_names: tuple[str, ...] = ()


# ---------------------------------------------------------------------------- files


def pattern_file_name(site: str) -> str:
    """The file name of a site's patterns: the site with unsafe characters replaced.

    >>> pattern_file_name("127.0.0.1:8080"), pattern_file_name("bbc.co.uk")
    ('127.0.0.1_8080.json', 'bbc.co.uk.json')
    """
    return re.sub(r"[^A-Za-z0-9._-]", "_", site) + ".json"


def save_pattern_file(pattern_set: PatternSet, directory: str | Path) -> Path:
    """Write the site's file in ``directory`` (atomically) and return its path:
    ``<site>.json``, or the file of the site under another name (renamed by hand) in its
    place, since a second file of one site would stop the next crawl (one file per site)."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    path = pattern_file_path(directory, pattern_set.site)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(dumps(pattern_set), encoding="utf-8")
    tmp.replace(path)
    return path


def pattern_file_path(directory: str | Path, site: str) -> Path:
    """The path :func:`save_pattern_file` writes ``site``'s file to in ``directory``: the
    file renamed by hand (:func:`site_file`) or ``<site>.json`` (it may not exist)."""
    directory = Path(directory)
    return site_file(directory, site) or directory / pattern_file_name(site)


def site_file(directory: Path, site: str) -> Path | None:
    """The file of ``site`` in a patterns directory when it is not named
    :func:`pattern_file_name` (renamed by hand), else None."""
    if (directory / pattern_file_name(site)).exists():
        return None
    # A file that holds neither the site's name as written nor a JSON escape is of
    # another site: not parsed (a first learning of a site beside 500 files of 100 kB
    # parsed them all, 1.4 s a site)
    written = json.dumps(site, ensure_ascii=False)
    for path in sorted(directory.glob("*.json")):
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):  # (not a pattern file: a crawl would say
            continue  # so at its start)
        if written not in text and "\\" not in text:
            continue
        try:
            if loads(text, source=str(path)).site == site:
                return path
        except PatternFileError:  # (the same)
            continue
    return None


def dumps(pattern_set: PatternSet) -> str:
    """The JSON text of a pattern file: indented, one block per line."""
    head = {
        "format": FORMAT,
        "version": pattern_set.version,
        "site": pattern_set.site,
        "learned_at": pattern_set.learned_at,
        "site_names": list(pattern_set.site_names),
        "parameters": pattern_set.parameters,
        "sources": list(pattern_set.sources),
    }
    lines = ["{"]
    for name, value in head.items():
        lines.append(f"  {json.dumps(name)}: {json.dumps(value, ensure_ascii=False)},")
    lines.append('  "patterns": [')
    for p_index, pattern in enumerate(pattern_set.patterns):
        lines.append("    {")
        lines.append(f'      "id": {json.dumps(pattern.id, ensure_ascii=False)},')
        lines.append(f'      "kind": {json.dumps(pattern.kind)},')
        lines.append(f'      "score": {round(pattern.score, 2)},')
        lines.append(f'      "pages": {pattern.pages},')
        lines.append(f'      "sources": {json.dumps(list(pattern.sources), ensure_ascii=False)},')
        lines.append(
            f'      "boilerplate": {json.dumps(list(pattern.boilerplate), ensure_ascii=False)},'
        )
        lines.append(f'      "headline_in_body": {json.dumps(pattern.headline_in_body)},')
        if pattern.learned_at and pattern.learned_at != pattern_set.learned_at:
            lines.append(f'      "learned_at": {json.dumps(pattern.learned_at)},')
        lines.append('      "blocks": [')
        for b_index, block in enumerate(pattern.blocks):
            item = {
                "role": block.role,
                "diff": round(block.diff_score, 3),
                "main": round(block.main_score, 1),
                "presence": round(block.presence, 3),
                "weight": round(block.weight, 1),
                "key": block.key,
            }
            comma = "," if b_index < len(pattern.blocks) - 1 else ""
            lines.append(f"        {json.dumps(item, ensure_ascii=False)}{comma}")
        lines.append("      ]")
        lines.append("    }" + ("," if p_index < len(pattern_set.patterns) - 1 else ""))
    lines.append("  ]")
    lines.append("}")
    return "\n".join(lines) + "\n"


def load_pattern_file(path: str | Path) -> PatternSet:
    """Read and validate one pattern file; :class:`PatternFileError` says what is wrong."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise PatternFileError(f"{path}: cannot read the pattern file: {error}") from None
    return loads(text, source=str(path))


def loads(text: str, source: str = "<pattern file>") -> PatternSet:
    """Parse and validate the JSON text of a pattern file."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise PatternFileError(
            f"{source}: not valid JSON (line {error.lineno}, column {error.colno}: {error.msg}); "
            "fix the file or learn it again with `scrapy learn`"
        ) from None
    return _Validator(source).pattern_set(data)


def load_patterns_dir(directory: str | Path) -> dict[str, PatternSet]:
    """Every ``*.json`` pattern file of a directory, by site. A missing directory has none."""
    directory = Path(directory)
    if not directory.exists():
        return {}
    if not directory.is_dir():
        raise PatternFileError(f"{directory}: the patterns directory is not a directory")
    sets: dict[str, PatternSet] = {}
    for entry in _read_patterns_dir(directory):
        if isinstance(entry, PatternFileError):
            raise entry
        sets[entry.site] = entry
    return sets


def pattern_dir_problems(directory: str | Path) -> list[PatternFileError]:
    """Every file of ``directory`` that :func:`load_patterns_dir` (a crawl's
    ``NEWSSTEM_PATTERNS_DIR``) would stop on, not only the first."""
    directory = Path(directory)
    if not directory.is_dir():
        return []
    return [entry for entry in _read_patterns_dir(directory)
            if isinstance(entry, PatternFileError)]


def _read_patterns_dir(directory: Path) -> Iterator[PatternSet | PatternFileError]:
    """The ``*.json`` files of ``directory`` by name: each one's pattern set, or why a
    crawl cannot use it (unreadable, invalid, or a second file of a site)."""
    first: dict[str, Path] = {}
    for path in sorted(directory.glob("*.json")):
        try:
            pattern_set = load_pattern_file(path)
        except PatternFileError as error:
            yield error
            continue
        if pattern_set.site in first:
            yield PatternFileError(
                f"{path}: site {pattern_set.site!r} already has patterns in another file "
                f"of this directory ({first[pattern_set.site].name}); keep one file per site"
            )
            continue
        first[pattern_set.site] = path
        yield pattern_set


class _Validator:
    """Checks the structure of a parsed pattern file, naming the place of each problem."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, where: str, problem: str) -> PatternFileError:
        return PatternFileError(f"{self.source}: {where}: {problem}")

    def field(self, obj: dict, name: str, kind: type | tuple[type, ...], where: str) -> Any:
        if name not in obj:
            raise self.fail(where, f"missing field {name!r}")
        value = obj[name]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if isinstance(value, bool) and bool not in kinds or not isinstance(value, kinds):
            expected = " or ".join(k.__name__ for k in kinds)
            raise self.fail(f"{where}.{name}", f"expected {expected}, got {value!r:.60}")
        return value

    def number(self, obj: dict, name: str, where: str, low: float, high: float | None) -> float:
        value = float(self.field(obj, name, (int, float), where))
        if value < low or (high is not None and value > high):
            bound = f"between {low} and {high}" if high is not None else f">= {low}"
            raise self.fail(f"{where}.{name}", f"{value} is not {bound}")
        return value

    def pattern_set(self, data: Any) -> PatternSet:
        if not isinstance(data, dict):
            raise self.fail("top level", "expected a JSON object")
        if data.get("format") != FORMAT:
            raise self.fail("format", f"expected {FORMAT!r}, got {data.get('format')!r}")
        version = self.field(data, "version", int, "top level")
        if version != VERSION:
            raise self.fail(
                "version", f"version {version} is not supported (this newsstem reads {VERSION})"
            )
        site = self.field(data, "site", str, "top level")
        if not site:
            raise self.fail("site", "must not be empty")
        parameters = data.get("parameters", {})
        if not isinstance(parameters, dict):
            raise self.fail("parameters", "expected an object")
        learned_at = data.get("learned_at", "")
        if not isinstance(learned_at, str):
            raise self.fail("learned_at", "expected a string")
        sources = self.strings(data.get("sources", []), "sources")
        site_names = self.strings(data.get("site_names", []), "site_names")
        raw_patterns = self.field(data, "patterns", list, "top level")
        patterns = tuple(
            self.pattern(p, f"patterns[{i}]", learned_at) for i, p in enumerate(raw_patterns)
        )
        seen: set[str] = set()
        for index, pattern in enumerate(patterns):
            if pattern.id in seen:
                raise self.fail(f"patterns[{index}].id", f"{pattern.id!r} is used twice")
            seen.add(pattern.id)
        return PatternSet(site, patterns, learned_at, parameters, sources, version, site_names)

    def strings(self, value: Any, where: str) -> tuple[str, ...]:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self.fail(where, "expected a list of strings")
        return tuple(value)

    def pattern(self, data: Any, where: str, learned_at: str = "") -> LayoutPattern:
        if not isinstance(data, dict):
            raise self.fail(where, "expected an object")
        pattern_id = self.field(data, "id", str, where)
        if not pattern_id:
            raise self.fail(f"{where}.id", "must not be empty")
        kind = data.get("kind", "article")
        if kind not in KINDS:
            choices = ", ".join(repr(k) for k in KINDS)
            raise self.fail(f"{where}.kind", f"{kind!r} is not one of {choices}")
        score = self.number(data, "score", where, float("-inf"), None)
        pages = self.field(data, "pages", int, where)
        sources = self.strings(data.get("sources", []), f"{where}.sources")
        boilerplate = self.strings(data.get("boilerplate", []), f"{where}.boilerplate")
        headline_in_body = data.get("headline_in_body", False)
        if not isinstance(headline_in_body, bool):
            raise self.fail(f"{where}.headline_in_body", "expected true or false")
        raw_blocks = self.field(data, "blocks", list, where)
        if not raw_blocks:
            raise self.fail(f"{where}.blocks", "a pattern needs at least one block")
        blocks = tuple(self.block(b, f"{where}.blocks[{i}]") for i, b in enumerate(raw_blocks))
        if kind == "article" and not any(b.role == "main" for b in blocks):
            raise self.fail(f"{where}.blocks", "no block has the role 'main'")
        own_learned_at = data.get("learned_at", learned_at)
        if not isinstance(own_learned_at, str):
            raise self.fail(f"{where}.learned_at", "expected a string")
        return LayoutPattern(
            pattern_id, score, pages, blocks, sources, kind, boilerplate, headline_in_body,
            own_learned_at,
        )

    def block(self, data: Any, where: str) -> PatternBlock:
        if not isinstance(data, dict):
            raise self.fail(where, "expected an object")
        key = self.field(data, "key", str, where)
        if not key or key != key.strip() or "//" in key or key.endswith("/"):
            raise self.fail(f"{where}.key", f"{key!r} is not a block key (tag/tag:attr=value/...)")
        role = self.field(data, "role", str, where)
        if role not in ROLES:
            choices = ", ".join(repr(r) for r in ROLES)
            raise self.fail(f"{where}.role", f"{role!r} is not one of {choices}")
        return PatternBlock(
            key=key,
            role=role,
            diff_score=self.number(data, "diff", where, 0.0, 1.0),
            main_score=self.number(data, "main", where, 0.0, None),
            presence=self.number(data, "presence", where, 0.0, 1.0),
            weight=self.number(data, "weight", where, 0.0, None),
        )


# ---------------------------------------------------------------------------- extraction


@dataclass(frozen=True)
class MatchOptions:
    """How pages are matched to patterns."""

    # the least similarity to a pattern (see DEFAULT_MATCH_THRESHOLD)
    threshold: float = DEFAULT_MATCH_THRESHOLD
    # below it, the least similarity to an article pattern that still reads the page
    # for NoMatch.nearest (see DEFAULT_NEAREST_THRESHOLD; one above threshold never does)
    nearest_threshold: float = DEFAULT_NEAREST_THRESHOLD
    # Webstemmer's -S: a page lacking any block that every learned page had matches nothing.
    strict: bool = False


@dataclass(frozen=True, slots=True)
class PageBlock:
    r"""A block of an extracted page: its key, text (lines separated by "\n") and
    meaningful characters outside links, and whether the pattern knows it."""

    key: str
    text: str
    own_weight: int
    # the pattern learned this block (aligned with a pattern block, or with its key); a
    # block of a key the pattern never saw is only a guess from where it sits
    known: bool


@dataclass(frozen=True)
class Extraction:
    """What a pattern extracted from a page."""

    pattern_id: str
    similarity: float
    title: str
    main: tuple[str, ...]  # main block texts, in page order (lines separated by "\n")
    sub: tuple[str, ...]
    main_blocks: tuple[PageBlock, ...] = ()  # the main blocks with their keys
    # the prose blocks of keys the pattern never saw that it did not take (the article
    # may have moved there)
    unclaimed: tuple[LayoutBlock, ...] = ()
    # the places on the page of the main blocks, then of the unclaimed ones
    positions: tuple[int, ...] = ()
    # the title is a title block's text (not the page's <title>, where the page had none)
    title_block: bool = False

    @property
    def body(self) -> str:
        """The main text: :func:`paragraphs` of the main blocks."""
        return paragraphs(self.main)

    @property
    def sub_text(self) -> str:
        return paragraphs(self.sub)

    @property
    def guessed_weight(self) -> int:
        """Meaningful characters of the main blocks the pattern did not learn."""
        return sum(block.own_weight for block in self.main_blocks if not block.known)

    @property
    def unclaimed_weight(self) -> int:
        """Meaningful characters of the unclaimed blocks that hold a paragraph or more."""
        return sum(
            block.own_weight for block in self.unclaimed
            if block.own_weight >= UNCLAIMED_MIN_CHARS
        )


@dataclass(frozen=True)
class HubPage:
    """The page has the layout of a hub (index, section, gallery page) of its site."""

    pattern_id: str
    similarity: float


@dataclass(frozen=True)
class NoMatch:
    """No pattern fits the page well enough: the reason, and the best similarity seen;
    and, when that best pattern is an article layout at least
    :attr:`MatchOptions.nearest_threshold` similar, what it reads on the page all the
    same (``nearest``: not to be used unchecked, see
    :func:`newsstem.extraction.extract_page`)."""

    reason: str
    best_similarity: float = 0.0
    best_pattern: str | None = None
    nearest: Extraction | None = None


@dataclass(frozen=True)
class _CompiledPattern:
    pattern: LayoutPattern
    sequence: KeySequence  # slot keys, weighted by layout weight × presence (for aligning)
    roles_by_key: dict[int, tuple[tuple[int, str], ...]]  # key id -> ((slot, role), ...)
    main_keys: tuple[str, ...]
    usual: tuple[tuple[int, float], ...]  # (slot, layout weight) of slots most pages have
    required: frozenset[int]  # slots every learned page had (strict mode)
    boilerplate: frozenset[str]  # line_form of the lines left out of main blocks
    heaviest: dict[int, float]  # key id -> the largest mean weight of its blocks
    # key ids of the sub blocks seen on one learned page only: one page's vote decided them
    thin_sub: frozenset[int] = frozenset()
    # attribute tokens of the layout's elements that are never main (_refused_tokens)
    refused_tokens: frozenset[str] = frozenset()
    # key id -> "main", "sub" or "none": the keys this layout never saw that the site's
    # other article layouts (learned together) have, with the highest of their roles
    sibling_roles: dict[int, str] = field(default_factory=dict)
    slot_roles: tuple[str, ...] = field(init=False)  # the role of each slot
    # the usual slots, their keys and weights, and the sum of their weights
    usual_slots: tuple[int, ...] = field(init=False)
    usual_keys: tuple[int, ...] = field(init=False)
    usual_weights: tuple[float, ...] = field(init=False)
    usual_total: float = field(init=False)

    def __post_init__(self) -> None:
        slots = tuple(slot for slot, _ in self.usual)
        weights = tuple(w for _, w in self.usual)
        object.__setattr__(self, "slot_roles", tuple(b.role for b in self.pattern.blocks))
        object.__setattr__(self, "usual_slots", slots)
        object.__setattr__(self, "usual_keys", tuple(self.sequence.keys[s] for s in slots))
        object.__setattr__(self, "usual_weights", weights)
        object.__setattr__(self, "usual_total", sum(weights))

    def similarity(self, page: KeySequence, pairs: Sequence[tuple[int, int]]) -> float:
        """How well a page fits this layout: the harmonic mean of

        - recall: the share of the usual blocks of the layout (on half of the learned
          pages or more) that the page has (aligned), and
        - precision: the share of the page made of blocks the layout knows (aligned,
          or with a key the layout has elsewhere: a second fact box in an article).

        Plain LCS similarity would count every insert against the page, so an article
        with more inserts than any learned page (bbc, 0.64) would look as foreign as a
        page of another layout; index pages stay far below (0.2: their lists are
        blocks no article has).
        """
        aligned_slots = set(map(itemgetter(1), pairs))
        found = sum(compress(self.usual_weights, map(aligned_slots.__contains__, self.usual_slots)))
        return _harmonic_mean(self._precision(page), self._recall(found))

    def similarity_bound(self, page: KeySequence) -> float:
        """An upper bound of :meth:`similarity`, without aligning: usual blocks whose key
        is on the page count as found."""
        page_keys = set(page.keys)
        found = sum(compress(self.usual_weights, map(page_keys.__contains__, self.usual_keys)))
        return _harmonic_mean(self._precision(page), self._recall(found))

    def _precision(self, page: KeySequence) -> float:
        # an aligned block has a key of the layout: known blocks are those with such keys
        known = sum(compress(page.weights, map(self.roles_by_key.__contains__, page.keys)))
        return known / page.total if page.total else 0.0

    def _recall(self, found: float) -> float:
        return found / self.usual_total if self.usual_total else 1.0


def _harmonic_mean(precision: float, recall: float) -> float:
    return 2 * precision * recall / (precision + recall) if precision + recall else 0.0


_KEY, _WEIGHT = attrgetter("key"), attrgetter("weight")
# Floating-point slack when a similarity bound is compared with a similarity.
BOUND_SLACK = 1e-9
# A slot is part of what a layout looks like when at least this share of its pages had it.
USUAL_PRESENCE = 0.5


class SitePatterns:
    """The patterns of one site, ready to match pages (decomposition included)."""

    def __init__(
        self,
        pattern_set: PatternSet,
        options: MatchOptions | None = None,
        parser: BlockParser | None = None,
    ) -> None:
        self.pattern_set = pattern_set
        self.options = options or MatchOptions()
        self.parser = parser or BlockParser()
        self._intern = KeyInterner()
        # patterns learned together share a key filter (the tokens their keys keep): a
        # page is decomposed once per group (once, but for files holding old patterns
        # kept after a redesign)
        groups: dict[str, list[LayoutPattern]] = {}
        for pattern in pattern_set.patterns:
            groups.setdefault(pattern.learned_at, []).append(pattern)
        self._groups = tuple(
            (
                KeyFilter.from_keys(b.key for p in patterns for b in p.blocks),
                tuple(self._compile(p, patterns) for p in patterns),
            )
            for patterns in groups.values()
        )
        self.key_filter = self._groups[0][0] if self._groups else KeyFilter(())

    @property
    def site(self) -> str:
        return self.pattern_set.site

    def _compile(
        self, pattern: LayoutPattern, learned_with: Sequence[LayoutPattern]
    ) -> _CompiledPattern:
        ids = [self._intern(b.key) for b in pattern.blocks]
        weights = [layout_weight(round(b.weight)) for b in pattern.blocks]
        roles: dict[int, list[tuple[int, str]]] = {}
        for index, (key_id, block) in enumerate(zip(ids, pattern.blocks)):
            roles.setdefault(key_id, []).append((index, block.role))
        return _CompiledPattern(
            pattern,
            KeySequence.of(ids, [w * b.presence for w, b in zip(weights, pattern.blocks)]),
            {k: tuple(v) for k, v in roles.items()},
            tuple(dict.fromkeys(b.key for b in pattern.blocks if b.role == "main")),
            tuple(
                (i, w)
                for i, (w, b) in enumerate(zip(weights, pattern.blocks))
                if b.presence >= USUAL_PRESENCE
            ),
            frozenset(i for i, b in enumerate(pattern.blocks) if b.presence >= 1.0),
            frozenset(pattern.boilerplate),
            _heaviest(ids, pattern.blocks),
            _thin_sub(ids, pattern),
            _refused_tokens(pattern),
            self._sibling_roles(pattern, set(ids), learned_with),
        )

    def _sibling_roles(
        self, pattern: LayoutPattern, own: set[int], learned_with: Sequence[LayoutPattern]
    ) -> dict[int, str]:
        """The keys that ``pattern`` never saw and the site's other article patterns learned
        with it have: "main" where one of them has the key main, else "sub" where one has
        it sub, else "none" (a title or a boilerplate key of theirs: taken as sub, a
        navigation or a banner would go into the sub text). A site's layouts share its
        templates' elements (the same story element with or without a rail of teasers, a
        gallery's strip): where one layout learned an element, the others need not guess
        it."""
        roles: dict[int, str] = {}
        if pattern.kind != "article":
            return roles
        for other in learned_with:
            if other is pattern or other.kind != "article":
                continue
            for block in other.blocks:
                key_id = self._intern(block.key)
                if key_id in own:
                    continue
                role = block.role if block.role in _SIBLING_RANK else "none"
                if key_id not in roles or _SIBLING_RANK[role] > _SIBLING_RANK[roles[key_id]]:
                    roles[key_id] = role
        return roles

    def extract(self, html: str | bytes) -> Extraction | HubPage | NoMatch:
        """Match ``html`` to the best pattern and extract its title, main and sub text."""
        if len(self._groups) == 1:
            key_filter, patterns = self._groups[0]
            return self._extract_filtered(self.parser.decompose(html, key_filter), patterns)
        raw = self.parser.decompose(html)
        results = [
            self._extract_filtered(key_filter.apply(raw), patterns)
            for key_filter, patterns in self._groups
        ]
        return max(results, key=_similarity, default=NoMatch("no patterns"))

    def _extract_filtered(
        self, page: PageLayout, patterns: Sequence[_CompiledPattern]
    ) -> Extraction | HubPage | NoMatch:
        if not page.blocks:
            return NoMatch("no text blocks")
        ids = list(map(self._intern.ids.get, map(_KEY, page.blocks), repeat(-1)))
        sequence = KeySequence.of(ids, layout_weights(map(_WEIGHT, page.blocks)))
        best: tuple[float, _CompiledPattern, tuple[tuple[int, int], ...]] | None = None
        for compiled in patterns:
            if best is not None and compiled.similarity_bound(sequence) < best[0] - BOUND_SLACK:
                continue  # cannot beat the best so far: spare the alignment
            alignment = align(sequence, compiled.sequence)
            score = compiled.similarity(sequence, alignment.pairs)
            if self.options.strict:
                matched_slots = {j for _, j in alignment.pairs}
                if not compiled.required <= matched_slots:
                    continue
            if best is None or score > best[0]:
                best = (score, compiled, alignment.pairs)
        if best is None:
            return NoMatch("strict: every pattern lacks a required block")
        score, compiled, pairs = best
        if score < self.options.threshold:
            nearest = (
                _extract(page, ids, compiled, pairs, score)
                if compiled.pattern.kind == "article"
                and score >= self.options.nearest_threshold
                else None
            )
            return NoMatch(
                f"similarity {score:.3f} < {self.options.threshold}", score, compiled.pattern.id,
                nearest,
            )
        if compiled.pattern.kind == "hub":
            return HubPage(compiled.pattern.id, score)
        return _extract(page, ids, compiled, pairs, score)


def _thin_sub(ids: Sequence[int], pattern: LayoutPattern) -> frozenset[int]:
    """The keys of ``pattern`` whose blocks are all ``sub`` and that the learned pages had
    once in all (a blockquote seen on one page: an embedded post there, a quotation of
    the story on the next page)."""
    pages: dict[int, float] = {}
    subs: set[int] = set()
    others: set[int] = set()
    for key_id, block in zip(ids, pattern.blocks):
        pages[key_id] = pages.get(key_id, 0.0) + block.presence * pattern.pages
        (subs if block.role == "sub" else others).add(key_id)
    # (presence is stored rounded: a page and a half is "once")
    return frozenset(k for k in subs - others if pages[k] < 1.5)


def _refused_tokens(pattern: LayoutPattern) -> frozenset[str]:
    """The attribute tokens of the elements (the last component of a key) of ``pattern``'s
    blocks that are never main nor title: where learning saw such an element, the fallback
    left it out (WordPress's ``wp-caption`` box beside the story's paragraphs)."""
    taken: set[str] = set()
    refused: set[str] = set()
    for block in pattern.blocks:
        tokens = component_tokens(block.key.rsplit("/", 1)[-1])
        (taken if block.role in ("main", "title") else refused).update(tokens)
    return frozenset(refused - taken)


def _heaviest(ids: Sequence[int], blocks: Sequence[PatternBlock]) -> dict[int, float]:
    heaviest: dict[int, float] = {}
    for key_id, block in zip(ids, blocks):
        heaviest[key_id] = max(heaviest.get(key_id, 0.0), block.weight)
    return heaviest


def _similarity(result: Extraction | HubPage | NoMatch) -> float:
    """How well a page fit the pattern of a result (a match beats any miss)."""
    if isinstance(result, NoMatch):
        return result.best_similarity - 1.0
    return result.similarity


def _extract(
    page: PageLayout,
    ids: Sequence[int],
    compiled: _CompiledPattern,
    pairs: Sequence[tuple[int, int]],
    score: float,
) -> Extraction:
    roles, known = _page_roles(page, ids, compiled, pairs)
    title = ""
    headline = -1  # the title block's place in main, when the article starts with it
    main: list[PageBlock] = []
    sub: list[str] = []
    unclaimed: list[LayoutBlock] = []
    main_at: list[int] = []
    unclaimed_at: list[int] = []
    said: dict[str, int] = {}  # the sentences of the main text: how many times said
    boilerplate, heaviest = compiled.boilerplate, compiled.heaviest
    for position, (block, role, learned) in enumerate(zip(page.blocks, roles, known)):
        if role == "main":
            text = _new_lines(block.text, said, boilerplate)
            if not text:
                continue
            own = block.own_weight if text == block.text else meaningful_length(text)
            main.append(PageBlock(block.key, text, own, learned))
            main_at.append(position)
        elif role == "sub":
            if (
                headline == len(main) - 1 >= 0
                and main_at[-1] == position - 1
                and _is_heading_line(block)
            ):
                # a heading right under the headline (its deck, or the headline under a
                # kicker): read with the headline
                main.append(PageBlock(block.key, block.text, block.own_weight, learned))
                main_at.append(position)
                continue
            sub.append(block.text)
        elif role == "title" and not title:
            title = block.text.replace("\n", " ")
            if compiled.pattern.headline_in_body:
                main.append(PageBlock(block.key, block.text, block.own_weight, learned))
                main_at.append(position)
                headline = len(main) - 1
        if role == "main":
            continue
        # a key never learned, or far more prose than the key ever held (an article set
        # inside its photo's caption box): the guard may want a second look (the own
        # weight is at most the weight: tested first, the weight spares counting the link
        # text of most blocks)
        least = OVERSIZE * heaviest[ids[position]] if learned else 0.0
        if block.weight >= least and block.own_weight >= max(least, 1) and _is_prose(block):
            unclaimed.append(block)
            unclaimed_at.append(position)
    if compiled.pattern.headline_in_body and headline < 0 and main_at:
        # the article starts with its headline, but no title block is on this page (a
        # variant of the template one learned page had): the headline is the block above
        # the article that says the page's <title>
        found = _headline_block(page, roles, main_at[0], clean_title(page.title, ()))
        if found is not None:
            block = page.blocks[found]
            if found in unclaimed_at:  # a key never learned: the headline, not a guess
                del unclaimed[unclaimed_at.index(found)]
                unclaimed_at.remove(found)
            title = block.text.replace("\n", " ")
            main.insert(0, PageBlock(block.key, block.text, block.own_weight, True))
            main_at.insert(0, found)
            headline = 0
    if said and max(said.values()) >= MIN_REPEATS:
        main, main_at = _read_once(main, main_at, said, headline)
    return Extraction(
        compiled.pattern.id,
        score,
        title or clean_title(page.title, ()),
        tuple(block.text for block in main),
        tuple(sub),
        tuple(main),
        tuple(unclaimed),
        (*main_at, *unclaimed_at),
        bool(title),
    )


# A block standing in for a missing title block is a line of at most this many meaningful
# characters sharing this much of its words with the page's <title> (Dice): the bars of
# learning's title blocks too (LearnOptions.max_title_chars, title_threshold).
HEADLINE_MAX_CHARS = 300
HEADLINE_LIKENESS = 0.5


_HEADING = re.compile(r"/h[1-6](?::[^/]*)?$")


def _is_heading_line(block: LayoutBlock) -> bool:
    """Whether ``block`` reads as a heading line: an ``<h1>``–``<h6>`` of one line of
    at most :data:`HEADLINE_MAX_CHARS` characters, not mostly links."""
    text = block.text
    return (
        _HEADING.search(block.key) is not None
        and "\n" not in text
        and len(text) <= HEADLINE_MAX_CHARS
        and block.own_weight > block.link_weight
    )


def _headline_block(page: PageLayout, roles: Sequence[str], before: int, title: str) -> int | None:
    """The place of the block above ``before`` (not main) that says the page's headline:
    a line whose words are most like those of ``title`` (Dice :data:`HEADLINE_LIKENESS` or
    more), the nearest to the article on ties."""
    wanted = word_set(title)
    best, best_score = None, HEADLINE_LIKENESS
    for position in range(before):
        block = page.blocks[position]
        if (
            roles[position] == "main"
            or "\n" in block.text
            or not 0 < block.weight <= HEADLINE_MAX_CHARS
        ):
            continue
        score = dice(word_set(block.text), wanted)
        if score >= best_score:
            best, best_score = position, score
    return best


def paragraphs(texts: Iterable[str]) -> str:
    """Block texts as an article's text: one paragraph per line of the blocks, blank lines
    between.

    >>> paragraphs(["Headline", "First.\\nSecond."])
    'Headline\\n\\nFirst.\\n\\nSecond.'
    """
    return "\n\n".join(line for text in texts for line in text.split("\n"))


def word_set(text: str) -> set[str]:
    """The words of ``text``, lowercased: what titles are compared by, here and in learning."""
    return set(_WORD_RE.findall(text.lower()))


def dice(a: set[str], b: set[str]) -> float:
    """The Dice likeness of two word sets (0 when either is empty)."""
    return 2 * len(a & b) / (len(a) + len(b)) if a and b else 0.0


_WORD_RE = re.compile(r"\w+")


# A block of a key the pattern never saw, not taken as main, is worth a second look when
# it holds this much prose (a paragraph): the article may have moved to a new element ...
UNCLAIMED_MIN_CHARS = 100
# ... and so is a block of a known key that holds this many times the most its key held
# on the learned pages.
OVERSIZE = 3.0


# A block no other page proves to be article text (seen on one learned page, or on none
# when matching) is prose only if at most this share of it is links (an embedded post or
# a "read also" box is more: readability drops such containers above 0.2-0.25) ...
UNPROVEN_LINK_SHARE = 1 / 3
# ... and it is never a form's label (keys through a <form>).
FORM_KEY = key_through("form")


def _page_roles(
    page: PageLayout,
    ids: Sequence[int],
    compiled: _CompiledPattern,
    pairs: Sequence[tuple[int, int]],
) -> tuple[list[str], list[bool]]:
    """The role of every page block, and whether the pattern learned the block.

    1. a block aligned with a pattern block takes its role;
    2. a block with a key the pattern has elsewhere takes the role of the nearest
       pattern block with that key (a second fact box);
    3. a block of a key the pattern has never seen (or a paragraph in a sub block of a
       key that one learned page alone voted on) is main if it is prose and sits
       inside the element of a main block (a list, a table, a nested container of this
       article only), or, on a page with no main block yet, if its key ends like a main
       key (the same two innermost elements: a variant of the template that wraps the
       article differently); but not a figure's caption, nor a block whose element, or an
       element between it and the main block's, bears a token that the pattern's elements
       bear only outside the article (:func:`_refused_element`). These are guesses:
       ``known`` is False for the blocks of keys never seen (the guard may take a second
       look at them);
    4. but a key the site's other article layouts learned (``sibling_roles``) is no guess:
       it takes their role, main where one has it main, else sub where one has it sub,
       else none (a photo box ``div.alignright`` in the story element, sub in the site's
       other layout, is not guessed main on a page of a layout that never saw one); it
       stays unknown to the guard.
    """
    roles_by_key = compiled.roles_by_key
    roles = ["none"] * len(ids)
    slot_roles = compiled.slot_roles
    for index, slot in pairs:
        roles[index] = slot_roles[slot]
    if sum(map(roles_by_key.__contains__, ids)) > len(pairs):  # known keys not aligned
        slot_of: dict[int, int] = dict(pairs)
        previous_slot = -1
        for index, key_id in enumerate(ids):
            slot = slot_of.get(index)
            if slot is not None:
                previous_slot = slot
                continue
            same_key = roles_by_key.get(key_id)
            if not same_key:
                continue
            _, role = min(
                same_key, key=lambda item: (abs(item[0] - previous_slot - 0.5), item[0])
            )
            roles[index] = role
    known = list(map(roles_by_key.__contains__, ids))
    never_seen = list(compress(range(len(ids)), map(not_, known)))
    sibling_roles = compiled.sibling_roles
    if sibling_roles:
        # a key the site's other article layouts learned is no guess: it takes the highest
        # of their roles
        for i in never_seen:
            role = sibling_roles.get(ids[i])
            if role is not None:
                roles[i] = role
    unseen = [
        i for i in never_seen if ids[i] not in sibling_roles and _is_prose(page.blocks[i])
    ]
    if compiled.thin_sub:
        # a paragraph in a sub block of a key one learned page voted for is read like a
        # block never seen: one page's vote is no proof (a blockquote: an embedded post
        # there, a quotation of the story here)
        thin = compiled.thin_sub
        blocks = page.blocks
        unseen.extend(
            i
            for i, key_id in enumerate(ids)
            if key_id in thin
            and roles[i] == "sub"
            and blocks[i].own_weight >= UNCLAIMED_MIN_CHARS
            and _is_prose(blocks[i])
        )
        unseen.sort()
    if not unseen:
        return roles, known
    main_keys = set(compiled.main_keys)
    main_keys.update(page.blocks[i].key for i, role in enumerate(roles) if role == "main")
    if "main" not in roles:
        tails = {_tail(key) for key in compiled.main_keys}
        for index in unseen:
            tail = _tail(page.blocks[index].key)
            if "=" in tail and tail in tails:
                roles[index] = "main"
                main_keys.add(page.blocks[index].key)
    parents = {main_key.rsplit("/", 1)[0] for main_key in main_keys}
    for index in unseen:
        key = page.blocks[index].key
        if key in parents:
            container = key.rpartition("/")[0]  # "" for the key of a single element
        else:
            # the innermost main element holding the block
            container = max(
                (main_key for main_key in main_keys if key.startswith(main_key + "/")),
                key=len,
                default=None,
            )
            if container is None:
                continue
        if not known[index] and _refused_element(key, compiled.refused_tokens, container):
            continue
        roles[index] = "main"
    return roles, known


def _refused_element(key: str, refused_tokens: frozenset[str], container: str) -> bool:
    """Whether a block of a key never learned, inside the element of key ``container``, is
    no guess for the article: its element is a figure's caption (the fallback leaves every
    ``<figcaption>`` out, so learning would not have taken it), or it, or an element between
    it and the container, bears a token that the pattern's elements bear only outside the
    article (a ``wp-caption`` box placed right where the learned pages placed it center; a
    fact box of the class of the learned pages' related-links box, holding a heading and a
    list in elements of its own). A ``container`` of "" holds the whole key.

    >>> _refused_element("body/div:class=entry/div:class=alignright.wp-caption",
    ...                  frozenset({"class=wp-caption"}), "body/div:class=entry")
    True
    >>> _refused_element("body/div:class=entry/figure/figcaption", frozenset(),
    ...                  "body/div:class=entry")
    True
    >>> _refused_element("body/div:class=entry/div:class=pullquote", frozenset({"class=ad"}),
    ...                  "body/div:class=entry")
    False
    >>> _refused_element("body/div:class=story/div:class=story-feature/ul",
    ...                  frozenset({"class=story-feature"}), "body/div:class=story")
    True
    >>> _refused_element("body/div:class=story/div:class=story-feature/ul",
    ...                  frozenset({"class=story"}), "body/div:class=story")
    False
    >>> _refused_element("body:class=home", frozenset({"class=home"}), "")
    True
    """
    if _FIGCAPTION.search(key):
        return True
    if not refused_tokens:
        return False
    inside = key[len(container) + 1 :] if container else key
    return any(
        not refused_tokens.isdisjoint(component_tokens(component))
        for component in inside.split("/")
    )


# A key through a figure's caption (the fallback removes every one: see
# newsstem.readability.cleaning).
_FIGCAPTION = key_through("figcaption")


def _new_lines(text: str, said: dict[str, int], boilerplate: frozenset[str]) -> str:
    """The lines of ``text`` that are not boilerplate (by :func:`line_form`); ``said``
    counts those long enough to be a sentence (see :func:`_read_once`)."""
    kept = []
    for line in text.split("\n"):
        if boilerplate and line_form(line) in boilerplate:
            continue
        if len(line) >= MIN_REPEATED_LINE:
            said[line] = said.get(line, 0) + 1
        kept.append(line)
    return "\n".join(kept) if len(kept) > 1 else kept[0] if kept else ""


def _read_once(
    main: list[PageBlock], main_at: list[int], said: dict[str, int], headline: int
) -> tuple[list[PageBlock], list[int]]:
    """``main`` (and the places of its blocks) with each line said :data:`MIN_REPEATS`
    times or more read once, at its first place (a caption repeated for every slide of a
    gallery); the headline opening the article is left as it is."""
    repeated = {line for line, count in said.items() if count >= MIN_REPEATS}
    seen: set[str] = set()
    blocks, places = [], []
    for index, (block, place) in enumerate(zip(main, main_at)):
        if index != headline:
            lines = []
            for line in block.text.split("\n"):
                if line in seen:
                    continue
                if line in repeated:
                    seen.add(line)
                lines.append(line)
            if not lines:
                continue
            text = "\n".join(lines)
            if text != block.text:
                block = PageBlock(block.key, text, meaningful_length(text), block.known)
        blocks.append(block)
        places.append(place)
    return blocks, places


# A line at least this long (in characters) that the article's main blocks hold
# MIN_REPEATS times or more is read once: a caption repeated for every slide of a
# gallery. Shorter lines ("Q:", "Photo:", a refrain) may repeat, and so may a line said
# twice: a pull quote repeating a paragraph, the credit under each of two charts. (Read
# once from their second time on, such lines cost 0.0006 F1 on dragnet's held-out half
# and 0.002 on cleanportal's tuning half: tests/benchmarks/learned.py.)
MIN_REPEATED_LINE = 15
MIN_REPEATS = 3


def line_form(line: str) -> str:
    """A line as boilerplate is compared: case, spacing and numbers ignored.

    >>> line_form("  Posted in: NFL Network | 12 comments ")
    'posted in: nfl network | 0 comments'
    """
    return _DIGITS.sub("0", " ".join(line.lower().split()))


_DIGITS = re.compile(r"[0-9]+")


def _is_prose(block: LayoutBlock) -> bool:
    return block.link_share <= UNPROVEN_LINK_SHARE and not FORM_KEY.search(block.key)


def _tail(key: str) -> str:
    return "/".join(key.split("/")[-2:])


class PatternLibrary:
    """The pattern files of a directory, loaded once, by site."""

    def __init__(self, sites: dict[str, SitePatterns]) -> None:
        self.sites = sites

    @classmethod
    def from_sets(
        cls, sets: dict[str, PatternSet], options: MatchOptions | None = None
    ) -> PatternLibrary:
        """The pattern sets of several sites, ready to match (one block parser for all)."""
        parser = BlockParser()
        return cls(
            {site: SitePatterns(pattern_set, options, parser) for site, pattern_set in sets.items()}
        )

    @classmethod
    def from_directory(
        cls, directory: str | Path, options: MatchOptions | None = None
    ) -> PatternLibrary:
        """The pattern files of ``directory`` (``scrapy learn``'s ``--output``), by site.
        A missing directory is a FileNotFoundError naming it: it gave an empty library,
        every page then read by the fallback, without a word. (A crawl's
        ``NEWSSTEM_PATTERNS_DIR`` reads :func:`load_patterns_dir`: a missing one is a
        warning there, the crawl goes on.)"""
        path = Path(directory)
        if not path.exists():
            where = "" if path.is_absolute() else f" (relative to {Path.cwd()})"
            raise FileNotFoundError(errno.ENOENT, f"no patterns directory{where}", str(path))
        return cls.from_sets(load_patterns_dir(path), options)

    def put(self, pattern_set: PatternSet, options: MatchOptions | None = None) -> None:
        """Match the pages of ``pattern_set.site`` by it from now on, in place of the
        site's patterns if it had some (one block parser for all, as :meth:`from_sets`)."""
        shared = next(iter(self.sites.values()), None)
        self.sites[pattern_set.site] = SitePatterns(
            pattern_set, options, shared.parser if shared is not None else None
        )

    def __contains__(self, site: str) -> bool:
        return site in self.sites

    def __len__(self) -> int:
        return len(self.sites)

    def get(self, site: str) -> SitePatterns | None:
        return self.sites.get(site)

    def __iter__(self) -> Iterator[str]:
        return iter(self.sites)

