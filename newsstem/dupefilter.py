"""A duplicate filter that lets a page be fetched again when found at a smaller depth.

Under a depth limit, breadth-first order (``DEPTH_PRIORITY=1`` with FIFO queues)
is only near-breadth-first when requests run concurrently: a page can be reached
first through a longer path, and Scrapy's duplicate filter then refuses the
shorter one, so the links of that page are followed at too large a depth and
pages within the limit are lost. This filter remembers the smallest depth at
which each request was scheduled and admits it once more when it is found at a
smaller depth that still lets its links be followed. The spider recognises such
a revisit (``meta["newsstem_revisit"]``) and only follows its links.

With ``JOBDIR`` the fingerprints are written to ``requests.depths`` when the crawl
stops cleanly (finished, Ctrl-C, SIGTERM, a CLOSESPIDER limit), after the crawl's
durable feed files are synced (with a feed that is not a local file, once the feed exporter
has stored it, and not if a feed failed to be stored), never while it runs. Scrapy keeps the JOBDIR queue only
at such a stop too, and the feed exporter's last lines are in memory until a sync: a
fingerprint written as it was scheduled (as Scrapy's own filter does) survived a
``kill -9`` that lost both its queued request and the article of its page in the feed's
buffer, and the resumed crawl never fetched the page again. A JOBDIR whose last crawl
did not stop cleanly (``crawl.running`` left in it) is forgotten as the next crawl opens
it (:func:`_forget_an_unclean_jobdir`), as is one an older newsstem left after a kill
(:func:`_killed_under_an_older_newsstem`): that crawl starts again from the start pages;
pages are fetched again (an ``-o`` file may hold some articles twice), none is lost.
"""

from __future__ import annotations

import logging
import os
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scrapy.dupefilters import BaseDupeFilter
from scrapy.utils.job import job_dir

from newsstem.keyset import DepthBook

if TYPE_CHECKING:
    from scrapy import Request, Spider
    from scrapy.crawler import Crawler
    from scrapy.statscollectors import StatsCollector
    from scrapy.utils.request import RequestFingerprinterProtocol

logger = logging.getLogger(__name__)

REVISIT_META_KEY = "newsstem_revisit"
SEEN_FILE = "requests.depths"
#: in a JOBDIR while a crawl runs on it: found when a crawl opens it, the last one did not
#: stop cleanly (kill -9, a crash, a power cut)
RUNNING_FILE = "crawl.running"
#: first line of a requests.depths written at a clean stop (skipped as a fingerprint line,
#: by older versions too): a file without it was written by an older newsstem as requests
#: were scheduled, with no crawl.running to tell a killed crawl's
CLEAN_HEADER = "# newsstem: written at a clean stop\n"


class DepthAwareDupeFilter(BaseDupeFilter):
    """``DUPEFILTER_CLASS`` keyed on request fingerprints, remembering the smallest depth.

    With ``JOBDIR`` the fingerprints and depths persist in ``requests.depths``
    (one ``<hex fingerprint> <depth>`` line each), so a resumed crawl keeps them.
    """

    def __init__(
        self,
        fingerprinter: RequestFingerprinterProtocol,
        depth_limit: int,
        path: str | None = None,
        stats: StatsCollector | None = None,
    ) -> None:
        self.fingerprinter = fingerprinter
        self.depth_limit = depth_limit
        self.stats = stats
        # every request let through: ~25 bytes each, not a dict's ~80 (stop 50's crawl memory)
        self._depths = DepthBook()
        self._seen: Path | None = None
        self.crawler: Crawler | None = None
        #: the JOBDIR was left by a crawl that did not stop cleanly, and was forgotten: this
        #: crawl starts that one again (its -O files are kept: newsstem.urldb.feeds)
        self.restarts_killed_crawl = False
        self._marker: _RunningMarker | None = None
        if path:
            self._seen = Path(path, SEEN_FILE)
            self.restarts_killed_crawl, self._marker = _forget_an_unclean_jobdir(Path(path))
            if self._seen.exists():
                self._load(self._seen)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> DepthAwareDupeFilter:
        dupefilter = cls(
            crawler.request_fingerprinter,
            crawler.settings.getint("DEPTH_LIMIT"),
            job_dir(crawler.settings),
            crawler.stats,
        )
        dupefilter.crawler = crawler
        return dupefilter

    def _load(self, seen: Path) -> None:
        with seen.open(encoding="ascii", errors="replace") as lines:
            for line in lines:
                fp_hex, _, depth = line.partition(" ")
                try:
                    fp, d = bytes.fromhex(fp_hex), int(depth)
                except ValueError:  # a line cut short by a hard kill: skip it
                    continue
                previous = self._depths.get(fp)
                if previous is None or d < previous:
                    self._depths[fp] = d

    def request_seen(self, request: Request) -> bool:
        fp = self.fingerprinter.fingerprint(request)
        depth = request.meta.get("depth", 0)
        previous = self._depths.get(fp)
        if previous is not None:
            # Found again closer to the start: worth a second fetch only if its
            # links can now reach pages the first visit's depth could not.
            if not (self.depth_limit > 0 and depth < previous and depth < self.depth_limit):
                return True
            request.meta[REVISIT_META_KEY] = True
            if self.stats is not None:
                self.stats.inc_value("newsstem/depth/revisited")
        self._depths[fp] = depth
        return False

    def close(self, reason: str) -> None:
        """A clean stop: sync the feeds, then write every fingerprint (a new file, fsynced
        and renamed over the old one, so a kill meanwhile leaves the old one whole).

        Scrapy closes this filter (with its scheduler) before ``spider_closed``, where the
        feed exporter stores its feeds: a feed that is not a local file (stdout, ``s3://``,
        ``ftp://``...) is uploaded or flushed only then, so with such a feed the
        fingerprints are written once the feed exporter has closed, and not at all if a
        feed failed to be stored (``feedexport/failed_count/*``): ``crawl.running`` stays,
        and the next run starts again from the start pages."""
        if self._seen is None:
            return
        if self._feeds_stored_later():
            from scrapy.signals import feed_exporter_closed

            assert self.crawler is not None
            self.crawler.signals.connect(self._save, signal=feed_exporter_closed)
            return
        self._save()

    def _feeds_stored_later(self) -> bool:
        """Whether a feed of the crawl is not a durable local file, written only as the
        feed exporter closes on ``spider_closed``."""
        from newsstem.urldb.feeds import DurableFileFeedStorage

        return any(not isinstance(slot.storage, DurableFileFeedStorage)
                   for slot in self._feed_slots())

    def _feed_slots(self) -> list[Any]:
        """The feed exporter's slots (none without a crawler or a feed exporter)."""
        if self.crawler is None or self.crawler.extensions is None:
            return []
        from newsstem.urldb.feeds import find_feed_exporter

        return list(getattr(find_feed_exporter(self.crawler), "slots", ()))

    def _save(self) -> None:
        assert self._seen is not None
        failed = {key: value for key, value in (self.stats.get_stats() if self.stats else {}).items()
                  if key.startswith("feedexport/failed_count/") and value}
        if failed:
            logger.error(
                "JOBDIR's seen requests not saved: a feed could not be stored (%s); the "
                "next run with this JOBDIR starts again from the start pages", failed
            )
            return
        try:
            self._sync_feeds()
        except OSError as error:
            logger.error(
                "JOBDIR's seen requests not saved: a feed file could not be synced (%s); "
                "the next run with this JOBDIR fetches the pages of this one again", error
            )
            return
        partial = self._seen.with_name(SEEN_FILE + ".new")
        with partial.open("w", encoding="ascii") as file:
            file.write(CLEAN_HEADER)
            file.writelines(f"{fp.hex()} {depth}\n" for fp, depth in self._depths.items())
            file.flush()
            os.fsync(file.fileno())
        os.replace(partial, self._seen)
        from newsstem.urldb.feeds import fsync_directory

        fsync_directory(self._seen.parent)
        # (Scrapy's scheduler saved its queue before closing this filter: the JOBDIR is whole)
        Path(self._seen.parent, RUNNING_FILE).unlink(missing_ok=True)
        if self._marker is not None:
            self._marker.close()

    def _sync_feeds(self) -> None:
        """Make every line the feed exporter wrote to a durable local file durable, so no
        fingerprint is on disk before the article of its page (a JSON or XML file is
        whole only when Scrapy closes it, just after)."""
        from newsstem.urldb.feeds import DurableFileFeedStorage

        for slot in self._feed_slots():
            storage = slot.storage
            if isinstance(storage, DurableFileFeedStorage) and storage.file is not None:
                storage.file.sync()

    def log(self, request: Request, spider: Spider) -> None:
        logger.debug("Filtered duplicate request: %(request)s", {"request": request})


def _forget_an_unclean_jobdir(jobdir: Path) -> tuple[bool, _RunningMarker]:
    """Mark ``jobdir`` as in use; if the crawl before did not stop cleanly, first forget
    its queue and seen requests, so that this crawl starts again from the start pages.

    Scrapy saves the state of its disk queue (``requests.queue``) only at a clean stop:
    after a ``kill -9`` the queue files hold requests its saved state does not count,
    and reading them again returned stale requests in place of new ones (pages never
    fetched); and the seen requests would hold pages whose request was lost with the
    queue, or whose article with the feed's buffer. Nothing of that JOBDIR can be
    trusted, so the crawl fetches everything again: no article is lost, some are
    exported again (an ``-o`` file holds them twice; an ``-O`` JSON Lines file is appended
    to, as by a resumed crawl). Return whether it was forgotten, and the marker, locked
    until the crawl stops (:class:`JobdirInUse` if another crawl holds it).
    """
    running = jobdir / RUNNING_FILE
    unclean = running.exists() or _killed_under_an_older_newsstem(jobdir)
    jobdir.mkdir(parents=True, exist_ok=True)
    marker = _RunningMarker(running)  # raises JobdirInUse while another crawl runs on it
    if unclean:
        logger.warning(
            "JOBDIR %s was left by a crawl that did not stop cleanly (kill -9, a crash, a "
            "power cut, a second Ctrl-C or SIGTERM): its queue and seen requests cannot be trusted; this crawl starts "
            "again from the start pages", jobdir,
        )
        shutil.rmtree(jobdir / "requests.queue", ignore_errors=True)
        (jobdir / SEEN_FILE).unlink(missing_ok=True)
    marker.write_pid()
    from newsstem.urldb.feeds import fsync_directory

    fsync_directory(jobdir)
    return unclean, marker


def _killed_under_an_older_newsstem(jobdir: Path) -> bool:
    """Whether ``requests.depths`` was written by an older newsstem (no
    :data:`CLEAN_HEADER`) and its crawl did not stop cleanly: that version appended to it
    as requests were scheduled, and Scrapy writes ``spider.state`` at a clean stop only,
    after the file was closed; a file changed since (or no ``spider.state``) is a killed
    crawl's, holding pages whose article or request the kill lost."""
    seen = jobdir / SEEN_FILE
    try:
        with seen.open(encoding="ascii", errors="replace") as file:
            if file.readline() == CLEAN_HEADER:
                return False
        written = seen.stat().st_mtime_ns
    except FileNotFoundError:
        return False
    try:
        return (jobdir / "spider.state").stat().st_mtime_ns < written
    except FileNotFoundError:
        return True


class JobdirInUse(RuntimeError):
    """Another crawl runs on this JOBDIR now (it holds the lock of its ``crawl.running``)."""


def jobdir_in_use(jobdir: str | Path) -> str | None:
    """Why ``jobdir`` cannot be used now (another crawl runs on it), or None: the crawl
    command's check before the crawl starts, so the refusal is one line, not a traceback."""
    running = Path(jobdir, RUNNING_FILE)
    if not running.exists():
        return None
    try:
        _RunningMarker(running).close()
    except JobdirInUse as error:
        return str(error)
    return None


class _RunningMarker:
    """``crawl.running``, open and ``flock``-ed while the crawl runs: a second crawl on the
    same JOBDIR (two scrapyd jobs of a project whose settings give one JOBDIR) would have
    taken the running crawl's marker for a killed crawl's and deleted its queue and seen
    requests under it. The lock goes with the process, so a killed crawl's does not stay;
    a child forked without exec closes its copy (it would hold the lock after the crawl)."""

    def __init__(self, path: Path) -> None:
        from newsstem.urldb.feeds import lock_exclusive
        from newsstem.urldb.locking import FORK_LOCK, close_in_forked_child

        self.closed = False
        with FORK_LOCK:
            self._fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
            if not lock_exclusive(self._fd):
                os.close(self._fd)
                self.closed = True
                owner = path.read_text(encoding="ascii", errors="replace").strip() or "?"
                raise JobdirInUse(
                    f"JOBDIR {path.parent} is in use by another crawl (process {owner}): "
                    "give each crawl its own JOBDIR (a scrapyd job: -d setting=JOBDIR=...)"
                )
            close_in_forked_child(self)

    def write_pid(self) -> None:
        os.ftruncate(self._fd, 0)
        os.pwrite(self._fd, f"{os.getpid()}\n".encode("ascii"), 0)
        os.fsync(self._fd)

    def _close_after_fork(self) -> None:
        if not self.closed:
            self.closed = True
            os.close(self._fd)

    def close(self) -> None:
        from newsstem.urldb.locking import FORK_LOCK

        with FORK_LOCK:
            self._close_after_fork()
