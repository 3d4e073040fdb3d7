"""The documentation: README.md stays short and right, docs/ builds strictly and is complete.

CI runs exactly README's test command (``python -m pytest``), so the site is built here:
``mkdocs build --strict`` into a temporary directory, where a link to a missing page or
anchor, a page left out of the nav or any other warning is an error. Then every setting
of newsstem/defaults.py, every Scrapy setting newsstem/settings.py sets and every stat
of newsstem/stats.py must be on the generated reference pages; and what the code reads
or offers must be documented, found by reading the code: the settings it reads, the
news spider's arguments, each command's options, the fields of an exported article, and
the Python API (names, parameters, fields and their defaults).
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import html
import importlib
import inspect
import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from newsstem import defaults
from newsstem.operations import CLOSESPIDER_LIMITS
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


# Settings of newsstem/settings.py that only name the project.
_LEFT_TO_SCRAPY = {"BOT_NAME", "SPIDER_MODULES", "NEWSPIDER_MODULE"}


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


def test_the_recurring_crawl_advice_keeps_each_run_s_articles():
    """README told a user to run 'the same command' (-O articles.jsonl) from cron: each run
    replaced the file holding the run before's articles, which the URL store then never
    exports again (a new user lost 16 articles so on a local site). Where README and
    Getting started say that a later run exports only new articles, they give each run its
    own file or append."""
    for page in (README, REPO / "docs" / "getting-started.md"):
        text = " ".join(page.read_text(encoding="utf-8").split())
        said = text.index("only what is new" if page == README else
                          "only new articles are exported")
        advice = text[max(0, said - 400):said + 500]
        assert "%(time)s" in advice and "-o" in advice, page


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
    assert set(COMMANDS) == {"check", "crawl", "extract", "learn", "parse", "shell", "urldb"}
    docs = "\n".join(p.read_text(encoding="utf-8") for p in (REPO / "docs").rglob("*.md"))
    read = settings_read()
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
        ours = {n for n, _, path, _ in read if path == f"newsstem/commands/{name}.py"}
        assert [n for n in sorted(ours) if n not in section] == [], f"scrapy {name}: settings"


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


def test_crawl_help_lists_the_spider_arguments_its_errors_send_users_to():
    """`scrapy crawl news -a depth=x` says "... not 'x' (see scrapy crawl -h)", and `scrapy
    crawl -h` was Scrapy's own help: not one word of depth, rules or start_url."""
    from support.crawl import scrapy

    from newsstem.spiders.news import PROCESS_ARGUMENTS, NewsSpider

    bad = scrapy("crawl", "news", "-a", "start_url=http://127.0.0.1:9/", "-a", "depth=x")
    assert bad.returncode == 2 and "(see scrapy crawl -h)" in bad.stderr, bad.stderr
    shown = scrapy("crawl", "-h")
    assert shown.returncode == 0, shown.stderr
    text = " ".join(shown.stdout.split())
    names = (*NewsSpider.ARGUMENTS, *PROCESS_ARGUMENTS)
    assert [n for n in names if f" {n}, " not in text] == [], text
    assert "-a NAME=VALUE" in text and "-a depth=2" in text


# -- spider arguments, item fields and the settings the code reads

PACKAGE = REPO / "newsstem"
SETTINGS_GETTERS = frozenset({
    "get", "getbool", "getint", "getfloat", "getlist", "getdict", "getdictorlist",
    "getwithbase", "getpriority",
})


def _table_first_column(markdown: str, header: str) -> list[str]:
    """The first cells (`name`) of the Markdown table whose header row starts with ``header``."""
    lines = markdown.split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith(f"| {header} |"))
    names = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        names.append(line.split("|")[1].strip().strip("`"))
    return names


def _sources():
    for path in sorted(PACKAGE.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        yield path, source, ast.parse(source)


def scrapy_spider_attributes() -> set[str]:
    """The spider attributes Scrapy itself reads (``getattr(spider, "handle_httpstatus_list",
    ...)`` in its HttpErrorMiddleware): a newsstem component that reads one as Scrapy does
    reads Scrapy's attribute, no argument of the news spider."""
    import scrapy

    read = re.compile(r"""getattr\(\s*(?:self\.)?(?:\w+\.)?spider\s*,\s*["'](\w+)["']""")
    return {match.group(1) for path in Path(scrapy.__file__).parent.rglob("*.py")
            for match in read.finditer(path.read_text(encoding="utf-8"))}


def spider_arguments() -> set[str]:
    """The news spider's arguments: its ARGUMENTS and PROCESS_ARGUMENTS, and those read as
    spider attributes (``getattr(spider, "refresh", None)``, not Scrapy's own:
    :func:`scrapy_spider_attributes`) or from the command's ``opts.spargs``."""
    from newsstem.spiders.news import PROCESS_ARGUMENTS, NewsSpider

    names = {*NewsSpider.ARGUMENTS, *PROCESS_ARGUMENTS}
    scrapys = scrapy_spider_attributes()
    for path, source, tree in _sources():
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and len(node.args) >= 2
                    and isinstance(node.args[1], ast.Constant)):
                continue
            if not (isinstance(node.func, ast.Name) and node.func.id == "getattr"):
                continue
            owner = ast.get_source_segment(source, node.args[0]) or ""
            name = node.args[1].value
            method = inspect.isroutine(getattr(NewsSpider, name, None))  # scope_of: no argument
            if (owner.endswith("spider") or (owner == "self" and "spiders" in path.parts)) \
                    and name not in scrapys and not method:
                names.add(name)
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "get" and node.args
                    and isinstance(node.args[0], ast.Constant)
                    and (ast.get_source_segment(source, node.func.value) or "").endswith("spargs")):
                names.add(node.args[0].value)
    return names


def test_every_spider_argument_is_in_the_spider_page_table():
    documented = _table_first_column((REPO / "docs" / "spider.md").read_text(encoding="utf-8"),
                                     "argument")
    assert {"render", "refresh"} < spider_arguments()
    # Scrapy's own (read by newsstem.middlewares.allowed_status as Scrapy reads it): no argument
    assert "handle_httpstatus_list" in scrapy_spider_attributes() - spider_arguments()
    assert sorted(documented) == sorted(spider_arguments())


def test_the_spider_page_table_begins_each_meaning_with_the_spiders_own_text():
    """The arguments' meanings had three copies (docs/spider.md's table, scrapy crawl -h's
    SPIDER_ARGUMENTS, the spider's docstring) that had drifted apart (-h said sitemap took
    "or the word robots", the page "and/or"). ARGUMENT_HELP is the one text: -h lists it,
    the docstring points to it, and each meaning of the table begins with it (Markdown's
    backticks and links aside), the details and links after."""
    from newsstem.commands.crawl import SPIDER_ARGUMENTS
    from newsstem.spiders import news

    assert SPIDER_ARGUMENTS is news.ARGUMENT_HELP
    assert sorted(news.ARGUMENT_HELP) == sorted(spider_arguments())
    markdown = (REPO / "docs" / "spider.md").read_text(encoding="utf-8")
    lines = markdown.split("\n")
    start = lines.index("| argument | meaning | default |")
    meanings = {}
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        name, meaning = (cell.strip() for cell in line.split("|")[1:3])
        text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", meaning).replace("`", "")
        meanings[name.strip("`")] = " ".join(text.split())
    assert {name: help_text for name, help_text in news.ARGUMENT_HELP.items()
            if not meanings.get(name, "").startswith(help_text)} == {}, meanings
    # the docstring says no meaning of its own
    assert not any(f"``{name}``\n" in (news.NewsSpider.__doc__ or "")
                   for name in news.ARGUMENT_HELP)


def test_every_item_field_is_in_the_output_fields_table_in_order():
    from newsstem.items import Article

    documented = _table_first_column((REPO / "docs" / "output.md").read_text(encoding="utf-8"),
                                     "field")
    assert documented == [f.name for f in dataclasses.fields(Article)]


def settings_read() -> list[tuple[str, str | None, str, str]]:
    """(name, default as written or None, file, getter) of every ``settings.get*("NAME", ...)``."""
    found = []
    for path, source, tree in _sources():
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in SETTINGS_GETTERS and node.args
                    and isinstance(node.args[0], ast.Constant)
                    and isinstance(node.args[0].value, str)
                    and isinstance(node.func.value, (ast.Name, ast.Attribute))):
                continue
            owner = node.func.value  # settings, self.settings, crawler.settings ...
            if not (owner.id if isinstance(owner, ast.Name) else owner.attr).endswith("settings"):
                continue
            default = ast.get_source_segment(source, node.args[1]) if node.args[1:] else None
            found.append((node.args[0].value, default, str(path.relative_to(REPO)),
                          node.func.attr))
    return found


def test_every_setting_the_code_reads_is_declared_or_documented(site):
    read = settings_read()
    assert len(read) >= 40
    ours = {n for n in vars(defaults) if n.startswith("NEWSSTEM_")}
    named = {name for _, source, _ in _sources()
             for name in re.findall(r"[\"'](NEWSSTEM_[A-Z_]+)[\"']", source)}
    assert named <= ours, "NEWSSTEM_* settings the code names but newsstem/defaults.py lacks"
    # each read of a NEWSSTEM_* setting falls back to the one declared default (a
    # getpriority call reads no value: the priority the value was set at)
    assert [(n, d, f) for n, d, f, getter in read
            if n in ours and getter != "getpriority" and d != f"defaults.{n}"] == []
    reference = page_text(site, "reference/settings")
    scrapy_settings = {n for n, _, _, _ in read if n not in ours}
    assert "HTTPERROR_ALLOWED_CODES" in scrapy_settings
    assert sorted(n for n in scrapy_settings if n not in reference) == []
    # read by the name their finish reason maps to, not by a literal the scan above finds
    assert [n for n, _ in CLOSESPIDER_LIMITS.values()
            if not re.search(rf"\b{n}\b", reference)] == []


# -- the Python API reference: generated by docs/hooks.py; every name, parameter and field

def _hooks():
    sys.path.insert(0, str(REPO / "docs"))
    try:
        import hooks
    finally:
        sys.path.pop(0)
    return hooks


def _api_sections(site: Path) -> dict[tuple[str, str], tuple[str, str]]:
    """(module, name) -> (heading, text) of each entry of the built Python API reference:
    the code of its heading (the name, or a signature) and the text under it."""
    raw = (site / "reference" / "python-api" / "index.html").read_text(encoding="utf-8")
    sections = {}
    module = ""
    for level, chunk in re.findall(r'<h([23]) id="[^"]*">(.*?)(?=<h[1-3] |$)', raw, re.S):
        code = re.search(r"<code>(.*?)</code>", chunk, re.S)
        heading = html.unescape(code.group(1)) if code else ""
        if level == "2":
            module = heading
        else:
            text = html.unescape(re.sub(r"<[^>]+>", "", chunk[code.end() if code else 0:]))
            sections[(module, heading.split("(")[0])] = (heading, text)
    return sections


def test_the_python_api_reference_has_every_name_parameter_and_field_with_its_default(site):
    sections = _api_sections(site)
    entries = _hooks().api_entries()
    assert {"extract", "Options", "learn", "LearnOptions", "ClusterOptions", "MatchOptions",
            "SitePatterns", "extract_page", "extract_metadata"} <= {n for _, n, _ in entries}
    for module, name, obj in entries:
        assert (module, name) in sections, f"{module}.{name} has no heading"
        heading, text = sections[(module, name)]
        if dataclasses.is_dataclass(obj):
            for field in dataclasses.fields(obj):
                default = field.default
                factory = field.default_factory
                if default is dataclasses.MISSING and factory is not dataclasses.MISSING:
                    default = factory()
                shown = (f"{field.name} (required)" if default is dataclasses.MISSING
                         else f"{field.name} = {type(default).__name__}()"
                         if dataclasses.is_dataclass(default) else f"{field.name} = {default!r}")
                assert shown in text, f"{module}.{name}.{field.name}"
        elif inspect.isfunction(obj):
            for parameter in inspect.signature(obj).parameters.values():
                shown = parameter.name if parameter.default is parameter.empty else (
                    f"{parameter.name}={parameter.default!r}")
                assert shown in heading, f"{module}.{name}({parameter.name})"


def test_every_options_field_has_a_comment_or_a_group_note():
    from newsstem.layout.cluster import ClusterOptions
    from newsstem.layout.learn import LearnOptions
    from newsstem.layout.patterns import MatchOptions
    from newsstem.readability import Options

    hooks = _hooks()
    for cls in (Options, LearnOptions, ClusterOptions, MatchOptions):
        fields = hooks.read_fields(cls)
        assert len(fields) >= 3
        groups = [f.group for f in fields]
        # a field without a comment of its own is explained by its group's note
        bare = [f.name for i, f in enumerate(fields) if not f.comment
                and not next((g for g in reversed(groups[: i + 1]) if g), "").count(": ")]
        assert bare == [], f"{cls.__name__}: fields with no word on what they are"


def test_the_modules_the_python_api_page_uses_are_in_the_reference():
    page = (REPO / "docs" / "python-api.md").read_text(encoding="utf-8")
    used = set(re.findall(r"from (newsstem[\w.]*) import", page))
    listed = {module for module, _ in _hooks().API_MODULES}
    assert used and used <= listed


def test_the_values_a_stat_name_takes_are_in_its_reference_line():
    """``newsstem/errors/<kind>``, ``newsstem/dropped/<reason>`` and the two ``rejected/<why>``
    stats list what ``<…>`` can be: every kind, reason and why the code gives."""
    from newsstem import middlewares
    from newsstem.spiders import news

    meaning = {stat.name: stat.meaning for stat in STATS}
    kinds = {*middlewares._ERROR_KINDS.values(), *(k for _, k in middlewares._BROWSER_ERRORS)}
    assert [k for k in sorted(kinds | {"other"}) if f"`{k}`" not in
            meaning["newsstem/errors/<kind>"]] == []
    reasons = {"not_html"}  # counted by the spider, the others by ExtractionPipeline._drop
    for node in ast.walk(ast.parse((PACKAGE / "pipelines.py").read_text(encoding="utf-8"))):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "_drop" and isinstance(node.args[0], ast.Constant)):
            reasons.add(node.args[0].value)
    assert len(reasons) >= 5
    dropped = meaning["newsstem/dropped/<reason>"]
    assert [r for r in sorted(reasons) if f"`{r}`" not in dropped] == []
    whys = {node.value.value for node in ast.walk(ast.parse(_function_source(news._rejection)))
            if isinstance(node, ast.Return) and isinstance(node.value, ast.Constant)
            and node.value.value}
    assert whys == {"scheme", "offsite", "rules"}
    for name, extra in (("newsstem/links/rejected/<why>", {"nofollow"}),
                        ("newsstem/discovery/rejected/<why>", set())):
        assert [w for w in sorted(whys | extra) if f"`{w}`" not in meaning[name]] == []


def test_the_values_of_the_headline_relearn_and_outcome_stats_are_in_their_lines():
    """Like the test above, for the headline's sources, what a redesigned site's relearning
    came to, and the run's outcome: every value the code gives is named in its stat's line."""
    from newsstem import operations
    from newsstem.extensions import Relearn
    from newsstem.metadata.headline import SOURCES

    meaning = {stat.name: stat.meaning for stat in STATS}
    assert [s for s in SOURCES if f"`{s}`" not in
            meaning["newsstem/metadata/headline/<source>"]] == []
    outcomes = {node.value.value for node in ast.walk(ast.parse(_function_source(Relearn.relearn)))
                if isinstance(node, ast.Return) and isinstance(node.value, ast.Constant)}
    assert {"written", "not better"} <= outcomes
    assert [o for o in sorted(outcomes) if f"`{o}`" not in meaning["newsstem/relearn/<site>"]] == []
    summary = [operations.OK, operations.NOTHING_REACHED, operations.IDLE]
    assert [o for o in summary if f"`{o}`" not in meaning["newsstem/summary/outcome"]] == []


def test_every_bounded_setting_is_in_the_ranges_the_scheduling_page_gives():
    """docs/unattended.md lists the numeric settings whose range is not "0 or more" (the
    distributed ones, 1 or more, were missing: the page said 0 or more)."""
    from newsstem.setting_values import _ABOVE_ZERO, _RANGES

    text = " ".join((REPO / "docs" / "unattended.md").read_text(encoding="utf-8").split())
    start = text.index("a number out of its range (")
    ranges = text[start:text.index("), or a", start)]
    assert [n for n in sorted({*_RANGES, *_ABOVE_ZERO}) if f"`{n}`" not in ranges] == []


def _function_source(function) -> str:
    return textwrap.dedent(inspect.getsource(function))


def _table_rows(markdown: str, heading: str) -> dict[str, str]:
    """The first table under ``heading``: each `NAME` of a row's first cell -> the rest."""
    section = markdown[markdown.index(heading):]
    rows: dict[str, str] = {}
    for line in section.split("\n"):
        if line.startswith("| `"):
            first, rest = line[2:].split(" | ", 1)
            rows.update({name: rest for name in re.findall(r"`([A-Z_]+)`", first)})
        elif rows and not line.startswith("|"):
            break
    return rows


def test_the_table_of_scrapy_settings_the_project_sets_gives_their_values():
    rows = _table_rows((REPO / "docs" / "reference" / "settings.md").read_text(encoding="utf-8"),
                       "## Scrapy settings this project sets")
    tree = ast.parse((REPO / "newsstem" / "settings.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if not (isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
                and node.targets[0].id.isupper()):
            continue
        name = node.targets[0].id
        if name in _LEFT_TO_SCRAPY:
            continue
        assert name in rows, f"{name} has no row"
        try:
            value = ast.literal_eval(node.value)
        except ValueError:  # an expression: the row says it in words (10 MiB, <version>)
            continue
        expected = ([f"{key or chr(34) * 2}: {item}" for key, item in value.items()]
                    if isinstance(value, dict) else [str(value)])
        assert [e for e in expected if f"`{e}`" not in rows[name]] == [], name


def test_the_settings_distributed_mode_sets_are_in_the_addons_row():
    rows = _table_rows((REPO / "docs" / "reference" / "settings.md").read_text(encoding="utf-8"),
                       "## Scrapy settings this project sets")
    source = (REPO / "newsstem" / "distributed" / "addon.py").read_text(encoding="utf-8")
    names = set(re.findall(r'^\s*"([A-Z_]+)": ', source, re.M))
    names |= set(re.findall(r'settings\.set\("([A-Z_]+)"', source))
    assert {"SCHEDULER", "REDIS_URL", "NEWSSTEM_URLDB"} <= names
    assert [n for n in sorted(names) if f"`{n}`" not in rows["ADDONS"]] == []


def test_setting_defaults_given_in_the_pages_are_the_declared_ones():
    """Tables of docs/ giving a ``NEWSSTEM_*`` default (render.md's) agree with defaults.py;
    so do the defaults given in words: "`NEWSSTEM_X` seconds without work (60; ..."."""
    checked = 0
    for page in sorted((REPO / "docs").rglob("*.md")):
        text = page.read_text(encoding="utf-8")
        for name, shown in re.findall(r"^\| `(NEWSSTEM_[A-Z_]+)` \| `([^`]*)` \|", text, re.M):
            value = getattr(defaults, name)
            assert shown == (json.dumps(value) if isinstance(value, str) else repr(value)), name
            checked += 1
        in_words = r"`(NEWSSTEM_[A-Z_]+)`(?: [a-z]+){0,3} \((\d+(?:\.\d+)?)[ );]"
        for name, shown in re.findall(in_words, text):
            assert float(shown) == getattr(defaults, name), f"{page.name}: {name} ({shown})"
            checked += 1
    assert checked >= 8


def test_the_tracking_parameters_the_spider_page_lists_are_the_default():
    """docs/spider.md spells out ``NEWSSTEM_TRACKING_PARAMS``' default, a list no other
    test compared with defaults.py."""
    text = " ".join((REPO / "docs" / "spider.md").read_text(encoding="utf-8").split())
    listed = re.search(r"`NEWSSTEM_TRACKING_PARAMS` \(default ([^)]*)\)", text)
    assert listed, "spider.md no longer gives the default of NEWSSTEM_TRACKING_PARAMS"
    assert re.findall(r"`(\w+)`", listed.group(1)) == defaults.NEWSSTEM_TRACKING_PARAMS


def test_the_values_a_choice_setting_takes_are_in_its_comment():
    from newsstem.setting_values import _CHOICES
    from newsstem.urldb.middleware import MARK_AFTER

    comments = {s.name: s.comment for s in _hooks().read_settings(
        (REPO / "newsstem" / "defaults.py").read_text(encoding="utf-8"))}
    for name, choices in {**_CHOICES, "NEWSSTEM_URLDB_MARK_AFTER": MARK_AFTER}.items():
        assert [c for c in choices if f'"{c}"' not in comments[name]] == [], name


def test_every_extraction_method_is_in_the_method_field_and_stat():
    """The ``method`` values ``extract_page`` gives an article (``hub`` pages are dropped)."""
    tree = ast.parse((PACKAGE / "extraction.py").read_text(encoding="utf-8"))
    methods = set()
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id == "PageExtraction" and len(node.args) >= 3):
            method = node.args[2]
            if isinstance(method, ast.Constant):
                methods.add(method.value)
            elif isinstance(method, ast.JoinedStr):
                methods.add(f"{method.values[0].value}<id>")  # f"pattern:{...id}"
    methods.discard("hub")
    assert methods == {"readability", "pattern:<id>", "visual"}
    output = _table_rows_by_first_cell((REPO / "docs" / "output.md").read_text(encoding="utf-8"))
    stat = {s.name: s.meaning for s in STATS}["newsstem/method/<method>"]
    for method in methods:
        assert f"`{method}`" in output["method"] and f"`{method}`" in stat, method


def _table_rows_by_first_cell(markdown: str) -> dict[str, str]:
    return {line.split("|")[1].strip().strip("`"): line for line in markdown.split("\n")
            if line.startswith("| `")}


def test_every_dotted_name_the_docs_give_exists():
    """``newsstem.urldb.middleware.UrlDbMiddleware``, ``newsstem.archive.read_archive()``
    …: each name README.md and docs/ give is a module or an attribute of one."""
    pages = [README, *sorted((REPO / "docs").rglob("*.md"))]
    names = {name for page in pages for name in re.findall(
        r"(?<![\w.])newsstem(?:\.[A-Za-z_]\w*)+", page.read_text(encoding="utf-8"))}
    assert len(names) >= 20
    missing = []
    for name in sorted(names):
        parts = name.split(".")
        for split in range(len(parts), 0, -1):
            try:
                found: object = importlib.import_module(".".join(parts[:split]))
            except ImportError:
                continue
            try:
                for part in parts[split:]:
                    found = getattr(found, part)
            except AttributeError:
                missing.append(name)
            break
    assert missing == []
