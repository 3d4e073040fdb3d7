"""Article assembly and cleaning (seed 000 removeFragments and fishy, python-readability sanitize).

The selected elements are copied into a fresh ``<div>`` (the page tree stays as it was,
for a retry), and the copy is cleaned in place: headings of navigation, widgets, and
the containers that look "fishy". Each removal is recorded with its reason.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass

from lxml import etree

from newsstem.readability.measure import capped_weight, class_weight, has_block, link_density
from newsstem.readability.options import Flags, Options
from newsstem.readability.patterns import (
    COMMAS,
    CONDITIONALLY_CLEANED,
    DROPPED_IN_ARTICLE,
    HEADINGS,
    MEDIA_TAGS,
    PLUGINS,
)
from newsstem.readability.tree import Element, drop, text_of

__all__ = ["Removal", "assemble", "clean_article"]


@dataclass(frozen=True)
class Removal:
    """One element taken out of the article, and why (for debugging and tests)."""

    tag: str
    names: str
    reason: str


def assemble(
    selected: list[Element], scores: Mapping[Element, float]
) -> tuple[Element, dict[Element, float]]:
    """Copy the selected elements into a new <div>; carry the scores the cleaning reads."""
    article = etree.Element("div")
    copied_scores: dict[Element, float] = {}
    for element in selected:
        duplicate = copy.deepcopy(element)
        for original, twin in zip(element.iter(), duplicate.iter()):
            if original.tag in CONDITIONALLY_CLEANED and original in scores:
                copied_scores[twin] = scores[original]
        if duplicate.tag in ("body", "html"):
            duplicate.tag = "div"
        article.append(duplicate)
    return article, copied_scores


def clean_article(
    article: Element, scores: dict[Element, float], flags: Flags, options: Options
) -> list[Removal]:
    """Clean the assembled article in place; return what was removed and why."""
    removals: list[Removal] = []
    _divs_to_paragraphs(article)
    _clean_headings(article, flags, options, removals)
    # Plugins go before containers are judged (Mozilla Readability's order): a prose
    # container holding a Flash object is not fishy. Form inputs still count, then go.
    for element in list(article.iter(*PLUGINS)):
        _remove(element, "plugin", removals)
    if flags.clean_conditionally:
        _clean_conditionally(article, CONDITIONALLY_CLEANED, scores, flags, options, removals)
    for element in list(article.iter(*DROPPED_IN_ARTICLE)):
        _remove(element, "widget", removals)
    _drop_empty_paragraphs(article, removals)
    return removals


def _remove(element: Element, reason: str, removals: list[Removal]) -> None:
    names = f"{element.get('class', '')} {element.get('id', '')}".strip()
    removals.append(Removal(tag=element.tag, names=names, reason=reason))
    drop(element)


def _divs_to_paragraphs(article: Element) -> None:
    """A <div> without block children is a paragraph (Readability's parify)."""
    for div in article.iter("div"):
        if div is not article and not has_block(div):
            div.tag = "p"


def _clean_headings(
    article: Element, flags: Flags, options: Options, removals: list[Removal]
) -> None:
    for heading in list(article.iter(*HEADINGS)):
        weight = class_weight(heading, options.class_weight) if flags.weight_classes else 0
        if weight < 0:
            _remove(heading, "heading with a negative class", removals)
        elif link_density(heading) > options.header_link_density:
            _remove(heading, "heading of links", removals)


def _clean_conditionally(
    article: Element,
    tags: tuple[str, ...],
    scores: dict[Element, float],
    flags: Flags,
    options: Options,
    removals: list[Removal],
) -> None:
    # Innermost first, so a container is judged without the fishy parts it held.
    for element in reversed(list(article.iter(*tags))):
        if element is article:
            continue
        reason = _fishy(element, scores, flags, options)
        if reason:
            _remove(element, reason, removals)


def _fishy(
    element: Element, scores: dict[Element, float], flags: Flags, options: Options
) -> str | None:
    """Why a container looks like page furniture, or None (seed 000 fishy())."""
    weight = class_weight(element, options.class_weight) if flags.weight_classes else 0
    if weight + scores.get(element, 0.0) < 0:
        return "negative score"
    text = text_of(element)
    if len(COMMAS.findall(text)) >= options.fishy_keep_commas:
        return None
    paragraphs = _count(element, "p")
    images = _count(element, "img")
    items = _count(element, "li") - options.fishy_li_allowance
    inputs = len(element.xpath(".//input[not(@type='hidden')]"))
    length = capped_weight(text, options.fishy_min_length, options.cjk_char_weight)
    if paragraphs and images > 1 + paragraphs * options.fishy_images_per_paragraph:
        return "more images than paragraphs"
    if items > paragraphs and element.tag not in ("ul", "ol"):
        return "more list items than paragraphs"
    if inputs > paragraphs / 3:
        return "form inputs"
    if length < options.fishy_min_length and (images == 0 or images > 2):
        return "too short"
    density = link_density(element)
    if weight < options.class_weight and density > options.fishy_link_density:
        return "too many links"
    if weight >= options.class_weight and density > options.fishy_link_density_weighted:
        return "too many links for its class"
    # No embed rule (Readability's "an embed needs 75 characters of text"): iframes are
    # dropped at load and plugins before this stage, so it would have nothing to judge.
    return None


def _count(element: Element, *tags: str) -> int:
    return sum(1 for _ in element.iterdescendants(*tags))


def _drop_empty_paragraphs(article: Element, removals: list[Removal]) -> None:
    for paragraph in list(article.iter("p")):
        if text_of(paragraph).strip():
            continue
        if next(paragraph.iterdescendants(*MEDIA_TAGS), None) is None:
            _remove(paragraph, "empty paragraph", removals)
