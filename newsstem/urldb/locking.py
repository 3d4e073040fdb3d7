"""OS file locks of the URL store and of ``-O`` feed files: portable, and not handed
down to a forked child.

:func:`hold` takes a shared or exclusive lock on a file without waiting. With
``fcntl`` (POSIX) it is a ``flock`` on a descriptor of its own; without it (Windows,
where ``fcntl`` does not exist and newsstem imported but no SQLite store could open)
it is SQLite's own file lock on the file, opened as a database: a read transaction
holds a shared lock, ``BEGIN EXCLUSIVE`` an exclusive one. Either kind is the
kernel's, dropped when its holder dies. (The two kinds do not see each other: every
process using one store must run on one platform, as they do on one machine.)

A ``flock`` belongs to the open file description, which a child made by ``fork``
without ``exec`` (``os.fork``, multiprocessing's "fork" start method in an item
pipeline) shares: it is held until the last process holding a copy of the descriptor
closes it, so a child outliving the crawl kept the ``-O`` file locked (the next crawl
refused it: "another crawl is writing it") and the store's shared lease (``scrapy
urldb prune`` refused). ``O_CLOEXEC`` does not help without ``exec``, and ``LOCK_UN``
in the child would unlock the parent's file too (one description): so in the child,
right after the fork, each holder registered with :func:`close_in_forked_child`
closes its copy of the descriptor (and no longer writes to it). SQLite's locks are
POSIX record locks, which a child does not inherit.

Threads: taking a flock (open, lock, register for forks), releasing it (close, forget
the descriptor) and forking each run under one lock, :data:`FORK_LOCK`, so none sees
another half done (the ``-O`` feed files of :mod:`newsstem.urldb.feeds` are opened and
closed under it too). Without it a thread's release could close a descriptor number that
another release had closed and a new lock of the same file had been given (the new lock
silently dropped), and a fork in the middle of taking one left the child a copy nobody
closes (the lock held as long as the child lived).
"""

from __future__ import annotations

import os
import sqlite3
import threading
import weakref
from pathlib import Path
from typing import Protocol

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]


class LockBusy(Exception):
    """Another process holds the lock (exclusively, or at all for an exclusive one)."""


class _ForkAware(Protocol):
    def _close_after_fork(self) -> None: ...


_HELD: weakref.WeakSet[_ForkAware] = weakref.WeakSet()


def close_in_forked_child(holder: _ForkAware) -> None:
    """Have ``holder._close_after_fork()`` called in each child forked from now on (call
    it under :data:`FORK_LOCK` with the descriptor's opening, and close the descriptor
    under it: a fork between the two would leave the child a copy nobody closes)."""
    _HELD.add(holder)


#: held while a flock is taken or released and across a fork (so the child sees each
#: holder's descriptor either open and registered or closed and forgotten); a holder
#: registered with :func:`close_in_forked_child` opens and closes its descriptor under
#: it; reentrant, so a fork made by a thread holding it (none does) would not wait for
#: itself
FORK_LOCK = threading.RLock()


def _before_fork() -> None:
    FORK_LOCK.acquire()  # waits for a flock being taken or released by another thread


def _after_fork_in_parent() -> None:
    FORK_LOCK.release()


def _after_fork_in_child() -> None:
    try:
        for holder in list(_HELD):
            try:
                holder._close_after_fork()
            except Exception:  # noqa: BLE001 (a child's cleanup must not stop the child)
                pass
        _HELD.clear()
    finally:
        FORK_LOCK.release()  # the child's copy, taken by this same thread before the fork


if hasattr(os, "register_at_fork"):  # (not on Windows, which has no fork)
    os.register_at_fork(
        before=_before_fork,
        after_in_parent=_after_fork_in_parent,
        after_in_child=_after_fork_in_child,
    )


class HeldLock:
    """A lock taken by :func:`hold`; :meth:`release` gives it up (twice is harmless)."""

    def release(self) -> None:
        raise NotImplementedError


class _Flock(HeldLock):
    def __init__(self, path: Path, exclusive: bool) -> None:
        assert fcntl is not None
        with FORK_LOCK:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, (fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH) | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                raise LockBusy(str(path)) from None
            except BaseException:
                os.close(fd)
                raise
            self._fd: int | None = fd
            close_in_forked_child(self)

    def release(self) -> None:
        with FORK_LOCK:
            self._close()

    def _close(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)  # the last descriptor of it closed drops the lock

    def _close_after_fork(self) -> None:
        self._close()  # the child's copy only: the parent's lock stays (FORK_LOCK is held)


class _SqliteLock(HeldLock):
    def __init__(self, path: Path, exclusive: bool) -> None:
        db = sqlite3.connect(path, timeout=0, isolation_level=None, check_same_thread=False)
        try:
            if exclusive:
                db.execute("BEGIN EXCLUSIVE")
            else:  # a read transaction holds SQLite's shared lock until it ends
                db.execute("BEGIN")
                db.execute("SELECT count(*) FROM sqlite_master").fetchall()
        except sqlite3.OperationalError as exc:
            db.close()
            if "locked" in str(exc) or "busy" in str(exc):
                raise LockBusy(str(path)) from None
            raise
        self._db: sqlite3.Connection | None = db

    def release(self) -> None:
        if self._db is not None:
            self._db.close()  # ends the transaction: the lock is dropped
            self._db = None


def hold(path: Path, exclusive: bool) -> HeldLock:
    """A shared (or ``exclusive``) lock on the file at ``path``, created if absent;
    :class:`LockBusy` at once if another process holds it."""
    if fcntl is not None:
        return _Flock(path, exclusive)
    return _SqliteLock(path, exclusive)
