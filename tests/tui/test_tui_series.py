"""A tournament kept beside the autosave (``tournament.json``): written with every
action, read back into the same series, offered and resumed by the app (also between
two games), refused when it does not replay, and gone once the tournament is won."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Label

from shiftago.core import Game, Rules, Tournament, Variant
from shiftago.formats.record import Record, format_record
from shiftago.interfaces.shared.newgame import PlaySetup
from shiftago.interfaces.tui.app import ShiftagoApp
from shiftago.interfaces.tui.match import Match, open_match, unfinished
from shiftago.interfaces.tui.run import prepare_app
from shiftago.interfaces.tui.series import Series, SeriesError
from support.tui_pilot import autosave_in, run, settle


def play_out(match: Match, chooser: random.Random) -> None:
    while not match.game.is_over:
        match.play(chooser.choice(match.game.legal_actions()))


def tournament_match(home: Path, players: int = 2, target: int = 10, **kwargs: object) -> Match:
    tournament = Tournament(players, seed=11, target=target, **kwargs)  # type: ignore[arg-type]
    match = Match(tournament.game, autosave=autosave_in(home))
    match.tournament = tournament
    return match


def two_games_and_a_half(match: Match) -> None:
    chooser = random.Random(5)
    for _game in range(2):
        play_out(match, chooser)
        match.next_game()
    for _action in range(3):
        match.play(chooser.choice(match.game.legal_actions()))


@pytest.mark.parametrize("first", [None, "g"])
def test_the_kept_series_rebuilds_the_same_tournament(tmp_path: Path, first: str | None) -> None:
    match = tournament_match(tmp_path, players=3, first=first, handicap=(0, 1, 0))
    two_games_and_a_half(match)
    autosave = match.autosave
    assert autosave is not None
    text = autosave.read_series()
    assert text is not None
    kept = Series.read(text)
    assert kept.first == (None if first is None else 1)
    original = match.tournament
    assert original is not None
    rebuilt = kept.tournament()
    assert rebuilt.wins == original.wins and rebuilt.seed == original.seed
    assert [g.history for g in rebuilt.finished] == [g.history for g in original.finished]
    assert rebuilt.game.history == original.game.history
    assert rebuilt.rules == original.rules
    # the lot goes on as it would have: the next drawn starter is the same
    assert rebuilt._lot.getstate() == original._lot.getstate()


def test_resuming_between_two_games_offers_the_next_one(tmp_path: Path) -> None:
    match = tournament_match(tmp_path)
    play_out(match, random.Random(2))  # the first game ends; F8 not pressed
    counted = match.wins
    autosave = match.autosave
    assert autosave is not None and not autosave.exists()
    saved = unfinished(autosave)
    assert saved is not None and saved.series is not None
    app = prepare_app(PlaySetup(), autosave)
    assert isinstance(app, ShiftagoApp)

    async def scenario(pilot: Pilot[int]) -> None:
        asked.extend(str(label.render()) for label in app.screen.query(Label))
        await pilot.press("y")
        await settle(pilot)
        assert app.match.next_game_ready
        await pilot.press("f8")
        await settle(pilot)

    asked: list[str] = []
    run(app, scenario)
    assert "It is game 1 of a tournament, which goes on with it." in asked
    resumed = app.match
    assert resumed.tournament is not None and len(resumed.tournament.finished) == 1
    assert resumed.tournament.wins == counted and not resumed.game.history
    assert "Game 2 of the tournament" in " ".join(app.said)


def test_a_resumed_game_of_a_tournament_keeps_the_series(tmp_path: Path) -> None:
    match = tournament_match(tmp_path)
    two_games_and_a_half(match)
    autosave = match.autosave
    assert autosave is not None
    saved = unfinished(autosave)
    assert saved is not None and saved.series is not None
    resumed = open_match(PlaySetup(), autosave, saved.record, saved.series)
    assert resumed.tournament is not None and match.tournament is not None
    assert resumed.wins == match.wins and len(resumed.tournament.finished) == 2
    assert resumed.game is resumed.tournament.game
    assert resumed.game.history == match.game.history


def test_the_series_is_gone_once_the_tournament_is_won(tmp_path: Path) -> None:
    match = tournament_match(tmp_path, target=1)
    autosave = match.autosave
    assert autosave is not None
    match.play(match.game.legal_actions()[0])
    assert autosave.read_series() is not None
    play_out(match, random.Random(3))
    assert match.champion is not None and autosave.read_series() is None


def test_a_game_that_is_no_tournament_replaces_the_series_at_its_first_action(
    tmp_path: Path,
) -> None:
    match = tournament_match(tmp_path)
    match.play(match.game.legal_actions()[0])
    autosave = match.autosave
    assert autosave is not None and autosave.read_series() is not None
    other = Match(Game(Rules(Variant.EXPERT, 2), first=0), autosave=autosave)
    other.saved()  # shown, nothing played yet: the series stays
    assert autosave.read_series() is not None
    other.play(other.game.legal_actions()[0])
    assert autosave.read_series() is None


def test_a_series_another_program_went_on_without_is_set_aside(tmp_path: Path) -> None:
    match = tournament_match(tmp_path)
    match.play(match.game.legal_actions()[0])
    autosave = match.autosave
    assert autosave is not None
    went_on = match.game.copy()  # as shiftago play goes on with the autosave alone
    went_on.play(went_on.legal_actions()[0])
    autosave.save(format_record(Record.from_game(went_on)))
    saved = unfinished(autosave)
    assert saved is not None and saved.series is None
    assert saved.record.to_game().history == went_on.history
    assert (autosave.directory / "tournament-stale.json").is_file()


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: d.update(version=9), "not a tournament file"),
        (lambda d: d.update(seed="x"), "whole number"),
        (lambda d: d.update(finished="x"), "a list"),
        (lambda d: d.update(first=0), "does not start as"),
        (lambda d: d.pop("current"), "cannot be read"),
        (lambda d: d.update(current="[Variant nonsense]"), "cannot be read"),
    ],
)
def test_a_series_that_does_not_replay_is_refused(change, words: str) -> None:
    tournament = Tournament(2, seed=11)
    assert tournament.game.first == 1  # so that first=0 names the wrong starter
    tournament.game.play(tournament.game.legal_actions()[0])
    data = json.loads(Series.of(tournament, [], Match(tournament.game).record()).text())
    change(data)
    with pytest.raises(SeriesError, match=words):
        Series.read(json.dumps(data))


def test_an_unreadable_series_is_moved_aside_and_not_offered(tmp_path: Path) -> None:
    autosave = autosave_in(tmp_path)
    autosave.save_series("{not json")
    assert unfinished(autosave) is None
    assert (autosave.directory / "tournament-broken.json").is_file()
