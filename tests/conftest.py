"""Shared fixtures: the fixture news site served over real HTTP on 127.0.0.1."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from support.httpserver import FixtureSite

FIXTURES = Path(__file__).parent / "fixtures"
LAYOUT_FIXTURES = Path(__file__).parent / "layout" / "fixtures"

# The conftest.py files of tests/*/ hold fixtures, no doctests: --doctest-modules imported
# each as the module `conftest`, and two of them clashed when their directories ran in one
# command. Relative to this directory, so it holds from any working directory (an
# --ignore-glob in pyproject.toml's addopts is read relative to the one pytest starts in).
collect_ignore_glob = ["*/conftest.py"]


def _unused_port() -> int:
    """A port nothing listens on (bound, then released): links to it must never be followed."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def site():
    """The fixture news site on a fresh server; stopped after the test."""
    server = FixtureSite(FIXTURES / "site", other_port=_unused_port()).start()
    yield server
    server.stop()


@pytest.fixture
def gold():
    """Gold text of a fixture article, by its URL path ("/news/paul-ryan.html")."""

    def read(path: str) -> str:
        name = path.strip("/").replace("/", "_").removesuffix(".html") + ".txt"
        return (FIXTURES / "gold" / name).read_text(encoding="utf-8")

    return read


@pytest.fixture(scope="module")
def msnbc_site():
    """The 12 msnbc article pages of one layout and their hub page (index.html), in
    tests/layout/fixtures, served gzipped over real HTTP on 127.0.0.1: a fresh server for
    each test module, as tests change its routes (a redesign)."""
    server = FixtureSite(LAYOUT_FIXTURES / "msnbc").start()
    yield server
    server.stop()


# --- URL store (newsstem.urldb) ----------------------------------------------


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory):
    """A real redis-server on 127.0.0.1 for the session; tests isolate themselves by key prefix."""
    from support.redisserver import RedisServer, redis_available

    if not redis_available():
        pytest.skip("redis-server is not installed (CI installs it with apt-get)")
    server = RedisServer(tmp_path_factory.mktemp("redis")).start()
    yield server
    server.stop()


@pytest.fixture
def own_redis(tmp_path):
    """A redis-server of this test alone, which it may pause (SIGSTOP) or fill as it
    likes; resumed before it is stopped."""
    from support.redisserver import own_redis_server

    with own_redis_server(tmp_path) as server:
        yield server
