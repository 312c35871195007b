"""The kernel's random numbers: xorshift64 (13, 7, 17) inside numba.

One ``uint64`` is the whole generator state, so a playout, an MCTS tree or a batch of
environments carries its generator as a plain value and repeats exactly from the same
seed. A choice among ``n`` is ``((x >> 32) * n) >> 32`` (the high half of the number,
scaled without a division), as in ``../shared/bench/cref_playouts.c``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

U0 = np.uint64(0)
U1 = np.uint64(1)
U7 = np.uint64(7)
U13 = np.uint64(13)
U17 = np.uint64(17)
U32 = np.uint64(32)
#: The odd constant of Fibonacci hashing (2**64 divided by the golden ratio).
GOLDEN = np.uint64(0x9E3779B97F4A7C15)
#: The starting value of Marsaglia's xorshift64 paper, added so that seed 0 works.
MARSAGLIA = np.uint64(88172645463325252)


@njit(cache=True, nogil=True)
def xorshift(x: np.uint64) -> np.uint64:
    """The next generator value after ``x`` (never 0 when ``x`` is not)."""
    x ^= x << U13
    x ^= x >> U7
    x ^= x << U17
    return x


@njit(cache=True, nogil=True)
def pick(x: np.uint64, n: int) -> np.int64:
    """A number below ``n`` from the generator value ``x``."""
    return np.int64(((x >> U32) * np.uint64(n)) >> U32)


@njit(cache=True, nogil=True)
def seed_of(seed: int) -> np.uint64:
    """The generator's first value for a non-negative integer ``seed`` (never 0)."""
    x = np.uint64(seed) * GOLDEN + MARSAGLIA
    return x if x != U0 else U1
