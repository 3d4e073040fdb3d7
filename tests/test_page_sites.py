"""tests/benchmarks/page_sites.tsv and the halves that read it (corpora.split_key).

The shipped file must be what ``page_sites.py --write`` gives on the shared corpora and
no site may straddle the halves (both skipped without corpora); the evidence order and
the split are checked on pages made here."""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "benchmarks"))

import corpora
import page_sites
from corpora import PAGE_SITES, CorpusPage, halves, read_page_sites
from learned import CHECK_SITES, read_check_sites


def page(html: str, page_id: str = "p1", url: str | None = None, corpus: str = "c") -> CorpusPage:
    return CorpusPage(corpus=corpus, id=page_id, url=url, site=None, raw=html.encode(),
                      html=html, gold="")


def links(host: str, count: int) -> str:
    return "".join(f'<a href="http://{host}/s/{i}">s</a>' for i in range(count))


def test_the_page_s_own_statements_come_first_then_share_links_then_its_links():
    body = links("links.example.org", 6)
    canonical = '<link rel="canonical" href="http://news.site-a.co.uk/story/1">'
    assert page_sites.named_site(page(f"<html><head>{canonical}</head><body>{body}</body>")) \
        == ("site-a.co.uk", "canonical:news.site-a.co.uk")
    share = "".join(f'<a href="http://share{i}.test/submit?url=http://site-b.org/2008/story">'
                    "s</a>" for i in range(2))
    assert page_sites.named_site(page(f"<html><body>{share}{body}</body>")) \
        == ("site-b.org", "share-url:site-b.org")
    # one service naming the address, or only a home page: not the page's own address
    one = '<a href="http://share0.test/submit?url=http://site-b.org/2008/story">s</a>'
    home = "".join(f'<a href="http://share{i}.test/go?u=http://ads.test/">s</a>'
                   for i in range(3))
    assert page_sites.named_site(page(f"<html><body>{one}{home}{body}</body>")) \
        == ("example.org", "links:links.example.org")
    # links: 4 or more and 30 % of the page's links
    assert page_sites.named_site(page(f"<html><body>{links('a.test', 3)}</body>")) is None
    assert page_sites.named_site(
        page(f"<html><body>{links('a.test', 4)}{links('b.test', 10)}</body>")) \
        == ("b.test", "links:b.test")


def test_a_named_site_keeps_its_pages_in_one_half_and_a_page_naming_none_keeps_its_id():
    pages = [page("<html></html>", f"p{i}", "http://fakehost/t.html") for i in range(40)]
    mapped = {("c", f"p{i}"): "one-site.test" for i in range(20)}
    split = halves(pages, mapped)
    assert len({split[f"p{i}"] for i in range(20)}) == 1
    assert corpora.site_keys(pages, mapped)["p30"] == "p30"
    # without the map each page is a site of its own: the twenty pages straddle
    assert len({halves(pages, {})[f"p{i}"] for i in range(20)}) == 2


def test_the_shipped_file_is_well_formed_and_agrees_with_the_check_sites():
    lines = [line for line in PAGE_SITES.read_text(encoding="utf-8").splitlines()
             if line.strip() and not line.startswith("#")]
    assert all(len(line.split("\t")) == 4 for line in lines)
    mapped = read_page_sites()
    for corpus, wanted in read_check_sites(CHECK_SITES).items():
        for page_id, site in wanted.items():
            assert mapped.get((corpus, page_id)) == site, (corpus, page_id)


@pytest.fixture(scope="module")
def root() -> Path:
    found = corpora.corpora_root()
    if found is None:
        pytest.skip("no corpora (../shared/corpora or $NEWSSTEM_CORPORA)")
    return found


def test_the_shipped_file_is_what_the_script_gives(root: Path):
    assert PAGE_SITES.read_text(encoding="utf-8") == page_sites.render(page_sites.rows(root))


def test_no_site_straddles_the_halves(root: Path):
    mapped = read_page_sites()
    for name in corpora.corpus_names(root):
        pages = corpora.load_corpus(root, name)
        placeholders = corpora.placeholder_hosts(pages)
        split = halves(pages)
        by_site: dict[str, set[str]] = defaultdict(set)
        for one in pages:
            host = corpora.url_host(one)
            site = one.site or (host if host not in ("", *placeholders) else None) \
                or mapped.get((name, one.id))
            if site:
                by_site[site].add(split[one.id])
        assert {site for site, seen in by_site.items() if len(seen) > 1} == set(), name
