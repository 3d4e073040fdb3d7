"""The embedded URL store: one SQLite file (WAL), safe for several processes on one machine.

Layout: one ``WITHOUT ROWID`` table keyed by the 16-byte md5, three integer
times (SQLite stores each in 4 bytes; a NULL ``exported_at`` takes none), the kind and,
for a copy, the key of the URL whose article it repeats, so an entry costs about 30
bytes of record plus B-tree overhead (a copy 16 more). Writes run in
``BEGIN IMMEDIATE`` transactions, one per batch; WAL lets readers and the
single writer proceed together and makes a ``kill -9`` at any moment leave the
file consistent (the last uncommitted batch is simply absent).
``synchronous=NORMAL``: a commit survives a killed process; only a power cut
may undo the last commits, which costs re-exports, never lost articles
(marks are written after the output is fsynced).

The lease is an OS file lock on ``<file>.lock`` (``flock``; SQLite's own lock where there
is no ``fcntl``: :mod:`newsstem.urldb.locking`): shared for crawls, exclusive for prune,
released by the kernel when its holder dies, and not kept by a child forked from it.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

from newsstem.urldb.locking import LockBusy, hold
from newsstem.urldb.store import (
    COPY,
    PRUNE_ADVICE,
    TEXT,
    URL,
    Lease,
    Progress,
    StoreBusy,
    StoreError,
    StoreStats,
    UrlEntry,
    UrlStore,
)

# 'nsud' in PRAGMA application_id: recognise our files, refuse other databases.
APPLICATION_ID = 0x6E737564
# 2: the kind column (URL, COPY, TEXT: store.py); 3: copy_of, the key of the URL whose
# article a COPY entry repeats. Each added to an older store when it is opened.
SCHEMA_VERSION = 3
# A writer waits this long for another process's batch; batches take
# milliseconds, so a longer wait means a stuck process, not contention.
BUSY_TIMEOUT_SECONDS = 30.0
# Host parameters per statement: below SQLite's historical limit of 999.
LOOKUP_CHUNK = 500
# Page cache per connection (KiB, negative = size): holds the upper B-tree
# levels of a 10M-entry store; the OS page cache holds the rest.
CACHE_KIB = 65536
# After a checkpoint the WAL file is cut back to this size: a big batch (an
# import, a prune) must not leave a WAL as large as itself on disk for good.
WAL_LIMIT_BYTES = 8 * 1024 * 1024
# Prune deletes in this many key ranges, one transaction each, so the WAL stays
# small and a prune of millions of entries does not hold one huge transaction.
PRUNE_RANGES = 256

# Kind URL (0) costs no byte of record (SQLite's serial type 8).
_KIND_COLUMN = f"kind INTEGER NOT NULL DEFAULT {URL}"
# NULL (one byte of record header) but in COPY entries; its rows written before version 3
# have no value: NULL, "the store does not say".
_COPY_OF_COLUMN = "copy_of BLOB"
_SCHEMA = f"""
CREATE TABLE urls (
    key BLOB PRIMARY KEY NOT NULL,
    first_seen INTEGER NOT NULL,
    last_seen INTEGER NOT NULL,
    exported_at INTEGER,
    {_KIND_COLUMN},
    {_COPY_OF_COLUMN}
) WITHOUT ROWID
"""
# The statements that bring a store of the schema before each version to that version: a
# store several versions old takes each step after its own in turn, and only those.
_UPGRADES: dict[int, tuple[str, ...]] = {
    2: (f"ALTER TABLE urls ADD COLUMN {_KIND_COLUMN}",),  # its entries all URLs (copies too)
    3: (f"ALTER TABLE urls ADD COLUMN {_COPY_OF_COLUMN}",),  # no copy says of what
}
_MARK_SEEN = """
INSERT INTO urls (key, first_seen, last_seen) VALUES (?1, ?2, ?2)
ON CONFLICT (key) DO UPDATE SET
    first_seen = min(first_seen, excluded.first_seen),
    last_seen = max(last_seen, excluded.last_seen)
"""
# (every SET expression reads the row as it was: the new kind is computed twice)
_NEW_KIND = f"""CASE WHEN kind = {URL} AND exported_at IS NOT NULL AND excluded.kind != {TEXT}
                THEN {URL} ELSE excluded.kind END"""
_MARK_EXPORTED = f"""
INSERT INTO urls (key, first_seen, last_seen, exported_at, kind, copy_of)
VALUES (?1, ?2, ?2, ?2, ?3, CASE WHEN ?3 = {COPY} THEN ?4 END)
ON CONFLICT (key) DO UPDATE SET
    first_seen = min(first_seen, excluded.first_seen),
    last_seen = max(last_seen, excluded.last_seen),
    exported_at = max(coalesce(exported_at, 0), excluded.exported_at),
    kind = {_NEW_KIND},
    copy_of = CASE WHEN {_NEW_KIND} = {COPY} THEN coalesce(excluded.copy_of, copy_of) END
"""


class FileLease(Lease):
    """An OS lock on a file next to the store: the kernel drops it when the holder dies."""

    def __init__(self, path: Path, exclusive: bool) -> None:
        self.path = path
        try:
            self._held = hold(path, exclusive)
        except LockBusy:
            if exclusive:
                raise StoreBusy(
                    f"a crawl is using the URL store (lock {path} is held); {PRUNE_ADVICE}"
                ) from None
            raise StoreBusy(
                f"the URL store is being pruned (lock {path} is held exclusively); "
                "start the crawl when `scrapy urldb prune` has finished"
            ) from None

    def renew(self) -> None:
        pass  # a file lock lasts as long as its holder

    def release(self) -> None:
        self._held.release()


class SqliteUrlStore(UrlStore):
    """The URL store in a SQLite file at ``path`` (created with its directory if absent).

    ``read_only`` (``scrapy urldb stats`` and ``show``): an existing store is read at the
    schema it has, never upgraded, and nothing is recorded in it (the connection is SQLite's
    usual one: the last to close a WAL store still checkpoints the WAL into the file, the
    data unchanged). An upgrade locks out every
    older newsstem still using the file ("written by a newer newsstem"), so only crawls
    and commands that write take that step.
    """

    def __init__(self, path: str | os.PathLike[str], *, read_only: bool = False) -> None:
        self.path = Path(path).absolute()
        self.read_only = read_only
        self.version = SCHEMA_VERSION  # the store's schema: an older one when read as it is
        self.uri = f"sqlite:///{self.path}"  # sqlite:////abs/path: an absolute path
        if self.path.is_dir():
            raise StoreError(f"URL store {self.path} is a directory; give a file path")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except (FileExistsError, NotADirectoryError):
            raise StoreError(
                f"cannot create the directory of the URL store {self.path}: a file is in "
                "the way; set NEWSSTEM_URLDB to a writable place"
            ) from None
        except OSError as exc:
            raise StoreError(
                f"cannot create the directory of the URL store {self.path}: {exc.strerror}; "
                "set NEWSSTEM_URLDB to a writable place"
            ) from None
        try:
            self._db = sqlite3.connect(
                self.path,
                timeout=BUSY_TIMEOUT_SECONDS,
                isolation_level=None,
                check_same_thread=False,
            )
        except sqlite3.Error as exc:
            raise self._open_error(exc) from None
        try:
            self._prepare_patiently()
        except BaseException as exc:  # closed here only: an error is never masked by cleanup
            self._db.close()
            if isinstance(exc, sqlite3.Error):
                raise self._open_error(exc) from None
            raise

    def _prepare_patiently(self) -> None:
        """:meth:`_prepare`, tried again while another process holds the file: switching
        to WAL and reading a WAL index another process is setting up can answer "database
        is locked" at once, without SQLite's busy wait (several crawls starting together
        on one new store)."""
        deadline = time.monotonic() + BUSY_TIMEOUT_SECONDS
        delay = 0.01
        while True:
            try:
                self._prepare()
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) and "busy" not in str(exc):
                    raise
                if time.monotonic() + delay > deadline:
                    raise
            time.sleep(delay)
            delay = min(2 * delay, 0.5)

    def _open_error(self, exc: sqlite3.Error) -> StoreError:
        if isinstance(exc, sqlite3.OperationalError):
            return StoreError(
                f"cannot open the URL store {self.path} for writing ({exc}); "
                "check that the file and its directory are writable, or set NEWSSTEM_URLDB"
            )
        return StoreError(
            f"{self.path} is not a readable SQLite URL store ({exc}); it may be corrupt. "
            "Move it away to start a new store (the crawl history in it is then lost), "
            "or point NEWSSTEM_URLDB elsewhere"
        )

    def _prepare(self) -> None:
        db = self._db
        if self.read_only:
            if self._is_new():
                raise StoreError(
                    f"{self.path} is empty: no crawl has created the URL store in it yet"
                )
            db.execute(f"PRAGMA cache_size=-{CACHE_KIB}")  # (this connection's only)
            self.version = db.execute("PRAGMA user_version").fetchone()[0]
            return
        self._is_new()  # checked before any write: never modify another database
        db.execute("PRAGMA journal_mode=WAL").fetchone()
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute(f"PRAGMA cache_size=-{CACHE_KIB}")
        db.execute(f"PRAGMA journal_size_limit={WAL_LIMIT_BYTES}")
        db.execute("BEGIN IMMEDIATE")  # proves the file is writable; serialises creation
        try:
            if self._is_new():  # again, inside the lock: another process may have created it
                db.execute(_SCHEMA)
                db.execute(f"PRAGMA application_id={APPLICATION_ID}")
                db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            else:
                version = db.execute("PRAGMA user_version").fetchone()[0]
                for step in range(version + 1, SCHEMA_VERSION + 1):
                    for statement in _UPGRADES.get(step, ()):
                        db.execute(statement)
                if version < SCHEMA_VERSION:
                    db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise

    def _is_new(self) -> bool:
        """True for an empty file, False for a newsstem store; StoreError for anything else."""
        db = self._db
        # One statement, so one snapshot: read apart, the three could straddle another
        # process's creation commit (application id still 0, tables already there).
        app_id, version, tables = db.execute(
            "SELECT (SELECT application_id FROM pragma_application_id()),"
            " (SELECT user_version FROM pragma_user_version()),"
            " (SELECT count(*) FROM sqlite_master)"
        ).fetchone()
        if app_id == 0 and tables == 0:
            return True
        if app_id != APPLICATION_ID:
            raise StoreError(
                f"{self.path} is a SQLite database but not a newsstem URL store; "
                "point NEWSSTEM_URLDB at another file"
            )
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"URL store {self.path} was written by a newer newsstem "
                f"(schema {version} > {SCHEMA_VERSION}); upgrade newsstem"
            )
        return False

    # -- reads ------------------------------------------------------------------

    def lookup(self, keys: Sequence[bytes]) -> dict[bytes, UrlEntry]:
        found: dict[bytes, UrlEntry] = {}
        query = f"SELECT key, first_seen, last_seen, exported_at, {self._kind} FROM urls WHERE"
        for key, first, last, exported, kind in self._rows_for(query, keys):
            found[key] = UrlEntry(first, last, exported, kind)
        return found

    def _rows_for(self, query: str, keys: Sequence[bytes]) -> Iterator[tuple]:
        """The rows of `query` (which ends in WHERE or AND) for `keys`, asked
        LOOKUP_CHUNK keys at a time (SQLite bounds the parameters of a statement)."""
        keys = list(keys)
        try:
            for start in range(0, len(keys), LOOKUP_CHUNK):
                chunk = keys[start : start + LOOKUP_CHUNK]
                yield from self._db.execute(
                    f"{query} key IN ({','.join('?' * len(chunk))})", chunk
                )
        except sqlite3.Error as exc:
            raise StoreError(f"URL store {self.path}: lookup failed: {exc}") from exc

    @property
    def _kind(self) -> str:
        """The kind of an entry in SQL: a schema 1 store, read as it is, has no column
        (its entries are all URLs, as after its upgrade)."""
        return "kind" if self.version >= 2 else str(URL)

    def copies_of(self, keys: Sequence[bytes]) -> dict[bytes, bytes]:
        found: dict[bytes, bytes] = {}
        if self.version < 3:  # read as it is, before copy_of: no copy says of what
            return found
        found.update(
            self._rows_for(
                f"SELECT key, copy_of FROM urls WHERE kind = {COPY} AND copy_of IS NOT NULL AND",
                keys,
            )
        )
        return found

    def stats(self) -> StoreStats:
        try:
            row = self._db.execute(
                "SELECT count(*), count(*) FILTER (WHERE kind != ?1),"
                " count(exported_at) FILTER (WHERE kind = ?2),"
                " count(*) FILTER (WHERE kind = ?3), count(*) FILTER (WHERE kind = ?1),"
                " min(first_seen), max(first_seen), min(last_seen), max(last_seen)"
                f" FROM (SELECT {self._kind} AS kind, exported_at, first_seen, last_seen"
                " FROM urls)",
                (TEXT, URL, COPY),
            ).fetchone()
        except sqlite3.Error as exc:
            raise StoreError(f"URL store {self.path}: stats failed: {exc}") from exc
        size = sum(
            p.stat().st_size
            for p in (self.path, Path(f"{self.path}-wal"), Path(f"{self.path}-shm"))
            if p.exists()
        )
        return StoreStats(*row[:5], size, *row[5:])

    # -- writes -----------------------------------------------------------------

    @contextmanager
    def _transaction(self, what: str) -> Iterator[sqlite3.Connection]:
        """One ``BEGIN IMMEDIATE`` write transaction; SQLite errors become StoreError."""
        db = self._db
        if self.read_only:  # (a write of this schema into an older file would fail anyway)
            raise StoreError(f"URL store {self.path}: {what}: the store was opened read-only")
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
        except sqlite3.Error as exc:
            raise StoreError(f"URL store {self.path}: {what} failed: {exc}") from exc

    def mark_seen(self, keys: Iterable[bytes], when: int) -> None:
        # Sorted keys touch the B-tree pages in order: fewer page writes per batch.
        with self._transaction("mark seen") as db:
            db.executemany(_MARK_SEEN, ((key, when) for key in sorted(set(keys))))

    def mark_exported(
        self,
        keys: Iterable[bytes],
        when: int,
        kinds: Mapping[bytes, int] | None = None,
        copies_of: Mapping[bytes, bytes] | None = None,
    ) -> None:
        kinds, copies_of = kinds or {}, copies_of or {}
        with self._transaction("mark exported") as db:
            db.executemany(
                _MARK_EXPORTED,
                (
                    (key, when, kinds.get(key, URL), copies_of.get(key))
                    for key in sorted(set(keys))
                ),
            )

    def prune(
        self, seen_before: int, dry_run: bool = False, progress: Progress | None = None
    ) -> int:
        removed = 0
        for done, (in_range, bounds) in enumerate(_key_ranges(PRUNE_RANGES), 1):
            where = f"{in_range} AND last_seen < ?"
            params = (*bounds, seen_before)
            if dry_run:
                try:
                    row = self._db.execute(f"SELECT count(*) FROM urls WHERE {where}", params)
                    removed += row.fetchone()[0]
                except sqlite3.Error as exc:
                    raise StoreError(f"URL store {self.path}: prune failed: {exc}") from exc
            else:
                with self._transaction("prune") as db:
                    removed += db.execute(f"DELETE FROM urls WHERE {where}", params).rowcount
            if progress is not None:
                progress(done, PRUNE_RANGES)
        if not dry_run:
            try:
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.Error:
                pass  # a reader still uses the WAL: a later checkpoint truncates it
        return removed

    # -- lifecycle --------------------------------------------------------------

    def lease(self, exclusive: bool) -> Lease:
        return FileLease(Path(f"{self.path}.lock"), exclusive)

    def integrity_check(self) -> str:
        """SQLite's full ``PRAGMA integrity_check``: ``"ok"`` or the problems found."""
        rows = self._db.execute("PRAGMA integrity_check").fetchall()
        return "\n".join(row[0] for row in rows)

    def close(self) -> None:
        self._db.close()


def _key_ranges(count: int) -> Iterator[tuple[str, tuple[bytes, ...]]]:
    """``count`` SQL conditions splitting the key space by its first byte.

    >>> [bounds for _, bounds in _key_ranges(2)]
    [(b'\\x00', b'\\x80'), (b'\\x80',)]
    """
    edges = [bytes([i * 256 // count]) for i in range(count)]
    for i, low in enumerate(edges):
        if i + 1 < count:
            yield "key >= ? AND key < ?", (low, edges[i + 1])
        else:
            yield "key >= ?", (low,)
