"""The stats reference (newsstem/stats.py) against the stats the source really counts.

The source is read, not run: every stat name newsstem writes (the first argument of
``inc_value``/``set_value``/``max_value``/``min_value``, and every ``"newsstem/…"``
string, such as the run summary's keys) is resolved to a name template (module
constants and local variables filled in, other f-string parts as ``<…>``) and must
match a line of :data:`newsstem.stats.STATS`; every line must match a name the source
writes. So a stat cannot be added, renamed or removed without its reference line.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from newsstem.stats import STATS

PACKAGE = Path(__file__).resolve().parents[1] / "newsstem"
REGISTRY = PACKAGE / "stats.py"  # the reference itself is not a writer
WRITERS = frozenset({"inc_value", "set_value", "max_value", "min_value"})
OUR_PREFIX = "newsstem/"


class _Resolver:
    """Resolve string expressions of one module to the texts they can take."""

    def __init__(self, tree: ast.Module) -> None:
        self.constants = _single_assignments(tree.body)

    def texts(self, node: ast.AST, local: dict[str, ast.AST],
              seen: frozenset[str] = frozenset()) -> list[str]:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return [node.value]
        if isinstance(node, ast.Name):
            bound = local.get(node.id) or self.constants.get(node.id)
            if bound is None or node.id in seen:
                return [f"<{node.id}>"]
            return self.texts(bound, local, seen | {node.id})
        if isinstance(node, ast.IfExp):
            return self.texts(node.body, local, seen) + self.texts(node.orelse, local, seen)
        if isinstance(node, ast.FormattedValue):
            return self.texts(node.value, local, seen)
        if isinstance(node, ast.JoinedStr):
            results = [""]
            for part in node.values:
                results = [done + text for done in results
                           for text in self.texts(part, local, seen)]
            return results
        return ["<…>"]


def _scope_nodes(body: list[ast.stmt]):
    """The nodes of these statements and their blocks, not those of the functions they
    define (a name a function assigns is that function's, not the module's)."""
    stack = list(reversed(body))
    while stack:
        node = stack.pop()
        yield node
        stack.extend(child for child in ast.iter_child_nodes(node)
                     if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))


def _single_assignments(body: list[ast.stmt]) -> dict[str, ast.AST]:
    """Names assigned exactly once among these statements (and their blocks, not in the
    functions they define) -> the value."""
    seen: dict[str, list[ast.AST]] = {}
    for statement in body:
        for node in _scope_nodes([statement]):
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                target = node.targets[0]
                if isinstance(target, ast.Name):
                    seen.setdefault(target.id, []).append(node.value)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value:
                seen.setdefault(node.target.id, []).append(node.value)
    return {name: values[0] for name, values in seen.items() if len(values) == 1}


def _is_stat_name(text: str) -> bool:
    return bool(text) and not any(c.isspace() for c in text) and not text.endswith("/")


def written_stats() -> dict[str, set[str]]:
    """Stat name templates the source writes -> the files that write them."""
    found: dict[str, set[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if path == REGISTRY:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        resolver = _Resolver(tree)
        prefixes = {  # module constants naming a prefix, e.g. STATS_PREFIX = "newsstem/urldb"
            name for name, value in resolver.constants.items() if name.endswith("PREFIX")
        }
        functions = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
        scopes = [(f, _single_assignments(f.body)) for f in functions] + [(tree, {})]
        where = str(path.relative_to(PACKAGE.parent))
        for scope, local in scopes:
            for node in ast.walk(scope):
                texts: list[str] = []
                if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                        and node.func.attr in WRITERS and node.args):
                    texts = [t for t in resolver.texts(node.args[0], local) if not t.startswith("<")]
                elif isinstance(node, ast.JoinedStr) or (
                    isinstance(node, ast.Constant) and isinstance(node.value, str)
                ):
                    texts = [t for t in resolver.texts(node, local) if t.startswith(OUR_PREFIX)]
                for text in texts:
                    if _is_stat_name(text) and text not in {
                        resolver.texts(resolver.constants[p], {})[0] for p in prefixes
                    }:
                        found.setdefault(text, set()).add(where)
    return found


def _pattern(name: str) -> re.Pattern[str]:
    return re.compile("".join(".+" if part.startswith("<") else re.escape(part)
                              for part in re.split(r"(<[^>]*>)", name) if part))


def _overlap(template: str, documented: str) -> bool:
    def example(name: str) -> str:
        return re.sub(r"<[^>]*>", "x", name)

    return bool(_pattern(documented).fullmatch(example(template))
                or _pattern(template).fullmatch(example(documented)))


def _prefix_of(template: str, documented: str) -> bool:
    """Whether ``template`` is ``documented``'s text before its first ``<…>`` part: the
    prefix a reader gives (``_by_suffix(stats, "newsstem/allowed/http_")`` in the run
    summary), no stat of its own."""
    return "<" in documented and documented.split("<", 1)[0] == template


@pytest.fixture(scope="module")
def written():
    return written_stats()


def test_the_scan_finds_the_stats_of_every_component(written):
    for expected in ("newsstem/method/<method>", "newsstem/urldb/skipped",
                     "newsstem/summary/outcome", "newsstem/patterns/<site>/matched",
                     "newsstem/patterns/<site>/unmatched", "newsstem/archive/<what>",
                     "newsstem/distributed/start_messages", "dupefilter/filtered"):
        assert expected in written, sorted(written)


def test_every_stat_the_source_writes_is_documented(written):
    undocumented = {
        template: sorted(files) for template, files in written.items()
        if not any(_overlap(template, stat.name) or _prefix_of(template, stat.name)
                   for stat in STATS)
    }
    assert not undocumented, f"add these to newsstem/stats.py: {undocumented}"


def test_every_documented_stat_is_written_somewhere(written):
    stale = [stat.name for stat in STATS if not any(_overlap(t, stat.name) for t in written)]
    assert not stale, f"nothing counts these (remove them from newsstem/stats.py): {stale}"


def test_the_match_tells_names_apart():
    assert _overlap("newsstem/dropped/not_html", "newsstem/dropped/<reason>")
    assert _overlap("newsstem/archive/<what>", "newsstem/archive/pages")
    assert not _overlap("newsstem/patterns/<site>/too_short", "newsstem/patterns/<site>/matched")
    assert not _overlap("newsstem/urldb/new", "newsstem/urldb/newer")
    assert _prefix_of("newsstem/allowed/http_", "newsstem/allowed/http_<status>")
    assert not _overlap("newsstem/allowed/http_", "newsstem/allowed/http_<status>")
    assert not _prefix_of("newsstem/allowed/http", "newsstem/allowed/http_<status>")
    assert not _prefix_of("newsstem/urldb/new", "newsstem/urldb/newer")


def test_pages_read_by_the_browser_are_not_filed_under_failed_requests():
    # newsstem/render/unfinished counts pages that were read (maybe missing text), not
    # requests that failed: the reference listed it under "Failed requests"
    group = {stat.name: stat.group for stat in STATS}
    assert group["newsstem/render/unfinished"] == "Browser mode"
    assert not any(name.startswith("newsstem/render/") for name, g in group.items()
                   if g == "Failed requests")
