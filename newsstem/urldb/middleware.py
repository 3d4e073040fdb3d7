"""Scrapy glue of the URL store: skip exported articles, record links, mark durable exports.

:class:`UrlDbMiddleware` is a spider middleware that also listens to the
crawl's signals:

- every link the spider yields is looked up (in batches, once per crawl) and
  marked seen; a link to an article already exported is dropped
  (``newsstem/urldb/skipped`` counts the URLs exported by earlier crawls, once
  each); links to anything else (hubs, pages not yet
  fetched or never exported) are followed, so hub pages are still fetched to
  find new links (Webstemmer's rule);
- a fetched page whose article was already exported (a start page, a page
  reached through a redirect) is not exported again (``…/withheld``);
- an :class:`~newsstem.items.Article` that reached the output is marked
  exported only when it is durably there: after the local feed files are
  fsynced (every ``NEWSSTEM_URLDB_SYNC_ITEMS`` articles or
  ``NEWSSTEM_URLDB_SYNC_SECONDS``), or, for feeds that cannot be synced
  (stdout, S3, compressed, JSON/XML), when the crawl has finished and the feed
  was stored. A hard kill therefore loses no article; the next crawl exports
  again at most the articles of the last unsynced batch;
- while the store does not answer (a Redis restarting, paused, cut off), it is not
  asked for each page: lookups answer "unknown" at once, exports are kept, and it is
  tried again after 1 s, 2 s, 4 s... (one ERROR line when the outage starts, one INFO
  line when it ends);
- after a sync that left no export waiting, it sends :data:`exports_durable`: a
  distributed worker then lets go of the requests of the pages it finished
  (:mod:`newsstem.distributed.handoff`).
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydispatch.dispatcher import getAllReceivers, liveReceivers
from scrapy import Request, signals
from scrapy.exceptions import NotConfigured, UsageError
from scrapy.utils.asyncio import create_looping_call
from scrapy.utils.project import data_path
from scrapy.utils.reactor import CallLaterOnce

from newsstem import defaults
from newsstem.backoff import Backoff
from newsstem.deployment import installed_project_data_dir
from newsstem.items import Article, Page
from newsstem.keyset import KeySet
from newsstem.paths import local_feed_path
from newsstem.setting_values import parse_flag, read_setting
from newsstem.urldb import StoreError, UrlStore, open_store, parse_uri, url_key
from newsstem.urldb.feeds import (
    DurableFileFeedStorage,
    FeedFileRefused,
    FeedPlan,
    appends_on_resume,
    feed_storage_failed,
    feed_storage_opened,
    find_feed_exporter,
    plan_feeds,
)
from newsstem.urldb.store import COPY, TEXT, hub_key

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.crawler import Crawler
    from scrapy.extensions.feedexport import FeedExporter
    from scrapy.http import Response
    from scrapy.settings import BaseSettings
    from scrapy.signalmanager import SignalManager
    from scrapy.statscollectors import StatsCollector

    from newsstem.urldb import Lease

logger = logging.getLogger(__name__)

STATS_PREFIX = "newsstem/urldb"
MARK_AFTER = ("feed", "item_scraped")
# The spider's output of one response is looked up in chunks of this many
# elements: one store round trip for a page's links, bounded memory for huge pages.
OUTPUT_CHUNK = 1000
# What was looked up is remembered for the crawl, so repeated navigation links
# cost no store round trip; past this many URLs the memory is reset.
MAX_REMEMBERED = 1_000_000
# A crawl running for days marks a link seen again after this long, so
# last_seen stays meaningful for pruning.
SEEN_REFRESH_SECONDS = 3600
# Request meta: the URL of the page whose links gave the request (the first one: Scrapy
# fetches a URL once), set by the URL store's middleware; an article exported through an
# exported page records that page as a hub (store.hub_key).
VIA_META_KEY = "newsstem_via"
# Request meta: the URLs redirected to that page (its response's redirect_urls), when
# there were any: later crawls meet the link, not the target, and walk the page by
# the hub key of the URL they meet.
VIA_REDIRECTS_META_KEY = "newsstem_via_redirects"
# A Redis lease lives 60 s unless renewed; renewing every sync is cheap.
LEASE_RENEW_SECONDS = 15.0
# While the store fails it is tried again after the waits of newsstem.backoff (1 s, 2 s,
# 4 s... at most 60 s). Meanwhile lookups answer "unknown" at once and marks are kept: a
# Redis that does not answer (paused, partitioned) would hold every page for a socket
# timeout. A try asks UrlStore.ping first (about a second at most).
# Canonicalising a URL costs ~10 µs; a news site repeats its navigation links
# on every page, so the keys of recent URLs are cached.
KEY_CACHE = 100_000

#: signal sent (no arguments) after a sync that left nothing waiting: every article that
#: has passed the item pipelines so far is durably in the output and recorded in the store
#: (distributed mode then lets go of the requests of the pages done before it). Never sent
#: again once a feed file could not be opened: the articles since are in no output.
exports_durable = object()


def _timed(method: Callable[..., Any]) -> Callable[..., Any]:
    """Add the method's run time to the middleware's busy time (outermost call only)."""

    @functools.wraps(method)
    def timed(self: UrlDbMiddleware, *args: Any, **kwargs: Any) -> Any:
        if self._timing:
            return method(self, *args, **kwargs)
        self._timing = True
        started = time.perf_counter()
        try:
            return method(self, *args, **kwargs)
        finally:
            self.busy_seconds += time.perf_counter() - started
            self._timing = False

    return timed


@dataclass(frozen=True)
class UrlDbOptions:
    """The URL store settings of one crawl, checked."""

    uri: str
    refresh: bool
    sync_items: int
    sync_seconds: float
    mark_after: str

    @classmethod
    def from_settings(cls, settings: BaseSettings, refresh_argument: object = None) -> UrlDbOptions:
        """Read ``NEWSSTEM_URLDB*``; ``refresh_argument``: the spider's ``-a refresh``, if any."""
        uri = str(settings.get("NEWSSTEM_URLDB", defaults.NEWSSTEM_URLDB) or "").strip()
        refresh = parse_flag(
            "NEWSSTEM_URLDB_REFRESH",
            settings.get("NEWSSTEM_URLDB_REFRESH", defaults.NEWSSTEM_URLDB_REFRESH),
        )
        if refresh_argument is not None:
            refresh = parse_flag("-a refresh", refresh_argument)
        # read and checked as every numeric setting, with the same one-line messages
        sync_items = int(read_setting(settings, "NEWSSTEM_URLDB_SYNC_ITEMS"))
        sync_seconds = float(read_setting(settings, "NEWSSTEM_URLDB_SYNC_SECONDS"))
        mark_after = str(
            settings.get("NEWSSTEM_URLDB_MARK_AFTER", defaults.NEWSSTEM_URLDB_MARK_AFTER)
        )
        if mark_after not in MARK_AFTER:
            raise UsageError(
                f"NEWSSTEM_URLDB_MARK_AFTER must be one of {', '.join(MARK_AFTER)}, "
                f"not {mark_after!r}"
            )
        if uri:
            parse_uri(uri)  # StoreError on a bad URI, before anything is opened
        return cls(uri, refresh, sync_items, sync_seconds, mark_after)


def project_data_dir() -> str:
    """The project data dir, where relative SQLite stores live.

    Scrapy's (``.scrapy/`` next to ``scrapy.cfg``, or ``[datadir]`` of a
    scrapy.cfg); for a scrapyd job, whose working directory has no scrapy.cfg,
    ``<scrapyd's working dir>/.scrapy/<project>/`` (:mod:`newsstem.deployment`).
    """
    try:
        return data_path("", createdir=True)
    except NotConfigured as exc:
        installed = installed_project_data_dir()
        if installed is not None:
            return installed
        raise StoreError(
            f"cannot locate the project data dir for the URL store ({exc}); set NEWSSTEM_URLDB "
            "to an absolute path, e.g. sqlite:////var/lib/newsstem/urldb.sqlite"
        ) from None


def check_crawl(settings: BaseSettings, spider_arguments: dict[str, Any]) -> None:
    """Open the store a crawl would use, take and give back its lease: errors before any request.

    Raises UsageError for bad settings or arguments, StoreError for a store
    that cannot be used (unwritable, corrupt, unreachable, being pruned).
    """
    options = UrlDbOptions.from_settings(settings, spider_arguments.get("refresh"))
    if not options.uri:
        return
    with open_store(options.uri, project_data_dir) as store:
        store.lease(exclusive=False).release()


class UrlDbMiddleware:
    """Spider middleware + signal handlers that connect a crawl to its :class:`UrlStore`."""

    def __init__(
        self, store: UrlStore, lease: Lease, stats: StatsCollector, options: UrlDbOptions
    ) -> None:
        self.store = store
        self.lease = lease
        self.stats = stats
        self.options = options
        self.refresh = options.refresh
        self._remembered: dict[bytes, bool] = {}  # key -> exported, for URLs looked up this crawl
        self._remembered_since = time.monotonic()
        self._to_mark_seen: set[bytes] = set()
        self._hubs_walked: set[bytes] = set()  # hub keys of the exported pages walked here
        # those of them fetched and withheld (newsstem/urldb/hubs counts these: a hub whose
        # fetch failed was no page "not exported again", and the summary said "of them")
        self._hubs_counted: set[bytes] = set()
        # newsstem/urldb/skipped counts each URL once, and only those exported by an earlier
        # crawl: a link to an article this crawl exported is one Scrapy would not fetch again.
        # One key or more an article for the whole crawl: a KeySet (~20 bytes a key, not
        # ~110 in a set: stop 50's crawl memory)
        self._exported_here = KeySet()
        self._skipped = KeySet()  # (up to MAX_REMEMBERED keys: ~20 MiB, not ~150 in a set)
        self._aliases: dict[str, list[bytes]] = {}  # page URL -> keys of the URLs redirected to it
        # page URL -> the URLs of the page whose link gave it (VIA_META_KEY, then the
        # URLs redirected to it)
        self._via: dict[str, list[str]] = {}
        self._crawler: Crawler | None = None
        self._to_mark_exported: list[bytes] = []  # durable at the next sync
        # the kind of the keys to mark that are no article's own URL (store.COPY, TEXT),
        # with, for a COPY, the article key it repeats (for `scrapy urldb show`)
        self._kinds: dict[bytes, tuple[int, bytes | None]] = {}
        self._batch_articles = 0
        self._after_feeds: list[bytes] = []  # durable once the feeds are stored
        self._after_feeds_keys: set[bytes] = set()
        self._along: dict[bytes, list[bytes]] = {}  # article key -> keys of its dropped copies
        self._after_feeds_articles = 0
        self._storages: list[DurableFileFeedStorage] = []
        self._feed_failed = False  # a feed file could not be opened: nothing marked since
        self._feeds: FeedExporter | None = None
        self._plans: list[FeedPlan] = []
        self._sync_soon = CallLaterOnce(self.sync)
        self._sync_task = None
        self._last_renewal = time.monotonic()
        self._closing = {"spider": False, "feeds": True}
        self._closed = False
        self._key_cache: dict[str, bytes] = {}
        self._signals: SignalManager | None = None
        self._exporter_writes_first = False
        self.busy_seconds = 0.0  # time spent in this middleware (lookups, marks, fsyncs)
        self._timing = False
        self.backoff = Backoff()  # the store failing: since when, when to try it again
        #: a worker of a distributed crawl (NEWSSTEM_DISTRIBUTED): the page through which
        #: an article was found may have been exported by another worker, unknown here
        self.shared = False

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> UrlDbMiddleware:
        options = UrlDbOptions.from_settings(
            crawler.settings, getattr(crawler.spider, "refresh", None)
        )
        if not options.uri:  # asked for (-s NEWSSTEM_URLDB=): said at INFO, not as a warning
            logger.info("newsstem: no URL store (NEWSSTEM_URLDB is empty): every article of "
                        "the crawl is exported, none is recorded")
            raise NotConfigured
        store = open_store(options.uri, project_data_dir)
        try:
            lease = store.lease(exclusive=False)
        except StoreError:
            store.close()
            raise
        middleware = cls(store, lease, crawler.stats, options)
        middleware._feeds = find_feed_exporter(crawler)
        middleware._crawler = crawler
        middleware._signals = crawler.signals
        from newsstem.distributed.connection import is_distributed

        middleware.shared = is_distributed(crawler.settings)
        connect = crawler.signals.connect
        connect(middleware.spider_opened, signal=signals.spider_opened)
        connect(middleware.spider_closed, signal=signals.spider_closed)
        connect(middleware.feed_exporter_closed, signal=signals.feed_exporter_closed)
        connect(middleware.item_scraped, signal=signals.item_scraped)
        connect(middleware.item_dropped, signal=signals.item_dropped)
        connect(middleware.item_dropped, signal=signals.item_error)
        connect(middleware.storage_opened, signal=feed_storage_opened)
        connect(middleware.storage_failed, signal=feed_storage_failed)
        return middleware

    # -- keys and lookups -------------------------------------------------------

    def key(self, url: str) -> bytes:
        key = self._key_cache.get(url)
        if key is None:
            if len(self._key_cache) >= KEY_CACHE:
                self._key_cache.clear()
            key = self._key_cache[url] = url_key(url)
        return key

    def look_up(self, keys: Iterable[bytes], *, links: bool = True) -> None:
        """Look up the keys not seen yet in this crawl; for ``links`` (URLs, not texts)
        count the new ones and queue seen marks."""
        unknown = [k for k in dict.fromkeys(keys) if k not in self._remembered]
        if not unknown:
            return
        # Unknown means "fetch": a store failure costs re-fetches, never articles.
        found = None
        if self._store_ready():
            try:
                found = self.store.lookup(unknown)
            except StoreError as exc:
                self._store_failed("lookup", exc)
            else:
                self._store_answered()
        if len(self._remembered) + len(unknown) > MAX_REMEMBERED:
            self._forget_lookups()
        new = 0
        for k in unknown:
            entry = found.get(k) if found is not None else None
            if found is not None and entry is None:
                new += 1
            self._remembered[k] = bool(entry is not None and entry.exported_at)
        if not links:
            return
        if new:
            self.stats.inc_value(f"{STATS_PREFIX}/new", new)
        self._to_mark_seen.update(unknown)

    def exported(self, key: bytes) -> bool:
        return self._remembered.get(key, False)

    def was_exported(self, url: str) -> bool:
        """Whether the article of ``url`` was exported by an earlier crawl (False when
        refreshing): :class:`newsstem.pipelines.DuplicatePipeline` asks it of a copy's
        canonical URL (what this crawl exported, it knows with the headlines)."""
        key = self.key(url)
        self.look_up([key])
        return self._exported_before(key)

    def text_was_exported(self, key: bytes) -> bool:
        """Whether an earlier crawl exported an article of this text
        (:func:`newsstem.urldb.text_key`; False when refreshing). A text is no link: it
        is neither counted new nor marked seen."""
        self.look_up([key], links=False)
        return self._exported_before(key)

    def _exported_before(self, key: bytes) -> bool:
        return not self.refresh and key not in self._exported_here and self.exported(key)

    def mark_along(self, url: str, article: bytes) -> None:
        """Record ``url`` as exported together with the article of key ``article``
        (:class:`newsstem.pipelines.DuplicatePipeline` dropped it as a copy of that
        article): in the same batch, or later, never before the article is durably
        recorded; at once when an earlier crawl recorded the article."""
        self.mark_key_along(self.key(url), article)

    def mark_key_along(self, key: bytes, article: bytes, kind: int = COPY) -> None:
        """:meth:`mark_along` of a store key: a URL's (``kind`` COPY), or an article
        text's (TEXT); ``scrapy urldb stats`` counts each kind apart."""
        self._remembered[key] = True
        self._exported_here.add(key)  # a link to it is no URL an earlier crawl exported
        if not self._recording():
            # (after a feed file failed, its article may be in no output: recorded, the
            # copy would count as done with no article exported)
            return
        self._kinds[key] = (kind, article if kind == COPY else None)
        if article in self._after_feeds_keys:
            self._after_feeds.append(key)
            self._after_feeds_keys.add(key)
        elif article in self._exported_here or (not self.refresh and self.exported(article)):
            self._to_mark_exported.append(key)  # with the article's batch, or after it
        else:  # exported by this crawl, its item_scraped signal still to come
            self._along.setdefault(article, []).append(key)

    def _forget_lookups(self) -> None:
        """Forget what was looked up (bounded memory, seen marks made again), except the
        articles this crawl exported that the store has not recorded yet: it would call
        them new, and a page redirected to one would be exported again."""
        self._remembered = dict.fromkeys([*self._to_mark_exported, *self._after_feeds], True)

    # -- spider middleware --------------------------------------------------------

    async def process_spider_output(
        self, response: Response, result: AsyncIterator[Any]
    ) -> AsyncIterator[Any]:
        page_keys = self._look_up_page(response)
        chunk: list[Any] = []
        async for element in result:
            chunk.append(element)
            if len(chunk) >= OUTPUT_CHUNK:
                for kept in self._filter(chunk, page_keys, response):
                    yield kept
                chunk = []
        for kept in self._filter(chunk, page_keys, response):
            yield kept

    @_timed
    def _look_up_page(self, response: Response) -> list[bytes]:
        page_keys = [self.key(u) for u in [*response.meta.get("redirect_urls", []), response.url]]
        self.look_up(page_keys)
        return page_keys

    @_timed
    def _filter(
        self, chunk: list[Any], page_keys: list[bytes], response: Response | None = None
    ) -> list[Any]:
        """The elements of the spider's output to pass on. A link to an exported page is
        dropped, unless that page is a hub (:func:`~newsstem.urldb.store.hub_key`) whose
        links the crawl follows at its depth: it is fetched for them (its page withheld)."""
        requests = [e for e in chunk if isinstance(e, Request)]
        self.look_up(self.key(e.url) for e in requests)
        link_hubs: dict[str, bytes] = {}  # (each exported link's hub key, computed once)
        if not self.refresh:  # (one lookup for the hub keys of the exported links)
            link_hubs = {e.url: hub_key(e.url) for e in requests if self.exported(self.key(e.url))}
            self.look_up(link_hubs.values(), links=False)
        kept = []
        for element in chunk:
            if isinstance(element, Request):
                key = self.key(element.url)
                if response is not None and VIA_META_KEY not in element.meta:
                    element.meta[VIA_META_KEY] = response.url
                    if response.meta.get("redirect_urls"):
                        element.meta[VIA_REDIRECTS_META_KEY] = list(
                            response.meta["redirect_urls"])
                if not self.refresh and self.exported(key):
                    # (a link of a page earlier in the chunk is exported since the lookups)
                    hub = link_hubs.get(element.url) or hub_key(element.url)
                    if not self._walked(element, hub):
                        if not self.exported(hub):  # (a hub's are no articles)
                            self._count_skipped(key)
                        self._forget_anchors(element.url, key)
                        continue
            elif isinstance(element, Page):
                key = self.key(element.url)
                self.look_up([key])
                if not self.refresh and self.exported(key):
                    self.stats.inc_value(f"{STATS_PREFIX}/withheld")
                    chain = [element.url]
                    if response is not None:
                        chain += [response.url, *response.meta.get("redirect_urls", ())]
                    hubs = {hub_key(url) for url in chain} & self._hubs_walked
                    if hubs and not hubs & self._hubs_counted:
                        self._hubs_counted |= hubs
                        self.stats.inc_value(f"{STATS_PREFIX}/hubs")
                    logger.debug("Already exported, not exported again: %s", element.url)
                    continue
                aliases = [k for k in page_keys if k != key]
                if aliases:
                    self._aliases[element.url] = aliases
                meta = response.meta if response is not None else {}
                via = meta.get(VIA_META_KEY)
                if isinstance(via, str) and via != element.url:
                    self._via[element.url] = [via, *meta.get(VIA_REDIRECTS_META_KEY, ())]
            kept.append(element)
        return kept

    def _forget_anchors(self, url: str, key: bytes) -> None:
        """The spider recorded the anchor texts of the links to ``url`` for its page: it is
        not fetched, they are let go (a crawl after the first kept those of every link to
        an exported article, never fetched, for the whole crawl: stop 49's crawl memory)."""
        anchors = getattr(getattr(self._crawler, "spider", None), "anchors", None)
        forget = getattr(anchors, "forget", None)
        if forget is not None:
            forget(url, key)  # (its url_key, not computed again)

    def _walked(self, request: Request, hub: bytes) -> bool:
        """Whether the exported page of ``request`` (its hub key ``hub``) is a hub to fetch
        for its links: an earlier crawl found articles through it, and the spider follows
        the links of a page at the request's depth (one at the depth limit is skipped as
        before)."""
        if not self.exported(hub):
            return False
        spider = getattr(self._crawler, "spider", None)
        scope_of = getattr(spider, "scope_of", None)
        follows = getattr(spider, "follows", None)
        if scope_of is not None and follows is not None:
            scope = scope_of(request.meta)
            if scope is None or not follows(scope, int(request.meta.get("depth", 0))):
                return False
        # walked, it is seen, as a link is: a prune of what no crawl saw since keeps it
        # (its page, whose link was seen, stays exported: without it, skipped again)
        self._to_mark_seen.add(hub)
        self._hubs_walked.add(hub)  # (counted when its page is fetched and withheld)
        return True

    def _count_skipped(self, key: bytes) -> None:
        if key in self._skipped or key in self._exported_here:
            return
        if len(self._skipped) >= MAX_REMEMBERED:
            self._skipped = KeySet()
        self._skipped.add(key)
        self.stats.inc_value(f"{STATS_PREFIX}/skipped")

    # -- exports ------------------------------------------------------------------

    def spider_opened(self, spider: Spider) -> None:
        self._exporter_writes_first = self._feeds is None or _runs_before(
            self._signals, signals.item_scraped, self._feeds.item_scraped, self.item_scraped
        )
        if not self._exporter_writes_first:
            logger.debug(
                "FeedExporter writes items after this middleware sees them: "
                "syncs wait for the end of each dispatch"
            )
        self._plans = plan_feeds(self._feeds) if self._feeds is not None else []
        self._closing["feeds"] = self._feeds is None
        self._describe_plans()
        self._sync_task = create_looping_call(self.sync)
        self._sync_task.start(self.options.sync_seconds, now=False)

    def _describe_plans(self) -> None:
        store = self.store.uri
        if self.options.mark_after == "item_scraped":
            logger.info(
                "URL store %s: articles are marked exported once through the pipelines", store
            )
            return
        if not self._plans:
            logger.warning(
                "URL store %s: no feed output (-o/-O/FEEDS), so no article is marked exported; "
                "set NEWSSTEM_URLDB_MARK_AFTER=item_scraped if a pipeline stores the articles",
                store,
            )
        for plan in self._plans:
            if not plan.recorded:
                logger.info(
                    "URL store %s: articles in %s are not recorded as exported (%s): the next "
                    "crawl exports them again",
                    store, plan.uri, plan.why,
                )
                continue
            when = (
                f"every {self.options.sync_items} articles or "
                f"{self.options.sync_seconds:g} s, after fsync"
                if plan.syncable
                else "when the crawl has finished and the feed is stored"
            )
            logger.info(
                "URL store %s: articles in %s are marked exported %s (%s)",
                store,
                plan.uri,
                when,
                plan.why,
            )
        for uri, options in self._feeds.feeds.items() if self._feeds is not None else ():
            if (options.get("overwrite") and _is_nonempty_local_file(uri)
                    and not appends_on_resume(self._feeds.crawler, uri, options)):
                logger.warning(
                    "Overwriting %s: the articles in it were marked exported and will not be "
                    "exported again. Keep each run's output (-O 'articles-%%(time)s.jsonl') or "
                    "append with -o, so no article is lost.",
                    uri,
                )

    def storage_opened(self, storage: DurableFileFeedStorage) -> None:
        self._storages.append(storage)

    def storage_failed(self, storage: DurableFileFeedStorage, error: OSError) -> None:
        """A feed file could not be opened (a later batch's file, a full disk), or was
        refused (an -O file another crawl wrote: the storage logged it): the article being
        written is not in it, nor are those Scrapy tries to write after it. None is
        recorded as exported from now on (recording less only exports again); one ERROR
        line. The articles waiting to be recorded are in the files written before
        (an earlier batch's, closed and fsynced): they are recorded as they would have
        been. Dropping them too exported them again next crawl, duplicates of lines kept.
        """
        if self.options.mark_after != "feed":
            return
        # (a file another crawl wrote, not overwritten: the storage said so in its own line)
        if not self._feed_failed and not isinstance(error, FeedFileRefused):
            logger.error(
                "Cannot open the feed file %s (%s): from now on no article is recorded as "
                "exported in the URL store %s; the next crawl exports them again",
                storage.path, error.strerror or error, self.store.uri,
            )
        self._feed_failed = True
        if self._exporter_writes_first:
            # the article being written reaches _article_scraped after this: unmarked there
            return
        # Scrapy's exporter writes after this middleware's item_scraped: the article being
        # written already waits with the others, which cannot be told apart from it here;
        # none of them is recorded (they are exported again, none is lost)
        unmarked = self._batch_articles + self._after_feeds_articles
        if unmarked:
            self.stats.inc_value(f"{STATS_PREFIX}/unmarked", unmarked)
        self._to_mark_exported, self._batch_articles = [], 0
        self._after_feeds, self._after_feeds_keys, self._after_feeds_articles = [], set(), 0
        self._kinds = {}

    def _recording(self) -> bool:
        """Whether exports are recorded now: on item_scraped, or with feeds to sync (none
        once a feed file could not be opened)."""
        return not self._feed_failed and (
            self.options.mark_after == "item_scraped" or bool(self._plans)
        )

    def item_scraped(self, item: Any, spider: Spider) -> None:
        # FeedExporter writes the item in its own item_scraped handler, which runs
        # before this one (checked at spider_opened): so this article, and every
        # one queued before, is in the feed files' buffers when sync() runs.
        # (Not decorated: pydispatch passes a signal handler only the arguments
        # its signature names.)
        if isinstance(item, Article):
            self._article_scraped(item)

    @_timed
    def _article_scraped(self, item: Article) -> None:
        key = self.key(item.url)
        aliases = self._aliases.pop(item.url, ())
        via = self._via.pop(item.url, None)
        self._kinds.pop(key, None)  # the article's own URL (a copy of an earlier one no more)
        keys = [key, *aliases]
        keys.extend(self._along.pop(key, ()))  # its copies dropped before this signal
        for k in keys:
            self._remembered[k] = True
            self._exported_here.add(k)
        if not self._recording() or self._unrecorded_feed_takes(item):
            # not in a feed file that could not be opened, or in no feed, or in /dev/null:
            # never recorded, nor are their kinds kept (a crawl without a feed would keep
            # one a redirect)
            self.stats.inc_value(f"{STATS_PREFIX}/unmarked")
            for k in keys:
                self._kinds.pop(k, None)
            return
        for alias in aliases:
            self._kinds[alias] = (COPY, key)  # a redirect: recorded as exported with the article
        if via and (self.shared or self.key(via[0]) in self._exported_here
                    or self.exported(self.key(via[0]))):
            # found through an exported page: that page is a hub, walked by later crawls,
            # by the hub key of each URL that reaches it (a link redirected to it: its
            # alias); in this article's batch (a kill -9 after a batch of its own lost it).
            # A worker records it whatever it knows of that page: another worker may have
            # exported it (and recorded it after this worker looked it up), and the hub key
            # of a page not exported is never read (_walked asks only of exported links);
            # once a worker, in this article's batch or an earlier one
            hubs = [hub_key(url) for url in via]
            if self.shared:
                hubs = [hub for hub in hubs if hub not in self._exported_here]
            for hub in hubs:
                self._kinds[hub] = (TEXT, None)
                self._remembered[hub] = True
                self._exported_here.add(hub)
            keys.extend(hubs)
        if self.options.mark_after == "item_scraped" or (
            self._plans and self._all_syncable_for(item)
        ):
            self._to_mark_exported.extend(keys)
            self._batch_articles += 1
            if self._batch_articles >= self.options.sync_items:
                if self._exporter_writes_first:
                    self.sync()  # a batch is never larger than NEWSSTEM_URLDB_SYNC_ITEMS
                else:
                    self._sync_soon.schedule()  # after this signal dispatch has finished
        else:
            self._after_feeds.extend(keys)
            self._after_feeds_keys.update(keys)
            self._after_feeds_articles += 1

    def _unrecorded_feed_takes(self, item: Article) -> bool:
        """Whether a feed whose articles are never recorded (``-O /dev/null``) takes
        ``item``: it is then not durable in every feed that takes it."""
        if self.options.mark_after != "feed" or self._feeds is None:
            return False
        return any(
            not plan.recorded and self._feeds.filters[plan.uri].accepts(item)
            for plan in self._plans
        )

    def _all_syncable_for(self, item: Article) -> bool:
        assert self._feeds is not None
        return all(
            plan.syncable or not self._feeds.filters[plan.uri].accepts(item) for plan in self._plans
        )

    def item_dropped(self, item: Any, spider: Spider, **kwargs: Any) -> None:
        url = getattr(item, "url", None)
        if isinstance(url, str):
            self._aliases.pop(url, None)
            self._via.pop(url, None)

    @_timed
    def sync(self) -> None:
        """Make the feed files durable, then record the exports and links since the last sync;
        :data:`exports_durable` when no export waits any more."""
        if self._closed:
            return
        articles, keys = self._batch_articles, self._to_mark_exported
        try:
            for storage in self._storages:
                storage.sync()
        except OSError as exc:
            logger.error("Cannot fsync a feed file (%s): exports not recorded yet, retrying", exc)
            self.stats.inc_value(f"{STATS_PREFIX}/errors")
            return
        now = int(time.time())
        if (keys or self._to_mark_seen) and not self._store_ready():
            self._housekeeping()
            self._tell_durable()
            return  # kept for a sync when the store answers
        if keys:
            try:
                marked = {k: self._kinds[k] for k in keys if k in self._kinds}  # not in: URL
                kinds = {k: kind for k, (kind, _) in marked.items()}
                copies_of = {k: of for k, (_, of) in marked.items() if of is not None}
                self.store.mark_exported(keys, now, kinds, copies_of)
            except StoreError as exc:
                self._store_failed("mark exported", exc)
                self._housekeeping()
                return
            else:
                self._store_answered()
                for k in keys:
                    self._kinds.pop(k, None)
                self._to_mark_exported = []
                self._batch_articles = 0
                self.stats.inc_value(f"{STATS_PREFIX}/exported", articles)
                self.stats.inc_value(f"{STATS_PREFIX}/syncs")
        self._flush_seen(now)
        self._housekeeping()
        self._tell_durable()

    def _tell_durable(self) -> None:
        """Send :data:`exports_durable` if no article waits to be recorded (after a sync);
        never once a feed file could not be opened (the articles since are in no output)."""
        if self._feed_failed or self._to_mark_exported or self._after_feeds:
            return
        if self._signals is not None:
            self._signals.send_catch_log(exports_durable)

    def _flush_seen(self, now: int) -> None:
        if not self._to_mark_seen:
            return
        try:
            self.store.mark_seen(self._to_mark_seen, now)
        except StoreError as exc:
            self._store_failed("mark seen", exc)
        else:
            self._store_answered()
            self._to_mark_seen = set()

    def _housekeeping(self) -> None:
        if time.monotonic() - self._remembered_since > SEEN_REFRESH_SECONDS:
            self._forget_lookups()
            self._remembered_since = time.monotonic()
        if time.monotonic() - self._last_renewal > LEASE_RENEW_SECONDS and self._store_ready():
            try:
                self.lease.renew()
            except StoreError as exc:
                self._store_failed("lease renewal", exc)
            else:
                self._store_answered()
            self._last_renewal = time.monotonic()

    def _store_ready(self) -> bool:
        """Whether to call the store now: always, unless it is failing and the wait before
        trying again is not over; then it must answer a ping first (a second at most)."""
        if not self.backoff.failing:
            return True
        if not self.backoff.due():
            return False
        try:
            self.store.ping()
        except StoreError as exc:
            self._store_failed("ping", exc)
            return False
        return True

    def _store_failed(self, what: str, exc: StoreError) -> None:
        """One ERROR line per outage (a Redis restarting fails every lookup and mark
        until it answers: one line, not one per page); each failure counted."""
        self.stats.inc_value(f"{STATS_PREFIX}/errors")
        if not self.backoff.failed():
            logger.debug("URL store %s: %s failed again (%s)", self.store.uri, what, exc)
            return
        logger.error(
            "URL store %s: %s failed (%s); the crawl goes on, nothing is lost: pages it "
            "cannot look up are fetched, exports are recorded when the store answers again "
            "(or exported again next time); it is tried again after 1 s, 2 s, 4 s... (at "
            "most every %g s)",
            self.store.uri,
            what,
            exc,
            self.backoff.longest,
        )

    def _store_answered(self) -> None:
        ended = self.backoff.answered()
        if ended is not None:
            logger.info(
                "URL store %s answers again after %.1f s (%d failed calls)",
                self.store.uri, *ended,
            )

    def spider_closed(self, spider: Spider, reason: str) -> None:
        if self._sync_task is not None and self._sync_task.running:
            self._sync_task.stop()
        self._sync_soon.cancel()
        self.sync()
        self._closing["spider"] = True
        self._finish()

    def feed_exporter_closed(self) -> None:
        failed = sum(
            value
            for name, value in self.stats.get_stats().items()
            if name.startswith("feedexport/failed_count/")
        )
        if self._after_feeds:
            if failed:
                logger.error(
                    "%d feed(s) could not be stored: the %d articles waiting for the feeds "
                    "that are marked at the crawl's end are not marked exported (whichever "
                    "feed failed) and will be exported again",
                    failed,
                    self._after_feeds_articles,
                )
                self.stats.inc_value(f"{STATS_PREFIX}/unmarked", self._after_feeds_articles)
            else:
                self.sync()  # the synced feeds first, for items in both kinds of feed
                self._to_mark_exported.extend(self._after_feeds)
                self._batch_articles += self._after_feeds_articles
                self.sync()
            self._after_feeds, self._after_feeds_articles = [], 0
            self._after_feeds_keys = set()
        self._closing["feeds"] = True
        self._finish()

    def _finish(self) -> None:
        if self._closed or not all(self._closing.values()):
            return
        self.backoff.retry_now()  # the last chance: try a failing store once more
        self.sync()
        unmarked = self._batch_articles
        if unmarked:
            self.stats.inc_value(f"{STATS_PREFIX}/unmarked", unmarked)
            logger.error(
                "URL store %s: %d exported articles could not be recorded; they will be "
                "exported again",
                self.store.uri,
                unmarked,
            )
        self._closed = True
        self.stats.set_value(f"{STATS_PREFIX}/busy_seconds", round(self.busy_seconds, 3))
        if not self.backoff.failing:  # else it lapses after its time-to-live
            try:
                self.lease.release()
            except StoreError as exc:
                self._store_failed("lease release", exc)
        self.store.close()


def _runs_before(
    manager: SignalManager | None,
    signal: object,
    first: Callable[..., Any],
    then: Callable[..., Any],
) -> bool:
    """Whether ``first`` is called before ``then`` when ``signal`` is sent (connection order)."""
    if manager is None:
        return False
    receivers = list(liveReceivers(getAllReceivers(manager.sender, signal)))
    try:
        return receivers.index(first) < receivers.index(then)
    except ValueError:
        return False


def _is_nonempty_local_file(uri: str) -> bool:
    path = local_feed_path(uri)
    if path is None:
        return False
    try:
        return Path(path).stat().st_size > 0
    except OSError:
        return False
