"""Run ``scrapy crawl news`` in a subprocess, as a user would, and read what it wrote."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

# Fast, quiet, deterministic crawls against the local fixture server.
TEST_SETTINGS = {
    "AUTOTHROTTLE_ENABLED": "False",
    "LOG_LEVEL": "INFO",
    "HTTPCACHE_ENABLED": "False",
    # No URL store unless a test asks for one: crawls must not share history.
    "NEWSSTEM_URLDB": "",
}


@dataclass
class CrawlResult:
    returncode: int
    items: list[dict]
    stats: dict
    log: str
    output: Path

    def item_urls(self) -> set[str]:
        return {item["url"] for item in self.items}


def run_crawl(tmp_path: Path, *args: str, settings: dict | None = None, timeout: float = 120,
              name: str = "crawl", append: bool = False) -> CrawlResult:
    """``scrapy crawl news <args> -O <tmp>/<name>.jsonl`` (``-o`` with ``append``: the items
    are then the file's, earlier runs' too), returning items, stats and log."""
    output = tmp_path / f"{name}.jsonl"
    stats_file = tmp_path / f"{name}.stats.json"
    log_file = tmp_path / f"{name}.log"
    merged = {**TEST_SETTINGS, "NEWSSTEM_STATS_FILE": str(stats_file), "LOG_FILE": str(log_file),
              **(settings or {})}
    cmd = [sys.executable, "-m", "scrapy", "crawl", "news", *args, "-o" if append else "-O",
           str(output)]
    for key, value in merged.items():
        cmd += ["-s", f"{key}={value}"]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=timeout)
    log = (log_file.read_text() if log_file.exists() else "") + proc.stdout + proc.stderr
    items = []
    if output.exists():
        items = [json.loads(line) for line in output.read_text(encoding="utf-8").splitlines()]
    stats = json.loads(stats_file.read_text()) if stats_file.exists() else {}
    return CrawlResult(proc.returncode, items, stats, log, output)


def scrapy(
    *args: str, settings: dict | None = None, path: Path | None = None
) -> subprocess.CompletedProcess:
    """``scrapy <args>`` (learn, extract, urldb, parse...) in the repository, with the test
    settings, as a user would run it; its exit status, stdout and stderr. ``path``: a
    folder of the user's own modules, importable too. A setting of ``settings`` set to
    None is not given (a test setting left to the project or the spider)."""
    command = [sys.executable, "-m", "scrapy", *args]
    for key, value in {**TEST_SETTINGS, **(settings or {})}.items():
        if value is not None:
            command += ["-s", f"{key}={value}"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), *([str(path)] if path else [])])}
    return subprocess.run(
        command, check=False, cwd=REPO, env=env, capture_output=True, text=True, timeout=120
    )
