"""Distributed mode benchmark: throughput of 1, 2 and 4 workers, and of plain Scrapy scheduling.

    python tests/benchmarks/distributed.py                 # 3 rounds
    python tests/benchmarks/distributed.py --rounds 1 --workers 1 2

The site (tests/support/newssite.py) has 2021 pages: a home page, 20 section
hubs of 100 links, 2000 articles of 15 paragraphs (~1500 words each), served
by a threaded HTTP server in this process on 127.0.0.1. Every crawl is the
full site at depth 2 with the project's pipelines (readability extraction and
metadata), AutoThrottle off.

Each round runs, one after the other on the same site:

- ``plain``: one ``scrapy crawl news -a start_url=...`` process, Scrapy's own
  in-memory scheduler and newsstem's duplicate filter (URL store: SQLite);
- ``N workers``: N processes with ``NEWSSTEM_DISTRIBUTED`` on a fresh Redis
  database (URL store on the same Redis), started and ready before one start
  message is pushed to ``newsstem:news:start_urls``.

Throughput is pages fetched / (last fetch - first fetch) as the site saw them
(process start-up and the workers' idle timeout excluded). CPU is user+sys of
each crawl process (wait4), of redis-server (/proc) and of this process (the
site's server threads). The extraction cost per page is measured alone on the
site's own articles, to say how much of a worker's CPU it is.

Bar: 2 workers >= 1.6x one worker (this machine has 2 cores). The machine is
shared: figures are compared within a round (ratios) and the median of the
rounds is printed; repeat if a round looks off. redis-server is started on a
free port of 127.0.0.1 and stopped by PID.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve()
REPO = HERE.parents[2]
sys.path[:0] = [str(REPO), str(HERE.parents[1])]

import redis
from support.newssite import GeneratedNewsSite
from support.redisserver import RedisServer

SECTIONS, ARTICLES = 20, 100
# A long news article (~1500 words): extraction, not Scrapy's per-request work, is the cost.
PARAGRAPHS = 15
PAGES = 1 + SECTIONS + SECTIONS * ARTICLES
IDLE_SECONDS = 2
START_KEY = "newsstem:news:start_urls"
SETTINGS = {
    "AUTOTHROTTLE_ENABLED": "False",
    "CONCURRENT_REQUESTS": "16",
    "CONCURRENT_REQUESTS_PER_DOMAIN": "16",
    "LOG_LEVEL": "INFO",
}


@dataclass
class Run:
    label: str
    pages: int
    seconds: float  # first to last fetch
    crawl_cpu: float  # user+sys of the crawl processes while crawling (start-up excluded)
    redis_cpu: float
    site_cpu: float  # this process: the HTTP server threads
    articles: int
    per_worker: list[int]

    @property
    def rate(self) -> float:
        return self.pages / self.seconds

    @property
    def cores(self) -> float:
        """CPU the crawl processes got while crawling, in cores."""
        return self.crawl_cpu / self.seconds


def proc_cpu(pid: int) -> float:
    """user+sys seconds of a running process (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def self_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def crawl_command(work: Path, name: str, args: list[str], settings: dict) -> tuple[list[str], Path]:
    output = work / f"{name}.jsonl"
    cmd = [sys.executable, "-m", "scrapy", "crawl", "news", *args, "-O", str(output)]
    merged = {**SETTINGS, "LOG_FILE": str(work / f"{name}.log"),
              "NEWSSTEM_STATS_FILE": str(work / f"{name}.stats.json"), **settings}
    for key, value in merged.items():
        cmd += ["-s", f"{key}={value}"]
    return cmd, output


def start(cmd: list[str]) -> subprocess.Popen:
    return subprocess.Popen(cmd, cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)},
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def wait_all(processes: list[subprocess.Popen]) -> float:
    """Wait for the processes; their total CPU seconds (wait4). Exits on a failed crawl."""
    cpu = 0.0
    for process in processes:
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode != 0:
            raise SystemExit(f"a crawl failed with status {process.returncode}: {process.args}")
        cpu += usage.ru_utime + usage.ru_stime
    return cpu


def timed_site_hits(site: GeneratedNewsSite) -> tuple[int, float]:
    times = site.hit_times
    return len(times), max(times) - min(times)


def count_lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines()) if path.exists() else 0


def run_plain(site: GeneratedNewsSite, work: Path, name: str) -> Run:
    site.reset_hits()
    cmd, output = crawl_command(
        work, name, ["-a", f"start_url={site.url}/", "-a", "depth=2"],
        {"NEWSSTEM_URLDB": f"sqlite:///{work / (name + '.sqlite')}"},
    )
    site_before = self_cpu()
    process = start(cmd)
    while not site.hit_times:  # start-up: until the first request
        time.sleep(0.01)
    started = proc_cpu(process.pid)
    cpu = wait_all([process]) - started
    pages, seconds = timed_site_hits(site)
    articles = count_lines(output)
    return Run("plain", pages, seconds, cpu, 0.0, self_cpu() - site_before, articles, [articles])


def run_workers(site: GeneratedNewsSite, server: RedisServer, db: int, work: Path, name: str,
                workers: int) -> Run:
    url = f"redis://127.0.0.1:{server.port}/{db}"
    client = redis.Redis.from_url(url)
    client.flushdb()
    settings = {"NEWSSTEM_DISTRIBUTED": url, "NEWSSTEM_DISTRIBUTED_IDLE": str(IDLE_SECONDS)}
    commands = [crawl_command(work, f"{name}-{i}", [], settings) for i in range(workers)]
    processes = [start(cmd) for cmd, _ in commands]
    logs = [work / f"{name}-{i}.log" for i in range(workers)]
    deadline = time.monotonic() + 120
    while not all(p.exists() and "distributed worker on" in p.read_text() for p in logs):
        if time.monotonic() > deadline or any(p.poll() is not None for p in processes):
            raise SystemExit(f"workers did not start: see {work}")
        time.sleep(0.1)
    site.reset_hits()
    redis_before, site_before = proc_cpu(server.process.pid), self_cpu()
    started = sum(proc_cpu(p.pid) for p in processes)
    client.rpush(START_KEY, json.dumps({"start_url": site.url + "/", "depth": 2}))
    cpu = wait_all(processes) - started
    pages, seconds = timed_site_hits(site)
    per_worker = [count_lines(output) for _, output in commands]
    client.flushdb()
    client.close()
    return Run(f"{workers} worker{'s' if workers > 1 else ''}", pages, seconds, cpu,
               proc_cpu(server.process.pid) - redis_before, self_cpu() - site_before,
               sum(per_worker), per_worker)


# About a second of pure-Python work.
_SPIN = "n = 0\nfor _ in range(20_000_000):\n    n += 1\n"


def available_parallelism() -> float:
    """How much faster 2 CPU-bound processes finish the work of 1, at this moment (2.0 at best)."""

    def timed(n: int) -> float:
        started = time.monotonic()
        procs = [subprocess.Popen([sys.executable, "-c", _SPIN]) for _ in range(n)]
        for proc in procs:
            proc.wait()
        return time.monotonic() - started

    one = min(timed(1) for _ in range(3))  # the least disturbed of 3 tries
    two = min(timed(2) for _ in range(3))
    return 2 * one / two


def extraction_cost(site: GeneratedNewsSite, sample: int = 200) -> float:
    """CPU ms per article of the pipelines' work alone (readability + metadata)."""
    from newsstem.metadata import extract_metadata
    from newsstem.readability import extract

    pages = [site._article(s % SECTIONS, s // SECTIONS).decode() for s in range(sample)]
    started = time.process_time()
    for n, html in enumerate(pages):
        result = extract(html, url=f"{site.url}/{n}.html")
        extract_metadata(html, url=f"{site.url}/{n}.html", text=result.body)
    return 1000 * (time.process_time() - started) / sample


class TimedSite(GeneratedNewsSite):
    """The generated site, recording when each request came (for the fetch window).

    Pages are generated once and kept: generating an article per request cost
    this process ~4 ms, CPU the crawls would not get.
    """

    def __post_init__(self) -> None:
        super().__post_init__()
        self.hit_times: list[float] = []
        self._pages: dict[str, bytes | None] = {}

    def _resolve(self, path: str) -> bytes | None:
        with self._lock:
            self.hit_times.append(time.monotonic())
            page = self._pages.get(path)
        if page is None:
            page = super()._resolve(path)
            with self._lock:
                self._pages[path] = page
        return page

    def warm(self) -> None:
        """Generate every page before the first crawl, so no crawl pays for it."""
        for path in ["/", "/robots.txt", *self.hub_paths(), *sorted(self.article_paths())]:
            if path not in self._pages:
                self._pages[path] = GeneratedNewsSite._resolve(self, path)

    def reset_hits(self) -> None:
        with self._lock:
            self.hit_times.clear()
            self.hits.clear()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    options = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="newsstem-distributed-"))
    site = TimedSite(sections=SECTIONS, articles_per_section=ARTICLES, paragraphs=PARAGRAPHS,
                     seed=7).start()
    site.warm()
    server = RedisServer(work).start()
    print(f"site: {PAGES} pages ({SECTIONS * ARTICLES} articles); work dir {work}")
    print(f"extraction alone (readability + metadata): {extraction_cost(site):.2f} ms CPU/article")
    runs: dict[str, list[Run]] = {}
    try:
        for round_ in range(options.rounds):
            order = ["plain", *options.workers]
            if round_ % 2:
                order.reverse()  # neither end of the round always runs first
            results = {}
            parallelism = available_parallelism()
            for what in order:
                name = f"r{round_}-{what}"
                run = (run_plain(site, work, name) if what == "plain"
                       else run_workers(site, server, 1 + round_ % 15, work, name, what))
                if run.articles != SECTIONS * ARTICLES:
                    raise SystemExit(f"{run.label}: {run.articles} articles, not 2000 ({work})")
                results[run.label] = run
                runs.setdefault(run.label, []).append(run)
            one = results.get("1 worker")
            print(f"round {round_ + 1} (2 busy processes ran {parallelism:.2f}x one): " + "; ".join(
                f"{label} {run.rate:.0f} pages/s"
                + (f" ({run.rate / one.rate:.2f}x, {run.cores:.2f} cores)" if one else "")
                for label, run in results.items()), flush=True)
    finally:
        server.stop()
        site.stop()
    report(runs)


def report(runs: dict[str, list[Run]]) -> None:
    def median(label: str, value) -> float:
        return statistics.median(value(run) for run in runs[label])

    base = "1 worker" if "1 worker" in runs else None
    print(f"\n{'crawl':<10} {'pages/s':>8} {'x 1 worker':>11} {'s':>6} {'cores':>6} "
          f"{'CPU/page ms':>12} {'redis CPU s':>12} {'site CPU s':>11}  articles per process")
    for label in runs:
        rate = median(label, lambda r: r.rate)
        ratio = (statistics.median(r.rate / o.rate for r, o in zip(runs[label], runs[base]))
                 if base else float("nan"))
        last = runs[label][-1]
        print(f"{label:<10} {rate:>8.0f} {ratio:>11.2f} {median(label, lambda r: r.seconds):>6.1f} "
              f"{median(label, lambda r: r.cores):>6.2f} "
              f"{1000 * median(label, lambda r: r.crawl_cpu / r.pages):>12.2f} "
              f"{median(label, lambda r: r.redis_cpu):>12.1f} "
              f"{median(label, lambda r: r.site_cpu):>11.1f}  {last.per_worker}")
    print("(medians of the rounds; ratios are taken within each round; cores and CPU/page: "
          "user+sys of the crawl processes from the first request on, idle tail included)")
    if base and "2 workers" in runs:
        ratio = statistics.median(r.rate / o.rate for r, o in zip(runs["2 workers"], runs[base]))
        print(f"bar: 2 workers {ratio:.2f}x one worker >= 1.6x: {'PASS' if ratio >= 1.6 else 'FAIL'}")


if __name__ == "__main__":
    main()
