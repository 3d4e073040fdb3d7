"""``scrapy shell --spider=news URL``: the page given is the start URL (Scrapy's shell takes no
``-a``; it stopped with its usage block and ``news: give at least one start URL``), and the
shell runs without a URL store (a session left open held its lease). The site: the msnbc
pages of tests/layout/fixtures (``msnbc_site``, tests/conftest.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest
from support.crawl import REPO, TEST_SETTINGS, scrapy


def test_shell_with_the_news_spider_fetches_the_page_given(msnbc_site):
    url = f"{msnbc_site.url}/news_03.html"
    code = "(type(spider).__name__, spider.scope.start_urls, response.status)"
    result = scrapy("shell", "--spider=news", url, "-c", code)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert f"('NewsSpider', ('{url}',), 200)" in result.stdout
    assert "/news_03.html" in msnbc_site.paths()


@pytest.mark.parametrize(
    ("arguments", "line"),
    [
        (["--spider=nwes", "{url}"], "shell: no spider named 'nwes' (this project's spiders: news)"),
        (["--spider=news"], "shell: --spider=news needs the URL to start from"),
        (["--spider=news", "ftp://127.0.0.1/x"], "news: start URL 'ftp://127.0.0.1/x' is not"),
    ],
)
def test_a_spider_or_url_the_shell_cannot_use_is_one_line_and_status_2(msnbc_site, arguments, line):
    # Scrapy printed its usage block (no start URL) or a KeyError traceback (no such spider)
    url = f"{msnbc_site.url}/news_03.html"
    msnbc_site.clear()
    result = scrapy("shell", *(a.replace("{url}", url) for a in arguments), "-c", "1")
    assert result.returncode == 2, result.stderr
    errors = [x for x in result.stderr.splitlines() if "error" in x.lower()]
    assert len(errors) == 1 and errors[0].startswith(f"scrapy: error: {line}"), result.stderr
    assert "Traceback" not in result.stderr and "Usage" not in result.stdout + result.stderr
    assert msnbc_site.paths(status=None) == []


def test_an_open_shell_leaves_the_url_store_to_the_crawls(msnbc_site, tmp_path):
    # the shell opened the crawl's URL store and held its lease while it stayed open:
    # `scrapy urldb prune` refused ("a crawl is using the URL store")
    from newsstem.urldb.sqlite_store import SqliteUrlStore

    SqliteUrlStore(tmp_path / "urldb.sqlite").close()  # a store earlier crawls made
    store = f"sqlite:///{tmp_path / 'urldb.sqlite'}"
    command = [sys.executable, "-m", "scrapy", "shell", f"{msnbc_site.url}/news_03.html",
               "-c", "__import__('time').sleep(8)"]
    for key, value in {**TEST_SETTINGS, "NEWSSTEM_URLDB": store}.items():
        command += ["-s", f"{key}={value}"]
    shell = subprocess.Popen(command, cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)},
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while "/news_03.html" not in msnbc_site.paths() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert shell.poll() is None, "the shell ended before prune ran"
        pruned = scrapy("urldb", "prune", "--older-than", "30d", settings={"NEWSSTEM_URLDB": store})
        assert pruned.returncode == 0, pruned.stderr
        assert "is using the URL store" not in pruned.stderr
    finally:
        _, stderr = shell.communicate(timeout=60)
    assert shell.returncode == 0, stderr
    assert "URL store" not in stderr, stderr

