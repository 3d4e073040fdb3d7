"""A generated news site served over real HTTP on 127.0.0.1, for URL store and crash tests.

Layout (depth from the home page):

- ``/`` (0): the home page, linking every section page;
- ``/section/<s>/`` (1): hub pages, each listing the articles of a section;
- ``/<s>/<n>.html`` (2): articles: a headline and five paragraphs (``paragraphs``) of text
  unique to the article (340+ words from a seeded generator), with the usual
  navigation links back to the home and section pages.

Articles can be added while the server runs; every request is recorded, and
each response can be delayed to make a crawl last long enough to be killed.
"""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass, field
from html import escape
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

from support.httpserver import serve, shut_down

_SYLLABLES = [
    "ka",
    "ro",
    "mi",
    "ten",
    "sul",
    "var",
    "do",
    "pe",
    "lin",
    "qua",
    "bri",
    "zo",
    "mar",
    "es",
    "tu",
    "nal",
    "vi",
    "gor",
    "ash",
    "lo",
    "den",
    "fi",
    "rum",
    "sta",
]


def _words(rng: random.Random, n: int) -> list[str]:
    return ["".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(1, 3))) for _ in range(n)]


def _paragraph(rng: random.Random) -> str:
    sentences = []
    for _ in range(rng.randint(5, 7)):
        words = _words(rng, rng.randint(9, 16))
        sentences.append(" ".join(words).capitalize() + ".")
    return " ".join(sentences)


@dataclass
class GeneratedNewsSite:
    sections: int = 4
    articles_per_section: int = 10
    delay: float = 0.0  # seconds before each answer
    paragraphs: int = 5  # per article
    seed: int = 1
    port: int = 0
    hits: list[str] = field(default_factory=list)
    # path -> target path, answered with a 301; and extra links on the home page
    redirects: dict[str, str] = field(default_factory=dict)
    home_links: list[str] = field(default_factory=list)
    # articles declare their canonical URL and link a share variant (?share=twitter) and
    # a print copy (/print/{s}/{n}.html, the same article declaring the same canonical URL)
    copies: bool = False
    # with copies: the canonical URLs name this origin instead of the site's own (a
    # mirror or a mobile host naming the original on another site)
    canonical_origin: str = ""
    _articles: dict[int, list[int]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _server: ThreadingHTTPServer | None = None

    def __post_init__(self) -> None:
        for s in range(self.sections):
            self._articles[s] = list(range(self.articles_per_section))

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    # -- content ---------------------------------------------------------------

    def hub_paths(self) -> set[str]:
        return {"/", *(f"/section/{s}/" for s in range(self.sections))}

    def article_paths(self) -> set[str]:
        with self._lock:
            return {f"/{s}/{n}.html" for s, ns in self._articles.items() for n in ns}

    def article_urls(self) -> set[str]:
        return {self.url + p for p in self.article_paths()}

    def article_headlines(self) -> set[str]:
        with self._lock:
            return {self._headline(s, n) for s, ns in self._articles.items() for n in ns}

    def add_article(self, section: int = 0) -> str:
        with self._lock:
            n = max(self._articles[section], default=-1) + 1
            self._articles[section].append(n)
        return f"/{section}/{n}.html"

    def _nav(self) -> str:
        links = "".join(
            f'<li><a href="/section/{s}/">Section {s}</a></li>' for s in range(self.sections)
        )
        return f'<nav><ul><li><a href="/">Home</a></li>{links}</ul></nav>'

    def _page(self, title: str, body: str, canonical: str = "") -> bytes:
        origin = self.canonical_origin or self.url
        link = f"<link rel='canonical' href='{origin}{canonical}'>" if canonical else ""
        return (
            f"<!DOCTYPE html><html><head><meta charset='utf-8'>{link}"
            f"<title>{escape(title)} - Gazette</title>"
            f"</head><body><header><h1 class='site'>The Gazette</h1>{self._nav()}</header>"
            f"{body}<footer><p>Copyright The Gazette</p></footer></body></html>"
        ).encode()

    def _home(self) -> bytes:
        items = "".join(
            f'<li><a href="/section/{s}/">Section {s} news</a></li>' for s in range(self.sections)
        )
        items += "".join(f'<li><a href="{path}">More news</a></li>' for path in self.home_links)
        return self._page("Home", f"<main><ul class='sections'>{items}</ul></main>")

    def _section(self, s: int) -> bytes:
        with self._lock:
            numbers = list(self._articles[s])
        items = "".join(
            f'<li><a href="/{s}/{n}.html">{escape(self._headline(s, n))}</a></li>' for n in numbers
        )
        return self._page(
            f"Section {s}", f"<main><h2>Section {s}</h2><ul class='list'>{items}</ul></main>"
        )

    def _headline(self, s: int, n: int) -> str:
        rng = random.Random(f"{self.seed}-{s}-{n}-title")
        return " ".join(_words(rng, 6)).capitalize()

    def _article(self, s: int, n: int) -> bytes:
        rng = random.Random(f"{self.seed}-{s}-{n}")
        paragraphs = "".join(f"<p>{_paragraph(rng)}</p>" for _ in range(self.paragraphs))
        headline = escape(self._headline(s, n))
        share = (
            f"<p class='share'><a href='/{s}/{n}.html?share=twitter'>Share</a> "
            f"<a href='/print/{s}/{n}.html'>Print</a></p>"
            if self.copies else ""
        )
        return self._page(
            headline,
            f"<main><article><h1>{headline}</h1><p class='byline'>By staff</p>{share}"
            f"<div class='story'>{paragraphs}</div></article></main>",
            canonical=f"/{s}/{n}.html" if self.copies else "",
        )

    def _resolve(self, path: str) -> bytes | None:
        if path == "/":
            return self._home()
        if path == "/robots.txt":
            return b"User-agent: *\nDisallow: /private/\n"
        parts = path.strip("/").split("/")
        if self.copies and len(parts) == 3 and parts[0] == "print":
            parts = parts[1:]
        try:
            if len(parts) == 2 and parts[0] == "section" and int(parts[1]) in self._articles:
                return self._section(int(parts[1]))
            if len(parts) == 2 and parts[1].endswith(".html"):
                s, n = int(parts[0]), int(parts[1][:-5])
                # listed articles, and unlisted ones (reached only through redirects)
                return self._article(s, n) if s in self._articles else None
        except ValueError:
            return None
        return None

    # -- server ----------------------------------------------------------------

    def paths(self) -> list[str]:
        with self._lock:
            return list(self.hits)

    def clear(self) -> None:
        with self._lock:
            self.hits.clear()

    def article_asked(self) -> bool:
        """Whether a crawl has asked for an article page yet (a moment to cut its Redis)."""
        return any(path.endswith(".html") for path in self.paths())

    def start(self) -> GeneratedNewsSite:
        site = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format, *args):  # keep test output clean
                pass

            def do_GET(self):
                path = urlsplit(self.path).path
                with site._lock:
                    site.hits.append(path)
                if site.delay:
                    time.sleep(site.delay)
                if path in site.redirects:
                    self.send_response(301)
                    self.send_header("Location", site.redirects[path])
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                body = site._resolve(path)
                status = 200 if body is not None else 404
                body = body if body is not None else b"<h1>Not found</h1>"
                ctype = "text/plain" if path == "/robots.txt" else "text/html; charset=utf-8"
                self.send_response(status)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self._server = serve(Handler, _QuietServer)
        self.port = self._server.server_address[1]
        return self

    def stop(self) -> None:
        if self._server is not None:
            shut_down(self._server)
            self._server = None


class _QuietServer(ThreadingHTTPServer):
    """Crawlers killed mid-response leave broken connections: not errors of the site."""

    daemon_threads = True

    def handle_error(self, request, client_address):
        import sys

        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class TeaserSectionsSite(GeneratedNewsSite):
    """Section pages that open with a long introduction (three paragraphs of text) above
    their list of headlines: the fallback extraction exports them as articles."""

    def _section(self, s: int) -> bytes:
        with self._lock:
            numbers = list(self._articles[s])
        rng = random.Random(f"intro-{s}")
        intro = "".join(f"<p>{_paragraph(rng)}</p>" for _ in range(3))
        items = "".join(
            f'<li><a href="/{s}/{n}.html">{escape(self._headline(s, n))}</a></li>' for n in numbers
        )
        return self._page(f"Section {s}", f"<main><h2>Section {s}</h2><div class='intro'>"
                                          f"{intro}</div><ul class='list'>{items}</ul></main>")
