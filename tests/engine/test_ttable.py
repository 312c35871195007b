"""The transposition table's buckets of two: what a store keeps and what a probe finds."""

from __future__ import annotations

import numpy as np

from shiftago.engine.search.ttable import (
    EXACT,
    LOWER,
    UPPER,
    bucket,
    entry_bound,
    entry_depth,
    entry_move,
    entry_value,
    new_table,
    probe,
    store,
)

BITS = 8
#: Three positions' keys with the same low bits: one bucket (and one slot in a table of
#: one entry per slot).
FIRST, SECOND, THIRD = (np.uint64((n << 40) | 6) for n in (1, 2, 3))


def found(table: tuple[np.ndarray, np.ndarray], key: np.uint64) -> tuple[int, int, int, int]:
    """(move, depth, bound, value) of ``key``'s entry; the test fails when there is none."""
    hit, word = probe(*table, key)
    assert hit, f"no entry for {int(key):#x}"
    word = np.uint64(word)  # numba hands a word back as a Python int
    return entry_move(word), entry_depth(word), entry_bound(word), entry_value(word)


def test_the_keys_share_one_bucket() -> None:
    keys, _ = new_table(BITS)
    assert bucket(keys, FIRST) == bucket(keys, SECOND) == bucket(keys, THIRD) == 6


def test_two_positions_of_one_bucket_are_both_kept() -> None:
    table = new_table(BITS)
    store(*table, FIRST, 3, 5, EXACT, -120)
    store(*table, SECOND, 7, 2, LOWER, 45)
    assert found(table, FIRST) == (3, 5, EXACT, -120)
    assert found(table, SECOND) == (7, 2, LOWER, 45)
    assert not probe(*table, THIRD)[0]


def test_a_third_position_replaces_the_shallower_entry() -> None:
    table = new_table(BITS)
    store(*table, FIRST, 3, 2, EXACT, 10)
    store(*table, SECOND, 7, 6, UPPER, -30)
    store(*table, THIRD, 9, 1, LOWER, 99)
    assert not probe(*table, FIRST)[0]
    assert found(table, SECOND) == (7, 6, UPPER, -30)
    assert found(table, THIRD) == (9, 1, LOWER, 99)


def test_a_position_s_own_entry_is_replaced_in_place_at_any_depth() -> None:
    table = new_table(BITS)
    store(*table, FIRST, 3, 5, EXACT, 10)
    store(*table, SECOND, 7, 2, EXACT, 20)
    store(*table, FIRST, 4, 1, UPPER, -5)
    assert found(table, FIRST) == (4, 1, UPPER, -5)
    assert found(table, SECOND) == (7, 2, EXACT, 20)


def test_a_torn_slot_reads_as_empty_and_the_other_slot_still_answers() -> None:
    keys, data = table = new_table(BITS)
    store(*table, FIRST, 3, 5, EXACT, 10)
    store(*table, SECOND, 7, 2, EXACT, 20)
    slot = int(np.flatnonzero(data)[0])
    data[slot] ^= np.uint64(1 << 8)  # another write's data word beside this key word
    torn, whole = (FIRST, SECOND) if probe(keys, data, SECOND)[0] else (SECOND, FIRST)
    assert not probe(keys, data, torn)[0]
    assert probe(keys, data, whole)[0]
