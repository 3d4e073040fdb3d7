"""The shared duplicate filter, on a real redis-server: one set per site, atomic, forgotten when idle."""

from __future__ import annotations

import redis
from scrapy import Request
from scrapy.utils.request import RequestFingerprinter

from newsstem.distributed.dupefilter import SiteDupeFilter

KEY = "newsstem:news:dupefilter:%(site)s"


def dupefilter(url: str, forget: int = 600) -> SiteDupeFilter:
    return SiteDupeFilter(redis.Redis.from_url(url), KEY, RequestFingerprinter(), forget)


def test_a_url_is_admitted_once_by_all_workers_together(redis_db):
    first, second = dupefilter(redis_db), dupefilter(redis_db)  # two workers
    assert not first.request_seen(Request("https://a.example/news/1.html"))
    assert second.request_seen(Request("https://a.example/news/1.html"))
    # the same request as Scrapy fingerprints it: fragment and query order do not count
    assert first.request_seen(Request("https://a.example/news/1.html#top"))
    assert not second.request_seen(Request("https://a.example/news/2.html"))


def test_each_site_has_its_own_set_with_a_time_to_live(redis_db):
    filter_ = dupefilter(redis_db, forget=120)
    filter_.request_seen(Request("https://a.example/x"))
    filter_.request_seen(Request("http://b.example:8080/x"))
    client = redis.Redis.from_url(redis_db)
    keys = sorted(k.decode() for k in client.keys("newsstem:news:dupefilter:*"))
    assert keys == ["newsstem:news:dupefilter:a.example", "newsstem:news:dupefilter:b.example:8080"]
    assert all(0 < client.ttl(k) <= 120 for k in keys)


def test_a_forgotten_site_is_crawled_again_and_clear_forgets_every_site(redis_db):
    filter_ = dupefilter(redis_db, forget=1)
    request = Request("https://a.example/")
    assert not filter_.request_seen(request)
    client = redis.Redis.from_url(redis_db)
    client.expire("newsstem:news:dupefilter:a.example", 0)  # as if FORGET seconds had passed
    assert not filter_.request_seen(request)
    filter_.request_seen(Request("https://b.example/"))
    filter_.clear()
    assert client.keys("newsstem:news:dupefilter:*") == []
