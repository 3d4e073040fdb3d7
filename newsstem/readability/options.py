"""Tuned thresholds of the readability extractor, in one options object passed down.

Lengths are *weighted meaningful characters* (:func:`newsstem.readability.measure.text_weight`):
letters and digits count once, a CJK character counts ``cjk_char_weight`` times, spaces and
punctuation not at all. Readability's own thresholds were set in raw characters of English
text, which has about 0.8 meaningful characters per raw character; the original numbers are
kept. Every figure quoted below is token-shingle F1 from tests/benchmarks/extraction.py.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Flags", "Options"]


@dataclass(frozen=True)
class Options:
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

    # --- sibling merge (seed 000 collectSiblings)
    sibling_score_ratio: float = 0.2  # siblings scoring >= 20% of the best join it ...
    sibling_min_score: float = 10.0  # ... but never below 10 points
    same_class_bonus: float = 0.2  # a sibling of the best's class gets 20% of its score
    sibling_long_paragraph: int = 80  # a <p> sibling longer than 80 chars joins ...
    sibling_link_density: float = 0.25  # ... when its link density is under 0.25
    segment_link_density: float = 0.2  # a split-off segment of the article: python-readability

    # --- cleaning (seed 000 removeFragments / fishy, python-readability sanitize)
    header_link_density: float = 0.33  # headings mostly of links are navigation
    fishy_min_length: int = 25  # a container shorter than this (and no image) goes
    fishy_link_density: float = 0.2  # link density a neutral container may have
    fishy_link_density_weighted: float = 0.5  # ... and one with a positive class name
    fishy_keep_commas: int = 10  # ten commas make a container prose: never fishy
    fishy_li_allowance: int = 100  # <li> may outnumber <p> by 100 before a list is fishy
    fishy_images_per_paragraph: float = 1.3  # a gallery: more than 1 + 1.3 images per <p>

    # --- the retry sieve (seed 000 grabArticle)
    retry_length: int = 250  # an attempt with less text retries with relaxed flags

    # --- when a page has no article
    # Less text than this is not an article (must stay <= retry_length). 0 would gain
    # mozilla's two ~20-character test pages (+0.005) and lose on l3s (-0.0007).
    min_article_length: int = 80
    max_article_link_density: float = 0.5  # an "article" mostly of links is navigation


@dataclass(frozen=True)
class Flags:
    """The switches the retry sieve turns off one by one (seed 000, FLAG_*)."""

    strip_unlikelys: bool = True
    weight_classes: bool = True
    clean_conditionally: bool = True

    def relaxed(self) -> Flags | None:
        """The next, more lenient flag set, or None when everything is already off.

        >>> Flags().relaxed()
        Flags(strip_unlikelys=False, weight_classes=True, clean_conditionally=True)
        >>> Flags(False, False, False).relaxed() is None
        True
        """
        if self.strip_unlikelys:
            return Flags(False, self.weight_classes, self.clean_conditionally)
        if self.weight_classes:
            return Flags(False, False, self.clean_conditionally)
        if self.clean_conditionally:
            return Flags(False, False, False)
        return None
