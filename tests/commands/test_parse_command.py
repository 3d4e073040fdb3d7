"""``scrapy parse --spider=news URL``: the page given is the start URL when no ``-a`` names
one (stop 33: it ended in an asyncio traceback, no response downloaded). The site: the msnbc
pages of tests/layout/fixtures (``msnbc_site``, tests/conftest.py)."""

from __future__ import annotations

import pytest
from support.crawl import scrapy


def test_parse_reads_the_page_given_without_a_start_url(msnbc_site):
    result = scrapy("parse", "--spider=news", f"{msnbc_site.url}/news_03.html")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert "give at least one start URL" not in result.stderr
    assert "Scraped Items" in result.stdout
    assert f"'url': '{msnbc_site.url}/news_03.html'" in result.stdout
    assert "/news_03.html" in msnbc_site.paths()


def test_parse_checks_the_spider_arguments_as_crawl_does(msnbc_site):
    result = scrapy("parse", "--spider=news", "-a", "depht=2", f"{msnbc_site.url}/news_03.html")
    assert result.returncode == 2
    assert "news: unknown argument 'depht' (did you mean depth?)" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("arguments", "line"),
    [
        (["--spider=nwes", "{url}"], "parse: no spider named 'nwes' (this project's spiders: news)"),
        (["{url}"], "parse: no spider of this project is for {url}; name one with --spider"),
        (["--spider=news"], "parse: give one URL to parse (none was given)"),
        (["--spider=news", "news_03.html"], "parse: give one URL to parse (not 'news_03.html')"),
    ],
)
def test_a_spider_or_url_parse_cannot_use_is_one_line_and_status_2(msnbc_site, arguments, line):
    # Scrapy logged its start-up, then one ERROR line and exited with status 0 (an unknown
    # spider, or a URL no spider claims: the news spider claims none, it has no
    # allowed_domains), or printed its whole help (no URL)
    url = f"{msnbc_site.url}/news_03.html"
    msnbc_site.clear()
    result = scrapy("parse", *(a.replace("{url}", url) for a in arguments))
    assert result.returncode == 2, result.stderr
    [error] = result.stderr.splitlines()
    assert error.startswith(f"scrapy: error: {line.replace('{url}', url)}"), error
    assert msnbc_site.paths(status=None) == []


def _store_content(path):
    """Every row of a SQLite URL store, and the bytes of its files (the store closed)."""
    import sqlite3

    with sqlite3.connect(path) as db:
        rows = sorted(db.execute("SELECT * FROM urls"))
    db.close()
    files = {p.name: p.read_bytes() for p in path.parent.iterdir() if p.name.startswith(path.name)}
    return rows, files


def test_parse_leaves_the_url_store_alone_and_parses_a_known_url(msnbc_site, tmp_path):
    # `scrapy parse` ran with the crawl's URL store: a page the store knew as exported was
    # not parsed ("known, skipped"), and parsing a page recorded its links as seen (and,
    # with -O, its article as exported) as if a crawl had taken them
    from newsstem.urldb.sqlite_store import SqliteUrlStore
    from newsstem.urldb.store import url_key

    url = f"{msnbc_site.url}/news_03.html"
    path = tmp_path / "urldb.sqlite"
    store = SqliteUrlStore(path)
    store.mark_exported([url_key(url)], 1_700_000_000)
    store.close()
    before = _store_content(path)
    result = scrapy("parse", "--spider=news", url, settings={"NEWSSTEM_URLDB": f"sqlite:///{path}"})
    assert result.returncode == 0, result.stderr
    assert f"'url': '{url}'" in result.stdout
    assert _store_content(path) == before
    # the store's middleware is left out: its line spoke of a crawl whose every article
    # is exported ("no URL store (NEWSSTEM_URLDB is empty): every article of the crawl…")
    assert "URL store" not in result.stderr, result.stderr
