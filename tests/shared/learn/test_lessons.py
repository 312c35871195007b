"""Every step of every lesson (interfaces/shared/learn/lessons.py) against its goal:
its solution meets it, not every first try does, and each wrong first try is missed
with a reason that names it, in words of the catalogues."""

from __future__ import annotations

import pytest

from shiftago.core import State
from shiftago.interfaces.shared.learn import LESSONS, Status, Step, explain, judge, tryable
from shiftago.interfaces.shared.learn.lessons import Lesson

STEPS = [
    pytest.param(step, id=f"{lesson.id}-{number}")
    for lesson in LESSONS
    for number, step in enumerate(lesson.steps, 1)
]


def test_the_lessons_have_unique_addresses_and_a_few_steps_each() -> None:
    ids = [lesson.id for lesson in LESSONS]
    assert len(set(ids)) == len(ids)
    assert all(1 <= len(lesson.steps) <= 5 for lesson in LESSONS)
    assert all(lesson.id.replace("-", "").isalnum() and lesson.id.islower() for lesson in LESSONS)


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.id)
def test_a_lesson_s_closing_game_is_of_its_steps_variant_and_players(lesson: Lesson) -> None:
    """The lesson of four in a line with 3 or 4 players closed with a 2-player game,
    where four in a line does not win (a Dutch walk)."""
    kinds = {(step.start().rules.variant.value, step.start().players) for step in lesson.steps}
    assert (lesson.variant, lesson.players) in kinds


@pytest.mark.parametrize("step", STEPS)
def test_the_solution_of_each_step_meets_its_goal(step: Step) -> None:
    start = step.start()
    assert start.position() == State.from_position(step.position).position()
    verdict, tried = judge(start, step.check, step.solution)
    assert verdict.status is Status.MET, explain(verdict, str)
    assert [str(a) for a in tried.actions] == list(step.solution)


@pytest.mark.parametrize("step", STEPS)
def test_before_the_last_action_of_the_solution_the_player_goes_on(step: Step) -> None:
    start = step.start()
    for cut in range(1, len(step.solution)):
        verdict, tried = judge(start, step.check, step.solution[:cut])
        assert verdict.status is Status.GOING_ON
        assert tried.still_acting


@pytest.mark.parametrize("step", STEPS)
def test_every_first_try_is_judged_and_a_wrong_one_explained(step: Step) -> None:
    start = step.start()
    missed = 0
    for action in tryable(start, step.full_lanes):
        verdict, _ = judge(start, step.check, [action])
        if verdict.status is Status.MISSED:
            missed += 1
            words = explain(verdict, str)
            assert verdict.code not in ("met", "going_on")
            assert "%(" not in words and words.endswith(".")
    if step.check.actions == 1 or start.phase.value == "score":
        assert missed > 0 or len(tryable(start, step.full_lanes)) == 1


FULL_LANE_STEPS = [
    pytest.param(step, id=f"{lesson.id}-{number}")
    for lesson in LESSONS
    for number, step in enumerate(lesson.steps, 1)
    if step.full_lanes
]


def test_every_step_of_the_full_lane_lesson_lets_its_full_lanes_be_tried() -> None:
    """Its first step's grey arrows did nothing when tapped (a Dutch walk)."""
    lesson = next(lesson for lesson in LESSONS if lesson.id == "full")
    assert all(step.full_lanes for step in lesson.steps)


@pytest.mark.parametrize("step", FULL_LANE_STEPS)
def test_a_step_that_teaches_full_lanes_lets_them_be_tried_and_says_why_they_fail(
    step: Step,
) -> None:
    start = step.start()
    full = [a for a in tryable(start, True) if a not in {str(x) for x in start.legal_actions()}]
    assert full
    for action in full:
        verdict, tried = judge(start, step.check, [action])
        assert (verdict.status, verdict.code) == (Status.MISSED, "lane_full")
        assert tried.actions == () and tried.last == start  # the refused push changed nothing
