"""The headline decision (newsstem.metadata.headline) on real pages, one per kind of miss
seen in crawls: site name kept, script text glued on, the site banner taken, a shortened
social title, a kicker, several authors and non-Latin names (tests/fixtures/headlines,
see labels.jsonl for where each page comes from and why it is there)."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import pytest
from scrapy.statscollectors import MemoryStatsCollector
from scrapy.utils.test import get_crawler

from newsstem.extraction import extract_page
from newsstem.items import Page
from newsstem.layout.learn import TrainingPage, learn
from newsstem.layout.patterns import SitePatterns, dumps, loads, save_pattern_file
from newsstem.metadata import extract_metadata
from newsstem.metadata.evidence import collect_evidence, parse_html
from newsstem.metadata.headline import (
    SiteNames,
    decide_headline,
    headline_candidates,
    strip_site_name,
    without_code,
)
from newsstem.pipelines import ExtractionPipeline, MetadataPipeline

FIXTURES = Path(__file__).parents[1] / "fixtures" / "headlines"
LABELS = [
    json.loads(line)
    for line in (FIXTURES / "labels.jsonl").read_text(encoding="utf-8").splitlines()
]


def page(name: str) -> str:
    return gzip.decompress((FIXTURES / f"{name}.html.gz").read_bytes()).decode("utf-8")


def patterns(name: str) -> SitePatterns:
    """The pattern file learned from the site's other pages (``pattern_site``)."""
    text = gzip.decompress((FIXTURES / f"{name}.patterns.json.gz").read_bytes()).decode("utf-8")
    return SitePatterns(loads(text))


def exported_title(label: dict, with_patterns: bool = True) -> tuple[str | None, dict]:
    """The title a crawl exports for the page: extraction (by the site's learned pattern
    where the label has one), then the headline decision, given the article's text as
    the pipeline gives it."""
    html = page(label["name"])
    site_patterns = patterns(label["name"]) if with_patterns and "pattern_site" in label else None
    extraction = extract_page(html, label.get("url"), site_patterns, [], min_chars=0)
    names = SiteNames(
        site_patterns.pattern_set.site_names if site_patterns else label.get("site_names", ())
    )
    for title in label.get("other_titles", ()):
        names.add(title)
    metadata = extract_metadata(
        html, label.get("url"), text=extraction.body or None,
        title_candidates=[(extraction.title_source, extraction.title)],
        site_names=names.names(),
    )
    return metadata.headline, {extraction.title_source: extraction.title, **metadata.sources}


@pytest.mark.parametrize(
    "label", [label for label in LABELS if "headline" in label], ids=lambda label: label["name"]
)
def test_the_exported_title_is_the_headline(label):
    headline, sources = exported_title(label)
    assert headline == label["headline"], sources


@pytest.mark.parametrize(
    "label", [label for label in LABELS if "authors" in label], ids=lambda label: label["name"]
)
def test_every_author_and_only_them(label):
    metadata = extract_metadata(page(label["name"]), label.get("url"))
    assert metadata.authors == label["authors"]


def test_without_the_learned_site_name_the_xinhua_title_keeps_it():
    """The control of the first case: the site name is known only from the site's pages."""
    label = next(label for label in LABELS if label["name"] == "xinhua")
    headline, _ = exported_title({**label, "other_titles": []})
    assert headline != label["headline"]  # the host's name alone takes "Xinhua" off, not "English"


def test_a_learned_title_block_is_evidence_of_its_own():
    """The control of the NYT page: read by the fallback, its title is the <title>'s, a
    candidate only, and the social title (og:title and <title> agreeing) wins; read by the
    site's pattern, the title block says the h1 and ties two kinds with two."""
    label = next(label for label in LABELS if label["name"] == "nytimes-pattern")
    headline, sources = exported_title(label, with_patterns=False)
    assert headline == "President Mohamed Morsi of Egypt Names Prime Minister", sources
    headline, sources = exported_title(label)
    assert (headline, sources["headline"], sources["pattern"]) == (label["headline"], "heading",
                                                                   label["headline"])


def test_site_names_are_the_affix_most_titles_share():
    names = SiteNames()
    titles = [
        "Philippine president orders evacuations owing to typhoon_English_Xinhua",
        "Starbucks founder back at helm amid sliding sales_English_Xinhua",
        "Erekat: Exceptions to Israeli settlement freeze not to be accepted _English_Xinhua",
    ]
    for title in titles[:2]:
        names.add(title)
    assert names.names() == []  # two pages are not enough
    names.add(titles[2])
    names.add("Iraqis OK bill")  # a title without the name does not break the majority
    assert names.names() == ["English_Xinhua"]


def test_site_names_keep_no_string_for_an_affix_seen_once_and_learn_what_counting_all_did():
    # every page's headline is an affix of its title, seen once: a long crawl kept them
    # all (~110 bytes a page, ~100 MiB a million; stop 50's crawl memory). Seen once, an
    # affix is a 16-byte record; the names learned, and their order (the first is the
    # site name), are those of a count of every affix, after every page
    import random
    import sys
    from collections import Counter

    from newsstem.metadata.headline import (
        MAX_AFFIX_CHARS,
        SITE_AFFIX_MIN_PAGES,
        SITE_AFFIX_SHARE,
        title_affixes,
        without_code,
    )
    from newsstem.text import normalize_space

    def counted(titles):  # the names of a count of every affix, first seen first
        counts, pages = Counter(), 0
        for title in titles:
            pages += 1
            for affix in title_affixes(without_code(normalize_space(title))):
                if len(affix) <= MAX_AFFIX_CHARS:
                    counts[affix] += 1
        shared = [a for a, n in counts.items()
                  if n >= SITE_AFFIX_MIN_PAGES and n >= SITE_AFFIX_SHARE * pages]
        return [a for a in shared if not any(o != a and (o.startswith(a) or o.endswith(a))
                                             for o in shared)]

    rng = random.Random(3)
    ends = ["The Daily", "Daily Post", "Sport", "World News", "Tech"]
    # first seen X then Y, seen again Y then X: the order is still X, Y
    titles = ["Sport - Opening day", "Closing time | The Daily", "Third way | The Daily",
              "Sport - Fourth estate"]
    for n in range(400):
        headline = f"Story {n} of {rng.randrange(10 ** 6)}"
        title = headline
        if rng.random() < 0.8:
            title = f"{title} | {ends[0] if rng.random() < 0.7 else ends[1]}"
        if rng.random() < 0.7:
            title = f"{ends[2] if rng.random() < 0.8 else rng.choice(ends[3:])} - {title}"
        titles.append(title)
    titles[200:200] = ["Repeated story | The Daily"] * 3
    names = SiteNames()
    for n, title in enumerate(titles, 1):
        names.add(title)
        assert names.names() == counted(titles[:n]), (n, title)
    assert len(names.names()) == 2
    assert len(names.counts) < 20  # the names and the repeated headline, not every page
    assert sys.getsizeof(names._once) / len(names._once) < 30


def test_a_word_before_a_colon_is_no_site_name_unless_most_titles_start_with_it():
    names = SiteNames()
    for title in ("Review: A film", "Storm hits: live", "Rain falls again", "Sun returns"):
        names.add(title)
    assert names.names() == []


def test_the_site_name_comes_off_either_end_in_any_spelling():
    assert strip_site_name("Forbes.com: AMD More Fleet-Footed Than Intel", ["forbes"]) == (
        "AMD More Fleet-Footed Than Intel"
    )
    assert strip_site_name("A Storm - The Washington Post", ["washingtonpost.com"]) == "A Storm"
    assert strip_site_name("Nachrichten | Sport | BILD.de", ["bild"]) == "Nachrichten | Sport"
    # a headline that only contains the name is kept
    assert strip_site_name("Forbes names its 30 under 30", ["forbes"]) == (
        "Forbes names its 30 under 30"
    )


def test_script_text_is_cut_from_a_title():
    assert without_code("Title(The Korea Times)ntById(\"font\"); obj.style.fontSize = 1") == (
        "Title(The Korea Times)"
    )
    assert without_code("Storm: what to expect (live)") == "Storm: what to expect (live)"


def test_a_long_word_before_a_bracket_is_searched_for_code_once():
    # a statement is sought from the start of each word only: from every letter of a word
    # it took the square of the word's length (an extraction title or an anchor text of
    # one long run of letters: minutes); the statement found is the same, where it starts
    word = "x" * 120_000
    assert without_code(f"{word}(") == f"{word}("
    assert without_code("Title 3abc(x); rest") == "Title 3"  # a word's digits stay
    assert without_code('Title 中ab.c("f"); x') == "Title 中"


def test_a_text_three_kinds_write_alike_is_no_shorter_text_plus_an_affix():
    """The Express page of the fixtures, reduced: the h1, JSON-LD and og:title write the
    headline with a dash-separated second half, the extraction's title is its first half."""
    whole = "Android Nougat update REVEALED - new upgrade landing soon"
    candidates = [
        ("json-ld", whole), ("og:title", whole), ("heading", whole),
        ("title", "Android Nougat update REVEALED | Tech | Express.co.uk"),
        ("extraction", "Android Nougat update REVEALED"),
    ]
    assert decide_headline(candidates, ["Express.co.uk"]).text == whole
    # two kinds alike do not settle it: "X | Site" in og:title and <title> is X plus a name
    decision = decide_headline([
        ("og:title", "Storm hits the coast | Planet"), ("title", "Storm hits the coast | Planet"),
        ("heading", "Storm hits the coast"),
    ])
    assert decision.text == "Storm hits the coast"


def test_agreement_between_kinds_of_source_decides():
    # the social title (og + twitter: one kind) against the h1, JSON-LD and <title>
    decision = decide_headline([
        ("og:title", "Short title"), ("twitter:title", "Short title"),
        ("heading", "Short title and the rest"), ("json-ld", "Short title and the rest"),
        ("title", "Short title and the rest | Site"),
    ])
    assert (decision.text, decision.source, decision.agreement) == (
        "Short title and the rest", "heading", 3
    )
    # a banner h1 that nothing supports loses to what the page's titles agree on
    decision = decide_headline([
        ("heading", "Latest News"), ("og:title", "Anand draws with Aronian"),
        ("title", "Anand draws with Aronian - Fresh News"),
    ])
    assert decision.text == "Anand draws with Aronian"
    # the anchor texts of links to the page are evidence too
    decision = decide_headline([
        ("extraction", "Latest News"),
        ("heading", "Anand draws with Aronian, Negi posts third win"),
        ("anchor", "Anand draws with Aronian, Negi posts third win"),
    ])
    assert decision.text == "Anand draws with Aronian, Negi posts third win"


def test_the_headline_is_written_as_typed_not_as_the_template_curls_it():
    decision = decide_headline([
        ("heading", "Mexico’s economy grew – again"), ("og:title", "Mexico's economy grew - again"),
    ])
    assert (decision.text, decision.source) == ("Mexico's economy grew - again", "heading")
    # curly quotes in the metadata are the editor's: the heading's plain ones stay
    decision = decide_headline([
        ("heading", "Mexico's economy grew"), ("og:title", "Mexico’s economy grew"),
    ])
    assert decision.text == "Mexico's economy grew"


def test_a_breadcrumb_h1_gives_way_to_the_heading_below_it():
    html = (
        "<html><head><meta property='og:title' content='Stromnetz: wie sicher?'></head><body>"
        "<nav><ul><li>Politik</li><li><h1>Stromnetz: wie sicher?</h1></li></ul></nav>"
        "<article><hgroup><h2>Ampeln tot: Wie sicher ist das Stromnetz?</h2></hgroup>"
        "<p>Text.</p></article></body></html>"
    )
    candidates = headline_candidates(collect_evidence(parse_html(html)))
    assert ("heading", "Ampeln tot: Wie sicher ist das Stromnetz?") in candidates
    assert ("heading", "Stromnetz: wie sicher?") not in candidates


def test_the_story_h1_under_a_site_bar_that_repeats_the_social_title_is_the_headline():
    """The slate-rollup fixture, reduced: the bar's h1s outside the <article> say what
    JSON-LD and og:title say; the h1 in the article's <header> is the story's headline."""
    social = "Russia Is the Only Nation That Sends Humans to Orbit"
    html = (
        "<html><head><meta property='og:title' content='{0}'>"
        "<script type='application/ld+json'>{{\"@type\": \"NewsArticle\", "
        "\"headline\": \"{0}\"}}</script></head><body>"
        "<header class='roll-up'><div class='front'><h1>{0}</h1></div>"
        "<div class='back'><h1>{0}</h1></div></header>"
        "<article><header><h1 class='hed'>Russia’s Space Program Is Struggling</h1>"
        "<h2 class='dek'>It is the only country that sends humans to orbit.</h2></header>"
        "<p>Text.</p></article></body></html>"
    ).format(social)
    metadata = extract_metadata(html)
    assert (metadata.headline, metadata.sources["headline"]) == (
        "Russia’s Space Program Is Struggling", "heading")
    # the same h1 in the page's only <article> and nothing outside: agreement decides
    alone = re.sub(r"<header class='roll-up'>.*?</header>", "", html)
    assert extract_metadata(alone).headline == social
    # two articles with headers of their own are a list, not a story
    listing = html.replace("<p>Text.</p></article>",
                           "</article><article><header><h1>Other</h1></header></article>")
    assert extract_metadata(listing).headline == social
    # a teaser's h1, in an <article> but not in its header, counts for neither side,
    # not even where it writes the social title (ESPN's sidebar)
    teasers = html.replace("<p>Text.</p></article>",
                           f"</article><article><h1>{social}</h1></article>")
    assert extract_metadata(teasers).headline == "Russia’s Space Program Is Struggling"


def test_with_no_agreement_the_heading_the_text_speaks_of_is_the_headline():
    """The cnn-parkjisung fixture, reduced: heading, social and document titles are three
    wordings of one story. The article's opening names the heading's words, so the heading
    wins; a heading the text does not speak of (a site banner), or a page whose JSON-LD
    states a headline, keeps the order without agreement."""
    heading = "Park Ji-sung: North's inclusion in Winter Olympics would mean 'a lot' to South Korea"
    social = "Ex-Man Utd star wants North Koreans at Winter Olympics"
    candidates = [
        ("og:title", social),
        ("twitter:title", social),
        ("heading", heading),
        ("title", "Winter Olympics 2018: Park Ji-Sung says North Korea inclusion is crucial - CNN"),
    ]
    opening = "That, at least, is the sentiment of South Korea's greatest footballer Park Ji-sung."
    assert decide_headline(candidates, ["CNN"], opening).text == heading
    assert decide_headline(candidates, ["CNN"]).text == social  # no text: the order
    banner = [("heading", "Winter Sports Desk") if source == "heading" else (source, text)
              for source, text in candidates]
    assert decide_headline(banner, ["CNN"], opening).text == social
    stated = [*candidates, ("json-ld", "Park Ji-sung backs North Korea at the Games")]
    assert decide_headline(stated, ["CNN"], opening).source == "json-ld"


def test_a_visible_heading_longer_than_the_agreed_social_title_is_the_headline():
    """Mercury's nydailynews fixture, reduced: og:title, twitter:title, the meta title and
    the ``<title>`` agree on a shortened headline, the one visible heading writes all its
    words and more, and the article's text speaks of it: the headline a reader sees wins.
    Not where a JSON-LD headline is stated, nor where the text does not speak of the
    heading, nor where the heading drops a word of the titles."""
    social = "Michelle Obama: \u2018We are feeling what not having hope feels like\u2019"
    heading = ("Michelle Obama suggests America has lost hope since Donald Trump\u2019s "
               "election: \u2018We are feeling what not having hope feels like\u2019")
    candidates = [
        ("og:title", social), ("twitter:title", social), ("meta:title", social),
        ("heading", heading), ("heading", heading), ("title", f"{social} - NY Daily News"),
    ]
    opening = "Michelle Obama says America is now feeling what not having hope feels like."
    assert decide_headline(candidates, ["NY Daily News"], opening).text == heading
    assert decide_headline(candidates, ["NY Daily News"]).text == social  # no text
    stated = [*candidates, ("json-ld", social)]
    assert decide_headline(stated, ["NY Daily News"], opening).text == social
    elsewhere = "The first lady spoke to Oprah Winfrey in an interview aired on Monday."
    assert decide_headline(candidates, ["NY Daily News"], elsewhere).text == social
    other = [(source, heading.replace("Michelle ", "") if source == "heading" else text)
             for source, text in candidates]
    assert decide_headline(other, ["NY Daily News"], opening).text == social


def test_a_longer_heading_gives_way_only_to_its_own_conditions():
    """Each condition of ``_heading_longer_than_the_titles`` on its own (review of stop
    47): the agreed title is a social or document title, the heading is one text, no
    JSON-LD headline (of any wording) is stated, the title has words to write, the
    heading is longer than the title (not the title with an affix, nor its words in
    other case), and the article's text speaks of it."""
    social = "Rain at last for the valley farmers"
    heading = "Rain at last for the valley farmers as the drought of three summers ends"
    opening = "Rain fell at last on the valley farmers this week, ending a long drought."
    base = [("og:title", social), ("title", social), ("heading", heading)]
    assert decide_headline(base, [], opening).text == heading
    # the agreed title is the pattern's and the anchors', not a social or document one
    other_kinds = [("pattern", social), ("anchor", social), ("heading", heading)]
    assert decide_headline(other_kinds, [], opening).text == social
    # two visible headings: which one a reader sees is not known
    two = [*base, ("heading", "Farmers count the cost of three dry summers in the valley")]
    assert decide_headline(two, [], opening).text == social
    # a JSON-LD headline of its own wording is the publisher's statement
    stated = [*base, ("json-ld", "Valley drought over")]
    assert decide_headline(stated, [], opening).source != "heading"
    # a title without a word of four letters or more has nothing to be written
    short = [("og:title", "Why I do it"), ("title", "Why I do it"),
             ("heading", "Why I do it: my years of farming in the valley")]
    farm = "Farming in the valley has been my life for thirty years."
    assert decide_headline(short, [], farm).text == "Why I do it"
    # more words but not longer: the title's words in a shorter heading
    wordy = "Rain: at last, for the valley and for all of the farmers of it"
    terse = [("og:title", wordy), ("title", wordy), ("heading", "Rain last valley farmers ends")]
    assert decide_headline(terse, [], opening).source == "og:title"
    # the title with a section's name after a separator, and the title in capitals
    affixed = [("og:title", social), ("title", social), ("heading", f"{social} | Weather")]
    assert decide_headline(affixed, [], opening).text == social
    capitals = [("og:title", social), ("title", social), ("heading", social.upper())]
    assert decide_headline(capitals, [], opening).agreement == 3  # the agreement's choice


def test_no_candidates_no_headline():
    assert decide_headline([]) is None
    assert decide_headline([("title", "   "), ("heading", "")]) is None
    assert extract_metadata("").headline is None


def test_pattern_files_record_the_site_names_and_the_pipeline_reads_them(tmp_path):
    titles = [
        "Philippine president orders evacuations owing to typhoon_English_Xinhua",
        "Starbucks founder back at helm amid sliding sales_English_Xinhua",
        "Official sacked after beating man to death in C China_English_Xinhua",
        "Erekat: Exceptions to Israeli settlement freeze not to be accepted _English_Xinhua",
    ]

    def html(number: int, title: str, heading: bool = True) -> str:
        return (
            f"<html><head><title>{title}</title></head><body><div id=nav>Home</div>"
            + (f"<h1>{title.split('_')[0]}</h1>" if heading else "")
            + f"<div id=story><p>{'Words of the story. ' * 30}{number}</p></div></body></html>"
        )

    pages = [TrainingPage(url=f"https://example.com/a/{i}", html=html(i, title))
             for i, title in enumerate(titles)]
    pattern_set = learn("example.com", pages).pattern_set
    assert pattern_set.site_names == ("English_Xinhua",)
    assert loads(dumps(pattern_set)).site_names == ("English_Xinhua",)

    # A crawl's pipelines: the extraction pipeline loads the pattern file and hands its
    # site names on with the article; the metadata pipeline cuts the name off the first
    # page's <title> (no heading to agree with: only the learned name says what to cut)
    def first_article_title(patterns_dir: Path) -> tuple[tuple[str, ...], str]:
        crawler = get_crawler(settings_dict={"NEWSSTEM_PATTERNS_DIR": str(patterns_dir)})
        crawler.stats = MemoryStatsCollector(crawler)
        page = Page(url="https://example.com/a/4", site="example.com",
                    html=html(4, "Floods close the north road_English_Xinhua", heading=False),
                    encoding="utf-8", depth=1, fetched_at="2026-11-21T00:00:00Z")
        article = ExtractionPipeline.from_crawler(crawler).process_item(page)
        affixes = article.title_affixes
        return affixes, MetadataPipeline.from_crawler(crawler).process_item(article).title

    save_pattern_file(pattern_set, tmp_path / "patterns")
    assert first_article_title(tmp_path / "patterns") == (
        ("English_Xinhua",), "Floods close the north road")
    (tmp_path / "none").mkdir()
    assert first_article_title(tmp_path / "none") == (
        (), "Floods close the north road_English_Xinhua")


def test_korean_bylines_in_the_text_name_every_reporter():
    """The MBN page without its JSON-LD and meta tags: only the bylines "배윤경 기자" of
    the text (and "[사진 = 김혜진 기자]" under a photo) are left to name its reporters."""
    html = re.sub(r"<script[^>]*ld\+json[^>]*>.*?</script>|<meta[^>]*>", "", page("mbn"),
                  flags=re.S)
    metadata = extract_metadata(html, "https://www.mk.co.kr/news/politics/11333783")
    assert (metadata.authors, metadata.sources["authors"]) == (
        ["배윤경", "이상현", "한수진", "김혜진"], "text"
    )


def test_a_hyphen_between_cjk_characters_separates_the_site_name():
    """Chinese and Japanese titles put the site's name after a bare hyphen (no word of
    those scripts is hyphenated); a hyphen inside a Latin word stays."""
    lone = decide_headline([("title", "短缺药品保供稳价 全力保障临床用药需求-新华网")])
    assert lone is not None and lone.text == "短缺药品保供稳价 全力保障临床用药需求"
    agreed = decide_headline([("title", "東京の天気-日本経済新聞"), ("heading", "東京の天気")])
    assert agreed is not None and agreed.text == "東京の天気" and agreed.agreement == 2
    latin = decide_headline([("title", "Jean-Pierre Rampal plays Mozart")])
    assert latin is not None and latin.text == "Jean-Pierre Rampal plays Mozart"


def test_an_ideographic_space_in_a_headline_is_kept_as_written():
    # issue 13: typography is kept as the page writes it. A Japanese headline's
    # full-width space (U+3000) between its two phrases came out as an ASCII space;
    # one at either end, or beside other whitespace, still goes.
    page = (
        "<html lang='ja'><head><title>岸田首相\u3000訪米へ\u3000｜\u3000毎日新聞</title>"
        "<meta property='og:title' content='\u3000岸田首相\u3000訪米へ'>"
        "<meta property='og:site_name' content='毎日新聞'></head>"
        "<body><h1>\n岸田首相\u3000訪米へ </h1><p>本文です。</p></body></html>"
    )
    assert extract_metadata(page).headline == "岸田首相\u3000訪米へ"
    page = "<html lang='ja'><body><h1>岸田首相 \u3000訪米へ</h1><p>本文です。</p></body></html>"
    assert extract_metadata(page).headline == "岸田首相 訪米へ"


def _valley_page(title: str, href: str) -> str:
    """A page titled ``title`` (and og:title) whose h1 links "Valley Notes" to ``href``."""
    return (f"<html><head><title>{title}</title><meta property='og:title' content='{title}'>"
            f"</head><body><h1><a href='{href}'>Valley Notes</a></h1><p>It rained.</p></body></html>")


@pytest.mark.parametrize("title, href, headline", [
    ("Rain at last in the valley | Valley Notes", "/", "Rain at last in the valley"),
    ("Rain at last in the valley | Valley Notes", "http://valley.example/", "Rain at last in the valley"),
    # a link elsewhere than the site's root is no banner of the site
    ("Rain at last in the valley | Valley Notes", "/2012/rain", "Rain at last in the valley | Valley Notes"),
    ("Rain at last in the valley | Valley Notes", "http://other.example/", "Rain at last in the valley | Valley Notes"),
    # a front page titled with the banner alone keeps it
    ("Valley Notes", "/", "Valley Notes"),
])
def test_a_heading_linking_to_the_home_page_names_the_site(title, href, headline):
    assert extract_metadata(_valley_page(title, href), "http://valley.example/2012/rain").headline \
        == headline


@pytest.mark.parametrize("href, headline", [
    ("/", "Rain at last in the valley"),
    ("http://valley.example/", "Rain at last in the valley"),
    # no URL to name the host: a relative link to a page is still no home page
    ("2012/rain", "Rain at last in the valley | Valley Notes"),
    ("/2012/rain", "Rain at last in the valley | Valley Notes"),
])
def test_without_the_pages_url_a_heading_linking_to_a_root_names_the_site(href, headline):
    title = "Rain at last in the valley | Valley Notes"
    assert extract_metadata(_valley_page(title, href), None).headline == headline
