"""``scrapy urldb`` as a user runs it (a subprocess), on real SQLite and Redis stores."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from newsstem.urldb import format_time, open_store, text_key, url_key
from newsstem.urldb.store import COPY, TEXT
from support.crawl import REPO, CrawlResult, run_crawl
from support.newssite import GeneratedNewsSite

DAY = 86400
NOW = int(time.time())
OLD = [f"https://news.example/old/{i}.html" for i in range(7)]
RECENT = [f"https://news.example/recent/{i}.html" for i in range(5)]


def urldb(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run(
        [sys.executable, "-m", "scrapy", "urldb", *args],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def crawl_into(store: str, tmp_path: Path, site: GeneratedNewsSite, start_url: str,
               depth: int) -> CrawlResult:
    """A crawl of ``site`` (started; stopped after) from ``start_url`` to ``depth``,
    recording in ``store``."""
    try:
        return run_crawl(tmp_path, "-a", f"start_url={start_url}", "-a", f"depth={depth}",
                         settings={"NEWSSTEM_URLDB": store})
    finally:
        site.stop()


@pytest.fixture
def store(store_uri):
    """A store with 7 URLs last seen 40 days ago (3 exported) and 5 seen 10 days ago."""
    with open_store(store_uri) as opened:
        opened.mark_seen([url_key(u) for u in OLD + RECENT], NOW - 40 * DAY)
        opened.mark_exported([url_key(u) for u in OLD[:3]], NOW - 39 * DAY)
        opened.mark_seen([url_key(u) for u in RECENT], NOW - 10 * DAY)
    return store_uri


def fields(output: str) -> dict[str, str]:
    return dict(
        line.split(None, 1) if " " in line else (line, "") for line in output.splitlines() if line
    )


@pytest.fixture(params=["sqlite", "redis"])
def store_uri(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'urldb.sqlite'}"
    server = request.getfixturevalue("redis_server")
    # a lease outlives a `scrapy urldb` start on a loaded machine (2 s did not: the crawl's
    # lease lapsed before the prune it should refuse); the tests release it themselves
    return f"{server.url}?prefix=cmd-{request.node.name[-12:]}-{time.monotonic_ns()}&lease_ttl=60"


def test_stats_prints_the_figures_of_the_store(store):
    result = urldb("stats", "--urldb", store)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    figures = {name: value.split()[0] for name, value in fields(out).items()}
    assert (figures["URLs"], figures["articles"], figures["entries"]) == ("12", "3", "12")
    forty, ten = format_time(NOW - 40 * DAY), format_time(NOW - 10 * DAY)
    assert f"first seen  oldest {forty}, newest {forty}" in out
    assert f"last seen   oldest {forty}, newest {ten}" in out
    assert "bytes)" in out


def test_stats_count_articles_not_their_copies_and_texts(store_uri, tmp_path):
    """After a crawl of 19 articles, 'articles' says 19: the URLs recorded with them (print
    copies, a redirect) and their text entries are counted under their own names (the
    store said 'exported 58' before)."""
    site = GeneratedNewsSite(sections=3, articles_per_section=6, copies=True).start()
    site.redirects["/moved/7.html"] = "/1/77.html"  # an article listed nowhere else
    site.home_links.append("/moved/7.html")
    crawl = crawl_into(store_uri, tmp_path, site, f"{site.url}/", depth=3)
    assert crawl.returncode == 0, crawl.log
    assert len(crawl.items) == 19 and crawl.stats["newsstem/urldb/exported"] == 19
    dropped = crawl.stats["newsstem/dropped/duplicate"]
    assert dropped == 19  # the print pages
    result = urldb("stats", "--urldb", store_uri)
    assert result.returncode == 0, result.stderr
    figures = {name: int(value.split()[0]) for name, value in fields(result.stdout).items()
               if name in ("URLs", "articles", "copies", "texts", "entries")}
    # URLs: 4 hubs, 19 articles, 19 print pages, the redirect
    assert figures == {"URLs": 4 + 19 + 19 + 1, "articles": 19, "copies": dropped + 1,
                       "texts": 19, "entries": 43 + 19}
    # `show` said "exported <time>" of a print copy as of the article itself
    shown = urldb("show", f"{site.url}/1/1.html", f"{site.url}/print/1/1.html",
                  f"{site.url}/moved/7.html", "--urldb", store_uri)
    assert shown.returncode == 0, shown.stdout + shown.stderr
    article, copy, redirect = (fields(part)["exported"] for part in shown.stdout.split("\n\n"))
    assert "copy" not in article and article != "never"
    for each in (copy, redirect):
        assert each.startswith(article[:10]) and "as a copy of another URL's article" in each
    # ... and could not say of which: the store keeps the article's key with each copy,
    # named by its URL when that is given too, else by its key
    copy_of = [fields(part).get("repeats") for part in shown.stdout.split("\n\n")]
    assert copy_of[0] is None
    assert copy_of[1] == f"{site.url}/1/1.html (key {url_key(site.url + '/1/1.html').hex()})"
    assert copy_of[2].startswith(f"the URL of key {url_key(site.url + '/1/77.html').hex()} ")
    shown = urldb("show", f"{site.url}/moved/7.html", f"{site.url}/1/77.html",
                  "--urldb", store_uri)
    assert fields(shown.stdout.split("\n\n")[0])["repeats"].startswith(f"{site.url}/1/77.html")


def test_stats_do_not_call_text_entries_articles(store_uri):
    """An article exported again (-a refresh=1) with another headline or opening (a layout
    learned since, an edited story) leaves its first text entry beside the new one: on a
    local site of 16 articles, crawl, learn, crawl with refresh gave 'articles 16' and
    'texts 31 (exported articles known by their text)', 31 articles that never were."""
    url = url_key("https://news.example/1.html")
    first = text_key("news.example", "minister resigns", ["by jane doe. the minister said"])
    again = text_key("news.example", "minister resigns", ["the minister said so today."])
    with open_store(store_uri) as opened:
        opened.mark_exported([url, first], NOW - DAY, {first: TEXT})
        opened.mark_exported([url, again], NOW, {again: TEXT})
    result = urldb("stats", "--urldb", store_uri)
    assert result.returncode == 0, result.stderr
    lines = fields(result.stdout)
    assert lines["articles"].split()[0] == "1" and lines["texts"].split()[0] == "2"
    assert "exported articles known" not in lines["texts"]
    assert "exported again" in lines["texts"]


def test_show_prints_what_the_store_knows_about_a_url(store):
    result = urldb("show", OLD[0] + "#comments", RECENT[1], "--urldb", store)
    assert result.returncode == 0, result.stderr
    first, second = result.stdout.split("\n\n")
    assert f"exported    {format_time(NOW - 39 * DAY)}" in first
    assert f"canonical   {OLD[0]}\n" in first  # the fragment is not part of the key
    assert f"first seen  {format_time(NOW - 40 * DAY)}" in second
    assert f"last seen   {format_time(NOW - 10 * DAY)}" in second
    assert "exported    never" in second
    missing = urldb("show", "https://news.example/never.html", "--urldb", store)
    assert missing.returncode == 1
    assert "not in the store" in missing.stdout


def test_show_of_a_url_without_its_scheme_is_a_usage_error_not_unknown(store):
    # `show news.example/old/0.html` said "not in the store" (exit 1) of a URL the store
    # knows as https://news.example/old/0.html: a typo looked like a missing page
    # (and "http://[::1/a", which urlsplit cannot read, ended in a traceback)
    for given in ("news.example/old/0.html", "ftp://news.example/old/0.html", "https://",
                  "http://[::1/a"):
        result = urldb("show", OLD[0], given, "--urldb", store)
        assert result.returncode == 2, result.stdout
        [line] = result.stderr.splitlines()
        assert line.startswith(f"scrapy: error: show: {given!r} is not an http(s) URL with a "
                               "host; the store knows URLs as a crawl fetched them"), line
        assert result.stdout == ""


def test_show_looks_up_a_shared_link_as_the_crawl_recorded_it(tmp_path):
    """A crawl follows /a.html?share=twitter as /a.html (NEWSSTEM_TRACKING_PARAMS) and
    records /a.html; `show` of the link a user copied from the page said "not in the
    store" (exit 1) for an article the crawl had exported."""
    store = f"sqlite:///{tmp_path / 'urldb.sqlite'}"
    site = GeneratedNewsSite(sections=1, articles_per_section=3).start()
    crawl = crawl_into(store, tmp_path, site, f"{site.url}/", depth=2)
    assert crawl.returncode == 0, crawl.log
    article = sorted(site.article_urls())[0]
    assert article in {item["url"] for item in crawl.items}
    shared = urldb("show", f"{article}?share=twitter&utm_source=mail", "--urldb", store)
    assert shared.returncode == 0, shared.stdout + shared.stderr
    lines = fields(shared.stdout)
    assert lines["url"] == f"{article}?share=twitter&utm_source=mail"
    assert lines["canonical"] == article
    assert lines["exported"] != "never"
    # with tracking arguments kept by the crawl, `show` keeps them too
    kept = urldb("show", f"{article}?share=twitter", "--urldb", store,
                 "-s", "NEWSSTEM_TRACKING_PARAMS=[]")
    assert kept.returncode == 1 and "not in the store" in kept.stdout
    bad = urldb("show", article, "--urldb", store, "-s", "NEWSSTEM_TRACKING_PARAMS=[share")
    assert bad.returncode == 2 and "NEWSSTEM_TRACKING_PARAMS" in bad.stderr
    assert "Usage" not in bad.stderr


def test_show_finds_a_url_the_crawl_recorded_with_its_tracking_arguments(tmp_path):
    """A start URL or a feed entry (/a.html?utm_source=rss) is fetched and recorded as
    given: only followed links lose their tracking arguments. `show` of that URL, as the
    exported article's `url` gives it, stripped it and said "not in the store" (exit 1)."""
    store = f"sqlite:///{tmp_path / 'urldb.sqlite'}"
    site = GeneratedNewsSite(sections=1, articles_per_section=1).start()
    article = f"{sorted(site.article_urls())[0]}?utm_source=rss"
    crawl = crawl_into(store, tmp_path, site, article, depth=0)
    assert crawl.returncode == 0, crawl.log
    assert [item["url"] for item in crawl.items] == [article]
    shown = urldb("show", article, "--urldb", store)
    assert shown.returncode == 0, shown.stdout + shown.stderr
    lines = fields(shown.stdout)
    assert lines["canonical"] == article and lines["exported"] != "never"


def test_prune_removes_exactly_the_stale_entries(store):
    dry = urldb("prune", "--older-than", "30d", "--dry-run", "--urldb", store)
    assert dry.returncode == 0, dry.stderr
    assert "would remove 7 of 12 entries" in dry.stdout
    result = urldb("prune", "--older-than", "30d", "--urldb", store)
    assert result.returncode == 0, result.stderr
    assert "removed 7 entries" in result.stdout and "5 remain" in result.stdout
    with open_store(store) as opened:
        assert set(opened.lookup([url_key(u) for u in OLD + RECENT])) == {
            url_key(u) for u in RECENT
        }
    assert "removed 0 entries" in urldb("prune", "--older-than", "30d", "--urldb", store).stdout
    assert "removed 5 entries" in urldb("prune", "--older-than", "9d", "--urldb", store).stdout


def test_prune_refuses_while_a_crawl_holds_the_store_or_waits_for_it(store):
    with open_store(store) as opened:
        crawl = opened.lease(exclusive=False)
        refused = urldb("prune", "--older-than", "30d", "--urldb", store)
        assert refused.returncode == 1
        assert refused.stderr.startswith("newsstem: URL store error:")
        assert "prune when no crawl runs" in refused.stderr
        threading.Timer(1.0, crawl.release).start()
        waited = urldb("prune", "--older-than", "30d", "--wait", "30", "--urldb", store)
    assert waited.returncode == 0, waited.stderr
    assert "removed 7 entries" in waited.stdout


def test_prune_that_waited_in_vain_does_not_advise_waiting(store):
    # it said "or wait for it with --wait SECONDS" to one who had just waited
    with open_store(store) as opened:
        crawl = opened.lease(exclusive=False)
        try:
            refused = urldb("prune", "--older-than", "30d", "--wait", "1", "--urldb", store)
        finally:
            crawl.release()
    assert refused.returncode == 1, refused.stderr
    [line] = refused.stderr.splitlines()
    assert line.startswith("newsstem: URL store error:")
    assert line.endswith("; still so after waiting 1 s (--wait): prune when no crawl runs, "
                         "or wait longer"), line


@pytest.mark.parametrize(
    ("args", "status", "message"),
    [
        ((), 2, "give one of: stats, show, prune"),
        (("compact",), 2, "give one of"),
        (("compact",), 2, "unknown action 'compact'; give one of"),
        (("stat",), 2, "unknown action 'stat' (did you mean stats?); give one of"),
        (("show",), 2, "show needs at least one URL"),
        (("prune",), 2, "prune needs --older-than"),
        (("prune", "--older-than", "soon"), 2, "not an age"),
        # a value starting with '-' is an option to argparse: "expected one argument"
        (("prune", "--older-than", "-3d"), 2, "--older-than needs an age after it, such as "
                                             "--older-than 30d (units s m h d w; no sign"),
        (("prune", "--older-than"), 2, "--older-than needs an age after it"),
        (("prune", "--older-than=-3d"), 2, "'-3d' is not an age such as 30d"),
        (("prune", "--older-than", "30d", "--wait", "nan"), 2, "--wait must be >= 0"),
        # prune's options after another action were ignored: stats printed every entry's
        # figures to one who asked for those not seen for 30 days
        (("stats", "--older-than", "30d"), 2, "stats takes no --older-than: only prune does"),
        (("show", "--dry-run", "--wait", "5", "https://site/a.html"), 2,
         "show takes no --dry-run, --wait: only prune does"),
        # 0.0 == False: `--wait 0`, the default's value, was taken for not given
        (("stats", "--wait", "0"), 2, "stats takes no --wait: only prune does"),
        (("stats", "--urldb", "ftp://x/y"), 1, "is not one newsstem knows"),
        (("stats", "--urldb", ""), 2, "switched off"),
    ],
)
def test_bad_arguments_end_in_one_clear_error(args, status, message):
    result = urldb(*args)
    assert result.returncode == status
    assert message in result.stderr


def test_a_redis_that_does_not_answer_is_one_line_naming_the_option_given():
    # "… Connection refused.; check that redis-server runs there, or set NEWSSTEM_URLDB":
    # a stray full stop, and to one who gave --urldb, only the setting
    from support.redisserver import free_port

    port = free_port()
    result = urldb("stats", "--urldb", f"redis://127.0.0.1:{port}/0")
    assert result.returncode == 1
    said = (f"newsstem: URL store error: cannot reach the URL store at redis://127.0.0.1:{port}"
            f"/0: Error 111 connecting to 127.0.0.1:{port}. Connection refused; check that "
            "redis-server runs there, or name another store (NEWSSTEM_URLDB; scrapy urldb "
            "--urldb)")
    assert result.stderr.splitlines() == [said]


def test_a_sqlite_store_that_does_not_exist_is_an_error_not_a_new_store(tmp_path):
    # a typo in --urldb (or NEWSSTEM_URLDB) made an empty store, and its directories,
    # and reported 0 entries, or "not in the store" for every URL
    missing = tmp_path / "typo" / "urldb.sqlite"
    for args in (("stats",), ("show", "https://news.example/a.html"),
                 ("prune", "--older-than", "30d")):
        result = urldb(*args, "--urldb", f"sqlite:///{missing}")
        assert result.returncode == 1, result.stderr
        assert f"no URL store at {missing} (a crawl creates it)" in result.stderr
        assert "Traceback" not in result.stderr
    assert not (tmp_path / "typo").exists()


def test_a_reader_that_stops_early_is_no_traceback(store):
    # `scrapy urldb show URL... | head -3` ended in a BrokenPipeError traceback
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    urls = OLD * 400  # more than a pipe holds: the command is still writing when head exits
    with subprocess.Popen([sys.executable, "-m", "scrapy", "urldb", "--urldb", store, "show",
                           *urls], cwd=REPO, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        first = proc.stdout.readline()
        proc.stdout.close()  # as head does after its lines
        err = proc.stderr.read()
        proc.wait(timeout=60)
    assert first.startswith("url ")
    assert "Traceback" not in err and "BrokenPipe" not in err, err
    assert proc.returncode == 1


def test_show_does_not_call_a_text_key_the_key_of_a_url(store_uri):
    # A copy dropped because an earlier crawl exported an article of its text (no metadata
    # naming its original) is recorded along with that text's key (DuplicatePipeline
    # passes marks.text): `show` said "the URL of key <the text key>", a key no
    # `scrapy urldb show URL` ever prints.
    article, copy = "https://news.example/1.html", "https://news.example/print/1.html"
    text = text_key("news.example", "minister resigns", ["the minister said so today."])
    with open_store(store_uri) as opened:
        opened.mark_exported([url_key(article), text], NOW - DAY, {text: TEXT})
        opened.mark_exported([url_key(copy)], NOW, {url_key(copy): COPY},
                             {url_key(copy): text})
    result = urldb("show", copy, "--urldb", store_uri)
    assert result.returncode == 0, result.stderr
    repeats = fields(result.stdout)["repeats"]
    assert "the URL of key" not in repeats, repeats
    assert repeats.startswith("an article of the same text"), repeats
    assert text.hex() in repeats


def test_stats_and_show_read_an_older_store_without_upgrading_it(tmp_path):
    """`stats` and `show` upgraded a schema 2 store to schema 3 on opening it, which locks
    out an older newsstem still using the file (a scrapyd running an older egg: "written
    by a newer newsstem", every job refused). They read it as it is; a crawl upgrades."""
    import sqlite3

    from newsstem.urldb.sqlite_store import APPLICATION_ID, SCHEMA_VERSION

    path = tmp_path / "urldb.sqlite"
    store = f"sqlite:///{path}"
    db = sqlite3.connect(path)  # what newsstem wrote before copy_of (schema 2)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("CREATE TABLE urls (key BLOB PRIMARY KEY NOT NULL, first_seen INTEGER "
               "NOT NULL, last_seen INTEGER NOT NULL, exported_at INTEGER, kind INTEGER "
               "NOT NULL DEFAULT 0) WITHOUT ROWID")
    db.execute(f"PRAGMA application_id={APPLICATION_ID}")
    db.execute("PRAGMA user_version=2")
    db.executemany("INSERT INTO urls VALUES (?, ?, ?, ?, ?)",
                   [(url_key(OLD[0]), NOW - 40 * DAY, NOW - 10 * DAY, NOW - 39 * DAY, 0),
                    (url_key(OLD[1]), NOW - 40 * DAY, NOW - 40 * DAY, NOW - 39 * DAY, COPY),
                    (url_key(OLD[2]), NOW - 40 * DAY, NOW - 40 * DAY, None, 0)])
    db.commit()
    db.close()

    def schema() -> int:
        with sqlite3.connect(path) as db:
            return db.execute("PRAGMA user_version").fetchone()[0]

    stats = urldb("stats", "--urldb", store)
    assert stats.returncode == 0, stats.stderr
    figures = {name: value.split()[0] for name, value in fields(stats.stdout).items()}
    assert (figures["URLs"], figures["articles"], figures["copies"]) == ("3", "1", "1")
    assert schema() == 2
    shown = urldb("show", OLD[0], OLD[1], OLD[2], "--urldb", store)
    assert shown.returncode == 0, shown.stderr
    article, copy, seen = shown.stdout.split("\n\n")
    assert f"exported    {format_time(NOW - 39 * DAY)}" in article
    assert f"last seen   {format_time(NOW - 10 * DAY)}" in article
    assert "as a copy of another URL's article" in copy
    assert "the store does not say which URL" in copy and "repeats" not in copy
    assert "exported    never" in seen
    assert schema() == 2
    with sqlite3.connect(path) as db:  # nothing written: not a column, not a row
        assert [row[1] for row in db.execute("PRAGMA table_info(urls)")][-1] == "kind"
        assert db.execute("SELECT count(*) FROM urls").fetchone()[0] == 3

    site = GeneratedNewsSite(sections=1, articles_per_section=2).start()
    crawl = crawl_into(store, tmp_path, site, f"{site.url}/", depth=2)
    assert crawl.returncode == 0, crawl.log
    assert schema() == SCHEMA_VERSION == 3
    after = urldb("show", OLD[0], "--urldb", store)
    assert after.returncode == 0 and f"last seen   {format_time(NOW - 10 * DAY)}" in after.stdout


def test_stats_and_show_leave_a_layout_1_redis_store_at_layout_1(redis_server):
    """`stats` and `show` raised a layout 1 Redis store to layout 2 on opening it, which
    locks out an older newsstem still using it (a scrapyd running an older egg: "written
    by a newer newsstem"), as the SQLite upgrade did. They read it as it is and write
    nothing; a crawl (or prune) upgrades it."""
    prefix = f"layout1-{time.monotonic_ns()}"
    store = f"{redis_server.url}?prefix={prefix}"
    client = redis_server.client()
    with open_store(store) as opened:  # entries as layout 1 wrote them: 12 bytes, no kind
        opened.mark_seen([url_key(u) for u in OLD[:3]], NOW - 40 * DAY)
        opened.mark_exported([url_key(OLD[0])], NOW - 39 * DAY)
    client.hset(f"{prefix}:meta", "version", 1)
    before = {name: client.dump(name) for name in client.scan_iter(match=f"{prefix}:*")}

    stats = urldb("stats", "--urldb", store)
    assert stats.returncode == 0, stats.stderr
    figures = {name: value.split()[0] for name, value in fields(stats.stdout).items()}
    assert (figures["URLs"], figures["articles"]) == ("3", "1")
    shown = urldb("show", OLD[0], "--urldb", store)
    assert shown.returncode == 0, shown.stderr
    assert f"exported    {format_time(NOW - 39 * DAY)}" in shown.stdout
    assert client.hget(f"{prefix}:meta", "version") == b"1"
    after = {name: client.dump(name) for name in client.scan_iter(match=f"{prefix}:*")}
    assert after == before  # no key added (a lease), none changed

    with open_store(store) as opened:  # a writer upgrades it, as before
        opened.mark_seen([url_key(OLD[3])], NOW)
    assert client.hget(f"{prefix}:meta", "version") == b"2"


def test_a_redis_prefix_without_a_store_is_an_error_and_gets_no_layout_record(redis_server):
    # as a SQLite file that does not exist: a typo in the database number or the ?prefix=
    # (`--urldb redis://host:6379/5` for /0) printed "URLs 0" with status 0, show said
    # "never" of every URL, and prune wrote a new store's layout record there
    prefix = f"nostore-{time.monotonic_ns()}"
    uri = f"{redis_server.url}?prefix={prefix}"
    for args in (("stats",), ("show", "https://news.example/a.html"),
                 ("prune", "--older-than", "30d")):
        result = urldb(*args, "--urldb", uri)
        assert result.returncode == 1, result.stdout + result.stderr
        assert f"under the prefix '{prefix}' (a crawl creates it)" in result.stderr
        assert "Traceback" not in result.stderr
    assert list(redis_server.client().scan_iter(match=f"{prefix}:*")) == []


def test_without_urldb_the_store_of_newsstem_distributed_is_the_workers_one(redis_server,
                                                                           tmp_path):
    # a machine set up as a distributed worker: NEWSSTEM_DISTRIBUTED only, NEWSSTEM_URLDB at
    # its default; its crawls record in that Redis (the add-on, applied to crawls only), so
    # `scrapy urldb` reads and prunes that store, not the local SQLite default (which showed
    # nothing, or an old store of that machine, and prune removed the wrong entries)
    store = f"{redis_server.url}?prefix=dist-{time.monotonic_ns()}&lease_ttl=60"
    with open_store(store) as opened:
        opened.mark_seen([url_key(u) for u in OLD + RECENT], NOW - 40 * DAY)
        opened.mark_seen([url_key(u) for u in RECENT], NOW - 10 * DAY)
    worker = ("-s", f"NEWSSTEM_DISTRIBUTED={store}")
    stats = urldb("stats", *worker)
    assert stats.returncode == 0, stats.stdout + stats.stderr
    assert fields(stats.stdout)["URLs"].split()[0] == "12", stats.stdout
    pruned = urldb("prune", "--older-than", "30d", *worker)
    assert pruned.returncode == 0, pruned.stdout + pruned.stderr
    assert "removed 7 entries" in pruned.stdout, pruned.stdout
    with open_store(store) as opened:
        assert set(opened.lookup([url_key(u) for u in OLD + RECENT])) == {
            url_key(u) for u in RECENT
        }
    # NEWSSTEM_URLDB given (-s) keeps its store, as in a crawl
    missing = tmp_path / "none.sqlite"
    given = urldb("stats", *worker, "-s", f"NEWSSTEM_URLDB=sqlite:///{missing}")
    assert given.returncode == 1 and str(missing) in given.stderr, given.stderr
    # a NEWSSTEM_DISTRIBUTED that is no Redis URL is a usage error, not a traceback
    bad = urldb("stats", "-s", "NEWSSTEM_DISTRIBUTED=127.0.0.1:6379")
    assert bad.returncode == 2 and "is not a Redis URL" in bad.stderr, bad.stderr
    assert "Traceback" not in bad.stderr
