"""newsstem's Scrapy commands (``COMMANDS_MODULE = "newsstem.commands"``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from scrapy.exceptions import UsageError

from newsstem.usage_errors import one_line_errors

if TYPE_CHECKING:
    import argparse

    from scrapy import Spider
    from scrapy.settings import BaseSettings
    from scrapy.spiderloader import SpiderLoader

# The URL store's middleware, in newsstem's SPIDER_MIDDLEWARES_BASE.
URLDB_MIDDLEWARE = "newsstem.urldb.middleware.UrlDbMiddleware"


def spider_names(loader: SpiderLoader) -> str:
    """The project's spiders, for a usage error: ``news`` (``none`` without any)."""
    return ", ".join(sorted(loader.list())) or "none"


def load_spider(command: str, loader: SpiderLoader, name: str) -> type[Spider]:
    """The project's spider ``name``; a misspelt one is a usage error line naming the
    project's spiders (Scrapy's answer was a KeyError traceback after its logs)."""
    try:
        return loader.load(name)
    except KeyError:
        raise UsageError(
            f"{command}: no spider named {name!r} (this project's spiders: "
            f"{spider_names(loader)})",
            print_help=False,
        ) from None


def leave_out_urldb_middleware(settings: BaseSettings) -> None:
    """The URL store's middleware left out (above -s and the project's settings) by the
    commands that run without a store, not disabled with a line at every run."""
    middlewares = settings.getdict("SPIDER_MIDDLEWARES")
    middlewares[URLDB_MIDDLEWARE] = None
    settings.set("SPIDER_MIDDLEWARES", middlewares, priority="cmdline")


def run_without_urldb(settings: BaseSettings) -> None:
    """No URL store (``NEWSSTEM_URLDB`` empty, above -s and the project's settings: a
    spider's custom_settings rank lower) and its middleware left out, whose INFO line
    ("no URL store ...: every article of the crawl is exported") is untrue here."""
    settings.set("NEWSSTEM_URLDB", "", priority="cmdline")
    leave_out_urldb_middleware(settings)


class WithoutUrlDb:
    """Mixin of the commands that read pages of a site without crawling it (``parse``,
    ``shell``, ``check``), before Scrapy's command class: usage errors as one line, and
    no URL store (:func:`run_without_urldb`), whatever the settings or ``-s`` say."""

    settings: Any

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)  # type: ignore[misc]
        one_line_errors(parser)

    def process_options(self, args: list[str], opts: argparse.Namespace) -> None:
        super().process_options(args, opts)  # type: ignore[misc]
        assert self.settings is not None
        run_without_urldb(self.settings)
