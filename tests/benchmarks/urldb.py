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
        store.mark_seen([synthetic_key(i) for i in range(first, min(size, first + INSERT_BATCH))], T0)
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
            hits += len(store.lookup(keys[i:i + batch]))
        rates[batch] = len(keys) / (time.perf_counter() - start)
    exported = [synthetic_key(rng.randrange(size)) for _ in range(100_000)]
    start = time.perf_counter()
    for i in range(0, len(exported), 1000):
        store.mark_exported(exported[i:i + 1000], T0 + 1)
    export_rate = len(exported) / (time.perf_counter() - start)

    start = time.perf_counter()
    stats = store.stats()
    stats_seconds = time.perf_counter() - start
    store.close()
    return {
        "entries": stats.entries, "size": stats.size_bytes, "insert/s": insert_rate,
        "lookup/s (1000)": rates[1000], "lookup/s (50)": rates[50], "export/s": export_rate,
        "hit share": hits / len(keys), "stats s": stats_seconds,
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
            print(f"  {label}: " + json.dumps({k: round(v, 2) if isinstance(v, float) else v
                                                for k, v in result.items()}), flush=True)
    print(f"\n{'store':<18} {'size':>10} {'B/entry':>8} {'insert/s':>10} {'lookup/s':>10} "
          f"{'lookup/s':>10} {'export/s':>10} {'stats':>7}")
    print(f"{'':<18} {'':>10} {'':>8} {'(10k)':>10} {'(1000)':>10} {'(50)':>10} {'(1000)':>10} {'(s)':>7}")
    for label, r in rows:
        size = r.get("server memory", r["size"]) if label.startswith("redis") else r["size"]
        print(f"{label:<18} {human(size):>10} {size / r['entries']:>8.1f} {r['insert/s']:>10,.0f} "
              f"{r['lookup/s (1000)']:>10,.0f} {r['lookup/s (50)']:>10,.0f} {r['export/s']:>10,.0f} "
              f"{r['stats s']:>7.1f}")
    print("(Redis size: the server's used_memory, all of it the store's)")
    for label, r in rows:
        if label.startswith("sqlite") and r["entries"] >= 10_000_000:
            print(f"bar: {label}: {human(r['size'])} <= 1.5 GB: {'PASS' if r['size'] <= 1.5e9 else 'FAIL'}")
    worst = min(r["lookup/s (1000)"] for _, r in rows)
    print(f"bar: slowest batched lookup rate {worst:,.0f}/s >= 50,000/s: {'PASS' if worst >= 50_000 else 'FAIL'}")


# -- 2. crawl overhead -------------------------------------------------------------


def run_crawl_overhead(repeats: int, work: Path, redis: RedisServer | None) -> None:
    print("\n== crawl overhead (2021 pages: 1 home, 20 section hubs, 2000 articles)")
    site = GeneratedNewsSite(sections=20, articles_per_section=100, seed=5).start()
    configs = {"no store": lambda n: ""}
    configs["sqlite"] = lambda n: f"sqlite:///{work / f'crawl-{n}.sqlite'}"
    if redis is not None:
        configs["redis"] = lambda n: f"{redis.url}?prefix=crawl-{n}"
    wall: dict[str, list[float]] = {name: [] for name in configs}
    cpu: dict[str, list[float]] = {name: [] for name in configs}
    busy: dict[str, list[float]] = {name: [] for name in configs}
    settings = {"CONCURRENT_REQUESTS": "16", "CONCURRENT_REQUESTS_PER_DOMAIN": "16", "LOG_LEVEL": "INFO"}
    args = ("-a", f"start_url={site.url}/", "-a", "depth=2")
    try:
        for round_ in range(repeats):
            order = list(configs)
            rng = random.Random(round_)
            rng.shuffle(order)  # interleaved, in a new order each round
            for name in order:
                uri = configs[name](f"{round_}-{name}")
                before = os.times()
                crawl = start_crawl(work, *args, settings={**settings, "NEWSSTEM_URLDB": uri},
                                    name=f"overhead-{round_}-{name}")
                code = crawl.wait(timeout=600)
                after = os.times()
                stats = crawl.stats()
                items = stats.get("item_scraped_count", 0)
                if code != 0 or items != 2000 or "ERROR" in crawl.log():
                    raise SystemExit(f"crawl {name} failed ({code}, {items} items):\n{crawl.log()[-3000:]}")
                elapsed = stats["elapsed_time_seconds"]
                wall[name].append(elapsed)
                cpu[name].append((after.children_user - before.children_user)
                                 + (after.children_system - before.children_system))
                busy[name].append(stats.get("newsstem/urldb/busy_seconds", 0.0) / elapsed)
                print(f"  round {round_ + 1} {name:<8} {elapsed:6.2f} s crawl, {cpu[name][-1]:6.2f} s CPU "
                      f"(process, incl. start-up), {100 * busy[name][-1]:.2f} % in the store", flush=True)
        # a second crawl of the unchanged site with the last SQLite store: only hubs are fetched
        crawl = start_crawl(work, *args, settings={**settings, "NEWSSTEM_URLDB": configs["sqlite"](
            f"{repeats - 1}-sqlite")}, name="recurring")
        crawl.wait(timeout=600)
        recurring = crawl.stats()
    finally:
        site.stop()
    base = {"wall": wall["no store"], "cpu": cpu["no store"]}
    print(f"\n{'config':<10} {'crawl s':>16} {'ratio':>13} {'CPU s':>16} {'ratio':>13} {'in store':>9}")
    print(f"{'':<10} {'min / median':>16} {'min / median':>13} {'min / median':>16} {'min / median':>13} "
          f"{'median':>9}")
    for name in configs:
        row = [name]
        for values, reference in ((wall[name], base["wall"]), (cpu[name], base["cpu"])):
            lo, mid = min(values), statistics.median(values)
            row += [f"{lo:.2f} / {mid:.2f}", f"{lo / min(reference):.3f} / {mid / statistics.median(reference):.3f}"]
        row.append(f"{100 * statistics.median(busy[name]):.2f} %")
        print(f"{row[0]:<10} {row[1]:>16} {row[2]:>13} {row[3]:>16} {row[4]:>13} {row[5]:>9}")
    print("(min: the least disturbed run of each config; the machine is shared. 'in store': the time "
          "the crawl spent inside the URL store middleware, newsstem/urldb/busy_seconds / elapsed)")
    for name in configs:
        if name == "no store":
            continue
        wall_ratio = min(wall[name]) / min(base["wall"])
        share = statistics.median(busy[name])
        print(f"bar: {name} overhead <= 3 %: time in the store {100 * share:.2f} % "
              f"{'PASS' if share <= 0.03 else 'FAIL'}; min-wall ratio {100 * (wall_ratio - 1):+.1f} % "
              f"{'PASS' if wall_ratio <= 1.03 else 'FAIL (noise? see the spread above)'}")
    print(f"recurring crawl (SQLite, unchanged site): {recurring.get('elapsed_time_seconds', 0):.2f} s, "
          f"{recurring.get('response_received_count', 0)} responses, "
          f"{recurring.get('newsstem/urldb/skipped', 0)} skipped, "
          f"{recurring.get('item_scraped_count', 0)} exported")


# -- 3. crash rounds ------------------------------------------------------------------


def run_crash(kills: int, work: Path, backend: str, redis: RedisServer | None, seed: int) -> None:
    print(f"\n== kill -9 rounds ({backend}, seed {seed})")
    rng = random.Random(seed)
    sync_items = 10
    site = GeneratedNewsSite(sections=8, articles_per_section=40, delay=0.03, seed=seed).start()
    uri = (f"sqlite:///{work / f'crash-{seed}.sqlite'}" if backend == "sqlite"
           else f"{redis.url}?prefix=crash-{seed}")
    settings = {"NEWSSTEM_URLDB": uri, "NEWSSTEM_URLDB_SYNC_ITEMS": str(sync_items),
                "NEWSSTEM_URLDB_SYNC_SECONDS": "0.5", "CONCURRENT_REQUESTS_PER_DOMAIN": "4"}
    args = ("-a", f"start_url={site.url}/", "-a", "depth=2")
    runs, done_kills, clean_opens = [], 0, 0
    try:
        while done_kills < kills:
            # once every article is exported a crawl ends within ~1 s: start a fresh site section
            if len(runs) and len(runs) % 8 == 0:
                for _ in range(40):
                    site.add_article(rng.randrange(8))
            hits = len(site.paths())
            crawl = start_crawl(work, *args, settings=settings, name=f"crash-{backend}-{seed}-{len(runs)}")
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
    again = [len(set(urls) & {u for later in outputs[i + 1:] for u in later}) for i, urls in enumerate(outputs)]
    print(f"{done_kills} kills in {len(runs)} runs; {len(site.article_urls())} articles; "
          f"{len(exported)} lines; lost {len(lost)}; exported again {len(exported) - len(set(exported))} "
          f"(max per killed run {max(again)}, bound {sync_items}); store opened cleanly "
          f"{clean_opens}/{len(runs) - 1} times")
    print(f"bar: no article lost: {'PASS' if not lost else 'FAIL'}; duplicates within the bound: "
          f"{'PASS' if max(again) <= sync_items else 'FAIL'}")


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
