"""newsstem run from an installed package: pattern files shipped inside it, a job's data dir."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile

import pytest
from support.crawl import REPO, run_crawl
from support.newssite import GeneratedNewsSite
from support.scrapyd import copy_project

from newsstem.deployment import bundled_pattern_sets, installed_project_data_dir
from newsstem.layout.learn import TrainingPage, learn
from newsstem.layout.patterns import PatternFileError, dumps, pattern_file_name

SITE = "news.example"


@pytest.fixture(scope="module")
def pattern_text() -> str:
    """A pattern file learned from generated pages of SITE."""
    site = GeneratedNewsSite(sections=1, articles_per_section=6)
    pages = [TrainingPage(f"http://{SITE}/0/{n}.html", site._article(0, n).decode())
             for n in range(6)]
    pages.append(TrainingPage(f"http://{SITE}/section/0/", site._section(0).decode()))
    return dumps(learn(SITE, pages).pattern_set)


def make_package(root, name, files: dict[str, str]):
    package = root / name
    (package / "patterns").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    for file_name, text in files.items():
        (package / "patterns" / file_name).write_text(text)
    return package


def test_pattern_files_are_read_from_a_package_directory_or_a_zipped_egg(
    tmp_path, monkeypatch, pattern_text
):
    files = {pattern_file_name(SITE): pattern_text, "README.md": "not a pattern file"}
    make_package(tmp_path / "plain", "shipped_plain", files)
    egg = tmp_path / "shipped.egg"
    with zipfile.ZipFile(egg, "w") as archive:  # an egg is a zip: no directory to open
        archive.writestr("shipped_zip/__init__.py", "")
        for file_name, text in files.items():
            archive.writestr(f"shipped_zip/patterns/{file_name}", text)
    monkeypatch.syspath_prepend(str(tmp_path / "plain"))
    monkeypatch.syspath_prepend(str(egg))
    for package in ("shipped_plain", "shipped_zip"):
        sets = bundled_pattern_sets(package)
        assert list(sets) == [SITE]
        assert sets[SITE].patterns
    assert bundled_pattern_sets("newsstem") == {}, "a checkout ships none inside the package"


def test_a_corrupt_or_doubled_shipped_file_is_named_in_the_error(
    tmp_path, monkeypatch, pattern_text
):
    make_package(tmp_path, "shipped_bad", {"bad.json": "{"})
    make_package(tmp_path, "shipped_twice", {"a.json": pattern_text, "b.json": pattern_text})
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(PatternFileError, match=r"bad\.json \(shipped inside the shipped_bad"):
        bundled_pattern_sets("shipped_bad")
    with pytest.raises(PatternFileError, match="already has patterns in another file"):
        bundled_pattern_sets("shipped_twice")


def test_a_directory_of_the_job_overrides_the_shipped_file_of_its_site(tmp_path, pattern_text):
    """The crawl's pattern loader, run from a zipped newsstem as scrapyd runs it."""
    egg = tmp_path / "newsstem.egg"
    with zipfile.ZipFile(egg, "w") as archive:
        for path in (REPO / "newsstem").rglob("*.py"):
            archive.write(path, path.relative_to(REPO).as_posix())
        archive.writestr(f"newsstem/patterns/{pattern_file_name(SITE)}", pattern_text)
    override = tmp_path / "override"
    override.mkdir()
    edited = json.loads(pattern_text)
    edited["patterns"] = edited["patterns"][:1]
    edited["patterns"][0]["id"] = f"{SITE}/edited"
    (override / pattern_file_name(SITE)).write_text(json.dumps(edited))
    probe = (
        "import sys, newsstem; from scrapy.settings import Settings\n"
        "from newsstem.pipelines import load_patterns\n"
        "assert newsstem.__file__.startswith(sys.argv[1]), newsstem.__file__\n"
        "for values in ({}, {'NEWSSTEM_PATTERNS_DIR': sys.argv[2]},"
        " {'NEWSSTEM_PATTERNS_BUNDLED': 'False'}):\n"
        "    library = load_patterns(Settings(values))\n"
        "    site = library.get('news.example')\n"
        "    print([p.id for p in site.pattern_set.patterns] if site else None)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe, str(egg), str(override)],
        cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(egg)},
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert result.returncode == 0, result.stderr
    shipped, overridden, off = result.stdout.splitlines()
    assert shipped.startswith(f"['{SITE}/1'")
    assert overridden == f"['{SITE}/edited']"
    assert off == "None"


# The PEP 517 hook pip and `python -m build` call, with setuptools' deprecation warnings as
# errors: before stop 43, pyproject's `license = { text = "MIT" }` warned that builds would stop
# being supported in 2027 (every `pip install -e .` printed it).
BUILD_WHEEL = (
    "import sys, warnings\n"
    "from setuptools import build_meta\n"
    "from setuptools.warnings import SetuptoolsDeprecationWarning\n"
    "warnings.simplefilter('error', SetuptoolsDeprecationWarning)\n"
    "print(build_meta.build_wheel(sys.argv[1]))\n"
)


def build(project, *command) -> subprocess.CompletedProcess:
    from importlib.metadata import version

    installed = version("setuptools")
    # older ones stop on pyproject's license string, with a schema error, not this line
    assert int(installed.split(".")[0]) >= 77, (
        f"setuptools {installed} cannot build newsstem: pip install -r requirements-dev.txt")
    return subprocess.run([sys.executable, *command], cwd=project, capture_output=True,
                          text=True, timeout=180, check=False)


def test_the_wheel_builds_without_deprecation_and_declares_the_spdx_license(tmp_path):
    project = copy_project(tmp_path / "checkout")
    result = build(project, "-c", BUILD_WHEEL, str(tmp_path / "dist"))
    assert result.returncode == 0, result.stderr[-3000:]
    assert "deprecated" not in result.stderr, result.stderr[-3000:]
    with zipfile.ZipFile(tmp_path / "dist" / result.stdout.split()[-1]) as wheel:
        names = wheel.namelist()
        metadata = wheel.read(next(n for n in names if n.endswith(".dist-info/METADATA")))
    assert "License-Expression: MIT" in metadata.decode().splitlines()
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names), names


def test_the_egg_scrapyd_deploy_builds_carries_the_license_and_the_pattern_files(
    tmp_path, pattern_text
):
    project = copy_project(tmp_path / "checkout")
    (project / "patterns" / pattern_file_name(SITE)).write_text(pattern_text)
    # what scrapyd-deploy runs (its output hidden unless --debug)
    result = build(project, "setup.py", "bdist_egg", "-d", str(tmp_path / "eggs"))
    assert result.returncode == 0, result.stderr[-3000:]
    assert "project.license" not in result.stderr, result.stderr[-3000:]
    with zipfile.ZipFile(next((tmp_path / "eggs").glob("newsstem-*.egg"))) as egg:
        names = egg.namelist()
        metadata = egg.read("EGG-INFO/PKG-INFO").decode().splitlines()
    assert "License-Expression: MIT" in metadata
    assert f"newsstem/patterns/{pattern_file_name(SITE)}" in names
    assert "newsstem/spiders/news.py" in names


def test_a_scrapyd_job_keeps_its_data_in_scrapyds_directory(tmp_path, monkeypatch):
    monkeypatch.delenv("SCRAPY_PROJECT", raising=False)
    assert installed_project_data_dir(tmp_path) is None
    monkeypatch.setenv("SCRAPY_PROJECT", "newsstem")
    directory = installed_project_data_dir(tmp_path)
    assert directory == str(tmp_path / ".scrapy" / "newsstem")
    assert (tmp_path / ".scrapy" / "newsstem").is_dir()
    monkeypatch.setenv("SCRAPY_PROJECT", "../elsewhere")
    assert installed_project_data_dir(tmp_path) is None


@pytest.mark.parametrize("name, value, says", [
    ("NEWSSTEM_MIN_ARTICLE_CHARS", "two hundred",
     "NEWSSTEM_MIN_ARTICLE_CHARS must be a whole number, not 'two hundred'"),
    # out of range: taken silently before stop 33
    ("NEWSSTEM_PATTERN_THRESHOLD", "2",  # no page would match
     "NEWSSTEM_PATTERN_THRESHOLD must be between 0 and 1, not '2'"),
    ("NEWSSTEM_PATTERN_THRESHOLD", "-1",  # every page would
     "NEWSSTEM_PATTERN_THRESHOLD must be between 0 and 1, not '-1'"),
    ("NEWSSTEM_MIN_ARTICLE_CHARS", "-5", "NEWSSTEM_MIN_ARTICLE_CHARS must be 0 or more, not '-5'"),
    ("NEWSSTEM_MAX_ANCHOR_TEXTS", "-1", "NEWSSTEM_MAX_ANCHOR_TEXTS must be 0 or more, not '-1'"),
    ("NEWSSTEM_REDESIGN_MIN_PAGES", "-1",
     "NEWSSTEM_REDESIGN_MIN_PAGES must be 0 or more, not '-1'"),
    # DEPTH_LIMIT is the depth of a crawl given no -a depth: the spider reads it as it starts
    ("DEPTH_LIMIT", "two", "DEPTH_LIMIT must be a whole number, not 'two'"),
    # negative: taken silently (DEPTH_LIMIT=-2 fetched the start page only, exit status 0)
    ("DEPTH_LIMIT", "-2", "DEPTH_LIMIT must be 0 or more, not '-2'"),
    ("DOWNLOAD_MAXSIZE", "-1", "DOWNLOAD_MAXSIZE must be 0 or more, not '-1'"),
    ("HTTPERROR_ALLOWED_CODES", "gone", "HTTPERROR_ALLOWED_CODES must be HTTP statuses"),
    # a misspelt name was ignored: the crawl ran with text bodies
    ("NEWSSTEM_BODY_FORMT", "markdown",
     "unknown setting NEWSSTEM_BODY_FORMT (did you mean NEWSSTEM_BODY_FORMAT?)"),
])
def test_a_bad_setting_stops_the_crawl_with_one_line_before_any_request(tmp_path, site, name,
                                                                         value, says):
    result = run_crawl(tmp_path, "-a", f"start_url={site.url}/index.html",
                       settings={name: value})
    assert result.returncode == 2, result.log
    assert says in result.log
    assert "Traceback" not in result.log
    assert site.paths(status=None) == []


@pytest.mark.parametrize("name", ["NEWSSTEM_PATTERN_THRESHOLD", "NEWSSTEM_RENDER_WAIT"])
def test_nan_is_out_of_every_range(name):
    # "nan" reads as a float and compares false both ways: a threshold of NaN matched no
    # page (the learned patterns silently unused) and passed "value < 0 or value > 1"
    from scrapy.exceptions import UsageError
    from scrapy.settings import Settings

    from newsstem.setting_values import check_setting_types

    with pytest.raises(UsageError, match=f"{name} must be .*, not 'nan'"):
        check_setting_types(Settings({name: "nan"}))


@pytest.mark.parametrize("name", ["DEPTH_LIMIT", "DOWNLOAD_MAXSIZE"])
def test_zero_depth_limit_and_download_maxsize_stay_valid(name):
    # Scrapy's "no limit" for both: the check of negative values (e1d162f) must not refuse it
    from scrapy.settings import Settings

    from newsstem.setting_values import check_setting_types

    check_setting_types(Settings({name: "0"}))
    check_setting_types(Settings({name: 0}))
