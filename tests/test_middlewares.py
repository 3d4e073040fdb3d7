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


@pytest.mark.parametrize(("settings", "meta", "spider_list", "status", "passes"), [
    ({}, {"handle_httpstatus_list": [404]}, None, 404, True),
    ({}, {"handle_httpstatus_all": True}, None, 500, True),
    ({"HTTPERROR_ALLOW_ALL": True}, {}, None, 503, True),
    ({}, {}, [410], 410, True),  # the spider's list: was a failed request
    # a request's list stands for the settings' (Scrapy's rule): the 404 passed here,
    # then Scrapy dropped it unseen, neither a failed request nor a page
    ({"HTTPERROR_ALLOWED_CODES": "404"}, {"handle_httpstatus_list": [500]}, None, 404, False),
    ({"HTTPERROR_ALLOW_ALL": True}, {"handle_httpstatus_list": [500]}, None, 404, False),
    # and the spider's list for HTTPERROR_ALLOWED_CODES
    ({"HTTPERROR_ALLOWED_CODES": "404"}, {}, [410], 404, False),
])
def test_allowed_statuses_are_scrapys_and_counted_apart_from_failures(
        settings, meta, spider_list, status, passes):
    crawler = get_crawler(settings_dict=settings)
    crawler.stats.open_spider()
    if spider_list is not None:
        crawler.spider = type("Mine", (), {"handle_httpstatus_list": spider_list})()
    middleware = DownloadErrors.from_crawler(crawler)
    url = "http://127.0.0.1/page"
    response = Response(url, status=status)
    if passes:
        assert middleware.process_response(Request(url, meta=meta), response) is response
    else:
        with pytest.raises(IgnoreRequest):
            middleware.process_response(Request(url, meta=meta), response)
    stats = middleware.stats
    assert stats.get_value(f"newsstem/allowed/http_{status}") == (1 if passes else None)
    assert stats.get_value(f"newsstem/errors/http_{status}") == (None if passes else 1)


def test_robots_txt_s_own_status_is_neither_allowed_nor_failed():
    middleware = _download_errors()
    url = "http://127.0.0.1/robots.txt"
    response = Response(url, status=404)
    request = Request(url, meta={"dont_obey_robotstxt": True})
    assert middleware.process_response(request, response) is response
    assert middleware.stats.get_stats() == {}


def test_a_status_allowed_with_dash_s_reaches_the_spider(tmp_path):
    # -s HTTPERROR_ALLOWED_CODES=404 (scrapyd passes strings too): Scrapy's HttpErrorMiddleware
    # looks the status up in the strings as they are, so the 404 never reached the spider
    # and its links were not followed, even once DownloadErrors let it through
    from http.server import BaseHTTPRequestHandler

    from support.crawl import run_crawl
    from support.httpserver import serve, shut_down

    class Site(BaseHTTPRequestHandler):
        def do_GET(self):
            found = self.path == "/story.html"
            self.send_response(200 if found else 404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.end_headers()
            self.wfile.write(b"<html><body><p>Story.</p></body></html>" if found else
                             b"<html><body><a href='/story.html'>A story</a></body></html>")

        def log_message(self, format, *args):
            pass

    server = serve(Site)
    try:
        url = f"http://127.0.0.1:{server.server_port}"
        result = run_crawl(tmp_path, "-a", f"start_url={url}/gone.html",
                           settings={"HTTPERROR_ALLOWED_CODES": "404"})
    finally:
        shut_down(server)
    assert "newsstem/errors/http_404" not in result.stats, result.log
    assert result.stats.get("downloader/response_status_count/200", 0) >= 1, result.log
    assert "Ignoring response <404" not in result.log
