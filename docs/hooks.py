"""MkDocs hooks: the settings and stats references, generated from the code at each build.

``<!-- settings-reference -->`` in a page becomes one entry per ``NEWSSTEM_*`` setting of
``newsstem/defaults.py``: its name, its default and the comment above it (the comment
of a section header such as ``# URL store ------`` names the group), with links to the
pages that mention it. ``<!-- stats-reference -->`` becomes the table of
``newsstem.stats.STATS``. Nothing is copied by hand, so nothing drifts; the tests
(tests/test_docs.py) build the site and check that every setting and stat is there.
"""

from __future__ import annotations

import ast
import re
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULTS = REPO / "newsstem" / "defaults.py"
SETTINGS_MARK = "<!-- settings-reference -->"
STATS_MARK = "<!-- stats-reference -->"
_PARENTHESES = re.compile(r"\s*\(.*?\)")  # "(issue 4)", "(newsstem.urldb)" in section names
_SECTION = re.compile(r"^#\s*(.+?)\s*-{3,}\s*$")  # "# URL store (newsstem.urldb) -----"


@dataclass(frozen=True)
class SettingDoc:
    name: str
    default: str  # as written in defaults.py
    comment: str  # the comment lines above it, joined
    section: str


def read_settings(source: str) -> list[SettingDoc]:
    """Every ``NEWSSTEM_*`` assignment of defaults.py with its default and comment."""
    lines = source.split("\n")
    settings = []
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            target, value = node.target, node.value
        else:
            continue
        if not (isinstance(target, ast.Name) and target.id.startswith("NEWSSTEM_")):
            continue
        comment: list[str] = []
        number = node.lineno - 2  # the line above, 0-based
        while number >= 0 and lines[number].startswith("#") and not _SECTION.match(lines[number]):
            comment.insert(0, lines[number].lstrip("#").strip())
            number -= 1
        section = next(
            (m.group(1) for line in reversed(lines[: node.lineno - 1]) if (m := _SECTION.match(line))),
            "Settings",
        )
        default = ast.get_source_segment(source, value) or ""
        settings.append(SettingDoc(target.id, default, " ".join(comment), section))
    return settings


def _markdown(comment: str) -> str:
    """A defaults.py comment as Markdown: reST's ``code`` is Markdown's `code`, and a
    "<" outside code is text (``<p> elements``), not a tag."""
    parts = comment.replace("``", "`").split("`")
    return "`".join(part if index % 2 else part.replace("<", "&lt;")
                    for index, part in enumerate(parts))


def settings_markdown(mentions: dict[str, list[tuple[str, str]]]) -> str:
    """The reference entries; ``mentions``: setting -> [(page title, page path)]."""
    out: list[str] = []
    section = None
    for setting in read_settings(DEFAULTS.read_text(encoding="utf-8")):
        if setting.section != section:
            section = setting.section
            out.append(f"## {_PARENTHESES.sub('', section)}\n")
        out.append(f"### `{setting.name}`\n")
        seen = ", ".join(f"[{title}]({path})" for title, path in mentions.get(setting.name, []))
        out.append(f"Default: `{setting.default}`" + (f" · see {seen}" if seen else "") + "\n")
        out.append(_markdown(setting.comment) + "\n")
    return "\n".join(out)


def stats_markdown() -> str:
    sys.path.insert(0, str(REPO))
    from newsstem.stats import STATS

    out: list[str] = []
    group = None
    for stat in STATS:
        if stat.group != group:
            group = stat.group
            out.append(f"\n## {group}\n\n| stat | meaning |\n| --- | --- |")
        out.append(f"| `{stat.name}` | {stat.meaning.replace('|', '&#124;')} |")
    return "\n".join(out) + "\n"


def _mentions(page_path: str, files) -> dict[str, list[tuple[str, str]]]:
    """Which pages (other than the reference) mention each setting."""
    found: dict[str, list[tuple[str, str]]] = {}
    here = Path(page_path).parent
    for file in files.documentation_pages():
        if file.src_uri.startswith("reference/"):
            continue
        text = Path(file.abs_src_path).read_text(encoding="utf-8")
        title = next((line[2:].strip() for line in text.split("\n") if line.startswith("# ")),
                     file.src_uri)
        relative = Path(*[".."] * len(here.parts), file.src_uri).as_posix()
        for name in set(re.findall(r"NEWSSTEM_[A-Z_]+\b", text)):
            found.setdefault(name, []).append((title, relative))
    return {name: sorted(pages) for name, pages in found.items()}


def on_page_markdown(markdown: str, page, config, files) -> str:  # noqa: ARG001 - MkDocs hook
    if SETTINGS_MARK in markdown:
        markdown = markdown.replace(
            SETTINGS_MARK, settings_markdown(_mentions(page.file.src_uri, files))
        )
    if STATS_MARK in markdown:
        markdown = markdown.replace(STATS_MARK, stats_markdown())
    return markdown
