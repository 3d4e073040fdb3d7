"""Pattern files shared through the Redis URL store (NEWSSTEM_SHARED_PATTERNS), on a real
redis-server: the file learned last wins whatever order workers publish in, a crawl that
runs on loads a file published after its start, and a store or a file that fails is one
warning. (tests/commands/test_redesign.py runs two crawls of two "machines" end to end.)"""

from __future__ import annotations

import gzip
import json
import logging
import time
import uuid
from datetime import datetime, timezone

from scrapy.statscollectors import MemoryStatsCollector
from scrapy.utils.test import get_crawler
from support.crawl import scrapy

from newsstem.items import Page
from newsstem.layout.learn import TrainingPage, learn
from newsstem.layout.patterns import (
    PatternLibrary,
    PatternSet,
    dumps,
    load_pattern_file,
    load_patterns_dir,
    loads,
    save_pattern_file,
)
from newsstem.layout.redesign import patterns_key
from newsstem.pipelines import ExtractionPipeline
from newsstem.sharedpatterns import SharedPatterns, publish
from newsstem.urldb import open_store

SITE = "example.com"


def pattern_set(learned_at: str, matched: float = 0.9) -> PatternSet:
    return PatternSet(SITE, (), learned_at=learned_at, parameters={"matched": matched})


def test_the_file_learned_last_wins_whatever_order_workers_publish_in(redis_server):
    early = pattern_set("2026-11-02T06:00:00.000001Z")
    late = pattern_set("2026-11-02T06:00:00.000002Z")
    tie = pattern_set("2026-11-02T06:00:00.000002Z", matched=0.8)  # same time, other key
    winner = max((late, tie), key=patterns_key)
    held = {}
    for order in ([early, late, tie], [tie, late, early], [late, early, tie]):
        uri = f"{redis_server.url}?prefix=publish-{uuid.uuid4().hex[:8]}"
        results = [publish(uri, one) for one in order]
        assert results[0].published and results[0].version == 1
        with open_store(uri) as store:
            index = store.published_patterns()
            found, text = store.published_pattern_text(SITE)
        assert index[SITE] == found
        assert found.key == patterns_key(winner) == patterns_key(loads(text))
        held[tuple(map(id, order))] = [r.published for r in results], found.version
        # refused: the store says which file stays
        for one, result in zip(order, results):
            if not result.published:
                assert (result.learned_at, result.key) >= (one.learned_at, patterns_key(one))
        # publishing the same file again changes nothing
        again = publish(uri, winner)
        assert not again.published and again.key == found.key
    # each file was taken only if learned after every one taken before it in its order
    # (then the greater key), and the version counts the files taken
    assert list(held.values()) == [
        ([True, True, winner is tie], 2 + (winner is tie)),  # early, late, tie
        ([True, winner is late, False], 1 + (winner is late)),  # tie, late, early
        ([True, False, winner is tie], 1 + (winner is tie)),  # late, early, tie
    ]


def article(n: int, template: str) -> str:
    words = " ".join(f"word{n}x{i}" for i in range(120))
    if template == "a":
        return (f"<html><head><title>Story {n}</title></head><body><div id=nav><a href=/>Home"
                f"</a></div><div class=post><h1>Story number {n}</h1><div class=text><p>"
                f"{words}.</p><p>More {words}.</p></div></div></body></html>")
    return (f"<html><head><title>Story {n}</title></head><body><header><a href=/>Home</a>"
            f"</header><main><article class=story><h2 class=headline>Story number {n}</h2>"
            f"<section class=story-body><p>{words}.</p><p>More {words}.</p></section>"
            f"</article></main></body></html>")


def learned(template: str) -> PatternSet:
    pages = [
        TrainingPage(f"http://{SITE}/{template}/{n}", article(n, template), [f"Story number {n}"])
        for n in range(8)
    ]
    found = learn(SITE, pages).pattern_set
    assert any(p.kind == "article" for p in found.patterns)
    return found


def page(n: int, template: str) -> Page:
    return Page(f"http://{SITE}/{template}/{n}", SITE, article(n, template), "utf-8", 1,
                "2026-11-02T06:00:00Z")


# The check interval of the running-crawl test: long enough that a loaded machine does not
# pass it between two items the test expects read before any look (0.5 s could)
CHECK = 3.0


def test_a_crawl_that_runs_on_loads_a_file_published_after_its_start(
    redis_server, tmp_path, caplog
):
    # A worker that never stops reads the site with layout A's file; another learns the
    # redesigned site (layout B) and publishes it: within NEWSSTEM_SHARED_PATTERNS_CHECK
    # seconds the first reads layout B by pattern, writes the file to its directory, and
    # its pages read by the old file before are not counted for the redesign check.
    old, new = learned("a"), learned("b")
    assert new.learned_at > old.learned_at
    uri = f"{redis_server.url}?prefix=running-{uuid.uuid4().hex[:8]}"
    stats = MemoryStatsCollector(get_crawler())
    pipeline = ExtractionPipeline(
        stats, 200, False, PatternLibrary.from_sets({SITE: old}),
        shared=SharedPatterns(uri, str(tmp_path), CHECK),
    )
    caplog.set_level(logging.INFO)
    pipeline.open_spider()  # nothing published yet
    assert pipeline.process_item(page(20, "b")).method == "readability"
    assert publish(uri, new).published
    assert pipeline.process_item(page(21, "b")).method == "readability"  # not looked yet
    time.sleep(CHECK + 0.1)
    assert pipeline.process_item(page(22, "b")).method.startswith(f"pattern:{SITE}/")
    assert stats.get_value("newsstem/shared_patterns/loaded") == 1
    assert pipeline.sites[SITE].pages == 1  # the two pages read by the old file: gone
    assert patterns_key(load_pattern_file(tmp_path / f"{SITE}.json")) == patterns_key(new)
    lines = [r.getMessage() for r in caplog.records
             if "loaded the pattern file published" in r.getMessage()]
    assert len(lines) == 1 and "the 2 pages read before are not counted" in lines[0]
    time.sleep(CHECK + 0.1)
    pipeline.process_item(page(23, "b"))  # looked again: nothing newer
    assert stats.get_value("newsstem/shared_patterns/loaded") == 1


def test_a_bad_published_file_and_a_store_gone_are_one_warning_each(own_redis, tmp_path, caplog):
    uri = f"{own_redis.url}?prefix=bad-{uuid.uuid4().hex[:8]}"
    old = pattern_set("2026-11-01T06:00:00.000000Z")
    with open_store(uri) as store:
        store.publish_patterns(SITE, "0123456789abcdef", "2026-11-02T06:00:00.000000Z",
                               '{"format": "newsstem-patterns"')
    shared = SharedPatterns(uri, str(tmp_path), 10)
    caplog.set_level(logging.INFO)
    assert shared.check({SITE: old}) == [] and shared.check({SITE: old}) == []
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "not valid JSON" in warnings[0], warnings
    assert "the crawl goes on with its own patterns" in warnings[0]
    assert not (tmp_path / f"{SITE}.json").exists()
    caplog.clear()
    own_redis.stop()
    assert shared.check({SITE: old}) == [] and shared.check({SITE: old}) == []
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "cannot be read" in warnings[0], warnings
    assert "it looks again in 20 s, then less often" in warnings[0]
    assert shared.next_check - time.monotonic() > 30  # two failed looks: 4 intervals off


def test_scrapy_extract_stays_offline_with_a_redis_url_store_given(own_redis, tmp_path):
    # `scrapy extract` reads archived pages with the pattern files of its directory as
    # they are: a Redis URL store given with -s (which outranks the command's own
    # NEWSSTEM_URLDB "") must not load a published file into the directory. (It did:
    # the published file was written there and the stat counted it.)
    assert publish(own_redis.url, pattern_set("2026-11-02T06:00:00.000000Z")).published
    archive = tmp_path / "empty.warc.gz"
    archive.write_bytes(gzip.compress(b""))
    patterns = tmp_path / "patterns"
    result = scrapy("extract", "--input", str(archive), "-O", str(tmp_path / "out.jsonl"),
                    settings={"NEWSSTEM_URLDB": own_redis.url,
                              "NEWSSTEM_PATTERNS_DIR": str(patterns)})
    assert result.returncode == 0, result.stderr
    assert "newsstem/shared_patterns/loaded" not in result.stderr, result.stderr
    assert "loaded the pattern file published" not in result.stderr
    assert not (patterns / f"{SITE}.json").exists()


def test_a_published_file_of_another_site_is_not_loaded(redis_server, tmp_path, caplog):
    # A valid pattern file published under the wrong site (a hand-set hash) would read
    # example.com's pages by another site's patterns: one warning, nothing loaded or written.
    uri = f"{redis_server.url}?prefix=other-{uuid.uuid4().hex[:8]}"
    other = PatternSet("other.example", (), learned_at="2026-11-02T06:00:00.000000Z")
    with open_store(uri) as store:
        store.publish_patterns(SITE, patterns_key(other), other.learned_at, dumps(other))
    shared = SharedPatterns(uri, str(tmp_path), 10)
    caplog.set_level(logging.INFO)
    assert shared.check({SITE: pattern_set("2026-11-01T06:00:00.000000Z")}) == []
    assert shared.check({}) == []  # (no file of its own: refused all the same, once)
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "its site is 'other.example'" in warnings[0], warnings
    assert list(tmp_path.iterdir()) == []


def test_a_file_loaded_replaces_the_sites_own_file_under_another_name(
    redis_server, tmp_path
):
    # A worker keeps the site's file under a name of its own (copied by hand): a published
    # file learned later must replace it there, not be written beside it as <site>.json
    # (two files of one site: the next crawl would stop at its start, a usage error).
    uri = f"{redis_server.url}?prefix=renamed-{uuid.uuid4().hex[:8]}"
    old, new = pattern_set("2026-11-01T06:00:00.000000Z"), pattern_set(
        "2026-11-02T06:00:00.000000Z", matched=0.8)
    renamed = save_pattern_file(old, tmp_path).rename(tmp_path / "our-example.json")
    save_pattern_file(PatternSet("other.example", (), learned_at=old.learned_at), tmp_path)
    assert publish(uri, new).published
    loaded = SharedPatterns(uri, str(tmp_path), 0).check({SITE: old})
    sets = load_patterns_dir(tmp_path)  # the next crawl's start (raised: two files of SITE)
    assert sorted(sets) == [SITE, "other.example"]
    assert patterns_key(sets[SITE]) == patterns_key(new)
    assert [one.path for one in loaded] == [renamed]


HOURS_AHEAD = 3 * 3600.0


def fast_clock() -> float:
    """The clock of a machine set three hours ahead."""
    return time.time() + HOURS_AHEAD


def learned_by(clock) -> PatternSet:
    """A file of SITE learned now, stamped by ``clock`` (as learn() stamps by its machine's)."""
    at = datetime.fromtimestamp(clock(), timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    return pattern_set(at, matched=round(0.5 + (time.time() % 1000) / 10_000, 6))


# Real time between two learnings: well above the noise of measuring a clock's offset
# (one call to the store on a loaded machine)
APART = 0.5


def test_the_file_learned_later_wins_whatever_the_machines_clocks_say(redis_server):
    # Machine A's clock runs three hours ahead; it learns the site first, machine B (clock
    # right) learns it after. B's file must win in either publishing order, though A's
    # learned_at is the later string. (Ordered by learned_at, A's file won and B's was
    # refused, until A's clock came back or B learned again three hours later.)
    for b_first in (False, True):
        uri = f"{redis_server.url}?prefix=skew-{uuid.uuid4().hex[:8]}"
        a_file = learned_by(fast_clock)
        time.sleep(APART)
        b_file = learned_by(time.time)
        assert a_file.learned_at > b_file.learned_at  # the strings say A is later
        if b_first:
            assert publish(uri, b_file).published
            held = publish(uri, a_file, clock=fast_clock)
            assert not held.published and held.key == patterns_key(b_file)
            assert held.stamp > held.offered  # B's stamp, after A's
        else:
            assert publish(uri, a_file, clock=fast_clock).published
            assert publish(uri, b_file).published
        with open_store(uri) as store:
            found, _ = store.published_pattern_text(SITE)
            index = store.published_patterns()
        assert found.key == patterns_key(b_file) and index[SITE] == found
        assert found.learned_at == b_file.learned_at  # kept as learned, for people
        # the stamp is B's learned_at on the server's clock (the same machine's here)
        assert abs(found.stamp - epoch_us(b_file.learned_at)) < 1_000_000


def epoch_us(iso: str) -> int:
    when = datetime.fromisoformat(iso.replace("Z", "+00:00"))
    return round(when.timestamp() * 1_000_000)


def test_workers_load_the_file_learned_later_whatever_their_clocks_say(redis_server, tmp_path):
    uri = f"{redis_server.url}?prefix=skewload-{uuid.uuid4().hex[:8]}"
    # A (ahead) learns and publishes; a worker with a right clock loads it (version 1)
    a_file = learned_by(fast_clock)
    assert publish(uri, a_file, clock=fast_clock).published
    time.sleep(APART)
    # meanwhile a worker whose clock is ahead learns the site on its own machine
    fast_own = learned_by(fast_clock)
    time.sleep(APART)
    b_file = learned_by(time.time)  # B (right clock) learns later still, and publishes
    assert publish(uri, b_file).published
    time.sleep(APART)
    fast_later = learned_by(fast_clock)  # and the fast worker learns once more after that

    # the worker holding A's file (loaded from the store) loads B's: the store knows the
    # stamp of A's file, no clock involved (its learned_at, three hours ahead, said no)
    loaded = SharedPatterns(uri, str(tmp_path / "w1"), 0).check({SITE: a_file})
    assert [patterns_key(one.pattern_set) for one in loaded] == [patterns_key(b_file)]
    # the fast worker's own file, learned before B's in real time, is replaced; the one
    # learned after is kept: its learned_at is put on the server's clock by its own
    fast = SharedPatterns(uri, str(tmp_path / "w2"), 0, clock=fast_clock)
    assert [patterns_key(one.pattern_set) for one in fast.check({SITE: fast_own})] == [
        patterns_key(b_file)
    ]
    assert SharedPatterns(uri, str(tmp_path / "w3"), 0, clock=fast_clock).check(
        {SITE: fast_later}
    ) == []
    # a worker with a right clock holding a file it learned after B's keeps it too
    time.sleep(APART)
    assert SharedPatterns(uri, str(tmp_path / "w4"), 0).check({SITE: learned_by(time.time)}) == []


def test_a_file_published_before_stamps_is_compared_by_learned_at(redis_server, tmp_path):
    # A store written by a newsstem of before stamps: the site's hash and its index entry
    # without a stamp. Files are then compared by learned_at, as that newsstem did.
    uri = f"{redis_server.url}?prefix=old-{uuid.uuid4().hex[:8]}"
    old = pattern_set("2026-11-02T06:00:00.000000Z")
    with open_store(uri) as store:
        name = f"{store._patterns_key}:{SITE}"
        store.client.hset(name, mapping={"key": patterns_key(old), "version": 1,
                                          "learned_at": old.learned_at, "json": dumps(old),
                                          "by": "old 1"})
        store.client.hset(store._patterns_key, SITE, json.dumps(
            {"key": patterns_key(old), "learned_at": old.learned_at, "version": 1}))
        assert store.published_patterns()[SITE].stamp is None
    before = pattern_set("2026-11-01T06:00:00.000000Z", matched=0.7)
    after = pattern_set("2026-11-03T06:00:00.000000Z", matched=0.6)
    shared = SharedPatterns(uri, str(tmp_path), 0)
    assert [one.pattern_set for one in shared.check({SITE: before})] == [old]
    assert shared.check({SITE: after}) == []
    assert not publish(uri, before).published
    held = publish(uri, after)
    assert held.published and held.version == 2 and held.stamp is not None


def test_a_site_switched_mid_crawl_counts_its_pages_again_in_its_stats(redis_server, tmp_path):
    # The site's pages read with the old file (two matched, one not) are not counted with
    # those read with the loaded one: matched / unmatched / matched_rate agree again (the
    # rate was already the new file's alone; matched and unmatched added both files').
    old, new = learned("a"), learned("b")
    uri = f"{redis_server.url}?prefix=switch-{uuid.uuid4().hex[:8]}"
    stats = MemoryStatsCollector(get_crawler())
    pipeline = ExtractionPipeline(
        stats, 200, False, PatternLibrary.from_sets({SITE: old}),
        shared=SharedPatterns(uri, str(tmp_path), 3600),
    )
    pipeline.open_spider()
    assert pipeline.process_item(page(30, "a")).method.startswith("pattern:")
    assert pipeline.process_item(page(31, "a")).method.startswith("pattern:")
    assert pipeline.process_item(page(32, "b")).method == "readability"
    prefix = f"newsstem/patterns/{SITE}"
    assert stats.get_value(f"{prefix}/unmatched") == 1
    assert publish(uri, new).published
    pipeline.shared.next_check = 0.0  # (the next item looks at the store)
    assert pipeline.process_item(page(33, "b")).method.startswith(f"pattern:{SITE}/")
    assert pipeline.process_item(page(34, "b")).method.startswith(f"pattern:{SITE}/")
    assert stats.get_value("newsstem/shared_patterns/loaded") == 1
    assert stats.get_value(f"{prefix}/matched") == 2
    assert stats.get_value(f"{prefix}/unmatched") is None
    assert stats.get_value(f"{prefix}/matched_rate") == 1.0
    assert stats.get_value(f"{prefix}/before_load") == 3
    assert pipeline.sites[SITE].pages == 2  # the redesign check's pages: the same two
    methods = [name for name in stats.get_stats() if name.startswith("newsstem/method/")]
    assert sum(stats.get_value(name) for name in methods) == 5  # methods: every page


def test_a_published_file_is_read_with_its_own_stamp_while_the_site_is_unpublished(
    redis_server,
):
    # The file, its key and its stamp are read in one command: a site unpublished between
    # two reads made the file look published by a newsstem of before stamps (stamp None:
    # then compared by learned_at, by the machines' clocks, which the stamps are to avoid).
    uri = f"{redis_server.url}?prefix=race-{uuid.uuid4().hex[:8]}"
    held = publish(uri, pattern_set("2026-11-02T06:00:00.000000Z"))
    assert held.published and held.stamp is not None

    class UnpublishedAfterTheFirstRead:
        def __init__(self, client):
            self.client, self.done = client, False

        def __getattr__(self, name):
            call = getattr(self.client, name)

            def read(*args, **kwargs):
                result = call(*args, **kwargs)
                if not self.done:
                    self.done = True
                    with open_store(uri) as other:  # an operator's learn --unpublish
                        assert other.unpublish_patterns(SITE) is not None
                return result
            return read

    with open_store(uri) as store:
        store.client = UnpublishedAfterTheFirstRead(store.client)
        found = store.published_pattern_text(SITE)
    assert found is None or found[0].stamp == held.stamp, found


def test_a_worker_loads_the_file_the_store_keeps_of_two_learned_at_the_same_instant(
    redis_server, tmp_path,
):
    # A file edited by hand keeps its learned_at (another key): of the two, the store keeps
    # the greater key whatever order they come in; a worker holding the other must load
    # it, or it keeps its own for good while the others read the store's (and its own,
    # published, is refused).
    for stamped in (True, False):  # (False: a store written before stamps)
        uri = f"{redis_server.url}?prefix=tie-{uuid.uuid4().hex[:8]}"
        one = pattern_set("2026-11-02T06:00:00.000000Z", matched=0.7)
        other = pattern_set("2026-11-02T06:00:00.000000Z", matched=0.8)
        kept, lost = sorted((one, other), key=patterns_key, reverse=True)
        if stamped:
            assert publish(uri, lost).published and publish(uri, kept).published
            assert not publish(uri, lost).published
        else:
            with open_store(uri) as store:
                store.client.hset(f"{store._patterns_key}:{SITE}", mapping={
                    "key": patterns_key(kept), "version": 1, "learned_at": kept.learned_at,
                    "json": dumps(kept), "by": "old 1"})
                store.client.hset(store._patterns_key, SITE, json.dumps(
                    {"key": patterns_key(kept), "learned_at": kept.learned_at, "version": 1}))
        shared = SharedPatterns(uri, str(tmp_path / f"w{stamped}"), 0)
        assert [patterns_key(one.pattern_set) for one in shared.check({SITE: lost})] == [
            patterns_key(kept)
        ]
        assert SharedPatterns(uri, str(tmp_path / f"k{stamped}"), 0).check({SITE: kept}) == []


def test_a_crawls_new_file_refused_by_the_store_is_one_warning_and_a_stat(
    redis_server, tmp_path, caplog,
):
    # (NEWSSTEM_RELEARN's publication at a crawl's end, when the store holds a file of the
    # site learned later: the path no test ran)
    from newsstem.extensions import Relearn

    uri = f"{redis_server.url}?prefix=refused-{uuid.uuid4().hex[:8]}"
    later = pattern_set("2026-11-03T06:00:00.000000Z")
    mine = pattern_set("2026-11-02T06:00:00.000000Z", matched=0.7)
    assert publish(uri, later).published
    stats = MemoryStatsCollector(get_crawler())
    relearn = Relearn("", str(tmp_path), stats, 200, uri)
    with caplog.at_level(logging.INFO, logger="newsstem.extensions"):
        relearn.publish(mine, save_pattern_file(mine, tmp_path))
    assert stats.get_value("newsstem/shared_patterns/not_published") == 1
    assert stats.get_value("newsstem/shared_patterns/published") is None
    [record] = [r for r in caplog.records if r.name == "newsstem.extensions"]
    assert record.levelno == logging.WARNING
    assert record.getMessage() == (
        f"newsstem: {SITE}: its new pattern file (learned at {mine.learned_at}) is not "
        f"published: {uri} holds one learned later (at {later.learned_at}, "
        "version 1; ordered on the store's clock), which stays; this worker loads it at its "
        "next crawl start"
    )
    with open_store(uri) as store:
        assert store.published_pattern_text(SITE)[0].key == patterns_key(later)


def learned_at(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def stamp_fields(uri: str) -> set[str]:
    with open_store(uri) as store:
        held = store.client.hgetall(f"{store._patterns_key}:{SITE}")
    return {name.decode()[len("stamp:"):] for name in held if name.startswith(b"stamp:")}


def test_stamps_older_than_the_files_by_more_than_a_day_are_dropped_and_copies_still_lose(
    redis_server, tmp_path,
):
    # One stamp a publication, forever, until this: the stamps older than the file
    # published's by more than STAMPS_KEPT_US (24 h) go when a file is published.
    from newsstem.urldb.redis_store import STAMPS_KEPT_US

    assert STAMPS_KEPT_US == 24 * 3600 * 1_000_000
    uri = f"{redis_server.url}?prefix=prune-{uuid.uuid4().hex[:8]}"
    now = time.time()
    three_days = pattern_set(learned_at(now - 3 * 86400), matched=0.61)
    two_days = pattern_set(learned_at(now - 2 * 86400), matched=0.62)
    # learned two hours ago on a machine three hours ahead: its learned_at is after
    # the next file's, only its stamp orders it before
    two_hours = pattern_set(learned_at(fast_clock() - 2 * 3600), matched=0.63)
    latest = pattern_set(learned_at(now), matched=0.64)
    assert publish(uri, three_days).published and publish(uri, two_days).published
    assert stamp_fields(uri) == {patterns_key(three_days), patterns_key(two_days)}
    assert publish(uri, two_hours, clock=fast_clock).published
    assert stamp_fields(uri) == {patterns_key(two_hours)}  # both over a day older: gone
    assert publish(uri, latest).published
    assert stamp_fields(uri) == {patterns_key(two_hours), patterns_key(latest)}
    # workers holding a copy of each file published before load the latest, whether its
    # stamp stays (no clock involved) or went (learned_at on the worker's clock, a day
    # and more before the latest file's stamp, even on a clock three hours ahead)
    for index, copy in enumerate((three_days, two_days, two_hours)):
        for clock in (time.time, fast_clock):
            shared = SharedPatterns(uri, str(tmp_path / f"w{index}{clock is time.time}"), 0,
                                    clock=clock)
            assert [patterns_key(one.pattern_set) for one in shared.check({SITE: copy})] == [
                patterns_key(latest)
            ], (index, clock)


def test_unpublish_keeps_the_stamps_so_copies_of_the_file_deleted_stay_ordered(
    redis_server, tmp_path,
):
    # A machine three hours ahead publishes a file; a worker (right clock) loads it; the
    # operator unpublishes it; a file learned after it (right clock) is published. The
    # worker's copy must lose to it: by its stamp, kept by --unpublish (deleted with the
    # file, the copy was ordered by its learned_at, three hours ahead: it stayed).
    uri = f"{redis_server.url}?prefix=unpubstamp-{uuid.uuid4().hex[:8]}"
    ahead = learned_by(fast_clock)
    assert publish(uri, ahead, clock=fast_clock).published
    [loaded] = SharedPatterns(uri, str(tmp_path / "w"), 0).check({})
    copy = loaded.pattern_set
    assert patterns_key(copy) == patterns_key(ahead)
    with open_store(uri) as store:
        removed, by = store.unpublish_patterns(SITE)
        assert removed.key == patterns_key(ahead) and removed.version == 1 and by
        assert store.published_patterns() == {}
        assert store.published_pattern_text(SITE) is None
        assert store.published_by([SITE]) == {}
        assert store.unpublish_patterns(SITE) is None  # nothing published now
        assert store.published_stamp(SITE, patterns_key(ahead)) is not None
    assert stamp_fields(uri) == {patterns_key(ahead)}
    time.sleep(APART)
    later = learned_by(time.time)
    assert later.learned_at < ahead.learned_at  # the strings say the copy is later
    held = publish(uri, later)
    assert held.published and held.version == 1  # a new history
    assert [patterns_key(one.pattern_set)
            for one in SharedPatterns(uri, str(tmp_path / "w2"), 0).check({SITE: copy})] == [
        patterns_key(later)
    ]
