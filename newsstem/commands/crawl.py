"""``scrapy crawl``, checking spider arguments before anything starts.

Scrapy reports an exception raised while building a spider as an asyncio
traceback. A spider that defines ``check_arguments(settings, **arguments)``
gets its arguments validated here first, so a bad ``-a`` ends in one usage
error line and exit status 2, before any request is made. So does a pattern
file of ``NEWSSTEM_PATTERNS_DIR`` that cannot be used (read here, before Scrapy
starts; the lines reading logs are logged once it has).

The URL store (when its middleware is enabled) is opened and checked here too:
an unwritable path, a corrupt file, an unreachable Redis or a bad URI ends in
one error line and exit status 1, before any request. So does an archive
(``NEWSSTEM_ARCHIVE``) that cannot be written, and the Redis of distributed mode
that does not answer. These are checked before Scrapy starts (and logs its versions,
settings and components): the error line is all the command prints. A feed file
(``-O``) or ``NEWSSTEM_STATS_FILE`` that cannot be written is a usage error line
(exit status 2), as a bad argument.

After the run: a crawl that reached nothing because every request failed
(:class:`newsstem.operations.RunReport`) exits with status 3, so cron and
schedulers see it. A crawl stopped by force (a second Ctrl-C or SIGTERM: Scrapy
stops at once, the engine never closes, so there is no summary) says so in one
line (on stderr, and last in LOG_FILE) and exits with status 1, not 0 as a crawl that ran.
The lines written to LOG_FILE here follow its LOG_FORMAT and LOG_DATEFORMAT.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from scrapy.commands.crawl import Command as ScrapyCrawlCommand
from scrapy.exceptions import UsageError
from scrapy.settings import default_settings
from scrapy.spiderloader import get_spider_loader
from scrapy.utils.log import get_scrapy_root_handler

from newsstem import defaults
from newsstem.archive import ArchiveError, check_writable
from newsstem.commands import URLDB_MIDDLEWARE, load_spider, spider_names
from newsstem.distributed import DistributedError, DistributedMode
from newsstem.distributed.connection import connect
from newsstem.distributed.options import DistributedOptions
from newsstem.extensions import relearn_problem
from newsstem.layout.patterns import PatternFileError, PatternLibrary
from newsstem.operations import EXIT_NOTHING_REACHED, RunReport
from newsstem.paths import check_feed_options, check_outputs
from newsstem.pipelines import hand_patterns, load_patterns_before_logging, log_later
from newsstem.setting_values import (
    check_components,
    check_dict_options,
    check_setting_types,
    read_allowed_codes,
)
from newsstem.spiders.news import ARGUMENT_HELP
from newsstem.usage_errors import one_line_errors

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.crawler import Crawler
    from scrapy.settings import Settings


def _check_browser(settings: object, argument: object) -> None:
    """Browser mode without a browser: one usage error line (exit status 2), no request."""
    from newsstem import render

    if render.wants_render(settings, argument):  # type: ignore[arg-type]
        try:
            render.browser_path(settings)  # type: ignore[arg-type]
        except render.RenderError as error:
            # (no "newsstem: " before it: "scrapy: error: newsstem: ..." had two prefixes,
            # the other usage errors one)
            raise UsageError(str(error), print_help=False) from None


def _option_settings(settings: Settings, opts: argparse.Namespace) -> Settings:
    """``settings`` with ``-s NAME=VALUE`` and ``--logfile`` applied, as Scrapy's
    process_options applies them: the ``-O DIR`` check runs before it has (a directory
    would be Scrapy's "Unrecognized output format ''"), and its line went to stderr only,
    or to LOG_FILE in the default format, not the ``-s LOG_FORMAT`` given."""
    settings = settings.copy()
    for value in getattr(opts, "set", None) or []:
        name, equals, given = value.partition("=")
        if not equals:  # (no "=": Scrapy's own usage error)
            continue
        try:
            settings.set(name, given, priority="cmdline")
        except (TypeError, ValueError):  # (a dict setting's value no JSON object: its error)
            continue
    if getattr(opts, "logfile", None):
        settings.set("LOG_FILE", opts.logfile, priority="cmdline")
    return settings


def _log_file_line(settings: Settings, line: str) -> None:
    """Write ``line`` (an ERROR) to the crawl's ``LOG_FILE``, if it has one, in its
    ``LOG_FORMAT`` and ``LOG_DATEFORMAT``: through Scrapy's handler of that file once the
    crawl has run (a forced stop: Scrapy is done logging, the line is the last), else
    written as that handler would (a crawl that never started: Scrapy's logging, not yet
    set up, would not write it): appended, or, with ``LOG_FILE_APPEND=False``, as the
    file's only line (Scrapy opens it in "w" mode: an older run's lines read as this one's)."""
    path = settings.get("LOG_FILE")
    if not path:
        return
    record = logging.LogRecord("newsstem", logging.ERROR, __file__, 0, line, None, None)
    handler = get_scrapy_root_handler()
    if isinstance(handler, logging.FileHandler) and handler.baseFilename == os.path.abspath(path):
        handler.handle(record)  # (its file may be open in "w" mode: LOG_FILE_APPEND=False)
        return
    try:
        append = settings.getbool("LOG_FILE_APPEND", True)
    except ValueError:  # (LOG_FILE_APPEND=maybe: Scrapy refuses it later; the line is kept)
        append = True
    try:
        text = logging.Formatter(settings.get("LOG_FORMAT"),
                                 settings.get("LOG_DATEFORMAT")).format(record)
    except (ValueError, TypeError, KeyError):  # a LOG_FORMAT naming no record field
        text = logging.Formatter(default_settings.LOG_FORMAT,
                                 default_settings.LOG_DATEFORMAT).format(record)
    try:
        with open(path, "a" if append else "w",
                  encoding=settings.get("LOG_ENCODING") or "utf-8") as log:
            log.write(text + "\n")
    except OSError:  # the line is on stderr still
        pass


#: the ``news`` spider's arguments (``-a NAME=VALUE``) as ``scrapy crawl -h`` lists them:
#: its usage errors say "see scrapy crawl -h". The spider's own
#: :data:`~newsstem.spiders.news.ARGUMENT_HELP`, the one text of them (docs/spider.md's
#: table starts each meaning with it: tests/test_docs.py)
SPIDER_ARGUMENTS = ARGUMENT_HELP


def _read_allowed_codes(settings: Settings, crawl_settings: Settings) -> None:
    """``HTTPERROR_ALLOWED_CODES`` made numbers (:func:`read_allowed_codes`) in the
    command's ``settings``, and checked in ``crawl_settings`` (a spider's ``custom_settings``
    too): codes the spider gives as strings are set, as numbers, above them."""
    read_allowed_codes(settings)
    if crawl_settings is settings:
        return
    given = crawl_settings.getlist("HTTPERROR_ALLOWED_CODES")
    read_allowed_codes(crawl_settings)
    numbers = crawl_settings.getlist("HTTPERROR_ALLOWED_CODES")
    if numbers != given:  # (the spider's priority: the crawler would read its strings)
        settings.set("HTTPERROR_ALLOWED_CODES", numbers, priority="cmdline")


class Command(ScrapyCrawlCommand):
    # read by process_options(), handed to the crawler's pipeline; the lines loading logged
    _patterns: PatternLibrary | None = None
    _pattern_log: Sequence[logging.LogRecord] = ()
    _unusable = False  # the URL store, Redis or the archive cannot be used: exit status 1
    # the settings the crawler will have (the project's, -s, the spider's custom_settings),
    # which the checks before the crawl read
    _crawl_settings: Settings | None = None

    def long_desc(self) -> str:
        # (no line may end in a colon: Scrapy's help formatter makes it a heading)
        return (
            "Run a spider of the current project, by name, news for newsstem's crawl. "
            "Its arguments, each given as -a NAME=VALUE; "
            + "; ".join(f"{name}, {meaning}" for name, meaning in SPIDER_ARGUMENTS.items())
            + ". Example, scrapy crawl news -a start_url=https://site/ -a depth=2 "
            "-O articles.jsonl (docs/spider.md; settings with -s NAME=VALUE, "
            "docs/reference/settings.md)."
        )

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        one_line_errors(parser)

    def process_options(self, args: list[str], opts: argparse.Namespace) -> None:
        """Bad arguments or settings: one usage error line, before Scrapy starts (and logs
        its versions and settings). With ``LOG_FILE`` given (a scrapyd job's log), the line
        goes there too: scrapyd puts a job's stderr in its own log only, and the job's log
        file, the one an operator opens, was never made."""
        try:
            self._process_options(args, opts)
        except UsageError as error:
            if self._crawl_settings is not None:  # (a spider's custom_settings may name it)
                _log_file_line(self._crawl_settings, f"scrapy: error: {error}")
            elif self.settings is not None:
                _log_file_line(_option_settings(self.settings, opts), f"scrapy: error: {error}")
            raise

    def _say(self, line: str, settings: Settings | None = None) -> None:
        """One line of a crawl that cannot start (exit status 1) or that was stopped by
        force: stderr (a terminal, scrapyd's own log), and LOG_FILE (the job's log) of
        ``settings`` (the crawler's: a spider's ``custom_settings`` may name it), or the
        command's."""
        print(line, file=sys.stderr)
        settings = settings if settings is not None else self._crawl_settings
        if settings is not None:
            _log_file_line(settings, line)

    def _process_options(self, args: list[str], opts: argparse.Namespace) -> None:
        check_feed_options(opts, "crawl")  # (a directory: before Scrapy reads it)
        check_dict_options(self.settings, opts.set)  # (-s FEEDS={bad: before Scrapy reads it)
        super().process_options(args, opts)
        assert self.settings is not None
        unknown = next((arg for arg in args if arg.startswith("-") and arg != "-"), None)
        if unknown is not None:  # Scrapy took it for a second spider's name
            name = unknown.lstrip("-").split("=", 1)[0]
            raise UsageError(
                f"crawl: unknown option {unknown!r}; spider arguments are given with -a "
                f"(-a {name}=VALUE)",
                print_help=False,
            )
        if not args:  # (Scrapy's answer: its start-up log, then its whole usage block)
            raise UsageError(
                "crawl: give the spider to run, e.g. scrapy crawl news -a "
                "start_url=https://site/ -O articles.jsonl (this project's spiders: "
                f"{spider_names(get_spider_loader(self.settings))})",
                print_help=False,
            )
        # the settings the crawler will have: a spider's custom_settings too (a subclass
        # giving NEWSSTEM_START_URLS there was told "give at least one start URL"), which
        # every check below reads: given there, an unusable URL store or archive, or a
        # FEEDS file that cannot be written, passed the project's checks and ended in a
        # traceback once the crawl had started (the archive's on every page, exit status 0)
        spider_settings = self.settings
        if len(args) == 1:
            spidercls = load_spider("crawl", get_spider_loader(self.settings), args[0])
            spider_settings = self.settings.copy()
            spidercls.update_settings(spider_settings)
            check = getattr(spidercls, "check_arguments", None)
            if check is not None:
                check(spider_settings, **opts.spargs)
                _check_browser(spider_settings, opts.spargs.get("render"))
        self._crawl_settings = spider_settings
        check_setting_types(spider_settings)  # values given as strings (-s, scrapyd)
        check_components(spider_settings)  # a misspelt ITEM_PIPELINES path
        _read_allowed_codes(self.settings, spider_settings)  # (strings: Scrapy allows none)
        problem = relearn_problem(spider_settings)  # not a warning in the middle of the log
        if problem is not None:
            raise UsageError(problem, print_help=False)
        try:  # a corrupt pattern file: one clear line, before any request
            self._patterns, self._pattern_log = load_patterns_before_logging(spider_settings)
        except PatternFileError as error:
            raise UsageError(f"crawl: {error}", print_help=False) from None
        check_outputs(spider_settings, "crawl")  # -O, NEWSSTEM_STATS_FILE, feed fields, -o
        if len(args) == 1 and not (
            self._check_distributed() and self._check_jobdir() and self._check_url_store(opts)
            and self._check_archive()
        ):  # one line said why: Scrapy is not started, so nothing comes after it
            self.requires_crawler_process = False
            self._unusable = True
            self.exitcode = 1

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if self._unusable:
            return None
        log_later(self._pattern_log)  # which sites have patterns, now that Scrapy logs
        self._crawler: Crawler | None = None
        super().run(args, opts)
        report = self._run_report()
        if self.exitcode == 0 and report is not None and report.summary is None:
            # the engine never stopped: Scrapy's forced shutdown (a second Ctrl-C/SIGTERM)
            self._say(
                "newsstem: the crawl was stopped by force (a second Ctrl-C or SIGTERM) "
                "before its end: no run summary"
                + (
                    "; articles not yet recorded in the URL store are exported again by "
                    "the next crawl"
                    if report.url_store
                    else ""
                ),
                self._crawler.settings if self._crawler is not None else None,
            )
            self.exitcode = 1
        if self.exitcode == 0 and report is not None and report.reached_nothing:
            self.exitcode = EXIT_NOTHING_REACHED
        if self.exitcode == 0 and report is not None and report.summary is not None:
            if report.summary.finish_reason == "redis_error":  # a worker that lost Redis
                self.exitcode = 1

    def _run_report(self) -> RunReport | None:
        """The crawl's run report; None if the crawler failed while being built (its
        extensions never made: Scrapy has logged why, and that must stay the last word)."""
        if self._crawler is None:
            return None
        try:
            return self._crawler.get_extension(RunReport)
        except RuntimeError:  # "can only be called after the extension manager has been created"
            return None

    def _create_crawler(self, spidercls: type[Spider] | str) -> Crawler:
        self._crawler = super()._create_crawler(spidercls)
        if self._patterns is not None:  # read above: not again by the pipeline
            hand_patterns(self._crawler, self._crawl_settings or self.settings, self._patterns)
        return self._crawler

    def _check_distributed(self) -> bool:
        """Distributed mode: its settings, and that its Redis answers; False (one line) if not."""
        try:
            options = DistributedOptions.from_settings(self._crawl_settings)
            if options.url:
                connect(options.url).close()
        except DistributedError as exc:
            self._say(f"newsstem: {exc}")
            return False
        return True

    def _check_jobdir(self) -> bool:
        """The ``JOBDIR`` is not in use by another crawl (two scrapyd jobs of a project
        whose settings give one JOBDIR); False (and one error line) if it is."""
        from newsstem.dupefilter import jobdir_in_use

        path = self._crawl_settings.get("JOBDIR")
        reason = jobdir_in_use(path) if path else None
        if reason:
            self._say(f"newsstem: {reason}")
            return False
        return True

    def _check_archive(self) -> bool:
        """``NEWSSTEM_ARCHIVE`` can be written; False (and one error line) if not. The
        writer opens it with the first page: failing there lost the crawl's output."""
        path = self._crawl_settings.get("NEWSSTEM_ARCHIVE", defaults.NEWSSTEM_ARCHIVE)
        if not path:
            return True
        try:
            check_writable(path)
        except ArchiveError as exc:
            self._say(f"newsstem: archive error: {exc}")
            return False
        return True

    def _check_url_store(self, opts: argparse.Namespace) -> bool:
        """Open the URL store the crawl will use; False (and one error line) if it is unusable."""
        settings = self._crawl_settings.copy()
        DistributedMode().update_settings(settings)  # distributed: the store may be its Redis
        if settings.getwithbase("SPIDER_MIDDLEWARES").get(URLDB_MIDDLEWARE) is None:
            return True
        from newsstem.urldb import StoreError
        from newsstem.urldb.middleware import check_crawl

        try:
            check_crawl(settings, opts.spargs)
        except StoreError as exc:
            self._say(f"newsstem: URL store error: {exc}")
            return False
        return True
