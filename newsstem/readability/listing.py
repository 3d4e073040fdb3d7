"""Is an extraction a list of teasers? (a section front or hub page, not an article)

Readability finds the densest prose of any page, and on a section front that is the
teasers: a headline linking to a story, one or two sentences under it, repeated. Every
extractor measured here exports such pages as articles (the two BBC section fronts of
cleanportal, nytimes-5 of mozilla); the crawl must not.

The signal is structural, not a length rule: a *teaser* is the largest element around a
headline link (a heading whose text is mostly a link to another page) that holds no
other headline link, and whose own prose (text outside links) is short. When three or
more teasers hold most of the selection's prose, and what is left is no longer than a
teaser, the page is a listing. An article keeps its prose outside such units: its
related-story boxes are teasers too, but they hold a small share of its text (at most
0.33 of it on the four corpora, hubs 0.99+), and a short brief still has a story.
A selection judged a listing is not yet the page's verdict: the extractor reads the page
again without its teasers (:func:`teaser_units`), as a page's feed of other stories can
outscore its own story (extractor._without_teasers).
"""

from __future__ import annotations

from collections.abc import Iterable

from newsstem.readability.measure import leaves_page, text_weight
from newsstem.readability.options import Options
from newsstem.readability.patterns import HEADINGS
from newsstem.readability.tree import Element, text_of

__all__ = ["is_listing", "teaser_share", "teaser_units"]

# A heading is a headline link when more than half of its text is in links to other
# pages ("mostly", as a page of navigation is: Options.max_article_link_density).
_HEADLINE_LINK_SHARE = 0.5


def teaser_share(selected: Iterable[Element], options: Options) -> float:
    """Share of the selection's prose (text outside links) that sits in teasers.

    0.0 when the selection has fewer than ``options.listing_min_teasers`` headline links
    or teasers.

    >>> from lxml import etree
    >>> story = "<div><h2><a href='/s{0}'>Story {0} headline</a></h2><p>Teaser {0}, short.</p></div>"
    >>> hub = etree.fromstring("<div>" + "".join(story.format(i) for i in range(3)) + "</div>")
    >>> teaser_share([hub], Options())
    1.0
    >>> article = etree.fromstring("<div><p>" + "Long prose, " * 80 + "</p></div>")
    >>> article.append(hub)
    >>> round(teaser_share([article], Options()), 2)
    0.05
    """
    teaser_prose, total = _teaser_prose(list(selected), options)
    return teaser_prose / total if total else 0.0


def is_listing(selected: Iterable[Element], options: Options) -> bool:
    """A section front: teasers hold ``listing_teaser_share`` of the prose, and the prose
    left outside them is no longer than one teaser (an article has a story of its own,
    however short, beside its related-story box).

    >>> from lxml import etree
    >>> story = "<div><h2><a href='/s{0}'>Story {0} headline</a></h2><p>Teaser {0}, short.</p></div>"
    >>> teasers = "".join(story.format(i) for i in range(3))
    >>> is_listing([etree.fromstring(f"<div>{teasers}</div>")], Options())
    True
    >>> brief = "<p>" + "A brief of two sentences, that is all. " * 8 + "</p>"
    >>> is_listing([etree.fromstring(f"<div>{brief}{teasers}</div>")], Options())
    False
    """
    teaser_prose, total = _teaser_prose(list(selected), options)
    return (
        total > 0
        and teaser_prose / total >= options.listing_teaser_share
        and total - teaser_prose <= options.teaser_max_prose
    )


def teaser_units(selected: Iterable[Element], options: Options) -> list[Element]:
    """The teasers of the selection (each a headline link's unit with at most
    ``teaser_max_prose`` of prose); none when it has fewer than ``listing_min_teasers``."""
    return [unit for unit, _ in _teasers(list(selected), options)]


def _teaser_prose(roots: list[Element], options: Options) -> tuple[float, float]:
    """The prose inside teasers and the prose of the whole selection (0, 0 without
    :func:`_teasers`)."""
    teasers = _teasers(roots, options)
    if not teasers:
        return 0.0, 0.0
    return sum(prose for _, prose in teasers), sum(_prose_weight(r, options) for r in roots)


def _teasers(roots: list[Element], options: Options) -> list[tuple[Element, float]]:
    """The teasers of the selection with their prose; none when it has fewer than
    ``listing_min_teasers`` headline links or teasers."""
    headlines = [h for root in roots for h in root.iter(*HEADINGS) if _is_headline_link(h)]
    if len(headlines) < options.listing_min_teasers:
        return []
    teasers = []
    for unit in _units(headlines, roots):
        prose = _prose_weight(unit, options)
        if prose <= options.teaser_max_prose:
            teasers.append((unit, prose))
    return teasers if len(teasers) >= options.listing_min_teasers else []


def _is_headline_link(heading: Element) -> bool:
    """A heading whose text is mostly inside links to other pages."""
    total = len("".join(text_of(heading).split()))
    if not total:
        return False
    linked = sum(
        len("".join(text_of(link).split())) for link in heading.iter("a") if leaves_page(link)
    )
    return linked / total > _HEADLINE_LINK_SHARE


def _units(headlines: list[Element], roots: list[Element]) -> list[Element]:
    """For each headline, its largest ancestor (within the selection) with no other headline."""
    stop = set(roots)
    count: dict[Element, int] = {}
    for headline in headlines:
        node = headline
        while node is not None:
            count[node] = count.get(node, 0) + 1
            if node in stop:
                break
            node = node.getparent()
    units = []
    for headline in headlines:
        unit = headline
        while unit not in stop:
            parent = unit.getparent()
            if parent is None or count.get(parent, 0) > 1:
                break
            unit = parent
        units.append(unit)
    return units


def _prose_weight(element: Element, options: Options) -> float:
    """Weighted length of the text outside links."""
    links = sum(text_weight(text_of(a), options.cjk_char_weight) for a in element.iter("a"))
    return text_weight(text_of(element), options.cjk_char_weight) - links
