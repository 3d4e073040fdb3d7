"""The readability extractor: one parse, then the retry sieve over read-only scoring.

Each attempt of the sieve (seed 000 grabArticle) scores candidates on the page tree,
picks the best and its siblings, copies them into an article and cleans the copy.
An attempt with less than ``retry_length`` of text retries with the next flag turned
off (strip unlikelys, weight classes, clean conditionally); the longest attempt wins,
unless it lies inside the selection of a stricter one that has enough text, or what it
adds to a stricter article is mostly links.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, replace
from html import escape
from urllib.parse import urljoin

from lxml import etree

from newsstem.inputs import check_html
from newsstem.readability.cleaning import (
    Removal,
    assemble,
    clean_article,
    drop_site_notices,
    drop_stray_lines,
    has_site_notice,
    has_stray_lines,
)
from newsstem.readability.document import Page, detached, load_page
from newsstem.readability.described import KeyWords
from newsstem.readability.lead import find_headline, lead_blocks
from newsstem.readability.listing import is_listing, teaser_share, teaser_units
from newsstem.readability.measure import (
    Measure,
    capped_weight,
    dense_length_of,
    navigation_density,
    navigation_length,
)
from newsstem.readability.options import Flags, Options
from newsstem.readability.prose import added_prose_share, article_blocks
from newsstem.readability.render import element_text
from newsstem.readability.scoring import (
    CandidateScores,
    add_segments,
    best_candidate,
    score_candidates,
    select_siblings,
    wider_candidate,
)
from newsstem.readability.structured import extends
from newsstem.readability.title import clean_title
from newsstem.readability.trailer import (
    cut_after_tool_line,
    cut_comment_thread,
    may_have_comment_thread,
    may_have_tool_line,
)
from newsstem.readability.tree import (
    Element,
    is_below,
    make_links_absolute,
    strip_presentation,
    text_of,
)
from newsstem.rules import host_names
from newsstem.text import normalize_space

__all__ = ["Extraction", "extract"]

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Extraction:
    """What the extractor found: title, plain-text body, cleaned HTML, or why nothing;
    ``declared`` when the body is the article the page declares in JSON-LD."""

    title: str
    body: str
    body_html: str
    reason: str | None = None
    # The body is the page's JSON-LD articleBody (structured.py), not its markup's text.
    declared: bool = False


@dataclass(frozen=True)
class _Attempt:
    flags: Flags
    article: Element
    text: str
    length: float  # weighted text length, exact below retry_length (all the sieve compares)
    found_candidate: bool
    removals: tuple[Removal, ...]
    selected: tuple[Element, ...]  # the page elements the article was copied from


# (a frozen dataclass of some 60 fields: built once, not per page)
_DEFAULT_OPTIONS = Options()


def extract(
    html: str | bytes,
    url: str | None = None,
    options: Options | None = None,
    *,
    body_html: bool = True,
) -> Extraction:
    """Extract the article of one HTML page; never raises on a bad page (``html``
    neither ``str`` nor ``bytes`` is a TypeError).

    ``html`` is the page as text or as its original bytes (decoded like the crawler
    does). ``url`` makes the links of ``body_html`` absolute; with ``body_html=False``
    the cleaned HTML is not made (it is ``""``). A page without an article gives an
    empty body and a short ``reason``.

    >>> page = "<title>Hi | Site</title><div class='post'><p>" + "Some words, more words. " * 20 + "</p></div>"
    >>> result = extract(page)
    >>> result.reason is None, result.body.startswith("Some words"), result.title
    (True, True, 'Hi | Site')
    >>> extract(b"").reason
    'empty document'
    """
    check_html(html, "readability.extract")
    options = options or _DEFAULT_OPTIONS
    page = load_page(html)
    if isinstance(page, str):
        return Extraction(title="", body="", body_html="", reason=page)
    if page.empty:  # a shell with no text whose JSON-LD declares an article body
        shell = _declared(page, clean_title(page.title, ()), options)
        return shell or Extraction(title="", body="", body_html="", reason="empty document")
    title = clean_title(page.title, (text_of(h) for h in page.body.iter("h1", "h2")))
    described = page.described
    headline = _page_headline(page, options)
    page = _headline_not_unlikely(page, headline)
    story = _headline_story(page, headline)
    # A heading of links that is the headline is a permalink, not navigation (cleaning.py).
    headline_text = normalize_space(text_of(headline)) if headline is not None else ""
    # The title's words judge the best candidate as the description's do, on a page
    # that describes itself in fewer words (described.py, _described_candidate).
    key_words = KeyWords(described)
    if len(key_words) < options.described_min_words:
        key_words = KeyWords.of_title(title)  # (clean_title's title is normalized)
    attempt = _marked_attempt(page, options, headline_text) or _sieve(
        page, options, key_words, story, headline_text
    )
    reason = _rejection(attempt, page, options)
    if reason == "list of teasers":  # the page's feed of teasers won, its story may be elsewhere
        retried = _without_teasers(attempt, page, options, key_words, story, headline_text)
        if retried is not None:
            attempt, reason = retried, None
    if logger.isEnabledFor(logging.DEBUG):
        _log_attempt(attempt, reason, url)
    if (
        reason
        or attempt.length < options.min_article_length
        or (
            page.declared_body
            and extends(
                page.declared_body, attempt.text, options.declared_ratio, options.declared_share
            )
        )
    ):
        # A declared article beats no article and a short page alike ("Loading..."), and
        # an extraction it holds and much more (a story the markup gives in part).
        declared = _declared(page, title, options)
        if declared is not None:
            return declared
    if reason:
        return Extraction(title=title, body="", body_html="", reason=reason)
    names = host_names(url)
    if names and has_site_notice(attempt.text, names):
        removals = drop_site_notices(attempt.article, names)
        attempt = replace(
            attempt, text=element_text(attempt.article), removals=attempt.removals + tuple(removals)
        )
    if described:
        attempt = _with_lead(attempt, headline, described, options)
    cleaned = _article_html(attempt.article, url, page) if body_html else ""
    return Extraction(title=title, body=attempt.text, body_html=cleaned)


def _without_teasers(
    attempt: _Attempt,
    page: Page,
    options: Options,
    key_words: KeyWords,
    story: Element | None,
    headline: str,
) -> _Attempt | None:
    """The sieve again with the teasers of a selection judged a list of teasers taken out
    of the page (listing.teaser_units), when it finds an article longer than a teaser: the
    densest prose of a page can be its feed of other stories while its own story, shorter
    or scoring less, lies elsewhere (a section front stays rejected: with its teasers gone
    it has no story left, or one no longer than a teaser). None when it finds none."""
    units = teaser_units(attempt.selected, options)
    if not units:
        return None
    with detached(units):
        retried = _sieve(page, options, key_words, story, headline)
        if _rejection(retried, page, options):
            return None
    # A story is longer than a teaser: a teaser with no headline link (one left on a
    # section front once its headline-linked teasers are gone) is no article.
    cap = options.teaser_max_prose + 1
    if capped_weight(retried.text, cap, options.cjk_char_weight) < cap:
        return None
    # A story found so holds no teasers of its own: a section front's retry that still does
    # is its leftovers (headline lists, the rest of its feed) around a box of its own prose,
    # an "About this section" longer than a teaser (the retries kept, safedep.io's,
    # threatpost.com's and the fixture's, hold none).
    if teaser_share(retried.selected, options) > 0:
        return None
    return retried


def _with_lead(
    attempt: _Attempt, headline: Element | None, described: AbstractSet[str], options: Options
) -> _Attempt:
    """The attempt with the story's lead put first, when it lies between the headline and
    the selected body and agrees with the page's description (lead.py)."""
    if not attempt.selected or headline is None:
        return attempt
    leads = lead_blocks(headline, attempt.selected[0], described, options)
    if not leads:  # most pages: the article's text is not normalized for nothing
        return attempt
    # A lead the article holds as a block of its own is there already; one a paragraph
    # says within more (a quotation pulled up as the standfirst) is not. (The article's
    # lines are normalized already, each a paragraph or a <pre>'s line as element_text
    # renders it: normalize_space gives back a text it made.)
    known = set(attempt.text.split("\n"))
    texts = [
        text
        for block in leads
        for part in (block.iter("li") if block.tag in ("ul", "ol") else (block,))
        if (text := normalize_space(text_of(part))) and text not in known
    ]
    if not texts:
        return attempt
    return _put_first(attempt, texts, options)


def _put_first(attempt: _Attempt, texts: list[str], options: Options) -> _Attempt:
    """The attempt with a ``<p>`` of each of ``texts`` (normalized) put as the first
    children of its article, and its text and length to match (:func:`_with_lead`,
    :func:`_with_headline`: the retry sieve compares the lengths of attempts)."""
    for index, text in enumerate(texts):
        paragraph = etree.Element("p")
        paragraph.text = text
        attempt.article.insert(index, paragraph)
    if attempt.article.text is not None:
        text = element_text(attempt.article)
    else:
        # An article with no text before its first child (an assembled one): the <p>s of
        # normalized text put first render as themselves, then the article as it rendered
        # before, so its text is not rendered again.
        text = "\n\n".join([*texts, attempt.text] if attempt.text else texts)
    return replace(attempt, text=text, length=_length(text, options))


def _length(text: str, options: Options) -> float:
    """An attempt's ``length``: the weight of its text, exact below ``retry_length``."""
    return capped_weight(text, options.retry_length, options.cjk_char_weight)


def _declared(page: Page, title: str, options: Options) -> Extraction | None:
    """The JSON-LD articleBody as the article, when the markup gave none (structured.py)."""
    paragraphs = [normalize_space(line) for line in page.declared_body.splitlines()]
    text = "\n\n".join(paragraph for paragraph in paragraphs if paragraph)
    if capped_weight(text, options.declared_min_length, options.cjk_char_weight) < (
        options.declared_min_length
    ):
        return None
    body_html = "".join(f"<p>{escape(p)}</p>" for p in text.split("\n\n"))
    return Extraction(title=title, body=text, body_html=f"<div>{body_html}</div>", declared=True)


def _sieve(
    page: Page,
    options: Options,
    described: KeyWords,
    story: Element | None,
    headline: str,
) -> _Attempt:
    """Run attempts with ever more lenient flags until one has enough text; keep the
    longest, but for a shorter one that :func:`_stays` against it or to which it
    :func:`_adds_mostly_links`.

    ``described``: the key words of the page's description, or of its title where that
    gives too few (described.py); ``story``: the ``<article>`` of the page's headline, on a
    page of several (:func:`_headline_story`); ``headline``: the headline's text, kept
    when it is a link (cleaning.clean_article)."""
    best: _Attempt | None = None
    flags: Flags | None = Flags()
    previous: Flags | None = None
    # The measures of the tree as the last attempt read it, kept for the next attempts
    # that detach the same elements (the sieve leaves the page tree as it found it, so
    # those read the same texts and need not measure them again).
    measured: tuple[tuple[Element, ...], Measure] | None = None
    while flags is not None:
        elements = page.unlikely if flags.strip_unlikelys else page.never_article
        with detached(elements):
            if previous is not None and _repeats(previous, flags, page):
                # The same tree read the same way: the same too-short attempt again.
                previous, flags = flags, flags.relaxed()
                continue
            if measured is None or measured[0] != elements:
                measured = (elements, Measure(options))
            attempt = _grab_article(
                page.body, flags, options, described, story, headline, measured[1]
            )
        if best is None or (
            attempt.length > best.length
            and not _stays(best, attempt, options)
            and not _adds_mostly_links(best, attempt, options)
        ):
            best = attempt
        if attempt.length >= options.retry_length:
            break
        previous, flags = flags, flags.relaxed()
    assert best is not None
    return best


def _stays(shorter: _Attempt, longer: _Attempt, options: Options) -> bool:
    """Whether ``shorter``, found with stricter flags, stays the article against the
    ``longer`` attempt of laxer flags: when it has ``kept_attempt_length`` of text and
    the longer one lies inside its selection. The laxer flags then found nothing new,
    only what the stricter ones had read there and cleaned away (a blog's profile box
    with its class names ignored, a post's tag and "Posted by" lines).
    """
    if shorter.length < options.kept_attempt_length or not shorter.found_candidate:
        return False
    return all(
        any(is_below(element, outer) for outer in shorter.selected)
        for element in longer.selected
    )


def _adds_mostly_links(shorter: _Attempt, longer: _Attempt, options: Options) -> bool:
    """Whether more than half (``max_article_link_density``, the share that makes an
    article navigation) of what the ``longer`` attempt of laxer flags has over
    ``shorter``, a stricter one long enough to be an article, is link text: the laxer
    flags then found the page's links, not more of its story (a short post whose last
    attempt took its related posts and the post navigation, and was rejected as mostly
    links). A stricter attempt under ``min_article_length`` is no article to keep."""
    if not shorter.found_candidate or shorter.length < options.min_article_length:
        return False
    long_text, long_links = _text_and_links(longer.article)
    short_text, short_links = _text_and_links(shorter.article)
    if long_text <= short_text:
        return False
    return long_links - short_links > options.max_article_link_density * (long_text - short_text)


def _text_and_links(article: Element) -> tuple[int, int]:
    """The dense length of ``article``'s text, and of its links that leave the page (at
    most the text's, as :func:`navigation_density` caps its share)."""
    text = dense_length_of(article)
    return text, min(text, navigation_length(article))


def _repeats(previous: Flags, flags: Flags, page: Page) -> bool:
    """Whether the attempt with ``flags`` would repeat the one with ``previous`` (which
    found too little) exactly, so the sieve may skip it (an attempt scores the whole page
    again): list items read as paragraphs where no list item is left once the unlikely
    candidates are detached (cleaneval-dev and dragnet have such pages), or the unlikely
    candidates kept where all of them are never the article (detached all the same).
    Called with the attempt's elements detached."""
    if replace(previous, score_lists=flags.score_lists) == flags:
        return next(page.body.iter("li"), None) is None
    if replace(previous, strip_unlikelys=flags.strip_unlikelys) == flags:
        return page.unlikely == page.never_article
    return False


def _grab_article(
    body: Element,
    flags: Flags,
    options: Options,
    described: KeyWords,
    story: Element | None,
    headline: str,
    measure: Measure,
) -> _Attempt:
    """Score, select and clean; or the selection around a higher-scoring ancestor, when
    what that adds reads as prose (:func:`prose.added_prose_share`). ``measure``: the
    measures of ``body`` as it stands (shared by the attempts that read the same tree)."""
    scores = score_candidates(body, flags, options, measure)
    best = best_candidate(scores, options)
    if best is None:
        return _finish(assemble([body]), flags, options, [body], False, headline)
    if story is not None:
        best = _story_candidate(best, scores, story, options)
    if len(described) >= options.described_min_words:
        chosen = _described_candidate(best, scores, described, options, measure)
        if chosen is not best and described.title:
            attempt = _around(chosen, scores, flags, options, measure, headline)
            return _with_headline(attempt, chosen, described.title, options)
        best = chosen
    return _around(best, scores, flags, options, measure, headline)


def _around(
    best: Element,
    scores: CandidateScores,
    flags: Flags,
    options: Options,
    measure: Measure,
    headline: str,
) -> _Attempt:
    """The attempt around ``best``, or around the higher-scoring candidate that holds it
    when what that adds reads as prose (:func:`prose.added_prose_share`)."""
    attempt = _attempt_around(best, scores, flags, options, measure, headline)
    wider = wider_candidate(best, scores)
    if wider is None:
        return attempt
    alternative = _attempt_around(wider, scores, flags, options, measure, headline)
    narrow, wide = article_blocks(attempt.article), article_blocks(alternative.article)
    if added_prose_share(narrow, wide, options) >= options.wider_prose_share:
        return alternative
    return attempt


def _text_before(element: Element) -> str:
    """The first text before ``element`` in the page's order (normalized), or ""."""
    node = element
    while True:
        previous = node.getprevious()
        while previous is not None:
            text = normalize_space(previous.tail or "")
            if text:
                return text
            if isinstance(previous.tag, str):
                text = normalize_space(text_of(previous))
                if text:
                    return text
            previous = previous.getprevious()
        parent = node.getparent()
        if parent is None:
            return ""
        text = normalize_space(parent.text or "")
        if text:
            return text
        node = parent


def _with_headline(
    attempt: _Attempt, chosen: Element, title: str, options: Options
) -> _Attempt:
    """The attempt around a candidate the title's words chose, with the page's headline
    put first when it is the text just before that candidate (the page's cleaned
    ``title``, casefolded) and not in the attempt."""
    headline = _text_before(chosen)
    if headline.casefold() != title or headline in attempt.text:
        return attempt
    return _put_first(attempt, [headline], options)


def _headline_story(page: Page, headline: Element | None) -> Element | None:
    """The ``<article>`` that holds the page's ``headline`` (the h1-h3 its ``<title>`` or
    og:title names), on a page of several ``<article>`` elements (the next stories of an
    endless scroll, a sponsored story below the one the page is about); else None."""
    articles = page.body.iter("article")
    if next(articles, None) is None or next(articles, None) is None:
        return None
    if headline is None:
        return None
    return next(headline.iterancestors("article"), None)


def _headline_not_unlikely(page: Page, headline: Element | None) -> Page:
    """``page`` with its headline (the heading its ``<title>`` names) no unlikely
    candidate: a heading named as a header (BBC's ``h1.story-header``) is the story's
    own, and stays where it lies inside the story's container."""
    if headline is None or not page.unlikely:
        return page
    if not any(element is headline for element in page.unlikely):
        return page
    return replace(
        page,
        unlikely=tuple(element for element in page.unlikely if element is not headline),
        never_article=tuple(element for element in page.never_article if element is not headline),
    )


def _page_headline(page: Page, options: Options) -> Element | None:
    """The heading that the page's ``<title>`` or og:title names (lead.find_headline)."""
    titles = [page.title]
    titles.extend(page.social_titles)
    return find_headline(page.body, titles, options)


def _story_candidate(
    best: Element, scores: CandidateScores, story: Element, options: Options
) -> Element:
    """The best candidate, or, when it lies in another ``<article>`` than the page's
    headline (``story``), the best of the top candidates inside the headline's: a longer
    story further down the page is not the one the page is about."""
    if is_below(best, story) or best is story or is_below(story, best):
        return best
    if next(best.iterancestors("article"), None) is None and best.tag != "article":
        return best  # the best is in no story of its own: the headline's may be a teaser
    floor = scores.get(best, 0.0) * options.described_min_score_share
    for candidate in scores.top(options.described_candidates):
        if scores[candidate] < floor:
            break
        if is_below(candidate, story):
            return candidate
    return best


def _described_candidate(
    best: Element,
    scores: CandidateScores,
    described: KeyWords,
    options: Options,
    measure: Measure,
) -> Element:
    """The best candidate, or, when it holds few of the words of the page's description
    (described.py) and another of the top candidates holds most of them, that one: the
    densest prose of the page is not always its story (terms in a sign-up dialog, the
    next story of an endless scroll). Judged by the title's words, a candidate that
    holds them only where it repeats the title is not taken (:func:`_judged_text`; the
    text without those runs is made only for a candidate that holds them at all)."""
    if described.coverage(measure.text(best)) >= options.described_far:
        return best
    above = set(best.iterancestors())
    floor = scores.get(best, 0.0) * options.described_min_score_share
    for candidate in scores.top(options.described_candidates):
        if candidate in above or is_below(candidate, best) or scores[candidate] < floor:
            continue
        if described.coverage(measure.text(candidate)) < options.described_near:
            continue
        if not described.title or described.coverage(
            _judged_text(candidate, described, measure)
        ) >= options.described_near:
            return candidate
    return best


def _judged_text(candidate: Element, described: KeyWords, measure: Measure) -> str:
    """The text of ``candidate`` the key words are looked for in: when the title's words
    judge, without the runs of four words or more that repeat the title (a headline
    holds all the title's words; the story's prose must hold them of its own).

    >>> page = etree.fromstring(
    ...     "<div><p><b>Storm hits the coast towns</b></p> <p>By A. Writer</p></div>"
    ... )
    >>> title = "storm hits the coast towns"
    >>> _judged_text(page, KeyWords(set(title.split()), title=title), Measure(Options()))
    'by a writer'
    """
    return described.without_title_runs(measure.text(candidate))


def _attempt_around(
    best: Element,
    scores: CandidateScores,
    flags: Flags,
    options: Options,
    measure: Measure,
    headline: str,
) -> _Attempt:
    selected = select_siblings(best, scores, options, measure)
    selected = add_segments(best, selected, scores, options, measure)
    # A sibling that is itself a list of teasers (a rail of related stories beside the
    # story's paragraphs, scoring like them) is not the story's (listing.py).
    selected = [e for e in selected if e is best or not is_listing([e], options)]
    return _finish(assemble(selected), flags, options, selected, True, headline)


def _marked_attempt(page: Page, options: Options, headline: str) -> _Attempt | None:
    """The text the page marks for AdSense section targeting, cleaned like an article."""
    if not page.marked or is_listing(page.marked, options):
        return None
    article = etree.Element("div")
    article.extend(page.marked)
    attempt = _finish(article, Flags(), options, (), True, headline)
    return attempt if attempt.length >= options.min_article_length else None


# How an article's end is found, in order: a tool line after its prose (the tool lines
# above its prose go alone), then a thread of comments (each told first in the rendered
# text, then cut on the article's blocks).
_ENDS = (
    (may_have_tool_line, cut_after_tool_line, "tool line: end of article, or above its prose"),
    (may_have_comment_thread, cut_comment_thread, "end of article: comments"),
)


def _finish(
    article: Element,
    flags: Flags,
    options: Options,
    selected: Iterable[Element],
    found_candidate: bool,
    headline: str = "",
) -> _Attempt:
    """Clean the assembled article and measure it (``headline``: the page's headline's
    text, see :func:`cleaning.clean_article`)."""
    removals = clean_article(article, flags, options, headline)
    text = element_text(article)
    paragraphs = text.split("\n\n")  # split once for the pre-tests below
    if has_stray_lines(text, paragraphs):  # looked for in the text: most articles have none
        dropped = drop_stray_lines(article, options)
        if dropped:  # (it changes the tree only by what it reports: most find nothing)
            removals.extend(dropped)
            text = element_text(article)
            paragraphs = text.split("\n\n")
    for may_end, cut_end, reason in _ENDS:
        if may_end(text, options, paragraphs):  # most articles are spared the walk of blocks
            blocks = article_blocks(article)
            kept = cut_end(article, blocks, options)
            if kept < len(blocks):
                removals.append(Removal(tag="", names=blocks[kept].text, reason=reason))
                text = element_text(article)
                paragraphs = text.split("\n\n")
    return _Attempt(
        flags=flags,
        article=article,
        text=text,
        length=_length(text, options),
        found_candidate=found_candidate,
        removals=tuple(removals),
        selected=tuple(selected),
    )


def _log_attempt(attempt: _Attempt, reason: str | None, url: str | None) -> None:
    logger.debug("%s at %s with %s", reason or "article", url, attempt.flags)
    for removal in attempt.removals:
        logger.debug("removed <%s class/id=%r>: %s", removal.tag, removal.names, removal.reason)


def _rejection(attempt: _Attempt, page: Page, options: Options) -> str | None:
    if attempt.length < options.min_article_length and not _is_all_of_page(attempt, page, options):
        return "too little text" if attempt.found_candidate else "no candidate"
    if navigation_density(attempt.article) > options.max_article_link_density:
        return "mostly links"
    # Read on the page tree with every element back (headlines are often "unlikely").
    if is_listing(attempt.selected, options):
        return "list of teasers"
    return None


def _is_all_of_page(attempt: _Attempt, page: Page, options: Options) -> bool:
    """A short extraction holding nearly all the text of its page: a short page.

    Read only for short extractions; the page text is measured no further than needed.
    """
    if not attempt.length:
        return False
    cap = attempt.length / options.short_page_share
    page_length = capped_weight(text_of(page.body), cap + 1, options.cjk_char_weight)
    return page_length <= cap


def _article_html(article: Element, url: str | None, page: Page) -> str:
    if url:
        base = page.root.find("head/base")
        base_url = urljoin(url, base.get("href", "")) if base is not None else url
        make_links_absolute(article, base_url)
    strip_presentation(article)
    return etree.tostring(article, method="html", encoding="unicode")
