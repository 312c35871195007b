"""The transposition table shared by the search threads: buckets of two slots.

A slot is two ``uint64`` words in two arrays, ``keys[slot]`` and ``data[slot]``, and
holds one entry. A position's bucket is the slots ``2k`` and ``2k + 1``, ``2k`` being
the low bits of its Zobrist key (:mod:`.zobrist`) with the lowest bit cleared; its
entry may be in either. The data word packs one entry:

=============  ==================================================================
bits  0-7      the best action found (a kernel action code, below 256)
bits  8-15     the depth it was searched to
bits 16-17     the bound of the value: :data:`EXACT`, :data:`LOWER` or :data:`UPPER`
bits 32-63     the value (two's complement), proven results counted from this node
=============  ==================================================================

The key word holds the Zobrist key XOR the data word. Threads write the two words
without a lock; a slot whose words come from two different writes fails the check
(:func:`probe`) and reads as empty, so a torn entry is never used; two threads storing
one position at once may leave it in both slots, and a probe and the position's next
entry then use the first (the second stays until replaced). A new entry replaces
its position's own entry, else the shallower of the bucket's two (the one searched to
fewer plies, which cost less to find again): a deep entry survives a shallow one that
falls into its bucket, which a table of one entry per slot lost (docs/strength.md,
"The transposition table").
"""

from __future__ import annotations

from typing import Final

import numpy as np
from numba import njit

EXACT: Final = 0
LOWER: Final = 1
UPPER: Final = 2

#: Bytes per slot: the key word and the data word.
SLOT_BYTES: Final = 16
#: The fewest and most slots, as powers of two.
MIN_BITS: Final = 8
MAX_BITS: Final = 30

_MOVE_SHIFT = np.uint64(0)
_DEPTH_SHIFT = np.uint64(8)
_BOUND_SHIFT = np.uint64(16)
_VALUE_SHIFT = np.uint64(32)
_BYTE = np.uint64(0xFF)
_TWO_BITS = np.uint64(3)
_LOW32 = np.int64(0xFFFFFFFF)


def new_table(bits: int) -> tuple[np.ndarray, np.ndarray]:
    """An empty table of ``2 ** bits`` slots: (keys, data), written through once, so
    that its memory is the process's now and the first search does not pay for it
    (docs/engine.md, "Options")."""
    size = 1 << bits
    keys, data = np.empty(size, dtype=np.uint64), np.empty(size, dtype=np.uint64)
    keys.fill(0)
    data.fill(0)
    return keys, data


def table_bytes(mib: int) -> int:
    """The memory of the table that ``Hash`` ``mib`` makes (:func:`bits_for_mib`)."""
    return (1 << bits_for_mib(mib)) * SLOT_BYTES


def bits_for_mib(mib: int) -> int:
    """The largest table (as a power of two of slots) that fits in ``mib`` MiB."""
    slots = max(mib * (1 << 20) // SLOT_BYTES, 1)
    return min(max(slots.bit_length() - 1, MIN_BITS), MAX_BITS)


@njit(cache=True, nogil=True)
def pack(move: int, depth: int, bound: int, value: int) -> np.uint64:
    """One data word (see the module's layout)."""
    return (
        (np.uint64(move) & _BYTE)
        | ((np.uint64(depth) & _BYTE) << _DEPTH_SHIFT)
        | (np.uint64(bound) << _BOUND_SHIFT)
        | (np.uint64(np.int64(value) & _LOW32) << _VALUE_SHIFT)
    )


@njit(cache=True, nogil=True)
def entry_move(data: np.uint64) -> np.int64:
    return np.int64((data >> _MOVE_SHIFT) & _BYTE)


@njit(cache=True, nogil=True)
def entry_depth(data: np.uint64) -> np.int64:
    return np.int64((data >> _DEPTH_SHIFT) & _BYTE)


@njit(cache=True, nogil=True)
def entry_bound(data: np.uint64) -> np.int64:
    return np.int64((data >> _BOUND_SHIFT) & _TWO_BITS)


@njit(cache=True, nogil=True)
def entry_value(data: np.uint64) -> np.int64:
    v = np.int64(data >> _VALUE_SHIFT)
    return v - (np.int64(1) << 32) if v >= (np.int64(1) << 31) else v


@njit(cache=True, nogil=True)
def bucket(keys: np.ndarray, key: np.uint64) -> np.int64:
    """The first slot of ``key``'s bucket (the second is the one after it)."""
    return np.int64(key & np.uint64(keys.shape[0] - 2))


@njit(cache=True, nogil=True)
def probe(keys: np.ndarray, data: np.ndarray, key: np.uint64) -> tuple[bool, np.uint64]:
    """Whether the table holds an entry for ``key``, and its data word."""
    slot = bucket(keys, key)
    word = data[slot]
    if (keys[slot] ^ word) == key:
        return True, word
    word = data[slot + 1]
    return (keys[slot + 1] ^ word) == key, word


@njit(cache=True, nogil=True)
def store(
    keys: np.ndarray,
    data: np.ndarray,
    key: np.uint64,
    move: int,
    depth: int,
    bound: int,
    value: int,
) -> None:
    """Write an entry for ``key`` over its own entry, else over the shallower of its
    bucket's two (the first at equal depth)."""
    slot = bucket(keys, key)
    first, second = data[slot], data[slot + 1]
    if (keys[slot] ^ first) != key and (
        (keys[slot + 1] ^ second) == key or entry_depth(second) < entry_depth(first)
    ):
        slot += 1
    word = pack(move, depth, bound, value)
    data[slot] = word
    keys[slot] = key ^ word
