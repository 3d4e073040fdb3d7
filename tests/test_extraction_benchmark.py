"""The extraction benchmark's ``--hash-names`` (tests/benchmarks/extraction.py): every class
and id of a page hashed, nothing else changed."""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "benchmarks"))

from corpora import CorpusPage  # noqa: E402 - found through the path above
from extraction import (  # noqa: E402
    CorpusRun,
    Output,
    Run,
    hash_names,
    hashed_name,
    page_language,
    report_languages,
)

from newsstem.readability import extract  # noqa: E402

HASH = re.compile(r"x\d{8}")


def test_a_name_always_gets_the_same_hash_and_no_word_of_it():
    assert HASH.fullmatch(hashed_name("article-body"))
    assert hashed_name("article-body") == hashed_name("article-body")
    assert hashed_name("article-body") != hashed_name("sidebar")


def test_every_class_token_and_id_is_hashed_in_every_quoting():
    page = (
        '<div class="story  main" ID=top data-id="story"><p class=\'story\' id="">a</p>'
        '<a href=x"y class=story>b</a><br class="main"/></div>'
    )
    story, main, top = hashed_name("story"), hashed_name("main"), hashed_name("top")
    assert hash_names(page) == (
        f'<div class="{story} {main}" ID={top} data-id="story"><p class=\'{story}\' id="">a</p>'
        f'<a href=x"y class={story}>b</a><br class="{main}"/></div>'
    )


def test_text_comments_raw_text_and_other_attributes_are_left_as_they_are():
    page = (
        '<title>a <b class="x"></title><p title="class=x" data-class="x">class="x" &lt;i id=x'
        '<!-- <i class="x"> --!><script>if (a<b class="x">c) {}</SCRIPT ><textarea>'
        '<i id="x"></textarea><!--> <i class="y"></p>'
    )
    assert hash_names(page) == page.replace('<i class="y">', f'<i class="{hashed_name("y")}">')


def test_a_hashed_page_reads_the_same_story_without_the_names():
    paragraph = "A sentence of the story, long enough to count, with commas, and more. " * 4
    page = (
        f'<html><body><div class="content"><p>{paragraph}</p><p>{paragraph}</p></div>'
        '<div id="footer"><p>Footer text.</p></div></body></html>'
    )
    hashed = hash_names(page)
    assert "content" not in hashed and "footer" not in hashed
    assert extract(hashed, body_html=False).body == extract(page, body_html=False).body


def _page(page_id: str, gold: str, language: str | None = None, html: str = "") -> CorpusPage:
    return CorpusPage("c", page_id, None, page_id, b"", html, gold, language)


def test_a_page_language_is_the_corpus_tag_else_the_gold_detected_else_unknown():
    german = "Der Minister sagt, dass die Stadt nicht mit dem Plan und der Arbeit auf dem Weg ist."
    assert page_language(_page("a", german)) == "de"
    assert page_language(_page("b", german, "pt-BR")) == "pt"  # the corpus's tag wins
    assert page_language(_page("c", "東京は晴れです。明日も晴れるでしょう。気温は二十度です。")) == "ja"
    assert page_language(_page("d", "OK")) == "?"
    # (a gold too short to tell: the page's own language, as newsstem's metadata reads it)
    assert page_language(_page("e", "Kurz", html='<html lang="de-AT"><p>Kurz</p></html>')) == "de"


def test_the_language_table_scores_each_language_and_half_and_cjk_on_characters(capsys):
    pages = [_page("ja", "東京は晴れです。明日も晴れるでしょう。気温は二十度です。", "ja"),
             _page("en", "The minister said that the plan was not ready for the city.", "en")]
    outputs = {"ja": Output("東京は晴れです。"), "en": Output("The minister said that the plan")}
    runs = {"newsstem": Run(outputs), "trafilatura": Run({p.id: Output(p.gold) for p in pages})}
    report_languages([CorpusRun("c", pages, {"ja": "tune", "en": "held-out"}, runs)])
    rows = {tuple(cell.strip() for cell in line.split("|")[1:4]): line
            for line in capsys.readouterr().out.splitlines() if line.startswith("| ")}
    assert ("ja", "tune", "characters") in rows and ("en", "held-out", "tokens") in rows
    assert ("en", "held-out", "characters") not in rows
    # (a Japanese sentence is one token: on tokens the cut page scores nothing)
    assert rows[("ja", "tune", "tokens")].endswith("| 0.000 | 1.000 | -1.000 |")
    assert rows[("ja", "tune", "characters")].endswith("| 0.308 | 1.000 | -0.692 |")
