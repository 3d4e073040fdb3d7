"""Tuned thresholds of the readability extractor, in one options object passed down.

Lengths are *weighted meaningful characters* (:func:`newsstem.readability.measure.text_weight`):
letters and digits count once, a CJK character counts ``cjk_char_weight`` times, spaces and
punctuation not at all. Readability's own thresholds were set in raw characters of English
text, which has about 0.8 meaningful characters per raw character; the original numbers are
kept. Every figure quoted below is token-shingle F1 from tests/benchmarks/extraction.py.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

__all__ = ["Flags", "Options"]


@dataclass(frozen=True)
class Options:
    """The thresholds of :func:`newsstem.readability.extract` (``options=Options(...)``);
    the defaults are the tuned ones, each with a note on what it does and, where it was
    measured, how it was set."""

    # --- paragraph scoring (seed 000 scoreNode, python-readability score_paragraphs)
    min_paragraph_length: int = 25  # shorter paragraphs score nothing: Readability's 25 chars
    length_per_point: int = 100  # one point per 100 characters ...
    max_length_points: float = 3.0  # ... up to 3 points
    # Parent gets the score, grandparent half, then 1/(3 x level) up to 5 levels (Mozilla
    # Readability): +0.009 F1 on mozilla, +0.007 on cleaneval-dev, neutral on the others.
    ancestor_shares: tuple[float, ...] = (1.0, 1 / 2, 1 / 6, 1 / 9, 1 / 12)
    class_weight: int = 25  # +/- 25 for a positive/negative class or id name
    # One CJK character weighs this many Latin meaningful characters. Measured on the gold
    # texts of the four corpora: a median sentence has 47 Latin meaningful characters
    # (52k sentences) but 28 CJK characters (314 sentences); paragraphs 54 vs 30.
    cjk_char_weight: float = 1.7

    # --- best candidate (Mozilla Readability's refinements of the top candidate)
    top_candidates: int = 5  # how many top candidates are compared
    alternative_ratio: float = 0.75  # a candidate scoring 75% of the best is an alternative ...
    min_alternatives: int = 3  # ... and 3 of them sharing an ancestor make it the article
    # ... but not the page's wrapper (a child of <body>) when the best holds this many
    # characters: a story long enough alone, its near-top rivals the page's other boxes.
    page_wrapper_story_length: int = 1000

    # --- sibling merge (seed 000 collectSiblings)
    sibling_score_ratio: float = 0.2  # siblings scoring >= 20% of the best join it ...
    sibling_min_score: float = 10.0  # ... but never below 10 points
    same_class_bonus: float = 0.2  # a sibling of the best's class gets 20% of its score
    sibling_long_paragraph: int = 80  # a <p> sibling longer than 80 chars joins ...
    sibling_link_density: float = 0.25  # ... when its link density is under 0.25
    segment_link_density: float = 0.2  # a split-off segment of the article: python-readability

    # --- cleaning (seed 000 removeFragments / fishy, python-readability sanitize)
    header_link_density: float = 0.33  # headings mostly of links are navigation
    fishy_min_length: int = 25  # a container shorter than this (and no image) goes ...
    # ... unless it only wraps a heading, with this share of its text in it (Mozilla
    # Readability's heading density, not tuned): a section's crosshead in its own <div>s.
    heading_share: float = 0.9
    # A sibling that only wraps a heading of this many words or more, between two parts of
    # a selection and leading to one of them, joins it (scoring.py: a story set as a
    # column of components, its crossheads components of their own). A shorter heading
    # there is a label as often ("Video", "Foo" in Readability.js's test pages).
    crosshead_min_words: int = 3
    fishy_link_density: float = 0.2  # link density a neutral container may have
    fishy_link_density_weighted: float = 0.5  # ... and one with a positive class name
    fishy_keep_commas: int = 10  # ten commas (outside links, not dates') make a container prose
    fishy_li_allowance: int = 100  # <li> may outnumber <p> by 100 before a list is fishy
    fishy_images_per_paragraph: float = 1.3  # a gallery: more than 1 + 1.3 images per <p>
    # ... unless a paragraph of it is prose of 200+ characters ending a sentence: a post
    # set between its photos (a <p> of text, <br>, photo, <br>, text), whose captions are
    # short. 200 as for the tool line's prose above it (tool_line_min_prose); tune halves:
    # dragnet +0.0023, l3s +0.0025, the other corpora equal.
    gallery_prose_length: int = 200
    # A list or table between two prose paragraphs of the article goes only when mostly
    # links (Mozilla keeps lists; 0.5 and 0.35 measured alike: +0.0004 F1 on mozilla,
    # +0.0001 on l3s, cleaneval-dev and cleanportal equal).
    in_prose_link_density: float = 0.35
    # A container with 90% of its text in such lists or tables (the list and its heading)
    # is judged like them (Mozilla Readability's share for "is a list").
    list_wrapper_share: float = 0.9

    # Elements named as furniture (bylines, captions, share bars ...) go from the article
    # (cleaning.py), unless less than a seventh of its text would stay (trafilatura's
    # prune_unwanted_nodes backup rule).
    furniture_keep_share: float = 1 / 7
    # One with more text than this is a wrapper whatever its name (500, 1000 and 2000
    # tried on the tune halves: 500 best).
    furniture_max_length: int = 500

    # --- the end of the article (trailer.py): a tool line after a paragraph of 200+
    # characters outside links ends it (counting the prose of all blocks instead cut
    # three l3s stories at a tool line above them: -0.0019). Both figures are the first
    # tried; measured on the corpora: l3s +0.0012 F1 (both halves), cleaneval-dev
    # +0.0002, mozilla and cleanportal equal.
    # "Print | Email this | Comment" has 4 words; "Printer friendly page Send this article
    # to Friends by E-Mail" 11 ("E-Mail" counts two)
    tool_line_max_words: int = 12
    tool_line_min_prose: int = 200  # a tool line above the story's paragraphs goes alone

    # --- a wider selection (extractor.py): Mozilla Readability climbs from the best
    # candidate to a parent scoring higher. Alone that cost 0.011 F1 on cleaneval-dev and
    # 0.003 on l3s (the parent adds footers, comment policies, other posts); the wider
    # selection is taken only when 85% of the text it adds is prose: paragraphs of 80+
    # characters outside links, ending a sentence, without waste expressions (prose.py).
    prose_block_length: int = 80
    wider_prose_share: float = 0.85

    # --- the page's description (described.py): when the best candidate holds less than
    # 30% of the description's key words (given 5 or more) and one of the 10 top
    # candidates, not above nor below it and scoring a fifth of it, holds 60%, that one is
    # the article. The figures are the first tried. A page whose descriptions give fewer
    # key words is judged by its title's words alike, in the candidates' text without the
    # runs of four words that repeat the title (extractor._judged_text).
    described_min_words: int = 5
    described_far: float = 0.3
    described_near: float = 0.6
    described_candidates: int = 10
    described_min_score_share: float = 0.2

    # --- the lead (lead.py): the headline is the first h1-h3 with 3+ words, 80% of them
    # in the <title> or og:title; up to 2 blocks between it and the selected body, of 40+
    # characters (or a shorter sentence of the description's words alone) with few links,
    # 60% of whose words are in the page's meta description, are the story's lead.
    # (Without the description, taking every prose block there also took newsletter
    # prompts and reprint notices: tune halves of cleanportal, l3s, mozilla, fundus lost
    # up to 0.003.)
    headline_min_words: int = 3
    headline_title_share: float = 0.8
    lead_max_blocks: int = 2
    lead_min_length: int = 40
    # A shorter block is a lead when it is a sentence every word of which the description
    # says (USA Today's "Wolverine is back, one last time.", chaos tune); under this, no
    # lead (and a name the description says, "Land Rover Range Rover", is no sentence:
    # dragnet tune).
    lead_sentence_min_length: int = 20
    lead_link_density: float = 0.2
    lead_description_share: float = 0.6

    # --- the retry sieve (seed 000 grabArticle)
    retry_length: int = 250  # an attempt with less text retries with relaxed flags
    # An attempt with this much text stays the article against a longer one of laxer
    # flags that lies inside its selection (what the stricter flags had cleaned away
    # there: a blog's profile box, a post's tag lines; extractor._stays). Below it, the
    # longer one wins as before. Any floor from 120 to 195 chooses alike on the tune
    # halves (dragnet tune +0.0038, held-out +0.0018; the other corpora equal).
    kept_attempt_length: int = 150

    # --- when a page has no article
    # Less text than this is not an article (must stay <= retry_length) ... unless it is
    # nearly all the text the page has: a short page's content, however short (the
    # crawl drops short articles itself, NEWSSTEM_MIN_ARTICLE_CHARS). A short extraction
    # from a page with much more text elsewhere is a failed one, and gets a reason.
    # (Lowering the length to 0 instead scores the same on the four corpora today, but
    # would pass any failed 20-character extraction, and any tiny AdSense-marked snippet.)
    min_article_length: int = 80
    # "Nearly all": the rest of the page is at most a quarter of it (a title line, a
    # menu word or two). Only mozilla's lazy-image-3 is concerned on the corpora (its
    # 18 characters are all its text), so the figure is a judgement, not a fit.
    short_page_share: float = 0.75
    max_article_link_density: float = 0.5  # an "article" mostly of links is navigation
    # A JSON-LD articleBody stands in for a page whose markup gave no article when it has
    # this much text (structured.py); declared teasers on the corpora have 134-298.
    declared_min_length: int = 250
    # ... and for an extraction it holds (80% of its words) with twice as many words:
    # the markup gave part of the story (set before measuring: no tune page has it).
    declared_ratio: float = 2.0
    declared_share: float = 0.8  # ... "holds": has this share of the extraction's words
    # A listing (listing.py): 3+ teasers (a headline link and at most 300 characters of
    # prose outside links) holding 60% of the prose, with at most one teaser's worth of
    # prose left outside them. Measured on the four corpora: the
    # hubs have 0.99+, the articles with related-story boxes at most 0.33.
    listing_min_teasers: int = 3  # 3+ teasers ...
    teaser_max_prose: int = 300  # ... of at most 300 characters of prose outside links ...
    listing_teaser_share: float = 0.6  # ... holding 60% of the page's prose


@dataclass(frozen=True)
class Flags:
    """The switches the retry sieve turns one by one (seed 000, FLAG_*).

    Before Readability's three relaxations, the sieve first turns list items into
    paragraphs (``score_lists``): a story written as a list (release notes, a feature
    page) then counts. Not from the start: a guestbook or comment thread set as a list
    outscored short stories (cleaneval-dev), so lists count only when the strict attempt
    found too little text.
    """

    strip_unlikelys: bool = True
    weight_classes: bool = True
    clean_conditionally: bool = True
    score_lists: bool = False

    def relaxed(self) -> Flags | None:
        """The next, more lenient flag set, or None when everything is already relaxed.

        >>> Flags().relaxed()
        Flags(strip_unlikelys=True, weight_classes=True, clean_conditionally=True, score_lists=True)
        >>> Flags().relaxed().relaxed()
        Flags(strip_unlikelys=False, weight_classes=True, clean_conditionally=True, score_lists=True)
        >>> Flags(False, False, False, True).relaxed() is None
        True
        """
        if not self.score_lists:
            return replace(self, score_lists=True)
        if self.strip_unlikelys:
            return replace(self, strip_unlikelys=False)
        if self.weight_classes:
            return replace(self, weight_classes=False)
        if self.clean_conditionally:
            return replace(self, clean_conditionally=False)
        return None
