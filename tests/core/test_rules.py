"""One test per rule of RULES.md (and the position string of PROTOCOL.md), named after it.

Most situations are built as set-up positions from a picture of the board: seven rows,
rank 7 first, files a to g, ``.`` for an empty cell and ``o g b w`` for marbles.
"""

from __future__ import annotations

import random
import re
import textwrap

import numpy as np
import pytest

from shiftago import (
    Action,
    EndReason,
    Game,
    GameOverError,
    IllegalActionError,
    InvalidPositionError,
    ParseError,
    Phase,
    Rules,
    ShiftagoError,
    State,
    Variant,
)
from shiftago.core.rules import MAX_ACTION_LIMIT

COLOURS = "ogbw"
ALL_INSERTIONS = (
    [f"L{r}" for r in range(1, 8)]
    + [f"R{r}" for r in range(1, 8)]
    + [f"T{f}" for f in "abcdefg"]
    + [f"B{f}" for f in "abcdefg"]
)
EMPTY = "\n".join(["......."] * 7)


# --- helpers ----------------------------------------------------------------------
def rows_of(picture: str) -> list[str]:
    rows = textwrap.dedent(picture).split()
    assert len(rows) == 7 and all(len(row) == 7 for row in rows), picture
    return rows


def setup(
    variant: str,
    players: int,
    picture: str,
    turn: str = "o",
    phase: str = "insert",
    supplies: tuple[int, ...] | None = None,
    scores: tuple[int, ...] | None = None,
    skips: tuple[int, ...] | None = None,
) -> str:
    """The position string of a picture (supplies default to 22 minus the marbles shown)."""
    ranks = []
    for row in rows_of(picture):
        text, empty = "", 0
        for ch in row:
            if ch == ".":
                empty += 1
            else:
                if empty:
                    text += str(empty)
                    empty = 0
                text += ch
        ranks.append(text + (str(empty) if empty else ""))
    if supplies is None:
        supplies = tuple(
            22 - sum(row.count(c) for row in rows_of(picture)) for c in COLOURS[:players]
        )
    scores = scores or (0,) * players
    skips = skips or (0,) * players

    def numbers(values: tuple[int, ...]) -> str:
        return ",".join(str(v) for v in values)

    return " ".join(
        [
            variant,
            str(players),
            "/".join(ranks),
            turn,
            phase,
            numbers(supplies),
            numbers(scores),
            numbers(skips),
        ]
    )


def game_at(*args: object, limit: int | None = None, **kwargs: object) -> Game:
    position = setup(*args, **kwargs)  # type: ignore[arg-type]
    if limit is None:
        return Game(position=position)
    variant, players = position.split()[:2]
    return Game(Rules(Variant(variant), int(players), action_limit=limit), position=position)


def picture(game: Game) -> str:
    """The board of a game as a picture (rank 7 first)."""
    rows = []
    for rank in game.position().split()[2].split("/"):
        rows.append("".join("." * int(ch) if ch.isdigit() else ch for ch in rank))
    return "\n".join(rows)


def pic(text: str) -> str:
    return "\n".join(rows_of(text))


def field(game: Game, index: int) -> str:
    return game.position().split()[index]


def legal(game: Game) -> list[str]:
    return [str(a) for a in game.legal_actions()]


def assert_refused(game: Game, action: str, error: type[Exception]) -> None:
    """Playing ``action`` raises ``error`` and changes nothing."""
    before, history, state = game.position(), game.history, game.state
    with pytest.raises(error):
        game.play(action)
    assert game.position() == before
    assert game.history == history
    assert game.state == state


# --- 1. Material and seats ------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_first_seat_is_drawn_with_python_random(players: int) -> None:
    for seed in range(40):
        expected = random.Random(seed).randrange(players)
        game = Game(Rules(Variant.EXPRESS, players), seed=seed)
        assert game.turn == expected
        assert field(game, 3) == COLOURS[expected]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_player_starts_with_22_marbles_on_an_empty_board(players: int) -> None:
    game = Game(Rules(Variant.EXPERT, players), first=0)
    assert game.position() == (
        f"expert {players} 7/7/7/7/7/7/7 o insert "
        + ",".join(["22"] * players)
        + " "
        + ",".join(["0"] * players)
        + " "
        + ",".join(["0"] * players)
    )


def test_colours_follow_seat_order_and_play_wraps_around() -> None:
    game = Game(Rules(Variant.EXPRESS, 4), first="b")
    turns = []
    for action in ["Ta", "Tc", "Te", "Tg", "Ba"]:
        turns.append(field(game, 3))
        game.play(action)
    assert turns == ["b", "w", "o", "g", "b"]
    assert picture(game) == pic(
        """
        b.w.o.g
        .......
        .......
        .......
        .......
        .......
        b......
        """
    )


# --- 2. Inserting a marble --------------------------------------------------------------
@pytest.mark.parametrize(
    ("action", "cell_row", "cell_file"),
    [("L3", 4, 0), ("R3", 4, 6), ("Tc", 0, 2), ("Bc", 6, 2)],
)
def test_insertion_enters_at_the_end_cell_of_its_lane(
    action: str, cell_row: int, cell_file: int
) -> None:
    game = Game(Rules(Variant.EXPRESS, 2), first=0)
    game.play(action)
    rows = picture(game).split("\n")
    assert rows[cell_row][cell_file] == "o"
    assert picture(game).count("o") == 1
    assert field(game, 5) == "21,22"


@pytest.mark.parametrize(
    ("action", "before", "after"),
    [
        # rank 3 (row 5 of the picture): the run a3-b3 moves, d3 beyond the gap stays
        ("L3", "gb.g...", "ogbg..."),
        ("R3", "...g.bg", "...gbgo"),
    ],
)
def test_insertion_pushes_contiguous_run_only(action: str, before: str, after: str) -> None:
    rows = ["......."] * 7
    rows[4] = before
    game = game_at("express", 3, "\n".join(rows))
    game.play(action)
    rows[4] = after
    assert picture(game) == "\n".join(rows)
    assert field(game, 3) == "g"


@pytest.mark.parametrize(
    ("action", "before", "after"),
    [
        # file c from rank 7 down: c7 c6 move, c4 beyond the gap stays
        ("Tc", "gb.g...", "ogbg..."),
        # file c from rank 1 up: c1 c2 move, c4 stays
        ("Bc", "...g.bg", "...gbgo"),
    ],
)
def test_insertion_pushes_contiguous_run_along_a_file(action: str, before: str, after: str) -> None:
    def board(column: str) -> str:
        return "\n".join(f"..{column[i]}...." for i in range(7))

    game = game_at("express", 3, board(before))
    game.play(action)
    assert picture(game) == board(after)


def test_insertion_pushes_the_whole_run_up_to_the_last_empty_cell() -> None:
    rows = ["......."] * 7
    rows[3] = "gob.gob"
    game = game_at("express", 3, "\n".join(rows))
    game.play("L4")  # a4-c4 move one cell, e4-g4 stay
    assert picture(game).split("\n")[3] == "ogobgob"
    assert "L4" not in legal(game) and "R4" not in legal(game)  # the rank is full now
    game.undo()
    game.play("R4")  # e4-g4 move one cell, a4-c4 stay
    assert picture(game).split("\n")[3] == "gobgobo"


def test_lane_full_is_illegal() -> None:
    game = game_at(
        "express",
        3,
        """
        o......
        g......
        b......
        gobgobg
        o......
        g......
        b......
        """,
    )
    assert legal(game) == [a for a in ALL_INSERTIONS if a not in ("L4", "R4", "Ta", "Ba")]
    for action in ("L4", "R4", "Ta", "Ba"):
        assert_refused(game, action, IllegalActionError)


def test_a_state_takes_an_action_or_its_notation_as_a_game_does() -> None:
    """State.is_legal("L3") said False on the empty board, and State.after("L3") that
    "'L3' is not an action" (a bot author's walk, 7 December 2026)."""
    state = State.initial(Rules(), 0)
    assert state.is_legal("L3") and state.is_legal("l3") and state.is_legal(" Tc ")
    assert state.after("l3") == state.after(Action.parse("L3"))
    assert state.step("tc") == (Action.parse("Tc"), state.after(Action.parse("Tc")))
    assert state.validate("bg") == Action.parse("Bg")
    assert not state.is_legal("Q9") and not state.is_legal("xa1-e1")
    with pytest.raises(ParseError, match="is not an action"):
        state.after("Q9")
    with pytest.raises(IllegalActionError, match="no line to score"):
        state.after("xa1-e1")


def test_a_first_seat_is_a_seat_a_colour_letter_or_its_name() -> None:
    assert [Game(Rules(), first=f).first for f in (1, "g", "G", "green", " Orange ")] == [
        1,
        1,
        1,
        1,
        0,
    ]
    with pytest.raises(ParseError, match="unknown colour"):
        Game(Rules(), first="blue")  # no blue seat with 2 players


def test_a_board_that_is_not_full_has_a_legal_insertion() -> None:
    game = game_at(
        "express",
        3,
        """
        ogbogbo
        gbogbog
        bogbogb
        ogbogbo
        gbogbog
        bogbogb
        ogbogb.
        """,
    )
    assert legal(game) == ["L1", "R1", "Tg", "Bg"]


def test_special_case_marbles_may_not_touch() -> None:
    # only orange marbles on the board, orange to move: L1 L3 Ba land next to a2 and
    # L2 pushes a2 to b2 with the new marble behind it; Bb lands diagonally (allowed)
    game = game_at(
        "express",
        2,
        """
        .......
        .......
        .......
        .......
        .......
        o......
        .......
        """,
        skips=(0, 3),
    )
    expected = [a for a in ALL_INSERTIONS if a not in ("L1", "L2", "L3", "Ba")]
    assert legal(game) == expected
    for action in ("L1", "L2", "L3", "Ba"):
        assert_refused(game, action, IllegalActionError)
    game.play("Bb")  # diagonal contact with a2 is allowed
    assert field(game, 3) == "o"  # green skips: orange moves again, still alone


@pytest.mark.parametrize(
    ("cell", "illegal"),
    [
        ("a2", {"L1", "L2", "L3", "Ba"}),  # Bb lands on b1, diagonal to a2: allowed
        ("b2", {"L2", "Bb"}),  # L1, Ba (a1), L3 (a3) and Bc (c1) are diagonal: allowed
        ("d4", set()),
        ("g7", {"R6", "R7", "Tf", "Tg"}),  # R7 and Tg push g7 along, the new one behind
    ],
)
def test_special_case_orthogonal_contact_only(cell: str, illegal: set[str]) -> None:
    rows = [list(".......") for _ in range(7)]
    rows[7 - int(cell[1])]["abcdefg".index(cell[0])] = "o"
    game = game_at("extreme", 3, "\n".join("".join(r) for r in rows), skips=(0, 1, 1))
    assert legal(game) == [a for a in ALL_INSERTIONS if a not in illegal]


def test_special_case_when_one_player_moves_alone_by_handicap() -> None:
    game = Game(Rules(Variant.EXPRESS, 2, handicap=(0, 3)), first=0)
    game.play("Td")
    assert game.position() == "express 2 3o3/7/7/7/7/7/7 o insert 21,22 0,0 0,2"
    assert legal(game) == [a for a in ALL_INSERTIONS if a not in ("Tc", "Td", "Te")]
    for action in ("Tc", "Td", "Te"):
        assert_refused(game, action, IllegalActionError)
    assert game.state.keeps_apart  # a page says why three arrows are greyed


def test_keeps_apart_only_while_the_special_case_closes_a_lane() -> None:
    assert not Game(Rules(Variant.EXPRESS, 2, handicap=(0, 3)), first=0).state.keeps_apart
    empty = ".......\n" * 5
    other = game_at("express", 2, "......g\n.......\n.......\n.......\n.......\no......\n.......")
    alone = game_at("express", 2, empty + "g......\n.......")
    touching = game_at("express", 2, empty + ".......\noo.....")
    assert not other.state.keeps_apart and not alone.state.keeps_apart
    assert legal(touching) == ALL_INSERTIONS and not touching.state.keeps_apart


def test_special_case_does_not_apply_when_another_colour_is_on_the_board() -> None:
    game = game_at(
        "express",
        2,
        """
        ......g
        .......
        .......
        .......
        .......
        o......
        .......
        """,
    )
    assert legal(game) == ALL_INSERTIONS


def test_special_case_does_not_apply_to_marbles_of_another_colour_alone() -> None:
    game = game_at(
        "express",
        2,
        """
        .......
        .......
        .......
        .......
        .......
        g......
        .......
        """,
    )
    assert legal(game) == ALL_INSERTIONS


def test_special_case_all_legal_when_none_keeps_apart() -> None:
    # a1 and b1 already touch: every insertion leaves two marbles touching
    game = game_at(
        "express",
        2,
        """
        .......
        .......
        .......
        .......
        .......
        .......
        oo.....
        """,
    )
    assert legal(game) == ALL_INSERTIONS


def test_special_case_applies_to_the_same_player_after_scoring() -> None:
    # Extreme, 3 players: orange alone scores a diagonal line of three (0 points),
    # keeps c3, and must then keep its marbles apart
    game = game_at(
        "extreme",
        3,
        """
        .......
        .......
        .......
        .......
        ..o....
        .o.....
        o......
        """,
        phase="score",
        skips=(0, 2, 2),
    )
    assert legal(game) == ["xa1-c3", "xc3-a1"]
    game.play("xc3-a1")
    assert picture(game).split("\n")[4] == "..o...."
    assert field(game, 3) == "o"
    assert legal(game) == ALL_INSERTIONS  # c3 is far from every entry cell
    game.play("L3")  # a3: two cells from c3
    assert "L3" not in legal(game)  # would push a3 to b3, touching c3


# --- 3. Lines ---------------------------------------------------------------------------
def test_line_counts_at_full_length() -> None:
    # a line of 6 scores 5 points in Expert with 2 players, never as a 5 or a 4
    game = game_at(
        "expert",
        2,
        """
        ggg....
        .......
        .......
        .......
        .......
        .......
        ooo.oo.
        """,
    )
    game.play("Bd")
    assert legal(game) == ["xa1-f1"]
    for part in ("xa1-e1", "xb1-f1", "xa1-d1"):
        assert_refused(game, part, IllegalActionError)
    game.play("xa1-f1")
    assert field(game, 6) == "5,0"
    assert picture(game).split("\n")[6] == "o....o."


@pytest.mark.parametrize(
    ("name", "marbles", "action"),
    [
        ("horizontal", ["b1", "c1", "d1"], "L1"),
        ("vertical", ["a2", "a3", "a4"], "Ba"),
        ("diagonal", ["b2", "c3", "d4"], "Ba"),
        ("anti-diagonal", ["b6", "c5", "d4"], "Ta"),
    ],
)
def test_lines_run_in_all_four_directions(name: str, marbles: list[str], action: str) -> None:
    rows = [list(".......") for _ in range(7)]
    for cell in marbles:
        rows[7 - int(cell[1])]["abcdefg".index(cell[0])] = "o"
    rows[3][6] = "g"  # another colour, so the special case is out of play
    game = game_at("express", 3, "\n".join("".join(r) for r in rows))
    game.play(action)
    assert game.outcome is not None, name
    assert game.outcome.winners == (0,)
    assert game.outcome.reason is EndReason.LINE


def test_only_lines_of_the_player_who_moved_count() -> None:
    # green has a line of five; orange's insertion does not score it
    game = game_at(
        "expert",
        2,
        """
        ggggg..
        .......
        .......
        .......
        .......
        .......
        o......
        """,
    )
    game.play("R1")
    assert game.phase is Phase.INSERT and field(game, 3) == "g"
    game.play("R4")  # green's line is still there after green's insertion: green scores
    assert game.phase is Phase.SCORE and legal(game) == ["xa7-e7"]


# --- 4. Shiftago Express ----------------------------------------------------------------
@pytest.mark.parametrize(
    ("players", "length", "wins"),
    [(2, 4, False), (2, 5, True), (2, 6, True), (3, 3, False), (3, 4, True), (4, 4, True)],
)
def test_express_winning_length(players: int, length: int, wins: bool) -> None:
    row = "." + "o" * (length - 1) + "." * (7 - length)
    game = game_at("express", players, "\n".join(["......g"] + ["......."] * 5 + [row]))
    game.play("L1")
    if wins:
        assert game.outcome is not None
        assert (game.outcome.winners, game.outcome.reason) == ((0,), EndReason.LINE)
        assert field(game, 3) == "o" and field(game, 4) == "over"
        assert game.legal_actions() == []
    else:
        assert game.outcome is None and field(game, 3) == "g"


def test_express_win_even_if_other_colour_longer() -> None:
    # rulebook Express example 1 with 4 players: blue's push gives white a line of five
    # and blue a line of four; blue wins
    game = game_at(
        "express",
        4,
        """
        .......
        .......
        ....w..
        ....w..
        ....w..
        ....w..
        bbbw...
        """,
        turn="b",
    )
    game.play("L1")
    assert picture(game).split("\n")[2:] == ["....w..", "....w..", "....w..", "....w..", "bbbbw.."]
    assert game.outcome is not None
    assert game.outcome.winners == (2,)
    assert game.outcome.reason is EndReason.LINE
    assert game.outcome.status() == "over winner b"


EXAMPLE_2 = """
    .......
    .......
    ...b...
    oob....
    ...b...
    ...b...
    .......
    """


def test_express_example_2() -> None:
    # The rulebook's order orange, blue, green relabelled to seat order (RULES.md 1):
    # orange pushes blue into a line of four, green fails to break it, blue wins with
    # any move that keeps the line (every move but L4, which breaks it).
    game = game_at("express", 3, EXAMPLE_2)
    game.play("L4")  # orange: a4-c4 move on, blue's c4 lands on d4
    assert picture(game).split("\n")[2:6] == ["...b...", "ooob...", "...b...", "...b..."]
    assert game.outcome is None  # blue's new line wins nothing now
    assert field(game, 3) == "g"
    game.play("R7")  # green overlooks it
    assert field(game, 3) == "b"
    assert len(legal(game)) == 28
    for action in legal(game):
        game.play(action)
        if action == "L4":  # pushes o o o into d4: the line is broken
            assert game.outcome is None
        else:
            assert game.outcome is not None, action
            assert (game.outcome.winners, game.outcome.reason) == ((2,), EndReason.LINE)
        game.undo()


def test_express_example_2_green_breaks_the_line() -> None:
    game = game_at("express", 3, EXAMPLE_2)
    game.play("L4")
    game.play("L4")  # green pushes orange's marbles into d4: blue's line is broken
    assert picture(game).split("\n")[3] == "gooob.."
    for action in legal(game):
        game.play(action)
        assert game.outcome is None, action
        game.undo()


def test_express_win_with_the_last_empty_cell_is_a_win_not_a_draw() -> None:
    game = game_at("express", 3, FULL_BUT_A1_LINE)
    game.play("L1")  # fills the board and makes a line of four
    assert game.outcome is not None
    assert (game.outcome.winners, game.outcome.reason) == ((0,), EndReason.LINE)


def test_express_win_with_the_last_marble_is_a_win() -> None:
    board = "\n".join(["......g"] + ["......."] * 5 + [".ooo..."])
    game = game_at("express", 3, board, supplies=(1, 0, 0))
    game.play("L1")
    assert game.outcome is not None
    assert (game.outcome.winners, game.outcome.reason) == ((0,), EndReason.LINE)
    assert field(game, 5) == "0,0,0"


def test_express_draw_is_all_players() -> None:
    game = game_at("express", 3, FULL_BUT_A1_NO_LINE)
    game.play("L1")
    assert game.outcome is not None
    assert game.outcome.winners == (0, 1, 2)
    assert game.outcome.reason is EndReason.BOARD_FULL
    assert game.outcome.is_draw and game.outcome.losers == ()
    assert game.outcome.status() == "over draw o g b"


# --- 5. Expert and Extreme ----------------------------------------------------------------
POINTS = [
    ("expert", 2, {5: 2, 6: 5, 7: 10}),
    ("expert", 3, {4: 2, 5: 5, 6: 8, 7: 10}),
    ("expert", 4, {4: 2, 5: 5, 6: 8, 7: 10}),
    ("extreme", 2, {4: 0, 5: 2, 6: 5, 7: 10}),
    ("extreme", 3, {3: 0, 4: 2, 5: 5, 6: 8, 7: 10}),
    ("extreme", 4, {3: 0, 4: 2, 5: 5, 6: 8, 7: 10}),
]
POINT_CASES = [
    (variant, players, length, points)
    for variant, players, table in POINTS
    for length, points in table.items()
]


@pytest.mark.parametrize(("variant", "players", "length", "points"), POINT_CASES)
def test_points_table(variant: str, players: int, length: int, points: int) -> None:
    end = "abcdefg"[length - 1] + "1"
    row = "o" * length + "." * (7 - length)
    game = game_at(
        variant, players, "\n".join(["......g"] + ["......."] * 5 + [row]), phase="score"
    )
    if players == 2:
        assert legal(game) == [f"xa1-{end}"]
    else:
        assert legal(game) == sorted([f"xa1-{end}", f"x{end}-a1"])
    supply = int(field(game, 5).split(",")[0])
    game.play(f"xa1-{end}")
    removed = length - 2 if players == 2 else length - 1
    assert int(field(game, 5).split(",")[0]) == supply + removed
    assert int(field(game, 6).split(",")[0]) == points
    if points >= 10:
        assert game.outcome is not None
        assert (game.outcome.winners, game.outcome.reason) == ((0,), EndReason.POINTS)
    else:
        assert (field(game, 3), game.phase) == ("o", Phase.INSERT)


@pytest.mark.parametrize(("variant", "players", "table"), POINTS)
def test_shorter_lines_do_not_score(variant: str, players: int, table: dict[int, int]) -> None:
    length = min(table) - 1
    row = "." + "o" * (length - 1) + "." * (7 - length)
    game = game_at(variant, players, "\n".join(["......g"] + ["......."] * 5 + [row]))
    game.play("L1")  # makes a line one shorter than the shortest that scores
    assert (game.phase, field(game, 3)) == (Phase.INSERT, "g")
    with pytest.raises(InvalidPositionError):  # and such a line cannot be in a score phase
        State.from_position(setup(variant, players, picture(game), phase="score"))


def test_two_players_keep_both_ends() -> None:
    game = game_at(
        "expert", 2, "\n".join(["......g"] + ["......."] * 5 + ["ooooo.."]), "o", "score"
    )
    game.play("xa1-e1")
    assert picture(game).split("\n")[6] == "o...o.."
    assert field(game, 5) == "20,21"  # 17 + 3 back


@pytest.mark.parametrize(("action", "kept"), [("xa1-e1", "o......"), ("xe1-a1", "....o..")])
@pytest.mark.parametrize("players", [3, 4])
def test_three_or_four_players_choose_the_kept_end(action: str, kept: str, players: int) -> None:
    board = "\n".join(["......g"] + ["......."] * 5 + ["ooooo.."])
    game = game_at("expert", players, board, "o", "score")
    assert legal(game) == ["xa1-e1", "xe1-a1"]
    game.play(action.upper())  # any case
    assert picture(game).split("\n")[6] == kept
    assert field(game, 5).split(",")[0] == "21"  # 17 + 4 back
    assert game.history == [Action.parse(action)]


@pytest.mark.parametrize(
    ("cells", "canonical", "other"),
    [
        (["a1", "b1", "c1", "d1", "e1"], "xa1-e1", "xe1-a1"),
        (["c3", "c4", "c5", "c6", "c7"], "xc3-c7", "xc7-c3"),
        (["a5", "b4", "c3", "d2", "e1"], "xa5-e1", "xe1-a5"),
        (["g1", "f2", "e3", "d4", "c5"], "xc5-g1", "xg1-c5"),
        (["c3", "d4", "e5", "f6", "g7"], "xc3-g7", "xg7-c3"),
    ],
)
def test_two_players_accept_both_spellings_canonical_smaller_first(
    cells: list[str], canonical: str, other: str
) -> None:
    rows = [list(".......") for _ in range(7)]
    for cell in cells:
        rows[7 - int(cell[1])]["abcdefg".index(cell[0])] = "o"
    rows[3][0] = "g" if rows[3][0] == "." else rows[3][0]
    board = "\n".join("".join(r) for r in rows)
    for spelling in (canonical, other):
        game = game_at("expert", 2, board, "o", "score")
        assert legal(game) == [canonical]
        game.play(spelling)
        assert game.history == [Action.parse(canonical)]
        assert str(game.history[0]) == canonical
        assert field(game, 6) == "2,0"


def test_scoring_is_forced_before_any_insertion() -> None:
    board = "\n".join(["......g"] + ["......."] * 5 + ["ooooo.."])
    game = game_at("expert", 2, board, "o", "score")
    for action in ALL_INSERTIONS:
        assert_refused(game, action, IllegalActionError)


def test_repeat_turn_after_scoring() -> None:
    board = "\n".join(["......g"] + ["......."] * 5 + [".oooo.."])
    game = game_at("expert", 3, board, skips=(0, 2, 1))
    game.play("L1")  # a line of five: orange must score
    assert (game.phase, field(game, 3), field(game, 7)) == (Phase.SCORE, "o", "0,2,1")
    game.play("xa1-e1")
    # the same player takes another whole turn; nobody's skips are used
    assert (game.phase, field(game, 3), field(game, 7)) == (Phase.INSERT, "o", "0,2,1")
    game.play("Tc")
    assert field(game, 3) == "o" and field(game, 7) == "0,1,0"  # green and blue skip


def test_mover_chooses_among_several_lines_and_the_other_waits() -> None:
    # L1 makes two lines of five that share a1
    board = """
        .......
        .......
        o.....g
        o......
        o......
        o......
        .oooo..
        """
    game = game_at("expert", 2, board)
    game.play("L1")
    assert legal(game) == ["xa1-a5", "xa1-e1"]
    game.play("xa1-e1")
    assert field(game, 6) == "2,0"
    # the other line was not scored with it: the turn goes on with an insertion
    assert game.phase is Phase.INSERT and field(game, 3) == "o"
    game.play("Tg")
    # it still exists after orange's next insertion, so it must be scored now
    assert game.phase is Phase.SCORE and legal(game) == ["xa1-a5"]
    game.play("xa5-a1")
    assert field(game, 6) == "4,0"


def test_crossing_line_cut_by_scoring_is_scored_later_at_its_new_length() -> None:
    # 3 players: keeping e1 removes a1, so the file line a1-a5 becomes a2-a5
    board = """
        .......
        .......
        o.....g
        o......
        o......
        o......
        .oooo..
        """
    game = game_at("expert", 3, board)
    game.play("L1")
    assert legal(game) == ["xa1-a5", "xa1-e1", "xa5-a1", "xe1-a1"]
    game.play("xe1-a1")
    assert field(game, 6) == "5,0,0"
    assert game.phase is Phase.INSERT
    game.play("Tg")
    assert legal(game) == ["xa2-a5", "xa5-a2"]
    game.play("xa5-a2")
    assert field(game, 6) == "7,0,0"


def test_only_one_line_is_scored_even_when_lines_cross() -> None:
    board = """
        ......g
        .......
        .......
        ..o....
        ..o....
        ..o....
        oo.oo..
        """
    game = game_at("expert", 3, board)
    game.play("Bc")  # a1-e1 (5) and c1-c4 (4) cross at c1
    assert legal(game) == ["xa1-e1", "xc1-c4", "xc4-c1", "xe1-a1"]
    game.play("xa1-e1")  # 5 points for the rank only; c1 comes off, the file is cut
    assert field(game, 6) == "5,0,0"
    assert picture(game).split("\n")[3:] == ["..o....", "..o....", "..o....", "o......"]
    assert (game.phase, field(game, 3)) == (Phase.INSERT, "o")
    game.play("Tg")
    assert field(game, 3) == "g"  # c2-c4 is three marbles: nothing to score


def test_reaching_ten_points_wins_at_once() -> None:
    board = "\n".join(["......g"] + ["......."] * 5 + [".oooo.."])
    game = game_at("expert", 2, board, scores=(8, 9))
    game.play("L1")
    game.play("xa1-e1")
    assert game.outcome is not None
    assert (game.outcome.winners, game.outcome.reason) == ((0,), EndReason.POINTS)
    assert game.position().split()[3:] == ["o", "over", "20,21", "10,9", "0,0"]


def test_zero_point_line_in_extreme_must_be_scored() -> None:
    board = "\n".join(["......g"] + ["......."] * 5 + [".ooo..."])
    game = game_at("extreme", 2, board)
    game.play("L1")  # a line of four: 0 points, but it must be scored
    assert legal(game) == ["xa1-d1"]
    game.play("xa1-d1")
    assert picture(game).split("\n")[6] == "o..o..."
    assert field(game, 5) == "20,21" and field(game, 6) == "0,0"
    assert (game.phase, field(game, 3)) == (Phase.INSERT, "o")


def test_expert_example() -> None:
    # Orange makes a line of five, scores it, removes all but the ends and moves again
    board = """
        ggg....
        ...g...
        .......
        .......
        .......
        .......
        .oooo..
        """
    game = game_at("expert", 2, board)
    game.play("L1")
    assert picture(game).split("\n")[6] == "ooooo.."
    assert game.phase is Phase.SCORE and legal(game) == ["xa1-e1"]
    game.play("xa1-e1")
    assert picture(game).split("\n")[6] == "o...o.."
    assert field(game, 5) == "20,18" and field(game, 6) == "2,0"
    assert (field(game, 3), game.phase) == ("o", Phase.INSERT)
    game.play("R4")
    assert field(game, 3) == "g"


def test_extreme_example() -> None:
    # Blue's push makes a line of three for orange (3 players: blue, then orange)
    board = """
        .......
        .......
        .......
        ......g
        .......
        .......
        oo.o...
        """
    game = game_at("extreme", 3, board, turn="b")
    game.play("L1")
    assert picture(game).split("\n")[6] == "booo..."
    # blue scores nothing (only the mover's lines count): orange moves next
    assert (game.phase, field(game, 3)) == (Phase.INSERT, "o")
    game.play("Tg")  # the line is still there after orange's insertion
    assert game.phase is Phase.SCORE
    assert legal(game) == ["xb1-d1", "xd1-b1"]
    game.play("xd1-b1")  # 0 points; b1 and c1 come off, d1 stays
    assert picture(game).split("\n")[6] == "b..o..."
    assert field(game, 5) == "20,21,21" and field(game, 6) == "0,0,0"
    assert (game.phase, field(game, 3)) == (Phase.INSERT, "o")  # and orange moves again


# the board full but a1: orange's L1 makes a line of four (a1-d1) and nothing else
FULL_BUT_A1_LINE = """
    ggbgogo
    ggbgggo
    obbbogg
    ogogbbb
    bggbogo
    obbggoo
    .ooobbg
    """
# the board full but a1: orange's L1 makes no line of four for anyone
FULL_BUT_A1_NO_LINE = """
    gogoggo
    bggboob
    oobgbgg
    bgggoob
    ogbbggg
    obbobob
    .obbbog
    """


def test_scoring_comes_before_the_board_full_check() -> None:
    game = game_at("expert", 3, FULL_BUT_A1_LINE)
    game.play("L1")  # fills the board and makes a line of four
    assert game.outcome is None and game.phase is Phase.SCORE
    assert legal(game) == ["xa1-d1", "xd1-a1"]
    game.play("xa1-d1")
    assert game.outcome is None
    assert (game.phase, field(game, 3), field(game, 6)) == (Phase.INSERT, "o", "2,0,0")
    assert picture(game).split("\n")[6] == "o...bbg"


def test_scoring_comes_before_the_empty_supply_check() -> None:
    board = "\n".join(["......g"] + ["......."] * 5 + [".oooo.."])
    game = game_at("expert", 2, board, supplies=(1, 10))
    game.play("L1")  # the last marble
    assert game.phase is Phase.SCORE and field(game, 5) == "0,10"
    game.play("xa1-e1")
    assert game.outcome is None
    assert (field(game, 3), field(game, 5)) == ("o", "3,10")


# --- 6. Handicap --------------------------------------------------------------------------
def test_handicap_skips_turns_and_keeps_the_supply() -> None:
    game = Game(Rules(Variant.EXPRESS, 2, handicap=(2, 0)), first=0)
    # orange's turn came first: one skip is used at once, green moves
    assert game.position() == "express 2 7/7/7/7/7/7/7 g insert 22,22 0,0 1,0"
    game.play("Ta")
    assert game.position() == "express 2 g6/7/7/7/7/7/7 g insert 22,21 0,0 0,0"
    game.play("Tg")
    assert game.position() == "express 2 g5g/7/7/7/7/7/7 o insert 22,20 0,0 0,0"
    assert game.history == [Action.parse("Ta"), Action.parse("Tg")]  # skips are no actions


def test_handicap_for_every_player_is_used_in_seat_order() -> None:
    game = Game(Rules(Variant.EXPERT, 3, handicap=(1, 2, 1)), first=1)
    # green skips, blue skips, orange skips, green skips again, blue moves
    assert game.position() == "expert 3 7/7/7/7/7/7/7 b insert 22,22,22 0,0,0 0,0,0"


def test_handicap_skips_are_used_as_soon_as_the_turn_passes() -> None:
    game = Game(Rules(Variant.EXPRESS, 3, handicap=(0, 1, 0)), first=0)
    assert field(game, 7) == "0,1,0"
    game.play("Ta")
    assert (field(game, 3), field(game, 7)) == ("b", "0,0,0")
    game.undo()
    assert (field(game, 3), field(game, 7)) == ("o", "0,1,0")


def test_handicap_skip_comes_before_the_empty_supply_check() -> None:
    # green has no marble but a skip pending: the skip is used and blue moves
    board = "\n".join(["......g"] + ["......."] * 5 + ["b......"])
    game = game_at("express", 3, board, supplies=(5, 0, 5), skips=(0, 1, 0))
    game.play("R4")
    assert game.outcome is None
    assert (field(game, 3), field(game, 7)) == ("b", "0,0,0")
    game.play("L4")
    assert field(game, 3) == "o"
    game.play("R3")  # now green's turn comes and green has no marble
    assert game.outcome is not None
    assert game.outcome.reason is EndReason.NO_MARBLES
    assert game.outcome.winners == (0, 1, 2)
    assert field(game, 3) == "o" and field(game, 4) == "over"


# --- 7. End of the game ----------------------------------------------------------------------
def test_board_full_ends_expert_with_the_most_points_winning() -> None:
    game = game_at("expert", 3, FULL_BUT_A1_NO_LINE, scores=(2, 5, 2))
    game.play("L1")
    assert game.outcome is not None
    assert (game.outcome.winners, game.outcome.reason) == ((1,), EndReason.BOARD_FULL)
    assert game.outcome.losers == (0, 2)
    assert game.position().split()[3:5] == ["o", "over"]


def test_expert_draw_between_the_top_scorers_the_others_lose() -> None:
    game = game_at("expert", 3, FULL_BUT_A1_NO_LINE, scores=(5, 2, 5))
    game.play("L1")
    assert game.outcome is not None
    assert game.outcome.winners == (0, 2)
    assert game.outcome.is_draw
    assert game.outcome.losers == (1,)
    assert game.outcome.status() == "over draw o b"


def test_expert_draw_between_all_when_all_share_the_most_points() -> None:
    game = game_at("expert", 3, FULL_BUT_A1_NO_LINE, scores=(3, 3, 3))
    game.play("L1")
    assert game.outcome is not None
    assert game.outcome.winners == (0, 1, 2)


def test_board_full_in_a_setup_position_ends_the_game() -> None:
    full = FULL_BUT_A1_NO_LINE.replace(".", "b")
    game = game_at("express", 3, full)
    assert game.outcome is not None and game.outcome.reason is EndReason.BOARD_FULL
    assert game.legal_actions() == []


def test_empty_supply_of_the_player_to_move_ends_the_game() -> None:
    board = "\n".join(["......g"] + ["......."] * 6)
    game = game_at("expert", 2, board, supplies=(1, 3), scores=(0, 2))
    game.play("L1")  # orange's last marble: the game goes on, green has marbles
    assert game.outcome is None and field(game, 3) == "g"
    game.play("L2")  # orange is to move without a marble
    assert game.outcome is not None
    assert (game.outcome.winners, game.outcome.reason) == ((1,), EndReason.NO_MARBLES)
    assert game.position().split()[3:6] == ["g", "over", "0,2"]


def test_game_over_refuses_every_action() -> None:
    game = game_at("express", 3, FULL_BUT_A1_NO_LINE)
    game.play("L1")
    for action in ("L1", "Ta", "xa1-d1"):
        assert_refused(game, action, GameOverError)


@pytest.mark.parametrize("limit", [0, -3, MAX_ACTION_LIMIT + 1])
def test_an_action_limit_out_of_range_is_refused(limit: int) -> None:
    with pytest.raises(ValueError, match="the action limit must be 1 to 1000000000000000000"):
        Rules(action_limit=limit)
    assert Rules(action_limit=MAX_ACTION_LIMIT).action_limit == MAX_ACTION_LIMIT


@pytest.mark.parametrize(
    ("settings", "refusal"),
    [
        ({"players": 2.0}, "a game has 2, 3 or 4 players: a whole number, not 2.0"),
        ({"players": 3.5}, "a game has 2, 3 or 4 players: a whole number, not 3.5"),
        ({"handicap": (0.5, 0)}, "0 to 6 skipped turns: a whole number, not 0.5"),
        ({"handicap": (True, 0)}, "0 to 6 skipped turns: a whole number, not True"),
        ({"action_limit": 2.5}, "must be 1 to 1000000000000000000: a whole number, not 2.5"),
        ({"action_limit": True}, "must be 1 to 1000000000000000000: a whole number, not True"),
    ],
)
def test_a_count_that_is_no_whole_number_is_refused(
    settings: dict[str, object], refusal: str
) -> None:
    """A limit of 2.5 ended the core's game after 3 actions and the environments' after
    2, and a handicap of 0.5 left -0.5 skips (a researcher's walk): counts are whole
    numbers."""
    with pytest.raises(ValueError, match=re.escape(refusal)):
        Rules(**settings)  # type: ignore[arg-type]


def test_numpy_integers_are_whole_numbers_and_become_ints() -> None:
    rules = Rules(Variant.EXPERT, np.int64(3), (np.int8(0), np.int64(2), 0), np.int32(40))
    assert rules == Rules(Variant.EXPERT, 3, (0, 2, 0), 40)
    assert type(rules.players) is int and type(rules.action_limit) is int
    assert all(type(h) is int for h in rules.handicap)


def test_action_limit_ends_the_game_when_a_turn_begins() -> None:
    game = Game(Rules(Variant.EXTREME, 2, action_limit=3), first=0)
    game.play("Ta")
    game.play("Tg")
    assert game.outcome is None
    game.play("Bd")
    assert game.outcome is not None
    assert (game.outcome.winners, game.outcome.reason) == ((0, 1), EndReason.ACTION_LIMIT)
    assert game.position() == "extreme 2 o5g/7/7/7/7/7/3o3 o over 20,21 0,0 0,0"


def test_action_limit_scores_by_points() -> None:
    board = "\n".join(["......g"] + ["......."] * 6)
    game = game_at("expert", 2, board, scores=(3, 4), limit=2)
    game.play("L1")
    game.play("L2")
    assert game.outcome is not None
    assert (game.outcome.winners, game.outcome.reason) == ((1,), EndReason.ACTION_LIMIT)


def test_action_limit_a_win_by_the_last_allowed_action_stands() -> None:
    board = "\n".join(["......g"] + ["......."] * 5 + [".ooo..."])
    game = game_at("express", 3, board, limit=1)
    game.play("L1")
    assert game.outcome is not None
    assert (game.outcome.winners, game.outcome.reason) == ((0,), EndReason.LINE)


def test_action_limit_a_pending_scoring_is_still_made() -> None:
    board = "\n".join(["......g"] + ["......."] * 5 + [".oooo.."])
    game = game_at("expert", 2, board, scores=(0, 1), limit=1)
    game.play("L1")  # the last allowed action makes a line: the scoring is still made
    assert game.outcome is None and game.phase is Phase.SCORE
    game.play("xa1-e1")
    assert game.outcome is not None
    assert (game.outcome.winners, game.outcome.reason) == ((0,), EndReason.ACTION_LIMIT)
    assert field(game, 6) == "2,1"


def test_action_limit_a_pending_scoring_that_reaches_ten_wins() -> None:
    board = "\n".join(["......g"] + ["......."] * 5 + [".oooo.."])
    game = game_at("expert", 2, board, scores=(8, 9), limit=1)
    game.play("L1")
    game.play("xa1-e1")
    assert game.outcome is not None
    assert (game.outcome.winners, game.outcome.reason) == ((0,), EndReason.POINTS)


def test_action_limit_counts_from_the_setup_position() -> None:
    board = "\n".join(["......g"] + ["......."] * 6)
    game = game_at("extreme", 2, board, limit=2)
    game.play("L1")
    assert game.outcome is None
    game.play("L2")
    assert game.outcome is not None and game.outcome.reason is EndReason.ACTION_LIMIT
    assert "limit" not in game.position()


def test_action_limit_after_scoring_ends_the_same_players_turn() -> None:
    board = "\n".join(["......g"] + ["......."] * 5 + [".oooo.."])
    game = game_at("expert", 2, board, limit=2)
    game.play("L1")
    game.play("xa1-e1")  # the second action: the turn that begins now is not played
    assert game.outcome is not None
    assert (game.outcome.winners, game.outcome.reason) == ((0,), EndReason.ACTION_LIMIT)


def test_setup_position_that_ends_at_once_with_rules() -> None:
    board = "\n".join(["......g"] + ["......."] * 6)
    position = setup("expert", 2, board, supplies=(0, 5), scores=(1, 0))
    game = Game(Rules(Variant.EXPERT, 2, action_limit=10), position=position)
    assert game.outcome is not None
    assert (game.outcome.winners, game.outcome.reason) == ((0,), EndReason.NO_MARBLES)


def test_setup_position_that_ends_at_once() -> None:
    board = "\n".join(["......g"] + ["......."] * 6)
    game = game_at("expert", 2, board, supplies=(0, 5), scores=(1, 0))
    assert game.outcome is not None
    assert (game.outcome.winners, game.outcome.reason) == ((0,), EndReason.NO_MARBLES)
    assert game.legal_actions() == []


# --- 8. Notation ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("L3", "L3"),
        ("l3", "L3"),
        ("tc", "Tc"),
        ("TC", "Tc"),
        ("bA", "Ba"),
        ("  r7 ", "R7"),
        ("xc3-g3", "xc3-g3"),
        ("XC3-G3", "xc3-g3"),
        (" Xg3-C3  ", "xg3-c3"),
    ],
)
def test_notation_ignores_case_and_surrounding_spaces(text: str, canonical: str) -> None:
    assert str(Action.parse(text)) == canonical
    assert Action.parse(text) == Action.parse(canonical)


def test_a_game_plays_notation_of_any_str_type() -> None:
    """An action read from a numpy array (``numpy.str_``) or held in a ``str`` subclass
    is notation as much as a ``str`` is."""

    class Notation(str):
        pass

    game = Game(Rules(), first=0)
    game.play(np.array(["l3"])[0])
    game.play(Notation("Tc"))
    assert [str(a) for a in game.history] == ["L3", "Tc"]


@pytest.mark.parametrize(
    "text",
    ["", " ", "L0", "L8", "Th", "T1", "B0", "Q3", "L", "3L", "L33", "Lc", "T3", "xc3", "xc3-",
     "x-g3", "xc3-c3", "xh1-a1", "xa0-a1", "xa8-a1", "yc3-g3", "xc3+g3", "c3-g3", "L3 L4",
     "L 3"],
)  # fmt: skip
def test_text_that_is_not_an_action_does_not_parse(text: str) -> None:
    with pytest.raises(ParseError):
        Action.parse(text)
    game = Game(Rules(Variant.EXPERT, 3), first=0)
    assert_refused(game, text, ParseError)


@pytest.mark.parametrize("text", ["x c3-g3", "xc3 - g3", "xc3- g3"])
def test_spaces_inside_a_scoring_are_not_ignored(text: str) -> None:
    with pytest.raises(ParseError):
        Action.parse(text)


def test_canonical_order_of_insertions() -> None:
    game = Game(Rules(Variant.EXPRESS, 2), first=0)
    assert legal(game) == ALL_INSERTIONS


def test_canonical_order_of_scorings_is_sorted_as_strings() -> None:
    # lines b2-e5 (diagonal), a4-d4 (rank) and g1-g4 (file), 4 players keep one end
    board = """
        .......
        .......
        ....o..
        oooo..o
        ..o...o
        .o....o
        ......o
        """
    game = game_at("expert", 4, board, phase="score")
    assert legal(game) == [
        "xa4-d4",
        "xb2-e5",
        "xd4-a4",
        "xe5-b2",
        "xg1-g4",
        "xg4-g1",
    ]


def test_history_uses_the_canonical_spelling() -> None:
    game = Game(Rules(Variant.EXPRESS, 2), first=0)
    game.play(" tc")
    game.play("r4 ")
    assert [str(a) for a in game.history] == ["Tc", "R4"]


def test_scoring_must_name_a_scoring_line_of_the_mover() -> None:
    board = "\n".join(["ggggg.."] + ["......."] * 5 + ["ooooo.."])
    game = game_at("expert", 3, board, phase="score")
    for action in ("xa1-d1", "xb1-e1", "xa7-e7", "xa1-a7", "xa1-c3"):
        assert_refused(game, action, IllegalActionError)


def test_scoring_is_refused_in_the_insert_phase() -> None:
    board = "\n".join(["......g"] + ["......."] * 5 + ["ooooo.."])
    game = game_at("expert", 3, board)  # a line, but an insertion is due first
    assert_refused(game, "xa1-e1", IllegalActionError)


# --- PROTOCOL.md: the position string ----------------------------------------------------------
def test_position_string_example_of_protocol() -> None:
    game = Game(Rules(Variant.EXPERT, 2), first="o")
    game.play("Td")
    assert game.position() == "expert 2 3o3/7/7/7/7/7/7 g insert 21,22 0,0 0,0"


def test_position_string_fields() -> None:
    board = """
        ...g...
        .......
        .......
        .......
        ..b....
        w......
        o.....o
        """
    position = setup(
        "extreme", 4, board, "g", "insert", (3, 21, 21, 21), (4, 0, 9, 0), (0, 0, 0, 6)
    )
    assert position == "extreme 4 3g3/7/7/7/2b4/w6/o5o g insert 3,21,21,21 4,0,9,0 0,0,0,6"
    assert State.from_position(position).position() == position


def test_position_round_trips_through_setposition_and_play() -> None:
    game = Game(Rules(Variant.EXPERT, 3, handicap=(0, 2, 1)), first=0)
    for action in ["Ta", "Tc", "Te", "Bd", "L4", "L4", "Ba"]:
        game.play(action)
        copy = Game(position=game.position())
        assert copy.state == game.state
        assert legal(copy) == legal(game)


VALID = "expert 2 3o3/7/7/7/7/7/7 g insert 21,22 0,0 0,0"


def test_a_score_phase_in_express_is_refused_for_what_it_is() -> None:
    """Green has a line of five: the reason is the variant, not a missing line."""
    with pytest.raises(InvalidPositionError) as refused:
        State.from_position("express 2 7/7/7/7/7/7/ggggg2 g score 22,17 0,0 0,0")
    assert str(refused.value) == (
        "phase score is only in Expert and Extreme: Express scores no line"
    )


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("expert 2 3o3/7/7/7/7/7/7 g insert 21,22 0,0", ParseError),  # seven fields
        (VALID + " 0,0", ParseError),  # nine fields
        ("blitz 2 3o3/7/7/7/7/7/7 g insert 21,22 0,0 0,0", ParseError),
        ("expert 1 o6/7/7/7/7/7/7 o insert 21 0 0", ParseError),
        ("expert 5 3o3/7/7/7/7/7/7 g insert 21,22,22,22,22 0,0,0,0,0 0,0,0,0,0", ParseError),
        ("expert 2 3o3/7/7/7/7/7 g insert 21,22 0,0 0,0", ParseError),  # six ranks
        ("expert 2 3o3/7/7/7/7/7/7/7 g insert 21,22 0,0 0,0", ParseError),  # eight ranks
        ("expert 2 3o2/7/7/7/7/7/7 g insert 21,22 0,0 0,0", ParseError),  # six cells
        ("expert 2 3o4/7/7/7/7/7/7 g insert 21,22 0,0 0,0", ParseError),  # eight cells
        ("expert 2 3b3/7/7/7/7/7/7 g insert 21,22 0,0 0,0", ParseError),  # not a colour here
        ("expert 2 3x3/7/7/7/7/7/7 g insert 21,22 0,0 0,0", ParseError),
        ("expert 2 3o3/7/7/7/7/7/7 b insert 21,22 0,0 0,0", ParseError),  # turn colour
        ("expert 2 3o3/7/7/7/7/7/7 g insert 21,22,22 0,0 0,0", ParseError),  # three supplies
        ("expert 2 3o3/7/7/7/7/7/7 g insert 21 0,0 0,0", ParseError),
        ("expert 2 3o3/7/7/7/7/7/7 g insert 21,22 0 0,0", ParseError),
        ("expert 2 3o3/7/7/7/7/7/7 g insert 21,22 0,0 0,0,0", ParseError),
        ("expert 2 3o3/7/7/7/7/7/7 g insert 21,x 0,0 0,0", ParseError),
        ("expert 2 3o3/7/7/7/7/7/7 g insert 21,-1 0,0 0,0", ParseError),
        ("expert 2 3o3/7/7/7/7/7/7 g play 21,22 0,0 0,0", ParseError),
        ("expert 2 3o3/7/7/7/7/7/7 g over 21,22 0,0 0,0", ParseError),
        ("expert 2 3o3/7/7/7/7/7/7 g insert 22,22 0,0 0,0", InvalidPositionError),  # 23 o
        ("expert 2 7/7/7/7/7/7/7 g insert 22,23 0,0 0,0", InvalidPositionError),
        ("expert 2 3o3/7/7/7/7/7/7 g insert 21,22 0,0 7,0", InvalidPositionError),  # 7 skips
        ("expert 2 3o3/7/7/7/7/7/7 g insert 21,22 0,0 0,1", InvalidPositionError),  # to act
        ("expert 2 3o3/7/7/7/7/7/7 g insert 21,22 10,0 0,0", InvalidPositionError),
        ("extreme 2 3o3/7/7/7/7/7/7 g insert 21,22 0,12 0,0", InvalidPositionError),
        ("expert 2 3o3/7/7/7/7/7/7 g score 21,22 0,0 0,0", InvalidPositionError),  # no line
        ("expert 2 7/7/7/7/7/7/gggg3 g score 22,18 0,0 0,0", InvalidPositionError),  # 4 < 5
        ("express 2 7/7/7/7/7/7/ggggg2 g score 22,17 0,0 0,0", InvalidPositionError),
        ("expert 3 7/7/7/7/7/7/oooo3 g score 18,22,22 0,0,0 0,0,0", InvalidPositionError),
        ("expert 2 3o3/7/7/7/7/7/7 g insert 21,²2 0,0 0,0", ParseError),
        ("expert 2 3o3/7/7/7/7/7/7 g insert 21,2٢ 0,0 0,0", ParseError),
    ],
)
def test_setposition_refusals(text: str, error: type[Exception]) -> None:
    game = Game(Rules(Variant.EXPERT, 2), first=0)
    game.play("Td")
    before = game.position()
    with pytest.raises(error):
        State.from_position(text)
    with pytest.raises(error):
        Game(position=text)
    assert issubclass(error, ShiftagoError) and issubclass(error, ValueError)
    assert game.position() == before


@pytest.mark.parametrize(
    "text",
    [
        "expert 2 7/7/7/7/7/7/7 o insert 22,22 0,0 0,0",
        "expert 2 7/7/7/7/7/7/7 o insert 3,0 9,9 0,6",  # fewer marbles in a set-up
        "expert 2 ooooooo/ggggggg/ooooooo/ggggggg/ooo4/7/7 o insert 5,8 0,0 0,0",
        "extreme 2 7/7/7/7/7/7/oooo3 o score 18,22 0,0 0,0",
        "extreme 3 7/7/7/7/7/7/ooo4 o score 19,22,22 0,0,0 0,0,0",
        "express 4 7/7/7/7/7/7/7 w insert 22,22,22,22 0,0,0,0 6,6,6,0",
    ],
)
def test_setposition_accepts_valid_positions(text: str) -> None:
    assert State.from_position(text).position() == text


@pytest.mark.parametrize(
    ("text", "winners", "reason"),
    [
        ("express 2 7/7/7/7/7/7/ooooo2 o over 17,22 0,0 0,0", (0,), EndReason.LINE),
        ("express 3 7/7/7/7/7/7/1bbbb2 b over 22,22,18 0,0,0 0,0,0", (2,), EndReason.LINE),
        ("expert 2 7/7/7/7/7/7/1gg4 g over 20,19 3,10 0,0", (1,), EndReason.POINTS),
        ("extreme 2 7/7/7/7/7/7/1gg4 o over 0,19 3,4 0,0", (1,), EndReason.NO_MARBLES),
        ("express 2 7/7/7/7/7/7/1gg4 o over 9,19 0,0 0,0", (0, 1), EndReason.ACTION_LIMIT),
    ],
)
def test_the_end_of_a_game_is_read_for_showing_and_never_set_up(
    text: str, winners: tuple[int, ...], reason: EndReason
) -> None:
    state = State.from_position(text, finished=True)
    assert state.is_over and state.position() == text and state.legal_actions() == []
    assert state.outcome is not None
    assert (state.outcome.winners, state.outcome.reason) == (winners, reason)
    with pytest.raises(ParseError, match="the game is over in this position"):
        State.from_position(text)  # setposition: nothing to play


@pytest.mark.parametrize(
    "text",
    [
        "expert 2 7/7/7/7/7/7/1gg4 o over 20,19 3,10 0,0",  # a winning score not the last mover's
        "expert 2 7/7/7/7/7/7/1gg4 g over 20,19 10,10 0,0",
        "expert 2 7/7/7/7/7/7/1gg4 g ended 20,19 3,10 0,0",
        "express 2 7/7/7/7/7/7/7 o over 22,22 0,0 0,0",  # every action leaves a marble
    ],
)
def test_an_impossible_end_of_a_game_is_refused(text: str) -> None:
    with pytest.raises(ShiftagoError):
        State.from_position(text, finished=True)
