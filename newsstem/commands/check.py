"""``scrapy check``: Scrapy's contracts, run without a URL store.

Contracts (``@url``, ``@returns``, ``@scrapes`` in a callback's docstring) test a spider's
callbacks on the pages they name. The news spider has none (it has no site of its own); a
spider of yours built on it may (docs/spider.md). Scrapy's check runs them as a crawl,
through the project's spider middlewares: with the crawl's URL store, a store that could not
be opened (a path under a file, a Redis that does not answer) failed the crawler before any
request, with ``LOG_ENABLED`` off (check's default) said nothing of it, and ended in ``Ran 0
contracts`` and ``OK``, exit status 0, a gate that passed while it checked nothing; a store
that could be opened recorded the contracts' pages as seen. So, as ``scrapy parse`` and
``scrapy shell`` do, it runs without one (``NEWSSTEM_URLDB`` empty, whatever the settings
or ``-s`` say). A spider name the project does not have is one usage error line (Scrapy's
answer was a KeyError traceback).

A spider that defines ``with_start(url, settings, **arguments)`` (the news spider and its
subclasses) and is given nothing to start from (no ``start_url``, ``NEWSSTEM_START_URLS``
or ``start_urls``) starts from the ``@url`` of its first contract, as ``scrapy parse``
starts from its URL: it could not be built (``give at least one start URL``), and check
said ``Ran 0 contracts``, ``OK``, exit status 0.
"""

from __future__ import annotations

import argparse
import inspect
import re
from typing import Any

from scrapy.commands.check import Command as ScrapyCheckCommand
from scrapy.spiderloader import get_spider_loader

from newsstem.commands import WithoutUrlDb, load_spider


class Command(WithoutUrlDb, ScrapyCheckCommand):
    def process_options(self, args: list[str], opts: argparse.Namespace) -> None:
        super().process_options(args, opts)
        loader = get_spider_loader(self.settings)
        for name in args:
            load_spider("check", loader, name)

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        assert self.crawler_process is not None and self.settings is not None
        crawl = self.crawler_process.crawl
        settings = self.settings

        def crawl_from_its_contract(spidercls: Any, *crawl_args: Any, **arguments: Any) -> Any:
            with_start = getattr(spidercls, "with_start", None)
            url = _first_contract_url(spidercls)
            if with_start is not None and url is not None:
                spider_settings = settings.copy()
                spidercls.update_settings(spider_settings)
                arguments = with_start(url, spider_settings, **arguments)
            return crawl(spidercls, *crawl_args, **arguments)

        self.crawler_process.crawl = crawl_from_its_contract  # type: ignore[method-assign]
        try:
            super().run(args, opts)
        finally:
            self.crawler_process.crawl = crawl  # type: ignore[method-assign]


_URL_CONTRACT = re.compile(r"^\s*@url\s+(\S+)", re.MULTILINE)


def _first_contract_url(spidercls: type) -> str | None:
    """The ``@url`` of the first of ``spidercls``'s methods (by name) that has one."""
    for _, method in sorted(inspect.getmembers(spidercls, callable), key=lambda m: m[0]):
        match = _URL_CONTRACT.search(inspect.getdoc(method) or "")
        if match:
            return match.group(1)
    return None
