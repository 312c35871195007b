"""The goals' checks (interfaces/shared/learn/goals.py) on positions of their own:
what meets each goal, what misses it and the reason given, and tries that are not
tries (text that is no action, an illegal action before the last, actions after the
step was decided) refused without a verdict."""

from __future__ import annotations

import pytest

from shiftago.core import State
from shiftago.interfaces.shared.learn import Status, TryError, explain, judge
from shiftago.interfaces.shared.learn.goals import (
    Block,
    Keep,
    Occupy,
    ReachPoints,
    ScoreBest,
    ScoreLength,
    Win,
)
from shiftago.interfaces.shared.learn.setup import position


def start(variant: str, players: int, marbles: str, **fields: object) -> State:
    return State.from_position(position(variant, players, marbles, **fields))  # type: ignore[arg-type]


def test_a_push_that_moves_the_marbles_out_of_line_says_so() -> None:
    # orange a4-d4; Ta pushes a7-a4 down: a4 goes to a3 and the run on rank 4 shrinks
    state = start("express", 2, "a4:o b4:o c4:o d4:o a5:g a6:g a7:g f6:g")
    verdict, _ = judge(state, Win(), ["Ta"])
    assert (verdict.status, verdict.code) == (Status.MISSED, "moved_away")
    assert verdict.values["length"] == 3 and verdict.values["need"] == 5
    assert explain(verdict, str) == (
        "Ta moves your marbles out of line: your longest line now has 3 marbles, and 5 are needed."
    )


def test_a_push_that_makes_no_line_says_how_long_the_longest_is() -> None:
    state = start("express", 2, "a4:o b4:o c4:o d4:o f6:g")
    verdict, _ = judge(state, Win(), ["Tg"])
    assert (verdict.code, verdict.values["length"]) == ("no_line", 4)
    assert judge(state, Win(), ["L4"])[0].status is Status.MET


def test_blocking_names_the_reply_that_still_wins_and_a_line_given_away() -> None:
    state = start("express", 2, "b5:g c5:g d5:g e5:g c3:o f2:o")
    left, _ = judge(state, Block(), ["Tg"])
    assert left.code == "threat_left"
    assert (left.values["colour"], left.values["reply"]) == ("g", "L5")
    german = {"green": "Grün"}
    assert explain(left, lambda words: german.get(words, words)).startswith(
        "Grün can still complete a line: after your Tg, Grün plays L5 and makes a5-e5"
    )
    # the colour inside the sentence is the in-sentence word, the sentence's first letter
    # upper case (a Dutch walk read "Groen" mid-sentence)
    assert explain(left, lambda words: words) == (
        "Green can still complete a line: after your Tg, green plays L5 and makes a5-e5."
    )
    assert judge(state, Block(), ["L5"])[0].status is Status.MET
    # orange's push moves green's b4 onto c4: green's file c is complete
    gift = start("express", 2, "c1:g c2:g c3:g c5:g a4:o b4:g f6:o")
    verdict, _ = judge(gift, Block(), ["L4"])
    assert verdict.code == "gives_line"
    assert (verdict.values["start"], verdict.values["end"]) == ("c1", "c5")


def test_occupy_wants_the_players_marble_or_any_marble() -> None:
    state = start("express", 2, "d4:g e5:o")
    assert judge(state, Occupy(("c1",)), ["Bc"])[0].status is Status.MET
    verdict, _ = judge(state, Occupy(("c1",)), ["L1"])
    assert (verdict.code, verdict.values["cell"]) == ("not_on_cell", "c1")
    assert judge(state, Occupy(("a1",), own=False), ["Bc"])[0].code == "still_empty"


def test_score_best_compares_the_points_of_the_lines() -> None:
    state = start(
        "expert", 2, "a2:o b2:o c2:o d2:o e2:o f2:o a3:o a4:o a5:o a6:o c5:g", phase="score"
    )
    verdict, _ = judge(state, ScoreBest(), ["xa2-a6"])
    assert verdict.code == "fewer_points"
    assert (verdict.values["points"], verdict.values["best"]) == (2, 5)
    assert judge(state, ScoreBest(), ["xa2-f2"])[0].status is Status.MET


def test_points_are_reached_over_a_turn_that_goes_on_after_scoring() -> None:
    state = start("expert", 2, "a1:o b1:o c1:o d1:o e1:o g2:o g3:o g4:o g5:o b5:g", phase="score")
    goal = ReachPoints(4, actions=3)
    assert judge(state, goal, ["xa1-e1"])[0].status is Status.GOING_ON
    assert judge(state, goal, ["xa1-e1", "R1"])[0].status is Status.GOING_ON  # g1: a line
    verdict, tried = judge(state, goal, ["xa1-e1", "Tc"])  # no line: the turn passes
    assert verdict.code == "no_line" and not tried.still_acting
    assert verdict.values["need"] == 5  # 2 points more: a line of 5 makes them
    assert judge(state, goal, ["xa1-e1", "Bg", "xg1-g5"])[0].status is Status.MET


def test_a_push_short_of_the_points_wanted_names_the_line_that_makes_them() -> None:
    """5 points in Expert with 2 players want a line of 6: the refusal says 6, not the 5
    that scores least."""
    state = start("expert", 2, "b3:o c3:o d3:o f3:o g3:o e1:g e2:o c6:g d5:g f6:g")
    verdict, _ = judge(state, ReachPoints(5), ["L3"])
    assert (verdict.code, verdict.values["need"]) == ("no_line", 6)
    assert explain(verdict, str) == "L3 makes no line of 6: your longest line has 4 marbles."


def test_keep_names_the_end_that_stayed() -> None:
    state = start("expert", 3, "c2:g c3:g c4:g c5:g d3:o e4:b", turn="g", phase="score")
    verdict, _ = judge(state, Keep("c5"), ["xc2-c5"])
    assert (verdict.code, verdict.values["kept"]) == ("kept_other", "c2")
    assert judge(state, Keep("c5"), ["xc5-c2"])[0].status is Status.MET


def test_keep_with_spared_marbles_refuses_a_line_that_takes_them_off() -> None:
    """The end kept is right, but the line scored (the diagonal c4-f7, not file c) takes
    off the marbles the kept end was to build on."""
    state = start("expert", 3, "c2:g c3:g c4:g d5:g e6:g a1:o f2:b b6:o g5:b", turn="g")
    goal = Keep("c4", spared=("d5", "e6"))
    verdict, _ = judge(state, goal, ["Tf", "xc4-f7"])
    assert (verdict.code, verdict.values["cells"]) == ("taken_off", "d5, e6")
    assert judge(state, goal, ["Bc", "xc4-c1"])[0].status is Status.MET


def test_score_length_wants_a_line_of_that_length() -> None:
    state = start("extreme", 2, "b2:o c2:o d2:o c5:g")
    assert judge(state, ScoreLength(4), ["L2"])[0].status is Status.GOING_ON
    assert judge(state, ScoreLength(4), ["L2", "xa2-d2"])[0].status is Status.MET
    assert judge(state, ScoreLength(4), ["Tg"])[0].code == "no_line"


def test_a_handicap_gives_the_player_pushes_in_a_row() -> None:
    state = start("express", 2, "c4:o d4:o b6:g f2:g", skips=(0, 2))
    goal = Win(actions=3)
    assert judge(state, goal, ["L4", "L4"])[0].status is Status.GOING_ON
    assert judge(state, goal, ["L4", "L4", "L4"])[0].status is Status.MET
    verdict, tried = judge(state, goal, ["Tg", "Tg", "Tg"])
    assert verdict.code == "no_win_in_time" and tried.last.turn == 1
    # a push after which no two pushes make the line is missed at once, not "right so
    # far": taking it back leaves a position the step is still won from
    verdict, tried = judge(state, goal, ["Bd"])
    assert (verdict.code, verdict.values) == ("out_of_reach", {"action": "Bd"})
    assert explain(verdict, str) == (
        "After Bd the goal is out of reach: no actions you have left can meet it."
    )
    assert judge(state, goal, ["L4", "Bd"])[0].code == "out_of_reach"


def test_refused_actions_are_explained_by_cause() -> None:
    scoring = start("expert", 2, "a1:o b1:o c1:o d1:o e1:o b5:g", phase="score")
    assert judge(scoring, ScoreLength(5, actions=1), ["L3"])[0].code == "score_first"
    assert judge(scoring, ScoreLength(5, actions=1), ["xa2-e2"])[0].code == "no_such_line"
    pushing = start("expert", 2, "a1:o b5:g")
    assert judge(pushing, ScoreLength(5), ["xa1-e1"])[0].code == "nothing_to_score"
    # only orange's marbles on the board (green skips): they may not touch
    alone = start("express", 2, "c2:o", skips=(0, 1))
    assert judge(alone, Win(actions=3), ["Bc"])[0].code == "apart"
    # Tc is legal; with one marble and two pushes left no line of 5 can come
    assert judge(alone, Win(actions=3), ["Tc"])[0].code == "out_of_reach"


@pytest.mark.parametrize(
    "tried",
    [[], ["zz"], ["L9"], ["xa1-e1", "L3"], ["L4", "L3"]],
    ids=["nothing", "not-an-action", "no-lane", "illegal-before-last", "after-the-end"],
)
def test_what_is_not_a_try_is_refused(tried: list[str]) -> None:
    state = start("expert", 2, "a4:o b4:o c4:o d4:o b5:g")
    goal = Win() if tried[:1] == ["L4"] else ScoreLength(5)
    if tried[:1] == ["L4"]:
        state = start("express", 2, "a4:o b4:o c4:o d4:o b5:g")
    with pytest.raises(TryError):
        judge(state, goal, tried)


def test_a_line_already_there_is_named_as_left_standing_not_as_made() -> None:
    # the rulebook's example 2: orange made green's line of 4; blue must break it
    state = start("express", 3, "b3:g c3:g d3:g e3:g c4:o c5:b c6:o c7:g a6:b f5:o", turn="b")
    verdict, _ = judge(state, Block(), ["L1"])
    assert verdict.code == "line_left"
    assert (verdict.values["colour"], verdict.values["start"]) == ("g", "b3")
    assert judge(state, Block(), ["Tc"])[0].status is Status.MET  # c3 shifted to c2
