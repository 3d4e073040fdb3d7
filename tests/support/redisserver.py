"""A real redis-server on 127.0.0.1, on a free port, started and stopped (by PID) by the test."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
import redis

REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"
START_TIMEOUT = 10.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class RedisServer:
    """``redis-server`` in the foreground of a child process.

    No persistence, unless ``appendonly``: then every write is in the append-only file
    before Redis answers (``appendfsync always``), so a server killed and started again
    (:meth:`kill`, :meth:`restart`) has all it acknowledged, as a production Redis would.
    """

    directory: Path
    port: int = 0
    process: subprocess.Popen | None = None
    appendonly: bool = False

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisServer:
        for _ in range(5):  # another process may take the free port first: try another
            self.port = free_port()
            if self._launch():
                return self
            self.stop()
        raise RuntimeError("redis-server did not start")

    def restart(self) -> RedisServer:
        """Start the server again on its port (after :meth:`kill` or :meth:`stop`)."""
        if not self._launch():
            self.stop()
            raise RuntimeError(f"redis-server did not start again on port {self.port}")
        return self

    def kill(self) -> None:
        """``kill -9`` by PID: clients see their connections reset."""
        if self.process is not None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait()
            self.process = None

    def pause(self) -> None:
        """``kill -STOP`` by PID: it keeps its connections and answers nothing (a network
        partition as its clients see it)."""
        if self.process is not None:
            os.kill(self.process.pid, signal.SIGSTOP)

    def resume(self) -> None:
        """``kill -CONT`` by PID (harmless when it is not paused)."""
        if self.process is not None and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGCONT)

    def pause_when(self, ready: Callable[[], bool], resume_after: float | None) -> threading.Thread:
        """:meth:`pause` as soon as ``ready()`` (asked every 5 ms, for a minute at most),
        :meth:`resume` ``resume_after`` seconds later (never, if None); in a thread."""

        def watch() -> None:
            deadline = time.monotonic() + 60
            while not ready():
                if time.monotonic() > deadline:
                    return
                time.sleep(0.005)
            self.pause()
            if resume_after is not None:
                time.sleep(resume_after)
                self.resume()

        thread = threading.Thread(target=watch, daemon=True)
        thread.start()
        return thread

    def _launch(self) -> bool:
        persistence = (
            ["--appendonly", "yes", "--appendfsync", "always"]
            if self.appendonly else ["--appendonly", "no"]
        )
        self.process = subprocess.Popen(
            [
                REDIS_SERVER,
                *("--bind", "127.0.0.1", "--port", str(self.port), "--save", ""),
                *persistence,
                *("--dir", str(self.directory), "--daemonize", "no", "--loglevel", "warning"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        return self._wait_ready()

    def _wait_ready(self) -> bool:
        deadline = time.monotonic() + START_TIMEOUT
        client = redis.Redis(port=self.port, socket_connect_timeout=0.5)
        try:
            while time.monotonic() < deadline:
                if self.process.poll() is not None:
                    return False
                try:
                    if client.ping():
                        return True
                except redis.ConnectionError:
                    time.sleep(0.05)
            return False
        finally:
            client.close()

    def client(self) -> redis.Redis:
        return redis.Redis(port=self.port)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()  # SIGTERM to this PID
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None


def redis_available() -> bool:
    return Path(REDIS_SERVER).exists()


@contextmanager
def own_redis_server(tmp_path: Path, appendonly: bool = False) -> Iterator[RedisServer]:
    """A redis-server of one test alone, which the test may kill, restart or pause; the
    test is skipped where redis-server is not installed. Resumed, then stopped, at the end."""
    if not redis_available():
        pytest.skip("redis-server is not installed")
    directory = tmp_path / "redis"
    directory.mkdir()
    server = RedisServer(directory, appendonly=appendonly).start()
    try:
        yield server
    finally:
        server.resume()
        server.stop()
