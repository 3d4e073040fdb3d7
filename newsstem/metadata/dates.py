"""Publication and modification dates: parse what pages write, pick what they mean.

Evidence in order of trust: the article's JSON-LD (``datePublished``,
``dateModified``), then OpenGraph/meta tags (``article:published_time`` and
two dozen site-specific names), then microdata, then ``<time pubdate>`` and
hAtom ``published`` elements, and last htmldate's search of the page text and
URL (published only: a page's "latest date" is not its modification date).

Values keep the precision and timezone the page gives: ``2016-12-22T10:43:37-08:00``
when it has a time and an offset, ``2018-04-05T06:00:00`` without an offset,
``2017-03-10`` for a day.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone, tzinfo
from typing import Any

from dateutil import parser as dateutil_parser
from lxml import etree

from newsstem.metadata.evidence import Evidence, inside_other_content, itemprop_value

__all__ = ["PageDate", "parse_date", "find_published", "find_modified"]

# The web's news is younger than this; older years in metadata are typos or defaults.
EARLIEST_YEAR = 1990
# Servers and pages run ahead of UTC by up to a day (time zones, scheduled posts).
FUTURE_TOLERANCE = timedelta(days=2)

# Tiers of evidence for the publication date, most trusted first. Tags that
# name the article's publication explicitly come before generic ones ("date",
# "dc.date" are also used for the page's generation time), and before a
# JSON-LD dateCreated, which some CMSs set to the time a revision was saved.
OPENGRAPH_PUBLISHED = (
    "article:published_time", "og:article:published_time", "article:published",
    "og:published_time",
)
NEWS_PUBLISHED_META = (
    "published_time", "article.published", "sailthru.date", "parsely-pub-date",
    "pubdate", "publishdate", "publish-date", "publish_date", "published-date",
    "publication_date", "publication-date", "publicationdate", "originalpublicationdate",
    "dc.date.issued", "dcterms.issued", "citation_publication_date", "citation_date",
    "rnews:datepublished", "cxenseparse:recs:publishtime", "article_date_original",
    "og:pubdate", "published_at", "displaydate", "pdate", "ptime",
)
GENERIC_PUBLISHED_META = (
    "dc.date.created", "dcterms.created", "dc.date", "dcterms.date", "date",
)
MODIFIED_META = (
    "article:modified_time", "og:article:modified_time", "article:modified",
    "og:updated_time", "modified_time", "updated_time", "last-modified",
    "lastmod", "dcterms.modified", "dc.date.modified", "sailthru.lastmodified",
    "parsely-updated", "revised",
)


@dataclass(frozen=True)
class PageDate:
    """A date as a page states it: a datetime, and whether the page gave a time of day."""

    value: datetime
    has_time: bool

    def isoformat(self) -> str:
        if not self.has_time:
            return self.value.date().isoformat()
        return self.value.isoformat(timespec="seconds")

    def sort_key(self) -> datetime:
        """Comparable across aware and naive values (naive taken as UTC)."""
        value = self.value
        return value if value.tzinfo else value.replace(tzinfo=timezone.utc)


_ISO = re.compile(
    r"^(?P<y>\d{4})-?(?P<m>\d{2})-?(?P<d>\d{2})"
    r"(?:[T ](?P<H>\d{1,2}):?(?P<M>\d{2})(?::?(?P<S>\d{2})(?:[.,]\d+)?)?\s*"
    r"(?P<tz>Z|UTC|GMT|[+-]\d{2}(?::?\d{2})?)?)?$",
    re.I,
)
_SLASHED = re.compile(r"^(?P<y>\d{4})[/.](?P<m>\d{1,2})[/.](?P<d>\d{1,2})(?:\D.*)?$")
_CJK = re.compile(
    r"(?P<y>\d{4})\s*[年/\-.]\s*(?P<m>\d{1,2})\s*[月/\-.]\s*(?P<d>\d{1,2})\s*日?"
    r"(?:\s*(?:[^\d\s]{0,3})\s*(?P<H>\d{1,2})\s*[:時时]\s*(?P<M>\d{2}))?"
)
# 12/07/2012, 08.04.2015, 7-12-2012: day and month in an order only the locale knows.
_NUMERIC = re.compile(r"(?<![\d/.-])(\d{1,2})([/.-])(\d{1,2})\2((?:19|20)\d{2})(?![\d/.-])")
_TIMESTAMP = re.compile(r"^\d{10}(?:\d{3})?$")
_HAS_YEAR = re.compile(r"(?<!\d)(?:19|20)\d{2}(?!\d)")
_MONTHS = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
_MONTH_WORD = re.compile(rf"\b{_MONTHS}\b", re.I)


def parse_date(value: str, now: datetime | None = None, dayfirst: bool = False) -> PageDate | None:
    """Parse a date as pages write it; None for anything implausible.

    ``dayfirst`` reads an ambiguous ``03/04/2015`` as 3 April (Europe) rather than
    March 4 (US); dotted dates (``08.04.2015``) are always day first.

    >>> parse_date("2016-12-22T10:43:37-08:00").isoformat()
    '2016-12-22T10:43:37-08:00'
    >>> parse_date("2017-01-18T23:00:00-0800").isoformat()
    '2017-01-18T23:00:00-08:00'
    >>> parse_date("2017-11-03 03:01:00.000000").isoformat()
    '2017-11-03T03:01:00'
    >>> parse_date("20170310").isoformat(), parse_date("2017年3月10日 08:30").isoformat()
    ('2017-03-10', '2017-03-10T08:30:00')
    >>> parse_date("Apr 16, 2015 8:02 pm UTC").isoformat()
    '2015-04-16T20:02:00+00:00'
    >>> parse_date("1461235200").isoformat()
    '2016-04-21T10:40:00+00:00'
    >>> parse_date("4:42 PM on 12/07/2012").isoformat(), parse_date("08.04.2015 12:46").isoformat()
    ('2012-12-07', '2015-04-08')
    >>> parse_date("12/07/2012", dayfirst=True).isoformat(), parse_date("25/12/2012").isoformat()
    ('2012-07-12', '2012-12-25')
    >>> parse_date("2099-01-01"), parse_date("0000-00-00"), parse_date("yesterday")
    (None, None, None)
    """
    value = value.strip()
    if not value or len(value) > 80:
        return None
    parsed = _parse(value, dayfirst)
    if parsed is None:
        return None
    now = now or datetime.now(timezone.utc)
    if parsed.value.year < EARLIEST_YEAR or parsed.sort_key() > now + FUTURE_TOLERANCE:
        return None
    return parsed


def _parse(value: str, dayfirst: bool) -> PageDate | None:
    match = _ISO.match(value)
    if match:
        return _from_parts(match.groupdict())
    if _TIMESTAMP.match(value):
        seconds = int(value[:10])
        return PageDate(datetime.fromtimestamp(seconds, timezone.utc), has_time=True)
    match = _SLASHED.match(value)
    if match:
        return _from_parts(match.groupdict())
    match = _CJK.search(value)
    if match:
        return _from_parts(match.groupdict())
    match = _NUMERIC.search(value)
    if match:
        return _from_numeric(match, dayfirst)
    if _HAS_YEAR.search(value) and _MONTH_WORD.search(value):
        return _parse_words(value)
    return None


def _from_parts(parts: dict[str, str | None]) -> PageDate | None:
    try:
        day = datetime(int(parts["y"] or 0), int(parts["m"] or 0), int(parts["d"] or 0))
        if parts.get("H") is None:
            return PageDate(day, has_time=False)
        moment = day.replace(
            hour=int(parts["H"] or 0), minute=int(parts["M"] or 0), second=int(parts.get("S") or 0)
        )
    except ValueError:
        return None
    offset = _offset(parts.get("tz"))
    return PageDate(moment.replace(tzinfo=offset) if offset else moment, has_time=True)


def _from_numeric(match: re.Match[str], dayfirst: bool) -> PageDate | None:
    first, separator, second, year = match.groups()
    a, b = int(first), int(second)
    if a > 12 or (b <= 12 and (dayfirst or separator == ".")):
        a, b = b, a  # day first: swap to month, day
    return _from_parts({"y": year, "m": str(a), "d": str(b)})


def _offset(text: str | None) -> timezone | None:
    if not text:
        return None
    if text.upper() in ("Z", "UTC", "GMT"):
        return timezone.utc
    sign = -1 if text[0] == "-" else 1
    digits = text[1:].replace(":", "")
    hours, minutes = int(digits[:2]), int(digits[2:4] or 0)
    if hours > 14 or minutes > 59:
        return None
    return timezone(sign * timedelta(hours=hours, minutes=minutes))


_TIME_OF_DAY = re.compile(r"\d{1,2}:\d{2}")

# Zones pages name by a word, with the offset each word means ("Fri Apr 28 19:20:36
# CEST 2023", a German page's JSON-LD as Java prints it). Only words that mean one
# offset: CST (US Central, China, Cuba), IST (India, Ireland, Israel), BST (British
# Summer, Bangladesh), MST (US Mountain, Malaysia) and the like are left out, and
# their times keep no offset, as a time a page states without one.
_ZONE_WORDS = {
    word: timezone(timedelta(hours=hours))
    for hours, words in (
        (0, ("WET",)),
        (1, ("CET", "MEZ", "WEST")),
        (2, ("CEST", "MESZ", "EET")),
        (3, ("EEST",)),
        (-5, ("EST",)),
        (-4, ("EDT",)),
        (-8, ("PST",)),
        (-7, ("PDT",)),
    )
    for word in words
}


def _zone(word: str | None, offset: int | None) -> tzinfo | None:
    """dateutil's ``tzinfos``: an offset the text writes (``+0200``; ``UTC``, ``GMT``
    read as 0) as written, a zone word of ``_ZONE_WORDS`` as its offset, and any other
    word ("Fri Apr 28 19:20:36 CST 2023") as none: the time without an offset, as a time
    the page states without one. Asked of every parse, so that neither dateutil's
    warning about an unknown word (which Scrapy logged in every crawl as a WARNING from
    site-packages) nor the crawling machine's own zone names decide anything."""
    if offset is not None:
        return timezone(timedelta(seconds=offset))
    return _ZONE_WORDS.get(word)  # (None for None)


def _parse_words(value: str) -> PageDate | None:
    """"April 16, 2015", "16 Apr 2015 8:02 pm UTC", "Monday 1 February 2016" (English month names)."""
    try:
        parsed = dateutil_parser.parse(value, fuzzy=True, default=datetime(1, 1, 1), tzinfos=_zone)
    except (ValueError, OverflowError):
        return None
    if parsed.year == 1:
        return None
    return PageDate(parsed, has_time=bool(_TIME_OF_DAY.search(value)))


# -- finding the dates of a page --------------------------------------------------


@dataclass(frozen=True)
class Found:
    date: PageDate
    source: str


def find_published(evidence: Evidence, dayfirst: bool = False) -> Found | None:
    """The publication date from structured evidence (htmldate is the caller's last resort).

    The most trusted value wins; when it has a time but no offset and a less
    trusted one states the same time with an offset, the offset is taken.
    """
    candidates = _parsed(_published_candidates(evidence), dayfirst)
    best = next(candidates, None)
    if best is None or not best.date.has_time or best.date.value.tzinfo is not None:
        return best
    for other in candidates:
        value = other.date.value
        if value.tzinfo is not None and value.replace(tzinfo=None) == best.date.value:
            return Found(other.date, best.source)
    return best


# Elements whose class or id says they hold the article's date or byline.
_DATE_ELEMENTS = (
    "//body//*[contains(@class, 'date') or contains(@id, 'date') or contains(@class, 'time')"
    " or contains(@class, 'posted') or contains(@class, 'publish') or contains(@class, 'byline')]"
)
# ... unless they sit in a teaser, a comment or a sidebar (the closest ancestors tell).
_ELSEWHERE = re.compile(r"(?:^|[\s_-])(?:related|comments?|sidebar|teaser|promo)(?:$|[\s_-])", re.I)


def _elsewhere(element: Any) -> bool:
    return inside_other_content(element, _ELSEWHERE)
# Text lines that say what date they give ("Published: 29 Dec, 2007").
_DATE_LABELS = (
    "//body//text()[starts-with(normalize-space(.), 'Published') or starts-with(normalize-space(.), "
    "'Posted') or starts-with(normalize-space(.), 'Date:') or starts-with(normalize-space(.), "
    "'Created')][not(ancestor::script)]"
)
# Date elements looked at (in page order) and their longest text.
MAX_DATE_ELEMENTS = 40
MAX_DATE_TEXT = 120
# Characters of text after the headline searched for a date ("By X, January 10, 2008").
HEADLINE_TAIL_CHARS = 300
_DATE_IN_TEXT = re.compile(
    rf"\b{_MONTHS}\s+\d{{1,2}},?\s+(?:19|20)\d{{2}}\b|(?<!\d)\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTHS},?\s+(?:19|20)\d{{2}}\b"
    r"|(?<![\d/.-])\d{1,2}[/.-]\d{1,2}[/.-](?:19|20)\d{2}(?![\d/.-])"
    r"|(?:19|20)\d{2}\s*[年/.-]\s*\d{1,2}\s*[月/.-]\s*\d{1,2}",
    re.I,
)


def find_text_date(evidence: Evidence, dayfirst: bool = False) -> Found | None:
    """A date written in the page: in a date/byline element, just after the headline, or
    in the <title>."""
    for element in evidence.root.xpath(_DATE_ELEMENTS)[:MAX_DATE_ELEMENTS]:
        text = " ".join(element.text_content().split())
        if not text or len(text) > MAX_DATE_TEXT or _elsewhere(element):
            continue
        found = _date_in(text, dayfirst)
        if found is not None:
            return Found(found, "text")
    for label in evidence.root.xpath(_DATE_LABELS)[:MAX_DATE_ELEMENTS]:
        found = _date_in(" ".join(str(label).split())[:MAX_DATE_TEXT], dayfirst)
        if found is not None:
            return Found(found, "text")
    headline = evidence.root.find(".//body//h1")
    if headline is not None:
        found = _date_in(_text_after(headline, HEADLINE_TAIL_CHARS), dayfirst)
        if found is not None:
            return Found(found, "text")
    title = evidence.root.findtext(".//title") or ""
    found = _date_in(" ".join(title.split()), dayfirst)  # "... - 07.12.2017 - LA NACION"
    return Found(found, "title") if found is not None else None


def _text_after(element: Any, limit: int) -> str:
    """About ``limit`` characters of the text that follows ``element`` in the page."""
    pieces: list[str] = [element.tail or ""]
    size = len(pieces[0])
    node = element
    while size < limit:
        sibling = node.getnext()
        while sibling is None:
            node = node.getparent()
            if node is None:
                break
            pieces.append(node.tail or "")
            sibling = node.getnext()
        if sibling is None:
            break
        node = sibling
        if isinstance(node.tag, str) and node.tag not in ("script", "style"):  # not a comment
            for text in _TEXTS_NOT_CODE(node):
                pieces.append(text)
                size += len(text)
                if size >= limit:
                    break
        pieces.append(node.tail or "")
    return " ".join(" ".join(pieces).split())[:limit]


# The texts inside an element, without those of scripts and styles in it (an ad script's
# "created 12/15/2007" is no date of the article).
_TEXTS_NOT_CODE = etree.XPath(".//text()[not(ancestor::script or ancestor::style)]")


def _date_in(text: str, dayfirst: bool) -> PageDate | None:
    for match in _DATE_IN_TEXT.finditer(text):
        parsed = parse_date(match.group(), dayfirst=dayfirst)
        if parsed is not None:
            return parsed
    return None


def find_modified(evidence: Evidence) -> Found | None:
    """The latest modification any structured source states."""
    found = list(_parsed(_modified_candidates(evidence))) or list(_parsed(_hatom_modified(evidence)))
    return max(found, key=lambda f: f.date.sort_key(), default=None)


def _parsed(candidates: Any, dayfirst: bool = False) -> Any:
    for source, raw in candidates:
        if isinstance(raw, str):
            parsed = parse_date(raw, dayfirst=dayfirst)
            if parsed is not None:
                yield Found(parsed, source)


def _published_candidates(evidence: Evidence) -> Any:
    for obj in evidence.articles():
        yield "json-ld", obj.get("datePublished")
    yield from ((f"meta:{name}", value) for name, value in evidence.meta_values(*OPENGRAPH_PUBLISHED))
    for element in evidence.itemprops.get("datepublished", ()):
        yield "microdata", itemprop_value(element)
    yield from ((f"meta:{name}", value) for name, value in evidence.meta_values(*NEWS_PUBLISHED_META))
    for element in evidence.root.xpath("//time[@pubdate]"):
        yield "time", element.get("datetime") or element.text_content()
    for element in _with_class_word(evidence.root, "published"):
        yield "hatom", element.get("title") or element.get("datetime") or element.text_content()
    for obj in evidence.articles():
        yield "json-ld", obj.get("dateCreated")
    for obj in evidence.pages():
        yield "json-ld", obj.get("datePublished")
    for element in evidence.itemprops.get("datecreated", ()):
        yield "microdata", itemprop_value(element)
    yield from ((f"meta:{name}", value) for name, value in evidence.meta_values(*GENERIC_PUBLISHED_META))


def _modified_candidates(evidence: Evidence) -> Any:
    for obj in evidence.articles() + evidence.pages():
        yield "json-ld", obj.get("dateModified")
    yield from ((f"meta:{name}", value) for name, value in evidence.meta_values(*MODIFIED_META))
    for element in evidence.itemprops.get("datemodified", ())[:1]:
        yield "microdata", itemprop_value(element)


def _hatom_modified(evidence: Evidence) -> Any:
    for element in _with_class_word(evidence.root, "updated"):
        if element.get("title") or element.get("datetime"):
            yield "hatom", element.get("title") or element.get("datetime")


def _with_class_word(root: Any, word: str) -> Any:
    """Elements with ``word`` among their classes (hAtom's ``published``, ``updated``)."""
    for element in root.xpath(f"//*[contains(@class, '{word}')]"):
        if word in element.get("class", "").split():
            yield element
