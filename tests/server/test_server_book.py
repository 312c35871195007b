"""The analysis board's opening book (docs/web-protocol.md, "The opening book"):
``POST /api/positions/book`` answers the shipped book's lines at a position, in the
frame of the position asked about, and refuses what is not a position with a 422."""

from __future__ import annotations

from pathlib import Path

import pytest

from shiftago import Game, Rules, State, Variant
from shiftago.engine.book import shipped_book
from shiftago.engine.book.symmetry import transform_state
from support.server_support import client_for

START = "express 2 7/7/7/7/7/7/7 o insert 22,22 0,0 0,0"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory):
    path: Path = tmp_path_factory.mktemp("book") / "b.db"
    with client_for(f"sqlite:///{path}") as client:
        yield client


def lines_of(client, position: str) -> list[dict]:
    answer = client.post("/api/positions/book", json={"position": position})
    assert answer.status_code == 200, answer.text
    assert answer.json()["position"] == State.from_position(position).position()
    lines: list[dict] = answer.json()["lines"]
    return lines


def test_the_start_is_in_the_book_with_every_first_action_class(client):
    book = shipped_book(Variant.EXPRESS, 2)
    assert book is not None
    lines = lines_of(client, START)
    assert sorted(line["action"] for line in lines) == ["L1", "L2", "L3", "L4"]
    assert sum(line["games"] for line in lines) == book.settings["games"]
    assert [line["chosen"] for line in lines].count(True) == 1
    chosen = next(line["action"] for line in lines if line["chosen"])
    assert chosen == str(book.choice(State.from_position(START)))
    for line in lines:
        entry = book.positions[START].actions
        found = next(e for e in entry if str(e.action) == line["action"])
        assert (line["games"], line["wins"], line["draws"]) == (
            found.games,
            found.wins,
            found.draws,
        )
        assert line["score"] == found.score and line["expected"] == found.value
        assert line["proven"] in (-1, 0, 1)


def test_a_symmetric_position_gets_the_lines_in_its_own_frame(client):
    game = Game(Rules(Variant.EXPRESS, 2), first=1)
    game.play("L4")
    turned = transform_state(game.state, 5)
    lines = lines_of(client, turned.position())
    assert lines, "the book has every first action"
    legal = {str(a) for a in turned.legal_actions()}
    assert {line["action"] for line in lines} <= legal


def test_a_position_outside_the_book_has_no_lines(client):
    assert lines_of(client, "express 2 7/7/7/7/g6/g6/oooo3 o insert 18,20 0,0 0,0") == []
    over = "express 2 7/gggg3/7/7/7/7/ooooo2 g over 17,18 0,0 0,0"
    answer = client.post("/api/positions/book", json={"position": over})
    assert answer.status_code == 200 and answer.json()["lines"] == []


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ({"position": "express 2 nonsense"}, "unreadable"),
        ({"position": "express 2 7/7/7/7/7/7/ooooooo o insert 22,22 0,0 0,0"}, "impossible"),
    ],
)
def test_a_bad_position_is_refused_saying_why(client, body, reason):
    answer = client.post("/api/positions/book", json=body)
    assert answer.status_code == 422
    assert answer.json()["field"] == "position" and answer.json()["reason"] == reason


def test_a_body_that_is_not_a_position_is_refused(client):
    for body in ({}, {"position": ""}, {"position": START, "extra": 1}, {"position": 3}):
        assert client.post("/api/positions/book", json=body).status_code == 422
