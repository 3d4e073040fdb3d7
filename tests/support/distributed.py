"""Worker processes of a distributed crawl (``scrapy crawl news`` with NEWSSTEM_DISTRIBUTED)."""

from __future__ import annotations

import time

from support.crawlprocess import CrawlProcess, start_crawl

READY_TIMEOUT = 60.0


def start_worker(tmp_path, redis_url, name, *args, **settings) -> CrawlProcess:
    """``scrapy crawl news [args] -O <name>.jsonl`` as a worker of the crawl in ``redis_url``."""
    return start_crawl(
        tmp_path,
        *args,
        settings={
            "NEWSSTEM_DISTRIBUTED": redis_url,
            "NEWSSTEM_URLDB": redis_url,
            "NEWSSTEM_DISTRIBUTED_IDLE": "3",
            **settings,
        },
        name=name,
    )


def wait_ready(*workers: CrawlProcess) -> None:
    """Until every worker has opened its spider (and so polls Redis)."""
    deadline = time.monotonic() + READY_TIMEOUT
    for worker in workers:
        while "newsstem: distributed worker on" not in worker.log():
            assert worker.process.poll() is None, worker.log()
            assert time.monotonic() < deadline, worker.log()
            time.sleep(0.1)
