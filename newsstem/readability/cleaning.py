"""Article assembly and cleaning (seed 000 removeFragments and fishy, python-readability sanitize).

The selected elements are copied into a fresh ``<div>`` (the page tree stays as it was,
for a retry), and the copy is cleaned in place: headings of navigation, widgets, and
the containers that look "fishy". Each removal is recorded with its reason.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from lxml import etree

from newsstem.readability.measure import (
    capped_weight,
    class_weight,
    dense_length,
    dense_length_of,
    has_block,
    link_density,
)
from newsstem.readability.options import Flags, Options
from newsstem.readability.patterns import (
    BOILERPLATE,
    CONDITIONALLY_CLEANED,
    DIV_TO_P_BLOCKS,
    DROPPED_IN_ARTICLE,
    HEADINGS,
    MEDIA_TAGS,
    PLUGINS,
    TANGENTIAL,
    comma_count,
)
from newsstem.readability.prose import article_blocks, ends_sentence
from newsstem.readability.render import element_text
from newsstem.readability.tree import Element, drop, is_below, outermost, text_of
from newsstem.text import normalize_space

__all__ = ["Removal", "assemble", "clean_article", "drop_stray_lines", "has_stray_lines"]


@dataclass(frozen=True)
class Removal:
    """One element taken out of the article, and why (for debugging and tests)."""

    tag: str
    names: str
    reason: str


def assemble(selected: list[Element]) -> Element:
    """Copy the selected elements into a new <div> (the page tree stays as it was)."""
    article = etree.Element("div")
    for element in selected:
        duplicate = copy.deepcopy(element)
        if duplicate.tag in ("body", "html"):
            duplicate.tag = "div"
        article.append(duplicate)
    return article


def clean_article(
    article: Element, flags: Flags, options: Options, headline: str = ""
) -> list[Removal]:
    """Clean the assembled article in place; return what was removed and why.

    ``headline``: the text of the page's headline (the heading its ``<title>`` names,
    lead.find_headline), normalized; a heading with that text stays though it is a link.
    """
    removals: list[Removal] = []
    _divs_to_paragraphs(article)
    # (the wrappers of the headings are read before any box is cleaned: a box of links
    # stripped of its list by its class name would look like its heading's wrapper)
    headed = _clean_headings(article, flags, options, removals, headline)
    # Plugins go before containers are judged (Mozilla Readability's order): a prose
    # container holding a Flash object is not fishy. Form inputs still count, then go.
    for element in list(article.iter(*PLUGINS)):
        _remove(element, "plugin", removals)
    if flags.weight_classes:
        _drop_named_furniture(article, options, removals)
    # The picture boxes are found before the conditional cleaning, which would take a
    # picture's negatively named wrapper (div.field--name-field-media-image) and leave
    # the caption beside it with no picture to be found by.
    _drop_picture_boxes(article, options, removals, headline)
    if flags.clean_conditionally:
        _clean_conditionally(article, flags, options, removals, headed)
    for element in list(article.iter(*DROPPED_IN_ARTICLE)):
        _remove(element, "widget", removals)
    # HTML5 asides and footers hold what is beside or about the article, not the article
    # (Mozilla Readability removes them: +0.0007 F1 on mozilla, other corpora equal).
    for element in list(article.iter(*TANGENTIAL)):
        if element.getparent() is not article:  # a selected <aside> is the article
            _remove(element, "aside or footer", removals)
    # A figure's caption describes the picture, not the story: trafilatura and Fundus
    # leave it out, and so do the human-made gold texts of the modern corpora (fundus,
    # chaos); Mozilla Readability keeps it.
    for element in list(article.iter("figcaption")):
        _remove(element, "caption", removals)
    # So is the credit set beside it in the figure (<p class="credit">Chip Somodevilla/Getty
    # Images</p>, <div class="bb-figure__credit">), which the same gold texts leave out.
    for figure in list(article.iter("figure")):
        for element in list(figure.iterdescendants(etree.Element)):
            # (is_below: not inside a credit removed already)
            if _names_credit(element) and is_below(element, figure):
                _remove(element, "a figure's credit", removals)
    _drop_empty_paragraphs(article, removals)
    return removals


def _drop_picture_boxes(
    article: Element, options: Options, removals: list[Removal], headline: str = ""
) -> None:
    """Remove the box around each ``<picture>`` or lazily loaded ``<img>`` (:data:`_PICTURES`):
    the caption and credit a modern page sets beside its picture without ``<figure>``
    (``<div><picture/><div>Chelsea beat Tottenham on Thursday night</div><div>Getty
    Images</div></div>``; Rest of World's slides, an ``<img loading="lazy">`` beside its
    caption said again), a teaser card of another story or video; and the box of an image
    named as one (:func:`_image_boxes`: CNBC's ``div.embed-container.image`` and its
    credit, 2017), or a link around it (Metro's teaser cards), holding an image set by
    modern markup (:func:`_is_modern`), and a video player's box typed as one
    (:func:`_video_boxes`), each short and without prose as below. The box is the
    highest ancestor below the article holding no other picture,
    at most ``furniture_max_length`` of text and no prose paragraph (a section of the
    story set beside its photo stays), nor the heading that says the page's ``headline``
    (the story's own header around its lead photo, with its standfirst: Canada.com); nothing
    goes when less than ``furniture_keep_share`` of the text would stay, as for named
    furniture.

    >>> page = etree.fromstring(
    ...     "<div><div><div><picture><img/></picture><div>Fans at the ground</div>"
    ...     "<div>REUTERS</div></div></div><p>" + "The match was won late, as expected. " * 3
    ...     + "</p></div>")
    >>> _drop_picture_boxes(page, Options(), [])
    >>> etree.tostring(page, encoding="unicode").count("REUTERS")
    0
    """
    found: list[Element] = []
    removed = 0  # the dense length of the boxes' texts
    headlines: list[Element] | None = None  # read at the first picture (most pages: none)
    # The dense lengths read here, by element: the pictures of one article climb to the
    # same wrappers (a fundus pass measured 42% of their characters again), and nothing
    # changes the article before the boxes found are removed.
    lengths: dict[Element, int] = {}

    def length_of(element: Element) -> int:
        length = lengths.get(element)
        if length is None:
            length = lengths[element] = dense_length_of(element)
        return length

    for picture in _PICTURES(article):
        if headlines is None:
            headlines = _headings_saying(article, headline)
        box = None
        node = picture
        while (parent := node.getparent()) is not None and parent is not article:
            if (
                length_of(parent) > options.furniture_max_length
                or not _holds_no_story(parent, headlines, options)
                or len(_PICTURES(parent)) > 1
            ):
                break
            box = node = parent
        if box is None or (found and (box is found[-1] or is_below(box, found[-1]))):
            continue
        length = length_of(box)
        if length:
            found.append(box)
            removed += length
    # A box named as an image's (div.embed-container.image, section.photo), or a link
    # around its image, holding an image set by modern markup is one too: its text is the
    # image's credit or caption, or the title of the story a teaser card links to.
    # So is a video player's box typed as one (schema.org's VideoObject, microdata of 2011
    # on): its text is the player's title, its controls ("CLOSE") and its fallback message.
    # (the images set by modern markup read once, for the named boxes and the slideshows)
    modern = _modern_images(article)
    for box in [*_video_boxes(article), *_image_boxes(article, modern)]:
        if _overlaps(box, found):
            continue  # a picture's box found above, or inside it
        length = length_of(box)
        if 0 < length <= options.furniture_max_length and not _is_prose(box, options):
            if headlines is None:
                headlines = _headings_saying(article, headline)
            if _holds_no_story(box, headlines, options):
                found.append(box)
                removed += length
    # A slideshow whatever its names: three or more sibling slides, each the highest
    # wrapper of one image set by modern markup, of furniture length, and nothing
    # else of text beside them (the captions of a photo gallery set in the story).
    for slideshow in _slideshows(article, options, modern):
        if _overlaps(slideshow, found):
            continue  # a picture's box found above, or inside it
        found.append(slideshow)
        removed += length_of(slideshow)
    _remove_unless_most(article, found, removed, "a picture's caption or card", options, removals)


def _overlaps(box: Element, found: list[Element]) -> bool:
    """Whether ``box`` is one of ``found``, or below or above one of them."""
    return any(box is other or is_below(box, other) or is_below(other, box) for other in found)


def _slideshows(article: Element, options: Options, modern: list[Element]) -> list[Element]:
    """The slideshows of ``article`` told by their structure: an element of three
    children or more, each holding text or an image, every one of them a slide: the
    highest wrapper of one image set by modern markup (:func:`_is_modern`), with at most
    ``furniture_max_length`` of text and no heading. ``modern``: those images of
    ``article`` (:func:`_modern_images`: :func:`_drop_picture_boxes` reads them once for both).

    >>> slide = "<li><div><img data-src='a.jpg'/><p>A caption, of the photo.</p></div></li>"
    >>> page = etree.fromstring("<div><ul>" + slide * 3 + "</ul><p>Story.</p></div>")
    >>> [box.tag for box in _slideshows(page, Options(), _modern_images(page))]
    ['ul']
    """
    if len(modern) < 3:
        return []
    counts: dict[Element, int] = {}
    for image in modern:
        for ancestor in image.iterancestors():
            if ancestor is article:
                break
            counts[ancestor] = counts.get(ancestor, 0) + 1
    slides: dict[Element, list[Element]] = {}
    for image in modern:
        node = image
        while (parent := node.getparent()) is not None and parent is not article:
            if counts[parent] > 1:
                slides.setdefault(parent, []).append(node)
                break
            node = parent
    found: list[Element] = []
    for holder, members in slides.items():
        if len(members) < 3:
            continue
        children = [
            child for child in holder.iterchildren(etree.Element)
            if dense_length_of(child) or counts.get(child) or child.tag == "img"
        ]
        if len(children) != len(members):
            continue
        if any(
            dense_length_of(slide) > options.furniture_max_length
            or next(slide.iter(*HEADINGS), None) is not None  # (the slide itself too)
            for slide in members
        ):
            continue
        found.append(holder)
    return outermost(found)


def _holds_no_story(box: Element, headlines: list[Element], options: Options) -> bool:
    """Whether a picture's box holds none of the story: no heading that says the page's
    headline (the story's header around its lead photo) and no prose paragraph."""
    return not any(is_below(heading, box) for heading in headlines) and not any(
        _is_prose(paragraph, options) for paragraph in box.iter("p")
    )


# A class or id that names an image's box: "photo", "image", "img", "picture", "pic",
# "media" or "embed" (and their plurals) as a whole part of the name ("embed-container
# image", "atom photo", "embedded-image"; not "photographer" nor "imagery").
_IMAGE_NAME = re.compile(r"(?:^|[\s_-])(?:photo|image|img|picture|pic|media|embed)s?(?:$|[\s_-])")


def _modern_images(article: Element) -> list[Element]:
    """The ``<img>`` elements of ``article`` set by modern markup (:func:`_is_modern`)."""
    return [image for image in article.iter("img") if _is_modern(image)]


def _is_modern(image: Element) -> bool:
    """Whether ``image`` is set by modern markup: an ``<img>`` with a ``srcset`` (2014 on),
    a ``loading`` attribute (2019 on) or a ``data-*`` attribute a script reads (a lazy
    loader's source, a zoom's larger image, React's ids). The older corpora's pages set
    their images without them, and their gold texts keep the captions beside them.

    >>> _is_modern(etree.fromstring("<img src='a.jpg' data-enlarged-image='b.jpg'/>"))
    True
    >>> _is_modern(etree.fromstring("<img src='a.jpg' alt='A car' width='640'/>"))
    False
    """
    return any(
        name.startswith("data-") or name in ("srcset", "loading") for name in image.attrib
    )


# The elements of an article typed by microdata (few: most pages type none inside it).
# (Through the attribute axis: "descendant::*[@itemtype]" evaluates its predicate, a node
# set made and freed, at every element below; "@itemtype/.." gathers the attributes and
# their elements, the same elements in document order, for about a third less.)
_TYPED = etree.XPath("descendant::*/@itemtype/..")


def _video_boxes(article: Element) -> list[Element]:
    """The boxes of ``article`` typed as a video by schema.org microdata
    (``itemtype="http://schema.org/VideoObject"``), the outermost ones below it.

    >>> page = etree.fromstring(
    ...     "<div><div itemtype='http://schema.org/VideoObject'><video/><div>CLOSE</div>"
    ...     "<div itemtype='https://schema.org/VideoObject'/></div><p>Text.</p></div>")
    >>> [len(box) for box in _video_boxes(page)]
    [3]
    """
    videos = [box for box in _TYPED(article) if box.get("itemtype", "").endswith("VideoObject")]
    return outermost(videos)


def _image_boxes(article: Element, modern: list[Element]) -> list[Element]:
    """The boxes of ``article``'s images set by modern markup (:func:`_is_modern`) that
    are named so (:data:`_IMAGE_NAME`), or that are a link holding the image (a teaser
    card of another story, its photo and title in one ``<a>``: Metro's
    ``a.thumbnail-link`` between the paragraphs): for each such ``<img>``, its outermost
    such ancestor below ``article``, in document order. ``modern``: the images of
    ``article`` set by modern markup (:func:`_modern_images`).

    >>> page = etree.fromstring(
    ...     "<div><div class='embed-container image'><img data-src='a.jpg'/><div>Getty Images"
    ...     "</div></div><p><img data-src='b.jpg'/>An image without a box.</p>"
    ...     "<div class='photo'><img src='c.jpg'/>A plain image's caption.</div></div>")
    >>> [box.get("class") for box in _image_boxes(page, _modern_images(page))]
    ['embed-container image']
    """
    boxes: list[Element] = []
    named: dict[Element, bool] = {}  # (the images of a page share most of their ancestors)
    for image in modern:  # (most images of the older pages are not: no ancestor read)
        box = None
        for ancestor in image.iterancestors():
            if ancestor is article:
                break
            verdict = named.get(ancestor)
            if verdict is None:
                names = f"{ancestor.get('class') or ''} {ancestor.get('id') or ''}".lower()
                verdict = named[ancestor] = (
                    ancestor.tag == "a" or _IMAGE_NAME.search(names) is not None
                )
            if verdict:
                box = ancestor
        if box is not None and box not in boxes:
            boxes.append(box)
    return boxes


# The pictures of a modern page: a <picture>, or an <img> that the browser loads lazily by
# itself (``loading="lazy"``, an attribute of 2019 on: the older corpora's pages have none).
_PICTURES = etree.XPath("descendant::picture | descendant::img[@loading][not(ancestor::picture)]")


def _headings_saying(article: Element, headline: str) -> list[Element]:
    """The h1-h3 of ``article`` whose text is ``headline`` (normalized; "": none)."""
    if not headline:
        return []
    return [
        heading
        for heading in article.iter(*HEADINGS[:3])
        if normalize_space(text_of(heading)) == headline
    ]


# A paragraph that points to another story: a label, then a link ("READ: ...", "MORE:
# ...", "Related: ...", "SEE MORE: ...", "Up Next: ...", "Lesen Sie auch: ...", "Lire aussi
# : ..."), the label maybe in parentheses ("(MORE: ...)"). The human-made gold
# texts of the modern corpora (chaos, fundus, cleanportal) leave such lines out; the
# older ones keep them (dragnet's, and mozilla's, which is Readability.js's output).
_TEASER_LABEL = re.compile(
    # (the parenthesis and its spaces as one optional group: "\s*\(?\s*" splits a run of
    # spaces two ways at every length, and a paragraph's text can start with thousands)
    r"\s*(?:\(\s*)?(?:read|read more|read also|also read|read next|more|related|see also|"
    r"see more|up next|watch|listen|"
    r"lesen sie auch|lesen sie mehr|mehr zum thema|auch interessant|lire aussi|à lire aussi|"
    r"leer más|lee también|leia também|leia mais|leggi anche|czytaj też|czytaj także)"
    r"\s*[:|»>]",
    re.IGNORECASE,
)
_TEASER_MAX_LENGTH = 300  # characters: a line, not a paragraph that starts so
# A line that leads to the previous or the next post: "« Earlier post | Main | Later post
# »" (Movable Type), "« Previous Post ... Next Post »", "Previous story: ...", "Next:
# ...", "← Older post", mostly links: an arrow pointing back («, ‹, ←) or a word. The
# gold texts leave it out, old and modern alike: on the tuning pages it goes from 14
# (dragnet 11, chaos, cleaneval-dev and l3s one each), none worse.
_POINTING_WORDS = r"previous|prev|next|older|newer"  # (the words of these three patterns)
_POST_NAVIGATION = re.compile(
    rf"\s*(?:[«‹←]|(?:{_POINTING_WORDS})"
    r"(?:\s+(?:post|posts|story|article|entry))?\s*[:|»›>])",
    re.IGNORECASE,
)
# A line made only of the words that lead between posts or pages, one of them newer,
# older, previous or next ("Newer Post Older Post Home", Blogger's; "Previous 1 / 13
# Next", a gallery's), mostly links; short (tested first: a pager has a few words).
_NAVIGATION_MAX_LENGTH = 80
_NAVIGATION_LINE = re.compile(
    rf"(?:\s*(?:(?:{_POINTING_WORDS}|home|main|back|to|posts?|stor(?:y|ies)|"
    r"articles?|entr(?:y|ies)|pages?|\d+)\b|[/|‹›«»<>]))+\s*",
    re.IGNORECASE,
)
_NAVIGATION_WORD = re.compile(rf"\b(?:{_POINTING_WORDS})\b", re.IGNORECASE)


def _leads_between_posts(text: str) -> bool:
    """Whether a line's ``text`` leads to the previous or the next post
    (:data:`_POST_NAVIGATION`) or is a pager of such words (:data:`_NAVIGATION_LINE`).

    >>> _leads_between_posts("Newer Post Older Post Home"), _leads_between_posts("Next year.")
    (True, False)
    """
    return _POST_NAVIGATION.match(text) is not None or (
        len(text) <= _NAVIGATION_MAX_LENGTH
        and _NAVIGATION_LINE.fullmatch(text) is not None
        and _NAVIGATION_WORD.search(text) is not None
    )


# A line that asks the reader to follow, subscribe or sign up ("Follow us!", "Follow
# @NBCNewsUS", "Subscribe to the Study Hacks feed.", "Don't miss a post! Subscribe to our
# newsletter ...", "If you enjoyed this article, ..."): the site's call, not the story's.
# On the tuning pages the output's such lines are out of the gold 29 times of 30 (dragnet
# 25 of 26, l3s 3, chaos 1).
_CALL_TO_ACTION = re.compile(
    r"\W{0,3}(?:follow\s+(?:us|me)\b|follow\s+@\w|(?:like|find)\s+us\s+on\b|"
    r"connect\s+with\s+us\b|subscribe\s+to\s+(?:our|the|my)\b|"
    r"sign\s+up\s+for\s+(?:our|the|my)\b|don['’]t\s+miss\s+a\s+post\b|"
    # "If you enjoyed this article, enter your email ...", "Do you like this story?"
    r"(?:if|did|do)\s+you\s+(?:enjoy(?:ed)?|liked?|loved?)\s+(?:this|our|my)\s+"
    r"(?:article|post|story|blog)s?\b)",
    re.IGNORECASE,
)
_CALL_TO_ACTION_MAX_LENGTH = 200  # characters: a line, not a paragraph that starts so
# A line whose first sentence asks the reader to sign up for a newsletter, e-mails or
# alerts, after a lead of a few words ("Ground Game: Sign up for AP's weekly politics
# newsletter ...", "To receive these entries once a month by e-mail, sign up for the
# Crypto-Gram Newsletter.", "Click here to sign up for breaking news alerts"), but for
# the writer's own ("sign up for my newsletter"): the site's call, whatever its words
# before it.
_SIGN_UP = re.compile(
    r"\b(?:sign(?:ing)?\s+up|subscribe)(?:\s+now)?\s+(?:for|to)\s+"
    r"(?!(?:my|his|her)\b)[^.!?]{0,50}?\b(?:newsletters?|e-?mails|alerts)\b",
    re.IGNORECASE,
)
_SIGN_UP_LEAD = 60  # characters at most before it, with no sentence's end among them
_SENTENCE_STOP = re.compile(r"[.!?]")


def _calls_to_action(text: str) -> bool:
    """Whether a line's ``text`` asks the reader to follow the site or subscribe to it
    (:data:`_CALL_TO_ACTION`), or to sign up for its newsletter, e-mails or alerts after a
    lead of a few words (:data:`_SIGN_UP`).

    >>> _calls_to_action("Follow us!"), _calls_to_action("Follow the money, he said.")
    (True, False)
    >>> _calls_to_action("Ground Game: Sign up for the weekly politics newsletter.")
    True
    >>> _calls_to_action("Just sign up for my newsletter."), _calls_to_action("Rain. Sign up for alerts.")
    (False, False)
    """
    if len(text) > _CALL_TO_ACTION_MAX_LENGTH:
        return False
    if _CALL_TO_ACTION.match(text) is not None:
        return True
    head = text[: _SIGN_UP_LEAD + len("subscribe")].lower()
    if "sign" not in head and "subscri" not in head:  # most lines: no pattern is read
        return False
    sign_up = _SIGN_UP.search(text)
    return (
        sign_up is not None
        and sign_up.start() <= _SIGN_UP_LEAD
        and _SENTENCE_STOP.search(text, 0, sign_up.start()) is None
    )


# A line of the story's terms: a label, then the terms as links ("Tags: Android gmail",
# "Posted in Featured, Health Care"), or after a colon as a list that ends no sentence
# ("Tags: Politics, top news, World,"). The gold texts leave it out, old and modern
# alike (the output's such lines on the tuning pages: chaos 2, l3s 2, dragnet 11, none
# in the gold), unlike the "Posted by" lines and captions the older golds keep.
_TERMS_WORDS = (
    r"tags?|tagged(?: with| in| as)?|filed (?:under|in)|topics?|categories|category|"
    r"keywords|posted in"
)
_TERMS_LABEL = re.compile(rf"\s*(?:{_TERMS_WORDS})\b\s*[:|]?\s*\w", re.IGNORECASE)
# The same label after a byline or a date on its line ("Published: November 7th, 2012 |
# Tags: NFL AM, ...", "NFL.com Staff | Tags: Three and out,", "by X , Filed under: Fan
# Productions, Interview , trackback"): out of the gold 19 times of 19 on the tuning pages.
_TERMS_AFTER_SEPARATOR = re.compile(rf"[|,]\s*(?:{_TERMS_WORDS})\s*:", re.IGNORECASE)
# A label of a few words ending in a separator ("FUNDA OLUNYE UDABA LAPHA |"): see
# _labelled_link.
_LABEL_END = re.compile(r"\s*\S[^|»>]{0,40}?\s*[|»>]\s*")
_TEASER_LINK_SHARE = 0.5
_INLINE_LABELS = frozenset({"strong", "b", "em", "i", "span", "a", "font"})
# A link whose text is an address names a source ("More: http://..."), not a story.
_URL_TEXT = re.compile(r"\s*(?:https?://|www\.)", re.IGNORECASE)


def _labelled_link(paragraph: Element) -> bool:
    """Whether ``paragraph`` starts with a bold label ending in a separator, then a link:
    a link to another story in any language ("<strong>FUNDA OLUNYE UDABA LAPHA |</strong>
    <a>...</a>"). A colon is not such a separator: "<b>Update:</b> <a>...</a>" is news."""
    if paragraph.text and paragraph.text.strip() or len(paragraph) < 2:
        return False
    label, link = paragraph[0], paragraph[1]
    return (
        label.tag in _INLINE_LABELS
        and label.tag != "a"
        and link.tag == "a"
        and _LABEL_END.fullmatch(text_of(label) + (label.tail or "")) is not None
    )


def _leading_text(label: Element) -> str:
    """The text an inline element starts its paragraph with, through nested inline
    elements ("<span> <b>RELATED:</b> <em>..."): its own text, else its first child's.
    Not into a link: ``<a><strong>Related: ...</strong></a>``, a headline set as one
    link, is kept by Readability's gold (mozilla's cnn: tune -0.0010 when read through).

    >>> _leading_text(etree.fromstring("<span> <b>RELATED:</b> <em><a>A</a></em></span>"))
    'RELATED: '
    >>> _leading_text(etree.fromstring("<a><strong>Related: A</strong></a>"))
    ''
    """
    while (
        label.tag != "a"
        and not (label.text or "").strip()
        and len(label)
        and label[0].tag in _INLINE_LABELS
    ):
        label = label[0]
    return (label.text or "") + (label.tail or "")


_SHOUT_MIN_WORDS = 4
_SHOUT_MIN_CAPITALS = 15


def _shouts(text: str) -> bool:
    """Whether ``text`` is a line written in capitals: at most ``_TEASER_MAX_LENGTH``
    characters, four words or more, 15 capitals or more and no lowercase letter (scripts
    without case, CJK, have neither).

    >>> _shouts("WHAT ARE CHINA'S OVERSEAS POLICE STATIONS?"), _shouts("Read: what are they?")
    (True, False)
    >>> _shouts("NASA TO LAUNCH 2 ROVERS"), _shouts("東京 大阪 京都 名古屋 札幌 福岡 神戸")
    (True, False)
    """
    if len(text) > _TEASER_MAX_LENGTH:
        return False
    # (most lines are told by their first lowercase letter, before their words are split)
    capitals = 0
    for character in text:
        if character.islower():
            return False
        capitals += character.isupper()
    return capitals >= _SHOUT_MIN_CAPITALS and len(text.split()) >= _SHOUT_MIN_WORDS


def _drop_stray_paragraphs(article: Element, options: Options, removals: list[Removal]) -> None:
    """Remove the short paragraphs that start with a label (:data:`_TEASER_LABEL`) and are
    mostly a link, but for a link to an address (a source, not a story); and the ones
    written in capitals that are mostly a link (:func:`_shouts`: "WHAT ARE CHINA'S OVERSEAS
    POLICE STATIONS?", Fox News's links to its other stories between the paragraphs; a
    crosshead in capitals is no link); a line that leads to the previous or the next post
    (:data:`_POST_NAVIGATION`), mostly links; a line that asks the reader to follow or
    subscribe (:func:`_calls_to_action`); and a line of the story's terms
    (:data:`_TERMS_LABEL`, or :data:`_TERMS_AFTER_SEPARATOR` after a byline or a date)
    beside a paragraph of prose (:func:`_has_prose_paragraph`)."""
    has_prose: bool | None = None  # read once, when a line of terms is found
    for paragraph in list(article.iter("p", "div", "li", "h3", "h4")):
        if paragraph is article or paragraph.getparent() is None:
            continue
        text = text_of(paragraph)
        if len(text) > _TEASER_MAX_LENGTH:  # a paragraph, not a line (each kind below)
            continue
        if _shouts(text) and link_density(paragraph) >= _TEASER_LINK_SHARE:
            _remove(paragraph, "a link in capitals", removals)
            continue
        if _leads_between_posts(text) and link_density(paragraph) >= _TEASER_LINK_SHARE:
            _remove(paragraph, "a link to the previous or next post", removals)
            continue
        if _calls_to_action(text.strip()):
            _remove(paragraph, "a call to follow or subscribe", removals)
            continue
        if (
            (
                terms := _TERMS_LABEL.match(text)
                or (_TERMS_AFTER_SEPARATOR.search(text) if ":" in text else None)
            )
            and (
                link_density(paragraph) >= _TEASER_LINK_SHARE
                or (":" in terms.group() and not ends_sentence(text))
            )
        ):
            if has_prose is None:
                has_prose = _has_prose_paragraph(article, options)
            if has_prose:
                _remove(paragraph, "a line of terms", removals)
            continue
        start = paragraph.text or ""
        if not start.strip() and len(paragraph) and paragraph[0].tag in _INLINE_LABELS:
            start = _leading_text(paragraph[0])  # "<b>READ:</b>", "<span><b>READ:</b>"
        if not _TEASER_LABEL.match(start) and not _labelled_link(paragraph):
            continue
        if any(_URL_TEXT.match(text_of(link)) for link in paragraph.iter("a")):
            continue
        if link_density(paragraph) >= _TEASER_LINK_SHARE:
            _remove(paragraph, "a link to another story", removals)


# The label a page sets over an ad slot, in the languages of the corpora, or over a
# media embed: an element with this text and no other, not inside a sentence, is not
# the story's ("Advertisement", "ANZEIGE", "広告", "Video", "Gallery").
_AD_LABELS = (
    r"(?:advertisement|advertising|sponsored|anzeige|werbung|publicit[ée]|publicidad|"
    r"pubblicit[àa]|reklame|reklama|реклама|広告|广告|廣告|광고|"
    r"videos?|photos?|gallery|audio|slideshow)[ \t]*:?"
)
_AD_LABEL = re.compile(rf"\s*{_AD_LABELS}\s*", re.IGNORECASE)
_AD_LABEL_MAX = 20  # characters (a text node's after normalize-space)
# The texts of an element that are short enough to be a label. (On the descendant axis:
# libxml2 reads ".//text()[...]", a step with a predicate after "//", as every node below
# and then each one's children, a node set merged per node; the same texts, in the same
# document order, for fewer instructions.)
_SHORT_TEXTS = etree.XPath(
    f"descendant::text()[string-length(normalize-space(.)) < {_AD_LABEL_MAX}]"
)


def has_stray_lines(text: str, paragraphs: Sequence[str] | None = None) -> bool:
    r"""Whether a paragraph of an article's rendered ``text`` is an ad slot's label, a
    line that links to another story or post, a line of the story's terms, or a call to
    follow or subscribe (so that :func:`drop_stray_lines` may find something: the links
    and the prose beside a line are asked there).
    ``paragraphs``: ``text`` already split at its blank lines, when the caller has it.

    >>> has_stray_lines("A story.\n\nADVERTISEMENT\n\nMore story.")
    True
    >>> has_stray_lines("A story.\n\nREAD: Another story\n\nMore story.")
    True
    >>> has_stray_lines("A story.\n\nFUNDA OLUNYE UDABA LAPHA | Another story")
    True
    >>> has_stray_lines("A story.\n\n« An older post | Main | A newer post »")
    True
    >>> has_stray_lines("Advertising pays.\n\nReading on.")
    False
    """
    return any(
        len(paragraph) <= _TEASER_MAX_LENGTH
        and (
            len(paragraph) < _AD_LABEL_MAX and _AD_LABEL.fullmatch(paragraph)
            or _has_separator(paragraph)
            and (
                _TEASER_LABEL.match(paragraph)
                or _LABEL_END.match(paragraph)
                or _TERMS_AFTER_SEPARATOR.search(paragraph)  # (its label ends in ":")
            )
            or _TERMS_LABEL.match(paragraph)
            or _shouts(paragraph)
            or _leads_between_posts(paragraph)
            or _calls_to_action(paragraph)
        )
        for paragraph in (text.split("\n\n") if paragraphs is None else paragraphs)
    )


def _has_separator(text: str) -> bool:
    """Whether ``text`` holds a character that ends a label of :data:`_TEASER_LABEL` or
    :data:`_LABEL_END` (":", "|", "»", ">"; none of them has a case): without one, neither
    matches, and most paragraphs are spared both (a lazy repeat tried at 40 places).

    >>> _has_separator("READ: more"), _has_separator("A story, told.")
    (True, False)
    """
    return ":" in text or "|" in text or ">" in text or "\u00bb" in text


# A copyright notice: a line that starts with "©", "(c) 2017", "Copyright 2017", or says
# "All rights reserved" ("... Copyright 1995 by ..." inside a sentence is a citation).
_NOTICE = re.compile(
    r"^\W{0,3}(?:©|\(c\)\s*(?:19|20)\d\d|copyright\s*(?:\(c\)|©)?\s*(?:19|20)\d\d)"
    r"|all rights reserved",
    re.IGNORECASE,
)
_NOTICE_MARK = re.compile(r"©|\(c\)|copyright|all rights reserved", re.IGNORECASE)
_NOT_LETTERS = re.compile(r"[\W_]+")


def _names_site(line: str, names: Sequence[str]) -> bool:
    """Whether ``line`` names the site (one of its host's ``names``, spacing and
    punctuation ignored: "ITECHPOST" and "ScienceWorldReport.com" name their hosts)."""
    folded = _NOT_LETTERS.sub("", line.casefold())
    return any(len(name) >= 3 and _NOT_LETTERS.sub("", name.casefold()) in folded for name in names)


def has_site_notice(text: str, names: Sequence[str]) -> bool:
    r"""Whether a line of an article's rendered ``text`` is the site's own copyright
    notice: a line (at most ``_TEASER_MAX_LENGTH``) with a notice that names the site.

    >>> has_site_notice("Story.\n\n© 2017 ITECHPOST, All rights reserved.", ["itechpost"])
    True
    >>> has_site_notice("Story.\n\nCopyright 2008 The Associated Press.", ["example"])
    False
    """
    if not _may_hold_notice(text):  # most articles: no line is read
        return False
    return any(
        len(line) <= _TEASER_MAX_LENGTH and _NOTICE.search(line) and _names_site(line, names)
        for line in text.split("\n\n")
    )


# What every match of _NOTICE holds, lowercased ("©", "(c)", "copyright", "all rights
# reserved"), looked for in the whole text at once; and the characters that re's
# IGNORECASE matches to "i" and "s" which str.lower() does not fold to them (a text
# holding one is read line by line all the same).
_NOTICE_WORDS = ("©", "(c)", "copyright", "all rights reserved")
_CASELESS_I_S = ("\u0130", "\u0131", "\u017f")
_NOTICE_WORDS_UTF8 = tuple(word.encode() for word in _NOTICE_WORDS)


def _may_hold_notice(text: str) -> bool:
    """Whether a line of ``text`` may match :data:`_NOTICE` (False: none does).

    >>> _may_hold_notice("Photo: ©AP"), _may_hold_notice("ALL RIGHTS RESERVED."), _may_hold_notice("Story.")
    (True, True, False)
    """
    if text.isascii():
        lowered = text.lower()
        return any(word in lowered for word in _NOTICE_WORDS)
    # Not ASCII: its UTF-8 bytes lowered (A-Z only) instead of str.lower(), which maps each
    # character through the Unicode tables (65 against 163 us on a German article). The
    # same answer: the words are ASCII and "©", found in the bytes only where the text has
    # them; of the other characters, only U+0130 ("i" and a combining dot, which no word
    # holds) and the Kelvin sign ("k") lower to ASCII letters.
    lowered_utf8 = text.encode("utf-8", "surrogatepass").lower()
    if any(word in lowered_utf8 for word in _NOTICE_WORDS_UTF8):
        return True
    return any(letter in text for letter in _CASELESS_I_S)


def drop_site_notices(article: Element, names: Sequence[str]) -> list[Removal]:
    """Remove the site's own copyright notices from ``article`` (the footer line a page
    ends its stories with), each the outermost element whose whole text is that line,
    and say so. A notice of another owner (a wire's "Copyright 2008 The Associated
    Press", a picture's credit) is the story's, and stays."""
    removals: list[Removal] = []
    for text in _TEXTS(article):
        if not _NOTICE_MARK.search(text):
            continue
        line = text.getparent()
        if text.is_tail:
            line = line.getparent()
        if line is None or line is article or not is_below(line, article):
            continue  # the article's own text, or removed with an earlier notice
        whole = normalize_space(text_of(line))
        if len(whole) > _TEASER_MAX_LENGTH or not _NOTICE.search(whole) or not _names_site(
            whole, names
        ):
            continue
        line = _outermost_wrapper(line, article, _is_a_line)
        _remove(line, "the site's copyright notice", removals)
    return removals


_TEXTS = etree.XPath(".//text()")


def _is_a_line(element: Element) -> bool:
    return len(normalize_space(text_of(element))) <= _TEASER_MAX_LENGTH


def drop_stray_lines(article: Element, options: Options) -> list[Removal]:
    """Remove from ``article`` the labels of ad slots, the lines that link to another
    story or to the previous or next post, the lines of the story's terms beside its
    prose and the calls to follow or subscribe; and say so."""
    removals: list[Removal] = []
    _drop_ad_labels(article, removals)
    _drop_stray_paragraphs(article, options, removals)
    return removals


def _has_prose_paragraph(article: Element, options: Options) -> bool:
    """Whether a paragraph of ``article`` has ``tool_line_min_prose`` characters outside
    links: a story beside which a line of terms is furniture (a short post of a quotation
    and its "Posted in ..." line keeps it, as it keeps its tool line, trailer.py)."""
    return any(
        block.prose >= options.tool_line_min_prose for block in article_blocks(article)
    )


def _drop_ad_labels(article: Element, removals: list[Removal]) -> None:
    """Remove the elements whose whole text is an ad slot's label (each the outermost one
    with that text alone: ``<div><span>Anzeige</span></div>``)."""
    for text in _SHORT_TEXTS(article):
        if not text.is_text or not _AD_LABEL.fullmatch(text):
            continue
        label = text.getparent()
        if label is article or label.getparent() is None:
            continue  # removed with an earlier label
        length = dense_length(text)
        label = _outermost_wrapper(
            label, article, lambda parent: dense_length_of(parent) == length
        )
        if dense_length_of(label) == length and not _in_running_text(label):
            _remove(label, "ad label", removals)


def _outermost_wrapper(
    element: Element, article: Element, holds_only: Callable[[Element], bool]
) -> Element:
    """``element``, or its outermost ancestor below ``article`` of which ``holds_only``
    says it holds nothing but that line (and each ancestor below it). (Not
    :func:`tree.outermost`, which filters a list of elements.)"""
    while (parent := element.getparent()) is not article and holds_only(parent):
        element = parent
    return element


def _in_running_text(element: Element) -> bool:
    """Whether text stands right before or after ``element`` in its parent: a word of a
    sentence ("after watching this <a>video</a> of ..."), not a label of its own."""
    if (element.tail or "").strip():
        return True
    previous = element.getprevious()
    before = previous.tail if previous is not None else element.getparent().text
    return bool((before or "").strip())


# The elements a furniture name condemns (trafilatura's OVERALL_DISCARD_XPATH tags), and
# <aside>: one selected beside the story is kept as the article's (TANGENTIAL), unless
# its name says what it is (an author box, <aside id="post-author">: dragnet tune +0.0004).
_NAMED_FURNITURE = ("div", "p", "span", "section", "ul", "ol", "li", "dl", "aside")


def _drop_named_furniture(article: Element, options: Options, removals: list[Removal]) -> None:
    """Remove the elements named as furniture (:data:`patterns.BOILERPLATE`: bylines,
    captions, share bars, tags, related links ...), as trafilatura does.

    Furniture is short: an element so named with more than ``furniture_max_length``
    characters is a wrapper (a caption left open holds the story). And nothing goes
    when less than ``furniture_keep_share`` of the text would stay.
    """
    found: list[Element] = []
    removed = 0  # the dense length of the found elements' texts
    for element in article.iterdescendants(*_NAMED_FURNITURE):
        key = (element.get("class"), element.get("id"))
        if key == (None, None):
            continue
        verdict = _FURNITURE_NAMES.get(key)
        if verdict is None:
            if len(_FURNITURE_NAMES) >= _FURNITURE_NAMES_LIMIT:
                _FURNITURE_NAMES.clear()
            names = f"{key[0] or ''} {key[1] or ''}".lower()
            verdict = _FURNITURE_NAMES[key] = BOILERPLATE.search(names) is not None
        if not verdict or (found and is_below(element, found[-1])):
            continue
        length = dense_length_of(element)
        if length <= options.furniture_max_length:
            found.append(element)
            removed += length
    _remove_unless_most(article, found, removed, "furniture name", options, removals)


def _remove_unless_most(
    article: Element,
    found: list[Element],
    removed: int,
    reason: str,
    options: Options,
    removals: list[Removal],
) -> None:
    """Remove the ``found`` elements (``removed``: the dense length of their texts) for
    ``reason``, unless no more than ``furniture_keep_share`` of the article's text would
    stay: then they were the article, and none goes."""
    if not found:
        return
    total = dense_length_of(article)
    if total - removed <= total * options.furniture_keep_share:
        return
    for element in found:
        _remove(element, reason, removals)


# Whether a (class, id) names furniture, kept across pages (an article repeats its names,
# and so do the pages of a site), bounded.
_FURNITURE_NAMES: dict[tuple[str | None, str | None], bool] = {}
_FURNITURE_NAMES_LIMIT = 50_000


def _names_credit(element: Element) -> bool:
    """Whether the class or id of ``element`` names a credit ("credit", "photo-credit",
    "bb-figure__credit")."""
    return "credit" in f"{element.get('class') or ''} {element.get('id') or ''}".lower()


def _remove(element: Element, reason: str, removals: list[Removal]) -> None:
    names = f"{element.get('class', '')} {element.get('id', '')}".strip()
    removals.append(Removal(tag=element.tag, names=names, reason=reason))
    drop(element)


# Up to this many <div>s, each is walked for a block: cheaper than climbing from every
# block of a long article (where the <div>s are few, the paragraphs many).
_FEW_DIVS = 8


def _divs_to_paragraphs(article: Element) -> None:
    """A <div> without block children is a paragraph (Readability's parify).

    Where the <div>s are many, the elements with a block below them are the ancestors
    of the blocks, found in one walk (a walk of each <div>'s descendants read nested
    <div>s again and again). A <div> made a <p> is still a block, so renaming changes
    no answer."""
    divs = [div for div in article.iter("div") if div is not article]
    if len(divs) <= _FEW_DIVS:  # (old pages set in tables: fewer walks than blocks)
        for div in divs:
            if not has_block(div):
                div.tag = "p"
        return
    holders: set[Element] = set()
    for block in article.iter(*DIV_TO_P_BLOCKS):
        for ancestor in block.iterancestors():
            if ancestor in holders:
                break  # and so are all above it
            holders.add(ancestor)
    for div in divs:
        if div not in holders:
            div.tag = "p"


def _clean_headings(
    article: Element, flags: Flags, options: Options, removals: list[Removal], headline: str
) -> set[Element]:
    """Remove the headings with a negative class, and the headings of links (a list of
    stories' titles): but for a permalink, a heading whose link points at itself or that
    is the page's ``headline`` (a blog's post title links to the post: the gold texts of
    dragnet and chaos keep it; tune halves dragnet +0.0016, chaos +0.0001). Return the
    wrappers of the headings kept (:func:`_heading_wrappers`)."""
    wrappers: set[Element] = set()
    for heading in list(article.iter(*HEADINGS)):
        weight = class_weight(heading, options.class_weight) if flags.weight_classes else 0
        if weight < 0:
            _remove(heading, "heading with a negative class", removals)
            continue
        if link_density(heading) > options.header_link_density and not _anchors_itself(heading):
            if not (headline and normalize_space(text_of(heading)) == headline):
                _remove(heading, "heading of links", removals)
                continue
            # the headline's link to its own post is no link away: a short post's
            # container must not read as "too many links" for it
            etree.strip_tags(heading, "a")
        _heading_wrappers(heading, article, options, wrappers)
    return wrappers


def _anchors_itself(heading: Element) -> bool:
    """True when a link of the heading points at the heading or its section (a permalink:
    "Setting up¶", ``<h3 id="x"><a href="#x">``): the heading of a part of the text.

    >>> f = etree.fromstring
    >>> section = f('<div id="setup"><h3><a href="#toc">Setup</a><a href="#setup">#</a></h3></div>')
    >>> _anchors_itself(section[0])
    True
    >>> _anchors_itself(f('<h3><a href="#comments">Add your comment</a></h3>'))
    False
    """
    targets = {
        href[1:] for link in heading.iter("a") if (href := link.get("href") or "")[:1] == "#"
    }
    targets.discard("")
    if not targets:
        return False
    for node in (*heading.iter(), *heading.iterancestors()):
        if node.get("id") in targets or node.get("name") in targets:
            return True
    return False


def _clean_conditionally(
    article: Element,
    flags: Flags,
    options: Options,
    removals: list[Removal],
    headed: set[Element],
) -> None:
    # Innermost first, so a container is judged without the fishy parts it held.
    inside = _inside_prose(article, options, flags.score_lists)
    wrapped = _wrappers(inside, article)
    fielded = {
        ancestor for field in _furniture_fields(article) for ancestor in field.iterancestors()
    }
    introduced = _introduced_lists(article, options)
    for element in reversed(list(article.iter(*CONDITIONALLY_CLEANED))):
        if element is article:
            continue
        reason = _fishy(
            element, flags, options, element in inside, element in fielded, element in headed
        )
        if element in introduced and reason != "negative class":
            continue  # the paragraph's list (a negative name still condemns it)
        if reason == "too many links" and _wraps_a_list(element, wrapped.get(element), options):
            # Judged by its links like the list it wraps (its heading and it).
            if link_density(element) <= options.in_prose_link_density:
                continue
            reason = "list of links"
        if reason:
            _remove(element, reason, removals)
    # An <ol> whose items are titles, each a link (NBC's and a hosting news site's
    # numbered lists of other stories, "the five most-read stories"), is judged after
    # the boxes around it, as Readability judges the <ul>s it cleans: a box condemned with
    # its list takes the list's note with it. A numbered list of the story's steps says
    # more than its links and stays (a sentence an item with a link or two). In document
    # order: a numbered box of titles goes whole, its lists with it, and is not judged
    # without them; a list inside a box gone is not judged again (NBC's ol.stories in
    # its ol.grid was logged removed twice).
    gone: set[Element] = set()
    for element in list(article.iter("ol")):
        if gone and not gone.isdisjoint(element.iterancestors("ol")):
            continue
        if element in introduced or link_density(element) <= _TITLES_LINK_DENSITY:
            continue
        reason = _fishy(
            element, flags, options, element in inside, element in fielded, element in headed
        )
        if reason:
            _remove(element, reason, removals)
            gone.add(element)
    # So is a paragraph written as such a list: lines split by <br>s, each one link and
    # at most a dash or bullet beside it ("- <a>Title</a><br>- <a>Title</a><br>...",
    # a blog's related posts set as one <p>): judged by its links like the list it reads as.
    for element in list(article.iter("p")):
        if next(element.iter("br"), None) is None:  # one line (most paragraphs): read no text
            continue
        if _link_lines(element) < _LINK_LINES or link_density(element) <= _TITLES_LINK_DENSITY:
            continue
        reason = _fishy(element, flags, options, False, element in fielded, element in headed)
        if reason:
            _remove(element, "lines of links", removals)


# A paragraph of at least this many lines, each a link, reads as a list of links.
_LINK_LINES = 4


def _link_lines(paragraph: Element) -> int:
    """How many lines (split by ``<br>``) ``paragraph`` has, each holding one link and
    no word outside it (blank lines not counted); 0 when a line that is not blank holds
    two links or more, or a letter or digit outside a link.

    (Its answer is 0 at the first letter or digit outside a link and at a line's second
    link, so the walk stops there; a text is searched for one such character, where
    counting them all character by character was 9% of a cleaneval-dev pass under
    cProfile.)"""
    search = _LETTER_OR_DIGIT.search
    text = paragraph.text
    if text and search(text):
        return 0
    links = 0  # on the current line
    count = 0
    # A loop over a stack, not calls: a paragraph may be nested deeper than Python's
    # call stack (each element's tail is read once its children are)
    stack = [(paragraph, iter(paragraph))]
    while stack:
        node, children = stack[-1]
        child = next(children, None)
        if child is None:
            stack.pop()
            if stack:
                tail = node.tail
                if tail and search(tail):
                    return 0
            continue
        tag = child.tag
        if isinstance(tag, str) and tag != "br" and tag != "a":
            text = child.text
            if text and search(text):
                return 0
            stack.append((child, iter(child)))
            continue
        if tag == "br":
            if links:  # (one: a second returned at once)
                count += 1
            links = 0
        elif tag == "a":
            if links:
                return 0
            links = 1
        tail = child.tail
        if tail and search(tail):
            return 0
    return count + 1 if links else count


# A character ``str.isalnum`` takes: a word character (``\w``: ``isalnum`` or "_")
# other than "_".
_LETTER_OR_DIGIT = re.compile(r"[^\W_]")


# An <ol> of more links than this share of its text is a list of titles (its numbers, the
# few words between its links aside), which the conditional cleaning judges.
_TITLES_LINK_DENSITY = 0.8


# An introduced list has at least this many items, half of them with a remark after a link.
_INTRODUCED_ITEMS = 2


def _introduced_lists(article: Element, options: Options) -> set[Element]:
    """The lists that a prose paragraph of the article introduces, kept whatever their
    links: a ``<ul>`` or ``<ol>`` right after a ``<p>`` that reads as prose
    (:func:`_is_prose`, no text between them), of two items or more, no ``<br>`` in it,
    half of whose items or more say something of their own after their last link
    ("<a>Copywriting Ebook Giveaway!</a> – 15.7%" after "If you're curious to read the
    emails, click the links."). A list of other stories or of tags under a story has
    titles and labels before its links or none ("<strong>Russische Drohnen:</strong>
    <a>...</a>", "More about: <a>EPA</a>"); a list of titles with their addresses
    (``<br>``) keeps the titles only in the golds that have one."""
    found = set()
    for element in article.iter("ul", "ol"):
        previous = element.getprevious()
        if previous is None or previous.tag != "p" or (previous.tail or "").strip():
            continue
        items = [child for child in element if child.tag == "li"]
        if len(items) < _INTRODUCED_ITEMS or next(element.iter("br"), None) is not None:
            continue
        if 2 * sum(_remarks_on_link(item) for item in items) < len(items):
            continue
        if _is_prose(previous, options):
            found.add(element)
    return found


def _remarks_on_link(item: Element) -> bool:
    """Whether words of the item's own follow its last link ("<a>Title</a> - 15.7%")."""
    links = list(item.iter("a"))
    if not links:
        return False
    after: list[str] = []
    node = links[-1]
    while node is not item:  # the link, then each of its ancestors inside the item
        after.append(node.tail or "")
        for element in node.itersiblings():
            after.append(text_of(element))
            after.append(element.tail or "")
        node = node.getparent()
    return _LETTER_OR_DIGIT.search("".join(after)) is not None


def _wrappers(lists: set[Element], article: Element) -> dict[Element, list[Element]]:
    """The containers above each list or table of the prose, with the ones they hold."""
    wrapped: dict[Element, list[Element]] = {}
    for element in lists:
        ancestors = list(element.iterancestors())
        if any(ancestor in lists for ancestor in ancestors):
            continue  # a nested list is counted with its outer one
        for ancestor in ancestors:
            if ancestor is article:
                break
            wrapped.setdefault(ancestor, []).append(element)
    return wrapped


def _wraps_a_list(element: Element, lists: list[Element] | None, options: Options) -> bool:
    """A container that is mostly a list or table of the prose (its heading and it: Mozilla
    Readability's "90% of the text in lists"), judged like the list itself."""
    if not lists:
        return False
    kept = [e for e in lists if is_below(e, element)]  # not removed meanwhile
    listed = sum(dense_length_of(e) for e in kept)
    return listed >= options.list_wrapper_share * dense_length_of(element) > 0


def _inside_prose(article: Element, options: Options, items_are_paragraphs: bool) -> set[Element]:
    """The lists and tables that have a prose paragraph before and after them.

    The article's prose spans from its first to its last prose paragraph (a <p>, or a
    <div> that reads as one, of ``prose_block_length`` characters ending a sentence,
    with few links). A list or table inside that span is the article's (a table of
    contents, a list of steps, a data table); related links and share lists sit
    outside it. In the attempt that reads list items as paragraphs (a story written as
    lists: release notes), a list item without blocks is a paragraph here too.
    """
    if next(article.iter(*_SPANNED), None) is None:
        return set()
    paragraphs = ("p", "div", "li") if items_are_paragraphs else ("p", "div")
    elements = list(article.iter(*paragraphs, *_SPANNED))
    # Only the first and the last prose paragraphs bound the span: they are sought from
    # each end, and the paragraphs between them are not read (a long article's
    # paragraphs, most of them prose, each serialized and measured for nothing).
    first = next(
        (index for index, element in enumerate(elements) if _is_prose_paragraph(element, options)),
        None,
    )
    if first is None:
        return set()
    last = next(
        index
        for index in range(len(elements) - 1, first - 1, -1)
        if _is_prose_paragraph(elements[index], options)
    )
    return {element for element in elements[first + 1 : last] if element.tag in _SPANNED}


def _is_prose_paragraph(element: Element, options: Options) -> bool:
    """Whether an element of :func:`_inside_prose`'s walk is a prose paragraph: a ``<p>``,
    or a ``<div>`` or ``<li>`` without blocks, that reads as prose (not a list or table)."""
    tag = element.tag
    return (
        tag not in _SPANNED
        and (tag == "p" or not has_block(element))
        and _is_prose(element, options)
    )


def _is_prose(paragraph: Element, options: Options) -> bool:
    raw = text_of(paragraph)
    text = raw.strip()
    return (
        len(text) >= options.prose_block_length
        and ends_sentence(text)
        and link_density(paragraph, raw) <= options.fishy_link_density
    )


def _fishy(
    element: Element,
    flags: Flags,
    options: Options,
    in_prose: bool,
    holds_field: bool,
    wraps_heading: bool,
) -> str | None:
    """Why a container looks like page furniture, or None (seed 000 fishy()).

    A negative class name condemns a container; its content score does not (Mozilla
    Readability: python-readability's "class weight + content score < 0" removed lists
    whose only score was the -3 of their tag; +0.0009 F1 on mozilla, others equal).
    Lists and tables inside the prose (:func:`_inside_prose`) are judged by their links
    only, like Mozilla Readability's lists.
    """
    weight = class_weight(element, options.class_weight) if flags.weight_classes else 0
    if weight < 0:
        return "negative class"
    text = text_of(element)
    # (the commas are read outside the links only when there are enough of them at all;
    # counted once, for both)
    commas = comma_count(text)
    if commas >= options.fishy_keep_commas and _commas_outside_links(
        element, text, options.fishy_keep_commas, commas
    ):
        return None
    paragraphs, images, items, inputs = _contents(element)
    items -= options.fishy_li_allowance
    # (the measures below are taken only where a rule reads them: most containers are
    # judged before)
    if (
        paragraphs
        and images > 1 + paragraphs * options.fishy_images_per_paragraph
        and not _in_figure(element)
        and not _holds_prose(element, options)
    ):
        return "more images than paragraphs"
    if items > paragraphs and element.tag not in ("ul", "ol"):
        return "more list items than paragraphs"
    if in_prose:  # a list or table inside the article's prose: only links condemn it
        if link_density(element, text) > options.in_prose_link_density:
            return "list of links"
        return None
    if inputs > paragraphs / 3:
        return "form inputs"
    # A short box around a checkbox, a radio button, an email field of any type, a
    # search or password field or a text area (``holds_field``: it held one before the
    # inner containers were judged, _furniture_fields): an embed's two-click consent, a
    # poll, a settings panel, a newsletter's sign-up form, a search box, a log-in or
    # comment form.
    if holds_field and dense_length(text) <= options.furniture_max_length:
        return "a form field's box"
    if paragraphs == 1 and not images and (
        _wraps_a_paragraph(element, text, options)
        or _in_paragraph_component(element, text, options)
    ):
        return None  # judged as the paragraph it wraps, which is never cleaned away
    if (
        (images == 0 or images > 2)
        and capped_weight(text, options.fishy_min_length, options.cjk_char_weight)
        < options.fishy_min_length
        and not _in_figure(element)
        and next(element.iter("pre", "code"), None) is None  # a short code or data sample
        and not wraps_heading
    ):
        return "too short"
    density = link_density(element, text)
    if weight < options.class_weight and density > options.fishy_link_density:
        return "too many links"
    if weight >= options.class_weight and density > options.fishy_link_density_weighted:
        return "too many links for its class"
    # No embed rule (Readability's "an embed needs 75 characters of text"): iframes are
    # dropped at load and plugins before this stage, so it would have nothing to judge.
    return None


# The comma between a date's day and its year ("January 10, 2008"): no clause of prose.
# Searched from the comma, a literal the regex engine skips to, with the day's digit
# before it tested in Python (:func:`_date_commas`): a pattern that starts with ``\d``
# is tried at every character of the text.
_DATE_COMMA = re.compile(r", ?(?:1[89]|20)\d\d\b")


def _commas_outside_links(
    element: Element, text: str, count: int, commas: int | None = None
) -> bool:
    """Whether ``count`` commas of ``text`` (``element``'s) are prose's: outside its links
    and not between a day and a year. Readability's ten commas keep a container of
    clauses; a list of other stories, each "January 10, 2008 - <a>Title</a>", or of
    links to a journal's days ("<a>Tuesday | Sept 3, 2002</a>"), has its commas too.
    ``commas``: ``comma_count(text)``, when the caller has counted them.

    >>> dated = "".join(f"<a href='/{d}'>Story, {d}</a> May {d}, 2008<br/>" for d in range(10))
    >>> teasers = etree.fromstring(f"<div>{dated}</div>")
    >>> _commas_outside_links(teasers, text_of(teasers), 10)
    False
    >>> prose = "<div><p>" + "A clause, another, " * 6 + "and an end.</p>" + dated + "</div>"
    >>> box = etree.fromstring(prose)
    >>> _commas_outside_links(box, text_of(box), 10)
    True
    """
    clauses = _clause_commas(text, commas)
    if clauses < count:  # (the links' commas only take away)
        return False
    links = "\n".join(text_of(link) for link in element.iter("a"))
    return clauses - (_clause_commas(links) if links else 0) >= count


def _clause_commas(text: str, commas: int | None = None) -> int:
    """The commas of ``text`` but those between a date's day and year (``commas``: its
    :func:`comma_count`, when counted already)."""
    return (comma_count(text) if commas is None else commas) - _date_commas(text)


def _date_commas(text: str) -> int:
    r"""How many commas of ``text`` are a date's between its day and year: the matches of
    ``\d, ?(?:1[89]|20)\d\d\b`` that ``findall`` finds: a :data:`_DATE_COMMA` match
    after a digit (``\d`` is ``str.isdecimal``) that is not the last of the year just
    counted (``findall``'s matches do not overlap: "1999, 2000, 2001" holds one).

    >>> _date_commas("May 1, 2008, 2009; June 3,2010 and 1999, 2000, 2001; a, 2011")
    3
    """
    count = end = start = 0
    while (match := _DATE_COMMA.search(text, start)) is not None:
        comma = match.start()
        if comma > end and text[comma - 1].isdecimal():
            count += 1
            start = end = match.end()
        else:
            start = comma + 1
    return count


def _holds_prose(element: Element, options: Options) -> bool:
    """Whether a paragraph of ``element``'s text is prose of ``gallery_prose_length``
    characters ending a sentence: a post set between its photos, not a gallery's captions.

    >>> post = etree.fromstring("<div><p>" + "We renovated the house, room by room. " * 6
    ...     + "<br/><img/><br/>The rest.</p><p><img/><img/><img/><img/></p></div>")
    >>> _holds_prose(post, Options())
    True
    >>> gallery = etree.fromstring("<div><img/><p>The porch.</p><img/><img/><img/></div>")
    >>> _holds_prose(gallery, Options())
    False
    """
    return any(
        len(paragraph) >= options.gallery_prose_length and ends_sentence(paragraph)
        for paragraph in element_text(element).split("\n\n")
    )


def _heading_wrappers(
    heading: Element, article: Element, options: Options, wrappers: set[Element]
) -> None:
    """Add to ``wrappers`` the containers that only wrap ``heading``
    (``<div><div><h3>What's next</h3></div></div>``: one component per block on sites
    built of components): each holds the heading or the next wrapper as its only
    element, and ``heading_share`` of its text is in the heading (Mozilla Readability's
    heading density). Such a section heading is the article's, however short
    (:func:`_fishy`). A box of related links whose list is cleaned away, leaving its
    heading alone ("Read more"), held another element beside the heading: no wrapper.

    >>> page = etree.fromstring(
    ...     "<div><div><div><h3>What's next</h3></div></div><p>Text.</p></div>")
    >>> found = set()
    >>> _heading_wrappers(page.find(".//h3"), page, Options(), found)
    >>> sorted(len(e) for e in found)
    [1, 1]
    >>> box = etree.fromstring(
    ...     "<div><div><h3>Related</h3><ul><li>Other story</li></ul></div></div>")
    >>> found = set()
    >>> _heading_wrappers(box.find(".//h3"), box, Options(), found)
    >>> found
    set()
    """
    length = dense_length_of(heading)
    inner = heading
    while length and not _has_siblings(inner):
        wrapper = inner.getparent()
        if wrapper is None or wrapper is article:
            return
        if length < options.heading_share * dense_length_of(wrapper):
            return
        wrappers.add(wrapper)
        inner = wrapper


def _has_siblings(element: Element) -> bool:
    """Whether another element stands beside ``element`` (comments do not count)."""
    return (
        next(element.itersiblings(etree.Element), None) is not None
        or next(element.itersiblings(etree.Element, preceding=True), None) is not None
    )


def _in_figure(element: Element) -> bool:
    """A figure's parts (image wrappers, its caption) are short by nature (Mozilla)."""
    return next(element.iterancestors("figure"), None) is not None


def _wraps_a_paragraph(element: Element, text: str, options: Options) -> bool:
    """A wrapper of one prose paragraph and nothing else (``<div><div><p>``, one per
    paragraph on sites built of components): a <p> with all the wrapper's text, long,
    ending a sentence, with no more links than a list inside the prose may have (a link
    or two in a sentence: a paragraph is not page furniture for them).

    >>> wrapper = etree.fromstring(
    ...     "<div><div><p>Much has been made of whether <a href='/m'>the manager</a> stays,"
    ...     " but against <a href='/s'>Spurs</a> his team put in a fine performance.</p></div></div>")
    >>> _wraps_a_paragraph(wrapper, text_of(wrapper), Options())
    True
    >>> menu = etree.fromstring("<div><p><a href='/a'>Home</a> | <a href='/b'>News</a></p></div>")
    >>> _wraps_a_paragraph(menu, text_of(menu), Options())
    False
    """
    paragraph = next(element.iterdescendants("p"))
    own = text_of(paragraph)
    return (
        dense_length(own) == dense_length(text)
        and len(own.strip()) >= options.prose_block_length
        and ends_sentence(own.strip())
        and link_density(paragraph, own) <= options.in_prose_link_density
    )


def _in_paragraph_component(element: Element, text: str, options: Options) -> bool:
    """A wrapper of one paragraph, however short, set in a component like the story's
    prose paragraphs around it (``<div class="sc-gEvEer"><div><div><p>``, one component
    per paragraph on sites built of components): the outermost wrapper of the paragraph
    alone has a class, and the nearest elements of the same tag and class before and
    after it each wrap a prose paragraph (:func:`_wraps_a_paragraph`). A question put to
    the interviewee or a bold crosshead is one paragraph of the story there, where a bare
    ``<p>`` would never be cleaned away; a note closing the story has no prose component
    after it ("Click here to learn about these picks!", "© The Financial Times Ltd.").

    >>> prose = "<div class='c'><div><p>" + "A sentence of the story goes on, and on. " * 3
    >>> story = etree.fromstring(
    ...     "<div>" + prose + "</p></div></div><div class='c'><div><p>Is he a good leader?"
    ...     "</p></div></div>" + prose + "</p></div></div></div>")
    >>> short = story[1][0]
    >>> _in_paragraph_component(short, text_of(short), Options())
    True
    >>> _in_paragraph_component(story[1], text_of(story[1]), Options())
    True
    >>> del story[2]
    >>> _in_paragraph_component(short, text_of(short), Options())
    False
    """
    paragraph = next(element.iterdescendants("p"))
    length = dense_length(text_of(paragraph))
    if not length or length != dense_length(text):
        return False
    # the component: the outermost wrapper of the paragraph alone
    component = element
    while True:
        parent = component.getparent()
        if parent is None or parent.tag in ("body", "html"):
            break
        if not _only_text(parent, component):
            break
        component = parent
    names = component.get("class")
    if not names:
        return False
    for preceding in (False, True):
        for sibling in component.itersiblings(component.tag, preceding=preceding):
            if sibling.get("class") != names:
                continue  # (an ad slot or a figure between the components)
            if next(sibling.iterdescendants("p"), None) is None or not _wraps_a_paragraph(
                sibling, text_of(sibling), options
            ):
                return False
            break
        else:
            return False  # no component of the story's on this side
    return True


def _only_text(parent: Element, child: Element) -> bool:
    r"""Whether all of ``parent``'s text (its dense length) is ``child``'s own: the
    parent's own text, the child's tail and every other node's text and tail are blank.
    Read node by node, where measuring the parent serialized all of it (the whole
    article, for a paragraph's component) to compare the two lengths.

    >>> page = etree.fromstring("<div> <!-- ad --> <div><p>Is he?</p></div>\n<b> </b></div>")
    >>> _only_text(page, page[1]), _only_text(page[1], page[1][0])
    (True, True)
    >>> page[2].text = "Yes."
    >>> _only_text(page, page[1])
    False
    """
    if parent.text and dense_length(parent.text):
        return False
    for node in parent:
        if node.tail and dense_length(node.tail):
            return False
        # (a comment's or instruction's own text is not the parent's text)
        if node is not child and isinstance(node.tag, str) and dense_length_of(node):
            return False
    return True


# Compiled once: an XPath string is compiled again at each call. (On the descendant axis,
# as _SHORT_TEXTS: ".//input[...]" gathered every node of the article first.) A field for
# an e-mail address is one whatever its type: sign-up forms older than the email type, or
# styled past it, write <input type="text" name="email" placeholder="Email"> (a visible
# field whose name or placeholder says "mail": "email", "e-mail", "E-Mail-Adresse"). So
# are the fields no story is read beside: a search field (the search type, or the name
# of the query a search form sends, "q", WordPress's "s"), a password field (a log-in
# box) and a text area (a comment or contact form: "Have your say about this article").
_FURNITURE_FIELDS = etree.XPath(
    "descendant::input[@type='checkbox' or @type='radio' or @type='email'"
    " or (not(@type='hidden') and (contains(translate(@name, 'EMAIL', 'email'), 'mail')"
    " or contains(translate(@placeholder, 'EMAIL', 'email'), 'mail')))"
    " or @type='search' or @type='password' or @name='q' or @name='s']"
    " | descendant::textarea"
)


def _furniture_fields(article: Element) -> list[Element]:
    """The checkboxes, radio buttons, e-mail, search and password fields and the text
    areas below ``article``, in document order.

    >>> form = etree.fromstring('<div><input type="hidden" name="custom_reply_email"/>'
    ...     '<input type="text" name="email" placeholder="Email"/><input type="text" name="q"/>'
    ...     '<input placeholder="Ihre E-Mail-Adresse"/><input type="checkbox"/>'
    ...     '<input type="text" name="city"/><textarea name="comment"/></div>')
    >>> fields = _furniture_fields(form)
    >>> [(i.tag, i.get("type"), i.get("name") or i.get("placeholder")) for i in fields]
    [('input', 'text', 'email'), ('input', 'text', 'q'), ('input', None, 'Ihre E-Mail-Adresse'), ('input', 'checkbox', None), ('textarea', None, 'comment')]
    """
    return _FURNITURE_FIELDS(article)


# Lists and tables: kept inside the article's prose unless mostly links.
_SPANNED = ("ul", "ol", "dl", "table")


def _contents(element: Element) -> tuple[int, int, int, int]:
    """How many paragraphs, images, list items and visible form inputs (not
    ``type="hidden"``) are below ``element``: one walk of the container, where a walk per
    kind (and an XPath call for the inputs) read it four times."""
    paragraphs = images = items = inputs = 0
    for node in element.iterdescendants("p", "img", "li", "input"):
        tag = node.tag
        if tag == "p":
            paragraphs += 1
        elif tag == "li":
            items += 1
        elif tag == "img":
            images += 1
        elif node.get("type") != "hidden":
            inputs += 1
    return paragraphs, images, items, inputs


def _drop_empty_paragraphs(article: Element, removals: list[Removal]) -> None:
    for paragraph in list(article.iter("p")):
        if _holds_text(paragraph):
            continue
        if next(paragraph.iterdescendants(*MEDIA_TAGS), None) is None:
            _remove(paragraph, "empty paragraph", removals)


def _holds_text(paragraph: Element) -> bool:
    """``text_of(paragraph).strip() != ""``, most paragraphs told by their own first text
    (str.isspace and str.strip agree on whitespace), without serializing them."""
    head = paragraph.text
    return bool(head and not head.isspace()) or bool(text_of(paragraph).strip())
