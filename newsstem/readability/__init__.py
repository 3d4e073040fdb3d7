"""Readability fallback extractor: the article of any page, without a learned pattern.

The full heuristic of arc90's Readability as python-readability implements it (seeds 000
and 002): unlikely-candidate stripping, div-to-paragraph reading, paragraph scoring
propagated to ancestors, class weights, link density, best candidate and sibling merge,
conditional cleaning and the retry sieve; made CJK-aware (CJK punctuation counts like
commas, lengths are weighted meaningful characters). Around it: the page's own marks
(AdSense sections: adsection.py; JSON-LD articleBody: structured.py; its meta
description, or its title's words without one: described.py, and the lead under its
headline: lead.py), a choice between
the best candidate and a wider one by the prose it adds and the end-of-article tool
line (ExtractContent's block reading, seed 003: prose.py, trailer.py), and section
fronts told apart by their teasers (listing.py). No Scrapy import: HTML in, data out.

    >>> from newsstem.readability import extract
    >>> extract("<p>A short page is its own content.</p>").body
    'A short page is its own content.'
    >>> extract("<html><body> </body></html>").reason
    'empty document'
"""

from newsstem.readability.extractor import Extraction, extract
from newsstem.readability.options import Options

__all__ = ["Extraction", "Options", "extract"]
