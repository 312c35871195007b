"""Where the board's arrows and cells are, and what a click there means."""

from __future__ import annotations

import pytest

from shiftago.core import INSERTIONS
from shiftago.core.geometry import CELLS
from shiftago.interfaces.tui.board import (
    AROUND,
    HEIGHT,
    WIDTH,
    arrow_at,
    arrow_position,
    cell_at,
    cell_position,
    ring_step,
)


def test_every_arrow_is_found_where_it_is_drawn() -> None:
    for insertion in INSERTIONS:
        x, y = arrow_position(str(insertion))
        assert 0 <= x < WIDTH and 0 <= y < HEIGHT
        assert arrow_at(x, y) == str(insertion)


def test_every_cell_is_found_where_it_is_drawn() -> None:
    for cell in CELLS:
        x, y = cell_position(cell)
        assert cell_at(x, y) == cell
        assert arrow_at(x, y) is None


@pytest.mark.parametrize("where", [(0, 0), (3, 0), (33, 5), (10, 16)])
def test_the_margins_are_neither(where: tuple[int, int]) -> None:
    assert cell_at(*where) is None
    assert arrow_at(*where) is None


@pytest.mark.parametrize("name", AROUND)
def test_a_cursor_key_along_an_edge_moves_the_way_it_points(name: str) -> None:
    """On the bottom edge Right went left, the keys walking the board clockwise (a
    German walk): along each edge a key goes the way it points, round the corners too."""
    x, y = arrow_position(name)
    along = {"T": "right left", "B": "right left", "L": "up down", "R": "up down"}[name[0]]
    for key in along.split():
        dx, dy = {"right": (1, 0), "left": (-1, 0), "down": (0, 1), "up": (0, -1)}[key]
        going = AROUND[(AROUND.index(name) + ring_step(name, key)) % len(AROUND)]
        nx, ny = arrow_position(going)
        assert (nx - x) * dx + (ny - y) * dy > 0, (name, key, going)


def test_the_cursor_walks_every_arrow_once() -> None:
    assert sorted(AROUND) == sorted(str(i) for i in INSERTIONS)
    assert AROUND[:2] == ("Ta", "Tb") and AROUND[7] == "R7" and AROUND[-1] == "L7"


def test_the_result_tells_reaching_10_points_from_the_most_points_at_the_end() -> None:
    """A win by 10 points and a win by the most points when the board is full are told
    apart: "on points" alone read as the second for both."""
    from shiftago.core.outcome import EndReason, Outcome
    from shiftago.interfaces.tui.words import result

    reached = result(Outcome((1,), 3, EndReason.POINTS))
    most = result(Outcome((1,), 3, EndReason.BOARD_FULL))
    assert reached == "Green wins by reaching 10 points."
    assert most == "Green wins on points: the board is full."
