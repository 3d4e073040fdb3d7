"""newsstem.readability.measure: the fast measures equal their plain definitions."""

from __future__ import annotations

import random

from lxml import etree

from newsstem.readability.measure import Measure, dense_length, dense_length_of, link_density
from newsstem.readability.options import Options
from newsstem.readability.tree import text_of

# HTML whitespace, the two wider spaces dense_length counts, and what it must not count
# as space (a thin space, NEL), with characters of one to four UTF-8 bytes; "à" and "Ġ"
# share NBSP's second UTF-8 byte, "、" and "あ" the ideographic space's first.
_ALPHABET = " \n\t\r\xa0\u3000\u2009\x85aé“東\U0001F600,、。，．！？àĠあ"
# The definition of dense_length: characters that are not one of these.
_SPACES = frozenset(" \n\t\r\f\v\xa0\u3000")


def _random_text(rng: random.Random) -> str:
    return "".join(rng.choice(_ALPHABET) for _ in range(rng.randrange(30)))


def test_dense_length_of_an_element_is_that_of_its_text():
    rng = random.Random(5)
    for _ in range(500):
        element = etree.Element("div")
        element.text = _random_text(rng)
        child = etree.SubElement(element, "b")
        child.text, child.tail = _random_text(rng), _random_text(rng)
        element.tail = "not counted"
        assert dense_length_of(element) == dense_length(text_of(element))


def test_dense_length_is_its_definition():
    rng = random.Random(7)
    alphabet = [*_ALPHABET, "\f", "\v", "\ud800", "\udca0"]  # (lone surrogates: a str may hold them)
    for _ in range(2000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(30)))
        assert dense_length(text) == sum(1 for character in text if character not in _SPACES)


def _random_tree(rng: random.Random) -> etree._Element:
    """A <div> of nested <div>, <p>, <a> (links in links too) and comments, with text
    and tails everywhere."""
    root = etree.Element("div")
    elements = [root]
    for _ in range(rng.randrange(1, 25)):
        parent = rng.choice(elements)
        if rng.random() < 0.1:
            node = etree.Comment(_random_text(rng) or "c")
            parent.append(node)
        else:
            node = etree.SubElement(parent, rng.choice(["div", "p", "a", "span"]))
            node.text = _random_text(rng)
            elements.append(node)
        node.tail = _random_text(rng)
    return root


def test_measured_link_density_is_link_density_in_any_order():
    """Measure adds a container's lengths up from its measured children: the same
    density as the whole text measured, whichever elements were read before, and
    whether their text was read first or not."""
    rng = random.Random(8)
    for _ in range(400):
        root = _random_tree(rng)
        elements = list(root.iter("div", "p", "a", "span"))
        rng.shuffle(elements)
        measure = Measure(Options())
        for element in elements:
            if rng.random() < 0.3:
                measure.text(element)
            assert measure.link_density(element) == link_density(element)


def test_measured_link_density_of_a_deep_tree():
    """A spine of 1,500 <div>s, each with a measured paragraph beside the next <div>:
    each <div> adds up its children, one measured, one not."""
    root = spine = etree.Element("div")
    paragraphs = []
    for level in range(1500):
        paragraph = etree.SubElement(spine, "p")
        paragraph.text, paragraph.tail = "word ", " tail"
        etree.SubElement(paragraph, "a").text = "link" if level % 7 == 0 else ""
        paragraphs.append(paragraph)
        spine = etree.SubElement(spine, "div")
    measure = Measure(Options())
    for paragraph in paragraphs:
        measure.link_density(paragraph)
    assert measure.link_density(root) == link_density(root)
    middle = paragraphs[700].getparent()
    assert measure.link_density(middle) == link_density(middle)
