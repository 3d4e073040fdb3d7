"""``scrapy learn [SITE] --input crawl.warc.gz [--out patterns/]``: learn layout patterns.

Reads the HTML pages of one or more WARC archives (``NEWSSTEM_ARCHIVE`` writes
them during a crawl, with the anchor texts of the links to each page), learns
the layouts of every site found (or of SITE only) and writes one pattern file
per site to ``--out`` (default ``NEWSSTEM_PATTERNS_DIR``). A site where nothing
was learned keeps its previous file.
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from newsstem import defaults
from newsstem.archive import ArchivedPage, ArchiveError, read_archive
from newsstem.encoding import decode_html, looks_binary
from newsstem.layout.learn import LearnOptions, LearnResult, TrainingPage, learn
from newsstem.layout.patterns import save_pattern_file
from newsstem.rules import site_of


class Command(ScrapyCommand):
    requires_project = True
    requires_crawler_process = False  # reads files, crawls nothing

    def syntax(self) -> str:
        return "[SITE] --input ARCHIVE [--input ARCHIVE ...] [--out DIR]"

    def short_desc(self) -> str:
        return "Learn the layout patterns of sites from a WARC archive of their pages"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument(
            "--input", "-i", action="append", default=[], metavar="ARCHIVE",
            help="WARC archive to read (written with -s NEWSSTEM_ARCHIVE=...); may be repeated",
        )
        parser.add_argument(
            "--out", metavar="DIR",
            help="directory of the pattern files (default: NEWSSTEM_PATTERNS_DIR)",
        )

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        assert self.settings is not None
        if len(args) > 1:
            raise UsageError("learn: give at most one SITE", print_help=False)
        if not opts.input:
            raise UsageError("learn: give the archive to learn from: --input crawl.warc.gz")
        out = opts.out or self.settings.get(
            "NEWSSTEM_PATTERNS_DIR", defaults.NEWSSTEM_PATTERNS_DIR
        )
        if not out:
            raise UsageError("learn: give the directory of the pattern files: --out DIR")
        by_site = html_pages_by_site(opts.input)
        wanted = args[0] if args else None
        if wanted is not None and wanted not in by_site:
            known = ", ".join(sorted(by_site)) or "none"
            raise UsageError(
                f"learn: no HTML page of site {wanted!r} in the archive (sites: {known})",
                print_help=False,
            )
        options = LearnOptions(
            min_main_chars=self.settings.getint(
                "NEWSSTEM_MIN_ARTICLE_CHARS", defaults.NEWSSTEM_MIN_ARTICLE_CHARS
            )
        )
        learned_any = False
        for site in sorted(by_site) if wanted is None else [wanted]:
            started = time.process_time()
            result = learn(site, by_site[site], options)
            seconds = time.process_time() - started
            learned_any |= _report(site, result, out, seconds)
        if not learned_any:
            self.exitcode = 1


def html_pages_by_site(paths: list[str]) -> dict[str, list[TrainingPage]]:
    """The HTML pages (status 200) of the archives, decoded as the crawler does, by site."""
    by_site: dict[str, list[TrainingPage]] = defaultdict(list)
    seen: set[str] = set()
    for path in paths:
        try:
            for page in read_archive(path):
                if page.url in seen or not is_html_page(page):
                    continue
                seen.add(page.url)
                html, _ = decode_html(page.body, page.content_type)
                site = page.site or site_of(page.url)
                by_site[site].append(TrainingPage(page.url, html, page.anchor_texts))
        except ArchiveError as error:
            raise UsageError(f"learn: {error}", print_help=False) from None
    return dict(by_site)


def is_html_page(page: ArchivedPage) -> bool:
    content_type = (page.content_type or "").lower()
    return page.status == 200 and "html" in content_type and not looks_binary(page.body)


def _report(site: str, result: LearnResult, out: str, seconds: float) -> bool:
    pattern_set = result.pattern_set
    articles = [p for p in pattern_set.patterns if p.kind == "article"]
    pages = pattern_set.parameters.get("pages", 0)
    print(
        f"{site}: {pages} pages, {len(result.outcomes)} layouts, {len(articles)} article "
        f"patterns, {len(pattern_set.patterns) - len(articles)} hub patterns "
        f"({seconds:.1f} s)"
    )
    for outcome in result.outcomes:
        if outcome.pages > 1 or outcome.pattern_id:
            name = outcome.pattern_id or "-"
            print(f"  {name:<32} {outcome.pages:5d} pages  score {outcome.score:9.0f}  "
                  f"{outcome.reason}")
    if not articles:
        print(f"  no article layout learned: {site} keeps its previous pattern file, if any")
        return False
    path = save_pattern_file(pattern_set, out)
    print(f"  written to {path}")
    return True
