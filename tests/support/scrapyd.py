"""A real scrapyd on 127.0.0.1, started and stopped (by PID) by the test, and deploys to it.

scrapyd runs jobs with the Python it runs on: it is started with this
interpreter (``python -m scrapyd``), whose environment has newsstem's
dependencies, as a production scrapyd's virtualenv must.

scrapyd hands its own environment to every job, and a job puts the egg at the *end* of
``sys.path`` (pkg_resources' ``Distribution.activate``): a ``PYTHONPATH`` naming a
checkout, as the test's caller may have set, would make the job import that checkout's
newsstem (and its pattern files) instead of the egg's. So scrapyd, and scrapyd-deploy,
are started with :func:`clean_environment`, whatever the caller's.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from support.crawl import REPO
from support.redisserver import free_port

START_TIMEOUT = 30.0
# What scrapyd-deploy needs to build the egg: the package, the pattern files, packaging.
PROJECT_FILES = ("newsstem", "patterns", "setup.py", "pyproject.toml", "requirements.txt",
                 "README.md", "LICENSE", "scrapy.cfg")


def clean_environment() -> dict[str, str]:
    """The caller's environment without what would choose the code or settings a job runs
    instead of the egg: ``PYTHONPATH`` and the ``SCRAPY_*``, ``SCRAPYD_*`` and
    ``NEWSSTEM_*`` variables."""
    return {
        name: value for name, value in os.environ.items()
        if name != "PYTHONPATH" and not name.startswith(("SCRAPY_", "SCRAPYD_", "NEWSSTEM_"))
    }


@dataclass
class Scrapyd:
    directory: Path
    username: str = "builder"
    password: str = "s3cret-pass"
    port: int = 0
    process: subprocess.Popen | None = None
    log: Path = field(init=False)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def start(self) -> Scrapyd:
        self.directory.mkdir(parents=True, exist_ok=True)
        self.log = self.directory / "scrapyd.log"
        for _ in range(5):  # another process may take the free port first: try another
            self.port = free_port()
            (self.directory / "scrapyd.conf").write_text(
                "[scrapyd]\n"
                "bind_address = 127.0.0.1\n"
                f"http_port = {self.port}\n"
                f"username = {self.username}\n"
                f"password = {self.password}\n"
                f"eggs_dir = {self.directory / 'eggs'}\n"
                f"logs_dir = {self.directory / 'logs'}\n"
                f"items_dir = {self.directory / 'items'}\n"
                f"dbs_dir = {self.directory / 'dbs'}\n"
                "max_proc = 2\n"
                "jobs_to_keep = 100\n"
                "poll_interval = 0.2\n"
            )
            # scrapyd reads scrapyd.conf from its working directory, where jobs also run.
            self.process = subprocess.Popen(
                [sys.executable, "-m", "scrapyd", "--nodaemon", "--pidfile=", "-l", str(self.log)],
                cwd=self.directory,
                env=clean_environment(),
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            if self._wait_ready():
                return self
            self.stop()
        raise RuntimeError(f"scrapyd did not start: {self.log.read_text()[-2000:]}")

    def _wait_ready(self) -> bool:
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                return False
            try:
                if self.get("daemonstatus.json")["status"] == "ok":
                    return True
            except (OSError, ValueError):
                time.sleep(0.1)
        return False

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()  # SIGTERM to this PID; running jobs get it too
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    # -- the JSON API -------------------------------------------------------------------

    def _request(self, endpoint: str, data: list[tuple[str, str]] | None,
                 password: str | None) -> dict:
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        request = urllib.request.Request(self.url + endpoint, data=body)
        token = f"{self.username}:{self.password if password is None else password}"
        request.add_header("Authorization", "Basic " + base64.b64encode(token.encode()).decode())
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read())

    def get(self, endpoint: str, password: str | None = None) -> dict:
        return self._request(endpoint, None, password)

    def post(self, endpoint: str, data: list[tuple[str, str]], password: str | None = None) -> dict:
        return self._request(endpoint, data, password)

    def status(self, endpoint: str, password: str) -> int:
        """The HTTP status of a GET with these credentials (401 for a wrong password)."""
        try:
            self.get(endpoint, password=password)
        except urllib.error.HTTPError as error:
            return error.code
        return 200

    def schedule(self, job: str, *, spider: str = "news", arguments: dict | None = None,
                 settings: dict | None = None) -> None:
        data = [("project", "newsstem"), ("spider", spider), ("jobid", job)]
        data += [(name, str(value)) for name, value in (arguments or {}).items()]
        data += [("setting", f"{name}={value}") for name, value in (settings or {}).items()]
        answer = self.post("schedule.json", data)
        assert answer["status"] == "ok", answer

    def wait(self, job: str, timeout: float = 120) -> None:
        """Until the job is finished (scrapyd keeps no exit status: read its log)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            jobs = self.get("listjobs.json?project=newsstem")
            if any(j["id"] == job for j in jobs["finished"]):
                return
            time.sleep(0.2)
        raise TimeoutError(f"scrapyd job {job} did not finish in {timeout} s")

    def job_log(self, job: str, spider: str = "news") -> str:
        path = self.directory / "logs" / "newsstem" / spider / f"{job}.log"
        return path.read_text() if path.exists() else ""

    def items(self, job: str, spider: str = "news") -> list[dict]:
        """What scrapyd's feed (items_dir) received from the job."""
        path = self.directory / "items" / "newsstem" / spider / f"{job}.jl"
        return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def copy_project(destination: Path) -> Path:
    """The project's files as a checkout has them (scrapyd-deploy writes build files there)."""
    destination.mkdir(parents=True, exist_ok=True)
    for name in PROJECT_FILES:
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, destination / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(source, destination / name)
    return destination


def deploy(project: Path, server: Scrapyd, version: str = "v1",
           password: str | None = None) -> subprocess.CompletedProcess:
    """``scrapyd-deploy test --version V`` from the project dir, with a [deploy:test] target."""
    config = project / "scrapy.cfg"
    text = config.read_text().split("\n[deploy:test]")[0]
    config.write_text(
        f"{text}\n[deploy:test]\nurl = {server.url}\nproject = newsstem\n"
        f"username = {server.username}\npassword = {password or server.password}\n"
    )
    script = Path(sys.executable).with_name("scrapyd-deploy")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "scrapyd_client.deploy"]
    return subprocess.run([*command, "test", "--version", version], cwd=project, check=False,
                          env=clean_environment(), capture_output=True, text=True, timeout=180)
