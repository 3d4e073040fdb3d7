"""``scrapy learn [SITE] --input crawl.warc.gz [--out patterns/]``: learn layout patterns.

Reads the HTML pages of one or more WARC archives (``NEWSSTEM_ARCHIVE`` writes
them during a crawl, with the anchor texts of the links to each page), learns
the layouts of every site found (or of SITE only) and writes one pattern file
per site to ``--out`` (default ``NEWSSTEM_PATTERNS_DIR``). A site where nothing
was learned keeps its previous file. Every layout is listed with what became of
it: an article or hub pattern, or the reason it was refused (the self-check).

``--report DIR`` also writes ``DIR/index.html``: per site and pattern, the blocks in
page order with their role, scores and a text sample, and a screenshot of one member
page with the blocks outlined one colour per role, taken with the browser of browser
mode (:mod:`newsstem.render`; its archived HTML and stylesheets, no script run); without
one, the report says so and has no pictures.

``--since DATE`` or ``--last N`` learns again from the recent pages of a site (a
redesign): the patterns learned from them replace the old file, except the old
patterns of layouts that recent pages still have and no new pattern covers, and
those of layouts that no recent page has (each listed; one that would read recent
pages in place of the new patterns is dropped, and the line says so). As when a crawl
learns a site again (``NEWSSTEM_RELEARN``), the file is written only if the result reads
the recent pages better than the old file does; ``--force`` writes it anyway.

``--publish`` also publishes each file written in the Redis URL store (``NEWSSTEM_URLDB``)
for the workers of every machine to load, as a crawl's ``NEWSSTEM_RELEARN`` does
(:func:`newsstem.sharedpatterns.publish`: the file learned last on the Redis server's
clock wins). A file the store
refuses (it holds this file already, or one learned later, which stays) is one line and
not an error; a store that cannot be reached is said before anything is learned, and a
publication that fails part-way is one line and exit status 1.

``--published`` lists the files the store holds; ``--unpublish SITE`` deletes the site's
(its file and index entry, atomically; the stamps stay): the workers that loaded it keep
their copy, still ordered by its stamp against the next file published.
"""

from __future__ import annotations

import argparse
import sys
import time
from contextlib import ExitStack
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import TYPE_CHECKING

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from newsstem import defaults, render
from newsstem.archive import ArchivedPage, ArchiveError, html_pages_by_site
from newsstem.discovery import SinceError, parse_since
from newsstem.distributed.connection import DistributedError, urldb_of
from newsstem.encoding import decode_html
from newsstem.layout.learn import LearnOptions, LearnResult, TrainingPage, learn
from newsstem.layout.patterns import (
    PatternFileError,
    PatternSet,
    load_pattern_file,
    pattern_dir_problems,
    pattern_file_path,
    save_pattern_file,
)
from newsstem.layout.redesign import Relearned, patterns_key, relearn
from newsstem.layout.report import ROLE_COLOURS, site_report, write_report
from newsstem.paths import unwritable_directory
from newsstem.setting_values import check_setting_types
from newsstem.sharedpatterns import LOADED_WHEN, publish
from newsstem.text import counted
from newsstem.urldb import StoreError, hide_password, open_store, parse_uri
from newsstem.usage_errors import archive_hint, one_line_errors

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings

    from newsstem.urldb.redis_store import PublishedPatterns, RedisUrlStore


class Command(ScrapyCommand):
    requires_project = True
    requires_crawler_process = False  # reads files, crawls nothing

    def syntax(self) -> str:
        return (
            "[SITE] --input ARCHIVE [--input ARCHIVE ...] [--out DIR] "
            "[--since DATE | --last N [--force]] [--report DIR] [--publish] | --published | "
            "--unpublish SITE"
        )

    def short_desc(self) -> str:
        return "Learn the layout patterns of sites from a WARC archive of their pages"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        one_line_errors(parser)
        parser.add_argument(
            "--input", "-i", action="append", default=[], metavar="ARCHIVE",
            help="WARC archive to read (written with -s NEWSSTEM_ARCHIVE=...); may be repeated",
        )
        parser.add_argument(
            "--out", metavar="DIR",
            help="directory of the pattern files (NEWSSTEM_PATTERNS_DIR if not given)",
        )
        parser.add_argument(
            "--report", metavar="DIR",
            help="write DIR/index.html, what was learned with screenshots of each "
            "pattern's blocks (needs Chromium, as browser mode)",
        )
        recent = parser.add_mutually_exclusive_group()
        recent.add_argument(
            "--since", metavar="DATE",
            help="learn again from the pages fetched since DATE (2026-11-01 or "
            "2026-11-01T08:00:00Z), keeping old patterns still needed",
        )
        recent.add_argument(
            "--last", metavar="N", type=int,
            help="learn again from the N pages of each site fetched last, keeping old "
            "patterns still needed",
        )
        parser.add_argument(
            "--force", action="store_true",
            help="write the new file even when it reads the recent pages no better than "
            "the old one (with --since or --last)",
        )
        parser.add_argument(
            "--published", action="store_true",
            help="list the pattern files published in the Redis URL store (NEWSSTEM_URLDB), "
            "each with its site, version, when it was learned, its stamp, that time on the "
            "store's clock, which orders the files, and by whom; learns nothing",
        )
        parser.add_argument(
            "--unpublish", metavar="SITE",
            help="delete the pattern file of SITE published in the Redis URL store, so that "
            "crawls load none for it; learns nothing",
        )
        parser.add_argument(
            "--publish", action="store_true",
            help="also publish each file written in the Redis URL store (NEWSSTEM_URLDB) "
            "for the workers of every machine to load; the file learned last wins",
        )

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        assert self.settings is not None
        if opts.published:
            self.exitcode = list_published(self.settings, args, opts)
            return
        if opts.unpublish is not None:
            self.exitcode = unpublish(self.settings, args, opts)
            return
        since = _check_arguments(args, opts)
        out = opts.out or self.settings.get(
            "NEWSSTEM_PATTERNS_DIR", defaults.NEWSSTEM_PATTERNS_DIR
        )
        if not out:
            raise UsageError("learn: give the directory of the pattern files: --out DIR")
        _check_writable(out, "pattern files", "--out")
        if opts.report:
            _check_writable(opts.report, "the report", "--report")
        check_setting_types(self.settings)  # -s NEWSSTEM_MIN_ARTICLE_CHARS=-5 or =lots
        store = _publish_store(self.settings) if opts.publish else None
        if store is not None and not _store_answers(store):
            self.exitcode = 1
            return
        by_site = training_pages(opts.input, since=since, last=opts.last)
        wanted = args[0] if args else None
        recent = " (fetched in the period asked for)" if since or opts.last else ""
        if not by_site and wanted is None:  # nothing to learn from: say so, not just exit 1
            print(f"learn: no HTML page of status 200 in the archive{recent}: nothing learned",
                  file=sys.stderr)
            self.exitcode = 1
            return
        if wanted is not None and wanted not in by_site:
            known = ", ".join(sorted(by_site)) or "none"
            raise UsageError(
                f"learn: no HTML page of site {wanted!r} in the archive{recent} "
                f"(sites: {known})",
                print_help=False,
            )
        options = LearnOptions(
            min_main_chars=self.settings.getint(
                "NEWSSTEM_MIN_ARTICLE_CHARS", defaults.NEWSSTEM_MIN_ARTICLE_CHARS
            )
        )
        again = since is not None or opts.last is not None
        learned_any = False
        publishing = _Publishing(store) if store is not None else None
        reports = []
        for site in sorted(by_site) if wanted is None else [wanted]:
            started = time.process_time()
            if again:
                old = _old_patterns(out, site)
                relearned = relearn(site, by_site[site], old, options)
                result = relearned.result
                seconds = time.process_time() - started
                keep_old = old is not None and not relearned.better and not opts.force
                written = _report(site, result, out, seconds, relearned, keep_old)
                learned_any |= written
                written &= not keep_old
            else:
                result = learn(site, by_site[site], options)
                seconds = time.process_time() - started
                written = _report(site, result, out, seconds)
                learned_any |= written
            if publishing is not None and written:
                publishing.publish(pattern_file_path(out, site))  # (where _report wrote it)
            if opts.report:
                reports.append(site_report(site, result, by_site[site]))
        if opts.report:
            print(f"report: {write_layout_report(opts.report, reports, self.settings)}")
        _warn_unusable_files(out)
        if not learned_any or (publishing is not None and publishing.failed):
            self.exitcode = 1


def list_published(settings: BaseSettings, args: list[str], opts: argparse.Namespace) -> int:
    """``--published``: the pattern files published in the Redis URL store, one line
    each (site, version, learned at, stamp: when it was learned on the store's clock,
    which orders the files, and published by); the exit status."""
    _alone("--published", "lists the store's pattern files", args, opts)
    uri = _publish_store(settings, "--published")
    shown = hide_password(uri)
    store: RedisUrlStore
    try:
        with open_store(uri) as store:  # type: ignore[assignment]  (a Redis URI)
            index = store.published_patterns()
            by = store.published_by(sorted(index))
    except StoreError as error:
        print(f"learn: --published: the URL store cannot be reached ({error})",
              file=sys.stderr)
        return 1
    if not index:
        print(f"no pattern file published in {shown}")
        return 0
    print(f"{counted(len(index), 'pattern file')} published in {shown}:")
    width = max(len("site"), *map(len, index))
    print(f"  {'site':<{width}}  version  {'learned at':<27}  {'stamp (server clock)':<27}  "
          "published by")
    for site, held in sorted(index.items()):
        print(f"  {site:<{width}}  {held.version:7d}  {held.learned_at:<27}  "
              f"{stamp_time(held.stamp):<27}  {by.get(site, '-')}")
    return 0


def stamp_time(stamp: int | None) -> str:
    """A file's stamp (microseconds since the epoch on the Redis server's clock: what
    orders the published files) as an ISO 8601 UTC time; ``-`` for a file published by a
    newsstem of before stamps.

    >>> stamp_time(1_796_000_000_000_001), stamp_time(None)
    ('2026-11-30T00:53:20.000001Z', '-')
    """
    if stamp is None:
        return "-"
    when = datetime(1970, 1, 1, tzinfo=timezone.utc) + timedelta(microseconds=stamp)
    return when.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _alone(option: str, does: str, args: list[str], opts: argparse.Namespace) -> None:
    """UsageError when ``option``, which learns nothing, is given other arguments."""
    others = [name for name in ("input", "out", "report", "since", "last", "force", "publish",
                                "published", "unpublish") if f"--{name}" != option]
    given = [f"--{name}" for name in others if getattr(opts, name) not in (None, [], False)]
    if args or given:
        raise UsageError(f"learn: {option} {does} and learns nothing: give it alone (not "
                         f"{' '.join([*args, *given])})", print_help=False)


def unpublish(settings: BaseSettings, args: list[str], opts: argparse.Namespace) -> int:
    """``--unpublish SITE``: delete the site's pattern file published in the Redis URL
    store (its hash and its index entry, atomically), saying what was deleted; the exit
    status (1: nothing was published for SITE, or the store fails)."""
    _alone("--unpublish", "deletes a published pattern file", args, opts)
    site = opts.unpublish.strip()
    if not site:  # (--unpublish "": no site is named so)
        raise UsageError("learn: --unpublish needs the name of a site, as `scrapy learn "
                         "--published` lists it", print_help=False)
    uri = _publish_store(settings, "--unpublish")
    shown = hide_password(uri)
    store: RedisUrlStore
    try:
        with open_store(uri) as store:  # type: ignore[assignment]  (a Redis URI)
            removed = store.unpublish_patterns(site)
    except StoreError as error:
        print(f"learn: --unpublish: the URL store cannot be reached or failed ({error}): "
              "nothing deleted", file=sys.stderr)
        return 1
    if removed is None:
        print(f"learn: --unpublish: no pattern file of {site} is published in {shown}: "
              "nothing deleted (scrapy learn --published lists those that are)",
              file=sys.stderr)
        return 1
    held, by = removed
    print(f"deleted the pattern file of {site} published in {shown} (version "
          f"{held.version}, learned at {held.learned_at or '?'}, key {held.key}"
          f"{f', published by {by}' if by else ''}): crawls load none for {site} from now "
          "on, until a file of it is published again (scrapy learn --publish, or a worker "
          "that learns it again at a crawl's end, NEWSSTEM_RELEARN); the workers that loaded "
          "it keep their copy in their patterns directory")
    return 0


def _publish_store(settings: BaseSettings, option: str = "--publish") -> str:
    """The Redis URL store of ``--publish`` (``NEWSSTEM_URLDB``, or the Redis of
    ``NEWSSTEM_DISTRIBUTED`` as in a worker); a UsageError when it is not one (unset,
    SQLite: one machine, nothing to share with)."""
    try:
        uri = urldb_of(settings)  # NEWSSTEM_DISTRIBUTED's Redis too, as a worker's
        backend = parse_uri(uri).backend if uri else None
    except (StoreError, DistributedError) as error:
        raise UsageError(f"learn: {option}: {error}", print_help=False) from None
    if backend != "redis":
        now = f"it is {hide_password(uri)!r}" if uri else "it is not set"
        raise UsageError(
            f"learn: {option} needs the Redis URL store the workers share: "
            f"-s NEWSSTEM_URLDB=redis://HOST:PORT/DB ({now})",
            print_help=False,
        )
    return uri


def _store_answers(uri: str) -> bool:
    """Whether the store of ``--publish`` can be reached, said on stderr before anything is
    learned when it cannot (learning may take minutes: not to find out at the end)."""
    try:
        open_store(uri).close()
    except StoreError as error:
        print(f"learn: --publish: the URL store cannot be reached ({error}): nothing "
              "learned", file=sys.stderr)
        return False
    return True


class _Publishing:
    """The pattern files of ``--publish``, published one by one as they are written; after
    a store error the others are not tried (``failed``: exit status 1)."""

    def __init__(self, uri: str) -> None:
        self.uri = uri
        self.shown = hide_password(uri)
        self.failed = False

    def publish(self, path: Path) -> None:
        if self.failed:
            print("  not published: the URL store failed before (see above)")
            return
        pattern_set = load_pattern_file(path)  # the file as written
        try:
            held = publish(self.uri, pattern_set)
        except StoreError as error:
            self.failed = True
            print(f"  NOT PUBLISHED: the URL store failed ({error}); learn again with --publish "
                  "when it answers, or copy the file to the other machines")
            return
        print("  " + _published_line(self.shown, pattern_set, held))


def _published_line(shown: str, pattern_set: PatternSet, held: PublishedPatterns) -> str:
    """What became of a file ``--publish`` published: taken, or which file stays and why."""
    if held.published:
        return f"published in {shown} (version {held.version}): {LOADED_WHEN}"
    stays = f"version {held.version} published in {shown} stays"
    if held.key == patterns_key(pattern_set):
        return f"not published: it is the file published already ({stays})"
    same = held.stamp == held.offered if held.stamp is not None else \
        held.learned_at == pattern_set.learned_at  # (published by a newsstem of before stamps)
    if same:
        why = "learned at the same instant, it has the greater key (the same winner on " \
            "every worker)"
    else:
        why = (f"it was learned later ({held.learned_at}, this file {pattern_set.learned_at}, "
               "each by its machine's clock; the store orders them on its own)")
    return (f"not published: {stays}: {why}; the crawls on the store, this machine's too, "
            "read that one")


def _check_arguments(args: list[str], opts: argparse.Namespace) -> str | None:
    """UsageError for arguments that do not go together; the ``--since`` instant (ISO
    8601 UTC), if given."""
    unknown = next((arg for arg in args if arg.startswith("-")), None)
    if unknown is not None:  # Scrapy leaves unknown options in args: not a SITE
        hint = ("; the site is given alone, not as --site: scrapy learn SITE --input ARCHIVE"
                if unknown.split("=")[0] == "--site" else "")
        raise UsageError(f"learn: unknown option {unknown!r}{hint}", print_help=False)
    archive = next((hint for arg in args if (hint := archive_hint(arg))), None)
    if archive is not None:  # taken for a SITE: "no HTML page of site 'crawls/b.warc.gz'"
        raise UsageError(f"learn: {archive}", print_help=False)
    if len(args) > 1:
        raise UsageError("learn: give at most one SITE", print_help=False)
    if not opts.input:
        raise UsageError("learn: give the archive to learn from: --input crawl.warc.gz")
    if opts.last is not None and opts.last < 2:
        raise UsageError("learn: --last needs 2 pages or more", print_help=False)
    if opts.force and opts.since is None and opts.last is None:
        raise UsageError("learn: --force goes with --since or --last (learning from all "
                         "pages always writes the file)", print_help=False)
    try:
        return parse_since(opts.since).strftime("%Y-%m-%dT%H:%M:%SZ") if opts.since else None
    except SinceError as error:
        raise UsageError(f"learn: --{error}", print_help=False) from None


def write_layout_report(directory: str, reports: list, settings: object) -> Path:
    """The report of ``--report``, with screenshots when a browser can be launched (else
    the report says why it has none, and so does a line on stderr: a user waiting for
    pictures learns it without opening the report). A page is shot when its ``load``
    came or NEWSSTEM_RENDER_WAIT is over (render.Screenshots)."""
    with ExitStack() as stack:
        try:
            browser = render.browser_path(settings)  # type: ignore[arg-type]
            wait = settings.getfloat(  # type: ignore[attr-defined]
                "NEWSSTEM_RENDER_WAIT", defaults.NEWSSTEM_RENDER_WAIT)
            screenshots = stack.enter_context(render.Screenshots(browser, ROLE_COLOURS, wait))
        except render.RenderError as error:
            print(f"learn: the report has no screenshots: {error}", file=sys.stderr)
            return write_report(directory, reports, None, str(error))
        return write_report(directory, reports, screenshots)


def _check_writable(directory: str, what: str, option: str) -> None:
    """UsageError, before anything is learned, when ``what`` cannot be written in
    ``directory`` (created when written): a file in the way, no write permission."""
    path = Path(directory).absolute()
    existing = next(p for p in (path, *path.parents) if p.exists())  # nothing made here
    why = "is not a directory" if not existing.is_dir() else ""
    if not why:
        problem = unwritable_directory(existing)  # (a file made and removed in it)
        why = f"is not writable ({problem})" if problem is not None else ""
    if why:
        raise UsageError(
            f"learn: cannot write {what} to {directory}: {existing} {why}; "
            f"give another {option} DIR",
            print_help=False,
        )


def _warn_unusable_files(directory: str) -> None:
    """A warning line per pattern file of ``directory`` that a crawl would stop on (not
    valid JSON, a bad field, a second file of a site): learn wrote its files beside it
    and said nothing, and every later crawl ended in exit status 2 on that file."""
    for problem in pattern_dir_problems(directory):  # the crawl's own checks
        print(f"learn: warning: {problem}; a crawl with NEWSSTEM_PATTERNS_DIR={directory} "
              "stops on this file: mend or remove it", file=sys.stderr)


def _old_patterns(directory: str, site: str) -> PatternSet | None:
    path = pattern_file_path(directory, site)
    if not path.exists():
        return None
    try:
        return load_pattern_file(path)
    except PatternFileError as error:
        raise UsageError(f"learn: {error}", print_help=False) from None


def training_pages(
    paths: list[str], since: str | None = None, last: int | None = None
) -> dict[str, list[TrainingPage]]:
    """The HTML pages of the archives by site (:func:`newsstem.archive.html_pages_by_site`),
    decoded as the crawler decodes them, to learn from."""
    try:
        by_site = html_pages_by_site(paths, since, last)
    except ArchiveError as error:
        raise UsageError(f"learn: {error}", print_help=False) from None
    return {site: [training_page(page) for page in pages] for site, pages in by_site.items()}


def training_page(page: ArchivedPage) -> TrainingPage:
    return TrainingPage(page.url, decode_html(page.body, page.content_type)[0], page.anchor_texts)


def _column(pages: int) -> str:
    """A layout's pages in the report's column: ``   12 pages``, ``    1 page `` (aligned)."""
    return f"{pages:5d} page " if pages == 1 else f"{pages:5d} pages"


def _report(
    site: str,
    result: LearnResult,
    out: str,
    seconds: float,
    relearned: Relearned | None = None,
    keep_old: bool = False,
) -> bool:
    pattern_set = relearned.pattern_set if relearned is not None else result.pattern_set
    learned = result.pattern_set
    articles = [p for p in learned.patterns if p.kind == "article"]
    pages = learned.parameters.get("pages", 0)
    print(
        f"{site}: {counted(pages, 'page')}, {counted(len(result.outcomes), 'layout')}, "
        f"{counted(len(articles), 'article pattern')}, "
        f"{counted(len(learned.patterns) - len(articles), 'hub pattern')} ({seconds:.1f} s)"
    )
    for outcome in result.outcomes:
        if outcome.pages > 1 or outcome.pattern_id:
            name = outcome.pattern_id or "-"
            print(f"  {name:<32} {_column(outcome.pages)}  score {outcome.score:9.0f}  "
                  f"{outcome.reason}")
    lone = sum(1 for o in result.outcomes if o.pages <= 1 and not o.pattern_id)
    if lone:  # counted in the layouts above: said, not one line each
        print(f"  {'-':<32} {_column(lone)}  {'':15}  "
              f"{'a layout' if lone == 1 else f'{lone} layouts'} of one page"
              f"{'' if lone == 1 else ' each'}: too few to learn from")
    if relearned is not None:
        _report_old_patterns(relearned)
    if not any(p.kind == "article" for p in pattern_set.patterns):
        print(_nothing_written(site, len(pattern_set.patterns)))
        return False
    if keep_old:  # as NEWSSTEM_RELEARN: a file no better than the old one is not written
        print(f"  not better than the old file: {pattern_file_path(out, site)} kept "
              "(--force writes the new one)")
        return True
    path = save_pattern_file(pattern_set, out)
    print(f"  written to {path} (its pages fit {pattern_set.parameters.get('matched', 0):.0%})")
    return True


def _nothing_written(site: str, hubs: int) -> str:
    """The line of a site where no article layout was learned. Its hub patterns are not
    written alone: such a file would replace the site's previous one (learned from an
    archive that had its articles) and read none of its articles, and a crawl reaching
    them would take their pages, matching no pattern, for a redesign."""
    learned = (
        f"only {counted(hubs, 'hub pattern')}, no article layout" if hubs
        else "no article layout"
    )
    return (
        f"  nothing written: {learned} learned ({site} keeps its previous pattern file, if "
        "any); learn again from an archive with more of its article pages (a deeper crawl: "
        "-a depth=N)"
    )


def _report_old_patterns(relearned: Relearned) -> None:
    """The lines of a relearning (``--since``/``--last``): the old patterns kept or
    dropped, and how well the new and the old file read the recent pages."""
    for pattern_id in relearned.kept:
        print(f"  {pattern_id:<32} kept from the old file: recent pages still have it")
    by_id = {pattern.id: pattern for pattern in relearned.pattern_set.patterns}
    for pattern_id in relearned.unseen:
        unseen = by_id[pattern_id]
        print(f"  {pattern_id:<32} {_column(unseen.pages)}  kept from the old file "
              f"({unseen.kind} layout): no recent page has it (delete it from the file "
              "if the site dropped that layout)")
    for pattern_id in relearned.dropped:
        print(f"  {pattern_id:<32} DROPPED from the old file: no recent page has its "
              "layout, and it would read recent pages of a new layout; learn without "
              "--since/--last to learn it again")
    print(
        f"  recent pages read well: {relearned.new_fit:.0%} with these patterns, "
        f"{relearned.old_fit:.0%} with the old file's"
    )
