"""NEWSSTEM_BODY_FORMAT in real crawls and in ExtractionPipeline (newsstem/pipelines.py).

The crawls fetch tests/fixtures/formats (three real pages with headings, lists, a quote
and a table; sources in tests/fixtures/SOURCES.md) from a server on 127.0.0.1.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from scrapy.statscollectors import MemoryStatsCollector
from scrapy.utils.test import get_crawler

from newsstem.formats import markdown_text
from newsstem.items import Page
from newsstem.pipelines import ExtractionPipeline
from newsstem.readability import extract
from newsstem.readability.render import html_text
from newsstem.text import meaningful_length
from support.crawl import REPO, run_crawl
from support.httpserver import FixtureSite

FORMATS = Path(__file__).parent / "fixtures" / "formats"
ARTICLES = ("e3.html", "factorio.html", "poll.html")


@pytest.fixture
def formats_site():
    server = FixtureSite(FORMATS).start()
    yield server
    server.stop()


def crawl(tmp_path, site, **settings):
    result = run_crawl(tmp_path, "-a", f"start_url={site.url}/index.html",
                       settings={k: str(v) for k, v in settings.items()})
    assert result.returncode == 0, result.log
    by_page = {item["url"].rsplit("/", 1)[-1]: item for item in result.items}
    assert sorted(by_page) == sorted(ARTICLES)
    return by_page


def text_body(name: str) -> str:
    return extract((FORMATS / name).read_bytes()).body


def test_a_markdown_crawl_exports_the_headings_lists_quotes_and_tables_of_the_pages(
    tmp_path, formats_site
):
    articles = crawl(tmp_path, formats_site, NEWSSTEM_BODY_FORMAT="markdown")
    for name, article in articles.items():
        assert markdown_text(article["body"]) == text_body(name)  # the same paragraphs
        assert article["length"] == meaningful_length(text_body(name))  # counted on the text
        assert article["body_html"] is None
        assert article["language"].startswith("en")  # read on the text, not the markup
    e3 = articles["e3.html"]["body"].split("\n")
    assert "### Super Mario Odyssey, Dragon Quest XI, and … Metroid?" in e3
    assert "1. More Super Mario Odyssey footage" in e3
    assert any(line.startswith("> E3 is always a big time for Nintendo.") for line in e3)
    factorio = articles["factorio.html"]["body"]
    assert "## The release plan (kovarex)\n\nThis week was the time" in factorio
    assert "- Final looks and behaviour of new GUI screens as they will be finished.\n- New graphics." in factorio
    assert "| Women | 47 | 36 | 8 |" in articles["poll.html"]["body"].split("\n")


def test_an_html_crawl_exports_the_cleaned_html_as_body_and_body_html_stays_its_own_setting(
    tmp_path, formats_site
):
    articles = crawl(tmp_path, formats_site, NEWSSTEM_BODY_FORMAT="html", NEWSSTEM_BODY_HTML=True)
    for name, article in articles.items():
        assert article["body"].startswith("<") and article["body"] == article["body_html"]
        assert html_text(article["body"]) == text_body(name)


def test_scrapy_extract_exports_the_same_markdown_as_the_crawl(tmp_path, formats_site):
    archive = tmp_path / "crawl.warc.gz"
    crawled = crawl(tmp_path, formats_site, NEWSSTEM_BODY_FORMAT="markdown",
                    NEWSSTEM_ARCHIVE=archive)
    output = tmp_path / "extracted.jsonl"
    command = [sys.executable, "-m", "scrapy", "extract", "--input", str(archive),
               "-O", str(output), "-s", "NEWSSTEM_BODY_FORMAT=markdown",
               "-s", "LOG_LEVEL=WARNING"]
    proc = subprocess.run(command, cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)},
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    extracted = [json.loads(line) for line in output.read_text(encoding="utf-8").splitlines()]
    assert {item["url"].rsplit("/", 1)[-1]: item["body"] for item in extracted} == {
        name: article["body"] for name, article in crawled.items()
    }


def test_a_bad_format_stops_the_crawl_before_any_request(tmp_path, formats_site):
    result = run_crawl(tmp_path, "-a", f"start_url={formats_site.url}/index.html",
                       settings={"NEWSSTEM_BODY_FORMAT": "pdf"})
    assert result.returncode == 2
    assert "NEWSSTEM_BODY_FORMAT must be one of text, markdown, html, not 'pdf'" in result.log
    assert formats_site.paths(status=None) == []


def test_the_pipeline_keeps_the_plain_text_for_the_pipelines_after_it():
    page = Page(url="http://127.0.0.1/e3.html", site="127.0.0.1",
                html=(FORMATS / "e3.html").read_text(encoding="utf-8"), encoding="utf-8",
                depth=1, fetched_at="2026-11-21T23:55:05Z")
    crawler = get_crawler(settings_dict={"NEWSSTEM_PATTERNS_DIR": "",
                                         "NEWSSTEM_BODY_FORMAT": "markdown",
                                         "NEWSSTEM_BODY_LINKS": "True"})
    crawler.stats = MemoryStatsCollector(crawler)
    article = ExtractionPipeline.from_crawler(crawler).process_item(page)
    assert article.text == text_body("e3.html")
    assert "[Nintendo Everything](http://nintendoeverything.com/" in article.body
