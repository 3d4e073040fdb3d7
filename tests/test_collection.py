"""The test suite's own collection: subsets of it collect as the whole does."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("where", ["", "tests"])
def test_directories_with_a_conftest_each_collect_together(where):
    # `pytest tests/commands tests/urldb tests/layout` stopped with "import file mismatch"
    # on tests/urldb/conftest.py: --doctest-modules imported every conftest.py as the module
    # `conftest`, and the second one clashed with the first (the whole suite collected).
    # From tests/ as well: an --ignore-glob in pyproject.toml was read relative to the
    # working directory, and held only from the repository's
    dirs = [name if where else f"tests/{name}" for name in ("commands", "urldb", "layout")]
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
         *dirs],
        cwd=REPO / where, env={**os.environ, "PYTHONPATH": str(REPO)},
        capture_output=True, text=True, timeout=240,
    )
    assert result.returncode == 0, result.stdout[-2000:]
    assert "import file mismatch" not in result.stdout
