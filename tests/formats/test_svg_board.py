"""SVG boards: valid XML, marbles with colour and symbol, arrows, highlights, escaping."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from shiftago.core import Game, Rules, State, Variant
from shiftago.core.geometry import CELL_BY_NAME
from shiftago.formats.svg_board import MARBLE_COLOURS, SYMBOLS, SvgBoard, board_svg, render_svg

NS = {"svg": "http://www.w3.org/2000/svg"}
SVG = "{http://www.w3.org/2000/svg}"


#: Orange builds a1-d1 while green and blue fill files g and f: a line of 4 (3 players).
ORANGE_LINE = ("Ba", "Tg", "Tf", "Bb", "Tg", "Tf", "Bc", "Tg", "Tf", "Bd")


def play(rules: Rules, *actions: str, first: int = 0) -> Game:
    game = Game(rules, first=first)
    for action in actions:
        game.play(action)
    return game


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    return root


def classes(element: ET.Element) -> set[str]:
    return set(element.get("class", "").split())


def marbles(root: ET.Element) -> dict[str, ET.Element]:
    found = [g for g in root.iter(f"{SVG}g") if "marble" in classes(g)]
    by_cell = {g.get("data-cell", ""): g for g in found}
    assert len(by_cell) == len(found)
    return by_cell


def cells(root: ET.Element, css_class: str) -> set[str]:
    return {
        r.get("data-cell", "")
        for r in root.iter(f"{SVG}rect")
        if "cell" in classes(r) and css_class in classes(r)
    }


def arrows(root: ET.Element) -> dict[str, ET.Element]:
    return {g.get("data-action", ""): g for g in root.iter(f"{SVG}g") if "arrow" in classes(g)}


# --- document ----------------------------------------------------------------------
def test_empty_board_is_a_standalone_svg_with_49_cells_and_coordinates():
    svg = render_svg(Game(Rules(), first=0).state)
    assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
    root = parse(svg)
    assert root.get("width") == root.get("height") == "420"
    assert root.get("viewBox")
    assert len([r for r in root.iter(f"{SVG}rect") if "cell" in classes(r)]) == 49
    labels = sorted(t.text or "" for t in root.iter(f"{SVG}text"))
    assert labels == sorted("abcdefg1234567")
    assert marbles(root) == {}
    assert root.find("svg:title", NS) is not None


def test_size_scales_the_picture_only():
    state = Game(Rules(), first=0).state
    small, large = parse(render_svg(state, size=200)), parse(render_svg(state, size=800))
    assert small.get("width") == "200" and large.get("width") == "800"
    assert small.get("viewBox") == large.get("viewBox")
    with pytest.raises(ValueError):
        render_svg(state, size=0)


# --- marbles -----------------------------------------------------------------------
def test_marble_after_l3_is_on_a3_in_orange_with_its_symbol():
    game = play(Rules(Variant.EXPERT, 3), "L3")
    found = marbles(parse(render_svg(game.state)))
    assert list(found) == ["a3"]
    marble = found["a3"]
    assert marble.get("data-colour") == "o"
    body = marble.find("svg:circle", NS)
    assert body is not None and body.get("fill") == MARBLE_COLOURS[0]
    assert marble.get("data-symbol") == SYMBOLS[0] == "none"
    assert len(list(marble)) == 2  # title and body: orange's symbol is no symbol


def test_a_pushed_run_is_drawn_where_it_moved():
    game = play(Rules(Variant.EXPERT, 3), "L3", "L3", "L3")
    found = marbles(parse(render_svg(game.state)))
    assert {cell: m.get("data-colour") for cell, m in found.items()} == {
        "a3": "b",
        "b3": "g",
        "c3": "o",
    }


def test_every_seat_has_its_own_fill_and_symbol():
    game = play(Rules(Variant.EXPERT, 4), "L3", "L3", "L3", "L3")
    found = marbles(parse(render_svg(game.state)))
    assert len(found) == 4
    seen = {}
    for marble in found.values():
        body = marble.find("svg:circle", NS)
        assert body is not None
        seen[marble.get("data-colour")] = (body.get("fill"), marble.get("data-symbol"))
        symbol = [e for e in marble if "symbol" in classes(e)]
        assert len(symbol) == (0 if marble.get("data-symbol") == "none" else 1)
    assert seen == {c: (MARBLE_COLOURS[s], SYMBOLS[s]) for s, c in enumerate("ogbw")}
    assert len(set(SYMBOLS)) == 4


def test_white_marble_has_a_dark_outline():
    game = play(Rules(Variant.EXPRESS, 4), "L1", "L2", "L3", "L4")
    white = marbles(parse(render_svg(game.state)))["a4"]
    body = white.find("svg:circle", NS)
    assert body is not None
    stroke = body.get("stroke", "#ffffff").lstrip("#")
    assert sum(int(stroke[i : i + 2], 16) for i in (0, 2, 4)) < 3 * 80


# --- last action and highlights --------------------------------------------------------
def test_last_insertion_marks_its_entry_cell_and_lane():
    game = play(Rules(Variant.EXPERT, 3), "L3", "Tc")
    root = parse(render_svg(game.state, last_action=game.history[-1]))
    assert cells(root, "last") == {"c7"}
    assert cells(root, "last-lane") == {f"c{r}" for r in range(1, 8)}
    plain = parse(render_svg(game.state))
    assert cells(plain, "last") == set() == cells(plain, "last-lane")


def test_last_scoring_marks_the_removed_cells():
    game = play(Rules(Variant.EXPERT, 3), *ORANGE_LINE, "xa1-d1")
    root = parse(render_svg(game.state, last_action=game.history[-1]))
    assert cells(root, "last") == {"b1", "c1", "d1"}
    removed = {c.get("data-cell") for c in root.iter(f"{SVG}circle") if "removed" in classes(c)}
    assert removed == {"b1", "c1", "d1"}
    group = [g for g in root.iter(f"{SVG}g") if "last-scoring" in classes(g)]
    assert [g.get("data-action") for g in group] == ["xa1-d1"]


def test_highlighted_cells():
    state = Game(Rules(), first=0).state
    wanted = ["a1", "b2", "c3"]
    root = parse(render_svg(state, highlight=[CELL_BY_NAME[n] for n in wanted]))
    assert cells(root, "highlight") == set(wanted)
    with pytest.raises(ValueError):
        render_svg(state, highlight=[7])  # a guard bit, not a cell


# --- arrows ------------------------------------------------------------------------
def test_no_arrows_unless_asked():
    assert "data-action" not in render_svg(Game(Rules(), first=0).state)


def test_28_arrows_with_titles_and_the_legal_ones_active():
    state = State.from_position(
        "express 4 w6/7/7/ogbwogo/7/7/7 o insert 18,20,21,20 0,0,0,0 0,0,0,0"
    )
    found = arrows(parse(render_svg(state, arrows=True)))
    assert len(found) == 28
    legal = {str(a) for a in state.legal_actions()}
    assert legal == {name for name in found} - {"L4", "R4"}
    for name, arrow in found.items():
        active = name in legal
        assert ("legal" in classes(arrow)) is active
        assert ("illegal" in classes(arrow)) is not active
        assert arrow.get("data-legal") == ("true" if active else "false")
        title = arrow.find("svg:title", NS)
        assert title is not None and (title.text or "").startswith(f"{name}:")


def test_arrows_are_all_inactive_in_the_score_phase():
    game = play(Rules(Variant.EXPERT, 3), *ORANGE_LINE)
    found = arrows(parse(render_svg(game.state, arrows=True)))
    assert len(found) == 28
    assert all("illegal" in classes(a) for a in found.values())


def test_last_insertion_arrow_is_marked():
    game = play(Rules(), "Bd")
    found = arrows(parse(render_svg(game.state, arrows=True, last_action=game.history[-1])))
    assert [name for name, a in found.items() if "last" in classes(a)] == ["Bd"]


# --- escaping, wrappers --------------------------------------------------------------
def test_title_text_is_escaped():
    svg = render_svg(Game(Rules(), first=0).state, title='<Ann> & "Bob"')
    assert "<Ann>" not in svg
    title = parse(svg).find("svg:title", NS)
    assert title is not None and title.text == '<Ann> & "Bob"'


def test_board_svg_of_a_game_marks_its_last_action():
    game = play(Rules(Variant.EXPERT, 3), "L3", "Tc")
    board = board_svg(game, arrows=True)
    assert isinstance(board, SvgBoard)
    assert board.last_action == game.history[-1]
    svg = board._repr_svg_()
    assert svg == str(board) == render_svg(game.state, last_action=game.history[-1], arrows=True)
    assert cells(parse(svg), "last") == {"c7"}


def test_board_svg_of_a_state_or_a_new_game_marks_nothing():
    game = Game(Rules(), first=0)
    assert board_svg(game).last_action is None
    game.play("L1")
    assert board_svg(game.state).last_action is None
    assert board_svg(game, size=300).size == 300
