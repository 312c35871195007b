"""The "defend" theme (engine/puzzles/threats.py): a seat that would win at once if the
solver handed it the turn is a threat, and a puzzle is a defend puzzle when such a
threat stands and the defence acts before the solver's goal."""

from __future__ import annotations

import dataclasses

from shiftago.core import State
from shiftago.engine.puzzles.generate import retagged
from shiftago.engine.puzzles.shipped import shipped
from shiftago.engine.puzzles.threats import is_defence, threatening_seats

# Green holds a6-d6: given the turn, L6 makes its line of five.
GREEN_THREATENS = "express 2 7/gggg3/7/7/7/7/o1o1o2 o insert 19,18 0,0 0,0"
# The same, and orange holds a1-d1: orange wins at once (L1), before green acts.
BOTH_THREATEN = "express 2 7/gggg3/7/7/7/7/oooo3 o insert 18,18 0,0 0,0"
START = "express 2 7/7/7/7/7/7/7 o insert 22,22 0,0 0,0"


def test_a_four_in_a_row_of_the_other_seat_is_a_threat() -> None:
    assert threatening_seats(State.from_position(GREEN_THREATENS)) == (1,)
    assert threatening_seats(State.from_position(START)) == ()


def test_a_win_at_once_parries_nothing_so_it_is_no_defend_puzzle() -> None:
    state = State.from_position(BOTH_THREATEN)
    assert threatening_seats(state) == (1,)
    assert not is_defence(state, ["L1"])


def test_the_shipped_defend_puzzles_have_a_threat_and_a_defence_that_acts() -> None:
    tagged = [p for p in shipped() if "defend" in p.themes]
    assert len(tagged) >= 30
    for puzzle in tagged[:40]:
        assert puzzle.actions >= 2
        assert threatening_seats(puzzle.state), puzzle.id
        assert is_defence(puzzle.state, list(puzzle.solution))
    untagged = [p for p in shipped() if "defend" not in p.themes and p.actions >= 2]
    assert any(not threatening_seats(p.state) for p in untagged[:40])


def test_retagging_finds_the_defend_theme_again_and_keeps_the_rest() -> None:
    puzzle = next(p for p in shipped() if "defend" in p.themes)
    stripped = dataclasses.replace(puzzle, themes=tuple(t for t in puzzle.themes if t != "defend"))
    again = retagged(stripped)
    assert again.themes == puzzle.themes
    assert (again.position, again.solution, again.rating) == (
        puzzle.position,
        puzzle.solution,
        puzzle.rating,
    )
