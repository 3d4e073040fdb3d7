"""Local feed files whose contents can be made durable on demand, and which feeds can be.

The URL store may record an article as exported only once its line is safely
on disk: Scrapy's ``FileFeedStorage`` writes through a userspace buffer and
never fsyncs, so a ``kill -9`` loses the buffered lines, and a store that had
already marked them would never export those articles again.

:class:`DurableFileFeedStorage` (registered for local paths and ``file://``
URIs in ``FEED_STORAGES_BASE``) keeps what the exporter writes in memory and
writes it to the file in whole lines; :meth:`~DurableFileFeedStorage.sync`
(called by the URL store middleware before it records a batch of exports)
writes the rest and fsyncs. So after a hard kill the file holds whole items
only, and every item the store marked is in it. Appending (``-o``) to a file
that a killed run left with a cut last line first removes that fragment.

:func:`plan_feeds` tells, for each configured feed, whether its items can be
marked after such a sync (local files in a line format) or only when the
crawl has finished and the feed was stored (stdout, S3, FTP, compressed or
JSON/XML files, other storages).

A crawl about to overwrite (``-O``) a file that another crawl wrote since this
crawl's feed started leaves it alone: the storage logs one ERROR line, counts
``newsstem/feeds/refused``, tells the URL store (:data:`feed_storage_failed`) and
hands the exporter a file that keeps nothing; :class:`NewsFeedExporter` (Scrapy's
FeedExporter, registered in its place in ``EXTENSIONS``) then drops that feed, so Scrapy
neither opens the file again for each article (a traceback each) nor reports it stored.
It counts the articles that reached no file because of it (``newsstem/feeds/unwritten``:
their only feeds were refused), which the run summary does not count as exported.

A feed that is not a regular file cannot be fsynced: a character device (``-O /dev/null``
for a dry run, a terminal, ``-o -`` to either) is written without fsync and its
articles are never recorded as exported (:attr:`FeedPlan.recorded`); a pipe or socket
(``-O /dev/stdout | gzip > …``, a named pipe) is written without fsync and, like
stdout, recorded when the crawl has finished and the feed was closed.
"""

from __future__ import annotations

import errno
import io
import logging
import os
import stat
import sys

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple
from urllib.parse import urlparse

from scrapy.extensions.feedexport import FeedExporter as _ScrapyFeedExporter
from scrapy.exceptions import NotConfigured
from scrapy.extensions.feedexport import FileFeedStorage, StdoutFeedStorage
from scrapy.utils.conf import build_component_list
from scrapy.utils.misc import load_object
from w3lib.url import file_uri_to_path

from newsstem.operations import scheduled_requests
from newsstem.paths import URI_PARAMETER, local_feed_path
from newsstem.urldb.locking import FORK_LOCK, close_in_forked_child

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.crawler import Crawler
    from scrapy.signalmanager import SignalManager
    from scrapy.statscollectors import StatsCollector

logger = logging.getLogger(__name__)

#: signal sent with ``storage=`` when a :class:`DurableFileFeedStorage` opens its file
feed_storage_opened = object()
#: ... and with ``storage=`` and ``error=`` (an OSError) when it cannot: the article being
#: exported is not in the feed (Scrapy logs the traceback and goes on), or when it refuses
#: to overwrite the file (``error`` a :class:`FeedFileRefused`, logged already; no article
#: is written to it)
feed_storage_failed = object()

REFUSED_STAT = "newsstem/feeds/refused"
#: articles written to no feed file because every feed taking them was refused
UNWRITTEN_STAT = "newsstem/feeds/unwritten"


class FeedFileRefused(OSError):
    """An ``-O`` feed file another crawl wrote since this crawl's feed started."""

# Formats whose files stay readable up to the last whole record after a hard
# kill (JSON and XML need their closing bracket/tag; pickle/marshal streams are
# not line-delimited, so a cut record cannot be found and removed).
LINE_FORMATS = frozenset({"jsonlines", "jsonl", "jl", "csv"})
JSON_LINES = frozenset({"jsonlines", "jsonl", "jl"})
# Whole lines accumulate in memory up to this size before being written
# (without a URL store nobody calls sync(); this bounds the memory).
WRITE_BYTES = 256 * 1024


class _WriteOnlyFile:
    """The parts of the io API that exporters (and TextIOWrapper for CSV) ask of a feed's
    file: written, never read or sought."""

    def writable(self) -> bool:
        return True

    def readable(self) -> bool:
        return False

    def seekable(self) -> bool:
        return False


class LineBatchFile(_WriteOnlyFile):
    """A write-only binary file that reaches the disk in whole lines.

    ``write`` only appends to memory; when more than ``WRITE_BYTES`` are held,
    everything up to the last newline is written. :meth:`sync` writes all of
    it and fsyncs. The exporter writes complete items between two syncs, so
    the file never ends inside an item unless the OS itself is cut off mid-write.
    A file that could not be written to its end (a full disk when it was closed)
    never reads as durable: :meth:`sync` raises OSError from then on.
    """

    def __init__(self, path: Path, mode: str, fd: int | None = None) -> None:
        """``fd``: the file opened for writing already (a claimed ``-O`` file), else it is
        opened here, emptied (``mode`` "w") or appended to ("a")."""
        self.name = str(path)
        if fd is None:
            fd = os.open(
                path, os.O_WRONLY | os.O_CREAT | (os.O_TRUNC if mode == "w" else os.O_APPEND),
                0o644,
            )
        self._fd = fd
        # a device or a pipe (-O /dev/null, /dev/stdout) cannot be fsynced (EINVAL): it
        # only gets what is held; nothing in it is on a disk (plan_feeds tells its feed)
        self._fsyncable = _is_storage(os.fstat(fd).st_mode)
        self._pending = bytearray()
        self._directory = path.parent
        self._directory_synced = False
        self._failure: OSError | None = None  # the error that lost the held bytes
        self.closed = False
        # a child forked without exec (an item pipeline's os.fork, multiprocessing's "fork")
        # must not keep a claimed -O file locked after the crawl, nor write to it
        close_in_forked_child(self)

    def fileno(self) -> int:
        return self._fd

    def _close_after_fork(self) -> None:
        """In a forked child: close the child's copy of the descriptor (the parent's lock
        stays; ``LOCK_UN`` would drop it, one open file description), write nothing."""
        if not self.closed:
            self.closed = True
            self._pending.clear()
            os.close(self._fd)

    def write(self, data: bytes | bytearray | memoryview) -> int:
        if self.closed:
            raise ValueError("write to a closed feed file")
        self._pending += data
        if len(self._pending) > WRITE_BYTES:
            cut = self._pending.rfind(b"\n") + 1
            if cut == 0 and len(self._pending) > 4 * WRITE_BYTES:
                cut = len(self._pending)  # no newline at all (binary output): write anyway
            self._write_out(cut)
        return len(data)

    def _write_out(self, size: int) -> None:
        done = 0  # what reached the file leaves the buffer even when a later write fails
        view = memoryview(self._pending)
        try:
            while done < size:
                with view[done:size] as chunk:
                    done += os.write(self._fd, chunk)
        finally:
            view.release()
            del self._pending[:done]

    def flush(self) -> None:
        if not self.closed:
            self._write_out(len(self._pending))

    def sync(self) -> None:
        """Write everything held and fsync: what was written so far survives a crash."""
        if self._failure is not None:
            raise OSError(f"{self.name} could not be written to its end ({self._failure})")
        if not self.closed:
            self.flush()
            if not self._fsyncable:
                return
            os.fsync(self._fd)
            if not self._directory_synced:  # a new file's name must survive a power cut too
                fsync_directory(self._directory)
                self._directory_synced = True

    def close(self) -> None:
        if not self.closed:
            try:
                self.sync()
            except OSError as error:
                self._failure = error
                raise
            finally:
                with FORK_LOCK:  # a fork between the two would leave the child a copy
                    self.closed = True
                    os.close(self._fd)

    def __enter__(self) -> LineBatchFile:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class DiscardedFile(_WriteOnlyFile):
    """What a refused feed writes to: nothing is kept, and nothing is durable to sync."""

    def __init__(self, path: Path) -> None:
        self.name = str(path)
        self.closed = False

    def write(self, data: bytes | bytearray | memoryview) -> int:
        return len(data)

    def flush(self) -> None:
        pass

    def close(self) -> None:
        self.closed = True


class FileState(NamedTuple):
    """What tells a file apart from itself rewritten: created anew, or written to."""

    device: int
    inode: int
    size: int
    mtime_ns: int

    @classmethod
    def of(cls, path: Path) -> FileState | None:
        """The state of the file at ``path``, None when there is none (or its directory
        cannot be read: opening it then fails with its own error)."""
        try:
            found = path.stat()
        except OSError:
            return None
        return cls.of_stat(found)

    @classmethod
    def of_stat(cls, found: os.stat_result) -> FileState:
        return cls(found.st_dev, found.st_ino, found.st_size, found.st_mtime_ns)


class DurableFileFeedStorage(FileFeedStorage):
    """``FileFeedStorage`` with whole-line writes, :meth:`sync`, and an fsync when stored."""

    def __init__(
        self,
        uri: str,
        *,
        feed_options: dict[str, Any] | None = None,
        signals: SignalManager | None = None,
        stats: StatsCollector | None = None,
    ) -> None:
        super().__init__(uri, feed_options=feed_options)
        self.format = (feed_options or {}).get("format")
        self.signals = signals
        self.stats = stats
        self.file: LineBatchFile | None = None
        self.refused = False  # the file was another crawl's: nothing written to it
        # Scrapy makes the storage when the feed starts and opens it at the first item
        # (or, empty, at the end): a file written between the two is another crawl's
        self.found = FileState.of(Path(self.path))

    @classmethod
    def from_crawler(
        cls, crawler: Crawler, uri: str, *, feed_options: dict[str, Any] | None = None
    ) -> DurableFileFeedStorage:
        return cls(uri, feed_options=feed_options, signals=crawler.signals, stats=crawler.stats)

    def open(self, spider: Spider) -> LineBatchFile | DiscardedFile:  # type: ignore[override]
        path = Path(self.path)
        if self.refused or self.refuses():
            return DiscardedFile(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            mode = "w" if self.write_mode == "wb" else "a"
            if mode == "a" and self.format in LINE_FORMATS:
                drop_cut_line(path)
            # (a fork between the file's opening and its registration in LineBatchFile would
            # leave the child a copy nobody closes: the -O file's lock held while it lives)
            with FORK_LOCK:
                claimed = self._claim(path) if mode == "w" else None
                if not isinstance(claimed, str):
                    self.file = LineBatchFile(path, mode, claimed)
            if isinstance(claimed, str):
                self._refuse(path, claimed)  # (its log line and signal outside the lock)
                return DiscardedFile(path)
        except OSError as error:
            if self.signals is not None:
                self.signals.send_catch_log(feed_storage_failed, storage=self, error=error)
            raise
        if self.signals is not None:
            self.signals.send_catch_log(feed_storage_opened, storage=self)
        return self.file

    def refuses(self) -> bool:
        """Whether this feed must leave its file alone: it overwrites (``-O``) a file
        written since this feed started. Two workers, or two scrapyd jobs, started in the
        same second with one ``%(time)s`` name; the one opening last (an empty feed is
        opened at its end) would empty the other's file, whose articles the URL store had
        recorded. Refused (once: one ERROR line, ``newsstem/feeds/refused``, and
        :data:`feed_storage_failed`), this crawl's articles are written to no file and
        recorded as exported by none (the next crawl exports them again; with
        NEWSSTEM_URLDB_MARK_AFTER=item_scraped they are: a pipeline is the output then).
        The file is compared with itself when the feed started, not its mtime with the
        clock: a clock stepped back, or a network filesystem's server dating files ahead,
        would make a file of the run before look written since. (A look only: opening
        the file, :meth:`_claim` checks again, under a lock.)"""
        if self.refused:
            return True
        if self.write_mode != "wb" or self.file is not None:
            return False
        path = Path(self.path)
        now = FileState.of(path)
        if now is None or now == self.found or not path.is_file():
            return False
        return self._refuse(path, "another crawl wrote it since this one started")

    def _claim(self, path: Path) -> int | str:
        """The ``-O`` file opened for writing and emptied, locked (``flock``) until it
        is closed (a forked child closes its copy: :mod:`newsstem.urldb.locking`), or why
        it is refused (for :meth:`_refuse`): it was created, or written to,
        since this feed started, or another crawl holds its lock. Looking first and
        opening with ``O_TRUNC`` then left a gap of a few milliseconds in which two
        crawls both saw the file unchanged and both emptied it; here a new file is
        created with ``O_EXCL`` and an existing one is compared with the feed's start
        only once locked, so of crawls opening one file at once exactly one writes it. The
        lock dies with the process (no stale lock after a kill -9). Where the
        filesystem has no ``flock`` (ENOLCK, EOPNOTSUPP: some network mounts), the file is
        written unlocked, checked as before. A file that was there at the feed's start
        and is gone now (moved away) is created anew, with ``O_EXCL`` too."""
        found = self.found
        try:
            if found is not None:
                try:
                    fd = os.open(path, os.O_WRONLY)
                except FileNotFoundError:  # moved away since: nobody's file now
                    found = None
            if found is None:
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            return "another crawl wrote it since this one started"
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return fd  # -O /dev/null, a pipe: nothing to empty, nobody's file
            if not lock_exclusive(fd):
                refusal = "another crawl is writing it"
            elif found is not None and FileState.of_stat(os.fstat(fd)) != found:
                refusal = "another crawl wrote it since this one started"
            else:
                os.ftruncate(fd, 0)
                return fd
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)
        return refusal

    def _refuse(self, path: Path, reason: str) -> bool:
        self.refused = True
        refusal = FeedFileRefused(errno.EBUSY, f"{reason}, not overwritten", str(path))
        logger.error(
            "Not overwriting %s: %s. No article of this crawl is written to it, and none is "
            "recorded as exported in a URL store: the next crawl exports them. Give each "
            "crawl running at once a file of its own, e.g. "
            "-O \"articles-$(hostname)-%%(batch_time)s.jsonl\"",
            path,
            reason,
        )
        if self.stats is not None:
            self.stats.inc_value(REFUSED_STAT)
        if self.signals is not None:
            self.signals.send_catch_log(feed_storage_failed, storage=self, error=refusal)
        return True

    def sync(self) -> None:
        """Make every item exported so far durable (no-op once stored)."""
        if self.file is not None:
            self.file.sync()

    def store(self, file: LineBatchFile | DiscardedFile) -> None:  # type: ignore[override]
        file.close()  # writes the rest and fsyncs (a refused feed's: nothing)


class FlushedStdoutFeedStorage(StdoutFeedStorage):
    """Scrapy's stdout storage (``-o -``, ``stdout:``), whose ``store`` flushes what Python's
    stdout buffer still holds, and fsyncs it when stdout is a file (``-o - > articles.jsonl``).

    Scrapy's stores nothing: the last lines wait in the buffer until the process exits, while
    the URL store records their articles as exported and JOBDIR's seen requests are saved
    (both once the feed is stored); a ``kill -9`` in between would lose those articles for
    good. A failed flush (a full disk, a reader gone) fails the feed: nothing is recorded."""

    def store(self, file: Any) -> None:
        file.flush()
        try:
            fd = file.fileno()
        except io.UnsupportedOperation:  # (a stdout in memory, as a test runner's: no fd)
            return
        if _is_storage(os.fstat(fd).st_mode):  # (a pipe or a terminal: no fsync)
            os.fsync(fd)


class NewsFeedExporter(_ScrapyFeedExporter):
    """Scrapy's FeedExporter without the feeds whose storage refused its file
    (:meth:`DurableFileFeedStorage.refuses`): Scrapy would write this crawl's articles
    to nothing and then log "Stored … feed (N items)" of a file it never touched. A
    refused feed is dropped after the article that found it refused, and at the end one
    whose file is opened only then (an empty feed) is checked first."""

    def __init__(self, crawler: Crawler) -> None:
        if _scrapys_exporter_enabled(crawler):
            # both would write every feed: each article twice in an -o file or stdout, and
            # an -O file claimed by one refused by the other (nothing recorded as exported)
            logger.warning(
                "EXTENSIONS enables Scrapy's %s beside newsstem's NewsFeedExporter: newsstem's "
                "is off, so that each feed is written once (a refused -O file then logs Scrapy's "
                "'Stored' line); set \"scrapy.extensions.feedexport.FeedExporter\": None to "
                "keep newsstem's",
                "scrapy.extensions.feedexport.FeedExporter",
            )
            raise NotConfigured("Scrapy's FeedExporter is enabled too")
        super().__init__(crawler)
        self._refused_filters: list[Any] = []  # the item filters of the feeds dropped

    def item_scraped(self, item: Any, spider: Spider) -> None:
        taking = [slot for slot in self.slots if slot.filter.accepts(item)]
        super().item_scraped(item, spider)
        # (a slot whose batch ended with this article is closed already: its feed goes on
        # to the next batch's file; one still here is dropped with its feed)
        refused = [slot for slot in self.slots if _refused(slot.storage)]
        if refused:
            self._refused_filters.extend(slot.filter for slot in refused)
            self.slots = [slot for slot in self.slots if not _refused(slot.storage)]
        # in no file: a refused feed took it (or would have), and no other feed did
        if not any(not _refused(slot.storage) for slot in taking) and (
            any(_refused(slot.storage) for slot in taking)
            or any(f.accepts(item) for f in self._refused_filters)
        ):
            self.crawler.stats.inc_value(UNWRITTEN_STAT)

    def open_spider(self, spider: Spider) -> None:
        """Scrapy's, but a crawl resuming the queue a stopped crawl kept in its ``JOBDIR``
        appends to its ``-O`` JSON Lines files (:func:`appends_on_resume`): the same
        command, run again as the stopped crawl's summary says, emptied the file of the
        articles exported before the stop, which the URL store then never exported again.
        Its ``-O`` JSON, XML and CSV files, which cannot be appended to, are moved aside
        (:func:`keep_aside`) before they are written anew: emptied, they lost the stopped
        crawl's articles, which the resumed crawl does not fetch again (JOBDIR's seen
        requests), with a URL store or without one (where nothing warned of it)."""
        jobdir = self.crawler.settings.get("JOBDIR")
        for uri, options in list(self.feeds.items()):
            if appends_on_resume(self.crawler, uri, options):
                self.feeds[uri] = {**options, "overwrite": False}
                logger.info(
                    "Continuing the crawl kept in JOBDIR %s: appending to %s (-O) instead of "
                    "emptying it, so the articles the stopped crawl wrote there stay in it",
                    jobdir, uri,
                )
            elif resumes_queue(self.crawler) and empties_local_file(uri, options):
                kept = keep_aside(Path(local_feed_path(uri) or uri))
                if kept is not None:
                    logger.warning(
                        "Continuing the crawl kept in JOBDIR %s: %s (-O, %s) cannot be appended "
                        "to (a second JSON array, XML document or CSV header), so the articles "
                        "the stopped crawl wrote there are kept in %s, and this crawl writes "
                        "%s anew: the two files together hold the whole crawl",
                        jobdir, uri, options.get("format"), kept, uri,
                    )
        super().open_spider(spider)

    async def _close_slot(self, slot: Any, spider: Spider) -> None:
        """Scrapy's, but a refused slot is not stored: Scrapy closes a batch's slot
        (``batch_item_count``) in the call that exported its last article, before
        :meth:`item_scraped` can drop it, and logged "Stored" of a file never written."""
        if not _refused(slot.storage):
            await super()._close_slot(slot, spider)
            return
        if slot.itemcount:
            logger.info(
                "Not stored %s feed (%d items) in: %s: refused (another crawl's file, left "
                "alone); its articles are written to no file",
                slot.format, slot.itemcount, slot.uri, extra={"spider": spider},
            )

    async def close_spider(self, spider: Spider) -> None:
        for slot in self.slots:
            if (
                isinstance(slot.storage, DurableFileFeedStorage)
                and not slot.itemcount
                and slot.store_empty
                and slot.batch_id == 1
            ):
                slot.storage.refuses()  # Scrapy opens an empty feed's file now
        self.slots = [slot for slot in self.slots if not _refused(slot.storage)]
        await super().close_spider(spider)


def appends_on_resume(crawler: Crawler, uri: str, options: dict[str, Any]) -> bool:
    """Whether the ``-O`` feed ``uri`` is appended to rather than emptied: a local JSON
    Lines file of a crawl that resumes a queue kept in its ``JOBDIR`` (a crawl stopped
    by Ctrl-C, SIGTERM or a CLOSESPIDER limit; not a distributed worker, whose queue is
    the shared one). A JSON, XML or CSV file is not: a second array, document or header
    would be appended."""
    if str(options.get("format")) not in JSON_LINES or not empties_local_file(uri, options):
        return False
    return resumes_queue(crawler)


def resumes_queue(crawler: Crawler) -> bool:
    """Whether the crawl continues one kept in its ``JOBDIR``: it resumes the queue of a
    stopped crawl (requests in the scheduler as it opens), or starts again a crawl killed
    with ``kill -9`` whose JOBDIR was forgotten (:mod:`newsstem.dupefilter`), whose
    feed files hold its articles too. Not a distributed worker, whose queue is the shared one."""
    from newsstem.distributed.connection import is_distributed

    settings = crawler.settings
    if not settings.get("JOBDIR") or is_distributed(settings):
        return False
    dupefilter = getattr(getattr(crawler.engine, "scheduler", None), "df", None)
    if getattr(dupefilter, "restarts_killed_crawl", False):
        return True
    return (scheduled_requests(crawler) or 0) > 0


def keep_aside(path: Path) -> Path | None:
    """Move a non-empty file to the first free ``<stem>.<n><suffix>`` beside it
    (``articles.json`` -> ``articles.1.json``) and return that path; None (nothing moved)
    when there is no such file. The name keeps the suffix, so the file is still read as
    the format it is."""
    try:
        if not path.is_file() or path.stat().st_size == 0:
            return None
    except OSError:
        return None
    number = 1
    while True:
        aside = path.with_name(f"{path.stem}.{number}{path.suffix}")
        if not aside.exists():
            break
        number += 1
    try:  # (a link, not a rename: never replaces a file created meanwhile)
        os.link(path, aside)
    except FileExistsError:
        return keep_aside(path)
    except OSError:  # no hard links here (some network or FAT mounts)
        os.rename(path, aside)
        return aside
    os.unlink(path)
    return aside


def empties_local_file(uri: str, options: dict[str, Any]) -> bool:
    """Whether the feed ``uri`` is an ``-O`` file of this machine of a fixed name, which
    the crawl empties: not stdout, S3, FTP... (nothing to append to), nor a name with
    ``%(time)s`` parameters (a new file each run)."""
    path = local_feed_path(uri) if options.get("overwrite") else None
    return path is not None and URI_PARAMETER not in path


def _scrapys_exporter_enabled(crawler: Crawler) -> bool:
    """Whether the extensions (newsstem's ``EXTENSIONS_BASE`` and a user's ``EXTENSIONS``)
    enable Scrapy's own FeedExporter too: newsstem's base sets it to None, an
    ``EXTENSIONS`` of the user's may enable it again."""
    for component in build_component_list(crawler.settings.getwithbase("EXTENSIONS")):
        try:
            if load_object(component) is _ScrapyFeedExporter:
                return True
        except (ImportError, NameError, ValueError):  # (Scrapy says so when it loads it)
            continue
    return False


def _refused(storage: object) -> bool:
    return isinstance(storage, DurableFileFeedStorage) and storage.refused


def lock_exclusive(fd: int) -> bool:
    """Take an exclusive ``flock`` on ``fd`` without waiting: False if another open file
    holds one; True when taken, or when this system or filesystem has no such lock."""
    if fcntl is None:  # not a POSIX system
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    except OSError as error:
        if error.errno in (errno.ENOLCK, errno.EOPNOTSUPP, errno.ENOTSUP, errno.EINVAL):
            logger.debug("No flock on %d (%s): the file is written unlocked", fd, error)
            return True
        raise
    return True


def _is_storage(mode: int) -> bool:
    """Whether a file of this ``st_mode`` keeps what is written to it (a regular file, a
    block device), rather than passing it on or throwing it away."""
    return stat.S_ISREG(mode) or stat.S_ISBLK(mode)


def _is_pipe(mode: int) -> bool:
    """Whether a file of this ``st_mode`` passes what is written on to a reader."""
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


def _output_stat(uri: str, storage_cls: object) -> os.stat_result | None:
    """The ``stat`` of what a feed URI writes to when that is an existing local file or
    stdout; None otherwise (a new file, a URI with ``%(name)s`` parameters, a remote one)."""
    scheme = urlparse(uri).scheme
    try:
        if scheme == "stdout" or uri == "-":
            return os.fstat(sys.stdout.fileno())
        if isinstance(storage_cls, type) and issubclass(storage_cls, FileFeedStorage):
            path = file_uri_to_path(uri) if uri.startswith("file:") else uri
            return os.stat(path) if "%(" not in path else None
    except (OSError, ValueError, AttributeError):  # (a stdout without a file descriptor)
        return None
    return None


def fsync_directory(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def drop_cut_line(path: Path) -> int:
    """Remove a last line without its newline (left by a hard kill); return the bytes removed."""
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        return 0
    if size == 0:
        return 0
    with path.open("r+b") as file:
        file.seek(-1, os.SEEK_END)
        if file.read(1) == b"\n":
            return 0
        # Find the last newline, reading backwards in blocks.
        end = size
        block = 64 * 1024
        while end > 0:
            start = max(0, end - block)
            file.seek(start)
            found = file.read(end - start).rfind(b"\n")
            if found >= 0:
                keep = start + found + 1
                break
            end = start
        else:
            keep = 0
        file.truncate(keep)
        file.flush()
        os.fsync(file.fileno())
    logger.warning(
        "Removed %d bytes at the end of %s: a line cut short by a killed crawl "
        "(the item it held was not marked exported; it is exported again)",
        size - keep,
        path,
    )
    return size - keep


@dataclass(frozen=True)
class FeedPlan:
    """When the items of one feed may be marked exported."""

    uri: str
    syncable: bool  # True: after each sync; False: when the crawl has finished
    why: str
    # False: never (a character device: /dev/null, a terminal); its articles come again
    recorded: bool = True


def plan_feeds(exporter: _ScrapyFeedExporter) -> list[FeedPlan]:
    """A :class:`FeedPlan` for every feed configured in Scrapy's FeedExporter."""
    plans = []
    for uri, options in exporter.feeds.items():
        storage_cls = exporter.storages.get(urlparse(uri).scheme, exporter.storages.get("file"))
        fmt = options.get("format")
        found = _output_stat(uri, storage_cls)
        durable_cls = isinstance(storage_cls, type) and issubclass(
            storage_cls, DurableFileFeedStorage
        )
        if found is not None and stat.S_ISCHR(found.st_mode):
            why = "a character device such as /dev/null or a terminal keeps nothing"
            plans.append(FeedPlan(uri, False, why, recorded=False))
        elif durable_cls and found is not None and _is_pipe(found.st_mode):
            plans.append(FeedPlan(uri, False, "a pipe: complete only when closed"))
        elif not durable_cls:
            name = getattr(storage_cls, "__name__", str(storage_cls))
            plans.append(FeedPlan(uri, False, f"{name} is not a syncable local file"))
        elif options.get("postprocessing"):
            plans.append(FeedPlan(uri, False, "post-processed (compressed) output"))
        elif fmt not in LINE_FORMATS:
            plans.append(FeedPlan(uri, False, f"format {fmt!r} is only complete when closed"))
        else:
            plans.append(FeedPlan(uri, True, f"local {fmt} file, fsynced in batches"))
    return plans


def find_feed_exporter(crawler: Crawler) -> _ScrapyFeedExporter | None:
    """The crawl's FeedExporter extension, or None when no feed is configured."""
    for extension in crawler.extensions.middlewares:
        if isinstance(extension, _ScrapyFeedExporter):
            return extension
    return None
