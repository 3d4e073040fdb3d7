"""Which URLs the crawl follows: ordered accept/reject rules and the same-site test; and
which URLs are one article's (:func:`strip_tracking`: share and tracking arguments,
:func:`copy_of`: a copy declaring its article's URL canonical, :func:`canonical_elsewhere`:
the canonical URL a mirror's pages name on another site).

Rules follow Webstemmer's crawler (seed 004, ``-a``/``-j``): regular
expressions evaluated in the order given, the first one that matches decides,
and a URL no rule matches is rejected. Scrapy's LinkExtractor cannot express
this (its ``deny`` always beats ``allow``), hence this module.

Syntax, for ``-a rules=...`` and the ``NEWSSTEM_URL_RULES`` setting: tokens
separated by whitespace, each ``+REGEX`` (accept) or ``-REGEX`` (reject);
a regex is searched anywhere in the absolute URL (anchor it with ``^`` or
``$`` yourself). URLs never contain raw whitespace; write ``\\s`` if needed.

>>> rules = UrlRules.parse("-/print/ +/news/")
>>> rules.accepts("http://site/news/print/1.html"), rules.accepts("http://site/news/1.html")
(False, True)
>>> rules.accepts("http://site/about.html")    # no rule matched
False
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit

from w3lib.url import canonicalize_url, url_query_cleaner

__all__ = [
    "MEDIA_EXTENSIONS",
    "RuleError",
    "UrlRule",
    "UrlRules",
    "host_names",
    "site_of",
    "same_site",
    "is_crawlable_scheme",
    "strip_tracking",
    "copy_of",
    "canonical_elsewhere",
]

# Webstemmer rejects jpg, gif, png, tiff, swf, mov, wmv, wma, ram, rm, rpm, gz,
# zip, class by default; this extends the list to today's media, documents,
# archives, fonts and page assets (never articles).
MEDIA_EXTENSIONS = (
    "jpg jpeg jpe gif png apng tif tiff bmp webp avif heic svg svgz ico psd "
    "swf flv mov mp4 m4v mkv webm avi wmv mpg mpeg 3gp ogv "
    "mp3 wav wma ogg oga flac m4a aac opus ram rm mid midi "
    "gz tgz bz2 xz zst zip rar 7z tar jar class exe msi dmg iso apk deb rpm bin "
    "pdf doc docx xls xlsx ppt pptx odt ods odp rtf epub "
    "css js mjs map json woff woff2 ttf otf eot"
).split()

_MEDIA_RE = r"\.(?:" + "|".join(MEDIA_EXTENSIONS) + r")(?:[?#]|$)"


class RuleError(ValueError):
    """A rule the user wrote cannot be used (bad prefix or bad regex)."""


@dataclass(frozen=True)
class UrlRule:
    accept: bool
    pattern: re.Pattern[str]

    def __str__(self) -> str:
        return ("+" if self.accept else "-") + self.pattern.pattern


@dataclass(frozen=True)
class UrlRules:
    """An ordered list of accept/reject rules; the first match decides."""

    rules: tuple[UrlRule, ...]

    @classmethod
    def parse(cls, spec: str | Iterable[str]) -> UrlRules:
        """Build rules from ``"+re -re ..."`` or an iterable of such tokens.

        >>> UrlRules.parse(["+^https://a/", "-\\\\.pdf$"]).rules[1].accept
        False
        >>> UrlRules.parse("news")
        Traceback (most recent call last):
        ...
        newsstem.rules.RuleError: URL rule 'news' must start with '+' (accept) or '-' (reject)
        """
        tokens = spec.split() if isinstance(spec, str) else [t for s in spec for t in s.split()]
        return cls(tuple(_parse_token(token) for token in tokens))

    @classmethod
    def default_for(cls, start_urls: Sequence[str]) -> UrlRules:
        """Webstemmer's default: reject media files, accept what lies under a start URL.

        The prefix is the start URL's directory, for http and https alike.

        >>> rules = UrlRules.default_for(["https://site/news/index.html"])
        >>> [rules.accepts(u) for u in ("http://site/news/a.html", "https://site/news/a.jpg",
        ...                             "https://site/sport/b.html")]
        [True, False, False]
        """
        rules = [UrlRule(False, re.compile(_MEDIA_RE, re.IGNORECASE))]
        for prefix in default_directories(start_urls):
            rules.append(UrlRule(True, re.compile(r"^https?://" + re.escape(prefix))))
        return cls(tuple(rules))

    def accepts(self, url: str) -> bool:
        for rule in self.rules:
            if rule.pattern.search(url):
                return rule.accept
        return False

    def __str__(self) -> str:
        return " ".join(str(rule) for rule in self.rules)


def _parse_token(token: str) -> UrlRule:
    if token[:1] not in ("+", "-"):
        raise RuleError(f"URL rule {token!r} must start with '+' (accept) or '-' (reject)")
    if len(token) == 1:
        raise RuleError(f"URL rule {token!r} has no regular expression after {token!r}")
    try:
        pattern = re.compile(token[1:])
    except re.error as exc:
        raise RuleError(f"URL rule {token!r} is not a valid regular expression: {exc}") from None
    return UrlRule(token[0] == "+", pattern)


def default_directories(start_urls: Sequence[str]) -> tuple[str, ...]:
    """The directories (without scheme) whose URLs the default rules accept.

    >>> default_directories(["https://site/news/index.html", "http://site/"])
    ('site/', 'site/news/')
    """
    return tuple(sorted({_directory_without_scheme(url) for url in start_urls}))


def _directory_without_scheme(url: str) -> str:
    directory = urljoin(url, "./") if urlsplit(url).path else url.rstrip("/") + "/"
    return directory.split("://", 1)[1]


_DEFAULT_PORTS = {"http": 80, "https": 443}


def is_crawlable_scheme(url: str) -> bool:
    """Only http and https pages are crawled.

    >>> is_crawlable_scheme("https://a/"), is_crawlable_scheme("ftp://a/f"), is_crawlable_scheme("mailto:x@a")
    (True, False, False)
    """
    return urlsplit(url).scheme.lower() in _DEFAULT_PORTS


def site_of(url: str) -> str:
    """The site a URL belongs to: its host without a leading ``www.``, plus a non-default port.

    http and https on their default ports are one site; another port is another
    server, hence another site.

    >>> site_of("https://www.Example.com/a"), site_of("http://example.com:80/b")
    ('example.com', 'example.com')
    >>> site_of("http://127.0.0.1:8181/x")
    '127.0.0.1:8181'
    """
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    if host.startswith("www."):
        host = host[4:]
    if ":" in host:  # IPv6 literal
        host = f"[{host}]"
    try:
        port = parts.port
    except ValueError:  # a malformed port is no site of ours
        return ""
    if port is None or port == _DEFAULT_PORTS.get(parts.scheme.lower()):
        return host
    return f"{host}:{port}"


def same_site(url: str, sites: Iterable[str]) -> bool:
    """``True`` when ``url`` is on one of ``sites`` (as returned by :func:`site_of`).

    >>> same_site("http://127.0.0.1:8181/a", {"127.0.0.1:8181"}), same_site("http://127.0.0.1:9/a", {"127.0.0.1:8181"})
    (True, False)
    """
    site = site_of(url)
    return bool(site) and site in sites


def strip_tracking(url: str, params: Iterable[str]) -> str:
    """``url`` without the query arguments named in ``params`` (share and tracking
    arguments: w3lib's ``url_query_cleaner``); the very same string when it has none.

    >>> strip_tracking("http://a.example/x.html?share=twitter", {"share"})
    'http://a.example/x.html'
    >>> strip_tracking("http://a.example/x?id=7&utm_source=rss", {"utm_source"})
    'http://a.example/x?id=7'
    >>> strip_tracking("http://a.example/x?id=7", {"share"})
    'http://a.example/x?id=7'
    """
    query = urlsplit(url).query
    if not query:
        return url
    names = set(params)
    if names.isdisjoint(part.split("=", 1)[0] for part in query.split("&")):
        return url
    return url_query_cleaner(url, sorted(names), remove=True, unique=False, keep_fragments=True)


def copy_of(url: str, canonical_url: str | None) -> str | None:
    """The URL of the article that the page at ``url`` copies, or None.

    A page that declares a canonical URL (``<link rel="canonical">``, ``og:url``) on
    its own site, other than its own (after w3lib's canonicalization), is a copy of
    the article there: a share, print or tracking variant.

    >>> copy_of("http://a.example/x.html?share=twitter", "http://a.example/x.html")
    'http://a.example/x.html'
    >>> copy_of("http://a.example/x.html", "http://a.example/x.html"), copy_of(
    ...     "http://a.example/x.html", "https://b.example/x.html")
    (None, None)
    """
    if not canonical_url or not is_crawlable_scheme(canonical_url):
        return None
    if site_of(canonical_url) != site_of(url):
        return None
    if canonicalize_url(canonical_url) == canonicalize_url(url):
        return None
    return canonical_url


def canonical_elsewhere(url: str, canonical_url: str | None) -> str | None:
    """The canonical URL a page declares on another site than its own, or None.

    Pages that name one such URL are one article when their headline and text are the
    same (a mirror's or a mobile host's story and its print page, both naming the
    original): :class:`newsstem.pipelines.DuplicatePipeline` exports it once.

    >>> canonical_elsewhere("http://m.example/x.html?print=1", "https://www.example/x")
    'https://www.example/x'
    >>> canonical_elsewhere("http://a.example/x.html?print=1", "http://a.example/x.html")
    """
    if not canonical_url or not is_crawlable_scheme(canonical_url):
        return None
    if site_of(canonical_url) == site_of(url):
        return None
    return canonical_url


def host_names(url: str | None) -> list[str]:
    """Names a site's host suggests: ``www.forbes.com`` -> ``forbes``, ``forbes.com``.

    >>> host_names("https://www.bbc.co.uk/news/1"), host_names("http://localhost/")
    (['bbc', 'bbc.co.uk'], [])
    """
    host = (urlsplit(url).hostname or "") if url else ""
    labels = [label for label in host.split(".") if label and label not in ("www", "m", "amp")]
    if len(labels) < 2:
        return []
    # the registrable label: the one before a public suffix such as "com" or "co.uk"
    core = labels[-3] if len(labels) >= 3 and len(labels[-2]) <= 3 and len(labels[-1]) == 2 \
        else labels[-2]
    return [core, ".".join(labels[labels.index(core):])]
