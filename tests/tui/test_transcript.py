"""The app's log keeps a file's path whole: it moves to a line of its own, and one
longer than the pane breaks only after a separator, never inside a name (an Italian
family read a saved-to path cut in the middle of a folder's name at 80 columns)."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import RichLog

from shiftago.core import Game, Rules, Variant
from shiftago.interfaces.tui.match import Match
from shiftago.interfaces.tui.transcript import keep_paths
from support.tui_pilot import app_for, autosave_in, run


def test_a_long_path_is_put_on_lines_of_its_own_broken_after_separators() -> None:
    text = "Saved the record to /home/famiglia/.local/share/shiftago/last-game.txt."
    assert keep_paths(text, 30).split("\n") == [
        "Saved the record to ",
        "/home/famiglia/.local/share/",
        "shiftago/last-game.txt.",
    ]
    # a path that fits the width is a word as any other; so is a word with no separator
    assert keep_paths("Saved the record to /tmp/game.txt.", 30) == (
        "Saved the record to /tmp/game.txt."
    )
    assert keep_paths("x" * 40, 30) == "x" * 40
    # a name longer than the width is a line of its own
    assert keep_paths("in /a/" + "n" * 35 + "/b.txt", 30).split("\n") == [
        "in ",
        "/a/",
        "n" * 35 + "/",
        "b.txt",
    ]


def log_lines(app: object) -> list[str]:
    log = app.query_one("#log", RichLog)  # type: ignore[attr-defined]
    return [strip.text.rstrip() for strip in log.lines]


def test_the_log_keeps_each_name_of_a_saved_to_path_whole_at_80_columns(tmp_path: Path) -> None:
    folder = tmp_path / "partite-della-famiglia-rossi" / "natale-duemilaventisei"
    folder.mkdir(parents=True)
    path = folder / "la-partita-di-nonna-lucia.txt"
    game = Game(Rules(Variant.EXPRESS, 2), first=0)
    app = app_for(Match(game, autosave=autosave_in(tmp_path)))
    seen: dict[str, list[str]] = {}

    async def scenario(pilot: Pilot[int]) -> None:
        app.say(f"Saved the record to {path}.")
        app.say("Saved the record to partita.txt.")
        await pilot.pause()
        seen["narrow"] = log_lines(app)
        await pilot.resize_terminal(100, 30)  # written again at the new width
        await pilot.pause()
        seen["wide"] = log_lines(app)

    run(app, scenario, size=(80, 24))
    for lines in seen.values():
        width = max(len(line) for line in lines)
        assert len(str(path)) > width  # longer than the pane: it has to break
        for name in path.parts[1:]:
            assert any(name in line for line in lines), (name, lines)
        # its lines end at a separator, and it begins a line of its own
        start = next(i for i, line in enumerate(lines) if line.startswith(str(path)[:5]))
        assert lines[start - 1] == "Saved the record to"
        taken = ""
        for line in lines[start:]:
            taken += line
            if taken.startswith(str(path)):
                break
            assert line.endswith("/"), lines
        assert taken == f"{path}."
        # a short path is a word as any other: whole on the line of its sentence
        assert "Saved the record to partita.txt." in lines
