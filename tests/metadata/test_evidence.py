"""One parse, JSON-LD repaired block by block, microdata scopes (newsstem/metadata/evidence.py)."""

from __future__ import annotations

from newsstem.metadata import extract_metadata
from newsstem.metadata.evidence import collect_evidence, load_jsonld, parse_html


def test_a_broken_jsonld_block_does_not_hide_the_good_one():
    html = (
        "<html><head>"
        '<script type="application/ld+json">{"@type": "WebSite", oops</script>'
        '<script type="application/ld+json">{"@type": "NewsArticle", '
        '"datePublished": "2020-05-01", "author": {"name": "Ana Lima"},}</script>'
        "</head><body></body></html>"
    )
    metadata = extract_metadata(html)
    assert (metadata.published, metadata.authors) == ("2020-05-01", ["Ana Lima"])


def test_jsonld_repairs():
    assert load_jsonld("<!--\n{\"a\": 1,}\n-->") == {"a": 1}
    assert load_jsonld("/* cms */ {\"a\": [1, 2,]}") == {"a": [1, 2]}
    assert load_jsonld('{"text": "two\nlines"}') == {"text": "two\nlines"}
    assert load_jsonld("") is None


def test_articles_come_first_whatever_the_page_order():
    html = (
        '<html><head><script type="application/ld+json">[{"@type": "WebPage", "name": "p"},'
        '{"@type": "BreadcrumbList"}, {"@type": ["Article", "NewsArticle"], "headline": "h"}]'
        "</script></head><body></body></html>"
    )
    evidence = collect_evidence(parse_html(html))
    assert [sorted(obj.types) for obj in evidence.jsonld][0] == ["article", "newsarticle"]
    assert len(evidence.articles()) == 1 and len(evidence.pages()) == 1


def test_urls_are_absolute_against_the_base():
    html = (
        '<html><head><base href="https://cdn.site/news/"><meta property="og:image" content="img/1.jpg">'
        '<link rel="canonical" href="/a/1.html"></head><body></body></html>'
    )
    metadata = extract_metadata(html, url="https://site/a/1.html?utm_source=x")
    assert metadata.image == "https://cdn.site/news/img/1.jpg"
    assert metadata.canonical_url == "https://cdn.site/a/1.html"
    protocol_relative = '<html><head><meta property="og:image" content="//img.site/a.jpg"></head></html>'
    assert extract_metadata(protocol_relative).image == "https://img.site/a.jpg"
    data_uri = '<html><head><meta property="og:image" content="data:image/png;base64,AAA"></head></html>'
    assert extract_metadata(data_uri).image is None


def test_links_and_jsonld_beside_the_root_element_are_read():
    # a page's second top-level <html> (an l3s page has one) is outside the root element
    # lxml returns: its links and scripts are the page's still, read in the one walk
    html = (
        "<html><head><title>T</title></head><body><p>Text</p></body></html>"
        "<html><head><link rel='canonical' href='/b/2.html'>"
        '<script type="application/ld+json">{"@type": "NewsArticle", '
        '"author": {"name": "Ana Lima"}, "datePublished": "2020-05-01"}</script></head></html>'
    )
    assert parse_html(html).getnext() is not None  # the shape this test is about
    metadata = extract_metadata(html, url="https://site/a/1.html")
    assert metadata.canonical_url == "https://site/b/2.html"
    assert (metadata.authors, metadata.published) == (["Ana Lima"], "2020-05-01")


def test_site_names_and_sections_that_are_urls_are_skipped():
    html = (
        '<html><head><meta property="og:site_name" content="http://www.tmz.com">'
        '<meta name="application-name" content="TMZ"><meta name="section" content="/world/middle_east">'
        "</head><body></body></html>"
    )
    metadata = extract_metadata(html)
    assert (metadata.site_name, metadata.section) == ("TMZ", None)
