"""``scrapy crawl news`` as a running process: for tests that kill crawls or run two at once."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from support.crawl import REPO, TEST_SETTINGS


@dataclass
class CrawlProcess:
    process: subprocess.Popen
    output: Path
    log_file: Path
    stats_file: Path
    killed: bool = False
    stderr: str = field(default="")

    def wait(self, timeout: float = 120) -> int:
        _, err = self.process.communicate(timeout=timeout)
        self.stderr = err or ""
        return self.process.returncode

    def kill(self) -> None:
        """``kill -9`` by PID: no handler runs, buffered data is lost."""
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait()
        self.killed = True

    def lines(self) -> list[str]:
        """Output lines; after a kill the last one may be cut (no newline): it is left out."""
        if not self.output.exists():
            return []
        text = self.output.read_text(encoding="utf-8")
        lines = text.split("\n")
        return lines[:-1]  # the part after the last newline is empty or a cut line

    def urls(self) -> list[str]:
        return [json.loads(line)["url"] for line in self.lines()]

    def stats(self) -> dict:
        return json.loads(self.stats_file.read_text()) if self.stats_file.exists() else {}

    def log(self) -> str:
        return (self.log_file.read_text() if self.log_file.exists() else "") + self.stderr


def start_crawl(
    tmp_path: Path,
    *args: str,
    settings: dict | None = None,
    name: str = "crawl",
    output_option: str | None = "-O",
    stdout: Path | None = None,
) -> CrawlProcess:
    """Start ``scrapy crawl news <args> -O <tmp>/<name>.jsonl`` and return at once.

    ``output_option``: ``-O`` (overwrite), ``-o`` (append) or None (no feed); ``stdout``:
    a file the crawl's standard output is written to (appended), else it is discarded;
    buffered as a user's shell has it (not under a PYTHONUNBUFFERED the tests run with).
    """
    output = tmp_path / f"{name}.jsonl"
    stats_file = tmp_path / f"{name}.stats.json"
    log_file = tmp_path / f"{name}.log"
    merged = {
        **TEST_SETTINGS,
        "NEWSSTEM_STATS_FILE": str(stats_file),
        "LOG_FILE": str(log_file),
        **(settings or {}),
    }
    cmd = [sys.executable, "-m", "scrapy", "crawl", "news", *args]
    if output_option:
        cmd += [output_option, str(output)]
    for key, value in merged.items():
        cmd += ["-s", f"{key}={value}"]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    if stdout is None:
        process = subprocess.Popen(
            cmd, cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
        )
    else:
        env.pop("PYTHONUNBUFFERED", None)
        with stdout.open("ab") as printed:
            process = subprocess.Popen(
                cmd, cwd=REPO, env=env, stdout=printed, stderr=subprocess.PIPE, text=True
            )
    return CrawlProcess(process, output, log_file, stats_file)
