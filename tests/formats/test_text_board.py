"""Text boards: the labelled grid, the protocol's bare grid, status lines and colour."""

from __future__ import annotations

import io
import re

import pytest

from shiftago.core import Action, Game, Rules, State, Variant
from shiftago.core.geometry import CELL_BY_NAME
from shiftago.formats.text_board import (
    action_cells,
    render_plain_grid,
    render_status,
    render_text,
    use_color,
)

ANSI = re.compile(r"\x1b\[[0-9;]*m")


#: Orange builds a1-d1 while green and blue fill files g and f: a line of 4 (3 players).
ORANGE_LINE = ("Ba", "Tg", "Tf", "Bb", "Tg", "Tf", "Bc", "Tg", "Tf", "Bd")


def play(rules: Rules, *actions: str, first: int = 0) -> Game:
    game = Game(rules, first=first)
    for action in actions:
        game.play(action)
    return game


def grid(state: State) -> dict[str, str]:
    """Cell name -> letter, read back from the plain grid."""
    rows = render_plain_grid(state).split("\n")
    return {f"{'abcdefg'[f]}{7 - r}": rows[r][f] for r in range(7) for f in range(7)}


class FakeStream(io.StringIO):
    def __init__(self, tty: bool) -> None:
        super().__init__()
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


# --- the plain grid (engine protocol showboard) ------------------------------------
def test_plain_grid_of_empty_board_is_seven_lines_of_seven_dots():
    state = Game(Rules(), first=0).state
    assert render_plain_grid(state) == "\n".join(["......."] * 7)


def test_plain_grid_after_l3_puts_orange_on_a3():
    game = play(Rules(Variant.EXPERT, 3), "L3")
    cells = grid(game.state)
    assert cells["a3"] == "o"
    assert [name for name, letter in cells.items() if letter != "."] == ["a3"]


def test_plain_grid_follows_the_push_of_a_run():
    # o enters a3, g pushes it to b3, b pushes both: b a3, g b3, o c3.
    game = play(Rules(Variant.EXPERT, 3), "L3", "L3", "L3")
    rows = render_plain_grid(game.state).split("\n")
    assert rows[4] == "bgo...."
    assert all(len(row) == 7 for row in rows) and len(rows) == 7


def test_plain_grid_rank_seven_first_and_right_side_push():
    game = play(Rules(Variant.EXPRESS, 4), "Ta", "R1", "Bd", "Tg")
    cells = grid(game.state)
    assert cells["a7"] == "o"
    assert cells["g1"] == "g"
    assert cells["d1"] == "b"
    assert cells["g7"] == "w"
    assert render_plain_grid(game.state).split("\n")[0] == "o.....w"


# --- the labelled board ------------------------------------------------------------
def test_render_text_has_rank_labels_and_files():
    game = play(Rules(Variant.EXPERT, 3), "L3")
    lines = render_text(game.state).split("\n")
    assert [line[0] for line in lines[:7]] == list("7654321")
    assert lines[7] == "  a b c d e f g"
    assert lines[4] == "3 o . . . . . ."


def test_render_text_without_coordinates_is_the_bare_spaced_grid():
    game = play(Rules(Variant.EXPERT, 3), "L3", "L3")
    lines = render_text(game.state, coordinates=False).split("\n")
    assert len(lines) == 7
    assert lines[4] == "g o . . . . ."


def test_last_insertion_is_bracketed_without_moving_the_columns():
    game = play(Rules(Variant.EXPERT, 3), "L3", "R1")
    text = render_text(game.state, last_action=game.history[-1])
    lines = text.split("\n")
    assert lines[6] == "1 . . . . . .[g]"
    assert lines[4] == "3 o . . . . . ."
    # every cell letter stays in its column
    plain = render_text(game.state).split("\n")
    for marked, bare in zip(lines, plain, strict=True):
        assert marked.replace("[", " ").replace("]", " ").rstrip() == bare.rstrip()


def test_last_scoring_marks_the_emptied_cells():
    game = play(Rules(Variant.EXPERT, 3), *ORANGE_LINE, "xa1-d1")
    text = render_text(game.state, last_action=game.history[-1])
    assert text.split("\n")[6] == "1 o x x x . . ."


def test_action_cells_for_two_players_keeps_both_ends():
    scoring = Action.parse("xa1-e1")
    line, removed = action_cells(scoring, Rules(Variant.EXPERT, 2))
    names = {CELL_BY_NAME[n] for n in ("b1", "c1", "d1")}
    assert set(removed) == names
    assert len(line) == 5
    line3, removed3 = action_cells(Action.parse("xe1-a1"), Rules(Variant.EXPERT, 3))
    assert set(removed3) == names | {CELL_BY_NAME["a1"]}
    assert line3[0] == CELL_BY_NAME["e1"]


def test_action_cells_of_a_diagonal_and_an_insertion():
    line, removed = action_cells(Action.parse("xa1-d4"), Rules(Variant.EXTREME, 3))
    assert line == tuple(CELL_BY_NAME[n] for n in ("a1", "b2", "c3", "d4"))
    assert removed == line[1:]
    assert action_cells(Action.parse("Tc"), Rules()) == ((CELL_BY_NAME["c7"],), ())


# --- colour ------------------------------------------------------------------------
def test_plain_text_has_no_escape_codes():
    game = play(Rules(Variant.EXPERT, 4), "L3", "L3", "L3", "L3")
    assert "\x1b" not in render_text(game.state, last_action=game.history[-1])


def test_colour_keeps_the_letters():
    game = play(Rules(Variant.EXPERT, 4), "L3", "L3", "L3", "L3", "Tc")
    last = game.history[-1]
    coloured = render_text(game.state, color=True, last_action=last)
    assert "\x1b[" in coloured
    assert ANSI.sub("", coloured) == render_text(game.state, last_action=last)


def test_each_colour_has_its_own_style():
    game = play(Rules(Variant.EXPERT, 4), "L3", "L3", "L3", "L3")
    coloured = render_text(game.state, color=True)
    styles = {letter: re.findall(rf"\x1b\[([0-9;]*)m{letter}\x1b", coloured) for letter in "ogbw"}
    assert all(len(found) == 1 for found in styles.values())
    assert len({found[0] for found in styles.values()}) == 4


def test_colour_highlights_the_last_cell_in_reverse_video():
    game = play(Rules(Variant.EXPERT, 3), "L3")
    coloured = render_text(game.state, color=True, last_action=game.history[-1])
    assert re.search(r"\x1b\[[0-9;]*;7mo\x1b\[0m", coloured)


@pytest.mark.parametrize(
    ("tty", "env", "expected"),
    [
        (True, {}, True),
        (False, {}, False),
        (True, {"NO_COLOR": "1"}, False),
        (True, {"NO_COLOR": ""}, True),
        (True, {"TERM": "dumb"}, False),
        (True, {"TERM": "xterm-256color"}, True),
    ],
)
def test_use_color_honours_tty_no_color_and_dumb_terminals(monkeypatch, tty, env, expected):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("TERM", raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    assert use_color(FakeStream(tty)) is expected


def test_use_color_is_false_for_a_closed_stream(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    stream = io.StringIO()
    stream.close()
    assert use_color(stream) is False


# --- status --------------------------------------------------------------------------
def test_status_of_a_new_express_game():
    status = render_status(Game(Rules(Variant.EXPRESS, 2), first=1).state)
    assert status.split("\n") == ["Express, 2 players: green (g) to insert", "supply  o 22  g 22"]


def test_status_in_the_score_phase_shows_points():
    game = play(Rules(Variant.EXPERT, 3), *ORANGE_LINE)
    lines = render_status(game.state).split("\n")
    assert lines[0].endswith("orange (o) must score a line")
    assert lines[2] == "points  o  0  g  0  b  0"
    game.play("xa1-d1")
    lines = render_status(game.state).split("\n")
    assert lines[0].endswith("orange (o) to insert")
    assert lines[1] == "supply  o 21  g 19  b 19"
    assert lines[2] == "points  o  2  g  0  b  0"


def test_status_shows_skips_only_when_there_are_any():
    game = Game(Rules(Variant.EXPRESS, 3, handicap=(0, 2, 0)), first=2)
    assert render_status(game.state).split("\n")[-1] == "skips   o  0  g  2  b  0"
    assert "skips" not in render_status(Game(Rules(), first=0).state)


def test_status_of_a_won_express_game():
    game = play(Rules(Variant.EXPRESS, 3), *ORANGE_LINE)
    assert render_status(game.state).split("\n")[0] == (
        "Express, 3 players: game over, orange (o) wins (line)"
    )


def test_status_of_a_draw_names_everyone_who_shares_it():
    # orange is to insert with an empty supply: the game ends, top points share a draw
    state = State.from_position("expert 3 7/7/7/7/7/7/7 o insert 0,22,22 2,2,0 0,0,0")
    assert render_status(state).split("\n")[0] == (
        "Expert, 3 players: game over, draw between orange (o) and green (g) (no marbles)"
    )
    express = State.from_position("express 3 7/7/7/7/7/7/7 g insert 22,0,22 0,0,0 0,0,0")
    assert (
        render_status(express)
        .split("\n")[0]
        .endswith("draw between orange (o), green (g) and blue (b) (no marbles)")
    )
