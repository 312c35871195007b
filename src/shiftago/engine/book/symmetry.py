"""The book's view of a position: the same for every position the board's symmetries
and a turn of the seats make equal, and the actions mapped between them.

The rules treat the eight symmetries of the square alike (an insertion maps to the
insertion along the image lane from the image edge, a line to a line), and they treat
the seats alike but for the order of play, which a rotation of the seats keeps. So the
book keys a position by its *canonical* form: the seats turned so that the mover is
orange (seat 0), then the board moved by the symmetry whose position string is the
smallest. Colours are never swapped by a symmetry of the board, and an action is
mapped with the board: cells by the symmetry, an insertion by its entry cell and the
next cell of its lane.

Symmetry ``g`` (0-7): for ``g >= 4`` first mirror the files (a <-> g), then turn the
board ``g % 4`` quarter turns; 0 is the identity, :data:`INVERSE` undoes each.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from shiftago.core import INSERTIONS, Action, Insertion, Rules, Scoring, State
from shiftago.core.actions import sort_key
from shiftago.core.geometry import CELLS, LANE_CELLS, SIZE

#: Number of symmetries of the square.
SYMMETRIES: Final = 8


def _cell_maps() -> tuple[tuple[int, ...], ...]:
    """For each symmetry, the image of every cell (bit ``8 * rank + file``)."""
    maps = []
    for g in range(SYMMETRIES):
        image = list(range(64))
        for cell in CELLS:
            rank, file = divmod(cell, 8)
            if g >= 4:
                file = SIZE - 1 - file
            for _ in range(g % 4):
                rank, file = file, SIZE - 1 - rank
            image[cell] = 8 * rank + file
        maps.append(tuple(image))
    return tuple(maps)


#: ``CELL_MAP[g][cell]``: where symmetry ``g`` takes a cell.
CELL_MAP: Final = _cell_maps()
#: ``INVERSE[g]``: the symmetry that undoes ``g``.
INVERSE: Final = tuple(
    next(h for h in range(SYMMETRIES) if all(CELL_MAP[h][CELL_MAP[g][c]] == c for c in CELLS))
    for g in range(SYMMETRIES)
)
_LANE_BY_CELLS: Final = {(cells[0], cells[1]): i for i, cells in enumerate(LANE_CELLS)}


def transform_board(bits: int, g: int) -> int:
    """Symmetry ``g`` of one bitboard."""
    image = CELL_MAP[g]
    out = 0
    while bits:
        low = bits & -bits
        out |= 1 << image[low.bit_length() - 1]
        bits ^= low
    return out


def transform_action(action: Action, g: int, players: int) -> Action:
    """Symmetry ``g`` of an action: an insertion along the image lane from the image
    edge, a scoring of the image line (with 2 players in its canonical spelling)."""
    image = CELL_MAP[g]
    if isinstance(action, Insertion):
        cells = LANE_CELLS[action.index]
        return INSERTIONS[_LANE_BY_CELLS[(image[cells[0]], image[cells[1]])]]
    if isinstance(action, Scoring):
        moved = Scoring(image[action.keep], image[action.other])
        return moved.canonical_for_two() if players == 2 else moved
    raise TypeError(f"not an action: {action!r}")


def transform_state(state: State, g: int) -> State:
    """Symmetry ``g`` of a position: the marbles move, nothing else changes."""
    boards = tuple(transform_board(b, g) for b in state.boards)
    return State(
        state.rules, boards, state.turn, state.phase, state.supplies, state.scores,
        state.skips, state.outcome,
    )  # fmt: skip


def mover_first(state: State) -> State:
    """The position with the seats turned so that the mover is seat 0 (orange): the
    order of play is kept, so the game from there is the same; the rules are the plain
    ones of the variant (a handicap belongs to seats, and a book position has none)."""
    n, turn = state.players, state.turn

    def turned(values: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(values[(seat + turn) % n] for seat in range(n))

    rules = Rules(state.rules.variant, n)
    return State(
        rules, turned(state.boards), 0, state.phase, turned(state.supplies),
        turned(state.scores), turned(state.skips),
    )  # fmt: skip


@dataclass(frozen=True)
class Canonical:
    """A position's canonical form: ``state`` (whose position string is the book's
    key) and the symmetry ``g`` that takes the mover-first position there."""

    state: State
    g: int

    @property
    def key(self) -> str:
        return self.state.position()

    def to_book(self, action: Action) -> Action:
        """An action of the original position, in the canonical position's frame."""
        return transform_action(action, self.g, self.state.players)

    def from_book(self, action: Action) -> Action:
        """An action of the canonical position, in the original position's frame."""
        return transform_action(action, INVERSE[self.g], self.state.players)


def canonical(state: State) -> Canonical:
    """The canonical form of ``state`` (which must not be over)."""
    first = mover_first(state)
    images = [(transform_state(first, g), g) for g in range(SYMMETRIES)]
    image, g = min(images, key=lambda pair: pair[0].position())
    return Canonical(image, g)


def stabilizer(state: State) -> tuple[int, ...]:
    """The symmetries that leave ``state``'s board as it is (the identity at least)."""
    boards = state.boards
    return tuple(
        g for g in range(SYMMETRIES) if tuple(transform_board(b, g) for b in boards) == boards
    )


def representative(action: Action, state: State) -> Action:
    """The one action that stands for ``action``'s class in ``state``: the first in
    canonical order among its images under the symmetries that keep the board, so that
    actions the board cannot tell apart (the empty board's 28 have 4 classes) share
    their statistics."""
    images = (transform_action(action, g, state.players) for g in stabilizer(state))
    return min(images, key=sort_key)
