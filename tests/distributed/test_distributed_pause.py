"""The crawl's Redis not answering mid-crawl (a network partition): a real redis-server on a
free port paused with SIGSTOP and resumed with SIGCONT (by PID), a real HTTP site, two real
workers.

A paused server accepts connections and never replies. scrapy-redis's client waited 30 s
for a reply and then tried again: the scheduler's first call froze its worker (its reactor:
no download, no export, no log line) until Redis answered or a minute had passed, and each
try after the backoff's wait froze it again. The freeze is seen in the log: Scrapy's stats
line comes every second (LOGSTATS_INTERVAL=1) unless the reactor is blocked.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from datetime import datetime

from support.distributed import start_worker, wait_ready

START_KEY = "newsstem:news:start_urls"
PAUSE_SECONDS = 15.0
# the URL store (same Redis) gives up on its first call after this long (ops37's backoff)
STORE_SOCKET_TIMEOUT = 2


def longest_silence(log: str) -> float:
    """The longest time between two log lines (whole seconds, as the log writes them)."""
    stamps = []
    for line in log.splitlines():
        try:
            stamps.append(datetime.strptime(line[:19], "%Y-%m-%d %H:%M:%S"))
        except ValueError:
            continue
    return max((b - a).total_seconds() for a, b in zip(stamps, stamps[1:]))


def test_a_paused_redis_costs_a_worker_seconds_not_a_socket_timeout(
    tmp_path, own_redis, news_site
):
    # slow enough that the crawl outlives the pause
    site = news_site(sections=3, articles_per_section=8, delay=0.25)
    store = f"{own_redis.url}?socket_timeout={STORE_SOCKET_TIMEOUT}"
    started = [
        start_worker(tmp_path, own_redis.url, name, CONCURRENT_REQUESTS="2",
                     NEWSSTEM_URLDB=store, NEWSSTEM_URLDB_SYNC_SECONDS="1",
                     NEWSSTEM_DISTRIBUTED_IDLE="20", LOGSTATS_INTERVAL="1")
        for name in ("a", "b")
    ]
    try:
        wait_ready(*started)
        began = time.monotonic()
        watcher = own_redis.pause_when(site.article_asked, PAUSE_SECONDS)
        own_redis.client().rpush(START_KEY, json.dumps({"start_url": site.url + "/",
                                                        "depth": 2}))
        codes = [worker.wait(timeout=180) for worker in started]
        took = time.monotonic() - began
        watcher.join(timeout=5)
    finally:
        for worker in started:
            if worker.process.poll() is None:
                worker.kill()
    logs = [worker.log() for worker in started]
    assert codes == [0, 0], logs
    urls = [url for worker in started for url in worker.urls()]
    assert sorted(urls) == sorted(site.article_urls()), "every article exported once"
    counts = Counter(p for p in site.paths() if p != "/robots.txt")
    assert {p: n for p, n in counts.items() if n > 1} == {}, "no page fetched twice"
    for log in logs:
        assert "Traceback" not in log, log
        # never frozen longer than a socket timeout (5 s), a PING (1 s), the URL store's first
        # timeout (2 s), rounding: without the fix a worker was silent for the whole pause (15 s)
        assert longest_silence(log) <= 10, log
    said = "\n".join(logs)
    assert "does not answer" in said and "Redis answers again" in said, said
    # the pause, the idle time at the end, the crawl itself (about 10 s unpaused)
    assert took < PAUSE_SECONDS + 60, f"the crawl took {took:.0f} s"
    stats = [worker.stats() for worker in started]
    assert sum(s.get("newsstem/distributed/lost_requests", 0) for s in stats) == 0
    print(f"took {took:.1f} s, silences {[longest_silence(log) for log in logs]}")
