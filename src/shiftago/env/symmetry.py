"""The eight symmetries of the board, applied to positions, observations, masks and
action indices together, for data augmentation and for search that merges symmetric
positions.

The rules have every symmetry of the square: an insertion maps to the insertion along
the image lane from the image edge, a line to a line, the special case of RULES.md
section 6 (no two marbles orthogonally adjacent) to itself. Seats, supplies, points,
skips, the phase and the action count do not move. So for every symmetry ``g``,
every state ``s`` and every legal action ``a``::

    transform_kernel(step(s, a), g) == step(transform_kernel(s, g), transform_action(a, g, n))

and the observation and mask of ``transform_kernel(s, g)`` are those of ``s`` passed
through :func:`transform_observation` and :func:`transform_mask`.

Symmetry ``g`` (0-7) is: for ``g >= 4`` first mirror the files (a <-> g), then turn
the board ``g % 4`` quarter turns as :func:`numpy.rot90` turns ``obs[..., rank,
file]``. Symmetry 0 is the identity; :func:`inverse` undoes one.
"""

from __future__ import annotations

from typing import Final

import numpy as np
from numba import njit

from shiftago.core.geometry import CELLS, LANE_CELLS
from shiftago.core.state import State
from shiftago.engine.kernel.tables import BOARD, INSERTIONS, SEG_HI, SEG_LO, SEGMENTS

from .spaces import ACTION_COUNT, SIDE, is_whole_number

#: Number of symmetries of the square.
SYMMETRIES: Final = 8

U0 = np.uint64(0)
U1 = np.uint64(1)


def _grid(values: np.ndarray, g: int) -> np.ndarray:
    """Symmetry ``g`` of an array whose last two axes are rank and file."""
    if g >= 4:
        values = values[..., ::-1]
    return np.rot90(values, g % 4, axes=(-2, -1))


def _cell_maps() -> np.ndarray:
    """``maps[g, cell]``: the image of a bit index (guard bits map to themselves)."""
    maps = np.tile(np.arange(64, dtype=np.int64), (SYMMETRIES, 1))
    cells = np.array([[8 * r + f for f in range(SIDE)] for r in range(SIDE)])
    for g in range(SYMMETRIES):
        moved = _grid(cells, g)
        for r in range(SIDE):
            for f in range(SIDE):
                maps[g, moved[r, f]] = 8 * r + f
    return maps


#: ``CELL_MAP[g, cell]``: where symmetry ``g`` takes a cell (bit index).
CELL_MAP: Final = _cell_maps()


def _action_maps() -> np.ndarray:
    """``maps[g, many, index]`` with ``many`` 0 for 2 players (scorings keep end 0)."""
    lanes = {(cells[0], cells[1]): i for i, cells in enumerate(LANE_CELLS)}
    segments = {(int(SEG_LO[k]), int(SEG_HI[k])): k for k in range(SEGMENTS)}
    maps = np.zeros((SYMMETRIES, 2, ACTION_COUNT), dtype=np.int64)
    for g in range(SYMMETRIES):
        cell = CELL_MAP[g]
        for i, cells in enumerate(LANE_CELLS):
            maps[g, :, i] = lanes[(int(cell[cells[0]]), int(cell[cells[1]]))]
        for k in range(SEGMENTS):
            lo, hi = int(cell[SEG_LO[k]]), int(cell[SEG_HI[k]])
            image = segments[(min(lo, hi), max(lo, hi))]
            for end in (0, 1):
                kept = lo if end == 0 else hi
                maps[g, 0, INSERTIONS + 2 * k + end] = INSERTIONS + 2 * image + end
                new_end = 0 if kept == SEG_LO[image] else 1
                maps[g, 1, INSERTIONS + 2 * k + end] = INSERTIONS + 2 * image + new_end
    return maps


#: ``ACTION_MAP[g, many, index]``: the image of an action index (``many``: 3-4 players).
ACTION_MAP: Final = _action_maps()
#: ``INVERSE[g]``: the symmetry that undoes ``g``.
INVERSE: Final = np.array(
    [
        next(h for h in range(SYMMETRIES) if (CELL_MAP[h][CELL_MAP[g]] == np.arange(64)).all())
        for g in range(SYMMETRIES)
    ],
    dtype=np.int64,
)


def _checked(g: object) -> int:
    if not is_whole_number(g) or not 0 <= g < SYMMETRIES:
        raise ValueError(f"a symmetry is a whole number 0-{SYMMETRIES - 1}, not {g!r}")
    return int(g)


def _many(players: object) -> int:
    if not is_whole_number(players) or not 2 <= players <= 4:
        raise ValueError(f"players is 2, 3 or 4, not {players!r}")
    return 0 if players == 2 else 1


def inverse(g: int) -> int:
    """The symmetry that undoes ``g``."""
    return int(INVERSE[_checked(g)])


@njit(cache=True, nogil=True)
def map_board(bits: np.uint64, cell_map: np.ndarray) -> np.uint64:
    """A bitboard with every cell moved by ``cell_map`` (a row of :data:`CELL_MAP`)."""
    out = U0
    for cell in range(64):
        if (bits >> np.uint64(cell)) & U1:
            out |= U1 << np.uint64(cell_map[cell])
    return out


@njit(cache=True, nogil=True)
def map_states(states: np.ndarray, cell_map: np.ndarray, out: np.ndarray) -> None:
    """Write every kernel state of ``states`` (rows) moved by ``cell_map`` into ``out``."""
    for b in range(states.shape[0]):
        out[b] = states[b]
        for seat in range(4):
            out[b, BOARD + seat] = map_board(states[b, BOARD + seat], cell_map)


def transform_kernel(states: np.ndarray, g: int) -> np.ndarray:
    """Symmetry ``g`` of a kernel state, or of a batch of them (rows): a new array."""
    s = np.asarray(states)
    if s.dtype != np.uint64:
        raise ValueError("kernel states are uint64 arrays")
    rows = np.ascontiguousarray(s.reshape(-1, s.shape[-1]))
    out = np.empty_like(rows)
    map_states(rows, CELL_MAP[_checked(g)], out)
    return out.reshape(s.shape)


def transform_board(bits: int, g: int) -> int:
    """Symmetry ``g`` of a bitboard (a Python integer, as the core keeps them)."""
    cell_map = CELL_MAP[_checked(g)]
    return sum(1 << int(cell_map[c]) for c in CELLS if bits >> c & 1)


def transform_state(state: State, g: int) -> State:
    """Symmetry ``g`` of a core position: the marbles move, nothing else changes."""
    boards = tuple(transform_board(b, g) for b in state.boards)
    return State(
        state.rules,
        boards,
        state.turn,
        state.phase,
        state.supplies,
        state.scores,
        state.skips,
        state.outcome,
    )


def transform_observation(observation: np.ndarray, g: int) -> np.ndarray:
    """Symmetry ``g`` of observation planes (any leading axes, then rank and file)."""
    return np.ascontiguousarray(_grid(np.asarray(observation), _checked(g)))


def transform_action(index: int | np.ndarray, g: int, players: int) -> int | np.ndarray:
    """Symmetry ``g`` of an action index (or an array of them) of a ``players`` game."""
    table = ACTION_MAP[_checked(g), _many(players)]
    if is_whole_number(index):
        if not 0 <= index < ACTION_COUNT:
            raise ValueError(f"an action index is 0-{ACTION_COUNT - 1}, not {index}")
        return int(table[index])
    moved: np.ndarray = table[np.asarray(index)]
    return moved


def transform_mask(mask: np.ndarray, g: int, players: int) -> np.ndarray:
    """Symmetry ``g`` of a legal-action mask (or masks, on the last axis): the image
    of action ``a`` is legal where ``a`` was."""
    m = np.asarray(mask)
    if m.shape[-1:] != (ACTION_COUNT,):
        raise ValueError(f"a mask has {ACTION_COUNT} entries on its last axis")
    out = np.zeros_like(m)
    out[..., ACTION_MAP[_checked(g), _many(players)]] = m
    return out
