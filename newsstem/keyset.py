"""Compact exact stores of the keys a crawl keeps for its whole run, ~20-25 bytes a key
where Python's ``set``/``dict`` take ~80-150: :class:`KeySet` (the URL store's 16-byte
keys: pages fetched, articles exported, articles skipped), :class:`RecordBook` (a 12-byte
digest -> a number: SiteNames' affixes seen once) and :class:`DepthBook` (a request
fingerprint -> its depth: the duplicate filter's depths). All three keep their records end
to end in the same hashed ``bytes`` buckets.

A crawl remembers some keys for its whole run, one a page (the pages the spider fetched,
the articles the crawl exported): in a Python ``set`` each is a ``bytes`` object (49
bytes) and a slot of the table (~40-60 bytes with its spare room), ~100 MiB a million
pages. :class:`KeySet` keeps the keys' bytes end to end in buckets (``bytes``), a bucket
by the key's hash, ~8-16 keys a bucket; a lookup is one ``bytes.find`` in its bucket (at
a multiple of 16). The buckets double when they hold 16 keys on average. Exact: every
byte of a key is kept (no false positive a Bloom filter or a shorter hash would give);
keys of another length stay in a ``set``. Keys are never removed (no caller removes one).

>>> keys = KeySet()
>>> for n in range(5000):
...     keys.add(n.to_bytes(16, "little"))
>>> (3).to_bytes(16, "little") in keys, (7000).to_bytes(16, "little") in keys, len(keys)
(True, False, 5000)
>>> b"short" in keys, keys.add(b"short"), b"short" in keys, len(keys)
(False, None, True, 5001)
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator

_KEY_BYTES = 16
#: buckets at first; they double when they hold _AVERAGE keys each on average
_FIRST_BUCKETS = 16
_AVERAGE = 16


def _find(bucket: bytes, part: bytes, width: int = _KEY_BYTES) -> int:
    """Where ``part`` starts a record of ``bucket`` (records of ``width`` bytes: at a
    multiple of it); -1 if it starts none (found across two records' bytes, it is no
    record of them: looked for on)."""
    at = bucket.find(part)
    while at % width:  # (-1 % width is width - 1)
        if at < 0:
            return -1
        at = bucket.find(part, at + 1)
    return at


def _split(buckets: list[bytes], hashed_bytes: int, width: int = _KEY_BYTES) -> list[bytes]:
    """Twice the buckets: each splits in two by the next bit of the hash of the first
    ``hashed_bytes`` of its records of ``width`` bytes (a key's hash: the hash it is
    looked up by)."""
    mask = 2 * len(buckets) - 1
    parts: list[list[bytes]] = [[] for _ in range(mask + 1)]
    for bucket in buckets:
        for at in range(0, len(bucket), width):
            record = bucket[at:at + width]
            parts[hash(record[:hashed_bytes]) & mask].append(record)
    return [b"".join(part) for part in parts]


class KeySet:
    """``in``, ``add``, ``len`` and iteration of a set of bytes, compact for 16-byte keys."""

    __slots__ = ("_buckets", "_fixed", "_mask", "_other")

    def __init__(self, keys: Iterable[bytes] = ()) -> None:
        # a key's bucket: its hash (a bytes object caches it) & _mask; a bucket is a bytes
        # object (33 bytes and its keys, no spare room): replaced as a key is added
        self._buckets = [b""] * _FIRST_BUCKETS
        self._mask = _FIRST_BUCKETS - 1
        self._fixed = 0  # keys in the buckets
        self._other: set[bytes] = set()  # keys of another length
        for key in keys:
            self.add(key)

    def __contains__(self, key: bytes) -> bool:
        if len(key) != _KEY_BYTES:
            return key in self._other
        return _find(self._buckets[hash(key) & self._mask], key) >= 0

    def add(self, key: bytes) -> None:
        if len(key) != _KEY_BYTES:
            self._other.add(key)
            return
        if key in self:
            return
        self._buckets[hash(key) & self._mask] += key
        self._fixed += 1
        if self._fixed > _AVERAGE * len(self._buckets):
            self._buckets = _split(self._buckets, _KEY_BYTES)
            self._mask = len(self._buckets) - 1

    def __len__(self) -> int:
        return self._fixed + len(self._other)

    def __iter__(self) -> Iterator[bytes]:
        for bucket in self._buckets:
            for at in range(0, len(bucket), _KEY_BYTES):
                yield bucket[at:at + _KEY_BYTES]
        yield from self._other

    def __sizeof__(self) -> int:
        """What it holds (its buckets, its set and the keys in it): ``sys.getsizeof`` of
        it is its memory (tests/benchmarks/crawl_memory.py reads that)."""
        return (object.__sizeof__(self) + sys.getsizeof(self._buckets)
                + sum(sys.getsizeof(bucket) for bucket in self._buckets)
                + sys.getsizeof(self._other) + sum(sys.getsizeof(k) for k in self._other))


class RecordBook:
    """16-byte records found by their first 12 bytes (a digest), the last 4 a number: what
    a ``dict`` of digest → number answers, in ~20 bytes a record (the buckets of
    :class:`KeySet`, by the hash of the 12 bytes). A digest is recorded once.

    >>> book = RecordBook()
    >>> for n in range(3000):
    ...     book.put(n.to_bytes(12, "little"), n)
    >>> book.get((7).to_bytes(12, "little")), book.get((4000).to_bytes(12, "little"))
    (7, None)
    >>> book.put((7).to_bytes(12, "little"), 1); book.get((7).to_bytes(12, "little")), len(book)
    (7, 3000)
    """

    __slots__ = ("_buckets", "_mask", "_records")

    DIGEST_BYTES = 12

    def __init__(self) -> None:
        self._buckets = [b""] * _FIRST_BUCKETS
        self._mask = _FIRST_BUCKETS - 1
        self._records = 0

    def get(self, digest: bytes) -> int | None:
        """The number recorded with ``digest`` (12 bytes), None if none is."""
        if len(digest) != self.DIGEST_BYTES:  # (a shorter one matched a record's start)
            raise ValueError(f"a digest of {self.DIGEST_BYTES} bytes, not {len(digest)}")
        bucket = self._buckets[hash(digest) & self._mask]
        at = _find(bucket, digest)
        if at < 0:
            return None
        return int.from_bytes(bucket[at + self.DIGEST_BYTES:at + _KEY_BYTES], "big")

    def put(self, digest: bytes, number: int) -> None:
        """Record ``number`` (< 2 ** 32) with ``digest`` (12 bytes), unless one is."""
        if self.get(digest) is not None:  # (which checks its length)
            return
        self._buckets[hash(digest) & self._mask] += digest + number.to_bytes(4, "big")
        self._records += 1
        if self._records > _AVERAGE * len(self._buckets):
            self._buckets = _split(self._buckets, self.DIGEST_BYTES)
            self._mask = len(self._buckets) - 1

    def __len__(self) -> int:
        return self._records

    def __sizeof__(self) -> int:
        """Its buckets too (``sys.getsizeof`` of it is its memory)."""
        return (object.__sizeof__(self) + sys.getsizeof(self._buckets)
                + sum(sys.getsizeof(bucket) for bucket in self._buckets))


class DepthBook:
    """A ``dict`` of request fingerprint → depth (what the duplicate filter remembers of
    every request it let through) in ~24 bytes an entry, not ~80: 20-byte fingerprints
    (Scrapy's, SHA-1) and their depth in one byte, 21-byte records in the buckets of
    :class:`KeySet` by the fingerprint's hash (a lookup: one ``bytes.find`` and one byte
    read). A depth changes in place (its bucket copied: a revisit, rare). A fingerprint of
    another length, or a depth outside 0-255, is kept in a ``dict`` beside (a crawl
    without a depth limit whose links lead deeper than 255). Exact: the whole
    fingerprint is compared.

    >>> depths = DepthBook()
    >>> for n in range(3000):
    ...     depths[n.to_bytes(20, "little")] = n % 3
    >>> depths.get((7).to_bytes(20, "little")), depths.get((4000).to_bytes(20, "little"))
    (1, None)
    >>> depths[(7).to_bytes(20, "little")] = 0; depths.get((7).to_bytes(20, "little")), len(depths)
    (0, 3000)
    >>> depths[b"short"] = 4; depths[(8).to_bytes(20, "little")] = 300; len(depths)
    3001
    >>> depths.get(b"short"), depths.get((8).to_bytes(20, "little"))
    (4, 300)
    """

    __slots__ = ("_buckets", "_mask", "_other", "_records")

    def __init__(self) -> None:
        self._buckets = [b""] * _FIRST_BUCKETS
        self._mask = _FIRST_BUCKETS - 1
        self._records = 0
        self._other: dict[bytes, int] = {}  # other lengths, depths out of a byte's range

    def get(self, fingerprint: bytes) -> int | None:
        """The depth recorded with ``fingerprint``, None if none is."""
        if len(fingerprint) == 20:
            bucket = self._buckets[hash(fingerprint) & self._mask]
            at = bucket.find(fingerprint)  # (_find inlined: a lookup for every request made)
            if at >= 0:
                if at % 21:  # across two records: look on
                    at = _find(bucket, fingerprint, 21)
                if at >= 0:
                    return bucket[at + 20]
        if self._other:
            return self._other.get(fingerprint)
        return None

    def __setitem__(self, fingerprint: bytes, depth: int) -> None:
        index = hash(fingerprint) & self._mask
        if len(fingerprint) != 20 or not 0 <= depth <= 255:
            if len(fingerprint) == 20:
                self._drop(index, fingerprint)
            self._other[fingerprint] = depth
            return
        bucket = self._buckets[index]
        record = fingerprint + bytes((depth,))
        at = _find(bucket, fingerprint, 21)
        if at >= 0:
            self._buckets[index] = bucket[:at] + record + bucket[at + 21:]
            return
        if self._other:
            self._other.pop(fingerprint, None)
        self._buckets[index] = bucket + record
        self._records += 1
        if self._records > _AVERAGE * len(self._buckets):
            self._buckets = _split(self._buckets, 20, 21)
            self._mask = len(self._buckets) - 1

    def _drop(self, index: int, fingerprint: bytes) -> None:
        bucket = self._buckets[index]
        at = _find(bucket, fingerprint, 21)
        if at >= 0:
            self._buckets[index] = bucket[:at] + bucket[at + 21:]
            self._records -= 1

    def items(self) -> Iterator[tuple[bytes, int]]:
        for bucket in self._buckets:
            for at in range(0, len(bucket), 21):
                yield bucket[at:at + 20], bucket[at + 20]
        yield from self._other.items()

    def __len__(self) -> int:
        return self._records + len(self._other)

    def __sizeof__(self) -> int:
        """Its buckets and its dict too (``sys.getsizeof`` of it is its memory)."""
        return (object.__sizeof__(self) + sys.getsizeof(self._buckets)
                + sum(sys.getsizeof(bucket) for bucket in self._buckets)
                + sys.getsizeof(self._other)
                + sum(sys.getsizeof(k) + sys.getsizeof(v) for k, v in self._other.items()))
