"""What an unattended run tells its operator: a summary, and whether it reached anything.

A crawl run by cron or scrapyd is read by a person only when something looks
wrong. :class:`RunReport` (an extension) ends every crawl with

- one summary at INFO level: articles exported (by method), pages fetched,
  pages not exported (by reason), known URLs skipped thanks to the URL store
  (when the crawl has one), errors (by kind) and robots.txt refusals;
- the same figures in the stats (``newsstem/summary/*``), so they are in
  ``NEWSSTEM_STATS_FILE`` for monitoring;
- for ``scrapy extract``, which fetches nothing, only what applies: articles
  exported, pages read from the archives, pages not exported, damaged archives;
- a verdict: a run that fetched no page at all while its requests failed
  (site down, DNS failure, every page an HTTP error status the crawl did not allow,
  refused by robots.txt, or redirected off the site; a status it allowed,
  ``HTTPERROR_ALLOWED_CODES`` and the like, is a page, not an error)
  logs one ERROR line, and ``scrapy crawl`` exits with status
  :data:`EXIT_NOTHING_REACHED`.

:func:`summarize` is plain Python over a stats dict; the extension is the
Scrapy glue.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, NamedTuple

from scrapy import signals

from newsstem import defaults

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Callable

    from scrapy import Request, Spider
    from scrapy.crawler import Crawler
    from scrapy.http import Response
    from scrapy.settings import BaseSettings
    from scrapy.statscollectors import StatsCollector

logger = logging.getLogger(__name__)

#: exit status of ``scrapy crawl`` when every request failed (1: could not start, 2: usage)
EXIT_NOTHING_REACHED = 3

OK = "ok"
NOTHING_REACHED = "nothing_reached"
IDLE = "idle"  # no request was made at all (a distributed worker that found no work)

SUMMARY_PREFIX = "newsstem/summary"

#: Scrapy's CloseSpider finish reasons -> the setting that closed the crawl, and what its
#: value counts ({} is the value)
CLOSESPIDER_LIMITS = {
    "closespider_pagecount": ("CLOSESPIDER_PAGECOUNT",
                              "closing after {} responses, robots.txt and error pages included"),
    "closespider_itemcount": ("CLOSESPIDER_ITEMCOUNT", "closing after {} articles"),
    "closespider_timeout": ("CLOSESPIDER_TIMEOUT", "closing {} s after the start"),
    "closespider_errorcount": ("CLOSESPIDER_ERRORCOUNT", "closing after {} spider errors"),
    "closespider_pagecount_no_item": (
        "CLOSESPIDER_PAGECOUNT_NO_ITEM", "closing after {} responses in a row without an article"),
    "closespider_timeout_no_item": (
        "CLOSESPIDER_TIMEOUT_NO_ITEM", "closing after {} s without an article"),
}
_HTTP_ERROR = 400  # statuses from here on are failures, not pages


def _by_suffix(stats: dict[str, Any], prefix: str) -> dict[str, int]:
    """``{suffix: count}`` of the stats named ``prefix + suffix``, largest first."""
    found = {
        name[len(prefix) :]: int(value)
        for name, value in stats.items()
        if name.startswith(prefix) and isinstance(value, (int, float)) and value
    }
    return dict(sorted(found.items(), key=lambda kv: (-kv[1], kv[0])))


class OutputFile(NamedTuple):
    """An -O file of the run summary's advice: its URI, and whether -o can append to it
    (JSON Lines; a JSON, XML or CSV file appended to is no longer one document)."""

    uri: str
    appendable: bool


@dataclass(frozen=True)
class RunSummary:
    """The figures of one run, from its stats."""

    finish_reason: str | None
    seconds: float | None
    articles: int  # written to a feed (scraped, without a feed); not those written to none
    by_method: dict[str, int]
    # successful (2xx) responses to the crawl's requests, robots.txt excluded, and those of
    # a 4xx/5xx status the crawl allowed (``allowed``)
    pages: int
    dropped: dict[str, int]
    skipped_known: int  # URLs of articles exported by earlier runs, not fetched (once each)
    withheld: int  # fetched anyway (start pages, redirect targets), not exported again
    hubs: int  # of those, exported pages walked again as hubs (newsstem/urldb/hubs)
    download_errors: dict[str, int]  # exception class -> count (each attempt)
    # status -> count, each attempt (robots.txt and the statuses allowed excluded)
    http_errors: dict[str, int]
    spider_errors: dict[str, int]
    store_errors: int
    robots_refused: int
    # requests dropped by Scrapy's OffsiteMiddleware: redirects leaving the crawl's sites
    offsite: int = 0
    # responses of a 4xx/5xx status the crawl allowed (HTTPERROR_ALLOWED_CODES, …): handed
    # to the spider, pages, not errors (newsstem/allowed/http_<status>) -> count by status
    allowed: dict[str, int] = field(default_factory=dict)
    archived: int = 0  # pages read from WARC archives (scrapy extract), not fetched
    older: int = 0  # older captures of URLs captured again later, not read (scrapy extract)
    # requests that failed for good, by kind (newsstem/errors/<kind>: dns, refused, http_404…)
    failed: dict[str, int] = field(default_factory=dict)
    # sites whose pages stopped fitting their learned patterns -> why (a redesign)
    layout_changes: dict[str, str] = field(default_factory=dict)
    relearned: dict[str, str] = field(default_factory=dict)  # site -> NEWSSTEM_RELEARN's outcome
    # an extraction of WARC archives (scrapy extract): nothing was fetched, so the crawl's
    # figures (URL store, robots.txt, failed requests, redirects) mean nothing
    offline: bool = False
    damaged: int = 0  # archives damaged part-way (scrapy extract)
    # where the requests still queued go when the crawl is stopped (Ctrl-C, SIGTERM):
    # JOBDIR's directory, "" (dropped), or None (a shared queue: no line about it)
    jobdir: str | None = ""
    # requests still in the scheduler when the crawl stopped (None: not known, or start
    # requests not yet read from the spider): 0 says a stopped crawl dropped nothing
    queued: int | None = None
    # the crawl used a URL store (False: NEWSSTEM_URLDB empty or its middleware disabled,
    # and the summary has no line about the store)
    url_store: bool = True
    # articles written to no file: the -O feed files taking them were another crawl's, left
    # alone (newsstem/feeds/unwritten); extracted, yet not exported
    unwritten: int = 0
    # exported articles the URL store did not record (newsstem/urldb/unmarked): the next
    # crawl exports them again
    unmarked: int = 0
    # the crawl had no feed output (-o/-O, FEEDS) and no pipeline said it stores the
    # articles (NEWSSTEM_URLDB_MARK_AFTER=item_scraped): its articles are in no file (a
    # scrapyd job scheduled without FEEDS, scrapyd's items_dir empty: "exported: 24", no file)
    no_feed: bool = False
    # links the URL rules rejected (newsstem/links/rejected/rules), links followed
    # (newsstem/links/followed): a crawl whose rules rejected every link said nothing of it
    rules_rejected: int = 0
    # the directories the default URL rules accepted (no -a rules nor NEWSSTEM_URL_RULES
    # given): "the URL rules rejected" all links of a crawl given no rules said nothing
    default_directories: tuple[str, ...] = ()
    followed: int = 0
    # pages of browser mode read with requests of their script still in flight after
    # NEWSSTEM_RENDER_WAIT (newsstem/render/unfinished): their text may be missing, and a
    # run of such pages said "no_article" and nothing of the wait (one WARNING per page)
    render_unfinished: int = 0
    # start messages of a distributed worker it dropped as unreadable, naming unknown
    # arguments or giving bad values (newsstem/distributed/rejected_messages): each an
    # ERROR line, and a summary of "errors: 0", "pages fetched: 0" said nothing of the
    # site never crawled
    rejected_messages: int = 0
    # requests the duplicate filter refused (dupefilter/filtered): a distributed worker whose
    # pages the shared filter had all seen (a second run within NEWSSTEM_DISTRIBUTED_FORGET,
    # -a refresh=1 or not) fetched nothing and said nothing of why
    filtered: int = 0
    # pages of a crawl without the browser that had no article, scripts, and less text than
    # an article (newsstem/render/shells): a script-built site's, which -a render=1 reads
    shells: int = 0
    # listings fetched that were neither a sitemap nor a feed (newsstem/discovery/unreadable):
    # a site's page given as -a feed= exports nothing, and one WARNING line among the
    # crawl's log would be all that says why
    unreadable_listings: int = 0
    # pages at the depth limit, their links not followed (newsstem/depth/limit_pages), and
    # that limit (newsstem/depth/limit): the default depth 1 from a home page reaches its
    # section pages, not the articles they list; the crawl exported nothing and said nothing
    # of the depth
    limit_pages: int = 0
    depth_limit: int = 0
    depth_limit_min: int = 0  # the shallowest of those pages (newsstem/depth/limit_min)
    # the value of the CLOSESPIDER_* setting that closed the crawl (its finish reason one of
    # CLOSESPIDER_LIMITS), as a number in words: "" if not closed so
    close_limit: str = ""
    # the local -O files of this run whose articles the URL store recorded and that the
    # run the summary tells of (the same command again) would empty instead of appending to
    replaced: tuple[OutputFile, ...] = ()
    outcome: str = field(default=OK)

    @property
    def errors(self) -> int:
        return (
            sum(self.download_errors.values())
            + sum(self.http_errors.values())
            + sum(self.spider_errors.values())
            + self.store_errors
        )

    def lines(self) -> list[str]:
        """The summary as short lines a person reads in a cron mail or a job log."""

        def detail(counts: dict[str, int]) -> str:
            return ", ".join(f"{name} {count}" for name, count in counts.items())

        took = f", {self.seconds:.1f} s" if self.seconds is not None else ""
        if self.offline:
            return self._offline_lines(took, detail)
        exported, not_exported = self._export_lines(detail)
        lines = [
            f"newsstem run summary ({self.finish_reason or 'unknown'}{took}):",
            exported,
            f"  pages fetched: {self.pages}"
            + (f" (allowed HTTP statuses: {detail(self.allowed)})" if self.allowed else ""),
            not_exported,
        ]
        if self.render_unfinished:
            lines.append(
                f"  read before their script finished: {self.render_unfinished} (requests "
                "still in flight after NEWSSTEM_RENDER_WAIT; their text may be missing: "
                "raise NEWSSTEM_RENDER_WAIT)"
            )
        if self.shells and self.shells >= self.articles:
            # (a crawl of hundreds of articles with a few video or login pages is no
            # script-built site: render mode, slow, would not help it)
            lines.append(
                f"  built by script?: {self.shells} of the pages without an article had "
                "scripts and almost no text (a shell its scripts fill in a browser: "
                "-a render=1 reads them, see docs/render.md)"
            )
        if self.unreadable_listings:
            lines.append(
                f"  not a sitemap or feed: {self.unreadable_listings} of the listings fetched "
                "(their WARNING lines name them; a site's page given as -a feed= or "
                "-a sitemap= goes in -a start_url=)"
            )
        if self.no_feed and self.articles:
            lines.insert(2, "  written to no file: the crawl had no feed output (-o/-O or FEEDS; "
                            "a scrapyd job: FEEDS, or scrapyd's items_dir)")
        if self.url_store:
            lines.append(
                f"  known URLs skipped (URL store): {self.skipped_known}"
                + (f", {self.withheld} fetched pages not exported again" if self.withheld else "")
                + (f" ({self.hubs} of them hubs walked for their links)" if self.hubs else "")
                + (f"; articles not recorded as exported: {self.unmarked} (the next crawl "
                   "exports them again)" if self.unmarked else "")
            )
        # a second crawl of the same pages (not one whose articles reached no file)
        if self.articles == 0 and self.skipped_known and not self.unwritten:
            lines.append(
                "  nothing new: the articles found were exported by earlier runs "
                "(-a refresh=1 exports them again)"
            )
        if self.articles == 0 and self.rules_rejected and not self.followed:
            # -a rules='+/news/' on a site whose articles are elsewhere: one page fetched,
            # nothing exported, and no word of the rules (links off the site are counted
            # as offsite, before the rules judge: not "all the links found")
            if self.default_directories:
                default = (f"  no link followed: the default URL rules rejected all "
                           f"{self.rules_rejected} links to the site found (given no -a "
                           "rules, they ")
                if all(directory.count("/") == 1 for directory in self.default_directories):
                    # the start URLs' directories are their sites': only the media rule rejects
                    lines.append(default + "reject media and document files, images, PDFs, "
                                 "archives…, and accept the rest of the start URL's site)")
                else:
                    under = " ".join(self.default_directories)
                    s = "s" if len(self.default_directories) > 1 else ""
                    lines.append(
                        default + "accept only the URLs under the start URL"
                        + ("s' directories" if s else "'s directory")
                        + f", {under}; start higher up, or give rules, e.g. -a rules='"
                        f"{whole_site_rules(self.default_directories)}' for the whole site{s}: "
                        f"the default rules from the site root{s}, media files still rejected)"
                    )
            else:
                lines.append(
                    f"  no link followed: the URL rules rejected all {self.rules_rejected} "
                    "links to the site found (-a rules or NEWSSTEM_URL_RULES: the first rule "
                    "that matches decides, a URL no rule matches is rejected)"
                )
        # pages at the depth limit, and no article exported or known: the depth may be why
        nothing_within_depth = (self.articles == 0 and self.limit_pages
                                and not self.skipped_known)
        if (nothing_within_depth and self.finish_reason == "finished"
                and self.shells < self.limit_pages):
            # (a script-built site's pages at the limit are shells: "built by script?" says
            # so, and "-a depth=2" would send the user one level deeper into more shells)
            # only a crawl that ran out of pages. One stopped (Ctrl-C, CLOSESPIDER_PAGECOUNT,
            # _TIMEOUT…) left pages unfetched: the depth was not why it found no article. A
            # distributed worker (finish_reason idle) has its share of the crawl's pages,
            # whose articles other workers may have exported, and its start messages give
            # their own depths, not -a depth
            lines.append(
                f"  no article within depth {self.depth_limit}: the links of the "
                + ("page" if self.limit_pages == 1 else f"{self.limit_pages} pages")
                + " at that depth were not followed (-a depth="
                f"{self.depth_limit + 1} goes one level deeper: a home page's articles are "
                "often linked from its section pages only)"
            )
        if nothing_within_depth and self.jobdir is None:
            # a distributed worker: its start messages give their own depths (not -a depth),
            # and other workers may have exported the articles, so no "no article within
            # depth" and no advice; the pages whose links it did not follow, as a fact (a
            # lone worker given too shallow messages had only newsstem/depth/limit_pages)
            depths = (f"depth {self.depth_limit}" if self.depth_limit_min == self.depth_limit
                      else f"depths {self.depth_limit_min} to {self.depth_limit}")
            lines.append(
                "  depth limit reached: the links of "
                + ("1 page" if self.limit_pages == 1 else f"{self.limit_pages} pages")
                + f" at {depths} were not followed (the limit of each is the depth of the "
                "start message or -a depth it came from)"
            )
        if (self.jobdir is None and self.filtered and not self.pages and not self.articles
                and not self.errors and not self.robots_refused):
            # a worker: its -a start_url pages (a start message's say so in their own line)
            lines.append(
                f"  nothing fetched: the shared filter had seen the {self.filtered} "
                + ("page" if self.filtered == 1 else "pages")
                + " this worker was to fetch (fetched by another worker, or by a crawl of "
                "their site less than NEWSSTEM_DISTRIBUTED_FORGET seconds ago, -a refresh=1 "
                "or not); crawl them again after that, or apart in another Redis database"
            )
        if self.finish_reason == "shutdown" and self.jobdir is not None:
            # a Ctrl-C mid-crawl: the summary read like a finished crawl's
            if self.queued == 0:  # stopped while its last pages were in flight: all fetched
                where = "no request was still queued, none was dropped"
            elif self.jobdir:
                where = (f"the requests still queued are kept in JOBDIR {self.jobdir}; "
                         "the same command resumes them" + self._rerun_advice())
            else:
                where = ("the requests still queued were dropped; the same command starts "
                         "again from the start pages (-s JOBDIR=DIR keeps the queue of a "
                         "stopped crawl)" + self._rerun_advice())
            lines.append(f"  stopped before its end (Ctrl-C or SIGTERM): {where}")
        elif self.finish_reason in CLOSESPIDER_LIMITS and self.close_limit:
            lines.append(self._closed_early_line())
        kinds = []
        if self.download_errors:
            kinds.append(f"download: {detail(self.download_errors)}")
        if self.http_errors:
            kinds.append(f"HTTP: {detail(self.http_errors)}")
        if self.spider_errors:
            kinds.append(f"spider: {detail(self.spider_errors)}")
        if self.store_errors:
            kinds.append(f"URL store: {self.store_errors}")
        lines.append(f"  errors: {self.errors}" + (f" ({'; '.join(kinds)})" if kinds else ""))
        if self.failed:
            lines.append(
                f"  requests failed: {sum(self.failed.values())} ({detail(self.failed)})"
            )
        if self.rejected_messages:
            lines.append(
                f"  start messages rejected: {self.rejected_messages} (unreadable, naming "
                "arguments the spider does not take, or giving values it cannot use: their "
                "ERROR lines say why; nothing of them was crawled)"
            )
        lines.append(f"  robots.txt refused: {self.robots_refused}")
        if self.offsite:
            lines.append(f"  redirected off the site: {self.offsite}")
        return lines + self._layout_lines()

    def _closed_early_line(self) -> str:
        """A crawl closed by a CLOSESPIDER_* limit: the header said only
        ``closespider_pagecount``; which limit, and what became of the pages not fetched."""
        setting, counts = CLOSESPIDER_LIMITS[self.finish_reason or ""]
        line = (f"  closed early by {setting}={self.close_limit} "
                f"({counts.format(self.close_limit)})")
        if self.jobdir is None:  # a distributed worker: the queue is the crawl's, shared
            return line
        if self.queued == 0:  # its queue ran out as it reached the limit
            return line + ": no request was still queued, none was dropped"
        left = ("pages were left unfetched" if self.queued is None  # (start requests unread)
                else "1 request still queued was not fetched" if self.queued == 1
                else f"{self.queued} requests still queued were not fetched")
        if self.jobdir:
            return (line + f": {left}; they are kept in JOBDIR {self.jobdir}, and the next run "
                    "with the same JOBDIR resumes them" + self._rerun_advice())
        again = ("the URL store skips the articles exported so far, the other pages are fetched "
                 "again" if self.url_store else "its pages are fetched again")
        return (line + f": {left}, and were dropped; a re-run starts again from the start "
                f"pages ({again}; -s JOBDIR=DIR keeps the queue of a closed crawl)"
                + self._rerun_advice())

    def _rerun_advice(self) -> str:
        """How to run the crawl again without losing this run's articles: its -O file,
        emptied by the same command, held articles the URL store will not export again."""
        if not self.replaced or not self.articles:
            return ""
        # one -o per file: `-o a.jsonl b.jsonl` would take b.jsonl for a spider's name
        appended = " ".join(f"-o {f.uri}" for f in self.replaced if f.appendable)
        others = " ".join(f.uri for f in self.replaced if not f.appendable)
        advice = [f"{appended} instead of -O (or another file)"] if appended else []
        if others:  # `-o a.json` would add a second array to the file, not more articles
            advice.append(f"another -O file than {others} (-o would append a second JSON "
                          "array, XML document or CSV header to it)")
        return (f"; give that run {', and '.join(advice)}: -O empties it of this run's "
                "articles, which the URL store will not export again")

    def _export_lines(self, detail: Callable[[dict[str, int]], str]) -> tuple[str, str]:
        """The lines of the articles exported and the pages not exported, by method and
        by reason: the same in a crawl's summary and an extraction's."""
        exported = f"  articles exported: {self.articles}"
        if self.unwritten:  # extracted, by method, and how many reached no file
            exported += (
                f" (of {self.articles + self.unwritten} extracted"
                + (f": {detail(self.by_method)}" if self.by_method else "")
                + f"; {self.unwritten} written to no file: their -O feed file was another "
                "crawl's, left alone; the next crawl exports them)"
            )
        elif self.by_method:
            exported += f" ({detail(self.by_method)})"
        return (
            exported,
            f"  pages not exported: {sum(self.dropped.values())}"
            + (f" ({detail(self.dropped)})" if self.dropped else ""),
        )

    def _offline_lines(self, took: str, detail: Callable[[dict[str, int]], str]) -> list[str]:
        """The summary of ``scrapy extract``: what was read and exported, and what failed."""
        exported, not_exported = self._export_lines(detail)
        lines = [
            f"newsstem extraction summary ({self.finish_reason or 'unknown'}{took}):",
            exported,
            f"  pages read from archives: {self.archived}"
            + (f" (older captures of the same URLs skipped: {self.older})" if self.older else ""),
            not_exported,
        ]
        if self.damaged:
            lines.append(f"  archives damaged (pages after the damage not read): {self.damaged}")
        if self.spider_errors:
            lines.append(f"  errors: {sum(self.spider_errors.values())} "
                         f"(spider: {detail(self.spider_errors)})")
        return lines + self._layout_lines()

    def _layout_lines(self) -> list[str]:
        lines = []
        for site, why in self.layout_changes.items():
            outcome = self.relearned.get(site)
            if outcome == "written":  # judged on earlier crawls' pages too: "(crawls since …)"
                pages = "those crawls'" if "(crawls since " in why else "this crawl's"
                advice = f"learned again from {pages} pages (NEWSSTEM_RELEARN)"
            elif outcome:
                advice = f"learned again, file kept: {outcome}"
            else:
                advice = f"learn it again (scrapy learn {site} --input ARCHIVE --since DATE)"
            lines.append(f"  layout changed: {site}: {why}; {advice}")
        return lines

    def stats(self) -> dict[str, Any]:
        """The figures under ``newsstem/summary/`` (methods and drop reasons are counted apart)."""
        return {
            f"{SUMMARY_PREFIX}/outcome": self.outcome,
            f"{SUMMARY_PREFIX}/articles": self.articles,
            f"{SUMMARY_PREFIX}/pages": self.pages,
            f"{SUMMARY_PREFIX}/dropped": sum(self.dropped.values()),
            f"{SUMMARY_PREFIX}/skipped_known": self.skipped_known,
            f"{SUMMARY_PREFIX}/errors": self.errors,
            f"{SUMMARY_PREFIX}/robots_refused": self.robots_refused,
        }


def whole_site_rules(directories: tuple[str, ...]) -> str:
    r"""The default URL rules of a crawl started at the root of each site of
    ``directories`` (``site/news/``, as :func:`newsstem.rules.default_directories` gives
    them): the media reject rule first, then one accept rule per site. The summary's
    advice named only the first start URL's site and no reject rule, so the rule it
    gave fetched images, PDFs… and left the other start sites out.

    >>> whole_site_rules(("a.example/news/", "b.example/", "a.example/sport/"))[:12]
    '-\\.(?:jpg|jp'
    >>> whole_site_rules(("a.example/news/", "b.example/", "a.example/sport/")).split()[1:]
    ['+^https?://a\\.example/', '+^https?://b\\.example/']
    """
    from newsstem.rules import UrlRules

    sites = sorted({directory.split("/", 1)[0] for directory in directories})
    return str(UrlRules.default_for([f"http://{site}/" for site in sites]))


_PATTERNS_PREFIX = "newsstem/patterns/"
_RELEARN_PREFIX = "newsstem/relearn/"
_LAYOUT_CHANGED = "/layout_changed"


def _layout_changes(stats: dict[str, Any]) -> dict[str, str]:
    """Sites the extraction pipeline found redesigned -> why (``.../layout_changed``)."""
    return {
        name[len(_PATTERNS_PREFIX) : -len(_LAYOUT_CHANGED)]: str(value)
        for name, value in sorted(stats.items())
        if name.startswith(_PATTERNS_PREFIX) and name.endswith(_LAYOUT_CHANGED)
    }


def close_limit(settings: BaseSettings, finish_reason: object) -> str:
    """The value of the CLOSESPIDER_* setting of ``finish_reason`` as the operator wrote it
    ("" if the crawl was not closed by one): whole numbers in full, not ``1e+06`` (``:g``
    made CLOSESPIDER_PAGECOUNT=1234567 "1.23457e+06", another limit).

    >>> from scrapy.settings import Settings
    >>> close_limit(Settings({"CLOSESPIDER_PAGECOUNT": 1234567}), "closespider_pagecount")
    '1234567'
    >>> close_limit(Settings({"CLOSESPIDER_TIMEOUT": "0.5"}), "closespider_timeout")
    '0.5'
    >>> close_limit(Settings({"CLOSESPIDER_TIMEOUT": 0.5}), "finished")
    ''
    """
    if finish_reason not in CLOSESPIDER_LIMITS:
        return ""
    value = settings.getfloat(CLOSESPIDER_LIMITS[str(finish_reason)][0])
    if not value:
        return ""
    return str(int(value)) if value.is_integer() else repr(value)


def summarize(
    stats: dict[str, Any],
    pages: int,
    offline: bool = False,
    jobdir: str | None = "",
    url_store: bool = True,
    queued: int | None = None,
    no_feed: bool = False,
    close_limit: str = "",
    replaced: tuple[OutputFile, ...] = (),
    default_directories: tuple[str, ...] = (),
) -> RunSummary:
    """The summary of a run from its stats and its count of successful (2xx) page
    responses, to which those of a 4xx/5xx status the crawl allowed are added from the
    stats (``newsstem/allowed/http_<status>``). ``offline``: an extraction of archives,
    which fetches nothing; ``jobdir``: the crawl's ``JOBDIR``, "" without one, None for
    a queue shared with other workers; ``url_store``: the crawl used a URL store;
    ``queued``: the requests left in its scheduler, None if not known; ``no_feed``: the
    articles were written to no feed;
    ``close_limit``: the value of the CLOSESPIDER_* setting of the finish reason;
    ``replaced``: the -O files the same command would empty, see ``RunReport._replaced``;
    ``default_directories``: what the default URL rules accepted, when no rules were given.

    >>> s = summarize({"downloader/exception_type_count/twisted.internet.error.DNSLookupError": 2,
    ...                "robotstxt/response_count": 0, "finish_reason": "finished"}, pages=0)
    >>> s.outcome, s.errors, s.download_errors
    ('nothing_reached', 2, {'DNSLookupError': 2})
    >>> summarize({"item_scraped_count": 3, "newsstem/method/readability": 3}, pages=5).outcome
    'ok'
    >>> shells = {"newsstem/dropped/no_article": 3, "newsstem/render/shells": 3}
    >>> any("built by script?" in line for line in summarize(shells, pages=3).lines())
    True
    >>> many = {**shells, "item_scraped_count": 200, "newsstem/method/readability": 200}
    >>> any("built by script?" in line for line in summarize(many, pages=203).lines())
    False
    >>> summarize({}, pages=0).outcome
    'idle'
    >>> summarize({"newsstem/archive/read": 4}, pages=0, offline=True).outcome
    'ok'
    """
    download = {}
    for name, count in _by_suffix(stats, "downloader/exception_type_count/").items():
        short = name.rsplit(".", 1)[-1]
        if short == "IgnoreRequest":
            continue  # dropped on purpose (robots.txt, offsite redirects): not a failure
        download[short] = download.get(short, 0) + count
    robots_statuses = _by_suffix(stats, "robotstxt/response_status_count/")
    # responses the crawl allowed reached the spider: pages, not errors (the attempts
    # Scrapy retried before, RETRY_HTTP_CODES, stay errors); counted by DownloadErrors
    allowed = _by_suffix(stats, "newsstem/allowed/http_")
    http = {}
    for status, count in _by_suffix(stats, "downloader/response_status_count/").items():
        count -= robots_statuses.get(status, 0) + allowed.get(status, 0)
        if status.isdigit() and int(status) >= _HTTP_ERROR and count > 0:
            http[status] = count
    unwritten = int(stats.get("newsstem/feeds/unwritten", 0))  # (urldb.feeds.UNWRITTEN_STAT)
    summary = RunSummary(
        finish_reason=stats.get("finish_reason"),
        seconds=stats.get("elapsed_time_seconds"),
        articles=int(stats.get("item_scraped_count", 0)) - unwritten,
        by_method=_by_suffix(stats, "newsstem/method/"),
        pages=pages + sum(allowed.values()),
        dropped=_by_suffix(stats, "newsstem/dropped/"),
        skipped_known=int(stats.get("newsstem/urldb/skipped", 0)),
        withheld=int(stats.get("newsstem/urldb/withheld", 0)),
        hubs=int(stats.get("newsstem/urldb/hubs", 0)),
        download_errors=download,
        http_errors=http,
        spider_errors=_by_suffix(stats, "spider_exceptions/"),
        store_errors=int(stats.get("newsstem/urldb/errors", 0)),
        robots_refused=int(stats.get("robotstxt/forbidden", 0)),
        offsite=int(stats.get("offsite/filtered", 0)),
        allowed=allowed,
        rules_rejected=int(stats.get("newsstem/links/rejected/rules", 0)),
        followed=int(stats.get("newsstem/links/followed", 0)),
        render_unfinished=int(stats.get("newsstem/render/unfinished", 0)),
        rejected_messages=int(stats.get("newsstem/distributed/rejected_messages", 0)),
        filtered=int(stats.get("dupefilter/filtered", 0)),
        shells=int(stats.get("newsstem/render/shells", 0)),
        unreadable_listings=int(stats.get("newsstem/discovery/unreadable", 0)),
        limit_pages=int(stats.get("newsstem/depth/limit_pages", 0)),
        depth_limit=int(stats.get("newsstem/depth/limit", 0)),
        depth_limit_min=int(stats.get("newsstem/depth/limit_min",
                                      stats.get("newsstem/depth/limit", 0))),
        archived=int(stats.get("newsstem/archive/read", 0)),
        older=int(stats.get("newsstem/archive/older", 0)),
        offline=offline,
        damaged=int(stats.get("newsstem/archive/unreadable", 0)),
        jobdir=jobdir,
        queued=queued,
        url_store=url_store,
        no_feed=no_feed,
        close_limit=close_limit,
        replaced=replaced,
        default_directories=default_directories,
        unwritten=unwritten,
        unmarked=int(stats.get("newsstem/urldb/unmarked", 0)),
        failed=_by_suffix(stats, "newsstem/errors/"),
        layout_changes=_layout_changes(stats),
        relearned={
            name[len(_RELEARN_PREFIX) :]: str(value)
            for name, value in stats.items()
            if name.startswith(_RELEARN_PREFIX)
        },
    )
    if summary.pages or summary.articles or summary.unwritten or (offline and summary.archived):
        outcome = OK
    elif offline:  # nothing fetched, nothing to fail: an archive without HTML pages
        outcome = IDLE
    elif summary.errors or summary.robots_refused or summary.offsite:
        outcome = NOTHING_REACHED
    else:
        outcome = IDLE
    return replace(summary, outcome=outcome)


class StartRead:
    """Spider middleware: whether the engine read the spider's start requests to their
    end (or to the error that ended them), for :class:`RunReport`: a crawl stopped
    before drops the ones not read."""

    def __init__(self) -> None:
        self.read = False

    async def process_start(self, start: AsyncIterator[Any]) -> AsyncIterator[Any]:
        try:
            async for item_or_request in start:
                yield item_or_request
        except Exception:  # (a CloseSpider or a failure: the engine reads no further)
            self.read = True
            raise
        self.read = True


def scheduled_requests(crawler: Crawler) -> int | None:
    """The requests in the crawl's scheduler: at ``spider_opened``, those of the queue
    resumed from its ``JOBDIR`` (the scheduler is open by then). None if not known: no
    engine or scheduler yet, or one that does not count its requests (``engine.scheduler``:
    Scrapy >= 2.19)."""
    scheduler = getattr(crawler.engine, "scheduler", None)
    return len(scheduler) if hasattr(scheduler, "__len__") else None


class RunReport:
    """Extension: log the run's summary at the end, put it in the stats, judge the run.

    The summary is made when the engine stops, after every ``spider_closed``
    handler has counted (the URL store's last marks, feeds being stored); it
    runs before :class:`~newsstem.extensions.StatsFile` writes the stats (a
    smaller ``EXTENSIONS`` order connects it first).
    """

    def __init__(
        self, stats: StatsCollector, offline: bool = False, jobdir: str | None = ""
    ) -> None:
        self.stats = stats
        self.pages = 0
        self.offline = offline  # the spider reads archives (scrapy extract): fetches nothing
        self.jobdir = jobdir  # JOBDIR, "" without one, None: a distributed worker's shared queue
        # the crawl has a URL store (its middleware was made): known once the engine started
        self.url_store = False
        self.summary: RunSummary | None = None
        self._crawler: Crawler | None = None
        # requests a JOBDIR's queue held when the crawl started (resumed): counted as
        # dequeued, never as enqueued, by this run's scheduler stats (None: not known)
        self._resumed: int | None = 0
        self.queued: int | None = None  # left in the scheduler when the spider closed
        self.no_feed = False  # no -o/-O or FEEDS, no pipeline storing the articles

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> RunReport:
        from newsstem.distributed.connection import is_distributed

        settings = crawler.settings
        report = cls(
            crawler.stats,
            offline=getattr(crawler.spidercls, "reads_archives", False),
            jobdir=None if is_distributed(settings) else str(settings.get("JOBDIR") or ""),
        )
        crawler.signals.connect(report.response_received, signal=signals.response_received)
        crawler.signals.connect(report.engine_stopped, signal=signals.engine_stopped)
        report._crawler = crawler
        # FEED_URI: Scrapy's deprecated one-feed setting, which it still exports to
        report.no_feed = not settings.getdict("FEEDS") and not settings.get("FEED_URI") and (
            settings.get("NEWSSTEM_URLDB_MARK_AFTER", defaults.NEWSSTEM_URLDB_MARK_AFTER)
            != "item_scraped")
        crawler.signals.connect(report.engine_started, signal=signals.engine_started)
        crawler.signals.connect(report.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(report.spider_closed, signal=signals.spider_closed)
        return report

    def engine_started(self) -> None:
        from newsstem.urldb.middleware import UrlDbMiddleware

        if self._crawler is not None:  # (its middleware is made with the engine)
            self.url_store = self._crawler.get_spider_middleware(UrlDbMiddleware) is not None

    def spider_opened(self) -> None:
        if not self.jobdir or self._crawler is None:
            return  # only a JOBDIR's queue is resumed
        self._resumed = scheduled_requests(self._crawler)

    def spider_closed(self) -> None:
        """How many requests the stopped crawl left in its queue, from Scrapy's
        ``scheduler/enqueued`` and ``scheduler/dequeued``: final here, after the requests
        in flight were answered and the scheduler closed. Not known (None) while start
        requests were still unread (:class:`StartRead`), which a stop drops as well."""
        if self.jobdir is None or self._crawler is None or self._resumed is None:
            return  # a queue shared with other workers: the summary has no line about it
        start = self._crawler.get_spider_middleware(StartRead)
        if start is None or not start.read:
            return
        stats = self.stats
        self.queued = (self._resumed + stats.get_value("scheduler/enqueued", 0)
                       - stats.get_value("scheduler/dequeued", 0))

    def response_received(self, response: Response, request: Request, spider: Spider) -> None:
        if request.meta.get("dont_obey_robotstxt"):  # robots.txt itself (RobotsTxtMiddleware)
            return
        if 200 <= response.status < 300:
            self.pages += 1

    def engine_stopped(self) -> None:
        self.summary = summarize(
            self.stats.get_stats(), self.pages, self.offline, self.jobdir, self.url_store,
            self.queued, self.no_feed, self._close_limit(), self._replaced(),
            self._default_directories(),
        )
        for name, value in self.summary.stats().items():
            self.stats.set_value(name, value)
        logger.info("\n".join(self.summary.lines()))
        if self.summary.outcome == NOTHING_REACHED:
            offsite = self.summary.offsite
            logger.error(
                "newsstem: the crawl reached nothing: every request failed (%d errors, "
                "%d refused by robots.txt%s) and no article was exported; check the start URLs, "
                "the network and the site (exit status %d)",
                self.summary.errors,
                self.summary.robots_refused,
                f", {offsite} redirected off the site" if offsite else "",
                EXIT_NOTHING_REACHED,
            )

    def _replaced(self) -> tuple[OutputFile, ...]:
        """The local -O files (no ``%(…)s`` in their names) of a crawl with a URL store that
        the same command would empty: none of a crawl whose queue JOBDIR kept, whose
        resumed crawl appends to its JSON Lines files and moves its JSON, XML and CSV
        files aside (:meth:`newsstem.urldb.feeds.NewsFeedExporter.open_spider`)."""
        from newsstem.urldb.feeds import JSON_LINES, empties_local_file

        if self._crawler is None or not self.url_store or self.jobdir:
            return ()
        files = []
        for uri, options in self._crawler.settings.getdict("FEEDS").items():
            uri = str(uri)
            if not empties_local_file(uri, options):
                continue
            json_lines = str(options.get("format")) in JSON_LINES
            files.append(OutputFile(uri, appendable=json_lines))
        return tuple(files)

    def _default_directories(self) -> tuple[str, ...]:
        """What the default URL rules of the crawl's own scope accepted (() with rules)."""
        scope = getattr(getattr(self._crawler, "spider", None), "scope", None)
        return tuple(getattr(scope, "default_directories", ()) or ())

    def _close_limit(self) -> str:
        """The value of the CLOSESPIDER_* setting that closed the crawl ("" if none did)."""
        if self._crawler is None:
            return ""
        return close_limit(self._crawler.settings, self.stats.get_value("finish_reason"))

    @property
    def reached_nothing(self) -> bool:
        return self.summary is not None and self.summary.outcome == NOTHING_REACHED
