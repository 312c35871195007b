"""A small network added to the tuned 2-player Express evaluation, in whole numbers.

Its inputs are the board's cells, each twice: a marble of the seat to act, a marble of
the opponent (98 inputs); one hidden layer of :data:`HIDDEN` units with ReLU, one
output in the evaluation's centi-units, added to the value of the tuned weights
(:func:`.evaluate.tuned_express`). It was trained on the values a deeper search found
for self-play positions, to predict what the tuned weights miss
(``scripts/fit_network.py``; docs/strength.md, "A network in the evaluation" and "The
network refitted").

The search reads it from its ``info`` slots (:mod:`.layout`), as one ``int64`` array of
:data:`NETWORK_SIZE` slots, the trained weights times :data:`SCALE` and rounded:

=====================================  ==============================================
``net[UNITS]``                         the hidden units in use: 0 turns it off
``net[BIAS + k]``                      unit ``k``'s bias
``net[MINE + 64 * k + cell]``          unit ``k``'s weight of a marble of the seat to
                                       act on ``cell`` (the bitboard's bit index,
                                       ``8 * rank + file``; the guard bits' are 0)
``net[THEIRS + 64 * k + cell]``        ... of an opponent's marble there
``net[OUT + k]``                       the output's weight of unit ``k``
=====================================  ==============================================

The value is ``sum(max(h_k, 0) * out_k) / SCALE**2`` (rounded towards zero), ``h_k``
being the bias plus the weights of the marbles on the board. Unit by unit, so that
the search needs no room of its own for the hidden layer.
"""

from __future__ import annotations

from importlib import resources
from typing import Final

import numpy as np
from numba import njit

from shiftago.core.geometry import CELLS
from shiftago.engine.kernel.moves import lowest_index

#: The most hidden units the layout holds (the shipped network has this many).
HIDDEN: Final = 16
#: The fixed point of the weights: a trained weight ``w`` is stored as ``round(w * SCALE)``.
SCALE: Final = 1 << 12
#: The inputs of one seat's marbles: the 49 cells by ``7 * rank + file``, the layout
#: of the trained weights that :func:`pack` reads (the search's rows are by bit index).
CELL_INPUTS: Final = 49

UNITS: Final = 0
BIAS: Final = 1
MINE: Final = BIAS + HIDDEN
THEIRS: Final = MINE + 64 * HIDDEN
OUT: Final = THEIRS + 64 * HIDDEN
NETWORK_SIZE: Final = OUT + HIDDEN

#: The file of the shipped network's trained weights, beside this module.
DATA = "data"
NETWORK_FILE = "express-net.npz"

_U1 = np.uint64(1)


def pack(hidden: np.ndarray, bias: np.ndarray, out: np.ndarray) -> np.ndarray:
    """The search's array of a trained network: ``hidden[input, unit]`` (the 49 cells of
    the seat to act by ``7 * rank + file``, then the opponent's 49), ``bias[unit]`` and
    ``out[unit]`` (centi-units per unit of activation), at most :data:`HIDDEN` units."""
    units = bias.shape[0]
    if hidden.shape != (2 * CELL_INPUTS, units) or out.shape != (units,) or units > HIDDEN:
        raise ValueError(f"a network of at most {HIDDEN} units over 98 inputs, not {hidden.shape}")
    net = np.zeros(NETWORK_SIZE, dtype=np.int64)
    net[UNITS] = units
    net[BIAS : BIAS + units] = np.round(bias * SCALE)
    for cell, bit in enumerate(CELLS):  # ``7 * rank + file`` to ``8 * rank + file``
        for k in range(units):
            net[MINE + 64 * k + bit] = round(float(hidden[cell, k]) * SCALE)
            net[THEIRS + 64 * k + bit] = round(float(hidden[CELL_INPUTS + cell, k]) * SCALE)
    net[OUT : OUT + units] = np.round(out * SCALE)
    return net


def shipped_network() -> np.ndarray:
    """The network the top level plays (package data written by
    ``scripts/fit_network.py``)."""
    path = resources.files(__package__).joinpath(DATA, NETWORK_FILE)
    with path.open("rb") as handle, np.load(handle) as trained:
        return pack(trained["hidden"], trained["bias"], trained["out"])


#: The search's array of the shipped network.
EXPRESS_NETWORK: Final = shipped_network()
#: The search's array of no network (the evaluation of the tuned weights alone).
NO_NETWORK: Final = np.zeros(NETWORK_SIZE, dtype=np.int64)


@njit(cache=True, nogil=True)
def marble_weights(board: np.uint64, net: np.ndarray, row: int) -> int:
    """The sum of the weights ``net[row + cell]`` of the cells of ``board``'s marbles."""
    total = 0
    while board:
        total += net[row + lowest_index(board)]
        board &= board - _U1
    return total


@njit(cache=True, nogil=True)
def network_value(me: np.uint64, op: np.uint64, net: np.ndarray) -> int:
    """The network's value for the seat to act with the marbles ``me`` (the
    opponent's: ``op``), in centi-units; 0 without a network."""
    total = 0
    for k in range(net[UNITS]):
        h = net[BIAS + k] + marble_weights(me, net, MINE + 64 * k)
        h += marble_weights(op, net, THEIRS + 64 * k)
        if h > 0:
            total += h * net[OUT + k]
    # whole numbers towards zero, as the trained network's value is truncated
    return total // (SCALE * SCALE) if total >= 0 else -((-total) // (SCALE * SCALE))
