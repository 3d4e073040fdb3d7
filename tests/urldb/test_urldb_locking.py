"""newsstem.urldb.locking: a flock taken, released and inherited by threads and forks, on
the paths a crawl takes: the SQLite URL store's lease (a crawl's shared, a prune's
exclusive) and the ``-O`` feed file.

The races are made deterministic by pausing one thread at a real call it makes (a
profile hook at its ``os.close`` or ``fcntl.flock``) until the other thread has done its
part, or until the other waits on :data:`~newsstem.urldb.locking.FORK_LOCK` (it would
wait for the paused one). That wait is seen from a watching thread, in the other's frame
(:func:`sys._current_frames`): it stands on a line of the locking code that takes
FORK_LOCK, however that line takes it (an ``acquire()`` call or a ``with``), while the
lock is held; a lock that is free leaves the paused thread paused.
(The fork test comes first: without the fix the release test leaves a lock object whose
descriptor number was closed under it, which a later fork would close in its child.)
"""

from __future__ import annotations

import linecache
import os
import sys
import threading
import time

import pytest

from newsstem.urldb import StoreBusy, feeds, locking, open_store
from newsstem.urldb.store import Lease

pytestmark = pytest.mark.skipif(locking.fcntl is None, reason="flock needs fcntl")

#: a failure bound only: a passing run never waits this long
BOUND_SECONDS = 30


def _called_in_locking(frame, event: str, arg: object, name: str, module=locking) -> bool:
    """A call of the C function ``name`` made by the code of newsstem.urldb.locking (or of
    ``module``)."""
    return (
        event == "c_call"
        and getattr(arg, "__name__", "") == name
        and frame.f_code.co_filename == module.__file__
    )


class Pause:
    """Pauses the thread that calls :meth:`install` at the first call of the C function
    named ``at`` that newsstem.urldb.locking (or ``module``) makes in it, until
    :meth:`resume`."""

    def __init__(self, at: str, module=locking) -> None:
        self.at = at
        self.module = module
        self.reached = threading.Event()  # paused there
        self.go = threading.Event()

    def install(self) -> None:
        def profile(frame, event, arg):
            if _called_in_locking(frame, event, arg, self.at, self.module):
                sys.setprofile(None)
                self.reached.set()
                assert self.go.wait(BOUND_SECONDS), "never resumed"

        sys.setprofile(profile)

    def resume(self) -> None:
        self.go.set()

    def resume_when_waiting_on_the_fork_lock(self, ident: int | None = None) -> None:
        """From now on, resume the paused thread when the thread ``ident`` (the calling
        one by default) waits to take FORK_LOCK while it is held (by the paused one; a
        lock that is free leaves it paused: without the fix the race is then always
        lost). Watched from a thread of its own, until the paused thread is resumed."""
        ident = threading.get_ident() if ident is None else ident

        def watch() -> None:
            deadline = time.monotonic() + BOUND_SECONDS
            while not self.go.is_set() and time.monotonic() < deadline:
                frame = sys._current_frames().get(ident)
                if frame is not None and _takes_the_fork_lock(frame):
                    if locking.FORK_LOCK.acquire(blocking=False):
                        locking.FORK_LOCK.release()
                    else:
                        self.go.set()
                        return
                time.sleep(0.001)

        threading.Thread(target=watch, daemon=True).start()


def _takes_the_fork_lock(frame) -> bool:
    """Whether ``frame`` stands on a line of newsstem's locking code (locking or feeds)
    that takes FORK_LOCK: ``FORK_LOCK.acquire(...)`` or ``with FORK_LOCK``."""
    if frame.f_code.co_filename not in (locking.__file__, feeds.__file__):
        return False
    line = linecache.getline(frame.f_code.co_filename, frame.f_lineno).strip()
    return line.startswith("with FORK_LOCK") or "FORK_LOCK.acquire(" in line


def _in_thread(target) -> tuple[threading.Thread, list[BaseException]]:
    errors: list[BaseException] = []

    def run() -> None:
        try:
            target()
        except BaseException as exc:  # noqa: BLE001 (reported by the test)
            errors.append(exc)
        finally:
            sys.setprofile(None)

    thread = threading.Thread(target=run)
    thread.start()
    return thread, errors


@pytest.fixture
def store(tmp_path):
    """A SQLite URL store: its lease is the flock a crawl (shared) or a prune (exclusive)
    takes on ``<store>.lock``."""
    with open_store(f"sqlite:///{tmp_path / 'urldb.sqlite'}") as opened:
        yield opened


def test_a_fork_while_another_thread_takes_a_lease_leaves_the_child_no_copy(store):
    # Thread T, starting a crawl, has opened the store's lock file and is about to flock
    # it when the main thread forks: the child must not keep T's descriptor (it would hold
    # the crawl's lease after the crawl released it, as long as the child lives: a prune
    # would be refused).
    pause = Pause(at="flock")
    taken: list[Lease] = []

    def take() -> None:
        pause.install()
        taken.append(store.lease(exclusive=False))

    t, t_errors = _in_thread(take)
    assert pause.reached.wait(BOUND_SECONDS)

    def no_copy_in_the_child() -> None:
        taken[0].release()
        store.lease(exclusive=True).release()  # a prune: the living child holds no copy

    _fork_while_paused(pause, t, t_errors, no_copy_in_the_child)


def test_a_release_racing_another_release_leaves_a_lease_taken_again_held(store):
    # Thread B releases a lease and is about to close its descriptor when thread A
    # releases it too (twice is harmless) and takes the lease again (the lowest free
    # descriptor: the number B is closing). B's close must not drop A's new lease, nor
    # fail.
    lease = store.lease(exclusive=True)
    pause = Pause(at="close")

    def release_b() -> None:
        pause.install()
        lease.release()

    b, b_errors = _in_thread(release_b)
    assert pause.reached.wait(BOUND_SECONDS)
    taken_again: list[Lease] = []

    def release_and_take_again_a() -> None:
        pause.resume_when_waiting_on_the_fork_lock()
        lease.release()
        taken_again.append(store.lease(exclusive=True))
        pause.resume()

    a, a_errors = _in_thread(release_and_take_again_a)
    a.join(BOUND_SECONDS)
    b.join(BOUND_SECONDS)
    assert not a.is_alive() and not b.is_alive()
    assert a_errors == [] and b_errors == []
    with pytest.raises(StoreBusy):
        store.lease(exclusive=False).release()  # a crawl: A's lease is still held
    taken_again[0].release()
    store.lease(exclusive=True).release()


def _fork_while_paused(pause: Pause, thread, errors, check) -> None:
    """Fork while ``thread`` is paused (resuming it first if it holds the lock a fork
    waits for), let it end, and run ``check`` while the child lives on: the locks the
    thread took or closed are to be had, the child keeping no copy of them."""
    child_forked_r, child_forked_w = os.pipe()
    child_may_end_r, child_may_end_w = os.pipe()
    pause.resume_when_waiting_on_the_fork_lock()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(child_forked_r)
            os.close(child_may_end_w)
            os.write(child_forked_w, b"f")
            os.read(child_may_end_r, 1)
        finally:
            os._exit(0)
    try:
        os.close(child_forked_w)
        os.close(child_may_end_r)
        assert os.read(child_forked_r, 1) == b"f"
        os.close(child_forked_r)
        pause.resume()
        thread.join(BOUND_SECONDS)
        assert not thread.is_alive() and errors == []
        check()
    finally:
        os.close(child_may_end_w)
        os.waitpid(pid, 0)


def _no_copy_of(path) -> None:
    """A lock of the -O file ``path`` is to be had (no forked child holds a copy)."""
    fd = os.open(path, os.O_WRONLY)
    try:
        assert feeds.lock_exclusive(fd), "the forked child holds the -O file's lock"
    finally:
        os.close(fd)


def test_a_fork_while_another_thread_claims_an_o_feed_file_leaves_the_child_no_copy(tmp_path):
    # Thread T has opened the -O file and is about to flock it when the main thread forks.
    path = tmp_path / "articles.jsonl"
    storage = feeds.DurableFileFeedStorage(
        str(path), feed_options={"format": "jsonlines", "overwrite": True}
    )
    pause = Pause(at="flock", module=feeds)

    def open_and_store() -> None:
        pause.install()
        file = storage.open(spider=None)
        storage.store(file)

    t, t_errors = _in_thread(open_and_store)
    assert pause.reached.wait(BOUND_SECONDS)
    _fork_while_paused(pause, t, t_errors, lambda: _no_copy_of(path))


def test_a_fork_while_another_thread_closes_an_o_feed_file_leaves_the_child_no_copy(tmp_path):
    # Thread T has marked the -O file closed and is about to close its descriptor when
    # the main thread forks: the child must not keep it (its own copy is not closed).
    path = tmp_path / "articles.jsonl"
    storage = feeds.DurableFileFeedStorage(
        str(path), feed_options={"format": "jsonlines", "overwrite": True}
    )
    file = storage.open(spider=None)
    file.write(b'{"url": "a"}\n')
    storage.sync()  # (the directory's fsync closes a descriptor of its own: done now)
    pause = Pause(at="close", module=feeds)

    def store() -> None:
        pause.install()
        storage.store(file)

    t, t_errors = _in_thread(store)
    assert pause.reached.wait(BOUND_SECONDS)
    _fork_while_paused(pause, t, t_errors, lambda: _no_copy_of(path))
    assert path.read_bytes() == b'{"url": "a"}\n'
