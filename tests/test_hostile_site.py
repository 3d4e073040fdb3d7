"""A crawl of a site that mixes 10 real articles with hostile pages ends well.

The site (served on 127.0.0.1 by this test) links, from its front page, 10 real article
pages (tests/layout/fixtures/msnbc, CleanPortalEval) and pages made to hurt a crawler:
200,000 nested elements, a 60 MB page, binary data, a gzip bomb, NUL bytes, a wrong
charset, 200,000 links, a 5 MB attribute, a page slower than the download timeout, a
redirect loop and a redirect to another site. The crawl must exit 0, export at least 9
of the 10 articles, log no traceback and stay under 600 MB of memory; an unreachable
start URL ends with exit status 3 and no traceback either.
"""

from __future__ import annotations

import functools
import resource
import time
from html import escape
from http.server import BaseHTTPRequestHandler
from urllib.parse import urlsplit
import zlib

import pytest
from support.crawl import run_crawl
from support.httpserver import serve, shut_down
from support.layoutpages import layout_pages

ARTICLES = layout_pages("msnbc", "")[:10]
HOSTILE = [
    "nested", "huge", "binary", "bomb", "nul", "charset", "links", "attribute", "slow",
    "loop", "offsite",
]


def _hostile(name: str) -> tuple[int, dict[str, str], bytes]:
    html = {"Content-Type": "text/html"}
    if name == "nested":
        return 200, html, b"<html><body><p>Deep.</p>" + b"<div>" * 200_000 + b"</body></html>"
    if name == "huge":
        return 200, html, b"<html><body>" + b"<p>" + b"word " * 12_000_000 + b"</p></body></html>"
    if name == "binary":
        return 200, html, bytes(range(256)) * 4000
    if name == "bomb":
        return 200, {**html, "Content-Encoding": "gzip"}, _bomb()
    if name == "nul":
        text = "<html><body><p>" + "A page with NUL bytes\0 in its text. " * 200 + "</p>"
        return 200, html, text.encode()
    if name == "charset":
        text = "<html><head><meta charset='x-no-such-charset'></head><body><p>"
        return 200, html, (text + "Caf\u00e9 cr\u00e8me. " * 300 + "</p>").encode("latin-1")
    if name == "links":
        links = "".join(f'<a href="/l/{n}.html">link {n}</a> ' for n in range(200_000))
        return 200, html, f"<html><body>{links}</body></html>".encode()
    if name == "attribute":
        return 200, html, (b'<html><body><div class="' + b"x" * 5_000_000 + b'"><p>'
                           + b"Text. " * 100 + b"</p></div></body></html>")
    raise KeyError(name)


@functools.cache
def _bomb() -> bytes:
    """200 MB of NUL bytes, gzipped to 200 KB."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, 31)  # 31: a gzip header
    chunk = b"\0" * 1_000_000
    return b"".join([*(compressor.compress(chunk) for _ in range(200)), compressor.flush()])


class HostileSite:
    def __init__(self) -> None:
        self.server = None
        self.port = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> HostileSite:
        site = self
        _bomb()  # made before the crawl: the crawl's timeout is short

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format, *args):
                pass

            def do_GET(self):
                path = urlsplit(self.path).path
                name = path.strip("/").removesuffix(".html")
                if path in ("/", "/index.html"):
                    return self.send(200, {"Content-Type": "text/html"}, site.front_page())
                if path == "/robots.txt":
                    return self.send(200, {"Content-Type": "text/plain"}, b"User-agent: *\n")
                article = next((a for a in ARTICLES if a.name == name), None)
                if article is not None:
                    return self.send(200, {"Content-Type": "text/html; charset=utf-8"},
                                     article.html.encode())
                if name == "slow":
                    time.sleep(12)
                    return self.send(200, {"Content-Type": "text/html"}, b"<p>late</p>")
                if name == "loop":
                    return self.send(302, {"Location": "/loop.html"}, b"")
                if name == "offsite":
                    return self.send(302, {"Location": "http://other.invalid/x.html"}, b"")
                try:
                    status, headers, body = _hostile(name)
                except KeyError:
                    return self.send(404, {"Content-Type": "text/html"}, b"<h1>no</h1>")
                return self.send(status, headers, body)

            def send(self, status: int, headers: dict[str, str], body: bytes) -> None:
                try:
                    self.send_response(status)
                    for key, value in headers.items():
                        self.send_header(key, value)
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the crawler hung up (a size limit): as it should

        self.server = serve(Handler)
        self.port = self.server.server_address[1]
        return self

    def front_page(self) -> bytes:
        links = [f'<li><a href="/{a.name}.html">{escape(a.gold_title)}</a></li>' for a in ARTICLES]
        links += [f'<li><a href="/{name}.html">{name}</a></li>' for name in HOSTILE]
        return f"<html><body><ul>{''.join(links)}</ul></body></html>".encode()

    def stop(self) -> None:
        shut_down(self.server)


@pytest.fixture(scope="module")
def hostile_site():
    site = HostileSite().start()
    yield site
    site.stop()


def test_a_crawl_of_a_hostile_site_ends_well(hostile_site, tmp_path):
    result = run_crawl(
        tmp_path, "-a", f"start_url={hostile_site.url}/index.html",
        settings={"DOWNLOAD_TIMEOUT": "5", "RETRY_TIMES": "0", "CONCURRENT_REQUESTS": "4"},
        timeout=300,
    )
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    assert result.returncode == 0, result.log[-3000:]
    exported = {item["url"].rsplit("/", 1)[1].removesuffix(".html") for item in result.items}
    assert len(exported & {a.name for a in ARTICLES}) >= 9
    assert "Traceback" not in result.log, result.log[result.log.find("Traceback") - 500:][:3000]
    assert peak_mb <= 600
    stats = result.stats
    assert stats["newsstem/errors/timeout"] >= 1  # the slow page (a loaded machine: more)
    assert any("download failed (timeout" in line and "/slow.html" in line
               for line in result.log.splitlines())


def test_an_unreachable_start_url_ends_with_status_3_and_no_traceback(tmp_path):
    server = serve(BaseHTTPRequestHandler)
    port = server.server_address[1]
    shut_down(server)  # a port nothing listens on any more
    result = run_crawl(tmp_path, "-a", f"start_url=http://127.0.0.1:{port}/")
    assert result.returncode == 3
    assert "Traceback" not in result.log
    assert result.stats["newsstem/errors/refused"] == 2  # robots.txt and the start page
    assert "requests failed: 2 (refused 2)" in result.log
