"""The extraction benchmark's ``--hash-names`` (tests/benchmarks/extraction.py): every class
and id of a page hashed, nothing else changed."""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "benchmarks"))

from extraction import hash_names, hashed_name  # noqa: E402 - found through the path above

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
