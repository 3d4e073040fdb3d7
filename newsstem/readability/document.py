"""One parse per page: decode, parse with lxml, remove what is never text.

Everything after this module works on the tree built here; no stage parses again.
Unlikely candidates are *detached* for the first attempt of the sieve and put back
afterwards (:func:`detached`), so a retry needs neither a re-parse nor a copy.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Container, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import islice

from lxml import etree

from newsstem.encoding import decode_html, looks_binary
from newsstem.readability.adsection import MARKER, marked_sections
from newsstem.readability.described import words_and_social_titles
from newsstem.readability.measure import dense_length_of
from newsstem.readability.patterns import (
    ARTICLE_NAMES,
    COMMENTS,
    JUNK_TAGS,
    MAYBE_CANDIDATE,
    NEVER_ARTICLE,
    UNLIKELY_CANDIDATES,
    UNLIKELY_ROLES,
    hides,
)
from newsstem.readability.structured import declared_article_body
from newsstem.readability.tree import (
    Element,
    drop,
    in_head,
    is_below,
    outermost,
    parser,
    text_of,
)
from newsstem.text import normalize_space, xml_safe_utf8

__all__ = ["Page", "detached", "load_page"]

# python-readability's displayNoneRe: inline styles that hide an element.
_HIDDEN_STYLE = re.compile(
    r"(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*(?:!important\s*)?(?:;|$)",
    re.IGNORECASE,
)
# (A style it matches holds "none" or "hidden", lowercased by str.lower() too: re's
# IGNORECASE matches non-ASCII letters to "i" and "s" only, never to "n", "o", "e", "d".)
# A block with the `hidden` attribute and this much text (not counting spaces) is read:
# content that the page's scripts reveal. In the tune halves, hidden menus, consent
# notices and captions had 200-300 characters, hidden story text 1,000 and more.
_REVEALED_TEXT_LENGTH = 1000
# An opening <title> tag, for the one case that parses a page twice (see load_page).
_TITLE_TAG = re.compile(rb"<title\b[^>]*>", re.IGNORECASE)
_HTML_END = re.compile(rb"</html\s*>", re.IGNORECASE)
_MARKER_BYTES = MARKER.encode()
# The <html> start tag, for the one case that parses a page again without it.
_HTML_TAG = re.compile(rb"<html\b[^>]*>", re.IGNORECASE)
# Never stripped as unlikely: the page itself, code, and anything holding the article.
_NEVER_UNLIKELY_TAGS = frozenset({"html", "body", "article", "main", "a"})
# The attributes that may hide an element (:func:`_is_hidden`), and the attribute list of
# most elements of a page (two in five on fundus): a class alone, which can hide nothing
# else and is read without further tests.
_HIDING_ATTRIBUTES = frozenset({"style", "hidden", "aria-hidden"})
_CLASS_ONLY = ["class"]


@dataclass(frozen=True)
class Page:
    """A parsed page: its body (junk and hidden elements removed), its <title> text, the
    unlikely candidates that the first attempts of the sieve detach, and those of them
    that every attempt detaches (comment threads and footers: never the article)."""

    root: Element
    body: Element
    title: str
    unlikely: tuple[Element, ...]
    never_article: tuple[Element, ...] = ()
    # Copies of the text the page marks for AdSense section targeting (adsection.py).
    marked: tuple[Element, ...] = ()
    # The article text the page declares in JSON-LD (structured.py), or "".
    declared_body: str = ""
    # The words of the page's meta descriptions (described.py) and its og:title texts,
    # read in <head>, else anywhere in the document as parsed, before the body's metas
    # are stripped (and the head, when content stands beside <body>): Next.js writes
    # them in <body>.
    described: frozenset[str] = frozenset()
    social_titles: tuple[str, ...] = ()
    # A body with no text (once junk is stripped) on a page that declares its article:
    # a script-built shell, whose story only the declared body gives (nothing else is read).
    empty: bool = False


def load_page(html: str | bytes) -> Page | str:
    """Parse ``html`` once; return the page, or a reason when there is nothing to read.

    A page whose body has no text but whose JSON-LD declares an article body is returned
    ``empty`` (its body is not read): the declared body may be its article."""
    if isinstance(html, bytes) and looks_binary(html):
        return "binary data"  # an image or an archive: its "text" is noise
    text = decode_html(html)[0] if isinstance(html, bytes) else html
    # libxml2 stops at NUL and rejects str with an XML encoding declaration: feed it UTF-8,
    # without the characters a tree's texts may not hold (xml_safe: the one place here
    # where page text enters the tree).
    data = xml_safe_utf8(text)
    # (the markers are ASCII: looked for in the bytes, which is faster than in the str)
    keep_comments = _MARKER_BYTES in data
    # libxml2 drops everything after </html>; HTML5 parsers read it into <body>.
    data = _without_html_ends(data)
    root = _parse(data, keep_comments)
    if root is None:
        return "empty document"
    title = _title_text(root)
    if next(root.iterchildren("body"), None) is None and "<" in title:
        # A <title> never closed swallows the page as its text (seen in 1.4% of l3s).
        # Only then, parse a second time without that tag; the title is its first line.
        title = normalize_space(_swallowed_title(root))
        root = _parse(_TITLE_TAG.sub(b"", data, count=1), keep_comments)
        if root is None:
            return "empty document"
    if not _has_text(root) and _HTML_TAG.search(data):
        # A broken <html ...> start tag (unbalanced quotes, a stray "/>") can end the
        # document at once in libxml2. Only then, parse again without that tag.
        root = _parse(_HTML_TAG.sub(b"", data, count=1), keep_comments)
        if root is None:
            return "empty document"
        title = _title_text(root)
    declared_body = declared_article_body(root)
    words, social = words_and_social_titles(root)
    described = frozenset(words)
    body = _content_root(root)
    etree.strip_elements(body, *JUNK_TAGS, with_tail=False)
    if not _has_text(body):
        if not declared_body:
            return "empty document"
        # (a script-built shell: its JSON-LD may hold the story, extract() judges it)
        return Page(root, body, title, (), declared_body=declared_body, empty=True)
    unlikely, never_article = _sweep(body)
    # (the elements the candidates and the thread rules look for, found in one walk)
    landmarks = _Landmarks(body)
    if unlikely:
        unlikely, never_article = _outermost_candidates(
            unlikely, never_article, landmarks.holds_article
        )
    threads = comment_threads(body, landmarks)
    if threads:
        unlikely, never_article = _with_threads(
            unlikely, never_article, threads, landmarks.holds_article
        )
    marked = marked_sections(body, never_article) if keep_comments else ()
    return Page(
        root=root,
        body=body,
        title=title,
        unlikely=tuple(unlikely),
        never_article=tuple(never_article),
        marked=marked,
        declared_body=declared_body,
        described=described,
        social_titles=social,
    )


def _without_html_ends(data: bytes) -> bytes:
    r"""``data`` without its ``</html>`` tags, as ``_HTML_END.sub(b"", data)``: the pieces
    between them joined from views of ``data``, one copy of the page where ``sub`` makes
    two (a slice of each piece, then their join: every page holds a ``</html>``).

    >>> _without_html_ends(b"<p>a</p></HTML >\n<p>b</p></html>")
    b'<p>a</p>\n<p>b</p>'
    """
    spans = [match.span() for match in _HTML_END.finditer(data)]
    if not spans:
        return data
    view = memoryview(data)
    pieces: list[memoryview] = []
    last = 0
    for start, end in spans:
        pieces.append(view[last:start])
        last = end
    pieces.append(view[last:])
    return b"".join(pieces)


def _reopen_closed_link(link: Element) -> None:
    """Give a link written as closed at once its text, as a browser does: libxml2 reads
    ``<li><a href="/s" />Story title</a></li>`` (Times Online's lists of other stories)
    as an empty link and the title after it, where an HTML5 parser ignores the "/>" of
    an ``<a>`` and puts the title inside it. Only an empty link alone in its parent, the
    text after it the parent's only text, so that a list of such links counts as links."""
    tail = link.tail
    if (
        tail
        and link.tag == "a"
        and link.get("href")
        and tail.strip()
        and len(parent := link.getparent()) == 1
        and not (parent.text or "").strip()
    ):
        link.text, link.tail = tail, None


def _swallowed_title(root: Element) -> str:
    swallowed = root.find(".//title")
    return text_of(swallowed).lstrip().split("\n", 1)[0] if swallowed is not None else ""


def _content_root(root: Element) -> Element:
    """<body>, or the whole document when libxml2 left content outside it."""
    # (the children read by lxml's iterators: ElementPath's find() and findall() set up a
    # path of Python generators at each call, twice the cost of the walk itself here)
    bodies = root.iterchildren("body")
    body = next(bodies, None)
    if body is None:
        # Content stays inside <head> when an unknown tag opens the page there.
        etree.strip_elements(root, "title", with_tail=False)
        return root
    if next(bodies, None) is not None or any(
        isinstance(child.tag, str) and child.tag not in ("head", "body") for child in root
    ):
        # A stray </body> early in the page leaves the rest beside <body>; two documents
        # served as one leave two.
        etree.strip_elements(root, "head", with_tail=False)
        return root
    return body


def _parse(data: bytes, keep_comments: bool) -> Element | None:
    try:
        root = etree.fromstring(data, parser(keep_comments))
    except etree.ParserError:
        return None
    return root if root is not None and isinstance(root.tag, str) else None


def _title_text(root: Element) -> str:
    """The text of the first ``<title>`` in ``<head>``, else of the first anywhere (as
    ``root.find("head/title")``, then ``root.find(".//title")``)."""
    element = next(in_head(root, "title"), None)
    if element is None:
        element = next(root.iterdescendants("title"), None)
    return normalize_space(text_of(element)) if element is not None else ""


def _sweep(body: Element) -> tuple[list[Element], list[Element]]:
    """Drop hidden elements; return the unlikely candidates (seed 000 scoreNode) and those
    of them named as never the article (:data:`NEVER_ARTICLE`), in document order (their
    outermost are kept by :func:`_outermost_candidates`); give a link written as closed at
    once its text (:func:`_reopen_closed_link`).

    One walk over the elements with attributes does all three. An element is unlikely when
    its class, id or role names page furniture, unless the name also matches "maybe a
    candidate" (article, content, main ...), or it holds an <article> or <main>, or it
    sits in code.
    """
    hidden: list[Element] = []
    unlikely: list[Element] = []
    never: list[Element] = []
    get, keys, values, verdicts = Element.get, Element.keys, Element.values, _VERDICTS
    elements = body.iter()
    # (inline: this loop sees every element of the page, most of them with a class alone)
    for element in elements:
        names = keys(element)
        if not names:
            continue
        # (the key of an element with neither id nor role, most of them, is its class
        # itself: no tuple made, hashed and compared)
        key: _VerdictKey
        if names == _CLASS_ONLY:  # (its one value: values() parses no name, looks up none)
            key = values(element)[0]
        else:
            if not _HIDING_ATTRIBUTES.isdisjoint(names) and _is_hidden(element, names):
                hidden.append(element)
                _skip_descendants(elements, element)
                continue
            if "href" in names and not len(element) and not element.text:
                _reopen_closed_link(element)  # (an empty link: before its verdict)
            has_id, has_role = "id" in names, "role" in names
            if has_id or has_role:
                key = (
                    get(element, "class") if "class" in names else None,
                    get(element, "id") if has_id else None,
                    get(element, "role") if has_role else None,
                )
            elif "class" in names:
                key = get(element, "class")
            else:
                continue
        verdict = verdicts.get(key)
        if verdict is None:
            if len(verdicts) >= _VERDICTS_LIMIT:
                verdicts.clear()
            verdict = verdicts[key] = (
                _verdict(key, None, None) if isinstance(key, str) else _verdict(*key)
            )
        if not verdict:
            continue
        if verdict == _HIDDEN_CLASS:
            if _hidden_until_revealed(element):
                hidden.append(element)
                _skip_descendants(elements, element)
            continue
        if element.tag not in _NEVER_UNLIKELY_TAGS:
            unlikely.append(element)
            if verdict == _NEVER:
                never.append(element)
    for element in hidden:
        drop(element)
    return unlikely, never


def _outermost_candidates(
    unlikely: list[Element], never: list[Element], holds_article: Callable[[Element], bool]
) -> tuple[list[Element], list[Element]]:
    """The outermost of the unlikely candidates and of the never-article ones (among
    them) that hold no article (``holds_article``: :attr:`_Landmarks.holds_article`)."""
    outermost = _outermost(unlikely, holds_article)
    if not never:
        return outermost, []
    return outermost, _outermost(never, holds_article, known=set(outermost))


# What :class:`_Landmarks` looks for: the thread rules' paragraphs, comment forms (from
# their <textarea>s) and <cite>s; the frames of an article; code.
_LANDMARK_TAGS = ("p", "textarea", "cite", "article", "main", "pre", "code")
_ARTICLE_FRAMES = ("article", "main")


class _Landmarks:
    """The elements of a page the rules after the sweep look for, found in one walk of
    it (a walk for each cost as much again: a tag-filtered walk visits every node)."""

    __slots__ = ("cites", "code", "forms", "holders", "holds_article", "paragraphs")

    def __init__(self, body: Element) -> None:
        self.paragraphs: list[Element] = []  # the <p>s, in document order
        self.cites: list[Element] = []  # the <cite>s, in document order
        self.forms: set[Element] = set()  # the forms holding a <textarea>
        self.holders: set[Element] = set()  # the ancestors of an <article> or <main>
        self.code: set[Element] = set()  # the <pre>s and <code>s
        for element in body.iter(*_LANDMARK_TAGS):
            tag = element.tag
            if tag == "p":
                self.paragraphs.append(element)
            elif tag == "cite":
                self.cites.append(element)
            elif tag == "textarea":
                self.forms.update(element.iterancestors("form"))
            elif tag in _ARTICLE_FRAMES:
                self.holders.update(element.iterancestors())
            else:
                self.code.add(element)
        # A test for an element that holds an <article> or <main> or sits in <pre> or
        # <code>: the page's few such elements are found once, where an XPath call per
        # unlikely candidate cost more than its answer.
        self.holds_article: Callable[[Element], bool] = (
            self._holds_or_in_code if self.code else self.holders.__contains__
        )

    def _holds_or_in_code(self, element: Element) -> bool:
        return element in self.holders or any(
            ancestor in self.code for ancestor in element.iterancestors()
        )


# The items of a list of posts: readers' comments, each of its own paragraphs.
_THREAD_ITEMS = ("li", "dd")
# A list is a thread when at least this many of its items hold a paragraph ...
_THREAD_POSTS = 2
# ... and a box of <div>s is one when this many of its children of one tag and class do.
_THREAD_BOX_POSTS = 3
# The lists whose posts nest their replies in a list of the same tag.
_REPLY_LISTS = ("ol", "ul")
# The elements that may be a thread: lists, and boxes of comment divs.
_THREAD_TAGS = frozenset({"ol", "ul", "dl", "div", "section"})


def comment_threads(body: Element, landmarks: _Landmarks | None = None) -> list[Element]:
    """The threads of readers' posts on a page that takes comments, whatever their names:
    an ``<ol>``, ``<ul>`` or ``<dl>`` of which at least two items hold a paragraph
    (``<p>``) of their own (an article's lists hold lines, a thread's items hold posts),
    or a ``<div>`` or ``<section>`` with no paragraph of its own of which three children
    of one tag and class do; with, after it in its parent or grandparent, a comment form
    (a ``<form>`` with a ``<textarea>``: the box of a thread and of the form to add to
    it); not one holding an ``<h1>`` (a forum's thread, the page's own content). On a
    page without a comment form, the threads with replies (:func:`replied_threads`).
    ``landmarks``: the page's, when found already."""
    # (one walk finds the paragraphs, the comment forms and the <cite>s, with what the
    # candidates look for (_Landmarks): three walks of the page cost 0.4% of a fundus
    # extraction more)
    found = _Landmarks(body) if landmarks is None else landmarks
    forms, paragraphs, cites = found.forms, found.paragraphs, found.cites
    if not forms:
        return replied_threads(body, paragraphs, cites)
    # (the elements that hold a paragraph, found once: a test per item cost 5% of a
    # dragnet page's extraction; in a dict, for the threads in a stable order)
    holders: dict[Element, None] = {}
    for paragraph in paragraphs:
        holders[paragraph] = None
        for ancestor in paragraph.iterancestors():
            if ancestor in holders:
                break
            holders[ancestor] = None
    threads = []
    for element in holders:  # (a thread holds a paragraph: no other element is one)
        if element.tag not in _THREAD_TAGS or not _posts(element, holders):
            continue
        if next(element.iter("h1"), None) is not None:
            continue
        # (what follows the element in its parent, and its parent in the grandparent)
        parent = element.getparent()
        following = [*element.itersiblings(), *parent.itersiblings()]
        if any(form is box or is_below(form, box) for form in forms for box in following):
            threads.append(element)
    return threads


def replied_threads(
    body: Element, paragraphs: list[Element], cites: list[Element]
) -> list[Element]:
    """The threads of readers' posts with replies, on a page without a comment form: an
    ``<ol>`` or ``<ul>`` of which two items or more hold a paragraph of their own, one of
    them holding a list of the same tag whose item holds a paragraph too (a reply below
    its post: an article's lists nest lines, not posts), or of which every item is a
    signed post (:func:`_signed`); not one holding an ``<h1>``. ``paragraphs`` and
    ``cites``: the page's ``<p>`` and ``<cite>`` elements, in document order."""
    posts: dict[Element, set[Element]] = {}  # a list's items holding a paragraph
    replied: set[Element] = set()
    parents: set[Element | None] = set()
    for paragraph in paragraphs:
        # (the paragraphs of one parent are in the same items: the first tells for all)
        parent = paragraph.getparent()
        if parent in parents:
            continue
        parents.add(parent)
        items = list(paragraph.iterancestors("li"))
        if not items:
            continue
        # (the lists of the items holding the paragraph, innermost first)
        lists = [item.getparent() for item in items]
        for item, owner in zip(items, lists):
            if owner is not None and owner.tag in _REPLY_LISTS:
                posts.setdefault(owner, set()).add(item)
        for inner, outer in zip(lists, lists[1:]):
            if inner is not None and outer is not None and inner.tag == outer.tag:
                replied.add(outer)
    threads = [
        owner for owner in replied
        if len(posts.get(owner, ())) >= _THREAD_POSTS and next(owner.iter("h1"), None) is None
    ]
    for cite in cites:  # (lists of posts each signed by its writer's <cite>)
        item = next(cite.iterancestors("li"), None)
        if item is None or item.getparent() is None:
            continue
        owner = item.getparent()
        if owner.tag not in _REPLY_LISTS or owner in threads:
            continue
        items = [child for child in owner if child.tag == "li"]
        if all(_signed(child) for child in items) and next(owner.iter("h1"), None) is None:
            threads.append(owner)
    if len(threads) < 2:
        return threads
    order = {element: index for index, element in enumerate(body.iter(*_REPLY_LISTS))}
    threads.sort(key=order.__getitem__)
    return outermost(threads)


def _signed(item: Element) -> bool:
    """Whether an item of a list is a signed post: a ``<cite>`` (its writer's name) before
    its first paragraph, not in it."""
    first = next(item.iter("cite", "p"), None)
    return first is not None and first.tag == "cite" and next(item.iter("p"), None) is not None


def _posts(element: Element, holders: Container[Element]) -> bool:
    """Whether a list or a box holds posts, as :func:`comment_threads` tells them
    (``holders``: the elements that hold a paragraph)."""
    if element.tag in ("div", "section"):
        if any(child.tag == "p" for child in element):
            return False
        alike: dict[tuple[str, str | None], int] = {}
        for child in element:
            if child in holders:
                key = (child.tag, child.get("class"))
                alike[key] = alike.get(key, 0) + 1
                if alike[key] >= _THREAD_BOX_POSTS:
                    return True
        return False
    posts = 0
    for item in element:
        if item.tag in _THREAD_ITEMS and item in holders:
            posts += 1
            if posts >= _THREAD_POSTS:
                return True
    return False


def _with_threads(
    unlikely: list[Element],
    never: list[Element],
    threads: list[Element],
    holds_article: Callable[[Element], bool],
) -> tuple[list[Element], list[Element]]:
    """The unlikely and never-article candidates with the comment threads among both
    (``holds_article``: :attr:`_Landmarks.holds_article`)."""
    # (each thread put in its place among the candidates, in document order, by a binary
    # search of their positions: numbering every element of the page took 0.44 ms of a
    # dragnet page with threads, this 0.10)
    positions = [(_position(thread), thread) for thread in threads]

    def merged(elements: list[Element]) -> list[Element]:
        combined = list(elements)
        for position, thread in positions:
            if thread not in combined:
                combined.insert(bisect_left(combined, position, key=_position), thread)
        return _outermost(combined, holds_article)
    return merged(unlikely), merged(never)


def _position(element: Element) -> list[int]:
    """Where ``element`` stands in its tree: its index in its parent, after its parent's
    in the grandparent and so on up (lists in document order: an ancestor first)."""
    path = []
    for parent in element.iterancestors():
        path.append(parent.index(element))
        element = parent
    path.reverse()
    return path


def _skip_descendants(elements: Iterator[Element], element: Element) -> None:
    """Advance ``elements`` (an ``iter()`` in document order, at ``element``) past the
    descendants of ``element``: a hidden element is dropped whole, nothing in it counts."""
    count = sum(1 for _ in element.iterdescendants())
    if count:
        next(islice(elements, count - 1, count), None)


def _outermost(
    elements: list[Element],
    holds_article: Callable[[Element], bool],
    known: set[Element] = frozenset(),
) -> list[Element]:
    """The elements (in document order) not below another of them, that hold no
    <article> or <main> and are not in code (``holds_article``; as the ``known`` ones
    were found to be)."""
    outermost: list[Element] = []
    for element in elements:
        if outermost and is_below(element, outermost[-1]):
            continue
        if element in known:
            outermost.append(element)
            continue
        if not holds_article(element):
            outermost.append(element)
    return outermost


def _is_hidden(element: Element, names: list[str]) -> bool:
    """Whether ``element`` (with the attribute names ``names``) is hidden by its
    ``hidden``, ``aria-hidden`` or ``style`` attribute."""
    # (an attribute is read only when ``names`` holds it: a look-up in the short list costs
    # a third of a get())
    if "hidden" in names:
        return _hidden_until_revealed(element)
    if "aria-hidden" in names and element.get("aria-hidden") == "true":
        return True
    if "style" not in names:
        return False
    style = element.get("style")
    if not style:
        return False
    # (most styles say neither word: the regex, tried at each of their characters, is not)
    lowered = style.lower()
    return ("none" in lowered or "dden" in lowered) and _HIDDEN_STYLE.search(style) is not None


def _hidden_until_revealed(element: Element) -> bool:
    """A block hidden (by its ``hidden`` attribute or a hiding class) until a script
    reveals it is left out when short: a menu or a dialog; the rest of the story behind
    a paywall or in a React streamed segment (<div hidden id="S:1">) is read."""
    return dense_length_of(element) < _REVEALED_TEXT_LENGTH


def _verdict(classes: str | None, identifier: str | None, role: str | None) -> int:
    """What the class, id and role of an element say: :data:`_HIDDEN_CLASS` for a class
    that hides it (:func:`patterns.hides`); for an unlikely candidate, :data:`_NEVER` when
    the class or id names what is never the article (:data:`NEVER_ARTICLE`), else
    :data:`_UNLIKELY`; 0 for the rest."""
    if classes and hides(classes):
        return _HIDDEN_CLASS
    names = f"{classes or ''} {identifier or ''}".lower()
    if role not in UNLIKELY_ROLES and not (names.strip() and _is_unlikely_name(names)):
        return 0
    return _NEVER if NEVER_ARTICLE.search(names) else _UNLIKELY


_UNLIKELY, _NEVER, _HIDDEN_CLASS = 1, 2, 3
# Verdicts by (class, id, role), and by its class alone for an element with neither id
# nor role (most of them), kept across pages (a page repeats its names, and the pages of
# one site share them), bounded.
_VerdictKey = str | tuple[str | None, str | None, str | None]
_VERDICTS: dict[_VerdictKey, int] = {}
_VERDICTS_LIMIT = 50_000


def _is_unlikely_name(names: str) -> bool:
    if UNLIKELY_CANDIDATES.search(names) is None:  # most names (it holds COMMENTS' words)
        return False
    if COMMENTS.search(names):
        # "commentbody", "comment-content": a "maybe" word does not save a comment, the
        # article's own name does ("article comments-enabled").
        return ARTICLE_NAMES.search(names) is None
    return MAYBE_CANDIDATE.search(names) is None


def _has_text(element: Element) -> bool:
    """Whether any text of ``element`` is not blank (stops at the first that is not)."""
    return any(not text.isspace() for text in element.itertext() if text)


@contextmanager
def detached(elements: Iterable[Element]) -> Iterator[None]:
    """Take ``elements`` out of their tree for the block, then put them back exactly.

    The tail text of a detached element stays in the document (it belongs to the parent).
    """
    undo: list[tuple[Element, Element, int, str | None, Element | None, str | None]] = []
    try:
        for element in elements:
            parent = element.getparent()
            if parent is None:
                continue
            tail, previous = element.tail, element.getprevious()
            holder_text = previous.tail if previous is not None else parent.text
            if tail:
                if previous is not None:
                    previous.tail = (holder_text or "") + tail
                else:
                    parent.text = (holder_text or "") + tail
            index = parent.index(element)
            element.tail = None
            parent.remove(element)
            undo.append((element, parent, index, tail, previous, holder_text))
        yield
    finally:
        for element, parent, index, tail, previous, holder_text in reversed(undo):
            if previous is not None:
                previous.tail = holder_text
            else:
                parent.text = holder_text
            parent.insert(index, element)
            element.tail = tail
