"""Every public function that reads page bytes or text gives a result for any input.

Property-based (hypothesis): generated HTML-ish pages (tags nested at random, control
characters, NUL bytes, lone surrogates, odd charsets) and mutations of real fixture pages
(tests/layout/fixtures, tests/fixtures/metadata) go through the extractors, the metadata
reader, the decoder, the layout parser, learning and pattern matching: none may raise.
Examples hypothesis once found are kept below as plain tests. A long run over 10,000
mutated corpus pages, with timings, is ``tests/benchmarks/robustness.py``.
"""

from __future__ import annotations

import gzip
import io
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.layoutpages import layout_pages
from warcio.warcwriter import WARCWriter

from newsstem import readability
from newsstem.archive import ArchiveError, read_archive
from newsstem.encoding import decode_html
from newsstem.extraction import extract_page
from newsstem.layout.blocks import BlockParser
from newsstem.layout.learn import TrainingPage, learn
from newsstem.layout.patterns import SitePatterns, dumps, loads
from newsstem.metadata import extract_metadata
from newsstem.text import xml_safe, xml_safe_utf8

PROPERTY = settings(
    max_examples=60, deadline=None, derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
TAGS = ["div", "p", "span", "a", "table", "td", "tr", "li", "ul", "h1", "script", "style",
        "title", "body", "html", "head", "meta", "br", "article", "pre", "noscript", "svg"]
# Any character, surrogates and controls included.
ANY_CHARACTER = st.characters(min_codepoint=0, max_codepoint=0x10FFFF, categories=None)


def _element(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.builds(
        lambda tag, attributes, inner, closed: (
            f"<{tag}{attributes}>{''.join(inner)}" + (f"</{tag}>" if closed else "")
        ),
        st.sampled_from(TAGS),
        st.sampled_from(["", ' class="story"', ' id="main" class="c1 c2"', " hidden",
                         ' style="display:none"', ' charset="x-unknown"', ' href="/a?b=1"',
                         ' itemprop="articleBody"', ' class="comment\x0bsidebar"']),
        st.lists(children, max_size=4),
        st.booleans(),
    )


HTML = st.recursive(st.text(ANY_CHARACTER, max_size=40), _element, max_leaves=30)


def _fixture_pages() -> list[bytes]:
    pages = [page.html.encode("utf-8") for page in layout_pages("msnbc", "http://x")[:4]]
    metadata = Path(__file__).parent / "fixtures" / "metadata" / "pages"
    pages += [path.read_bytes() for path in sorted(metadata.glob("*.html*"))[:6]]
    return [gzip.decompress(page) if page[:2] == b"\x1f\x8b" else page for page in pages]


FIXTURE_PAGES = _fixture_pages()


@st.composite
def mutated_pages(draw) -> bytes | str:
    """A real page, changed as a crawl meets bad input."""
    page = draw(st.sampled_from(FIXTURE_PAGES))
    kind = draw(st.sampled_from(["bytes", "controls", "tails", "cut", "rotate", "charset"]))
    if kind == "bytes":
        data = bytearray(page)
        for at, value in draw(st.lists(st.tuples(st.integers(0, len(page) - 1),
                                                 st.integers(0, 255)), max_size=30)):
            data[at] = value
        return bytes(data)
    if kind == "controls":
        text = decode_html(page)[0]
        for at, char in draw(st.lists(st.tuples(st.integers(0, len(text)),
                                                st.sampled_from(["\x00", "\x08", "\x0b",
                                                                 "\x1f", "\ud800", "\uffff"])),
                                      max_size=20)):
            text = text[:at] + char + text[at:]
        return text
    if kind == "tails":  # a control character opening the text after many tags
        text = decode_html(page)[0]
        char = draw(st.sampled_from(["\x08", "\x0b", "\x01", "\x1f", "\x00"]))
        every = draw(st.integers(1, 7))
        parts = text.split(">")
        return ">".join(p if i % every else char + p for i, p in enumerate(parts))
    if kind == "cut":
        return page[: draw(st.integers(0, len(page)))]
    if kind == "rotate":
        at = draw(st.integers(0, len(page)))
        return page[at:] + page[:at]
    charset = draw(st.sampled_from([b"utf-7", b"x-bogus", b"utf-32", b"\xff\xfe"]))
    return b'<meta charset="' + charset + b'">' + page


PAGES = st.one_of(HTML, HTML.map(lambda text: text.encode("utf-8", "surrogatepass")),
                  mutated_pages())


@pytest.fixture(scope="module")
def site_patterns() -> SitePatterns:
    pages = layout_pages("msnbc", "http://tv.msnbc.com")[:6]
    return SitePatterns(learn("tv.msnbc.com", [TrainingPage(p.url, p.html) for p in pages])
                        .pattern_set)


@PROPERTY
@given(PAGES)
def test_the_fallback_and_the_metadata_read_any_page(page):
    result = readability.extract(page, url="http://example.com/a")
    assert isinstance(result.body, str) and isinstance(result.title, str)
    assert result.body or result.reason
    extract_metadata(page, url="http://example.com/a", text=result.body)


@PROPERTY
@given(PAGES)
def test_the_decoder_and_the_layout_parser_read_any_page(page):
    if isinstance(page, bytes):
        text, encoding = decode_html(page)
        assert isinstance(text, str) and encoding
    layout = BlockParser().decompose(page)
    assert all(block.weight > 0 for block in layout.blocks)


@PROPERTY
@given(PAGES)
def test_patterns_and_extract_page_read_any_page(site_patterns, page):
    site_patterns.extract(page)
    result = extract_page(page, "http://tv.msnbc.com/x", site_patterns)
    assert result.method in ("hub", "readability") or result.method.startswith("pattern:")


@settings(max_examples=15, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.lists(PAGES, min_size=1, max_size=3))
def test_learning_takes_any_pages(pages):
    real = [TrainingPage(p.url, p.html) for p in layout_pages("msnbc", "http://x")[:2]]
    odd = [TrainingPage(f"http://x/{n}", page) for n, page in enumerate(pages)]
    result = learn("x", real + odd)
    # a pattern file the crawl can load again (it validates every field), that reads any
    # page (it asserted nothing: a learned set a crawl refuses to load passed)
    again = loads(dumps(result.pattern_set))
    assert again.site == "x" and dumps(again) == dumps(result.pattern_set)
    patterns = SitePatterns(again)
    for page in real + odd:
        patterns.extract(page.html)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.binary(max_size=2000))
def test_an_archive_is_read_or_refused_with_one_clear_error(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("warc") / "odd.warc.gz"
    path.write_bytes(data)
    try:
        for page in read_archive(path):
            assert isinstance(page.body, bytes)
    except ArchiveError as error:
        assert str(path) in str(error)


def _warc_with_body(body: bytes) -> bytes:
    from warcio.statusandheaders import StatusAndHeaders

    stream = io.BytesIO()
    writer = WARCWriter(stream, gzip=True)
    headers = StatusAndHeaders("200 OK", [("Content-Type", "text/html")], protocol="HTTP/1.1")
    writer.write_record(writer.create_warc_record("http://x/a", "response",
                                                  payload=io.BytesIO(body),
                                                  http_headers=headers))
    return stream.getvalue()


@settings(max_examples=20, deadline=None, derandomize=True)
@given(st.binary(max_size=500))
def test_a_truncated_archive_is_read_or_refused_with_one_clear_error(tmp_path_factory, cut):
    archive = _warc_with_body(b"<p>" + b"words " * 200) * 2
    path = tmp_path_factory.mktemp("warc") / "cut.warc.gz"
    path.write_bytes(archive[: len(cut) * 3] + cut)
    try:
        list(read_archive(path))
    except ArchiveError as error:
        assert str(path) in str(error)


# Examples found by hypothesis or by tests/benchmarks/robustness.py, kept as plain tests.


def test_a_control_character_in_a_dropped_element_tail():
    """The issue's case: a backspace in the text after a removed comment box."""
    page = ("<html><body><p>" + "Real article words, more words. " * 30
            + "</p><div>x<div class='comment sidebar'>c</div>a\x08b</div></body></html>")
    result = readability.extract(page)
    assert result.body.startswith("Real article words")
    metadata = extract_metadata(page, text=result.body)  # read: no exception
    assert metadata.authors == [] and metadata.published is None


def test_a_hundred_thousand_nested_divs_are_read_in_bounded_time():
    page = "<html><body><p>Hello there world.</p>" + "<div>" * 100_000 + "deep</body></html>"
    layout = BlockParser().decompose(page)
    assert [block.text for block in layout.blocks] == ["Hello there world."]
    assert readability.extract(page).body == "Hello there world."


def test_lone_surrogates_and_noncharacters_become_spaces():
    assert xml_safe("a" + chr(0xDC00) + "b\ufffec") == "a b c"
    result = readability.extract("<p>" + ("Words here, " + chr(0xD800)) * 40 + "</p>")
    assert "Words here" in result.body


def test_noncharacters_are_spaced_whatever_else_the_page_holds():
    # U+FFFE/U+FFFF are looked for only in a page whose UTF-8 holds their lead byte EF,
    # which other characters share (U+F8FF, U+FF01): the same bytes as the plain way.
    for text in (
        "a\ufffeb\u2019c",
        "a\uffffb\U0001f600",
        "\uf8ff x \uff01 y \u2019",
        "\uf8ff x \uff01 y \ufffe",
        "caf\u00e9 \u2019" * 3000 + "\uffff",
        "plain ascii",
    ):
        assert xml_safe_utf8(text) == xml_safe(text).encode("utf-8")


@pytest.mark.parametrize(
    ("read", "name"),
    [(extract_page, "extract_page"), (readability.extract, "readability.extract"),
     (extract_metadata, "extract_metadata")],
)
@pytest.mark.parametrize("html", [None, 3, ["<p>x</p>"]])
def test_a_page_neither_str_nor_bytes_is_a_type_error_naming_html(read, name, html):
    # None said "object of type 'NoneType' has no len()", from deep inside
    with pytest.raises(TypeError, match=rf"^{name}: html must be the page as str or bytes, not "):
        read(html)


@pytest.mark.parametrize(
    ("read", "argument"),
    [(extract_page, "anchor_texts"), (extract_metadata, "anchor_texts"),
     (extract_metadata, "site_names")],
)
def test_one_string_for_a_list_of_strings_is_a_type_error(read, argument):
    # anchor_texts="Story 3" was read character by character
    page = "<html><head><title>Story 3 | Site</title></head><body><p>Text.</p></body></html>"
    with pytest.raises(TypeError, match=rf"{argument} must be an iterable of strings, not a "
                                        r"str alone \('Story 3'\): \['Story 3'\] for one"):
        read(page, **{argument: "Story 3"})
    read(page, **{argument: ["Story 3"]})  # as a list, as before
    read(page, **{argument: ("Story 3",)})
