"""``scrapy urldb``: look into the URL store and prune it.

::

    scrapy urldb stats                        URLs, articles, copies, texts, size, time range
    scrapy urldb show URL [URL ...]           what the store knows about URLs
    scrapy urldb prune --older-than 30d       remove entries not seen for 30 days
              [--dry-run] [--wait SECONDS]

``--urldb URI`` picks a store (default: the ``NEWSSTEM_URLDB`` setting, or, when it is
left at its default, the Redis of ``NEWSSTEM_DISTRIBUTED``, as for a crawl).
``prune`` takes the store's exclusive lease: it refuses to run while a crawl
holds the store (or waits for it with ``--wait``), and crawls do not start
while it runs. ``stats`` and ``show`` only read: they leave a store of an older schema
as it is (an upgrade would lock out the older newsstem still using it); prune upgrades it,
as crawls do. Exit status: 0 done, 1 store error or URL not found, 2 usage error.
"""

from __future__ import annotations

import argparse
import difflib
import os
import sys
import time
from typing import TYPE_CHECKING

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError
from w3lib.url import canonicalize_url

from newsstem.distributed.connection import DistributedError, urldb_of
from newsstem.rules import is_crawlable_scheme, site_of, strip_tracking
from newsstem.spiders.news import tracking_params
from newsstem.urldb import (
    StoreBusy,
    StoreError,
    UrlEntry,
    UrlStore,
    format_time,
    open_store,
    parse_age,
    url_key,
)
from newsstem.urldb.store import COPY, PRUNE_ADVICE, TEXT
from newsstem.usage_errors import one_line_errors

if TYPE_CHECKING:
    from newsstem.urldb import Lease

ACTIONS = ("stats", "show", "prune")
READ_ONLY_ACTIONS = ("stats", "show")
# argparse's error for `--older-than -3d` (a value starting with '-' is taken for an
# option) and for no value at all
OLDER_THAN_FORM = (
    "--older-than needs an age after it, such as --older-than 30d (units s m h d w; "
    "no sign: 30d is the entries not seen for 30 days)"
)
# While --wait runs, try to take the lease this often (seconds).
WAIT_POLL_SECONDS = 1.0


class Command(ScrapyCommand):
    requires_project = False
    requires_crawler_process = False
    default_settings = {"LOG_ENABLED": False}

    def syntax(self) -> str:
        return "stats | show URL [URL ...] | prune --older-than AGE [--dry-run] [--wait SECONDS]"

    def short_desc(self) -> str:
        return "Show figures of the URL store, look up URLs, prune stale entries"

    def long_desc(self) -> str:
        return (
            "'stats' gives the URLs, exported articles, their copies and texts, the size and "
            "time range of the store; "
            "'show URL' the first seen, last seen and export time of URLs (for a copy: "
            "that it went out as another URL's article, and the key of that URL (or of its "
            "text), or the URL when given too); "
            "'prune --older-than 30d' removes the entries whose URL was not seen for that long "
            "(units s m h d w), and refuses while a crawl holds the store unless --wait is "
            "given. The store is --urldb URI, or NEWSSTEM_URLDB (at its default with "
            "NEWSSTEM_DISTRIBUTED set: that Redis, as a crawl's)."
        )

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        one_line_errors(parser, {"--older-than": OLDER_THAN_FORM})
        parser.add_argument(
            "--urldb",
            metavar="URI",
            help="the store; default NEWSSTEM_URLDB, or the Redis of NEWSSTEM_DISTRIBUTED "
            "when NEWSSTEM_URLDB is left at its default",
        )
        parser.add_argument(
            "--older-than",
            metavar="AGE",
            help="for prune, the entries not seen for AGE (30d, 12h, 2w)",
        )
        parser.add_argument(
            "--dry-run", action="store_true", help="for prune, only count what would go"
        )
        parser.add_argument(
            "--wait",
            metavar="SECONDS",
            type=float,
            default=None,
            help="for prune, wait this long for running crawls to end (else refuse at once)",
        )

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if not args or args[0] not in ACTIONS:
            unknown = ""
            if args:  # `scrapy urldb stat` said only "give one of: ...", not what was wrong
                close = difflib.get_close_matches(args[0], ACTIONS, n=1)
                hint = f" (did you mean {close[0]}?)" if close else ""
                unknown = f"unknown action {args[0]!r}{hint}; "
            raise UsageError(f"{unknown}give one of: {', '.join(ACTIONS)}", print_help=False)
        action, rest = args[0], args[1:]
        if action != "show" and rest:
            raise UsageError(f"{action} takes no arguments besides options", print_help=False)
        # `scrapy urldb stats --older-than 30d` printed the whole store's figures, as if
        # they were those of the old entries: prune's options are prune's alone
        given = [name for name, value in (("--older-than", opts.older_than),
                                          ("--dry-run", opts.dry_run), ("--wait", opts.wait))
                 if value is not None and value is not False]  # (--wait 0 == False)
        if action != "prune" and given:
            raise UsageError(
                f"{action} takes no {', '.join(given)}: only prune does "
                "(scrapy urldb prune --older-than AGE --dry-run counts what it would remove)",
                print_help=False,
            )
        if action == "show" and not rest:
            raise UsageError("show needs at least one URL", print_help=False)
        # `show www.site.com/a.html` said "not in the store" (exit 1) of a page the crawl
        # had exported: a crawl records URLs with their scheme
        bad = next((u for u in rest if not _is_page_url(u)), None)
        if bad is not None:
            raise UsageError(
                f"show: {bad!r} is not an http(s) URL with a host; the store knows URLs "
                "as a crawl fetched them, scheme included (https://site/a.html)",
                print_help=False,
            )
        age = None
        wait = 0.0 if opts.wait is None else opts.wait
        tracking: frozenset[str] = frozenset()
        if action == "show":
            try:
                tracking = tracking_params(self.settings)
            except UsageError as exc:
                raise UsageError(str(exc), print_help=False) from None
        if action == "prune":
            if not opts.older_than:
                raise UsageError(
                    "prune needs --older-than AGE, e.g. --older-than 30d", print_help=False
                )
            try:
                age = parse_age(opts.older_than)
            except ValueError as exc:
                raise UsageError(f"--older-than: {exc}", print_help=False) from None
            if not wait >= 0:  # (NaN too: it would wait for ever)
                raise UsageError("--wait must be >= 0", print_help=False)
        if opts.urldb is not None:
            uri = str(opts.urldb).strip()  # blank is off, as in the crawl (UrlDbOptions)
        else:
            # the store a crawl with these settings uses: with NEWSSTEM_DISTRIBUTED (the one
            # setting of a worker) and NEWSSTEM_URLDB at its default, that Redis (the
            # add-on that points a crawl at it is not applied to this command)
            try:
                uri = urldb_of(self.settings)
            except DistributedError as exc:
                raise UsageError(str(exc), print_help=False) from None
        if not uri:
            raise UsageError(
                "the URL store is switched off (NEWSSTEM_URLDB is empty); give --urldb URI",
                print_help=False,
            )
        try:
            from newsstem.urldb.middleware import project_data_dir

            # stats and show only read: an older newsstem (a scrapyd's egg) may still use
            # the store, and an upgrade would lock it out; prune writes, so it upgrades
            read_only = action in READ_ONLY_ACTIONS
            with open_store(uri, project_data_dir, create=False, read_only=read_only) as store:
                if action == "stats":
                    self._stats(store)
                elif action == "show":
                    self.exitcode = self._show(store, rest, tracking)
                else:
                    self._prune(store, age, opts.dry_run, wait)
        except StoreError as exc:
            print(f"newsstem: URL store error: {exc}", file=sys.stderr)
            self.exitcode = 1
        except BrokenPipeError:  # `scrapy urldb show ... | head`: the reader has gone
            # (Python's advice: no second error when stdout is flushed at exit)
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            self.exitcode = 1

    def _stats(self, store: UrlStore) -> None:
        stats = store.stats()
        _table(
            [
                ("store", store.uri),
                ("URLs", f"{stats.urls} (links and pages seen)"),
                ("articles", f"{stats.articles} (URLs whose article was exported)"),
                (
                    "copies",
                    f"{stats.copies} (URLs recorded with an exported article: dropped "
                    "copies, redirects)",
                ),
                (
                    "texts",
                    f"{stats.texts} (headlines and openings of exported articles: one more "
                    "when an article is exported again with another)",
                ),
                ("entries", f"{stats.entries} (URLs and texts: what prune counts)"),
                ("size", f"{_size(stats.size_bytes)} ({stats.size_bytes} bytes)"),
                (
                    "first seen",
                    _range(stats.first_seen_min, stats.first_seen_max),
                ),
                (
                    "last seen",
                    _range(stats.last_seen_min, stats.last_seen_max),
                ),
            ]
        )

    def _show(self, store: UrlStore, urls: list[str], tracking: frozenset[str]) -> int:
        # a URL as a crawl keys it: a followed link without its share and tracking
        # arguments (/a.html?share=twitter is recorded as /a.html), a start URL or a
        # feed/sitemap entry as given (/a.html?utm_source=rss): the URL as given first
        forms = [_forms(url, tracking) for url in urls]
        found = store.lookup([key for each in forms for _, key in each])
        copies_of = store.copies_of([key for key, entry in found.items() if entry.kind == COPY])
        # a URL given in the same command names the article a copy repeats
        given = {key: url for url, each in zip(urls, forms) for _, key in each if key in found}
        # a copy of an article an earlier crawl exported, told by its text, repeats a text key
        texts = {
            key
            for key, entry in store.lookup(sorted(set(copies_of.values()))).items()
            if entry.kind == TEXT
        }
        status = 0
        for n, (url, each) in enumerate(zip(urls, forms)):
            if n:
                print()
            form, key = next(((f, k) for f, k in each if k in found), each[-1])
            entry = found.get(key)
            rows = [("url", url), ("canonical", canonicalize_url(form)), ("key", key.hex())]
            if entry is None:
                rows.append(("status", "not in the store"))
                status = 1
            else:
                rows += [
                    ("first seen", format_time(entry.first_seen)),
                    ("last seen", format_time(entry.last_seen)),
                    ("exported", _exported(entry, key in copies_of)),
                ]
                if key in copies_of:
                    rows.append(("repeats", _copy_of(copies_of[key], given, texts)))
            _table(rows)
        return status

    def _prune(self, store: UrlStore, age: int, dry_run: bool, wait: float) -> None:
        cutoff = int(time.time()) - age
        lease = _take_exclusive(store, wait)
        try:
            removed = store.prune(
                cutoff, dry_run=dry_run, progress=lambda done, total: lease.renew()
            )
        finally:
            lease.release()
        entries = store.stats().entries
        since = format_time(cutoff)
        if dry_run:
            print(f"would remove {removed} of {entries} entries (not seen since {since})")
        else:
            print(f"removed {removed} entries not seen since {since}; {entries} remain")


def _exported(entry: UrlEntry, known_copy: bool = False) -> str:
    if not entry.exported_at:
        return "never"
    if entry.kind == COPY:
        if known_copy:  # the key on the next line
            return (
                f"{format_time(entry.exported_at)} as a copy of another URL's article"
                " (a duplicate dropped or a redirect)"
            )
        # recorded before the store kept what a copy repeats, or by a newsstem of before
        return (
            f"{format_time(entry.exported_at)} as a copy of another URL's article"
            " (a duplicate dropped or a redirect; the store does not say which URL)"
        )
    return format_time(entry.exported_at)


def _copy_of(article: bytes, given: dict[bytes, str], texts: set[bytes]) -> str:
    """The article a copy repeats: its URL when given in the same command, else its key
    (the store keeps the md5 of URLs, not URLs), or its text's key (no URL's)."""
    if article in texts:
        return (
            f"an article of the same text, exported before (text key {article.hex()}; the "
            "store keeps no URL with a text)"
        )
    if article in given:
        return f"{given[article]} (key {article.hex()})"
    return (
        f"the URL of key {article.hex()} (the store keeps keys, not URLs: `scrapy urldb "
        "show URL` prints the key of a URL, and names it here when given with the copy)"
    )


def _forms(url: str, tracking: frozenset[str]) -> list[tuple[str, bytes]]:
    """The forms a crawl may have recorded ``url`` under, with their keys: as given, then
    without its tracking arguments (one form when it has none)."""
    stripped = strip_tracking(url, tracking)
    given, cleaned = (url, url_key(url)), (stripped, url_key(stripped))
    return [given] if cleaned[1] == given[1] else [given, cleaned]


def _take_exclusive(store: UrlStore, wait: float) -> Lease:
    deadline = time.monotonic() + wait
    while True:
        try:
            return store.lease(exclusive=True)
        except StoreBusy as busy:
            if time.monotonic() >= deadline:
                if wait > 0:  # "wait for it with --wait" tells nothing to one who did
                    still = (f"still so after waiting {wait:g} s (--wait): prune when no "
                             "crawl runs, or wait longer")
                    raise StoreBusy(str(busy).replace(PRUNE_ADVICE, still)) from None
                raise
            time.sleep(min(WAIT_POLL_SECONDS, max(0.0, deadline - time.monotonic())))


def _range(oldest: int | None, newest: int | None) -> str:
    return f"oldest {format_time(oldest)}, newest {format_time(newest)}"


def _table(rows: list[tuple[str, str]]) -> None:
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"{name:<{width}}  {value}")


def _size(size: int) -> str:
    """Bytes for people.

    >>> _size(512), _size(3 * 1024 * 1024)
    ('512 B', '3.0 MiB')
    """
    value = float(size)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if value < 1024 or unit == "GiB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    raise AssertionError("unreachable")


def _is_page_url(url: str) -> bool:
    """An http(s) URL with a host, as a crawl records them (``http://[::1/a``, which
    urlsplit cannot read, is not: it ended `show` in a traceback)."""
    try:
        return is_crawlable_scheme(url) and bool(site_of(url))
    except ValueError:
        return False
