"""newsstem.extraction.extract_page: pattern, guard and fallback decided in one place.

Real pages of tv.msnbc.com and bbc.co.uk (tests/layout/fixtures/SOURCES.md); the guard's
cases change a real page as a redesign or an inserted gallery would. Excerpts of posts of
healthcare-economist.com (dragnet corpus, tuning half) for a short post.
"""

from __future__ import annotations

import pytest
from support.layoutpages import layout_pages

from newsstem import readability
from newsstem.evaluation import score_page
from newsstem.extraction import extract_page
from newsstem.layout.learn import TrainingPage, learn
from newsstem.layout.patterns import NoMatch, SitePatterns
from newsstem.text import meaningful_length


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


# Posts of healthcare-economist.com (dragnet's tuning half: R481, R483, R484, R486, R488,
# R489, and R490, a short post): the site's markup from the post's element up, the first
# paragraphs of each post, the sidebar and comment form left out.
_ECONOMIST = """<html><head><title>{title} | Healthcare Economist</title></head>
<body class="single single-post postid-{n} single-format-standard custom-background">
<div id="wrapper"><div id="container"><div id="middle">
<div id="headimg"><div id="blogtitle"><h2 align="right">Healthcare Economist</h2></div>
<div id="tag">Unbiased Analysis of Today&#039;s Healthcare Issues</div></div>
<div id="menu"><div id="greendrop" class="backgreen"><div class="menu"><ul>
<li class="page_item"><a href="/about-the-author/">About the Author</a></li>
<li class="page_item"><a href="/archives/">Archives</a></li>
<li class="page_item"><a href="/contact-information/">Contact</a></li></ul></div></div></div>
<div id="content"><div id="post-{n}" class="post-{n} post type-post status-publish
format-standard hentry"><h2 class="largeheadline">{title}</h2>
<div><span class="smallheadline1">Written By: Jason Shafrin <em></em></span><span
class="smallheadline2">- {date}</span></div>
<div class="entry">{paragraphs}</div>
<div class="postmetadata">Posted in <a href="/category/x/" rel="category tag">Health
Economics</a> <strong>|</strong> <a href="#respond">No Comments &#187;</a></div></div>
<p class="small">You can follow any responses to this entry through the <a href="/feed/">RSS
2.0</a> feed. You can <a href="#respond">leave a response</a>, or <a href="/trackback/"
rel="trackback">trackback</a> from your own site.</p></div></div></div></div></body></html>"""
_POSTS = [
    ("Who will win the election?", "Nov&#8226; 06&#8226;12", [
        "Barack Obama.&nbsp; According to Nate Silver\u2019s FiveThirtyEight blog, Obama has "
        'a <a href="http://fivethirtyeight.blogs.nytimes.com/">90 percent chance of winning '
        "the election</a>.&nbsp; Further, Obama is trending upwards.&nbsp; According to "
        "Silver:",
        "Silver predicts Obama will win most swing states including Colorado, Iowa, Nevada, "
        "New Hampshire, Ohio, Pennsylvania, Virginia, and Wisconsin. The only swing state "
        "where Romney has a lead is North Carolina. Florida is too close to call."]),
    ("Hospital Quality Reporting in Italy", "Nov&#8226; 05&#8226;12", [
        'In the U.S. patients can use <a href="http://www.hospitalcompare.hhs.gov/">Hospital '
        "Compare</a> to evaluate the quality of care individuals receive at each hospital in "
        "the U.S.&nbsp; In Italy, there is P.Re.Val.E.&nbsp; A paper by <a href="
        '"http://onlinelibrary.wiley.com/">Renzi et al.</a> explains:',
        "How successful was the quality initiative?&nbsp; Quality measures improved more in "
        "the Lazio region than elsewhere in Italy but the results were not overwhelming.",
        "It is even unclear how much of this limited quality improvement is real.&nbsp; Part "
        "of the improvement could be due to \u201crisk-avoidance creep,\u201d where hospitals "
        "select lower risk patients and, in particular, avoid higher risk ones to ensure that "
        "they can more readily follow standard protocols without risk of complications due "
        "to extensive patient comorbidities."]),
    ("Malaria returns to Greece", "Nov&#8226; 04&#8226;12", [
        "The impact of Greece economic crisis affects not only their population\u2019s "
        "wallets, but also their health as well.&nbsp; Contagious diseases such as malaria "
        "and HIV are on the rise in Greece.",
        '<a href="http://www.scpr.org/news/2012/10/26/34753/">KPCC reports that</a>:']),
    ("U.S. Ranks 47th in Infant Mortality. Why?", "Nov&#8226; 01&#8226;12", [
        'This is according to the <a href="https://www.cia.gov/">CIA World Factbook</a>.',
        "Why does the U.S. rank so high?&nbsp; Is it due to the health of the mothers?&nbsp; "
        "More premature babies being born (thus meaning that the average birth in the U.S. "
        "is more complex)?&nbsp; Or is it the standard of medical care?",
        "A website on evidenced based maternity care argues that the reason is that "
        "mothers-to-be get&nbsp;<em>too many</em> medical interventions.&nbsp; This website "
        "argues that interventions such as Cesareans or inductions are helpful and often "
        "life-saving for high-risk mothers."]),
    ("The difference between \u2018health\u2019 and \u2018heart\u2019", "Oct&#8226; 29&#8226;12", [
        "The answer is 2.",
        "How do I know know this?&nbsp; Simple, I applied the generalized edit distance "
        "algorithm.&nbsp; This algorithm measures the similarity between two words or "
        "phrases (i.e., strings).",
        "Measuring the distance between two words is useful for search engines, handwriting "
        "recognition, and speller checkers."]),
    ("Do more capable workers get better working conditions?", "Oct&#8226; 29&#8226;12", [
        "More capable workers typically do have the best working conditions.&nbsp; The "
        "theory of compensating differentials, however, says that workers should be "
        "compensated in the form of higher wages for job amenities.&nbsp; So why is this the "
        "case empirically?",
        "Today, I review the <em>Hanbook of Labor Economics</em> chapter by Sherwin Rosen "
        "titled \u201c<a href=\"http://www.sciencedirect.com/\">The Theory of Equalizing "
        "Differences</a>\u201d to find the answer."]),
    ("Pre-Election Edition of the Health Wonk Review", "Oct&#8226; 28&#8226;12", [
        "Are you voting for Obama?&nbsp; Romneyy?&nbsp; A third party?&nbsp; Regardless, the "
        '<a href="http://www.healthbeatblog.com/2012/10/">Pre-election Edition of the '
        "Health Wonk Review</a> at Maggie Mahar\u2019s <a href=\"www.healthbeatblog.com/\">"
        "Health Beat</a> will keep you informed of the important health care issues related "
        "to this year\u2019s election."]),
]


def _economist_page(n: int) -> str:
    title, date, paragraphs = _POSTS[n]
    return _ECONOMIST.format(
        n=7160 + n, title=title, date=date, paragraphs="".join(f"<p>{p}</p>" for p in paragraphs)
    )


def test_a_short_pattern_text_gives_way_to_the_fallback_that_reads_it_whole():
    """A short post: the pattern's learned blocks hold less than a short article (the
    guard's doubt), the guard keeps it all the same (headline and paragraph with their
    links make 200 characters), but the fallback's article holds all of it and the byline
    line no learned block holds: the fallback's article is the page's."""
    pages = [TrainingPage(f"http://healthcare-economist.com/{n}/", _economist_page(n))
             for n in range(6)]
    patterns = SitePatterns(learn("healthcare-economist.com", pages).pattern_set)
    short = _economist_page(6)
    matched = patterns.extract(short)
    assert sum(b.own_weight for b in matched.main_blocks if b.known) < 200
    assert meaningful_length(matched.body) >= 200  # without the rule, the pattern's text
    result = extract_page(short, "http://healthcare-economist.com/6/", patterns)
    assert result.pattern_id == matched.pattern_id and result.method == "readability"
    assert result.guard == "replaced" and result.disagreed
    assert result.body.startswith("Pre-Election Edition of the Health Wonk Review")
    assert "Written By: Jason Shafrin" in result.body
    assert "Are you voting for Obama?" in result.body
