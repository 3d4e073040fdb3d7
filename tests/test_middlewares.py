"""newsstem.middlewares: DownloadErrors (one line and a count per failed request)."""

from __future__ import annotations

import pytest
from scrapy import Request
from scrapy.exceptions import IgnoreRequest
from scrapy.http import Response
from scrapy.utils.test import get_crawler

from newsstem.middlewares import DownloadErrors


def _download_errors(**settings: object) -> DownloadErrors:
    crawler = get_crawler(settings_dict=settings)
    crawler.stats.open_spider()
    return DownloadErrors.from_crawler(crawler)


@pytest.mark.parametrize("codes", [[404], "404", "404,410"])
def test_allowed_statuses_pass_however_the_setting_is_written(codes):
    # -s HTTPERROR_ALLOWED_CODES=404 and scrapyd give strings; Scrapy's HttpErrorMiddleware
    # then lets a 404 reach the spider, and so must this middleware, which runs first
    middleware = _download_errors(HTTPERROR_ALLOWED_CODES=codes)
    url = "http://127.0.0.1/gone"
    response = Response(url, status=404)
    assert middleware.process_response(Request(url), response) is response
    assert middleware.stats.get_value("newsstem/errors/http_404") is None


def test_an_unwanted_status_is_counted_and_dropped():
    middleware = _download_errors()
    url = "http://127.0.0.1/gone"
    with pytest.raises(IgnoreRequest):
        middleware.process_response(Request(url), Response(url, status=404))
    assert middleware.stats.get_value("newsstem/errors/http_404") == 1
