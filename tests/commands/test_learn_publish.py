"""`scrapy learn --publish`: a pattern file learned by hand is published in the Redis URL
store the workers share (NEWSSTEM_URLDB), as a crawl's NEWSSTEM_RELEARN publishes one, with
the same rule (the file learned last wins), so that no one copies it to every machine.

The real command in a subprocess, on the archive of a real crawl of 12 msnbc article
pages and their hub page (tests/layout/fixtures/msnbc, served over real HTTP on
127.0.0.1), and a real redis-server on a free 127.0.0.1 port."""

from __future__ import annotations

import dataclasses
import os
import socket
import subprocess
import sys
import uuid
from datetime import datetime, timezone
from unittest.mock import ANY

import pytest
from support.crawl import REPO, run_crawl, scrapy
from support.redisserver import free_port

from newsstem.layout.patterns import PatternSet, load_pattern_file, loads, pattern_file_name
from newsstem.layout.redesign import patterns_key
from newsstem.sharedpatterns import SharedPatterns, publish
from newsstem.urldb import open_store


@pytest.fixture(scope="module")
def archive(msnbc_site, tmp_path_factory):
    work = tmp_path_factory.mktemp("publish")
    crawl = run_crawl(work, "-a", f"start_url={msnbc_site.url}/index.html",
                      settings={"NEWSSTEM_ARCHIVE": str(work / "crawl.warc.gz"),
                                "NEWSSTEM_PATTERNS_DIR": ""})
    assert crawl.returncode == 0, crawl.log
    return f"127.0.0.1:{msnbc_site.port}", work / "crawl.warc.gz"


def learn_and_publish(archive, out, store):
    site, warc = archive
    result = scrapy("learn", "--input", str(warc), "--out", str(out), "--publish",
                    settings={"NEWSSTEM_URLDB": store})
    return result, out / pattern_file_name(site)


def test_learn_publish_puts_the_file_written_in_the_store(archive, redis_server, tmp_path):
    site, _ = archive
    store = f"{redis_server.url}?prefix=learn-{uuid.uuid4().hex[:8]}"
    result, path = learn_and_publish(archive, tmp_path / "a", store)
    assert result.returncode == 0, result.stdout + result.stderr
    written = load_pattern_file(path)
    with open_store(store) as opened:
        index = opened.published_patterns()
        held, text = opened.published_pattern_text(site)
        raw = opened.client.hgetall(f"{opened._patterns_key}:{site}")
    assert list(index) == [site] and index[site] == held
    assert held.version == 1 and held.learned_at == written.learned_at
    assert held.key == patterns_key(written) == patterns_key(loads(text))
    assert text == path.read_text(encoding="utf-8")  # the file as written, byte for byte
    assert raw[b"by"].decode().split()[1].isdigit()  # host and PID of the publisher
    assert f"  published in {redis_server.url}?prefix=" in result.stdout, result.stdout
    assert "(version 1)" in result.stdout

    # learned again later by hand (another machine): that file wins, version 2
    again, path_b = learn_and_publish(archive, tmp_path / "b", store)
    assert again.returncode == 0, again.stdout + again.stderr
    with open_store(store) as opened:
        held, _ = opened.published_pattern_text(site)
    assert held.version == 2 and held.key == patterns_key(load_pattern_file(path_b))

    # the first file published again: the same one is held already, nothing changes
    assert not publish(store, load_pattern_file(path_b)).published


def test_learn_publish_publishes_a_site_file_renamed_by_hand(archive, redis_server, tmp_path):
    # learn writes over the site's file under its own name (one file per site): that is
    # the file published, not a <site>.json that is not there
    site, _ = archive
    store = f"{redis_server.url}?prefix=renamed-{uuid.uuid4().hex[:8]}"
    first, path = learn_and_publish(archive, tmp_path / "out", store)
    assert first.returncode == 0, first.stdout + first.stderr
    renamed = path.rename(path.with_name("by-hand.json"))
    again, _ = learn_and_publish(archive, tmp_path / "out", store)
    assert again.returncode == 0, again.stdout + again.stderr
    assert sorted(p.name for p in (tmp_path / "out").glob("*.json")) == ["by-hand.json"]
    with open_store(store) as opened:
        held, text = opened.published_pattern_text(site)
    assert held.version == 2 and text == renamed.read_text(encoding="utf-8")


def test_a_file_learned_later_in_the_store_stays_and_learn_says_so(
    archive, redis_server, tmp_path
):
    site, _ = archive
    store = f"{redis_server.url}?prefix=later-{uuid.uuid4().hex[:8]}"
    first, path = learn_and_publish(archive, tmp_path / "a", store)
    assert first.returncode == 0, first.stdout + first.stderr
    later = dataclasses.replace(load_pattern_file(path), learned_at="2999-01-01T00:00:00.000000Z",
                                parameters={"matched": 0.5})
    assert publish(store, later).version == 2
    result, path = learn_and_publish(archive, tmp_path / "b", store)
    # refused because a newer file exists: said, not an error; the file is written here
    assert result.returncode == 0, result.stdout + result.stderr
    mine = load_pattern_file(path)
    [line] = [line for line in result.stdout.splitlines() if "published" in line]
    assert line.startswith(f"  not published: version 2 published in {redis_server.url}"), line
    assert (f"stays: it was learned later (2999-01-01T00:00:00.000000Z, this file "
            f"{mine.learned_at}, each by its machine's clock") in line, line
    with open_store(store) as opened:
        held, _ = opened.published_pattern_text(site)
    assert held.version == 2 and held.key == patterns_key(later)


@pytest.mark.parametrize("urldb", ["", "sqlite:///urldb.sqlite"])
def test_publish_without_a_redis_store_is_a_usage_error_naming_the_setting(
    archive, tmp_path, urldb
):
    result, path = learn_and_publish(archive, tmp_path / "p", urldb)
    assert result.returncode == 2, result.stdout + result.stderr
    [line] = result.stderr.splitlines()
    assert "learn: --publish needs the Redis URL store the workers share: " in line
    assert "-s NEWSSTEM_URLDB=redis://HOST:PORT/DB" in line, line
    assert ("it is not set" if not urldb else f"it is {urldb!r}") in line, line
    assert not path.exists()


def test_a_store_that_does_not_answer_is_said_before_learning(archive, tmp_path):
    store = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    result, path = learn_and_publish(archive, tmp_path / "p", store)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "learn: --publish: the URL store cannot be reached (" in result.stderr
    assert "nothing learned" in result.stderr and "Traceback" not in result.stderr
    assert not path.exists() and result.stdout == ""


def test_published_lists_the_files_in_the_store(archive, redis_server, tmp_path):
    site, _ = archive
    store = f"{redis_server.url}?prefix=list-{uuid.uuid4().hex[:8]}"
    empty = scrapy("learn", "--published", settings={"NEWSSTEM_URLDB": store})
    assert empty.returncode == 0, empty.stderr
    assert empty.stdout == f"no pattern file published in {store}\n"
    learned, path = learn_and_publish(archive, tmp_path / "a", store)
    assert learned.returncode == 0, learned.stdout + learned.stderr
    other = dataclasses.replace(load_pattern_file(path), site="example.com")
    assert publish(store, other).published
    listed = scrapy("learn", "--published", settings={"NEWSSTEM_URLDB": store})
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.splitlines()
    assert lines[0] == f"2 pattern files published in {store}:"
    assert lines[1].split() == ["site", "version", "learned", "at", "stamp", "(server",
                                "clock)", "published", "by"]
    by_site = {line.split()[0]: line.split()[1:] for line in lines[2:]}
    with open_store(store) as opened:
        raw = opened.client.hget(f"{opened._patterns_key}:{site}", "by").decode()
        index = opened.published_patterns()
    assert sorted(by_site) == sorted([site, "example.com"])
    # the stamp, the file's learned_at on the server's clock (what orders the files),
    # as an ISO time to the microsecond, then the publisher
    stamp = datetime.fromtimestamp(index[site].stamp // 1_000_000, timezone.utc).strftime(
        "%Y-%m-%dT%H:%M:%S") + f".{index[site].stamp % 1_000_000:06d}Z"
    assert by_site[site] == ["1", load_pattern_file(path).learned_at, stamp, *raw.split()]
    assert by_site["example.com"][:2] == ["1", other.learned_at]
    assert by_site["example.com"][2].startswith(other.learned_at[:4])  # the same machine
    assert by_site["example.com"][3:] == [socket.gethostname(), str(os.getpid())]  # (here)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--published", "--input", "x.warc.gz"],
         "learn: --published lists the store's pattern files and learns nothing: give it "
         "alone (not --input)"),
        (["--published"], "learn: --published needs the Redis URL store the workers share: "
         "-s NEWSSTEM_URLDB=redis://HOST:PORT/DB (it is not set)"),
    ],
)
def test_published_bad_arguments_are_one_usage_error_line(arguments, message):
    result = scrapy("learn", *arguments)
    assert result.returncode == 2, result.stdout + result.stderr
    [line] = result.stderr.splitlines()
    assert message in line, line


def test_a_publication_the_store_fails_is_said_and_exit_status_1(archive, redis_server, tmp_path):
    # the store answers the check before learning, then fails the publication (here a key
    # of the site's published file that is not a hash: Redis answers WRONGTYPE)
    site, _ = archive
    store = f"{redis_server.url}?prefix=fails-{uuid.uuid4().hex[:8]}"
    with open_store(store) as opened:
        opened.client.set(f"{opened._patterns_key}:{site}", "not a hash")
    result, path = learn_and_publish(archive, tmp_path / "a", store)
    assert result.returncode == 1, result.stdout + result.stderr
    [line] = [line for line in result.stdout.splitlines() if "PUBLISHED" in line]
    assert line.startswith("  NOT PUBLISHED: the URL store failed (URL store "), line
    assert "WRONGTYPE" in line and "copy the file to the other machines" in line, line
    assert "Traceback" not in result.stderr
    assert load_pattern_file(path).site == site  # written all the same


def test_published_finds_the_store_of_newsstem_distributed(redis_server):
    # the one setting of a distributed crawl: its workers' URL store is that Redis
    # (NEWSSTEM_URLDB left at its default), which learn reads as they do (--publish too:
    # the same _publish_store)
    store = f"{redis_server.url}?prefix=dist-{uuid.uuid4().hex[:8]}"
    own = PatternSet("example.com", (), learned_at="2026-11-01T06:00:00.000000Z")
    assert publish(store, own).published
    # not scrapy(): its test settings give NEWSSTEM_URLDB="" with -s
    listed = subprocess.run(
        [sys.executable, "-m", "scrapy", "learn", "--published", "-s",
         f"NEWSSTEM_DISTRIBUTED={store}"],
        check=False, cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)},
        capture_output=True, text=True, timeout=120,
    )
    assert listed.returncode == 0, listed.stdout + listed.stderr
    lines = listed.stdout.splitlines()
    assert lines[0] == f"1 pattern file published in {store}:", listed.stdout
    assert lines[2].split()[:3] == ["example.com", "1", own.learned_at], listed.stdout


def test_unpublish_deletes_the_sites_file_and_its_index_entry(archive, redis_server, tmp_path):
    site, _ = archive
    store = f"{redis_server.url}?prefix=unpub-{uuid.uuid4().hex[:8]}"
    learned, path = learn_and_publish(archive, tmp_path / "a", store)
    assert learned.returncode == 0, learned.stdout + learned.stderr
    mine = load_pattern_file(path)
    other = PatternSet("example.com", (), learned_at="2026-11-01T06:00:00.000000Z")
    assert publish(store, other).published
    with open_store(store) as opened:
        by = opened.client.hget(f"{opened._patterns_key}:{site}", "by").decode()

    result = scrapy("learn", "--unpublish", site, settings={"NEWSSTEM_URLDB": store})
    assert result.returncode == 0, result.stdout + result.stderr
    [line] = result.stdout.splitlines()
    assert line.startswith(f"deleted the pattern file of {site} published in {store} "
                           f"(version 1, learned at {mine.learned_at}, key "
                           f"{patterns_key(mine)}, published by {by}): "), line
    assert "the workers that loaded it keep their copy" in line, line
    assert f"crawls load none for {site} from now on, until a file of it is published " \
        "again (scrapy learn --publish, or a worker that learns it again at a crawl's end, " \
        "NEWSSTEM_RELEARN)" in line, line
    with open_store(store) as opened:
        assert list(opened.published_patterns()) == ["example.com"]  # the other stays
        assert opened.published_pattern_text(site) is None
        # the file goes, its stamp stays: the workers that loaded it stay ordered against
        # the next file published on the server's clock
        assert opened.client.hgetall(f"{opened._patterns_key}:{site}") == {
            f"stamp:{patterns_key(mine)}".encode(): ANY}
    assert path.exists()  # the file learned here is not touched
    # a crawl on the store loads only the other site's file now
    loaded = SharedPatterns(store, str(tmp_path / "w"), 0).check({})
    assert [one.pattern_set.site for one in loaded] == ["example.com"]

    again = scrapy("learn", "--unpublish", site, settings={"NEWSSTEM_URLDB": store})
    assert again.returncode == 1, again.stdout + again.stderr
    assert again.stdout == ""
    [line] = again.stderr.splitlines()
    assert line == (f"learn: --unpublish: no pattern file of {site} is published in {store}: "
                    "nothing deleted (scrapy learn --published lists those that are)")
    # published again afterwards: version 1 of a new history
    assert publish(store, mine).version == 1


@pytest.mark.parametrize("urldb", ["", "sqlite:///urldb.sqlite"])
def test_unpublish_without_a_redis_store_is_a_usage_error_naming_the_setting(urldb):
    result = scrapy("learn", "--unpublish", "example.com", settings={"NEWSSTEM_URLDB": urldb})
    assert result.returncode == 2, result.stdout + result.stderr
    [line] = result.stderr.splitlines()
    assert "learn: --unpublish needs the Redis URL store the workers share: " in line, line
    assert ("it is not set" if not urldb else f"it is {urldb!r}") in line, line


@pytest.mark.parametrize(
    "arguments",
    [["--unpublish", "example.com", "--input", "x.warc.gz"],
     ["--unpublish", " "],
     ["--unpublish", "example.com", "--published"],
     ["--unpublish", "example.com", "other.example"]],
)
def test_unpublish_with_other_arguments_is_one_usage_error_line(arguments, redis_server):
    result = scrapy("learn", *arguments, settings={"NEWSSTEM_URLDB": redis_server.url})
    assert result.returncode == 2, result.stdout + result.stderr
    [line] = result.stderr.splitlines()
    if arguments[1].strip():
        assert "and learns nothing: give it alone (not " in line, line
    else:  # (it deleted nothing, and once said no file of " " was published: exit 1)
        assert ("learn: --unpublish needs the name of a site, as `scrapy learn "
                "--published` lists it") in line, line


def test_unpublish_on_a_store_that_does_not_answer_is_exit_status_1():
    store = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    result = scrapy("learn", "--unpublish", "example.com", settings={"NEWSSTEM_URLDB": store})
    assert result.returncode == 1, result.stdout + result.stderr
    assert "learn: --unpublish: the URL store cannot be reached or failed (" in result.stderr
    assert "nothing deleted" in result.stderr and "Traceback" not in result.stderr
