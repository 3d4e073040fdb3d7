"""Every stat newsstem counts, with what it means: the stats reference, declared once.

Components count with Scrapy's stats collector, under ``newsstem/<component>/…``.
The documentation's stats page is generated from :data:`STATS`, and
``tests/test_stats.py`` reads every stat name the source writes and checks it against
this table both ways: a stat counted without a line here, or a line for a stat that
nothing counts, fails the tests. ``<…>`` marks a part of a name that varies.

    >>> by_name = {stat.name: stat for stat in STATS}
    >>> by_name["newsstem/dropped/<reason>"].group
    'Extraction'
    >>> len(by_name) == len(STATS)
    True
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["STATS", "Stat"]


@dataclass(frozen=True)
class Stat:
    """One stat (or family of stats: ``<…>`` varies) and what it counts, in Markdown."""

    name: str
    meaning: str
    group: str


def _group(group: str, *stats: tuple[str, str]) -> tuple[Stat, ...]:
    return tuple(Stat(name, meaning, group) for name, meaning in stats)


STATS: tuple[Stat, ...] = (
    *_group(
        "Extraction",
        ("newsstem/method/<method>",
         "exported articles by extraction method (`readability`, `pattern:<id>`, `visual`); "
         "copies dropped as duplicates are not counted"),
        ("newsstem/dropped/<reason>",
         "pages not exported: `too_short` (hubs), `no_article`, `not_html`, `hub_layout` "
         "(a hub pattern matched), `error` (extraction raised: a bug, logged with its "
         "traceback and the page's URL; the crawl goes on), `duplicate` (a copy of an "
         "article already exported: its canonical URL, or the copy that stood for it)"),
        ("newsstem/patterns/<site>/matched",
         "pages of a site with patterns that matched one (article or hub)"),
        ("newsstem/patterns/<site>/unmatched",
         "pages of a site with patterns that matched none"),
        ("newsstem/patterns/<site>/matched_rate", "matched / (matched + unmatched) so far"),
        ("newsstem/patterns/<site>/articles_matched_rate",
         "of the site's pages with an article (an article pattern matched, or the fallback "
         "found article text; hub pages left out), the share an article pattern matched "
         "so far"),
        ("newsstem/patterns/<site>/too_short",
         "matched an article pattern but its main text was too short, even with the blocks "
         "the guard confirmed: readability's article was used"),
        ("newsstem/patterns/<site>/nearest",
         "matched no pattern, but came near an article pattern that read it, its text "
         "agreeing with readability's article (counted as unmatched too)"),
        ("newsstem/patterns/<site>/disagreed",
         "matched an article pattern, and the guard (the fallback read the page too: the "
         "pattern was unsure of blocks it never learned) changed its text or used the "
         "fallback's article"),
        ("newsstem/patterns/<site>/before_load",
         "pages of the site read with its previous pattern file before the crawl loaded one "
         "published in the URL store (by another worker, or by `learn --publish`) in its "
         "place (NEWSSTEM_SHARED_PATTERNS): the site's "
         "counts above start again then, so that they and its redesign check are of the "
         "pages read with the file the crawl ends with"),
        ("newsstem/patterns/<site>/layout_changed",
         "set when the crawl ends, for a site whose pages stopped fitting its patterns (a "
         "redesign): why, in words; the run summary names the site. Judged on the pages "
         "of several crawls (NEWSSTEM_REDESIGN_COUNTS), it ends with \"(crawls since "
         "<time>)\""),
        ("newsstem/patterns/<site>/judged_pages",
         "set when the crawl judged a site on the pages of earlier crawls too (it read "
         "fewer than NEWSSTEM_REDESIGN_MIN_PAGES of its own: NEWSSTEM_REDESIGN_COUNTS): "
         "how many pages"),
        ("newsstem/patterns/<site>/judged_since",
         "... and when the first of those crawls started (ISO 8601 UTC; with a Redis URL "
         "store, the crawls of every worker that shares it); NEWSSTEM_RELEARN learns the "
         "site again from the pages archived since then (this worker's NEWSSTEM_ARCHIVE)"),
    ),
    *_group(
        "Learning again",
        ("newsstem/relearn/<site>",
         "`NEWSSTEM_RELEARN`: what became of a redesigned site at the crawl's end: "
         "`written` (its new pattern file reads this crawl's pages better), `not better`, "
         "`no article layout`, `too few pages`, `cannot write` (`NEWSSTEM_PATTERNS_DIR` is "
         "not writable)"),
    ),
    *_group(
        "Shared pattern files",
        ("newsstem/shared_patterns/loaded",
         "`NEWSSTEM_SHARED_PATTERNS`: pattern files published in the Redis URL store (by "
         "a worker that learned the site again, or by `learn --publish`) that this crawl "
         "loaded in place of its own (at its start, or while it ran)"),
        ("newsstem/shared_patterns/published",
         "pattern files this crawl learned again (`NEWSSTEM_RELEARN`) and published in the "
         "Redis URL store for the other workers"),
        ("newsstem/shared_patterns/not_published",
         "pattern files this crawl learned again that the store did not take: it holds one "
         "of the site learned later (that one stays), or it could not be reached"),
    ),
    *_group(
        "Archive",
        ("newsstem/archive/responses", "`response` records written to `NEWSSTEM_ARCHIVE`"),
        ("newsstem/archive/pages", "page `metadata` records written to `NEWSSTEM_ARCHIVE`"),
        ("newsstem/archive/read", "`scrapy extract`: archived HTML pages read"),
        ("newsstem/archive/skipped",
         "`scrapy extract`: records that are no HTML page of status 200 (a PDF, JSON, an "
         "error page), skipped whatever their URL: a PDF capture of a URL also captured as "
         "HTML counts here, not in `older`"),
        ("newsstem/archive/older",
         "`scrapy extract`: older HTML captures of a URL captured as HTML again later (an "
         "archive appended to by several crawls), skipped: each URL's latest HTML capture "
         "is read"),
        ("newsstem/archive/unreadable",
         "`scrapy extract`: archives damaged part-way (the pages after the damage are not "
         "read; the command exits with status 1)"),
    ),
    *_group(
        "Links and discovery",
        ("newsstem/links/followed", "link requests made (before duplicate filtering)"),
        ("newsstem/links/cleaned",
         "links followed without their share/tracking arguments (NEWSSTEM_TRACKING_PARAMS)"),
        ("newsstem/links/rejected/<why>",
         "links not followed: `rules`, `offsite`, `nofollow`, `scheme`"),
        ("newsstem/depth/revisited",
         "pages fetched again because they were found at a smaller depth"),
        ("newsstem/depth/limit_pages",
         "pages at the depth limit (`-a depth`, `DEPTH_LIMIT`): their links were not followed"),
        ("newsstem/depth/limit",
         "the depth of those pages (the deepest, if their scopes' limits differ)"),
        ("newsstem/depth/limit_min",
         "the shallowest depth of those pages (less than `newsstem/depth/limit` when the "
         "scopes' limits differ: a distributed worker's start messages)"),
        ("newsstem/discovery/sitemaps", "sitemaps (indexes included) read"),
        ("newsstem/discovery/feeds", "feeds read"),
        ("newsstem/discovery/sitemap_entries", "URLs the sitemaps listed (after `since`)"),
        ("newsstem/discovery/feed_entries", "URLs the feeds listed (after `since`)"),
        ("newsstem/discovery/too_old", "entries and sitemaps skipped by `since`"),
        ("newsstem/discovery/rejected/<why>",
         "listed URLs not crawled: `rules`, `offsite`, `scheme` (robots.txt refusals count "
         "in Scrapy's `robotstxt/forbidden`)"),
        ("newsstem/discovery/feeds_linked", "feeds announced by crawled pages"),
        ("newsstem/discovery/robots_without_sitemaps",
         "robots.txt files `-a sitemap=robots` read that list no sitemap, or could not "
         "read (HTTP 404, a failed download) (a WARNING each)"),
        ("newsstem/discovery/unreadable", "listings that were neither a sitemap nor a feed"),
        ("newsstem/scope/unreadable",
         "responses whose request's scope could not be rebuilt (logged; neither exported "
         "nor followed)"),
    ),
    *_group(
        "Metadata",
        ("newsstem/metadata/articles", "articles the metadata pipeline saw"),
        ("newsstem/metadata/<field>",
         "articles that got `<field>` (`published`, `authors`, `language`, …)"),
        ("newsstem/metadata/headline/<source>",
         "articles whose exported `title` is the headline decided from `<source>` "
         "(`heading`, `json-ld`, `og:title`, `twitter:title`, `meta:title`, `pattern`, "
         "`extraction`, `anchor`, `title`: see [Headlines](../output.md#headlines))"),
        ("newsstem/metadata/error",
         "articles whose metadata could not be read (a bug, logged with its traceback): "
         "exported without it"),
        ("newsstem/metadata/no_page",
         "articles that reached the pipeline without their page (made by other code)"),
    ),
    *_group(
        "URL store",
        ("newsstem/urldb/new", "URLs the store had never seen (links and fetched pages)"),
        ("newsstem/urldb/skipped",
         "URLs not fetched: their article was exported by an earlier crawl (each URL once, "
         "however many links to it)"),
        ("newsstem/urldb/withheld",
         "pages fetched anyway (start pages, redirect targets) whose article was exported "
         "before: not exported again"),
        ("newsstem/urldb/hubs",
         "exported pages fetched again as hubs for their links (an earlier crawl found "
         "articles through them; each once): their share of withheld"),
        ("newsstem/urldb/exported", "articles recorded as exported (durably in the output)"),
        ("newsstem/urldb/syncs", "batches of exports fsynced and recorded"),
        ("newsstem/urldb/unmarked",
         "articles exported but not recorded (no feed, a feed that failed to store, those "
         "scraped from the moment a feed file could not be opened, those in a feed to a "
         "character device such as `-O /dev/null`, a store that still did not answer at the "
         "crawl's end): the next crawl exports them again"),
        ("newsstem/urldb/errors",
         "store or fsync failures during the crawl, pings of a store that is out included "
         "(an fsync failure logged each time, a store outage once; the crawl goes on, "
         "fetching rather than skipping)"),
        ("newsstem/urldb/busy_seconds",
         "time the crawl spent in the URL store (lookups, marks, fsyncs)"),
    ),
    *_group(
        "Feed files",
        ("newsstem/feeds/refused",
         "`-O` feed files left alone because another crawl wrote them since this one "
         "started, one ERROR line each: no article of the crawl is written to them, nor "
         "recorded as exported in the URL store (the next crawl exports them)"),
        ("newsstem/feeds/unwritten",
         "articles written to no file because the `-O` feed files taking them were refused "
         "(another crawl's): extracted, not counted as exported in the run summary; the "
         "next crawl exports them"),
    ),
    *_group(
        "Failed requests",
        ("newsstem/errors/<kind>",
         "requests that failed for good, one WARNING line each (URL and reason), no "
         "traceback: `dns`, `refused`, `timeout`, `connection`, `unreachable`, `tls`, "
         "`size_limit` (over `DOWNLOAD_MAXSIZE`), `http_<status>` (4xx/5xx), in browser mode "
         "also `redirects` (too many) and `browser` (a crashed tab or browser), `other`; a "
         "robots.txt that failed counts here too (its site's pages are then allowed)"),
        ("newsstem/allowed/http_<status>",
         ("responses of a 4xx/5xx status the crawl allowed (`HTTPERROR_ALLOWED_CODES`, "
          "`HTTPERROR_ALLOW_ALL`, a spider's `handle_httpstatus_list`, a request's "
          "`handle_httpstatus_list`/`handle_httpstatus_all` meta, as Scrapy's "
          "HttpErrorMiddleware reads them), handed to the spider: not failed requests, and "
          "pages, not errors, in the run summary")),
    ),
    *_group(
        "Browser mode",
        ("newsstem/render/unfinished",
         "pages read (not failed) while a fetch/XMLHttpRequest of their script was still "
         "in flight after `NEWSSTEM_RENDER_WAIT` (their text may be missing), one WARNING "
         "line each; see [Browser mode](../render.md)"),
        ("newsstem/render/shells",
         ("pages of a crawl without `-a render=1` dropped as `no_article` that had scripts "
          "and less text than `NEWSSTEM_MIN_ARTICLE_CHARS` (script-built shells, which "
          "browser mode reads); the run summary's `built by script?` line")),
    ),
    *_group(
        "Run summary",
        ("newsstem/summary/outcome",
         "`ok`, `nothing_reached` (every request failed: exit status 3) or `idle` (no "
         "request made, e.g. a worker given no work)"),
        ("newsstem/summary/articles",
         "articles exported (to a feed, or scraped when there is none); not those written "
         "to no file (`newsstem/feeds/unwritten`)"),
        ("items_per_minute",
         "items per minute over the run, set at its end (Scrapy's LogStats stat; `scrapy "
         "extract`'s periodic line, which counts pages read and articles, sets it too)"),
        ("newsstem/summary/pages",
         "pages fetched (2xx, and 4xx/5xx the crawl allowed: `newsstem/allowed/<…>`; "
         "robots.txt aside); 0 in `scrapy extract`, which fetches nothing (its pages read: "
         "`newsstem/archive/read`)"),
        ("newsstem/summary/dropped", "pages not exported"),
        ("newsstem/summary/skipped_known",
         "URLs skipped by the URL store (exported by an earlier crawl; each once)"),
        ("newsstem/summary/errors",
         "errors: download errors, HTTP errors ≥ 400 other than robots.txt's and the "
         "statuses the crawl allowed (each attempt: a status Scrapy retried counts each "
         "time), spider exceptions, URL store errors"),
        ("newsstem/summary/robots_refused", "robots.txt refusals"),
    ),
    *_group(
        "Distributed mode",
        ("newsstem/distributed/start_messages", "start messages taken from Redis"),
        ("newsstem/distributed/rejected_messages",
         ("start messages dropped as unreadable, naming arguments the spider does not "
          "take, or giving values it cannot use (a URL not http(s), a depth not a "
          "number)")),
        ("newsstem/distributed/redis_errors",
         "failed calls to Redis (the queue, the shared filter, start messages): the worker "
         "tries again with backoff"),
        ("newsstem/distributed/kept_requests",
         "requests kept in memory while Redis did not answer, queued when it answered again"),
        ("newsstem/distributed/lost_requests",
         "requests still kept when the worker stopped before Redis answered again, not "
         "queued: the pages they were found on go back in the queue (lost without the "
         "hand-off: another SCHEDULER_QUEUE_CLASS, a blocking pop)"),
        ("newsstem/distributed/recovered_pops",
         "requests taken from the queue by a call whose reply never came (Redis paused), "
         "found under the worker's key when Redis answered again and crawled"),
        ("newsstem/distributed/recovered_start_messages",
         "start messages taken by a pop whose reply never came (Redis paused), found under "
         "the worker's key when Redis answered again and scheduled"),
        ("newsstem/distributed/requeued_from_dead_workers",
         "requests that workers whose heartbeat lapsed (killed, out of memory, machine down) "
         "had taken and not finished, put back in the shared queue by this worker (start "
         "messages they had taken and not yet queued go back to the start list, counted "
         "here too)"),
        ("newsstem/distributed/requeued_at_stop",
         "requests this worker took and did not finish, put back in the shared queue when it "
         "stopped (the URL store could not record their exports, a feed file could not be "
         "opened: their articles are in no output, or a second signal; start messages whose "
         "requests it could not queue go back to the start list, counted here too)"),
        ("dupefilter/filtered",
         "requests the duplicate filter refused (Scrapy's stat; in distributed mode counted "
         "for the shared filter)"),
        ("scheduler/enqueued/redis", "requests put in the shared queue (scrapy-redis's stat)"),
        ("scheduler/dequeued/redis",
         "requests taken from the shared queue (scrapy-redis's stat)"),
    ),
)
