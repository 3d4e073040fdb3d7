"""newsstem deployed to a real scrapyd and run by it, as in production.

One scrapyd for the module (it takes seconds to start), started from this
Python in a temp dir with basic auth, on a free port of 127.0.0.1, with its own
eggs/logs/items/dbs dirs. The project is copied as a checkout would be, a
pattern file learned from the generated test site is added to its
``patterns/``, and ``scrapyd-deploy`` builds and uploads the egg: the crawls
then extract by that pattern only if the egg carries it.
"""

from __future__ import annotations

import json
import zipfile

import pytest
from support.newssite import GeneratedNewsSite
from support.scrapyd import Scrapyd, copy_project, deploy

from newsstem.layout.learn import TrainingPage, learn
from newsstem.layout.patterns import pattern_file_name, save_pattern_file

# Fast, deterministic crawls of the local site; values are strings, as scrapyd passes them.
FAST = {"AUTOTHROTTLE_ENABLED": "False", "LOG_LEVEL": "INFO"}


def training_pages(site: GeneratedNewsSite) -> list[TrainingPage]:
    """The site's pages, as a crawl archive would give them to ``scrapy learn``."""
    pages = [TrainingPage(site.url + "/", site._home().decode())]
    pages += [TrainingPage(f"{site.url}/section/{s}/", site._section(s).decode())
              for s in range(site.sections)]
    pages += [TrainingPage(site.url + path, site._resolve(path).decode())
              for path in sorted(site.article_paths())]
    return pages


@pytest.fixture(scope="module")
def news_site():
    site = GeneratedNewsSite(sections=2, articles_per_section=5).start()
    yield site
    site.stop()


@pytest.fixture(scope="module")
def site_name(news_site) -> str:
    return f"127.0.0.1:{news_site.port}"


@pytest.fixture(scope="module")
def project(tmp_path_factory, news_site, site_name):
    """A copy of the project whose patterns/ has the test site's learned pattern file."""
    project = copy_project(tmp_path_factory.mktemp("checkout") / "newsstem")
    save_pattern_file(learn(site_name, training_pages(news_site)).pattern_set, project / "patterns")
    return project


@pytest.fixture(scope="module")
def scrapyd(tmp_path_factory, project):
    # The caller's PYTHONPATH names another checkout, whose newsstem cannot be imported:
    # the jobs must run the egg whatever the environment the tests run in (a PYTHONPATH
    # set to a clone made them import the clone's newsstem, without the egg's patterns/).
    other = tmp_path_factory.mktemp("other-checkout")
    (other / "newsstem").mkdir()
    (other / "newsstem" / "__init__.py").write_text(
        'raise ImportError("the job imported the PYTHONPATH checkout, not the egg")\n'
    )
    with pytest.MonkeyPatch.context() as environment:
        environment.setenv("PYTHONPATH", str(other))
        server = Scrapyd(tmp_path_factory.mktemp("scrapyd")).start()
        deployed = deploy(project, server)
    try:
        assert deployed.returncode == 0, deployed.stderr + deployed.stdout
        assert json.loads(deployed.stdout)["status"] == "ok", deployed.stdout
        yield server
    finally:
        server.stop()


def test_the_egg_carries_the_pattern_files_inside_the_package(scrapyd, site_name):
    eggs = list((scrapyd.directory / "eggs" / "newsstem").glob("*.egg"))
    assert len(eggs) == 1
    names = zipfile.ZipFile(eggs[0]).namelist()
    assert f"newsstem/patterns/{pattern_file_name(site_name)}" in names
    assert "newsstem/settings.py" in names and "EGG-INFO/entry_points.txt" in names


def test_a_scheduled_crawl_exports_by_pattern_and_the_next_runs_only_new_articles(
    scrapyd, news_site, site_name
):
    arguments = {"start_url": news_site.url + "/", "depth": "2"}
    stats_file = scrapyd.directory / "first.stats.json"
    scrapyd.schedule("first", arguments=arguments,
                     settings={**FAST, "NEWSSTEM_STATS_FILE": str(stats_file)})
    scrapyd.wait("first")
    log = scrapyd.job_log("first")
    items = scrapyd.items("first")
    assert {item["url"] for item in items} == news_site.article_urls(), log
    # bodies from the pattern shipped in the egg, not from readability
    assert {item["method"] for item in items} == {f"pattern:{site_name}/1"}, log
    assert all(len(item["body"]) > 1000 and item["title"] for item in items)
    stats = json.loads(stats_file.read_text())
    assert stats["newsstem/summary/articles"] == len(items) == 10
    assert stats["newsstem/summary/outcome"] == "ok"
    assert "newsstem run summary" in log
    # said "(1 from the package, the others from patterns)", when there were none
    assert f"layout patterns for 1 site(s) (1 from the package, 0 from patterns): {site_name}" \
        in log
    # the default URL store: scrapyd's working dir, shared by the project's jobs
    assert (scrapyd.directory / ".scrapy" / "newsstem" / "newsstem-urldb.sqlite").is_file()

    scrapyd.schedule("second", arguments=arguments, settings=FAST)
    scrapyd.wait("second")
    assert scrapyd.items("second") == [], scrapyd.job_log("second")
    assert "'newsstem/urldb/skipped': 10" in scrapyd.job_log("second")

    added = news_site.add_article(section=1)
    scrapyd.schedule("third", arguments=arguments, settings=FAST)
    scrapyd.wait("third")
    assert [item["url"] for item in scrapyd.items("third")] == [news_site.url + added]


def test_settings_and_arguments_arrive_as_strings_and_are_parsed(
    scrapyd, news_site, site_name, tmp_path
):
    # A pattern directory of the job overrides the egg's file of the same site.
    override = tmp_path / "patterns"
    shipped = json.loads(
        zipfile.ZipFile(next((scrapyd.directory / "eggs" / "newsstem").glob("*.egg")))
        .read(f"newsstem/patterns/{pattern_file_name(site_name)}")
    )
    for pattern in shipped["patterns"]:
        pattern["id"] = pattern["id"].replace(site_name, f"{site_name}-override")
    override.mkdir()
    (override / pattern_file_name(site_name)).write_text(json.dumps(shipped))
    settings = {
        **FAST,
        "NEWSSTEM_PATTERNS_DIR": str(override),
        "NEWSSTEM_URLDB": f"sqlite:///{tmp_path / 'own-urldb.sqlite'}",
        "NEWSSTEM_BODY_HTML": "True",
        "NEWSSTEM_METADATA": "false",
        "NEWSSTEM_URL_RULES": f'["+^{news_site.url}/$", "+/section/0/", "+/0/"]',
        "NEWSSTEM_MIN_ARTICLE_CHARS": "100",
        "NEWSSTEM_URLDB_SYNC_ITEMS": "2",
        "DEPTH_LIMIT": "5",
    }
    scrapyd.schedule("strings", arguments={"start_url": news_site.url + "/", "depth": "2"},
                     settings=settings)
    scrapyd.wait("strings")
    log = scrapyd.job_log("strings")
    items = scrapyd.items("strings")
    section_0 = {u for u in news_site.article_urls() if "/0/" in u}
    assert {item["url"] for item in items} == section_0, log
    assert {item["method"] for item in items} == {f"pattern:{site_name}-override/1"}
    assert all(item["body_html"] and item["published"] is None for item in items)
    assert "'newsstem/urldb/syncs': 3" in log  # batches of 2 (5 articles)
    assert (tmp_path / "own-urldb.sqlite").is_file()


def test_basic_auth_rejects_a_wrong_password(scrapyd):
    assert scrapyd.status("daemonstatus.json", password=scrapyd.password) == 200
    assert scrapyd.status("daemonstatus.json", password="wrong") == 401
    assert scrapyd.status("listjobs.json?project=newsstem", password="") == 401


def test_a_job_that_cannot_start_says_why_in_its_own_log(scrapyd, news_site, tmp_path):
    """A bad setting (exit status 2) or an unusable archive (1) stops the job before Scrapy
    logs anything: its one line went to the job's stderr, which scrapyd writes to its own
    log only, and the job's log (``logs_dir/.../<job>.log``, served at ``/logs/``) was
    never made: an operator opening it found nothing (404)."""
    arguments = {"start_url": news_site.url + "/", "depth": "2"}
    scrapyd.schedule("typo", arguments=arguments,
                     settings={**FAST, "NEWSSTEM_BODY_FORMT": "markdown"})
    not_a_directory = tmp_path / "file"
    not_a_directory.write_text("")
    scrapyd.schedule("archive", arguments=arguments,
                     settings={**FAST, "NEWSSTEM_ARCHIVE": f"{not_a_directory}/a.warc.gz"})
    scrapyd.wait("typo")
    scrapyd.wait("archive")
    typo = scrapyd.job_log("typo")
    assert "ERROR: scrapy: error: unknown setting NEWSSTEM_BODY_FORMT (did you mean " \
           "NEWSSTEM_BODY_FORMAT?)" in typo, typo
    assert len(typo.splitlines()) == 1, typo
    archive = scrapyd.job_log("archive")
    assert "ERROR: newsstem: archive error: " in archive, archive
    assert len(archive.splitlines()) == 1, archive
