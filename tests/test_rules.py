"""URL rules and the same-site test (newsstem/rules.py)."""

from __future__ import annotations

import pytest

from newsstem.rules import RuleError, UrlRules, same_site, site_of


def test_first_matching_rule_decides_in_either_order():
    url = "https://site/news/print/1.html"
    assert UrlRules.parse("+/news/ -print").accepts(url)
    assert not UrlRules.parse("-print +/news/").accepts(url)


def test_no_matching_rule_rejects():
    assert not UrlRules.parse("+/news/").accepts("https://site/sport/1.html")
    assert not UrlRules.parse("").accepts("https://site/")


def test_rules_from_a_list_setting_keep_their_order():
    rules = UrlRules.parse(["-/print/", "+/news/ -\\.pdf$"])
    assert [str(r) for r in rules.rules] == ["-/print/", "+/news/", "-\\.pdf$"]


@pytest.mark.parametrize("token", ["news", "+", "-(unclosed", "+[a-"])
def test_bad_rules_raise_rule_error_naming_the_rule(token):
    with pytest.raises(RuleError, match="URL rule"):
        UrlRules.parse(token)


def test_default_rules_accept_under_the_start_directory_only():
    rules = UrlRules.default_for(["http://127.0.0.1:8181/news/index.html"])
    assert rules.accepts("http://127.0.0.1:8181/news/2026/a.html")
    assert rules.accepts("https://127.0.0.1:8181/news/b.html")
    assert not rules.accepts("http://127.0.0.1:8181/sport/a.html")
    assert not rules.accepts("http://127.0.0.1:8181/news/photo.JPG")
    assert not rules.accepts("http://127.0.0.1:8181/news/doc.pdf?download=1")
    assert rules.accepts("http://127.0.0.1:8181/news/jpg-gallery.html")


def test_default_rules_of_a_bare_host_accept_the_whole_site():
    rules = UrlRules.default_for(["https://example.org"])
    assert rules.accepts("https://example.org/any/page")


@pytest.mark.parametrize(
    ("url", "site"),
    [
        ("https://www.example.com/a", "example.com"),
        ("http://EXAMPLE.com:80/", "example.com"),
        ("https://example.com:443/", "example.com"),
        ("http://example.com:8080/", "example.com:8080"),
        ("http://127.0.0.1:8181/x", "127.0.0.1:8181"),
        ("http://[::1]:8181/x", "[::1]:8181"),
        ("http://host:notaport/", ""),
    ],
)
def test_site_of(url, site):
    assert site_of(url) == site


def test_same_site_distinguishes_ports_and_hosts():
    sites = {site_of("http://127.0.0.1:8181/")}
    assert same_site("http://127.0.0.1:8181/a", sites)
    assert not same_site("http://127.0.0.1:8182/a", sites)
    assert not same_site("http://localhost:8181/a", sites)
    assert same_site("https://www.example.com/a", {site_of("http://example.com/")})
