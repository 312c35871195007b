"""Perft: the number of action sequences of a given length from a state.

Counting every path of the move tree is how move generators are checked against each
other (golden counts in ``tests/core/golden/perft.json``): two implementations that
agree on many positions and depths agree on the rules.
"""

from __future__ import annotations

from shiftago.core.state import State


def perft(state: State, depth: int) -> int:
    """The leaf action sequences of length ``depth`` from ``state``.

    A sequence that ends the game early is one leaf, and an ended game is one leaf
    itself. A state does not count the actions before it, so no action limit applies.
    """
    if type(depth) is not int or depth < 0:
        raise ValueError(f"a perft depth is a whole number from 0, not {depth!r}")
    return _count(state, depth)


def _count(state: State, depth: int) -> int:
    if depth == 0 or state.is_over:
        return 1
    legal = state.legal_actions()
    if depth == 1:
        return len(legal)
    return sum(_count(state.step(action)[1], depth - 1) for action in legal)
