"""The switch of distributed mode: a Scrapy add-on that configures a worker from one setting."""

from __future__ import annotations

from typing import TYPE_CHECKING

from scrapy.downloadermiddlewares.offsite import OffsiteMiddleware
from scrapy.downloadermiddlewares.robotstxt import RobotsTxtMiddleware
from scrapy.spidermiddlewares.depth import DepthMiddleware

from newsstem import defaults
from newsstem.distributed.connection import QUEUE_KEY, distributed_url, scheduler_redis_params
from newsstem.middlewares import SafeRobotsTxtMiddleware

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings

# Where the replaced components sat (Scrapy's *_BASE orders).
_OFFSITE_ORDER = 50
_DEPTH_ORDER = 900
_ROBOTS_ORDER = 100
_WORKER_ORDER = 100


class DistributedMode:
    """``ADDONS`` entry: with ``NEWSSTEM_DISTRIBUTED`` set, make this crawl a worker.

    Settings are set at "project" priority, so the project's own values (its
    duplicate filter, its queues) are replaced while anything given on the
    command line (``-s``, scrapyd's ``setting=``) still wins. Without the
    setting, nothing changes.
    """

    def update_settings(self, settings: BaseSettings) -> None:
        url = distributed_url(settings)
        if not url:
            return
        # Imported here: scrapy-redis is needed in distributed mode only.
        from newsstem.distributed.dupefilter import SiteDupeFilter
        from newsstem.distributed.middlewares import ScopeDepthMiddleware, ScopeOffsiteMiddleware
        from newsstem.distributed.scheduler import RedisScheduler
        from newsstem.distributed.worker import Worker

        for name, value in {
            "REDIS_URL": url,
            "SCHEDULER": f"{RedisScheduler.__module__}.{RedisScheduler.__name__}",
            "SCHEDULER_QUEUE_CLASS": "scrapy_redis.queue.PriorityQueue",
            "SCHEDULER_QUEUE_KEY": QUEUE_KEY,
            "DUPEFILTER_CLASS": f"{SiteDupeFilter.__module__}.{SiteDupeFilter.__name__}",
            # The queue and the filter belong to the crawl, not to one worker: the
            # first worker to stop must not flush them (scrapy-redis's default).
            "SCHEDULER_PERSIST": True,
            "SCHEDULER_FLUSH_ON_START": False,
            # > 0 turns pops into blocking Redis calls that stall the reactor.
            "SCHEDULER_IDLE_BEFORE_CLOSE": 0,
        }.items():
            settings.set(name, value, priority="project")
        # scrapy-redis's client waits 30 s for a reply and then tries again: a paused Redis
        # froze the worker a minute per call. Ours: 5 s, once (a blocking pop given with -s
        # keeps its seconds).
        settings.set(
            "REDIS_PARAMS",
            scheduler_redis_params(settings.getint("SCHEDULER_IDLE_BEFORE_CLOSE")),
            priority="project",
        )
        # The URL store on the same Redis, unless the user chose one. A value given with
        # -s (scrapyd's setting=) or a spider's custom_settings, even the default's, sits
        # above "project" and stays; at "project" the defaults' value (newsstem.defaults,
        # imported by settings.py) cannot be told from a settings.py that repeats it.
        if settings.get("NEWSSTEM_URLDB", defaults.NEWSSTEM_URLDB) == defaults.NEWSSTEM_URLDB:
            settings.set("NEWSSTEM_URLDB", url, priority="project")
        for name, component, order in (
            # robots.txt obeyed by every worker, without Scrapy 2.14-2.19's first-wave race
            ("DOWNLOADER_MIDDLEWARES", RobotsTxtMiddleware, None),
            ("DOWNLOADER_MIDDLEWARES", SafeRobotsTxtMiddleware, _ROBOTS_ORDER),
            # sites and depth limits come with each request's scope
            ("DOWNLOADER_MIDDLEWARES", OffsiteMiddleware, None),
            ("DOWNLOADER_MIDDLEWARES", ScopeOffsiteMiddleware, _OFFSITE_ORDER),
            ("SPIDER_MIDDLEWARES", DepthMiddleware, None),
            ("SPIDER_MIDDLEWARES", ScopeDepthMiddleware, _DEPTH_ORDER),
            ("EXTENSIONS", Worker, _WORKER_ORDER),
        ):
            _set_in_base(settings, name, component, order)


def _set_in_base(settings: BaseSettings, name: str, component: type, order: int | None) -> None:
    """*component* at *order* (None: off) in the ``*_BASE`` setting of *name*, by its import
    path: Scrapy's and newsstem's components are there, under their paths, and a component
    given in *name* itself (-s, scrapyd, a spider's custom_settings) still wins. Scrapy's
    ``set_in_component_priority_dict(name, …)`` keys the class in *name*: beside the base's
    path it is a second entry (Scrapy does not load paths to compare them), so a component
    set off stayed on and one set on ran twice."""
    base = settings.getdict(f"{name}_BASE")
    base[f"{component.__module__}.{component.__qualname__}"] = order
    settings.set(f"{name}_BASE", base, priority=settings.getpriority(f"{name}_BASE") or 0)
