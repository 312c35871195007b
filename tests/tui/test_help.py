"""The terminal app's help (F1): how to play in the player's language, over the game and
never over a question; F1 or Escape closes it."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Static

from shiftago.core import Action, Game, Rules, Variant
from shiftago.interfaces.shared import catalogues
from shiftago.interfaces.tui.app import ShiftagoApp
from shiftago.interfaces.tui.dialogs import HELP, HelpScreen, NewGameScreen
from shiftago.interfaces.tui.match import Match
from support.tui_pilot import app_for, autosave_in, run, settle


def app_in(home: Path) -> ShiftagoApp:
    return app_for(Match(Game(Rules(Variant.EXPRESS, 2), first=0), autosave=autosave_in(home)))


def shown_help(app: ShiftagoApp) -> list[str]:
    """The paragraphs of the help on the screen, or [] when it is not there."""
    if not isinstance(app.screen, HelpScreen):
        return []
    return [str(widget.render()) for widget in app.screen.query(Static) if widget.id is None]


def help_after(app: ShiftagoApp, *presses: tuple[str, ...]) -> list[list[str]]:
    """The help's paragraphs after each group of ``presses`` (none when it is closed)."""
    seen: list[list[str]] = []

    async def scenario(pilot: Pilot[int]) -> None:
        for keys in presses:
            for key in keys:
                await pilot.press(key)
                await pilot.pause()
            seen.append(shown_help(app))

    run(app, scenario, size=(100, 40))
    return seen


def test_f1_opens_how_to_play_and_f1_or_escape_closes_it(tmp_path: Path) -> None:
    app = app_in(tmp_path)
    opened, closed, escaped = help_after(app, ("f1",), ("f1",), ("f1", "escape"))
    paragraphs = [" ".join(text.split()) for text in opened]
    assert paragraphs == list(HELP)
    assert paragraphs[1].startswith("Express: the first to have a line of 5")
    assert closed == escaped == []
    assert not app.match.game.history  # the keys played nothing


def test_the_help_speaks_the_players_language(tmp_path: Path) -> None:
    catalogues.use_language("de")
    try:
        [opened] = help_after(app_in(tmp_path), ("f1",))
    finally:
        catalogues.use_language("en")
    assert opened[0].startswith("In jedem Zug schiebst du eine deiner Kugeln")
    assert len(opened) == len(HELP)


def test_f1_over_a_question_leaves_the_question(tmp_path: Path) -> None:
    app = app_in(tmp_path)
    screens: list[object] = []

    async def scenario(pilot: Pilot[int]) -> None:
        await pilot.press("f2")
        await pilot.pause()
        await pilot.press("f1")
        await pilot.pause()
        screens.append(app.screen)

    run(app, scenario, size=(100, 40))
    assert isinstance(screens[0], NewGameScreen)


def test_a_dialogs_key_over_the_help_or_a_dialog_opens_nothing_on_it(tmp_path: Path) -> None:
    app = app_in(tmp_path)
    screens: list[list[str]] = []

    async def scenario(pilot: Pilot[int]) -> None:
        for first in ("f1", "f2"):
            await pilot.press(first)
            await pilot.pause()
            for key in ("f2", "f3", "f4"):
                await pilot.press(key)
                await pilot.pause()
            screens.append([type(screen).__name__ for screen in app.screen_stack])
            await pilot.press("escape")
            await pilot.pause()

    run(app, scenario, size=(100, 40))
    assert screens == [["Screen", "HelpScreen"], ["Screen", "NewGameScreen"]]


def test_the_help_says_how_a_scoring_is_chosen_here() -> None:
    """A German walk found the scoring list's keys only by trying: the help names the
    list's keys, the click and the typed notation."""
    scoring = HELP[-2]
    for words in ("listed beside the board", "arrow keys", "Enter", "click a marble", "type x"):
        assert words in scoring, words


def test_the_help_names_every_key_of_the_footer() -> None:
    keys = HELP[-1]
    for key in ("F2", "F3", "F4", "F5", "Ctrl+Z", "F6", "F7", "F8", "Ctrl+Q"):
        assert key in keys, key


def test_ctrl_c_says_how_to_quit(tmp_path: Path) -> None:
    app = app_in(tmp_path)
    said: list[str] = []

    async def scenario(pilot: Pilot[int]) -> None:
        await pilot.press("ctrl+c")
        await pilot.pause()
        said.extend(str(notice.message) for notice in app._notifications)

    run(app, scenario, size=(100, 40))
    assert said == [
        "Ctrl+Q quits the program; the game is saved and offered again at the next start."
    ]


def test_ctrl_c_after_the_end_says_where_the_record_is(tmp_path: Path) -> None:
    """A finished game is not offered again at the next start: Ctrl+C said it would be
    (a German walk)."""
    game = Game(Rules(Variant.EXPRESS, 2), first=0, seed=1)
    for action in ("L1", "L7") * 4:
        game.play(action)
    match = Match(game, autosave=autosave_in(tmp_path))
    app = app_for(match)
    said: list[str] = []

    async def scenario(pilot: Pilot[int]) -> None:
        app.act(Action.parse("L1"))  # orange's fifth in row 1 wins
        await settle(pilot)
        await pilot.press("ctrl+c")
        await pilot.pause()
        said.extend(str(notice.message) for notice in app._notifications)

    run(app, scenario, size=(100, 40))
    assert match.autosave is not None
    path = match.autosave.last_game_path
    assert path.exists()
    assert said == [f"Ctrl+Q quits the program; the finished game's record is in {path}."]
