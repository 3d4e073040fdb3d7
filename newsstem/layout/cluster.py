"""Group pages by layout, in near-linear time.

Webstemmer compares every pair of pages (O(n²): half an hour for 300 pages)
and joins pages whose similarity passes a fixed 0.97, which 10–30 pages of
one real site rarely reach (ads, related boxes and article-specific inserts
differ from page to page). Here:

1. **Similarity** is a weighted longest common subsequence of the pages'
   block keys (:func:`align`): ``2 · matched weight / (weight A + weight B)``.
   It is computed exactly, as a heaviest increasing chain over the key
   matches (Hunt–Szymanski with a Fenwick tree): O(r log n) for r matching
   key pairs instead of O(n·m); keys rarely repeat within a page (runs of one
   key are one block), so r is about the length of the page.
2. **Candidates** come from MinHash signatures of each page's set of keys,
   banded for locality-sensitive hashing: only pages that share a band are
   compared; large buckets (hundreds of pages of one layout) are chained,
   not compared all-pairs, so the work grows linearly with the pages.
3. **Clusters** are the components of the maximum spanning forest of the
   candidate graph after cutting its weak edges. The cut adapts to the data:
   edges below ``relative_cut`` × the median spanning-tree edge are cut
   (bounded by ``min_similarity`` and ``max_cut``), so a site whose article
   pages agree at 0.98 and one whose pages agree at 0.8 both cluster, while
   index pages (0.2 against articles) stay apart.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

__all__ = [
    "Alignment",
    "ClusterOptions",
    "KeyInterner",
    "KeySequence",
    "align",
    "cluster",
    "layout_weight",
    "layout_weights",
    "similarity",
]

# MinHash: 32 hash functions in 16 bands of 2 rows. Two pages share a band with
# probability 1-(1-J²)^16 for key-set Jaccard J: 0.99 at J=0.5, 0.5 at J=0.2,
# 0.04 at J=0.05, so same-site pages of one layout (J ≥ 0.5 measured on the
# cleanportal sites) always meet and unrelated sites rarely do.
MINHASH_SIZE = 32
MINHASH_ROWS = 2
# Buckets up to this size are compared all-pairs; larger ones are chained (each
# member compared with its next CHAIN_LINKS members in a band-specific order),
# which keeps a layout of 400 pages connected with ~400·16·CHAIN_LINKS comparisons.
SMALL_BUCKET = 12
CHAIN_LINKS = 2
_MERSENNE = (1 << 61) - 1


def layout_weight(weight: int) -> float:
    """What a block weighs in layout similarity: log2(2 + meaningful characters).

    Layout is structure: a 3000-character body must not outweigh the whole
    page chrome (as raw character counts would), nor a one-word label weigh
    as much as a paragraph (as a count of blocks would).

    >>> layout_weight(0), layout_weight(2), round(layout_weight(1022), 1)
    (1.0, 2.0, 10.0)
    """
    return math.log2(2 + weight)


def layout_weights(weights: Iterable[int]) -> list[float]:
    """:func:`layout_weight` of each weight (mapped in C: a page has a hundred blocks).

    >>> layout_weights([0, 2])
    [1.0, 2.0]
    """
    return list(map(math.log2, map((2).__add__, weights)))


class KeyInterner:
    """Map block keys to small integers (comparisons of ints are cheap)."""

    def __init__(self) -> None:
        self.ids: dict[str, int] = {}

    def __call__(self, key: str) -> int:
        found = self.ids.get(key)
        if found is None:
            found = self.ids[key] = len(self.ids)
        return found


@dataclass(frozen=True)
class KeySequence:
    """A page (or a pattern) as interned keys with their layout weights."""

    keys: tuple[int, ...]
    weights: tuple[float, ...]
    total: float

    @classmethod
    def of(cls, keys: Sequence[int], weights: Sequence[float]) -> KeySequence:
        weights = tuple(weights)
        return cls(tuple(keys), weights, sum(weights))

    @cached_property
    def positions(self) -> dict[int, tuple[int, ...]]:
        """key -> its indices, last first (built once: a pattern is aligned with many pages)."""
        found: dict[int, list[int]] = {}
        for index, key in enumerate(self.keys):
            found.setdefault(key, []).append(index)
        return {key: tuple(reversed(indices)) for key, indices in found.items()}

    @cached_property
    def fenwick_paths(self) -> _FenwickPaths:
        """The paths of a Fenwick tree over this sequence (see :func:`_fenwick_paths`; kept
        here too, as a pattern is aligned with many pages)."""
        return _fenwick_paths(len(self.keys))


_FenwickPaths = tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]


@lru_cache(maxsize=64)
def _fenwick_paths(size: int) -> _FenwickPaths:
    """For each index j of a sequence of ``size``, the nodes of a Fenwick tree over it that
    hold the prefix before j, and those whose range holds j (see :func:`_heaviest_chain`).
    The alignment loop walks them as tuples rather than working them out bit by bit: it
    runs a sixth faster. (Kept by size too: learning builds slot sequences afresh.)"""
    below: list[tuple[int, ...]] = []
    above: list[tuple[int, ...]] = []
    for j in range(size + 1):
        path, x = [], j
        while x:
            path.append(x)
            x &= x - 1
        below.append(tuple(path))
        path, x = [], j + 1
        while x <= size:
            path.append(x)
            x += x & -x
        above.append(tuple(path))
    return tuple(below), tuple(above)


@dataclass(frozen=True, slots=True)
class Alignment:
    """The heaviest common subsequence of two key sequences."""

    matched: float  # sum of the weights of matched elements, both sides
    pairs: tuple[tuple[int, int], ...]  # (index in a, index in b), increasing


def align(a: KeySequence, b: KeySequence, *, pairs: bool = True) -> Alignment:
    """Weighted LCS of two key sequences: matched weight and matched index pairs.

    >>> a = KeySequence.of([1, 2, 3, 4], [1, 1, 5, 1])
    >>> b = KeySequence.of([1, 3, 9, 4], [1, 5, 1, 1])
    >>> result = align(a, b)
    >>> result.matched, result.pairs
    (14.0, ((0, 0), (2, 1), (3, 3)))
    """
    value, chain = _heaviest_chain(a, b, pairs)
    return Alignment(value, tuple(chain))


def _heaviest_chain(
    a: KeySequence, b: KeySequence, want_pairs: bool
) -> tuple[float, list[tuple[int, int]]]:
    """Heaviest chain of matches (i, j), increasing in both.

    The elements of ``a`` are taken in order; for each, its matches in ``b``
    right to left (one element of ``a`` matches once). The best chain ending
    before ``b[j]`` is a prefix maximum, kept in a Fenwick tree over positions of
    ``b``. A node's value never exceeds its parent's (the parent's range holds
    the node's), so an update stops at the first node already as heavy.
    """
    positions, b_weights = b.positions, b.weights
    below, above = b.fenwick_paths
    size = len(b.keys)
    best_value = [0.0] * (size + 1)  # Fenwick tree of prefix maxima over b positions
    best_node = [-1] * (size + 1)
    nodes: list[tuple[int, int, int]] = []  # (i, j, previous node)
    for i, (key, weight) in enumerate(zip(a.keys, a.weights)):
        js = positions.get(key)
        if js is None:
            continue
        for j in js:
            value, node = 0.0, -1
            for x in below[j]:
                if best_value[x] > value:
                    value, node = best_value[x], best_node[x]
            value += weight + b_weights[j]
            if want_pairs:
                nodes.append((i, j, node))
                node = len(nodes) - 1
            for x in above[j]:
                if not best_value[x] < value:  # as heavy already ("not <": NaN stops too)
                    break
                best_value[x], best_node[x] = value, node
    value, node = 0.0, -1
    for x in below[size]:
        if best_value[x] > value:
            value, node = best_value[x], best_node[x]
    chain: list[tuple[int, int]] = []
    if want_pairs:
        while node >= 0:
            i, j, node = nodes[node]
            chain.append((i, j))
        chain.reverse()
    return value, chain


def similarity(a: KeySequence, b: KeySequence) -> float:
    """``2 · matched / (total a + total b)``, in [0, 1]; two empty sequences are equal.

    >>> s = KeySequence.of([1, 2, 3], [1.0, 1.0, 1.0])
    >>> similarity(s, s), similarity(s, KeySequence.of([4], [1.0]))
    (1.0, 0.0)
    """
    total = a.total + b.total
    return align(a, b, pairs=False).matched / total if total else 1.0


@dataclass(frozen=True)
class ClusterOptions:
    """Thresholds of layout clustering (see the module docstring)."""

    # Below this, two pages never share a layout: the chrome of one site alone
    # (header, menus, footer) makes index and article pages ~0.2–0.5 similar.
    min_similarity: float = 0.5
    # The cut adapts to the site: edges weaker than this share of the median
    # spanning-tree edge are cut. 0.75 keeps bbc's long article with many inserts
    # (0.66 to its nearest article, median 0.85) and msnbc's two show templates
    # (0.87 between them), and cuts index pages (0.2) off articles.
    relative_cut: float = 0.75
    # ... but an edge this strong is never cut, whatever the median.
    max_cut: float = 0.9
    seed: int = 20051029  # MinHash functions are fixed: the same pages give the same clusters


@dataclass
class _DisjointSets:
    parent: list[int] = field(default_factory=list)

    @classmethod
    def of_size(cls, n: int) -> _DisjointSets:
        return cls(list(range(n)))

    def find(self, x: int) -> int:
        parent = self.parent
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(self, x: int, y: int) -> bool:
        rx, ry = self.find(x), self.find(y)
        if rx == ry:
            return False
        self.parent[max(rx, ry)] = min(rx, ry)
        return True


@dataclass(frozen=True)
class Clustering:
    """Clusters of page indices (largest first), and the similarity cut that made them."""

    clusters: tuple[tuple[int, ...], ...]
    cut: float
    compared: int  # exact similarities computed


def cluster(pages: Sequence[KeySequence], options: ClusterOptions | None = None) -> Clustering:
    """Group pages (as key sequences) by layout.

    >>> a = KeySequence.of([1, 2, 3, 4, 5], [1.0] * 5)
    >>> b = KeySequence.of([1, 2, 3, 4, 6], [1.0] * 5)
    >>> c = KeySequence.of([7, 8, 9], [1.0] * 3)
    >>> cluster([a, c, b, a]).clusters
    ((0, 2, 3), (1,))
    """
    options = options or ClusterOptions()
    edges = _scored_candidates(pages, options)
    forest = _spanning_forest(len(pages), edges)
    cut = _adaptive_cut([s for s, _, _ in forest], options)
    sets = _DisjointSets.of_size(len(pages))
    for score, x, y in forest:
        if score >= cut:
            sets.union(x, y)
    groups: dict[int, list[int]] = {}
    for index in range(len(pages)):
        groups.setdefault(sets.find(index), []).append(index)
    clusters = sorted((tuple(g) for g in groups.values()), key=lambda g: (-len(g), g[0]))
    return Clustering(tuple(clusters), cut, len(edges))


def _adaptive_cut(tree_edges: list[float], options: ClusterOptions) -> float:
    if not tree_edges:
        return options.min_similarity
    ordered = sorted(tree_edges)
    median = ordered[len(ordered) // 2]
    return max(options.min_similarity, min(options.max_cut, options.relative_cut * median))


def _spanning_forest(
    n: int, edges: list[tuple[float, int, int]]
) -> list[tuple[float, int, int]]:
    sets = _DisjointSets.of_size(n)
    forest = []
    for edge in sorted(edges, key=lambda e: (-e[0], e[1], e[2])):
        if sets.union(edge[1], edge[2]):
            forest.append(edge)
    return forest


def _scored_candidates(
    pages: Sequence[KeySequence], options: ClusterOptions
) -> list[tuple[float, int, int]]:
    pairs = _candidate_pairs(pages, options)
    edges = []
    for x, y in sorted(pairs):
        score = similarity(pages[x], pages[y])
        if score > 0:
            edges.append((score, x, y))
    return edges


def _candidate_pairs(pages: Sequence[KeySequence], options: ClusterOptions) -> set[tuple[int, int]]:
    functions = _hash_functions(options.seed)
    base: dict[int, int] = {}
    buckets: dict[tuple[int, ...], list[int]] = {}
    bands = MINHASH_SIZE // MINHASH_ROWS
    signatures = []
    for index, page in enumerate(pages):
        keys = set(page.keys)
        if not keys:
            signatures.append(None)
            continue
        hashed = [base.get(k) or base.setdefault(k, _key_hash(k, options.seed)) for k in keys]
        signature = [min((a * h + b) % _MERSENNE for h in hashed) for a, b in functions]
        signatures.append(signature)
        for band in range(bands):
            rows = signature[band * MINHASH_ROWS : (band + 1) * MINHASH_ROWS]
            buckets.setdefault((band, *rows), []).append(index)
    pairs: set[tuple[int, int]] = set()
    for bucket_key, members in buckets.items():
        if len(members) < 2:
            continue
        if len(members) <= SMALL_BUCKET:
            pairs.update(
                (members[i], members[j])
                for i in range(len(members))
                for j in range(i + 1, len(members))
            )
            continue
        band = bucket_key[0]
        order = sorted(members, key=lambda p: (signatures[p][(band + 1) % MINHASH_SIZE], p))
        for i, x in enumerate(order):
            for y in order[i + 1 : i + 1 + CHAIN_LINKS]:
                pairs.add((min(x, y), max(x, y)))
    return pairs


def _key_hash(key: int, seed: int) -> int:
    digest = hashlib.blake2b(f"{seed}:{key}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little") % _MERSENNE


def _hash_functions(seed: int) -> list[tuple[int, int]]:
    functions = []
    for i in range(MINHASH_SIZE):
        digest = hashlib.blake2b(f"{seed}/{i}".encode(), digest_size=16).digest()
        a = int.from_bytes(digest[:8], "little") % (_MERSENNE - 1) + 1
        b = int.from_bytes(digest[8:], "little") % _MERSENNE
        functions.append((a, b))
    return functions
