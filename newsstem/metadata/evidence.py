"""One parse of the page, and every piece of metadata evidence it holds.

JSON-LD, ``<meta>`` tags (OpenGraph, Twitter, Dublin Core, site-specific
names), microdata ``itemprop`` elements and ``<link rel>`` are read from the
same lxml tree, in one walk each. JSON-LD is parsed here rather than with
extruct: extruct drops *every* JSON-LD block of a page when one of them is
malformed (it raises, or with ``errors="ignore"`` returns nothing), and real
pages often carry one broken block (trailing commas, HTML comments, raw
newlines) next to a good NewsArticle; here each block stands alone and the
common breakages are repaired.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urljoin

from lxml import etree
from lxml.html import HTMLParser, HtmlElement

from newsstem.text import normalize_space, xml_safe_utf8

__all__ = ["Evidence", "JsonLdObject", "parse_html", "collect_evidence", "schema_types"]

# schema.org types whose properties describe the article itself, most specific first.
NEWS_TYPES = frozenset(
    {
        "newsarticle", "reportagenewsarticle", "analysisnewsarticle", "opinionnewsarticle",
        "reviewnewsarticle", "backgroundnewsarticle", "askpublicnewsarticle",
        "factcheck", "liveblogposting",
    }
)
ARTICLE_TYPES = NEWS_TYPES | frozenset(
    {
        "article", "blogposting", "techarticle", "scholarlyarticle", "report",
        "socialmediaposting", "discussionforumposting", "satiricalarticle",
        "advertisercontentarticle", "medicalscholarlyarticle", "posting", "review",
    }
)
PAGE_TYPES = frozenset({"webpage", "itempage", "collectionpage", "aboutpage", "profilepage"})
PERSON_TYPES = frozenset({"person"})
ORGANIZATION_TYPES = frozenset(
    {"organization", "newsmediaorganization", "corporation", "ngo", "educationalorganization",
     "governmentorganization", "localbusiness", "website"}
)

_SCRIPT_JUNK = re.compile(r"^\s*(?:<!--|<!\[CDATA\[|//\s*<!\[CDATA\[)|(?:-->|\]\]>|//\s*\]\]>)\s*$")
_TRAILING_COMMA = re.compile(r",\s*([}\]])")
_BLOCK_COMMENT = re.compile(r"/\*.*?\*/", re.S)


@dataclass(frozen=True)
class JsonLdObject:
    """One schema.org object of a JSON-LD block, with its lowercased ``@type`` names."""

    types: frozenset[str]
    data: dict[str, Any]

    def get(self, key: str) -> Any:
        return self.data.get(key)


@dataclass
class Evidence:
    """What a page says about itself, unchanged, for the field finders to weigh."""

    root: HtmlElement
    base_url: str | None
    # article-like JSON-LD objects first (news types, then other articles), then pages, then the rest
    jsonld: list[JsonLdObject] = field(default_factory=list)
    jsonld_ids: dict[str, JsonLdObject] = field(default_factory=dict)
    # lowercased name/property/itemprop/http-equiv of <meta> -> contents, in page order
    meta: dict[str, list[str]] = field(default_factory=dict)
    # lowercased itemprop -> elements (<meta> included) of the article's microdata:
    # properties of an Article-typed item first, then of no or a page item; properties
    # of embedded items (a VideoObject, a Comment, another article teaser) left out
    itemprops: dict[str, list[HtmlElement]] = field(default_factory=dict)
    # lowercased rel -> hrefs of <link> and <a>
    links: dict[str, list[str]] = field(default_factory=dict)
    html_lang: str | None = None
    # the HTML text itself, for cheap substring tests before costly tree searches
    source: str = ""

    def meta_values(self, *names: str) -> Iterator[tuple[str, str]]:
        """``(name, content)`` for the given meta names, in the order of ``names``."""
        for name in names:
            for value in self.meta.get(name, ()):
                if value:
                    yield name, value

    def articles(self) -> list[JsonLdObject]:
        return [obj for obj in self.jsonld if obj.types & ARTICLE_TYPES]

    def pages(self) -> list[JsonLdObject]:
        return [obj for obj in self.jsonld if obj.types & PAGE_TYPES]

    def resolve(self, value: Any) -> Any:
        """A JSON-LD ``{"@id": ...}`` reference replaced by the object it names (if on the page)."""
        if isinstance(value, dict) and set(value) <= {"@id", "@type"} and "@id" in value:
            target = self.jsonld_ids.get(str(value["@id"]))
            if target is not None:
                return target.data
        return value

    def absolute(self, url: str | None) -> str | None:
        """``url`` made absolute against the page's base; None for non-http(s) or empty values."""
        if not url:
            return None
        url = url.strip()
        if not url or url.startswith(("data:", "javascript:", "mailto:", "#")):
            return None
        if self.base_url:
            url = urljoin(self.base_url, url)
        elif url.startswith("//"):
            url = "https:" + url
        return url if url.startswith(("http://", "https://")) else None


def parse_html(html: str) -> HtmlElement | None:
    """The lxml tree of ``html`` (None for an empty document)."""
    # libxml2 stops at NUL and rejects str with an XML encoding declaration: feed it UTF-8,
    # without the characters a tree's texts may not hold (the one place page text enters).
    data = xml_safe_utf8(html)
    if not data.strip():
        return None
    try:
        root = etree.fromstring(data, _parser())
    except etree.ParserError:
        return None
    return root if isinstance(root, HtmlElement) else None


def _parser() -> HTMLParser:
    """lxml.html's parser for :func:`parse_html`, one per thread, made at its first use
    (lxml resets it for each document; a parser is not shared between threads).
    ``collect_ids=False``: libxml2 keeps no table of the ``id`` attributes, which nothing
    here or in htmldate looks up (no XPath ``id()``): the same tree, parsed faster (as
    :func:`newsstem.readability.tree.parser` parses the extraction's)."""
    parser = getattr(_PARSERS, "parser", None)
    if parser is None:
        parser = _PARSERS.parser = HTMLParser(
            encoding="utf-8", remove_comments=True, collect_ids=False
        )
    return parser


_PARSERS = threading.local()


# Letters of the CJK scripts (kana, han, hangul): names and keyword lists written in them.
CJK_LETTER = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")
# Only the closest ancestors' names count: pages wrap everything in "content-sidebar-wrap".
CONTEXT_LEVELS = 4
_OTHER_CONTENT_TAGS = frozenset({"aside", "footer"})


def inside_other_content(
    element: HtmlElement, names: re.Pattern[str], by_tag: bool = True
) -> bool:
    """Whether ``element`` sits in an ``<aside>`` or ``<footer>`` (unless not ``by_tag``),
    or in one of its closest ancestors whose class or id ``names`` matches (a teaser, a
    comment, a sidebar)."""
    for level, ancestor in enumerate(element.iterancestors()):
        if by_tag and ancestor.tag in _OTHER_CONTENT_TAGS:
            return True
        if level >= CONTEXT_LEVELS:
            if not by_tag:
                return False  # (no farther ancestor can tell)
            continue
        if names.search(f"{ancestor.get('class', '')} {ancestor.get('id', '')}"):
            return True
    return False


def collect_evidence(root: HtmlElement, url: str | None = None, source: str = "") -> Evidence:
    """Read JSON-LD, meta tags, microdata and links of a parsed page (``source``: its HTML)."""
    evidence = Evidence(root=root, base_url=url, source=source)
    evidence.html_lang = root.get("lang") or root.get("{http://www.w3.org/XML/1998/namespace}lang")
    base, scripts = _read_tags(root, evidence)
    if base is not None:
        evidence.base_url = urljoin(url or "", base.get("href", "").strip()) or url
    _read_itemprops(root, evidence)
    _read_jsonld(scripts, evidence)
    return evidence


# The tags :func:`_read_tags` reads, in one walk of the tree: on a fundus page each of the
# four walks it replaces (for a <base>, the <meta>s, the links, the scripts) cost as much
# as reading what it found.
_READ_TAGS = ("base", "meta", "link", "a", "script")


def _read_tags(
    root: HtmlElement, evidence: Evidence
) -> tuple[HtmlElement | None, list[HtmlElement]]:
    """The page's ``<meta>`` contents and ``<link>``/``<a>`` rels read into ``evidence``,
    in one walk; its first ``<base href>`` and its ``<script type>``s returned. Links and
    scripts are sought in the whole document, as XPath's ``//`` did, elements beside the
    root element too (an l3s page has a second top-level ``<html>``); metas and the base
    in the root element's, as ``iter`` and ``find`` did."""
    base = None
    scripts = []
    for top in _top_level_elements(root):
        in_root = top is root
        for element in top.iter(*_READ_TAGS):
            tag = element.tag
            if tag == "a" or tag == "link":
                rel, href = element.get("rel"), element.get("href")
                if rel is not None and href is not None:
                    for name in rel.lower().split():
                        evidence.links.setdefault(name, []).append(href)
            elif tag == "script":
                if element.get("type") is not None:
                    scripts.append(element)
            elif not in_root:
                continue
            elif tag == "meta":
                _read_meta(element, evidence)
            elif base is None and element is not root and element.get("href") is not None:
                base = element
    return base, scripts


def _top_level_elements(root: HtmlElement) -> list[HtmlElement]:
    """The root element and the elements beside it, in document order."""
    before = list(root.itersiblings(preceding=True))
    before.reverse()
    return [*before, root, *root.itersiblings()]


def _read_meta(element: HtmlElement, evidence: Evidence) -> None:
    content = element.get("content")
    if content is None:
        content = element.get("value")
    if content is None:
        return
    content = normalize_space(content)
    for attribute in ("property", "name", "itemprop", "http-equiv"):
        key = element.get(attribute)
        if key:
            for name in key.lower().split():  # "og:title twitter:title" names two
                evidence.meta.setdefault(name, []).append(content)


_ITEMPROP_OWNERS = etree.XPath("//@itemprop/..")


def _read_itemprops(root: HtmlElement, evidence: Evidence) -> None:
    in_article: dict[str, list[HtmlElement]] = {}
    elsewhere: dict[str, list[HtmlElement]] = {}
    first_article: HtmlElement | None = None
    # (the attributes' owners: libxml2 finds the attribute by name on each element faster
    # than it tests a predicate there; the same elements, in document order)
    for element in _ITEMPROP_OWNERS(root):
        scope = _item_scope(element)
        types = _item_types(scope) if scope is not None else frozenset()
        if types & ARTICLE_TYPES:
            if first_article is None:
                first_article = scope
            if scope is not first_article:
                continue  # a teaser of another article
            target = in_article
        elif scope is None or types & PAGE_TYPES or not types:
            target = elsewhere
        else:
            continue  # a property of a video, an image, a comment, a person ...
        for name in element.get("itemprop", "").lower().split():
            target.setdefault(name, []).append(element)
    for name in set(in_article) | set(elsewhere):
        evidence.itemprops[name] = in_article.get(name, []) + elsewhere.get(name, [])


def _item_scope(element: HtmlElement) -> HtmlElement | None:
    """The item a property belongs to: the nearest ``itemscope`` ancestor."""
    for ancestor in element.iterancestors():
        if ancestor.get("itemscope") is not None:
            return ancestor
    return None


def _item_types(scope: HtmlElement) -> frozenset[str]:
    return frozenset(
        url.rstrip("/").rsplit("/", 1)[-1].lower() for url in scope.get("itemtype", "").split()
    )


def itemprop_value(element: HtmlElement) -> str:
    """The value of a microdata property element (schema.org's rules, simplified)."""
    for attribute in ("content", "datetime"):
        value = element.get(attribute)
        if value:
            return normalize_space(value)
    if element.tag in ("a", "link", "area"):
        return element.get("href", "").strip()
    if element.tag in ("img", "audio", "video", "source", "embed", "iframe"):
        return element.get("src", "").strip()
    return normalize_space(element.text_content())


# -- JSON-LD --------------------------------------------------------------------


def _read_jsonld(scripts: list[HtmlElement], evidence: Evidence) -> None:
    objects: list[JsonLdObject] = []
    for script in scripts:
        if "ld+json" not in script.get("type", "").lower():
            continue
        data = load_jsonld(script.text or "")
        if data is not None:
            objects.extend(_flatten(data))
    for obj in objects:
        identifier = obj.data.get("@id")
        if isinstance(identifier, str):
            evidence.jsonld_ids.setdefault(identifier, obj)
    evidence.jsonld = sorted(objects, key=_rank)


def load_jsonld(text: str) -> Any:
    """Parse one JSON-LD block, repairing what real pages get wrong; None if hopeless.

    >>> load_jsonld('<!-- {"@type": "NewsArticle", "headline": "A",} -->')
    {'@type': 'NewsArticle', 'headline': 'A'}
    >>> load_jsonld("not json") is None
    True
    """
    text = "\n".join(_SCRIPT_JUNK.sub("", line) for line in text.strip().splitlines())
    if not text.strip():
        return None
    for attempt in (text, _TRAILING_COMMA.sub(r"\1", _BLOCK_COMMENT.sub("", text))):
        try:
            return json.loads(attempt, strict=False)  # strict=False: raw newlines in strings
        except ValueError:
            continue
    return None


def schema_types(value: Any) -> frozenset[str]:
    """Lowercased schema.org type names of an object's ``@type`` (prefixes dropped).

    >>> sorted(schema_types({"@type": ["http://schema.org/NewsArticle", "Article"]}))
    ['article', 'newsarticle']
    """
    if not isinstance(value, dict):
        return frozenset()
    raw = value.get("@type", ())
    names = [raw] if isinstance(raw, str) else raw if isinstance(raw, list) else []
    return frozenset(
        str(name).rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1].lower()
        for name in names
        if isinstance(name, str)
    )


def _flatten(data: Any, depth: int = 0) -> Iterator[JsonLdObject]:
    """Top-level objects, ``@graph`` members and a page's ``mainEntity``."""
    if depth > 3:
        return
    if isinstance(data, list):
        for item in data:
            yield from _flatten(item, depth + 1)
        return
    if not isinstance(data, dict):
        return
    if "@graph" in data:
        yield from _flatten(data["@graph"], depth + 1)
    types = schema_types(data)
    if types:
        yield JsonLdObject(types, data)
    main = data.get("mainEntity")
    if isinstance(main, (dict, list)) and types & PAGE_TYPES:
        yield from _flatten(main, depth + 1)


def _rank(obj: JsonLdObject) -> int:
    if obj.types & NEWS_TYPES:
        return 0
    if obj.types & ARTICLE_TYPES:
        return 1
    if obj.types & PAGE_TYPES:
        return 2
    return 3
