"""Fixtures of the URL store tests: a generated news site and a fresh store of each backend."""

from __future__ import annotations

import uuid

import pytest

from support.newssite import GeneratedNewsSite


@pytest.fixture
def news_site():
    """3 sections of 6 articles (18 articles, 4 hubs) on a fresh server; stopped after the test."""
    site = GeneratedNewsSite(sections=3, articles_per_section=6).start()
    yield site
    site.stop()


@pytest.fixture(params=["sqlite", "redis"])
def store_uri(request, tmp_path):
    """The URI of a fresh, empty store: a SQLite file, or a new prefix on the test redis-server."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'store' / 'urldb.sqlite'}"
    server = request.getfixturevalue("redis_server")
    return f"{server.url}?prefix=crawl-{uuid.uuid4().hex[:8]}"
