"""newsstem.extraction.extract_page: pattern, guard and fallback decided in one place.

Real pages of tv.msnbc.com and bbc.co.uk (tests/layout/fixtures/SOURCES.md); the guard's
cases change a real page as a redesign or an inserted gallery would.
"""

from __future__ import annotations

import pytest
from support.layoutpages import layout_pages

from newsstem import readability
from newsstem.evaluation import score_page
from newsstem.extraction import extract_page
from newsstem.layout.learn import TrainingPage, learn
from newsstem.layout.patterns import NoMatch, SitePatterns


@pytest.fixture(scope="module")
def msnbc():
    return layout_pages("msnbc", "http://tv.msnbc.com")


@pytest.fixture(scope="module")
def patterns(msnbc):
    pages = [TrainingPage(p.url, p.html, (p.gold_title,)) for p in msnbc[:8]]
    return SitePatterns(learn("tv.msnbc.com", pages).pattern_set)


def test_a_page_of_a_learned_layout_is_read_by_its_pattern(msnbc, patterns):
    page = msnbc[9]
    result = extract_page(page.html, page.url, patterns)
    assert result.method == "pattern:tv.msnbc.com/1" and result.guard == "none"
    assert result.body == patterns.extract(page.html).body
    assert result.title == page.gold_title
    assert score_page(result.body, page.gold).f1 > 0.9
    assert result.blocks and all(key.startswith("body") for key, _ in result.blocks)


def test_a_page_without_patterns_is_read_by_the_fallback(msnbc):
    page = msnbc[9]
    result = extract_page(page.html, page.url, body_html=True)
    assert result.method == "readability" and result.pattern_id is None
    assert result.body == readability.extract(page.html, url=page.url).body
    assert result.html() == readability.extract(page.html, url=page.url).body_html


def test_hub_pages_of_a_learned_hub_layout_have_no_article():
    bbc = {p.name: p for p in layout_pages("bbc", "http://bbc.co.uk/news")}
    pattern_set = learn("bbc.co.uk", [TrainingPage(p.url, p.html) for p in bbc.values()])
    result = extract_page(bbc["news_05"].html, site_patterns=SitePatterns(
        pattern_set.pattern_set))
    assert result.method == "hub" and result.body == ""
    assert result.reason.startswith("layout of hub pages bbc.co.uk/")


def test_the_guard_finds_the_article_moved_to_a_new_element(msnbc, patterns):
    page = msnbc[10]
    moved = page.html.replace('<div class="entry-content">', '<div class="story-text">', 1)
    by_pattern = patterns.extract(moved)
    assert by_pattern.unclaimed_weight > 1000  # the article, under a key never learned
    result = extract_page(moved, page.url, patterns)
    assert result.method == "pattern:tv.msnbc.com/1" and result.guard == "changed"
    assert result.disagreed
    assert score_page(result.body, page.gold).f1 > 0.9


def test_the_guard_leaves_out_a_promotion_the_fallback_does_not_take(msnbc, patterns):
    """Teasers inserted in the article's element, under keys the pattern never learned:
    the pattern alone takes them for where they sit; the fallback does not."""
    page = msnbc[10]
    teasers = "".join(
        f'<div class="teaser"><p>Watch next, video {n} of 14: what the segment shows, who '
        "takes part and when it aired, in a few more words than a headline would take.</p>"
        "</div>"
        for n in range(1, 15)
    )
    promoted = page.html.replace(
        '<div class="entry-content">', f'<div class="entry-content"><div class="promo">{teasers}'
        "</div>", 1,
    )
    by_pattern = patterns.extract(promoted)
    learned = sum(b.own_weight for b in by_pattern.main_blocks if b.known)
    assert "Watch next, video 1 of 14" in by_pattern.body  # the pattern alone takes them
    assert by_pattern.guessed_weight > 0.25 * learned  # ... enough to be in doubt
    assert "Watch next" not in readability.extract(promoted).body
    result = extract_page(promoted, page.url, patterns)
    assert result.method == "pattern:tv.msnbc.com/1" and result.guard == "changed"
    assert "Watch next" not in result.body
    assert score_page(result.body, page.gold).f1 > 0.9


def test_a_pattern_text_too_short_gives_way_to_the_fallback(msnbc, patterns):
    page = msnbc[10]
    cut = page.html.replace('<div class="entry-content">',
                            '<div class="entry-content"><p>Short.</p></div><div class="x">', 1)
    result = extract_page(cut, page.url, patterns, min_chars=200)
    assert result.pattern_id == "tv.msnbc.com/1"
    assert result.method in ("readability", "pattern:tv.msnbc.com/1")
    assert score_page(result.body, page.gold).f1 > 0.9


def test_the_guard_leaves_out_a_comment_quoting_the_article(msnbc, patterns):
    """Comments under keys the pattern never learned put the guard in doubt; the one that
    quotes the story's paragraph holds text the fallback's article holds too (the story
    itself), but it repeats text already kept above it: the body has that paragraph once."""
    page = msnbc[10]
    quoted = (
        "Avik Roy, a health care policy adviser to the Romney campaign, said the GOP "
        "platform"
    )
    assert page.html.count(quoted) == 1
    paragraph = page.html.split(quoted, 1)[1].split("</p>", 1)[0]
    comments = "".join(
        f'<div class="reply"><p>Reader {n} writes: this is the part of the story I keep '
        "coming back to, and I would like to hear more from the campaign about what it "
        "means for the voters who are still making up their minds this autumn.</p></div>"
        for n in range(1, 8)
    )
    quoting = (
        f'<div class="reply"><blockquote><p>{quoted}{paragraph}</p></blockquote>'
        "<p>Exactly what I expected.</p></div>"
    )
    commented = page.html.replace("</body>", f'<div class="discussion">{quoting}{comments}'
                                  "</div></body>", 1)
    by_pattern = patterns.extract(commented)
    assert by_pattern.unclaimed_weight > 0.25 * sum(
        b.own_weight for b in by_pattern.main_blocks if b.known
    )  # the guard is in doubt
    result = extract_page(commented, page.url, patterns)
    assert result.method == "pattern:tv.msnbc.com/1" and result.guard != "none"
    assert result.body.count(quoted) == 1
    assert "Reader 1 writes" not in result.body
    assert score_page(result.body, page.gold).f1 > 0.9


def test_a_page_near_a_learned_layout_is_read_by_it_when_the_fallback_agrees(msnbc, patterns):
    """A template whose menu and sidebar were renamed (a small redesign) fits no layout
    any more (similarity 0.45 < 0.7); its nearest article layout still holds the article
    where the pattern says, and reads it better than the fallback (which takes the
    video box's text too). It is no match: the redesign counts stay as they were."""
    page = next(p for p in msnbc if p.name == "news_15")
    renamed = page.html.replace('id="nav"', 'id="menu"', 1).replace(
        'id="sidebar"', 'id="rail"', 1)
    matched = patterns.extract(renamed)
    assert isinstance(matched, NoMatch) and 0.38 <= matched.best_similarity < 0.7
    assert matched.nearest is not None
    result = extract_page(renamed, page.url, patterns)
    assert result.method == "pattern:tv.msnbc.com/1" and result.guard == "nearest"
    assert result.pattern_id is None and not result.disagreed
    fallback = extract_page(renamed, page.url)
    assert score_page(result.body, page.gold).f1 > score_page(fallback.body, page.gold).f1
    assert score_page(result.body, page.gold).f1 > 0.95


def test_a_page_far_from_every_layout_is_the_fallbacks(msnbc, patterns):
    page = next(p for p in msnbc if p.name == "news_15")
    foreign = page.html.replace('id="wrap"', 'id="page"', 1)  # every block's key changes
    matched = patterns.extract(foreign)
    assert isinstance(matched, NoMatch) and matched.nearest is None
    result = extract_page(foreign, page.url, patterns)
    assert result.method == "readability" and result.guard == "none"
