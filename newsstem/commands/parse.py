"""``scrapy parse``, for the news spider with no ``-a`` needed.

``scrapy parse --spider=news URL`` without ``-a start_url`` ended in an asyncio
traceback (the spider wants something to start from). A spider that defines
``with_start(url, settings, **arguments)`` gets the parsed URL as its start URL when
the arguments give none, and its arguments are checked as ``scrapy crawl`` checks
them (``check_arguments``): a bad ``-a`` is one usage error line, exit status 2.
"""

from __future__ import annotations

import argparse

from scrapy.commands.parse import Command as ScrapyParseCommand

from newsstem.usage_errors import one_line_errors


class Command(ScrapyParseCommand):
    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        for action in parser._actions:  # Scrapy's "[default: 1]", wrapped after "[default:",
            if "--depth" in action.option_strings:  # prints as a heading (tests/test_docs.py)
                action.help = "maximum depth for parsing requests (%(default)s by default)"
        one_line_errors(parser)

    def set_spidercls(self, url: str, opts: argparse.Namespace) -> None:
        super().set_spidercls(url, opts)
        with_start = getattr(self.spidercls, "with_start", None)
        if with_start is not None:
            opts.spargs = with_start(url, self.settings, **opts.spargs)
        check = getattr(self.spidercls, "check_arguments", None)
        if check is not None:
            check(self.settings, **opts.spargs)
