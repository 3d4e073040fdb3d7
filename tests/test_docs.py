"""The documentation: README.md stays short and right, docs/ builds strictly and is complete.

CI runs exactly README's test command (``python -m pytest``), so the site is built here:
``mkdocs build --strict`` into a temporary directory, where a link to a missing page or
anchor, a page left out of the nav or any other warning is an error. Then every setting
of newsstem/defaults.py, every Scrapy setting newsstem/settings.py sets and every stat
of newsstem/stats.py must be on the generated reference pages.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import html
import re
import subprocess
import sys
from pathlib import Path

import pytest

from newsstem import defaults
from newsstem.stats import STATS

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
MAX_README_LINES = 150
INSTALL_PREFIX = "python3 -m venv .venv && . .venv/bin/activate && pip install -U pip && "


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The site, built as README says (``mkdocs build --strict``), into a temp dir."""
    out = tmp_path_factory.mktemp("site")
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=REPO, capture_output=True, text=True, timeout=240,
        env={"NO_MKDOCS_2_WARNING": "1", "PATH": "/usr/bin:/bin", "HOME": str(out)},
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return out


def page_text(site: Path, path: str) -> str:
    """The text of a built page, tags removed and entities decoded."""
    raw = (site / path / "index.html").read_text(encoding="utf-8")
    return html.unescape(re.sub(r"<[^>]+>", "", raw))


def test_every_newsstem_setting_is_in_the_reference_with_its_default_and_comment(site):
    reference = page_text(site, "reference/settings")
    names = [name for name in vars(defaults) if name.startswith("NEWSSTEM_")]
    assert len(names) >= 25
    for name in names:
        assert name in reference, f"{name} is missing from the settings reference"
    # the comment above each setting is its entry: spot-check two, and that none lacks one
    assert "Default: \"sqlite:///newsstem-urldb.sqlite\"" in reference
    assert "What an article's body holds" in reference


def test_every_setting_in_defaults_has_a_comment():
    sys.path.insert(0, str(REPO / "docs"))
    try:
        from hooks import read_settings
    finally:
        sys.path.pop(0)
    found = read_settings((REPO / "newsstem" / "defaults.py").read_text(encoding="utf-8"))
    assert {s.name for s in found} == {n for n in vars(defaults) if n.startswith("NEWSSTEM_")}
    assert [s.name for s in found if not s.comment] == []


def test_every_scrapy_setting_the_project_sets_is_documented(site):
    reference = page_text(site, "reference/settings")
    tree = ast.parse((REPO / "newsstem" / "settings.py").read_text(encoding="utf-8"))
    names = [
        target.id for node in tree.body if isinstance(node, ast.Assign)
        for target in node.targets if isinstance(target, ast.Name) and target.id.isupper()
    ]
    undocumented = [n for n in names if n not in reference and n not in _LEFT_TO_SCRAPY]
    assert undocumented == []


# Settings of newsstem/settings.py that only name the project or tune a documented
# setting (the AutoThrottle values are in the AUTOTHROTTLE_ENABLED row).
_LEFT_TO_SCRAPY = {
    "BOT_NAME", "SPIDER_MODULES", "NEWSPIDER_MODULE", "ITEM_PIPELINES",
    "DOWNLOADER_MIDDLEWARES", "AUTOTHROTTLE_START_DELAY", "AUTOTHROTTLE_MAX_DELAY",
    "AUTOTHROTTLE_TARGET_CONCURRENCY", "CONCURRENT_REQUESTS_PER_DOMAIN", "DOWNLOAD_WARNSIZE",
}


def test_every_stat_is_in_the_reference(site):
    reference = page_text(site, "reference/stats")
    for stat in STATS:
        assert stat.name in reference


def test_every_page_is_built_and_the_python_examples_are_doctests(site):
    pages = sorted(p.relative_to(REPO / "docs") for p in (REPO / "docs").rglob("*.md"))
    for page in pages:
        built = site / page.with_suffix("") / "index.html"
        if page.name == "index.md":
            built = site / page.parent / "index.html"
        assert built.exists(), page
    assert ">>> " in (REPO / "docs" / "python-api.md").read_text(encoding="utf-8")


def test_readme_is_short_and_starts_with_the_two_commands():
    lines = README.read_text(encoding="utf-8").split("\n")
    assert len(lines) <= MAX_README_LINES
    commands = [line for line in lines[:30] if line.startswith(INSTALL_PREFIX)]
    assert len(commands) == 2
    assert commands[0].endswith("pip install -r requirements.txt && scrapy crawl news "
                                "-a start_url=https://www.example.com/news/ -O articles.jsonl")
    assert commands[1].endswith("pip install -r requirements-dev.txt && python -m pytest")


def test_ci_runs_exactly_the_readme_test_command():
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8").split("\n")
    test_command = README.read_text(encoding="utf-8").split("\n")
    readme_command = next(line for line in test_command if line.endswith("python -m pytest"))
    assert readme_command.rsplit("&& ", 1)[-1] in [line.strip() for line in ci]


def test_readme_links_point_to_pages_and_anchors_that_exist(site):
    text = README.read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)#\s]+)(?:#([^)\s]+))?\)", text)
    local = [(path, anchor) for path, anchor in links if not re.match(r"[a-z]+:", path)]
    assert len(local) >= 10
    for path, anchor in local:
        target = REPO / path
        assert target.exists(), path
        if anchor:
            built = site / Path(path).relative_to("docs").with_suffix("") / "index.html"
            assert f'id="{anchor}"' in built.read_text(encoding="utf-8"), f"{path}#{anchor}"


# -- commands: every option of every command of newsstem/commands is in its docs section,
# and ``scrapy <command> -h`` reads right at any terminal width

COMMANDS = sorted(p.stem for p in (REPO / "newsstem" / "commands").glob("*.py")
                  if p.stem != "__init__")


def _command(name: str):
    from scrapy.settings import Settings

    command = importlib.import_module(f"newsstem.commands.{name}").Command()
    command.settings = Settings()
    return command


def _option_strings(command, cls: type) -> set[str]:
    """The options ``cls.add_options`` gives ``command``."""
    parser = argparse.ArgumentParser(add_help=False, conflict_handler="resolve")
    cls.add_options(command, parser)
    return {option for action in parser._actions for option in action.option_strings}


def _own_options(name: str) -> set[str]:
    """The options a command adds to those of the Scrapy command it is built on."""
    command = _command(name)
    scrapy_base = next(c for c in type(command).__mro__[1:] if c.__module__.startswith("scrapy"))
    return _option_strings(command, type(command)) - _option_strings(command, scrapy_base)


def _doc_section(heading_mark: str) -> str:
    """The Markdown of the docs/ section whose heading holds ``heading_mark``, up to the
    next heading of the same level or higher; "" if there is none."""
    for page in sorted((REPO / "docs").rglob("*.md")):
        lines = page.read_text(encoding="utf-8").split("\n")
        for start, line in enumerate(lines):
            level = len(line) - len(line.lstrip("#"))
            if level and heading_mark in line:
                end = next((i for i in range(start + 1, len(lines))
                            if lines[i].startswith("#")
                            and len(lines[i]) - len(lines[i].lstrip("#")) <= level),
                           len(lines))
                return "\n".join(lines[start:end])
    return ""


def test_every_command_and_its_options_and_actions_are_documented():
    assert set(COMMANDS) == {"crawl", "extract", "learn", "urldb"}
    docs = "\n".join(p.read_text(encoding="utf-8") for p in (REPO / "docs").rglob("*.md"))
    for name in COMMANDS:
        assert f"scrapy {name}" in docs, name
        own = _own_options(name)
        if not own:  # crawl: Scrapy's options; its argument checks are the spider's page
            continue
        section = _doc_section(f"`scrapy {name}")
        assert section, f"no docs section is headed `scrapy {name} ...`"
        missing = [o for o in sorted(own) if not re.search(rf"`{re.escape(o)}[` ]", section)]
        assert missing == [], f"scrapy {name}: options without a line in its section"
        actions = getattr(importlib.import_module(f"newsstem.commands.{name}"), "ACTIONS", ())
        assert [a for a in actions if f"scrapy {name} {a}" not in section] == []


@pytest.mark.parametrize("name", COMMANDS)
def test_command_help_has_no_false_headings_at_any_width(name, monkeypatch):
    """Scrapy's help formatter turns any help line ending in ":" into an underlined, title-cased
    heading: "(default:" wrapped at a line's end printed "Directory Of The Pattern Files
    (Default" over a row of "=". Scrapy's own "Log level (default: DEBUG)" does it below 52
    columns."""
    from scrapy.cmdline import ScrapyArgumentParser
    from scrapy.commands import ScrapyHelpFormatter

    for width in range(52, 161):
        monkeypatch.setenv("COLUMNS", str(width))
        command = _command(name)
        parser = ScrapyArgumentParser(
            formatter_class=ScrapyHelpFormatter, usage=f"scrapy {name} {command.syntax()}",
            conflict_handler="resolve", description=command.long_desc(),
        )
        command.add_options(parser)
        lines = parser.format_help().split("\n")
        headings = {lines[i - 1].strip() for i in range(1, len(lines))
                    if re.fullmatch(r"[=-]+", lines[i])}
        assert headings <= {"Usage", "Options", "Global Options"}, (width, headings)
