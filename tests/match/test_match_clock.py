"""Game clocks: time spent, the increment once per turn, correspondence days, the flag,
and the computer's budget per action."""

from __future__ import annotations

import pytest

from shiftago.core import Phase
from shiftago.match.clock import (
    DAY,
    Clock,
    TimeControl,
    TimeControlError,
    action_budget,
    parse_remaining,
    remaining_text,
)

BLITZ = TimeControl(180, 2)


def test_a_new_clock_gives_every_seat_the_initial_time_and_runs_for_the_first():
    clock = Clock.start(BLITZ, 3, 1, now=1000.0)
    assert clock.left(1000.0) == (180.0, 180.0, 180.0)
    assert clock.left(1010.5) == (180.0, 169.5, 180.0)
    assert clock.deadline == 1180.0


def test_the_time_spent_comes_off_and_the_increment_comes_on_when_the_turn_passes():
    clock = Clock.start(BLITZ, 2, 0, now=0.0).after(0, 1, now=12.0)
    assert clock.remaining == (170.0, 180.0)
    assert clock.running == 1 and clock.since == 12.0


def test_a_seat_that_acts_again_keeps_its_clock_running_without_an_increment():
    """Expert and Extreme: a scoring and the extra turn it earns are one turn's."""
    clock = Clock.start(BLITZ, 2, 0, now=0.0).after(0, 0, now=5.0).after(0, 0, now=9.0)
    assert clock.remaining == (171.0, 180.0) and clock.running == 0
    assert clock.after(0, 1, now=10.0).remaining == (172.0, 180.0)


def test_the_game_s_last_action_earns_no_increment():
    """No turn passes when the game ends: the final clocks showed an increment never
    earned (an Extreme walk)."""
    clock = Clock.start(BLITZ, 2, 0, now=0.0).after(0, None, now=4.0)
    assert clock.remaining == (176.0, 180.0) and clock.running is None


def test_correspondence_gives_each_turn_its_days():
    control = TimeControl(days=2)
    clock = Clock.start(control, 2, 0, now=0.0)
    clock = clock.after(0, 1, now=DAY)
    assert clock.remaining == (2 * DAY, 2 * DAY)  # a seat that has acted shows its days again
    clock = clock.after(1, 0, now=DAY + 100)
    assert clock.remaining == (2 * DAY, 2 * DAY)
    assert clock.deadline == DAY + 100 + 2 * DAY


def test_the_flag_falls_at_the_deadline_and_time_never_goes_below_zero():
    clock = Clock.start(TimeControl(60, 0), 2, 1, now=0.0)
    assert clock.flagged(59.9) is None
    assert clock.flagged(60.0) == 1
    assert clock.left(100.0) == (60.0, 0.0)


def test_a_stopped_clock_keeps_what_was_left():
    clock = Clock.start(TimeControl(60, 0), 2, 0, now=0.0).stopped(now=20.0)
    assert clock.running is None and clock.deadline is None
    assert clock.left(1000.0) == (40.0, 60.0)


@pytest.mark.parametrize(
    ("control", "text", "speed"),
    [
        (TimeControl(60, 0), "1+0", "bullet"),
        (TimeControl(180, 2), "3+2", "blitz"),
        (TimeControl(600, 5), "10+5", "rapid"),
        (TimeControl(30, 0), "0:30+0", "bullet"),
        (TimeControl(10, 2), "0:10+2", "bullet"),
        (TimeControl(90, 2), "1:30+2", "bullet"),
        (TimeControl(65.5, 0.5), "1:05.5+0.5", "bullet"),
        (TimeControl(1800, 20), "30+20", "classical"),
        (TimeControl(days=3), "3 days", "correspondence"),
    ],
)
def test_time_controls_read_as_sites_write_them(control, text, speed):
    assert str(control) == text and control.speed == speed
    assert TimeControl.parse(text) == control


@pytest.mark.parametrize("text", ["1:60+2", "a:10+2", ":10+2", "1:10:5+2", "1.5:10+0"])
def test_a_control_with_seconds_that_do_not_read_is_refused(text):
    with pytest.raises(TimeControlError):
        TimeControl.parse(text)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"initial": 5},
        {"initial": 4 * 3600},
        {"initial": 60, "increment": -1},
        {"initial": 60, "increment": 200},
        {"days": 0},
        {"days": 31},
        {"initial": 60, "days": 2},
    ],
)
def test_unplayable_time_controls_are_refused(kwargs):
    with pytest.raises(TimeControlError):
        TimeControl(**kwargs)


def test_remaining_round_trips_as_text():
    assert remaining_text((299.5, 300.0, 0.0004)) == "299.5,300,0"
    assert parse_remaining("299.5,300") == (299.5, 300.0)


@pytest.mark.parametrize("left", [0.0, 0.1, 0.5, 1.0, 5.0, 30.0, 60.0, 600.0])
@pytest.mark.parametrize("increment", [0.0, 2.0, 10.0])
def test_the_computer_budget_stays_inside_the_time_left(left, increment):
    budget = action_budget(left, increment)
    assert budget >= 0.02
    if left > 1.0:
        assert budget <= (left - 0.3) / 3


def test_a_whole_game_of_budgets_fits_in_the_clock():
    """Sixty turns spending each budget (and the safety margin) never run out."""
    for control in (TimeControl(60, 0), TimeControl(180, 2)):
        left = control.initial
        for _ in range(60):
            left -= action_budget(left, control.increment) + 0.1
            assert left > 0
            left += control.increment


@pytest.mark.parametrize(
    ("text", "control"),
    [
        ("3+2", TimeControl(180, 2)),
        ("1+0", TimeControl(60, 0)),
        (" 0.5+0.1 ", TimeControl(30, 0.1)),
        ("10+5", TimeControl(600, 5)),
        ("2 days", TimeControl(days=2)),
        ("1 day", TimeControl(days=1)),
    ],
)
def test_a_time_control_reads_from_its_text(text, control):
    assert TimeControl.parse(text) == control
    assert TimeControl.parse(str(control)) == control


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("3", "minutes\\+seconds"),
        ("3+", "minutes\\+seconds"),
        ("three+2", "minutes\\+seconds"),
        ("3+2+1", "minutes\\+seconds"),
        ("inf+0", "minutes\\+seconds"),
        ("0.1+0", "initial time must be 10 seconds"),
        ("3+200", "increment must be 0 to 180"),
        ("two days", "whole number"),
        ("40 days", "days per turn must be 1 to 30"),
    ],
)
def test_a_time_control_that_does_not_read_says_why(text, message):
    with pytest.raises(TimeControlError, match=message):
        TimeControl.parse(text)


def test_no_increment_is_counted_on_after_a_scoring() -> None:
    control = TimeControl(60, 5)
    assert control.increment_after(Phase.INSERT) == 5.0
    assert control.increment_after(Phase.SCORE) == 0.0  # the turn goes on after it
