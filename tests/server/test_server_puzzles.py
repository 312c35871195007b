"""Puzzles over HTTP (puzzles/routes.py, WEBAPI.md "Puzzles"): the next puzzle near the
player's rating and of a theme, the daily puzzle, attempts judged action by action with
the defence's reply and the solution, bad input refused with a code and nothing rated,
and a signed-in player's first finished attempt rated by Glicko-2 (puzzle and player)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from shiftago.core import Action, State
from shiftago.engine.puzzles.shipped import shipped
from shiftago.engine.puzzles.solving import prove
from shiftago.interfaces.server.db.schema import PuzzleRoundRow, PuzzleRow
from shiftago.interfaces.server.puzzles import choosing
from shiftago.interfaces.server.puzzles import store as puzzles_store
from support.accounts_support import as_account, sign_up
from support.server_support import client_for, fresh_database

FIELDS = {"id", "variant", "players", "position", "goal", "actions", "rating", "themes"}


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return fresh_database(request, request.param, tmp_path)


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'puzzles.db'}"


def shipped_by_id() -> dict[str, Any]:
    return {p.id: p for p in shipped()}


def rows(client: TestClient, row: type[Any]) -> int:
    store = client.app.state.hub.store  # type: ignore[attr-defined]
    with store.sessions() as s:
        return s.query(row).count()  # type: ignore[no-any-return]


def test_next_answers_a_shipped_puzzle_as_the_contract_says(db_url: str) -> None:
    with client_for(db_url) as client:
        answer = client.get("/api/puzzles/next")
        assert answer.status_code == 200, answer.text
        body = answer.json()
        assert set(body) == FIELDS
        puzzle = shipped_by_id()[body["id"]]
        assert body["position"] == puzzle.position
        assert body["actions"] == puzzle.actions
        assert body["themes"] == list(puzzle.themes)
        # the seat to act in the position is the solver's, and its proof holds
        proof = prove(State.from_position(body["position"]), body["actions"])
        assert proof.fewest == body["actions"] and proof.is_puzzle
        assert rows(client, PuzzleRow) == len(shipped())


def test_next_of_a_theme_and_an_unknown_theme(db_url: str) -> None:
    with client_for(db_url) as client:
        for theme in ("win-in-3", "expert", "players-4", "score-the-right-line"):
            body = client.get("/api/puzzles/next", params={"theme": theme}).json()
            assert theme in body["themes"], body
        bad = client.get("/api/puzzles/next", params={"theme": "mate-in-9"})
        assert bad.status_code == 422
        assert bad.json()["code"] == "invalid"


def test_the_goal_is_in_words_for_the_variant(sqlite_url: str) -> None:
    with client_for(sqlite_url) as client:
        express = client.get("/api/puzzles/next", params={"theme": "express"}).json()
        n = express["actions"]
        assert express["goal"].startswith("Make a winning line in")
        assert f" {n} action" in express["goal"]
        expert = client.get("/api/puzzles/next", params={"theme": "expert"}).json()
        assert expert["goal"].startswith("Reach 10 points in")


def test_the_daily_puzzle_is_the_same_all_day(sqlite_url: str) -> None:
    with client_for(sqlite_url) as client:
        first = client.get("/api/puzzles/daily")
        assert first.status_code == 200
        assert set(first.json()) == FIELDS
        assert client.get("/api/puzzles/daily").json()["id"] == first.json()["id"]


def csrf(cookies: dict[str, str]) -> dict[str, str]:
    """The header a signed-in change needs."""
    return {"X-CSRF-Token": cookies["csrf"]}


def _solve(
    client: TestClient, puzzle: Any, headers: dict[str, str] | None = None
) -> list[dict[str, Any]]:
    """Play the puzzle's solution action by action, as a page would."""
    solver = [puzzle.solution[0]]
    answers = []
    line = list(puzzle.solution)
    while True:
        answer = client.post(
            f"/api/puzzles/{puzzle.id}/attempt", json={"actions": solver}, headers=headers
        )
        assert answer.status_code == 200, answer.text
        body = answer.json()
        answers.append(body)
        if body["solved"] or not body["correct"]:
            return answers
        # the next solver action follows the reply in the solution line
        played = len(solver) + sum(len(a["reply"]) for a in answers)
        solver.append(line[played])


def test_an_attempt_played_through_is_solved_with_the_defence_as_replies(db_url: str) -> None:
    with client_for(db_url) as client:
        puzzle = next(
            p for p in shipped() if p.actions == 3 and p.players == 2 and p.variant == "express"
        )
        answers = _solve(client, puzzle)
        assert all(a["correct"] for a in answers)
        assert answers[-1]["solved"]
        assert answers[-1]["solution"] == list(puzzle.solution)
        assert all("solution" not in a for a in answers[:-1])
        replies = [r for a in answers for r in a["reply"]]
        assert replies == [puzzle.solution[1], puzzle.solution[3]]


def test_a_wrong_first_action_fails_with_the_refutation_and_the_solution(sqlite_url: str) -> None:
    with client_for(sqlite_url) as client:
        puzzle = next(p for p in shipped() if p.actions == 1 and p.variant == "express")
        state = puzzle.state
        wrong = next(str(a) for a in state.legal_actions() if str(a) != puzzle.solution[0])
        answer = client.post(f"/api/puzzles/{puzzle.id}/attempt", json={"actions": [wrong]})
        assert answer.status_code == 200
        body = answer.json()
        assert (body["correct"], body["solved"]) == (False, False)
        assert body["solution"] == list(puzzle.solution)
        assert body["reply"], "the refutation is the defence's reply"
        assert "player" not in body  # signed out: nothing is rated
        # a wrong action that still wins, too slowly, says in how many actions in all
        slow = client.post("/api/puzzles/express-2-f8e1d9c9e2/attempt", json={"actions": ["L3"]})
        assert slow.json()["correct"] is False and slow.json()["wins_in"] == 3


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"actions": ["Q9"]}, "illegal_action"),
        ({"actions": []}, "invalid"),
        ({"actions": "L1"}, "invalid"),
        ({"actions": ["L1"], "extra": 1}, "invalid"),
        ({"actions": [5]}, "invalid"),
    ],
)
def test_bad_attempts_are_refused_with_a_code(sqlite_url: str, body: Any, code: str) -> None:
    with client_for(sqlite_url) as client:
        puzzle_id = client.get("/api/puzzles/next").json()["id"]
        cookies = sign_up(client, "solver")
        with as_account(client, cookies):
            answer = client.post(
                f"/api/puzzles/{puzzle_id}/attempt", json=body, headers=csrf(cookies)
            )
            assert answer.status_code == 422, answer.text
            assert answer.json()["code"] == code
            assert rows(client, PuzzleRoundRow) == 0


def test_an_action_after_the_end_is_refused(sqlite_url: str) -> None:
    with client_for(sqlite_url) as client:
        puzzle = next(p for p in shipped() if p.actions == 1 and p.variant == "express")
        more = [puzzle.solution[0], "L1"]
        answer = client.post(f"/api/puzzles/{puzzle.id}/attempt", json={"actions": more})
        assert answer.status_code == 422
        assert answer.json()["code"] == "illegal_action"


def test_an_unknown_puzzle_is_a_404(sqlite_url: str) -> None:
    with client_for(sqlite_url) as client:
        answer = client.post("/api/puzzles/nothing/attempt", json={"actions": ["L1"]})
        assert answer.status_code == 404
        assert answer.json()["code"] == "not_found"


def test_a_signed_in_players_first_attempt_moves_both_ratings_once(db_url: str) -> None:
    with client_for(db_url) as client:
        cookies = sign_up(client, "solver")
        puzzle = next(p for p in shipped() if p.actions == 1 and p.variant == "express")
        with as_account(client, cookies):
            answers = _solve(client, puzzle, csrf(cookies))
            player = answers[-1]["player"]
            assert player["rated"] is True
            assert player["rating"] > 1500  # a win against a puzzle
            assert player["streak"] == 1
            store = client.app.state.hub.store  # type: ignore[attr-defined]
            with store.sessions() as s:
                row = s.get(PuzzleRow, puzzle.id)
                assert row.rating < puzzle.rating and row.attempts == 1
            again = _solve(client, puzzle, csrf(cookies))[-1]["player"]
            assert again["rated"] is False
            assert again["rating"] == player["rating"]
            # the next puzzle is one the account has not played
            for _ in range(5):
                assert client.get("/api/puzzles/next").json()["id"] != puzzle.id
        # a failure ends the streak and lowers the rating
        other = next(
            p for p in shipped() if p.actions == 1 and p.variant == "express" and p.id != puzzle.id
        )
        wrong = next(str(a) for a in other.state.legal_actions() if str(a) != other.solution[0])
        with as_account(client, cookies):
            failed = client.post(
                f"/api/puzzles/{other.id}/attempt", json={"actions": [wrong]}, headers=csrf(cookies)
            )
            body = failed.json()["player"]
            assert body["rated"] is True and body["streak"] == 0
            assert body["rating"] < player["rating"]


GOAL_PO = """msgid ""
msgstr ""
"Language: de\\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\\n"
"Content-Type: text/plain; charset=utf-8\\n"

#, python-format
msgid "Make a winning line in %(n)s action, whatever the others play."
msgid_plural "Make a winning line in %(n)s actions, whatever the others play."
msgstr[0] "Bilde in %(n)s Zug eine Gewinnreihe, was die anderen auch spielen."
msgstr[1] "Bilde in %(n)s Zügen eine Gewinnreihe, was die anderen auch spielen."
"""


def test_the_goal_comes_in_the_requests_language(tmp_path: Path) -> None:
    locale = tmp_path / "locale"
    (locale / "de" / "LC_MESSAGES").mkdir(parents=True)
    (locale / "shiftago.pot").write_text(GOAL_PO.replace('"Language: de\\n"\n', ""))
    (locale / "de" / "LC_MESSAGES" / "shiftago.po").write_text(GOAL_PO, encoding="utf-8")
    url = f"sqlite:///{tmp_path / 'db.sqlite'}"
    defended = [p for p in shipped() if len(p.solution) > p.actions]  # the others act too
    three = next(p for p in defended if p.variant == "express" and p.players == 3)
    two = next(p for p in defended if p.variant == "express" and p.players == 2)
    with client_for(url, locale_dir=locale, preview_languages=True) as client:
        german = client.get(f"/api/puzzles/{three.id}", params={"lang": "de"}).json()
        word = "Zug " if german["actions"] == 1 else "Zügen "
        assert german["goal"] == (
            f"Bilde in {german['actions']} {word}eine Gewinnreihe, was die anderen auch spielen."
        )
        header = {"Accept-Language": "de-DE,de;q=0.9"}
        daily = client.get("/api/puzzles/daily", headers=header).json()
        if daily["variant"] == "express" and daily["players"] > 2:
            assert daily["goal"].startswith("Bilde in")
        english = client.get(f"/api/puzzles/{three.id}").json()
        assert english["goal"].startswith("Make a winning line")
        # with 2 players the goal speaks of the opponent, not of "the others"
        alone = client.get(f"/api/puzzles/{two.id}").json()
        assert alone["goal"].endswith(", whatever the opponent plays."), alone["goal"]


def test_a_goal_names_no_opponent_who_never_acts(tmp_path: Path) -> None:
    """An insertion and its scoring, or one winning insertion, leave the opponent no
    action: "whatever the opponent plays" stood over 1,427 of the 2,706 puzzles (a Dutch
    walk)."""
    two = [p for p in shipped() if p.players == 2]
    solo = {
        "express": next(p for p in two if p.variant == "express" and p.actions == 1),
        "expert": next(p for p in two if p.variant == "expert" and len(p.solution) == p.actions),
    }
    with client_for(f"sqlite:///{tmp_path / 'db.sqlite'}") as client:
        express = client.get(f"/api/puzzles/{solo['express'].id}").json()
        expert = client.get(f"/api/puzzles/{solo['expert'].id}").json()
    assert express["goal"] == "Make a winning line in 1 action."
    assert expert["goal"] == (
        "Reach 10 points in 2 actions. Each scoring of a line is one of these actions."
    )


def test_the_daily_puzzle_changes_with_the_day() -> None:
    days = [dt.date(2026, 12, 1) + dt.timedelta(days=k) for k in range(30)]
    picks = {choosing.daily_index(day, 2706) for day in days}
    assert len(picks) > 25
    assert all(0 <= pick < 2706 for pick in picks)


def test_the_next_puzzle_is_near_the_players_rating(sqlite_url: str) -> None:
    with client_for(sqlite_url) as client:
        guest = [client.get("/api/puzzles/next").json()["rating"] for _ in range(5)]
        store = client.app.state.hub.store  # type: ignore[attr-defined]
        # a guest's puzzles are among the 12 nearest 1500: no farther than the 12th
        farthest = sorted(abs(p.rating - 1500) for p in shipped())[11]
        assert all(abs(r - 1500) <= farthest for r in guest)
        high = puzzles_store.puzzles_near(store, 2300, None, None, 12)
        low = puzzles_store.puzzles_near(store, 900, None, None, 12)
        assert min(p.rating.rating for p in high) > max(p.rating.rating for p in low)
        assert [p.rating.rating for p in high] == sorted(
            (p.rating.rating for p in high), reverse=True
        )


def test_a_wrong_action_answers_its_refutation_which_holds_off_the_goal(sqlite_url: str) -> None:
    with client_for(sqlite_url) as client:
        puzzle = next(
            p for p in shipped() if p.actions == 2 and p.variant == "express" and p.players == 2
        )
        state = puzzle.state
        wrong = next(a for a in state.legal_actions() if str(a) != puzzle.solution[0])
        body = client.post(
            f"/api/puzzles/{puzzle.id}/attempt", json={"actions": [str(wrong)]}
        ).json()
        assert body["correct"] is False
        assert body["refutation"] == body["reply"] and body["refutation"]
        after = state.after(wrong)
        for action in body["refutation"]:
            after = after.after(Action.parse(action))
        # the refutation leaves the solver to act without a win in the actions left
        if not after.is_over:
            assert after.turn == state.turn
            assert prove(after, puzzle.actions - 1).fewest is None
        # a right action has no refutation
        right = client.post(
            f"/api/puzzles/{puzzle.id}/attempt", json={"actions": [puzzle.solution[0]]}
        ).json()
        assert right["correct"] is True and "refutation" not in right


def test_one_puzzle_by_its_id(sqlite_url: str) -> None:
    with client_for(sqlite_url) as client:
        puzzle = next(p for p in shipped() if "defend" in p.themes)
        body = client.get(f"/api/puzzles/{puzzle.id}").json()
        assert set(body) == FIELDS
        assert (body["id"], body["position"], body["actions"]) == (
            puzzle.id,
            puzzle.position,
            puzzle.actions,
        )
        assert "defend" in body["themes"]
        missing = client.get("/api/puzzles/express-2-0000000000")
        assert missing.status_code == 404 and missing.json()["code"] == "not_found"
        assert client.get("/api/puzzles/" + "x" * 40).status_code == 404


def test_the_defend_theme_is_chosen(sqlite_url: str) -> None:
    with client_for(sqlite_url) as client:
        for _ in range(3):
            body = client.get("/api/puzzles/next", params={"theme": "defend"}).json()
            assert "defend" in body["themes"]


def test_me_is_the_signed_in_players_puzzle_rating_and_moves_with_it(sqlite_url: str) -> None:
    with client_for(sqlite_url) as client:
        signed_out = client.get("/api/puzzles/me")
        assert signed_out.status_code == 401 and signed_out.json()["code"] == "signed_out"
        cookies = sign_up(client, "meplayer")
        puzzle = next(p for p in shipped() if p.actions == 1 and p.variant == "express")
        with as_account(client, cookies):
            first = client.get("/api/puzzles/me").json()
            assert first == {
                "rating": 1500,
                "deviation": 350,
                "puzzles": 0,
                "streak": 0,
                "best_streak": 0,
            }
            rated = _solve(client, puzzle, csrf(cookies))[-1]["player"]
            assert rated["change"] == rated["rating"] - 1500 > 0
            now = client.get("/api/puzzles/me").json()
            assert (now["rating"], now["puzzles"], now["streak"], now["best_streak"]) == (
                rated["rating"],
                1,
                1,
                1,
            )
            again = _solve(client, puzzle, csrf(cookies))[-1]["player"]
            assert again["rated"] is False and again["change"] == 0


def test_attempts_per_address_are_limited_with_a_429(sqlite_url: str) -> None:
    with client_for(sqlite_url, puzzle_attempts_per_minute=2) as client:
        puzzle = next(p for p in shipped() if p.actions == 1 and p.variant == "express")
        cookies = sign_up(client, "hurried")
        with as_account(client, cookies):
            wrong = next(
                str(a) for a in puzzle.state.legal_actions() if str(a) != puzzle.solution[0]
            )
            for _ in range(2):
                body = {"actions": ["Q9"]}
                answer = client.post(
                    f"/api/puzzles/{puzzle.id}/attempt", json=body, headers=csrf(cookies)
                )
                assert answer.status_code == 422
            over = client.post(
                f"/api/puzzles/{puzzle.id}/attempt",
                json={"actions": [wrong]},
                headers=csrf(cookies),
            )
            assert over.status_code == 429
            assert over.json()["code"] == "rate_limited"
            assert 1 <= int(over.headers["Retry-After"]) <= 60
            assert rows(client, PuzzleRoundRow) == 0  # nothing was judged or rated
            # other requests are not counted with the attempts
            assert client.get("/api/puzzles/next").status_code == 200


def test_the_puzzles_pages_are_served_and_marked_in_the_menu(sqlite_url: str) -> None:
    with client_for(sqlite_url) as client:
        puzzle = shipped()[0]
        for address in ("/puzzles", f"/puzzles/{puzzle.id}", "/puzzles?daily=1"):
            answer = client.get(address)
            assert answer.status_code == 200, address
            assert 'data-menu="puzzles" aria-current="page"' in answer.text
            assert "/static/puzzles.js" in answer.text
        home = client.get("/").text
        assert 'href="/puzzles?daily=1"' in home and 'data-menu="puzzles"' in home
