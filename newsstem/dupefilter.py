"""A duplicate filter that lets a page be fetched again when found at a smaller depth.

Under a depth limit, breadth-first order (``DEPTH_PRIORITY=1`` with FIFO queues)
is only near-breadth-first when requests run concurrently: a page can be reached
first through a longer path, and Scrapy's duplicate filter then refuses the
shorter one, so the links of that page are followed at too large a depth and
pages within the limit are lost. This filter remembers the smallest depth at
which each request was scheduled and admits it once more when it is found at a
smaller depth that still lets its links be followed. The spider recognises such
a revisit (``meta["newsstem_revisit"]``) and only follows its links.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING

from scrapy.dupefilters import BaseDupeFilter
from scrapy.utils.job import job_dir

if TYPE_CHECKING:
    from scrapy import Request, Spider
    from scrapy.crawler import Crawler
    from scrapy.statscollectors import StatsCollector
    from scrapy.utils.request import RequestFingerprinterProtocol

logger = logging.getLogger(__name__)

REVISIT_META_KEY = "newsstem_revisit"
SEEN_FILE = "requests.depths"


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
        self._depths: dict[bytes, int] = {}
        self._file = None
        if path:
            seen = Path(path, SEEN_FILE)
            if seen.exists():
                self._load(seen)
            self._file = seen.open("a", encoding="ascii")

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> DepthAwareDupeFilter:
        return cls(
            crawler.request_fingerprinter,
            crawler.settings.getint("DEPTH_LIMIT"),
            job_dir(crawler.settings),
            crawler.stats,
        )

    def _load(self, seen: Path) -> None:
        with seen.open(encoding="ascii", errors="replace") as lines:
            for line in lines:
                fp_hex, _, depth = line.partition(" ")
                try:
                    fp, d = bytes.fromhex(fp_hex), int(depth)
                except ValueError:  # a line cut short by a hard kill: skip it
                    continue
                if d < self._depths.get(fp, d + 1):
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
        if self._file is not None:
            self._file.write(f"{fp.hex()} {depth}\n")
        return False

    def close(self, reason: str) -> None:
        if self._file is not None:
            self._file.close()

    def log(self, request: Request, spider: Spider) -> None:
        logger.debug("Filtered duplicate request: %(request)s", {"request": request})
