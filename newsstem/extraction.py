"""The article of one page: learned pattern, guard, readability fallback, in one decision.

:func:`extract_page` is what the crawl's pipeline, ``scrapy extract`` and users of the
Python API call, so a page gives the same article everywhere. No Scrapy import.

    >>> page = "<title>Hi</title><div><p>" + "Some words, more words. " * 20 + "</p></div>"
    >>> result = extract_page(page)
    >>> result.method, result.body[:21]
    ('readability', 'Some words, more words')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from newsstem import defaults, readability
from newsstem.layout.evidence import TextShingles
from newsstem.layout.patterns import Extraction, HubPage, SitePatterns
from newsstem.text import meaningful_length

__all__ = ["PageExtraction", "extract_page"]


@dataclass(frozen=True)
class PageExtraction:
    """The article of a page, or why there is none.

    ``method`` is ``pattern:<id>`` (a learned layout of the site), ``readability``
    (the fallback) or ``hub`` (the page has a hub layout of its site: no article).
    ``body`` is empty when the page has no article; ``reason`` then says why.
    """

    title: str
    body: str
    method: str
    reason: str | None = None
    sub: str = ""
    body_html: str = ""
    pattern_id: str | None = None  # the pattern the page matched, even if not used
    similarity: float = 0.0
    # the page matched a pattern, and the guard changed the pattern's text or chose the
    # fallback's article instead
    disagreed: bool = False

    @property
    def length(self) -> int:
        return meaningful_length(self.body)


def extract_page(
    html: str | bytes,
    url: str | None = None,
    site_patterns: SitePatterns | None = None,
    anchor_texts: Sequence[str] = (),
    *,
    min_chars: int = defaults.NEWSSTEM_MIN_ARTICLE_CHARS,
    body_html: bool = False,
) -> PageExtraction:
    """The article of ``html``: by the site's learned patterns when one fits, else by the
    readability fallback.

    The decision, in order:

    1. a page of a hub layout of the site has no article (method ``hub``);
    2. a page of an article layout gets the text of the pattern's main blocks, unless the
       pattern is unsure of it (the guard): its main text is too short, or blocks of keys
       the pattern never learned weigh more than ``GUARD_SHARE`` of it, taken as main by
       their place or left out though they are prose. Then the readability fallback also
       reads the page, and such blocks are kept only if the fallback took them; a main
       text still too short gives way to the fallback's article;
    3. any other page is the fallback's.
    """
    matched = site_patterns.extract(html) if site_patterns is not None else None
    if isinstance(matched, HubPage):
        return PageExtraction(
            "", "", "hub", f"layout of hub pages {matched.pattern_id}",
            pattern_id=matched.pattern_id, similarity=matched.similarity,
        )
    fallback = None
    if isinstance(matched, Extraction):
        method = f"pattern:{matched.pattern_id}"
        main = matched.main_blocks
        known_weight = sum(block.own_weight for block in main if block.known)
        doubt = GUARD_SHARE * max(known_weight, 1)
        if (
            known_weight >= min_chars
            and matched.guessed_weight <= doubt
            and matched.unclaimed_weight <= doubt
        ):
            return PageExtraction(
                matched.title, matched.body, method, sub=matched.sub_text,
                pattern_id=matched.pattern_id, similarity=matched.similarity,
            )
        fallback = readability.extract(html, url=url, body_html=body_html)
        article = TextShingles.of(fallback.body)
        kept = [
            (index, block.text)
            for index, block in enumerate(main)
            if block.known or article.share_of(block.text) >= GUARD_AGREEMENT
        ]
        confirmed = [
            (index, block.text)
            for index, block in enumerate(matched.unclaimed, len(main))
            if article.share_of(block.text) >= GUARD_AGREEMENT
        ]
        if confirmed:  # in page order, main and unclaimed blocks alike
            order = matched.page_order()
            kept = sorted(kept + confirmed, key=lambda item: order[item[0]])
        body = "\n\n".join(line for _, text in kept for line in text.split("\n"))
        if meaningful_length(body) >= min_chars:
            return PageExtraction(
                matched.title, body, method, sub=matched.sub_text,
                pattern_id=matched.pattern_id, similarity=matched.similarity,
                disagreed=body != matched.body,
            )
    if fallback is None:
        fallback = readability.extract(html, url=url, body_html=body_html)
    return PageExtraction(
        fallback.title, fallback.body, "readability", fallback.reason,
        body_html=fallback.body_html,
        pattern_id=matched.pattern_id if isinstance(matched, Extraction) else None,
        disagreed=isinstance(matched, Extraction),
    )


# The guard: blocks the pattern did not learn count as doubt when they weigh more than
# this share of the learned main text ...
GUARD_SHARE = 0.25
# ... and such a block is kept when the fallback's article holds this share of its text.
GUARD_AGREEMENT = 0.5
