"""Candidate scoring, best-candidate choice and sibling merge (seed 000, seed 002).

Paragraphs (``p``, ``pre``, ``td``, ``blockquote``, and ``div``s without block children)
earn ``1 + commas + min(length / 100, 3)`` points that go to their ancestors: all to
the parent, half to the grandparent. Each ancestor starts from a tag score plus its
class weight, and ends scaled by ``1 - link density``. The best-scoring ancestor is the
article's core; its siblings join it when they score near it or read as prose.
"""

from __future__ import annotations

from collections.abc import Iterator

from lxml.html import HtmlElement

from newsstem.readability.measure import Measure, class_weight, text_weight
from newsstem.readability.options import Flags, Options
from newsstem.readability.patterns import (
    COMMAS,
    DIV_TO_P_BLOCKS,
    SCORED_TAGS,
    SENTENCE_END,
    TAG_SCORES,
)

__all__ = ["score_candidates", "best_candidate", "select_siblings"]

# Inline elements: a <div> mixing them with text and blocks holds paragraphs of its own.
_INLINE = frozenset(
    "a abbr b bdi bdo big cite code del dfn em font i ins kbd label mark q s samp small "
    "span strike strong sub sup time tt u var".split()
)


def score_candidates(
    body: HtmlElement, flags: Flags, options: Options, measure: Measure
) -> dict[HtmlElement, float]:
    """Score every ancestor of a paragraph; return element -> score, in document order."""
    scores: dict[HtmlElement, float] = {}
    for element in body.iter(*SCORED_TAGS, "div"):
        if element.tag == "div" and measure.has_block(element):
            for run in _text_runs(element):
                _credit(element, _paragraph_points(run, options), scores, flags, options)
            continue
        points = _paragraph_points(measure.text(element), options)
        _credit(element.getparent(), points, scores, flags, options)
    for element, score in scores.items():
        scores[element] = score * (1.0 - measure.link_density(element))
    return scores


def _paragraph_points(text: str, options: Options) -> float:
    """Readability's paragraph score; 0 for a paragraph too short to count."""
    length = text_weight(text, options.cjk_char_weight)
    if length < options.min_paragraph_length:
        return 0.0
    commas = len(COMMAS.findall(text))
    return 1.0 + (commas + 1) + min(length / options.length_per_point, options.max_length_points)


def _credit(
    parent: HtmlElement | None,
    points: float,
    scores: dict[HtmlElement, float],
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
        if node not in scores:
            scores[node] = _initial_score(node, flags, options)
        scores[node] += points * share
        node = node.getparent()


def _initial_score(element: HtmlElement, flags: Flags, options: Options) -> float:
    score = TAG_SCORES.get(element.tag, 0)
    if flags.weight_classes:
        score += class_weight(element, options.class_weight)
    return float(score)


def _text_runs(div: HtmlElement) -> Iterator[str]:
    """Text between the block children of a <div>: each run reads as a paragraph."""
    run = [div.text or ""]
    for child in div:
        inline = child.tag in _INLINE and next(child.iterdescendants("br", *DIV_TO_P_BLOCKS), None) is None
        if inline:
            run.append(child.text_content())
        else:
            yield "".join(run)
            run = []
        run.append(child.tail or "")
    yield "".join(run)


def best_candidate(scores: dict[HtmlElement, float], options: Options) -> HtmlElement | None:
    """The top-scoring candidate, moved up the tree when the content is spread out.

    Mozilla Readability's refinements: when several near-top candidates share an
    ancestor, that ancestor is the article; an only child gives way to its parent (so
    its siblings can be merged). Mozilla's third rule, climbing to a parent that scores
    higher, measured worse here (-0.011 F1 on cleaneval-dev, -0.002 on l3s) and is left out.
    """
    if not scores:
        return None
    ranked = sorted(scores, key=scores.__getitem__, reverse=True)[: options.top_candidates]
    best = ranked[0]
    best_score = scores[best]
    if best_score <= 0:
        return best
    alternatives = [
        set(candidate.iterancestors())
        for candidate in ranked[1:]
        if scores[candidate] / best_score >= options.alternative_ratio
    ]
    if len(alternatives) >= options.min_alternatives:
        for ancestor in _ancestors_below_body(best):
            if sum(ancestor in chain for chain in alternatives) >= options.min_alternatives:
                best = ancestor
                break
    parent = best.getparent()
    while parent is not None and parent.tag not in ("body", "html") and len(parent) == 1:
        best, parent = parent, parent.getparent()
    return best


def _ancestors_below_body(element: HtmlElement) -> Iterator[HtmlElement]:
    for ancestor in element.iterancestors():
        if ancestor.tag in ("body", "html"):
            return
        yield ancestor


def select_siblings(
    best: HtmlElement, scores: dict[HtmlElement, float], options: Options, measure: Measure
) -> list[HtmlElement]:
    """The best candidate and the siblings that belong with it, in document order."""
    parent = best.getparent()
    if parent is None or best.tag == "body":
        return [best]
    best_score = scores.get(best, 0.0)
    threshold = max(options.sibling_min_score, best_score * options.sibling_score_ratio)
    best_class = best.get("class")
    selected = []
    for sibling in parent:
        if not isinstance(sibling.tag, str):
            continue
        if sibling is best or _joins(sibling, best_class, best_score, threshold, scores, options, measure):
            selected.append(sibling)
    return selected


def _joins(
    sibling: HtmlElement,
    best_class: str | None,
    best_score: float,
    threshold: float,
    scores: dict[HtmlElement, float],
    options: Options,
    measure: Measure,
) -> bool:
    score = scores.get(sibling)
    if score is not None:
        if best_class and sibling.get("class") == best_class:
            score += best_score * options.same_class_bonus
        if score >= threshold:
            return True
    if not measure.reads_as_paragraph(sibling):
        return False
    length = measure.weight(sibling)
    density = measure.link_density(sibling)
    if length > options.sibling_long_paragraph:
        return density < options.sibling_link_density
    return density == 0.0 and SENTENCE_END.search(measure.text(sibling).strip()) is not None
