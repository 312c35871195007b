"""The clocks of a timed game: parsed, run, switched with the increment, flagged; and
the app ending a game on time. Time is handed in, never waited for."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, Static

from shiftago.core import Action, Game, Rules, Variant
from shiftago.formats.record import parse_record
from shiftago.interfaces.shared.newgame import PlaySetup
from shiftago.interfaces.tui.app import ShiftagoApp
from shiftago.interfaces.tui.clock import Clocks, shown
from shiftago.interfaces.tui.match import Match
from shiftago.interfaces.tui.run import prepare_app
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
        command = app.query_one("#command", Input)
        command.value = "L4"
        command.focus()
        await pilot.press("enter")  # nor typed: the game is over, not the action wrong
        await pilot.pause()
        heading.append(str(app.query_one("#heading", Static).render()))
        # no seat marked to act, no lane lit but the last one played
        seats_text = str(app.query_one("#seats", Static).render())
        board_text = str(app.board.render())
        lit.append((seats_text.count("▶"), sum(board_text.count(g) for g in "▶◀▲▼")))
        record.append(app.query_one("#record-box").display)

    heading: list[str] = []
    record: list[bool] = []
    lit: list[tuple[int, int]] = []
    run(app, scenario)
    assert match.flagged == 1 and len(game.history) == 1
    assert "Green's time has run out." in app.said
    assert app.said[-1] == "The game is over: F2 starts a new one."
    assert heading[0].endswith("Game over: green's time has run out; orange wins.")
    assert record == [True]  # the record, with the review's marks, is shown
    assert lit == [(0, 1)]
    autosave = match.autosave
    assert autosave is not None and not autosave.exists()
    kept = parse_record(autosave.last_game_path.read_text())
    assert kept.result == "o" and kept.termination == "time"


def test_the_clocks_are_kept_in_headers_and_read_back() -> None:
    clocks = Clocks.parse("5+3", 2)
    clocks.switch(0, now=0.0, turn_ended=False)
    clocks.switch(1, now=21.65, turn_ended=True)
    headers = clocks.headers(now=30.65)
    assert headers == (("TimeControl", "300+3"), ("Clocks", "281.4,291"))
    again = Clocks.from_headers(dict(headers), 2)
    assert again is not None
    assert again.left == [281.4, 291.0] and again.increment == 3.0 and again.control == "5+3"
    assert again.running is None  # nobody's clock runs until the game is shown again
    assert Clocks.from_headers({"Site": "Berlin"}, 2) is None


@pytest.mark.parametrize(
    "headers",
    [
        {"TimeControl": "300+3"},
        {"Clocks": "10,10"},
        {"TimeControl": "300", "Clocks": "10,10"},
        {"TimeControl": "0+3", "Clocks": "10,10"},
        {"TimeControl": "300+3", "Clocks": "10,10,10"},
        {"TimeControl": "300+3", "Clocks": "10,-1"},
    ],
)
def test_clocks_headers_that_cannot_be_read_are_refused(headers: dict[str, str]) -> None:
    with pytest.raises(ValueError, match="clocks cannot be read"):
        Clocks.from_headers(headers, 2)


def test_a_resumed_timed_game_goes_on_with_the_time_each_seat_had(tmp_path: Path) -> None:
    now = [500.0]
    match = Match(Game(Rules(Variant.EXPRESS, 2), first=0, seed=1), autosave=autosave_in(tmp_path))
    match.clocks = Clocks.parse("1+2", 2)
    match.now = lambda: now[0]
    match.clocks.switch(0, now[0], turn_ended=False)
    now[0] += 20
    match.play(Action.parse("L3"))  # orange thought 20 s: 40 left, 42 with the increment
    now[0] += 5
    match.play(Action.parse("R3"))  # green 5 s: 57 left
    autosave = match.autosave
    assert autosave is not None
    kept = parse_record(autosave.read())
    assert dict(kept.other_headers) == {"TimeControl": "60+2", "Clocks": "42,57"}
    now[0] += 3600  # the program was closed for an hour: nobody's time
    app = prepare_app(PlaySetup(), autosave)
    assert isinstance(app, ShiftagoApp)
    app.now = lambda: now[0]

    async def scenario(pilot: Pilot[int]) -> None:
        await pilot.press("y")
        await settle(pilot)
        now[0] += 10
        assert app.match.clocks is not None
        assert app.match.clocks.left_of(0, now[0]) == 32.0  # orange's runs again
        assert app.match.clocks.left_of(1, now[0]) == 57.0

    run(app, scenario)
    assert app.match.clocks is not None and app.match.clocks.control == "1+2"


def test_in_a_replay_the_clocks_tick_on_the_position_shown(tmp_path: Path) -> None:
    """The clocks' redraw each second painted the game's panel over the replay's: at
    the replay's start every seat showed the marbles left now (a German walk)."""
    game = Game.from_actions(Rules(Variant.EXPRESS, 3), ["Bd", "L7", "Be"], first=0)
    match = Match(game, autosave=autosave_in(tmp_path))
    match.clocks = Clocks.parse("5+3", 3)
    now = [1000.0]
    app = app_for(match, now=lambda: now[0])
    panels: list[str] = []

    async def scenario(pilot: Pilot[int]) -> None:
        await pilot.press("f7", "home")
        now[0] += 1
        assert not app.tick()
        await pilot.pause()
        panels.append(str(app.query_one("#seats", Static).render()))

    run(app, scenario)
    (panel,) = panels
    assert panel.count("22 marbles left") == 3, panel
