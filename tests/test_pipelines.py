"""MetadataPipeline (newsstem/pipelines.py) on items as the extraction pipeline makes them."""

from __future__ import annotations

import pytest
from itemadapter import ItemAdapter
from scrapy.exceptions import NotConfigured
from scrapy.statscollectors import MemoryStatsCollector
from scrapy.utils.test import get_crawler

from newsstem.items import Article, Page
from newsstem.pipelines import MetadataPipeline
from newsstem.readability.title import clean_title

HTML = """<html lang="en"><head><meta name="author" content="By Jane Doe">
<meta property="og:image" content="/img/lead.jpg"></head>
<body><h1>Headline</h1><p>The minister said that the plan was not ready and that it would be
changed by the end of the year, as the budget for this work is not yet in place.</p></body></html>"""


def _article(html: str = HTML, listed: str | None = None) -> Article:
    page = Page(url="https://site.example/a/1.html", site="site.example", html=html,
                encoding="utf-8", depth=0, fetched_at="2026-11-21T00:00:00Z",
                listed_published=listed)
    return Article(url=page.url, site=page.site, title="Headline", body="The minister said ...",
                   length=20, method="readability", depth=0, fetched_at=page.fetched_at, page=page)


def _pipeline(**settings) -> tuple[MetadataPipeline, MemoryStatsCollector]:
    crawler = get_crawler(settings_dict=settings)
    stats = MemoryStatsCollector(crawler)
    crawler.stats = stats
    return MetadataPipeline.from_crawler(crawler), stats


def test_fields_are_filled_counted_and_the_page_let_go():
    pipeline, stats = _pipeline()
    article = pipeline.process_item(_article())
    assert article.authors == ["Jane Doe"]
    assert article.image == "https://site.example/img/lead.jpg"
    assert article.language == "en"
    assert article.source is None
    assert stats.get_value("newsstem/metadata/articles") == 1
    assert stats.get_value("newsstem/metadata/authors") == 1
    assert stats.get_value("newsstem/metadata/section") is None


def test_a_listing_date_is_the_fallback():
    pipeline, stats = _pipeline()
    article = pipeline.process_item(_article(listed="2026-11-20T08:00:00+00:00"))
    assert article.published == "2026-11-20T08:00:00+00:00"
    dated = HTML.replace("<head>", '<head><meta property="article:published_time" content="2026-11-19">')
    assert pipeline.process_item(_article(dated, "2026-11-20T08:00:00+00:00")).published == "2026-11-19"


def test_the_page_is_never_exported():
    exported = ItemAdapter(_article()).asdict()
    assert "page" not in exported and "source" not in exported
    assert exported["authors"] == [] and exported["published"] is None


def test_other_items_pass_and_the_pipeline_can_be_switched_off():
    pipeline, _ = _pipeline()
    assert pipeline.process_item({"x": 1}) == {"x": 1}
    with pytest.raises(NotConfigured):
        _pipeline(NEWSSTEM_METADATA=False)


def _titled(number: int, title: str, anchors: list[str] | None = None, affixes=()) -> Article:
    html = (f"<html><head><title>{title}</title></head><body><p>"
            + "The council met again and the plan was changed once more. " * 5
            + "</p></body></html>")
    page = Page(url=f"https://planet.example/news/{number}.html", site="planet.example",
                html=html, encoding="utf-8", depth=1, fetched_at="2026-11-21T00:00:00Z",
                anchor_texts=anchors or [])
    # the extraction's title is readability's: the longest part of the <title>
    return Article(url=page.url, site=page.site, title=clean_title(title, []),
                   body="The council", length=20, method="readability", depth=1,
                   fetched_at=page.fetched_at, anchor_texts=page.anchor_texts, page=page,
                   title_affixes=affixes)


TITLES = ["Storm hits the coast | Daily Planet Online Edition",
          "Council changes the plan | Daily Planet Online Edition",
          "Rain at last | Daily Planet Online Edition",
          "Floods in the north | Daily Planet Online Edition",
          "Daily Planet Online Edition | Markets fall"]


def test_the_title_is_the_headline_the_site_name_learned_across_the_crawl():
    pipeline, stats = _pipeline()
    articles = [pipeline.process_item(_titled(i, t)) for i, t in enumerate(TITLES)]
    exported = [article.title for article in articles]
    # readability keeps the longest part of each <title>: the site's name; once three
    # pages shared it, it is known as the site's name and comes off
    assert [clean_title(t, []) for t in TITLES][3:] == ["Daily Planet Online Edition"] * 2
    assert exported[3:] == ["Floods in the north", "Markets fall"]
    # and it is the site_name of the pages that state none
    assert [a.site_name for a in articles] == [None] * 2 + ["Daily Planet Online Edition"] * 3
    assert sum(v for k, v in stats.get_stats().items()
               if k.startswith("newsstem/metadata/headline/")) == len(TITLES)


def test_a_pattern_file_gives_the_site_name_from_the_first_page():
    pipeline, _ = _pipeline()
    article = _titled(0, TITLES[0], affixes=("Daily Planet Online Edition",))
    assert pipeline.process_item(article).title == "Storm hits the coast"
    # without it, the first pages of a site keep the extraction's title
    fresh, _ = _pipeline()
    assert fresh.process_item(_titled(0, TITLES[0])).title == "Daily Planet Online Edition"


def test_anchor_texts_of_links_to_the_page_count():
    pipeline, _ = _pipeline()
    headline = "Storm hits the coast and the town"
    article = _titled(0, f"{headline} | Planet", anchors=[headline])
    article.title = "Planet news"  # a title block that held a banner
    assert pipeline.process_item(article).title == headline


def test_a_learned_title_block_counts_in_the_headline_decision():
    """The NYT's case (tests/fixtures/headlines, nytimes-pattern): og:title and the
    <title> say the social title, the h1 the headline; the title a pattern's title block
    gave (Article's title_source "pattern") ties them, and the visible heading wins."""
    social, headline = "Morsi Names Prime Minister", "Egyptian President Names a Premier"
    html = (f"<html><head><title>{social} - Planet</title>"
            f"<meta property='og:title' content='{social}'></head><body><h1>{headline}</h1>"
            "<p>" + "The council met again and the plan was changed once more. " * 5
            + "</p></body></html>")
    page = Page(url="https://planet.example/news/1.html", site="planet.example", html=html,
                encoding="utf-8", depth=1, fetched_at="2026-11-29T00:00:00Z")

    def exported(title_source: str) -> str:
        pipeline, _ = _pipeline()
        article = Article(url=page.url, site=page.site, title=headline, body="The council",
                          length=20, method="pattern:planet.example/1", depth=1,
                          fetched_at=page.fetched_at, page=page, title_source=title_source)
        return pipeline.process_item(article).title

    assert exported("pattern") == headline
    assert exported("extraction") == social  # readability's title is a candidate only


# -- DuplicatePipeline -------------------------------------------------------------------


STORY = "The minister said on Monday that she would leave office at the end of the week."


def _copy(url: str, canonical: str | None, title: str = "Minister resigns",
          body: str = STORY) -> Article:
    return Article(url=url, site="a.example", title=title, body=body,
                   length=400, method="readability", depth=1, fetched_at="2026-11-29T00:00:00Z",
                   canonical_url=canonical)


def _exports(items: list[Article], **options) -> tuple[list[str], dict]:
    from scrapy.exceptions import DropItem

    from newsstem.pipelines import DuplicatePipeline

    stats = MemoryStatsCollector(get_crawler())
    pipeline = DuplicatePipeline(stats, **options)
    kept = []
    for item in items:
        try:
            kept.append(pipeline.process_item(item).url)
        except DropItem:
            pass
    return kept, stats.get_stats()


ORIGINAL = "http://a.example/world/story.html"


def test_a_copy_after_its_article_and_an_article_after_its_copy_are_dropped():
    kept, stats = _exports([
        _copy(ORIGINAL, ORIGINAL),
        _copy("http://a.example/print/world/story.html", ORIGINAL),
        _copy(ORIGINAL + "?ref=rss", ORIGINAL),
    ])
    assert kept == [ORIGINAL] and stats["newsstem/dropped/duplicate"] == 2
    kept, _ = _exports([_copy(ORIGINAL + "?ref=rss", ORIGINAL), _copy(ORIGINAL, ORIGINAL)])
    assert kept == [ORIGINAL + "?ref=rss"]


def test_a_canonical_url_declared_by_mistake_or_on_another_site_makes_no_copy():
    home = "http://a.example/"
    elsewhere = "http://b.example/world/story.html"
    kept, stats = _exports([
        _copy(ORIGINAL, home, "Minister resigns"),  # every page naming the home page
        _copy("http://a.example/world/other.html", home, "Storm hits the coast"),
        _copy("http://a.example/world/third.html", elsewhere,
              body="The prime minister said on Tuesday that an election would follow soon."),
        _copy("http://a.example/world/fourth.html", elsewhere, "Storm hits the coast",
              body="The opposition leader said on Wednesday that the party was ready for it."),
        _copy("http://a.example/world/fifth.html", elsewhere,
              body="Her successor will be chosen by the party's members in a vote next month."),
    ])
    assert len(kept) == 5 and "newsstem/dropped/duplicate" not in stats


def test_pages_naming_one_original_on_another_site_are_one_article():
    # a mirror's story and its print page, both naming the original elsewhere (stop 34);
    # the print page adds a standfirst, so their openings (the text key) differ
    elsewhere = "http://b.example/world/story.html"
    later = "Her successor will be chosen by the party's members in a vote next month."
    standfirst = "A week of turmoil ends with the departure of the longest-serving minister."
    kept, stats = _exports([
        _copy("http://a.example/world/third.html", elsewhere, body=f"{STORY}\n{later}"),
        _copy("http://a.example/print/world/third.html", elsewhere,
              body=f"{standfirst}\n{STORY}\n{later}"),
    ])
    assert kept == ["http://a.example/world/third.html"]
    assert stats["newsstem/dropped/duplicate"] == 1


def test_copies_without_a_canonical_url_are_known_by_headline_and_opening_text():
    # no metadata (or none declared): a print page and a tracking variant of one article
    later = "Her successor will be chosen by the party's members in a vote next month."
    kept, stats = _exports([
        _copy(ORIGINAL, None, body=f"{STORY}\n{later}"),
        _copy("http://a.example/print/world/story.html", None, body=f" {STORY.upper()} \n{later}"),
        _copy(ORIGINAL + "?ref=rss", None, body=f"{STORY}\n{later}\nComments are closed now, "
              "as the story is more than a week old."),
        # the same headline over another opening: a follow-up, exported
        _copy("http://a.example/world/story-2.html", None, body=f"{later}\n{STORY}"),
        # the same text under another headline: exported
        _copy("http://a.example/world/story-3.html", None, "Minister quits",
              body=f"{STORY}\n{later}"),
        # the same text on another site: exported (each site's articles are its own)
        Article(url="http://b.example/world/story.html", site="b.example",
                title="Minister resigns", body=f"{STORY}\n{later}", length=400,
                method="readability", depth=1, fetched_at="2026-11-29T00:00:00Z"),
    ])
    assert kept == [ORIGINAL, "http://a.example/world/story-2.html",
                    "http://a.example/world/story-3.html", "http://b.example/world/story.html"]
    assert stats["newsstem/dropped/duplicate"] == 2


def test_a_next_page_naming_the_first_canonical_is_no_copy():
    # page 2 of an article, its canonical URL page 1, the same headline: its own text
    page_two = "Her successor will be chosen by the party's members in a vote next month."
    kept, stats = _exports([
        _copy(ORIGINAL, ORIGINAL),
        _copy(ORIGINAL + "?page=2", ORIGINAL, body=page_two),
        _copy(ORIGINAL + "?share=mail", ORIGINAL),
    ])
    assert kept == [ORIGINAL, ORIGINAL + "?page=2"]
    assert stats["newsstem/dropped/duplicate"] == 1


def test_a_long_crawl_remembers_its_latest_articles_only():
    # a worker that never stops (NEWSSTEM_DISTRIBUTED_IDLE=0) grew by ~1.2 KB an article
    # for ever (stop 34's review); the oldest are forgotten here, the URL store knows them
    stories = [_copy(f"http://a.example/world/{n}.html", None, f"Story {n}",
                     body=f"{STORY} Part {n} of the series on the resignation.")
               for n in range(4)]
    copy_of_last = _copy("http://a.example/print/3.html", None, "Story 3", stories[3].body)
    copy_of_first = _copy("http://a.example/print/0.html", None, "Story 0", stories[0].body)
    kept, _ = _exports([*stories, copy_of_last, copy_of_first], remembered=2)
    assert kept == [s.url for s in stories] + ["http://a.example/print/0.html"]
    kept, _ = _exports([*stories, copy_of_last, copy_of_first])
    assert kept == [s.url for s in stories]


def _held(obj, seen=None) -> int:
    """Bytes an object holds: sys.getsizeof of it and of what its containers hold."""
    import sys

    seen = set() if seen is None else seen
    if id(obj) in seen:
        return 0
    seen.add(id(obj))
    size = sys.getsizeof(obj)
    if isinstance(obj, dict):
        return size + sum(_held(k, seen) + _held(v, seen) for k, v in obj.items())
    if isinstance(obj, (list, tuple, set, frozenset)):
        return size + sum(_held(item, seen) for item in obj)
    return size


def test_an_exported_article_costs_the_duplicate_filter_a_few_hundred_bytes():
    # it remembers the last 100,000 articles: the hashes of each one's first paragraphs,
    # a frozenset of 8 ints, held ~1 KB of the ~1.1 KB an article cost (~110 MB; stop
    # 49's crawl memory); packed in bytes, compared as before
    from newsstem.pipelines import DuplicatePipeline

    pipeline = DuplicatePipeline(MemoryStatsCollector(get_crawler()))
    for n in range(50):
        pipeline.process_item(_long_story(n))
    assert len(pipeline.exported) == 50
    assert _held(pipeline.exported) / 50 < 400
    copy = _copy("http://a.example/print/7.html", "http://a.example/world/7.html", "Story 7",
                 "\n".join(f"{STORY} Paragraph {p} of story 7." for p in range(10)))
    copy.text = copy.body
    kept, _ = _exports([_long_story(7), copy])
    assert kept == ["http://a.example/world/7.html"]


def _long_story(n: int) -> Article:
    text = "\n".join(f"{STORY} Paragraph {p} of story {n}." for p in range(10))
    article = _copy(f"http://a.example/world/{n}.html", None, f"Story {n}", text)
    article.text = text
    return article
