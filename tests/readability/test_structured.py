"""JSON-LD articleBody: evidence used when the page's markup gives no article."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from newsstem.readability import extract
from newsstem.readability.structured import extends

STORY = "The council voted on Tuesday to close the old bridge, and traffic will move east. "


def page(body_html: str, article_body: str | None, raw_json: str | None = None) -> str:
    data = {"@context": "https://schema.org", "@type": "NewsArticle", "headline": "Bridge"}
    if article_body is not None:
        data["articleBody"] = article_body
    block = raw_json if raw_json is not None else json.dumps(data)
    return (
        "<html><head><title>Bridge to close | Daily Planet</title>"
        f'<script type="application/ld+json">{block}</script></head>'
        f"<body><div id='app'>{body_html}</div></body></html>"
    )


def test_a_script_rendered_page_falls_back_to_its_declared_article_body():
    # The story is drawn by scripts: the HTML the crawler gets has a shell and a menu.
    shell = "<nav><a href='/'>Home</a> <a href='/news'>News</a></nav><div>Loading...</div>"
    declared = f"{STORY * 3}\n\n{STORY * 2}\n{STORY}"
    result = extract(page(shell, declared))
    assert result.reason is None
    assert result.body.split("\n\n") == [(STORY * n).strip() for n in (3, 2, 1)]
    assert result.body_html.startswith("<div><p>The council") and result.body_html.count("<p>") == 3


def test_the_markup_wins_over_a_declared_teaser_and_a_declared_text_alike():
    markup = "".join(f"<p>{STORY * 2} Paragraph {i}.</p>" for i in range(4))
    teaser = extract(page(markup, "The council voted to close the bridge."))
    full = extract(page(markup, STORY * 8))
    other = extract(page(markup, "Another text on other matters, at length. " * 40))
    assert teaser.body == full.body == other.body and teaser.body.count("Paragraph") == 4


def test_a_declared_text_holding_the_markups_and_twice_as_long_wins():
    # The markup shows the start of the story (the rest comes by script or for subscribers).
    markup = f"<p>{STORY * 3}</p>"
    declared = f"{STORY * 3}\n\nThe mayor said the new bridge opens in May. {STORY * 3}"
    assert extract(page(markup, declared)).body.count("The mayor said") == 1


def test_a_declared_article_body_beats_a_short_page():
    # The shell's only text is a placeholder: short, but all the page has.
    shell = "<div>Loading...</div>"
    assert extract(page(shell, None)).body == "Loading..."
    assert extract(page(shell, STORY * 4)).body == (STORY * 4).strip()


def test_short_or_broken_declarations_give_the_markups_result():
    shell = "<nav>" + "<a href='/s'>A section of the site</a> " * 10 + "</nav><div>Loading...</div>"
    assert extract(page(shell, "Too short to stand in for a story.")).reason
    broken = extract(page(shell, None, raw_json='{"articleBody": "' + STORY * 5))
    assert broken.body == "" and broken.reason


@pytest.mark.parametrize("ratio", [float("nan"), 5e-324])
def test_extends_at_a_ratio_its_head_count_cannot_use_reads_the_whole_text(ratio):
    # (no count of words outnumbers a NaN ratio's or the smallest float's declared words:
    # the answer is the whole text's, as before the head's words were counted apart)
    assert extends(STORY * 3, STORY * 3, ratio, 0.8)


FIXTURES = Path(__file__).parent / "fixtures"
TITLES = (
    "서울 시내버스 노선 40여 개 내년 전면 개편",
    "Karadeniz'de sağanak: dereler taştı, köy yolları kapandı",
)


@pytest.mark.parametrize(
    ("name", "first", "last"),
    [
        # A Next.js-shaped page: an empty <div id="__next">, the story in JSON-LD only.
        ("ko-script-shell", "서울시는 1일 내년부터", "단계적으로 운행된다."),
        # A news agency's app page: a <noscript> notice and an empty root, the story in a
        # NewsArticle of the JSON-LD @graph.
        ("tr-script-shell", "Türkiye genelinde etkili olan", "alınmaya başlanacağı açıklandı."),
    ],
)
def test_a_shell_whose_body_has_no_text_gives_its_declared_article_body(name, first, last):
    # Its body has no text once scripts and <noscript> are stripped: no "empty document",
    # the story as the same shell with a line of text in its body gives it.
    result = extract((FIXTURES / f"{name}.html").read_bytes())
    assert (result.reason, result.declared) == (None, True)
    paragraphs = result.body.split("\n\n")
    assert len(paragraphs) == 5
    assert paragraphs[0].startswith(first) and paragraphs[-1].endswith(last)
    assert result.title in TITLES  # the page's <title>, its site's name taken off
    assert result.body_html.count("<p>") == 5


def test_a_shell_declaring_a_teaser_stays_an_empty_document():
    # The same shell whose articleBody is the one-sentence summary an agency puts there
    # (under declared_min_length): no article.
    result = extract((FIXTURES / "tr-script-shell-teaser.html").read_bytes())
    assert (result.body, result.reason, result.title, result.declared) == (
        "", "empty document", "", False
    )


def _exported(name: str):
    """The pipeline's article of a fixture shell (or DropItem), and the crawl's stats."""
    from scrapy.exceptions import DropItem
    from scrapy.statscollectors import MemoryStatsCollector
    from scrapy.utils.test import get_crawler

    from newsstem.items import Page
    from newsstem.pipelines import ExtractionPipeline

    page = Page(url=f"http://127.0.0.1/{name}", site="127.0.0.1",
                html=(FIXTURES / f"{name}.html").read_text(encoding="utf-8"),
                encoding="utf-8", depth=1, fetched_at="2026-12-01T10:00:00Z")
    crawler = get_crawler(settings_dict={"NEWSSTEM_PATTERNS_DIR": ""})
    crawler.stats = MemoryStatsCollector(crawler)
    try:
        article = ExtractionPipeline.from_crawler(crawler).process_item(page)
    except DropItem:
        article = None
    return article, crawler.stats.get_stats()


def test_a_shell_with_a_declared_story_is_exported_and_not_counted_as_a_shell():
    from newsstem.extraction import DECLARED_NOTE, extract_page

    article, stats = _exported("ko-script-shell")
    assert article is not None and article.method == "readability"
    assert article.text.startswith("서울시는 1일")
    assert stats["newsstem/method/readability"] == 1
    assert "newsstem/render/shells" not in stats and "newsstem/dropped/no_article" not in stats
    result = extract_page((FIXTURES / "ko-script-shell.html").read_bytes())
    assert (result.method, result.reason) == ("readability", DECLARED_NOTE)
    # A declared teaser gives no article: the page is a shell ("built by script?").
    article, stats = _exported("tr-script-shell-teaser")
    assert article is None
    assert stats["newsstem/dropped/no_article"] == stats["newsstem/render/shells"] == 1
