"""Readability fallback extractor: the article of any page, without a learned pattern.

The full heuristic of arc90's Readability as python-readability implements it (seeds 000
and 002): unlikely-candidate stripping, div-to-paragraph reading, paragraph scoring
propagated to ancestors, class weights, link density, best candidate and sibling merge,
conditional cleaning and the retry sieve; made CJK-aware (CJK punctuation counts like
commas, lengths are weighted meaningful characters). No Scrapy import: HTML in, data out.

    >>> from newsstem.readability import extract
    >>> extract("<p>too short</p>").reason
    'no candidate'
"""

from newsstem.readability.extractor import Extraction, extract
from newsstem.readability.options import Options

__all__ = ["Extraction", "Options", "extract"]
