"""The project's settings (newsstem/settings.py) with a user's own on top, in a real crawl of
the msnbc pages of tests/layout/fixtures (``msnbc_site``, tests/conftest.py)."""

from __future__ import annotations

import json

from support.crawl import scrapy

PIPELINE = '''
import dataclasses


class WordCount:
    """A user's pipeline: adds a field to each article."""

    def process_item(self, item):
        row = dataclasses.asdict(item)
        row["word_count"] = len(row["body"].split())
        return row
'''


def test_a_pipeline_of_yours_in_item_pipelines_runs_after_newsstems(msnbc_site, tmp_path):
    # -s ITEM_PIPELINES replaced newsstem's pipelines: every page, the hub too, was exported
    # whole (url, html, encoding…) as an "article", and recorded as exported
    (tmp_path / "mine.py").write_text(PIPELINE)
    out = tmp_path / "articles.jsonl"
    result = scrapy("crawl", "news", "-a", f"start_url={msnbc_site.url}/index.html",
                    "-O", str(out), path=tmp_path,
                    settings={"ITEM_PIPELINES": json.dumps({"mine.WordCount": 500})})
    assert result.returncode == 0, result.stderr
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 12  # the 12 articles, not the hub page
    assert all(row["method"] == "readability" and row["title"] for row in rows)
    assert all("html" not in row for row in rows)
    assert all(row["word_count"] == len(row["body"].split()) > 50 for row in rows)
    assert "'newsstem.pipelines.ExtractionPipeline'" in result.stderr


def test_middlewares_of_yours_leave_newsstems_in_place(msnbc_site, tmp_path):
    # -s SPIDER_MIDDLEWARES='{…}' replaced newsstem's: NEWSSTEM_ARCHIVE was set and no WARC
    # was written (exit status 0, nothing said), the URL store was off; -s
    # DOWNLOADER_MIDDLEWARES='{…}' brought Scrapy's robots.txt middleware back
    from newsstem.archive import read_archive

    archive = tmp_path / "crawl.warc.gz"
    out = tmp_path / "articles.jsonl"
    settings = {
        "SPIDER_MIDDLEWARES": json.dumps({"scrapy.spidermiddlewares.depth.DepthMiddleware": 900}),
        "DOWNLOADER_MIDDLEWARES": json.dumps(
            {"scrapy.downloadermiddlewares.useragent.UserAgentMiddleware": 500}),
        "NEWSSTEM_ARCHIVE": str(archive),
        "NEWSSTEM_URLDB": f"sqlite:///{tmp_path / 'urldb.sqlite'}",
    }
    result = scrapy("crawl", "news", "-a", f"start_url={msnbc_site.url}/index.html",
                    "-O", str(out), settings=settings)
    assert result.returncode == 0, result.stderr
    assert len(out.read_text(encoding="utf-8").splitlines()) == 12
    pages = [page.url for page in read_archive(archive)]
    assert f"{msnbc_site.url}/index.html" in pages and len(pages) >= 13
    assert "known URLs skipped (URL store): 0" in result.stderr
    assert "'newsstem.middlewares.SafeRobotsTxtMiddleware'" in result.stderr
    assert "'scrapy.downloadermiddlewares.robotstxt.RobotsTxtMiddleware'" not in result.stderr


def test_a_feed_storage_of_yours_keeps_newsstems_durable_file_storage():
    # FEED_STORAGES='{"upload": …}' (a scheme of yours) replaced newsstem's storages: local
    # -o/-O files went back to Scrapy's, not fsynced before their articles were recorded
    from scrapy.settings import Settings

    import newsstem.settings

    settings = Settings()
    settings.setmodule(newsstem.settings, priority="project")
    settings.set("FEED_STORAGES", {"upload": "tests.support.feedstorage.UploadStorage"},
                 priority="cmdline")
    storages = settings.getwithbase("FEED_STORAGES")
    assert storages["upload"] == "tests.support.feedstorage.UploadStorage"
    assert storages["file"] == storages[""] == "newsstem.urldb.feeds.DurableFileFeedStorage"
    assert storages["stdout"] == "newsstem.urldb.feeds.FlushedStdoutFeedStorage"
    assert "s3" in storages  # Scrapy's own schemes stay


def test_a_component_of_newsstems_set_to_none_in_yours_is_switched_off():
    # the switch docs/reference/settings.md gives ({"newsstem.pipelines.DuplicatePipeline":
    # null}), for each setting whose base holds newsstem's components
    from scrapy.settings import Settings
    from scrapy.utils.conf import build_component_list

    import newsstem.settings

    settings = Settings()
    settings.setmodule(newsstem.settings, priority="project")
    for name, component in (
        ("ITEM_PIPELINES", "newsstem.pipelines.DuplicatePipeline"),
        ("SPIDER_MIDDLEWARES", "newsstem.archive.WarcArchive"),
        ("DOWNLOADER_MIDDLEWARES", "newsstem.middlewares.DownloadErrors"),
        ("EXTENSIONS", "newsstem.extensions.StatsFile"),
    ):
        assert component in build_component_list(settings.getwithbase(name))
        settings.set(name, {component: None}, priority="cmdline")
        assert component not in build_component_list(settings.getwithbase(name)), name
