"""A worker killed with ``kill -9`` in the middle of a shared crawl: the requests it had taken
from the queue and not finished go back to it. Real worker processes, a real redis-server of
the test alone, a real HTTP site.

Before the hand-off, what the killed worker had popped (and its articles not yet fsynced)
was lost: their fingerprints were in the shared duplicate filter, so no other worker fetched
them in this crawl.
"""

from __future__ import annotations

import json
import signal
import threading
import time

import pytest
import redis
from support.crawlprocess import start_crawl
from support.distributed import start_worker, wait_ready
from support.newssite import GeneratedNewsSite
from support.redisserver import own_redis_server

from newsstem.distributed.handoff import REQUEUE
from newsstem.urldb import open_store, url_key

START_KEY = "newsstem:news:start_urls"
QUEUE_KEY = "newsstem:news:requests"
HEARTBEAT = "2"


@pytest.fixture
def slow_site(slow_site):
    """The shared slow site (conftest.py) at 0.2 s per answer: a worker always has pages in
    flight."""
    slow_site.delay = 0.2
    return slow_site


def articles_asked(site: GeneratedNewsSite) -> int:
    return sum(p.endswith(".html") for p in site.paths())


def crawl_until(server, site: GeneratedNewsSite, worker, reached, every: float = 0.05) -> None:
    """Push the start message of ``site`` (depth 2) and wait until ``reached()`` holds
    (within 60 s; ``worker``'s log if not)."""
    server.client().rpush(START_KEY, json.dumps({"start_url": site.url + "/", "depth": 2}))
    deadline = time.monotonic() + 60
    while not reached():
        assert time.monotonic() < deadline, worker.log()
        time.sleep(every)


def kill_a_at_work(a, b, server, site: GeneratedNewsSite, at_work) -> float:
    """Start the crawl of ``site`` on workers ``a`` and ``b`` (processes), ``kill -9`` a once
    ``at_work()`` holds (within 60 s), wait for b to stop (within 180 s, exit status 0): the
    time of the kill."""
    try:
        wait_ready(a, b)
        crawl_until(server, site, a, at_work, every=0.01)
        a.kill()
        killed = time.monotonic()
        assert b.wait(timeout=180) == 0, b.log()
        return killed
    finally:
        for worker in (a, b):
            if worker.process.poll() is None:
                worker.kill()


def test_a_worker_killed_mid_crawl_loses_nothing(tmp_path, own_redis, slow_site):
    # a: never syncs its feed before it is killed (its exported articles are in memory only:
    # its pages must not count as done); b: outlives a's heartbeat
    a = start_worker(tmp_path, own_redis.url, "a", CONCURRENT_REQUESTS="4",
                     NEWSSTEM_DISTRIBUTED_HEARTBEAT=HEARTBEAT, NEWSSTEM_DISTRIBUTED_IDLE="20",
                     NEWSSTEM_URLDB_SYNC_ITEMS="1000", NEWSSTEM_URLDB_SYNC_SECONDS="600")
    b = start_worker(tmp_path, own_redis.url, "b", CONCURRENT_REQUESTS="2",
                     NEWSSTEM_DISTRIBUTED_HEARTBEAT=HEARTBEAT, NEWSSTEM_DISTRIBUTED_IDLE="8",
                     NEWSSTEM_URLDB_SYNC_ITEMS="5")
    # both workers deep in the articles
    kill_a_at_work(a, b, own_redis, slow_site, lambda: articles_asked(slow_site) >= 16)

    urls = a.urls() + b.urls()
    assert set(urls) == slow_site.article_urls(), "every article exported at least once"
    stats = b.stats()
    assert stats["finish_reason"] == "idle"
    assert stats["newsstem/distributed/requeued_from_dead_workers"] >= 1, b.log()
    said = [line for line in b.log().splitlines() if "stopped workers" in line]
    assert len(said) == 1 and "] INFO: " in said[0], b.log()
    # counted: b's exports all recorded, and the store knows every article as exported
    assert stats["newsstem/urldb/exported"] == len(b.urls())
    with open_store(own_redis.url) as store:
        found = store.lookup([url_key(u) for u in slow_site.article_urls()])
    assert all(entry.exported_at for entry in found.values()) and len(found) == len(urls)
    # nothing left behind: b let go of its heartbeat and of every page it finished
    client = own_redis.client()
    assert sorted(client.keys(f"{QUEUE_KEY}*")) == [], client.keys("*")
    print(f"a exported {len(a.urls())}, b {len(b.urls())}, requeued "
          f"{stats['newsstem/distributed/requeued_from_dead_workers']}")


def held(client: redis.Redis, worker) -> int:
    """How many requests ``worker`` (a process) holds in its hash (found by its heartbeat)."""
    for key in client.keys(f"{QUEUE_KEY}:alive:*"):
        if (client.get(key) or b"").endswith(f" pid {worker.process.pid}".encode()):
            return client.hlen(key.replace(b":alive:", b":popped:"))
    return 0


def test_an_idle_worker_waits_for_a_dead_workers_heartbeat_to_lapse(tmp_path, own_redis,
                                                                      slow_site):
    """b runs out of work (and is idle for its NEWSSTEM_DISTRIBUTED_IDLE) long before the
    heartbeat of a, killed at work, lapses: it waits for it, puts a's requests back and
    fetches them. Before, b stopped as idle and a's pages waited for the next worker."""
    a = start_worker(tmp_path, own_redis.url, "a", CONCURRENT_REQUESTS="4",
                     NEWSSTEM_DISTRIBUTED_HEARTBEAT="25", NEWSSTEM_DISTRIBUTED_IDLE="60",
                     NEWSSTEM_URLDB_SYNC_ITEMS="1000", NEWSSTEM_URLDB_SYNC_SECONDS="600")
    b = start_worker(tmp_path, own_redis.url, "b", CONCURRENT_REQUESTS="8",
                     NEWSSTEM_DISTRIBUTED_HEARTBEAT="3", NEWSSTEM_DISTRIBUTED_IDLE="2",
                     NEWSSTEM_URLDB_SYNC_ITEMS="5")
    killed = kill_a_at_work(
        a, b, own_redis, slow_site,
        lambda: articles_asked(slow_site) >= 16 and held(own_redis.client(), a) >= 2,
    )
    urls = a.urls() + b.urls()
    assert set(urls) == slow_site.article_urls(), b.log()
    stats = b.stats()
    assert stats["finish_reason"] == "idle"
    assert stats["newsstem/distributed/requeued_from_dead_workers"] >= 1, b.log()
    waited = [line for line in b.log().splitlines() if "other workers hold requests" in line]
    assert len(waited) == 1 and "] INFO: " in waited[0], b.log()
    assert time.monotonic() - killed > 20, "b stopped after a's heartbeat lapsed"
    # a's exports were never durable: the store knows every article as exported through b
    with open_store(own_redis.url) as store:
        found = store.lookup([url_key(u) for u in slow_site.article_urls()])
    assert len(found) == len(slow_site.article_urls())
    assert all(entry.exported_at for entry in found.values())
    assert own_redis.client().keys(f"{QUEUE_KEY}*") == []


def test_idle_workers_holding_pages_do_not_wait_for_each_other(own_redis):
    """Two idle workers whose pages wait for their exports to be durable: neither counts the
    other as at work (they would wait for each other for ever); a worker at work is counted,
    and leaves the idle set when it takes a request."""
    from newsstem.distributed.handoff import OTHERS_AT_WORK, POP

    client = own_redis.client()
    workers, idle, popped = f"{QUEUE_KEY}:workers", f"{QUEUE_KEY}:idle", f"{QUEUE_KEY}:popped:"
    client.sadd(workers, "x", "y", "z")
    client.hset(popped + "x", "t", "0 done")
    client.hset(popped + "y", "t", "0 done")
    others = client.register_script(OTHERS_AT_WORK)
    assert others(keys=[workers, idle], args=[popped, "x"]) == 1, "y is not idle yet"
    assert others(keys=[workers, idle], args=[popped, "y"]) == 0, "x is idle; z holds nothing"
    assert others(keys=[workers, idle], args=[popped, "x"]) == 0
    client.lpush(QUEUE_KEY, "request")
    pop = client.register_script(POP)
    assert pop(keys=[QUEUE_KEY, popped + "y", workers, idle], args=["RPOP", "t2", "y"])
    assert others(keys=[workers, idle], args=[popped, "x"]) == 1, "y took work"


def test_pages_of_no_article_are_let_go_while_articles_wait_for_the_end(
    tmp_path, own_redis, news_site
):
    """A JSON feed is made durable only when the crawl ends (it cannot be synced): the URL
    store never says the exports are durable before. The pages that had no article (the
    hubs) are let go at the heartbeat all the same: a long crawl's hash holds the pages
    whose articles wait, not every page. Before, it held them all until the end."""
    site = news_site(sections=12, articles_per_section=1, delay=0.05)
    a = start_crawl(tmp_path, "-O", str(tmp_path / "a.json"), name="a", output_option=None,
                    settings={"NEWSSTEM_DISTRIBUTED": own_redis.url,
                              "NEWSSTEM_URLDB": own_redis.url,
                              "NEWSSTEM_DISTRIBUTED_HEARTBEAT": "3",
                              "NEWSSTEM_DISTRIBUTED_IDLE": "15",
                              "NEWSSTEM_URLDB_SYNC_SECONDS": "1"})
    try:
        wait_ready(a)
        crawl_until(own_redis, site, a, lambda: articles_asked(site) >= 12)
        # once every page is handled (and a heartbeat's tick since): the article pages only
        deadline = time.monotonic() + 12
        while held(own_redis.client(), a) != 12 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert held(own_redis.client(), a) == 12, "the 12 article pages only, not the hubs"
        assert a.wait(timeout=60) == 0, a.log()
    finally:
        if a.process.poll() is None:
            a.kill()
    exported = json.loads((tmp_path / "a.json").read_text())
    assert {item["url"] for item in exported} == site.article_urls()
    stats = a.stats()
    assert stats["newsstem/urldb/exported"] == 12, a.log()
    assert "newsstem/distributed/requeued_at_stop" not in stats, a.log()
    assert own_redis.client().keys(f"{QUEUE_KEY}*") == []


def test_requests_ignored_redirected_or_failed_are_let_go(tmp_path, own_redis, news_site):
    """Popped requests that lead to no response handled by a callback are let go like the
    others: one robots.txt forbids (IgnoreRequest in a downloader middleware), a redirect
    (its target queued), a 404; a link to another host is refused before the queue. Nothing
    is left in the worker's hash once idle, nothing is put back when it stops."""
    site = news_site(sections=2, articles_per_section=3, delay=0.02,
                     redirects={"/old.html": "/section/1/"})
    other_host = site.url.replace("127.0.0.1", "localhost")
    site.home_links.extend(["/private/secret.html", "/old.html", "/missing/",
                            f"{other_host}/section/0/"])
    a = start_worker(tmp_path, own_redis.url, "a", NEWSSTEM_DISTRIBUTED_HEARTBEAT="3",
                     NEWSSTEM_DISTRIBUTED_IDLE="15", NEWSSTEM_URLDB_SYNC_SECONDS="1")
    try:
        wait_ready(a)
        crawl_until(own_redis, site, a, lambda: articles_asked(site) >= 6)
        deadline = time.monotonic() + 12  # idle: a store sync and a heartbeat since
        while held(own_redis.client(), a) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert a.process.poll() is None and held(own_redis.client(), a) == 0, a.log()
        assert a.wait(timeout=60) == 0, a.log()
    finally:
        if a.process.poll() is None:
            a.kill()
    assert set(a.urls()) == site.article_urls()
    stats = a.stats()
    assert "/private/secret.html" not in site.paths() and "/missing/" in site.paths()
    assert stats.get("downloader/exception_type_count/scrapy.exceptions.IgnoreRequest", 0) \
        + stats.get("robotstxt/forbidden", 0) >= 1, stats
    assert stats["newsstem/links/rejected/offsite"] >= 1, "refused before the queue"
    assert stats.get("downloader/response_status_count/301", 0) >= 1, stats
    assert "newsstem/distributed/requeued_at_stop" not in stats, a.log()
    assert own_redis.client().keys(f"{QUEUE_KEY}*") == []


def test_an_idle_worker_does_not_wait_for_one_that_never_stops(tmp_path, own_redis, news_site):
    """a never stops (NEWSSTEM_DISTRIBUTED_IDLE 0) and holds its article pages to the end (a
    JSON feed); b, out of work, stops: a joined the idle workers when it ran out of work.
    Without that b waited for a as for a worker at work, for ever."""
    site = news_site(sections=2, articles_per_section=4, delay=0.05)
    a = b = None
    try:
        a = start_crawl(tmp_path, "-O", str(tmp_path / "a.json"), name="a", output_option=None,
                        settings={"NEWSSTEM_DISTRIBUTED": own_redis.url,
                                  "NEWSSTEM_URLDB": own_redis.url,
                                  "NEWSSTEM_DISTRIBUTED_HEARTBEAT": "3",
                                  "NEWSSTEM_DISTRIBUTED_IDLE": "0"})
        wait_ready(a)
        # a crawls the site alone and holds its article pages (not durable before the end);
        # b, started then, finds no work (were b to take them all, a would hold nothing)
        crawl_until(own_redis, site, a,
                    lambda: articles_asked(site) >= 8 and held(own_redis.client(), a) >= 1)
        b = start_worker(tmp_path, own_redis.url, "b", NEWSSTEM_DISTRIBUTED_HEARTBEAT="3",
                         NEWSSTEM_DISTRIBUTED_IDLE="2")
        wait_ready(b)
        assert b.wait(timeout=40) == 0, b.log()
        assert a.process.poll() is None, a.log()
        a.process.send_signal(signal.SIGTERM)
        assert a.wait(timeout=60) == 0, a.log()
    finally:
        for worker in (a, b):
            if worker is not None and worker.process.poll() is None:
                worker.kill()
    exported = json.loads((tmp_path / "a.json").read_text())
    assert exported, "a exported articles: it held their pages until it stopped"
    assert {item["url"] for item in exported} | set(b.urls()) == site.article_urls()
    assert b.stats()["finish_reason"] == "idle"
    assert own_redis.client().keys(f"{QUEUE_KEY}*") == []


def test_the_requests_of_a_dead_worker_are_put_back_once(own_redis):
    """Two live workers find the same dead one: its requests go back to the queue once."""
    client = own_redis.client()
    workers, alive = f"{QUEUE_KEY}:workers", f"{QUEUE_KEY}:alive:"
    popped = f"{QUEUE_KEY}:popped:"
    client.sadd(workers, "dead", "live")
    client.set(alive + "live", "x", px=60_000)
    client.hset(popped + "dead", mapping={f"t{n}": f"-{n} request {n}" for n in range(200)})
    client.hset(popped + "live", "t", "0 in progress")
    results = []

    def requeue():
        script = redis.Redis(port=own_redis.port).register_script(REQUEUE)
        results.append(script(keys=[workers, QUEUE_KEY, f"{QUEUE_KEY}:idle"],
                              args=[alive, popped, "ZADD", ""]))

    threads = [threading.Thread(target=requeue) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == [[0, 0, 0]] * 7 + [[200, 1, 0]]
    assert client.zcard(QUEUE_KEY) == 200
    assert client.zscore(QUEUE_KEY, b"request 7") == -7.0, "back with its priority"
    assert client.smembers(workers) == {b"live"} and not client.exists(popped + "dead")
    assert client.hget(popped + "live", "t") == b"0 in progress", "a live worker's stay"


def test_links_kept_by_a_worker_stopped_during_a_redis_outage_are_found_again(
    tmp_path, news_site
):
    """A worker stopped (SIGTERM) while Redis is out loses the links it kept in memory; the
    pages it found them on stay in its hash and go back in the queue: nothing lost."""
    with own_redis_server(tmp_path, appendonly=True) as server:
        site = news_site(sections=4, articles_per_section=6, delay=0.3)
        a = start_worker(tmp_path, server.url, "a", CONCURRENT_REQUESTS="4",
                         NEWSSTEM_DISTRIBUTED_HEARTBEAT=HEARTBEAT, NEWSSTEM_DISTRIBUTED_IDLE="0")
        b = None
        try:
            wait_ready(a)
            message = json.dumps({"start_url": site.url + "/", "depth": 2})
            server.client().rpush(START_KEY, message)
            deadline = time.monotonic() + 60
            while not any(p.startswith("/section/") for p in site.paths()):
                assert time.monotonic() < deadline, a.log()
                time.sleep(0.01)
            server.kill()  # the section pages' links are found while Redis is out
            time.sleep(1.0)
            a.process.send_signal(signal.SIGTERM)
            assert a.wait(timeout=60) == 0, a.log()
            server.restart()
            b = start_worker(tmp_path, server.url, "b", NEWSSTEM_DISTRIBUTED_HEARTBEAT=HEARTBEAT)
            assert b.wait(timeout=120) == 0, b.log()
        finally:
            for worker in (a, b):
                if worker is not None and worker.process.poll() is None:
                    worker.kill()
        lost = a.stats().get("newsstem/distributed/lost_requests", 0)
        assert lost > 0, a.log()  # the situation under test: a stopped holding links
        said = [line for line in a.log().splitlines() if "are not queued" in line]
        assert len(said) == 1 and "] WARNING: " in said[0], a.log()
        # the outage's first line says what is true with the hand-off: a stop loses nothing
        first = [line for line in a.log().splitlines() if "does not answer (" in line]
        assert len(first) == 1 and "] ERROR: " in first[0], a.log()
        assert "nothing is lost (stopped before Redis answers" in first[0], first[0]
        assert "unless it is stopped" not in first[0], first[0]
        urls = a.urls() + b.urls()
        assert set(urls) == site.article_urls(), "every article exported at least once"
        assert b.stats()["newsstem/distributed/requeued_from_dead_workers"] >= 1


def test_pages_done_are_let_go_without_a_url_store_too(workers, redis_db, news_site):
    # without the store's word on durable exports, a page is let go once handled (at each
    # heartbeat): the worker leaves nothing behind and puts nothing back when it stops
    site = news_site(sections=2, articles_per_section=6, delay=0.1)
    a = workers("a", NEWSSTEM_URLDB="", NEWSSTEM_DISTRIBUTED_HEARTBEAT=HEARTBEAT)
    wait_ready(a)
    message = json.dumps({"start_url": site.url + "/", "depth": 2})
    redis.Redis.from_url(redis_db).rpush(START_KEY, message)
    assert a.wait() == 0, a.log()
    assert sorted(a.urls()) == sorted(site.article_urls())
    stats = a.stats()
    assert "newsstem/distributed/requeued_at_stop" not in stats, a.log()
    assert "newsstem/urldb/exported" not in stats, "no URL store"
    assert redis.Redis.from_url(redis_db).keys(f"{QUEUE_KEY}*") == []


@pytest.mark.parametrize("slot", [None, "no inprogress set"])
def test_a_scrapy_whose_engine_does_not_say_what_is_in_progress_stops_the_hand_off(
    own_redis, slot
):
    """The hand-off reads engine._slot.inprogress (a private set) to know when a page is
    done; an engine without that slot, or without its set (a Scrapy that renamed them),
    must stop the crawl at start: read as 'nothing in progress', every page taken would
    be let go before its links and items are handled (lost with a kill -9)."""
    from types import SimpleNamespace

    from scrapy.utils.test import get_crawler

    from newsstem.distributed.connection import RedisOutage
    from newsstem.distributed.handoff import HandOff

    crawler = get_crawler()
    engine = SimpleNamespace(scraper=SimpleNamespace(spidermw=SimpleNamespace(middlewares=[])))
    if slot is not None:
        engine._slot = SimpleNamespace(inprogress=slot)
    crawler.engine = engine
    with pytest.raises(RuntimeError, match=r"engine\._slot\.inprogress"):
        HandOff(crawler, own_redis.client(), QUEUE_KEY, "w", "ZADD", 30.0,
                RedisOutage(own_redis.url, crawler.stats), lambda: False, start_key=START_KEY)


def test_a_hand_off_takes_and_puts_back_start_messages_under_the_spiders_start_key(
    own_redis,
):
    """start_key defaulted to "": a hand-off built without it took start messages from,
    and put them back under, the Redis key "" (it is now a required keyword). The
    scheduler's hand-off pops the spider's start list only, and a worker that died holding
    a message has it put back there by a live one, for the next worker."""
    client = own_redis.client()
    message = json.dumps({"start_url": "http://127.0.0.1:9/news/", "depth": 1}).encode()
    client.rpush(START_KEY, message)
    client.rpush("", b"under the empty key")
    _, dead, dead_worker = _worker_in_process(own_redis.url)
    assert dead.handoff.pop_starts(5, "t") == [message]
    assert client.llen(START_KEY) == 0
    client.delete(f"{QUEUE_KEY}:alive:{dead.handoff.worker_id}")  # killed: no heartbeat
    _, live, live_worker = _worker_in_process(own_redis.url)  # its first tick requeues
    try:
        assert client.lrange(START_KEY, 0, -1) == [message]
        assert client.lrange("", 0, -1) == [b"under the empty key"], "never touched"
    finally:
        for scheduler, worker in ((live, live_worker), (dead, dead_worker)):
            scheduler.close("finished")
            worker.engine_stopped()


class _Engine:
    """What the worker asks of Scrapy's engine when it schedules start requests."""

    def __init__(self, scheduler):
        self.scheduler = scheduler

    def crawl(self, request):
        self.scheduler.enqueue_request(request)


def _worker_in_process(url: str):
    """A worker's spider, scheduler (with its hand-off) and Worker extension, in this process,
    on the Redis at ``url`` (no reactor, no downloads: what a pop and an admission do)."""
    from scrapy.utils.test import get_crawler

    from newsstem.distributed.scheduler import RedisScheduler
    from newsstem.distributed.worker import Worker
    from newsstem.spiders.news import NewsSpider

    crawler = get_crawler(NewsSpider, {
        "NEWSSTEM_DISTRIBUTED": url, "NEWSSTEM_URLDB": "", "NEWSSTEM_DISTRIBUTED_HEARTBEAT": "1",
        "ADDONS": {"newsstem.distributed.DistributedMode": 0}})
    crawler.spider = spider = NewsSpider.from_crawler(crawler)
    worker = Worker.from_crawler(crawler)
    crawler.extensions = type("Extensions", (), {"middlewares": [worker]})()
    scheduler = RedisScheduler.from_crawler(crawler)
    scheduler.open(spider)
    worker.start_key = START_KEY  # as spider_opened sets it (without its reactor timer)
    crawler.engine = _Engine(scheduler)
    return spider, scheduler, worker


def test_start_messages_popped_just_before_redis_goes_away_are_not_lost(tmp_path):
    """Redis killed between a worker's pop of a start message and the admission of its start
    requests (the pop -> admit window of an outage), the worker stopped before Redis is back:
    the message is under the worker's name in Redis, and goes back in the start list when
    its heartbeat lapses. Before, LPOP took it from Redis and the kept requests died with
    the worker: the site was never crawled."""
    from newsstem.distributed.handoff import REQUEUE

    with own_redis_server(tmp_path, appendonly=True) as server:
        client = server.client()
        message = json.dumps({"start_url": "http://127.0.0.1:9/news/", "depth": 1})
        client.rpush(START_KEY, message)
        spider, scheduler, worker = _worker_in_process(server.url)
        scopes = spider.start_requests_for

        def redis_gone(scope):
            server.kill()  # after the pop, before any admission
            return scopes(scope)

        spider.start_requests_for = redis_gone
        assert worker.schedule_start_messages(spider) == 1  # popped; its request kept
        assert len(scheduler._kept) == 1
        scheduler.close("shutdown")  # the worker stopped before Redis answered
        worker.engine_stopped()
        assert worker.stats.get_value("newsstem/distributed/lost_requests") == 1
        server.restart()
        client = server.client()
        time.sleep(1.2)  # its heartbeat (1 s) lapses
        script = client.register_script(REQUEUE)
        script(keys=[f"{QUEUE_KEY}:workers", QUEUE_KEY, f"{QUEUE_KEY}:idle", START_KEY],
               args=[f"{QUEUE_KEY}:alive:", f"{QUEUE_KEY}:popped:", "ZADD", ""])
        assert client.lrange(START_KEY, 0, -1) == [message.encode()], "back for the next worker"
        assert client.keys(f"{QUEUE_KEY}:popped:*") == []


def test_a_start_message_pop_whose_reply_is_lost_is_read_again(tmp_path):
    """Redis paused (SIGSTOP) while a worker pops start messages: the call times out, Redis
    runs it when it wakes (SIGCONT). The message is read from the worker's hash when Redis
    answers, and its start request queued. Before, LPOP's reply was lost with the message."""
    with own_redis_server(tmp_path) as server:
        client = server.client()
        # the worker's calls give up after 1 s, not its 5 s default: the same lost reply,
        # 4 s less waited out
        spider, scheduler, worker = _worker_in_process(f"{server.url}?socket_timeout=1")
        assert worker.schedule_start_messages(spider) == 0  # (its script now loaded in Redis)
        message = json.dumps({"start_url": "http://127.0.0.1:9/news/", "depth": 1})
        client.rpush(START_KEY, message)
        server.pause()
        try:
            began = time.monotonic()
            assert worker.schedule_start_messages(spider) == 0  # no reply within 1 s
            assert time.monotonic() - began < 4, "the URL's socket_timeout is the worker's"
        finally:
            server.resume()
        deadline = time.monotonic() + 30
        while client.llen(START_KEY):  # Redis runs the pop it was sent
            assert time.monotonic() < deadline
            time.sleep(0.05)
        scheduled = 0
        while not scheduled:  # the worker asks again after its outage's backoff (1 s)
            assert time.monotonic() < deadline, "the message is lost"
            time.sleep(0.2)
            scheduled = worker.schedule_start_messages(spider)
        assert scheduled == 1
        assert worker.stats.get_value("newsstem/distributed/recovered_start_messages") == 1
        assert client.zcard(QUEUE_KEY) == 1, "its start request is in the shared queue"
        assert client.hlen(scheduler.handoff.hash_key) == 0, "and the message let go"
        scheduler.close("finished")
        worker.engine_stopped()


def test_the_requeue_line_says_where_a_dead_workers_start_messages_went(own_redis, caplog):
    """A worker died holding a request and a start message: a live one puts the request
    back in the shared queue and the message in the start list, and its INFO line says
    so. Before, it said '2 requests ... are back in the shared queue'."""
    client = own_redis.client()
    message = json.dumps({"start_url": "http://127.0.0.1:9/news/", "depth": 1})
    client.sadd(f"{QUEUE_KEY}:workers", "dead")
    client.hset(f"{QUEUE_KEY}:popped:dead",
                mapping={"t": "-1 a request", "u:1": f"start {message}"})
    with caplog.at_level("INFO", logger="newsstem.distributed.handoff"):
        _, scheduler, worker = _worker_in_process(own_redis.url)  # its first tick requeues
    try:
        assert client.zrange(QUEUE_KEY, 0, -1) == [b"a request"]
        assert client.lrange(START_KEY, 0, -1) == [message.encode()]
        said = [r.getMessage() for r in caplog.records if "not finished" in r.getMessage()]
        assert said == ["newsstem: 1 requests and 1 start messages taken and not finished by "
                        "stopped workers (1; no heartbeat for 1 s) are back in the shared "
                        "queue and the start list"], said
        assert worker.stats.get_value("newsstem/distributed/requeued_from_dead_workers") == 2
    finally:
        scheduler.close("finished")
        worker.engine_stopped()
