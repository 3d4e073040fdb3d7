"""Scrapy extensions of newsstem."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from tldextract import TLDExtract

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)


def offline_tldextract(*, include_psl_private_domains: bool = False) -> TLDExtract:
    """A TLDExtract that uses only the Public Suffix List bundled with tldextract.

    The default instance downloads the list on first use (and logs tracebacks
    when offline); crawls must not depend on that.
    """
    return TLDExtract(
        suffix_list_urls=(),
        cache_dir=None,
        include_psl_private_domains=include_psl_private_domains,
    )


class OfflineTldExtract:
    """Keep Scrapy's cookie middleware from fetching the Public Suffix List.

    Scrapy >= 2.19 checks cookie domains with a module-level ``TLDExtract`` that
    goes to the network on its first call. This extension swaps it, once, for
    an instance bound to the bundled snapshot. If a Scrapy release renames the
    attribute, it logs a warning and changes nothing.
    """

    def __init__(self) -> None:
        from scrapy.downloadermiddlewares import cookies

        if isinstance(getattr(cookies, "_split_domain", None), TLDExtract):
            cookies._split_domain = offline_tldextract(include_psl_private_domains=True)
        else:
            logger.warning(
                "newsstem: scrapy.downloadermiddlewares.cookies._split_domain not found; "
                "cookie domain checks may download the Public Suffix List"
            )

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> OfflineTldExtract:
        return cls()
