"""Scrapy extensions of newsstem."""

from __future__ import annotations

import json
import logging
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from scrapy import Spider, signals
from scrapy.exceptions import NotConfigured
from tldextract import TLDExtract

from newsstem import defaults

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.statscollectors import StatsCollector

logger = logging.getLogger(__name__)


def offline_tldextract(*, include_psl_private_domains: bool = False) -> TLDExtract:
    """A TLDExtract that uses only the Public Suffix List bundled with tldextract.

    The default instance downloads the list on first use (and logs tracebacks
    when offline); crawls must not depend on that.
    """
    return TLDExtract(
        suffix_list_urls=(),
        cache_dir=None,
        include_psl_private_domains=include_psl_private_domains,
    )


class OfflineTldExtract:
    """Keep Scrapy's cookie middleware from fetching the Public Suffix List.

    Scrapy >= 2.19 checks cookie domains with a module-level ``TLDExtract`` that
    goes to the network on its first call. This extension swaps it, once, for
    an instance bound to the bundled snapshot. If a Scrapy release renames the
    attribute, it logs a warning and changes nothing.
    """

    def __init__(self) -> None:
        from scrapy.downloadermiddlewares import cookies

        if isinstance(getattr(cookies, "_split_domain", None), TLDExtract):
            cookies._split_domain = offline_tldextract(include_psl_private_domains=True)
        else:
            logger.warning(
                "newsstem: scrapy.downloadermiddlewares.cookies._split_domain not found; "
                "cookie domain checks may download the Public Suffix List"
            )

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> OfflineTldExtract:
        return cls()


class StatsFile:
    """Write the crawl's stats as JSON to ``NEWSSTEM_STATS_FILE`` when the crawl ends.

    Written when the engine stops, not at ``spider_closed``: other components
    still count during ``spider_closed`` (feeds being stored, the URL store's
    last export marks).
    """

    def __init__(self, path: str, stats: StatsCollector) -> None:
        self.path = Path(path)
        self.stats = stats
        self.reason: str | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> StatsFile:
        path = crawler.settings.get("NEWSSTEM_STATS_FILE", defaults.NEWSSTEM_STATS_FILE)
        if not path:
            raise NotConfigured
        extension = cls(path, crawler.stats)
        crawler.signals.connect(extension.spider_closed, signal=signals.spider_closed)
        crawler.signals.connect(extension.engine_stopped, signal=signals.engine_stopped)
        return extension

    def spider_closed(self, spider: Spider, reason: str) -> None:
        self.reason = reason

    def engine_stopped(self) -> None:
        stats = {**self.stats.get_stats(), "finish_reason": self.reason}
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_text(json.dumps(stats, default=_json_default, indent=1, sort_keys=True))
        tmp.replace(self.path)


def _json_default(value: object) -> str:
    if isinstance(value, datetime):
        return value.isoformat()
    return str(value)
