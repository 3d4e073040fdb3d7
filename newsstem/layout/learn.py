"""Learn a site's layout patterns from its pages (Webstemmer's analyze.py, seed 004).

For one site:

1. decompose every page into layout blocks and keep, in keys, only the
   attribute tokens that describe layout (:func:`~newsstem.layout.blocks.stable_tokens`);
2. cluster the pages by layout (:mod:`~newsstem.layout.cluster`);
3. per cluster (of two pages or more, or a page alone that may be a hub: 7), align
   the pages' blocks into one sequence of *slots* (progressive alignment on the
   medoid page) and score each slot:

   - **DiffScore**: how much its text changes across pages: 1 − the mean
     share of a page's word trigrams found in another page's text of that
     slot (navigation ≈ 0, article text ≈ 1);
   - **MainScore**: DiffScore × the mean meaningful characters *outside links*
     (absent pages count 0): Webstemmer uses all characters, which lets
     ever-changing link lists (related stories, most read) compete with the
     article;

4. **evidence**: the readability fallback (or any extractor given as
   ``fallback``) reads every page of the cluster; per block, the share of its
   text found in the fallback's article (text already seen higher on the page
   is not counted again: a comment quoting the article is not the article);
5. roles, by the agreement of the pages: a *key* (an element of the template)
   is article text when its text varies (DiffScore over its pages), it reads as
   prose (at most half of it links) and the pages where the fallback found an
   article vote for it, each with the share of the key's text the fallback took
   (:class:`_KeyVotes`). All slots of a main key are **main** (but a slot whose text
   the fallback left out on every page it has, three at least), so the pattern
   drops what the site repeats even where the fallback took it (an author's note,
   a copyright line: their DiffScore is low), keeps what the fallback missed on
   one page but took on others, and leaves comment threads the fallback took on
   one short post alone; in a layout of variants, a main key the fallback left out
   on the first variant's pages is not main (:func:`_unmark_other_variants_keys`).
   Lines the main slots repeat on several pages and the
   fallback left out are the pattern's ``boilerplate``. The **title** is the short
   varying slot most similar to the anchor texts of the links to the pages
   (recorded by the spider), or to the page's ``<title>`` when a page has no
   anchor text, or — Webstemmer's rule — to the main text, before it; when the
   fallback took the headline with the article (its words, or its line when it is a
   link: :func:`_headline_share`), or when the headline's element sits in the
   article's own container (:func:`_headline_of_article`), the pattern's text starts
   with it too (``headline_in_body``); other varying slots are **sub**;
6. the **self-check** (:func:`_self_check`): each page is read with the keys the
   other pages voted for and compared with its fallback article; a pattern that
   disagrees on most of its pages is not written, and the outcome says why;
7. a cluster where the fallback found (nearly) nothing on 90% of the pages, and
   whose varying prose is short, is a *hub* layout (index pages, galleries): its
   pattern marks later pages of that layout as hubs, not handed to a fallback
   that finds "articles" in lists of teasers. A page alone in its layout may be a
   hub (the front page a crawl starts from is the only one of its kind: each later
   crawl fetches it again), its blocks judged static or varying against the same
   keys on the site's other pages (:class:`_SiteTexts`); it is never an article
   layout (``min_pages``: its votes would have nothing to check them). One where
   the fallback found an article on fewer than half of the pages gives no pattern.
   Pattern score = log(pages) × Σ MainScore of the main slots.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone

from newsstem import defaults, readability
from newsstem.layout.blocks import (
    BlockParser,
    KeyFilter,
    LayoutBlock,
    PageLayout,
    component_tokens,
    key_through,
    stable_tokens,
)
from newsstem.layout.cluster import (
    ClusterOptions,
    KeyInterner,
    KeySequence,
    align,
    cluster,
    layout_weight,
    similarity,
)
from newsstem.layout.evidence import TextShingles, shingles, word_shingles
from newsstem.layout.patterns import (
    FORM_KEY,
    HEADLINE_LIKENESS,
    HEADLINE_MAX_CHARS,
    Extraction,
    HubPage,
    LayoutPattern,
    PatternBlock,
    PatternSet,
    SitePatterns,
    dice,
    line_form,
    word_set,
)
from newsstem.metadata.headline import SiteNames
from newsstem.text import counted, meaningful_length

__all__ = [
    "ClusterOutcome",
    "Fallback",
    "LearnOptions",
    "LearnResult",
    "TrainingPage",
    "learn",
    "matched_share",
    "readability_text",
]

_WORD = re.compile(r"\w+")


@dataclass(frozen=True)
class TrainingPage:
    """A page to learn from: its URL, HTML (bytes are decoded like the crawler does) and
    the texts of the links that pointed to it."""

    url: str
    html: str | bytes
    anchor_texts: tuple[str, ...] = ()


@dataclass(frozen=True)
class LearnOptions:
    """Parameters of learning; they are recorded in the pattern file."""

    cluster: ClusterOptions = field(default_factory=ClusterOptions)  # grouping pages by layout
    # A layout seen on one page has nothing to compare its text with: no article
    # pattern (a page alone where the fallback finds nothing can still be a hub).
    min_pages: int = 2
    # Pages of one cluster used to build its pattern (Webstemmer's -m): beyond a
    # few dozen, more pages change the scores by less than their rounding.
    sample_pages: int = 40
    # Webstemmer's -T 0.5: a slot whose text varies less than this is static.
    diff_threshold: float = 0.5
    # A cluster whose core slot carries fewer meaningful characters outside links
    # (mean over its pages) is not an article layout: index pages, galleries.
    # NEWSSTEM_MIN_ARTICLE_CHARS's default.
    min_main_chars: int = defaults.NEWSSTEM_MIN_ARTICLE_CHARS
    # Main text is prose: a slot more than half link text is a list of links.
    max_main_link_share: float = 0.5
    # Least similarity (Dice of word sets) of a title slot to its reference texts
    # (Webstemmer's analyze.py -T); a headline shares most of its words with the
    # anchor texts or the <title>, a section label or a byline shares few. (Declared
    # in patterns, whose stand-in for a missing title block asks the same.)
    title_threshold: float = HEADLINE_LIKENESS
    # A title is a line, not a paragraph: mean meaningful characters at most (the same).
    max_title_chars: int = HEADLINE_MAX_CHARS
    # Patterns scoring below this are dropped (Webstemmer's -S; 0 keeps all).
    min_score: float = 0.0

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class ClusterOutcome:
    """What became of one cluster of pages: a pattern id, or the reason there is none."""

    pages: int
    pattern_id: str | None
    reason: str
    score: float = 0.0


@dataclass(frozen=True)
class LearnResult:
    pattern_set: PatternSet
    outcomes: tuple[ClusterOutcome, ...]
    cut: float  # the similarity cut clustering chose


@dataclass
class _Slot:
    """One aligned position of a cluster's pages: the texts of the pages that have it."""

    key: str
    key_id: int
    texts: dict[int, str] = field(default_factory=dict)  # page -> text
    weights: dict[int, int] = field(default_factory=dict)  # page -> meaningful characters
    own: dict[int, int] = field(default_factory=dict)  # page -> characters outside links
    # page -> characters outside links that the fallback took as the page's article
    taken: dict[int, float] = field(default_factory=dict)

    def add(self, page: int, block: LayoutBlock, taken: float) -> None:
        """Add ``page``'s ``block`` (a second block of one page aligned here adds to the
        first: its text on a line of its own)."""
        earlier = self.texts.get(page)
        self.texts[page] = block.text if earlier is None else f"{earlier}\n{block.text}"
        self.weights[page] = self.weights.get(page, 0) + block.weight
        self.own[page] = self.own.get(page, 0) + block.own_weight
        self.taken[page] = self.taken.get(page, 0.0) + taken

    def mean_weight(self) -> float:
        return sum(self.weights.values()) / len(self.weights) if self.weights else 0.0


@dataclass
class _ScoredSlot:
    slot: _Slot
    diff: float
    main: float
    presence: float
    weight: float  # mean meaningful characters where present
    own_weight: float  # the same, outside links
    link_share: float
    # share of the slot's characters outside links that the fallback took (pooled with
    # the other slots of its key; None: the fallback found no article on the slot's pages)
    agreement: float | None = None
    role: str = "none"

    @property
    def key(self) -> str:
        return self.slot.key


def learn(
    site: str,
    pages: Sequence[TrainingPage],
    options: LearnOptions | None = None,
    parser: BlockParser | None = None,
    fallback: Fallback | None = None,
) -> LearnResult:
    """Learn the layout patterns of ``site`` from ``pages``.

    ``fallback`` gives the article text a generic extractor finds on a page (default:
    the readability fallback's body); it is asked once for each page of each layout's
    sample (``options.sample_pages`` at most), whether a pattern comes of it or not.
    """
    options = options or LearnOptions()
    parser = parser or BlockParser()
    fallback = fallback or readability_text
    layouts = [parser.decompose(page.html) for page in pages]
    key_filter = KeyFilter(stable_tokens(layouts))
    layouts = [key_filter.apply(layout) for layout in layouts]
    intern = KeyInterner()
    sequences = [_sequence(layout, intern) for layout in layouts]
    clustering = cluster(sequences, options.cluster)
    site_texts = _SiteTexts(layouts)
    patterns: list[LayoutPattern] = []
    outcomes: list[ClusterOutcome] = []
    for members in clustering.clusters:
        member_pages = [pages[i] for i in members]
        pattern, reason = _learn_cluster(
            [layouts[i] for i in members],
            [sequences[i] for i in members],
            member_pages,
            intern,
            options,
            lambda index, member_pages=member_pages: fallback(member_pages[index]),
            site_texts if len(members) == 1 else None,
        )
        if pattern is None:
            outcomes.append(ClusterOutcome(len(members), None, reason))
        elif not pattern.blocks:  # empty pages: a pattern file refuses a pattern of nothing
            outcomes.append(ClusterOutcome(len(members), None, "a layout without blocks"))
        elif pattern.score < options.min_score:
            outcomes.append(
                ClusterOutcome(len(members), None, f"score {pattern.score:.0f} < min_score")
            )
        else:
            temporary = f"cluster-{len(patterns)}"
            patterns.append(_renamed(pattern, temporary))
            outcomes.append(ClusterOutcome(len(members), temporary, reason, pattern.score))
    order = sorted(
        range(len(patterns)), key=lambda i: (patterns[i].kind != "article", -patterns[i].score)
    )
    renamed = {f"cluster-{i}": f"{site}/{rank}" for rank, i in enumerate(order, 1)}
    patterns = [_renamed(patterns[i], renamed[f"cluster-{i}"]) for i in order]
    outcomes = [
        ClusterOutcome(o.pages, renamed.get(o.pattern_id or ""), o.reason, o.score)
        for o in outcomes
    ]
    learned_at = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    pattern_set = PatternSet(
        site=site,
        patterns=tuple(dataclasses.replace(p, learned_at=learned_at) for p in patterns),
        learned_at=learned_at,
        parameters={**options.as_dict(), "pages": len(pages), "cut": round(clustering.cut, 3)},
        sources=tuple(page.url for page in pages),
        site_names=tuple(_site_names(layout.title for layout in layouts)),
    )
    # how its own pages fit it: a crawl whose pages fit far worse has met a redesign
    matched = matched_share(pattern_set, pages)
    pattern_set = dataclasses.replace(
        pattern_set, parameters={**pattern_set.parameters, "matched": round(matched, 3)}
    )
    return LearnResult(pattern_set, tuple(outcomes), clustering.cut)


def _site_names(titles: Iterable[str]) -> list[str]:
    """The affixes the site's ``<title>``s share: its name (see :class:`SiteNames`)."""
    names = SiteNames()
    for title in titles:
        names.add(title)
    return names.names()


# Pages of a site read to measure how a pattern set fits them (evenly spread).
MEASURED_PAGES = 200


def matched_share(pattern_set: PatternSet, pages: Sequence[TrainingPage]) -> float:
    """The share of ``pages`` that match one of the patterns (article or hub)."""
    if not pages or not pattern_set.patterns:
        return 0.0
    step = max(1, len(pages) // MEASURED_PAGES)
    measured = pages[::step]
    site_patterns = SitePatterns(pattern_set)
    fits = sum(
        isinstance(site_patterns.extract(page.html), (Extraction, HubPage)) for page in measured
    )
    return fits / len(measured)


def _renamed(pattern: LayoutPattern, new_id: str) -> LayoutPattern:
    return dataclasses.replace(pattern, id=new_id)


def _sequence(layout: PageLayout, intern: KeyInterner) -> KeySequence:
    return KeySequence.of(
        [intern(block.key) for block in layout.blocks],
        [layout_weight(block.weight) for block in layout.blocks],
    )


Fallback = Callable[[TrainingPage], str]


def readability_text(page: TrainingPage) -> str:
    """The article text the readability fallback finds on ``page``."""
    return readability.extract(page.html, url=page.url, body_html=False).body


# Pattern sources listed per pattern (the file lists every page once, at the top).
SOURCES_PER_PATTERN = 20
# Medoid search compares this many pages of a cluster all-pairs.
MEDOID_CANDIDATES = 12


def _learn_cluster(
    layouts: list[PageLayout],
    sequences: list[KeySequence],
    pages: list[TrainingPage],
    intern: KeyInterner,
    options: LearnOptions,
    fallback: Callable[[int], str],
    site_texts: _SiteTexts | None,
) -> tuple[LayoutPattern | None, str]:
    size = len(layouts)
    sample = _evenly(range(size), options.sample_pages)
    center = _medoid([sequences[i] for i in sample])
    texts = {i: fallback(i) for i in sample}
    found = [i for i in sample if meaningful_length(texts[i]) >= options.min_main_chars]
    articles = {i: TextShingles.of(texts[i]) if i in found else None for i in sample}
    taken = {i: _taken(layouts[i], articles[i]) for i in sample}
    slots = _align_pages(layouts, sequences, sample, sample[center], intern, taken)
    scored = _score_slots(slots, len(sample), options, site_texts)
    sources = tuple(page.url for page in pages[:SOURCES_PER_PATTERN])
    article_share = len(found) / len(sample)
    # pages whose fallback article is not even half the least article: nothing there
    empty = [i for i in sample if meaningful_length(texts[i]) < options.min_main_chars / 2]
    # before min_pages on purpose: a hub needs no votes, and a page alone in its layout
    # (the site's front page) is a hub of its own; an article layout needs several pages
    if len(empty) >= (1 - HUB_MAX_ARTICLE_SHARE) * len(sample):
        cores = _cores(scored, options)
        biggest = cores[0][0].own_weight if cores else max((s.own_weight for s in scored), default=0)
        if biggest < options.min_main_chars:
            reason = (f"hub layout: the fallback found no article on {len(empty)} of "
                      f"{counted(len(sample), 'page')}")
            return _pattern(scored, size, sources, "hub"), reason
    if size < options.min_pages:
        return None, "a layout of one page"
    if article_share < MIN_ARTICLE_SHARE:
        return None, (
            f"refused: the fallback found an article on {len(found)} of "
            f"{counted(len(sample), 'page')} "
            "only (a mixed layout: the fallback decides page by page)"
        )
    votes = _KeyVotes.of(scored, set(found), options)
    _mark_main_by_evidence(scored, votes)
    _unmark_refused_slots(scored, set(found))
    mains = [s for s in scored if s.role == "main"]
    _unmark_other_variants_keys(mains, votes, options)
    mains = [s for s in scored if s.role == "main"]
    if not mains:
        return None, "refused: no block of the layout holds the fallback's article text"
    check = _self_check(scored, votes, articles)
    if not check.passed:
        return None, f"refused by the self-check: read leave-one-out, it {check}"
    boilerplate = _boilerplate(scored, len(_distinct_articles(sample, articles)), articles)
    by_page = dict(zip(sample, (pages[i] for i in sample)))
    cores = _cores(mains, options, require_prose=False)
    titles = []
    headline_in_body = False
    for core, group in cores:
        title = _title(scored, core, group, by_page, layouts, options)
        if title is not None:
            # the fallback took the headline with the article (as it takes a key of the
            # article's element: on a fair share of the pages), its words or its link; or
            # the headline is the article element's own (its container holds main text)
            headline_in_body |= (
                (title.agreement or 0.0) >= MIN_KEY_VOTE
                or _headline_share(title, mains, texts, found) >= MIN_KEY_VOTE
                or _headline_of_article(title, mains)
            )
            title.role = "title"
            titles.append(title)
    for slot in scored:
        if slot.role == "none" and slot.diff >= options.diff_threshold:
            slot.role = "sub"
    reason = "article layout" if titles else (
        "article layout, no title block found (no short varying block says its pages' "
        "link texts or <title> on half of them, nor repeats the article's words)"
    )
    if len(cores) > 1:
        reason += f" ({len(cores)} variants)"
    reason += f"; self-check: {check}"
    pattern = _pattern(scored, size, sources, "article", boilerplate)
    return dataclasses.replace(pattern, headline_in_body=headline_in_body), reason


def _headline_share(
    title: _ScoredSlot, mains: Sequence[_ScoredSlot], texts: dict[int, str], found: list[int]
) -> float:
    """Share of the pages with an article and the title slot whose fallback article has
    the title's text as a line of its own that no main block holds (a line "Section:
    Headline" opening the story would say it twice). ``agreement`` counts text outside
    links only, and a blog's headline is a link to its post (``<h3><a href=post>``),
    which the fallback keeps as the headline it is."""
    pages = [i for i in found if i in title.slot.texts]
    if not pages:
        return 0.0
    held = 0
    for i in pages:
        headline = " ".join(title.slot.texts[i].split())
        head = texts[i][: 4 * len(headline) + 200]  # the headline comes first, if at all
        if not headline or headline not in {" ".join(line.split()) for line in head.split("\n")}:
            continue
        held += not _said_by_mains(headline, i, title, mains)
    return held / len(pages)


def _said_by_mains(
    headline: str, page: int, title: _ScoredSlot, mains: Sequence[_ScoredSlot]
) -> bool:
    """Whether a main slot other than ``title`` holds ``headline`` (spaces collapsed) in its
    text of ``page``."""
    return any(
        headline in " ".join(m.slot.texts.get(page, "").split()) for m in mains if m is not title
    )


def _headline_of_article(title: _ScoredSlot, mains: Sequence[_ScoredSlot]) -> bool:
    """Whether the title slot is the headline of the article's element: its element sits
    in a container (below ``<body>``) that holds a main block too (``<article>`` with its
    ``<h1>`` and its text, a post's ``div`` with its ``h2`` and its entry; the headline's
    own wrappers, a ``<header>`` or ``div.entry-title``, are climbed:
    :func:`_heading_wrapper`; so is a module's header that holds the headline in a box of
    its own, ``div.yom-art-hd > div.bd > h1``), and no main block already says the
    headline on most of its pages (a breadcrumb trail ending in it). Such an article
    starts with its headline, as a reader sees it, whatever the fallback did with it.

    >>> def slot(key, texts):
    ...     return _ScoredSlot(_Slot(key, 0, dict(enumerate(texts))), 1.0, 0.0, 1.0, 0.0, 0.0, 0.0)
    >>> title = slot("body/div:class=post/h2", ["Storm closes the bridge", "Mayor resigns"])
    >>> entry = slot("body/div:class=post/div:class=entry", ["The council voted ...", "..."])
    >>> _headline_of_article(title, [entry])
    True
    >>> _headline_of_article(slot("body/div:id=header/h1", ["Storm"]), [entry])
    False
    >>> _headline_of_article(slot("body/div:class=post/header/div:class=title/h1",
    ...                           ["Storm closes the bridge"]), [entry])
    True
    >>> _headline_of_article(slot("body/div:class=post/div:class=mod-hd/div:class=bd/h1",
    ...                           ["Storm closes the bridge"]), [entry])
    True
    >>> trail = slot("body/div:class=post/div:class=crumbs",
    ...              ["Home News Storm closes the bridge", "Home Mayor resigns"])
    >>> _headline_of_article(title, [trail, entry])
    False
    """
    path = title.key.split("/")[:-1]
    climbed = 0
    while len(path) > 1 and climbed < HEADING_WRAPPERS and _heading_wrapper(path[-1]):
        # the headline's own wrappers (<header>, <hgroup>, div.entry-title) are not the
        # article's element: the container above them is
        path.pop()
        climbed += 1
    if not climbed:
        # a module's header holding the headline in an inner box of its own (YUI's
        # div.yom-art-hd > div.bd > h1): the nearest header wrapper within reach is the
        # headline's, and the container above it the article's
        for depth in range(2, HEADING_WRAPPERS + 1):
            if len(path) > depth and _heading_wrapper(path[-depth]):
                del path[-depth:]
                break
    container = "/".join(path)
    if len(path) < 2 or not any(
        m is not title and m.key.startswith(container + "/") for m in mains
    ):
        return False
    said = 0
    for page, text in title.slot.texts.items():
        headline = " ".join(text.split())
        said += bool(headline) and _said_by_mains(headline, page, title, mains)
    return said < HEADLINE_SAID_SHARE * len(title.slot.texts)


# A headline's own wrappers, climbed (at most this many) to the article's element: a
# <header> or <hgroup>, or an element whose id or class names a header, heading, headline
# or title (div.entry-title, header.postHeader, div.post-headline), or says "hd", the
# header's usual short name (YUI's and many templates' hd / bd / ft modules: yom-art-hd,
# mod-hd), as a word of its own.
HEADING_WRAPPERS = 3
HEADING_NAME = re.compile(
    r"header|heading|headline|title|(?-i:(?:^|[-_])hd(?:$|[-_]))", re.IGNORECASE
)


def _heading_wrapper(component: str) -> bool:
    """Whether a key component is an element wrapping a headline (see above).

    >>> _heading_wrapper("header"), _heading_wrapper("div:class=post-headline.wide")
    (True, True)
    >>> _heading_wrapper("div:class=entry"), _heading_wrapper("article:class=post")
    (False, False)
    >>> _heading_wrapper("div:class=yom-art-hd.yom-mod"), _heading_wrapper("div:class=shadow")
    (True, False)
    """
    if component.split(":", 1)[0] in ("header", "hgroup"):
        return True
    return any(
        HEADING_NAME.search(token.partition("=")[2]) for token in component_tokens(component)
    )


# A title slot whose text a main block holds on this share of its pages or more (a
# breadcrumb trail ending in the headline) is already in the article: not opened with it.
HEADLINE_SAID_SHARE = 0.5


def _taken(layout: PageLayout, article: TextShingles | None) -> list[float]:
    """Per block of ``layout``, its characters outside links that the fallback took: its
    own weight × the share of its shingles in the fallback's article (a block too short
    for a trigram, a two-word heading, is found by the article's lines). Text already seen
    in an earlier block of the page is not counted again: a comment quoting the article
    is not article text. A block of the page's navigation (:func:`_in_navigation`)
    takes nothing."""
    if article is None:
        return [0.0] * len(layout.blocks)
    seen: set[int] = set()
    taken = []
    for block in layout.blocks:
        if _in_navigation(block.key):
            taken.append(0.0)
            continue
        own = shingles(block.text)
        if own and block.own_weight:
            found = own & article.with_short_lines
            taken.append(block.own_weight * len(found - seen) / len(own))
        else:
            taken.append(0.0)
        seen |= own
    return taken


def _in_navigation(key: str) -> bool:
    """Whether ``key`` goes through the page's navigation: a ``<nav>``, or an element whose
    id or class names it a breadcrumb trail (``breadcrumbs``, ``top-breadcrumb``,
    ``breadCrumb``: the name every CMS and CSS framework gives it) below ``<body>`` (a
    body class says the page *has* one). Whatever the fallback's article holds, such a
    block is no article text: a breadcrumb trail ends in the page's own headline and,
    first on the page, would take the headline's votes from the heading below it (text
    seen before counts once).

    >>> _in_navigation("body/nav:class=crumbs/ul"), _in_navigation("body/div:class=navbar/ul")
    (True, False)
    >>> _in_navigation("body/div:id=breadcrumbs/div:class=bc_link"), _in_navigation(
    ...     "body:class=has_breadcrumbs/div:class=entry")
    (True, False)
    >>> _in_navigation("body/div:class=wrap.top-breadCrumb/ul"), _in_navigation(
    ...     "body/div:class=breadcrumbsy")
    (True, False)
    """
    return NAVIGATION_KEY.search(key) is not None


# One search per block: a <nav> on the way (layout.blocks.key_through), or an id or class
# token of an element below <body> with the word "breadcrumb(s)" in it (words of a token
# are split by "-" or "_"; tokens of a class by "."; see layout.blocks.component_tokens).
NAVIGATION_KEY = re.compile(
    key_through("nav").pattern
    + r"|(?i:/[^/]*:(?:id|class)=(?:[^/:]*[._-])?breadcrumbs?(?=[._\-:/]|$))"
)


def _distinct_articles(
    sample: list[int], articles: dict[int, TextShingles | None]
) -> list[int]:
    """The pages of ``sample`` that are not a copy of an earlier one (the same article
    under two URLs would make all its lines look repeated)."""
    distinct: list[int] = []
    for page in sample:
        article = articles[page]
        if article is not None and any(
            (other := articles[earlier]) is not None
            and len(article.shingles & other.shingles)
            >= DUPLICATE_SHARE * min(len(article.shingles), len(other.shingles))
            for earlier in distinct
        ):
            continue
        distinct.append(page)
    return distinct


# Two pages whose articles share this share of their shingles are one article.
DUPLICATE_SHARE = 0.8


# A cluster where the fallback finds an article on at most this share of the pages (and
# not even half an article on the others) is a hub layout (index, section, gallery
# pages): a hub pattern drops its pages unread, so it is learned only where the fallback
# would have dropped nearly all of them anyway. A layout of short posts, where the
# fallback's articles are just under the least length, is not one of hubs.
HUB_MAX_ARTICLE_SHARE = 0.1
# Below this share of pages with an article, the layout is neither: no pattern.
MIN_ARTICLE_SHARE = 0.5
# A varying prose key is article text when the fallback took, on average over the pages
# that vote, at least this share of its text. The fallback's page-by-page choices are
# noisy (it drops a caption, a standfirst, a cross-head on some pages and keeps them on
# others), while the elements around the article (comments, teasers, related lists) it
# leaves out nearly always: calibrated on the tuning halves of dragnet, cleanportal and
# chaos (0.1-0.2 best, 0.5 cost 0.03 on cleanportal's), checked on the held-out halves
# (dragnet's +0.003, cleanportal's +0.003 against 0.5).
MIN_KEY_VOTE = 0.15
# A line is taken by the fallback when its article holds at least this share of it.
MIN_AGREEMENT = 0.5


@dataclass
class _PageTally:
    """The characters of one key's slots on one page: those the fallback took, those
    outside links, and all."""

    taken: float = 0.0
    own: float = 0.0
    weight: float = 0.0


@dataclass
class _KeyVotes:
    """The fallback's votes on the keys of a layout: per key, per page where the key has
    text, the share of that text the fallback took as the page's article; and which keys
    could be article text at all (their text varies and reads as prose)."""

    votes: dict[str, dict[int, float]]
    eligible: set[str]

    @classmethod
    def of(
        cls, scored: list[_ScoredSlot], voters: set[int], options: LearnOptions
    ) -> _KeyVotes:
        """The votes of the pages of ``voters`` (those where the fallback found an
        article: the others have no opinion)."""
        tallies: dict[str, dict[int, _PageTally]] = defaultdict(dict)
        texts: dict[str, dict[int, list[str]]] = defaultdict(dict)
        for slot in scored:
            pages = tallies[slot.key]
            for page, own in slot.slot.own.items():
                texts[slot.key].setdefault(page, []).append(slot.slot.texts[page])
                if page not in voters:
                    continue
                tally = pages.setdefault(page, _PageTally())
                tally.taken += slot.slot.taken[page]
                tally.own += own
                tally.weight += slot.slot.weights[page]
        votes: dict[str, dict[int, float]] = {}
        eligible = set()
        for key, pages in tallies.items():
            votes[key] = {page: t.taken / t.own for page, t in pages.items() if t.own}
            own = sum(t.own for t in pages.values())
            total = sum(t.weight for t in pages.values())
            if (
                total
                and 1 - own / total <= options.max_main_link_share
                and diff_score(["\n".join(t) for t in texts[key].values()])
                >= options.diff_threshold
            ):
                eligible.add(key)
        return cls(votes, eligible)

    def rate(self, key: str, without: int | None = None) -> float:
        """The mean vote of the pages on ``key`` (leaving out page ``without``)."""
        votes = [v for page, v in self.votes.get(key, {}).items() if page != without]
        return sum(votes) / len(votes) if votes else 0.0

    def main_keys(self, without: int | None = None) -> set[str]:
        return {key for key in self.eligible if self.rate(key, without) >= MIN_KEY_VOTE}


def _mark_main_by_evidence(scored: list[_ScoredSlot], votes: _KeyVotes) -> None:
    """Main slots: every slot of a *main key*, a key whose text varies from page to page,
    reads as prose and was taken by the fallback on the layout's pages.

    The decision is the key's, not each slot's: the slots of one key are one element of
    the template (the article's paragraphs split by an inserted box, a blockquote seen
    on two pages only), and the votes of all its pages decide it. Each page where the key
    has text casts one vote, the share of that text the fallback took: a page whose
    fallback took a comment thread (a short post, long comments) is outvoted by the
    pages where it did not. Text a main key repeats on many pages (a promotion line, a
    share bar) is left out line by line (:func:`_boilerplate`), not by its slot.
    """
    main_keys = votes.main_keys()
    for slot in scored:
        slot.agreement = votes.rate(slot.key)
        if slot.key in main_keys:
            slot.role = "main"


# A slot of a main key whose text the fallback left out on every one of this many pages
# at least (a post's footer line inside the post's element) is not article text.
SLOT_MIN_VOTERS = 3


def _unmark_refused_slots(scored: list[_ScoredSlot], voters: set[int]) -> None:
    """A slot of a main key is not main when the fallback left its text out on the pages
    that vote (:data:`SLOT_MIN_VOTERS` at least; mean share taken below
    :data:`MIN_KEY_VOTE`): the key is the article's element, this position in it is not
    (a post's "Posted by ... | Permalink | 6 Comments" line closing the post)."""
    for slot in scored:
        if slot.role != "main":
            continue
        votes = [
            slot.slot.taken[page] / own
            for page, own in slot.slot.own.items()
            if page in voters and own
        ]
        if len(votes) >= SLOT_MIN_VOTERS and sum(votes) / len(votes) < MIN_KEY_VOTE:
            slot.role = "none"


def _unmark_other_variants_keys(
    mains: list[_ScoredSlot], votes: _KeyVotes, options: LearnOptions
) -> None:
    """In a layout of variants (:func:`_cores`: the article's core key, the one holding
    the most varying text, and another for the pages that lack it), a main key that
    the fallback left out on the pages of the first variant (:data:`SLOT_MIN_VOTERS`
    of them at least; mean vote under
    :data:`MIN_KEY_VOTE`) is not main: on those pages it is the text beside their
    article, whatever the votes of the other variant's pages (a table cell holding a wire
    story as its own text on those, and the list of the section's other stories after the
    paper's own story element on the others). The key's mean vote over all its pages
    cannot tell the two apart. The other variant's pages, where that key was the article,
    are then too short for the pattern and go to the fallback."""
    cores = _cores(mains, options, require_prose=False)
    if len(cores) < 2:
        return
    core, group = cores[0]
    first = set(group)
    refused = set()
    for key in {slot.key for slot in mains} - {core.key}:
        on = [vote for page, vote in votes.votes.get(key, {}).items() if page in first]
        if len(on) >= SLOT_MIN_VOTERS and sum(on) / len(on) < MIN_KEY_VOTE:
            refused.add(key)
    for slot in mains:
        if slot.key in refused:
            slot.role = "none"


@dataclass(frozen=True)
class SelfCheck:
    """How a layout's pattern reads its own pages, each with the keys the other pages
    voted for (leave-one-out), against the fallback's article of that page."""

    pages: int  # pages where the fallback found an article
    agreeing: int  # ... where the pattern's text agrees with it (shingle F1 >= 0.5)
    mean_f1: float

    @property
    def passed(self) -> bool:
        return self.pages == 0 or self.agreeing >= SELF_CHECK_MIN_SHARE * self.pages

    def __str__(self) -> str:
        return (
            f"agrees with the fallback on {self.agreeing} of {counted(self.pages, 'page')} "
            f"(mean F1 {self.mean_f1:.2f})"
        )


# A pattern is written when, read leave-one-out, its text agrees with the fallback's
# article on at least this share of its pages: below, the layout's article is not where
# its keys say (a template that varies more than its keys show), and nothing tells
# which of the two is right on the other pages: the fallback alone is the safer choice.
SELF_CHECK_MIN_SHARE = 0.5
# A page's pattern text agrees with the fallback when their shingle F1 reaches this.
SELF_CHECK_AGREEMENT = 0.5


def _self_check(
    scored: list[_ScoredSlot], votes: _KeyVotes, articles: dict[int, TextShingles | None]
) -> SelfCheck:
    scores = []
    for page, article in articles.items():
        if article is None:
            continue
        keys = votes.main_keys(without=page)
        text = "\n".join(
            slot.slot.texts[page]
            for slot in scored
            if slot.key in keys and page in slot.slot.texts
        )
        scores.append(TextShingles.of(text).agreement(article))
    agreeing = sum(score >= SELF_CHECK_AGREEMENT for score in scores)
    mean = sum(scores) / len(scores) if scores else 0.0
    return SelfCheck(len(scores), agreeing, mean)


# A line of the main text is boilerplate when it is on this share of the layout's pages
# (and on two at least): "Share this:", "Posted in: ... | comments |", a promotion line
# the site puts in every article.
BOILERPLATE_SHARE = 0.3
# ... and when the fallback took it (MIN_AGREEMENT of the line) on fewer than this share
# of those pages: it left the line out of most of their articles.
BOILERPLATE_MAX_TAKEN = 0.5


def _boilerplate(
    scored: list[_ScoredSlot], pages: int, articles: dict[int, TextShingles | None]
) -> tuple[str, ...]:
    """The lines of the main slots that several pages repeat and that the fallback left
    out of most of those pages' articles, in the form
    :func:`~newsstem.layout.patterns.line_form` compares them."""
    seen: dict[str, set[int]] = defaultdict(set)
    taken: dict[str, int] = defaultdict(int)
    for slot in scored:
        if slot.role != "main":
            continue
        for page, text in slot.slot.texts.items():
            article = articles.get(page)
            for line in text.split("\n"):
                form = line_form(line)
                if form and page not in seen[form]:
                    seen[form].add(page)
                    # a short line is never found in the article here: a label the
                    # site repeats ("Follow us!") is boilerplate wherever the fallback
                    # took it with the paragraphs around it
                    if (
                        article is not None
                        and article.share_of(line, short_lines=False) >= MIN_AGREEMENT
                    ):
                        taken[form] += 1
    least = max(2, BOILERPLATE_SHARE * pages)
    return tuple(
        sorted(
            form
            for form, on in seen.items()
            if len(on) >= least and taken[form] < BOILERPLATE_MAX_TAKEN * len(on)
        )
    )


def _pattern(
    scored: list[_ScoredSlot],
    pages: int,
    sources: tuple[str, ...],
    kind: str,
    boilerplate: tuple[str, ...] = (),
) -> LayoutPattern:
    # a slot of one page in a cluster of several says little about the layout
    kept = [s for s in scored if s.role != "none" or len(s.slot.texts) > 1 or pages < 4]
    score = math.log(pages) * sum(s.main for s in kept if s.role == "main")
    blocks = tuple(  # rounded as in the file, so that a saved file loads back equal
        PatternBlock(
            key=s.slot.key,
            role=s.role,
            diff_score=round(s.diff, 3),
            main_score=round(s.main, 1),
            presence=round(s.presence, 3),
            weight=round(s.weight, 1),
        )
        for s in kept
    )
    return LayoutPattern("", round(score, 2), pages, blocks, sources, kind, boilerplate)


def _evenly(indices: range, limit: int) -> list[int]:
    items = list(indices)
    if len(items) <= limit:
        return items
    step = len(items) / limit
    return [items[int(i * step)] for i in range(limit)]


def _medoid(sequences: list[KeySequence]) -> int:
    candidates = _evenly(range(len(sequences)), MEDOID_CANDIDATES)
    pair: dict[tuple[int, int], float] = {}  # similarity is symmetric: each pair once
    for i, x in enumerate(candidates):
        for y in candidates[i + 1 :]:
            pair[x, y] = pair[y, x] = similarity(sequences[x], sequences[y])
    best, best_total = 0, -1.0
    for x in candidates:
        total = sum(pair[x, y] for y in candidates if y != x)
        if total > best_total:
            best, best_total = x, total
    return best


def _align_pages(
    layouts: list[PageLayout],
    sequences: list[KeySequence],
    sample: list[int],
    center: int,
    intern: KeyInterner,
    taken: dict[int, list[float]],
) -> list[_Slot]:
    """Progressive alignment: the medoid's blocks are the first slots; each other page
    (most similar first) is aligned with the slots, its unmatched blocks become new slots."""
    slots: list[_Slot] = []
    for block, chars in zip(layouts[center].blocks, taken[center]):
        slot = _Slot(block.key, intern(block.key))
        slot.add(center, block, chars)
        slots.append(slot)
    others = [i for i in sample if i != center]
    others.sort(key=lambda i: -similarity(sequences[center], sequences[i]))
    for page in others:
        slot_sequence = KeySequence.of(
            [s.key_id for s in slots], [layout_weight(round(s.mean_weight())) for s in slots]
        )
        pairs = align(sequences[page], slot_sequence).pairs
        blocks = layouts[page].blocks
        merged: list[_Slot] = []
        next_block, next_slot = 0, 0
        for block_index, slot_index in (*pairs, (len(blocks), len(slots))):
            merged.extend(slots[next_slot:slot_index])
            for unmatched, chars in zip(
                blocks[next_block:block_index], taken[page][next_block:block_index]
            ):
                slot = _Slot(unmatched.key, intern(unmatched.key))
                slot.add(page, unmatched, chars)
                merged.append(slot)
            if slot_index < len(slots):
                slots[slot_index].add(page, blocks[block_index], taken[page][block_index])
                merged.append(slots[slot_index])
            next_block, next_slot = block_index + 1, slot_index + 1
        slots = merged
    return slots


class _SiteTexts:
    """Texts of each key on the site's pages (a few per key): a page alone in its layout
    can still tell its static blocks (the site's footer) from its own text."""

    PER_KEY = 10

    def __init__(self, layouts: Sequence[PageLayout]) -> None:
        self.texts: dict[str, list[str]] = {}
        for layout in layouts:
            seen: set[str] = set()
            for block in layout.blocks:
                if block.key in seen:
                    continue
                seen.add(block.key)
                texts = self.texts.setdefault(block.key, [])
                if len(texts) < self.PER_KEY:
                    texts.append(block.text)

    def others(self, key: str, text: str) -> list[str]:
        texts = list(self.texts.get(key, ()))
        if text in texts:
            texts.remove(text)  # the page's own text (identical texts elsewhere stay)
        return texts


def _score_slots(
    slots: list[_Slot], pages: int, options: LearnOptions, site_texts: _SiteTexts | None
) -> list[_ScoredSlot]:
    scored = []
    for slot in slots:
        present = len(slot.texts)
        total = sum(slot.weights.values())
        own = sum(slot.own.values())
        texts = list(slot.texts.values())
        if site_texts is not None and len(texts) == 1:
            texts += site_texts.others(slot.key, texts[0])
        diff = diff_score(texts)
        scored.append(
            _ScoredSlot(
                slot=slot,
                diff=diff,
                main=diff * own / pages,
                presence=present / pages,
                weight=total / present if present else 0.0,
                own_weight=own / present if present else 0.0,
                link_share=1 - own / total if total else 0.0,
            )
        )
    return scored


def diff_score(texts: Sequence[str]) -> float:
    """How much texts differ: 1 − the mean share of a text's word trigrams found in
    another text (averaged over the other texts). One text alone counts as varying.

    >>> diff_score(["Home | World | Sport"] * 3)
    0.0
    >>> diff_score(["The cat sat on the mat", "A dog ran in the park", "Rain fell all day long"])
    1.0
    >>> round(diff_score(["Updated 3 May 2013", "Updated 4 May 2013"]), 2)
    1.0
    """
    if len(texts) < 2:
        return 1.0
    shingle_sets = [_diff_shingles(text) for text in texts]
    counts: Counter[int] = Counter()
    for own in shingle_sets:
        counts.update(own)
    others = len(texts) - 1
    shared = 0.0
    for own in shingle_sets:
        if own:
            shared += sum(counts[s] - 1 for s in own) / (others * len(own))
        else:
            shared += 1.0  # empty everywhere: static
    return max(0.0, 1.0 - shared / len(texts))


def _diff_shingles(text: str) -> frozenset[int]:
    """The shingles :func:`diff_score` compares: those of
    :func:`~newsstem.layout.evidence.shingles`, but of words as runs of word characters
    (a run of CJK characters is one word here, where the evidence reads each character a
    token: the two differ on Chinese and Japanese text only)."""
    return word_shingles(_WORD.findall(text.lower()))


def _is_prose(slot: _ScoredSlot, options: LearnOptions) -> bool:
    return (
        slot.diff >= options.diff_threshold
        and slot.link_share <= options.max_main_link_share
        and not FORM_KEY.search(slot.slot.key)  # labels of a form are not an article
    )


def _cores(
    scored: list[_ScoredSlot], options: LearnOptions, require_prose: bool = True
) -> list[tuple[_ScoredSlot, list[int]]]:
    """The article's core slot, and, for pages of the cluster that lack it (a variant of
    the template that puts the article elsewhere), their own core: each with its pages."""
    candidates = [s for s in scored if not require_prose or _is_prose(s, options)]
    uncovered = {page for s in scored for page in s.slot.texts}
    cores: list[tuple[_ScoredSlot, list[int]]] = []
    while uncovered and candidates:
        best = max(
            candidates,
            key=lambda s: s.diff * sum(own for p, own in s.slot.own.items() if p in uncovered),
        )
        group = sorted(p for p in best.slot.own if p in uncovered)
        if cores:
            mean_own = sum(best.slot.own[p] for p in group) / len(group) if group else 0.0
            if len(group) < options.min_pages or mean_own < options.min_main_chars:
                break
        cores.append((best, group))
        uncovered.difference_update(group)
        candidates.remove(best)
    return cores


def _title(
    scored: list[_ScoredSlot],
    core: _ScoredSlot,
    group: list[int],
    pages: dict[int, TrainingPage],
    layouts: list[PageLayout],
    options: LearnOptions,
) -> _ScoredSlot | None:
    """The title slot of the pages of ``group``: the short varying slot most similar to
    the anchor texts (and the <title> of a page none of whose anchor texts says any
    candidate), else Webstemmer's fallback: the slot before the main text that repeats
    most of its words."""
    members = set(group)
    candidates = []
    for slot in scored:
        present = [p for p in slot.slot.texts if p in members]
        if (
            slot.role in ("none", "main")  # the fallback may take the headline too
            and slot is not core
            and slot.diff >= options.diff_threshold
            and len(present) >= 0.5 * len(group)
            and 0 < slot.weight <= options.max_title_chars
        ):
            candidates.append((slot, present))
    if not candidates:
        return None
    # the words of each candidate's first line on each of its pages in the group
    heads = [
        {index: word_set(slot.slot.texts[index].split("\n", 1)[0]) for index in present}
        for slot, present in candidates
    ]
    references: dict[int, list[set[str]]] = {}
    for index in group:
        anchors = [word_set(t) for t in pages[index].anchor_texts if t]
        # the <title> where no link reached the page, and where no anchor text says any
        # candidate: the links to a page may all say something else ("Print", "Read
        # more", "Article 16"), and such a page has still its <title>
        if not any(
            dice(head[index], anchor) >= options.title_threshold
            for head in heads if index in head
            for anchor in anchors
        ):
            anchors.append(word_set(layouts[index].title))
        references[index] = [words for words in anchors if words]
    core_position = scored.index(core)
    best, best_score = None, options.title_threshold
    for (slot, present), head in zip(candidates, heads):
        total = 0.0
        for index in present:
            total += max((dice(head[index], ref) for ref in references[index]), default=0.0)
        score = total / len(group)
        closeness = -abs(core_position - scored.index(slot)) * 1e-6  # ties: nearer the core
        if score + closeness > best_score:
            best, best_score = slot, score + closeness
    if best is not None:
        return best
    return _title_from_main(scored, core, [s for s, _ in candidates], options)


def _title_from_main(
    scored: list[_ScoredSlot],
    core: _ScoredSlot,
    candidates: list[_ScoredSlot],
    options: LearnOptions,
) -> _ScoredSlot | None:
    """Webstemmer's fallback: the slot before the main text whose words it repeats most."""
    core_position = scored.index(core)
    best, best_score = None, options.title_threshold
    for slot in scored[:core_position]:
        if slot not in candidates:
            continue
        total = 0.0
        for page, text in slot.slot.texts.items():
            words = word_set(text)
            main = word_set(core.slot.texts.get(page, ""))
            total += len(words & main) / len(words) if words else 0.0
        score = slot.presence * total / len(slot.slot.texts)
        if score > best_score:
            best, best_score = slot, score
    return best
