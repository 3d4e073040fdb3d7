"""ExtractionPipeline with learned patterns: pattern first, hubs dropped, readability last."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from scrapy.exceptions import DropItem
from scrapy.utils.test import get_crawler

from newsstem.encoding import decode_html
from newsstem.formats import markdown_text
from newsstem.items import Article, Page
from newsstem.layout.learn import TrainingPage, learn
from newsstem.layout.patterns import PatternFileError, PatternLibrary, save_pattern_file
from newsstem.pipelines import ExtractionPipeline, hand_patterns, load_patterns
from newsstem.readability.render import html_text

FIXTURES = Path(__file__).parent / "layout" / "fixtures"


def fixture_html(group: str, name: str) -> str:
    return decode_html(gzip.decompress((FIXTURES / group / f"{name}.html.gz").read_bytes()))[0]


def page(site: str, html: str, name: str = "x") -> Page:
    return Page(url=f"http://{site}/{name}.html", site=site, html=html, encoding="utf-8",
                depth=1, fetched_at="2026-11-21T23:55:05Z")


@pytest.fixture(scope="module")
def patterns_dir(tmp_path_factory):
    directory = tmp_path_factory.mktemp("patterns")
    names = ["news_03", "news_04", "news_06", "news_07", "news_08", "news_09", "news_10"]
    training = [
        TrainingPage(f"http://tv.msnbc.com/{n}.html", fixture_html("msnbc", n)) for n in names
    ]
    hub = (FIXTURES / "msnbc" / "index.html").read_text()
    training.append(TrainingPage("http://tv.msnbc.com/", hub))
    save_pattern_file(learn("tv.msnbc.com", training).pattern_set, directory)
    return directory


def pipeline(patterns_dir: Path, **settings) -> ExtractionPipeline:
    crawler = get_crawler(settings_dict={"NEWSSTEM_PATTERNS_DIR": str(patterns_dir), **settings})
    crawler.stats.open_spider()
    return ExtractionPipeline.from_crawler(crawler)


def test_a_page_of_a_learned_layout_is_extracted_by_pattern(patterns_dir):
    extraction = pipeline(patterns_dir, NEWSSTEM_BODY_HTML=True)
    article = extraction.process_item(page("tv.msnbc.com", fixture_html("msnbc", "news_12"), "n12"))
    assert isinstance(article, Article)
    assert article.method == "pattern:tv.msnbc.com/1"
    assert article.title == "What we’re reading: Thursday, May 23, 2013"
    assert article.sub and article.body_html.startswith("<p>")
    stats = extraction.stats.get_stats()
    assert stats["newsstem/method/pattern:tv.msnbc.com/1"] == 1
    assert stats["newsstem/patterns/tv.msnbc.com/matched_rate"] == 1.0


def test_a_hub_layout_is_dropped_and_other_sites_use_readability(patterns_dir):
    extraction = pipeline(patterns_dir)
    hub = (FIXTURES / "msnbc" / "index.html").read_text()
    with pytest.raises(DropItem, match="hub"):
        extraction.process_item(page("tv.msnbc.com", hub, "index"))
    other = extraction.process_item(page("example.com", fixture_html("msnbc", "news_13")))
    assert other.method == "readability" and other.sub is None
    stats = extraction.stats.get_stats()
    assert stats["newsstem/dropped/hub_layout"] == 1
    assert "newsstem/patterns/example.com/matched" not in stats


def test_an_unmatched_page_falls_back_to_readability(patterns_dir):
    extraction = pipeline(patterns_dir, NEWSSTEM_PATTERN_THRESHOLD=1.01)
    foreign = fixture_html("msnbc", "news_13").replace('id="wrap"', 'id="page"', 1)
    article = extraction.process_item(page("tv.msnbc.com", foreign))
    assert article.method == "readability"
    # a page near the layout is read by it when the fallback agrees, but is no match
    near = extraction.process_item(page("tv.msnbc.com", fixture_html("msnbc", "news_13"), "b"))
    assert near.method == "pattern:tv.msnbc.com/1"
    stats = extraction.stats.get_stats()
    assert stats["newsstem/patterns/tv.msnbc.com/unmatched"] == 2
    assert stats["newsstem/patterns/tv.msnbc.com/nearest"] == 1
    assert stats["newsstem/patterns/tv.msnbc.com/matched_rate"] == 0.0


def test_patterns_are_optional_and_a_corrupt_file_is_an_error(tmp_path):
    settings = get_crawler(settings_dict={"NEWSSTEM_PATTERNS_DIR": str(tmp_path)}).settings
    assert len(load_patterns(settings)) == 0
    (tmp_path / "site.json").write_text("{")
    with pytest.raises(PatternFileError, match="site.json: not valid JSON"):
        load_patterns(settings)
    empty = get_crawler(settings_dict={"NEWSSTEM_PATTERNS_DIR": ""}).settings
    assert isinstance(load_patterns(empty), PatternLibrary)


def test_a_library_handed_by_the_command_is_used_only_for_the_same_settings(tmp_path):
    handed = PatternLibrary({})
    crawler = get_crawler(settings_dict={"NEWSSTEM_PATTERNS_DIR": str(tmp_path)})
    hand_patterns(crawler, crawler.settings, handed)
    assert ExtractionPipeline.from_crawler(crawler).patterns is handed  # not read again
    assert ExtractionPipeline.from_crawler(crawler).patterns is not handed  # handed once
    # the crawler's settings changed where patterns come from (a spider's custom_settings)
    other = get_crawler(settings_dict={"NEWSSTEM_PATTERNS_DIR": str(tmp_path / "other")})
    hand_patterns(other, crawler.settings, handed)
    assert ExtractionPipeline.from_crawler(other).patterns is not handed


def test_a_pattern_article_in_markdown_or_html_keeps_the_text_body_paragraphs(patterns_dir):
    html = fixture_html("msnbc", "news_12")
    text = pipeline(patterns_dir).process_item(page("tv.msnbc.com", html, "n12"))
    markdown = pipeline(patterns_dir, NEWSSTEM_BODY_FORMAT="markdown").process_item(
        page("tv.msnbc.com", html, "n12"))
    as_html = pipeline(patterns_dir, NEWSSTEM_BODY_FORMAT="html").process_item(
        page("tv.msnbc.com", html, "n12"))
    assert text.method == markdown.method == as_html.method == "pattern:tv.msnbc.com/1"
    assert markdown_text(markdown.body) == text.body == markdown.text
    assert as_html.body.startswith("<p>") and html_text(as_html.body) == text.body
    assert markdown.length == text.length
