"""newsstem.layout.cluster: exact weighted LCS, candidates by hashing, adaptive cut."""

from __future__ import annotations

import random

from conftest import BBC_INDEX_PAGES

from newsstem.layout.blocks import KeyFilter, decompose, stable_tokens
from newsstem.layout.cluster import (
    KeyInterner,
    KeySequence,
    align,
    cluster,
    layout_weight,
    layout_weights,
    similarity,
)


def brute_force_lcs(a: KeySequence, b: KeySequence) -> float:
    """O(n·m) weighted LCS, the reference."""
    n, m = len(a.keys), len(b.keys)
    table = [[0.0] * (m + 1) for _ in range(n + 1)]
    for i in range(n):
        for j in range(m):
            best = max(table[i][j + 1], table[i + 1][j])
            if a.keys[i] == b.keys[j]:
                best = max(best, table[i][j] + a.weights[i] + b.weights[j])
            table[i + 1][j + 1] = best
    return table[n][m]


def random_sequence(rng: random.Random, length: int, alphabet: int) -> KeySequence:
    return KeySequence.of(
        [rng.randrange(alphabet) for _ in range(length)],
        [rng.choice([1.0, 2.0, 3.5]) for _ in range(length)],
    )


def test_align_is_the_exact_weighted_lcs():
    rng = random.Random(4)
    for _ in range(300):
        a = random_sequence(rng, rng.randrange(0, 25), rng.choice([2, 4, 12]))
        b = random_sequence(rng, rng.randrange(0, 25), rng.choice([2, 4, 12]))
        result = align(a, b)
        assert abs(result.matched - brute_force_lcs(a, b)) < 1e-9
        assert all(a.keys[i] == b.keys[j] for i, j in result.pairs)
        assert all(
            i1 < i2 and j1 < j2
            for (i1, j1), (i2, j2) in zip(result.pairs, result.pairs[1:])
        )
        paired = sum(a.weights[i] + b.weights[j] for i, j in result.pairs)
        assert abs(paired - result.matched) < 1e-9


def test_positions_list_each_key_last_first():
    sequence = KeySequence.of([5, 3, 5, 5, 9], [1.0] * 5)
    assert sequence.positions == {5: (3, 2, 0), 3: (1,), 9: (4,)}
    assert sequence.positions is sequence.positions  # built once


def test_layout_weights_are_layout_weight_of_each():
    weights = [0, 1, 2, 7, 1022, 31_000]
    assert layout_weights(weights) == [layout_weight(w) for w in weights]
    assert layout_weights(iter(weights)) == layout_weights(weights)


def test_similarity_is_symmetric_and_bounded():
    rng = random.Random(7)
    for _ in range(100):
        a, b = random_sequence(rng, 15, 6), random_sequence(rng, 12, 6)
        assert 0.0 <= similarity(a, b) == similarity(b, a) <= 1.0
        assert similarity(a, a) == 1.0


def sequences(pages) -> list[KeySequence]:
    layouts = [decompose(page.html) for page in pages]
    key_filter = KeyFilter(stable_tokens(layouts))
    intern = KeyInterner()
    return [
        KeySequence.of(
            [intern(b.key) for b in layout.blocks], [layout_weight(b.weight) for b in layout.blocks]
        )
        for layout in map(key_filter.apply, layouts)
    ]


def test_index_pages_do_not_join_the_articles(bbc):
    names = list(bbc)
    result = cluster(sequences(bbc.values()))
    groups = [{names[i] for i in group} for group in result.clusters]
    assert set(BBC_INDEX_PAGES) in groups
    assert set(names) - set(BBC_INDEX_PAGES) in groups
    assert 0.5 <= result.cut <= 0.9


def test_one_layout_is_one_cluster(msnbc):
    result = cluster(sequences(msnbc))
    assert result.clusters == (tuple(range(len(msnbc))),)


def test_comparisons_grow_linearly_with_the_pages():
    """3 layouts, 100 pages each, every page with its own inserts: far fewer exact
    comparisons than the 44,850 pairs, and the 3 layouts found."""
    rng = random.Random(11)
    templates = [list(range(base, base + 40)) for base in (0, 1000, 2000)]
    pages, truth = [], []
    for number in range(300):
        layout = number % 3
        keys = list(templates[layout])
        for _ in range(rng.randrange(0, 4)):  # article-specific inserts
            keys.insert(rng.randrange(len(keys)), 5000 + rng.randrange(10_000))
        pages.append(KeySequence.of(keys, [1.0] * len(keys)))
        truth.append(layout)
    result = cluster(pages)
    assert result.compared < 300 * 20
    found = sorted(sorted({truth[i] for i in group}) for group in result.clusters)
    assert found == [[0], [1], [2]]
    assert sorted(len(group) for group in result.clusters) == [100, 100, 100]
