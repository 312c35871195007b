"""The puzzle prover and its judge (engine/puzzles): hand-made positions whose proofs are
worked out by hand, the rule that a puzzle has one first action, the scoring counted as
an action, the defence, and the judging of attempts."""

from __future__ import annotations

import random

import pytest

from shiftago.core import Action, Rules, State, Variant
from shiftago.core.errors import IllegalActionError
from shiftago.engine.puzzles.generate import Harvest, symmetry_key
from shiftago.engine.puzzles.harvest import candidates, self_play
from shiftago.engine.puzzles.puzzle import Puzzle
from shiftago.engine.puzzles.shipped import shipped
from shiftago.engine.puzzles.solving import (
    ProofUnknown,
    check_puzzle,
    judge,
    prove,
    solution_line,
)
from support.puzzle_reference import reaches

# Orange has a1, b2, d4 and e5 of the diagonal and b3 behind green's a3: only L3 pushes
# orange's b3 into c3 (no insertion lands on c3 directly), the diagonal a1-e5 is then
# five, and no other insertion makes any line of five.
ONE_WIN = "express 2 7/7/4o2/3o3/go5/1o5/o6 o insert 17,21 0,0 0,0"
# Orange a1-d1: L1 (the run pushed to b1-e1) and Be (a marble on e1) both make five.
TWO_WINS = "express 2 7/7/7/7/7/7/oooo3 o insert 18,22 0,0 0,0"
# The same in Expert with 8 points: the line of five is worth 2, so the 10th point
# takes the insertion and then the scoring, two actions.
EXPERT_TWO = "expert 2 7/7/7/7/7/7/oooo2g o insert 18,21 8,0 0,0"


def test_a_win_in_one_with_one_winning_push_is_a_puzzle() -> None:
    proof = prove(State.from_position(ONE_WIN), 3)
    assert proof.fewest == 1
    assert [str(a) for a in proof.firsts] == ["L3"]
    assert proof.is_puzzle
    assert [str(a) for a in solution_line(State.from_position(ONE_WIN), 1)] == ["L3"]


def test_two_winning_first_actions_make_no_puzzle() -> None:
    proof = prove(State.from_position(TWO_WINS), 3)
    assert proof.fewest == 1
    assert sorted(str(a) for a in proof.firsts) == ["Be", "L1"]
    assert not proof.is_puzzle
    claimed = Puzzle("x", TWO_WINS, 1, ("L1",), ("win-in-1",), 1000)
    problem = check_puzzle(claimed)
    assert problem is not None and "2 first actions" in str(problem)


def test_the_check_refuses_a_wrong_length_and_a_wrong_first_action() -> None:
    assert check_puzzle(Puzzle("x", ONE_WIN, 1, ("L3",), ("win-in-1",), 1000)) is None
    wrong_length = check_puzzle(Puzzle("x", ONE_WIN, 2, ("L3",), ("win-in-2",), 1000))
    assert wrong_length is not None and "win in 1" in str(wrong_length)
    wrong_first = check_puzzle(Puzzle("x", ONE_WIN, 1, ("R3",), ("win-in-1",), 1000))
    assert wrong_first is not None and "L3" in str(wrong_first)


def test_a_scoring_is_one_of_the_solvers_actions() -> None:
    state = State.from_position(EXPERT_TWO)
    assert prove(state, 1).fewest is None
    proof = prove(state, 2)
    assert proof.fewest == 2
    assert {str(a) for a in proof.firsts} == {"L1", "Be"}


def test_a_win_in_two_is_played_through_the_judge_with_its_defence() -> None:
    """A win in 2 found by self-play: the judge answers the first action with the
    solution's defence, and the second action solves it."""
    rng = random.Random(5)
    harvest = Harvest(most=2)
    while not any(p.actions == 2 for p in harvest.puzzles):
        for s in candidates(self_play(Rules(Variant.EXPRESS, 2), rng)):
            harvest.consider(s, "test")
    puzzle = next(p for p in harvest.puzzles if p.actions == 2)
    assert check_puzzle(puzzle) is None
    first, defence, second = puzzle.solution
    halfway = judge(puzzle.state, 2, [first])
    assert (halfway.correct, halfway.solved, halfway.solution) == (True, False, None)
    assert [str(a) for a in halfway.reply] == [defence]
    done = judge(puzzle.state, 2, [first, second])
    assert (done.correct, done.solved) == (True, True)
    assert [str(a) for a in done.solution or []] == list(puzzle.solution)
    # after the defence the solver still wins at once, whatever the defence was
    state = puzzle.state.after(Action.parse(first))
    assert prove(state.after(Action.parse(defence)), 1).fewest == 1


def test_a_node_budget_stops_the_prover() -> None:
    state = State.initial(Rules(Variant.EXPRESS, 2), 0)
    with pytest.raises(ProofUnknown):
        prove(state, 3, nodes=50)


def test_the_judge_follows_the_solution_and_fails_a_wrong_action() -> None:
    state = State.from_position(ONE_WIN)
    right = judge(state, 1, ["L3"])
    assert (right.correct, right.solved, right.reply) == (True, True, [])
    assert [str(a) for a in right.solution or []] == ["L3"]
    wrong = judge(state, 1, ["R3"])
    assert (wrong.correct, wrong.solved) == (False, False)
    assert [str(a) for a in wrong.solution or []] == ["L3"]
    assert len(wrong.reply) == 1  # the refutation: green's reply


def test_a_wrong_action_that_hands_the_other_seat_a_win_wins_in_nothing() -> None:
    """ONE_WIN with green's four on rank 7: R1 neither wins nor touches rank 7, so
    green's L7 makes a7-e7 five and wins; no slower win is claimed."""
    state = State.from_position("express 2 gggg3/7/4o2/3o3/go5/1o5/o6 o insert 17,17 0,0 0,0")
    wrong = judge(state, 1, ["R1"])
    assert (wrong.correct, wrong.wins_in) == (False, None)
    assert [str(a) for a in wrong.reply] == ["L7"]
    assert judge(state, 1, ["L3"]).wins_in is None  # the right action: nothing to say


def test_a_refutation_s_reply_also_stops_the_goal_one_action_later() -> None:
    """After a wrong first action every reply keeps the goal out of the one action
    left; the refutation R4 chosen among them left L5 xa1-a7 on the board, a win one
    action too late that refuted nothing to a Dutch walk. The reply chosen now stops
    that too (checked by the reference prover)."""
    position = "expert 2 ogg1ggo/o6/g4oo/o1g3g/o4og/oo4g/o1o1goo o insert 8,12 4,8 0,0"
    state = State.from_position(position)
    verdict = judge(state, 2, ["L1"])
    assert not verdict.correct and verdict.wins_in is None
    after = state.after(Action.parse("L1"))
    assert reaches(after.after(Action.parse("R4")), 0, 2)  # the old refutation's board
    for reply in verdict.reply:
        after = after.after(reply)
    assert not reaches(after, 0, 2)


def test_a_wrong_action_that_still_wins_says_in_how_many_actions() -> None:
    """A shipped win in 2 whose L3 wins only in 3: after the defence's answer the
    prover finds the win in 2 more of the solver's actions, and not in 1."""
    puzzle = next(p for p in shipped() if p.id == "express-2-f8e1d9c9e2")
    wrong = judge(puzzle.state, 2, ["L3"])
    assert (wrong.correct, wrong.solved, wrong.wins_in) == (False, False, 3)
    after = puzzle.state.after(Action.parse("L3"))
    for action in wrong.reply:
        after = after.after(action)
    assert after.turn == puzzle.state.turn
    assert prove(after, 2).fewest == 2


@pytest.mark.parametrize("tried", [["Q9"], ["L3", "L1"], ["xa1-e1"]])
def test_the_judge_refuses_actions_that_cannot_be_played(tried: list[str]) -> None:
    with pytest.raises(IllegalActionError):
        judge(State.from_position(ONE_WIN), 1, tried)


def test_symmetric_positions_share_a_key() -> None:
    mirrored = "express 2 7/7/2o4/3o3/5og/5o1/6o o insert 17,21 0,0 0,0"
    assert symmetry_key(State.from_position(ONE_WIN)) == symmetry_key(State.from_position(mirrored))
    assert symmetry_key(State.from_position(ONE_WIN)) != symmetry_key(State.from_position(TWO_WINS))
