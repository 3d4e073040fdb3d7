"""Defaults of every ``NEWSSTEM_*`` setting, declared once.

``newsstem.settings`` imports them, and components read a setting with the
default from here (``settings.getint(name, defaults.NAME)``), so they also work
when enabled in another Scrapy project. Each one is documented in README.md.
"""

# Crawl scope -----------------------------------------------------------------
# Start URLs when no ``-a start_url=`` is given (a list, or one string of URLs
# separated by whitespace).
NEWSSTEM_START_URLS: list[str] = []
# Ordered URL rules, "+REGEX" accepts, "-REGEX" rejects, first match wins, no
# match rejects (Webstemmer's -a/-j). Empty: accept what lies under a start
# URL's directory and reject media files.
NEWSSTEM_URL_RULES: list[str] = []
# Anchor texts kept per linked URL (for title detection); a link-heavy site can
# link one page from hundreds of places, the first few texts carry the signal.
NEWSSTEM_MAX_ANCHOR_TEXTS = 20

# Articles ----------------------------------------------------------------------
# A page whose main text has fewer meaningful characters (letters, digits, CJK
# characters; punctuation and spaces excluded) is a hub, not an article: its links
# are followed, it is not exported. 200 is about two sentences of English or a
# short paragraph of Japanese; index pages that slip through readability rarely
# keep that much unlinked text.
NEWSSTEM_MIN_ARTICLE_CHARS = 200
# What an article's ``body`` holds: "text" (paragraphs separated by a blank line),
# "markdown" (the same paragraphs with headings, lists, quotes and tables marked up:
# what RAG and LLM pipelines read) or "html" (the cleaned article HTML). ``length``
# counts the text in every format.
NEWSSTEM_BODY_FORMAT = "text"
# In Markdown bodies, write links as [text](url); off: their text only (readability
# path; a learned layout keeps no link targets).
NEWSSTEM_BODY_LINKS = False
# Also export the cleaned article HTML as ``body_html`` (null when off), whatever
# NEWSSTEM_BODY_FORMAT is (for pattern articles: the body's paragraphs as <p> elements).
NEWSSTEM_BODY_HTML = False

# Layout patterns (issue 4) ---------------------------------------------------------
# Directory of learned pattern files, one JSON file per site (``scrapy learn`` writes
# them); pages of a site with patterns are extracted by pattern, others by readability.
# Empty: no patterns.
NEWSSTEM_PATTERNS_DIR = "patterns"
# Also read the pattern files shipped inside the installed package (a scrapyd egg
# carries the repository's patterns/); a file of NEWSSTEM_PATTERNS_DIR replaces the
# package's file of the same site. A checkout has none.
NEWSSTEM_PATTERNS_BUNDLED = True
# Least similarity of a page to a pattern of its site (0-1): pages of a learned layout
# score 0.78-1.0 on the cleanportal sites, pages of other layouts 0.0-0.2.
NEWSSTEM_PATTERN_THRESHOLD = 0.7
# Strict matching (Webstemmer's -S): a page lacking any block that every learned page
# of the layout had matches nothing.
NEWSSTEM_PATTERN_STRICT = False
# Write every response, with the page's anchor texts and fetch time, to this WARC
# file (gzipped; appended to if it exists). Empty: off.
NEWSSTEM_ARCHIVE = ""

# Discovery and metadata ---------------------------------------------------------
# Follow the RSS/Atom feeds pages announce (<link rel="alternate" type=...rss+xml>);
# their entries are links of the feed (one level deeper than the page).
NEWSSTEM_FOLLOW_FEEDS = True
# Fill the metadata fields of every article (MetadataPipeline).
NEWSSTEM_METADATA = True
# When a page states no date in its markup or near its headline, ask htmldate
# (URL, markup patterns; ~4 ms a page) ...
NEWSSTEM_METADATA_HTMLDATE = True
# ... and let it also search all the text with dateparser (35 ms a page on average,
# seconds on a few; it also takes dates from link URLs, so it is off by default).
NEWSSTEM_METADATA_HTMLDATE_EXTENSIVE = False

# Operations --------------------------------------------------------------------
# Write the run's Scrapy stats as JSON to this path when the crawl ends (for cron
# jobs and monitoring); empty: off.
NEWSSTEM_STATS_FILE = ""

# URL store (newsstem.urldb) -------------------------------------------------------
# Where recurring crawls remember URLs (a URI): "sqlite:///name.sqlite" lives in
# the project's .scrapy/ dir (like HTTPCACHE_DIR), "sqlite:////abs/path.sqlite"
# anywhere, "redis://host:port/db" is shared by several processes or machines;
# "" switches the store off.
NEWSSTEM_URLDB = "sqlite:///newsstem-urldb.sqlite"
# Fetch and export articles again even if the store says they were exported
# (the spider argument -a refresh=1 does the same for one crawl).
NEWSSTEM_URLDB_REFRESH = False
# Exports are recorded in batches, each after the feed files are fsynced: at
# most this many articles, or those of this many seconds, are exported again
# after a hard kill. 100 fsyncs cost well under 1% of a crawl's time.
NEWSSTEM_URLDB_SYNC_ITEMS = 100
NEWSSTEM_URLDB_SYNC_SECONDS = 5.0
# When an article counts as exported: "feed" = once durably in every feed
# output (local JSON Lines/CSV files: after each fsync; other feeds: when the
# crawl has finished); "item_scraped" = once it has passed every item pipeline,
# for projects whose pipelines store the items themselves.
NEWSSTEM_URLDB_MARK_AFTER = "feed"

# Distributed mode (newsstem.distributed) --------------------------------------------
# A Redis URL ("redis://host:6379/0") runs the news spider as one worker of a crawl
# shared by any number of processes on any number of machines: scrapy-redis
# scheduler queue, a duplicate filter and the URL store in that Redis, start URLs
# also taken from the key newsstem:<spider>:start_urls. "" = a single process.
NEWSSTEM_DISTRIBUTED = ""
# A worker stops after this many seconds without work (nothing in the shared queue
# or the start key, nothing in progress); 0 = never (stop it with SIGTERM/SIGINT).
# A minute outlasts the gaps of a crawl (AutoThrottle waits up to 30 s between
# requests) and lets workers started by cron end on their own.
NEWSSTEM_DISTRIBUTED_IDLE = 60.0
# The shared duplicate filter forgets a site's URLs this many seconds after the last
# link to that site was seen: a crawl of the site started later fetches its hubs
# again (the URL store still skips exported articles). Longer than the longest
# pause inside a crawl, shorter than the interval between two crawls of a site.
NEWSSTEM_DISTRIBUTED_FORGET = 600
