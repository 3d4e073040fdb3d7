"""``extract_metadata``: one parse, every field, each from its most trusted evidence."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from urllib.parse import urljoin, urlsplit

from htmldate import find_date
from lxml import etree
from lxml.html import HtmlElement

from newsstem.encoding import decode_html
from newsstem.inputs import check_html, check_texts
from newsstem.metadata.authors import find_authors
from newsstem.metadata.dates import (
    PageDate,
    find_modified,
    find_published,
    find_text_date,
    parse_date,
)
from newsstem.metadata.evidence import Evidence, collect_evidence, parse_html
from newsstem.metadata.fields import (
    find_canonical_url,
    find_description,
    find_image,
    find_section,
    find_site_name,
    find_tags,
)
from newsstem.metadata.headline import (
    comparable,
    decide_headline,
    headline_candidates,
    title_affixes,
)
from newsstem.metadata.language import resolve_language
from newsstem.rules import host_names
from newsstem.text import normalize_space

__all__ = ["Metadata", "MetadataOptions", "extract_metadata", "FIELDS"]

# The fields of Metadata that describe the article (``sources`` says where each came from).
FIELDS = (
    "published", "modified", "authors", "language", "description", "image",
    "canonical_url", "site_name", "tags", "section",
)
# Page text used to check the declared language when no article text is given.
LANGUAGE_TEXT_CHARS = 6000


@dataclass
class Metadata:
    """What is known about an article besides its title and text.

    Dates are ISO 8601 strings (``2016-12-22T10:43:37-08:00``; ``2017-03-10``
    when the page gives only a day); ``language`` is a BCP 47 tag; URLs are
    absolute. ``sources`` maps each filled field to its evidence
    (``json-ld``, ``meta:article:published_time``, ``htmldate``, ``text`` ...).
    """

    published: str | None = None
    modified: str | None = None
    authors: list[str] = field(default_factory=list)
    language: str | None = None
    description: str | None = None
    image: str | None = None
    canonical_url: str | None = None
    site_name: str | None = None
    tags: list[str] = field(default_factory=list)
    section: str | None = None
    sources: dict[str, str] = field(default_factory=dict)
    # The headline decided from every source (``sources["headline"]`` names the one
    # taken). Neither it nor page_title is in FIELDS: the crawl exports the headline as
    # the article's ``title``.
    headline: str | None = None
    # The page's <title> as written (the site-name affixes are learned from it across a
    # site's pages).
    page_title: str | None = None


@dataclass(frozen=True)
class MetadataOptions:
    """How hard to look for a date when neither the markup nor the text near the
    headline has one: ``htmldate`` asks htmldate (URL, markup patterns; about 4 ms
    a page); ``htmldate_extensive`` lets it also search all of the page text with
    dateparser (35 ms a page on average, seconds on some pages, and it takes dates
    from link URLs: off by default)."""

    htmldate: bool = True
    htmldate_extensive: bool = False


def extract_metadata(
    html: str | bytes,
    url: str | None = None,
    text: str | None = None,
    options: MetadataOptions | None = None,
    *,
    title_candidates: Sequence[tuple[str, str]] = (),
    anchor_texts: Sequence[str] = (),
    site_names: Sequence[str] = (),
) -> Metadata:
    """Metadata of a page. ``text`` is the article text, if known (checks the language,
    and tells the visible heading it speaks of where no headline sources agree).

    The headline (:mod:`newsstem.metadata.headline`) is decided from the page's own
    statements, ``title_candidates`` (``(source, text)``: the title the extraction
    found, as ``("extraction", ...)``), the ``anchor_texts`` of links to the page,
    ``site_names``, the site-name affixes learned from the site's other pages, and
    ``text``.

    Never raises on a bad page: an unparsable page gives empty metadata. ``html`` neither
    ``str`` nor ``bytes``, or ``anchor_texts``/``site_names`` a string alone (not a list
    of strings), is a TypeError.

    >>> html = '''<html lang="en"><head>
    ... <meta property="article:published_time" content="2016-12-22T10:43:37-08:00">
    ... <meta name="author" content="By Lucas Nolan"><link rel="canonical" href="/a/1">
    ... </head><body><p>Text.</p></body></html>'''
    >>> meta = extract_metadata(html, url="https://example.com/a/1?utm=x")
    >>> meta.published, meta.authors, meta.canonical_url, meta.language
    ('2016-12-22T10:43:37-08:00', ['Lucas Nolan'], 'https://example.com/a/1', 'en')
    """
    check_html(html, "extract_metadata")
    check_texts(anchor_texts, "anchor_texts", "extract_metadata")
    check_texts(site_names, "site_names", "extract_metadata")
    options = options or MetadataOptions()
    if isinstance(html, bytes):
        html = decode_html(html)[0]
    root = parse_html(html)
    metadata = Metadata()
    if root is None:
        return metadata
    evidence = collect_evidence(root, url, html)
    _fill_simple_fields(evidence, metadata)
    publisher = [metadata.site_name or "", *_publisher_names(evidence)]
    authors = find_authors(evidence, publisher)
    if authors is not None:
        metadata.authors, metadata.sources["authors"] = authors.names, authors.source
    _fill_language(evidence, metadata, text)
    _fill_dates(evidence, metadata, url, options)
    _fill_headline(evidence, metadata, url, title_candidates, anchor_texts,
                   [*site_names, *publisher, *host_names(url), *_home_link_names(root, url)],
                   text or "")
    return metadata


def _fill_headline(
    evidence: Evidence,
    metadata: Metadata,
    url: str | None,
    title_candidates: Sequence[tuple[str, str]],
    anchor_texts: Sequence[str],
    site_names: list[str],
    opening: str = "",
) -> None:
    candidates = headline_candidates(evidence)
    metadata.page_title = next((text for source, text in candidates if source == "title"), None)
    candidates += [(source, text) for source, text in title_candidates if text]
    candidates += [("anchor", text) for text in anchor_texts if text]
    headline = decide_headline(candidates, site_names, opening)
    if headline is not None:
        metadata.headline, metadata.sources["headline"] = headline.text, headline.source


def _fill_simple_fields(evidence: Evidence, metadata: Metadata) -> None:
    for name, finder in (
        ("description", find_description),
        ("image", find_image),
        ("canonical_url", find_canonical_url),
        ("site_name", find_site_name),
        ("section", find_section),
    ):
        found = finder(evidence)
        if found is not None:
            setattr(metadata, name, found[0])
            metadata.sources[name] = found[1]
    tags = find_tags(evidence)
    if tags is not None:
        metadata.tags, metadata.sources["tags"] = tags


def _publisher_names(evidence: Evidence) -> list[str]:
    names = []
    for obj in evidence.articles():
        publisher = evidence.resolve(obj.get("publisher"))
        if isinstance(publisher, dict) and isinstance(publisher.get("name"), str):
            names.append(publisher["name"])
    return names


def _home_link_names(root: HtmlElement, url: str | None) -> list[str]:
    """The texts of the ``h1``s and ``h2``s that are one link to the site's home page (its
    root, on the page's own host; any host's root or ``/`` when the page's URL is not
    known, as on those corpus pages) and that the ``<title>`` writes as an affix beside
    something else: the site's banner, which names the site. Found on dragnet and l3s
    tuning pages of several publishers whose ``<title>`` is the headline and that banner
    (``Faux Fur + Flannel Blanket DIY - A Beautiful Mess`` under ``<h1><a
    href="http://…/">A Beautiful Mess</a></h1>``, ``The Final
    Chapter? - 1/21/2008 - Broadcasting & Cable`` under ``<h1><a href="/">``): the name is
    cut from the titles and the banner is no headline. A page whose ``<title>`` is the
    banner alone (a blog's front page) keeps it as its headline."""
    body, title = root.find(".//body"), root.find(".//title")
    if body is None or title is None:
        return []
    linked = [(heading, links[0]) for heading in body.iter("h1", "h2")
              if len(links := heading.findall(".//a")) == 1]
    if not linked:  # most pages: their <title> is not cut into affixes
        return []
    affixes = {comparable(a) for a in title_affixes(normalize_space(title.text_content()))}
    host = ((urlsplit(url).hostname or "") if url else "").removeprefix("www.")
    names = []
    for heading, link in linked:
        text = normalize_space(heading.text_content())
        href = (link.get("href") or "").strip()
        if not text or comparable(text) not in affixes or not href or href.startswith("#") \
                or normalize_space(link.text_content()) != text:
            continue
        target = urlsplit(urljoin(url or "", href))
        if host:
            on_host = (target.hostname or host).removeprefix("www.") == host
        else:
            on_host = bool(target.hostname) or href.startswith("/")
        if target.path in ("", "/") and not target.query and on_host:
            names.append(text)
    return names


def _fill_language(evidence: Evidence, metadata: Metadata, text: str | None) -> None:
    declared = [evidence.html_lang or ""]
    declared += [v for _, v in evidence.meta_values("content-language", "language", "dc.language")]
    for obj in evidence.articles():
        if isinstance(obj.get("inLanguage"), str):
            declared.append(obj.get("inLanguage"))
    declared += [v for _, v in evidence.meta_values("og:locale")]
    # "en, fr" in content-language names two: the first one is the page's.
    declared = [d.split(",")[0].strip() for d in declared if d]
    language, source = resolve_language(declared, text or _page_text(evidence.root))
    if language is not None:
        metadata.language, metadata.sources["language"] = language, source


_VISIBLE = "[not(ancestor::script or ancestor::style or ancestor::noscript or ancestor::template)]"


def _page_text(root: HtmlElement) -> str:
    """Paragraph text of the page (all visible body text when paragraphs are few)."""
    # "/descendant::text()[ancestor::p]", not "//p//text()": the same nodes in the same
    # order, but libxml2 merges the text of every <p> into one node set with a duplicate
    # check, quadratic in the paragraphs (5.6 s for a page of 40,000; now 0.04 s).
    paragraph_text = root.xpath(f"/descendant::text()[ancestor::p]{_VISIBLE}")
    paragraphs = normalize_space(" ".join(paragraph_text))
    if len(paragraphs) >= LANGUAGE_TEXT_CHARS // 10:
        return paragraphs[:LANGUAGE_TEXT_CHARS]
    body_text = root.xpath(f"/descendant::text()[ancestor::body]{_VISIBLE}")
    return normalize_space(" ".join(body_text))[:LANGUAGE_TEXT_CHARS]


def _fill_dates(
    evidence: Evidence, metadata: Metadata, url: str | None, options: MetadataOptions
) -> None:
    dayfirst = _writes_day_first(metadata.language)
    published = find_published(evidence, dayfirst) or find_text_date(evidence, dayfirst)
    modified = find_modified(evidence)
    published_date: PageDate | None = published.date if published else None
    if published is not None:
        metadata.sources["published"] = published.source
    elif options.htmldate:
        published_date = _htmldate(evidence.root, url, options.htmldate_extensive, dayfirst)
        if published_date is not None:
            metadata.sources["published"] = "htmldate"
    if published_date is not None:
        metadata.published = published_date.isoformat()
    if modified is not None and (
        published_date is None or modified.date.sort_key() >= published_date.sort_key()
    ):
        metadata.modified = modified.date.isoformat()
        metadata.sources["modified"] = modified.source


# English-speaking regions that write 03/04/2015 for 3 April; US English and
# pages without a region write April 3 (the web's default).
_DAY_FIRST_ENGLISH = frozenset({"GB", "AU", "NZ", "IE", "IN", "ZA", "SG", "HK", "NG", "KE"})


def _writes_day_first(language: str | None) -> bool:
    if not language:
        return False
    parts = language.split("-")
    if parts[0] != "en":
        return True
    return len(parts) > 1 and parts[-1] in _DAY_FIRST_ENGLISH


def _htmldate(
    root: HtmlElement,
    url: str | None,
    extensive: bool,
    dayfirst: bool = False,
    now: datetime | None = None,
) -> PageDate | None:
    # the page without its other content first (a teaser's or a profile's date is
    # not the article's); the whole page where that holds no date (a comment's date
    # is the page's last clue)
    detached = _detach_other_content(root)
    try:
        found = find_date(root, extensive_search=extensive, original_date=True, url=url)
    finally:
        for placeholder, element in detached:  # the element back, its tail with it
            placeholder.getparent().replace(placeholder, element)
    if found is None and detached:
        found = find_date(root, extensive_search=extensive, original_date=True, url=url)
    date = parse_date(found, now) if isinstance(found, str) else None
    if date is not None and not dayfirst and _read_day_first(root, url, date.value):
        swapped = PageDate(date.value.replace(month=date.value.day, day=date.value.month),
                           date.has_time)
        # checked as any date (not in the future): a month-first reading that is not a
        # publication day says the page writes day first after all
        return parse_date(swapped.isoformat(), now) or date
    return date


# Elements of other content whose dates are not the article's: a teaser's or a
# recommendation's, a comment's, a sidebar's, a user's profile card ("Joined October
# 2011" with the day in its tooltip).
_OTHER_DATES = re.compile(
    r"(?:^|[\s_-])(?:related|comments?|sidebar|teaser|promo\w*|recommend\w*|profile\w*)"
    r"(?:$|[\s_-])",
    re.I,
)


def _detach_other_content(root: HtmlElement) -> list[tuple[etree._Element, HtmlElement]]:
    """Take out of the tree, for htmldate, the outermost elements of the body named
    (class or id) as other content, but for those holding an ``<h1>`` (a wrapper such
    as ``content-sidebar-wrap`` around the story). htmldate, asked for the original
    date, passes over a story's ``<time class="updated">`` and takes a rail teaser's
    bare ``<time>10/02/16 11:21am</time>``, or the tooltip of a profile card's
    "Joined October 2011". Each is replaced by an empty comment holding its tail (the
    text after it is its parent's: "<a class='author-profile'>…</a> on October 13,
    2016" keeps its day). Returns (placeholder, element) pairs, to put them back."""
    detached: list[tuple[etree._Element, HtmlElement]] = []
    body = root.find("body")
    if body is None:
        return detached
    taken: list[HtmlElement] = []
    # the body's own class names the page's layout ("has-sidebar", "no-sidebar"), not
    # other content: taking it hid the whole page from the first read
    for element in body.iterdescendants(etree.Element):
        if not _OTHER_DATES.search(f"{element.get('class', '')} {element.get('id', '')}"):
            continue
        # in document order, an element inside one taken is inside the last one taken
        if taken and taken[-1] in element.iterancestors():
            continue
        if element.find(".//h1") is None:
            taken.append(element)
    for element in taken:  # document order
        placeholder = etree.Comment()
        placeholder.tail = element.tail
        element.getparent().replace(element, placeholder)  # the element's tail goes with it
        detached.append((placeholder, element))
    return detached


_MONTH_NAMES = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


def _read_day_first(root: HtmlElement, url: str | None, value: datetime) -> bool:
    """Whether htmldate's ``value`` is a slashed or dashed date of the page read day first
    (htmldate reads ``10/04/2016`` as 10 April whatever the page's language) where the
    page writes month first: the page has it as DAY/MONTH/YEAR and not in a form that
    says the order (in its text, attributes or URL): YEAR-MONTH-DAY, or the month by its
    name (``April 10, 2016``, ``10 Apr 2016``: htmldate may have read that one, and the
    slashed date is then another day's, a comment's or a teaser's)."""
    day, month = value.day, value.month
    if day == month or day > 12:
        return False
    page = etree.tostring(root, encoding="unicode", method="html") + " " + (url or "")
    year = f"(?:{value.year}|{value.year % 100:02d})"
    day_first = rf"(?<![\d/-])0?{day}([/-])0?{month}\1{year}(?![\d/-])"
    year_first = rf"{value.year}[/.-]?0?{month}[/.-]?0?{day}(?!\d)"
    name = rf"\b{_MONTH_NAMES[month - 1]}[a-z]*\.?"
    nth = rf"(?<!\d)0?{day}(?:st|nd|rd|th)?"
    named = rf"{name}\s+{nth},?\s+{value.year}\b|{nth}\s+{name},?\s+{value.year}\b"
    return (
        bool(re.search(day_first, page))
        and not re.search(year_first, page)
        and not re.search(named, page, re.IGNORECASE)
    )
