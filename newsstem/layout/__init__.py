"""Learned layout patterns: Webstemmer's method (seed 004), made fast and robust.

A site's article pages share a layout. Learning groups a site's pages by layout
(:mod:`~newsstem.layout.cluster`), aligns the layout blocks of each group and
finds the blocks whose text changes from page to page and carries the article
(:mod:`~newsstem.layout.learn`). The result is a pattern file
(:mod:`~newsstem.layout.patterns`) that extracts the title, main text and
supplementary text of any new page of that layout, fast.

HTML in, plain data out: nothing here imports Scrapy.
"""

from newsstem.layout.blocks import LayoutBlock, PageLayout, decompose

__all__ = ["LayoutBlock", "PageLayout", "decompose"]
