"""``scrapy crawl``, checking spider arguments before anything starts.

Scrapy reports an exception raised while building a spider as an asyncio
traceback. A spider that defines ``check_arguments(settings, **arguments)``
gets its arguments validated here first, so a bad ``-a`` ends in one usage
error line and exit status 2, before any request is made. So does a pattern
file of ``NEWSSTEM_PATTERNS_DIR`` that cannot be used.
"""

from __future__ import annotations

import argparse

from scrapy.commands.crawl import Command as ScrapyCrawlCommand
from scrapy.exceptions import UsageError

from newsstem.layout.patterns import PatternFileError
from newsstem.pipelines import load_patterns


class Command(ScrapyCrawlCommand):
    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if len(args) == 1 and self.crawler_process is not None:
            try:
                spidercls = self.crawler_process.spider_loader.load(args[0])
            except KeyError:  # unknown spider: Scrapy's own command says so
                return super().run(args, opts)
            check = getattr(spidercls, "check_arguments", None)
            if check is not None:
                check(self.settings, **opts.spargs)
        try:  # a corrupt pattern file: one clear line, before any request
            load_patterns(self.settings)
        except PatternFileError as error:
            raise UsageError(str(error), print_help=False) from None
        super().run(args, opts)
