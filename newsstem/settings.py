"""Scrapy settings of the newsstem project.

Scrapy's own settings are used as they are; newsstem's are ``NEWSSTEM_*`` and
their defaults live in :mod:`newsstem.defaults`. Everything here can be
overridden with ``-s NAME=VALUE`` or in a scrapyd ``schedule.json`` call.
"""

from scrapy.settings import default_settings as _scrapy

from newsstem import __version__
from newsstem.defaults import *  # noqa: F401,F403  (every NEWSSTEM_* default)

BOT_NAME = "newsstem"
SPIDER_MODULES = ["newsstem.spiders"]
NEWSPIDER_MODULE = "newsstem.spiders"

# Identify the crawler; set a contact URL of yours for production crawls:
# -s USER_AGENT="newsstem/0.1 (+https://your.org/crawler)".
USER_AGENT = f"newsstem/{__version__} (news corpus crawler; Scrapy)"

# robots.txt, with the first-burst race of Scrapy 2.14-2.19 fixed.
ROBOTSTXT_OBEY = True
# newsstem's components are in the *_BASE settings, with Scrapy's own (Scrapy merges
# DOWNLOADER_MIDDLEWARES, SPIDER_MIDDLEWARES and EXTENSIONS into them): a component of
# yours given there (-s, scrapyd, a spider's custom_settings) is added to newsstem's,
# where a value given for the setting newsstem set would replace them all: -s
# SPIDER_MIDDLEWARES='{…}' would leave out the archive (NEWSSTEM_ARCHIVE set, no WARC
# written, nothing said) and the URL store, -s DOWNLOADER_MIDDLEWARES bring back Scrapy's
# racy robots.txt middleware.
DOWNLOADER_MIDDLEWARES_BASE = {
    **_scrapy.DOWNLOADER_MIDDLEWARES_BASE,
    "scrapy.downloadermiddlewares.robotstxt.RobotsTxtMiddleware": None,
    "newsstem.middlewares.SafeRobotsTxtMiddleware": 100,
    # A failed request is one WARNING line and a count (newsstem/errors/<kind>), not a
    # traceback: next to the engine, after retries and redirects had their turn.
    "newsstem.middlewares.DownloadErrors": 50,
}
# Retries that give up are logged by DownloadErrors, in one line with the URL and why.
RETRY_GIVE_UP_LOG_LEVEL = "DEBUG"
# Scrapy's "Scraped from" and "Dropped" lines (DEBUG) with long texts shortened: not
# every article's whole body and every hub page's whole HTML.
LOG_FORMATTER = "newsstem.logformatter.ShortItemLogFormatter"

# Depth: 1 = the start pages and the pages they link to (Webstemmer's default).
# `-a depth=N` overrides it. Breadth-first order so that pages within the limit
# are reached by their shortest path, and a duplicate filter that re-admits a
# page found again at a smaller depth (concurrency makes BFS only near-BFS).
DEPTH_LIMIT = 1
DEPTH_PRIORITY = 1
SCHEDULER_DISK_QUEUE = "scrapy.squeues.PickleFifoDiskQueue"
SCHEDULER_MEMORY_QUEUE = "scrapy.squeues.FifoMemoryQueue"
DUPEFILTER_CLASS = "newsstem.dupefilter.DepthAwareDupeFilter"

# newsstem's pipelines are the base (Scrapy merges ITEM_PIPELINES into ITEM_PIPELINES_BASE,
# which is empty in Scrapy): a pipeline of yours given in ITEM_PIPELINES (-s, scrapyd,
# a spider's custom_settings) runs with them; given as ITEM_PIPELINES, they would be
# replaced by it: pages exported whole, their HTML as "articles", and recorded as exported.
ITEM_PIPELINES_BASE = {
    "newsstem.pipelines.ExtractionPipeline": 300,
    "newsstem.pipelines.MetadataPipeline": 400,
    "newsstem.pipelines.DuplicatePipeline": 450,
}

# The WARC archive of NEWSSTEM_ARCHIVE (off unless set); next to the spider, so it
# sees each response with the page item made of it.
SPIDER_MIDDLEWARES_BASE = {
    **_scrapy.SPIDER_MIDDLEWARES_BASE,
    "newsstem.archive.WarcArchive": 950,
    # The URL store (below): close to the engine, it sees the links that survived
    # the depth limit and the other middlewares.
    "newsstem.urldb.middleware.UrlDbMiddleware": 100,
    # The run's summary (RunReport) knows the start requests were all read: outermost,
    # it sees the end of them as the engine does.
    "newsstem.operations.StartRead": 0,
}

EXTENSIONS_BASE = {
    **_scrapy.EXTENSIONS_BASE,
    "newsstem.extensions.OfflineTldExtract": 0,
    # The run's summary (log, stats, exit status 3 when every request failed);
    # before StatsFile, so the summary is in NEWSSTEM_STATS_FILE.
    "newsstem.operations.RunReport": 400,
    "newsstem.extensions.StatsFile": 500,
    # NEWSSTEM_RELEARN (off unless set): learn redesigned sites again at the crawl's end,
    # before the summary that reports it.
    "newsstem.extensions.Relearn": 300,
    # Scrapy's FeedExporter, which drops a feed whose -O file another crawl wrote since this
    # one started (newsstem.urldb.feeds): one ERROR line, not a traceback per article.
    "scrapy.extensions.feedexport.FeedExporter": None,
    "newsstem.urldb.feeds.NewsFeedExporter": 0,
}

# Politeness: adapt the delay to the server, a few requests at a time per site.
AUTOTHROTTLE_ENABLED = True
AUTOTHROTTLE_START_DELAY = 1.0
AUTOTHROTTLE_MAX_DELAY = 30.0
AUTOTHROTTLE_TARGET_CONCURRENCY = 2.0
CONCURRENT_REQUESTS_PER_DOMAIN = 8

# News pages are small; anything above 10 MiB is not an article page.
DOWNLOAD_MAXSIZE = 10 * 1024 * 1024
DOWNLOAD_WARNSIZE = 2 * 1024 * 1024

# Scrapy 2.19 opens a Python-executing RemoteControl server and a telnet console
# by default; a crawler of untrusted pages needs neither.
REMOTE_CONTROL_ENABLED = False
TELNETCONSOLE_ENABLED = False

FEED_EXPORT_ENCODING = "utf-8"

# One spider output at a time per response: newsstem's pipelines are CPU work in this
# thread with nothing to wait for, and Scrapy starts CONCURRENT_ITEMS asyncio tasks for
# every response whatever it yields (100 by default: 12 % of a crawl's CPU a page on the
# 2021-page site of tests/benchmarks/distributed.py; docs/benchmarks.md, Crawl CPU).
# Raise it for a pipeline of yours that awaits I/O.
CONCURRENT_ITEMS = 1

# URL store (newsstem.urldb; NEWSSTEM_URLDB* in newsstem.defaults; its middleware
# is in SPIDER_MIDDLEWARES_BASE above): skip articles exported by earlier crawls,
# record every link seen. Local feed files are written in whole lines and
# fsynced before exports are recorded, stdout (-o -) flushed (and fsynced if a
# file), so a killed crawl loses no article. In the base, as the components above: a
# FEED_STORAGES of yours (an upload scheme) is added to these.
FEED_STORAGES_BASE = {
    **_scrapy.FEED_STORAGES_BASE,
    "": "newsstem.urldb.feeds.DurableFileFeedStorage",
    "file": "newsstem.urldb.feeds.DurableFileFeedStorage",
    "stdout": "newsstem.urldb.feeds.FlushedStdoutFeedStorage",
}

# Distributed mode (newsstem.distributed): NEWSSTEM_DISTRIBUTED=redis://host:port/db
# makes this crawl one worker of a crawl shared through Redis; off when empty.
ADDONS = {
    "newsstem.distributed.DistributedMode": 0,
}

# `scrapy crawl` that validates spider arguments first; `scrapy learn` and
# `scrapy extract` (layout patterns from a WARC archive); `scrapy urldb` (the URL store).
COMMANDS_MODULE = "newsstem.commands"
