"""The analysis board's endpoints (docs/web-protocol.md): ``POST /api/positions`` and
``POST /api/positions/play``: the core's view of any position, and its refusals as 422."""

from __future__ import annotations

from pathlib import Path

import pytest

from shiftago import Action, Game, State
from support.server_support import client_for

START = "express 2 7/7/7/7/7/7/7 o insert 22,22 0,0 0,0"
#: Orange to score a line of five at the bottom; 8 points already with 3 players.
EXPERT_SCORE = "expert 3 7/7/7/7/7/7/ooooo2 o score 17,22,22 8,0,0 0,0,0"
#: Orange has four in a row on rank 1: L1 would push them to five.
EXPRESS_FOUR = "express 2 7/7/7/7/g6/g6/oooo3 o insert 18,20 0,0 0,0"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory):
    path: Path = tmp_path_factory.mktemp("positions") / "p.db"
    with client_for(f"sqlite:///{path}") as client:
        yield client


def core_message(fn, *args) -> str:
    with pytest.raises(ValueError) as error:
        fn(*args)
    return str(error.value)


def test_a_position_as_the_server_sees_it(client):
    answer = client.post(
        "/api/positions", json={"position": "  EXPRESS 2 7/7/7/7/7/7/7 O Insert 22,22 0,0 0,0 "}
    )
    assert answer.status_code == 200, answer.text
    view = answer.json()
    assert view == {
        "position": START,
        "variant": "express",
        "players": 2,
        "turn": "o",
        "phase": "insert",
        "legal": [str(a) for a in State.from_position(START).legal_actions()],
        "pushes": {str(a): [] for a in State.from_position(START).legal_actions()},
        "apart": False,
        "scoring": [],
        "supplies": [22, 22],
        "scores": [0, 0],
        "skips": [0, 0],
        "result": None,
        "motion": None,
    }
    assert len(view["legal"]) == 28


def test_the_pushes_say_which_marbles_each_legal_insertion_shifts(client):
    view = client.post("/api/positions", json={"position": EXPRESS_FOUR}).json()
    assert list(view["pushes"]) == view["legal"]
    assert view["pushes"]["L1"] == [
        {"from": "d1", "to": "e1"},
        {"from": "c1", "to": "d1"},
        {"from": "b1", "to": "c1"},
        {"from": "a1", "to": "b1"},
    ]
    assert view["pushes"]["Ba"] == [
        {"from": "a3", "to": "a4"},
        {"from": "a2", "to": "a3"},
        {"from": "a1", "to": "a2"},
    ]
    assert view["pushes"]["R1"] == []


def test_the_play_answer_carries_the_motion_of_the_action(client):
    pushed = client.post("/api/positions/play", json={"position": EXPRESS_FOUR, "action": "l1"})
    assert pushed.json()["motion"] == {
        "moves": [
            {"from": "d1", "to": "e1"},
            {"from": "c1", "to": "d1"},
            {"from": "b1", "to": "c1"},
            {"from": "a1", "to": "b1"},
        ],
        "entry": "a1",
        "side": "L",
        "removed": [],
    }
    scored = client.post("/api/positions/play", json={"position": EXPERT_SCORE, "action": "xe1-a1"})
    assert scored.json()["motion"] == {
        "moves": [],
        "entry": None,
        "side": None,
        "removed": ["a1", "b1", "c1", "d1"],
    }


def test_a_score_phase_lists_the_scorings_with_their_points(client):
    view = client.post("/api/positions", json={"position": EXPERT_SCORE}).json()
    assert view["phase"] == "score" and view["turn"] == "o"
    assert view["legal"] == ["xa1-e1", "xe1-a1"]
    assert view["scoring"] == [
        {
            "action": "xa1-e1",
            "cells": ["a1", "b1", "c1", "d1", "e1"],
            "removed": ["b1", "c1", "d1", "e1"],
            "points": 5,
        },
        {
            "action": "xe1-a1",
            "cells": ["a1", "b1", "c1", "d1", "e1"],
            "removed": ["a1", "b1", "c1", "d1"],
            "points": 5,
        },
    ]


def test_a_position_over_at_once_has_its_result(client):
    full = "express 2 7/7/7/7/7/7/7 o insert 0,22 0,0 0,0"
    view = client.post("/api/positions", json={"position": full}).json()
    assert view["phase"] == "over" and view["turn"] is None and view["legal"] == []
    assert view["result"] == {"winners": ["o", "g"], "reason": "no marbles", "line": None}


def test_the_last_step_of_a_finished_game_opens_on_the_analysis_board(client):
    # "Analyse from here" at a game's last step sends the position the core wrote there
    game = Game(position="expert 2 7/7/7/7/7/7/oooo3 o insert 18,22 8,0 0,0")
    game.play("L1")
    game.play("xa1-e1")
    assert game.is_over and game.position().split()[4] == "over"
    view = client.post("/api/positions", json={"position": game.position()}).json()
    assert view["position"] == game.position() and view["phase"] == "over"
    assert view["legal"] == [] and view["result"]["winners"] == ["o"]
    assert view["result"]["reason"] == "points"
    refused = client.post("/api/positions/play", json={"position": game.position(), "action": "L1"})
    assert refused.status_code == 422 and refused.json()["field"] == "action"


@pytest.mark.parametrize(
    ("position", "action", "expected"),
    [
        (START, "l3", {"turn": "g", "phase": "insert", "supplies": [21, 22], "result": None}),
        (
            EXPRESS_FOUR,
            "L1",
            {
                "turn": None,
                "phase": "over",
                "result": {
                    "winners": ["o"],
                    "reason": "line",
                    "line": ["a1", "b1", "c1", "d1", "e1"],
                },
            },
        ),
        (
            EXPERT_SCORE,
            "xa1-e1",
            {
                "turn": None,
                "scores": [13, 0, 0],
                "result": {
                    "winners": ["o"],
                    "reason": "points",
                    "line": ["a1", "b1", "c1", "d1", "e1"],
                },
            },
        ),
    ],
)
def test_play_answers_the_position_after_the_action(client, position, action, expected):
    answer = client.post("/api/positions/play", json={"position": position, "action": action})
    assert answer.status_code == 200, answer.text
    view = answer.json()
    after = State.from_position(position).after(Action.parse(action))
    assert view["position"] == after.position()
    assert view["legal"] == [str(a) for a in after.legal_actions()]
    for key, value in expected.items():
        assert view[key] == value, key


#: The positions below that do not read as one (the others read but cannot occur).
UNREADABLE = ("bogus", "express 5 7/7/7/7/7/7/7 o insert 22,22 0,0 0,0")


@pytest.mark.parametrize(
    "position",
    [
        "bogus",
        "express 2 7/7/7/7/7/7/7 o insert 23,22 0,0 0,0",
        "express 5 7/7/7/7/7/7/7 o insert 22,22 0,0 0,0",
        "express 2 7/7/7/7/7/7/7 o insert 22,22 0,0 1,0",
        "expert 2 7/7/7/7/7/7/7 o score 22,22 0,0 0,0",
    ],
)
def test_an_impossible_position_is_422_with_the_cores_words(client, position):
    for url, body in (
        ("/api/positions", {"position": position}),
        ("/api/positions/play", {"position": position, "action": "L1"}),
    ):
        answer = client.post(url, json=body)
        assert answer.status_code == 422
        message = core_message(State.from_position, position)
        assert answer.json() == {
            "message": f"position: {message}",
            "field": "position",
            "code": "invalid",
            "reason": "unreadable" if position in UNREADABLE else "impossible",
            "words": message,  # the core's reason in the request's language: English here
        }


@pytest.mark.parametrize(
    ("position", "action", "reason"),
    [
        (START, "Q9", "not_an_action"),
        (START, "xa1-e1", "nothing_to_score"),
        (EXPERT_SCORE, "L1", "score_first"),
        (EXPERT_SCORE, "xa1-d1", "no_such_line"),
        ("express 2 ooooooo/7/7/7/7/7/7 g insert 15,22 0,0 0,0", "L7", "not_allowed"),
    ],
)
def test_an_illegal_action_is_422_with_the_cores_words(client, position, action, reason):
    answer = client.post("/api/positions/play", json={"position": position, "action": action})
    assert answer.status_code == 422
    state = State.from_position(position)
    message = core_message(lambda: state.after(Action.parse(action)))
    assert answer.json() == {
        "message": f"action: {message}",
        "field": "action",
        "code": "invalid",
        "reason": reason,  # the page's own words are chosen by it
        "words": message,
    }


def test_a_refused_position_says_the_cores_reason_in_the_requests_language(client):
    too_many = "express 2 7/7/4g2/3o3/7/7/7 g insert 22,21 0,0 0,0"
    english = client.post("/api/positions", json={"position": too_many}).json()
    german = client.post(
        "/api/positions", json={"position": too_many}, headers={"Accept-Language": "de"}
    ).json()
    assert german["message"] == english["message"]  # the message stays English
    assert german["words"] != english["words"]
    assert german["words"].startswith("Orange: 1 auf dem Spielfeld")  # its name, not "o"


@pytest.mark.parametrize(
    ("url", "content", "field"),
    [
        ("/api/positions", '{"position": 42}', "position"),
        ("/api/positions", '{"position": null}', "position"),
        ("/api/positions", '{"position": NaN}', "position"),
        ("/api/positions", '{"position": ["express"]}', "position"),
        ("/api/positions", '{"position": ""}', "position"),
        ("/api/positions", '{"position": "' + "7" * 201 + '"}', "position"),
        ("/api/positions", "{}", "position"),
        ("/api/positions", '"express"', "body"),
        ("/api/positions", "not json", "body"),
        ("/api/positions", '{"position": "' + START + '", "extra": 1}', "extra"),
        ("/api/positions/play", '{"position": "' + START + '"}', "action"),
        ("/api/positions/play", '{"position": "' + START + '", "action": NaN}', "action"),
        ("/api/positions/play", '{"position": "' + START + '", "action": Infinity}', "action"),
        ("/api/positions/play", '{"position": "' + START + '", "action": 3}', "action"),
        (
            "/api/positions/play",
            '{"position": "' + START + '", "action": "' + "L" * 201 + '"}',
            "action",
        ),
    ],
)
def test_bad_input_of_every_kind_is_422_never_500(client, url, content, field):
    answer = client.post(url, content=content, headers={"content-type": "application/json"})
    assert answer.status_code == 422, answer.text
    assert answer.json()["field"] == field
