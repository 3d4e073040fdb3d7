"""The lead: a story's summary paragraph between its headline and its body.

News pages set a standfirst under the headline, in the story's header, apart from the
container of the body paragraphs that Readability selects. The page names its story in
its ``<title>`` (and ``og:title``): the heading that repeats it is the headline. And it
summarises the story in its meta description (``description``, ``og:description``,
``twitter:description``): a block between the headline and the selected body that says
what the description says is the lead. So is a block named as one, or set alone in a
wrapper named so (``<div class="intro"><p>``); and a list there is a lead of points
("key points" under a CNBC headline, ``<div id="article_deck"><ul><li>``), one paragraph
a point.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from collections.abc import Set as AbstractSet

from lxml import etree

from newsstem.readability.measure import has_block, link_density
from newsstem.readability.options import Options
from newsstem.readability.patterns import BOILERPLATE, HEADINGS
from newsstem.readability.prose import ends_sentence
from newsstem.readability.tree import Element, common_ancestor, text_of
from newsstem.text import cjk_count, normalize_space

__all__ = ["find_headline", "lead_blocks"]

_WORD = re.compile(r"\w+")
# Headline tokens: words, and each CJK character alone (CJK headlines have no spaces).
_CJK_CHARACTER = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")
# Blocks that may be a lead: paragraphs, the elements that serve as one in headers (an
# <h4> too: Taiwan News's standfirst under its <h1>, chaos tune), and lists (a story's
# points under its headline: chaos tune, CNBC 2017).
_LEAD_TAGS = ("p", "div", "h2", "h3", "h4", "span", "ul", "ol")
# Class/id names of a standfirst ("detail__excerpt", "article-lead", "c-standfirst", the
# newsroom's "subhead": <h2 class="subhead"> under The Albany Herald's headline, and its
# "subhed" inside a name, h2.articlesubhed1, h2.subheadlight): a block so named is a lead
# even when it says what the description says in other words.
_LEAD_NAMES = re.compile(
    r"standfirst|excerpt|sub-?hea?d|"
    r"(?:^|[ _-])(?:lead|intro|dek|deck|summary|abstract|subline|sub-?title)(?:$|[ _-])",
    re.IGNORECASE,
)


def _tokens(text: str) -> set[str]:
    text = text.casefold()
    if cjk_count(text):
        words = _WORD.findall(_CJK_CHARACTER.sub(" ", text))
        return set(_CJK_CHARACTER.findall(text)) | set(words)
    return set(_WORD.findall(text))


def find_headline(body: Element, titles: Iterable[str], options: Options) -> Element | None:
    """The first h1-h3 whose words are (nearly) all in one of the page's titles.

    >>> body = etree.fromstring(
    ...     "<body><h1>Site</h1><h2>Menu</h2><h1>Business: Hotel deals are negotiable</h1></body>"
    ... )
    >>> find_headline(body, ["Hotel deals are negotiable - Business"], Options()).text
    'Business: Hotel deals are negotiable'
    >>> find_headline(body, [""], Options()) is None
    True
    """
    known = [tokens for tokens in map(_tokens, titles) if tokens]
    if not known:
        return None
    for heading in body.iter(*HEADINGS[:3]):
        words = _tokens(text_of(heading))
        if len(words) < options.headline_min_words:
            continue
        if max(len(words & title) for title in known) >= options.headline_title_share * len(words):
            return heading
    return None


def lead_blocks(
    headline: Element, body_start: Element, described: AbstractSet[str], options: Options
) -> list[Element]:
    """The blocks after ``headline`` and before ``body_start`` in their closest common
    container (none when that is the whole page) that say what the page's description
    says (``described``: the first of :func:`described.words_and_social_titles`).

    >>> page = etree.fromstring(
    ...     "<body><article><header><h1>Storm hits</h1><p class='byline'>By A. Writer</p>"
    ...     "<p>The storm hit the coast on Tuesday, and the damage was severe.</p>"
    ...     "<p>Sign up for our daily newsletter, it is free.</p></header>"
    ...     "<div class='body'><p>Body.</p></div></article></body>"
    ... )
    >>> described = set("the storm hit the coast on tuesday".split())
    >>> leads = lead_blocks(page.find('.//h1'), page.find('.//div'), described, Options())
    >>> [text_of(block) for block in leads]
    ['The storm hit the coast on Tuesday, and the damage was severe.']
    """
    container = common_ancestor(headline, body_start)
    if container is None or container.tag in ("body", "html"):
        return []
    leads: list[Element] = []
    after_headline = False
    # Before the headline's end only its ancestors are walked into, the subtrees before
    # it skipped (half of the walk's events on fundus); a subtree before it that holds
    # body_start ends the walk as body_start itself does (the body starts above the
    # headline: nothing lies between them).
    to_headline = set(headline.iterancestors())
    to_body = set(body_start.iterancestors())
    walker = etree.iterwalk(container, events=("start", "end"))
    for event, element in walker:
        if element is body_start:
            break
        if event == "end":
            after_headline = after_headline or element is headline
            continue
        if not after_headline:
            if element is not headline and element not in to_headline:
                if element in to_body:
                    break
                walker.skip_subtree()
            continue
        # (the tag asked first: most elements after the headline are no block that
        # may be a lead, a comment's tag is no str)
        if element.tag not in _LEAD_TAGS:
            continue
        if _is_lead(element, container, described, options):
            leads.append(element)
            if len(leads) == options.lead_max_blocks:
                break
            walker.skip_subtree()
    return leads


def _is_lead(
    element: Element, container: Element, described: AbstractSet[str], options: Options
) -> bool:
    """Whether ``element`` (below ``container``) is a lead: a block of some length with few
    links, not in furniture, that says what the description says or is named as a lead,
    itself or by a wrapper that holds nothing else.

    >>> page = etree.fromstring(
    ...     "<div><div class='intro'><p>Carnivore hunted to extinction by settlers may"
    ...     " have survived.</p></div><div class='promo'><p>The inside track on the"
    ...     " news, every morning.</p><p>Sign up.</p></div></div>")
    >>> [_is_lead(p, page, set(), Options()) for p in page.iter("p")]
    [True, False, False]
    """
    if has_block(element):  # (its tag is one of _LEAD_TAGS: lead_blocks asked)
        return False
    text = normalize_space(text_of(element))
    if len(text) < options.lead_sentence_min_length:
        return False
    words = _WORD.findall(text.casefold())
    described_share = sum(word in described for word in words) / len(words) if words else 0.0
    # (a short block: a sentence all of whose words the description says, or no lead)
    if len(text) < options.lead_min_length and not (
        described_share == 1.0 and ends_sentence(text)
    ):
        return False
    said = described_share >= options.lead_description_share
    # Named as a lead: the block, or a wrapper of the block alone (<div class="intro"><p>).
    named = False
    alone = True
    for node in (element, *element.iterancestors()):
        if node is container:
            break
        if node.tag in ("figure", "figcaption", "a"):
            return False
        names = f"{node.get('class') or ''} {node.get('id') or ''}"
        if BOILERPLATE.search(names.lower()):
            return False
        alone = alone and (node is element or normalize_space(text_of(node)) == text)
        named = named or alone and _LEAD_NAMES.search(names) is not None
    if not (said or named):
        return False
    return link_density(element) <= options.lead_link_density
