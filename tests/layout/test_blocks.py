"""newsstem.layout.blocks on real pages and on small hand-made ones."""

from __future__ import annotations

import gc

import pytest
from conftest import BBC_INDEX_PAGES

from newsstem.layout.blocks import (
    MAX_UNCLOSED_TAGS,
    BlockParser,
    KeyFilter,
    LayoutBlock,
    decompose,
    normalize_token,
    stable_tokens,
)
from newsstem.layout.blocks import _count_byte
from newsstem.text import meaningful_length


@pytest.mark.parametrize(
    ("token", "normalized"),
    [
        ("post-35697", "post-0"),  # a per-article id
        ("ad_19012", "ad_0"),
        ("mostRecentTab_193966644_tab_0", "mostRecentTab_0_tab_0"),
        ("grofile-hash-map-9b5c424704da515ea57bf4725e37c77b", "grofile-hash-map-*"),
        ("gIQAm03DZN_blog", "*_blog"),  # an encoded id
        ("http://blogs.wsj.com/brussels/tag/x", "*"),  # a URL as an id
        ("col1", "col1"),  # one digit: a designed position, kept
        ("h264", "h0"),
        ("story-body", "story-body"),
        ("a.b", "a_b"),  # never the key syntax
    ],
)
def test_volatile_parts_of_attribute_values_are_normalized(token, normalized):
    assert normalize_token(token) == normalized
    assert normalize_token(normalized) == normalized  # idempotent


def test_real_article_is_decomposed_into_keyed_blocks(msnbc):
    page = msnbc[2]  # news_06, "The problem of the color line"
    layout = decompose(page.html)
    assert layout.title.startswith("The problem of the color line")
    body = max(layout.blocks, key=lambda b: b.own_weight)
    assert body.key.endswith("div:class=entry-content")
    assert ":class=format-standard.hentry.post.post-0." in body.key  # post-NNNNN normalized
    opening = " ".join(body.text.split()[:15])
    assert opening in " ".join(page.gold.split())
    assert body.link_share < 0.1
    assert "\n" in body.text  # one line per paragraph
    assert body.weight == meaningful_length(body.text)
    menu = [b for b in layout.blocks if b.key.endswith("ul:class=sub-menu")]
    assert menu and all(b.link_share == 1.0 for b in menu)


def test_pages_of_one_layout_share_their_keys(msnbc):
    keys = [set(decompose(page.html).keys) for page in msnbc[:4]]
    shared = set.intersection(*keys)
    assert len(shared) >= 0.6 * min(len(k) for k in keys)
    assert any(key.endswith("div:class=entry-content") for key in shared)


def test_scripts_styles_and_comments_are_not_text():
    layout = decompose(
        "<html><head><title>T</title><style>p{color:red}</style></head><body>"
        "<div id=a><script>var x = 'hidden';</script><!-- note -->Visible text"
        "<noscript>Enable JS</noscript><object>Video caption fallback</object>"
        "<noembed><a href='/ad'>Ad markup</a></noembed>"
        "<p><ruby>漢字<rp>(</rp><rt>かんじ</rt><rp>)</rp></ruby>を学ぶ</p></div>"
        "</body></html>"
    )
    text = " ".join(block.text for block in layout.blocks)
    assert "Visible text" in text and "Video caption fallback" in text
    assert "hidden" not in text and "color" not in text and "note" not in text
    assert "Enable JS" not in text and "Ad markup" not in text
    assert "漢字を学ぶ" in text and "かんじ" not in text


def test_paragraphs_are_lines_and_table_cells_are_apart():
    layout = decompose(
        "<body><table><tr><td>Menu one</td><td><p>First.</p><p>Second<br>line.</p></td>"
        "</tr></table></body>"
    )
    assert [b.key for b in layout.blocks] == [  # HTML5 parsing adds the tbody
        "body/table/tbody/td:col=1",
        "body/table/tbody/td:col=2",
    ]
    assert layout.blocks[1].text == "First.\nSecond\nline."


def test_bytes_are_decoded_like_the_crawler_does():
    html = '<html><head><meta charset="shift_jis"></head><body><div>東京の記事です</div></body></html>'
    layout = decompose(html.encode("shift_jis"))
    assert layout.blocks[0].text == "東京の記事です"
    assert layout.blocks[0].weight == 7


@pytest.mark.parametrize(
    ("html", "texts"),
    [
        ("", []),
        ("   ", []),
        (b"", []),
        ("<?xml version='1.0' encoding='utf-8'?><p>x</p>", ["x"]),
        ("\ufdd3 text", ["\ufdd3 text"]),
    ],
)
def test_odd_inputs_give_a_layout_not_an_error(html, texts):
    layout = BlockParser().decompose(html)
    assert [block.text for block in layout.blocks] == texts


def test_pathologically_deep_pages_are_read():
    html = "<body>" + "<div>" * 3000 + "deep text" + "</div>" * 3000 + "<p>after</p></body>"
    layout = decompose(html)
    assert [b.text for b in layout.blocks][-2:] == ["deep text", "after"]


def test_a_page_of_more_unclosed_tags_than_the_limit_is_read_as_one_block():
    # counted on the page's UTF-8 bytes: the text before the tags is multi-byte
    opened = "<body><p>Déjà 東京 😀 vu</p>" + "<div>" * (MAX_UNCLOSED_TAGS + 1) + "deep</body>"
    assert [b.key for b in decompose(opened).blocks] == ["body"]
    closed = "<body><p>Déjà vu</p>" + "<div><b>x</b></div>" * MAX_UNCLOSED_TAGS + "</body>"
    assert decompose(closed).blocks[0].key == "body"
    assert decompose(closed).blocks[1].key == "body/div"


@pytest.mark.parametrize(
    "data", [b"", b"<", b"no tag", "<p>Déjà 東京 😀</p><<".encode(), b"<a>" * 1000 + b"x<"]
)
def test_tags_are_counted_as_bytes_count_them(data):
    assert _count_byte(data, b"<") == data.count(b"<")


def test_runs_of_multibyte_text_keep_their_characters_and_weights():
    layout = decompose(
        '<body><div id="a">Déjà <a href="/x">東京😀</a><div id="b">😀 ñ</div>“tail”</div></body>'
    )
    assert [(b.key, b.text, b.weight, b.link_weight) for b in layout.blocks] == [
        ("body/div:id=a", "Déjà 東京😀", 6, 2),
        ("body/div:id=a/div:id=b", "😀 ñ", 1, 0),
        ("body/div:id=a", "“tail”", 4, 0),
    ]


def test_per_article_and_section_classes_are_not_layout(bbc):
    articles = [page for name, page in bbc.items() if name not in BBC_INDEX_PAGES]
    tokens = stable_tokens([decompose(page.html) for page in articles])
    assert "div:class=story-body" in tokens and "div:id=main-content" in tokens
    # "has-no-ticker technology", "has-no-ticker magazine": the section is content
    # (each on one page; "business", on half of these pages, passes as layout)
    assert "div:class=has-no-ticker" in tokens
    assert not {"div:class=technology", "div:class=magazine"} & tokens


def test_key_filter_keeps_layout_tokens_and_merges_neighbours():
    layout = decompose(
        '<body><div class="post tag-a"><p>One.</p></div><div class="post tag-b"><p>Two.</p></div>'
        "</body>"
    )
    assert len(layout.blocks) == 2
    filtered = KeyFilter({"div:class=post"}).apply(layout)
    assert [(b.key, b.text) for b in filtered.blocks] == [("body/div:class=post", "One.\nTwo.")]
    assert KeyFilter.from_keys(["body/div:id=x:class=a.b/td:col=2"]).tokens == {
        "div:id=x", "div:class=a", "div:class=b",
    }


def test_filtering_while_decomposing_is_filtering_after(bbc):
    parser = BlockParser()
    pages = list(bbc.values())
    layouts = [parser.decompose(page.html) for page in pages]
    key_filter = KeyFilter(stable_tokens(layouts))
    changed = 0
    for page, layout in zip(pages, layouts):
        filtered = parser.decompose(page.html, key_filter)
        assert filtered == key_filter.apply(layout)
        changed += filtered.keys != layout.keys
    assert changed  # the filter did drop tokens (section names, per-page classes)


def test_a_link_around_a_layout_element_is_link_text_in_every_run():
    layout = decompose(
        '<body><div id="a"><a href="/x">Link <div id="b">inner text</div> more</a> plain'
        "</div></body>"
    )
    assert [(b.key, b.text, b.weight, b.link_weight) for b in layout.blocks] == [
        ("body/div:id=a", "Link", 4, 4),
        ("body/div:id=a/div:id=b", "inner text", 9, 9),
        ("body/div:id=a", "more plain", 9, 4),
    ]


def test_control_characters_in_a_page_do_not_move_text_between_blocks():
    # The walk marks runs, lines and links with NUL, U+0001, U+0002 and U+0003; a page
    # can hold the last three (NUL never reaches the tree). U+0001 in a text breaks its
    # line; the link marks are never text.
    layout = decompose(
        '<body><div id="a">one &#1; two</div>'
        '<div id="b"><a href="/x">li&#2;nk</a> ta&#3;il &#0;</div><p>la&#3;st</p></body>'
    )
    assert [(b.key, b.text, b.weight) for b in layout.blocks] == [
        ("body/div:id=a", "one\ntwo", 6),
        ("body/div:id=b", "link tail \ufffd", 8),
        ("body", "last", 4),
    ]
    assert layout.blocks[1].link_weight == 4


def test_a_page_leaves_no_garbage_for_the_cycle_collector():
    html = '<body><div id="a"><p>One <a href="/x">two</a></p><ul><li>three</li></ul></div></body>'
    # Earlier tests' garbage first, to the last of it: a collection runs weakref callbacks
    # (pydispatcher's, of finished Scrapy crawls) that leave new cycles for the next one.
    while gc.collect():
        pass
    gc.disable()
    try:
        decompose(html)
        assert gc.collect() == 0
    finally:
        gc.enable()


def test_blocks_compare_by_key_text_and_weights():
    decomposed = decompose("<body><div>Two  words\n<br>and a line</div></body>").blocks[0]
    built = LayoutBlock("body/div", "Two words\nand a line", 16, 0)
    assert decomposed == built and hash(decomposed) == hash(built)
    assert repr(decomposed) == repr(built)
    assert LayoutBlock("body/div", "Two words\nand a line", 16, 1) != decomposed


def test_a_byte_order_mark_is_no_line_of_a_block():
    # Tokyo Shimbun (2025, fundus; tests/readability/fixtures/rules): a U+FEFF opens a
    # quotation of the story and another stands alone between two boxes. A learned
    # pattern's body is its blocks' lines: none may hold it, nor be blank for it.
    from pathlib import Path

    fixture = Path(__file__).parents[1] / "readability/fixtures/rules/byte-order-mark-in-text.html"
    layout = decompose(fixture.read_text(encoding="utf-8"))
    lines = [line for block in layout.blocks for line in block.text.split("\n")]
    assert "「ようやく逮捕に至った。長かった」" in lines
    assert not [line for line in lines if "\ufeff" in line or not line.strip()]
