"""Durable feed files and which feeds can be synced (newsstem.urldb.feeds)."""

from __future__ import annotations

import errno
import multiprocessing
import os
import sys
import time
from pathlib import Path

import pytest
from scrapy.exceptions import NotConfigured
from scrapy.exporters import CsvItemExporter, JsonLinesItemExporter
from scrapy.extensions.feedexport import FeedExporter
from scrapy.utils.test import get_crawler

from newsstem.urldb import feeds
from newsstem.urldb.feeds import DurableFileFeedStorage, LineBatchFile, drop_cut_line, plan_feeds
from newsstem.urldb.middleware import UrlDbOptions, parse_flag
from scrapy.exceptions import UsageError
from scrapy.settings import Settings


def test_lines_reach_the_file_only_when_synced(tmp_path):
    path = tmp_path / "out.jsonl"
    with LineBatchFile(path, "w") as file:
        exporter = JsonLinesItemExporter(file)
        exporter.export_item({"url": "a"})
        exporter.export_item({"url": "b"})
        assert path.read_bytes() == b""
        file.sync()
        assert path.read_bytes().count(b"\n") == 2
        exporter.export_item({"url": "c"})
    assert path.read_bytes().count(b"\n") == 3  # close writes the rest


def test_a_full_buffer_is_written_up_to_its_last_whole_line(tmp_path, monkeypatch):
    monkeypatch.setattr(feeds, "WRITE_BYTES", 10)
    path = tmp_path / "out.jsonl"
    file = LineBatchFile(path, "w")
    file.write(b"first line\nsecond")
    assert path.read_bytes() == b"first line\n"
    file.write(b" half\n")
    file.close()
    assert path.read_bytes() == b"first line\nsecond half\n"


def test_append_mode_keeps_what_the_file_holds(tmp_path):
    path = tmp_path / "out.jsonl"
    path.write_bytes(b"old\n")
    with LineBatchFile(path, "a") as file:
        file.write(b"new\n")
    assert path.read_bytes() == b"old\nnew\n"
    with LineBatchFile(path, "w") as file:
        file.write(b"only\n")
    assert path.read_bytes() == b"only\n"


def test_csv_exports_through_the_line_batch_file(tmp_path):
    path = tmp_path / "out.csv"
    with LineBatchFile(path, "w") as file:
        exporter = CsvItemExporter(file)
        exporter.start_exporting()
        exporter.export_item({"url": "a", "title": "x, y"})
        exporter.finish_exporting()
        file.sync()
        assert path.read_text().splitlines() == ["url,title", 'a,"x, y"']


@pytest.mark.parametrize(
    ("content", "kept"),
    [
        (b'{"a": 1}\n{"b": 2}\n{"c": 3', b'{"a": 1}\n{"b": 2}\n'),
        (b'{"a": 1}\n', b'{"a": 1}\n'),
        (b'{"cut', b""),
        (b"", b""),
    ],
)
def test_a_line_cut_by_a_kill_is_removed_before_appending(tmp_path, content, kept):
    path = tmp_path / "out.jsonl"
    path.write_bytes(content)
    assert drop_cut_line(path) == len(content) - len(kept)
    assert path.read_bytes() == kept


def test_the_storage_repairs_an_appended_line_file_and_fsyncs_when_stored(tmp_path):
    path = tmp_path / "out.jsonl"
    path.write_bytes(b'{"a": 1}\n{"b"')
    storage = DurableFileFeedStorage(str(path), feed_options={"format": "jsonlines"})
    file = storage.open(spider=None)
    file.write(b'{"c": 3}\n')
    storage.sync()
    assert path.read_bytes() == b'{"a": 1}\n{"c": 3}\n'
    storage.store(file)
    assert file.closed
    storage.sync()  # harmless once stored


def test_only_local_line_format_files_can_be_synced(tmp_path, monkeypatch):
    # stdout into a file, as under pytest's capture: with -s, a terminal or /dev/null is a
    # character device, whose feed is never recorded (the next test)
    settings = {
        "FEEDS": {
            str(tmp_path / "a.jsonl"): {"format": "jsonlines"},
            f"file://{tmp_path / 'b.csv'}": {"format": "csv"},
            str(tmp_path / "c.json"): {"format": "json"},
            str(tmp_path / "d.jsonl.gz"): {
                "format": "jsonlines",
                "postprocessing": ["scrapy.extensions.postprocessing.GzipPlugin"],
            },
            "stdout:": {"format": "jsonlines"},
        },
        "FEED_STORAGES": {
            "": "newsstem.urldb.feeds.DurableFileFeedStorage",
            "file": "newsstem.urldb.feeds.DurableFileFeedStorage",
        },
    }
    with (tmp_path / "stdout").open("w") as stdout:
        monkeypatch.setattr(sys, "stdout", stdout)
        exporter = FeedExporter(get_crawler(settings_dict=settings))
        plans = {plan.uri.rsplit("/", 1)[-1]: plan for plan in plan_feeds(exporter)}
    assert {name for name, plan in plans.items() if plan.syncable} == {"a.jsonl", "b.csv"}
    assert "only complete when closed" in plans["c.json"].why
    assert "compressed" in plans["d.jsonl.gz"].why
    assert "StdoutFeedStorage" in plans["stdout:"].why


def test_stdout_on_a_terminal_or_dev_null_is_never_recorded(monkeypatch):
    settings = {"FEEDS": {"stdout:": {"format": "jsonlines"}}}
    with open(os.devnull, "w") as stdout:
        monkeypatch.setattr(sys, "stdout", stdout)
        [plan] = plan_feeds(FeedExporter(get_crawler(settings_dict=settings)))
    assert (plan.syncable, plan.recorded) == (False, False) and "character device" in plan.why


def test_scrapys_own_file_storage_is_not_trusted_to_be_durable(tmp_path):
    settings = {"FEEDS": {str(tmp_path / "a.jsonl"): {"format": "jsonlines"}}}
    [plan] = plan_feeds(FeedExporter(get_crawler(settings_dict=settings)))
    assert not plan.syncable and "FileFeedStorage" in plan.why


def test_urldb_settings_are_checked():
    options = UrlDbOptions.from_settings(
        Settings({"NEWSSTEM_URLDB": "redis://h:1/0", "NEWSSTEM_URLDB_SYNC_ITEMS": "7"}), "yes"
    )
    assert (options.refresh, options.sync_items, options.mark_after) == (True, 7, "feed")
    for bad, message in (
        # one line quoting the setting and its value, as for every other setting (the
        # sync settings' said "must be an integer, ... a number" of both, quoting none)
        ({"NEWSSTEM_URLDB_SYNC_SECONDS": "0"},
         "NEWSSTEM_URLDB_SYNC_SECONDS must be more than 0, not '0'"),
        ({"NEWSSTEM_URLDB_SYNC_SECONDS": "nan"},  # compares false both ways
         "NEWSSTEM_URLDB_SYNC_SECONDS must be more than 0, not 'nan'"),
        ({"NEWSSTEM_URLDB_SYNC_SECONDS": "soon"},
         "NEWSSTEM_URLDB_SYNC_SECONDS must be a number, not 'soon'"),
        ({"NEWSSTEM_URLDB_MARK_AFTER": "never"}, "NEWSSTEM_URLDB_MARK_AFTER must be one of"),
        ({"NEWSSTEM_URLDB_REFRESH": "sometimes"}, "NEWSSTEM_URLDB_REFRESH must be 1/0"),
        ({"NEWSSTEM_URLDB_SYNC_ITEMS": "many"},
         "NEWSSTEM_URLDB_SYNC_ITEMS must be a whole number, not 'many'"),
        ({"NEWSSTEM_URLDB_SYNC_ITEMS": "0"},
         "NEWSSTEM_URLDB_SYNC_ITEMS must be 1 or more, not '0'"),
    ):
        with pytest.raises(UsageError) as raised:
            UrlDbOptions.from_settings(Settings(bad))
        assert str(raised.value).startswith(message), raised.value
    with pytest.raises(UsageError, match="refresh"):
        parse_flag("-a refresh", "2")


def test_compressed_output_through_the_line_batch_file_is_complete_when_stored(tmp_path):
    import gzip

    from scrapy.extensions.postprocessing import PostProcessingManager

    path = tmp_path / "out.jsonl.gz"
    storage = DurableFileFeedStorage(str(path), feed_options={"format": "jsonlines"})
    raw = storage.open(spider=None)
    options = {"postprocessing": ["scrapy.extensions.postprocessing.GzipPlugin"]}
    compressed = PostProcessingManager(options["postprocessing"], raw, options)
    exporter = JsonLinesItemExporter(compressed)
    for n in range(3):
        exporter.export_item({"n": n})
    compressed.close()  # what FeedExporter does before storing
    storage.store(raw)
    assert gzip.decompress(path.read_bytes()).count(b"\n") == 3


def test_a_file_that_could_not_be_written_to_its_end_never_reads_as_durable():
    # The URL store marks the exports of a batch after storage.sync(): a feed whose last
    # lines were lost when it was stored (a full disk) must make that sync fail.
    storage = DurableFileFeedStorage("/dev/full", feed_options={"format": "jsonlines"})
    file = storage.open(spider=None)
    file.write(b'{"url": "a"}\n')
    with pytest.raises(OSError):
        storage.store(file)  # FeedExporter logs this and counts a failed feed
    with pytest.raises(OSError, match="could not be written to its end"):
        storage.sync()


def test_bytes_written_before_a_failed_write_are_not_written_twice(tmp_path, monkeypatch):
    path = tmp_path / "out.jsonl"
    file = LineBatchFile(path, "w")
    file.write(b'{"url": "a"}\n{"url": "b"}\n')
    real_write = feeds.os.write
    calls = []

    def short_then_full(fd: int, data) -> int:
        calls.append(len(data))
        if len(calls) == 1:
            return real_write(fd, bytes(data[:5]))
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(feeds.os, "write", short_then_full)
    with pytest.raises(OSError):
        file.flush()
    monkeypatch.setattr(feeds.os, "write", real_write)
    file.close()
    assert path.read_bytes() == b'{"url": "a"}\n{"url": "b"}\n'


def test_a_file_another_crawl_wrote_since_the_feed_started_is_not_overwritten(tmp_path):
    # Two workers started in the same second with -O "articles-$(hostname)-%(time)s.jsonl"
    # (docs/distributed.md, stop 39) named one file: the worker without articles opened
    # it at its end and emptied the other's 15 articles, recorded as exported in Redis.
    path = tmp_path / "articles.jsonl"
    storage = DurableFileFeedStorage(str(path), feed_options={"format": "jsonlines", "overwrite": True})
    path.write_bytes(b'{"url": "a"}\n')  # the other worker's article, after this one started
    file = storage.open(spider=None)  # a file that keeps nothing: Scrapy writes on, no error
    file.write(b'{"url": "mine"}\n')
    storage.store(file)
    assert storage.refused and storage.refuses()
    assert path.read_bytes() == b'{"url": "a"}\n'


def test_a_file_of_an_earlier_crawl_is_still_overwritten(tmp_path):
    path = tmp_path / "articles.jsonl"
    path.write_bytes(b'{"url": "old"}\n')
    os.utime(path, (time.time() - 60, time.time() - 60))  # the run before, a minute ago
    storage = DurableFileFeedStorage(str(path), feed_options={"format": "jsonlines", "overwrite": True})
    file = storage.open(spider=None)
    file.write(b'{"url": "new"}\n')
    storage.store(file)
    assert path.read_bytes() == b'{"url": "new"}\n'


def test_a_file_of_an_earlier_crawl_dated_ahead_is_still_overwritten(tmp_path):
    # The run before wrote it while the clock was ahead (stepped back since by NTP), or on
    # a network filesystem whose server's clock is ahead of this machine's: its mtime is
    # later than this crawl's start. Compared with the clock, every -O run until that time
    # refused the file and recorded no article as exported (a lock-out).
    path = tmp_path / "articles.jsonl"
    path.write_bytes(b'{"url": "old"}\n')
    os.utime(path, (time.time() + 3600, time.time() + 3600))
    storage = DurableFileFeedStorage(str(path), feed_options={"format": "jsonlines", "overwrite": True})
    file = storage.open(spider=None)
    file.write(b'{"url": "new"}\n')
    storage.store(file)
    assert path.read_bytes() == b'{"url": "new"}\n'


def test_a_file_another_crawl_wrote_is_not_overwritten_whatever_its_mtime(tmp_path):
    # The other crawl's write stamped before this crawl's start (the clock stepped back
    # between the two), over a file of the run before
    path = tmp_path / "articles.jsonl"
    path.write_bytes(b'{"url": "old"}\n')
    os.utime(path, (time.time() - 120, time.time() - 120))
    storage = DurableFileFeedStorage(str(path), feed_options={"format": "jsonlines", "overwrite": True})
    path.write_bytes(b'{"url": "a"}\n{"url": "b"}\n')
    os.utime(path, (time.time() - 60, time.time() - 60))
    storage.store(storage.open(spider=None))
    assert storage.refused
    assert path.read_bytes() == b'{"url": "a"}\n{"url": "b"}\n'


# -- two crawls opening one -O file (real processes, real flock) -----------------------


def _open_feed(path: str) -> tuple[DurableFileFeedStorage, object | None]:
    """A feed of ``path`` opened as Scrapy opens it: (storage, file), file None if refused."""
    storage = DurableFileFeedStorage(path, feed_options={"format": "jsonlines", "overwrite": True})
    try:
        file = storage.open(spider=None)
    except OSError:  # (refused so before newsstem stop 40)
        return storage, None
    return storage, (None if getattr(storage, "refused", False) else file)


def _write_and_hold(path: str, ready, finish) -> None:  # noqa: ANN001
    storage, file = _open_feed(path)
    file.write(b'{"url": "theirs-1"}\n')
    storage.sync()
    ready.set()
    finish.wait(60)
    file.write(b'{"url": "theirs-2"}\n')
    storage.store(file)


def test_a_file_another_crawl_is_writing_is_not_overwritten(tmp_path, caplog):
    # This crawl's feed started after the other crawl had opened the file (it saw the file
    # as it is now): unchanged since, it was emptied under the other crawl, whose synced
    # articles the URL store had recorded. The other crawl holds the file's lock.
    path = tmp_path / "articles.jsonl"
    ctx = multiprocessing.get_context("spawn")
    ready, finish = ctx.Event(), ctx.Event()
    other = ctx.Process(target=_write_and_hold, args=(str(path), ready, finish))
    other.start()
    try:
        assert ready.wait(60)
        storage, file = _open_feed(str(path))
        assert file is None
        assert path.read_bytes() == b'{"url": "theirs-1"}\n'
    finally:
        finish.set()
        other.join(60)
    assert other.exitcode == 0
    assert path.read_bytes() == b'{"url": "theirs-1"}\n{"url": "theirs-2"}\n'
    assert "another crawl is writing it" in caplog.text


def _open_at_once(path: str, name: str, barrier, results) -> None:  # noqa: ANN001
    # Both crawls look at the file (no file, or the run before's), then meet at the barrier
    # before either opens it for writing: whatever the scheduling, each has looked before
    # the other writes. Before the lock both then emptied it and wrote at offset 0.
    real_open = os.open

    def open_after_both_looked(file, flags, *args, **kwargs):  # noqa: ANN001, ANN202
        if os.fspath(file) == path and flags & os.O_WRONLY:
            os.open = real_open  # (once: the barrier is for two)
            barrier.wait(60)
        return real_open(file, flags, *args, **kwargs)

    os.open = open_after_both_looked
    storage, file = _open_feed(path)
    if file is not None:
        file.write(f'{{"url": "{name}"}}\n'.encode())
        storage.store(file)
    results.put((name, file is not None))


def _two_crawls_open_at_once(path) -> str:  # noqa: ANN001
    """Two processes open ``path`` as an -O feed at once: the name of the one that wrote it
    (the other refused)."""
    ctx = multiprocessing.get_context("spawn")
    barrier, results = ctx.Barrier(2), ctx.Queue()
    crawls = [ctx.Process(target=_open_at_once, args=(str(path), name, barrier, results))
              for name in ("a", "b")]
    for each in crawls:
        each.start()
    for each in crawls:
        each.join(60)
        assert each.exitcode == 0
    wrote = dict(results.get(timeout=5) for _ in crawls)
    assert sorted(wrote.values()) == [False, True], wrote
    (writer,) = [name for name, written in wrote.items() if written]
    return writer


def test_of_two_crawls_opening_one_new_file_at_once_exactly_one_writes_it(tmp_path):
    path = tmp_path / "articles.jsonl"
    writer = _two_crawls_open_at_once(path)
    assert path.read_bytes() == f'{{"url": "{writer}"}}\n'.encode()


def test_of_two_crawls_overwriting_one_old_file_at_once_exactly_one_writes_it(tmp_path):
    path = tmp_path / "articles.jsonl"
    path.write_bytes(b'{"url": "the run before, a longer line"}\n')
    os.utime(path, (time.time() - 60, time.time() - 60))
    writer = _two_crawls_open_at_once(path)
    assert path.read_bytes() == f'{{"url": "{writer}"}}\n'.encode()


def test_a_device_is_still_opened_with_minus_o():
    # -O /dev/null: not a file to lock, empty or compare (ftruncate fails on it)
    storage, file = _open_feed(os.devnull)
    assert isinstance(file, LineBatchFile) and not storage.refused
    file.write(b'{"url": "a"}\n')
    storage.store(file)  # written, not fsynced (EINVAL on /dev/null)
    assert file.closed


def test_a_device_is_never_recorded_and_a_pipe_only_once_closed(tmp_path):
    # fsync on /dev/null or a pipe fails with EINVAL: the feed failed to store, with
    # tracebacks; and what /dev/null gets is nowhere, so its articles must come again
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    settings = {
        "FEEDS": {"/dev/null": {"format": "jsonlines"}, str(fifo): {"format": "jsonlines"}},
        "FEED_STORAGES": {"": "newsstem.urldb.feeds.DurableFileFeedStorage"},
    }
    null, pipe = plan_feeds(FeedExporter(get_crawler(settings_dict=settings)))
    assert (null.syncable, null.recorded) == (False, False) and "character device" in null.why
    assert (pipe.syncable, pipe.recorded) == (False, True) and "pipe" in pipe.why
    with LineBatchFile(Path("/dev/null"), "a") as file:
        file.write(b'{"url": "u"}\n')
        file.sync()  # no fsync: nothing raised


def test_an_old_file_moved_away_since_the_feed_started_is_written_anew(tmp_path, caplog):
    # The run before's file was moved away (archived) between this feed's start and its
    # first article: no crawl's file is there, so this crawl writes its own. Created again
    # without O_EXCL, the new file differed from the old one and was refused as another
    # crawl's: the whole crawl written to no file, an empty file left behind.
    path = tmp_path / "articles.jsonl"
    path.write_bytes(b'{"url": "the run before"}\n')
    storage = DurableFileFeedStorage(
        str(path), feed_options={"format": "jsonlines", "overwrite": True}
    )
    path.rename(tmp_path / "archived.jsonl")
    file = storage.open(spider=None)
    file.write(b'{"url": "mine"}\n')
    storage.store(file)
    assert not storage.refused and "Not overwriting" not in caplog.text
    assert path.read_bytes() == b'{"url": "mine"}\n'


def test_a_file_moved_away_and_made_anew_by_another_crawl_is_not_overwritten(tmp_path):
    path = tmp_path / "articles.jsonl"
    path.write_bytes(b'{"url": "the run before"}\n')
    storage = DurableFileFeedStorage(
        str(path), feed_options={"format": "jsonlines", "overwrite": True}
    )
    path.rename(tmp_path / "archived.jsonl")
    _written_after_the_look(storage, path, b'{"url": "a"}\n')  # by the other crawl
    storage.store(storage.open(spider=None))
    assert storage.refused and path.read_bytes() == b'{"url": "a"}\n'


def _written_after_the_look(storage: DurableFileFeedStorage, path: Path, data: bytes) -> None:
    """Another crawl writes ``path`` between ``storage``'s look at it and its opening."""
    look = storage.refuses

    def look_then_write() -> bool:
        refused = look()
        path.write_bytes(data)
        return refused

    storage.refuses = look_then_write


def _no_flock(fd, operation):  # noqa: ANN001, ANN202
    raise OSError(errno.ENOLCK, "No locks available")


@pytest.mark.parametrize("no_lock", ["ENOLCK", "no fcntl"])
def test_without_flock_an_o_file_is_written_unlocked_and_still_checked(
    tmp_path, monkeypatch, no_lock
):
    # a network mount without locks, or Windows: written unlocked, compared with the
    # feed's start as before the lock
    if no_lock == "no fcntl":
        monkeypatch.setattr(feeds, "fcntl", None)
    else:
        monkeypatch.setattr(feeds.fcntl, "flock", _no_flock)
    path = tmp_path / "articles.jsonl"
    path.write_bytes(b'{"url": "the run before"}\n')
    storage = DurableFileFeedStorage(
        str(path), feed_options={"format": "jsonlines", "overwrite": True}
    )
    file = storage.open(spider=None)
    file.write(b'{"url": "mine"}\n')
    storage.store(file)
    assert path.read_bytes() == b'{"url": "mine"}\n'
    other = DurableFileFeedStorage(
        str(path), feed_options={"format": "jsonlines", "overwrite": True}
    )
    _written_after_the_look(other, path, b'{"url": "a"}\n')
    other.store(other.open(spider=None))
    assert other.refused and path.read_bytes() == b'{"url": "a"}\n'


@pytest.mark.parametrize("scrapys", [None, 0], ids=["newsstem-only", "both-enabled"])
def test_one_feed_exporter_writes_each_feed(tmp_path, scrapys, caplog):
    # A user's EXTENSIONS that enables newsstem's NewsFeedExporter and leaves out Scrapy's
    # `FeedExporter: None` ran both: every article twice in an -o file or on stdout
    from scrapy.utils.misc import build_from_crawler

    settings = {
        "FEEDS": {str(tmp_path / "a.jsonl"): {"format": "jsonlines"}},
        "EXTENSIONS": {"newsstem.urldb.feeds.NewsFeedExporter": 0,
                       "scrapy.extensions.feedexport.FeedExporter": scrapys},
    }
    crawler = get_crawler(settings_dict=settings)
    if scrapys is None:
        assert isinstance(build_from_crawler(feeds.NewsFeedExporter, crawler),
                          feeds.NewsFeedExporter)
        assert "beside newsstem's" not in caplog.text
    else:
        with pytest.raises(NotConfigured):
            build_from_crawler(feeds.NewsFeedExporter, crawler)
        assert "EXTENSIONS enables Scrapy's scrapy.extensions.feedexport.FeedExporter " \
            "beside newsstem's NewsFeedExporter" in caplog.text


def test_the_stdout_storage_flushes_and_fsyncs_a_file_and_only_flushes_what_has_none(
    tmp_path, monkeypatch
):
    # a stdout in memory (a test runner's, an embedding program's) has no file descriptor:
    # storing it flushes it, not a failed feed
    import io

    from newsstem.urldb.feeds import FlushedStdoutFeedStorage

    fsynced = []
    fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (fsynced.append(fd), fsync(fd)))
    with (tmp_path / "printed.jsonl").open("wb", buffering=0) as raw:
        buffered = io.BufferedWriter(raw)
        storage = FlushedStdoutFeedStorage("stdout:", _stdout=buffered)
        storage.open(None).write(b'{"a": 1}\n')
        assert (tmp_path / "printed.jsonl").read_bytes() == b""
        storage.store(buffered)
        assert (tmp_path / "printed.jsonl").read_bytes() == b'{"a": 1}\n'
        assert fsynced == [raw.fileno()]
    fsynced.clear()
    reader, writer = os.pipe()  # (stdout piped on: flushed, not fsynced)
    with open(reader, "rb") as read_end, open(writer, "wb") as piped:
        piped.write(b"x\n")
        FlushedStdoutFeedStorage("stdout:", _stdout=piped).store(piped)
        assert read_end.read(2) == b"x\n"
    in_memory = io.BytesIO()
    FlushedStdoutFeedStorage("stdout:", _stdout=in_memory).store(in_memory)
    assert fsynced == []
