"""Regex tables and tag sets of the Readability heuristic (seeds 000 and 002).

The class/id tables match *lowercased* names without ``re.I``: Python's case-insensitive
search over these alternations was 6x slower, and it runs on every element.

The class/id tables are python-readability's (``readability/readability.py``),
the tag sets follow arc90's Readability as read in seed 000. Keeping them in one
module lets a reader compare them with the originals line by line.
"""

from __future__ import annotations

import re

__all__ = [
    "ARTICLE_NAMES",
    "BOILERPLATE",
    "BOILERPLATE_WORDS",
    "COMMENTS",
    "CONDITIONALLY_CLEANED",
    "DIV_TO_P_BLOCKS",
    "DROPPED_IN_ARTICLE",
    "HEADINGS",
    "JUNK_TAGS",
    "MAYBE_CANDIDATE",
    "MEDIA_TAGS",
    "NEGATIVE",
    "NEGATIVE_WORDS",
    "NEVER_ARTICLE",
    "PLUGINS",
    "POSITIVE",
    "SCORED_TAGS",
    "SENTENCE_END",
    "TAG_SCORES",
    "TANGENTIAL",
    "UNLIKELY_CANDIDATES",
    "UNLIKELY_ROLES",
    "UNLIKELY_WORDS",
    "any_word",
    "comma_count",
    "hides",
]

# Class/id names of page furniture: stripped before scoring while FLAG_STRIP_UNLIKELYS is on.
# Mozilla Readability's list, plus "modal": dialogs that CSS hides until opened (a
# Bootstrap modal inside the article of mozilla's simplyfound-1 outscored the story).
UNLIKELY_WORDS = (
    "combx", "comment", "community", "disqus", "extra", "foot", "header", "menu", "remark",
    "rss", "shoutbox", "sidebar", "sponsor", "ad-break", "agegate", "pagination", "pager",
    "popup", "tweet", "twitter", "-ad-", "ai2html", "banner", "breadcrumbs", "cover-wrap",
    "gdpr", "legends", "related", "replies", "skyscraper", "social", "supplemental",
    "yom-remote", "modal",
)


def any_word(words: tuple[str, ...]) -> re.Pattern[str]:
    """A pattern that finds any of ``words`` in a text, for ``search`` used as a yes/no.

    The alternatives are grouped by their shared prefixes (a trie): Python's re tries the
    branches of an alternation one by one at each position of the text, and the page
    sweep searches every new class name of a page with the 34 unlikely words (1.0 us
    a name as a flat alternation, 0.6 us as a trie). A word that starts with another
    ("footer", "foot") is found wherever the shorter one is, so it is left out: the
    same texts match, only the match itself may differ.

    >>> any_word(("pager", "pagination", "foot", "footer")).pattern
    '(?:foot|pag(?:er|ination))'
    """
    trie: dict = {}
    for word in words:
        node = trie
        for character in word:
            node = node.setdefault(character, {})
        node[""] = {}  # a word ends here
    return re.compile(_alternation(trie))


def _alternation(node: dict) -> str:
    if "" in node:
        return ""  # a word ends here: what may follow does not matter to a search
    branches = [re.escape(c) + _alternation(node[c]) for c in sorted(node)]
    return branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"


# ... and a gallery, a word of the name ending in "gallery" or "galleries" ("gallery-viewport",
# "pluto-video-gallery", "companion-galleries"; not "galleryPlayer_1", a post's player):
# a slideshow's or a video playlist's captions and titles set in the story's column
# outweighed the story (USA Today's and Florida Today's 2017 pages, chaos tune).
UNLIKELY_CANDIDATES = re.compile(any_word(UNLIKELY_WORDS).pattern + r"|galler(?:y(?![a-z])|ies)")
# ... unless the name also says it may hold the article ("main-header", "article-footer").
MAYBE_CANDIDATE = re.compile(r"and|article|body|column|content|main|shadow")
# Reader comments are unlikely whatever "maybe" word they have ("commentbody",
# "comment-content"), unless the name is also the article's own ("article comments-on").
COMMENTS = re.compile(r"comment|disqus|replies")
ARTICLE_NAMES = re.compile(r"article|main")
# Unlikely names that are never the article's own container: stripped in every attempt
# of the sieve, also the relaxed ones (which read the other unlikely names, often set on
# wrappers: "header-wrap", "l-sidebar-fixed"): else a relaxed attempt, made when the
# strict one found a short story, takes the reader comments instead.
NEVER_ARTICLE = re.compile(r"comment|disqus|replies|foot")
# Class/id names of the furniture inside an article's container, removed from the
# assembled article while class names are read (cleaning.py): trafilatura's
# OVERALL_DISCARD_XPATH, TEASER_DISCARD_XPATH and DISCARD_IMAGE_ELEMENTS vocabulary,
# lowercased, without its single-site tokens; and the names of a newsletter sign-up box
# ("email-signup", "mailinglist-container", "subscribe-box": the verb, never
# "subscriber-premium", which names a paywalled story), as trafilatura names "newsletter";
# and a photo gallery embedded in a story ("photo-gallery", "external-gallery": another
# album's title, blurb, slide counter "1 / 62" and credits), as trafilatura names "slide".
# A teaser is another story's ("o-teaser", "teasers"), but not a teaser's text or content:
# the story's own opening (a German newsroom's "Teaser" is its standfirst, WinFuture's
# "teaser_text"; The Washington Post's "teaser-content" is the free part before its
# paywall). And a bar of the reader's actions on the story, "action" or "actions" as a
# part of the name ("post-actions": "Print Story Email Story Reprints" under a Mashable
# post), never inside a word ("transactions", "reactions").
BOILERPLATE_WORDS = (
    "share", "social", "viral", "sociable", "newsletter", "signup", "sign-up", "subscribe",
    "mailinglist", "mailing-list", "syndication", "cookie", "consent",
    "tags", "tag-list", "sidebar", "banner", "breadcrumb", "bread-crumb", "button", "author",
    "byline", "footer", "navigation", "menu", "related", "next-", "-stories", "most-popular",
    "more-on", "-ad-", "dfpad", "outbrain", "taboola", "criteo", "paidcontent",
    "paid-content", "widget", "meta", "rating", "attachment", "timestamp", "disclaimer",
    "user-info", "user-profile", "-icon", "article-infos", "slide", "viewport", "overlay",
    "expand", "obfuscated", "blurred", "caption", "gallery",
)
# ... and the words that count at the start of a name or of a part of it ("sharing-bar",
# "main-nav", "ad-slot"; "actions" as a whole part), searched after the trie of the others
# (any_word: 2.2 -> 1.5 us a name against the flat alternation).
BOILERPLATE = re.compile(
    any_word(BOILERPLATE_WORDS).pattern
    + r"|^shar|(?:^|[ _-])nav|(?:^| )ad(?:$| |-)|teaser(?![-_]*(?:text|content|body))"
    + r"|(?:^|[ _-])actions?(?:$|[ _-])"
)
# Class/id weights (FLAG_WEIGHT_CLASSES): +25 for a positive name, -25 for a negative one.
POSITIVE = re.compile(
    r"article|body|content|entry|hentry|main|page|pagination|post|text|blog|story"
)
# (its words searched as a trie, any_word: 81 -> 49 us a page of new names on fundus)
NEGATIVE_WORDS = (
    "combx", "comment", "com-", "contact", "foot", "footer", "footnote", "masthead", "media",
    "meta", "outbrain", "promo", "related", "scroll", "shoutbox", "sidebar", "sponsor",
    "shopping", "tags", "tool", "widget", "-ad-", "hidden", "banner", "share", "skyscraper",
    "gdpr",
)
NEGATIVE = re.compile(any_word(NEGATIVE_WORDS).pattern + r"|^hid-| hid-|^hid$")
# ARIA roles of page furniture, stripped like unlikely names (Mozilla Readability).
UNLIKELY_ROLES = frozenset(
    {"menu", "menubar", "complementary", "navigation", "alert", "alertdialog", "dialog"}
)

# A short paragraph sibling is kept when it ends a sentence: ". " in Latin scripts,
# and the ideographic/fullwidth stops of Japanese and Chinese, which need no space.
SENTENCE_END = re.compile(r"\.( |$)|[。！？]")
# Counted like commas when scoring a paragraph: the Latin comma, the ideographic comma and
# full stop, the fullwidth comma, full stop and marks (a CJK clause has no Latin comma).
_COMMAS = (",", "、", "。", "，", "．", "！", "？")


# The lead bytes of the others' UTF-8: E3 of the ideographic comma and full stop (E3 80
# 81, E3 80 82), EF of the fullwidth forms (EF BC 8C ...). As ints: a memchr each.
_IDEOGRAPHIC_LEAD, _FULLWIDTH_LEAD = 0xE3, 0xEF


def comma_count(text: str) -> int:
    """How many of the characters counted like commas ``text`` holds (each counted in C,
    without a list of matches; ASCII text, most of it, can hold the Latin comma only).

    >>> comma_count("a, b, c"), comma_count("東京、大阪。京都，"), comma_count("„Ja“, sagt sie.")
    (2, 3, 1)
    """
    if text.isascii():
        return text.count(",")
    # (a text whose UTF-8 lacks both lead bytes holds none of the six others, and most
    # non-ASCII text is Latin-script: encoding it and two memchrs cost a third of the six
    # counts, which scan a str of two-byte characters each)
    data = text.encode("utf-8", "surrogatepass")
    if _IDEOGRAPHIC_LEAD not in data and _FULLWIDTH_LEAD not in data:
        return text.count(",")
    return sum(map(text.count, _COMMAS))


# A <div> with none of these below it reads as a paragraph (Readability's divToPElements).
DIV_TO_P_BLOCKS = ("blockquote", "dl", "div", "img", "ol", "p", "pre", "table", "ul")
# Elements whose own text is scored as a paragraph (plus the <div>s that read as one).
SCORED_TAGS = ("p", "pre", "td", "blockquote")
# Initial score of a candidate by tag (python-readability's score_node).
TAG_SCORES = {
    **dict.fromkeys(("div", "article"), 5),
    **dict.fromkeys(("pre", "td", "blockquote"), 3),
    **dict.fromkeys(("address", "ol", "ul", "dl", "dd", "dt", "li", "form", "aside"), -3),
    **dict.fromkeys(
        ("h1", "h2", "h3", "h4", "h5", "h6", "th", "header", "footer", "nav"), -5
    ),
}
# Containers judged "fishy" or not by the conditional cleaning, innermost first.
CONDITIONALLY_CLEANED = (
    "form", "fieldset", "table", "ul", "div", "aside", "header", "footer", "section"
)
HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")
# Never part of an article's text, removed from the article unconditionally.
DROPPED_IN_ARTICLE = ("textarea", "select", "button", "input")
# HTML5 elements for what is beside the article or about it: removed from it.
TANGENTIAL = ("aside", "footer")
# Plugin content (Flash and the like): no text, removed before containers are judged.
PLUGINS = ("object", "embed", "applet")
# Removed from the page before anything else: code, styles and invisible machinery
# (<noembed> and <noframes>: what a browser without plugins or frames would show, which
# no browser of today is; ad markup hides in them), and the reading aids of ruby
# annotations (<rt>, <rp>: the kana over a Japanese word, not the text).
JUNK_TAGS = (
    "script", "style", "noscript", "template", "link", "meta", "iframe", "frame",
    "frameset", "svg", "math", "canvas", "map", "noembed", "noframes", "rt", "rp",
)
# Content without text that still makes a paragraph worth keeping.
MEDIA_TAGS = ("img", "picture", "video", "audio", "embed", "object", "iframe")


# Class names of CSS frameworks' and sites' utility classes that hide an element from
# the reader (display: none, or shown to screen readers only) ...
_HIDING_CLASSES = frozenset({
    "hidden", "hide", "is-hidden", "u-hidden", "d-none", "display-none", "display_none",
    "visually-hidden", "u-visually-hidden", "sr-only", "screen-reader-text", "invisible",
    "is-invisible", "element-invisible", "offscreen",
})
# ... and BEM modifiers that do ("c-box--is-hidden"); unless another class shows the
# element on some screens ("hidden md:block", "d-none d-lg-flex"): a responsive layout.
_HIDING_MODIFIER = re.compile(r"--(?:is-)?hidden$")
_SHOWN_ON_SOME_SCREENS = re.compile(r"^(?:sm|md|lg|xl|2xl):|^d-(?:sm|md|lg|xl)-", re.I)


# What every hiding class and modifier holds ("--hidden" has "hid"): a class attribute
# with none of these hides nothing, which _may_hide tells (most class attributes of a
# page are new to the sweep, and splitting each into tokens to test them cost twice as
# much).
_HIDING_HINTS = ("hid", "none", "sr-only", "screen-reader", "invisible", "offscreen")


def _may_hide(lowered: str) -> bool:
    """Whether a lowered class attribute holds one of :data:`_HIDING_HINTS`: six ``in``
    tests (C scans of a short text) take half the time of one search of their trie."""
    return (
        "hid" in lowered or "none" in lowered or "sr-only" in lowered
        or "screen-reader" in lowered or "invisible" in lowered or "offscreen" in lowered
    )



def hides(classes: str) -> bool:
    """Whether a ``class`` attribute hides its element from the reader.

    >>> hides("c-box__body u-display--is-hidden"), hides("hidden md:block"), hides("overflow-hidden")
    (True, False, False)
    >>> hides("Sr-Only"), hides("story-body")
    (True, False)
    """
    lowered = classes.lower()
    if not _may_hide(lowered):
        return False
    tokens = lowered.split()
    if not any(t in _HIDING_CLASSES or _HIDING_MODIFIER.search(t) for t in tokens):
        return False
    return not any(_SHOWN_ON_SOME_SCREENS.match(t) for t in tokens)
