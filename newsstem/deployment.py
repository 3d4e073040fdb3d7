"""newsstem run from an installed package: a scrapyd egg (a zip file) or a wheel.

scrapyd runs each job from the deployed egg, in scrapyd's own working
directory, with ``SCRAPY_PROJECT`` set and no ``scrapy.cfg`` around. Two
things a checkout finds next to ``scrapy.cfg`` must then come from elsewhere:

- the **pattern files** of the repository's top-level ``patterns/``: setup.py
  ships them inside the package as ``newsstem/patterns/*.json``; they are read
  here with :mod:`importlib.resources` (never through ``__file__``: inside a
  zip there is no directory to open). ``NEWSSTEM_PATTERNS_DIR`` (an absolute
  path under scrapyd) overrides them site by site;
- the **project data dir** where relative URL store paths live: Scrapy puts it
  next to ``scrapy.cfg`` (``.scrapy/``); a job of an installed project without
  one gets ``<working dir>/.scrapy/<project>/``, the same for every job and
  every deployed version.

And scrapyd passes every setting as a string: :mod:`newsstem.setting_values` reads and
checks them.
"""

from __future__ import annotations

import os
from importlib import resources
from importlib.abc import Traversable
from pathlib import Path

from newsstem.layout.patterns import PatternFileError, PatternSet, loads

__all__ = [
    "BUNDLED_PATTERNS",
    "bundled_pattern_sets",
    "installed_project_data_dir",
]

#: the resource directory, inside the ``newsstem`` package, of the pattern files it ships
BUNDLED_PATTERNS = "patterns"
#: set by scrapyd for every job (and by users of multi-project scrapy.cfg files)
PROJECT_ENVVAR = "SCRAPY_PROJECT"
_DATA_DIR = ".scrapy"


def _bundled_dir(package: str) -> Traversable | None:
    try:
        directory = resources.files(package) / BUNDLED_PATTERNS
    except ModuleNotFoundError:
        return None
    return directory if directory.is_dir() else None


def bundled_pattern_sets(package: str = "newsstem") -> dict[str, PatternSet]:
    """The pattern files shipped inside ``package`` (``*.json`` of its ``patterns/``), by site.

    A checkout has none (the files are at the top level, next to
    ``scrapy.cfg``, and read from there through ``NEWSSTEM_PATTERNS_DIR``); an
    installed package or a scrapyd egg has those of the repository it was
    built from. A corrupt file raises :class:`PatternFileError`.

    >>> bundled_pattern_sets("json")
    {}
    """
    directory = _bundled_dir(package)
    if directory is None:
        return {}
    sets: dict[str, PatternSet] = {}
    for entry in sorted(directory.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".json") or not entry.is_file():
            continue
        source = f"{entry} (shipped inside the {package} package)"
        try:
            text = entry.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise PatternFileError(f"{source}: cannot read the pattern file: {error}") from None
        pattern_set = loads(text, source=source)
        if pattern_set.site in sets:
            raise PatternFileError(
                f"{source}: site {pattern_set.site!r} already has patterns in another file "
                "of the package; keep one file per site in patterns/"
            )
        sets[pattern_set.site] = pattern_set
    return sets


def installed_project_data_dir(cwd: str | Path | None = None) -> str | None:
    """The data dir of a job of an installed project (scrapyd), created; None outside one.

    Used where Scrapy finds no ``scrapy.cfg`` to put ``.scrapy/`` next to: a
    job with ``SCRAPY_PROJECT`` set gets ``<cwd>/.scrapy/<project>/``; scrapyd
    starts every job in its own working directory, so the directory is the
    same for all jobs and deployed versions of the project.
    """
    project = os.environ.get(PROJECT_ENVVAR, "").strip()
    if not project or "/" in project or project in (".", ".."):
        return None
    directory = Path(cwd if cwd is not None else os.getcwd(), _DATA_DIR, project).resolve()
    directory.mkdir(parents=True, exist_ok=True)
    return str(directory)
