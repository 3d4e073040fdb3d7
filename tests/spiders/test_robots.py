"""robots.txt is obeyed on the very first burst of requests and after a JOBDIR resume.

Scrapy 2.14-2.19 let several disallowed requests through while a host's
robots.txt was still downloading; newsstem.middlewares.SafeRobotsTxtMiddleware
closes that race. These tests fail with Scrapy's own middleware.
"""

from __future__ import annotations

from support.crawl import run_crawl

BURST = {"CONCURRENT_REQUESTS": "64", "CONCURRENT_REQUESTS_PER_DOMAIN": "64"}


def _private_hub(site, count: int) -> str:
    links = "".join(f'<a href="/private/{i}.html">p{i}</a>' for i in range(count))
    links += "".join(f'<a href="/about.html?n={i}">a{i}</a>' for i in range(count))
    site.routes["/hub.html"] = (200, "text/html", f"<html><body>{links}</body></html>".encode())
    return f"{site.url}/hub.html"


def test_no_disallowed_page_in_the_first_burst(tmp_path, site):
    starts = [f"{site.url}/private/{i}.html" for i in range(30)] + [f"{site.url}/about.html"]
    result = run_crawl(tmp_path, "-a", "start_url=" + " ".join(starts), "-a", "depth=0",
                       settings=BURST)
    assert result.returncode == 0, result.log
    fetched = site.paths(status=None)
    assert "/about.html" in fetched
    assert [p for p in fetched if p.startswith("/private/")] == []
    assert result.stats["robotstxt/forbidden"] == 30


def test_no_disallowed_page_after_a_jobdir_resume(tmp_path, site):
    start = _private_hub(site, 40)
    jobdir = tmp_path / "job"
    settings = {**BURST, "JOBDIR": str(jobdir), "NEWSSTEM_URL_RULES": "+."}
    # Stop after the hub: its 80 links wait in the job's disk queue.
    first = run_crawl(tmp_path, "-a", f"start_url={start}", "-a", "depth=1", name="first",
                      settings={**settings, "CLOSESPIDER_PAGECOUNT": "1",
                                "CONCURRENT_REQUESTS": "1"})
    assert first.returncode == 0, first.log
    site.clear()
    second = run_crawl(tmp_path, "-a", f"start_url={start}", "-a", "depth=1", name="second",
                       settings=settings)
    assert second.returncode == 0, second.log
    assert "Resuming crawl" in second.log
    fetched = site.paths(status=None)
    assert any(p.startswith("/about.html?n=") for p in fetched)
    assert [p for p in fetched if p.startswith("/private/")] == []
    assert "/hub.html" not in fetched  # the start page is not fetched again on resume
