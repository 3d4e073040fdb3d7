"""``scrapy shell``, for the news spider with no ``-a`` needed (Scrapy's shell takes none).

Scrapy's shell makes its spider without arguments, and the news spider needs something to
start from (``news: give at least one start URL``). As in ``scrapy parse``, a spider that
defines ``with_start(url, settings, **arguments)`` gets the shell's URL as its start URL,
checked as ``scrapy crawl`` checks it (``check_arguments``). A ``--spider`` name the
project does not have is one usage error line (Scrapy's shell gives a KeyError traceback),
and so is ``--spider`` with such a spider and no URL (there is nothing to start it from).

``scrapy shell`` runs without a URL store (``NEWSSTEM_URLDB`` empty, whatever the settings
or ``-s`` say), as ``scrapy parse`` does: a shell session is no crawl, and with the crawl's
store it would hold the store's lease as long as it stays open (``scrapy urldb prune``
refuses to run) and warn that no feed output means no article marked exported.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from scrapy import Request
from scrapy.commands.shell import Command as ScrapyShellCommand
from scrapy.exceptions import UsageError
from scrapy.shell import Shell
from scrapy.spiderloader import get_spider_loader
from scrapy.utils.spider import DefaultSpider, spidercls_for_request
from scrapy.utils.url import guess_scheme

from newsstem.commands import WithoutUrlDb, load_spider

if TYPE_CHECKING:
    from scrapy import Spider


class Command(WithoutUrlDb, ScrapyShellCommand):
    def process_options(self, args: list[str], opts: argparse.Namespace) -> None:
        super().process_options(args, opts)
        if opts.spider:
            spidercls = load_spider("shell", get_spider_loader(self.settings), opts.spider)
            if getattr(spidercls, "with_start", None) is not None and not args:
                raise UsageError(
                    f"shell: --spider={opts.spider} needs the URL to start from "
                    f"(scrapy shell --spider={opts.spider} https://site/page.html)",
                    print_help=False,
                )

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        # Scrapy's run(), but the spider is made here, with the URL as its start
        url = guess_scheme(args[0]) if args else None
        assert self.crawler_process
        loader = self.crawler_process.spider_loader
        spidercls: type[Spider] = DefaultSpider
        if opts.spider:
            spidercls = loader.load(opts.spider)
        elif url:
            spidercls = spidercls_for_request(loader, Request(url), spidercls, log_multiple=True)
        arguments = self._start_arguments(spidercls, url)
        crawler = self.crawler_process._create_crawler(spidercls)
        crawler._apply_settings()
        loop = None
        if crawler.settings.getbool("TWISTED_REACTOR_ENABLED"):
            self._init_with_reactor(crawler)
        else:
            self._init_without_reactor(crawler)
            loop = self._get_reactorless_loop()
        spider = None if arguments is None else crawler._create_spider(**arguments)
        shell = Shell(crawler, update_vars=self.update_vars, code=opts.code, loop=loop)
        shell.start(url=url, spider=spider, redirect=not opts.no_redirect)

    def _start_arguments(self, spidercls: type[Spider], url: str | None) -> dict | None:
        """The arguments of a spider that needs a start (``with_start``), checked; None
        for another spider (the shell makes it as Scrapy does)."""
        with_start = getattr(spidercls, "with_start", None)
        if with_start is None or url is None:
            return None
        assert self.settings is not None
        arguments = with_start(url, self.settings)
        check = getattr(spidercls, "check_arguments", None)
        if check is not None:
            check(self.settings, **arguments)
        return arguments

