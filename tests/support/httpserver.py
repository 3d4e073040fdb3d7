"""A real HTTP server on 127.0.0.1 serving the fixture site, recording every request.

HTML files may contain ``__PORT__`` and ``__OTHER_PORT__``; they are replaced
by this server's port and another port given by the test, so fixtures can
link to "the same host on another port" and "another host name". A request
for ``x.html`` with no such file but an ``x.html.gz`` is answered with the
gzipped bytes and ``Content-Encoding: gzip`` (real pages stored compressed).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit


@dataclass
class Hit:
    path: str
    status: int
    user_agent: str


@dataclass
class FixtureSite:
    root: Path
    other_port: int = 0
    # path -> (status, content type, body): responses not backed by a file
    routes: dict[str, tuple[int, str, bytes]] = field(default_factory=dict)
    # path -> seconds the server waits before answering it (a slow API, a loaded machine)
    delays: dict[str, float] = field(default_factory=dict)
    hits: list[Hit] = field(default_factory=list)
    port: int = 0
    _server: ThreadingHTTPServer | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def paths(self, status: int | None = 200) -> list[str]:
        """Requested paths (with query), in order; only those answered ``status`` unless None."""
        with self._lock:
            return [h.path for h in self.hits if status is None or h.status == status]

    def clear(self) -> None:
        with self._lock:
            self.hits.clear()

    def start(self) -> FixtureSite:
        site = self

        class Handler(SimpleHTTPRequestHandler):
            def __init__(self, *args, **kwargs):
                super().__init__(*args, directory=str(site.root), **kwargs)

            def log_message(self, format, *args):  # keep test output clean
                pass

            def _record(self, status: int) -> None:
                with site._lock:
                    site.hits.append(Hit(self.path, status, self.headers.get("User-Agent", "")))

            def do_GET(self):
                path = urlsplit(self.path).path
                if path in site.delays:
                    time.sleep(site.delays[path])
                if path in site.routes:
                    status, ctype, body = site.routes[path]
                    return self._send(status, ctype, body)
                if path.startswith("/private/"):
                    return self._send(200, "text/html; charset=utf-8", b"<p>private</p>")
                local = Path(site.root, path.lstrip("/"))
                if path.endswith(".html") and local.is_file():
                    body = local.read_bytes()
                    body = body.replace(b"__PORT__", str(site.port).encode())
                    body = body.replace(b"__OTHER_PORT__", str(site.other_port).encode())
                    return self._send(200, "text/html", body)
                gzipped = Path(f"{local}.gz")
                if path.endswith(".html") and gzipped.is_file():
                    return self._send(200, "text/html", gzipped.read_bytes(), encoding="gzip")
                if local.is_file():
                    self._record(200)
                    return super().do_GET()
                return self._send(404, "text/html", b"<h1>Not found</h1>")

            def _send(
                self, status: int, ctype: str, body: bytes, encoding: str | None = None
            ) -> None:
                self._record(status)
                self.send_response(status)
                self.send_header("Content-Type", ctype)
                if encoding:
                    self.send_header("Content-Encoding", encoding)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self._server = serve(Handler)
        self.port = self._server.server_address[1]
        return self

    def stop(self) -> None:
        if self._server is not None:
            shut_down(self._server)
            self._server = None


def serve(
    handler: type[BaseHTTPRequestHandler],
    server_class: type[ThreadingHTTPServer] = ThreadingHTTPServer,
) -> ThreadingHTTPServer:
    """A threaded HTTP server on 127.0.0.1, at a free port, serving from a daemon thread."""
    server = server_class(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def shut_down(server: ThreadingHTTPServer) -> None:
    """Stop serving and close the listening socket."""
    server.shutdown()
    server.server_close()
