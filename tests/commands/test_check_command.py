"""``scrapy check`` (newsstem.commands.check): the contracts of a spider of your own built on
the news spider (docs/spider.md) run on the fixture site (a real HTTP server on 127.0.0.1),
without a URL store. The site: the msnbc pages of tests/layout/fixtures (``msnbc_site``)."""

from __future__ import annotations

import sqlite3
import subprocess

from support.crawl import scrapy

CHECKED_SPIDER = '''from newsstem.spiders.news import NewsSpider


class MyNews(NewsSpider):
    name = "mynews"

    def parse(self, response):
        """The front page: its Page item and the links to its articles.

        @url {url}/index.html
        @returns items 1 1
        @returns requests 1
        @scrapes url html status
        """
        return super().parse(response)
'''


def _check(tmp_path, site, *args: str, urldb: str) -> subprocess.CompletedProcess:
    """``scrapy check`` of ``mynews``, a NewsSpider subclass with contracts on its parse,
    in a package of its own (SPIDER_MODULES) written to tmp_path."""
    package = tmp_path / "mine"
    package.mkdir(exist_ok=True)
    (package / "__init__.py").write_text("")
    (package / "spiders.py").write_text(CHECKED_SPIDER.format(url=site.url))
    return scrapy("check", *args, path=tmp_path,
                  settings={"SPIDER_MODULES": "mine.spiders", "NEWSSTEM_URLDB": urldb})


def test_the_contracts_run_whatever_the_url_store(msnbc_site, tmp_path):
    # with a store that could not be opened the crawler failed before any request, and,
    # logging off, check said "Ran 0 contracts" and "OK", exit status 0: nothing checked
    (tmp_path / "a-file").write_text("")
    result = _check(tmp_path, msnbc_site, "mynews",
                    urldb=f"sqlite:///{tmp_path}/a-file/urldb.sqlite")
    assert result.returncode == 0, result.stderr
    assert "Ran 3 contracts" in result.stderr and "OK" in result.stderr, result.stderr
    assert "/index.html" in msnbc_site.paths()


def test_the_contracts_record_nothing_in_the_url_store(msnbc_site, tmp_path):
    # with the crawl's store, the contract's page was recorded as seen, as by a crawl
    store = tmp_path / "urldb.sqlite"
    result = _check(tmp_path, msnbc_site, "mynews", urldb=f"sqlite:///{store}")
    assert result.returncode == 0 and "Ran 3 contracts" in result.stderr, result.stderr
    if store.exists():
        with sqlite3.connect(store) as db:
            tables = [row[0] for row in db.execute("select name from sqlite_master")]
            assert all(db.execute(f"select count(*) from {t}").fetchone()[0] == 0
                       for t in tables if not t.startswith("sqlite_")), tables


def test_a_misspelt_spider_name_is_one_line_naming_the_spiders(msnbc_site, tmp_path):
    # Scrapy's answer was a KeyError traceback
    msnbc_site.clear()  # (the site is the module's: the tests above asked it for pages)
    result = _check(tmp_path, msnbc_site, "mynwes", urldb="")
    assert result.returncode == 2, result.stderr
    assert result.stderr.splitlines() == [(
        "scrapy: error: check: no spider named 'mynwes' (this project's spiders: mynews) "
        "(see scrapy check -h)")]
    assert msnbc_site.paths(status=None) == []


def test_a_spider_given_no_start_url_starts_from_its_contract_url(msnbc_site, tmp_path):
    # the news spider could not be built without a start URL: with logging off (check's
    # default), "Ran 0 contracts", "OK", exit status 0
    result = _check(tmp_path, msnbc_site, urldb="")
    assert result.returncode == 0, result.stderr
    assert "Ran 3 contracts" in result.stderr, result.stderr
