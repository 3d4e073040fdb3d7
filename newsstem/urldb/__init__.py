"""The persistent URL store: recurring crawls skip known articles, lose nothing, prune stale URLs.

One setting chooses the backend, ``NEWSSTEM_URLDB``, a URI:

``sqlite:///relative/path.sqlite``
    a SQLite file relative to Scrapy's project data dir (``.scrapy/``, like
    HTTPCACHE_DIR); the default is ``sqlite:///newsstem-urldb.sqlite``;
``sqlite:////absolute/path.sqlite``
    a SQLite file anywhere (four slashes: the path starts with ``/``);
``redis://[:password@]host:port/db[?prefix=name]``
    a Redis database shared by several processes or machines (also
    ``rediss://`` and ``unix:///path.sock?db=N``);
``""``
    no store.

The store itself (:mod:`~newsstem.urldb.store` and the backends) is plain
Python; the Scrapy glue is :mod:`~newsstem.urldb.middleware` and
:mod:`~newsstem.urldb.feeds`, and ``scrapy urldb`` is
:mod:`newsstem.commands.urldb`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from newsstem.urldb.store import (
    Lease,
    StoreBusy,
    StoreError,
    StoreStats,
    UrlEntry,
    UrlStore,
    format_time,
    parse_age,
    text_key,
    url_key,
)

__all__ = [
    "REDIS_SCHEMES",
    "Lease",
    "StoreBusy",
    "StoreError",
    "StoreStats",
    "StoreUri",
    "UrlEntry",
    "UrlStore",
    "format_time",
    "hide_password",
    "open_store",
    "parse_age",
    "parse_uri",
    "redis_store_uri",
    "text_key",
    "url_key",
]

_SQLITE = "sqlite://"
# Redis URLs (the URL store's and distributed mode's), as redis-py reads them.
REDIS_SCHEMES = ("redis://", "rediss://", "unix://")
_EXAMPLES = (
    "sqlite:///name.sqlite (in the project's .scrapy/ dir), sqlite:////absolute/path.sqlite, "
    "redis://host:port/db, or an empty value to switch the store off"
)


@dataclass(frozen=True)
class StoreUri:
    """A parsed ``NEWSSTEM_URLDB`` value: a SQLite path or a Redis URL.

    >>> parse_uri("sqlite:///urldb.sqlite")
    StoreUri(backend='sqlite', target='urldb.sqlite')
    >>> parse_uri("sqlite:////var/lib/urldb.sqlite").is_relative
    False
    >>> parse_uri("redis://127.0.0.1:6379/0").backend
    'redis'
    """

    backend: str  # "sqlite" or "redis"
    target: str  # the file path, or the Redis URL

    @property
    def is_relative(self) -> bool:
        return self.backend == "sqlite" and not Path(self.target).is_absolute()


def parse_uri(uri: str) -> StoreUri:
    """Check the syntax of a store URI (nothing is opened); StoreError if it is not one."""
    uri = uri.strip()
    if uri.startswith(_SQLITE):
        if not uri.startswith(_SQLITE + "/"):
            raise StoreError(
                f"URL store URI {uri!r}: write sqlite:/// then the path; use {_EXAMPLES}"
            )
        path = uri[len(_SQLITE) + 1 :]
        if not path or path.endswith("/") or "?" in path:
            raise StoreError(f"URL store URI {uri!r} does not name a file; use {_EXAMPLES}")
        return StoreUri("sqlite", path)
    if uri.startswith(REDIS_SCHEMES):
        return StoreUri("redis", uri)
    # (hidden: a URI of another database may carry its password, and this goes to logs)
    raise StoreError(
        f"URL store URI {hide_password(uri)!r} is not one newsstem knows; use {_EXAMPLES}"
    )


def redis_store_uri(uri: object) -> str | None:
    """``uri`` (a ``NEWSSTEM_URLDB`` value) when it names a Redis URL store, the one that
    workers on several machines share; None for SQLite, none ("") or a URI that is not
    valid (the URL store's middleware says so when a crawl starts).

    >>> redis_store_uri(" redis://127.0.0.1:7000/0 "), redis_store_uri("sqlite:///urldb.sqlite")
    ('redis://127.0.0.1:7000/0', None)
    >>> redis_store_uri(""), redis_store_uri(None), redis_store_uri("postgres://h/db")
    (None, None, None)
    """
    text = str(uri or "").strip()
    try:
        return text if text and parse_uri(text).backend == "redis" else None
    except StoreError:
        return None


def hide_password(url: str) -> str:
    """The URL with any password replaced, for messages (nothing else is parsed: a URL
    with a bad port is shown as it is).

    >>> hide_password("redis://:s3cret@h:6379/0"), hide_password("redis://h:6379/0")
    ('redis://:***@h:6379/0', 'redis://h:6379/0')
    >>> hide_password("redis://user:pw@h:port/0")
    'redis://user:***@h:port/0'
    """
    scheme, sep, rest = url.partition("://")
    credentials, at, host = rest.rpartition("@")
    if not at or ":" not in credentials:
        return url
    user = credentials.split(":", 1)[0]
    return f"{scheme}{sep}{user}:***@{host}"


def open_store(
    uri: str | StoreUri,
    data_dir: Callable[[], str] | None = None,
    *,
    create: bool = True,
    read_only: bool = False,
) -> UrlStore:
    """Open (creating if needed) the store a URI names, or raise :class:`StoreError`.

    ``data_dir`` gives the directory relative SQLite paths are in (Scrapy's
    project data dir in crawls and commands); it is only called for them.
    Redis connections are checked at once, so a wrong URL fails here. With
    ``create=False`` (``scrapy urldb``: looking into a store), a SQLite file that
    does not exist, or a Redis prefix without the layout record every store has, is an
    error, not a new empty store. With ``read_only=True``
    (``scrapy urldb stats`` and ``show``), a store is read at the schema (SQLite) or
    layout (Redis) it has and nothing is written to it: not upgraded, so an older
    newsstem still using it goes on.
    """
    spec = parse_uri(uri) if isinstance(uri, str) else uri
    if spec.backend == "sqlite":
        from newsstem.urldb.sqlite_store import SqliteUrlStore

        path = Path(spec.target)
        if spec.is_relative:
            if data_dir is None:
                raise StoreError(
                    f"URL store path {spec.target!r} is relative; give an absolute one"
                )
            path = Path(data_dir(), path)
        if not create and not path.exists():
            raise StoreError(
                f"no URL store at {path} (a crawl creates it): check the path of "
                "--urldb or NEWSSTEM_URLDB"
            )
        return SqliteUrlStore(path, read_only=read_only)
    from newsstem.urldb.redis_store import RedisUrlStore

    return RedisUrlStore.from_uri(spec.target, read_only=read_only, create=create)
