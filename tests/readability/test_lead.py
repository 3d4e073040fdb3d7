"""The lead walk (lead.lead_blocks) reads only what lies between the headline and the
body's start: it skips what precedes the headline, but not the body's start there."""

from lxml import etree

from newsstem.readability.lead import lead_blocks
from newsstem.readability.options import Options
from newsstem.readability.tree import text_of

_LEAD = "<p>The storm hit the coast on Tuesday, and the damage was severe.</p>"
_DESCRIBED = frozenset("the storm hit the coast on tuesday".split())


def _leads(page: str) -> list[str]:
    root = etree.fromstring(page)
    headline, body = root.find(".//h1"), root.find(".//div[@class='body']")
    return [text_of(block) for block in lead_blocks(headline, body, _DESCRIBED, Options())]


def test_a_lead_between_the_headline_and_the_body_is_found_past_what_precedes_them():
    page = (
        "<body><article><nav><p>The storm hit the coast: read all our coverage, free.</p>"
        f"</nav><header><h1>Storm hits</h1>{_LEAD}</header>"
        "<div class='body'><p>Body.</p></div></article></body>"
    )
    assert _leads(page) == [text_of(etree.fromstring(_LEAD))]


def test_a_body_that_starts_before_the_headline_has_no_lead_after_it():
    # (the body's start inside a box before the headline: the walk ends there, as it
    # did when it read that box element by element)
    page = (
        "<body><article><section><div class='body'><p>Body.</p></div></section>"
        f"<header><h1>Storm hits</h1>{_LEAD}</header></article></body>"
    )
    assert _leads(page) == []
