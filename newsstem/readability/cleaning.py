"""Article assembly and cleaning (seed 000 removeFragments and fishy, python-readability sanitize).

The selected elements are copied into a fresh ``<div>`` (the page tree stays as it was,
for a retry), and the copy is cleaned in place: headings of navigation, widgets, and
the containers that look "fishy". Each removal is recorded with its reason.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

from lxml import html as lxml_html
from lxml.html import HtmlElement

from newsstem.readability.measure import class_weight, has_block, link_density, text_weight
from newsstem.readability.options import Flags, Options
from newsstem.readability.patterns import (
    COMMAS,
    CONDITIONALLY_CLEANED,
    DROPPED_IN_ARTICLE,
    HEADINGS,
    MEDIA_TAGS,
)

__all__ = ["Removal", "assemble", "clean_article"]


@dataclass(frozen=True)
class Removal:
    """One element taken out of the article, and why (for debugging and tests)."""

    tag: str
    names: str
    reason: str


def assemble(
    selected: list[HtmlElement], scores: dict[HtmlElement, float]
) -> tuple[HtmlElement, dict[HtmlElement, float]]:
    """Copy the selected elements into a new <div>; carry their scores over to the copies."""
    article = lxml_html.Element("div")
    copied_scores: dict[HtmlElement, float] = {}
    for element in selected:
        duplicate = copy.deepcopy(element)
        for original, twin in zip(element.iter(), duplicate.iter()):
            score = scores.get(original)
            if score is not None:
                copied_scores[twin] = score
        if duplicate.tag in ("body", "html"):
            duplicate.tag = "div"
        article.append(duplicate)
    return article, copied_scores


def clean_article(
    article: HtmlElement, scores: dict[HtmlElement, float], flags: Flags, options: Options
) -> list[Removal]:
    """Clean the assembled article in place; return what was removed and why."""
    removals: list[Removal] = []
    _divs_to_paragraphs(article)
    _clean_headings(article, flags, options, removals)
    if flags.clean_conditionally:
        _clean_conditionally(article, scores, flags, options, removals)
    for element in list(article.iter(*DROPPED_IN_ARTICLE)):
        _remove(element, "widget", removals)
    _drop_empty_paragraphs(article, removals)
    return removals


def _remove(element: HtmlElement, reason: str, removals: list[Removal]) -> None:
    names = f"{element.get('class', '')} {element.get('id', '')}".strip()
    removals.append(Removal(tag=element.tag, names=names, reason=reason))
    element.drop_tree()


def _divs_to_paragraphs(article: HtmlElement) -> None:
    """A <div> without block children is a paragraph (Readability's parify)."""
    for div in article.iter("div"):
        if div is not article and not has_block(div):
            div.tag = "p"


def _clean_headings(
    article: HtmlElement, flags: Flags, options: Options, removals: list[Removal]
) -> None:
    for heading in list(article.iter(*HEADINGS)):
        weight = class_weight(heading, options.class_weight) if flags.weight_classes else 0
        if weight < 0:
            _remove(heading, "heading with a negative class", removals)
        elif link_density(heading) > options.header_link_density:
            _remove(heading, "heading of links", removals)


def _clean_conditionally(
    article: HtmlElement,
    scores: dict[HtmlElement, float],
    flags: Flags,
    options: Options,
    removals: list[Removal],
) -> None:
    # Innermost first, so a container is judged without the fishy parts it held.
    for element in reversed(list(article.iter(*CONDITIONALLY_CLEANED))):
        if element is article:
            continue
        reason = _fishy(element, scores, flags, options)
        if reason:
            _remove(element, reason, removals)


def _fishy(
    element: HtmlElement, scores: dict[HtmlElement, float], flags: Flags, options: Options
) -> str | None:
    """Why a container looks like page furniture, or None (seed 000 fishy())."""
    weight = class_weight(element, options.class_weight) if flags.weight_classes else 0
    if weight + scores.get(element, 0.0) < 0:
        return "negative score"
    text = element.text_content()
    if len(COMMAS.findall(text)) >= options.fishy_keep_commas:
        return None
    paragraphs = _count(element, "p")
    images = _count(element, "img")
    items = _count(element, "li") - options.fishy_li_allowance
    inputs = len(element.xpath(".//input[not(@type='hidden')]"))
    embeds = _count(element, "embed", "object", "iframe")
    length = text_weight(text, options.cjk_char_weight)
    if paragraphs and images > 1 + paragraphs * 1.3:
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
    if (embeds == 1 and length < options.fishy_embed_length) or embeds > 1:
        return "embeds without text"
    return None


def _count(element: HtmlElement, *tags: str) -> int:
    return sum(1 for _ in element.iterdescendants(*tags))


def _drop_empty_paragraphs(article: HtmlElement, removals: list[Removal]) -> None:
    for paragraph in list(article.iter("p")):
        if paragraph.text_content().strip():
            continue
        if next(paragraph.iterdescendants(*MEDIA_TAGS), None) is None:
            _remove(paragraph, "empty paragraph", removals)
