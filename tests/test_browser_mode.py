"""Browser mode (newsstem.render): real crawls through headless Chromium of a real HTTP
server on 127.0.0.1 whose articles are built by script from a JSON endpoint."""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import time
from pathlib import Path

import pytest
from support.crawl import REPO, run_crawl
from support.httpserver import FixtureSite
from support.newssite import _paragraph

from newsstem.archive import read_archive
from newsstem.render import RenderError, browser_path

try:
    BROWSER = browser_path()
except RenderError as error:  # .ci/run installs Debian's chromium; a user's machine may not
    BROWSER = None
    NO_BROWSER = str(error)

needs_browser = pytest.mark.skipif(BROWSER is None, reason="no Chromium to launch: "
                                   "apt-get install chromium (CI installs it)")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

PARAGRAPHS = [
    "The council met on Tuesday evening to discuss the new plan for the harbour, which has "
    "been debated for more than two years by residents and traders alike.",
    "According to the mayor, the work could start in the spring if the budget is approved by "
    "the regional government before the end of the year.",
    "Several residents said they were worried about the noise and the traffic that the "
    "construction would bring to the narrow streets of the old town.",
    "The opposition asked for an independent study of the costs, arguing that the estimates "
    "presented so far were too optimistic and incomplete.",
]

SHELL = """<!doctype html><html><head><title>{title} | Town Post</title></head><body>
<header><a href="/">Town Post</a><nav><a href="/">Home</a> <a href="/a/1.html">1</a></nav></header>
<main><article id="story"><p>Loading…</p></article></main><footer>© Town Post</footer>
<script>
fetch('/api/{n}.json').then(r => r.json()).then(d => {{
  document.getElementById('story').innerHTML =
    '<h1>' + d.title + '</h1>' + d.paragraphs.map(p => '<p>' + p + '</p>').join('');
}});
</script></body></html>"""


def script_built_site(tmp_path, articles: int = 3) -> FixtureSite:
    """An index linking to ``articles`` shells whose text (four paragraphs of their own)
    arrives from /api/<n>.json; ``site.texts[n]`` are the paragraphs of article n."""
    site = FixtureSite(tmp_path / "site")
    site.root.mkdir()
    rng = random.Random(15)
    site.texts = {}
    links = []
    for n in range(1, articles + 1):
        title = f"Harbour plan number {n} divides the town council"
        paragraphs = [_paragraph(rng) for _ in range(4)]
        site.texts[n] = paragraphs
        body = {"title": title, "paragraphs": paragraphs}
        site.routes[f"/api/{n}.json"] = (200, "application/json", json.dumps(body).encode())
        site.routes[f"/a/{n}.html"] = (200, "text/html; charset=utf-8",
                                       SHELL.format(title=title, n=n).encode())
        links.append(f'<li><a href="/a/{n}.html">{title}</a></li>')
    site.routes["/index.html"] = (200, "text/html", ("<html><body><h1>Town Post</h1><ul>"
                                                      + "".join(links) + "</ul></body></html>").encode())
    return site.start()


@pytest.fixture
def site(tmp_path):
    site = script_built_site(tmp_path)
    yield site
    site.stop()


@needs_browser
def test_a_script_built_article_is_exported_with_render_and_not_without(tmp_path, site):
    start = f"-a start_url={site.url}/index.html"
    archive = tmp_path / "crawl.warc.gz"
    rendered = run_crawl(tmp_path, *start.split(" ", 1), "-a", "render=1",
                         settings={"NEWSSTEM_ARCHIVE": str(archive)}, name="rendered")
    assert rendered.returncode == 0, rendered.log[-2000:]
    assert len(rendered.items) == 3
    for item in rendered.items:
        number = int(item["url"].rsplit("/", 1)[1].split(".")[0])
        assert item["body"].split("\n\n")[-4:] == site.texts[number]
        assert item["title"] == f"Harbour plan number {number} divides the town council"
    assert "Traceback" not in rendered.log
    # robots.txt went around the browser; pages through it, and the archive says so
    assert "/robots.txt" in site.paths(None)
    pages = [page for page in read_archive(archive) if page.site]
    assert pages and all(page.rendered for page in pages)
    assert all(b"Loading" not in page.body for page in pages if b"/a/" in page.url.encode())

    plain = run_crawl(tmp_path, *start.split(" ", 1), name="plain")
    assert plain.returncode == 0
    assert plain.items == []  # the shells hold no article
    # and its summary says what they look like: it said "no_article 3" and nothing else
    assert plain.stats["newsstem/render/shells"] == 3
    assert ("  built by script?: 3 of the pages without an article had scripts and almost "
            "no text (a shell its scripts fill in a browser: -a render=1 reads them, see "
            "docs/render.md)" in plain.log.splitlines()), plain.log[-3000:]
    assert "newsstem/render/shells" not in rendered.stats
    assert "no article within depth" not in plain.log  # "-a depth=2": more shells


def test_a_shell_declaring_its_story_in_json_ld_is_an_article_of_a_plain_crawl(tmp_path):
    """Two shells with no text in their body (tests/readability/fixtures): one declares
    its story in JSON-LD (articleBody), exported as the fallback's article and not counted
    as a shell; the other declares a one-sentence teaser only, a shell."""
    fixtures = Path(__file__).parent / "readability" / "fixtures"
    site = FixtureSite(tmp_path / "site")
    site.root.mkdir()
    for n, name in ((1, "ko-script-shell"), (2, "tr-script-shell-teaser")):
        site.routes[f"/a/{n}.html"] = (200, "text/html; charset=utf-8",
                                       (fixtures / f"{name}.html").read_bytes())
    index = (b'<html><body><h1>Index</h1><ul><li><a href="/a/1.html">One</a></li>'
             b'<li><a href="/a/2.html">Two</a></li></ul></body></html>')
    site.routes["/index.html"] = (200, "text/html", index)
    site.start()
    try:
        plain = run_crawl(tmp_path, "-a", f"start_url={site.url}/index.html")
    finally:
        site.stop()
    assert plain.returncode == 0, plain.log[-2000:]
    (item,) = plain.items
    assert item["url"].endswith("/a/1.html") and item["method"] == "readability"
    assert item["body"].startswith("서울시는 1일 내년부터 시내버스 노선")
    assert plain.stats["newsstem/method/readability"] == 1
    # (no article: the index and the teaser's shell; a shell: the teaser's alone)
    assert plain.stats["newsstem/dropped/no_article"] == 2
    assert plain.stats["newsstem/render/shells"] == 1


@needs_browser
def test_a_script_whose_data_comes_after_the_quiet_window_is_waited_for(tmp_path):
    """The JSON arrives 1.5 s after the page loaded (a slow API, or any server on a loaded
    machine): the DOM stays quiet far longer than NEWSSTEM_RENDER_QUIET meanwhile, but the
    page's fetch is in flight, so the page is read once its text is there."""
    site = script_built_site(tmp_path)
    site.delays.update({f"/api/{n}.json": 1.5 for n in site.texts})
    try:
        result = run_crawl(tmp_path, "-a", f"start_url={site.url}/index.html", "-a", "render=1")
    finally:
        site.stop()
    assert result.returncode == 0, result.log[-2000:]
    assert sorted(item["url"] for item in result.items) == [
        f"{site.url}/a/{n}.html" for n in sorted(site.texts)]
    for item in result.items:
        number = int(item["url"].rsplit("/", 1)[1].split(".")[0])
        assert item["body"].split("\n\n")[-4:] == site.texts[number]
    assert "newsstem/render/unfinished" not in result.stats
    assert "still in flight" not in result.log


@needs_browser
def test_a_page_read_with_its_data_still_in_flight_says_so(tmp_path):
    """A fetch that outlasts NEWSSTEM_RENDER_WAIT: the page is read as it is then (the
    shell: no article), with one WARNING line naming it and a count, not a silent drop."""
    site = script_built_site(tmp_path, articles=1)
    site.delays["/api/1.json"] = 6
    try:
        result = run_crawl(tmp_path, "-a", f"start_url={site.url}/index.html", "-a", "render=1",
                           settings={"NEWSSTEM_RENDER_WAIT": "1"})
    finally:
        site.stop()
    assert result.returncode == 0, result.log[-2000:]
    assert result.items == []
    said = [line for line in result.log.splitlines() if "script still in flight" in line]
    assert len(said) == 1 and "] WARNING: " in said[0], said
    assert said[0].endswith("newsstem: read with 1 request(s) of its script still in flight "
                            f"after NEWSSTEM_RENDER_WAIT (1.0 s): {site.url}/a/1.html")
    assert result.stats["newsstem/render/unfinished"] == 1
    # the run summary (a cron mail, a scrapyd job's log) says it too, not only
    # "pages not exported: 2 (no_article 2)"
    assert ("  read before their script finished: 1 (requests still in flight after "
            "NEWSSTEM_RENDER_WAIT; their text may be missing: raise NEWSSTEM_RENDER_WAIT)"
            in result.log.splitlines())
    assert "Traceback" not in result.log


@needs_browser
def test_learn_reports_each_pattern_with_a_screenshot(tmp_path):
    site = script_built_site(tmp_path, articles=8)
    archive = tmp_path / "crawl.warc.gz"
    try:
        crawl = run_crawl(tmp_path, "-a", f"start_url={site.url}/index.html", "-a", "render=1",
                          settings={"NEWSSTEM_ARCHIVE": str(archive)})
    finally:
        site.stop()
    assert crawl.returncode == 0 and len(crawl.items) == 8
    report = tmp_path / "report"
    learned = run_scrapy("learn", "--input", str(archive), "--out", str(tmp_path / "patterns"),
                         "--report", str(report))
    assert learned.returncode == 0, learned.stdout + learned.stderr
    page = (report / "index.html").read_text(encoding="utf-8")
    pattern_ids = re.findall(r"^  (\S+/\d+) ", learned.stdout, re.M)
    assert pattern_ids, learned.stdout
    for pattern_id in pattern_ids:
        assert f"<h3 id='{pattern_id}'>" in page
    shots = sorted(report.glob("*.png"))
    assert shots and all(is_png(shot) for shot in shots)
    assert f"src='{shots[0].name}'" in page
    assert "main</td>" in page and "No screenshots" not in page


def test_without_a_browser_the_report_says_so(tmp_path):
    from newsstem.layout.learn import TrainingPage, learn
    from newsstem.layout.report import site_report, write_report

    rng = random.Random(3)
    pages = [TrainingPage(f"https://example.com/a/{n}", "<html><body><div id=nav>Home</div>"
                          f"<h1>Story {n}</h1><div id=story><p>{_paragraph(rng)}</p><p>"
                          f"{_paragraph(rng)}</p></div></body></html>") for n in range(6)]
    result = learn("example.com", pages)
    path = write_report(tmp_path, [site_report("example.com", result, pages)], None,
                        "no Chromium found")
    page = path.read_text(encoding="utf-8")
    assert "No screenshots</b>: no Chromium found" in page
    assert all(f"<h3 id='{p.id}'>" in page for p in result.pattern_set.patterns)
    assert list(tmp_path.glob("*.png")) == []


def test_a_browser_that_does_not_launch_leaves_a_report_without_screenshots(tmp_path, capsys):
    pytest.importorskip("playwright")
    from scrapy.settings import Settings

    from newsstem.commands.learn import write_layout_report

    broken = tmp_path / "chromium"
    broken.write_text("#!/bin/sh\nexit 1\n")  # found and executable, but no browser
    broken.chmod(0o755)
    settings = Settings({"NEWSSTEM_RENDER_BROWSER": str(broken)})
    path = write_layout_report(str(tmp_path / "report"), [], settings)  # no traceback
    page = path.read_text(encoding="utf-8")
    assert f"No screenshots</b>: cannot launch the browser {broken}" in page
    # said where scrapy learn prints, too: "report: DIR/index.html" alone hid it
    err = capsys.readouterr().err
    assert err.startswith(f"learn: the report has no screenshots: cannot launch the browser "
                          f"{broken}") and err.count("\n") == 1, err


@needs_browser
def test_a_page_whose_resources_never_arrive_is_shot_after_the_wait(tmp_path):
    """scrapy learn --report on two sites: the pages of one ask a real server on 127.0.0.1
    for a font, a stylesheet, an image and a script it never answers (held until the test
    ends). That page is shot after NEWSSTEM_RENDER_WAIT with what has rendered, the other
    one too, and the report is written. It cost 10 s to its load, then the screenshot
    waited 10 s for the font and failed: the picture was lost, 20 s per such page."""
    import threading
    from http.server import BaseHTTPRequestHandler

    from scrapy.settings import Settings

    from newsstem.commands.learn import write_layout_report
    from newsstem.layout.learn import TrainingPage, learn
    from newsstem.layout.report import site_report
    from support.httpserver import serve, shut_down

    released = threading.Event()
    asked = []

    class NeverAnswers(BaseHTTPRequestHandler):
        def log_message(self, format, *args):
            pass

        def do_GET(self):
            asked.append(self.path)
            released.wait(120)  # the connection is held, no byte sent

    server = serve(NeverAnswers)
    stuck = f"http://127.0.0.1:{server.server_address[1]}"
    head = ("<head><style>@font-face{font-family:Held;src:url(/held.woff2)}"
            "body{font-family:Held,serif}</style><link rel=stylesheet href=/held.css></head>")
    tail = '<img src="/held.gif" width=40 height=40><script async src="/held.js"></script>'
    rng = random.Random(5)
    reports = []
    for site, url, extra in (("stuck.example", stuck, (head, tail)), ("fine.example", None, ("", ""))):
        pages = [TrainingPage(
            f"{url or 'http://fine.example'}/a/{n}",
            f"<html>{extra[0]}<body><div id=nav>Home</div><h1>Story {n}</h1><div id=story>"
            f"<p>{_paragraph(rng)}</p><p>{_paragraph(rng)}</p></div>{extra[1]}</body></html>")
            for n in range(6)]
        reports.append(site_report(site, learn(site, pages), pages))
    settings = Settings({"NEWSSTEM_RENDER_BROWSER": BROWSER, "NEWSSTEM_RENDER_WAIT": "1"})
    try:
        path = write_layout_report(str(tmp_path / "report"), reports, settings)
    finally:
        released.set()
        shut_down(server)
    assert "/held.gif" in asked and "/held.css" in asked  # the page did wait on them
    page = path.read_text(encoding="utf-8")
    shots = sorted(shot.name for shot in path.parent.glob("*.png"))
    assert [name.split("-")[0] for name in shots] == ["fine.example", "stuck.example"], shots
    assert all(f"src='{name}'" in page for name in shots)
    assert all(is_png(path.parent / name) for name in shots)


@needs_browser
def test_a_page_whose_script_never_ends_is_shot_and_the_report_written(tmp_path):
    """scrapy learn --report on an archive of three sites: the pages of one run
    ``while(true){}`` in an inline script, those of another allocate until their tab dies,
    the third is a plain page. The report is shot with scripts off, so all three pictures
    and their links are there. The looping page held Playwright's page.evaluate (it has no
    timeout) and the report never ended (the subprocess's timeout fails the test then);
    the allocating one crashed its tab after half a minute and lost its picture."""
    scripts = {"loop.example": "<script>while (true) {}</script>",
               "crash.example": "<script>let a = []; while (true) { a.push(new Array(1e7)"
                                ".fill(1)); }</script>",
               "fine.example": ""}
    rng = random.Random(7)
    archive = archive_of(tmp_path, {site: [
        f"<html><head><title>Story {n}</title></head><body><div id=nav>Home</div>"
        f"<h1>Story {n}</h1>{script}<div id=story><p>{_paragraph(rng)}</p>"
        f"<p>{_paragraph(rng)}</p></div></body></html>" for n in range(6)]
        for site, script in scripts.items()})
    learned, report = learn_with_report(tmp_path, archive, wait=1)
    assert "Traceback" not in learned.stderr
    assert_one_shot_per_site(report, sorted(scripts))


@needs_browser
def test_a_page_with_a_meta_refresh_is_shot_as_it_was_stored(tmp_path):
    """scrapy learn --report on an archive of three sites whose pages carry a zero-delay
    ``<meta http-equiv="refresh">``: to a page of a real server on 127.0.0.1, to a port
    where nothing listens (in ``<noscript>``, which a browser with scripts off obeys), and
    to the page itself. Each picture is of the stored page (its height, 2400 px of story,
    not the other page's nor an error page's) and the other server was never asked.
    The browser followed the refresh: the first two lost their pictures ("Execution
    context was destroyed") and the third was shot as a blank page."""
    import socket

    elsewhere = FixtureSite(tmp_path / "elsewhere")
    elsewhere.root.mkdir()
    elsewhere.routes["/elsewhere.html"] = (
        200, "text/html", b"<html><body><p style='height:500px'>Elsewhere</p></body></html>")
    elsewhere.start()
    with socket.socket() as unused:  # a port where nothing listens once closed
        unused.bind(("127.0.0.1", 0))
        closed = unused.getsockname()[1]
    refreshes = {
        "away.example": '<meta http-equiv="refresh" content="0;url=http://127.0.0.1:'
                        f'{elsewhere.port}/elsewhere.html">',
        "nojs.example": '<noscript><meta http-equiv="Refresh" content="0; URL='
                        f'http://127.0.0.1:{closed}/enable-javascript"></noscript>',
        "self.example": '<meta http-equiv="refresh" content="0">',
    }
    rng = random.Random(9)
    archive = archive_of(tmp_path, {site: [
        f"<!doctype html><html><head><title>Story {n}</title>{refresh}</head>"
        f"<body style='margin:0'><div id=nav>Home</div><h1>Story {n}</h1>"
        f"<div id=story style='height:2400px'><p>{_paragraph(rng)}</p>"
        f"<p>{_paragraph(rng)}</p></div></body></html>" for n in range(6)]
        for site, refresh in refreshes.items()})
    try:
        _, report = learn_with_report(tmp_path, archive, wait=2)
    finally:
        elsewhere.stop()
    assert "no screenshot of this pattern" not in (report / "index.html").read_text("utf-8")
    for name in assert_one_shot_per_site(report, sorted(refreshes)):
        assert png_size(report / name) >= (1280, 2400), (name, png_size(report / name))
    assert elsewhere.paths(None) == []  # the browser never left the stored page


@needs_browser
def test_a_page_is_shot_in_the_mode_its_doctype_says(tmp_path):
    """A page with ``<!doctype html>`` is laid out in standards mode, one without in quirks
    mode, as when it was crawled: a unitless ``height:3000`` (honoured only by the quirks
    mode) makes only the second picture 3000 px tall. The HTML was given to the browser
    after a ``<base href>``, before its doctype, which put every page in quirks mode."""
    from scrapy.settings import Settings

    from newsstem.commands.learn import write_layout_report
    from newsstem.layout.learn import TrainingPage, learn
    from newsstem.layout.report import site_report

    rng = random.Random(11)
    reports = []
    for site, doctype in (("standards.example", "<!doctype html>"), ("quirks.example", "")):
        pages = [TrainingPage(
            f"http://{site}/a/{n}.html",
            f"{doctype}<html><head><title>Story {n}</title></head><body style='margin:0'>"
            f"<div id=nav>Home</div><h1>Story {n}</h1><div id=story style='height:3000'>"
            f"<p>{_paragraph(rng)}</p><p>{_paragraph(rng)}</p></div></body></html>")
            for n in range(6)]
        reports.append(site_report(site, learn(site, pages), pages))
    settings = Settings({"NEWSSTEM_RENDER_BROWSER": BROWSER, "NEWSSTEM_RENDER_WAIT": "2"})
    path = write_layout_report(str(tmp_path / "report"), reports, settings)
    heights = {shot.name.split("-")[0]: png_size(shot)[1] for shot in path.parent.glob("*.png")}
    assert heights["quirks.example"] >= 3000, heights
    assert heights["standards.example"] < 3000, heights


def learn_with_report(
    tmp_path, archive: str, wait: int
) -> tuple[subprocess.CompletedProcess, Path]:
    """``scrapy learn --report`` on ``archive`` with the test's browser and
    NEWSSTEM_RENDER_WAIT ``wait``, succeeded: its run and the report's directory."""
    report = tmp_path / "report"
    learned = run_scrapy("learn", "--input", archive, "--out", str(tmp_path / "out"),
                         "--report", str(report), "-s", f"NEWSSTEM_RENDER_WAIT={wait}",
                         "-s", f"NEWSSTEM_RENDER_BROWSER={BROWSER}", timeout=150)
    assert learned.returncode == 0, learned.stdout + learned.stderr
    assert "no screenshot" not in learned.stderr, learned.stderr
    return learned, report


def assert_one_shot_per_site(report: Path, sites: list[str]) -> list[str]:
    """The report's pictures (their names), checked: one PNG per site of ``sites``
    (sorted), each shown in the report's page."""
    page = (report / "index.html").read_text(encoding="utf-8")
    shots = sorted(shot.name for shot in report.glob("*.png"))
    assert [name.split("-")[0] for name in shots] == sites, shots
    assert all(f"src='{name}'" in page for name in shots)
    assert all(is_png(report / name) for name in shots)
    return shots


def is_png(path: Path) -> bool:
    return path.read_bytes()[:8] == PNG_SIGNATURE


def png_size(path: Path) -> tuple[int, int]:
    """A PNG's width and height (its IHDR chunk)."""
    return struct.unpack(">II", path.read_bytes()[16:24])


def archive_of(tmp_path, pages: dict[str, list[str]]) -> str:
    """A WARC archive (its path) of the pages of each site, page N's HTML served as
    http://SITE/a/N.html."""
    from scrapy.http import HtmlResponse

    from newsstem.archive import WarcArchive

    archive = WarcArchive(str(tmp_path / "crawl.warc.gz"))
    for site, bodies in pages.items():
        for n, body in enumerate(bodies):
            archive.write_response(HtmlResponse(
                f"http://{site}/a/{n}.html", body=body.encode(),
                headers={"Content-Type": "text/html; charset=utf-8"}))
    archive.close()
    return str(archive.path)


def run_scrapy(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "scrapy", *args], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=timeout)


@needs_browser
def test_a_page_that_never_settles_or_never_loads_costs_one_line(tmp_path):
    site = FixtureSite(tmp_path / "site")
    site.root.mkdir()
    story = "<p>" + "A page whose clock ticks forever while its story stays the same. " * 20
    site.routes["/busy.html"] = (200, "text/html", (
        "<html><head><title>Busy</title></head><body><div id=t></div><article>" + story
        + "</p></article><script>setInterval(() => { document.getElementById('t')"
        ".textContent = Date.now() }, 50)</script></body></html>").encode())
    site.routes["/index.html"] = (200, "text/html", b'<html><body><a href="/busy.html">busy</a>'
                                  b' <a href="/crash.html">crash</a></body></html>')
    # a tab that dies: the page's script exhausts its memory
    site.routes["/crash.html"] = (200, "text/html", b"<html><body><script>"
                                  b"let a = []; while (true) { a.push(new Array(1e7).fill(1)); }"
                                  b"</script></body></html>")
    site.start()
    try:
        started = time.monotonic()
        result = run_crawl(tmp_path, "-a", f"start_url={site.url}/index.html", "-a", "render=1",
                           settings={"NEWSSTEM_RENDER_WAIT": "2", "DOWNLOAD_TIMEOUT": "10"})
        elapsed = time.monotonic() - started
    finally:
        site.stop()
    assert result.returncode == 0, result.log[-2000:]
    assert [item["url"] for item in result.items] == [f"{site.url}/busy.html"]
    assert "Traceback" not in result.log
    failed = [line for line in result.log.splitlines() if "download failed" in line]
    assert len(failed) == 1 and "/crash.html" in failed[0], failed
    assert elapsed < 120  # bounded: the wait and the timeout, not the page, decide


@needs_browser
def test_a_page_whose_script_spins_once_its_dom_is_ready_fails_at_the_timeout(tmp_path):
    """A page that reaches DOMContentLoaded, then runs ``while (true) {}`` while browser
    mode reads it: Playwright's page.evaluate has no timeout, so the crawl never ended
    (run_crawl's timeout fails the test then). The page now fails at DOWNLOAD_TIMEOUT
    as one line, and the other page of the site is exported."""
    a_spinning_page_fails_at_the_timeout(
        tmp_path, "<script>setTimeout(() => { while (true) {} }, 300)</script>")


@needs_browser
def test_a_page_whose_script_spins_once_it_is_read_fails_at_the_timeout(tmp_path):
    """A page whose script starts ``while (true) {}`` just after browser mode has read it
    (its boxes), before scrapy-playwright takes its HTML (``page.content()``, which has no
    timeout): the crawl never ended. The page now fails at DOWNLOAD_TIMEOUT as one line.
    The loop is started from the reader's own last step (its MutationObserver let go, the
    read follows in the same task), so it lands between the two calls on any machine; a
    timer 20 ms after the page's last DOM change plus NEWSSTEM_RENDER_QUIET did too, on a
    loaded one."""
    opened = a_spinning_page_fails_at_the_timeout(
        tmp_path, "<script>const letGo = MutationObserver.prototype.disconnect;"
        "MutationObserver.prototype.disconnect = function () {"
        "  setTimeout(() => { while (true) {} }, 0); return letGo.call(this); };</script>")
    # scrapy-playwright opens a page again when one is closed under it: once, failed at
    # once without asking the site (not three times held for DOWNLOAD_TIMEOUT each, nor
    # fetched again and failed after its DOMContentLoaded)
    assert opened == 1


def a_spinning_page_fails_at_the_timeout(tmp_path, script: str) -> int:
    """A crawl of a site whose page /spin.html runs ``script``, its other page a plain one:
    the spinning page fails at DOWNLOAD_TIMEOUT (10 s) in one line, the other is exported
    (run_crawl's timeout fails the test when the crawl never ends). How many times the
    browser asked for /spin.html."""
    site = FixtureSite(tmp_path / "site")
    site.root.mkdir()
    story = "<p>" + "A page whose script spins once the reader has its text. " * 20 + "</p>"
    site.routes["/index.html"] = (200, "text/html", b'<html><body><a href="/spin.html">spin'
                                  b'</a> <a href="/rest.html">rest</a></body></html>')
    site.routes["/spin.html"] = (200, "text/html", (
        "<html><body><article>" + story + "</article>" + script + "</body></html>").encode())
    site.routes["/rest.html"] = (200, "text/html", (
        "<html><body><article>" + story.replace("spins", "rests") + "</article></body></html>"
    ).encode())
    site.start()
    try:
        result = run_crawl(tmp_path, "-a", f"start_url={site.url}/index.html", "-a", "render=1",
                           settings={"NEWSSTEM_RENDER_WAIT": "2", "DOWNLOAD_TIMEOUT": "10"},
                           timeout=90)
    finally:
        site.stop()
    assert result.returncode == 0, result.log[-2000:]
    assert [item["url"] for item in result.items] == [f"{site.url}/rest.html"]
    assert "Traceback" not in result.log and "never retrieved" not in result.log
    failed = [line for line in result.log.splitlines() if "download failed" in line]
    assert len(failed) == 1 and failed[0].endswith(
        f"download failed (timeout): {site.url}/spin.html: the page's script held the "
        "browser for 10 s (DOWNLOAD_TIMEOUT)"), failed
    assert result.stats["newsstem/errors/timeout"] == 1
    return site.paths().count("/spin.html")


@needs_browser
def test_a_page_whose_image_never_arrives_is_read_not_lost(tmp_path):
    """The article is in the page, but one image and one script of it (a tracking pixel,
    an ad server) never arrive, so its ``load`` event never fires: the page is read after
    NEWSSTEM_RENDER_WAIT. It failed at DOWNLOAD_TIMEOUT, its article lost where a plain
    crawl exports it: scrapy-playwright waits for the load state after every page method
    (up to DOWNLOAD_TIMEOUT), so newsstem.render.measure_page marks the page loaded once
    its wait is over (mark_loaded: the next test checks the Playwright part it needs)."""
    site = FixtureSite(tmp_path / "site")
    site.root.mkdir()
    story = "".join(f"<p>{p}</p>" for p in PARAGRAPHS)
    site.routes["/stuck.html"] = (200, "text/html", (
        "<html><head><title>Stuck</title></head><body><main><article><h1>Harbour plan</h1>"
        + story + '</article></main><img src="/pixel.gif" width=1 height=1>'
        '<script async src="/ads.js"></script></body></html>'
    ).encode())
    site.routes["/pixel.gif"] = (200, "image/gif", b"GIF89a")
    site.delays["/pixel.gif"] = 60
    site.routes["/ads.js"] = (200, "text/javascript", b"var ads = 1;")
    site.delays["/ads.js"] = 60
    site.routes["/index.html"] = (200, "text/html",
                                  b'<html><body><a href="/stuck.html">stuck</a></body></html>')
    site.start()
    try:
        result = run_crawl(tmp_path, "-a", f"start_url={site.url}/index.html", "-a", "render=1",
                           settings={"NEWSSTEM_RENDER_WAIT": "2", "DOWNLOAD_TIMEOUT": "10"})
    finally:
        site.stop()
    assert result.returncode == 0, result.log[-2000:]
    assert [item["url"] for item in result.items] == [f"{site.url}/stuck.html"], \
        [line for line in result.log.splitlines() if "download failed" in line]
    assert PARAGRAPHS[2] in result.items[0]["body"]


@needs_browser
def test_playwright_keeps_the_load_states_that_mark_loaded_sets(tmp_path):
    """newsstem.render.mark_loaded (what keeps the page of the test above) writes into a
    private set of Playwright's client, there being no public way (load_states says why).
    On a real page: the set is where it looks, holds "load" once the page loaded, and a
    mark is what wait_for_load_state then sees. An upgrade of Playwright that moves it
    fails here, by name, rather than pages failing at DOWNLOAD_TIMEOUT in crawls."""
    import asyncio

    from playwright.async_api import async_playwright

    from newsstem.render import LAUNCH_ARGS, load_states, mark_loaded

    site = FixtureSite(tmp_path / "site")
    site.root.mkdir()
    site.routes["/page.html"] = (200, "text/html", b"<html><body><p>loaded</p></body></html>")
    site.start()

    async def check():
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(
                executable_path=BROWSER, headless=True, args=list(LAUNCH_ARGS))
            try:
                page = await browser.new_page()
                await page.goto(f"{site.url}/page.html", wait_until="load")
                states = load_states(page)
                assert isinstance(states, set), "Playwright moved Frame._load_states"
                assert {"domcontentloaded", "load"} <= states
                states.discard("load")  # as for a page whose load never came
                assert mark_loaded(page) and "load" in states
                await page.wait_for_load_state(timeout=1)  # returns: no wait, no timeout
            finally:
                await browser.close()

    try:
        asyncio.run(check())
    finally:
        site.stop()


def test_a_playwright_without_the_load_states_is_said_once(monkeypatch, caplog):
    """A Playwright that keeps its load states elsewhere: measure_page still returns the
    page's boxes, and the crawl says once (not per page) that such pages now fail at
    DOWNLOAD_TIMEOUT. A stand-in page: a real Playwright of another layout is not here."""
    pytest.importorskip("playwright")
    import asyncio
    import logging

    from playwright.async_api import TimeoutError as PlaywrightTimeout

    from newsstem import render

    class Page:  # a page whose load never comes, with no _load_states behind main_frame
        main_frame = object()

        async def wait_for_load_state(self, timeout=None):
            raise PlaywrightTimeout("Timeout exceeded")

        async def evaluate(self, script, arguments):
            return {"width": 1, "height": 1, "boxes": [], "pending": 0}

        def once(self, event, callback):  # its close ends measure_page's watch
            pass

    monkeypatch.setattr(render, "_said_no_load_states", False)
    arguments = {"wait": 1, "quiet": 1, "minShare": 0.05}
    with caplog.at_level(logging.WARNING, logger="newsstem.render"):
        for _ in range(2):
            assert asyncio.run(render.measure_page(Page(), arguments))["width"] == 1
    said = [record.getMessage() for record in caplog.records]
    assert len(said) == 1 and "keeps no Frame._load_states" in said[0], said
    assert said[0].endswith("fails at DOWNLOAD_TIMEOUT instead of being read after "
                            "NEWSSTEM_RENDER_WAIT (see docs/render.md)")


@needs_browser
def test_visual_scoring_finds_an_article_the_html_rules_refuse(tmp_path):
    """A column marked ``comment`` (an opinion page): readability leaves comments out;
    in the rendered page it is the centred, wide, tall box: method ``visual``."""
    column = "".join(f"<p>{p}</p>" for p in PARAGRAPHS * 2)
    page = ("<html><head><title>Opinion: the harbour</title><style>body{margin:0}"
            ".top{height:80px}.comment{width:62%;margin:40px auto}"
            ".side{position:absolute;right:0;top:80px;width:15%}</style></head><body>"
            "<div class=top><a href='/'>Town Post</a></div><div class=side>"
            "<a href='/x'>More opinion</a></div><div class='comment'>" + column + "</div>"
            "</body></html>")
    site = FixtureSite(tmp_path / "site")
    site.root.mkdir()
    site.routes["/opinion.html"] = (200, "text/html", page.encode())
    site.start()
    try:
        result = run_crawl(tmp_path, "-a", f"start_url={site.url}/opinion.html", "-a", "render=1",
                           "-a", "depth=0")
        plain = run_crawl(tmp_path, "-a", f"start_url={site.url}/opinion.html", "-a", "depth=0",
                          name="plain")
    finally:
        site.stop()
    assert plain.items == []
    assert [item["method"] for item in result.items] == ["visual"]
    assert result.items[0]["body"].split("\n\n")[:4] == PARAGRAPHS
    assert result.stats.get("newsstem/method/visual") == 1


def test_browser_mode_without_a_browser_stops_before_any_request(tmp_path, site):
    result = run_crawl(tmp_path, "-a", f"start_url={site.url}/index.html", "-a", "render=1",
                       settings={"NEWSSTEM_RENDER_BROWSER": "/nonexistent/chromium"})
    assert result.returncode == 2
    # one line on stderr, and the same line in the job's LOG_FILE (a scrapyd job's log)
    # one prefix, as the other usage errors (it said "scrapy: error: newsstem: ...")
    said = ("scrapy: error: NEWSSTEM_RENDER_BROWSER '/nonexistent/chromium' "
            "is not an executable")
    errors = [line for line in result.log.splitlines() if "error:" in line]
    assert len(errors) == 2, errors
    assert errors[0].endswith(f" [newsstem] ERROR: {said}")  # LOG_FILE
    assert errors[1] == f"{said} (see scrapy crawl -h)"  # stderr
    assert "Traceback" not in result.log
    assert site.paths(status=None) == []
    assert result.items == []


def test_a_bad_render_flag_is_a_usage_error(tmp_path, site):
    result = run_crawl(tmp_path, "-a", f"start_url={site.url}/index.html", "-a", "render=maybe")
    assert result.returncode == 2
    # named as the user gave it, as "-a refresh must be ..." is (it said "render must be")
    assert "scrapy: error: -a render must be 1/0 (or true/false, yes/no), not 'maybe'" in result.log
    assert "Traceback" not in result.log
    assert site.paths(status=None) == []


def test_the_help_the_no_browser_error_sends_users_to_says_how_to_name_one():
    """"no Chromium found … or name it in NEWSSTEM_RENDER_BROWSER (see scrapy crawl -h)":
    `scrapy crawl -h` said of render only "1 fetches pages through headless Chromium"."""
    from support.crawl import scrapy

    shown = scrapy("crawl", "-h")
    assert shown.returncode == 0, shown.stderr
    text = " ".join(shown.stdout.split())
    # in the order render.browser_path tries them: the one named wins over the system's
    assert ("render, 1 fetches pages through headless Chromium: the one -s "
            "NEWSSTEM_RENDER_BROWSER=PATH names, else the system's chromium, else "
            "Playwright's" in text), text


def test_no_browser_anywhere_is_said_with_how_to_install_one(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))  # no chromium on it
    monkeypatch.setenv("PLAYWRIGHT_BROWSERS_PATH", str(tmp_path / "none"))
    with pytest.raises(RenderError, match="apt-get install chromium"):
        browser_path()
    fake = tmp_path / "chromium"
    fake.write_text("#!/bin/sh\n")
    fake.chmod(0o755)
    assert browser_path() == str(fake)
    assert shutil.which("chromium") == str(fake)


def test_each_page_request_has_its_own_measure_for_the_browser_to_fill():
    """scrapy-playwright writes a page method's result on the PageMethod object of the
    request's meta. The spider gave every page request the same object: with pages
    rendered at once (NEWSSTEM_RENDER_PAGES), a page was read with the boxes (and the count
    of requests in flight) of whichever page was measured last. scrapy-playwright's own
    _apply_page_methods, on a stand-in page: each request keeps its own result. (No
    Chromium needed: the spider only checks that the configured browser is an executable.)"""
    import asyncio
    from types import SimpleNamespace

    from scrapy.crawler import Crawler
    from scrapy.http import HtmlResponse
    from scrapy.settings import Settings
    from scrapy.statscollectors import MemoryStatsCollector
    from scrapy_playwright.handler import ScrapyPlaywrightDownloadHandler

    from newsstem.render import rendered_boxes
    from newsstem.spiders.news import NewsSpider

    crawler = Crawler(NewsSpider, Settings({"NEWSSTEM_RENDER_BROWSER": shutil.which("true")}))
    crawler.stats = MemoryStatsCollector(crawler)
    news = NewsSpider.from_crawler(crawler, start_url="http://127.0.0.1:9/news/", render="1")
    first, second = (next(news.start_requests_for(news.scope)) for _ in range(2))

    class Page:
        def __init__(self, width):
            self.width = width

        async def evaluate(self, script, arguments):
            return {"width": self.width, "height": 1, "boxes": [], "pending": self.width}

        async def wait_for_load_state(self, timeout=None):
            return None

        def once(self, event, callback):  # its close ends measure_page's watch
            pass

    handler = SimpleNamespace(config=SimpleNamespace(navigation_timeout_ms=None))
    for request, width in ((first, 1), (second, 2)):  # the second page measured last
        asyncio.run(ScrapyPlaywrightDownloadHandler._apply_page_methods(
            handler, Page(width), request, news))
    responses = [HtmlResponse(r.url, body=b"<p>x</p>", request=r) for r in (first, second)]
    assert [rendered_boxes(response)["width"] for response in responses] == [1, 2]
