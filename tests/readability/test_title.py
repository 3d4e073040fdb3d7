"""Title cleaning: site names off, headings preferred."""

from __future__ import annotations

from newsstem.readability.title import clean_title


def test_site_suffix_and_prefix_are_cut():
    assert clean_title("Mayor resigns after the vote - City News", []) == "Mayor resigns after the vote"
    assert clean_title("City News | Mayor resigns after the vote", []) == "Mayor resigns after the vote"
    assert clean_title("Mayor resigns after the vote » Politics » City News", []) == (
        "Mayor resigns after the vote")


def test_a_matching_heading_wins_and_keeps_its_colon():
    title = "Budget: what changes for you this year | City News"
    assert clean_title(title, ["Menu", "Budget: what changes for you this year"]) == (
        "Budget: what changes for you this year")


def test_short_parts_leave_the_title_whole():
    assert clean_title("Home | News", []) == "Home | News"


def test_cjk_titles():
    assert clean_title("東京で大雪、交通に乱れ｜毎日ニュース", []) == "東京で大雪、交通に乱れ"
    assert clean_title("【速報】東京で大雪 - 毎日ニュース", []) == "【速報】東京で大雪"
    assert clean_title("朝日新聞：東京で大雪が降り交通に乱れ", []) == "東京で大雪が降り交通に乱れ"
