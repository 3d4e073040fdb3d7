"""The metadata benchmark's ``--first-lines`` mode (tests/benchmarks/metadata.py) on a tiny
corpus of real pages: five msnbc articles (tests/layout/fixtures/msnbc) with their gold
texts, under a site of the tuning half and again under one of the held-out half; and its
skip where there are no corpora."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).parent / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

from support.layoutpages import write_corpus

PAGES = ("news_06", "news_09", "news_10", "news_12", "news_13")
# the same pages under two sites, one in each half (corpora.halves: by a hash of the
# corpus and the site), as test_learned_benchmark writes and checks them
from test_learned_benchmark import CORPUS, HELD_OUT_SITE, TUNE_SITE


def benchmark():
    spec = importlib.util.spec_from_file_location("metadata_benchmark", BENCHMARKS / "metadata.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def corpora(tmp_path: Path, monkeypatch) -> Path:
    root = tmp_path / "corpora"
    write_corpus(root, CORPUS, [
        (f"{site}_{name}", f"http://{site}/{name}.html", site, "msnbc", name)
        for site in (TUNE_SITE, HELD_OUT_SITE) for name in PAGES])
    monkeypatch.setenv("NEWSSTEM_CORPORA", str(root))
    return root


def test_first_lines_scores_both_halves_and_lists_only_tuning_misses(
    corpora: Path, tmp_path: Path, capsys
):
    saved = tmp_path / "titles.json"
    assert benchmark().main(["--first-lines", "-v", "--save", str(saved)]) == 0
    out = capsys.readouterr().out
    rows = dict(re.findall(r"^learned/(tune|held-out) +(\d+/\d+) ", out, re.MULTILINE))
    # every msnbc page states its gold first line (its heading), so all ten are scored
    assert rows == {"tune": "5/5", "held-out": "5/5"}
    assert "  miss " not in out
    titles = json.loads(saved.read_text(encoding="utf-8"))
    assert sorted(titles) == sorted(
        f"learned/{site}_{name}" for site in (TUNE_SITE, HELD_OUT_SITE) for name in PAGES)
    # a changed run: the tuning page's change is listed, the held-out one only counted
    changed = {key: value + " (old)" if key.endswith("news_06") else value
               for key, value in titles.items()}
    saved.write_text(json.dumps(changed), encoding="utf-8")
    assert benchmark().main(["--first-lines", "--compare", str(saved)]) == 0
    out = capsys.readouterr().out
    assert "changed vs " + str(saved) + ": learned/held-out 1, learned/tune 1" in out
    assert f"learned/tune {TUNE_SITE}_news_06: " in out
    assert HELD_OUT_SITE + "_news_06" not in out


def test_first_lines_skips_without_corpora(tmp_path: Path, monkeypatch, capsys):
    monkeypatch.setenv("NEWSSTEM_CORPORA", str(tmp_path / "absent"))
    assert benchmark().main(["--first-lines"]) == 0
    assert "corpora not found" in capsys.readouterr().out
