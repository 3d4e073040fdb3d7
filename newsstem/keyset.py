"""A set of the URL store's 16-byte keys that holds ~20 bytes a key, not ~110.

A crawl remembers some keys for its whole run, one a page (the pages the spider fetched,
the articles the crawl exported): in a Python ``set`` each is a ``bytes`` object (49
bytes) and a slot of the table (~40-60 bytes with its spare room), ~100 MiB a million
pages. :class:`KeySet` keeps the keys' bytes end to end in buckets (``bytes``), a bucket
by the key's hash, ~8-16 keys a bucket; a lookup is one ``bytes.find`` in its bucket (at
a multiple of 16). The buckets double when they hold 16 keys on average. Exact: every byte of a key is kept
(no false positive a Bloom filter or a shorter hash would give); keys of another length
stay in a ``set``. Keys are never removed (no caller removes one).

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
        bucket = self._buckets[hash(key) & self._mask]
        at = bucket.find(key)
        while at % _KEY_BYTES:  # (-1: not there; found across two keys: look on)
            if at < 0:
                return False
            at = bucket.find(key, at + 1)
        return True

    def add(self, key: bytes) -> None:
        if len(key) != _KEY_BYTES:
            self._other.add(key)
            return
        if key in self:
            return
        self._buckets[hash(key) & self._mask] += key
        self._fixed += 1
        if self._fixed > _AVERAGE * len(self._buckets):
            self._grow()

    def _grow(self) -> None:
        """Twice the buckets: each splits in two by the next bit of its keys' hashes."""
        old = self._buckets
        mask = self._mask = 2 * len(old) - 1
        parts: list[list[bytes]] = [[] for _ in range(2 * len(old))]
        for bucket in old:
            for at in range(0, len(bucket), _KEY_BYTES):
                key = bucket[at:at + _KEY_BYTES]
                parts[hash(key) & mask].append(key)
        self._buckets = [b"".join(part) for part in parts]

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
        bucket = self._buckets[hash(digest) & self._mask]
        at = bucket.find(digest)
        while at % _KEY_BYTES:  # (-1: not there; found across two records: look on)
            if at < 0:
                return None
            at = bucket.find(digest, at + 1)
        return int.from_bytes(bucket[at + self.DIGEST_BYTES:at + _KEY_BYTES], "big")

    def put(self, digest: bytes, number: int) -> None:
        """Record ``number`` (< 2 ** 32) with ``digest`` (12 bytes), unless one is."""
        if len(digest) != self.DIGEST_BYTES:
            raise ValueError(f"a digest of {self.DIGEST_BYTES} bytes, not {len(digest)}")
        if self.get(digest) is not None:
            return
        self._buckets[hash(digest) & self._mask] += digest + number.to_bytes(4, "big")
        self._records += 1
        if self._records > _AVERAGE * len(self._buckets):
            mask = self._mask = 2 * len(self._buckets) - 1
            parts: list[list[bytes]] = [[] for _ in range(mask + 1)]
            for bucket in self._buckets:
                for at in range(0, len(bucket), _KEY_BYTES):
                    record = bucket[at:at + _KEY_BYTES]
                    parts[hash(record[:self.DIGEST_BYTES]) & mask].append(record)
            self._buckets = [b"".join(part) for part in parts]

    def __len__(self) -> int:
        return self._records

    def __sizeof__(self) -> int:
        """Its buckets too (``sys.getsizeof`` of it is its memory)."""
        return (object.__sizeof__(self) + sys.getsizeof(self._buckets)
                + sum(sys.getsizeof(bucket) for bucket in self._buckets))
