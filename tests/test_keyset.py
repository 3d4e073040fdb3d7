"""KeySet: what a set of bytes answers, in ~20 bytes a 16-byte key (stop 50's crawl memory)."""

from __future__ import annotations

import random
import sys

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
    # a key found across two keys' bytes is no key
    across = keys[0][8:] + keys[2][:8]
    assert all((key in held) is (key in kept) for key in [*keys, across])
    assert len(held) == len(kept) and set(held) == kept


def test_a_key_set_of_digests_holds_about_20_bytes_a_key():
    rng = random.Random(6)
    keys = [rng.randbytes(16) for _ in range(20_000)]
    held, kept = KeySet(keys), set(keys)
    in_set = sys.getsizeof(kept) + sum(sys.getsizeof(key) for key in kept)
    assert sys.getsizeof(held) / len(keys) < 24 < in_set / len(keys)
