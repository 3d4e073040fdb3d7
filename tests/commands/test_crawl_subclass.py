"""``scrapy crawl`` of a spider of your own built on the news spider (docs/spider.md, "A spider
of your own"): its ``custom_settings`` count in the checks made before the crawl starts.
The site: the msnbc pages of tests/layout/fixtures (``msnbc_site``, tests/conftest.py)."""

from __future__ import annotations

import json
import subprocess
import textwrap

from support.crawl import scrapy


def _crawl_own_spider(tmp_path, body: str, *args: str,
                      settings: dict | None = None) -> subprocess.CompletedProcess:
    """``scrapy crawl mynews`` in the repository, ``mynews`` a NewsSpider subclass of
    ``body`` in a package of its own (SPIDER_MODULES), written to tmp_path; ``settings``
    given with -s (None: a test setting not given, left to the spider)."""
    package = tmp_path / "mine"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "spiders.py").write_text(
        "from newsstem.spiders.news import NewsSpider\n\n\nclass MyNews(NewsSpider):\n"
        '    name = "mynews"\n' + textwrap.indent(textwrap.dedent(body), "    ")
    )
    return scrapy("crawl", "mynews", *args,
                  settings={"SPIDER_MODULES": "mine.spiders", **(settings or {})}, path=tmp_path)


def test_start_urls_in_the_spiders_custom_settings_start_the_crawl(msnbc_site, tmp_path):
    # the command checked the arguments against the project's settings alone: "news: give
    # at least one start URL", though the crawler would have had one
    out = tmp_path / "out.jsonl"
    body = f"""
    custom_settings = {{"NEWSSTEM_START_URLS": ["{msnbc_site.url}/index.html"],
                       "NEWSSTEM_MIN_ARTICLE_CHARS": 100000}}
    """
    result = _crawl_own_spider(tmp_path, body, "-O", str(out))
    assert result.returncode == 0, result.stderr
    assert "/index.html" in msnbc_site.paths()
    # its other custom setting is the crawl's: no article is that long
    assert "too_short" in result.stderr and out.read_text() == ""


def test_a_bad_value_in_the_spiders_custom_settings_is_one_usage_line(msnbc_site, tmp_path):
    # a misspelt name was ignored, a value that is no number a traceback once started
    for setting, line in (
        ('"NEWSSTEM_MIN_ARTICLE_CHAR": 500',
         "unknown setting NEWSSTEM_MIN_ARTICLE_CHAR (did you mean NEWSSTEM_MIN_ARTICLE_CHARS?)"),
        ('"NEWSSTEM_MIN_ARTICLE_CHARS": "many"',
         "NEWSSTEM_MIN_ARTICLE_CHARS must be a whole number, not 'many'"),
    ):
        msnbc_site.clear()
        body = f"custom_settings = {{{setting}}}\n"
        run = tmp_path / setting.split('"')[1]
        run.mkdir()
        result = _crawl_own_spider(run, body, "-a", f"start_url={msnbc_site.url}/index.html")
        assert result.returncode == 2, result.stderr
        assert result.stderr.strip() == f"scrapy: error: {line} (see scrapy crawl -h)"
        assert msnbc_site.paths(status=None) == []


def test_the_subclass_start_urls_are_its_start_urls(msnbc_site, tmp_path):
    # Scrapy's start_urls attribute was ignored: "news: give at least one start URL"
    out = tmp_path / "out.jsonl"
    body = f"""
    start_urls = ["{msnbc_site.url}/index.html"]
    custom_settings = {{"NEWSSTEM_URL_RULES": ["+/news_0[3-6]"]}}
    """
    result = _crawl_own_spider(tmp_path, body, "-O", str(out))
    assert result.returncode == 0, result.stderr
    urls = sorted(json.loads(line)["url"] for line in out.read_text().splitlines())
    assert urls == [f"{msnbc_site.url}/news_0{n}.html" for n in (3, 4, 6)]
    # -a start_url still wins
    msnbc_site.clear()
    again = tmp_path / "again"
    again.mkdir()
    result = _crawl_own_spider(again, body, "-a", f"start_url={msnbc_site.url}/news_07.html",
                               "-a", "depth=0")
    assert result.returncode == 0, result.stderr
    assert [p for p in msnbc_site.paths() if p.endswith(".html")] == ["/news_07.html"]


def test_the_subclass_usage_errors_start_with_its_own_name(msnbc_site, tmp_path):
    # they started "news:", a spider the user never named
    msnbc_site.clear()  # (the site is the module's: the tests above asked it for pages)
    for arguments, line in (
        (("-a", "depth=two"), "mynews: depth must be an integer >= 0, not 'two'"),
        (("-a", "depht=2"), "mynews: unknown argument 'depht' (did you mean depth?)"),
        (("-a", "start_url=ftp://site/"),
         "mynews: start URL 'ftp://site/' is not an http(s) URL with a host"),
    ):
        run = tmp_path / arguments[1].split("=")[0]
        run.mkdir()
        result = _crawl_own_spider(run, "pass\n", *arguments,
                                   *(("-a", f"start_url={msnbc_site.url}/index.html")
                                     if "start_url" not in arguments[1] else ()))
        assert result.returncode == 2, result.stderr
        assert result.stderr.strip() == f"scrapy: error: {line} (see scrapy crawl -h)"
    assert msnbc_site.paths(status=None) == []


def test_the_spiders_outputs_store_and_archive_are_checked_before_the_crawl(msnbc_site, tmp_path):
    # the checks before the crawl read the project's settings and -s only: given in the
    # spider's custom_settings, a FEEDS file that cannot be written was a traceback and
    # exit status 0, a bad URL store an asyncio traceback, an archive that cannot be
    # written a traceback on every page (exit status 0, nothing exported)
    in_the_way = tmp_path / "a-file"
    in_the_way.write_text("")
    start = f"{msnbc_site.url}/index.html"
    for setting, status, line in (
        (f'"FEEDS": {{"{in_the_way}/out.jsonl": {{"format": "jsonlines"}}}}', 2,
         f"scrapy: error: crawl: cannot write the articles to {in_the_way}/out.jsonl: "),
        (f'"FEEDS": {{"{tmp_path}/out.csv": {{"format": "csv", "fields": ["url", "titel"]}}}}',
         2, (f"scrapy: error: crawl: FEEDS['{tmp_path}/out.csv']['fields']: 'titel' is no "
             "field of the articles (did you mean title?)")),
        (f'"NEWSSTEM_URLDB": "sqlite:///{in_the_way}/urldb.sqlite"', 1,
         "newsstem: URL store error: "),
        (f'"NEWSSTEM_ARCHIVE": "{in_the_way}/crawl.warc.gz"', 1,
         f"newsstem: archive error: cannot write the archive {in_the_way}/crawl.warc.gz: "),
        ('"HTTPERROR_ALLOWED_CODES": "404,gone"', 2,
         "scrapy: error: HTTPERROR_ALLOWED_CODES must be HTTP statuses (404,410), not "),
    ):
        msnbc_site.clear()
        run = tmp_path / str(len(list(tmp_path.iterdir())))
        run.mkdir()
        result = _crawl_own_spider(run, f"custom_settings = {{{setting}}}\n", "-a",
                                   f"start_url={start}", settings={"NEWSSTEM_URLDB": None})
        assert result.returncode == status, result.stderr
        assert result.stderr.startswith(line) and result.stderr.count("\n") == 1, result.stderr
        assert msnbc_site.paths(status=None) == []


def test_the_spiders_allowed_codes_given_as_strings_let_the_pages_through(msnbc_site, tmp_path):
    # -s HTTPERROR_ALLOWED_CODES=404 was made numbers, the same string in custom_settings
    # was not: Scrapy allowed no status, and the 404 page never reached the spider
    body = 'custom_settings = {"HTTPERROR_ALLOWED_CODES": "404"}\n'
    result = _crawl_own_spider(tmp_path, body, "-a",
                               f"start_url={msnbc_site.url}/missing.html", "-a", "depth=0")
    assert "/missing.html" in msnbc_site.paths(status=None)
    assert "pages not exported: 1 (" in result.stderr, result.stderr
    # a page the crawl allowed: not an error, not a crawl that reached nothing (exit 3)
    assert result.returncode == 0 and "  errors: 0\n" in result.stderr, result.stderr


def test_the_spiders_handle_httpstatus_list_lets_its_statuses_through(msnbc_site, tmp_path):
    # Scrapy's HttpErrorMiddleware reads a spider's handle_httpstatus_list; DownloadErrors
    # did not: the 404 was a failed request, never reached the spider, and the crawl of
    # that one page exited with status 3. An allowed status is a page, not an error
    msnbc_site.clear()
    result = _crawl_own_spider(tmp_path, "handle_httpstatus_list = [404]\n", "-a",
                               f"start_url={msnbc_site.url}/missing.html", "-a", "depth=0")
    assert result.returncode == 0, result.stderr
    assert "/missing.html" in msnbc_site.paths(status=None)
    assert "  pages fetched: 1 (allowed HTTP statuses: 404 1)\n" in result.stderr
    assert "  errors: 0\n" in result.stderr and "download failed" not in result.stderr
