"""The clocks of a timed game: parsed, run, switched with the increment, flagged; and
the app ending a game on time. Time is handed in, never waited for."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot

from shiftago.core import Game, Rules, Variant
from shiftago.formats.record import parse_record
from shiftago.interfaces.tui.clock import Clocks, shown
from shiftago.interfaces.tui.match import Match
from support.tui_pilot import app_for, autosave_in, run, settle


def test_a_time_control_of_minutes_and_seconds() -> None:
    clocks = Clocks.parse("5+3", 3)
    assert clocks.left == [300.0, 300.0, 300.0] and clocks.increment == 3.0
    assert Clocks.parse(" 0.5 ", 2).left == [30.0, 30.0]


@pytest.mark.parametrize("text", ["", "0", "five", "5+", "-1", "5+3+1"])
def test_a_time_control_that_is_not_one(text: str) -> None:
    with pytest.raises(ValueError, match="not a time control"):
        Clocks.parse(text, 2)


def test_the_running_clock_counts_down_and_the_turn_adds_the_increment() -> None:
    clocks = Clocks.parse("1+2", 2)
    clocks.switch(0, now=100.0, turn_ended=False)
    assert clocks.left_of(0, 130.0) == 30.0 and clocks.left_of(1, 130.0) == 60.0
    clocks.switch(1, now=130.0, turn_ended=True)
    assert clocks.left_of(0, 500.0) == 32.0  # stopped, with its increment
    clocks.switch(1, now=140.0, turn_ended=False)  # a scoring: the same seat goes on
    assert clocks.left_of(1, 140.0) == 50.0
    assert clocks.flagged(189.0) is None
    assert clocks.flagged(190.0) == 1
    assert clocks.left_of(1, 999.0) == 0.0


def test_the_faces_of_the_clocks() -> None:
    assert shown(245.2) == "4:05"
    assert shown(9.44) == "0:09.4"
    assert shown(3725) == "1:02:05"


def test_the_app_ends_the_game_when_the_time_runs_out(tmp_path: Path) -> None:
    game = Game(Rules(Variant.EXPRESS, 2), first=0, seed=1)
    match = Match(game, autosave=autosave_in(tmp_path))
    match.clocks = Clocks.parse("1", 2)
    now = [1000.0]
    app = app_for(match, now=lambda: now[0])

    async def scenario(pilot: Pilot[int]) -> None:
        now[0] += 20
        await pilot.press("enter")  # orange pushes at Ta after 20 seconds
        await pilot.pause()
        assert match.clocks is not None and match.clocks.left_of(0, now[0]) == 40.0
        now[0] += 61
        assert app.tick()  # green's flag falls
        await settle(pilot)
        await pilot.press("enter")  # nothing is played after the flag
        await pilot.pause()

    run(app, scenario)
    assert match.flagged == 1 and len(game.history) == 1
    assert "green's time has run out." in app.said
    autosave = match.autosave
    assert autosave is not None and not autosave.exists()
    kept = parse_record(autosave.last_game_path.read_text())
    assert kept.result == "o" and kept.termination == "time"
