"""The site each corpus page without a site of its own names, for the fixed halves.

    python tests/benchmarks/page_sites.py            # print the file it would write
    python tests/benchmarks/page_sites.py --write    # write tests/benchmarks/page_sites.tsv
    python tests/benchmarks/page_sites.py --check-sites   # compare with check_sites.tsv

A page of a corpus with neither ``site`` nor a usable URL host (l3s, mozilla's "fakehost"
placeholder, dragnet's and chaos's pages without a URL) used to be split into the halves
by its page id, so one site's pages sat in both halves. :func:`named_site` finds the site
the page itself names, with the evidence order of ``check_sites.tsv``'s header (canonical,
og:url, ``<base>``, share links, the page's own address in its script, the domain most of
its links point to), as a registrable domain; :func:`corpora.split_key` reads the written
file (:data:`corpora.PAGE_SITES`). A page that names no site keeps its id (a site of its
own). Benchmark data only: no product rule reads it.
"""

from __future__ import annotations

import argparse
import html
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path
from urllib.parse import parse_qsl, urljoin, urlsplit

import lxml.html

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpora import (
    PAGE_SITES,
    CorpusPage,
    corpora_root,
    corpus_names,
    load_corpus,
    placeholder_hosts,
    url_host,
)

HEADER = """\
# Page sites for tests/benchmarks/corpora.py's halves: every page of ../shared/corpora with
# neither a site field nor a usable URL host (l3s, mozilla's "fakehost" placeholder,
# dragnet's and chaos's pages without a URL), with the site the page itself names, so
# that one site's pages never straddle the tune and held-out halves.
# Generated: python tests/benchmarks/page_sites.py --write (do not edit by hand;
# tests/test_page_sites.py checks the file is what the script gives).
#
# Columns (tab-separated): corpus, page id, site, evidence.
#   site      the registrable domain of the host the evidence names ("-": none found, the
#             page is split by its id, a site of its own); pages on a shared portal's
#             agency hosts (own-url) keep the host
#   evidence  the first that held, with the host it named (check_sites.tsv's order):
#             canonical  <link rel="canonical">        og:url  <meta property="og:url">
#             base       <base href>
#             share-url  the url= of the page's share links: an article's address (not a
#                        home page) given by links to 2 services or more on other hosts
#             own-url    the page's own address in its script (".../article/ID")
#             links      the domain most of the page's own <a href> point to: 4 links or
#                        more and 30% of them, ad, tracking and social hosts left out
# A blog host's or portal's blogs and sections are one site (its registrable domain), as
# one crawl of the domain finds them: that can only put more pages together in one half.
# The 182 pages of check_sites.tsv (checked by hand) get the same site here
# (python tests/benchmarks/page_sites.py --check-sites).
"""

# Hosts that are never the page's own site: share, social, ad and tracking services
# whose links many pages carry (matched on the registrable domain). Each one is a host
# that some corpus page without a site links to or shares on (an entry no page reaches
# was dropped: page_sites.tsv unchanged); benchmark data, no product rule reads it.
NOT_A_SITE = frozenset({
    "adbid.ca", "addthis.com", "adobe.com", "amazon.co.uk", "amazon.com", "aol.com",
    "apple.com", "atdmt.com", "bit.ly", "blogger.com", "blogspot.com", "creativecommons.org",
    "delicious.com", "digg.com", "doubleclick.net", "facebook.com", "feedburner.com",
    "flickr.com", "furl.net", "google.com", "icio.us", "instagram.com", "linkedin.com",
    "live.com", "macromedia.com", "microsoft.com", "mozilla.org", "msn.com", "myspace.com",
    "newsvine.com", "omniture.com", "pinterest.com", "reddit.com", "stumbleupon.com",
    "technorati.com", "tumblr.com", "twitter.com", "w3.org", "wikipedia.org", "wordpress.com",
    "yahoo.com", "youtube.com",
})
LINKS_MIN = 4
LINKS_SHARE = 0.3
SHARE_MIN = 2
OWN_URL = re.compile(r"""["'](https?://[^"'\s/]+/article/[A-Za-z0-9_-]{8,})["']""")
A_HREF = re.compile(r"""<a\s[^>]*?href\s*=\s*["']([^"']+)""", re.IGNORECASE)
XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>")
SHARE_PARAMS = ("url", "u", "link", "target", "href")
_extract = None


def registrable(host: str) -> str:
    """The registrable domain of a host (bundled Public Suffix List, no download)."""
    global _extract
    if _extract is None:
        from newsstem.extensions import offline_tldextract

        _extract = offline_tldextract()
    host = host.lower().strip(".").removeprefix("www.")
    parts = _extract(host)
    return parts.top_domain_under_public_suffix or host


def _host(url: str | None) -> str:
    try:
        host = urlsplit((url or "").strip()).hostname or ""
    except ValueError:
        return ""
    return host.removeprefix("www.") if "." in host else ""


def _usable(host: str) -> bool:
    return bool(host) and registrable(host) not in NOT_A_SITE


def named_site(page: CorpusPage) -> tuple[str, str] | None:
    """(site, evidence) the page names, in check_sites.tsv's evidence order; None."""
    try:
        tree = lxml.html.fromstring(XML_DECLARATION.sub("", page.html, count=1))
    except (ValueError, lxml.etree.ParserError):
        return None
    for evidence, xpath in (
        ("canonical", ("//link[contains(concat(' ', normalize-space(translate(@rel, "
                       "'CANONIL', 'canonil')), ' '), ' canonical ')]/@href")),
        ("og:url", "//meta[@property='og:url']/@content"),
        ("base", "//base/@href"),
    ):
        for value in tree.xpath(xpath):
            host = _host(value)
            if _usable(host):
                return registrable(host), f"{evidence}:{host}"
    # read from the markup too: a broken comment ("<title>...-->") can hide a page's
    # links from the parser
    hrefs = [str(h) for h in tree.xpath("//a/@href")] or [
        html.unescape(h) for h in A_HREF.findall(page.html)]
    shared: dict[str, set[str]] = defaultdict(set)
    for href in hrefs:
        query = urlsplit(href.strip()).query if "?" in href else ""
        for key, value in parse_qsl(query):
            if key.lower() in SHARE_PARAMS:
                # an article's address (a path, not a home page) given to a service on
                # another host: the site's own redirects are relative links
                host = _host(value)
                service = _host(href)
                if (_usable(host) and service and service != host
                        and urlsplit(value.strip()).path.strip("/")):
                    shared[host].add(registrable(service))
    if shared:
        host = max(shared, key=lambda h: len(shared[h]))
        if len(shared[host]) >= SHARE_MIN:
            return registrable(host), f"share-url:{host}"
    for script in tree.xpath("//script/text()"):
        match = OWN_URL.search(script)
        if match:
            host = _host(match.group(1))
            if host:
                return host, f"own-url:{host}"
    linked: Counter[str] = Counter()
    total = 0
    for href in hrefs:
        host = _host(urljoin("", href.strip()))
        if host:
            total += 1
            if _usable(host):
                linked[registrable(host)] += 1
    if linked:
        domain, count = linked.most_common(1)[0]
        if count >= LINKS_MIN and count >= LINKS_SHARE * total:
            hosts = Counter(_host(h) for h in hrefs if _host(h)
                            and registrable(_host(h)) == domain)
            return domain, f"links:{hosts.most_common(1)[0][0]}"
    return None


def unnamed_pages(pages: list[CorpusPage]) -> list[CorpusPage]:
    """The pages with neither a site field nor a usable URL host."""
    placeholders = placeholder_hosts(pages)
    return [p for p in pages if not p.site and url_host(p) in ("", *placeholders)]


def rows(root: Path) -> list[tuple[str, str, str, str]]:
    found = []
    for corpus in corpus_names(root):
        for page in unnamed_pages(load_corpus(root, corpus)):
            named = named_site(page)
            found.append((corpus, page.id, *(named or ("-", "-"))))
    return found


def render(found: list[tuple[str, str, str, str]]) -> str:
    return HEADER + "".join("\t".join(row) + "\n" for row in found)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help=f"write {PAGE_SITES.name}")
    parser.add_argument("--check-sites", action="store_true",
                        help="list the pages where check_sites.tsv names another site")
    args = parser.parse_args(argv)
    root = corpora_root()
    if root is None:
        print("No corpora found (../shared/corpora or $NEWSSTEM_CORPORA): skipped.")
        return 0
    found = rows(root)
    if args.check_sites:
        from learned import CHECK_SITES, read_check_sites

        mine = {(c, i): s for c, i, s, _ in found}
        checked = read_check_sites(CHECK_SITES)
        differ = 0
        for corpus, wanted in sorted(checked.items()):
            for page_id, site in sorted(wanted.items()):
                if mine.get((corpus, page_id)) != site:
                    differ += 1
                    print(f"{corpus}\t{page_id}\tcheck_sites {site}\t"
                          f"page_sites {mine.get((corpus, page_id))}")
        print(f"{differ} of {sum(len(w) for w in checked.values())} "
              "check-site pages differ")
        return 0
    text = render(found)
    if args.write:
        PAGE_SITES.write_text(text, encoding="utf-8")
        named = sum(1 for row in found if row[2] != "-")
        print(f"{PAGE_SITES}: {len(found)} pages, {named} with a site")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
