"""``scrapy parse``, for the news spider with no ``-a`` needed.

``scrapy parse --spider=news URL`` without ``-a start_url`` ended in an asyncio
traceback (the spider wants something to start from). A spider that defines
``with_start(url, settings, **arguments)`` gets the parsed URL as its start URL when
the arguments give none, and its arguments are checked as ``scrapy crawl`` checks
them (``check_arguments``): a bad ``-a`` is one usage error line, exit status 2. So is
no URL or not one URL (Scrapy printed its whole help after its start-up log), a
``--spider`` name the project does not have, or a URL no spider claims without
``--spider`` (Scrapy logged an ERROR line after its start-up log and exited with 0).

``scrapy parse`` runs without a URL store (``NEWSSTEM_URLDB`` empty, whatever the
settings or ``-s`` say): it looks at one page, it is no crawl. With the crawl's store it
recorded the page and its links as seen (and, with ``-O``, the article as exported) as
if a crawl had taken them, and it held the store's lease (``scrapy urldb prune`` refused).
"""

from __future__ import annotations

import argparse

from scrapy import Request
from scrapy.commands.parse import Command as ScrapyParseCommand
from scrapy.exceptions import UsageError
from scrapy.spiderloader import get_spider_loader
from scrapy.utils.spider import spidercls_for_request
from w3lib.url import is_url

from newsstem.commands import WithoutUrlDb, load_spider, spider_names


class Command(WithoutUrlDb, ScrapyParseCommand):
    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        for action in parser._actions:  # Scrapy's "[default: 1]", wrapped after "[default:",
            if "--depth" in action.option_strings:  # prints as a heading (tests/test_docs.py)
                action.help = "maximum depth for parsing requests (%(default)s by default)"

    def process_options(self, args: list[str], opts: argparse.Namespace) -> None:
        super().process_options(args, opts)
        if len(args) != 1 or not is_url(args[0]):
            given = f"not {' '.join(args)!r}" if args else "none was given"
            raise UsageError(f"parse: give one URL to parse ({given})", print_help=False)
        loader = get_spider_loader(self.settings)
        if opts.spider:
            load_spider("parse", loader, opts.spider)
        elif spidercls_for_request(loader, Request(args[0])) is None:
            raise UsageError(
                f"parse: no spider of this project is for {args[0]}; name one with "
                f"--spider (this project's spiders: {spider_names(loader)})",
                print_help=False,
            )

    def set_spidercls(self, url: str, opts: argparse.Namespace) -> None:
        super().set_spidercls(url, opts)
        with_start = getattr(self.spidercls, "with_start", None)
        if with_start is not None:
            opts.spargs = with_start(url, self.settings, **opts.spargs)
        check = getattr(self.spidercls, "check_arguments", None)
        if check is not None:
            check(self.settings, **opts.spargs)
