"""The readability extractor: one parse, then the retry sieve over read-only scoring.

Each attempt of the sieve (seed 000 grabArticle) scores candidates on the page tree,
picks the best and its siblings, copies them into an article and cleans the copy.
An attempt with less than ``retry_length`` of text retries with the next flag turned
off (strip unlikelys, weight classes, clean conditionally); the longest attempt wins.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from urllib.parse import urljoin

from lxml import etree

from newsstem.readability.cleaning import Removal, assemble, clean_article
from newsstem.readability.document import Page, detached, load_page
from newsstem.readability.measure import Measure, capped_weight, link_density
from newsstem.readability.options import Flags, Options
from newsstem.readability.render import element_text
from newsstem.readability.scoring import (
    add_segments,
    best_candidate,
    score_candidates,
    select_siblings,
)
from newsstem.readability.title import clean_title
from newsstem.readability.tree import Element, make_links_absolute, strip_presentation, text_of

__all__ = ["Extraction", "extract"]

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Extraction:
    """What the extractor found: title, plain-text body, cleaned HTML, or why nothing."""

    title: str
    body: str
    body_html: str
    reason: str | None = None


@dataclass(frozen=True)
class _Attempt:
    flags: Flags
    article: Element
    text: str
    length: float  # weighted text length, exact below retry_length (all the sieve compares)
    found_candidate: bool
    removals: tuple[Removal, ...]


def extract(html: str | bytes, url: str | None = None, options: Options | None = None) -> Extraction:
    """Extract the article of one HTML page; never raises on bad input.

    ``html`` is the page as text or as its original bytes (decoded like the crawler
    does). ``url`` makes the links of ``body_html`` absolute. A page without an
    article gives an empty body and a short ``reason``.

    >>> page = "<title>Hi | Site</title><div class='post'><p>" + "Some words, more words. " * 20 + "</p></div>"
    >>> result = extract(page)
    >>> result.reason is None, result.body.startswith("Some words"), result.title
    (True, True, 'Hi | Site')
    >>> extract(b"").reason
    'empty document'
    """
    options = options or Options()
    page = load_page(html)
    if isinstance(page, str):
        return Extraction(title="", body="", body_html="", reason=page)
    title = clean_title(page.title, (text_of(h) for h in page.body.iter("h1", "h2")))
    attempt = _sieve(page, options)
    reason = _rejection(attempt, options)
    if logger.isEnabledFor(logging.DEBUG):
        _log_attempt(attempt, reason, url)
    if reason:
        return Extraction(title=title, body="", body_html="", reason=reason)
    return Extraction(title=title, body=attempt.text, body_html=_article_html(attempt.article, url, page))


def _sieve(page: Page, options: Options) -> _Attempt:
    """Run attempts with ever more lenient flags until one has enough text; keep the longest."""
    best: _Attempt | None = None
    flags: Flags | None = Flags()
    while flags is not None:
        with detached(page.unlikely if flags.strip_unlikelys else ()):
            attempt = _grab_article(page.body, flags, options)
        if best is None or attempt.length > best.length:
            best = attempt
        if attempt.length >= options.retry_length:
            break
        flags = flags.relaxed()
    assert best is not None
    return best


def _grab_article(body: Element, flags: Flags, options: Options) -> _Attempt:
    measure = Measure(options)
    scores = score_candidates(body, flags, options, measure)
    best = best_candidate(scores, options)
    if best is None:
        selected = [body]
    else:
        selected = select_siblings(best, scores, options, measure)
        selected = add_segments(best, selected, scores, options, measure)
    article, copied_scores = assemble(selected, scores)
    removals = clean_article(article, copied_scores, flags, options)
    text = element_text(article)
    return _Attempt(
        flags=flags,
        article=article,
        text=text,
        length=capped_weight(text, options.retry_length, options.cjk_char_weight),
        found_candidate=best is not None,
        removals=tuple(removals),
    )


def _log_attempt(attempt: _Attempt, reason: str | None, url: str | None) -> None:
    logger.debug("%s at %s with %s", reason or "article", url, attempt.flags)
    for removal in attempt.removals:
        logger.debug("removed <%s class/id=%r>: %s", removal.tag, removal.names, removal.reason)


def _rejection(attempt: _Attempt, options: Options) -> str | None:
    if attempt.length < options.min_article_length:
        return "too little text" if attempt.found_candidate else "no candidate"
    if link_density(attempt.article) > options.max_article_link_density:
        return "mostly links"
    return None


def _article_html(article: Element, url: str | None, page: Page) -> str:
    if url:
        base = page.root.find("head/base")
        base_url = urljoin(url, base.get("href", "")) if base is not None else url
        make_links_absolute(article, base_url)
    strip_presentation(article)
    return etree.tostring(article, method="html", encoding="unicode")
