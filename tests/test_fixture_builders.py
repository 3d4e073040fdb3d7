"""The fixture builders run in a clone without the evaluation corpora (../shared is not
part of the repository): they say so, exit 0 and leave the committed fixtures alone."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"


def digest(folder: Path) -> str:
    sha = hashlib.sha256()
    for path in sorted(folder.rglob("*.html.gz")):
        sha.update(path.name.encode() + path.read_bytes())
    return sha.hexdigest()


@pytest.mark.parametrize(
    ("corpora", "said"),
    [("no-corpora", "No corpora at"), ("", "No corpus ")],  # absent; there but empty
)
@pytest.mark.parametrize(
    "script", ["headlines/build_headline_fixtures.py", "metadata/build_fixtures.py"]
)
def test_a_builder_without_its_corpora_says_so_and_keeps_the_fixtures(
    tmp_path, script, corpora, said
):
    folder = (FIXTURES / script).parent
    before = digest(folder)
    env = {**os.environ, "NEWSSTEM_CORPORA": str(tmp_path / corpora)}
    done = subprocess.run(
        [sys.executable, str(FIXTURES / script)], env=env, capture_output=True, text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert said in done.stdout and "Traceback" not in done.stderr
    assert digest(folder) == before
