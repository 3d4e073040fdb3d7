"""The optional peers of tests/benchmarks/extraction.py (requirements-peers.txt): each is
registered only where its module is installed, and the default run never includes one."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "benchmarks"))

import extraction  # noqa: E402 - found through the path above


def test_the_default_run_is_the_three_way_one():
    assert extraction.DEFAULT_EXTRACTORS == ["newsstem", "trafilatura", "readability-lxml"]


def test_an_absent_peer_is_not_registered(monkeypatch):
    def never(html: str, url: str | None) -> extraction.Output:
        raise AssertionError("an absent peer was called")

    monkeypatch.setattr(extraction, "OPTIONAL_EXTRACTORS", {
        "absent": ("newsstem_no_such_module", never),
        "dotted": ("newsstem_no_such_package.sub", never),
        "present": ("json", never),  # any installed module
    })
    registered = {"newsstem": extraction.run_newsstem}
    assert extraction.register_optional(registered) == ["present"]
    assert list(registered) == ["newsstem", "present"]


def test_an_uninstalled_peer_is_refused_by_name(capsys, monkeypatch):
    monkeypatch.setattr(extraction, "corpora_root", lambda: None)  # stops before any corpus
    assert extraction.main([]) == 0
    assert "benchmark skipped" in capsys.readouterr().out
    with pytest.raises(SystemExit) as refused:
        extraction.main(["--extractors", "newsstem_no_such_peer"])
    assert refused.value.code == 2
