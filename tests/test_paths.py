"""Output paths checked before a crawl starts (newsstem.paths), on real files."""

from __future__ import annotations

import pytest
from scrapy.exceptions import UsageError
from scrapy.settings import Settings

from newsstem.paths import check_feed_fields, check_output_paths, unwritable


def test_checking_an_existing_feed_file_leaves_it_as_it_was(tmp_path):
    # -o appends to it, and a check that truncated it would lose the earlier run's articles
    feed = tmp_path / "articles.jsonl"
    feed.write_text('{"url": "an earlier article"}\n')
    assert unwritable(feed) is None
    assert feed.read_text() == '{"url": "an earlier article"}\n'
    new = tmp_path / "sub" / "new.jsonl"
    assert unwritable(new) is None
    assert not new.exists() and new.parent.is_dir()  # its directory made, no empty file


def test_a_directory_where_the_file_should_be_is_said(tmp_path):
    assert unwritable(tmp_path) == f"{tmp_path} is a directory"


@pytest.mark.parametrize("uri", ["stdout:", "s3://bucket/%(time)s.jsonl", "ftp://h/a.jsonl"])
def test_feeds_that_are_not_local_files_are_left_to_scrapy(uri, tmp_path, monkeypatch):
    # read as a local path, the check would make its directory in the working folder
    # ("s3:/bucket", "ftp:/h") or probe a file there: nothing may appear
    monkeypatch.chdir(tmp_path)
    check_output_paths(Settings({"FEEDS": {uri: {"format": "jsonlines"}}}), "crawl")
    assert list(tmp_path.iterdir()) == []


def test_a_file_uri_and_a_path_with_parameters_are_checked(tmp_path):
    (tmp_path / "file").write_text("x")
    for uri in (f"file://{tmp_path}/file/a.jsonl", f"{tmp_path}/file/%(name)s/a.jsonl"):
        with pytest.raises(UsageError, match=f"cannot write the articles to .*{tmp_path}/file"):
            check_output_paths(Settings({"FEEDS": {uri: {"format": "jsonlines"}}}), "crawl")
    fine = f"{tmp_path}/out/%(name)s-%(time)s.jsonl"
    check_output_paths(Settings({"FEEDS": {fine: {"format": "jsonlines"}}}), "crawl")
    assert (tmp_path / "out").is_dir() and list((tmp_path / "out").iterdir()) == []


@pytest.mark.parametrize(
    ("setting", "line"),
    [
        ({"FEED_EXPORT_FIELDS": "url,titel,authors"},
         "crawl: FEED_EXPORT_FIELDS: 'titel' is no field of the articles (did you mean title?)"),
        ({"FEED_EXPORT_FIELDS": '{"url": "URL", "author": "Author"}'},
         "crawl: FEED_EXPORT_FIELDS: 'author' is no field of the articles (did you mean authors?)"),
    ],
)
def test_a_misspelt_feed_field_stops_the_crawl_before_any_request(msnbc_site, tmp_path,
                                                                  setting, line):
    # Scrapy exported it as an empty column, after the whole crawl
    from support.crawl import scrapy

    msnbc_site.clear()
    out = tmp_path / "articles.csv"
    result = scrapy("crawl", "news", "-a", f"start_url={msnbc_site.url}/index.html",
                    "-O", str(out), settings=setting)
    assert result.returncode == 2, result.stderr
    assert result.stderr.strip() == f"scrapy: error: {line} (see scrapy crawl -h)"
    assert msnbc_site.paths(status=None) == [] and not out.exists()


def test_feed_fields_of_the_articles_or_of_a_pipeline_of_yours_are_exported(msnbc_site,
                                                                          tmp_path):
    # a name close to no field ("word_count", which a pipeline may add) is left to Scrapy
    import csv

    from support.crawl import scrapy

    out = tmp_path / "articles.csv"
    result = scrapy("crawl", "news", "-a", f"start_url={msnbc_site.url}/index.html",
                    "-O", str(out), settings={"FEED_EXPORT_FIELDS": "url,title,word_count"})
    assert result.returncode == 0, result.stderr
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    assert len(rows) >= 10 and list(rows[0]) == ["url", "title", "word_count"]
    assert all(row["title"] and row["word_count"] == "" for row in rows)


def test_a_feeds_own_field_list_is_checked_too():
    with pytest.raises(UsageError, match=r"FEEDS\['a.csv'\]\['fields'\]: 'published_date' is no "
                                         r"field of the articles \(did you mean published\?\)"):
        check_feed_fields(Settings({"FEEDS": {"a.csv": {"fields": ["url", "published_date"]}}}),
                          "extract")


def test_appending_to_a_whole_json_file_stops_the_crawl_before_any_request(msnbc_site,
                                                                            tmp_path):
    # Scrapy wrote a second JSON array after the first, and said nothing: no JSON reader
    # took the file; JSON Lines (-o's file for recurring runs) is appended to as before
    import json

    from support.crawl import scrapy

    start = ("-a", f"start_url={msnbc_site.url}/index.html")
    first = scrapy("crawl", "news", *start, "-O", str(tmp_path / "articles.json"))
    assert first.returncode == 0, first.stderr
    written = (tmp_path / "articles.json").read_bytes()
    assert len(json.loads(written)) >= 10
    msnbc_site.clear()
    again = scrapy("crawl", "news", *start, "-o", str(tmp_path / "articles.json"))
    assert again.returncode == 2, again.stderr
    [line] = again.stderr.splitlines()
    assert line.startswith(f"scrapy: error: crawl: -o would append a second JSON array to "
                           f"{tmp_path / 'articles.json'}, which holds one already"), line
    assert f"-o {tmp_path / 'articles.jsonl'}" in line
    assert msnbc_site.paths(status=None) == []
    assert (tmp_path / "articles.json").read_bytes() == written
    for _ in range(2):
        lines = scrapy("crawl", "news", *start, "-o", str(tmp_path / "articles.jsonl"))
        assert lines.returncode == 0, lines.stderr
    rows = (tmp_path / "articles.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(rows) == 2 * len(json.loads(written))
