"""A redesign, end to end: a site in layout A is crawled and learned, then redesigned.

Layout A is 12 real article pages of one site (tests/layout/fixtures/msnbc, CleanPortalEval)
behind a hub page. The redesign serves the same articles' texts (their gold texts) in a
new template B at new URLs, the hub linking 12 of them and 4 pages of layout A still on
the site. The crawl after the redesign must say the layout changed, learn the site again
by itself (``NEWSSTEM_RELEARN``) from its archive, and a third crawl extracts the new
pages by the new patterns; the old pages still extract well.
"""

from __future__ import annotations

import json
import uuid
from html import escape
from pathlib import Path

import pytest
from support.crawl import run_crawl, scrapy

from newsstem.evaluation import score_page
from newsstem.layout.patterns import load_pattern_file, pattern_file_name, save_pattern_file

SITE = Path(__file__).resolve().parents[1] / "layout" / "fixtures" / "msnbc"
ARTICLES = sorted(path.name.removesuffix(".html.gz") for path in SITE.glob("*.html.gz"))
STILL_OLD = ARTICLES[:4]  # pages of layout A still linked after the redesign


def gold(name: str) -> str:
    return (SITE / f"{name}.txt").read_text(encoding="utf-8")


def paragraphs(name: str) -> list[str]:
    """The gold text's paragraphs (hard-wrapped lines joined); the first is the title."""
    return [" ".join(p.split()) for p in gold(name).strip().split("\n\n")]


def page_b(name: str) -> bytes:
    """An article in the new template B: header, article with byline, related box."""
    title, *body = paragraphs(name)
    others = [n for n in ARTICLES if n != name][:3]
    related = "".join(
        f'<li><a href="/b/{n}.html">{escape(paragraphs(n)[0])}</a></li>' for n in others
    )
    story = "".join(f"<p>{escape(p)}</p>" for p in body)
    return f"""<!DOCTYPE html><html><head><meta charset="utf-8">
<title>{escape(title)} | The Show</title></head><body>
<header class="site-header"><a class="logo" href="/index.html">The Show</a>
<nav class="sections"><ul><li><a href="/politics">Politics</a></li>
<li><a href="/world">World</a></li><li><a href="/video">Video</a></li></ul></nav></header>
<main class="page"><article class="story">
<h1 class="story-headline">{escape(title)}</h1>
<p class="story-byline">By the show's staff</p>
<div class="story-body">{story}</div>
</article>
<aside class="related"><h2>Related</h2><ul>{related}</ul></aside></main>
<footer class="site-footer"><p>Copyright 2026 The Show. All rights reserved.</p>
<p><a href="/privacy">Privacy</a> <a href="/terms">Terms</a></p></footer>
</body></html>""".encode()


def index_after_redesign() -> bytes:
    links = [f'<li><a href="/b/{n}.html">{escape(paragraphs(n)[0])}</a></li>' for n in ARTICLES]
    links += [f'<li><a href="/{n}.html">{escape(paragraphs(n)[0])}</a></li>' for n in STILL_OLD]
    return (
        '<!DOCTYPE html><html><head><meta charset="utf-8"><title>The Show</title></head>'
        f'<body><h1>The Show</h1><ul class="stories">{"".join(links)}</ul></body></html>'
    ).encode()


@pytest.fixture(scope="module")
def redesign(msnbc_site, tmp_path_factory):
    """Crawl A + learn; redesign; crawl with NEWSSTEM_RELEARN; crawl again."""
    work = tmp_path_factory.mktemp("redesign")
    patterns = work / "patterns"
    first = run_crawl(
        work, "-a", f"start_url={msnbc_site.url}/index.html", name="a",
        settings={"NEWSSTEM_ARCHIVE": str(work / "a.warc.gz"), "NEWSSTEM_PATTERNS_DIR": ""},
    )
    assert first.returncode == 0, first.log
    learned = scrapy("learn", "--input", str(work / "a.warc.gz"), "--out", str(patterns))
    assert learned.returncode == 0, learned.stdout + learned.stderr
    site_name = f"127.0.0.1:{msnbc_site.port}"
    before = load_pattern_file(patterns / pattern_file_name(site_name))

    msnbc_site.routes["/index.html"] = (200, "text/html; charset=utf-8", index_after_redesign())
    for name in ARTICLES:
        msnbc_site.routes[f"/b/{name}.html"] = (200, "text/html; charset=utf-8", page_b(name))
    settings = {
        "NEWSSTEM_PATTERNS_DIR": str(patterns),
        "NEWSSTEM_ARCHIVE": str(work / "b.warc.gz"),
        "NEWSSTEM_RELEARN": "True",
        "NEWSSTEM_REDESIGN_MIN_PAGES": "10",
    }
    second = run_crawl(work, "-a", f"start_url={msnbc_site.url}/index.html", name="b",
                       settings=settings)
    assert second.returncode == 0, second.log
    after = load_pattern_file(patterns / pattern_file_name(site_name))
    third = run_crawl(
        work, "-a", f"start_url={msnbc_site.url}/index.html", name="c",
        settings={"NEWSSTEM_PATTERNS_DIR": str(patterns)},
    )
    assert third.returncode == 0, third.log
    return site_name, before, second, after, third, work


def test_the_crawl_after_the_redesign_says_the_layout_changed(redesign):
    site_name, before, second, _, _, _ = redesign
    assert before.parameters["matched"] >= 0.9  # its own pages fit the first patterns
    # (the 4 old pages and the hub page, by the hub pattern)
    assert second.stats[f"newsstem/patterns/{site_name}/layout_changed"].startswith(
        "5 of 17 pages matched its patterns"
    )
    assert f"layout changed: {site_name}: 5 of 17 pages matched its patterns" in second.log
    # the new pages were still exported, by the fallback
    assert sum(item["url"].split("/")[-2] == "b" for item in second.items) == 12
    assert {item["method"] for item in second.items if "/b/" in item["url"]} == {"readability"}


def test_the_crawl_learns_the_site_again_and_keeps_what_still_fits(redesign):
    site_name, before, second, after, _, _ = redesign
    assert second.stats[f"newsstem/relearn/{site_name}"] == "written"
    assert "learned again from this crawl's pages (NEWSSTEM_RELEARN)" in second.log
    assert f"newsstem: {site_name} changed; learned again from 17 pages of this crawl: " \
        in second.log  # the new front page, 12 articles in layout B, 4 in layout A
    articles = [p for p in after.patterns if p.kind == "article"]
    main_keys = {b.key for p in articles for b in p.blocks if b.role == "main"}
    assert any(key.endswith("div:class=story-body") for key in main_keys)  # layout B
    old_main = {b.key for p in before.patterns for b in p.blocks if b.role == "main"}
    assert main_keys & old_main  # layout A: its 4 pages are still on the site


def test_pages_of_both_layouts_extract_by_pattern(redesign):
    _, _, _, _, third, work = redesign
    by_url = {item["url"]: item for item in third.items}
    assert len(by_url) == 16
    for url, item in by_url.items():
        name = url.rsplit("/", 1)[1].removesuffix(".html")
        assert item["method"].startswith("pattern:"), url
        assert score_page(item["body"], gold(name)).f1 >= 0.9, url
        assert item["title"] == paragraphs(name)[0], url


def test_learn_since_relearns_from_recent_pages_only(redesign, tmp_path):
    site_name, _, _, _, _, work = redesign
    out = tmp_path / "patterns"
    result = scrapy(
        "learn", site_name, "--input", str(work / "a.warc.gz"), "--input",
        str(work / "b.warc.gz"), "--out", str(out), "--last", "13",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "13 pages" in result.stdout
    written = json.loads((out / pattern_file_name(site_name)).read_text(encoding="utf-8"))
    after_redesign = {"index", *(f"b/{name}" for name in ARTICLES), *STILL_OLD}
    sources = {url.split("/", 3)[3].removesuffix(".html") for url in written["sources"]}
    assert len(sources) == 13 and sources <= after_redesign  # the second crawl's pages
    bad = scrapy("learn", "--input", str(work / "a.warc.gz"), "--since", "yesterday")
    assert bad.returncode == 2 and "--since must be a date like 2026-11-01" in bad.stderr


def test_relearn_into_an_unwritable_patterns_dir_is_one_error_line(redesign, msnbc_site, tmp_path):
    # A real crawl of the redesigned site with NEWSSTEM_RELEARN (the extension made by
    # Scrapy from the crawl's settings, run by its signals, learning from the pages this
    # crawl archived), whose new pattern file cannot be written: the file's temporary
    # name is taken by a directory. The old file is read at the start and must survive.
    # (This test used to build the extension by hand and call its relearn() directly.)
    site_name, before, _, _, _, _ = redesign
    patterns = tmp_path / "patterns"
    old_file = save_pattern_file(before, patterns)
    old_bytes = old_file.read_bytes()
    in_the_way = old_file.with_name(old_file.name + ".tmp")
    in_the_way.mkdir()
    settings = {
        "NEWSSTEM_PATTERNS_DIR": str(patterns),
        "NEWSSTEM_ARCHIVE": str(tmp_path / "crawl.warc.gz"),
        "NEWSSTEM_RELEARN": "True",
        "NEWSSTEM_REDESIGN_MIN_PAGES": "10",
    }
    crawl = run_crawl(tmp_path, "-a", f"start_url={msnbc_site.url}/index.html", settings=settings)
    assert crawl.returncode == 0, crawl.log
    assert crawl.stats[f"newsstem/patterns/{site_name}/layout_changed"]
    assert crawl.stats[f"newsstem/relearn/{site_name}"] == "cannot write"
    errors = [line for line in crawl.log.splitlines() if " ERROR: " in line]
    assert len(errors) == 1 and "Traceback" not in crawl.log, crawl.log
    assert f"newsstem: {site_name} changed; learned again, but its pattern file cannot be " \
        f"written to {patterns} (Is a directory)" in errors[0]
    assert old_file.read_bytes() == old_bytes and in_the_way.is_dir()


def daily_index(published: list[str]) -> bytes:
    """The front page of the redesigned site: every article of layout B published so far."""
    links = [f'<li><a href="/b/{n}.html">{escape(paragraphs(n)[0])}</a></li>' for n in published]
    return (
        '<!DOCTYPE html><html><head><meta charset="utf-8"><title>The Show</title></head>'
        f'<body><h1>The Show</h1><ul class="stories">{"".join(links)}</ul></body></html>'
    ).encode()


def test_small_daily_crawls_add_up_to_notice_a_redesign(redesign, msnbc_site, tmp_path):
    # A site learned in layout A, redesigned; a daily crawl with a URL store reads the
    # front page and the 3 articles published since the day before: 4 pages a crawl,
    # fewer than NEWSSTEM_REDESIGN_MIN_PAGES (10 here). Judged crawl by crawl, no crawl
    # would ever say the layout changed; the crawls since the patterns were written add
    # up, and the third (12 pages) says it, learns the site again from the pages of the
    # three crawls in the archive they append to, and starts counting again.
    site_name, before, _, _, _, _ = redesign
    patterns = tmp_path / "patterns"
    save_pattern_file(before, patterns)
    counts = patterns / ".redesign-counts"
    counts.write_text('{"version": 1, "sites": {"x": ', encoding="utf-8")  # a crash's
    settings = {
        "NEWSSTEM_PATTERNS_DIR": str(patterns),
        "NEWSSTEM_URLDB": f"sqlite:///{tmp_path / 'urldb.sqlite'}",
        "NEWSSTEM_ARCHIVE": str(tmp_path / "crawl.warc.gz"),
        "NEWSSTEM_RELEARN": "True",
        "NEWSSTEM_REDESIGN_MIN_PAGES": "10",
    }
    crawls = []
    for day in range(1, 5):
        published = ARTICLES[: 3 * day]
        msnbc_site.routes["/daily.html"] = (200, "text/html; charset=utf-8",
                                            daily_index(published))
        crawl = run_crawl(tmp_path, "-a", f"start_url={msnbc_site.url}/daily.html",
                          name=f"day{day}",
                          settings=settings)
        assert crawl.returncode == 0, crawl.log
        assert {item["url"].rsplit("/", 1)[1] for item in crawl.items} == {
            f"{n}.html" for n in published[-3:]}  # the new articles only
        crawls.append(crawl)
    changed = f"newsstem/patterns/{site_name}/layout_changed"
    # the corrupt counts file: one warning, the crawl went on and started it again
    warnings = [line for line in crawls[0].log.splitlines() if "redesign counts file" in line]
    assert len(warnings) == 1 and "starts again empty" in warnings[0], crawls[0].log
    assert "Traceback" not in crawls[0].log
    assert changed not in crawls[0].stats and changed not in crawls[1].stats
    third = crawls[2]
    assert third.stats[changed].startswith("3 of 12 pages matched its patterns"), third.stats
    assert f"(crawls since {crawls[0].stats['start_time'][:10]}" in third.stats[changed]
    assert third.stats[f"newsstem/patterns/{site_name}/judged_pages"] == 12
    assert f"layout changed: {site_name}: 3 of 12 pages matched" in third.log
    # learned again from the three crawls' pages, not only the third's
    assert third.stats[f"newsstem/relearn/{site_name}"] == "written", third.log
    # ... and says so: the front page (its latest capture, this crawl's) and 9 articles,
    # 3 of them fetched by this crawl (it used to say "10 pages of this crawl")
    since = third.stats[f"newsstem/patterns/{site_name}/judged_since"]
    assert since.startswith(crawls[0].stats["start_time"][:10])  # the first crawl's start
    relearned = [line for line in third.log.splitlines() if "learned again from" in line]
    assert f"newsstem: {site_name} changed; learned again from 10 pages archived since " \
        f"{since} by this crawl and the crawls it was judged with (4 fetched by this " \
        "crawl, 6 by earlier ones, from " in relearned[0], relearned
    assert "of this crawl" not in relearned[0]
    assert "learned again from those crawls' pages (NEWSSTEM_RELEARN)" in third.log
    after = load_pattern_file(patterns / pattern_file_name(site_name))
    learned_from = {url.rsplit("/", 1)[1] for url in after.sources}
    assert {f"{n}.html" for n in ARTICLES[:3]} <= learned_from  # the first crawl's
    # the fourth crawl reads the new layout by its new patterns, and has a new window
    fourth = crawls[3]
    assert changed not in fourth.stats
    assert all(item["method"].startswith("pattern:") for item in fourth.items), fourth.items
    window = json.loads(counts.read_text(encoding="utf-8"))["sites"][site_name]
    assert window["pages"] == 4 and window["matched"] == 4
    # pages read again from an archive are no news of the site: not counted
    kept = counts.read_bytes()
    extracted = scrapy("extract", "--input", str(tmp_path / "crawl.warc.gz"), "-O",
                       str(tmp_path / "again.jsonl"),
                       settings={"NEWSSTEM_PATTERNS_DIR": str(patterns)})
    assert extracted.returncode == 0, extracted.stdout + extracted.stderr
    assert counts.read_bytes() == kept


def test_workers_of_two_machines_add_up_their_counts_in_the_shared_redis_store(
    redesign, msnbc_site, redis_server, tmp_path
):
    # Two workers of a distributed crawl, on two machines: each has its own patterns
    # directory (so its own .redesign-counts file) and shares the Redis URL store. Each
    # reads half of the redesigned site's new articles (a front page and 5 articles: 6
    # pages, fewer than NEWSSTEM_REDESIGN_MIN_PAGES, 10). With the counts in files, each
    # machine would count its 6 pages forever and no worker would say the layout
    # changed; kept in the shared store, the second worker's crawl judges the 12 pages.
    site_name, before, _, _, _, _ = redesign
    store = f"{redis_server.url}?prefix=workers-{uuid.uuid4().hex[:8]}"
    halves = {"w1": ARTICLES[:5], "w2": ARTICLES[5:10]}
    crawls = {}
    for worker, published in halves.items():
        patterns = tmp_path / worker / "patterns"
        save_pattern_file(before, patterns)
        msnbc_site.routes[f"/{worker}.html"] = (200, "text/html; charset=utf-8",
                                                daily_index(published))
        crawl = run_crawl(
            tmp_path / worker, "-a", f"start_url={msnbc_site.url}/{worker}.html", name=worker,
            settings={"NEWSSTEM_PATTERNS_DIR": str(patterns), "NEWSSTEM_URLDB": store,
                      "NEWSSTEM_REDESIGN_MIN_PAGES": "10"},
        )
        assert crawl.returncode == 0, crawl.log
        assert len(crawl.items) == 5 and "Traceback" not in crawl.log, crawl.log
        crawls[worker] = crawl
    changed = f"newsstem/patterns/{site_name}/layout_changed"
    assert changed not in crawls["w1"].stats
    second = crawls["w2"].stats
    assert second[changed].startswith("2 of 12 pages matched its patterns"), second
    assert f"(crawls since {crawls['w1'].stats['start_time'][:10]}" in second[changed]
    assert second[f"newsstem/patterns/{site_name}/judged_pages"] == 12
    # kept in the store, not in a file of either machine
    assert not any((tmp_path / worker / "patterns" / ".redesign-counts").exists()
                   for worker in halves)


def test_a_site_learned_again_by_one_worker_is_read_by_its_new_patterns_on_another_machine(
    redesign, msnbc_site, redis_server, tmp_path
):
    # Two workers on two machines, each with its own patterns directory holding layout A's
    # file, sharing a Redis URL store. The first crawls half of the redesigned site's new
    # articles, notices the redesign and learns the site again (NEWSSTEM_RELEARN): the new
    # file goes to its own directory, and is published in the store. The second, started
    # after, crawls the other half: it must load the published file at its start and read
    # the new layout by pattern. (Before, it read them all with the fallback, layout A's
    # file in its directory, until someone copied the new file by hand.)
    site_name, before, _, _, _, _ = redesign
    store = f"{redis_server.url}?prefix=shared-{uuid.uuid4().hex[:8]}"
    halves = {"w1": ARTICLES[:6], "w2": ARTICLES[6:]}
    dirs = {worker: tmp_path / worker / "patterns" for worker in halves}
    crawls = {}
    for worker, published in halves.items():
        old_file = save_pattern_file(before, dirs[worker])
        msnbc_site.routes[f"/shared-{worker}.html"] = (200, "text/html; charset=utf-8",
                                                       daily_index(published))
        crawl = run_crawl(
            tmp_path / worker, "-a", f"start_url={msnbc_site.url}/shared-{worker}.html",
            name=worker,
            settings={"NEWSSTEM_PATTERNS_DIR": str(dirs[worker]), "NEWSSTEM_URLDB": store,
                      "NEWSSTEM_ARCHIVE": str(tmp_path / worker / "crawl.warc.gz"),
                      "NEWSSTEM_RELEARN": "True", "NEWSSTEM_REDESIGN_MIN_PAGES": "5"},
        )
        assert crawl.returncode == 0 and "Traceback" not in crawl.log, crawl.log
        assert len(crawl.items) == 6, crawl.log
        crawls[worker] = crawl
    first, second = crawls["w1"], crawls["w2"]
    # the first worker: redesign noticed, learned again, written and published
    assert first.stats[f"newsstem/patterns/{site_name}/layout_changed"]
    assert first.stats[f"newsstem/relearn/{site_name}"] == "written", first.log
    assert first.stats["newsstem/shared_patterns/published"] == 1
    assert f"newsstem: {site_name}: its new pattern file is published in " in first.log
    assert {item["method"] for item in first.items} == {"readability"}
    file_name = old_file.name  # (the site's file has the same name in each directory)
    learned = (dirs["w1"] / file_name).read_bytes()
    # the second worker: loaded it at its start, and read every new page by pattern
    assert second.stats["newsstem/shared_patterns/loaded"] == 1, second.log
    loaded = [line for line in second.log.splitlines()
              if "loaded the pattern file published" in line]
    assert len(loaded) == 1 and "version 1, learned at " in loaded[0], second.log
    assert f"in place of those learned at {before.learned_at}" in loaded[0]
    assert (dirs["w2"] / file_name).read_bytes() == learned  # written to its directory
    for item in second.items:
        name = item["url"].rsplit("/", 1)[1].removesuffix(".html")
        assert item["method"].startswith(f"pattern:{site_name}/"), (item["url"], second.log)
        assert score_page(item["body"], gold(name)).f1 >= 0.9, item["url"]
        assert item["title"] == paragraphs(name)[0]
    # read by the file the first worker learned: nothing changed for the second
    assert f"newsstem/patterns/{site_name}/layout_changed" not in second.stats
    assert f"newsstem/relearn/{site_name}" not in second.stats
    # the setting off: a third machine keeps its own file (and reads by the fallback)
    third_dir = tmp_path / "w3" / "patterns"
    kept = save_pattern_file(before, third_dir).read_bytes()
    third = run_crawl(
        tmp_path / "w3", "-a", f"start_url={msnbc_site.url}/shared-w2.html", "-a",
        "refresh=1", name="w3",
        settings={"NEWSSTEM_PATTERNS_DIR": str(third_dir), "NEWSSTEM_URLDB": store,
                  "NEWSSTEM_SHARED_PATTERNS": "False"},
    )
    assert third.returncode == 0 and len(third.items) == 6, third.log
    assert {item["method"] for item in third.items} == {"readability"}
    assert "newsstem/shared_patterns/loaded" not in third.stats
    assert (third_dir / file_name).read_bytes() == kept
