"""What an action does to the marbles on the board, for whoever draws it moving.

An insertion shifts the run of marbles at its lane's entry one cell along the lane and
brings the mover's new marble in from its edge; a scoring takes the marbles of its line
off the board, all but the kept end (or ends). The rules already decide both inside
:meth:`State.step`; this module says the same in cells, so that a picture or a page
animates the action without deciding a rule again.
"""

from __future__ import annotations

from dataclasses import dataclass

from shiftago.core.actions import Action, Insertion
from shiftago.core.geometry import ENTRY_CELLS, LANE_CELLS, push_run
from shiftago.core.state import State


@dataclass(frozen=True)
class Motion:
    """The marbles an action moves, as cells (bit indices of :mod:`geometry`).

    ``shifts`` holds one ``(from, to)`` pair per pushed marble, the one farthest along
    the lane first (so each lands on a cell already left); ``entry`` is the cell where
    the new marble arrives from ``side`` (``L``, ``R``, ``T`` or ``B``); ``removed``
    holds the cells a scoring empties, in line order. An insertion removes nothing and
    a scoring shifts nothing.
    """

    shifts: tuple[tuple[int, int], ...] = ()
    entry: int | None = None
    side: str | None = None
    removed: tuple[int, ...] = ()


def motion(state: State, action: Action) -> Motion:
    """The motion of ``action`` played on ``state``.

    Raises :class:`IllegalActionError` (as :meth:`State.validate` does) when the action
    is not legal there.
    """
    played = state.validate(action)
    if isinstance(played, Insertion):
        return _insertion(played, state.occupied)
    for option in state.scoring_options():
        if option.action == played:
            return Motion(removed=option.removed)
    raise AssertionError("a validated scoring is one of the options")  # pragma: no cover


def _insertion(insertion: Insertion, occupied: int) -> Motion:
    """The motion of a legal ``insertion`` into a board whose occupied cells are
    ``occupied``: the run of ``n`` marbles at the entry moves one cell on."""
    index = insertion.index
    lane = LANE_CELLS[index]
    moved = push_run(index, occupied).bit_count()
    shifts = tuple((lane[k], lane[k + 1]) for k in reversed(range(moved)))
    return Motion(shifts=shifts, entry=ENTRY_CELLS[index], side=insertion.side)
