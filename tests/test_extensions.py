"""Extensions: no Public Suffix List download, stats written as JSON."""

from __future__ import annotations

import json

import pytest
from scrapy.exceptions import NotConfigured
from scrapy.statscollectors import MemoryStatsCollector
from scrapy.utils.test import get_crawler

from newsstem.extensions import OfflineTldExtract, StatsFile


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
