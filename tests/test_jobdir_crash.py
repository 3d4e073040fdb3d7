"""A crawl with JOBDIR but no URL store, killed with ``kill -9``, loses no article.

JOBDIR keeps the fingerprints of the requests a crawl scheduled (``requests.depths``), so
the resumed crawl does not fetch those pages again: an article whose line was still in
the feed exporter's buffer when the crawl was killed would never be written at all.
"""

from __future__ import annotations

import json
import time

import pytest
from support.crawlprocess import start_crawl
from support.newssite import GeneratedNewsSite


def _wait_for_articles(site, crawl, count: int) -> None:
    """Until ``crawl`` has fetched ``count`` articles of ``site`` (running all along)."""
    deadline = time.monotonic() + 60
    while _articles_fetched(site) < count:
        assert crawl.process.poll() is None, "the crawl ended too soon"
        assert time.monotonic() < deadline, "the crawl never got going"
        time.sleep(0.01)


def _articles_fetched(site: GeneratedNewsSite) -> int:
    return sum(path.endswith(".html") for path in site.paths())


def _killed_and_run_again(tmp_path, settings: dict, **options) -> tuple[GeneratedNewsSite, int]:
    """A crawl of a generated site killed with ``kill -9`` once it fetched 200 articles,
    then run again on the JOBDIR it left until it finishes: the site (stopped), and the
    lines of the killed crawl's feed after the kill."""
    site = GeneratedNewsSite(sections=8, articles_per_section=40, delay=0.02, seed=11).start()
    args = ("-a", f"start_url={site.url}/", "-a", "depth=2")
    runs = []
    try:
        killed = start_crawl(tmp_path, *args, settings=settings, name="articles", **options)
        runs.append(killed)
        _wait_for_articles(site, killed, 200)  # most of the site fetched: kill it
        killed.kill()
        lines_after_kill = len(killed.lines())
        resumed = start_crawl(tmp_path, *args, settings=settings, name="articles", **options)
        runs.append(resumed)
        assert resumed.wait() == 0, resumed.log()
    finally:
        for crawl in runs:
            if crawl.process.poll() is None:
                crawl.kill()
        site.stop()
    return site, lines_after_kill


@pytest.mark.parametrize("option", ["-o", "-O"])
def test_a_jobdir_crawl_killed_with_sigkill_and_resumed_loses_no_article(tmp_path, option):
    settings = {"JOBDIR": str(tmp_path / "job"), "NEWSSTEM_URLDB": "",
                "CONCURRENT_REQUESTS_PER_DOMAIN": "4"}
    site, lines_after_kill = _killed_and_run_again(tmp_path, settings, output_option=option)
    files = [tmp_path / "articles.jsonl", *sorted(tmp_path.glob("articles.*.jsonl"))]
    titles = {json.loads(line)["title"] for path in files if path.exists()
              for line in path.read_text(encoding="utf-8").splitlines() if line.endswith("}")}
    # by headline: two pages of the site under one headline with the same text are one
    # article, exported once (DuplicatePipeline), whichever the crawl reached first
    headlines = site.article_headlines()
    missing = headlines - titles
    assert not missing, (f"{len(missing)} of {len(headlines)} articles lost "
                         f"({lines_after_kill} lines in the file after the kill)")


def test_a_killed_jobdir_crawl_with_a_url_store_keeps_its_o_file(tmp_path):
    # With a URL store the articles of the killed crawl are recorded as exported and not
    # exported again: the crawl started again on the JOBDIR it left must not empty its -O
    # file (as a resumed queue's does not)
    settings = {"JOBDIR": str(tmp_path / "job"), "CONCURRENT_REQUESTS_PER_DOMAIN": "4",
                "NEWSSTEM_URLDB": f"sqlite:///{tmp_path / 'urldb.sqlite'}",
                "NEWSSTEM_URLDB_SYNC_ITEMS": "10"}
    site, _ = _killed_and_run_again(tmp_path, settings)
    urls = {json.loads(line)["url"] for line in
            (tmp_path / "articles.jsonl").read_text(encoding="utf-8").splitlines()
            if line.endswith("}")}
    assert len(site.article_urls() - urls) <= 1  # (one pair of the site's pages is one article)


@pytest.mark.parametrize(("upload", "option"), [("ok", None), ("fail", None), ("ok", "-O")])
def test_a_feed_stored_at_the_end_is_stored_before_the_seen_requests_are_saved(
    tmp_path, upload, option
):
    # Scrapy closes the dupefilter (with the scheduler) before spider_closed, where a feed
    # that is not a local file (s3://, ftp://, stdout) is uploaded: the seen requests
    # written first were on disk without the articles of their pages, which a failed
    # upload (or a kill during it) lost for good, the next run never fetching them again
    site = GeneratedNewsSite(sections=2, articles_per_section=5, seed=11).start()
    job = tmp_path / "job"
    settings = {
        "JOBDIR": str(job), "NEWSSTEM_URLDB": "",
        "FEED_STORAGES": json.dumps({"upload": "tests.support.feedstorage.UploadStorage"}),
        "FEEDS": json.dumps({f"upload://{upload}{tmp_path / 'uploaded.jsonl'}":
                             {"format": "jsonlines"}}),
    }
    try:
        crawl = start_crawl(tmp_path, "-a", f"start_url={site.url}/", "-a", "depth=2",
                            settings=settings, output_option=option)  # (-O: a second feed)
        assert crawl.wait() == 0, crawl.log()
    finally:
        site.stop()
    if upload == "ok":
        assert (tmp_path / "uploaded.jsonl").read_text(encoding="utf-8").count("\n") >= 9
        assert (job / "requests.depths").exists() and not (job / "crawl.running").exists()
        if option:
            assert crawl.lines() and "ERROR" not in crawl.log()
    else:
        assert "upload refused" in crawl.log()
        assert not (job / "requests.depths").exists(), "pages marked seen, articles lost"
        assert (job / "crawl.running").exists()  # the next run starts from the start pages


def test_a_second_crawl_on_a_jobdir_in_use_does_not_forget_the_running_crawl_s_queue(tmp_path):
    # two scrapyd jobs of a project whose settings give one JOBDIR: the second took the
    # first's crawl.running for a killed crawl's, and deleted its queue and seen requests
    site = GeneratedNewsSite(sections=8, articles_per_section=40, delay=0.05, seed=11).start()
    args = ("-a", f"start_url={site.url}/", "-a", "depth=2")
    settings = {"JOBDIR": str(tmp_path / "job"), "NEWSSTEM_URLDB": "",
                "CONCURRENT_REQUESTS_PER_DOMAIN": "2"}
    runs = []
    try:
        first = start_crawl(tmp_path, *args, settings=settings, name="first")
        runs.append(first)
        _wait_for_articles(site, first, 20)
        running = (tmp_path / "job" / "crawl.running").read_text(encoding="ascii")
        second = start_crawl(tmp_path, *args, settings=settings, name="second")
        runs.append(second)
        assert second.wait(timeout=60) != 0
        assert "newsstem: JOBDIR" in second.log() and "is in use by another crawl" in (
            second.log())
        assert "Traceback" not in second.log()  # one line, as the other refusals are
        assert first.process.poll() is None
        assert (tmp_path / "job" / "crawl.running").read_text(encoding="ascii") == running
        assert (tmp_path / "job" / "requests.queue").is_dir()
    finally:
        for crawl in runs:
            if crawl.process.poll() is None:
                crawl.kill()
        site.stop()


@pytest.mark.parametrize("store", ["", "sqlite"])
def test_articles_written_to_stdout_are_flushed_before_the_crawl_counts_them_done(
    tmp_path, store
):
    # -o - (stdout into a file, `> articles.jsonl`): Scrapy's stdout storage stores nothing
    # at the end, so the last lines were still in Python's stdout buffer when the URL store
    # recorded them as exported and JOBDIR's seen requests were saved; a kill -9 before the
    # process exited lost them for good (the next run fetched nothing, exported nothing)
    site = GeneratedNewsSite(sections=2, articles_per_section=10, seed=11).start()
    printed = tmp_path / "printed.jsonl"
    settings = {"JOBDIR": str(tmp_path / "job"),
                "NEWSSTEM_URLDB": store and f"sqlite:///{tmp_path / 'urldb.sqlite'}"}
    # (EXTENSIONS is added to newsstem's EXTENSIONS_BASE: the killer alone)
    killing = {**settings, "EXTENSIONS": json.dumps(
        {"tests.support.killer.KillAsTheEngineStops": 900})}
    args = ("-a", f"start_url={site.url}/", "-a", "depth=2", "-o", "-:jsonlines")
    runs = []
    try:
        killed = start_crawl(tmp_path, *args, settings=killing, name="killed",
                             output_option=None, stdout=printed)
        runs.append(killed)
        killed.wait()
        assert killed.process.returncode == -9, killed.log()
        assert (tmp_path / "job" / "requests.depths").exists(), killed.log()
        again = start_crawl(tmp_path, *args, settings=settings, name="again",
                            output_option=None, stdout=printed)
        runs.append(again)
        assert again.wait() == 0, again.log()
    finally:
        for crawl in runs:  # (one that timed out, or never killed itself: no process left)
            if crawl.process.poll() is None:
                crawl.kill()
        site.stop()
    lines = printed.read_text(encoding="utf-8").splitlines()
    titles = {json.loads(line)["title"] for line in lines if line.endswith("}")}
    headlines = site.article_headlines()
    missing = headlines - titles
    assert not missing, f"{len(missing)} of {len(headlines)} articles lost"
