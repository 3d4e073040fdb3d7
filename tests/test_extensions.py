"""Extensions: no Public Suffix List download, stats written as JSON, the periodic
line of an extraction."""

from __future__ import annotations

import json
import logging

import pytest
from scrapy.exceptions import NotConfigured
from scrapy.statscollectors import MemoryStatsCollector
from scrapy.utils.test import get_crawler

from newsstem.extensions import ExtractionLogStats, OfflineTldExtract, StatsFile


def test_scrapy_cookie_domain_checks_use_the_bundled_suffix_list(monkeypatch):
    from scrapy.downloadermiddlewares import cookies

    monkeypatch.setattr(cookies, "_split_domain", cookies._split_domain)  # restored after the test
    OfflineTldExtract()
    assert cookies._split_domain.suffix_list_urls == ()
    # answered from the snapshot, no download attempted
    assert cookies._is_public_domain("co.uk") and not cookies._is_public_domain("bbc.co.uk")


def test_stats_file_is_written_at_close(tmp_path):
    path = tmp_path / "stats.json"
    crawler = get_crawler(settings_dict={"NEWSSTEM_STATS_FILE": str(path)})
    stats = MemoryStatsCollector(crawler)
    stats.set_value("newsstem/method/readability", 3)
    extension = StatsFile(str(path), stats)
    extension.spider_closed(spider=None, reason="finished")
    stats.set_value("newsstem/urldb/exported", 2)  # counted by a later spider_closed handler
    extension.engine_stopped()
    written = json.loads(path.read_text())
    assert written["newsstem/method/readability"] == 3
    assert written["newsstem/urldb/exported"] == 2
    assert written["finish_reason"] == "finished"


def test_stats_file_is_off_without_a_path():
    with pytest.raises(NotConfigured):
        StatsFile.from_crawler(get_crawler(settings_dict={"NEWSSTEM_STATS_FILE": ""}))


def test_stats_file_directories_are_made_and_an_unwritable_path_is_one_error_line(
    tmp_path, caplog
):
    # /srv/newsstem/stats/example.json (docs/unattended.md) without its directory ended the
    # crawl in a traceback, and the stats were lost
    stats = MemoryStatsCollector(get_crawler(settings_dict={}))
    stats.set_value("item_scraped_count", 1)
    nested = tmp_path / "stats" / "daily" / "example.json"
    StatsFile(str(nested), stats).engine_stopped()
    assert json.loads(nested.read_text())["item_scraped_count"] == 1
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    StatsFile(str(blocker / "stats.json"), stats).engine_stopped()  # does not raise
    assert [r.getMessage() for r in caplog.records if r.levelname == "ERROR"] == [
        f"newsstem: cannot write NEWSSTEM_STATS_FILE {blocker / 'stats.json'}: "
        f"{blocker} is not a directory"
    ]


def test_the_periodic_line_of_an_extraction_counts_pages_read_and_articles(caplog):
    crawler = get_crawler(settings_dict={"LOGSTATS_INTERVAL": 30.0})
    stats = MemoryStatsCollector(crawler)
    extension = ExtractionLogStats(stats, 30.0)
    extension.pagesprev = extension.itemsprev = 0  # (spider_opened)
    lines = []
    for read, exported in ((1, 1), (41, 31)):
        stats.set_value("newsstem/archive/read", read)
        stats.set_value("item_scraped_count", exported)
        with caplog.at_level(logging.INFO, logger="newsstem.extensions"):
            caplog.clear()
            extension.log(crawler.spider)
        lines.append(caplog.messages[-1])
    # no "Crawled 0 pages": nothing is fetched, pages are read (rates per minute: x2)
    assert lines == [
        "Read 1 page from archives (at 2 pages/min), exported 1 article (at 2 articles/min)",
        "Read 41 pages from archives (at 80 pages/min), exported 31 articles (at 60 "
        "articles/min)",
    ]
