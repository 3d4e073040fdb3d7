"""An extension for crawl tests: the lengths of newsstem's per-page structures at the end.

:func:`probe_settings` (``tests.support.memoryprobe.StructureLengths`` among the
extensions, found from the repository's root, and ``MEMORYPROBE_FILE``): when the spider
closes, PATH gets a JSON object of how many entries each structure holds (the
spider's anchor texts waiting for their page and the pages it fetched, the pipelines'
and the URL store's memories, the duplicate filter's depths; ``NAME bytes``: the
memory of each set of keys and of the depths), for tests
that a structure does not keep something for every page, or keeps it compact.
tests/benchmarks/crawl_memory.py measures their sizes in bytes on a long crawl.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from scrapy import signals

from newsstem.keyset import KeySet

CONTAINERS = (dict, set, list, KeySet)


class StructureLengths:
    def __init__(self, crawler: Any) -> None:
        self.crawler = crawler
        self.path = Path(crawler.settings.get("MEMORYPROBE_FILE"))

    @classmethod
    def from_crawler(cls, crawler: Any) -> StructureLengths:
        probe = cls(crawler)
        crawler.signals.connect(probe.spider_closed, signal=signals.spider_closed)
        return probe

    def spider_closed(self, spider: Any, reason: str) -> None:
        lengths: dict[str, int] = {"spider.anchors": len(spider.anchors)}
        containers = dict(component_containers(self.crawler))
        containers["spider.anchors._fetched"] = spider.anchors._fetched
        lengths.update((name, len(value)) for name, value in containers.items())
        # and "NAME bytes" of the sets of keys (a set and its keys, or a KeySet)
        lengths.update((f"{name} bytes", key_set_bytes(value))
                       for name, value in containers.items() if isinstance(value, (set, KeySet)))
        # and the duplicate filter's depths (a dict of fingerprint → depth, or a DepthBook)
        depths = getattr(self.crawler.engine._slot.scheduler.df, "_depths", None)
        if depths is not None:
            name = "DepthAwareDupeFilter._depths"
            lengths[name] = len(depths)
            lengths[f"{name} bytes"] = sys.getsizeof(depths) + (
                sum(sys.getsizeof(key) for key in depths) if isinstance(depths, dict) else 0)
        self.path.write_text(json.dumps(lengths))


def key_set_bytes(keys: set[bytes] | KeySet) -> int:
    """The memory of a set of keys: the set and its keys (a KeySet counts its own)."""
    if isinstance(keys, KeySet):
        return sys.getsizeof(keys)
    return sys.getsizeof(keys) + sum(sys.getsizeof(key) for key in keys)


def component_containers(crawler: Any) -> Iterator[tuple[str, dict | set | list | KeySet]]:
    """The dicts, sets, lists and key sets the item pipelines and spider middlewares of a
    running crawl hold, named ``Component.attribute``."""
    scraper = crawler.engine.scraper
    for component in [*scraper.itemproc.middlewares, *scraper.spidermw.middlewares]:
        owner = type(component).__name__
        for name, value in vars(component).items():
            if isinstance(value, CONTAINERS):
                yield f"{owner}.{name}", value


def probe_settings(path: Path) -> dict[str, str]:
    """The settings of a crawl carrying the probe (EXTENSIONS is added to newsstem's
    EXTENSIONS_BASE: the probe alone)."""
    extensions = {"tests.support.memoryprobe.StructureLengths": 900}
    return {"EXTENSIONS": json.dumps(extensions), "MEMORYPROBE_FILE": str(path)}
