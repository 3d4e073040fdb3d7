"""Date parsing and the order of date evidence (newsstem/metadata/dates.py)."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from newsstem.metadata import extract_metadata
from newsstem.metadata.dates import parse_date


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("2016-12-22T10:43:37-08:00", "2016-12-22T10:43:37-08:00"),
        ("2016-12-22T10:43:37Z", "2016-12-22T10:43:37+00:00"),
        ("2017-01-18T23:00:00-0800", "2017-01-18T23:00:00-08:00"),
        ("2017-11-03 03:01:00.000000", "2017-11-03T03:01:00"),
        ("2018-04-05T06:00", "2018-04-05T06:00:00"),
        ("2015-04-08", "2015-04-08"),
        ("20170310", "2017-03-10"),
        ("2015/04/08", "2015-04-08"),
        ("2017年3月10日", "2017-03-10"),
        ("2016年10月14日07:17", "2016-10-14T07:17:00"),
        ("January 18, 2017 11:00 PM", "2017-01-18T23:00:00"),
        ("Posted on Tue, Jan. 08, 2008", "2008-01-08"),
        ("16 November 2017", "2017-11-16"),
        ("08.04.2015 12:46", "2015-04-08"),
        ("1461235200", "2016-04-21T10:40:00+00:00"),
    ],
)
def test_parse_date_keeps_precision_and_offset(raw, expected):
    assert parse_date(raw).isoformat() == expected


def test_numeric_dates_follow_the_locale_unless_unambiguous():
    assert parse_date("12/07/2012").isoformat() == "2012-12-07"  # US: month first
    assert parse_date("12/07/2012", dayfirst=True).isoformat() == "2012-07-12"
    assert parse_date("25/12/2012").isoformat() == "2012-12-25"  # 25 cannot be a month
    assert parse_date("12/25/2012", dayfirst=True).isoformat() == "2012-12-25"


@pytest.mark.parametrize("raw", ["", "yesterday", "0000-00-00", "2017-13-45", "1970-01-01", "v2.3.1"])
def test_implausible_values_are_no_date(raw):
    assert parse_date(raw) is None


def test_future_dates_are_no_date():
    now = datetime(2020, 1, 1, tzinfo=timezone.utc)
    assert parse_date("2020-01-02", now=now) is not None  # a day ahead: time zones
    assert parse_date("2020-02-01", now=now) is None


def _page(head: str, body: str = "<p>Text</p>") -> str:
    return f"<html><head>{head}</head><body>{body}</body></html>"


def test_article_jsonld_beats_meta_and_embedded_items():
    html = _page(
        '<meta property="article:published_time" content="2020-01-02T00:00:00Z">'
        '<script type="application/ld+json">{"@type": "NewsArticle", '
        '"datePublished": "2020-01-01T09:00:00+01:00"}</script>',
        '<div itemscope itemtype="https://schema.org/VideoObject">'
        '<meta itemprop="datePublished" content="2019-05-05"></div>',
    )
    metadata = extract_metadata(html)
    assert (metadata.published, metadata.sources["published"]) == ("2020-01-01T09:00:00+01:00", "json-ld")


def test_microdata_of_an_embedded_video_is_not_the_article_date():
    html = _page(
        "",
        '<div itemscope itemtype="https://schema.org/VideoObject">'
        '<meta itemprop="datePublished" content="2015-03-12"></div>'
        '<div itemscope itemtype="https://schema.org/Article">'
        '<meta itemprop="datePublished" content="2015-03-11T19:46:14Z"></div>',
    )
    assert extract_metadata(html).published == "2015-03-11T19:46:14+00:00"


def test_a_revision_time_is_no_publication_date():
    html = _page(
        '<script type="application/ld+json">{"@type": "NewsArticle", '
        '"dateCreated": "2017-11-17T10:41:09Z"}</script>',
        '<time itemprop="datePublished" datetime="2017-11-16T14:15+0000">16 November</time>',
    )
    assert extract_metadata(html).published[:10] == "2017-11-16"


def test_modified_is_the_latest_stated_and_never_before_published():
    html = _page(
        '<meta property="article:published_time" content="2021-11-01T10:52:50+01:00">'
        '<meta property="article:modified_time" content="2021-11-01T12:34:23+01:00">'
        '<script type="application/ld+json">{"@type": "NewsArticle", '
        '"dateModified": "2021-11-01T10:52:50+01:00"}</script>'
    )
    assert extract_metadata(html).modified == "2021-11-01T12:34:23+01:00"
    earlier = _page(
        '<meta property="article:published_time" content="2021-11-02">'
        '<meta property="article:modified_time" content="2021-11-01">'
    )
    assert extract_metadata(earlier).modified is None


def test_text_dates_near_the_headline_and_in_the_title():
    after_headline = _page("", "<h1>Cheap car</h1><p>By Chuck Squatriglia January 10, 2008 | 6:46 PM</p>")
    assert extract_metadata(after_headline).published == "2008-01-10"
    in_title = "<html><head><title>A column - 07.12.2017 - LA NACION</title></head><body></body></html>"
    assert extract_metadata(in_title).published == "2017-12-07"


def test_scripts_after_the_headline_are_not_read_for_a_date():
    # As on a news page of 2008 (l3s): an ad block whose script states when the ad slot
    # was made, then a share bar, then the byline with the article's date.
    html = _page(
        "",
        "<h1>Shuttle's ambitious itinerary causes doubt</h1>"
        '<div><script>google_ad_client = "pub-1"; // 728x90, created 12/15/2007\n'
        + "google_ad_width = 728; google_ad_height = 90; " * 8
        + "</script><!-- share --></div>"
        "<p>Print Email By Marc Kaufman</p><p>Article Launched: 01/06/2008 11:25 PM PST</p>",
    )
    assert extract_metadata(html).published == "2008-01-06"


def test_day_first_follows_the_page_language():
    body = '<div class="date">03/04/2015</div>'
    assert extract_metadata(f"<html lang='en-US'><body>{body}</body></html>").published == "2015-03-04"
    assert extract_metadata(f"<html lang='en-GB'><body>{body}</body></html>").published == "2015-04-03"


def test_a_zone_word_dateutil_does_not_know_warns_nothing():
    # dateutil reads the time, not a zone word it does not know, and warned with an
    # UnknownTimezoneWarning, which Scrapy logged in every crawl as a WARNING line
    # from site-packages. CST (US Central, China or Cuba) means no single offset: the
    # time is kept without one.
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        date = parse_date("Fri Apr 28 19:20:36 CST 2023")
    assert date is not None and date.isoformat() == "2023-04-28T19:20:36"


def test_a_zone_word_of_one_offset_gives_the_offset():
    # FAZ.NET (2023, fundus de_FAZ_2023_04_28) writes its JSON-LD dates the way Java
    # prints them; the zone word was dropped and the time exported without an offset.
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        summer = parse_date("Fri Apr 28 19:20:36 CEST 2023")
        winter = parse_date("Fri Jan 27 19:20:36 CET 2023")
    assert summer.isoformat() == "2023-04-28T19:20:36+02:00"
    assert winter.isoformat() == "2023-01-27T19:20:36+01:00"
    assert parse_date("28. April 2023, 19:20 MESZ").isoformat() == "2023-04-28T19:20:00+02:00"
    assert parse_date("Sun Mar 12 09:05:00 EEST 2023").isoformat() == "2023-03-12T09:05:00+03:00"
    assert parse_date("Apr 16, 2015 8:02 pm EDT").isoformat() == "2015-04-16T20:02:00-04:00"
    assert parse_date("Dec 1, 2015 8:02 am PST").isoformat() == "2015-12-01T08:02:00-08:00"


def test_a_zone_word_is_not_read_by_the_crawling_machines_own_zone(monkeypatch):
    # dateutil read a word naming the machine's local zone as that zone: a page's "CDT"
    # gave -05:00 on a machine set to US Central and no offset elsewhere. The exported
    # time must not depend on where the crawl runs.
    import time

    monkeypatch.setenv("TZ", "America/Chicago")
    time.tzset()
    try:
        date = parse_date("Fri Apr 28 19:20:36 CDT 2023")
    finally:
        monkeypatch.undo()
        time.tzset()
    assert date is not None and date.isoformat() == "2023-04-28T19:20:36"


def test_a_slashed_date_htmldate_reads_day_first_is_month_first_on_a_us_page():
    # htmldate reads "10/04/16" as 10 April whatever the page's language: a US page
    # (or one without a region) writes 4 October.
    page = ("<html lang='{lang}'><body><div class='story'><p>Story.</p>"
            "<time>10/04/16 5:30am</time></div></body></html>")
    assert extract_metadata(page.format(lang="en-US")).published == "2016-10-04"
    assert extract_metadata(page.format(lang="en-GB")).published == "2016-04-10"
    # the page states the order elsewhere (a year-first date, as in the URL): as read
    iso = page.format(lang="en-US").replace("</body>", "<a href='/2016/04/10/x'>x</a></body>")
    assert extract_metadata(iso).published == "2016-04-10"


def test_a_slashed_date_of_another_day_does_not_swap_a_date_written_with_its_month_name():
    # htmldate gives 10 April, which the story writes "April 10, 2016"; the comment's
    # "10/04/16" is 4 October on a US page, another day: 10 April stays
    page = ("<html lang='en-US'><body><div class='story'><p>Story.</p><p>April 10, 2016</p>"
            "</div><ul class='comments'><li>Joe <time>10/04/16 5:30am</time> nice</li></ul>"
            "</body></html>")
    metadata = extract_metadata(page)
    assert metadata.sources["published"] == "htmldate"
    assert metadata.published == "2016-04-10"
    day_month = page.replace("April 10, 2016", "10th Apr. 2016")
    assert extract_metadata(day_month).published == "2016-04-10"


def test_a_swapped_htmldate_date_in_the_future_is_read_day_first_after_all():
    # "10/04/26" read month first is 4 October 2026: on 1 May 2026 no publication day
    # (dates more than 2 days ahead are ignored), so the page writes 10 April
    from lxml import html

    from newsstem.metadata.extract import _htmldate

    root = html.fromstring("<html><body><div class='story'><p>Story.</p>"
                           "<time>10/04/26 5:30am</time></div></body></html>")
    may, december = (datetime(2026, m, 1, tzinfo=timezone.utc) for m in (5, 12))
    assert _htmldate(root, None, True, now=may).isoformat() == "2026-04-10"
    assert _htmldate(root, None, True, now=december).isoformat() == "2026-10-04"


# Mercury's deadspin.com/1476389931786 fixture, trimmed: the story's <time> is classed
# "updated" (htmldate, asked for the original date, passes it over) and the left rail's
# teaser of another story has a bare <time>, which htmldate took (10/02/16).
_DEADSPIN = (
    "<html lang='en-US'><body><div class='post-wrapper'><article class='post'>"
    "<h1 class='headline'>The Nationals Are Stuck With Danny Espinosa Tonight</h1>"
    "<div class='meta__text'><div class='meta__byline author'><a>Chris Thompson</a></div>"
    "<time class='meta__time updated' datetime='2016-10-13T12:34:00-04:00'>"
    "<a class='js_entry-link js_publish_time' title='10/13/16 12:34pm'>Today 12:34pm</a>"
    "</time></div><div class='post-content'><p>Danny Espinosa will start at shortstop."
    "</p></div></article></div>"
    "<section class='sidebar'><div class='sidebar__content'>"
    "<div class='leftrailmodule--promotion'><a><div class='meta meta--source'>"
    "<strong>Deadspin</strong> · Chris Thompson</div><h4 class='headline'>The "
    "Already-Enormous Body Count: Today's Guide To Ignoring The NFL</h4>"
    "<div class='meta meta--time'><time>10/02/16 11:21am</time></div></a></div>"
    "</div></section></body></html>"
)


def test_htmldate_does_not_read_a_teasers_date_in_a_sidebar():
    metadata = extract_metadata(_DEADSPIN, "http://deadspin.com/")
    assert metadata.sources["published"] == "htmldate"
    assert metadata.published == "2016-10-13"


def test_htmldate_does_not_read_a_profile_cards_joined_date():
    # Mercury's twitter.com/tweet fixture, trimmed: the author's profile card (its
    # "Joined October 2011" has the day in a tooltip) comes before the tweet
    page = (
        "<html lang='en'><body><div class='ProfileHeaderCard'>"
        "<h2 class='ProfileHeaderCard-screenname'>@KingBeyonceStan</h2>"
        "<div class='ProfileHeaderCard-joinDate'><span class='ProfileHeaderCard-joinDateText "
        "js-tooltip' title='3:06 PM - 20 Oct 2011'>Joined October 2011</span></div></div>"
        "<div class='permalink-tweet-container'><p class='tweet-text'>Beyonce has a tour."
        "</p><span class='metadata'><span>8:27 AM - 21 Jun 2016</span></span></div>"
        "</body></html>"
    )
    assert extract_metadata(page).published == "2016-06-21"


def test_a_comments_date_stays_the_last_clue():
    # (the metadata fixtures' pixnet and Mercury's prospectmagazine.co.uk: the story's
    # date is in no form htmldate reads, the first comment's is the same day)
    page = ("<html lang='en'><body><div class='story'><p>Story.</p></div>"
            "<ol class='comments'><li class='comment'><div class='comment_date'>"
            "January 19, 2017 at 15:31</div>Nice.</li></ol></body></html>")
    assert extract_metadata(page).published == "2017-01-19"


def test_a_body_classed_has_sidebar_is_read_by_htmldate_first():
    # WordPress themes class the body by its layout ("has-sidebar", "no-sidebar"): taken
    # for other content, the whole body was hidden from htmldate's first read, which then
    # took the head's dateModified (the only date it holds) over the story's day
    page = ("<html lang='en'><head><script type='application/ld+json'>{\"@type\": "
            "\"NewsArticle\", \"dateModified\": \"2020-05-05T10:00:00Z\"}</script></head>"
            "<body class='single has-sidebar'><div class='story'><h2>Hi</h2><p class='byline'>"
            "Posted <span class='date'>October 13, 2016</span></p><p>Story.</p></div>"
            "</body></html>")
    metadata = extract_metadata(page)
    assert metadata.sources["published"] == "htmldate"
    assert metadata.published == "2016-10-13"


def test_the_text_after_other_content_is_still_read_by_htmldate():
    # the tail of a detached element is its parent's text: taken out with the author's
    # profile link, the story's day went with it and the head's dateModified won
    page = ("<html lang='en'><head><script type='application/ld+json'>{\"@type\": "
            "\"NewsArticle\", \"dateModified\": \"2020-05-05T10:00:00Z\"}</script></head>"
            "<body><div class='story'><h2>Hi</h2><p>Story text of some length.</p>"
            "<div class='meta'><a class='author-profile' href='/u/x'>Jane Roe</a> | "
            "2016-10-13</div><p>More story.</p></div></body></html>")
    metadata = extract_metadata(page)
    assert metadata.sources["published"] == "htmldate"
    assert metadata.published == "2016-10-13"


def test_htmldate_leaves_the_tree_as_it_found_it_even_when_it_raises(monkeypatch):
    from lxml import html as lxml_html

    from newsstem.metadata import extract as module
    from newsstem.metadata.extract import _htmldate

    page = ("<html><body><div>a<div class='teaser'>T<div class='related'>in</div>t0</div>"
            "tail1<div class='related'>R</div>tail2<p>p<span class='profile'>P</span></p>"
            "<div class='comments'>C</div></div></body></html>")
    root = lxml_html.fromstring(page)
    before = lxml_html.tostring(root)
    seen = []

    def failing(tree, **_options):
        seen.append(lxml_html.tostring(tree))
        raise ValueError("htmldate failed")

    monkeypatch.setattr(module, "find_date", failing)
    with pytest.raises(ValueError):
        _htmldate(root, None, True)
    assert seen == [b"<html><body><div>a<!---->tail1<!---->tail2<p>p<!----></p><!----></div>"
                    b"</body></html>"]
    assert lxml_html.tostring(root) == before
