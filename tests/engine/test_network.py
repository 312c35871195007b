"""The small network of the tuned 2-player Express evaluation: its packed layout against
hand-computed values, the shipped weights against a plain floating-point pass over the
training layout, and its place in the evaluation and the search."""

from __future__ import annotations

import numpy as np
import pytest

from shiftago.core import State
from shiftago.engine import kernel
from shiftago.engine.bench import middle_game_positions
from shiftago.engine.kernel.moves import occupied
from shiftago.engine.kernel.tables import BOARD, TURN
from shiftago.engine.search import MAX_HEURISTIC, Searcher, evaluate
from shiftago.engine.search.evaluate import TUNED_EXPRESS, immediate_win, tuned_express
from shiftago.engine.search.network import (
    CELL_INPUTS,
    EXPRESS_NETWORK,
    HIDDEN,
    MINE,
    NO_NETWORK,
    THEIRS,
    UNITS,
    network_value,
    pack,
    shipped_network,
)

A1 = np.uint64(1 << 0)  # file a, rank 1: input 0
G7 = np.uint64(1 << (8 * 6 + 6))  # file g, rank 7: input 48
D4 = np.uint64(1 << (8 * 3 + 3))  # the centre: input 24


def one_unit(bias: float, a1_mine: float, g7_theirs: float, out: float) -> np.ndarray:
    hidden = np.zeros((2 * CELL_INPUTS, 1))
    hidden[0, 0] = a1_mine
    hidden[CELL_INPUTS + 48, 0] = g7_theirs
    return pack(hidden, np.array([bias]), np.array([out]))


@pytest.mark.parametrize(
    ("me", "op", "value"),
    [
        (np.uint64(0), np.uint64(0), 5),  # the bias alone: 0.5 * 10
        (A1, np.uint64(0), 15),  # (0.5 + 1) * 10
        (A1, G7, 0),  # 0.5 + 1 - 2 < 0: the unit is off
        (np.uint64(0), G7, 0),
        (A1 | D4, np.uint64(0), 15),  # a cell without a weight adds nothing
        (G7, A1, 5),  # the seat's own marble on g7 and the opponent's on a1: no weights
    ],
)
def test_a_hand_made_unit_gives_the_hand_computed_value(
    me: np.uint64, op: np.uint64, value: int
) -> None:
    net = one_unit(0.5, 1.0, -2.0, 10.0)
    assert network_value(me, op, net) == value


def test_a_negative_output_is_cut_towards_zero() -> None:
    net = one_unit(1.55, 0.0, 0.0, -10.0)  # -15.5 centi-units
    assert network_value(np.uint64(0), np.uint64(0), net) == -15


def test_the_layout_puts_each_cell_at_its_bit_and_leaves_the_guard_bits_empty() -> None:
    hidden = np.arange(2 * CELL_INPUTS * 2, dtype=np.float64).reshape(2 * CELL_INPUTS, 2) / 8
    net = pack(hidden, np.zeros(2), np.ones(2))
    assert net[UNITS] == 2
    for unit in range(2):
        for rank in range(7):
            for file in range(7):
                cell, bit = 7 * rank + file, 8 * rank + file
                assert net[MINE + 64 * unit + bit] == round(hidden[cell, unit] * 4096)
                assert net[THEIRS + 64 * unit + bit] == round(hidden[49 + cell, unit] * 4096)
        for bit in [*range(7, 64, 8), *range(56, 64)]:
            assert net[MINE + 64 * unit + bit] == 0
            assert net[THEIRS + 64 * unit + bit] == 0


def test_pack_refuses_a_network_of_another_shape() -> None:
    with pytest.raises(ValueError, match="98 inputs"):
        pack(np.zeros((49, 4)), np.zeros(4), np.zeros(4))
    with pytest.raises(ValueError, match="units"):
        pack(np.zeros((98, HIDDEN + 1)), np.zeros(HIDDEN + 1), np.zeros(HIDDEN + 1))


def test_no_network_adds_nothing() -> None:
    for me, op in [(A1, G7), (np.uint64(0x7F7F7F), np.uint64(0x7F00000000))]:
        assert network_value(me, op, NO_NETWORK) == 0


def inputs(me: int, op: int) -> np.ndarray:
    """The training layout: 49 cells of the seat to act by ``7 * rank + file``, then 49
    of the opponent."""
    x = np.zeros(2 * CELL_INPUTS)
    for rank in range(7):
        for file in range(7):
            x[7 * rank + file] = me >> (8 * rank + file) & 1
            x[CELL_INPUTS + 7 * rank + file] = op >> (8 * rank + file) & 1
    return x


def test_the_shipped_network_is_the_trained_one_in_whole_numbers() -> None:
    """The packed network's value is the floating-point pass of the trained weights
    (read from the package data directly), to within the rounding of its weights."""
    from importlib import resources

    from shiftago.engine.search import network

    path = resources.files(network.__package__).joinpath(network.DATA, network.NETWORK_FILE)
    with path.open("rb") as handle, np.load(handle) as trained:
        hidden, bias, out = trained["hidden"], trained["bias"], trained["out"]
    assert np.array_equal(shipped_network(), EXPRESS_NETWORK)
    values = []
    for s in middle_game_positions(40, seed=5):
        mover = int(s[TURN])
        me, op = int(s[BOARD + mover]), int(s[BOARD + 1 - mover])
        exact = float(np.maximum(inputs(me, op) @ hidden + bias, 0) @ out)
        value = network_value(np.uint64(me), np.uint64(op), EXPRESS_NETWORK)
        assert abs(value - exact) < 2
        values.append(value)
    assert len(set(values)) > 10  # it tells these positions apart


def test_the_tuned_express_evaluation_adds_the_network() -> None:
    for s in middle_game_positions(30, seed=7):
        if immediate_win(s):
            continue
        mover = int(s[TURN])
        me, op = s[BOARD + mover], s[BOARD + 1 - mover]
        expected = tuned_express(me, op, occupied(s), TUNED_EXPRESS)
        expected += network_value(me, op, EXPRESS_NETWORK)
        assert evaluate(s, True, TUNED_EXPRESS, EXPRESS_NETWORK) == max(
            -MAX_HEURISTIC, min(MAX_HEURISTIC, expected)
        )
        # the classic evaluation of the levels below never looks at it
        assert evaluate(s, False, TUNED_EXPRESS, EXPRESS_NETWORK) == evaluate(
            s, False, TUNED_EXPRESS, NO_NETWORK
        )


def test_the_search_plays_with_the_network_it_is_given() -> None:
    """The top level's searcher carries the shipped network; one given none searches
    the tuned weights alone, a different tree."""
    s = kernel.from_state(
        State.from_position("express 2 7/7/2g4/2oo3/3g3/7/7 g insert 20,20 0,0 0,0")
    )
    codes = kernel.legal_codes(s)
    shipped = Searcher(reductions=True, tuned=True).search(s.copy(), codes, depth=5)
    again = Searcher(reductions=True, tuned=True, express_network=EXPRESS_NETWORK).search(
        s.copy(), codes, depth=5
    )
    bare = Searcher(reductions=True, tuned=True, express_network=NO_NETWORK).search(
        s.copy(), codes, depth=5
    )
    assert (shipped.nodes, shipped.values) == (again.nodes, again.values)
    assert (shipped.nodes, shipped.values) != (bare.nodes, bare.values)
