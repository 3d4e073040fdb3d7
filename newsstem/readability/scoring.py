"""Candidate scoring, best-candidate choice and sibling merge (seed 000, seed 002).

Paragraphs (``p``, ``pre``, ``td``, ``blockquote``, ``div``s without block children, and
the text runs between the blocks of other ``div``s) earn ``1 + commas + min(length / 100,
3)`` points that go to their ancestors: all to the parent, half to the grandparent, less
further up (``Options.ancestor_shares``). Each ancestor starts from a tag score plus its
class weight, and ends scaled by ``1 - link density``. The best-scoring ancestor is the
article's core; its siblings join it when they score near it or read as prose.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from lxml import etree

from newsstem.readability.measure import Measure, capped_weight, class_weight, dense_length_of
from newsstem.readability.options import Flags, Options
from newsstem.readability.patterns import (
    HEADINGS,
    SCORED_TAGS,
    SENTENCE_END,
    TAG_SCORES,
    comma_count,
)
from newsstem.readability.tree import Element, is_below, text_of

__all__ = [
    "CandidateScores",
    "add_segments",
    "best_candidate",
    "score_candidates",
    "select_siblings",
    "wider_candidate",
]

# Inline elements: a <div> mixing them with text and blocks holds paragraphs of its own.
_INLINE = frozenset(
    ["a", "abbr", "b", "bdi", "bdo", "big", "cite", "code", "del", "dfn", "em", "font", "i", "ins", "kbd", "label", "mark", "q", "s", "samp", "small", "span", "strike", "strong", "sub", "sup", "time", "tt", "u", "var"]
)


class CandidateScores(Mapping[Element, float]):
    """Content scores of the candidates, scaled by ``1 - link density`` when first read.

    Link density reads a candidate's whole text, and the candidates high in the tree
    hold most of the page: scaling lazily skips the many that never matter (ranking
    stops once the unscaled scores left cannot reach the top, since scaling only
    lowers a positive score). This halved the scoring time.
    """

    def __init__(self, points: dict[Element, float], measure: Measure) -> None:
        self._points = points  # unscaled, in the order candidates were met
        self._measure = measure
        self._scaled: dict[Element, float] = {}

    def __contains__(self, element: Element) -> bool:
        return element in self._points

    def __len__(self) -> int:
        return len(self._points)

    def __iter__(self) -> Iterator[Element]:
        return iter(self._points)

    def get(self, element: Element, default: float | None = None) -> float | None:
        scaled = self._scaled.get(element)
        if scaled is None:
            points = self._points.get(element)
            if points is None:
                return default
            density = self._measure.link_density(element)
            scaled = self._scaled[element] = points * (1.0 - density)
        return scaled

    def __getitem__(self, element: Element) -> float:
        score = self.get(element)
        if score is None:
            raise KeyError(element)
        return score

    def top(self, count: int) -> list[Element]:
        """The ``count`` best candidates by scaled score; ties go to the earlier one."""
        # (ranked as (negated scaled score, index) pairs, sorted as they are: no dict of
        # every candidate's index and no key call per element at each sort; the scores
        # are scaled in the same order, once each)
        elements, points = list(self._points), list(self._points.values())
        get = self.get
        ranked: list[tuple[float, int]] = []
        floor = float("-inf")
        for index in sorted(range(len(points)), key=points.__getitem__, reverse=True):
            if len(ranked) >= count and max(points[index], 0.0) < floor:
                break
            ranked.append((-get(elements[index]), index))
            ranked.sort()
            del ranked[count:]
            if len(ranked) >= count:
                floor = -ranked[-1][0]
        return [elements[index] for _, index in ranked]


def score_candidates(
    body: Element, flags: Flags, options: Options, measure: Measure
) -> CandidateScores:
    """Score every ancestor of a paragraph (unscaled points, scaled when read)."""
    scores: dict[Element, float] = {}
    tags = (*SCORED_TAGS, "li") if flags.score_lists else SCORED_TAGS
    for element in body.iter(*tags, "div"):
        tag = element.tag
        if tag == "div":
            if _holds_blocks_only(element):
                continue  # a wrapper: its runs are blank, its blocks are scored themselves
            runs = _text_runs(element)
            if len(runs) > 1:
                for run in runs:
                    points = _paragraph_points(run, options)
                    if points:
                        _credit(element, points, scores, flags, options)
                continue
            # one run: the <div>'s whole text, read already
            points = _paragraph_points(runs[0] if runs else measure.text(element), options)
        else:
            points = _paragraph_points(measure.text(element), options)
        if not points:
            continue  # (most paragraphs: too short to give anything)
        parent = element.getparent()
        if tag == "li":
            # A list item is a paragraph of its list's container, less its links.
            points *= 1.0 - measure.link_density(element)
            parent = parent.getparent() if parent is not None else None
        _credit(parent, points, scores, flags, options)
    return CandidateScores(scores, measure)


def _holds_blocks_only(div: Element) -> bool:
    """True when a <div> has no text of its own: blank text, and only block children
    (neither inline nor <br>) with blank tails."""
    # (each read of .text, .tag or .tail makes a new str: read once, this sees every <div>)
    text = div.text
    if text and not text.isspace():
        return False
    for child in div:
        tag, tail = child.tag, child.tail
        if tag in _INLINE or tag == "br" or (tail and not tail.isspace()):
            return False
    return True


def _paragraph_points(text: str, options: Options) -> float:
    """Readability's paragraph score; 0 for a paragraph too short to count."""
    text = text.strip()
    if len(text) * max(1.0, options.cjk_char_weight) < options.min_paragraph_length:
        return 0.0  # short whatever its characters: skip the regex count
    length = capped_weight(
        text, options.length_per_point * options.max_length_points, options.cjk_char_weight
    )
    if length < options.min_paragraph_length:
        return 0.0
    commas = comma_count(text)
    return 1.0 + (commas + 1) + min(length / options.length_per_point, options.max_length_points)


def _credit(
    parent: Element | None,
    points: float,
    scores: dict[Element, float],
    flags: Flags,
    options: Options,
) -> None:
    """Add the points to the parent and the shares of the further ancestors."""
    if not points:
        return
    node = parent
    for share in options.ancestor_shares:
        if node is None or node.tag == "html":
            return
        score = scores.get(node)  # (one look-up where "in" then "+=" took three)
        if score is None:
            score = _initial_score(node, flags, options)
        scores[node] = score + points * share
        node = node.getparent()


def _initial_score(element: Element, flags: Flags, options: Options) -> float:
    score = TAG_SCORES.get(element.tag, 0)
    if flags.weight_classes:
        score += class_weight(element, options.class_weight)
    return float(score)


def _text_runs(div: Element) -> list[str]:
    """The paragraphs of a <div>'s own text: split at its blocks and at double <br>.

    Inline elements (font, span, b ...) are read through, so text set with ``<br><br>``
    inside a ``<font>`` counts (Readability's replaceBrs). One run means the <div>
    reads as a single paragraph. A call per inline element with children (lxml's child
    iterator, where ``iterwalk`` gave two events per element); inline markup may nest
    2,000 deep, deeper than Python's call stack: such a <div> is walked.
    """
    runs: list[str] = []
    run: list[str] = [div.text or ""]
    try:
        _runs_below(div, runs, run, 0)
    except RecursionError:
        return _walked_runs(div)
    runs.append("".join(run))
    return runs


def _runs_below(parent: Element, runs: list[str], run: list[str], breaks: int) -> int:
    """:func:`_text_runs` over the children of ``parent`` and their tails: the finished
    runs added to ``runs``, the current one's pieces to ``run`` (emptied in place); the
    count of ``<br>`` since the last text is passed on and returned."""
    for node in parent:
        tag = node.tag
        if tag.__class__ is not str:
            continue  # (a comment, which iterwalk never yields: its tail is left out too)
        if tag in _INLINE:
            text = node.text
            if text:
                if not text.isspace():
                    breaks = 0
                run.append(text)
            if len(node):  # read its children too
                breaks = _runs_below(node, runs, run, breaks)
        elif tag == "br":
            breaks += 1
            if breaks == 2:
                runs.append("".join(run))
                run.clear()
        else:  # a block (or any other element) ends the run
            breaks = 0
            runs.append("".join(run))
            run.clear()
        tail = node.tail
        if tail:
            if not tail.isspace():
                breaks = 0
            run.append(tail)
    return breaks


def _walked_runs(div: Element) -> list[str]:
    """:func:`_text_runs` as one loop over ``iterwalk``'s events (a <div> whose inline
    markup nests deeper than Python's call stack)."""
    runs: list[str] = []
    run: list[str] = [div.text or ""]
    breaks = 0
    walker = etree.iterwalk(div, events=("start", "end"))
    for event, node in walker:
        if node is div:
            continue
        if event == "end":
            tail = node.tail
            if tail:
                if not tail.isspace():
                    breaks = 0
                run.append(tail)
            continue
        tag = node.tag
        if tag in _INLINE:
            text = node.text
            if text:
                if not text.isspace():
                    breaks = 0
                run.append(text)
            continue  # read its children too
        if tag == "br":
            breaks += 1
            if breaks == 2:
                runs.append("".join(run))
                run = []
        elif isinstance(tag, str):  # a block (or any other element) ends the run
            breaks = 0
            runs.append("".join(run))
            run = []
        walker.skip_subtree()
    runs.append("".join(run))
    return runs


def best_candidate(scores: CandidateScores, options: Options) -> Element | None:
    """The top-scoring candidate, moved up the tree when the content is spread out.

    Mozilla Readability's refinements: when several near-top candidates share an
    ancestor, that ancestor is the article; an only child gives way to its parent (so
    its siblings can be merged). Mozilla's third rule, climbing to a parent that scores
    higher, measured worse here (-0.011 F1 on cleaneval-dev, -0.002 on l3s) and is left out.

    A layout table's row (``<tr>``) is no story: when it tops the candidates and a
    candidate inside it scores as an alternative (``alternative_ratio`` of its score), that
    one is the best (the row sums the scores of its cells, the story's and the side
    column's).

    The shared ancestor is not taken when it is the page's wrapper (a child of
    ``<body>``) and the best holds ``page_wrapper_story_length`` characters: that story is
    long enough alone, and the near-top candidates sharing only the wrapper with it are the
    page's other boxes (an old table layout's story, its cell and row, and a box of the
    right column, all under ``div#wrapper``), not the story spread out. A short post still
    climbs to its blog's column.
    """
    if not scores:
        return None
    ranked = scores.top(options.top_candidates)
    best = ranked[0]
    if scores[best] <= 0:
        return best
    best = _story_in_row(best, ranked, scores, options)
    best_score = scores[best]
    alternatives = [
        set(candidate.iterancestors())
        for candidate in ranked[1:]
        if scores[candidate] / best_score >= options.alternative_ratio
    ]
    if len(alternatives) >= options.min_alternatives:
        for ancestor in _ancestors_below_body(best):
            if sum(ancestor in chain for chain in alternatives) >= options.min_alternatives:
                if not _is_page_wrapper_of_story(ancestor, best, options):
                    best = ancestor
                break
    return _above_only_children(best)


def _story_in_row(
    best: Element, ranked: list[Element], scores: CandidateScores, options: Options
) -> Element:
    """``best``, or, when it is a table row, the best-scoring of the ``ranked`` candidates
    inside it that scores ``alternative_ratio`` of it.

    >>> from newsstem.readability.measure import Measure
    >>> row = etree.fromstring(
    ...     "<tr><td><div id='story'/></td><td><div id='side'/></td></tr>")
    >>> story, side = row.find(".//div"), row.findall(".//div")[1]
    >>> scores = CandidateScores({row: 48.9, story: 45.0, side: 20.0}, Measure(Options()))
    >>> _story_in_row(row, scores.top(5), scores, Options()) is story
    True
    >>> scores = CandidateScores({row: 48.9, story: 30.0, side: 20.0}, Measure(Options()))
    >>> _story_in_row(row, scores.top(5), scores, Options()) is row
    True
    """
    if best.tag != "tr":
        return best
    floor = scores[best] * options.alternative_ratio
    for candidate in ranked[1:]:
        if scores[candidate] >= floor and is_below(candidate, best):
            return candidate
    return best


def _is_page_wrapper_of_story(ancestor: Element, best: Element, options: Options) -> bool:
    """Whether ``ancestor`` is the page's wrapper (a child of ``<body>``, or of ``<html>``
    where content lies outside ``<body>``) and ``best``, below
    it, holds a story long enough alone (``page_wrapper_story_length`` characters).

    >>> page = etree.fromstring(
    ...     "<html><body><div id='wrapper'><table><tr><td><div id='story'><p>"
    ...     + "The story goes on. " * 60 + "</p></div></td></tr></table></div></body></html>")
    >>> wrapper, story = page.find(".//div"), page.find(".//div/table//div")
    >>> _is_page_wrapper_of_story(wrapper, story, Options())
    True
    >>> _is_page_wrapper_of_story(page.find(".//table"), story, Options())
    False
    >>> _is_page_wrapper_of_story(wrapper, story, Options(page_wrapper_story_length=2000))
    False
    """
    parent = ancestor.getparent()
    if parent is None or parent.tag not in ("body", "html"):
        return False
    return len(" ".join(text_of(best).split())) >= options.page_wrapper_story_length


def wider_candidate(best: Element, scores: CandidateScores) -> Element | None:
    """The first ancestor scoring above the best, met before scores fall under a third
    of it (Mozilla Readability's climb: more content may lurk beside the best), or None.
    """
    last = scores.get(best, 0.0)
    floor = last / 3
    wider = None
    for ancestor in _ancestors_below_body(best):
        score = scores.get(ancestor)
        if score is None:
            continue
        if score < floor:
            return None
        if score > last:
            wider = ancestor
            break
        last = score
    if wider is None:
        return None
    return _above_only_children(wider)


def _above_only_children(element: Element) -> Element:
    """``element``, or its highest ancestor below <body> reached through only children."""
    parent = element.getparent()
    while parent is not None and parent.tag not in ("body", "html") and len(parent) == 1:
        element, parent = parent, parent.getparent()
    return element


def _ancestors_below_body(element: Element) -> Iterator[Element]:
    for ancestor in element.iterancestors():
        if ancestor.tag in ("body", "html"):
            return
        yield ancestor


def select_siblings(
    best: Element, scores: CandidateScores, options: Options, measure: Measure
) -> list[Element]:
    """The best candidate and the siblings that belong with it, in document order (and
    the crossheads between them: :func:`_with_crossheads`)."""
    parent = best.getparent()
    if parent is None or best.tag in ("body", "html"):
        return [best]
    best_score = scores.get(best, 0.0)
    threshold = _joining_score(best_score, options)
    best_class = best.get("class")
    selected = []
    for sibling in parent:
        if not isinstance(sibling.tag, str):
            continue
        score = scores.get(sibling)
        if best_class and sibling.get("class") == best_class and sibling is not best:
            if score is None:
                score = _inner_score(sibling, scores)
            if score is not None:
                score += best_score * options.same_class_bonus
        if (
            sibling is best
            or (score is not None and score >= threshold)
            or _is_paragraph_sibling(sibling, options, measure)
        ):
            selected.append(sibling)
    if len(selected) > 1:
        selected = _with_crossheads(parent, selected, options, measure)
    return selected


def _joining_score(best_score: float, options: Options) -> float:
    """The score a sibling or a segment needs to join the best candidate's selection."""
    return max(options.sibling_min_score, best_score * options.sibling_score_ratio)


def _with_crossheads(
    parent: Element, selected: list[Element], options: Options, measure: Measure
) -> list[Element]:
    """``selected`` with the siblings between its first and last that only wrap a
    heading of ``crosshead_min_words`` or more and lead to a selected sibling (the next
    sibling with text is one, or another such heading): a story set as a column of
    components, each a block of paragraphs, an embed or a crosshead, whose crossheads
    score nothing and joined no selection (StepFeed's `div.item` components, chaos tune).

    >>> column = etree.fromstring(
    ...     "<div><div><p>One.</p></div><div><h2>What it costs you</h2></div>"
    ...     "<div><iframe/></div><div><p>Two.</p></div><div><h2>Read more here</h2></div>"
    ...     "<ul><li>Other story</li></ul><div><p>Three.</p></div></div>")
    >>> parts = [column[0], column[3], column[6]]
    >>> [text_of(e) for e in _with_crossheads(column, parts, Options(), Measure(Options()))]
    ['One.', 'What it costs you', 'Two.', 'Three.']
    """
    taken = set(selected)
    siblings = [e for e in parent if isinstance(e.tag, str)]
    start, end = siblings.index(selected[0]), siblings.index(selected[-1])
    added = False
    leads_on = True  # the next sibling with text is selected, or a crosshead taken
    for sibling in reversed(siblings[start + 1 : end]):
        if sibling in taken:
            leads_on = True
        elif leads_on and _only_wraps_heading(sibling, options):
            taken.add(sibling)
            added = True
        elif measure.text(sibling).strip():
            leads_on = False
    if not added:
        return selected
    return [e for e in siblings if e in taken]


def _only_wraps_heading(element: Element, options: Options) -> bool:
    """Whether ``element`` is a heading of ``crosshead_min_words`` or more, or wraps one
    as its only element down to it, with ``heading_share`` of its text in the heading
    (as cleaning.py's heading wrappers)."""
    inner = element
    while inner.tag not in HEADINGS:
        children = [c for c in inner if isinstance(c.tag, str)]
        if len(children) != 1:
            return False
        inner = children[0]
    if len(text_of(inner).split()) < options.crosshead_min_words:
        return False
    return dense_length_of(inner) >= options.heading_share * dense_length_of(element)


def _inner_score(element: Element, scores: CandidateScores) -> float | None:
    inner = [scores[e] for e in element.iterdescendants() if e in scores]
    return max(inner) if inner else None


def _is_paragraph_sibling(sibling: Element, options: Options, measure: Measure) -> bool:
    """Whether ``sibling`` joins as a paragraph (seed 000 collectSiblings' <p> rule):
    long with few links, or short without links but with a stop. (Not prose.py's
    :func:`reads_as_prose`, which reads a rendered block.)"""
    if not measure.reads_as_paragraph(sibling):
        return False
    length = measure.weight(sibling, options.sibling_long_paragraph + 1)
    density = measure.link_density(sibling)
    if length > options.sibling_long_paragraph:
        return density < options.sibling_link_density
    return density == 0.0 and SENTENCE_END.search(measure.text(sibling).strip()) is not None


def add_segments(
    best: Element,
    selected: list[Element],
    scores: CandidateScores,
    options: Options,
    measure: Measure,
) -> list[Element]:
    """The selection plus the other segments of a split article, in document order.

    Pages that break a story with ads or embeds repeat its container
    (``<div class="story-body">`` twice in one ``<article>``): a candidate of the best's
    tag, sharing a class name with it, scoring like a joining sibling and not link-heavy,
    inside the same ``<article>`` or ``<main>``, is a segment (python-readability 0.9).
    """
    frame = next((a for a in best.iterancestors() if a.tag in ("article", "main")), None)
    best_classes = set((best.get("class") or "").split())
    if frame is None or not best_classes:
        return selected
    threshold = _joining_score(scores.get(best, 0.0), options)
    taken = set(selected)
    segments = [
        candidate
        for candidate in scores
        if candidate.tag == best.tag
        and candidate not in taken
        and best_classes.intersection((candidate.get("class") or "").split())
        and scores[candidate] >= threshold
        and measure.link_density(candidate) <= options.segment_link_density
    ]
    if not segments:
        return selected
    order = {element: index for index, element in enumerate(frame.getroottree().iter())}
    for segment in sorted(segments, key=order.__getitem__):
        ancestors = set(segment.iterancestors())
        if frame in ancestors and not ancestors & taken and not _holds_any(segment, taken):
            taken.add(segment)
    return sorted(taken, key=order.__getitem__)


def _holds_any(element: Element, elements: set[Element]) -> bool:
    return any(descendant in elements for descendant in element.iterdescendants())
