"""The article of one page: learned pattern, guard, readability fallback, in one decision.

:func:`extract_page` is what the crawl's pipeline, ``scrapy extract`` and users of the
Python API call, so a page gives the same article everywhere. No Scrapy import.

    >>> page = "<title>Hi</title><div><p>" + "Some words, more words. " * 20 + "</p></div>"
    >>> result = extract_page(page)
    >>> result.method, result.body[:22], result.guard
    ('readability', 'Some words, more words', 'none')
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from newsstem import defaults, readability
from newsstem.formats import blocks_to_markdown, html_to_markdown
from newsstem.inputs import check_html, check_texts
from newsstem.layout.evidence import TextShingles, shingles
from newsstem.layout.learn import SELF_CHECK_AGREEMENT
from newsstem.layout.patterns import (
    UNCLAIMED_MIN_CHARS,
    Extraction,
    HubPage,
    NoMatch,
    SitePatterns,
    paragraphs,
)
from newsstem.text import meaningful_length
from newsstem.visual import boxes_of, main_box, visual_text

__all__ = [
    "DECLARED_NOTE",
    "GUARD_AGREEMENT",
    "GUARD_NEAREST",
    "GUARD_SHARE",
    "NEAREST_AGREEMENT",
    "PageExtraction",
    "SHORT_TEXT_HELD",
    "extract_page",
]

# What the guard did (PageExtraction.guard):
NO_GUARD = "none"  # no pattern was used, or the pattern was sure of its text
GUARD_AGREED = "agreed"  # the fallback confirmed the pattern's text as it was
GUARD_CHANGED = "changed"  # the fallback's article decided the blocks the pattern was unsure of
GUARD_REPLACED = "replaced"  # the pattern's text was too short: the fallback's article is used
# the page fit no layout, its nearest article layout read it and the fallback agreed
GUARD_NEAREST = "nearest"

# The guard: blocks the pattern did not learn count as doubt when they weigh more than
# this share of the learned main text (a second article body under a new element, a
# gallery in the article's element, the article moved to a new container) ...
GUARD_SHARE = 0.25
# ... and such a block is kept when the fallback's article holds this share of its text,
GUARD_AGREEMENT = 0.5
# unless it holds a paragraph and this share of its shingles is in the text kept above it
# (a comment quoting the story).
GUARD_REPEATED = 0.5
# A pattern whose learned blocks hold less than a short article (min_chars) is no surer
# of the article than the fallback: when the fallback's article holds this share of the
# pattern's text (what the guard kept) and more, the fallback's article is used (a short
# post whose byline line, "Written By: ... - Oct 28 12", no learned block holds: a site
# of dragnet's tuning half; 0.5 gave the same figures).
SHORT_TEXT_HELD = 0.9
# A page that fits no layout is read by its nearest article layout (NoMatch.nearest, its
# blocks checked as the guard checks them) when that text and the fallback's article
# agree this much (shingle F1): the bar of learning's self-check. On dragnet's tuning
# half the pages read so agreed 0.81-1.0 with the fallback.
NEAREST_AGREEMENT = SELF_CHECK_AGREEMENT
# The note (``reason``) of a fallback's article that is the page's JSON-LD articleBody: a
# page whose markup gave no article (a script-built shell), a short one, or part of the
# declared story (readability.Extraction.declared).
DECLARED_NOTE = "article body declared in the page's structured data (JSON-LD articleBody)"


@dataclass(frozen=True)
class PageExtraction:
    """The article of a page, or why there is none.

    ``method`` is ``pattern:<id>`` (a learned layout of the site), ``readability``
    (the fallback), ``visual`` (the main box of a rendered page) or ``hub`` (the page
    has a hub layout of its site: no article).
    ``body`` is the text (paragraphs separated by a blank line); it is empty when the
    page has no article, and ``reason`` then says why (with a body, ``reason`` is a note:
    the nearest layout, the visual box, or :data:`DECLARED_NOTE` for the fallback's
    article taken from the page's JSON-LD ``articleBody``). ``pattern_id`` names the pattern
    the page matched, even when the fallback's article was used; ``guard`` says what
    the guard did (``none``, ``agreed``, ``changed``, ``replaced``, or ``nearest``: the
    page matched no layout, its nearest article layout read it, the fallback agreeing;
    ``pattern_id`` is then None, as for any page that matched none).
    ``title_source`` names where the title comes from, as a candidate of the headline
    decision (:mod:`newsstem.metadata.headline`): ``pattern`` where it is the text of a
    learned pattern's title block, ``extraction`` otherwise (the fallback's title, or a
    pattern's page that has no title block: the page's ``<title>``).
    """

    title: str
    body: str
    method: str
    reason: str | None = None
    sub: str = ""
    body_html: str = ""  # the cleaned article HTML (readability; when asked for)
    blocks: tuple[tuple[str, str], ...] = ()  # a pattern's main blocks: (key, text)
    pattern_id: str | None = None
    similarity: float = 0.0
    guard: str = NO_GUARD
    title_source: str = "extraction"

    @property
    def length(self) -> int:
        """Meaningful characters of the body (:func:`newsstem.text.meaningful_length`)."""
        return meaningful_length(self.body)

    @property
    def disagreed(self) -> bool:
        """The page matched a pattern, and the guard changed its text or replaced it."""
        return self.guard in (GUARD_CHANGED, GUARD_REPLACED)

    def html(self) -> str:
        """The article as HTML: the fallback's cleaned HTML, or a pattern's paragraphs."""
        if self.method == "readability":
            return self.body_html
        return "".join(f"<p>{html.escape(p)}</p>" for p in self.body.split("\n\n") if p)

    def markdown(self, *, links: bool = False) -> str:
        """The article as Markdown (:mod:`newsstem.formats`): headings, lists and quotes
        from the fallback's cleaned HTML, or from the element of each pattern block."""
        if self.method == "readability":
            return html_to_markdown(self.body_html, links=links)
        return blocks_to_markdown(self.blocks)


def extract_page(
    html: str | bytes,
    url: str | None = None,
    site_patterns: SitePatterns | None = None,
    anchor_texts: Sequence[str] = (),
    *,
    min_chars: int = defaults.NEWSSTEM_MIN_ARTICLE_CHARS,
    body_html: bool = False,
    rendered: Mapping[str, Any] | None = None,
) -> PageExtraction:
    """The article of ``html``: by the site's learned patterns when one fits, else by the
    readability fallback. ``body_html=True`` makes the fallback's cleaned HTML too.
    ``rendered`` is what the browser measured of a rendered page (its boxes, see
    :mod:`newsstem.visual`): when neither finds an article of ``min_chars``, the box
    most like the main content gives it (method ``visual``).

    The decision, in order:

    1. a page of a hub layout of the site has no article (method ``hub``);
    2. a page of an article layout gets the text of the pattern's main blocks, unless the
       pattern is unsure of it (the guard): its main text is shorter than ``min_chars``,
       or blocks of keys the pattern never learned weigh more than :data:`GUARD_SHARE`
       of it, whether taken as main for where they sit or left out though they are
       prose. Then the readability fallback reads the page too, and such blocks are kept
       when the fallback took them (:data:`GUARD_AGREEMENT`) and, if they hold a
       paragraph, do not repeat the text kept above them (a comment quoting the story);
       a main text still too short gives way to the fallback's article, and so does one
       whose learned blocks were too short when the fallback's article holds it
       (:data:`SHORT_TEXT_HELD`) and more (the same short article, read whole);
    3. a page that fits no layout well enough but comes near an article layout
       (:attr:`~newsstem.layout.patterns.MatchOptions.nearest_threshold`) is read by it
       with every block checked as in 2, when that text agrees with the fallback's
       article (:data:`NEAREST_AGREEMENT`): a template that gained a box or lost a
       class still holds its article where the pattern says (guard ``nearest``);
    4. any other page is the fallback's.

    ``anchor_texts`` (the texts of the links to the page) are accepted and not read here:
    the headline decision (:func:`newsstem.metadata.extract_metadata`) weighs them, and
    the learned patterns already used them to find their title blocks. They are a list
    of strings, ``["Story 3"]``: a string alone is a TypeError, as ``html`` neither
    ``str`` nor ``bytes`` is.
    """
    check_html(html, "extract_page")
    check_texts(anchor_texts, "anchor_texts", "extract_page")
    result = _extract(html, url, site_patterns, min_chars, body_html)
    if rendered and result.method != "hub" and meaningful_length(result.body) < min_chars:
        width, height, boxes = boxes_of(rendered)
        choice = main_box(boxes, width, height, min_chars)
        if choice is not None:
            return PageExtraction(
                result.title, visual_text(choice.box.text), "visual",
                f"visual score {choice.score:.3g} of {choice.box.path or choice.box.tag}",
                pattern_id=result.pattern_id, similarity=result.similarity,
                title_source=result.title_source,
            )
    return result


def _extract(
    html: str | bytes,
    url: str | None,
    site_patterns: SitePatterns | None,
    min_chars: int,
    body_html: bool,
) -> PageExtraction:
    matched = site_patterns.extract(html) if site_patterns is not None else None
    if isinstance(matched, HubPage):
        return PageExtraction(
            "", "", "hub", f"layout of hub pages {matched.pattern_id}",
            pattern_id=matched.pattern_id, similarity=matched.similarity,
        )
    if isinstance(matched, NoMatch) and matched.nearest is not None:
        return _nearest(html, url, matched.nearest, min_chars, body_html)
    if not isinstance(matched, Extraction):
        return _fallback(html, url, body_html, None)
    main = matched.main_blocks
    known_weight = sum(block.own_weight for block in main if block.known)
    doubt = GUARD_SHARE * max(known_weight, 1)
    if (
        known_weight >= min_chars
        and matched.guessed_weight <= doubt
        and matched.unclaimed_weight <= doubt
    ):
        return _by_pattern(matched, matched.body, [(b.key, b.text) for b in main], NO_GUARD)
    fallback = readability.extract(html, url=url, body_html=body_html)
    article = TextShingles.of(fallback.body)
    body, blocks = _checked_blocks(matched, article)
    if known_weight < min_chars and _reads_more(fallback.body, article, body):
        return _fallback(html, url, body_html, matched, fallback)
    if meaningful_length(body) >= min_chars:
        guard = GUARD_AGREED if body == matched.body else GUARD_CHANGED
        return _by_pattern(matched, body, blocks, guard)
    return _fallback(html, url, body_html, matched, fallback)


def _reads_more(fallback_body: str, article: TextShingles, body: str) -> bool:
    """Whether the fallback's article is the pattern's text read whole: longer, and
    holding :data:`SHORT_TEXT_HELD` of it (the guard asks this of a pattern whose learned
    blocks hold less than a short article)."""
    return (
        meaningful_length(fallback_body) > meaningful_length(body)
        and article.share_of(body) >= SHORT_TEXT_HELD
    )


def _nearest(
    html: str | bytes, url: str | None, nearest: Extraction, min_chars: int, body_html: bool
) -> PageExtraction:
    """A page that fits no layout, read by its nearest article layout (blocks checked as
    the guard checks them) when the text agrees with the fallback's article; else the
    fallback's article. Not a match: ``pattern_id`` stays None."""
    fallback = readability.extract(html, url=url, body_html=body_html)
    article = TextShingles.of(fallback.body)
    body, blocks = _checked_blocks(nearest, article)
    if (
        meaningful_length(body) >= min_chars
        and TextShingles.of(body).agreement(article) >= NEAREST_AGREEMENT
    ):
        return PageExtraction(
            nearest.title, body, f"pattern:{nearest.pattern_id}",
            f"nearest layout {nearest.pattern_id}, similarity {nearest.similarity:.3f}",
            sub=nearest.sub_text, blocks=tuple(blocks),
            similarity=nearest.similarity, guard=GUARD_NEAREST,
            title_source=_title_source(nearest),
        )
    return _fallback(html, url, body_html, None, fallback)


def _checked_blocks(
    matched: Extraction, article: TextShingles
) -> tuple[str, list[tuple[str, str]]]:
    """The text of the main blocks the guard keeps, and those blocks as (key, text) in
    page order: the learned ones, and the others when the fallback took them, unless a
    paragraph repeats text kept above it (a comment quoting the article)."""
    main = matched.main_blocks
    candidates = sorted(
        [(position, block.key, block.text, block.known, block.own_weight)
         for position, block in zip(matched.positions, main)]
        + [(position, block.key, block.text, False, block.own_weight)
           for position, block in zip(matched.positions[len(main) :], matched.unclaimed)]
    )
    kept = []
    seen: set[int] = set()
    for _, key, text, known, weight in candidates:
        own = shingles(text)
        repeats = weight >= UNCLAIMED_MIN_CHARS and len(own & seen) >= GUARD_REPEATED * len(own)
        if known or (article.share_of(text) >= GUARD_AGREEMENT and not repeats):
            kept.append((key, text))
            seen |= own
    return paragraphs(text for _, text in kept), kept


def _by_pattern(
    matched: Extraction, body: str, blocks: list[tuple[str, str]], guard: str
) -> PageExtraction:
    return PageExtraction(
        matched.title, body, f"pattern:{matched.pattern_id}",
        sub=matched.sub_text, blocks=tuple(blocks), pattern_id=matched.pattern_id,
        similarity=matched.similarity, guard=guard, title_source=_title_source(matched),
    )


def _title_source(matched: Extraction) -> str:
    """The title's source in the headline decision: a learned title block's text is
    evidence of its own (learning found the block where the site's links name the page)."""
    return "pattern" if matched.title_block else "extraction"


def _fallback(
    html: str | bytes,
    url: str | None,
    body_html: bool,
    matched: Extraction | None,
    result: readability.Extraction | None = None,
) -> PageExtraction:
    if result is None:
        result = readability.extract(html, url=url, body_html=body_html)
    return PageExtraction(
        result.title, result.body, "readability",
        DECLARED_NOTE if result.declared else result.reason, body_html=result.body_html,
        pattern_id=matched.pattern_id if matched is not None else None,
        similarity=matched.similarity if matched is not None else 0.0,
        guard=GUARD_REPLACED if matched is not None else NO_GUARD,
    )
