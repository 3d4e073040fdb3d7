"""``scrapy crawl`` (newsstem.commands.crawl) as a user runs it, logging to the terminal:
a configuration that cannot work ends in one line, before Scrapy starts, and before any
request to the fixture site (a real HTTP server on 127.0.0.1)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from support.crawl import REPO, TEST_SETTINGS, scrapy
from support.newssite import GeneratedNewsSite
from support.redisserver import free_port


def crawl_in_terminal(tmp_path: Path, start_url: str, output: str,
                      settings: dict[str, str]) -> subprocess.CompletedProcess:
    """``scrapy crawl news`` with its log on stderr, as in a terminal (no LOG_FILE)."""
    cmd = [sys.executable, "-m", "scrapy", "crawl", "news", "-a", f"start_url={start_url}",
           "-O", output]
    for key, value in {**TEST_SETTINGS, **settings}.items():
        cmd += ["-s", f"{key}={value}"]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=120)


def _under_a_file(tmp_path: Path, name: str) -> Path:
    (tmp_path / "file").write_text("x")
    return tmp_path / "file" / name  # its directory cannot be made


CONFIGURATIONS = {  # setting -> (its value, the start of the one line)
    "archive under a file": (
        lambda t: {"NEWSSTEM_ARCHIVE": str(_under_a_file(t, "crawl.warc.gz"))},
        "newsstem: archive error: cannot write the archive ",
    ),
    "URL store under a file": (
        lambda t: {"NEWSSTEM_URLDB": f"sqlite:///{_under_a_file(t, 'urldb.sqlite')}"},
        "newsstem: URL store error: cannot create the directory",
    ),
    "URL store on a Redis that does not answer": (
        lambda t: {"NEWSSTEM_URLDB": f"redis://127.0.0.1:{free_port()}/0"},
        "newsstem: URL store error: cannot reach the URL store",
    ),
    "distributed mode on a Redis that does not answer": (
        lambda t: {"NEWSSTEM_DISTRIBUTED": f"redis://127.0.0.1:{free_port()}/0"},
        "newsstem: distributed mode: cannot use Redis",
    ),
}


@pytest.mark.parametrize("case", sorted(CONFIGURATIONS))
def test_a_store_or_archive_that_cannot_work_is_the_only_line(tmp_path, site, case):
    # These were found once Scrapy had started: its version, settings and components
    # (some 15 lines) came first, and the error line read as the crawl failing after it began.
    make, start = CONFIGURATIONS[case]
    output = tmp_path / "articles.jsonl"
    result = crawl_in_terminal(tmp_path, f"{site.url}/index.html", str(output), make(tmp_path))
    assert result.returncode == 1, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(start), result.stderr
    assert result.stdout == ""
    assert site.paths(status=None) == []
    assert not output.exists()


OUTPUTS = {  # how -O or NEWSSTEM_STATS_FILE is given -> the start of the one line
    "-O under a file": ("articles.jsonl", {}, "crawl: cannot write the articles to "),
    "-O with a parameter under a file": (
        "articles-%(time)s.jsonl", {}, "crawl: cannot write the articles to "
    ),
    "NEWSSTEM_STATS_FILE under a file": (
        None, {"NEWSSTEM_STATS_FILE": "stats.json"}, "crawl: cannot write NEWSSTEM_STATS_FILE "
    ),
}


@pytest.mark.parametrize("case", sorted(OUTPUTS))
def test_an_output_that_cannot_be_written_stops_the_crawl_before_any_request(
    tmp_path, site, case
):
    # Scrapy opens a feed file with the first article: the whole crawl ran, each article
    # was a traceback, the exit status was 0, and the URL store recorded the articles as
    # exported (the next crawl skipped them: lost). The stats file failed at the very end.
    name, settings, start = OUTPUTS[case]
    blocked = {k: str(_under_a_file(tmp_path, v)) for k, v in settings.items()}
    output = _under_a_file(tmp_path, name) if name else tmp_path / "articles.jsonl"
    store = tmp_path / "urldb.sqlite"
    result = crawl_in_terminal(tmp_path, f"{site.url}/index.html", str(output),
                               {"NEWSSTEM_URLDB": f"sqlite:///{store}", **blocked})
    assert result.returncode == 2, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"scrapy: error: {start}"), result.stderr
    assert f"{tmp_path / 'file'} is not a directory" in lines[0]
    assert site.paths(status=None) == []
    assert not store.exists()


SCRAPY_SETTINGS = {  # a Scrapy setting given a value Scrapy cannot read -> the one line
    "a word for a number": ("CONCURRENT_REQUESTS=many",
                            "CONCURRENT_REQUESTS must be a whole number, not 'many'"),
    "a word for a delay": ("DOWNLOAD_DELAY=short", "DOWNLOAD_DELAY must be a number, not 'short'"),
    "a word for a boolean": ("AUTOTHROTTLE_ENABLED=maybe",
                             "AUTOTHROTTLE_ENABLED must be 1/0 (or true/false), not 'maybe'"),
    "a log level in lower case": (
        "LOG_LEVEL=info",
        "LOG_LEVEL must be one of CRITICAL, ERROR, WARNING, INFO, DEBUG, not 'info'"),
    "a dict setting that does not parse": (
        "FEEDS={bad", ("-s FEEDS: '{bad' is not a JSON object ({\"NAME\": VALUE, ...}): "
                       "Expecting property name enclosed in double quotes (column 2)")),
    "a dict setting given a list": (
        "ITEM_PIPELINES=[1]", ("-s ITEM_PIPELINES: '[1]' is not a JSON object "
                               "({\"NAME\": VALUE, ...})")),
    "a component that cannot be imported": (
        'ITEM_PIPELINES={"mypipelines.Store": 500}',
        "ITEM_PIPELINES: cannot load 'mypipelines.Store': No module named 'mypipelines'"),
}


@pytest.mark.parametrize("case", sorted(SCRAPY_SETTINGS))
def test_a_scrapy_setting_scrapy_cannot_read_is_one_usage_line(tmp_path, site, case):
    # Each was an asyncio traceback ("Task exception was never retrieved") after Scrapy's
    # start-up log, exit status 1; a dict setting's JSON that did not parse a traceback of
    # newsstem's own, and before that Scrapy's "Invalid -s value, use -s NAME=VALUE"
    given, line = SCRAPY_SETTINGS[case]
    output = tmp_path / "articles.jsonl"
    cmd = [sys.executable, "-m", "scrapy", "crawl", "news", "-a",
           f"start_url={site.url}/index.html", "-O", str(output), "-s", "NEWSSTEM_URLDB=",
           "-s", given]
    result = subprocess.run(cmd, check=False, cwd=REPO,
                            env={**os.environ, "PYTHONPATH": str(REPO)},
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 2, result.stderr
    assert result.stderr.splitlines() == [f"scrapy: error: {line} (see scrapy crawl -h)"]
    assert site.paths(status=None) == []
    assert not output.exists()


@pytest.mark.parametrize(
    ("settings", "missing"),
    [
        ({"NEWSSTEM_RELEARN": "True"}, "NEWSSTEM_ARCHIVE"),
        ({"NEWSSTEM_RELEARN": "True", "NEWSSTEM_ARCHIVE": "{tmp}/crawl.warc.gz",
          "NEWSSTEM_PATTERNS_DIR": ""}, "NEWSSTEM_PATTERNS_DIR"),
    ],
)
def test_relearn_without_what_it_needs_is_a_usage_error_before_any_request(
    tmp_path, site, settings, missing
):
    # It was a WARNING in the middle of the log of a crawl that went on: a user who asked
    # for redesigned sites to be learned again learned, at best, that none would be.
    output = tmp_path / "articles.jsonl"
    settings = {k: v.replace("{tmp}", str(tmp_path)) for k, v in settings.items()}
    result = crawl_in_terminal(tmp_path, f"{site.url}/index.html", str(output), settings)
    assert result.returncode == 2, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"scrapy: error: NEWSSTEM_RELEARN needs {missing}")
    assert lines[0].endswith("or leave NEWSSTEM_RELEARN off (see scrapy crawl -h)")
    assert site.paths(status=None) == []
    assert not output.exists() and not (tmp_path / "crawl.warc.gz").exists()


def test_an_output_directory_that_does_not_exist_yet_is_made(tmp_path, site):
    output = tmp_path / "new" / "dir" / "articles.jsonl"
    stats = tmp_path / "other" / "stats.json"
    result = crawl_in_terminal(tmp_path, f"{site.url}/index.html", str(output),
                               {"NEWSSTEM_STATS_FILE": str(stats), "LOG_LEVEL": "WARNING"})
    assert result.returncode == 0, result.stderr
    assert output.read_text(encoding="utf-8").count("\n") >= 1
    assert stats.exists()


def test_a_corrupt_pattern_file_is_the_only_line(tmp_path, site):
    # it was read once Scrapy had started: its start-up log came before the error line
    patterns = tmp_path / "patterns"
    patterns.mkdir()
    (patterns / "broken.json").write_text('{"format": "newsstem-patterns", "version": 1,')
    result = crawl_in_terminal(tmp_path, f"{site.url}/index.html", str(tmp_path / "a.jsonl"),
                               {"NEWSSTEM_PATTERNS_DIR": str(patterns)})
    assert result.returncode == 2, result.stderr
    [line] = result.stderr.splitlines()
    # prefixed with the command, as extract's is (it began with the path alone)
    assert line.startswith(f"scrapy: error: crawl: {patterns / 'broken.json'}: not valid JSON")
    assert site.paths(status=None) == []


def _crawl_that_never_starts(*args: str) -> subprocess.CompletedProcess:
    """``scrapy crawl news`` of a start page no server answers, with ``args`` that stop it
    before any request (the line it writes is what the tests below read)."""
    cmd = [sys.executable, "-m", "scrapy", "crawl", "news", "-a",
           "start_url=http://127.0.0.1:9/", *args]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("option", ["-s", "--logfile"])
def test_a_directory_given_as_the_output_is_written_to_the_log_file_too(tmp_path, option):
    # checked before Scrapy's process_options set LOG_FILE from -s or --logfile: the
    # line went to stderr only, and the log file was never made
    log = tmp_path / "crawl.log"
    given = ["-s", f"LOG_FILE={log}"] if option == "-s" else ["--logfile", str(log)]
    result = _crawl_that_never_starts("-O", str(tmp_path), *given)
    assert result.returncode == 2, result.stderr
    [line] = log.read_text().splitlines()
    assert line.endswith(f" [newsstem] ERROR: scrapy: error: crawl: cannot write the articles "
                         f"to {tmp_path}: it is a directory; give a file, as -O "
                         f"{tmp_path / 'articles.jsonl'}"), line


def test_a_line_written_before_scrapy_logs_follows_log_format_and_log_dateformat(tmp_path):
    # the line was written in newsstem's own format, "2026-12-01 01:02:03 [newsstem] ERROR:
    # …", whatever -s LOG_FORMAT the job's other lines (and a log reader) follow
    log = tmp_path / "crawl.log"
    days = {time.strftime("%Y/%m/%d")}
    result = _crawl_that_never_starts(
        "-O", str(tmp_path), "-s", f"LOG_FILE={log}",
        "-s", "LOG_FORMAT=%(levelname)s|%(name)s|%(asctime)s|%(message)s",
        "-s", "LOG_DATEFORMAT=%Y/%m/%d")
    days.add(time.strftime("%Y/%m/%d"))  # (run across midnight)
    assert result.returncode == 2, result.stderr
    [line] = log.read_text().splitlines()
    day = line.split("|")[2]
    assert day in days and line == (f"ERROR|newsstem|{day}|scrapy: error: crawl: cannot "
                    f"write the articles to {tmp_path}: it is a directory; give a file, as -O "
                    f"{tmp_path / 'articles.jsonl'}"), line


OLD_RUN = ("2026-11-30 03:00:01 [scrapy.core.engine] INFO: Spider closed (finished)\n"
           "2026-11-30 03:00:01 [newsstem.operations] INFO: newsstem run summary (finished, "
           "9.0 s):\n")


@pytest.mark.parametrize("odd", ["LOG_FORMAT=%(no_such_field)s", "LOG_FILE_APPEND=maybe"])
def test_an_odd_log_setting_does_not_turn_a_usage_error_into_a_traceback(tmp_path, odd):
    # the line was formatted with LOG_FORMAT, LOG_FILE_APPEND read as a bool: a ValueError
    # traceback (exit status 1) instead of the usage error, on stderr and in the log file
    log = tmp_path / "crawl.log"
    log.write_text(OLD_RUN)
    result = _crawl_that_never_starts("-a", "depth=deep", "-O", str(tmp_path / "a.jsonl"),
                                      "-s", f"LOG_FILE={log}", "-s", odd)
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    assert result.stderr.rstrip().splitlines()[-1].startswith("scrapy: error: "), result.stderr
    text = log.read_text()
    assert text.startswith(OLD_RUN), text  # (appended: Scrapy's default)
    [line] = text[len(OLD_RUN):].splitlines()
    assert line.split(" [newsstem] ERROR: ", 1)[1].startswith("scrapy: error: "), line


@pytest.mark.parametrize("cause, given, status, start", [
    ("a directory as -O", ["-O", "{tmp}"], 2, "scrapy: error: crawl: cannot write the articles"),
    ("a bad argument", ["-a", "depth=deep"], 2, "scrapy: error: "),
    ("a bad pattern file", ["-s", "NEWSSTEM_PATTERNS_DIR={tmp}/patterns"], 2,
     "scrapy: error: crawl: "),
    ("an unusable URL store", ["-s", "NEWSSTEM_URLDB={tmp}/file/urls.sqlite"], 1,
     "newsstem: URL store error: "),
])
@pytest.mark.parametrize("append", [False, True])
def test_the_line_of_a_crawl_that_never_started_keeps_log_file_append(
        tmp_path, cause, given, status, start, append):
    """With LOG_FILE_APPEND=False Scrapy empties the job's LOG_FILE as a crawl starts; the
    line of a crawl that never started was appended after the older run's summary, which
    then read as this run's. It is the file's only line now; with True (Scrapy's default)
    it comes after the older lines, as Scrapy's own would."""
    (tmp_path / "patterns").mkdir()
    (tmp_path / "patterns" / "broken.json").write_text('{"format": "newsstem-patterns",')
    (tmp_path / "file").write_text("x")
    log = tmp_path / "crawl.log"
    log.write_text(OLD_RUN)
    output = [] if "-O" in given else ["-O", str(tmp_path / "articles.jsonl")]
    result = _crawl_that_never_starts("-s", f"LOG_FILE={log}", "-s", f"LOG_FILE_APPEND={append}",
                                      *(arg.format(tmp=tmp_path) for arg in given), *output)
    assert result.returncode == status, result.stderr
    text = log.read_text()
    assert text.startswith(OLD_RUN) == append, text
    [line] = text[len(OLD_RUN):].splitlines() if append else text.splitlines()
    assert line.split(" [newsstem] ERROR: ", 1)[1].startswith(start), line


def test_a_misspelt_spider_name_is_one_line_naming_the_spiders(tmp_path, site):
    # Scrapy logged its versions and settings, then a KeyError traceback (exit status 1)
    output = tmp_path / "a.jsonl"
    cmd = [sys.executable, "-m", "scrapy", "crawl", "nwes", "-a",
           f"start_url={site.url}/index.html", "-O", str(output)]
    result = subprocess.run(cmd, cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)},
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 2, result.stderr
    [line] = result.stderr.splitlines()
    assert line.startswith("scrapy: error: crawl: no spider named 'nwes' (this project's "
                           "spiders: news)"), line
    assert site.paths(status=None) == []
    assert not output.exists()


def test_no_spider_name_is_one_line_naming_the_spiders(tmp_path):
    # Scrapy logged its versions, then printed its whole usage block (exit status 2)
    output = tmp_path / "a.jsonl"
    cmd = [sys.executable, "-m", "scrapy", "crawl", "-O", str(output)]
    result = subprocess.run(cmd, check=False, cwd=REPO,
                            env={**os.environ, "PYTHONPATH": str(REPO)},
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 2, result.stderr
    assert result.stderr.splitlines() == [(
        "scrapy: error: crawl: give the spider to run, e.g. scrapy crawl news -a "
        "start_url=https://site/ -O articles.jsonl (this project's spiders: news) "
        "(see scrapy crawl -h)")]
    assert result.stdout == "" and not output.exists()


def test_the_lines_of_reading_the_patterns_are_logged_once_scrapy_has_started(tmp_path, site):
    # read before Scrapy starts (above), they are logged after its start-up lines, in its
    # format, and at its log level
    missing = tmp_path / "no-such-patterns"
    result = crawl_in_terminal(tmp_path, f"{site.url}/index.html", str(tmp_path / "a.jsonl"),
                               {"NEWSSTEM_PATTERNS_DIR": str(missing)})
    assert result.returncode == 0, result.stderr
    lines = result.stderr.splitlines()
    [warning] = [i for i, line in enumerate(lines) if f"PATTERNS_DIR {missing} does not" in line]
    assert "Scrapy 2." in lines[0] and warning > 0
    assert " [newsstem.pipelines] WARNING: newsstem: NEWSSTEM_PATTERNS_DIR " in lines[warning]
    quiet = crawl_in_terminal(tmp_path, f"{site.url}/index.html", str(tmp_path / "b.jsonl"),
                              {"NEWSSTEM_PATTERNS_DIR": str(missing), "LOG_LEVEL": "ERROR"})
    assert quiet.returncode == 0 and "does not exist" not in quiet.stderr, quiet.stderr


def _crawl_command(site: GeneratedNewsSite, output: Path, settings: dict[str, str]) -> list[str]:
    cmd = [sys.executable, "-m", "scrapy", "crawl", "news", "-a", f"start_url={site.url}/",
           "-a", "depth=2", "-O", str(output)]
    for key, value in {**TEST_SETTINGS, "CONCURRENT_REQUESTS": "1", **settings}.items():
        cmd += ["-s", f"{key}={value}"]
    return cmd


@contextmanager
def _crawl_process(site: GeneratedNewsSite, output: Path,
                   settings: dict[str, str]) -> Iterator[subprocess.Popen]:
    """A crawl of ``site`` to ``output`` running (killed on the way out if it still runs)."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen(_crawl_command(site, output, settings), cwd=REPO, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def _wait_for_an_article(fetched: Callable[[], bool]) -> None:
    deadline = time.monotonic() + 60
    while not fetched() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert fetched(), "the crawl fetched no article"


def _interrupted_crawl(tmp_path: Path, signals: int, settings: dict[str, str] | None = None,
                       site: GeneratedNewsSite | None = None,
                       ) -> tuple[subprocess.Popen, str, Path]:
    """A crawl of a slow local site, sent SIGINT ``signals`` times once it fetches articles
    (the site is stopped after, unless given)."""
    own_site = site is None
    if site is None:
        site = GeneratedNewsSite(sections=2, articles_per_section=8, delay=1.0).start()
    output = tmp_path / "articles.jsonl"
    try:
        with _crawl_process(site, output, {
            "NEWSSTEM_URLDB": f"sqlite:///{tmp_path / 'urldb.sqlite'}", **(settings or {})
        }) as proc:
            _wait_for_an_article(site.article_asked)
            for _ in range(signals):
                proc.send_signal(signal.SIGINT)
                time.sleep(0.2)  # within the page in flight (1 s): the crawl has not ended
            _, stderr = proc.communicate(timeout=60)
    finally:
        if own_site:
            site.stop()
    return proc, stderr, output


def test_a_crawl_stopped_by_force_does_not_exit_as_one_that_ran(tmp_path):
    """Two Ctrl-C (Scrapy's forced, unclean shutdown) ended a crawl with no summary and
    exit status 0, what a crawl that ran exits with: a cron job saw success and an output
    file holding none of the articles fetched (a new user's local site: 0 lines). It
    now says so in one line and exits with status 1; nothing is recorded that was not
    written, so the next crawl exports those articles."""
    proc, stderr, _ = _interrupted_crawl(tmp_path, signals=2)
    assert "forcing unclean shutdown" in stderr
    assert "newsstem run summary" not in stderr
    assert proc.returncode == 1
    last = stderr.rstrip().splitlines()[-1]
    assert last.startswith("newsstem: the crawl was stopped by force (a second Ctrl-C or SIGTERM)")
    assert last.endswith("articles not yet recorded in the URL store are exported again by the "
                         "next crawl")


def test_a_crawl_stopped_by_force_without_a_url_store_says_nothing_of_one(tmp_path):
    # with -s NEWSSTEM_URLDB= the line still said that articles not yet recorded in the
    # URL store would be exported again: there is no store, every crawl exports them all
    proc, stderr, _ = _interrupted_crawl(tmp_path, signals=2, settings={"NEWSSTEM_URLDB": ""})
    assert proc.returncode == 1
    assert stderr.rstrip().splitlines()[-1] == (
        "newsstem: the crawl was stopped by force (a second Ctrl-C or SIGTERM) before its "
        "end: no run summary")


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
def test_a_crawl_stopped_by_force_says_so_in_its_log_file(tmp_path, stop):
    """A scrapyd or cron job read in its LOG_FILE Scrapy's "forcing unclean shutdown" and
    nothing after: the line saying the crawl did not end (no summary, exit status 1) was
    on stderr only. It is the log file's last line, in the crawl's LOG_FORMAT."""
    log = tmp_path / "crawl.log"
    site = GeneratedNewsSite(sections=2, articles_per_section=8, delay=1.0).start()
    try:
        with _crawl_process(site, tmp_path / "articles.jsonl", {
            "LOG_FILE": str(log), "LOG_FORMAT": "%(levelname)s [%(name)s] %(message)s",
        }) as proc:
            _wait_for_an_article(site.article_asked)
            for _ in range(2):
                proc.send_signal(stop)
                time.sleep(0.2)  # within the page in flight (1 s): the crawl has not ended
            _, stderr = proc.communicate(timeout=60)
    finally:
        site.stop()
    assert proc.returncode == 1, stderr
    line = ("newsstem: the crawl was stopped by force (a second Ctrl-C or SIGTERM) before its "
            "end: no run summary")
    lines = log.read_text().splitlines()
    assert "forcing unclean shutdown" in "\n".join(lines)
    assert "newsstem run summary" not in "\n".join(lines)
    assert lines[-1] == f"ERROR [newsstem] {line}", lines[-3:]
    assert stderr.rstrip().splitlines()[-1] == line  # and on stderr, as before (scrapyd's log)


def test_a_crawl_stopped_by_one_ctrl_c_ends_cleanly_with_its_summary(tmp_path):
    proc, stderr, output = _interrupted_crawl(tmp_path, signals=1)
    assert "newsstem run summary (shutdown" in stderr
    assert "stopped by force" not in stderr
    assert proc.returncode == 0
    assert output.read_text().count("\n") >= 1
    # the summary read like a finished crawl's: that the queue was dropped went unsaid
    assert ("  stopped before its end (Ctrl-C or SIGTERM): the requests still queued were "
            "dropped; the same command starts again from the start pages") in stderr


def test_a_crawl_stopped_once_its_queue_is_empty_says_nothing_was_dropped(tmp_path):
    """SIGTERM while the crawl's last page is in flight, its queue empty: the summary said
    "the requests still queued were dropped", and an operator crawled again for nothing.
    The page in flight is fetched and exported; the summary says nothing was dropped."""
    site = GeneratedNewsSite(sections=1, articles_per_section=1, delay=1.0).start()
    output = tmp_path / "articles.jsonl"
    try:
        with _crawl_process(site, output, {}) as proc:
            # the article is the last page: its section listed it alone, and its links are known
            _wait_for_an_article(lambda: "/0/0.html" in site.paths())
            proc.send_signal(signal.SIGTERM)  # within the page in flight (1 s)
            _, stderr = proc.communicate(timeout=60)
    finally:
        site.stop()
    assert proc.returncode == 0, stderr
    assert "newsstem run summary (shutdown" in stderr
    assert ("  stopped before its end (Ctrl-C or SIGTERM): no request was still queued, none "
            "was dropped") in stderr
    assert "still queued were dropped" not in stderr
    assert [json.loads(line)["url"] for line in output.read_text().splitlines()] == [
        f"{site.url}/0/0.html"]


def test_a_crawl_stopped_by_ctrl_c_with_a_jobdir_says_the_same_command_resumes_it(tmp_path):
    """A new user's Ctrl-C mid-crawl with -s JOBDIR=...: the summary now says where the
    queue is kept; the same command resumes it, and the two runs export every article
    once."""
    jobdir = tmp_path / "job"
    site = GeneratedNewsSite(sections=2, articles_per_section=8, delay=0.5).start()
    try:
        proc, stderr, first = _interrupted_crawl(tmp_path, signals=1, site=site,
                                                 settings={"JOBDIR": str(jobdir)})
        assert proc.returncode == 0, stderr
        assert (f"  stopped before its end (Ctrl-C or SIGTERM): the requests still queued "
                f"are kept in JOBDIR {jobdir}; the same command resumes them") in stderr
        site.delay = 0.0
        second = tmp_path / "resumed.jsonl"
        cmd = _crawl_command(site, second, {
            "NEWSSTEM_URLDB": f"sqlite:///{tmp_path / 'urldb.sqlite'}", "JOBDIR": str(jobdir)})
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        resumed = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True,
                                 timeout=120)
    finally:
        site.stop()
    assert resumed.returncode == 0, resumed.stderr
    assert "newsstem run summary (finished" in resumed.stderr
    assert "stopped before its end" not in resumed.stderr
    urls = [json.loads(line)["url"] for path in (first, second)
            for line in path.read_text(encoding="utf-8").splitlines()]
    assert sorted(urls) == sorted(set(urls)) and set(urls) == site.article_urls()


@pytest.mark.parametrize("separator", [",", ", "])
@pytest.mark.parametrize("argument", ["start_url", "feed"])
def test_urls_listed_with_commas_are_one_line_before_any_request(tmp_path, site, argument,
                                                                separator):
    # read as one URL ("…/index.html,http://…/news/index.html"): a 404, and the crawl
    # "reached nothing" (exit status 3), or the first URL with its comma a 404 and the
    # second crawled alone (exit status 0)
    urls = separator.join([f"{site.url}/index.html", f"{site.url}/news/index.html"])
    output = tmp_path / "a.jsonl"
    site.clear()
    result = scrapy("crawl", "news", "-a", f"{argument}={urls}", "-O", str(output))
    assert result.returncode == 2, result.stderr
    [line] = result.stderr.splitlines()
    assert "holds URLs separated by a comma; separate them by spaces" in line, line
    assert line.startswith("scrapy: error: news: "), line
    assert site.paths(status=None) == []


@pytest.mark.parametrize(
    ("value", "taken"),
    [("2", None), ("maybe", None), ("yes", True), ("Off", False), ("TRUE", True)],
)
def test_every_boolean_setting_takes_the_same_words(tmp_path, site, value, taken):
    # NEWSSTEM_FOLLOW_FEEDS=2 was taken as on (Scrapy's getbool: any whole number), and
    # =yes refused, though NEWSSTEM_RENDER and NEWSSTEM_URLDB_REFRESH took it
    output = tmp_path / "articles.jsonl"
    result = crawl_in_terminal(tmp_path, f"{site.url}/index.html", str(output),
                               {"NEWSSTEM_FOLLOW_FEEDS": value})
    if taken is None:
        assert result.returncode == 2, result.stderr
        assert result.stderr.strip() == (
            f"scrapy: error: NEWSSTEM_FOLLOW_FEEDS must be 1/0 (or true/false, yes/no), "
            f"not {value!r} (see scrapy crawl -h)")
        assert site.paths(status=None) == []
    else:
        assert result.returncode == 0, result.stderr
        assert "/index.html" in site.paths()
