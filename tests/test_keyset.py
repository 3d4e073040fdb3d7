"""KeySet: what a set of bytes answers, in ~20 bytes a 16-byte key (stop 50's crawl memory)."""

from __future__ import annotations

import random
import sys

import pytest

from newsstem.keyset import KeySet


def test_a_key_set_answers_what_a_set_answers_as_its_buckets_double():
    rng = random.Random(5)
    keys = [rng.randbytes(16) for _ in range(6000)] + [b"", b"short", rng.randbytes(17)]
    held, kept = KeySet(), set()
    for n, key in enumerate(keys):
        if n % 2 == 0:
            held.add(key)
            held.add(key)  # (twice: once)
            kept.add(key)
    # a key found across two keys' bytes is no key (seldom in one bucket, in that order:
    # the test of one bucket below makes it so)
    across = keys[0][8:] + keys[2][:8]
    assert all((key in held) is (key in kept) for key in [*keys, across])
    assert len(held) == len(kept) and set(held) == kept


def test_a_key_set_of_digests_holds_about_20_bytes_a_key():
    rng = random.Random(6)
    keys = [rng.randbytes(16) for _ in range(20_000)]
    held, kept = KeySet(keys), set(keys)
    in_set = sys.getsizeof(kept) + sum(sys.getsizeof(key) for key in kept)
    assert sys.getsizeof(held) / len(keys) < 24 < in_set / len(keys)


def test_keys_of_one_bucket_are_told_apart_across_their_bytes_and_as_it_splits(monkeypatch):
    # every key's hash the same (a collision of buckets): one bucket of every key, where a
    # key's bytes may be found across two keys (the second half of one, the first of the
    # next) before the key itself; then by their first byte, as the buckets double
    import newsstem.keyset

    monkeypatch.setattr(newsstem.keyset, "hash", lambda key: 0, raising=False)
    a, b = bytes(range(16)), bytes(range(16, 32))
    across = a[8:] + b[:8]
    held = KeySet([a, b])
    assert across not in held  # (found at byte 8: no key)
    held.add(across)
    assert across in held and len(held) == 3  # (found at byte 8, then at 32)
    monkeypatch.setattr(newsstem.keyset, "hash", lambda key: key[0], raising=False)
    rng = random.Random(7)
    keys = [a, b, across, *(bytes([n % 5]) + rng.randbytes(15) for n in range(2000))]
    held = KeySet(keys)
    assert len(held._buckets) > 16  # (grown: each key still in its first byte's bucket)
    assert all(key in held for key in keys)
    assert len(held) == len(list(held)) == len(set(keys)) and set(held) == set(keys)


def test_a_record_book_finds_a_digest_only_at_a_records_start(monkeypatch):
    # a digest whose 12 bytes run across two records (the end of one's digest and its
    # number, or its number and the start of the next digest) is none of theirs
    import newsstem.keyset
    from newsstem.keyset import RecordBook

    monkeypatch.setattr(newsstem.keyset, "hash", lambda digest: 0, raising=False)
    book = RecordBook()
    first, second = bytes(range(12)), bytes(range(12, 24))
    book.put(first, 0x0C0D0E0F)
    book.put(second, 2)
    tail_and_number = first[4:] + (0x0C0D0E0F).to_bytes(4, "big")
    number_and_head = (0x0C0D0E0F).to_bytes(4, "big") + second[:8]
    assert book.get(tail_and_number) is None and book.get(number_and_head) is None
    book.put(tail_and_number, 3)
    book.put(first, 9)  # (recorded once: the first number stays)
    assert (book.get(tail_and_number), book.get(first), book.get(second), len(book)) == (
        3, 0x0C0D0E0F, 2, 3)
    # grown (by the digests' first byte), every digest still gives its number
    monkeypatch.setattr(newsstem.keyset, "hash", lambda digest: digest[0], raising=False)
    rng = random.Random(8)
    book = RecordBook()
    digests = list(dict.fromkeys(rng.randbytes(12) for _ in range(3000)))
    for n, digest in enumerate(digests):
        book.put(digest, n)
    assert len(book._buckets) > 16 and len(book) == len(digests)
    assert [book.get(digest) for digest in digests] == list(range(len(digests)))
    # a digest of another length is refused (a shorter one matched a record's start)
    for wrong in (digests[0][:8], digests[0] + b"\0\0\0\0"):
        with pytest.raises(ValueError, match="a digest of 12 bytes"):
            book.get(wrong)
