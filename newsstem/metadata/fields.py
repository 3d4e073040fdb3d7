"""The simple fields: description, lead image, canonical URL, site name, tags, section.

Each takes the first value found, in order of trust: the article's JSON-LD or
OpenGraph first (sites fill them for social previews, so they are the
curated values), then plain meta tags and links.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from typing import Any

from newsstem.metadata.evidence import CJK_LETTER, Evidence, itemprop_value
from newsstem.text import normalize_space

__all__ = [
    "find_description",
    "find_image",
    "find_canonical_url",
    "find_site_name",
    "find_tags",
    "find_section",
]

# A tag longer than this is a sentence (a keywords field stuffed with a summary).
MAX_TAG_CHARS = 60
_TAG_SEPARATORS = re.compile(r"\s*[,;，；、|]\s*")

Found = tuple[str, str]  # (value, source)


def _first_url(evidence: Evidence, candidates: Iterator[tuple[str, Any]]) -> Found | None:
    """The first candidate that is an http(s) URL, made absolute, and where it came from."""
    for source, value in candidates:
        url = evidence.absolute(value) if isinstance(value, str) else None
        if url:
            return url, source
    return None


def _first_text(
    candidates: Iterator[tuple[str, Any]], junk: re.Pattern[str] | None = None
) -> Found | None:
    for source, value in candidates:
        if isinstance(value, list):
            value = next((v for v in value if isinstance(v, str) and v.strip()), None)
        if isinstance(value, str):
            text = normalize_space(html.unescape(value))  # JSON-LD often holds "&amp;"
            if text and not (junk and junk.search(text)):
                return text, source
    return None


# A site name or section that is a URL or a path is a CMS slip, not a name.
_URL_OR_PATH = re.compile(r"^(?:https?:|www\.|/)|://")


def find_description(evidence: Evidence) -> Found | None:
    def candidates() -> Iterator[tuple[str, Any]]:
        yield from _meta(evidence, "og:description")
        for obj in evidence.articles():
            yield "json-ld", obj.get("description")
        yield from _meta(evidence, "twitter:description", "description", "dc.description",
                         "dcterms.description")
        for obj in evidence.pages():
            yield "json-ld", obj.get("description")

    return _first_text(candidates())


def find_site_name(evidence: Evidence) -> Found | None:
    def candidates() -> Iterator[tuple[str, Any]]:
        yield from _meta(evidence, "og:site_name")
        for obj in evidence.articles():
            publisher = evidence.resolve(obj.get("publisher"))
            if isinstance(publisher, list) and publisher:
                publisher = evidence.resolve(publisher[0])
            if isinstance(publisher, dict):
                yield "json-ld", publisher.get("name")
        for obj in evidence.jsonld:
            if "website" in obj.types:
                yield "json-ld", obj.get("name")
        yield from _meta(evidence, "application-name", "apple-mobile-web-app-title",
                         "al:android:app_name", "al:iphone:app_name")

    return _first_text(candidates(), junk=_URL_OR_PATH)


def find_section(evidence: Evidence) -> Found | None:
    def candidates() -> Iterator[tuple[str, Any]]:
        yield from _meta(evidence, "article:section", "og:article:section")
        for obj in evidence.articles():
            yield "json-ld", obj.get("articleSection")
        yield from _meta(evidence, "section", "parsely-section", "sailthru.section",
                         "category", "dc.subject")
        for element in evidence.itemprops.get("articlesection", ()):
            yield "microdata", itemprop_value(element)

    return _first_text(candidates(), junk=_URL_OR_PATH)


def find_canonical_url(evidence: Evidence) -> Found | None:
    def candidates() -> Iterator[tuple[str, Any]]:
        for href in evidence.links.get("canonical", ()):
            yield "link:canonical", href
        yield from _meta(evidence, "og:url", "twitter:url")
        for obj in evidence.articles():
            yield "json-ld", obj.get("url")
            main = obj.get("mainEntityOfPage")
            yield "json-ld", main.get("@id") if isinstance(main, dict) else main

    return _first_url(evidence, candidates())


def find_image(evidence: Evidence) -> Found | None:
    def candidates() -> Iterator[tuple[str, Any]]:
        yield from _meta(evidence, "og:image", "og:image:url", "og:image:secure_url")
        yield from _meta(evidence, "twitter:image", "twitter:image:src")
        for obj in evidence.articles():
            yield "json-ld", _jsonld_image(evidence, obj.get("image"))
            yield "json-ld", obj.get("thumbnailUrl")
        for href in evidence.links.get("image_src", ()):
            yield "link:image_src", href
        for element in evidence.itemprops.get("image", ()):
            yield "microdata", _microdata_image(element)

    return _first_url(evidence, candidates())


def _jsonld_image(evidence: Evidence, value: Any) -> Any:
    value = evidence.resolve(value)
    if isinstance(value, dict) and "@list" in value:
        value = value["@list"]
    if isinstance(value, list):
        value = evidence.resolve(value[0]) if value else None
    if isinstance(value, dict):
        return value.get("url") or value.get("contentUrl")
    return value


def _microdata_image(element: Any) -> str:
    if element.get("itemscope") is not None:
        for child in element.xpath(".//*[@itemprop]"):
            if child.get("itemprop", "").lower() in ("url", "contenturl"):
                return itemprop_value(child)
    return itemprop_value(element)


def find_tags(evidence: Evidence) -> tuple[list[str], str] | None:
    """Tags or keywords: ``article:tag`` (one per tag), JSON-LD ``keywords``, meta keywords."""
    # One tag per article:tag, commas included ("Trump, Donald J").
    article_tags = [v for _, v in evidence.meta_values("article:tag", "og:article:tag")]
    tags = _dedupe_tags(article_tags)
    if tags:
        return tags, "meta:article:tag"
    for obj in evidence.articles():
        keywords = obj.get("keywords")
        if isinstance(keywords, str):
            keywords = [keywords]
        if isinstance(keywords, list):
            tags = split_tags(k for k in keywords if isinstance(k, str))
            if tags:
                return tags, "json-ld"
    for name in ("news_keywords", "keywords", "parsely-tags", "sailthru.tags"):
        values = [v for _, v in evidence.meta_values(name)]
        tags = split_tags(values)
        if tags:
            return tags, f"meta:{name}"
    return None


def split_tags(values: Any) -> list[str]:
    """Individual tags from comma lists (or space lists of CJK words), deduplicated.

    >>> split_tags(["Donald Trump, facebook,Fact Check", "facebook"])
    ['Donald Trump', 'facebook', 'Fact Check']
    >>> split_tags(["宇航员 太空 国际空间站"])
    ['宇航员', '太空', '国际空间站']
    """
    parts: list[str] = []
    for value in values:
        value = normalize_space(html.unescape(value))
        pieces = _TAG_SEPARATORS.split(value)
        if len(pieces) == 1 and CJK_LETTER.search(value):
            pieces = value.split()
        parts.extend(pieces)
    return _dedupe_tags(parts)


# "Lite:true", "LayerCake:0": CMS switches published as keywords.
_SWITCH = re.compile(r"^\w+:\w+$")


def _dedupe_tags(values: Any) -> list[str]:
    tags: list[str] = []
    seen: set[str] = set()
    for value in values:
        tag = normalize_space(html.unescape(value)).strip(" .#")
        if not tag or len(tag) > MAX_TAG_CHARS or _SWITCH.match(tag) or tag.lower() in seen:
            continue
        seen.add(tag.lower())
        tags.append(tag)
    return tags


def _meta(evidence: Evidence, *names: str) -> Iterator[tuple[str, str]]:
    for name, value in evidence.meta_values(*names):
        yield f"meta:{name}", value
