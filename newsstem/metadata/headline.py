"""The headline of an article: one decision from every source that names it.

A page names its headline several times: the visible heading (``h1``, an element
marked ``itemprop="headline"``; without an ``h1`` of the article's own, as where the
only ``h1`` is the last step of a breadcrumb trail, an ``h2`` or an element with a
headline class), JSON-LD ``headline``, ``og:title``, ``twitter:title``, the
``<title>`` (usually with the site's name attached), the anchor texts of the links to
the page, and the title the article extraction found: readability's, read from this
page's ``<title>`` and headings (a candidate, never a supporter), or the text of a learned
pattern's title block (``pattern``, a kind of source of its own: learning put the block
where, across the site's pages, it says what the links to them or their ``<title>``s
say). Each may be wrong alone: a ``h1`` that is the site banner or
a section label, a social title shortened for sharing, a ``<title>`` with the site
name, an anchor text that says "Read more". Agreement decides:

1. every candidate is compared with every other (case, spacing, quote and dash
   styles ignored); a longer text that is the candidate plus a site-name affix
   (``X | Reuters``, ``Forbes.com: X``, ``X_English_Xinhua``) agrees with it, unless
   three kinds of source write the longer text word for word (it is then settled: the
   headline as written, ``X - new upgrade landing soon``);
2. the story's own ``h1``, in the ``<header>`` of an ``<article>``, wins where the
   ``h1``s outside every article (one at least) say something else (a site bar that
   repeats the social title, the logo); an ``h1`` in an article but not in its header
   (a teaser's) counts for neither;
3. otherwise the candidate most sources agree with wins; on a tie, the visible headline
   before JSON-LD, then og:title, twitter:title, the pattern's or the extraction's
   title, the ``<title>``; where that is a social or document title, no JSON-LD
   headline is stated and the page's one visible heading writes all its words and
   more and is spoken of by the article's opening text, that heading
   (:func:`_heading_longer_than_the_titles`: a title shortened for sharing);
4. with no agreement at all, the one visible heading that the article's opening text
   speaks of and that shares a word with every social and document title (a title
   sharing no word with it nor with the text is a banner and asks none), where no
   JSON-LD headline is stated (:func:`_heading_of_the_text`); else the first of JSON-LD
   headline, og:title, the pattern's or the extraction's title, ``<title>`` without the
   site name.

The text is returned as the winning source writes it, with a known site-name affix
removed; where the winner is the visible heading (or ``<title>``) and the page's
metadata writes the same words with plain quotes or dashes, as the metadata writes it
(the template curled them: the editor's headline is the plain one); a ``<title>`` a site
name was cut from is not cut again, and the extraction's title cut from it at a dash
gives way (``Update - v400.21.013 | Site``: :func:`_dash_part`). Site names come from the
page (og:site_name, the JSON-LD publisher, the host name, a heading that is one link to
the home page: ``extract._home_link_names``) and from the site's other pages: across one
site, the prefix or suffix its ``<title>``s share is the site's name (:class:`SiteNames`).

No Scrapy import: an lxml tree or strings in, strings out.
"""

from __future__ import annotations

import hashlib
import html
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from lxml.html import HtmlElement

from newsstem.keyset import RecordBook
from newsstem.metadata.evidence import Evidence, inside_other_content, itemprop_value
from newsstem.text import CJK_CHARACTERS, cjk_count, normalize_space, normalize_title_space

__all__ = [
    "Headline",
    "SiteNames",
    "decide_headline",
    "headline_candidates",
    "strip_site_name",
    "title_affixes",
]

# Sources in order of trust on a tie (lower first).
SOURCES = (
    "heading", "json-ld", "og:title", "twitter:title", "meta:title", "pattern", "extraction",
    "anchor", "title",
)
_PRIORITY = {source: rank for rank, source in enumerate(SOURCES)}
# Without agreement, the first source present wins, in this order (a lone heading may
# be a banner; a lone anchor text may be "Read more").
_ALONE = (
    "json-ld", "og:title", "twitter:title", "meta:title", "pattern", "extraction", "title",
    "heading",
)

# A separator between a headline and a site name in a <title> or og:title.
# A hyphen between two CJK characters (no word of those scripts is hyphenated):
# "短缺药品保供稳价-新华网".
_CJK_HYPHEN = rf"(?<=[{CJK_CHARACTERS}])-(?=[{CJK_CHARACTERS}])"
_AFFIX_SEPARATOR = re.compile(
    rf"\s*(?:\s[|\-–—»·•:/~]{{1,2}}\s|[|｜_:：»—–·•]|::|{_CJK_HYPHEN})\s*"
)
# Class or id of an element holding the headline.
_HEADLINE_CLASS = re.compile(
    r"(?:^|[\s_-])(?:headline|head-line|article[-_]?title|entry[-_]title|story[-_]?title|"
    r"post[-_]title|article[-_]?header[-_]?title|content[-_]title|page[-_]title|title[-_]main)"
    r"(?:$|[\s_-])", re.I,
)
# Headings inside these are not the article's.
_OTHER = re.compile(
    r"(?:^|[\s_-])(?:nav|navbar|menu|sidebar|teaser|related|recommend|promo|footer|"
    r"comment|widget|newsletter|trending|popular|most[-_]read|breadcrumb|masthead|logo)"
    r"(?:$|[\s_-])", re.I,
)
# A text this many kinds of source write word for word is the headline as written
# (found on chaos tuning pages: heading, JSON-LD and og:title saying "X - more").
SETTLED_KINDS = 3
# With no agreement, the visible heading whose words (this many, of four letters or more)
# the first OPENING_CHARS characters of the article's text write is the headline.
OPENING_WORDS = 2
OPENING_CHARS = 600
# At most this many visible headings are candidates (the first in page order).
MAX_HEADINGS = 4
# A headline is at most this long (longer texts are paragraphs marked as headings).
MAX_HEADLINE_CHARS = 300
# An affix is a site name when at least this share of a site's titles carry it ...
SITE_AFFIX_SHARE = 0.5
# ... and at least this many of them.
SITE_AFFIX_MIN_PAGES = 3
# An affix longer than this is not a name.
MAX_AFFIX_CHARS = 60


@dataclass(frozen=True)
class Headline:
    """The decided headline, where it came from, and how many sources agreed."""

    text: str
    source: str
    agreement: int


# -- comparing ------------------------------------------------------------------------

_QUOTES = str.maketrans({
    "‘": "'", "’": "'", "‚": "'", "‛": "'", "′": "'", "`": "'", "´": "'",
    "“": '"', "”": '"', "„": '"', "‟": '"', "«": '"', "»": '"', "″": '"',
    "‐": "-", "‑": "-", "‒": "-", "–": "-", "—": "-", "―": "-", "−": "-",
    "\u00ad": None, "\u200b": None, "\u200c": None, "\u200d": None, "\ufeff": None,
})
_NOT_WORD = re.compile(r"[\W_]+")


def comparable(text: str) -> str:
    """``text`` for comparison: NFKC, quote and dash styles, case and punctuation ignored."""
    text = unicodedata.normalize("NFKC", text).translate(_QUOTES).casefold()
    return " ".join(_NOT_WORD.split(text)).strip()


def _names_key(name: str) -> str:
    return comparable(name).replace(" ", "")


def strip_site_name(text: str, names: Iterable[str]) -> str:
    """``text`` without a leading or trailing site name (and its separator).

    >>> strip_site_name("Storm hits the coast | Daily Planet", ["Daily Planet"])
    'Storm hits the coast'
    >>> strip_site_name("Forbes.com: AMD More Fleet-Footed Than Intel", ["forbes"])
    'AMD More Fleet-Footed Than Intel'
    >>> strip_site_name("台风登陆_English_Xinhua", ["English_Xinhua"])
    '台风登陆'
    >>> strip_site_name("Golfer Wins 7th Title(The Korea Times)", ["The Korea Times"])
    'Golfer Wins 7th Title'
    >>> strip_site_name("Daily Planet", ["Daily Planet"])
    'Daily Planet'
    """
    return _strip_site_keys(text, _site_keys(names))


def _site_keys(names: Iterable[str]) -> set[str]:
    """The site names as :func:`_is_name` compares them."""
    return {key for key in map(_names_key, filter(None, names)) if key}


def _strip_site_keys(text: str, keys: set[str]) -> str:
    """:func:`strip_site_name` with the names' keys made (once for all candidates)."""
    if not keys:
        return text
    for _ in range(2):  # "Section | Headline | Site": a name at each end
        parts = _split_affixes(text)
        if len(parts) < 2:
            break
        stripped = _strip_once(parts, keys)
        if stripped is None or stripped == text:
            break
        text = stripped
    return text


def _split_affixes(text: str) -> list[str]:
    """``text`` cut at its separators, the separators kept (odd positions)."""
    pieces: list[str] = []
    last = 0
    for match in _AFFIX_SEPARATOR.finditer(text):
        if match.start() == 0 or match.end() == len(text):
            continue
        pieces += [text[last:match.start()], match.group()]
        last = match.end()
    pieces.append(text[last:])
    closing = _PARENTHESIZED.match(pieces[-1])
    if closing:  # "Headline (The Korea Times)": the name in parentheses is a suffix
        pieces[-1:] = [closing.group(1), closing.group(2), closing.group(3)]
    return pieces


_PARENTHESIZED = re.compile(r"^(.*\S)(\s*\()([^()]{2,60})\)$")


def _strip_once(parts: list[str], keys: set[str]) -> str | None:
    # the longest run of trailing (or leading) parts that is a name, as one affix
    for count in range(len(parts) // 2, 0, -1):
        suffix = _names_key("".join(parts[len(parts) - 2 * count + 1:]))
        if _is_name(suffix, keys):
            rest = "".join(parts[:len(parts) - 2 * count]).strip()
            return rest or None
        prefix = _names_key("".join(parts[:2 * count - 1]))
        if _is_name(prefix, keys):
            rest = "".join(parts[2 * count:]).strip()
            return rest or None
    return None


def _is_name(affix: str, keys: set[str]) -> bool:
    if not affix or len(affix) > MAX_AFFIX_CHARS:
        return False
    affix = affix.removeprefix("the")
    for key in (key.removeprefix("the") for key in keys):
        # "forbes" names "Forbes.com"; "The Washington Post" names "washingtonpost.com"
        if affix == key or affix.startswith(key) and affix[len(key):] in _DOMAIN_ENDINGS:
            return True
        if key.startswith(affix) and key[len(affix):] in _DOMAIN_ENDINGS:
            return True
    return False


_DOMAIN_ENDINGS = frozenset({"", "com", "net", "org", "couk", "de", "fr", "jp", "cn", "online",
                             "news", "tv"})


# -- candidates -----------------------------------------------------------------------


def headline_candidates(evidence: Evidence) -> list[tuple[str, str]]:
    """``(source, text)`` of every headline the page's markup states, in page order;
    the story's own ``h1`` (:func:`_story_heading`) once more as ``story-heading``, before
    the visible headings, for :func:`decide_headline` to prefer."""
    found: list[tuple[str, str]] = []
    for obj in evidence.articles():
        for key in ("headline", "name", "alternativeHeadline"):
            value = obj.get(key)
            if isinstance(value, str) and value.strip():
                found.append(("json-ld", _clean(value)))
                break
    for source, names in (
        ("og:title", ("og:title",)),
        ("twitter:title", ("twitter:title",)),
        ("meta:title", ("title", "dc.title", "dcterms.title", "sailthru.title",
                        "parsely-title", "headline")),
    ):
        for _, value in evidence.meta_values(*names):
            found.append((source, _clean(value)))
            break
    for element in evidence.itemprops.get("headline", ())[:1]:
        if element.tag != "meta":
            found.append(("heading", _clean(itemprop_value(element))))
    story = _story_heading(evidence.root)
    if story:
        found.append(("story-heading", story))
    found += [("heading", text) for text in _visible_headings(evidence.root)]
    title = evidence.root.find(".//title")
    if title is not None and title.text_content().strip():
        found.append(("title", _clean(title.text_content())))
    return [(source, text) for source, text in found if _headline_like(text)]


# A script statement where a title should be (``<title>`` left open before a <script>:
# ``...Title(The Korea Times)ntById("font");``): the title ends where it starts. A call
# is sought from the start of a word alone (its digits and other letters passed over to
# the first one a name begins with, the call's start): from a later letter of the same
# word it can end nowhere the first could not, and trying each took the square of the
# word's length.
_CODE = re.compile(
    r"(?<![\w$])[^\W_A-Za-z]*"
    r"(?P<call>[A-Za-z_$][\w$]*(?:\.[\w$]+)*\((?:\"[^\"]*\"|'[^']*'|[\w$.,\s]*)\)\s*;)"
    r"|\bfunction\s*\w*\s*\(|[{}]"
)


def without_code(text: str) -> str:
    """``text`` up to the first script statement in it.

    >>> without_code('Golfer Wins 7th Title(The Korea Times)ntById("font"); obj.style = 1')
    'Golfer Wins 7th Title(The Korea Times)'
    """
    if "(" not in text and "{" not in text and "}" not in text:
        return text  # (every statement _CODE finds holds one of them; most titles none)
    match = _CODE.search(text)
    if match is None:
        return text
    return text[: match.start("call") if match["call"] else match.start()].strip()


def _clean(text: str) -> str:
    return without_code(normalize_title_space(html.unescape(text)))  # meta values hold "&amp;"


def _visible_headings(root: HtmlElement) -> list[str]:
    """The first headings of the page: its ``h1``s, or where none is the article's (no
    ``h1`` at all, or only a breadcrumb trail's), one level down: the ``h2``s and the
    elements with a headline class, in page order."""
    texts: list[str] = []
    body = root.find(".//body")
    scope = body if body is not None else root
    headings = [element for element in scope.iter("h1") if _article_heading(element)]
    if not headings:
        headings = [
            element for element in scope.iter("h2", "h3", "div", "span", "p", "header")
            if (element.tag == "h2" or _headline_class(
                f"{element.get('class', '')} {element.get('id', '')}"
            )) and _article_heading(element)
        ]
    for element in headings:
        text = _heading_text(element)
        if text and text not in texts:
            texts.append(text)
        if len(texts) >= MAX_HEADINGS:
            break
    return texts


def _headline_class(marks: str) -> bool:
    """:data:`_HEADLINE_CLASS` in an element's class and id, the expression run only where
    "title" or "head" is written (each of its words holds one) or a character beyond ASCII
    is, which ``re.I`` may match to an ASCII letter: the same answers, where a page without
    an article ``h1`` has some 400 candidates and a few match."""
    if marks.isascii():
        lowered = marks.lower()
        if "title" not in lowered and "head" not in lowered:
            return False
    return _HEADLINE_CLASS.search(marks) is not None


def _story_heading(root: HtmlElement) -> str | None:
    """The ``h1`` in the ``<header>`` of an ``<article>``, where the page has ``h1``s
    outside every article and none says the same (an ``h1`` in an article but not in its
    header, a teaser's, is not read): the headline the reader sees over the story, under
    a site bar that repeats the social title (found on chaos tuning pages: Slate's roll-up
    bar, its two ``h1``s writing what JSON-LD and og:title write, above the story's
    reworded ``h1.hed``; ESPN's logo ``h1`` and a sidebar of teaser ``<article>``s whose
    first ``h1`` og:title repeats). One text at most: two articles whose headers write two
    texts are a list, not a story."""
    body = root.find(".//body")
    if body is None:
        return None
    inside: list[str] = []
    outside: set[str] = set()
    for element in body.iter("h1"):
        text = _heading_text(element)
        if not text or not _article_heading(element):
            continue
        ancestors = list(element.iterancestors("article", "header"))
        article = next((i for i, a in enumerate(ancestors) if a.tag == "article"), None)
        if article is None:
            outside.add(comparable(text))
        elif article > 0:  # a <header> below the <article>
            inside.append(text)
    keys = {comparable(text) for text in inside}
    if len(keys) != 1 or not outside or keys <= outside:
        return None
    return inside[0]


def _article_heading(element: HtmlElement) -> bool:
    """Whether a heading can be the article's: not in other content (a teaser, a sidebar),
    not in a navigation (``<nav>``: a breadcrumb trail ending in the page's title, which
    some sites mark up as the ``h1`` and show above the real headline)."""
    if inside_other_content(element, _OTHER):
        return False
    return not any(ancestor.tag == "nav" for ancestor in element.iterancestors())


def _heading_text(element: HtmlElement) -> str:
    """The text of a heading as it reads: inline parts joined as written (a kicker
    ``<span>Breakpoint: </span>`` and its headline), block parts and ``<br>`` apart."""
    parts: list[str] = []
    _append_text(element, parts)
    # a gap before punctuation is markup, not text ("<div>Kicker</div><span>: </span>")
    text = _GAP_BEFORE_PUNCTUATION.sub("", "".join(parts))
    return normalize_title_space(text.replace(_GAP, " "))


_GAP = "\x00"
_GAP_BEFORE_PUNCTUATION = re.compile(r"\x00[\x00\s]*(?=[:：,.;!?])")


_SKIPPED = frozenset({"script", "style", "noscript", "template"})
_INLINE_BREAKS = frozenset({"br", "div", "p", "h1", "h2", "h3", "h4", "h5", "h6", "li"})


def _append_text(element: HtmlElement, parts: list[str]) -> None:
    if element.text:
        parts.append(element.text)
    for child in element:
        if isinstance(child.tag, str) and child.tag not in _SKIPPED:
            gap = _GAP if child.tag in _INLINE_BREAKS else ""
            parts.append(gap)
            _append_text(child, parts)
            parts.append(gap)
        if child.tail:
            parts.append(child.tail)


def _headline_like(text: str) -> bool:
    if not text or len(text) > MAX_HEADLINE_CHARS:
        return False
    return cjk_count(text) >= 2 or len(text.split()) >= 2 or len(text) >= 8


# -- the decision ---------------------------------------------------------------------


def decide_headline(
    candidates: Sequence[tuple[str, str]],
    site_names: Iterable[str] = (),
    opening: str = "",
) -> Headline | None:
    """The headline most kinds of source agree on (see the module's description);
    ``opening``, the article's text, tells the visible heading where nothing agrees.

    >>> decide_headline([("title", "Storm hits the coast – Daily Planet"),
    ...                  ("og:title", "Storm hits the coast"),
    ...                  ("heading", "Storm hits the coast")])
    Headline(text='Storm hits the coast', source='heading', agreement=3)
    >>> decide_headline([("heading", "Latest News"), ("og:title", "Rain at last | DP"),
    ...                  ("title", "Rain at last | DP")], ["DP"]).text
    'Rain at last'
    """
    name_keys = _site_keys(site_names)
    entries: list[tuple[str, str, str]] = []  # source, text as written, comparable text
    named: dict[str, str] = {}  # a document title a site name was cut from: key -> text
    for source, text in candidates:
        text = without_code(text)
        stripped = _strip_site_keys(text, name_keys) if text else text
        if not stripped:
            continue
        key = comparable(stripped)
        if key and not _is_name(key.replace(" ", ""), name_keys):
            entries.append((source, stripped, key))
            if stripped != text and FAMILY.get(source) == "document":
                named[key] = stripped
    # The site's name cut from the <title>, the rest is the headline as the site writes it,
    # dashes and all ("Nokia E71 Software Update - v400.21.013 | Site"): the extraction's
    # title, the same <title> cut further at one of its dashes, gives way (a "|" or "»"
    # left in the rest more often sets off a section: "Gift Ideas | Atlanta").
    entries = [
        entry for entry in entries
        if entry[0] != "extraction" or not any(
            other != entry[2] and _dash_part(entry[2], text) for other, text in named.items())
    ] or entries
    if not entries:
        return None
    for source, text, _ in entries:
        if source == "story-heading":  # the story's own h1 under a site's other h1s
            return Headline(_as_typed(text, "heading", entries), "heading", 1)
    settled = _settled(entries)
    best: tuple[int, int, int] | None = None
    chosen = entries[0]
    for entry in entries:
        source, text, key = entry
        families = {
            FAMILY[other[0]] for other in entries
            if other[0] in SUPPORTERS and _agrees(key, other[2], other[1])
            and (other[2] == key or other[2] not in settled)
        }
        # a text that is another candidate with an affix ("X | Site") gives way to it,
        # unless it is settled
        affixed = key not in settled and any(
            other[2] != key and _agrees(other[2], key, text) for other in entries
        )
        rank = (not affixed, len(families), -_PRIORITY.get(source, len(SOURCES)))
        if best is None or rank > best:
            best, chosen = rank, entry
    assert best is not None
    if best[1] <= 1:  # no two kinds agree: trust the sources in order
        told = _heading_of_the_text(entries, opening)
        if told is not None:
            return Headline(_as_typed(told, "heading", entries), "heading", 1)
        for wanted in _ALONE:
            for source, text, _ in entries:
                if source == wanted:
                    if FAMILY[source] == "document" and comparable(text) not in named:
                        text = _strip_generic(text)
                    return Headline(text, source, 1)
    longer = _heading_longer_than_the_titles(entries, chosen, opening)
    if longer is not None:
        return Headline(_as_typed(longer, "heading", entries), "heading", 1)
    return Headline(_as_typed(chosen[1], chosen[0], entries), chosen[0], best[1])


def _heading_longer_than_the_titles(
    entries: Sequence[tuple[str, str, str]], chosen: tuple[str, str, str], opening: str,
) -> str | None:
    """Where the social and document titles agree on a shortened headline and no JSON-LD
    headline is stated, the page's one visible heading that writes every word of the
    agreed title (of four letters or more) and more, and that the article's text speaks
    of (:data:`OPENING_WORDS` of its words in the first :data:`OPENING_CHARS` characters),
    or None. Found on Mercury's tuning pages (nydailynews: og:title, twitter:title, meta
    title and ``<title>`` ``Michelle Obama: ‘We are feeling …’``, the ``h1`` ``Michelle Obama
    suggests America has lost hope since Donald Trump’s election: ‘We are feeling …’``;
    usmagazine's ``… Shares Pic of …`` against the ``h1`` ``… Shares Photo of … Hanging With
    Her Mom and Now We’re Confused``): the shortened social title gives way to the
    headline a reader sees, as issue 13 asks. A JSON-LD headline is the publisher's own
    statement and keeps the agreement's choice (fundus's labels follow og:title there).
    A heading that is the title and an affix after a separator (``… | Weather``) is the
    title with a section's name, not a longer headline."""
    if not opening or FAMILY.get(chosen[0]) not in ("social", "document"):
        return None
    if any(source == "json-ld" for source, _, _ in entries):
        return None
    headings = list(dict.fromkeys(key for source, _, key in entries if source == "heading"))
    if len(headings) != 1 or len(headings[0]) <= len(chosen[2]):
        return None
    text = next(text for source, text, key in entries if source == "heading")
    if _agrees(chosen[2], headings[0], text):  # the title with a section's affix
        return None
    words, title = _content_words(text), _content_words(chosen[1])
    if not title or not title < words:
        return None
    if len(words & _opening_words(opening)) < OPENING_WORDS:
        return None
    return text


def _heading_of_the_text(entries: Sequence[tuple[str, str, str]], opening: str) -> str | None:
    """Where no two kinds of source agree and no JSON-LD headline is stated, the one
    visible heading that the article's own text speaks of (:data:`OPENING_WORDS` of its
    words of four letters or more in the text's first :data:`OPENING_CHARS` characters)
    and that shares a word with each social and document title (the same story, not a
    widget's or the site's heading), or None. Found on chaos tuning pages (CNN, Screen
    Rant, Daily Mail, Mondaq): the heading, og:title and ``<title>`` write three wordings
    of one story, the order without agreement took og:title, and the headline a reader
    sees is the heading. The heading alone first (stop 34) took site banners and widget
    headings (``Virtual Geek``, ``Save & Share this Article``): the text does not speak
    of those. A title that shares no word with the heading and of which the text speaks
    no word is the site's banner, not a wording of the story, and asks nothing of the
    heading (stop 50, found on l3s tuning pages of five publishers: the ``<title>`` `The
    Independent on Saturday`, `Asharq Alawsat Newspaper (English)` over the story's
    ``h1``)."""
    if not opening or any(source == "json-ld" for source, _, _ in entries):
        return None
    headings = list(dict.fromkeys(text for source, text, _ in entries if source == "heading"))
    titles = [
        _content_words(text) for source, text, _ in entries
        if FAMILY.get(source) in ("social", "document")
    ]
    if not headings or not titles:
        return None
    text_words = _opening_words(opening)
    told = [
        heading for heading in headings
        if len((words := _content_words(heading)) & text_words) >= OPENING_WORDS
        and all(words & title or not title & text_words for title in titles)
    ]
    return told[0] if len(told) == 1 else None


_CONTENT_WORD = re.compile(r"[^\W\d_]{4,}")


def _content_words(text: str) -> set[str]:
    return set(_CONTENT_WORD.findall(comparable(text)))


def _opening_words(opening: str) -> set[str]:
    """The words of four letters or more in the article's first :data:`OPENING_CHARS`
    characters: a heading the text speaks of writes :data:`OPENING_WORDS` of them."""
    return _content_words(opening[:OPENING_CHARS])


def _settled(entries: Sequence[tuple[str, str, str]]) -> set[str]:
    """The texts that SETTLED_KINDS kinds of source or more write word for word: the
    headline as written, neither a shorter candidate plus an affix nor support for that
    shorter candidate (a site name is not in the heading, the JSON-LD headline and
    og:title alike: "X - new upgrade landing soon" is no "X" with a site name)."""
    kinds: dict[str, set[str]] = {}
    for source, _, key in entries:
        if source in SUPPORTERS:
            kinds.setdefault(key, set()).add(FAMILY[source])
    return {key for key, families in kinds.items() if len(families) >= SETTLED_KINDS}


# Sources that print the headline as its editor typed it into the CMS (into the page's
# head, untouched by the template), first trusted first.
_AS_TYPED = ("json-ld", "og:title", "twitter:title", "meta:title")


def _as_typed(text: str, source: str, entries: Sequence[tuple[str, str, str]]) -> str:
    """``text`` as the page's metadata writes it where it is the same headline with plain
    quotes and dashes: the template's typography (WordPress's ``wptexturize``, a
    newsroom's display filter) curls ``'`` into ``’`` and ``-`` into ``–`` in the visible
    heading and the ``<title>`` only.

    >>> _as_typed("Mexico’s economy grew", "heading",
    ...           [("og:title", "Mexico's economy grew", "mexico s economy grew")])
    "Mexico's economy grew"
    >>> _as_typed("Atomkraftwerk Kühltürme gesprengt", "heading",
    ...           [("og:title", "Atomkraftwerk: Kühltürme gesprengt", "")])
    'Atomkraftwerk: Kühltürme gesprengt'
    """
    if source in _AS_TYPED:
        return text
    for wanted in _AS_TYPED:
        for other_source, other, _ in entries:
            if other_source == wanted and _plainer(other, text):
                return other
    return text


def _plainer(plain: str, styled: str) -> bool:
    """Whether ``plain`` is ``styled`` with some typographic quotes or dashes written plain,
    or with the colon that the template replaced by a line or a style between a kicker
    and its headline (``Kicker: Headline`` shown as ``<span>Kicker</span> Headline``)."""
    if plain == styled:
        return False
    if _KICKER_COLON.sub(" ", plain, count=1) == styled:
        return True
    if len(plain) != len(styled):
        return False
    return all(
        a == b or a.isascii() and a == b.translate(_QUOTES)
        for a, b in zip(plain, styled)
    )


# A kicker's colon: after a word, before a space.
_KICKER_COLON = re.compile(r"(?<=\w):\s")


# Kinds of source: the sources of one kind are copies of one field of the publisher's
# CMS (og:title and twitter:title are the social title; <title> and meta title the
# document's), so they agree as one.
FAMILY = {
    "heading": "visible", "json-ld": "structured", "og:title": "social",
    "twitter:title": "social", "meta:title": "document", "title": "document",
    "pattern": "pattern", "extraction": "extraction", "anchor": "anchor",
    "story-heading": "visible",
}
# The extraction's title is read from the same <title> and headings: it is a candidate,
# never a supporter. A learned pattern's title block is one (see the module's description).
SUPPORTERS = frozenset(FAMILY) - {"extraction"}
# Separators after which a short rest is an affix (a site or section name) rather than
# part of the headline: a colon introduces a kicker, not a name.
_STRONG_SEPARATOR = re.compile(rf"\s*(?:\s[|\-–—»·•/~]{{1,2}}\s|[|｜_»]|::|{_CJK_HYPHEN})\s*")


def _agrees(key: str, other_key: str, other_text: str) -> bool:
    """Whether a source's text (``other_*``) names the headline ``key``: the same text, or
    the headline with a short affix (a site or section name) after or before a separator."""
    if other_key == key:
        return True
    if len(other_key) <= len(key) or key not in other_key:
        return False
    parts = _STRONG_SEPARATOR.split(other_text)
    if len(parts) < 2:
        return False
    for start in range(len(parts)):
        for end in range(start + 1, len(parts) + 1):
            if (start or end < len(parts)) and comparable(" ".join(parts[start:end])) == key:
                rest = comparable(" ".join(parts[:start] + parts[end:]))
                return len(rest) <= min(MAX_AFFIX_CHARS, max(len(key), 12))
    return False


_DASH = re.compile(r"\s[-–—]\s")


def _dash_part(key: str, text: str) -> bool:
    """Whether ``key`` is a run of the parts of ``text`` cut at its dashes, not all."""
    parts = _DASH.split(text)
    return any(
        comparable(" ".join(parts[start:end])) == key
        for start in range(len(parts)) for end in range(start + 1, len(parts) + 1)
        if start or end < len(parts)
    )


def _strip_generic(text: str) -> str:
    """A lone ``<title>``-like text: the longest part when separators cut it."""
    texts = [part.strip() for part in _STRONG_SEPARATOR.split(text) if part.strip()]
    if len(texts) < 2:
        return text
    longest = max(texts, key=len)
    return longest if _headline_like(longest) and len(longest) >= len(text) // 3 else text


# -- site names across pages ----------------------------------------------------------


def title_affixes(title: str) -> list[str]:
    """The runs of leading and of trailing parts of a title cut at its separators, the
    headline part left out (the site name may span parts: ``_English_Xinhua``).

    >>> title_affixes("Storm hits | Sport | Daily Planet")
    ['Storm hits', 'Daily Planet', 'Storm hits | Sport', 'Sport | Daily Planet']
    """
    parts = _split_affixes(title)
    affixes = []
    for count in range(1, len(parts) // 2 + 1):
        affixes.append("".join(parts[:2 * count - 1]).strip())
        affixes.append("".join(parts[len(parts) - 2 * count + 1:]).strip())
    return list(dict.fromkeys(affixes))


class SiteNames:
    """The site-name affixes of one site, learned from the ``<title>``s of its pages:
    the longest run of first or last parts that at least half of them (and three or
    more) share.

    >>> names = SiteNames()
    >>> for t in ("A storm | DP", "Rain falls | DP", "Sun again | DP", "Just words"):
    ...     names.add(t)
    >>> names.names()
    ['DP']
    """

    def __init__(self, affixes: Iterable[str] = ()) -> None:
        self.pages = 0
        # the count of each affix seen on two pages or more; an affix seen once is in
        # _once, by the first 12 bytes of the md5 digest of its UTF-8 with the number of
        # its sighting (~20 bytes a RecordBook record, not ~110 a string and its entry):
        # every page's headline is an affix of its title, seen once, and a long crawl
        # kept them all (stop 50's crawl memory). Exact, as the URL store's md5 keys are:
        # no count is dropped or guessed, and _first keeps the order they were first seen
        # in (the order counts had them in, as the names are returned: the first is the
        # site name)
        self.counts: Counter[str] = Counter()
        self._once = RecordBook()
        self._first: dict[str, int] = {}  # an affix in counts -> the number of its sighting
        self._sightings = 0  # affixes first seen
        self.known = [affix for affix in affixes if affix]
        # The affixes of SITE_AFFIX_MIN_PAGES pages or more, in the order first seen:
        # the only ones names() can return. Reading counts whole at every page made a
        # crawl quadratic in a site's pages (it held each page's headline then).
        self._frequent: list[str] = []

    def add(self, title: str | None) -> None:
        if not title:
            return
        self.pages += 1
        reached = False
        counts = self.counts
        for affix in title_affixes(without_code(normalize_space(title))):
            if len(affix) <= MAX_AFFIX_CHARS:
                count = counts.get(affix)
                if count is None:
                    digest = hashlib.md5(affix.encode("utf-8", "surrogatepass")).digest()[:12]
                    first = self._once.get(digest)
                    if first is None:
                        self._once.put(digest, self._sightings)
                        self._sightings += 1
                        continue
                    self._first[affix] = first
                    count = 1
                counts[affix] = count + 1
                reached = reached or count + 1 == SITE_AFFIX_MIN_PAGES
        if reached:  # seldom: once for each affix that recurs
            self._frequent = sorted(
                (affix for affix, count in counts.items() if count >= SITE_AFFIX_MIN_PAGES),
                key=self._first.__getitem__,
            )

    def names(self) -> list[str]:
        shared = [
            affix for affix in self._frequent
            if self.counts[affix] >= SITE_AFFIX_SHARE * self.pages
        ]
        # "English_Xinhua", not also its part "Xinhua"
        learned = [
            affix for affix in shared
            if not any(other != affix and _is_part(affix, other) for other in shared)
        ]
        return self.known + [name for name in learned if name not in self.known]


def _is_part(affix: str, longer: str) -> bool:
    return len(longer) > len(affix) and (longer.endswith(affix) or longer.startswith(affix))
