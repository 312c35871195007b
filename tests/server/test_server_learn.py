"""Lessons over HTTP (learn/routes.py, docs/web-protocol.md "Lessons"): the lessons and
their steps in the request's language, tries judged by the server with the reason of a
miss and the position reached, bad tries refused with a code, and a signed-in
account's progress kept, merged (never lowered) and refused when it names no lesson."""

from __future__ import annotations

from pathlib import Path

import pytest

from shiftago.core import State
from shiftago.interfaces.shared.learn import LESSONS
from support.accounts_support import as_account, sign_up
from support.server_support import client_for, fresh_database


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return fresh_database(request, request.param, tmp_path)


def csrf(cookies: dict[str, str]) -> dict[str, str]:
    return {"X-CSRF-Token": cookies["csrf"]}


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'learn.db'}"


def test_the_list_names_every_lesson_in_order_with_its_steps(sqlite_url: str) -> None:
    with client_for(sqlite_url) as client:
        answer = client.get("/api/learn")
        assert answer.status_code == 200
        lessons = answer.json()["lessons"]
        assert [x["id"] for x in lessons] == [lesson.id for lesson in LESSONS]
        assert [x["steps"] for x in lessons] == [len(lesson.steps) for lesson in LESSONS]
        assert lessons[0]["title"] == "Pushing a marble in"


def test_a_lesson_and_its_goals_come_in_the_requests_language(sqlite_url: str) -> None:
    with client_for(sqlite_url) as client:
        english = client.get("/api/learn/push").json()
        german = client.get("/api/learn/push?lang=de").json()
        assert english["steps"][0]["goal"].startswith("Push a marble in")
        assert german["steps"][0]["goal"] != english["steps"][0]["goal"]
        assert german["title"] != english["title"]
        step = english["steps"][0]
        assert step["view"]["position"] == State.from_position(step["position"]).position()
        assert "Bc" in step["view"]["legal"] and step["tryable"] == step["view"]["legal"]
        assert english["next"] == LESSONS[1].id
        assert client.get(f"/api/learn/{LESSONS[-1].id}").json()["next"] is None


def test_a_full_lanes_step_lets_the_page_try_the_full_lanes(sqlite_url: str) -> None:
    with client_for(sqlite_url) as client:
        step = client.get("/api/learn/full").json()["steps"][1]
        assert "L4" not in step["view"]["legal"] and "L4" in step["tryable"]


def test_a_try_that_meets_the_goal_says_so_with_the_position_reached(sqlite_url: str) -> None:
    with client_for(sqlite_url) as client:
        answer = client.post("/api/learn/full/2/try", json={"actions": ["ba"]})
        assert answer.status_code == 200
        body = answer.json()
        assert (body["status"], body["code"], body["actions"]) == ("met", "met", ["Ba"])
        assert body["view"]["result"]["winners"] == ["o"]
        assert body["view"]["motion"]["entry"] == "a1"
        assert body["done"].startswith("The push up file a")


def test_a_wrong_try_is_explained_and_a_refused_push_changes_nothing(sqlite_url: str) -> None:
    with client_for(sqlite_url) as client:
        start = client.get("/api/learn/full").json()["steps"][1]["view"]["position"]
        full = client.post("/api/learn/full/2/try", json={"actions": ["L4"]}).json()
        assert (full["status"], full["code"], full["actions"]) == ("missed", "lane_full", [])
        assert full["view"]["position"] == start
        assert "lane is full" in full["words"]
        wrong = client.post("/api/learn/full/2/try?lang=fr", json={"actions": ["Tg"]}).json()
        assert (wrong["status"], wrong["code"], wrong["actions"]) == ("missed", "no_line", ["Tg"])
        assert wrong["view"]["position"] != start and "Tg" in wrong["words"]
        english = client.post("/api/learn/full/2/try", json={"actions": ["Tg"]}).json()
        assert english["words"] != wrong["words"]


def test_a_step_of_several_actions_goes_on_until_decided(sqlite_url: str) -> None:
    with client_for(sqlite_url) as client:
        first = client.post("/api/learn/expert/4/try", json={"actions": ["xa1-e1"]}).json()
        assert first["status"] == "going_on" and first["view"]["turn"] == "o"
        whole = ["xa1-e1", "Bg", "xg1-g5"]
        answer = client.post("/api/learn/expert/4/try", json={"actions": whole})
        assert answer.json()["status"] == "met"


@pytest.mark.parametrize(
    ("path", "body", "status", "code"),
    [
        ("/api/learn/nope/1/try", {"actions": ["L1"]}, 404, "not_found"),
        ("/api/learn/push/9/try", {"actions": ["L1"]}, 404, "not_found"),
        ("/api/learn/push/0/try", {"actions": ["L1"]}, 404, "not_found"),
        ("/api/learn/push/1/try", {"actions": ["zz"]}, 422, "bad_try"),
        ("/api/learn/push/1/try", {"actions": ["Bc", "L1"]}, 422, "bad_try"),
        ("/api/learn/expert/4/try", {"actions": ["L1", "xa1-e1"]}, 422, "bad_try"),
        ("/api/learn/push/1/try", {"actions": []}, 422, "invalid"),
        ("/api/learn/push/1/try", {"actions": ["L1"] * 9}, 422, "invalid"),
        ("/api/learn/push/1/try", {"actions": ["L1"], "more": 1}, 422, "invalid"),
        ("/api/learn/push/1/try", {"actions": [3]}, 422, "invalid"),
    ],
)
def test_bad_tries_are_refused_with_a_code(
    sqlite_url: str, path: str, body: object, status: int, code: str
) -> None:
    with client_for(sqlite_url) as client:
        answer = client.post(path, json=body)
        assert answer.status_code == status, answer.text
        assert answer.json()["code"] == code
    with client_for(sqlite_url) as client:
        assert client.get("/api/learn/nope").status_code == 404


def test_progress_needs_an_account(sqlite_url: str) -> None:
    with client_for(sqlite_url) as client:
        assert client.get("/api/account/learn").status_code == 401
        answer = client.put("/api/account/learn", json={"lessons": {"push": 1}})
        assert answer.status_code == 401 and answer.json()["code"] == "signed_out"


def test_an_accounts_progress_is_kept_and_only_grows(db_url: str) -> None:
    with client_for(db_url) as client:
        ann = sign_up(client, "ann")
        ben = sign_up(client, "ben")
        with as_account(client, ann):
            assert client.get("/api/account/learn").json() == {"lessons": {}}
            put = client.put(
                "/api/account/learn", json={"lessons": {"push": 2, "full": 1}}, headers=csrf(ann)
            )
            assert put.status_code == 200 and put.json() == {"lessons": {"push": 2, "full": 1}}
            # a browser that knows less merges in without taking any away
            lower = client.put(
                "/api/account/learn", json={"lessons": {"push": 1, "block": 2}}, headers=csrf(ann)
            )
            assert lower.json() == {"lessons": {"push": 2, "full": 1, "block": 2}}
            assert client.get("/api/account/learn").json()["lessons"]["push"] == 2
        with as_account(client, ben):
            assert client.get("/api/account/learn").json() == {"lessons": {}}


@pytest.mark.parametrize(
    "lessons",
    [{"nope": 1}, {"push": 4}, {"push": -1}, {"push": "2"}, {"push": 1.5}, [1]],
    ids=["no-lesson", "too-many-steps", "negative", "text", "fraction", "not-an-object"],
)
def test_progress_that_names_no_lesson_or_too_many_steps_is_refused(
    sqlite_url: str, lessons: object
) -> None:
    with client_for(sqlite_url) as client:
        ann = sign_up(client, "ann")
        with as_account(client, ann):
            answer = client.put("/api/account/learn", json={"lessons": lessons}, headers=csrf(ann))
            assert answer.status_code == 422, answer.text
            assert client.get("/api/account/learn").json() == {"lessons": {}}


def test_the_pages_are_served_and_an_unknown_lesson_is_not_found(sqlite_url: str) -> None:
    with client_for(sqlite_url) as client:
        assert 'id="lessons"' in client.get("/learn").text
        lesson = client.get("/learn/push")
        assert lesson.status_code == 200 and 'id="board"' in lesson.text
        assert client.get("/learn/nope").status_code == 404


def test_the_lessons_page_says_how_progress_reaches_other_devices(sqlite_url: str) -> None:
    # a Dutch learner did not know that signing in on her tablet once brings its progress
    # to the account, so that her laptop shows it too
    with client_for(sqlite_url) as client:
        english = client.get("/learn").text
        dutch = client.get("/learn?lang=nl").text
    assert "sign in once on each device you learn on" in english
    assert "log op elk apparaat waarop je leert één keer in" in dutch
