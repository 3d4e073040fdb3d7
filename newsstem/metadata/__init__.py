"""Article metadata from HTML: dates, authors, language, description, image, canonical URL,
site name, tags and section. No Scrapy import: HTML in, a :class:`Metadata` out.

    >>> from newsstem.metadata import extract_metadata
    >>> extract_metadata("<html lang='ja'><p>東京は晴れです。明日も晴れるでしょう。</p>").language
    'ja'

Modules: :mod:`~newsstem.metadata.evidence` (one parse; JSON-LD, meta tags, microdata,
links), :mod:`~newsstem.metadata.dates`, :mod:`~newsstem.metadata.authors`,
:mod:`~newsstem.metadata.language`, :mod:`~newsstem.metadata.fields` (the rest), and
:mod:`~newsstem.metadata.extract` which puts them together.
"""

from newsstem.metadata.extract import FIELDS, Metadata, MetadataOptions, extract_metadata

__all__ = ["extract_metadata", "Metadata", "MetadataOptions", "FIELDS"]
