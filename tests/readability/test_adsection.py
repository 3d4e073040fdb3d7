"""AdSense section targeting comments mark the article (seed 003's near-certain marker)."""

from __future__ import annotations

from newsstem.readability import extract
from newsstem.readability.document import load_page
from newsstem.readability.tree import text_of

STORY = "The mayor opened the new library on Monday, and hundreds of readers came. "
SIDEBAR = "Our partner offers, sweepstakes, and special deals for readers, updated daily. "


def page(story: str, sidebar: str) -> str:
    return (
        "<html><head><title>Library opens | Town News</title></head><body>"
        f"<div id='side'><p>{sidebar}</p><p>{sidebar}</p><p>{sidebar}</p></div>"
        f"<div id='main'><h1>Library opens</h1>{story}</div></body></html>"
    )


def test_the_marked_section_is_the_article_even_when_the_sidebar_scores_higher():
    story = (
        "<!-- google_ad_section_start -->"
        f"<p>{STORY * 2}</p><p>{STORY}</p>"
        "<!-- google_ad_section_end --><p>Copyright Town News</p>"
    )
    unmarked = extract(page(story.replace("google_ad", "other"), SIDEBAR * 3))
    assert "partner offers" in unmarked.body  # readability alone takes the sidebar
    result = extract(page(story, SIDEBAR * 3))
    assert result.reason is None
    assert result.body.count("The mayor opened") == 3
    assert "partner offers" not in result.body and "Copyright" not in result.body


def test_ignored_sections_and_unclosed_markers_mark_nothing():
    html = page(
        "<!-- google_ad_section_start(weight=ignore) --><p>Menu</p><!-- google_ad_section_end -->"
        f"<p>{STORY * 3}</p><!-- google_ad_section_start --><p>{STORY}</p>",
        "Short side.",
    )
    loaded = load_page(html)
    assert loaded.marked == ()
    assert not [node for node in loaded.body.iter() if not isinstance(node.tag, str)]
    assert "Menu" in text_of(loaded.body)


def test_markers_split_across_elements_keep_only_the_text_between_them():
    html = (
        "<html><body><div><p>Before the story, a teaser line.</p><p>Lead"
        f"<!-- google_ad_section_start --> {STORY}</p><p>{STORY}</p><div><p>{STORY}"
        "<!-- google_ad_section_end -->Photo credit</p></div><p>After.</p></div></body></html>"
    )
    (section,) = load_page(html).marked
    text = text_of(section)
    assert text.startswith(" The mayor") and text.endswith("came. ")
    assert "Lead" not in text and "Photo credit" not in text and "After" not in text


def test_a_marked_section_too_short_for_an_article_is_not_trusted():
    html = page(
        f"<!-- google_ad_section_start --><p>Library opens</p><!-- google_ad_section_end -->"
        f"<p>{STORY * 3}</p><p>{STORY * 2}</p>",
        "Short side.",
    )
    result = extract(html)
    assert result.body.count("The mayor opened") == 5
