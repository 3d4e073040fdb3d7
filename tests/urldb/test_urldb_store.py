"""One contract for every URL store backend (as Scrapy's httpcache tests do for storages).

Each backend class below only says how to open a fresh store and the same
store again; every test of :class:`StoreContract` runs against a real SQLite
file and a real redis-server.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sqlite3
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from newsstem.urldb import StoreBusy, StoreError, UrlEntry, open_store, url_key
from newsstem.urldb.sqlite_store import APPLICATION_ID, SCHEMA_VERSION
from newsstem.urldb.store import COPY, KEY_BYTES, TEXT, URL

REPO = Path(__file__).resolve().parents[2]
T0 = 1_790_000_000  # a fixed epoch second (2026-09-21)


def keys(n: int, tag: str = "k") -> list[bytes]:
    return [url_key(f"http://site.example/{tag}/{i}.html") for i in range(n)]


def _mark_in_child(uri: str, tag: str, n: int, exported: bool) -> None:
    store = open_store(uri)
    batch = keys(n, tag)
    for start in range(0, n, 50):
        if exported:
            store.mark_exported(batch[start : start + 50], T0 + start)
        else:
            store.mark_seen(batch[start : start + 50], T0 + start)
    store.close()


def test_a_redis_store_that_cannot_be_used_lets_go_of_its_client(monkeypatch):
    import redis

    from newsstem.urldb import StoreError

    closed = []
    monkeypatch.setattr(redis.Redis, "close", lambda client: closed.append(client))
    with pytest.raises(StoreError, match="cannot reach the URL store"):
        open_store("redis://127.0.0.1:1/0")  # nothing listens on port 1
    assert len(closed) == 1


def test_url_key_is_a_16_byte_md5_of_the_canonical_url():
    assert len(url_key("http://a.example/")) == KEY_BYTES
    assert url_key("http://a.example/p?b=1&a=2") == url_key("http://a.example/p?a=2&b=1#x")
    assert url_key("http://a.example/p") != url_key("http://a.example/q")


class StoreContract:
    """What every backend must do. Subclasses define ``uri`` (a fresh store per test)."""

    uri: str

    def open(self):
        return open_store(self.uri)

    def test_an_empty_store_knows_nothing(self):
        with self.open() as store:
            assert store.lookup(keys(3)) == {}
            stats = store.stats()
            assert (stats.entries, stats.articles) == (0, 0)
            assert stats.first_seen_min is None and stats.last_seen_max is None

    def test_seen_marks_keep_the_first_and_the_last_time(self):
        a, b = keys(2)
        with self.open() as store:
            store.mark_seen([a, b], T0)
            store.mark_seen([a], T0 + 100)
            store.mark_seen([a], T0 + 50)  # a late batch from another process
            store.mark_seen([b], T0 - 10)  # an earlier one
            assert store.lookup([a, b]) == {
                a: UrlEntry(T0, T0 + 100, None),
                b: UrlEntry(T0 - 10, T0, None),
            }

    def test_exports_are_recorded_and_never_undone_by_seen_marks(self):
        a, b = keys(2)
        with self.open() as store:
            store.mark_seen([a], T0)
            store.mark_exported([a], T0 + 5)
            store.mark_exported([b], T0 + 7)  # exported without a prior seen mark
            store.mark_seen([a, b], T0 + 9)
            found = store.lookup([a, b])
        assert found[a] == UrlEntry(T0, T0 + 9, T0 + 5)
        assert found[b] == UrlEntry(T0 + 7, T0 + 9, T0 + 7)

    def test_lookup_of_many_keys_returns_exactly_the_known_ones(self):
        known, unknown = keys(2600, "known"), keys(700, "unknown")
        with self.open() as store:
            store.mark_seen(known[:1300], T0)
            store.mark_exported(known[1300:], T0)
            mixed = [k for pair in zip(known, unknown + known[700:]) for k in pair]
            found = store.lookup(mixed + known[-5:])
        assert set(found) == set(known)
        assert sum(1 for e in found.values() if e.exported_at) == 1300

    def test_entries_persist_when_the_store_is_reopened(self):
        a, b = keys(2)
        with self.open() as store:
            store.mark_seen([a], T0)
            store.mark_exported([b], T0 + 1)
        with self.open() as store:
            assert store.lookup([a, b]) == {
                a: UrlEntry(T0, T0, None),
                b: UrlEntry(T0 + 1, T0 + 1, T0 + 1),
            }

    def test_stats_count_entries_and_report_the_time_range(self):
        with self.open() as store:
            store.mark_seen(keys(30, "s"), T0)
            store.mark_seen(keys(10, "s"), T0 + 500)
            store.mark_exported(keys(4, "e"), T0 + 200)
            stats = store.stats()
        assert stats.entries == 34
        assert (stats.urls, stats.articles, stats.copies, stats.texts) == (34, 4, 0, 0)
        assert stats.size_bytes > 0
        assert (stats.first_seen_min, stats.first_seen_max) == (T0, T0 + 200)
        assert (stats.last_seen_min, stats.last_seen_max) == (T0, T0 + 500)

    def test_prune_removes_exactly_the_entries_not_seen_since_the_cutoff(self):
        old, recent, edge = keys(40, "old"), keys(25, "recent"), keys(3, "edge")
        with self.open() as store:
            store.mark_exported(old[:10], T0)
            store.mark_seen(old, T0)
            store.mark_seen(edge, T0 + 1000)  # last seen exactly at the cutoff: kept
            store.mark_seen(recent, T0)
            store.mark_seen(recent, T0 + 2000)  # seen again since: kept
            assert store.prune(T0 + 1000, dry_run=True) == 40
            assert store.stats().entries == 68
            steps = []
            assert store.prune(T0 + 1000, progress=lambda done, total: steps.append(done)) == 40
            assert steps and steps[-1] == len(steps)
            assert set(store.lookup(old + recent + edge)) == set(recent + edge)
            assert store.stats().entries == 28
            assert store.prune(T0 + 1000) == 0

    def test_leases_are_shared_by_crawls_and_exclusive_for_prune(self):
        with self.open() as store, self.open() as other:
            crawl_a = store.lease(exclusive=False)
            crawl_b = other.lease(exclusive=False)
            with pytest.raises(StoreBusy, match="crawl|in use"):
                store.lease(exclusive=True)
            crawl_a.release()
            crawl_a.release()  # twice is harmless
            with pytest.raises(StoreBusy):
                other.lease(exclusive=True)
            crawl_b.renew()
            crawl_b.release()
            pruner = store.lease(exclusive=True)
            with pytest.raises(StoreBusy, match="pruned"):
                other.lease(exclusive=False)
            with pytest.raises(StoreBusy):
                other.lease(exclusive=True)
            pruner.renew()
            pruner.release()
            other.lease(exclusive=False).release()

    def test_a_lease_dies_with_a_holder_killed_by_sigkill(self, tmp_path):
        ready = tmp_path / "ready"
        code = (
            "import sys, time; from newsstem.urldb import open_store\n"
            f"store = open_store({self.uri!r}); lease = store.lease(exclusive=False)\n"
            f"open({str(ready)!r}, 'w').close(); time.sleep(600)\n"
        )
        child = subprocess.Popen(
            [sys.executable, "-c", code], env={**os.environ, "PYTHONPATH": str(REPO)}
        )
        try:
            deadline = time.monotonic() + 30
            while not ready.exists():
                assert child.poll() is None and time.monotonic() < deadline, "holder did not start"
                time.sleep(0.05)
            with self.open() as store:
                with pytest.raises(StoreBusy):
                    store.lease(exclusive=True)
                os.kill(child.pid, signal.SIGKILL)
                child.wait()
                deadline = time.monotonic() + self.lease_lapse_seconds + 10
                while True:
                    try:
                        store.lease(exclusive=True).release()
                        break
                    except StoreBusy:
                        assert time.monotonic() < deadline, "the dead holder's lease never lapsed"
                        time.sleep(0.2)
        finally:
            if child.poll() is None:
                os.kill(child.pid, signal.SIGKILL)
                child.wait()

    def test_concurrent_writers_lose_no_marks(self):
        ctx = multiprocessing.get_context("spawn")
        jobs = [
            ctx.Process(target=_mark_in_child, args=(self.uri, "shared", 600, False)),
            ctx.Process(target=_mark_in_child, args=(self.uri, "shared", 600, True)),
            ctx.Process(target=_mark_in_child, args=(self.uri, "own", 600, True)),
        ]
        for job in jobs:
            job.start()
        for job in jobs:
            job.join(60)
            assert job.exitcode == 0
        with self.open() as store:
            shared = store.lookup(keys(600, "shared"))
            own = store.lookup(keys(600, "own"))
            assert store.stats().entries == 1200
        assert len(shared) == 600 and len(own) == 600
        # the exporting writer's marks survive the other writer's seen marks
        assert all(entry.exported_at for entry in shared.values())
        assert all(entry.exported_at for entry in own.values())


    def test_stats_count_each_kind_of_entry_and_the_latest_export_sets_it(self):
        with self.open() as store:
            store.mark_seen(keys(10, "u"), T0)
            articles, copies, texts = keys(3, "a"), keys(2, "c"), keys(3, "t")
            kinds = {**dict.fromkeys(copies, COPY), **dict.fromkeys(texts, TEXT)}
            store.mark_exported(articles + copies + texts, T0 + 1, kinds)
            store.mark_seen(copies + keys(10, "u"), T0 + 2)  # a seen mark keeps the kind
            # a lookup gives the kind too (`scrapy urldb show` says a copy is one)
            asked = articles[:1] + copies + texts[:1] + keys(1, "u")
            found = store.lookup(asked)
            assert [found[key].kind for key in asked] == [URL, COPY, COPY, TEXT, URL]
            assert found[copies[0]] == UrlEntry(T0 + 1, T0 + 2, T0 + 1, COPY)
            stats = store.stats()
            assert (stats.entries, stats.urls, stats.articles, stats.copies, stats.texts) == (
                18, 15, 3, 2, 3
            )
            store.mark_exported(copies[:1], T0 + 3)  # exported as an article of its own
            assert store.lookup(copies[:1])[copies[0]] == UrlEntry(T0 + 1, T0 + 3, T0 + 3)
            assert (store.stats().articles, store.stats().copies) == (4, 1)
            # an article recorded as a copy (of itself: two crawls at once) stays an article
            store.mark_exported(articles, T0 + 4, dict.fromkeys(articles, COPY))
            assert (store.stats().articles, store.stats().copies) == (4, 1)


    def test_a_copy_keeps_the_key_of_the_article_it_repeats(self):
        # `scrapy urldb show` could say a URL went out as a copy, not of which article
        article, other = keys(2, "article")
        copy, redirect, text, plain = keys(4, "copy")
        with self.open() as store:
            store.mark_exported(
                [article, copy, redirect, text], T0,
                {copy: COPY, redirect: COPY, text: TEXT},
                {copy: article, redirect: article, text: article},
            )
            store.mark_seen([plain], T0)
            asked = [article, copy, redirect, text, plain, keys(1, "absent")[0]]
            # texts and URLs keep none, even when given one
            assert store.copies_of(asked) == {copy: article, redirect: article}
            store.mark_seen([copy], T0 + 1)  # a seen mark keeps it
            store.mark_exported([redirect], T0 + 1, {redirect: COPY})  # given none: kept
            assert store.copies_of([copy, redirect]) == {copy: article, redirect: article}
            store.mark_exported([copy], T0 + 2, {copy: COPY}, {copy: other})  # the latest
            assert store.copies_of([copy]) == {copy: other}
            store.mark_exported([redirect], T0 + 3)  # exported as an article of its own
            assert store.copies_of([redirect]) == {}
            # an article recorded as a copy (two crawls at once) stays an article, of nothing
            store.mark_exported([article], T0 + 4, {article: COPY}, {article: other})
            assert store.copies_of([article]) == {} and store.lookup([article])[article].kind == URL
        with self.open() as store:
            assert store.copies_of([copy]) == {copy: other}  # it persists


class TestSqliteStore(StoreContract):
    lease_lapse_seconds = 0  # an OS file lock: released by the kernel at once

    @pytest.fixture(autouse=True)
    def _fresh(self, tmp_path):
        self.uri = f"sqlite:///{tmp_path / 'store' / 'urldb.sqlite'}"

    def test_without_fcntl_a_store_opens_records_and_leases(self, tmp_path):
        # Windows has no fcntl: newsstem imported, but `import fcntl` at the top of
        # sqlite_store made every SQLite store (the default one) fail to open. Here fcntl
        # cannot be imported in the processes using the store (sys.modules['fcntl'] = None).
        no_fcntl = "import sys; sys.modules['fcntl'] = None\n"
        holding = tmp_path / "holding"
        holder = subprocess.Popen(
            [sys.executable, "-c", no_fcntl + (
                "import time; from newsstem.urldb import open_store\n"
                f"lease = open_store({self.uri!r}).lease(exclusive=False)\n"
                f"open({str(holding)!r}, 'w').close(); time.sleep(600)\n")],
            env={**os.environ, "PYTHONPATH": str(REPO)},
        )
        check = no_fcntl + (
            "import sys; from newsstem.urldb import StoreBusy, open_store, url_key\n"
            f"store = open_store({self.uri!r})\n"
            "crawl = store.lease(exclusive=False)  # beside the holder's\n"
            "key = url_key('http://site.example/a.html')\n"
            "store.mark_exported([key], 1790000000)\n"
            "print('exported_at', store.lookup([key])[key].exported_at)\n"
            "crawl.release()\n"
            "try:\n"
            "    store.lease(exclusive=True).release(); print('prune ran')\n"
            "except StoreBusy as busy:\n"
            "    print('prune refused:', busy)\n"
            "assert 'fcntl' not in sys.modules or sys.modules['fcntl'] is None\n"
        )
        try:
            deadline = time.monotonic() + 30
            while not holding.exists():
                assert holder.poll() is None and time.monotonic() < deadline, "no holder"
                time.sleep(0.05)
            checked = subprocess.run([sys.executable, "-c", check], capture_output=True,
                                     text=True, env={**os.environ, "PYTHONPATH": str(REPO)})
            assert checked.returncode == 0, checked.stderr
            assert "exported_at 1790000000" in checked.stdout
            assert "prune refused: a crawl is using the URL store" in checked.stdout
            os.kill(holder.pid, signal.SIGKILL)  # its lock dies with it
            holder.wait()
            checked = subprocess.run([sys.executable, "-c", check], capture_output=True,
                                     text=True, env={**os.environ, "PYTHONPATH": str(REPO)})
            assert checked.returncode == 0, checked.stderr
            assert "prune ran" in checked.stdout, checked.stdout
        finally:
            if holder.poll() is None:
                os.kill(holder.pid, signal.SIGKILL)
                holder.wait()
        with self.open() as store:  # and the file is an ordinary store
            assert store.lookup(keys(0) + [url_key("http://site.example/a.html")])

    def test_the_leases_hold_with_sqlites_lock_where_there_is_no_fcntl(self, monkeypatch):
        from newsstem.urldb import locking

        fcntl = pytest.importorskip("fcntl")  # (to look for a flock: none is to be held)
        monkeypatch.setattr(locking, "fcntl", None)
        self.test_leases_are_shared_by_crawls_and_exclusive_for_prune()
        # and what holds a crawl's lease is SQLite's lock on <store>.lock, not a flock
        # (the contract above passes with either: it does not say which it ran on)
        with self.open() as store:
            lease = store.lease(exclusive=False)
            lock_file = Path(f"{self.uri.removeprefix('sqlite:///')}.lock")
            try:
                fd = os.open(lock_file, os.O_RDWR)
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # no flock on it
                finally:
                    os.close(fd)
                db = sqlite3.connect(lock_file, timeout=0, isolation_level=None)
                try:
                    with pytest.raises(sqlite3.OperationalError, match="locked"):
                        db.execute("BEGIN EXCLUSIVE")
                finally:
                    db.close()
            finally:
                lease.release()

    def test_the_file_is_a_wal_database_that_passes_integrity_check(self, tmp_path):
        with self.open() as store:
            store.mark_seen(keys(100), T0)
            assert store.integrity_check() == "ok"
            assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"

    def test_a_schema_1_store_is_upgraded_and_its_entries_count_as_urls(self, tmp_path):
        path = tmp_path / "store" / "urldb.sqlite"
        path.parent.mkdir()
        db = sqlite3.connect(path)  # what newsstem wrote before the kind column
        db.execute("CREATE TABLE urls (key BLOB PRIMARY KEY NOT NULL, first_seen INTEGER "
                   "NOT NULL, last_seen INTEGER NOT NULL, exported_at INTEGER) WITHOUT ROWID")
        db.execute(f"PRAGMA application_id={APPLICATION_ID}")
        db.execute("PRAGMA user_version=1")
        db.executemany("INSERT INTO urls VALUES (?, ?, ?, ?)",
                       [(k, T0, T0, T0) for k in keys(5, "old")])
        db.commit()
        db.close()
        with self.open() as store:
            assert (store.stats().urls, store.stats().articles) == (5, 5)
            store.mark_exported(keys(2, "t"), T0 + 1, dict.fromkeys(keys(2, "t"), TEXT))
            assert (store.stats().entries, store.stats().texts) == (7, 2)
            assert {entry.kind for entry in store.lookup(keys(5, "old")).values()} == {URL}
            assert store._db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION

    def test_a_schema_2_store_is_upgraded_its_copies_saying_of_nothing(self, tmp_path):
        path = tmp_path / "store" / "urldb.sqlite"
        path.parent.mkdir()
        db = sqlite3.connect(path)  # what newsstem wrote before copy_of (schema 2)
        db.execute("CREATE TABLE urls (key BLOB PRIMARY KEY NOT NULL, first_seen INTEGER "
                   "NOT NULL, last_seen INTEGER NOT NULL, exported_at INTEGER, kind INTEGER "
                   "NOT NULL DEFAULT 0) WITHOUT ROWID")
        db.execute(f"PRAGMA application_id={APPLICATION_ID}")
        db.execute("PRAGMA user_version=2")
        [article], old_copies = keys(1, "article"), keys(3, "old")
        db.executemany("INSERT INTO urls VALUES (?, ?, ?, ?, ?)",
                       [(article, T0, T0, T0, URL), *((k, T0, T0, T0, COPY) for k in old_copies)])
        db.commit()
        db.close()
        with self.open() as store:
            assert (store.stats().articles, store.stats().copies) == (1, 3)
            assert store.copies_of(old_copies) == {}  # the store does not say
            [new] = keys(1, "new")
            store.mark_exported([new], T0 + 1, {new: COPY}, {new: article})
            store.mark_exported(old_copies[:1], T0 + 1, {old_copies[0]: COPY},
                                {old_copies[0]: article})
            assert store.copies_of([new, *old_copies]) == {new: article, old_copies[0]: article}
            assert store._db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
            assert store.integrity_check() == "ok"

    def test_a_store_of_the_schema_before_takes_only_the_steps_after_its_own(
        self, tmp_path, monkeypatch
    ):
        # The 1 -> 2 step (the kind column) ran for any store older than SCHEMA_VERSION:
        # once a schema 3 comes, a schema 2 store (which has the column) would fail to open
        # with "duplicate column name: kind" (SQLite, real file).
        from newsstem.urldb import sqlite_store

        with self.open() as store:  # written at schema 2
            store.mark_exported(keys(3, "two"), T0)
        monkeypatch.setattr(sqlite_store, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
        with self.open() as store:
            assert store.stats().articles == 3
            assert store._db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION + 1

    def test_a_schema_1_store_opened_read_only_is_read_as_it_is_and_not_written(self, tmp_path):
        # `scrapy urldb stats`/`show` upgraded it: an older newsstem then refused the file
        path = tmp_path / "store" / "urldb.sqlite"
        path.parent.mkdir()
        db = sqlite3.connect(path)  # what newsstem wrote before the kind column
        db.execute("CREATE TABLE urls (key BLOB PRIMARY KEY NOT NULL, first_seen INTEGER "
                   "NOT NULL, last_seen INTEGER NOT NULL, exported_at INTEGER) WITHOUT ROWID")
        db.execute(f"PRAGMA application_id={APPLICATION_ID}")
        db.execute("PRAGMA user_version=1")
        db.executemany("INSERT INTO urls VALUES (?, ?, ?, ?)",
                       [(k, T0, T0, T0 if n < 2 else None)
                        for n, k in enumerate(keys(5, "old"))])
        db.commit()
        db.close()
        with open_store(self.uri, read_only=True) as store:
            stats = store.stats()
            assert (stats.urls, stats.articles, stats.copies, stats.texts) == (5, 2, 0, 0)
            assert {entry.kind for entry in store.lookup(keys(5, "old")).values()} == {URL}
            assert store.copies_of(keys(5, "old")) == {}
            with pytest.raises(StoreError, match="opened read-only"):
                store.mark_seen(keys(1, "new"), T0 + 1)
        with sqlite3.connect(path) as db:
            assert db.execute("PRAGMA user_version").fetchone()[0] == 1
            assert db.execute("SELECT count(*) FROM urls").fetchone()[0] == 5
        with self.open() as store:  # a writer upgrades it, as before
            assert store._db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


class TestRedisStore(StoreContract):
    lease_lapse_seconds = 1  # lease_ttl=1 below

    @pytest.fixture(autouse=True)
    def _fresh(self, redis_server):
        self.uri = f"{redis_server.url}?prefix=test-{uuid.uuid4().hex[:8]}&lease_ttl=1"

    def test_a_layout_1_store_is_upgraded_and_its_entries_count_as_urls(self, redis_server):
        client = redis_server.client()
        prefix = self.uri.split("prefix=")[1].split("&")[0]
        client.hset(f"{prefix}:meta", mapping={"version": 1, "bucket_bits": 18})
        with self.open() as store:  # an empty layout-1 store, then old 12-byte entries
            store.mark_exported(keys(5, "old"), T0)
        client.hset(f"{prefix}:meta", "version", 1)
        values = [value for bucket in client.scan_iter(match=f"{prefix}:u:*")
                  for value in client.hgetall(bucket).values()]
        assert [len(value) for value in values] == [12] * 5  # URL entries carry no kind byte
        with self.open() as store:
            store.mark_exported(keys(2, "t"), T0 + 1, dict.fromkeys(keys(2, "t"), TEXT))
            stats = store.stats()
            assert (stats.urls, stats.articles, stats.texts) == (5, 5, 2)
            assert set(store.lookup(keys(2, "t"))) == set(keys(2, "t"))
            # a 12-byte entry is a URL's, as one a layout 2 store writes for a URL
            old = store.lookup(keys(5, "old"))
            assert {entry.kind for entry in old.values()} == {URL} and len(old) == 5
        assert client.hget(f"{prefix}:meta", "version") == b"2"  # older newsstem refuses it

    def test_a_layout_1_store_opened_read_only_is_read_as_it_is_and_not_written(
        self, redis_server
    ):
        # `scrapy urldb stats`/`show` raised it to layout 2: an older newsstem then refused it
        client = redis_server.client()
        prefix = self.uri.split("prefix=")[1].split("&")[0]
        with self.open() as store:
            store.mark_exported(keys(5, "old"), T0)
        client.hset(f"{prefix}:meta", "version", 1)
        with open_store(self.uri, read_only=True) as store:
            stats = store.stats()
            assert (stats.urls, stats.articles, stats.copies, stats.texts) == (5, 5, 0, 0)
            assert {entry.kind for entry in store.lookup(keys(5, "old")).values()} == {URL}
            for write in (lambda: store.mark_seen(keys(1, "new"), T0 + 1),
                          lambda: store.mark_exported(keys(1, "new"), T0 + 1),
                          lambda: store.prune(T0 + 10, dry_run=True),
                          lambda: store.lease(exclusive=False)):
                with pytest.raises(StoreError, match="opened read-only"):
                    write()
        assert client.hget(f"{prefix}:meta", "version") == b"1"
        assert not client.exists(f"{prefix}:holders")
        with self.open() as store:  # a writer upgrades it, as before
            assert store.stats().urls == 5
        assert client.hget(f"{prefix}:meta", "version") == b"2"

    def test_keys_stay_under_the_prefix(self, redis_server):
        before = set(redis_server.client().scan_iter(match="*"))
        with self.open() as store:
            store.mark_seen(keys(50), T0)
            lease = store.lease(exclusive=False)
            prefix = store.prefix.encode() + b":"
            added = set(redis_server.client().scan_iter(match="*")) - before
            lease.release()
        assert len(added) > 3  # buckets, layout record, lease holders
        assert all(name.startswith(prefix) for name in added)

    def test_a_lapsed_lease_is_taken_again_with_a_warning(self, caplog):
        with self.open() as store:
            lease = store.lease(exclusive=False)
            time.sleep(self.lease_lapse_seconds + 0.5)  # no renewal for longer than lease_ttl
            store.lease(exclusive=True).release()  # so a prune could run meanwhile
            with caplog.at_level("WARNING", logger="newsstem.urldb.redis_store"):
                lease.renew()
            assert "had expired" in caplog.text
            with pytest.raises(StoreBusy):  # held again: prune must wait
                store.lease(exclusive=True)
            lease.release()
