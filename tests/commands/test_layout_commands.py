"""End to end: crawl with the archive on, `scrapy learn`, crawl again, `scrapy extract`.

The site (tests/layout/fixtures/msnbc, served gzipped over real HTTP on 127.0.0.1)
is a hub page linking 12 real article pages of one layout, each link's text being
the article's title.
"""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import pytest
from support.crawl import run_crawl, scrapy
from support.httpserver import FixtureSite

from newsstem.evaluation import score_page

SITE = Path(__file__).resolve().parents[1] / "layout" / "fixtures" / "msnbc"
ARTICLES = sorted(path.name.removesuffix(".html.gz") for path in SITE.glob("*.html.gz"))


def gold(name: str) -> str:
    return (SITE / f"{name}.txt").read_text(encoding="utf-8")


def gold_title(name: str) -> str:
    return " ".join(gold(name).strip().split("\n\n", 1)[0].split())


@pytest.fixture(scope="module")
def learned(msnbc_site, tmp_path_factory):
    """A first crawl with the archive on, then `scrapy learn` on the archive."""
    work = tmp_path_factory.mktemp("learn")
    archive, patterns = work / "crawl.warc.gz", work / "patterns"
    first = run_crawl(
        work, "-a", f"start_url={msnbc_site.url}/index.html", name="first",
        settings={"NEWSSTEM_ARCHIVE": str(archive), "NEWSSTEM_PATTERNS_DIR": ""},
    )
    assert first.returncode == 0, first.log
    assert first.stats["newsstem/archive/pages"] == 13
    learn = scrapy("learn", "--input", str(archive), "--out", str(patterns))
    assert learn.returncode == 0, learn.stdout + learn.stderr
    return work, archive, patterns, learn.stdout


def test_learn_writes_one_pattern_file_for_the_site(msnbc_site, learned):
    _, _, patterns, report = learned
    site_name = f"127.0.0.1:{msnbc_site.port}"
    [path] = patterns.glob("*.json")
    assert path.name == f"127.0.0.1_{msnbc_site.port}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["site"] == site_name and len(data["sources"]) == 13
    kinds = sorted(p["kind"] for p in data["patterns"])
    assert kinds == ["article", "hub"]  # the articles, and the hub page on its own
    assert f"{site_name}: 13 pages" in report and "written to" in report
    # one of each, said in the singular: the hub page is a layout of its own
    assert "1 article pattern, 1 hub pattern (" in report, report
    assert "    1 page   score" in report and "no article on 1 of 1 page\n" in report, report


def test_second_crawl_extracts_by_pattern(msnbc_site, learned, tmp_path):
    _, _, patterns, _ = learned
    result = run_crawl(
        tmp_path, "-a", f"start_url={msnbc_site.url}/index.html", name="second",
        settings={"NEWSSTEM_PATTERNS_DIR": str(patterns)},
    )
    assert result.returncode == 0, result.log
    site_name = f"127.0.0.1:{msnbc_site.port}"
    # the command checks the pattern files and hands them to the pipeline: read once
    assert result.log.count("newsstem: layout patterns for 1 site(s)") == 1, result.log
    by_name = {item["url"].rsplit("/", 1)[1].removesuffix(".html"): item for item in result.items}
    assert sorted(by_name) == ARTICLES
    for name, article in by_name.items():
        assert article["method"] == f"pattern:{site_name}/1", name
        assert article["title"] == gold_title(name), name
        # (the gold of news_03 and news_15 also has the caption of the video beside the
        # article, which neither the pattern nor the readability fallback takes: 0.93)
        assert score_page(article["body"], gold(name)).f1 >= 0.92, name
        assert article["anchor_texts"] == [gold_title(name)]
    stats = result.stats
    assert stats[f"newsstem/method/pattern:{site_name}/1"] == 12
    assert stats[f"newsstem/patterns/{site_name}/matched_rate"] == 1.0
    assert stats["newsstem/dropped/hub_layout"] == 1  # the index page


def test_extract_runs_the_same_pipeline_offline(msnbc_site, learned, tmp_path):
    _, archive, patterns, _ = learned
    msnbc_site.clear()
    output = tmp_path / "offline.jsonl"
    result = scrapy(
        "extract", "--input", str(archive), "-O", str(output),
        settings={"NEWSSTEM_PATTERNS_DIR": str(patterns)},
    )
    assert result.returncode == 0, result.stderr
    items = [json.loads(line) for line in output.read_text(encoding="utf-8").splitlines()]
    assert len(items) == 12
    assert result.stderr.count("newsstem: layout patterns for 1 site(s)") == 1, result.stderr
    assert {item["method"] for item in items} == {f"pattern:127.0.0.1:{msnbc_site.port}/1"}
    assert msnbc_site.paths(status=None) == []  # nothing fetched
    # the URL store is off by design: no warning about it at every run
    assert "WARNING" not in result.stderr, result.stderr
    # nothing was fetched: the summary said "pages fetched: 0"
    assert "  pages read from archives: 13\n" in result.stderr  # 12 articles, 1 hub
    # Scrapy's periodic line counts responses ("Crawled 0 pages (at 0 pages/min)"):
    # this one says what an extraction does
    assert "Crawled 0 pages" not in result.stderr, result.stderr
    assert ("Read 0 pages from archives (at 0 pages/min), exported 0 articles (at 0 "
            "articles/min)") in result.stderr, result.stderr
    # and a crawl's figures, which mean nothing here (stop 33: "known URLs skipped (URL
    # store): 0", "errors: 0", "robots.txt refused: 0")
    summary = result.stderr[result.stderr.index("newsstem extraction summary"):]
    for crawl_only in ("pages fetched", "URL store", "errors", "robots.txt", "requests failed"):
        assert crawl_only not in summary, summary


def test_extract_reads_each_url_of_an_archive_appended_twice_once_its_latest_capture(
    tmp_path,
):
    """Two crawls of the same 13 pages append to one archive: 'pages read 13', not 26, the
    older captures said apart, and a page changed between the crawls is extracted as the
    second crawl saw it (the first capture was exported, its copy dropped as duplicate)."""
    root = tmp_path / "site"
    shutil.copytree(SITE, root)
    server = FixtureSite(root).start()
    archive = tmp_path / "crawl.warc.gz"
    settings = {"NEWSSTEM_ARCHIVE": str(archive), "NEWSSTEM_PATTERNS_DIR": ""}
    try:
        for crawl in ("first", "second"):
            result = run_crawl(tmp_path, "-a", f"start_url={server.url}/index.html",
                               name=crawl, settings=settings)
            assert result.returncode == 0, result.log
            assert result.stats["newsstem/archive/pages"] == 13
            if crawl == "first":  # a page edited on the site between the crawls
                changed = root / "news_03.html.gz"
                html = gzip.decompress(changed.read_bytes()).decode("utf-8")
                changed.write_bytes(gzip.compress(html.replace(
                    "The Internet is a brutal place.", "The Internet is a cruel place."
                ).encode("utf-8")))
    finally:
        server.stop()
    output = tmp_path / "offline.jsonl"
    result = scrapy("extract", "--input", str(archive), "-O", str(output),
                    settings={"NEWSSTEM_PATTERNS_DIR": ""})
    assert result.returncode == 0, result.stderr
    items = [json.loads(line) for line in output.read_text(encoding="utf-8").splitlines()]
    assert sorted(item["url"].rsplit("/", 1)[1].removesuffix(".html") for item in items) == (
        ARTICLES
    )
    [edited] = [item for item in items if item["url"].endswith("/news_03.html")]
    assert "The Internet is a cruel place." in edited["body"], edited["body"][:300]
    assert "  pages read from archives: 13 (older captures of the same URLs skipped: 13)\n" in (
        result.stderr
    ), result.stderr
    assert "duplicate" not in result.stderr[result.stderr.index("extraction summary"):]


def test_extract_of_one_site_counts_only_that_sites_older_captures(tmp_path):
    """A two-site archive: both sites crawled, then the second alone again. ``--site`` of
    the first reads its 13 pages and no older capture (the second site's 13 older ones are
    not its own); of the second, 13 and 13 older."""
    servers = [FixtureSite(SITE).start(), FixtureSite(SITE).start()]
    first, second = (f"127.0.0.1:{server.port}" for server in servers)
    archive = tmp_path / "crawl.warc.gz"
    settings = {"NEWSSTEM_ARCHIVE": str(archive), "NEWSSTEM_PATTERNS_DIR": ""}
    try:
        for crawl, sites in (("both", servers), ("again", servers[1:])):
            start = " ".join(f"{server.url}/index.html" for server in sites)
            result = run_crawl(tmp_path, "-a", f"start_url={start}", name=crawl,
                               settings=settings)
            assert result.returncode == 0, result.log
            assert result.stats["newsstem/archive/pages"] == 13 * len(sites)
    finally:
        for server in servers:
            server.stop()
    for site, older in ((first, 0), (second, 13)):
        output = tmp_path / f"{site.replace(':', '_')}.jsonl"
        stats_file = tmp_path / f"{site.replace(':', '_')}.stats.json"
        result = scrapy("extract", "--site", site, "--input", str(archive), "-O", str(output),
                        settings={"NEWSSTEM_PATTERNS_DIR": "",
                                  "NEWSSTEM_STATS_FILE": str(stats_file)})
        assert result.returncode == 0, result.stderr
        urls = [json.loads(line)["url"] for line in output.read_text().splitlines()]
        assert len(urls) == len(set(urls)) == len(ARTICLES)
        assert {url.split("/")[2] for url in urls} == {site}
        stats = json.loads(stats_file.read_text())
        assert stats["newsstem/archive/read"] == 13
        assert stats.get("newsstem/archive/older", 0) == older, site
        skipped = f" (older captures of the same URLs skipped: {older})" if older else ""
        assert f"  pages read from archives: 13{skipped}\n" in result.stderr, result.stderr


def test_a_corrupt_pattern_file_stops_the_crawl_with_a_clear_error(msnbc_site, tmp_path):
    patterns = tmp_path / "patterns"
    patterns.mkdir()
    (patterns / "broken.json").write_text('{"format": "newsstem-patterns", "version": 1,')
    msnbc_site.clear()
    result = run_crawl(
        tmp_path, "-a", f"start_url={msnbc_site.url}/index.html",
        settings={"NEWSSTEM_PATTERNS_DIR": str(patterns)},
    )
    assert result.returncode == 2
    assert f"{patterns / 'broken.json'}: not valid JSON (line 1, column" in result.log
    assert "Traceback" not in result.log
    assert msnbc_site.paths(status=None) == []


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["learn"], "give the archive to learn from: --input"),
        (["learn", "--input", "missing.warc.gz"], "missing.warc.gz: cannot open the archive"),
        # checked before the archive is read and anything learned
        (["learn", "--input", "missing.warc.gz", "--out", "README.md/patterns"],
         "cannot write pattern files to README.md/patterns: "),
        (["learn", "--input", "missing.warc.gz", "--report", "README.md/report"],
         "cannot write the report to README.md/report: "),
        # a directory os.access calls writable for root, where no file can be made: the
        # learning ran, then saving the patterns ended in a traceback (stop 34's review)
        (["learn", "--input", "missing.warc.gz", "--out", "/proc/newsstem-patterns"],
         "cannot write pattern files to /proc/newsstem-patterns: /proc is not writable"),
        # stop 33: a traceback, and -5 was taken (the hub pages' layouts refused)
        (["learn", "--input", "x.warc.gz", "-s", "NEWSSTEM_MIN_ARTICLE_CHARS=lots"],
         "NEWSSTEM_MIN_ARTICLE_CHARS must be a whole number, not 'lots'"),
        (["learn", "--input", "x.warc.gz", "-s", "NEWSSTEM_MIN_ARTICLE_CHARS=-5"],
         "NEWSSTEM_MIN_ARTICLE_CHARS must be 0 or more, not '-5'"),
        (["extract", "-O", "x.jsonl"], "give the archive to read: --input"),
        # it ran, wrote nowhere and exited 0 (stop 33)
        (["extract", "--input", "crawl.warc.gz"], "give the file to write the articles to: -O"),
        (["learn", "--input", "x.warc.gz", "--last", "x"], "argument --last: invalid int value"),
        (["urldb", "bogus"], "give one of: stats, show, prune"),
        # an option learn does not have (extract's --site, a typo) was taken for a SITE:
        # "no HTML page of site '--dry-run'", "give at most one SITE" (a new user, stop 36)
        (["learn", "--input", "missing.warc.gz", "--dry-run"], "learn: unknown option '--dry-run'"),
        (["learn", "--input", "missing.warc.gz", "--site", "example.com"],
         "learn: unknown option '--site'; the site is given alone, not as --site: "
         "scrapy learn SITE --input ARCHIVE"),
        # learn's way of naming the site, given to extract: "unexpected argument" alone
        (["extract", "example.com", "--input", "missing.warc.gz", "-O", "x.jsonl"],
         "extract: unexpected argument 'example.com'; a site is given with --site example.com"),
        # `--input crawls/*.warc.gz`: the shell's second file is left without --input
        (["extract", "--input", "a.warc.gz", "b.warc.gz", "-O", "x.jsonl"],
         "extract: unexpected argument 'b.warc.gz'; each archive takes its own --input "
         "(--input b.warc.gz; a shell pattern after one --input gives it only the first file)"),
        (["learn", "--input", "a.warc.gz", "crawls/b.warc.gz"],
         "learn: each archive takes its own --input (--input crawls/b.warc.gz; a shell "
         "pattern after one --input gives it only the first file)"),
        # Scrapy took '--depth' for a second spider, after its start-up log: "running 'scrapy
        # crawl' with more than one spider is not supported" (a new user, stop 36)
        (["crawl", "news", "-a", "start_url=http://127.0.0.1:9/", "--depth", "2"],
         "crawl: unknown option '--depth'; spider arguments are given with -a (-a depth=VALUE)"),
        (["crawl", "news"], "news: give at least one start URL"),
        # Scrapy's "Unrecognized output format ''", the directory unnamed
        (["crawl", "news", "-a", "start_url=http://127.0.0.1:9/", "-O", "docs"],
         "crawl: cannot write the articles to docs: it is a directory; give a file, "
         "as -O docs/articles.jsonl"),
        (["extract", "--input", "x.warc.gz", "-o", "docs/"],
         "extract: cannot write the articles to docs/: it is a directory"),
        # argparse took learn's --out for Scrapy's --output: the articles were appended
        (["extract", "--input", "x.warc.gz", "--out", "x.jsonl"],
         "extract: unknown option '--out'; the articles are written with -O FILE (-o FILE "
         "appends; --out is learn's directory of pattern files)"),
        (["crawl", "news", "-a", "start_url=http://127.0.0.1:9/", "-a", "depth=x"],
         "news: depth must be an integer >= 0, not 'x'"),
    ],
)
def test_bad_arguments_are_usage_errors(arguments, message):
    result = scrapy(*arguments)
    assert result.returncode == 2
    # one line, ours: no usage block before it (stop 33), no Scrapy start-up log
    [line] = result.stderr.splitlines()
    assert line.startswith("scrapy: error: ") and message in line, result.stderr
    assert line.endswith(f"(see scrapy {arguments[0]} -h)")


def test_learn_warns_of_a_pattern_file_a_crawl_would_stop_on(learned, tmp_path):
    # learn wrote its file beside a corrupt one and said nothing (exit status 0): every
    # later crawl with the directory ended in exit status 2 on that file
    _, archive, _, _ = learned
    patterns = tmp_path / "patterns"
    patterns.mkdir()
    (patterns / "broken.json").write_text('{"format": "newsstem-patterns", "version": 1,')
    (patterns / "invalid.json").write_text('{"format": "newsstem-patterns", "version": 1}')
    result = scrapy("learn", "--input", str(archive), "--out", str(patterns))
    assert result.returncode == 0, result.stderr
    warnings = [line for line in result.stderr.splitlines() if "learn: warning:" in line]
    assert [w.split(": ", 3)[2] for w in warnings] == [
        str(patterns / "broken.json"), str(patterns / "invalid.json")], result.stderr
    assert "not valid JSON" in warnings[0]
    assert warnings[0].endswith(f"a crawl with NEWSSTEM_PATTERNS_DIR={patterns} stops on "
                                "this file: mend or remove it")
    assert len(list(patterns.glob("*.json"))) == 3  # its own file written all the same


def test_learn_names_the_sites_it_knows(learned, msnbc_site):
    _, archive, _, _ = learned
    result = scrapy("learn", "example.com", "--input", str(archive))
    assert result.returncode == 2
    assert (f"no HTML page of site 'example.com' in the archive "
            f"(sites: 127.0.0.1:{msnbc_site.port})") in result.stderr


def test_extract_names_the_sites_it_knows(learned, msnbc_site, tmp_path):
    # as learn does: a --site absent from the archive ended in an empty output, exit 0
    _, archive, _, _ = learned
    output = tmp_path / "x.jsonl"
    output.write_text('{"url": "an article of an earlier run"}\n')
    result = scrapy("extract", "--site", "example.com", "--input", str(archive),
                    "-O", str(output))
    assert result.returncode == 2, result.stderr
    assert (f"no HTML page of site 'example.com' in the archive "
            f"(sites: 127.0.0.1:{msnbc_site.port})") in result.stderr
    # said before the feed was opened: -O emptied the file of the earlier run's articles
    assert output.read_text() == '{"url": "an article of an earlier run"}\n'


@pytest.mark.parametrize("what", ["-O", "NEWSSTEM_STATS_FILE"])
def test_extract_to_a_path_that_cannot_be_written_is_one_line(learned, tmp_path, what):
    # -O: every article was a traceback ("File exists"), nothing written, exit status 0;
    # the stats file: one ERROR line at the very end, exit status 0
    _, archive, _, _ = learned
    (tmp_path / "file").write_text("x")
    blocked = tmp_path / "file" / "out.jsonl"
    output = blocked if what == "-O" else tmp_path / "x.jsonl"
    settings = {"NEWSSTEM_STATS_FILE": str(blocked)} if what != "-O" else {}
    result = scrapy("extract", "--input", str(archive), "-O", str(output), settings=settings)
    assert result.returncode == 2, result.stderr
    [line] = result.stderr.splitlines()
    assert line.startswith("scrapy: error: extract: cannot write ") and str(blocked) in line
    assert f"{tmp_path / 'file'} is not a directory" in line
    assert not output.exists()


def test_a_missing_patterns_dir_is_said_once(msnbc_site, tmp_path):
    missing = tmp_path / "no-such-patterns"
    result = run_crawl(tmp_path, "-a", f"start_url={msnbc_site.url}/index.html",
                       settings={"NEWSSTEM_PATTERNS_DIR": str(missing)})
    assert result.returncode == 0, result.log
    assert result.log.count(f"NEWSSTEM_PATTERNS_DIR {missing} does not exist") == 1
    # an absolute path is not "relative to" the working directory
    assert f"NEWSSTEM_PATTERNS_DIR {missing} does not exist: no pattern files" in result.log


def test_learn_says_when_the_archive_has_no_page_to_learn_from(learned):
    # it printed nothing and exited 1
    _, archive, patterns, _ = learned
    result = scrapy("learn", "--input", str(archive), "--out", str(patterns),
                    "--since", "2999-01-01")
    assert result.returncode == 1
    assert ("learn: no HTML page of status 200 in the archive (fetched in the period asked for):"
            " nothing learned") in result.stderr


def test_an_archive_damaged_part_way_is_one_error_line_and_exit_status_1(learned, tmp_path):
    _, archive, patterns, _ = learned
    whole = archive.read_bytes()
    damaged = tmp_path / "damaged.warc.gz"  # the crawl, bytes that are no record, the crawl
    damaged.write_bytes(whole + b"this is not a WARC record\n" * 10 + whole)
    output = tmp_path / "offline.jsonl"
    result = scrapy(
        "extract", "--input", str(damaged), "-O", str(output),
        settings={"NEWSSTEM_PATTERNS_DIR": str(patterns)},
    )
    assert result.returncode == 1, result.stderr
    assert "the pages after the damage are not extracted" in result.stderr
    assert "Traceback" not in result.stderr
    assert len(output.read_text(encoding="utf-8").splitlines()) == 12  # those before it
