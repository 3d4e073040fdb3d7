"""MkDocs hooks: the settings, stats and Python API references, generated from the code.

``<!-- settings-reference -->`` in a page becomes one entry per ``NEWSSTEM_*`` setting of
``newsstem/defaults.py``: its name, its default and the comment above it (the comment
of a section header such as ``# URL store ------`` names the group), with links to the
pages that mention it. ``<!-- stats-reference -->`` becomes the table of
``newsstem.stats.STATS``. ``<!-- python-api-reference -->`` becomes the Python API of
:data:`API_MODULES`: every function with its parameters, every class with its fields,
their defaults and the comments beside or above them. Nothing is copied by hand, so
nothing drifts; the tests (tests/test_docs.py) build the site and check that every
setting, stat, name, parameter and field is there.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
import io
import re
import sys
import textwrap
import tokenize
from dataclasses import dataclass
from pathlib import Path

from mkdocs.exceptions import PluginError

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


# ------------------------------------------------------------------ the Python API reference

API_MARK = "<!-- python-api-reference -->"
# The Python API (HTML in, data out, no Scrapy): each module with the names of it on the
# reference page, None for its ``__all__``.
API_MODULES: tuple[tuple[str, tuple[str, ...] | None], ...] = (
    ("newsstem.readability", None),
    ("newsstem.extraction", None),
    ("newsstem.layout.learn", None),
    ("newsstem.layout.cluster", ("ClusterOptions",)),
    ("newsstem.layout.patterns", None),
    ("newsstem.metadata", None),
    ("newsstem.formats", None),
)
_ROLE = re.compile(r":(?:func|class|mod|data|attr|meth|exc):`~?([^`]+)`")


@dataclass(frozen=True)
class FieldDoc:
    name: str
    group: str  # the "# --- title: note" comment block that opens the field's group, if any
    comment: str  # the comment lines above it (but a group's) and the comment after it
    default: str  # as written, when it is an expression ("1 / 7"), else ""


def _comments(source: str) -> dict[int, str]:
    """Line number -> the text of the comment on that line."""
    return {
        token.start[0]: token.string.lstrip("#").lstrip(":").strip()  # "#: ..." as "# ..."
        for token in tokenize.generate_tokens(io.StringIO(source).readline)
        if token.type == tokenize.COMMENT
    }


def read_fields(cls: type) -> list[FieldDoc]:
    """The annotated fields of a class, in order, with the comments around them."""
    source = textwrap.dedent(inspect.getsource(cls))
    lines = source.split("\n")
    comments = _comments(source)
    body = ast.parse(source).body[0].body  # type: ignore[attr-defined]
    found = []
    for node in body:
        if not (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)):
            continue
        above: list[str] = []
        number = node.lineno - 1  # the line above, 1-based
        while number >= 1 and lines[number - 1].lstrip().startswith("#"):
            above.insert(0, comments[number])
            number -= 1
        group = ""
        if any(line.startswith("---") for line in above):
            # "--- title: a note on the group's fields" (the whole block is the group's),
            # or "--- title" over the first field's own comment
            first = next(i for i, line in enumerate(above) if line.startswith("---"))
            title = above[first].lstrip("-").strip()
            rest = above[first + 1:]
            group = " ".join([title, *rest]) if ": " in title else title
            above = [] if ": " in title else rest
        after = comments.get(node.end_lineno or node.lineno, "")
        written = ast.get_source_segment(source, node.value) if node.value else ""
        found.append(FieldDoc(node.target.id, group, " ".join([*above, after]).strip(),
                              written if written and _is_expression(node.value) else ""))
    return found


def _is_expression(node: ast.expr | None) -> bool:
    """A default worth showing as written: arithmetic (``1 / 7``), not a literal or a name."""
    if node is None or isinstance(node, (ast.Name, ast.Attribute, ast.Call)):
        return False
    try:
        ast.literal_eval(node)
    except ValueError:
        return True
    return False


def _api_markdown(text: str) -> str:
    """A docstring or comment as Markdown: Sphinx roles and ``code`` as `code`."""
    return _markdown(_ROLE.sub(r"`\1`", text).replace("``", "`"))


def _doc(obj: object, whole: bool = True) -> str:
    """The docstring of ``obj`` as Markdown, up to its first example (``>>>``); only its
    first paragraph unless ``whole``."""
    doc = inspect.getdoc(obj) or ""
    if dataclasses.is_dataclass(obj) and doc.startswith(f"{obj.__name__}("):  # type: ignore
        return ""  # the signature dataclasses write for a class without a docstring
    doc = doc.split("\n>>>")[0]
    if not whole:
        doc = doc.split("\n\n")[0]
    return _api_markdown(doc.strip())


def _value(value: object) -> str:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return f"{type(value).__name__}()"
    return repr(value)


def _signature(name: str, obj: object, skip_self: bool = False) -> str:
    """``name(a, b=1, *, c=None)``: the parameters and defaults, without annotations."""
    try:
        signature = inspect.signature(obj)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return name
    parts: list[str] = []
    star = False
    for index, parameter in enumerate(signature.parameters.values()):
        if skip_self and index == 0:
            continue
        if parameter.kind is parameter.KEYWORD_ONLY and not star:
            parts.append("*")
            star = True
        text = parameter.name
        if parameter.kind is parameter.VAR_POSITIONAL:
            text, star = f"*{text}", True
        elif parameter.kind is parameter.VAR_KEYWORD:
            text = f"**{text}"
        if parameter.default is not parameter.empty:
            text += f"={_value(parameter.default)}"
        parts.append(text)
    return f"{name}({', '.join(parts)})"


def _default(field: dataclasses.Field) -> str:
    if field.default is not dataclasses.MISSING:
        return _value(field.default)
    if field.default_factory is not dataclasses.MISSING:
        return _value(field.default_factory())
    return ""


def _dataclass_fields(cls: type) -> list[str]:
    out: list[str] = []
    documented = {f.name: f for f in read_fields(cls)}
    for field in dataclasses.fields(cls):
        doc = documented.get(field.name)
        if doc and doc.group:
            title, _, rest = doc.group.partition(": ")
            out.append(f"\n*{_api_markdown(title)}*" + (f": {_api_markdown(rest)}" if rest else "")
                       + "\n")
        default = _default(field)
        entry = f"- `{field.name}`" + (f" = `{default}`" if default else " (required)")
        if doc and doc.default:
            entry += f" (`{doc.default}`)"
        if doc and doc.comment:
            entry += f": {_api_markdown(doc.comment)}"
        out.append(entry)
    return out


def _members(cls: type) -> list[str]:
    """The public methods and properties a class defines, with their first doc paragraph."""
    out = []
    for name, member in vars(cls).items():
        if name.startswith("_"):
            continue
        if isinstance(member, property):
            entry, doc = f"`{name}` (property)", _doc(member.fget, whole=False)
        elif isinstance(member, (classmethod, staticmethod)):
            entry = f"`{_signature(name, getattr(cls, name))}`"
            doc = _doc(member.__func__, whole=False)
        elif inspect.isfunction(member):
            entry = f"`{_signature(name, member, skip_self=True)}`"
            doc = _doc(member, whole=False)
        else:
            continue
        out.append(f"- {entry}" + (f": {doc}" if doc else ""))
    return out


def _module_comment(module: object, name: str) -> str:
    """The comment lines right above ``NAME = ...`` in a module."""
    source = inspect.getsource(module)  # type: ignore[arg-type]
    lines = source.split("\n")
    comments = _comments(source)
    for node in ast.parse(source).body:
        targets = node.targets if isinstance(node, ast.Assign) else (
            [node.target] if isinstance(node, ast.AnnAssign) else [])
        if any(isinstance(t, ast.Name) and t.id == name for t in targets):
            above: list[str] = []
            number = node.lineno - 1
            while number >= 1 and lines[number - 1].startswith("#"):
                above.insert(0, comments[number])
                number -= 1
            return " ".join(above)
    return ""


def api_entries() -> list[tuple[str, str, object]]:
    """(module, name, object) of everything on the Python API reference page; a module
    without ``__all__`` or a name it lacks stops the build with a message naming it."""
    if str(REPO) not in sys.path:
        sys.path.insert(0, str(REPO))
    entries = []
    for module_name, names in API_MODULES:
        module = importlib.import_module(module_name)
        if names is None and not hasattr(module, "__all__"):
            raise PluginError(f"docs/hooks.py: API_MODULES lists {module_name}, "
                              "which has no __all__: give it one, or name its names")
        for name in names or module.__all__:
            if not hasattr(module, name):
                raise PluginError(f"docs/hooks.py: {module_name} has no {name!r} "
                                  "(named in its __all__ or in API_MODULES)")
            entries.append((module_name, name, getattr(module, name)))
    return entries


def api_markdown() -> str:
    out: list[str] = []
    module_name = None
    for module, name, obj in api_entries():
        if module != module_name:
            module_name = module
            out.append(f"\n## `{module}`\n\n{_doc(sys.modules[module], whole=False)}\n")
        if inspect.isclass(obj) and issubclass(obj, Exception):
            out.append(f"### `{name}`\n\n{_doc(obj)}\n")
        elif inspect.isclass(obj):
            heading = _signature(name, obj) if not dataclasses.is_dataclass(obj) else name
            out.append(f"### `{heading}`\n\n{_doc(obj)}\n")
            if dataclasses.is_dataclass(obj):
                out.extend([*_dataclass_fields(obj), ""])
            members = _members(obj)
            if members:
                out.extend([*members, ""])
        elif inspect.isfunction(obj):
            out.append(f"### `{_signature(name, obj)}`\n\n{_doc(obj)}\n")
        else:
            comment = _module_comment(sys.modules[module], name)
            value = repr(obj).replace("collections.abc.", "").replace(f"{module}.", "")
            note = f": {_api_markdown(comment)}" if comment else ""
            out.append(f"### `{name}`\n\n`{value}`{note}\n")
    return "\n".join(out) + "\n"


def on_page_markdown(markdown: str, page, config, files) -> str:  # noqa: ARG001 - MkDocs hook
    if SETTINGS_MARK in markdown:
        markdown = markdown.replace(
            SETTINGS_MARK, settings_markdown(_mentions(page.file.src_uri, files))
        )
    if STATS_MARK in markdown:
        markdown = markdown.replace(STATS_MARK, stats_markdown())
    if API_MARK in markdown:
        markdown = markdown.replace(API_MARK, api_markdown())
    return markdown
