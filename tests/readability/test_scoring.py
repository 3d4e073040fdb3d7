"""Candidate scoring, link density and sibling merge on tiny hand-made pages."""

from __future__ import annotations

from typing import NamedTuple

from lxml import etree

from newsstem.readability.measure import Measure
from newsstem.readability.options import Flags, Options
from newsstem.readability.scoring import (
    add_segments,
    best_candidate,
    score_candidates,
    select_siblings,
)
from newsstem.readability.tree import parser

PROSE = "This sentence has words, and commas, and it runs on for a while longer. "


class Scored(NamedTuple):
    scores: dict
    options: Options
    measure: Measure


def candidates(html: str, flags: Flags | None = None) -> Scored:
    body = etree.fromstring(html.encode("utf-8"), parser()).find("body")
    options = Options()
    measure = Measure(options)
    return Scored(score_candidates(body, flags or Flags(), options, measure), options, measure)


def by_id(scores, element_id):
    return next(score for element, score in scores.items() if element.get("id") == element_id)


def test_paragraph_points_go_to_parent_and_half_to_grandparent():
    scores, _, _ = candidates(
        f"<body><section id='g'><span id='p'><p>{PROSE * 2}</p></span></section></body>"
    )
    parent, grandparent = by_id(scores, "p"), by_id(scores, "g")
    assert parent > 0 and grandparent == parent / 2


def test_link_density_scales_a_candidate_down():
    text = f"<p>{PROSE * 3}</p>" * 3
    links = f"<p><a href='#'>{PROSE * 3}</a></p>" * 3
    scores, options, _ = candidates(
        f"<body><div id='links'>{links}</div><div id='prose'>{text}</div></body>"
    )
    assert by_id(scores, "prose") > 10 * by_id(scores, "links") >= 0
    assert best_candidate(scores, options).get("id") == "prose"


def test_class_weight_counts_only_while_weighting_classes():
    html = f"<body><div class='article-body' id='a'><p>{PROSE}</p></div></body>"
    weighted, _, _ = candidates(html)
    plain, _, _ = candidates(html, Flags(False, False, True))
    assert by_id(weighted, "a") == by_id(plain, "a") + 25


def test_a_div_without_blocks_scores_as_a_paragraph():
    scores, _, _ = candidates(f"<body><div id='box'><div>{PROSE * 2}</div></div></body>")
    assert by_id(scores, "box") > 5


def test_text_set_with_double_breaks_inside_inline_markup_scores_as_paragraphs():
    # An old layout (l3s): the story is <br><br>-separated text inside a <font>.
    story = "<br><br>".join([PROSE * 2] * 4)
    scores, options, _ = candidates(
        f"<body><div id='story'><b>Headline</b><font>{story}</font><div>menu</div></div>"
        f"<div id='side'><p>{PROSE * 2}</p></div></body>"
    )
    # Four paragraphs of about 6.5 points each, not one capped paragraph of the whole text.
    assert by_id(scores, "story") > 5 + 4 * 6
    assert best_candidate(scores, options).get("id") == "story"


def test_cjk_paragraph_of_sixty_characters_scores_like_a_longer_english_one():
    japanese = "今日は朝から雨が降っていて、駅までの道がとても混んでいました。" * 2
    assert len(japanese) == 62
    english = PROSE * 2  # 146 characters, 114 of them meaningful, 4 commas
    ja, _, _ = candidates(f"<body><div id='x'><p>{japanese}</p></div></body>")
    en, _, _ = candidates(f"<body><div id='x'><p>{english}</p></div></body>")
    assert abs(by_id(ja, "x") - by_id(en, "x")) < 0.5
    # Counted as raw characters, with no CJK punctuation as commas, it would score 2 less.
    assert by_id(ja, "x") > 5 + 1 + 1 + 0.62 + 1


def test_siblings_join_by_score_and_as_prose_but_links_do_not():
    scores, options, measure = candidates(
        "<body><div id='wrap'>"
        f"<div id='best'>{('<p>' + PROSE * 3 + '</p>') * 5}</div>"
        f"<p id='long'>{PROSE * 2}</p>"
        "<p id='short'>A short closing line.</p>"
        "<p id='jashort'>短い締めの一文です。</p>"
        "<p id='nostop'>A short line without a stop</p>"
        f"<p id='linky'><a href='/x'>{PROSE * 2}</a></p>"
        "</div></body>"
    )
    best = best_candidate(scores, options)
    assert best.get("id") == "best"
    joined = [e.get("id") for e in select_siblings(best, scores, options, measure)]
    assert joined == ["best", "long", "short", "jashort"]


def test_several_close_candidates_promote_their_common_ancestor():
    steps = "".join(
        f"<div class='step'><div id='s{i}'><p>{PROSE * 3}</p><p>{PROSE * 2}</p></div></div>"
        for i in range(4)
    )
    scores, options, _ = candidates(f"<body><div id='steps'>{steps}</div></body>")
    assert best_candidate(scores, options).get("id") == "steps"


def test_an_only_child_gives_way_to_its_parent():
    scores, options, _ = candidates(
        f"<body><div id='outer'><div id='inner'><p>{PROSE * 3}</p></div></div><p>x</p></body>"
    )
    assert best_candidate(scores, options).get("id") == "outer"


def test_segments_of_a_split_article_are_collected_in_order():
    scores, options, measure = candidates(
        "<body><article>"
        f"<div class='wrap'><figure>A photo</figure>"
        f"<div class='story-body' id='one'>{('<p>' + PROSE * 3 + '</p>') * 4}</div></div>"
        "<div class='ad'><p>Advertisement</p></div>"
        f"<div class='wrap2'><div class='story-body' id='two'>{('<p>' + PROSE * 2 + 'TWO</p>') * 2}</div>"
        "<div class='aside-box'><p>Something else entirely here.</p></div></div>"
        "</article></body>"
    )
    best = best_candidate(scores, options)
    assert best.get("id") == "one"
    selected = select_siblings(best, scores, options, measure)
    ids = [e.get("id") for e in add_segments(best, selected, scores, options, measure)]
    assert ids == ["one", "two"]


def test_a_sibling_of_the_best_class_without_a_score_of_its_own_joins_by_its_content():
    # quanta-1 (mozilla): the story is cut in <div class="part"> blocks nested deeper than
    # the 5 levels a paragraph credits; the first part has no score of its own.
    deep = "<div><div><div><div><div>{}</div><hr></div><hr></div><hr></div><hr></div>"
    first = deep.format(f"<p>{PROSE * 3}</p>" * 3)
    second = "".join(f"<p>{PROSE * 3}</p>" for _ in range(4))
    scores, options, measure = candidates(
        "<body><div id='wrap'>"
        f"<div class='part' id='one'>{first}</div>"
        "<div class='ad'><p>Advertisement</p></div>"
        f"<div class='part' id='two'>{second}</div>"
        "</div></body>"
    )
    best = best_candidate(scores, options)
    assert best.get("id") == "two" and not any(e.get("id") == "one" for e in scores)
    joined = [e.get("id") for e in select_siblings(best, scores, options, measure)]
    assert joined == ["one", "two"]
