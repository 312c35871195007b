"""``shiftago tui`` and ``shiftago play``'s choice between the app and the line game."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from click.testing import CliRunner

from shiftago.core import Action, Game, Rules, Variant
from shiftago.interfaces.cli import cli
from shiftago.interfaces.cli.play import wants_app
from shiftago.interfaces.shared.newgame import PlaySetup, SetupError
from shiftago.interfaces.tui.app import ShiftagoApp
from shiftago.interfaces.tui.match import Match
from shiftago.interfaces.tui.run import prepare_app
from support.tui_pilot import autosave_in


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_play_opens_the_app_only_at_a_terminal_and_not_with_plain() -> None:
    assert wants_app(False, Terminal(), Terminal())
    assert not wants_app(True, Terminal(), Terminal())
    assert not wants_app(False, io.StringIO(), Terminal())  # piped input
    assert not wants_app(False, Terminal(), io.StringIO())  # piped output


def test_play_plain_is_the_line_game(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        cli,
        ["play", "--plain", "--new", "--first", "o"],
        input="L1\nquit\n",
        env={"SHIFTAGO_HOME": str(tmp_path)},
    )
    assert result.exit_code == 0, result.output
    assert "orange plays L1" in result.output


def test_tui_takes_the_options_of_play() -> None:
    result = CliRunner().invoke(cli, ["tui", "--help"])
    assert result.exit_code == 0
    for option in ("--variant", "--players", "--computer", "--level", "--load", "--lang"):
        assert option in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--lang", "xx"], "unknown language 'xx'"),
        (["--load", "no-such-file.txt"], "no-such-file.txt"),
        (["-c", "w"], "'w' has no seat with 2 players: the seats are o (orange), g (green)"),
        (["-c", "v"], "unknown colour 'v'"),
        (["--level", "99", "-c", "g"], "level"),
        (["-c", "g:9"], "'g:9': the level after the colon is a number from 1 to 7"),
        (["--clock", "soon"], "not a time control"),
    ],
)
def test_tui_refuses_options_that_make_no_game(
    tmp_path: Path, args: list[str], message: str
) -> None:
    result = CliRunner().invoke(cli, ["tui", *args], env={"SHIFTAGO_HOME": str(tmp_path)})
    assert result.exit_code == 2
    assert message in result.output


def test_two_computer_seats_at_their_own_levels(tmp_path: Path) -> None:
    from shiftago.interfaces.shared.autosave import Autosave
    from shiftago.interfaces.shared.newgame import PlaySetup
    from shiftago.interfaces.tui.run import prepare_app

    setup = PlaySetup(players=3, computer=("g:2", "b:4"), level=6, resume=False)
    app = prepare_app(setup, Autosave(tmp_path))
    assert app.match.levels == {1: 2, 2: 4}


def test_a_loaded_game_moves_the_unfinished_one_aside(tmp_path: Path) -> None:
    autosave = autosave_in(tmp_path)
    unfinished = Match(Game(Rules(Variant.EXPRESS, 2), first=0, seed=1), autosave=autosave)
    unfinished.play(Action.parse("L1"))
    record = tmp_path / "game.txt"
    other = Match(Game.from_actions(Rules(Variant.EXPERT, 2), ["Ta", "Tb"], first=1))
    other.save_to(record)
    app = prepare_app(PlaySetup(load=record), autosave)
    assert isinstance(app, ShiftagoApp)
    assert [str(a) for a in app.match.game.history] == ["Ta", "Tb"]
    assert not autosave.exists()
    kept = list(autosave.directory.glob("autosave-*.txt"))
    assert len(kept) == 1 and "L1" in kept[0].read_text()
    assert str(kept[0]) in app.notices[0]


def test_a_finished_record_is_refused(tmp_path: Path) -> None:
    game = Game(Rules(Variant.EXPRESS, 2), first=0, seed=1)
    for action in ("L1", "L7", "L2", "L7", "L3", "L7", "L4", "L7", "L5"):
        game.play(action)
    assert game.is_over
    record = tmp_path / "done.txt"
    Match(game).save_to(record)
    with pytest.raises(SetupError, match="the game ended"):
        prepare_app(PlaySetup(load=record), autosave_in(tmp_path))


def test_tui_speaks_the_language_asked_for(
    fixture_catalogues: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from shiftago.interfaces.shared import catalogues
    from shiftago.interfaces.tui import run as tui_run

    chosen: list[str] = []

    def fake_run(setup: PlaySetup) -> int:
        chosen.append(catalogues.current_language())
        return 0

    monkeypatch.setattr(tui_run, "run_tui", fake_run)
    try:
        result = CliRunner().invoke(
            cli,
            ["tui", "--lang", "de"],
            # LANGUAGE is given so that the runner puts it back: --lang sets it for Click
            env={"SHIFTAGO_HOME": str(tmp_path), "LANG": "C", "LANGUAGE": ""},
        )
    finally:
        catalogues.use_language("en")
    assert result.exit_code == 0, result.output
    assert chosen == ["de"]
