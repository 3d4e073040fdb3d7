"""Browser mode benchmark: script-built real pages, speed and memory of rendered crawls.

    python tests/benchmarks/render.py                      # all three parts
    python tests/benchmarks/render.py --only f1 --corpora fundus chaos
    python tests/benchmarks/render.py --only crawl --pages 500

**f1**: real pages of ../shared/corpora made script-built: each page is served from
127.0.0.1 as a shell (its ``<head>`` and an empty ``<body>``) whose script fetches the
page's body HTML from a JSON endpoint and inserts it, so the article is nowhere in the
HTML a plain crawler gets. Chromium renders each shell as browser mode does (the same
settle-and-measure script, :data:`newsstem.render.COLLECT_BOXES`; the head's own scripts
are left out, as they would fail offline), and the token F1 of
the article against the gold text is reported for: the plain shell (what a crawl without
the browser extracts), the rendered DOM as a crawl extracts it (readability, then the
visual box when readability finds nothing: :func:`newsstem.extraction.extract_page`),
the same without the visual step, the visual box alone on every page (seed 001's
scoring by itself), and newsstem on the original static page (the ceiling). Pages
whose rendered extraction took the visual box are counted.

**crawl**: ``scrapy crawl news -a render=1`` of a local script-built site (an index and
``--pages`` articles whose text arrives from a JSON endpoint) against a plain crawl of
the same site served static: pages/s, and the peak memory of the crawl process plus its
browser processes (proportional set size, so memory the browser's processes share counts
once; sampled every 0.2 s from /proc), at 100 pages and at ``--pages``.

Servers listen on 127.0.0.1 and stop with this script; nothing is written outside a
temporary directory.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from html import escape
from http.server import BaseHTTPRequestHandler
from pathlib import Path

HERE = Path(__file__).resolve()
REPO = HERE.parents[2]
sys.path[:0] = [str(REPO), str(HERE.parents[1]), str(HERE.parent)]

from corpora import corpora_root, load_corpus  # noqa: E402
from lxml import html as lxml_html  # noqa: E402
from support.httpserver import serve, shut_down  # noqa: E402
from support.newssite import _paragraph  # noqa: E402

from newsstem.evaluation import score_corpus  # noqa: E402
from newsstem.extraction import extract_page  # noqa: E402
from newsstem.render import COLLECT_BOXES, LAUNCH_ARGS, browser_path  # noqa: E402
from newsstem.visual import boxes_of, main_box, visual_text  # noqa: E402

LOADER = """<script>fetch('{base}/body/{n}.json').then(r => r.json()).then(d => {{
  document.body.innerHTML = d.html; }});</script>"""


def split_page(html: str) -> tuple[str, str]:
    """The page up to its body (its head's scripts left out: offline, a publisher's own
    scripts fail or rewrite the page) and the body's inner HTML, as lxml parses them."""
    root = lxml_html.document_fromstring(html.encode("utf-8"), parser=_PARSER)
    head = root.find("head")
    if head is not None:
        for script in head.findall(".//script"):
            script.drop_tree()
    body = root.find("body")
    inner = ""
    if body is not None:
        inner = (escape(body.text or "") + "".join(
            lxml_html.tostring(child, encoding="unicode") for child in body))
    head_html = lxml_html.tostring(head, encoding="unicode") if head is not None else ""
    return f"<!doctype html><html>{head_html}<body>", inner


_PARSER = lxml_html.HTMLParser(encoding="utf-8")


class Pages:
    """Routes: path -> (content type, bytes); served by a threaded server on 127.0.0.1."""

    def __init__(self) -> None:
        self.routes: dict[str, tuple[str, bytes]] = {}
        pages = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # quiet
                pass

            def do_GET(self):
                found = pages.routes.get(self.path.split("?")[0])
                if found is None:
                    self.send_response(404)
                    self.end_headers()
                    return
                ctype, body = found
                self.send_response(200)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.server = serve(Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def stop(self) -> None:
        shut_down(self.server)


# -- f1 -----------------------------------------------------------------------------


def f1_part(corpora: list[str], limit: int, wait: float) -> None:
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import sync_playwright

    root = corpora_root()
    if root is None:
        print("f1: no corpora (../shared/corpora): skipped")
        return
    server = Pages()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=browser_path(), headless=True,
                                                 args=list(LAUNCH_ARGS))
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            # no network beyond 127.0.0.1: the pages' own resources are not fetched
            page.route("**/*", lambda route: route.continue_()
                       if route.request.url.startswith(server.url) else route.abort())
            for corpus in corpora:
                pages = load_corpus(root, corpus)[:limit]
                rows: dict[str, list[tuple[str, str]]] = {k: [] for k in (
                    "shell (plain crawl)", "rendered, readability + visual",
                    "rendered, readability only",
                    "rendered, visual box alone", "static original (ceiling)")}
                visual_used = failed = 0
                started = time.monotonic()
                for n, corpus_page in enumerate(pages):
                    head, body = split_page(corpus_page.html)
                    # an absolute URL: a page's <base href> points at its own site
                    shell = head + LOADER.format(base=server.url, n=n) + "</body></html>"
                    server.routes[f"/p/{n}.html"] = ("text/html; charset=utf-8", shell.encode())
                    server.routes[f"/body/{n}.json"] = ("application/json",
                                                        json.dumps({"html": body}).encode())
                    url = f"{server.url}/p/{n}.html"
                    try:
                        page.goto(url, wait_until="load", timeout=30000)
                        rendered = page.evaluate(COLLECT_BOXES, {"wait": int(wait * 1000),
                                                                 "quiet": 300, "minShare": 0.05})
                        dom = page.content()
                    except PlaywrightError:
                        failed += 1
                        rendered, dom = None, shell
                    gold = corpus_page.gold
                    both = extract_page(dom, url, rendered=rendered)
                    visual_used += both.method == "visual"
                    width, height, boxes = boxes_of(rendered)
                    alone = main_box(boxes, width, height, 1)
                    rows["shell (plain crawl)"].append((extract_page(shell, url).body, gold))
                    rows["rendered, readability + visual"].append((both.body, gold))
                    rows["rendered, readability only"].append((extract_page(dom, url).body, gold))
                    rows["rendered, visual box alone"].append(
                        (visual_text(alone.box.text) if alone else "", gold))
                    rows["static original (ceiling)"].append(
                        (extract_page(corpus_page.html, corpus_page.url).body, gold))
                elapsed = time.monotonic() - started
                print(f"\n{corpus}: {len(pages)} real pages made script-built "
                      f"({elapsed / max(1, len(pages)):.2f} s a page in the browser, "
                      f"{failed} failed to render)")
                for name, pairs in rows.items():
                    score = score_corpus(pairs)
                    exported = sum(bool(ours.strip()) for ours, _ in pairs)
                    print(f"  {name:<34} F1 {score.f1:.3f}  P {score.precision:.3f}  "
                          f"R {score.recall:.3f}  pages with text {exported}/{len(pairs)}")
                print(f"  rendered pages where readability found nothing and the visual box "
                      f"was taken: {visual_used}")
            browser.close()
    finally:
        server.stop()


# -- crawl --------------------------------------------------------------------------


SHELL = """<!doctype html><html><head><title>{title} | Town Post</title></head><body>
<header><a href="/">Town Post</a> <nav><a href="/">Home</a></nav></header>
<main><article id="story">{static}</article></main><footer>Town Post</footer>{script}
</body></html>"""
SCRIPT = """<script>fetch('/api/{n}.json').then(r => r.json()).then(d => {{
  document.getElementById('story').innerHTML = '<h1>' + d.title + '</h1>' +
    d.paragraphs.map(p => '<p>' + p + '</p>').join(''); }});</script>"""


def build_site(server: Pages, articles: int, script_built: bool) -> str:
    rng = random.Random(7)
    links = []
    for n in range(1, articles + 1):
        title = f"Story {n} of the town"
        paragraphs = [_paragraph(rng) for _ in range(5)]
        server.routes[f"/api/{n}.json"] = ("application/json", json.dumps(
            {"title": title, "paragraphs": paragraphs}).encode())
        static = "" if script_built else (
            f"<h1>{title}</h1>" + "".join(f"<p>{p}</p>" for p in paragraphs))
        page = SHELL.format(title=title, static=static,
                            script=SCRIPT.format(n=n) if script_built else "")
        server.routes[f"/a/{n}.html"] = ("text/html; charset=utf-8", page.encode())
        links.append(f'<li><a href="/a/{n}.html">{title}</a></li>')
    server.routes["/index.html"] = ("text/html", ("<html><body><ul>" + "".join(links)
                                                  + "</ul></body></html>").encode())
    return f"{server.url}/index.html"


def tree_rss(pid: int) -> int:
    """Memory (bytes, proportional set size) of a process and all its descendants."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
                parent = int(stat.rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(parent, []).append(int(entry))
    total, todo = 0, [pid]
    while todo:
        current = todo.pop()
        todo += children.get(current, [])
        try:  # proportional set size: memory shared by the browser's processes counted once
            for line in Path(f"/proc/{current}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total += int(line.split()[1]) * 1024
        except OSError:
            pass
    return total


def crawl(start: str, work: Path, render: bool, name: str) -> tuple[int, float, int]:
    """(articles, seconds, peak RSS of the crawl and its browser)."""
    output = work / f"{name}.jsonl"
    cmd = [sys.executable, "-m", "scrapy", "crawl", "news", "-a", f"start_url={start}",
           "-O", str(output), "-s", "NEWSSTEM_URLDB=", "-s", "AUTOTHROTTLE_ENABLED=False",
           "-s", "LOG_LEVEL=WARNING", "-s", "CONCURRENT_REQUESTS=8",
           "-s", "HTTPCACHE_ENABLED=False"]
    if render:
        cmd += ["-a", "render=1"]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    started = time.monotonic()
    process = subprocess.Popen(cmd, cwd=REPO, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    peak = 0
    stop = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not stop.is_set():
            peak = max(peak, tree_rss(process.pid))
            time.sleep(0.2)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    process.wait()
    stop.set()
    sampler.join()
    seconds = time.monotonic() - started
    articles = len(output.read_text().splitlines()) if output.exists() else 0
    return articles, seconds, peak


def crawl_part(pages: int) -> None:
    with tempfile.TemporaryDirectory() as directory:
        work = Path(directory)
        print(f"\n{'crawl':<34}{'articles':>10}{'seconds':>9}{'pages/s':>9}{'peak MiB':>10}")
        for size in sorted({100, pages}):
            for render in (False, True):
                server = Pages()
                try:
                    start = build_site(server, size, script_built=render)
                    articles, seconds, peak = crawl(start, work, render, f"{size}-{render}")
                finally:
                    server.stop()
                kind = "rendered, script-built" if render else "plain, static"
                name = f"{kind} ({size} articles)"
                print(f"{name:<34}{articles:>10}{seconds:>9.1f}{(size + 1) / seconds:>9.1f}"
                      f"{peak / 2**20:>10.0f}")
        print("(pages/s: pages over the whole run, process start and browser launch included)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", choices=("f1", "crawl"))
    parser.add_argument("--corpora", nargs="+", default=["fundus", "chaos"])
    parser.add_argument("--limit", type=int, default=200, help="pages per corpus (f1)")
    parser.add_argument("--wait", type=float, default=5.0, help="NEWSSTEM_RENDER_WAIT (f1)")
    parser.add_argument("--pages", type=int, default=500, help="articles of the big crawl")
    args = parser.parse_args()
    if args.only in (None, "f1"):
        f1_part(args.corpora, args.limit, args.wait)
    if args.only in (None, "crawl"):
        crawl_part(args.pages)
    return 0


if __name__ == "__main__":
    sys.exit(main())
