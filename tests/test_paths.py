"""Output paths checked before a crawl starts (newsstem.paths), on real files."""

from __future__ import annotations

import pytest
from scrapy.exceptions import UsageError
from scrapy.settings import Settings

from newsstem.paths import check_output_paths, unwritable


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
