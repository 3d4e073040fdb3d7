"""Crawl memory: how a long plain crawl's memory grows, page after page, and whose it is.

    python tests/benchmarks/crawl_memory.py                       # 20 hubs x 1000 articles
    python tests/benchmarks/crawl_memory.py --articles 200 --every 500
    python tests/benchmarks/crawl_memory.py --trace               # + tracemalloc, by line

One plain crawl (``distributed.py``'s ``plain``: ``scrapy crawl news -a start_url=...
-a depth=2``, URL store SQLite, ``-O out.jsonl``, AutoThrottle off, 16 requests at
once) of the generated site of tests/support/newssite.py on 127.0.0.1 (a home page,
``--sections`` hubs each listing ``--articles`` articles of 5 paragraphs). The
crawl process carries :class:`MemoryProbe` (an extension): every ``--every``
responses it writes a line with its RSS (``/proc/self/status``), the length and
size (``sys.getsizeof`` of the containers and what they hold) of newsstem's
structures that may grow with the pages (the anchor texts of the spider, the site
names of the metadata pipeline, the URL store middleware's caches and sets, the
duplicate pipeline's memory, the duplicate filter's depths, the stats) and Scrapy's
pending requests. With ``--trace`` the probe also runs tracemalloc (1 frame) and
prints the allocation lines that grew most between the probe after the hubs
(``--every`` pages in) and the last; tracemalloc slows the crawl and adds to its RSS,
so the RSS slope is read from a run without it.

Printed: the table of probes, the RSS slope (least squares, bytes a page, over the
probes from the second on) and each structure's growth in bytes a page over the same
span, extrapolated to a million pages. The work directory (``out.jsonl``, the log,
``probes.jsonl``) is kept: its path is printed; ``--keep-output FILE`` copies the
``-O`` file there (to compare the items of two checkouts minus ``fetched_at``);
``--again`` then crawls the site a second time with the same URL store, as a recurring
crawl does (the hubs fetched, the articles skipped), and shows what it holds at its end.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve()
REPO = HERE.parents[2]

SETTINGS = {
    "AUTOTHROTTLE_ENABLED": "False",
    "CONCURRENT_REQUESTS": "16",
    "CONCURRENT_REQUESTS_PER_DOMAIN": "16",
    "LOG_LEVEL": "INFO",
}


# -- in the crawl process ----------------------------------------------------------------


def deep_size(obj: Any, seen: set[int] | None = None) -> int:
    """``sys.getsizeof`` of ``obj`` and of what it holds (containers, and the
    ``__dict__``/``__slots__`` of :func:`_is_data` records), each object once."""
    seen = set() if seen is None else seen
    if id(obj) in seen:
        return 0
    seen.add(id(obj))
    size = sys.getsizeof(obj)
    if isinstance(obj, (str, bytes, int, float, bool, type(None))):
        return size
    if isinstance(obj, dict):
        return size + sum(deep_size(k, seen) + deep_size(v, seen) for k, v in obj.items())
    if isinstance(obj, (list, tuple, set, frozenset)):
        return size + sum(deep_size(item, seen) for item in obj)
    if not _is_data(obj):  # a component reached from a structure (a storage's signals)
        return size
    if hasattr(obj, "__dict__"):
        size += deep_size(vars(obj), seen)
    for slot in getattr(type(obj), "__slots__", ()):
        if hasattr(obj, slot):
            size += deep_size(getattr(obj, slot), seen)
    return size


def _is_data(obj: Any) -> bool:
    """A record newsstem keeps (SiteNames, SiteCounts, a dataclass), not a component."""
    module = type(obj).__module__
    return dataclasses.is_dataclass(obj) or module.startswith(("newsstem.metadata",
                                                                "newsstem.layout"))


def rss_bytes() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


class MemoryProbe:
    """Extension: every ``MEMPROBE_EVERY`` responses, a JSON line in ``MEMPROBE_FILE``."""

    def __init__(self, crawler: Any) -> None:
        self.crawler = crawler
        self.every = crawler.settings.getint("MEMPROBE_EVERY", 1000)
        self.path = Path(crawler.settings.get("MEMPROBE_FILE"))
        self.trace = crawler.settings.getbool("MEMPROBE_TRACE", False)
        self.responses = 0
        self.first_snapshot: Any = None

    @classmethod
    def from_crawler(cls, crawler: Any) -> MemoryProbe:
        from scrapy import signals

        probe = cls(crawler)
        crawler.signals.connect(probe.response_received, signal=signals.response_received)
        crawler.signals.connect(probe.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(probe.spider_closed, signal=signals.spider_closed)
        return probe

    def spider_opened(self, spider: Any) -> None:
        if self.trace:
            import tracemalloc

            tracemalloc.start(1)

    def response_received(self, response: Any, request: Any, spider: Any) -> None:
        self.responses += 1
        if self.responses % self.every == 0:
            self.probe()

    def spider_closed(self, spider: Any, reason: str) -> None:
        self.probe(last=True)

    def structures(self) -> dict[str, Any]:
        from tests.support.memoryprobe import CONTAINERS, component_containers

        crawler = self.crawler
        found: dict[str, Any] = {}
        anchors = getattr(crawler.spider, "anchors", None)
        if anchors is not None:
            for name, value in vars(anchors).items():
                if isinstance(value, CONTAINERS):
                    found[f"spider.anchors.{name}"] = value
        found.update((name, value) for name, value in component_containers(crawler)
                     if not name.startswith("ItemPipelineManager."))
        scheduler = crawler.engine._slot.scheduler
        depths = getattr(scheduler.df, "_depths", None)
        if depths is not None:
            found["DepthAwareDupeFilter._depths"] = depths
        found["stats"] = crawler.stats.get_stats()
        return found

    def probe(self, last: bool = False) -> None:
        import gc

        gc.collect()
        line: dict[str, Any] = {
            "responses": self.responses, "rss": rss_bytes(), "last": last,
            "pending": len(self.crawler.engine._slot.scheduler),
        }
        sizes = {}
        for name, value in self.structures().items():
            sizes[name] = [len(value), deep_size(value)]
        line["sizes"] = sizes
        if self.trace:
            import tracemalloc

            line["traced"] = tracemalloc.get_traced_memory()[0]
            snapshot = tracemalloc.take_snapshot()
            if self.first_snapshot is None:
                self.first_snapshot = snapshot
            elif last:
                growth = snapshot.compare_to(self.first_snapshot, "lineno")
                line["growth"] = [
                    [str(stat.traceback), stat.size_diff, stat.count_diff] for stat in growth[:40]
                ]
                files = snapshot.compare_to(self.first_snapshot, "filename")
                line["growth_by_file"] = [
                    [str(stat.traceback), stat.size_diff] for stat in files[:25]
                ]
        with self.path.open("a") as out:
            out.write(json.dumps(line) + "\n")


# -- the harness -------------------------------------------------------------------------


def slope(points: list[tuple[int, int]]) -> float:
    """Least-squares slope of (pages, bytes)."""
    n = len(points)
    if n < 2:
        return float("nan")
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    return sum((x - mx) * (y - my) for x, y in points) / sxx if sxx else float("nan")


def crawl(site_url: str, work: Path, every: int, trace: bool, name: str = "") -> list[dict]:
    probes = work / f"probes{name}.jsonl"
    cmd = [sys.executable, "-m", "scrapy", "crawl", "news", "-a", f"start_url={site_url}/",
           "-a", "depth=2", "-O", str(work / f"out{name}.jsonl")]
    settings = {
        **SETTINGS,
        "LOG_FILE": str(work / f"crawl{name}.log"),
        "NEWSSTEM_URLDB": f"sqlite:///{work / 'urldb.sqlite'}",
        "NEWSSTEM_STATS_FILE": str(work / f"stats{name}.json"),
        # (added to newsstem's EXTENSIONS_BASE)
        "EXTENSIONS": json.dumps({"crawl_memory.MemoryProbe": 900}),
        "MEMPROBE_FILE": str(probes),
        "MEMPROBE_EVERY": str(every),
        "MEMPROBE_TRACE": str(trace),
    }
    for key, value in settings.items():
        cmd += ["-s", f"{key}={value}"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), str(HERE.parent)])}
    subprocess.run(cmd, cwd=REPO, env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return [json.loads(line) for line in probes.read_text().splitlines()]


def report(probes: list[dict]) -> None:
    names = sorted({name for p in probes for name in p["sizes"]})
    print(f"{'pages':>7} {'RSS MiB':>8} {'pending':>8}  newsstem structures, KiB (length)")
    for p in probes:
        big = sorted(p["sizes"].items(), key=lambda kv: -kv[1][1])[:6]
        shown = ", ".join(f"{n.split('.')[-1]} {s / 1024:.0f} ({ln})" for n, (ln, s) in big)
        print(f"{p['responses']:>7} {p['rss'] / 2**20:>8.1f} {p['pending']:>8}  {shown}")
    span = [p for p in probes[1:] if not p["last"]] or probes[1:]
    rss = slope([(p["responses"], p["rss"]) for p in span])
    print(f"\nRSS slope from {span[0]['responses']} pages on: {rss:.0f} bytes a page "
          f"({rss * 1e6 / 2**20:.0f} MiB at 1M pages)")
    print(f"\n{'structure':<48} {'bytes/page':>10} {'MiB at 1M':>10} {'len at end':>11}")
    for name in names:
        points = [(p["responses"], p["sizes"][name][1]) for p in span if name in p["sizes"]]
        growth = slope(points)
        if not math.isnan(growth) and abs(growth) >= 1:
            print(f"{name:<48} {growth:>10.1f} {growth * 1e6 / 2**20:>10.1f} "
                  f"{probes[-1]['sizes'].get(name, [0])[0]:>11}")
    last = probes[-1]
    if "growth" in last:
        print(f"\ntracemalloc: traced {last['traced'] / 2**20:.1f} MiB at the end; grown since "
              f"{probes[0]['responses']} pages, by line:")
        for where, size, count in last["growth"][:30]:
            print(f"  {size / 1024:>9.0f} KiB {count:>8} blocks  {where}")
        print("by file:")
        for where, size in last["growth_by_file"][:20]:
            print(f"  {size / 1024:>9.0f} KiB  {where}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sections", type=int, default=20)
    parser.add_argument("--articles", type=int, default=1000, help="articles a hub")
    parser.add_argument("--every", type=int, default=1000, help="pages between probes")
    parser.add_argument("--trace", action="store_true", help="tracemalloc in the crawl")
    parser.add_argument("--keep-output", type=Path, help="copy the -O file here")
    parser.add_argument("--again", action="store_true",
                        help="then crawl the site again with the same URL store (a recurring "
                             "crawl: hubs fetched, articles skipped) and show its last probe")
    options = parser.parse_args()
    sys.path[:0] = [str(REPO), str(HERE.parents[1])]
    from support.newssite import GeneratedNewsSite

    work = Path(tempfile.mkdtemp(prefix="newsstem-memory-"))
    site = GeneratedNewsSite(sections=options.sections, articles_per_section=options.articles,
                             seed=7).start()
    try:
        probes = crawl(site.url, work, options.every, options.trace)
        again = crawl(site.url, work, options.every, False, "-again") if options.again else []
    finally:
        site.stop()
    pages = 1 + options.sections * (1 + options.articles)
    print(f"site: {pages} pages; work dir {work}")
    report(probes)
    if again:
        print(f"\nthe crawl again ({again[-1]['responses']} pages fetched): RSS "
              f"{again[-1]['rss'] / 2**20:.1f} MiB at its end; structures, KiB (length):")
        for name, (length, size) in sorted(again[-1]["sizes"].items(), key=lambda kv: -kv[1][1]):
            if size >= 1024:
                print(f"  {name:<46} {size / 1024:>9.0f} ({length})")
    if options.keep_output:
        shutil.copyfile(work / "out.jsonl", options.keep_output)


if __name__ == "__main__":
    main()
