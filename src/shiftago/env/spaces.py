"""The one action space and observation encoding that every RL environment shares.

Actions are the kernel's action codes (:mod:`shiftago.engine.kernel.tables`), so the
indices are fixed for every variant and player count:

- ``0..27``: the 28 insertions in canonical order (``L1``..``L7``, ``R1``..``R7``,
  ``Ta``..``Tg``, ``Ba``..``Bg``);
- ``28 + 2 * segment + end``: the scoring of one of the 320 straight segments of 3 to 7
  cells; ``end`` 0 keeps the segment's lowest cell (bit order ``8 * rank + file``), 1
  its highest. With 2 players both ends stay and only ``end`` 0 is ever legal.

An observation is a ``float32`` array of ``4 * players + 2`` planes of 7 x 7, written
``obs[plane, rank, file]`` (rank 0 is rank 1, file 0 is file a) and relative to one seat
(the observer, normally the player to act): seat ``k`` below means the ``k``-th seat
after the observer in play order, seat 0 the observer itself.

=====================  =============================================================
planes                 meaning
=====================  =============================================================
``k`` (0..n-1)         1 where seat ``k`` has a marble
``n + k``              seat ``k``'s supply / 22 (constant plane)
``2n + k``             seat ``k``'s points / 10, at most 1 (constant; 0 in Express)
``3n + k``             seat ``k``'s handicap skips still pending / 6 (constant)
``4n``                 1 when the player to act must score (the score phase)
``4n + 1``             actions played / action limit (0 without a limit)
``4n + 2 + k``         version 1 only: 1 when seat ``k`` is to act (all 0 when over)
=====================  =============================================================

Version 0 (``4n + 2`` planes) is the default everywhere; version 1 (``5n + 2`` planes)
adds the seat to act, which a view for a seat that is not to act needs (with 3 players,
seat 0's view of a position with green to act differs from one with blue to act only
there). :func:`encode_observation` writes the version its buffer has room for.
"""

from __future__ import annotations

from typing import Any, Final, TypeGuard

import numpy as np
from numba import njit

from shiftago.core.actions import Action
from shiftago.core.errors import ParseError
from shiftago.core.state import State
from shiftago.engine.kernel.convert import from_action, from_state, to_action
from shiftago.engine.kernel.moves import legal_actions, lowest_index
from shiftago.engine.kernel.tables import (
    BOARD,
    COUNT,
    LIMIT,
    MARBLES,
    MAX_ACTIONS,
    OVER,
    PHASE,
    PLAYERS,
    SCORE,
    SCORE_PHASE,
    SEGMENTS,
    SKIPS,
    STATE_SIZE,
    SUPPLY,
    TURN,
    WIN_POINTS,
    WINNERS,
)

#: Size of the action space: 28 insertions and two ends of each of 320 segments.
ACTION_COUNT: Final = 28 + 2 * SEGMENTS
#: Side of the board.
SIDE: Final = 7
#: Skips a handicap can give (planes ``3n + k`` are divided by it).
MAX_SKIPS: Final = 6
#: The observation versions (see the module doc); 0 is the default.
OBSERVATION_VERSIONS: Final = (0, 1)

U1 = np.uint64(1)


def checked_version(version: object) -> int:
    """An observation version, 0 or 1 (anything else raises ``ValueError``)."""
    if not is_whole_number(version) or version not in OBSERVATION_VERSIONS:
        raise ValueError(f"the observation version is 0 or 1, not {version!r}")
    return int(version)


def plane_count(players: int, version: int = 0) -> int:
    """Number of observation planes for ``players`` seats in observation ``version``."""
    if players not in (2, 3, 4) or isinstance(players, bool):
        raise ValueError(f"players is 2, 3 or 4, not {players!r}")
    return (5 if checked_version(version) else 4) * players + 2


def observation_shape(players: int, version: int = 0) -> tuple[int, int, int]:
    return (plane_count(players, version), SIDE, SIDE)


def is_whole_number(value: object) -> TypeGuard[int | np.integer[Any]]:
    """Whether ``value`` is an integer, Python's or numpy's (``True`` is not one here)."""
    return isinstance(value, int | np.integer) and not isinstance(value, bool)


def first_seat(options: dict[str, Any] | None, players: int) -> int:
    """The first seat that ``reset(options={"first": seat})`` asks for (0 when not
    given): a whole number 0 to ``players - 1``, Python's or numpy's."""
    first = (options or {}).get("first", 0)
    if not is_whole_number(first) or not 0 <= first < players:
        raise ValueError(f"the first seat is a whole number 0-{players - 1}, not {first!r}")
    return int(first)


def _checked_players(players: object) -> int:
    if not is_whole_number(players):
        raise TypeError(f"players is a whole number 2-4, not {players!r}")
    if not 2 <= players <= 4:
        raise ValueError(f"players is 2, 3 or 4, not {players}")
    return int(players)


def action_of(index: int, players: int) -> Action:
    """The core action of an action index (raises ``ValueError`` when out of range, and
    ``TypeError`` for an index or a number of players that is not a whole number)."""
    if not is_whole_number(index):
        raise TypeError(f"an action index is a whole number, not {index!r}")
    players = _checked_players(players)
    if not 0 <= index < ACTION_COUNT:
        raise ValueError(f"an action index is 0-{ACTION_COUNT - 1}, not {index}")
    return to_action(int(index), players)


def index_of(action: Action | str, players: int) -> int:
    """The action index of a core action or of its notation (``L3``, ``xc3-g3``)."""
    players = _checked_players(players)
    try:
        return from_action(action, players)
    except KeyError:
        raise ParseError(
            f"{action}: the two end cells of a scoring lie on one straight line of 3 to 7 "
            "cells (a rank, a file or a diagonal)"
        ) from None


@njit(cache=True, nogil=True)
def encode_observation(s: np.ndarray, observer: int, out: np.ndarray) -> None:
    """Write the planes of kernel state ``s`` seen by seat ``observer`` into ``out``:
    version 1 when ``out`` has room for its ``5n + 2`` planes, else version 0."""
    n = np.int64(s[PLAYERS])
    out[:] = 0.0
    for k in range(n):
        seat = (observer + k) % n
        bits = s[BOARD + seat]
        while bits:
            cell = lowest_index(bits)
            bits &= bits - U1
            out[k, cell >> 3, cell & 7] = 1.0
        out[n + k] = np.float32(np.int64(s[SUPPLY + seat]) / MARBLES)
        points = min(np.int64(s[SCORE + seat]), np.int64(WIN_POINTS))  # a winner may pass 10
        out[2 * n + k] = np.float32(np.int64(points) / WIN_POINTS)
        out[3 * n + k] = np.float32(np.int64(s[SKIPS + seat]) / MAX_SKIPS)
    if np.int64(s[PHASE]) == SCORE_PHASE:
        out[4 * n] = 1.0
    limit = np.int64(s[LIMIT])
    if limit > 0:
        out[4 * n + 1] = np.float32(min(np.int64(s[COUNT]), limit) / limit)
    if out.shape[0] >= 5 * n + 2 and np.int64(s[PHASE]) != OVER:
        out[4 * n + 2 + (np.int64(s[TURN]) - observer) % n] = 1.0


@njit(cache=True, nogil=True)
def write_mask(s: np.ndarray, moves: np.ndarray, out: np.ndarray) -> int:
    """Set ``out[index]`` for each legal action of ``s`` (``moves`` is scratch room of
    ``MAX_ACTIONS``); return how many are legal."""
    out[:] = 0
    count = legal_actions(s, moves)
    for j in range(count):
        out[moves[j]] = 1
    return count


@njit(cache=True, nogil=True)
def write_outcome_rewards(s: np.ndarray, out: np.ndarray) -> None:
    """The end-of-game reward of each seat: ``2 * share - 1`` where the ``k`` winners
    (``k > 1`` is a draw between them) share 1 equally and the others get 0; so a win is
    +1, a loss -1, a 2-player draw 0. Zeros while the game goes on."""
    n = np.int64(s[PLAYERS])
    out[:n] = 0.0
    if np.int64(s[PHASE]) != OVER:
        return
    winners = np.int64(s[WINNERS])
    k = 0
    for seat in range(n):
        k += (winners >> seat) & 1
    for seat in range(n):
        # 2 * (1 / k) - 1 as (2 - k) / k: a 3-way draw's -1/3 exactly, not 2/3 - 1
        out[seat] = (2.0 - k) / k if (winners >> seat) & 1 else -1.0


def kernel_state(s: np.ndarray | State) -> np.ndarray:
    """``s`` as a kernel state: a core :class:`State` (what a bot's ``analyse`` is
    given) is converted; anything else but a kernel state's array is refused in words (a
    researcher met "'State' object is not subscriptable", or a numba traceback)."""
    if isinstance(s, State):
        return from_state(s)
    if isinstance(s, np.ndarray) and s.shape == (STATE_SIZE,) and s.dtype == np.uint64:
        return s
    raise TypeError(
        "a kernel state (the array of shiftago.engine.kernel.from_state) or a core "
        f"State is wanted, not {type(s).__name__}"
        + (f" of shape {s.shape} and dtype {s.dtype}" if isinstance(s, np.ndarray) else "")
    )


def observe(s: np.ndarray | State, observer: int, version: int = 0) -> np.ndarray:
    """A new observation array (of ``version``) of ``s`` (a kernel state, or a core
    :class:`State`) for seat ``observer``."""
    s = kernel_state(s)
    players = int(s[PLAYERS])
    if not (is_whole_number(observer) and 0 <= observer < players):
        raise ValueError(f"the observer is a seat 0-{players - 1}, not {observer!r}")
    out = np.empty(observation_shape(players, version), dtype=np.float32)
    encode_observation(s, observer, out)
    return out


def action_mask(s: np.ndarray | State) -> np.ndarray:
    """A new ``int8`` mask of the legal action indices of ``s`` (a kernel state, or a
    core :class:`State`): 1 where :func:`action_of` the index is legal."""
    s = kernel_state(s)
    out = np.empty(ACTION_COUNT, dtype=np.int8)
    write_mask(s, np.empty(MAX_ACTIONS, dtype=np.int64), out)
    return out


def outcome_rewards(s: np.ndarray) -> np.ndarray:
    """A new ``float64`` array of the end-of-game reward of each seat (see
    :func:`write_outcome_rewards`): the rewards that the PettingZoo and Gymnasium
    environments hand out as Python floats, so a 3-way draw pays -1/3, not float32's
    -0.33333334."""
    out = np.empty(int(s[PLAYERS]), dtype=np.float64)
    write_outcome_rewards(s, out)
    return out
