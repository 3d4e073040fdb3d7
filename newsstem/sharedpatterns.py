"""Pattern files shared by the workers of a distributed crawl (``NEWSSTEM_SHARED_PATTERNS``).

A worker that learns a redesigned site again at its crawl's end (``NEWSSTEM_RELEARN``)
writes the new file to its own ``NEWSSTEM_PATTERNS_DIR``; the other workers, on other
machines, would read the site with the old file until someone copied the new one. With a
Redis URL store (``NEWSSTEM_URLDB``, which the workers share), the file is also published
there (:meth:`newsstem.urldb.redis_store.RedisUrlStore.publish_patterns`), and every
crawl loads the published files newer than its own at its start, and while it runs every
``NEWSSTEM_SHARED_PATTERNS_CHECK`` seconds (:class:`SharedPatterns`), writing them to its
patterns directory in place of the old ones.

Which file is newer is decided the same way everywhere, whatever order workers publish
in, and whatever the machines' clocks say: the one learned last on the Redis server's
clock (its ``stamp``: the file's ``learned_at`` plus how far the server's clock was ahead
of the publisher's when it published, a second or more:
:data:`~newsstem.urldb.redis_store.CLOCK_TOLERANCE_US`), then, on a tie, the greater patterns key. A
worker's own file that is newer than the published one (learned by hand since, edited
after its ``learned_at``) is kept: only a published file learned later replaces it. The
worker's file is put on the server's clock the same way: the stamp the store gave it when
it was published (a file loaded from the store), else its ``learned_at`` plus how far the
server's clock is ahead of the worker's (a file learned on this machine, or a copy whose
stamp the store dropped: over :data:`~newsstem.urldb.redis_store.STAMPS_KEPT_US`, 24 hours,
older than the current file's, so it still loses unless the clocks disagree by more).
``scrapy learn --unpublish`` keeps the stamps: copies of a file unpublished stay ordered.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from newsstem import defaults
from newsstem.layout.patterns import (
    PatternFileError,
    PatternSet,
    dumps,
    loads,
    save_pattern_file,
)
from newsstem.layout.redesign import patterns_key
from newsstem.setting_values import read_setting
from newsstem.urldb import StoreError, hide_password, open_store, redis_store_uri
from newsstem.urldb.redis_store import clock_ahead, epoch_microseconds

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings

    from newsstem.urldb.redis_store import PublishedPatterns, RedisUrlStore

logger = logging.getLogger(__name__)

# The longest wait between two looks at the store while it does not answer (seconds).
MAX_WAIT = 600.0

#: when the other workers read a file published (said by ``NEWSSTEM_RELEARN`` and
#: ``scrapy learn --publish``): :class:`SharedPatterns` looks at a crawl's start and then
#: every ``NEWSSTEM_SHARED_PATTERNS_CHECK`` seconds
LOADED_WHEN = ("the other workers load it at their next crawl start, or within "
               "NEWSSTEM_SHARED_PATTERNS_CHECK seconds")

__all__ = [
    "LOADED_WHEN", "Loaded", "SharedPatterns", "is_newer", "publish", "shared_patterns_store"
]


def shared_patterns_store(settings: BaseSettings) -> str | None:
    """The Redis URL store (``NEWSSTEM_URLDB``) where pattern files learned again are
    published and read, or None: ``NEWSSTEM_SHARED_PATTERNS`` off, no URL store, or a
    SQLite one (one machine).

    >>> from scrapy.settings import Settings
    >>> shared_patterns_store(Settings({"NEWSSTEM_URLDB": "redis://127.0.0.1:7000/0"}))
    'redis://127.0.0.1:7000/0'
    >>> shared_patterns_store(Settings({"NEWSSTEM_URLDB": "redis://h:7000/0",
    ...                                 "NEWSSTEM_SHARED_PATTERNS": "False"}))
    >>> shared_patterns_store(Settings({"NEWSSTEM_URLDB": "sqlite:///urldb.sqlite"}))
    """
    if not read_setting(settings, "NEWSSTEM_SHARED_PATTERNS"):
        return None
    return redis_store_uri(settings.get("NEWSSTEM_URLDB", defaults.NEWSSTEM_URLDB))


def is_newer(
    published: PublishedPatterns, local: PatternSet | None, local_stamp: int | None = None
) -> bool:
    """Whether a published file replaces a worker's own: it has none, or the published
    one is another file learned later: its stamp (the server's clock) after
    ``local_stamp``, the worker's file on the server's clock (None: unknown, a file
    without ``learned_at``: the published one wins). A file published by a newsstem of
    before stamps has none: it is compared by ``learned_at``, as that newsstem did.

    >>> from newsstem.layout.patterns import PatternSet
    >>> from newsstem.urldb.redis_store import PublishedPatterns
    >>> own = PatternSet("example.com", (), learned_at="2026-11-01T06:00:00.000000Z")
    >>> is_newer(PublishedPatterns(1, "2026-11-01T05:00:00.000000Z", "0123", stamp=20), own, 10)
    True
    >>> is_newer(PublishedPatterns(1, "2026-11-02T06:00:00.000000Z", "0123", stamp=5), own, 10)
    False
    >>> is_newer(PublishedPatterns(1, "2026-11-02T06:00:00.000000Z", "0123"), own, 10)
    True
    >>> is_newer(PublishedPatterns(1, "2026-11-02T06:00:00.000000Z", patterns_key(own),
    ...                            stamp=20), own, 10)
    False

    Of two files learned at the same instant, the greater key wins, as in the store
    (``patterns_key(own)`` is ``"4808…"``):

    >>> [is_newer(PublishedPatterns(1, "", key, stamp=10), own, 10) for key in ("0123", "ffff")]
    [False, True]
    """
    if local is None:
        return True
    key = patterns_key(local)
    if published.key == key:
        return False
    if published.stamp is None:  # published by a newsstem of before stamps
        return (published.learned_at, published.key) > (local.learned_at, key)
    return local_stamp is None or (published.stamp, published.key) > (local_stamp, key)


def publish(
    uri: str, pattern_set: PatternSet, clock: Callable[[], float] = time.time
) -> PublishedPatterns:
    """Publish a site's pattern file in the Redis URL store ``uri``: what the store holds
    afterwards (``published``: this file; else one learned later, which stays). ``clock``
    is the clock the file's ``learned_at`` was taken by (this machine's): the file is
    ordered on the Redis server's clock. Raises :class:`~newsstem.urldb.StoreError` when
    the store cannot be reached."""
    text = dumps(pattern_set)
    store: RedisUrlStore
    with open_store(uri) as store:  # type: ignore[assignment]  (a Redis URI)
        # the key of the file as the workers read it from ``text`` (patterns_key of what
        # loads gives them), that they compare their own files' keys with
        return store.publish_patterns(
            pattern_set.site, patterns_key(loads(text)), pattern_set.learned_at, text, clock
        )


class Loaded(NamedTuple):
    """A published pattern file a crawl loaded in place of its own."""

    pattern_set: PatternSet
    published: PublishedPatterns
    replaced: PatternSet | None  # the crawl's own file of the site, if it had one
    path: Path | None  # where it was written (None: no patterns directory, or not writable)


class SharedPatterns:
    """The published pattern files a crawl looks for: at its start, then every
    ``interval`` seconds (0: at the start only). :meth:`check` returns those newer than
    the crawl's own (:func:`is_newer`), written to ``patterns_dir`` too (the next crawl,
    ``scrapy extract`` and ``NEWSSTEM_RELEARN`` read them there). A store that cannot be
    reached is one warning (an INFO line when it answers again), and the crawl goes on with
    the files it has, looking again after 2, 4, 8 … intervals (at most :data:`MAX_WAIT`); a
    published file that does not load is one warning, and is left out."""

    def __init__(
        self, uri: str, patterns_dir: str | None, interval: float,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.uri = uri
        self.clock = clock  # this machine's clock, that its own files were learned by
        self.shown = hide_password(uri)
        self.patterns_dir = patterns_dir or None
        self.interval = interval
        self.next_check = -math.inf  # monotonic time of the next look: at once
        self.failing = 0  # failed looks in a row
        self.refused: set[str] = set()  # keys of published files that did not load

    def due(self) -> bool:
        return time.monotonic() >= self.next_check

    def check(self, current: Mapping[str, PatternSet]) -> list[Loaded]:
        """The published files newer than ``current`` (the crawl's, by site)."""
        self.next_check = time.monotonic() + self.interval if self.interval > 0 else math.inf
        try:
            store: RedisUrlStore = open_store(self.uri)  # type: ignore[assignment]
        except StoreError as error:
            self._failed(error)
            return []
        loaded: list[Loaded] = []
        offset: list[int] = []  # the server's clock ahead of this machine's (µs), once
        try:
            for site, published in sorted(store.published_patterns().items()):
                local = current.get(site)
                if published.key in self.refused or (
                    local is not None and published.key == patterns_key(local)
                ):
                    continue
                own = self._stamp(store, site, local, offset)
                if not is_newer(published, local, own):
                    continue
                found = store.published_pattern_text(site)
                if found is None or not is_newer(found[0], local, own):
                    continue
                pattern_set = self._load(site, *found)
                if pattern_set is not None:
                    loaded.append(Loaded(pattern_set, found[0], local, self._save(pattern_set)))
        except StoreError as error:
            self._failed(error)
        else:
            if self.failing:
                logger.info("newsstem: the URL store %s answers again: the pattern files "
                            "published there are read again", self.shown)
                self.failing = 0
        finally:
            store.close()
        return loaded

    def _stamp(
        self, store: RedisUrlStore, site: str, local: PatternSet | None, offset: list[int]
    ) -> int | None:
        """The worker's file of ``site`` on the server's clock: the stamp the store gave it
        (loaded from the store), else its ``learned_at`` moved by how far the server's
        clock is ahead of this machine's (learned here); None: no file, no ``learned_at``."""
        if local is None:
            return None
        stamp = store.published_stamp(site, patterns_key(local))
        if stamp is not None:
            return stamp
        learned = epoch_microseconds(local.learned_at)
        if learned is None:
            return None
        if not offset:
            before = self.clock()
            server = store.server_time()
            own = (before + self.clock()) / 2
            offset.append(clock_ahead(round(server * 1_000_000), round(own * 1_000_000)))
        return learned + offset[0]

    def _load(self, site: str, published: PublishedPatterns, text: str) -> PatternSet | None:
        source = f"the pattern file of {site} published in {self.shown} (version " \
            f"{published.version})"
        try:
            pattern_set = loads(text, source=source)
            if pattern_set.site != site:
                raise PatternFileError(f"{source}: its site is {pattern_set.site!r}")
        except PatternFileError as error:
            self.refused.add(published.key)
            logger.warning("newsstem: %s: not loaded (the crawl goes on with its own "
                           "patterns of the site)", error)
            return None
        return pattern_set

    def _save(self, pattern_set: PatternSet) -> Path | None:
        if self.patterns_dir is None:
            return None
        try:
            return save_pattern_file(pattern_set, self.patterns_dir)
        except OSError as error:
            logger.warning(
                "newsstem: %s: the pattern file published in %s cannot be written to %s "
                "(%s): this crawl uses it, the next one loads it again",
                pattern_set.site, self.shown, self.patterns_dir, error.strerror or error,
            )
            return None

    def _failed(self, error: StoreError) -> None:
        if not self.failing:
            logger.warning(
                "newsstem: the pattern files published in the URL store cannot be read "
                "(%s): this crawl goes on with its own (it looks again%s)", error,
                f" in {2 * self.interval:g} s, then less often" if self.interval > 0
                else " at the next crawl",
            )
        self.failing += 1
        if self.interval > 0:  # the next look further off (2, 4, 8 … intervals, at most
            # MAX_WAIT s): a store that does not answer may hold the crawl for its timeout
            self.next_check = time.monotonic() + min(
                self.interval * 2 ** min(self.failing, 16), max(self.interval, MAX_WAIT)
            )
