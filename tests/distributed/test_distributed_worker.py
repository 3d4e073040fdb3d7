"""Workers of one distributed crawl: real `scrapy crawl news` processes sharing a real Redis.

Site (tests/support/newssite.py): / → /section/{s}/ → /{s}/{n}.html articles;
the home page also links /private/ pages, disallowed by its robots.txt. Each
answer is delayed a little, so the crawl lasts long enough for every worker to
take part, and each worker takes few requests at a time (``CONCURRENT_REQUESTS``
4), so the others find work in the shared queue.
"""

from __future__ import annotations

import json
import os
import re
import signal
import time
from collections import Counter

import pytest
import redis
from support.distributed import wait_ready
from support.newssite import GeneratedNewsSite

from newsstem.distributed.worker import StartMessageError, parse_start_message

PRIVATE = [f"/private/{n}.html" for n in range(12)]
START_KEY = "newsstem:news:start_urls"


@pytest.fixture
def slow_site(slow_site):
    """The shared slow site (conftest.py), /private/ linked from the home page."""
    slow_site.home_links.extend(PRIVATE)
    return slow_site


def fetched_twice(site: GeneratedNewsSite) -> dict[str, int]:
    """Paths fetched more than once; robots.txt is fetched once by each worker."""
    counts = Counter(p for p in site.paths() if p != "/robots.txt")
    return {path: n for path, n in counts.items() if n > 1}


def articles_fetched(site: GeneratedNewsSite) -> list[str]:
    return [p for p in site.paths() if p.endswith(".html") and not p.startswith("/private/")]


def test_two_workers_share_one_crawl_and_fetch_every_page_once(workers, redis_db, slow_site):
    a = workers("a", CONCURRENT_REQUESTS="4")
    b = workers("b", CONCURRENT_REQUESTS="4")
    wait_ready(a, b)
    client = redis.Redis.from_url(redis_db)
    client.rpush(START_KEY, "not a url", json.dumps({"url": slow_site.url + "/", "depth": 2}))
    assert a.wait() == 0, a.log()
    assert b.wait() == 0, b.log()

    urls = a.urls() + b.urls()
    assert sorted(urls) == sorted(slow_site.article_urls()), "every article exactly once"
    assert fetched_twice(slow_site) == {}
    assert not [p for p in slow_site.paths() if p.startswith("/private/")]
    assert slow_site.paths().count("/robots.txt") == 2
    stats = [a.stats(), b.stats()]
    assert all(s["newsstem/summary/pages"] > 0 for s in stats), "both workers fetched pages"
    assert sum(s.get("robotstxt/forbidden", 0) for s in stats) == len(PRIVATE)
    assert sum(s.get("newsstem/distributed/start_messages", 0) for s in stats) == 1
    assert sum(s.get("newsstem/distributed/rejected_messages", 0) for s in stats) == 1
    # the worker that dropped it says so in its run summary too, not only "errors: 0"
    said = [line for worker in (a, b) for line in worker.log().splitlines()
            if line.startswith("  start messages rejected: ")]
    rejected = ("  start messages rejected: 1 (unreadable, naming arguments the spider does "
                "not take, or giving values it cannot use: their ERROR lines say why; nothing "
                "of them was crawled)")
    assert said == [rejected]
    assert {s["finish_reason"] for s in stats} == {"idle"}
    # anchor texts travel with the requests: the worker that fetched an article
    # need not be the one that parsed the section page linking it
    items = [json.loads(line) for line in a.lines() + b.lines()]
    assert all(item["anchor_texts"] for item in items)
    # the shared URL store recorded every export
    exported = sum(s.get("newsstem/urldb/exported", 0) for s in stats)
    assert exported == len(urls)


def test_a_worker_stopped_by_sigterm_finishes_its_pages_and_the_others_go_on(
    workers, redis_db, slow_site
):
    # a stays up until signalled; b ends the crawl on its own
    a = workers("a", NEWSSTEM_DISTRIBUTED_IDLE="0", CONCURRENT_REQUESTS="2")
    b = workers("b", CONCURRENT_REQUESTS="2")
    wait_ready(a, b)
    message = json.dumps({"start_url": slow_site.url + "/", "depth": "2"})
    redis.Redis.from_url(redis_db).rpush(START_KEY, message)
    deadline = time.monotonic() + 60
    while len(articles_fetched(slow_site)) < 8:  # stop a in the middle of the crawl
        assert time.monotonic() < deadline, a.log()
        time.sleep(0.02)
    os.kill(a.process.pid, signal.SIGTERM)
    assert a.wait() == 0, a.log()
    assert b.wait() == 0, b.log()

    assert a.stats()["finish_reason"] == "shutdown"
    urls = a.urls() + b.urls()
    assert sorted(urls) == sorted(slow_site.article_urls()), "nothing lost, nothing twice"
    assert len(b.urls()) > len(slow_site.article_urls()) // 2, "b did the rest"
    assert fetched_twice(slow_site) == {}


def test_start_messages_are_urls_or_json_objects_of_spider_arguments():
    assert parse_start_message(b" https://a.example/ https://b.example/\n") == {
        "start_url": "https://a.example/ https://b.example/"
    }
    assert parse_start_message('{"start_url": ["https://a.example/"], "depth": 3}') == {
        "start_url": ["https://a.example/"], "depth": 3,
    }
    for bad in (b"", b"{not json", b'["https://a.example/"]', b'{"url": "x", "start_url": "y"}'):
        with pytest.raises(StartMessageError):
            parse_start_message(bad)


def test_a_redis_error_reading_start_messages_is_one_error_line_and_a_clean_stop(
    workers, redis_db
):
    # the worker died in its spider_idle handler with a traceback ("finished")
    client = redis.Redis.from_url(redis_db)
    client.set(START_KEY, "not a list")  # LPOP answers WRONGTYPE
    a = workers("a", NEWSSTEM_DISTRIBUTED_IDLE="3")
    assert a.wait() == 1, a.log()
    log = a.log()
    assert "Traceback" not in log, log
    errors = [line for line in log.splitlines() if "] ERROR: " in line]
    assert len(errors) == 1 and "cannot read start messages from Redis" in errors[0], log
    assert "WRONGTYPE" in errors[0]
    stats = a.stats()
    assert stats["finish_reason"] == "redis_error"
    assert 2 <= stats["newsstem/distributed/redis_errors"] <= 4  # after 0, 1, 3 s: backoff


def test_a_worker_reads_start_messages_again_once_redis_answers(redis_db, monkeypatch, caplog):
    from scrapy.exceptions import DontCloseSpider
    from scrapy.utils.test import get_crawler

    from newsstem.distributed import worker as worker_module
    from newsstem.distributed.connection import connect
    from newsstem.distributed.options import DistributedOptions
    from newsstem.spiders.news import NewsSpider

    now = [1000.0]
    # the clock of the worker's idle time and of its reads' backoff (newsstem.backoff)
    monkeypatch.setattr(time, "monotonic", lambda: now[0])
    crawler = get_crawler(NewsSpider, {"NEWSSTEM_DISTRIBUTED": redis_db})
    crawler.spider = spider = NewsSpider.from_crawler(crawler)
    options = DistributedOptions.from_settings(crawler.settings)
    worker = worker_module.Worker(crawler, connect(redis_db), options)
    worker.start_key = START_KEY  # as spider_opened sets it (without its reactor timer)
    client = redis.Redis.from_url(redis_db)
    client.set(START_KEY, "not a list")
    for wait in (0, 1, 2, 4):  # tried at once, then after 1 s, 2 s, 4 s
        now[0] += wait
        with pytest.raises(DontCloseSpider):
            worker.spider_idle(spider)
    assert crawler.stats.get_value("newsstem/distributed/redis_errors") == 4
    client.delete(START_KEY)
    client.rpush(START_KEY, "not a url")
    now[0] += 7.9  # within the 8 s wait: Redis is not asked
    with pytest.raises(DontCloseSpider):
        worker.spider_idle(spider)
    assert client.llen(START_KEY) == 1
    now[0] += 0.1
    with pytest.raises(DontCloseSpider):
        worker.spider_idle(spider)
    assert client.llen(START_KEY) == 0
    assert crawler.stats.get_value("newsstem/distributed/rejected_messages") == 1
    # the message as it was pushed: the log said "start message b'not a url' rejected"
    assert "newsstem: start message 'not a url' rejected: " in caplog.text
    assert crawler.stats.get_value("newsstem/distributed/redis_errors") == 4
    worker.spider_closed(spider, "finished")


def test_a_start_message_the_shared_filter_refuses_says_so(workers, redis_db, news_site):
    """A message for a site this crawl fetched less than NEWSSTEM_DISTRIBUTED_FORGET ago
    adds nothing (as documented); the worker said nothing either, its summary "pages
    fetched: 0", and an operator pushing it again saw no reason."""
    site = news_site(sections=1, articles_per_section=2)
    client = redis.Redis.from_url(redis_db)
    message = json.dumps({"start_url": site.url + "/", "depth": 2})
    first = workers("first")
    wait_ready(first)
    client.rpush(START_KEY, message)
    assert first.wait() == 0, first.log()
    assert len(first.urls()) == 2
    assert "adds nothing" not in first.log()
    first_ended = time.monotonic()

    again = workers("again")
    wait_ready(again)
    time.sleep(max(0.0, first_ended + 2 - time.monotonic()))  # (Redis tells whole seconds)
    client.rpush(START_KEY, message)
    assert again.wait() == 0, again.log()
    assert again.urls() == []
    assert (f"newsstem: start message {message!r} adds nothing: the shared filter has seen "
            "its start pages") in again.log(), again.log()
    # an earlier crawl fetched them (the first worker's, ended), not "this crawl": the line
    # says only what the filter knows, when it last saw a link to the site
    ago = re.search(r"a link to their site was last seen (\d+) s ago, by a worker of this "
                    r"crawl or of an earlier one;", again.log())
    assert ago and 1 <= int(ago[1]) <= time.monotonic() - first_ended + 1, again.log()
    assert "this crawl fetched them" not in again.log()
    assert "NEWSSTEM_DISTRIBUTED_FORGET = 600 s after the last link to it is seen" in again.log()


def test_a_worker_does_not_blame_a_depth_for_articles_it_did_not_find(workers, redis_db,
                                                                       news_site):
    """A worker that exported no article while it parsed pages at their scope's depth limit
    ended its summary on "no article within depth 1: the links of the 3 pages at that depth
    were not followed (-a depth=2 goes one level deeper …)": one depth for start messages of
    several (1 and 0 here), from the requests this worker made, an `-a depth` that start
    messages do not read, and "no article" of a crawl whose other workers may have exported
    them. A worker's pages are its share of the crawl's: it says nothing of the depth."""
    sections = news_site(sections=2, articles_per_section=2)  # depth 1: its section pages
    home = news_site(sections=1, articles_per_section=1)  # depth 0: its home page
    client = redis.Redis.from_url(redis_db)
    worker = workers("worker")
    wait_ready(worker)
    client.rpush(START_KEY, json.dumps({"start_url": sections.url + "/", "depth": 1}),
                 json.dumps({"start_url": home.url + "/", "depth": 0}))
    assert worker.wait() == 0, worker.log()
    stats = worker.stats()
    assert worker.urls() == [] and stats["newsstem/depth/limit_pages"] == 3, worker.log()
    assert stats["finish_reason"] == "idle"
    assert "newsstem run summary (idle" in worker.log()
    assert "no article within depth" not in worker.log(), worker.log()
    # the fact alone (newsstem/depth/limit_pages was its only sign), of both depths
    assert stats["newsstem/depth/limit"] == 1 and stats["newsstem/depth/limit_min"] == 0
    [line] = [x for x in worker.log().splitlines() if "depth limit reached" in x]
    assert line == ("  depth limit reached: the links of 3 pages at depths 0 to 1 were not "
                    "followed (the limit of each is the depth of the start message or -a "
                    "depth it came from)"), line


def test_a_lone_worker_given_too_shallow_start_messages_says_which_depth_it_stopped_at(
        workers, redis_db, news_site):
    """One worker, one start message of depth 1 at a home page whose articles are on its
    section pages: it exported nothing, and its summary said nothing of the depth (the
    pages at the limit were only in its stats). It says, as a fact, at what depth it did
    not follow links."""
    site = news_site(sections=2, articles_per_section=2)
    client = redis.Redis.from_url(redis_db)
    worker = workers("worker")
    wait_ready(worker)
    client.rpush(START_KEY, json.dumps({"start_url": site.url + "/", "depth": 1}))
    assert worker.wait() == 0, worker.log()
    assert worker.urls() == [] and worker.stats()["newsstem/depth/limit_pages"] == 2
    [line] = [x for x in worker.log().splitlines() if "depth limit reached" in x]
    assert line == ("  depth limit reached: the links of 2 pages at depth 1 were not followed "
                    "(the limit of each is the depth of the start message or -a depth it came "
                    "from)"), line
    assert "no article within depth" not in worker.log()


def test_a_worker_whose_start_pages_the_shared_filter_has_seen_says_why_it_fetched_nothing(
    workers, redis_db, news_site
):
    """The same worker command again within NEWSSTEM_DISTRIBUTED_FORGET (a cron job, or a
    second try with -a refresh=1): the shared filter refuses its -a start_url page, and its
    summary said "pages fetched: 0 ... errors: 0" and nothing of why."""
    site = news_site(sections=1, articles_per_section=3)
    start = ("-a", f"start_url={site.url}/", "-a", "depth=2")
    first = workers("first", *start)
    assert first.wait() == 0, first.log()
    assert len(first.urls()) == 3
    again = workers("again", *start, "-a", "refresh=1")
    assert again.wait() == 0, again.log()
    assert again.urls() == []
    said = [line for line in again.log().splitlines() if line.startswith("  nothing fetched: ")]
    why = ("  nothing fetched: the shared filter had seen the 1 page this worker was to fetch "
           "(fetched by another worker, or by a crawl of their site less than "
           "NEWSSTEM_DISTRIBUTED_FORGET seconds ago, -a refresh=1 or not); crawl them again "
           "after that, or apart in another Redis database")
    assert said == [why], again.log()
    assert not [line for line in first.log().splitlines()
                if line.startswith("  nothing fetched: ")]


def test_start_messages_with_bad_values_are_rejected_and_the_summary_says_so(redis_db):
    """The summary said rejected start messages were "unreadable, or naming arguments the
    spider does not take", while one naming known arguments with values it cannot use (a
    URL that is not http(s), a depth that is no number) is rejected too: the user looked
    for a misspelt argument that was not there."""
    from scrapy.utils.test import get_crawler

    from newsstem.distributed.connection import connect
    from newsstem.distributed.options import DistributedOptions
    from newsstem.distributed.worker import Worker
    from newsstem.operations import summarize
    from newsstem.spiders.news import NewsSpider

    crawler = get_crawler(NewsSpider, {"NEWSSTEM_DISTRIBUTED": redis_db})
    crawler.spider = spider = NewsSpider.from_crawler(crawler)
    worker = Worker(crawler, connect(redis_db), DistributedOptions.from_settings(crawler.settings))
    worker.start_key = START_KEY
    client = redis.Redis.from_url(redis_db)
    client.rpush(START_KEY, json.dumps({"start_url": "ftp://example.org/"}),
                 json.dumps({"start_url": "https://example.org/", "depth": "two"}))
    try:
        assert worker.schedule_start_messages(spider) == 0
    finally:
        worker.spider_closed(spider, "finished")
    stats = crawler.stats.get_stats()
    assert stats["newsstem/distributed/rejected_messages"] == 2
    lines = summarize(stats, 0, jobdir=None).lines()
    assert ("  start messages rejected: 2 (unreadable, naming arguments the spider does not "
            "take, or giving values it cannot use: their ERROR lines say why; nothing of "
            "them was crawled)") in lines, lines


def test_a_section_one_worker_exported_is_walked_by_the_next_crawl(workers, redis_db):
    """A section front exported as an article is a hub once an article is exported through
    it, but only the worker that exported the section knew it was exported: the articles
    other workers took from the shared queue recorded no hub key, so the next crawl skipped
    the section as an exported article and lost what was added to it (on three runs of
    this site, 5 of 18 sections)."""
    from support.crawl import run_crawl
    from support.newssite import TeaserSectionsSite

    site = TeaserSectionsSite(sections=6, articles_per_section=2, delay=0.5).start()
    try:
        crawl = [workers(name, CONCURRENT_REQUESTS="2") for name in ("a", "b", "c")]
        wait_ready(*crawl)
        redis.Redis.from_url(redis_db).rpush(
            START_KEY, json.dumps({"start_url": site.url + "/", "depth": 2}))
        for worker in crawl:
            assert worker.wait(timeout=180) == 0, worker.log()
        shares = [worker.urls() for worker in crawl]
        assert sum(map(len, shares)) == 18, shares  # 12 articles, 6 sections
        assert sum(1 for share in shares if share) >= 2, shares  # (shared: the case)
        added = [site.add_article(section=s) for s in range(6)]
        again = run_crawl(crawl[0].output.parent, "-a", f"start_url={site.url}/", "-a",
                          "depth=2", settings={"NEWSSTEM_URLDB": redis_db}, name="again")
    finally:
        site.stop()
    assert again.item_urls() == {site.url + path for path in added}, (shares, again.log)
