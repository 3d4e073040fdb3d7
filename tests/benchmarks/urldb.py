"""URL store benchmark: store size and speed at scale, crawl overhead, kill -9 rounds.

    python tests/benchmarks/urldb.py                      # everything (10M entries take a while)
    python tests/benchmarks/urldb.py --sizes 1M --crawl-repeats 3 --kills 20
    python tests/benchmarks/urldb.py --only scale|crawl|crash

1. scale: for SQLite and Redis, fill a fresh store with N synthetic URL keys
   (default 1M and 10M), then print its size and the rates of inserts
   (mark_seen, batches of 10k), lookups (batches of 1000 and of 50: a page's
   links; half hits, half misses) and export marks.
   Bars: <= 1.5 GB at 10M entries on SQLite, >= 50k lookups/s.
2. crawl: crawl time of a 2021-page local site (2000 articles) without a store,
   with SQLite and with Redis, interleaved and repeated; the ratio of medians
   is the store's overhead (bar: <= 3 %). Each run with a store starts from an
   empty store, the costliest case (every URL new, every article marked).
3. crash: kill -9 a crawl at random moments (>= 20 times), rerun with a new
   output file each time; print lost articles (must be 0), duplicates, and
   whether the store passed integrity_check after every kill.

The machine is shared and noisy: compare within one run (ratios), repeat if a
figure looks off. Redis runs on a redis-server this script starts on a free
port of 127.0.0.1 and stops by PID.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve()
sys.path[:0] = [str(HERE.parents[2]), str(HERE.parents[1])]

from newsstem.urldb import open_store, url_key  # noqa: E402
from support.crawlprocess import start_crawl  # noqa: E402
from support.newssite import GeneratedNewsSite  # noqa: E402
from support.redisserver import RedisServer  # noqa: E402

INSERT_BATCH = 10_000
LOOKUPS = 200_000
T0 = 1_790_000_000


def synthetic_key(i: int) -> bytes:
    return hashlib.md5(b"https://news.example/%d.html" % i).digest()


def parse_size(text: str) -> int:
    text = text.strip().upper()
    factor = {"K": 1_000, "M": 1_000_000}.get(text[-1:], 1)
    return int(float(text.rstrip("KM")) * factor)


def human(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:.1f} {unit}"
        n /= 1024
    return str(n)


# -- 1. scale -------------------------------------------------------------------


def bench_scale(uri: str, size: int, label: str) -> dict:
    store = open_store(uri)
    start = time.perf_counter()
    step = max(INSERT_BATCH, size // 10)
    for first in range(0, size, INSERT_BATCH):
        store.mark_seen(
            [synthetic_key(i) for i in range(first, min(size, first + INSERT_BATCH))], T0
        )
        done = min(size, first + INSERT_BATCH)
        if done % step == 0 or done == size:
            rate = done / (time.perf_counter() - start)
            print(f"  {label}: {done:>11,} inserted ({rate:,.0f}/s)", flush=True)
    insert_rate = size / (time.perf_counter() - start)

    rng = random.Random(1)
    keys = [synthetic_key(rng.randrange(2 * size)) for _ in range(LOOKUPS)]  # half are misses
    rates = {}
    for batch in (1000, 50):
        start = time.perf_counter()
        hits = 0
        for i in range(0, len(keys), batch):
            hits += len(store.lookup(keys[i : i + batch]))
        rates[batch] = len(keys) / (time.perf_counter() - start)
    exported = [synthetic_key(rng.randrange(size)) for _ in range(100_000)]
    start = time.perf_counter()
    for i in range(0, len(exported), 1000):
        store.mark_exported(exported[i : i + 1000], T0 + 1)
    export_rate = len(exported) / (time.perf_counter() - start)

    start = time.perf_counter()
    stats = store.stats()
    stats_seconds = time.perf_counter() - start
    store.close()
    return {
        "entries": stats.entries,
        "size": stats.size_bytes,
        "insert/s": insert_rate,
        "lookup/s (1000)": rates[1000],
        "lookup/s (50)": rates[50],
        "export/s": export_rate,
        "hit share": hits / len(keys),
        "stats s": stats_seconds,
    }


def run_scale(sizes: list[int], backends: list[str], work: Path, redis: RedisServer | None) -> None:
    print("\n== store size and speed (synthetic URL keys)")
    start = time.perf_counter()
    for _ in range(100_000):
        url_key("https://www.example.com/news/2026/11/21/some-article-title.html?ref=home")
    print(f"url_key (canonicalize + md5): {100_000 / (time.perf_counter() - start):,.0f}/s")
    rows = []
    for size in sizes:
        for backend in backends:
            label = f"{backend} {size:,}"
            if backend == "sqlite":
                path = work / f"scale-{size}.sqlite"
                for suffix in ("", "-wal", "-shm", ".lock"):
                    Path(f"{path}{suffix}").unlink(missing_ok=True)
                uri = f"sqlite:///{path}"
            else:
                redis.client().flushall()
                uri = f"{redis.url}?prefix=bench"
            result = bench_scale(uri, size, label)
            if backend == "redis":
                result["server memory"] = redis.client().info("memory")["used_memory"]
                redis.client().flushall()
            else:
                for suffix in ("", "-wal", "-shm", ".lock"):
                    Path(f"{path}{suffix}").unlink(missing_ok=True)
            rows.append((label, result))
            print(
                f"  {label}: "
                + json.dumps(
                    {k: round(v, 2) if isinstance(v, float) else v for k, v in result.items()}
                ),
                flush=True,
            )
    print(
        f"\n{'store':<18} {'size':>10} {'B/entry':>8} {'insert/s':>10} {'lookup/s':>10} "
        f"{'lookup/s':>10} {'export/s':>10} {'stats':>7}"
    )
    print(
        f"{'':<18} {'':>10} {'':>8} {'(10k)':>10} {'(1000)':>10} {'(50)':>10} {'(1000)':>10} {'(s)':>7}"
    )
    for label, r in rows:
        size = r.get("server memory", r["size"]) if label.startswith("redis") else r["size"]
        print(
            f"{label:<18} {human(size):>10} {size / r['entries']:>8.1f} {r['insert/s']:>10,.0f} "
            f"{r['lookup/s (1000)']:>10,.0f} {r['lookup/s (50)']:>10,.0f} {r['export/s']:>10,.0f} "
            f"{r['stats s']:>7.1f}"
        )
    print("(Redis size: the server's used_memory, all of it the store's)")
    for label, r in rows:
        if label.startswith("sqlite") and r["entries"] >= 10_000_000:
            print(
                f"bar: {label}: {human(r['size'])} <= 1.5 GB: {'PASS' if r['size'] <= 1.5e9 else 'FAIL'}"
            )
    worst = min(r["lookup/s (1000)"] for _, r in rows)
    print(
        f"bar: slowest batched lookup rate {worst:,.0f}/s >= 50,000/s: {'PASS' if worst >= 50_000 else 'FAIL'}"
    )


# -- 2. crawl overhead -------------------------------------------------------------


def run_crawl_overhead(repeats: int, work: Path, redis: RedisServer | None) -> None:
    """Pairs of crawls of one site, with and without a store, started together.

    Run side by side, both crawls of a pair see the same load of this shared
    machine (sequential runs of the same crawl varied from 12 to 25 s here);
    the ratio of their crawl times is the store's overhead.
    """
    print("\n== crawl overhead (2021 pages: 1 home, 20 section hubs, 2000 articles)")
    site = GeneratedNewsSite(sections=20, articles_per_section=100, seed=5).start()
    stores = {"sqlite": lambda n: f"sqlite:///{work / f'crawl-{n}.sqlite'}"}
    if redis is not None:
        stores["redis"] = lambda n: f"{redis.url}?prefix=crawl-{n}"
    ratios: dict[str, list[float]] = {name: [] for name in stores}
    cpu_ratios: dict[str, list[float]] = {name: [] for name in stores}
    busy: dict[str, list[float]] = {name: [] for name in stores}
    settings = {
        "CONCURRENT_REQUESTS": "16",
        "CONCURRENT_REQUESTS_PER_DOMAIN": "16",
        "LOG_LEVEL": "INFO",
    }
    args = ("-a", f"start_url={site.url}/", "-a", "depth=2")
    last_sqlite = ""
    try:
        for round_ in range(repeats):
            for name, uri_of in stores.items():
                uri = uri_of(f"{round_}")
                pair = [("no store", ""), (name, uri)]
                if round_ % 2:
                    pair.reverse()  # neither side always starts first
                crawls = {
                    label: start_crawl(
                        work,
                        *args,
                        settings={**settings, "NEWSSTEM_URLDB": u},
                        name=f"overhead-{round_}-{name}-{label}",
                    )
                    for label, u in pair
                }
                stats, cpu = {}, {}
                for label, crawl in crawls.items():
                    code, cpu[label] = _wait_with_cpu(crawl)
                    stats[label] = crawl.stats()
                    items = stats[label].get("item_scraped_count", 0)
                    if code != 0 or items != 2000 or "ERROR" in crawl.log():
                        raise SystemExit(
                            f"crawl {label} failed ({code}, {items} items):\n{crawl.log()[-3000:]}"
                        )
                with_store, without = stats[name], stats["no store"]
                ratio = with_store["elapsed_time_seconds"] / without["elapsed_time_seconds"]
                cpu_ratio = cpu[name] / cpu["no store"]
                share = (
                    with_store.get("newsstem/urldb/busy_seconds", 0.0)
                    / with_store["elapsed_time_seconds"]
                )
                ratios[name].append(ratio)
                cpu_ratios[name].append(cpu_ratio)
                busy[name].append(share)
                if name == "sqlite":
                    last_sqlite = uri
                print(
                    f"  round {round_ + 1} {name:<7} {with_store['elapsed_time_seconds']:6.2f} s vs "
                    f"{without['elapsed_time_seconds']:6.2f} s without: ratio {ratio:.3f}; CPU ratio "
                    f"{cpu_ratio:.3f}; {100 * share:.2f} % of the crawl in the store",
                    flush=True,
                )
        # a second crawl of the unchanged site with the last SQLite store: only hubs are fetched
        crawl = start_crawl(
            work, *args, settings={**settings, "NEWSSTEM_URLDB": last_sqlite}, name="recurring"
        )
        crawl.wait(timeout=600)
        recurring = crawl.stats()
    finally:
        site.stop()
    print(
        f"\n{'store':<8} {'crawl time ratio':>17} {'CPU ratio':>10} {'in store':>9}   (medians of {repeats} pairs)"
    )
    for name in stores:
        print(
            f"{name:<8} {statistics.median(ratios[name]):>17.3f} {statistics.median(cpu_ratios[name]):>10.3f} "
            f"{100 * statistics.median(busy[name]):>8.2f} %"
        )
    print(
        "(CPU: user+sys of each crawl process (wait4), start-up included; 'in store': "
        "newsstem/urldb/busy_seconds / crawl time, the time spent inside the URL store middleware)"
    )
    for name in stores:
        ratio = statistics.median(ratios[name])
        print(
            f"bar: {name} crawl overhead {100 * (ratio - 1):+.1f} % <= 3 %: {'PASS' if ratio <= 1.03 else 'FAIL'}"
        )
    print(
        f"recurring crawl (SQLite, unchanged site): {recurring.get('elapsed_time_seconds', 0):.2f} s, "
        f"{recurring.get('response_received_count', 0)} responses, "
        f"{recurring.get('newsstem/urldb/skipped', 0)} skipped, "
        f"{recurring.get('item_scraped_count', 0)} exported"
    )


def _wait_with_cpu(crawl) -> tuple[int, float]:  # noqa: ANN001
    """Wait for a crawl process; its exit code and CPU seconds (user + sys) from wait4."""
    _, status, usage = os.wait4(crawl.process.pid, 0)
    crawl.process.returncode = os.waitstatus_to_exitcode(status)
    crawl.stderr = crawl.process.stderr.read()
    return crawl.process.returncode, usage.ru_utime + usage.ru_stime


# -- 3. crash rounds ------------------------------------------------------------------


def run_crash(kills: int, work: Path, backend: str, redis: RedisServer | None, seed: int) -> None:
    print(f"\n== kill -9 rounds ({backend}, seed {seed})")
    rng = random.Random(seed)
    sync_items = 10
    site = GeneratedNewsSite(sections=8, articles_per_section=40, delay=0.03, seed=seed).start()
    uri = (
        f"sqlite:///{work / f'crash-{seed}.sqlite'}"
        if backend == "sqlite"
        else f"{redis.url}?prefix=crash-{seed}"
    )
    settings = {
        "NEWSSTEM_URLDB": uri,
        "NEWSSTEM_URLDB_SYNC_ITEMS": str(sync_items),
        "NEWSSTEM_URLDB_SYNC_SECONDS": "0.5",
        "CONCURRENT_REQUESTS_PER_DOMAIN": "4",
    }
    args = ("-a", f"start_url={site.url}/", "-a", "depth=2")
    runs, done_kills, clean_opens = [], 0, 0
    try:
        while done_kills < kills:
            # once every article is exported a crawl ends within ~1 s: start a fresh site section
            if len(runs) and len(runs) % 8 == 0:
                for _ in range(40):
                    site.add_article(rng.randrange(8))
            hits = len(site.paths())
            crawl = start_crawl(
                work, *args, settings=settings, name=f"crash-{backend}-{seed}-{len(runs)}"
            )
            runs.append(crawl)
            while len(site.paths()) == hits and crawl.process.poll() is None:
                time.sleep(0.01)
            time.sleep(rng.uniform(0, 1.2))
            if crawl.process.poll() is None:
                crawl.kill()
                done_kills += 1
            else:
                crawl.wait()
            with open_store(uri) as store:
                store.stats()
                if backend != "sqlite" or store.integrity_check() == "ok":
                    clean_opens += 1
        final = start_crawl(work, *args, settings=settings, name=f"crash-{backend}-{seed}-final")
        final.wait(timeout=600)
        runs.append(final)
    finally:
        site.stop()
    outputs = [crawl.urls() for crawl in runs]
    exported = [url for urls in outputs for url in urls]
    lost = site.article_urls() - set(exported)
    strange = set(exported) - site.article_urls()
    if strange:
        print(f"exported but not articles of the site: {sorted(strange)[:10]}")
    again = [
        len(set(urls) & {u for later in outputs[i + 1 :] for u in later})
        for i, urls in enumerate(outputs)
    ]
    print(
        f"{done_kills} kills in {len(runs)} runs; {len(site.article_urls())} articles; "
        f"{len(exported)} lines; lost {len(lost)}; exported again {len(exported) - len(set(exported))} "
        f"(max per killed run {max(again)}, bound {sync_items}); store opened cleanly "
        f"{clean_opens}/{len(runs) - 1} times"
    )
    print(
        f"bar: no article lost: {'PASS' if not lost else 'FAIL'}; duplicates within the bound: "
        f"{'PASS' if max(again) <= sync_items else 'FAIL'}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1M,10M", help="store sizes (default 1M,10M)")
    parser.add_argument("--backends", default="sqlite,redis")
    parser.add_argument("--crawl-repeats", type=int, default=5)
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--only", choices=["scale", "crawl", "crash"], action="append")
    opts = parser.parse_args()
    parts = set(opts.only or ["scale", "crawl", "crash"])
    backends = opts.backends.split(",")
    with tempfile.TemporaryDirectory(prefix="urldb-bench-") as tmp:
        work = Path(tmp)
        redis = RedisServer(work).start() if "redis" in backends else None
        try:
            if "scale" in parts:
                run_scale([parse_size(s) for s in opts.sizes.split(",")], backends, work, redis)
            if "crawl" in parts:
                run_crawl_overhead(opts.crawl_repeats, work, redis)
            if "crash" in parts:
                seed = opts.seed if opts.seed is not None else random.randrange(1 << 30)
                for backend in backends:
                    run_crash(opts.kills, work, backend, redis, seed)
        finally:
            if redis is not None:
                redis.stop()


if __name__ == "__main__":
    main()
