"""The URL store: what newsstem remembers about every URL between crawls.

Webstemmer's URLDB (seed 004, ``textcrawler.py -U``) kept the md5 of each
fetched URL and the last time a link to it was seen, so a recurring crawl
skipped the pages it already had. Here each entry is keyed by the md5 of the
canonicalized URL (16 bytes) and holds three times, in integer epoch seconds:

``first_seen``
    when a link to the URL (or the page itself) was first seen;
``last_seen``
    the last time a link to it was seen; pruning removes entries not seen for
    a while;
``exported_at``
    when its article was durably written to an output (``None``: never).

Each entry also has a kind, for ``scrapy urldb stats`` and ``show`` (a crawl's lookups
do not need it):
:data:`URL` (a link seen, or the page of an exported article), :data:`COPY` (a URL
recorded as exported along with another URL's article: a dropped copy, a redirect)
and :data:`TEXT` (an article's :func:`text_key`, no URL at all). A COPY entry also keeps
the key of the URL whose article it repeats (:meth:`UrlStore.copies_of`), for ``show``.

:class:`UrlStore` is the interface the crawl and ``scrapy urldb`` use; the
backends (SQLite, Redis) live in their own modules and are chosen by a URI
(:func:`newsstem.urldb.open_store`). Everything here is plain Python: no
Scrapy.
"""

from __future__ import annotations

import hashlib
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime, timezone
from types import TracebackType
from typing import NamedTuple

from w3lib.url import canonicalize_url

__all__ = [
    "COPY",
    "KEY_BYTES",
    "TEXT",
    "URL",
    "Lease",
    "Progress",
    "StoreBusy",
    "StoreError",
    "StoreStats",
    "UrlEntry",
    "UrlStore",
    "format_time",
    "hub_key",
    "parse_age",
    "text_key",
    "url_key",
]

KEY_BYTES = 16  # md5 digest

# The kinds of entry (stored with each; a store written before kinds existed holds URL
# entries only, its copies and texts among them).
URL = 0  # a URL: a link seen; exported: the page of an article that went out
TEXT = 1  # an exported article's text (text_key)
COPY = 2  # a URL recorded as exported along with another URL's article (copy, redirect)

#: ``progress(done, total)``: called by long operations after each step
Progress = Callable[[int, int], None]


def url_key(url: str) -> bytes:
    """The store key of a URL: the md5 digest of its canonical form (w3lib).

    Query argument order, fragments and percent-encoding differences do not
    make a new key:

    >>> url_key("http://a.example/x?b=2&a=1#top") == url_key("http://a.example/x?a=1&b=2")
    True
    >>> len(url_key("http://a.example/"))
    16
    """
    return hashlib.md5(canonicalize_url(url).encode("utf-8")).digest()


def hub_key(url: str) -> bytes:
    """The store key that says the exported page of ``url`` is a hub: the crawl found
    articles through it (it was the first page to link them). Recorded as a :data:`TEXT`
    entry (no URL: not counted as one, nor as an article), it makes later crawls walk
    that page for its links, not skip it as an exported article (a section page whose
    introduction the extraction exported). Keys of hubs never equal keys of URLs.

    >>> hub_key("http://a.example/news/") == url_key("http://a.example/news/")
    False
    """
    return hashlib.md5(("hub:" + canonicalize_url(url)).encode("utf-8")).digest()


def text_key(site: str, headline: str, paragraphs: Sequence[str]) -> bytes:
    """The store key of an article's text: the md5 digest of its site, its headline and
    its opening paragraphs (the caller folds case and whitespace).

    Recorded as exported with the article, it finds a copy of the article under another
    URL (a print page, a share variant) in a later crawl, with or without metadata.
    Keys of text never equal keys of URLs (the prefix is no URL's).

    >>> text_key("a.example", "minister resigns", ["she said so."]) == url_key("text:")
    False
    >>> len(text_key("a.example", "minister resigns", ["she said so."]))
    16
    """
    payload = "\n".join(("text:" + site, headline, *paragraphs))
    return hashlib.md5(payload.encode("utf-8")).digest()


class UrlEntry(NamedTuple):
    """What the store knows about one URL (epoch seconds), and the kind of its entry
    (:data:`COPY`: exported as another URL's article; a store written before kinds
    existed says :data:`URL` for those too)."""

    first_seen: int
    last_seen: int
    exported_at: int | None
    kind: int = URL


class StoreStats(NamedTuple):
    """Figures of a whole store, for ``scrapy urldb stats``.

    ``entries`` counts everything (what ``prune`` removes from): ``urls`` (the URL and
    COPY entries) and ``texts``; ``articles`` the URL entries exported (one an exported
    article), ``copies`` the COPY entries. The four times are ``None`` when the store
    is empty.
    """

    entries: int
    urls: int
    articles: int
    copies: int
    texts: int
    size_bytes: int
    first_seen_min: int | None
    first_seen_max: int | None
    last_seen_min: int | None
    last_seen_max: int | None


class StoreError(Exception):
    """The store cannot be opened or used; the message says what is wrong and what to do."""


class StoreBusy(StoreError):
    """Another process holds a lease that excludes the one asked for."""


# The end of an exclusive lease's StoreBusy: what to do (``scrapy urldb prune`` replaces it
# once it waited with --wait)
PRUNE_ADVICE = "prune when no crawl runs, or wait for it with --wait SECONDS"


class Lease(ABC):
    """A claim on a store: shared by crawls, exclusive for ``prune``.

    Crawls take a shared lease for their whole run, so any number of them can
    use one store together; ``prune`` takes the exclusive lease and so never
    runs while a crawl holds the store (nor a crawl while a prune runs). A
    lease outlives no process: a holder killed with ``kill -9`` loses it
    (at once for SQLite, whose lease is an OS file lock; after a short
    time-to-live for Redis, whose lease the holder must :meth:`renew`).
    """

    exclusive: bool

    @abstractmethod
    def renew(self) -> None:
        """Keep the lease alive (needed by time-limited leases; cheap to call often)."""

    @abstractmethod
    def release(self) -> None:
        """Give the lease up; releasing twice is harmless."""

    def __enter__(self) -> Lease:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.release()


class UrlStore(ABC):
    """A persistent map from URL keys (:func:`url_key`) to :class:`UrlEntry`.

    Writes are batched by the caller: one call marks many keys in one
    transaction. Marks only move forward: ``last_seen`` keeps the later time,
    ``first_seen`` the earlier, and a mark never removes an export, so
    several processes marking the same keys at once lose nothing.
    Backend errors are raised as :class:`StoreError`.
    """

    #: the store's URI with any password hidden, for messages
    uri: str

    @abstractmethod
    def lookup(self, keys: Sequence[bytes]) -> dict[bytes, UrlEntry]:
        """The entries of those ``keys`` that the store holds (unknown keys are absent)."""

    @abstractmethod
    def mark_seen(self, keys: Iterable[bytes], when: int) -> None:
        """Record that links to these URLs were seen at ``when`` (creating entries as needed)."""

    @abstractmethod
    def mark_exported(
        self,
        keys: Iterable[bytes],
        when: int,
        kinds: Mapping[bytes, int] | None = None,
        copies_of: Mapping[bytes, bytes] | None = None,
    ) -> None:
        """Record that the articles of these URLs were durably written at ``when``.

        ``kinds`` gives the kind of the keys that are not :data:`URL`: :data:`COPY`,
        :data:`TEXT`. An export sets an entry's kind, except that a URL exported as an
        article stays one when recorded as a copy (two crawls at once: one exported the
        article, the other, reaching it too, dropped it as a copy of that export).
        ``copies_of`` gives, for COPY keys, the key of the URL whose article each repeats
        (:meth:`copies_of`); an entry that is no copy after the mark keeps none, and a copy
        marked without one keeps the one it had.
        """

    @abstractmethod
    def copies_of(self, keys: Sequence[bytes]) -> dict[bytes, bytes]:
        """For those ``keys`` that are :data:`COPY` entries, the key of the URL whose
        article each repeats, where the store recorded it (an entry written before it did,
        or last marked by an older newsstem, has none: absent). For ``scrapy urldb show``;
        a crawl's lookups do not need it."""

    @abstractmethod
    def stats(self) -> StoreStats:
        """Entry counts, size and time range of the whole store."""

    @abstractmethod
    def prune(
        self, seen_before: int, dry_run: bool = False, progress: Progress | None = None
    ) -> int:
        """Remove entries whose ``last_seen`` is older than ``seen_before``; return how many.

        The caller holds the exclusive lease (and renews it from ``progress``).
        With ``dry_run`` nothing is removed: the entries are only counted.
        """

    @abstractmethod
    def lease(self, exclusive: bool) -> Lease:
        """Take a shared (crawl) or exclusive (prune) lease, or raise :class:`StoreBusy`."""

    @abstractmethod
    def close(self) -> None:
        """Release resources; the store must not be used afterwards."""

    def ping(self) -> None:
        """Check, within about a second, that the store answers; StoreError if not.

        A crawl asks it before trying a store that failed again, so a server that does
        not answer costs a second per try, not a socket timeout. A local file answers.
        """

    def __enter__(self) -> UrlStore:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


_AGE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([smhdw])\s*$", re.IGNORECASE)
_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}


def parse_age(text: str) -> int:
    """Seconds in an age such as ``"30d"`` (units: s, m, h, d, w); ValueError if malformed.

    >>> parse_age("30d"), parse_age("12h"), parse_age("1.5w"), parse_age("90s")
    (2592000, 43200, 907200, 90)
    """
    match = _AGE.match(text)
    if not match:
        raise ValueError(f"{text!r} is not an age such as 30d, 12h, 2w (units: s m h d w)")
    return int(float(match.group(1)) * _UNIT_SECONDS[match.group(2).lower()])


def format_time(epoch: int | None) -> str:
    """ISO 8601 UTC, as in the article output; ``-`` for ``None``.

    >>> format_time(0), format_time(None)
    ('1970-01-01T00:00:00Z', '-')
    """
    if epoch is None:
        return "-"
    return datetime.fromtimestamp(epoch, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
