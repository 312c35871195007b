"""A tournament in the terminal app: the games won counted, F8 for the next game once
one has ended, the champion named, and the options that make no tournament."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Checkbox, Select, Static

from shiftago.core import Game, Rules, Tournament, Variant
from shiftago.interfaces.shared.newgame import PlaySetup, SetupError
from shiftago.interfaces.tui.clock import Clocks
from shiftago.interfaces.tui.match import Match, open_match
from shiftago.interfaces.tui.series import Series
from support.tui_pilot import app_for, autosave_in, run, settle


def play_out(match: Match, chooser: random.Random) -> None:
    while not match.game.is_over:
        match.play(chooser.choice(match.game.legal_actions()))


def test_f8_starts_the_next_game_until_a_player_has_won(tmp_path: Path) -> None:
    tournament = Tournament(2, seed=4, target=2)
    match = Match(tournament.game, autosave=autosave_in(tmp_path))
    match.tournament = tournament
    chooser = random.Random(1)
    app = app_for(match)
    games = 0

    async def scenario(pilot: Pilot[int]) -> None:
        nonlocal games
        await pilot.press("f8")  # the game has not ended: nothing happens
        assert match.game is tournament.game and not match.game.history
        for _game in range(20):
            play_out(match, chooser)
            app.changed()
            await settle(pilot)
            games += 1
            if match.champion is not None:
                break
            heading = str(app.query_one("#heading", Static).render())
            assert "F8 starts the tournament's next game." in heading
            await pilot.press("f8")
            await pilot.pause()
            assert not match.game.history and not match.game.is_over
        await pilot.press("f8")  # over: no next game
        await pilot.pause()

    run(app, scenario)
    champion = match.champion
    assert champion is not None
    assert match.wins is not None and match.wins[champion] == 2
    assert len(tournament.finished) == games - 1
    assert sum(f"Game {n} of the tournament" in " ".join(app.said) for n in range(2, 21)) == (
        games - 1
    )


def test_a_tournament_from_the_options(tmp_path: Path) -> None:
    match = open_match(PlaySetup(players=3, tournament=True, seed=2), autosave_in(tmp_path), None)
    assert match.tournament is not None and match.wins == [0, 0, 0]
    assert match.game is match.tournament.game


def test_a_tournament_is_of_express_games(tmp_path: Path) -> None:
    with pytest.raises(SetupError, match="Express"):
        open_match(PlaySetup(variant="expert", tournament=True), autosave_in(tmp_path), None)


def test_a_tournament_from_the_new_game_dialog(tmp_path: Path) -> None:
    game = Game(Rules(Variant.EXPERT, 3), first=0, seed=1)
    app = app_for(Match(game, autosave=autosave_in(tmp_path)))

    async def scenario(pilot: Pilot[int]) -> None:
        await pilot.press("f2")
        await pilot.pause()
        variant = app.screen.query_one("#variant", Select)
        assert variant.value == "expert" and not variant.disabled
        await pilot.click("#tournament")
        await pilot.pause()
        assert variant.value == "express" and variant.disabled  # a tournament is Express
        await pilot.click("#start")
        await settle(pilot)

    run(app, scenario)
    match = app.match
    assert match.tournament is not None and match.wins == [0, 0, 0]
    assert match.game is match.tournament.game
    assert match.game.rules.variant is Variant.EXPRESS and match.game.rules.players == 3


def test_the_variant_comes_back_when_the_tournament_is_unticked(tmp_path: Path) -> None:
    app = app_for(Match(Game(Rules(Variant.EXPERT, 3), first=0, seed=1)))

    async def scenario(pilot: Pilot[int]) -> None:
        await pilot.press("f2")
        await pilot.pause()
        variant = app.screen.query_one("#variant", Select)
        tournament = app.screen.query_one("#tournament", Checkbox)
        tournament.value = True
        await pilot.pause()
        assert (variant.value, variant.disabled) == ("express", True)
        tournament.value = False
        await pilot.pause()
        assert (variant.value, variant.disabled) == ("expert", False)

    run(app, scenario)


def test_a_game_lost_on_time_counts_and_the_next_one_starts_on_fresh_clocks(
    tmp_path: Path,
) -> None:
    tournament = Tournament(2, first=0, seed=4, target=3)
    match = Match(tournament.game, autosave=autosave_in(tmp_path))
    match.tournament = tournament
    match.clocks = Clocks.parse("1", 2)
    now = [1000.0]
    app = app_for(match, now=lambda: now[0])

    async def scenario(pilot: Pilot[int]) -> None:
        await pilot.press("enter")  # orange pushes at once
        await pilot.pause()
        now[0] += 61
        assert app.tick()  # green's flag falls: orange wins the game
        await settle(pilot)
        assert match.wins == [1, 0] and match.next_game_ready
        heading = str(app.query_one("#heading", Static).render())
        assert "F8 starts the tournament's next game." in heading
        await pilot.press("f8")
        await pilot.pause()

    run(app, scenario)
    assert tournament.wins == [1, 0] and tournament.results == [(0,)]
    assert match.flagged is None and not match.game.history
    assert match.game.first == 1  # the seat after the winner starts
    assert match.clocks is not None and match.clocks.left == [60.0, 60.0]
    assert any("Game 2 of the tournament" in said for said in app.said)


def test_a_series_with_a_game_lost_on_time_is_kept_and_read_back(tmp_path: Path) -> None:
    tournament = Tournament(3, first=0, seed=4)
    match = Match(tournament.game, autosave=autosave_in(tmp_path))
    match.tournament = tournament
    match.play(match.game.legal_actions()[0])
    match.flag(1)  # green's time runs out: orange and blue share the game
    match.next_game()
    match.play(match.game.legal_actions()[0])
    autosave = match.autosave
    assert autosave is not None
    text = autosave.read_series()
    assert text is not None
    rebuilt = Series.read(text).tournament()
    assert rebuilt.results == [(0, 2)] and rebuilt.wins == [0, 0, 0] and rebuilt.draws == 1
    assert rebuilt.game.history == match.game.history


def test_a_new_game_between_tournament_games_keeps_the_tournament(tmp_path: Path) -> None:
    """An Italian family typed an action after a tournament game, read "F2 starts a new
    one", and F2's new game replaced the four games of their tournament."""
    tournament = Tournament(2, first=0, seed=4, target=3)
    home = autosave_in(tmp_path)
    match = Match(tournament.game, autosave=home)
    match.tournament = tournament
    app = app_for(match)

    async def scenario(pilot: Pilot[int]) -> None:
        play_out(match, random.Random(1))
        match.saved()
        app.changed()
        await settle(pilot)
        assert home.series_path.is_file()
        before = home.series_path.read_text()
        await pilot.press(*"l1", "enter")  # an action typed on the finished game
        await pilot.pause()
        assert "The game is over: F8 starts the tournament's next game." in app.said
        await pilot.press("f2")
        await pilot.pause()
        await pilot.click("#start")
        await settle(pilot)
        kept = sorted(tmp_path.glob("**/tournament-*.json"))
        assert len(kept) == 1 and kept[0].read_text() == before
        assert f"The tournament so far is kept in {kept[0]}." in app.said

    run(app, scenario)
    assert Series.read(sorted(tmp_path.glob("**/tournament-*.json"))[0].read_text())
