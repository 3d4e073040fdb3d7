"""The switch of distributed mode: settings it changes, checks before a crawl starts."""

from __future__ import annotations

import pytest
from scrapy.downloadermiddlewares.offsite import OffsiteMiddleware
from scrapy.exceptions import UsageError
from scrapy.settings import Settings
from scrapy.spidermiddlewares.depth import DepthMiddleware
from scrapy.utils.project import get_project_settings
from support.crawl import run_crawl
from support.redisserver import free_port

from newsstem import defaults
from newsstem.distributed import DistributedError, DistributedMode
from newsstem.distributed.middlewares import ScopeDepthMiddleware, ScopeOffsiteMiddleware
from newsstem.distributed.options import DistributedOptions
from newsstem.distributed.worker import Worker
from newsstem.middlewares import SafeRobotsTxtMiddleware

URL = "redis://127.0.0.1:6390/3"


def project_settings(**values) -> Settings:
    settings = get_project_settings()
    for name, value in values.items():
        settings.set(name, value, priority="cmdline")
    return settings


def components(settings: Settings, name: str) -> dict:
    """Each component of *name* and its base with its order, as Scrapy reads them: a class
    under two keys (its path and itself) is two entries for Scrapy, so it fails here."""
    from scrapy.utils.misc import load_object

    merged = settings.getwithbase(name)
    loaded = [load_object(k) if isinstance(k, str) else k for k in merged]
    assert len(set(loaded)) == len(loaded), f"{name}: a component under two keys"
    return dict(zip(loaded, merged.values(), strict=True))


def test_without_the_setting_nothing_changes():
    settings = project_settings()
    before = settings.copy_to_dict()
    DistributedMode().update_settings(settings)
    assert settings.copy_to_dict() == before


def test_the_setting_makes_a_worker_of_the_crawl():
    settings = project_settings(NEWSSTEM_DISTRIBUTED=URL)
    DistributedMode().update_settings(settings)
    assert settings["SCHEDULER"] == "newsstem.distributed.scheduler.RedisScheduler"
    assert settings["DUPEFILTER_CLASS"] == "newsstem.distributed.dupefilter.SiteDupeFilter"
    assert settings["REDIS_URL"] == URL
    assert settings.getbool("SCHEDULER_PERSIST") and settings.getint("SCHEDULER_IDLE_BEFORE_CLOSE") == 0
    assert settings["NEWSSTEM_URLDB"] == URL, "the URL store on the same Redis"
    downloader = components(settings, "DOWNLOADER_MIDDLEWARES")
    assert downloader[SafeRobotsTxtMiddleware] == 100
    assert downloader[OffsiteMiddleware] is None and downloader[ScopeOffsiteMiddleware] == 50
    spider = components(settings, "SPIDER_MIDDLEWARES")
    assert spider[DepthMiddleware] is None and spider[ScopeDepthMiddleware] == 900
    assert Worker in components(settings, "EXTENSIONS")


def test_choices_of_the_user_are_kept():
    settings = project_settings(
        NEWSSTEM_DISTRIBUTED=URL, NEWSSTEM_URLDB="sqlite:////srv/urldb.sqlite",
        SCHEDULER_QUEUE_CLASS="scrapy_redis.queue.FifoQueue",
    )
    DistributedMode().update_settings(settings)
    assert settings["NEWSSTEM_URLDB"] == "sqlite:////srv/urldb.sqlite"
    assert settings["SCHEDULER_QUEUE_CLASS"] == "scrapy_redis.queue.FifoQueue"
    off = project_settings(NEWSSTEM_DISTRIBUTED=URL, NEWSSTEM_URLDB="")
    DistributedMode().update_settings(off)
    assert off["NEWSSTEM_URLDB"] == ""
    # the same choices in the project's settings.py, at the add-on's own "project" priority:
    # only the add-on's check keeps them (the -s values above stay whatever the add-on does)
    for chosen in ("sqlite:////srv/urldb.sqlite", ""):
        project = project_settings(NEWSSTEM_DISTRIBUTED=URL)
        project.set("NEWSSTEM_URLDB", chosen, priority="project")
        DistributedMode().update_settings(project)
        assert project["NEWSSTEM_URLDB"] == chosen
    # the default's value given with -s is a choice too: -s sits above the add-on's
    # "project" priority (a code review thought it replaced by Redis)
    default = project_settings(NEWSSTEM_DISTRIBUTED=URL, NEWSSTEM_URLDB=defaults.NEWSSTEM_URLDB)
    DistributedMode().update_settings(default)
    assert default["NEWSSTEM_URLDB"] == defaults.NEWSSTEM_URLDB
    implicit = project_settings(NEWSSTEM_DISTRIBUTED=URL)  # the contrast: not given
    DistributedMode().update_settings(implicit)
    assert implicit["NEWSSTEM_URLDB"] == URL
    spider = get_project_settings()
    spider.set("NEWSSTEM_DISTRIBUTED", URL, priority="cmdline")
    spider.set("NEWSSTEM_URLDB", defaults.NEWSSTEM_URLDB, priority="spider")
    DistributedMode().update_settings(spider)
    assert spider["NEWSSTEM_URLDB"] == defaults.NEWSSTEM_URLDB


def test_options_are_parsed_from_strings_and_checked():
    options = DistributedOptions.from_settings(
        Settings({"NEWSSTEM_DISTRIBUTED": URL, "NEWSSTEM_DISTRIBUTED_IDLE": "0",
                  "NEWSSTEM_DISTRIBUTED_FORGET": "30"})
    )
    assert (options.url, options.idle_seconds, options.forget_seconds) == (URL, 0.0, 30)
    # one line naming the bad setting and quoting its value, as docs/unattended.md says of
    # every NEWSSTEM_* setting (it named all three settings and no value)
    for name, value, message in (
        ("NEWSSTEM_DISTRIBUTED_IDLE", "soon", "must be a number, not 'soon'"),
        ("NEWSSTEM_DISTRIBUTED_FORGET", "0", "must be 1 or more, not '0'"),
        ("NEWSSTEM_DISTRIBUTED_FORGET", "2.5", "must be a whole number, not '2.5'"),
        ("NEWSSTEM_DISTRIBUTED_HEARTBEAT", "0.5", "must be 1 or more, not '0.5'"),
        # NaN: never "idle for that long", a worker for ever
        ("NEWSSTEM_DISTRIBUTED_IDLE", "nan", "must be 0 or more, not 'nan'"),
    ):
        with pytest.raises(UsageError) as raised:
            DistributedOptions.from_settings(Settings({name: value}))
        assert str(raised.value) == f"{name} {message}"
    with pytest.raises(DistributedError, match="not a Redis URL"):
        DistributedOptions.from_settings(Settings({"NEWSSTEM_DISTRIBUTED": "localhost:6379"}))


def test_an_unreachable_redis_stops_the_command_before_anything_starts(tmp_path, site):
    url = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    result = run_crawl(tmp_path, "-a", f"start_url={site.url}/index.html",
                       settings={"NEWSSTEM_DISTRIBUTED": url})
    assert result.returncode == 1
    assert f"newsstem: distributed mode: cannot use Redis at {url}" in result.log
    assert site.paths(status=None) == []
