"""The main content of a rendered page by where its boxes are (seed 001, "visual" scoring).

In a rendered page each element has a box: its position, width and height on the laid-out
page. Where a site puts its main content is predictable from the box alone: centred
across the page, starting near the top (but not stuck to it), about half to four fifths
of the page wide, and tall. Seed 001 scores each box by one density per property and
multiplies them:

- x: the box's centre across the page, a normal density N(0.5, 0.35);
- y: its top down the page, N(0.05, 0.35) (a box at the very top: 0.5, a banner);
- width: its share of the page width, a gamma density Γ(shape 6.7, scale 0.11), weight 2.5
  (the peak is at 0.63 of the page);
- height: its share of the page height, capped at 0.9;
- the element: ×2 inside ``<main>`` or an element whose id says main (newsstem adds
  ``role="main"``); navigation,
  asides, headers, footers, headings, paragraphs, links and table parts are no
  candidates; a box under 5 % of the page's area is too small; a wrapper whose only child
  has the same box is skipped for the child.

newsstem adds what the seed leaves to text: a box must hold text (at least
``min_chars`` meaningful characters) and mostly text that is not links (× the share of
its text outside links), and a box inside navigation, an aside, a header or a footer is
no candidate. The boxes come from the browser (:data:`newsstem.render.COLLECT_BOXES`);
this module takes them as plain data and imports nothing from Scrapy or the browser.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from newsstem.text import meaningful_length

__all__ = ["Box", "VisualChoice", "boxes_of", "main_box", "score_box", "visual_text"]

# The densities of seed 001.
X_MEAN, X_SD = 0.5, 0.35
Y_MEAN, Y_SD = 0.05, 0.35
WIDTH_SHAPE, WIDTH_SCALE, WIDTH_WEIGHT = 6.7, 0.11, 2.5
HEIGHT_CAP = 0.9
MAIN_BOOST = 2.0
# A candidate covers at least this share of the page's area (seed 001).
MIN_AREA_SHARE = 0.05
# ... and at least this share of its text is not links (a menu or a list of teasers is not
# an article, however central).
MIN_PROSE_SHARE = 0.5
# Elements that are no candidates by their name (seed 001).
NOT_CANDIDATES = frozenset({
    "nav", "aside", "header", "footer", "h1", "h2", "h3", "h4", "h5", "h6", "p",
    "blockquote", "pre", "a", "thead", "tfoot", "th", "dd", "dt", "menu",
})


@dataclass(frozen=True)
class Box:
    """One element of a rendered page: its box (CSS pixels, page coordinates), its name,
    whether it sits in ``<main>`` or in navigation/aside/header/footer, whether it only
    wraps one child of the same box, and its text (``link_chars``: how much is links)."""

    tag: str
    x: float
    y: float
    width: float
    height: float
    text: str = ""
    link_chars: int = 0
    in_main: bool = False
    in_other: bool = False
    wrapper: bool = False
    path: str = ""


@dataclass(frozen=True)
class VisualChoice:
    box: Box
    score: float


def boxes_of(rendered: Mapping[str, Any] | None) -> tuple[float, float, list[Box]]:
    """Page width, height and boxes from what the browser script returned (``{}`` or bad
    data: no boxes)."""
    if not isinstance(rendered, Mapping):
        return 0.0, 0.0, []
    try:
        width = float(rendered.get("width") or 0)
        height = float(rendered.get("height") or 0)
        boxes = [
            Box(
                tag=str(raw.get("tag", "")).lower(), x=float(raw["x"]), y=float(raw["y"]),
                width=float(raw["w"]), height=float(raw["h"]), text=str(raw.get("text") or ""),
                link_chars=int(raw.get("links") or 0), in_main=bool(raw.get("main")),
                in_other=bool(raw.get("other")), wrapper=bool(raw.get("wrapper")),
                path=str(raw.get("path") or ""),
            )
            for raw in rendered.get("boxes") or ()
            if isinstance(raw, Mapping)
        ]
    except (KeyError, TypeError, ValueError):
        return 0.0, 0.0, []
    return width, height, boxes


def _normal(value: float, mean: float, sd: float) -> float:
    return math.exp(-((value - mean) ** 2) / (2 * sd * sd)) / (sd * math.sqrt(2 * math.pi))


def _gamma(value: float, shape: float, scale: float) -> float:
    if value <= 0:
        return 0.0
    log = (shape - 1) * math.log(value) - value / scale
    log -= math.lgamma(shape) + shape * math.log(scale)
    return math.exp(log)


def score_box(box: Box, page_width: float, page_height: float) -> float:
    """Seed 001's score of a box (0 for a page without size).

    >>> article = Box("article", x=200, y=300, width=800, height=3000)
    >>> sidebar = Box("div", x=1020, y=300, width=240, height=3000)
    >>> score_box(article, 1280, 4000) > score_box(sidebar, 1280, 4000)
    True
    """
    if page_width <= 0 or page_height <= 0:
        return 0.0
    x = _normal((box.x + box.width / 2) / page_width, X_MEAN, X_SD)
    y = 0.5 if box.y <= 0 else _normal(box.y / page_height, Y_MEAN, Y_SD)
    width = _gamma(box.width / page_width, WIDTH_SHAPE, WIDTH_SCALE) ** WIDTH_WEIGHT
    height = min(box.height / page_height, HEIGHT_CAP)
    return x * y * width * height * (MAIN_BOOST if box.in_main else 1.0)


def main_box(
    boxes: Iterable[Box], page_width: float, page_height: float, min_chars: int = 1
) -> VisualChoice | None:
    """The box most like the page's main content, or None when no box qualifies."""
    area = page_width * page_height
    best: VisualChoice | None = None
    for box in boxes:
        if box.tag in NOT_CANDIDATES or box.in_other or box.wrapper:
            continue
        if area <= 0 or box.width * box.height < MIN_AREA_SHARE * area:
            continue
        chars = meaningful_length(box.text)
        if chars < min_chars:
            continue
        prose = max(0.0, 1.0 - box.link_chars / max(1, len(box.text)))
        if prose < MIN_PROSE_SHARE:
            continue
        score = score_box(box, page_width, page_height) * prose
        if best is None or score > best.score:
            best = VisualChoice(box, score)
    return best


_BLANK = re.compile(r"[ \t\u00a0]+")


def visual_text(text: str) -> str:
    """A box's rendered text (``innerText``: a line per block) as paragraphs."""
    lines = (_BLANK.sub(" ", line).strip() for line in text.splitlines())
    return "\n\n".join(line for line in lines if line)
