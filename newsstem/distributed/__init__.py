"""Distributed mode: the ``news`` spider as one worker of a crawl shared through Redis.

One setting switches it on, ``NEWSSTEM_DISTRIBUTED=redis://host:6379/0``; the
add-on :class:`~newsstem.distributed.addon.DistributedMode` (in ``ADDONS``)
then configures the crawl:

- **scheduler**: scrapy-redis's, with one priority queue shared by every worker
  (``newsstem:<spider>:requests``, breadth-first: shallower pages first) that
  outlives the workers (``SCHEDULER_PERSIST``), and non-blocking pops (a
  blocking pop would stall Twisted's reactor) — :mod:`.scheduler`;
- **duplicate filter**: one Redis set per site (``newsstem:<spider>:dupefilter:<site>``)
  of Scrapy request fingerprints, forgotten ``NEWSSTEM_DISTRIBUTED_FORGET``
  seconds after the site's last link: within a crawl no page is fetched twice
  by any worker; a later crawl fetches the hubs again — :mod:`.dupefilter`;
- **start URLs**: each worker's ``-a start_url`` (the shared filter keeps one of
  each), and start messages pushed to ``newsstem:<spider>:start_urls`` (a URL, or
  a JSON object of spider arguments), read by idle workers — :mod:`.worker`;
- **scopes**: every request carries the scope of its start URL, so any worker
  applies the right sites, rules and depth to it — :mod:`.middlewares`;
- **URL store**: the same Redis, unless ``NEWSSTEM_URLDB`` was changed;
- **robots.txt**: ``SafeRobotsTxtMiddleware`` on every worker (each fetches a
  site's robots.txt once for itself);
- **hand-off**: what a worker takes from the queue stays recorded in Redis until its
  page is done; the requests of a worker whose heartbeat lapsed (killed, out of memory)
  go back in the queue, put there by a live worker — :mod:`.handoff`;
- **workers** stay up while the queue refills and stop after
  ``NEWSSTEM_DISTRIBUTED_IDLE`` seconds without work, or cleanly on SIGTERM/SIGINT.

scrapy-redis's own duplicate filter, stats collector (broken on Scrapy 2.19)
and spiders are not used.
"""

from __future__ import annotations

from newsstem.distributed.addon import DistributedMode
from newsstem.distributed.connection import (
    DUPEFILTER_KEY,
    QUEUE_KEY,
    START_KEY,
    DistributedError,
    distributed_url,
)

__all__ = [
    "DUPEFILTER_KEY",
    "QUEUE_KEY",
    "START_KEY",
    "DistributedError",
    "DistributedMode",
    "distributed_url",
]
