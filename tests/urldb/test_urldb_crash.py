"""Crash safety: crawls killed with SIGKILL at random moments lose no article.

Each round starts `scrapy crawl news` with a new output file against a
320-article site, waits until it is fetching, then `kill -9`s it after a random
delay; the store must open cleanly after every kill. A last crawl runs to the
end. Then the union of all outputs must hold every article, and each killed
run may share with later runs at most one unsynced batch
(NEWSSTEM_URLDB_SYNC_ITEMS articles): the documented bound.
"""

from __future__ import annotations

import os
import random
import time

import pytest

from newsstem.urldb import open_store
from support.crawlprocess import start_crawl
from support.newssite import GeneratedNewsSite

SYNC_ITEMS = 10
KILLS = {"sqlite": 10, "redis": 4}  # Redis keeps nothing on the crawler's disk: fewer rounds
MAX_KILL_DELAY = 1.2  # seconds after the first request; a full crawl takes about 6 s


def _wait_for_first_request(site: GeneratedNewsSite, crawl, hits_before: int) -> None:
    deadline = time.monotonic() + 60
    while len(site.paths()) == hits_before and crawl.process.poll() is None:
        assert time.monotonic() < deadline, "the crawl never started"
        time.sleep(0.01)


def test_crawls_killed_at_random_moments_lose_no_article(tmp_path, store_uri):
    backend = "sqlite" if store_uri.startswith("sqlite") else "redis"
    seed = int(os.environ.get("NEWSSTEM_CRASH_SEED", random.randrange(1 << 30)))
    print(f"kill delays from random seed {seed} (set NEWSSTEM_CRASH_SEED to replay)")
    rng = random.Random(seed)
    site = GeneratedNewsSite(sections=8, articles_per_section=40, delay=0.03, seed=11).start()
    args = ("-a", f"start_url={site.url}/", "-a", "depth=2")
    settings = {
        "NEWSSTEM_URLDB": store_uri,
        "NEWSSTEM_URLDB_SYNC_ITEMS": str(SYNC_ITEMS),
        "NEWSSTEM_URLDB_SYNC_SECONDS": "0.5",
        "CONCURRENT_REQUESTS_PER_DOMAIN": "4",
    }
    runs = []
    try:
        kills = 0
        while kills < KILLS[backend]:
            assert len(runs) < 3 * KILLS[backend], "crawls keep finishing before the kill"
            hits_before = len(site.paths())
            crawl = start_crawl(tmp_path, *args, settings=settings, name=f"run{len(runs)}")
            runs.append(crawl)
            _wait_for_first_request(site, crawl, hits_before)
            time.sleep(rng.uniform(0, MAX_KILL_DELAY))
            if crawl.process.poll() is None:
                crawl.kill()
                kills += 1
            else:
                assert crawl.wait() == 0, crawl.log()
            with open_store(store_uri) as store:  # opens cleanly after every kill
                store.stats()
                if backend == "sqlite":
                    assert store.integrity_check() == "ok"
        final = start_crawl(tmp_path, *args, settings=settings, name="final")
        assert final.wait() == 0, final.log()
        runs.append(final)
    finally:
        for crawl in runs:
            if crawl.process.poll() is None:
                crawl.kill()
        site.stop()

    outputs = [crawl.urls() for crawl in runs]
    exported = [url for urls in outputs for url in urls]
    assert set(exported) == site.article_urls(), "an article was lost"
    for i, (crawl, urls) in enumerate(zip(runs, outputs)):
        assert len(urls) == len(set(urls)), f"run {i} exported an article twice"
        again = set(urls) & {url for later in outputs[i + 1 :] for url in later}
        bound = SYNC_ITEMS if crawl.killed else 0
        assert len(again) <= bound, f"run {i}: {len(again)} articles exported again (bound {bound})"
    with open_store(store_uri) as store:
        stats = store.stats()
    # each article's URL and its text entry (newsstem.urldb.text_key)
    assert (stats.articles, stats.texts) == (len(site.article_urls()), len(site.article_urls()))
    print(f"{kills} kills, {len(exported)} lines for {len(set(exported))} articles")


@pytest.fixture
def sqlite_uri(tmp_path):
    return f"sqlite:///{tmp_path / 'urldb.sqlite'}"


def test_a_killed_crawl_marks_nothing_written_to_a_feed_it_cannot_sync(tmp_path, sqlite_uri):
    site = GeneratedNewsSite(sections=4, articles_per_section=40, delay=0.03, seed=3).start()
    try:
        args = ("-a", f"start_url={site.url}/", "-a", "depth=2")
        settings = {
            "NEWSSTEM_URLDB": sqlite_uri,
            "NEWSSTEM_URLDB_SYNC_ITEMS": "5",
            "FEEDS": '{"%s": {"format": "json"}}' % (tmp_path / "all.json"),
        }
        crawl = start_crawl(tmp_path, *args, settings=settings, name="json")
        while len(site.paths()) < 60 and crawl.process.poll() is None:
            time.sleep(0.01)
        crawl.kill()  # a .json feed is complete only when closed: nothing may be marked
        with open_store(sqlite_uri) as store:
            assert store.stats().articles == 0
        rerun = start_crawl(tmp_path, *args, settings={"NEWSSTEM_URLDB": sqlite_uri}, name="rerun")
        assert rerun.wait() == 0, rerun.log()
        assert set(rerun.urls()) == site.article_urls()
    finally:
        site.stop()
