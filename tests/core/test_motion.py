"""The motion of an action (core/motion.py) moves the marbles exactly as playing it does:
every variant, 2-4 players, full lanes, scorings with the end choice."""

from __future__ import annotations

import random

import pytest

from shiftago import Action, Game, IllegalActionError, Insertion, Rules, Scoring, State, Variant
from shiftago.core.geometry import CELL_BY_NAME, CELL_NAMES
from shiftago.core.motion import Motion, motion


def board_of(state: State) -> dict[int, int]:
    """Cell -> seat of every marble on the board."""
    return {cell: seat for cell in CELL_NAMES if (seat := state.seat_at(cell)) is not None}


def moved(before: State, action: Action) -> dict[int, int]:
    """The board of ``before`` with ``action``'s motion applied to it."""
    board = board_of(before)
    m = motion(before, action)
    for source, target in m.shifts:  # the farthest first: each target is free by now
        assert target not in board
        board[target] = board.pop(source)
    if m.entry is not None:
        assert m.entry not in board
        board[m.entry] = before.turn
    for cell in m.removed:
        assert board.pop(cell) == before.turn
    return board


def names(cells: tuple[int, ...]) -> list[str]:
    return [CELL_NAMES[c] for c in cells]


def test_a_push_shifts_the_run_at_the_entry_and_the_new_marble_enters_there() -> None:
    state = State.from_position("express 2 7/7/7/7/ogo1g2/7/7 g insert 20,20 0,0 0,0")
    m = motion(state, Action.parse("L3"))
    assert [(CELL_NAMES[a], CELL_NAMES[b]) for a, b in m.shifts] == [
        ("c3", "d3"), ("b3", "c3"), ("a3", "b3")
    ]  # fmt: skip
    assert (CELL_NAMES[m.entry or 0], m.side, m.removed) == ("a3", "L", ())


def test_into_an_empty_entry_nothing_shifts() -> None:
    state = State.from_position("express 2 7/7/7/7/ogo1g2/7/7 g insert 20,20 0,0 0,0")
    m = motion(state, Action.parse("Bg"))
    assert m == Motion(entry=CELL_BY_NAME["g1"], side="B")


def test_a_lane_with_one_empty_cell_shifts_six() -> None:
    state = State.from_position("express 2 7/7/7/7/ogogog1/7/7 o insert 19,19 0,0 0,0")
    assert len(motion(state, Action.parse("L3")).shifts) == 6
    assert motion(state, Action.parse("R3")).shifts == ()
    assert moved(state, Action.parse("L3")) == board_of(state.after(Action.parse("L3")))


def test_two_players_keep_both_ends() -> None:
    state = State.from_position("expert 2 7/7/7/7/7/gg5/ooooo2 o score 17,20 0,0 0,0")
    for text in ("xa1-e1", "xe1-a1"):
        assert names(motion(state, Action.parse(text)).removed) == ["b1", "c1", "d1"]


def test_three_players_keep_the_chosen_end() -> None:
    state = State.from_position("expert 3 7/7/7/7/7/gg5/ooooo2 o score 17,20,22 0,0,0 0,0,0")
    assert names(motion(state, Action.parse("xa1-e1")).removed) == ["b1", "c1", "d1", "e1"]
    assert set(names(motion(state, Action.parse("xe1-a1")).removed)) == {"a1", "b1", "c1", "d1"}


def test_an_illegal_action_is_refused_as_play_refuses_it() -> None:
    state = State.from_position("express 2 7/7/7/7/ogogogo/7/7 g insert 18,19 0,0 0,0")
    with pytest.raises(IllegalActionError):
        motion(state, Action.parse("L3"))
    with pytest.raises(IllegalActionError):
        motion(state, Action.parse("xa3-e3"))


def pick(state: State, legal: list[Action], rng: random.Random) -> Action:
    """Biased towards the rare: pushes into long runs (towards full lanes), and the
    later end of a scoring (the other end kept)."""
    if isinstance(legal[0], Scoring):
        return rng.choice(legal)
    weights = [1 + 4 * len(motion(state, a).shifts) for a in legal]
    return rng.choices(legal, weights)[0]


@pytest.mark.parametrize("variant", list(Variant))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_motion_agrees_with_play(variant: Variant, players: int) -> None:
    rng = random.Random(f"{variant}-{players}")
    seen = {"full": 0, "scorings": 0, "ends": 0}
    for _ in range(12):
        game = Game(Rules(variant, players, action_limit=200), first=rng.randrange(players))
        while not game.state.is_over:
            state = game.state
            action = pick(state, state.legal_actions(), rng)
            m = motion(state, action)
            played, after = state.step(action)
            assert moved(state, action) == board_of(after), (state.position(), str(action))
            if isinstance(played, Insertion):
                seen["full"] += len(m.shifts) == 6
            else:
                seen["scorings"] += 1
                seen["ends"] += len(m.removed) == len(
                    next(o for o in state.scoring_options() if o.action == played).line.cells
                ) - (2 if players == 2 else 1)
            game.play(action)
    assert seen["full"] > 0
    if variant is not Variant.EXPRESS:
        assert seen["scorings"] > 0 and seen["ends"] == seen["scorings"]
