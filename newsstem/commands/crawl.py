"""``scrapy crawl``, checking spider arguments before anything starts.

Scrapy reports an exception raised while building a spider as an asyncio
traceback. A spider that defines ``check_arguments(settings, **arguments)``
gets its arguments validated here first, so a bad ``-a`` ends in one usage
error line and exit status 2, before any request is made. So does a pattern
file of ``NEWSSTEM_PATTERNS_DIR`` that cannot be used.

The URL store (when its middleware is enabled) is opened and checked here too:
an unwritable path, a corrupt file, an unreachable Redis or a bad URI ends in
one error line and exit status 1, before any request.
"""

from __future__ import annotations

import argparse
import sys

from scrapy.commands.crawl import Command as ScrapyCrawlCommand
from scrapy.exceptions import UsageError

from newsstem.layout.patterns import PatternFileError
from newsstem.pipelines import load_patterns

URLDB_MIDDLEWARE = "newsstem.urldb.middleware.UrlDbMiddleware"


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
        if len(args) == 1 and self._check_url_store(opts) is False:
            self.exitcode = 1
            return None
        super().run(args, opts)

    def _check_url_store(self, opts: argparse.Namespace) -> bool:
        """Open the URL store the crawl will use; False (and one error line) if it cannot be used."""
        if self.settings.getwithbase("SPIDER_MIDDLEWARES").get(URLDB_MIDDLEWARE) is None:
            return True
        from newsstem.urldb import StoreError
        from newsstem.urldb.middleware import check_crawl

        try:
            check_crawl(self.settings, opts.spargs)
        except StoreError as exc:
            print(f"newsstem: URL store error: {exc}", file=sys.stderr)
            return False
        return True
