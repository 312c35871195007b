"""A game's analysis over HTTP (docs/web-protocol.md, "The game's analysis"): asked for
once, growing, its JSON shape, the marks, a restart, unknown games. The reviews search a
few thousand nodes (not time), so the results repeat on any machine."""

from __future__ import annotations

import math
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from shiftago.core import Action, Game, Rules, Variant
from shiftago.engine.accuracy import action_accuracy
from shiftago.engine.bot import RankedAction
from shiftago.engine.levels import bot_for_level
from shiftago.engine.review import PlyReview, classify
from shiftago.formats.record import Record, format_record
from shiftago.interfaces.server import create_app
from shiftago.interfaces.server.analysis import reviews as analysis
from shiftago.interfaces.server.analysis.reviews import ReviewBudget
from shiftago.interfaces.server.analysis.store import AnalysisStore
from shiftago.interfaces.server.db.schema import AnalysisRow
from shiftago.interfaces.server.db.store import open_engine
from shiftago.interfaces.server.jobs.admission import (
    REVIEW_RETRY_BOUNDS,
    REVIEW_SECONDS,
    review_retry,
)
from support.server_support import addressed, at, client_for, connect, create, fresh_database
from support.waiting import wait_until

#: Small and time-free: the tests' reviews take milliseconds an action.
BUDGET = ReviewBudget(nodes=2_000, iterations=300, movetime_ms=None)
#: Green threatens a1 and f1 at once; only pushing a green marble up (Bb-Be) saves orange.
THREAT = "express 2 7/7/7/7/7/7/1gggg2 o insert 22,18 0,0 0,0"
JUDGEMENTS = {None, "inaccuracy", "mistake", "blunder"}


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return fresh_database(request, request.param, tmp_path)


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'analysis.db'}"


def played(rules: Rules, level: int, seed: int, actions: int | None = None) -> Game:
    """A game of ``level`` against itself, to its end or its first ``actions``."""
    game = Game(rules, first=0)
    bot = bot_for_level(level, seed)
    while not game.is_over and (actions is None or len(game.history) < actions):
        game.play(bot.choose(game.state))
    return game


def imported(client: Any, record: Record) -> str:
    answer = client.post("/api/games/import", json={"record": format_record(record)})
    assert answer.status_code == 201, answer.text
    return str(answer.json()["id"])


def settled(client: Any, game_id: str, seconds: float = 30.0) -> dict[str, Any]:
    """The review once it is done or failed."""
    return wait_until(
        lambda: client.get(f"/api/games/{game_id}/analysis").json(),
        lambda body: body["status"] not in ("pending", "running"),
        seconds,
    )


def done(client: Any, game_id: str, seconds: float = 30.0) -> dict[str, Any]:
    body = settled(client, game_id, seconds)
    assert body["status"] == "done", body["error"]
    return body


def reviewed(client: Any, game: Game) -> tuple[str, dict[str, Any]]:
    """The game imported, its review asked for and settled: the game's id and the review."""
    game_id = imported(client, Record.from_game(game))
    assert client.post(f"/api/games/{game_id}/analysis").status_code == 202
    return game_id, settled(client, game_id)


def rows(db_url: str) -> int:
    engine = open_engine(db_url)
    with engine.connect() as connection:
        count = connection.execute(select(func.count()).select_from(AnalysisRow)).scalar_one()
    engine.dispose()
    return int(count)


def check_shape(body: dict[str, Any], players: int, actions: list[str]) -> None:
    assert body["status"] == "done" and body["progress"] == 1.0
    assert body["version"] == len(actions) and body["level"] == 7
    assert isinstance(body["unit"], str) and body["unit"]
    assert isinstance(body["scale"], str) and body["scale"]
    assert [a["index"] for a in body["actions"]] == list(range(len(actions)))
    assert [a["action"] for a in body["actions"]] == actions
    colours = "ogbw"[:players]
    for entry in body["actions"]:
        assert entry["seat"] in colours and isinstance(entry["turn"], int)
        for key in ("value", "best_value"):
            assert isinstance(entry[key], int | float) and math.isfinite(entry[key])
        assert entry["judgement"] in JUDGEMENTS
        assert entry["pv"] and entry["pv"][0] == entry["best"]
        assert entry["proven"] in (1, 0, -1) and entry["best_proven"] in (1, 0, -1)
        for key in ("expected_before", "expected_after"):
            values = entry[key]
            assert len(values) == players and all(0 <= v <= 1 for v in values)
            assert sum(values) == pytest.approx(1, abs=0.01)
    assert body["actions"][0]["turn"] == 1
    assert [s["seat"] for s in body["summary"]] == list(colours)
    for seat in body["summary"]:
        assert seat["actions"] == sum(a["seat"] == seat["seat"] for a in body["actions"])
        marks = seat["inaccuracies"] + seat["mistakes"] + seat["blunders"]
        assert 0 <= marks <= seat["actions"]
        assert seat["accuracy"] is None or 0 <= seat["accuracy"] <= 100


def test_asked_twice_one_review_is_stored(db_url):
    game = played(Rules(Variant.EXPRESS, 2), 2, 5)
    with client_for(db_url, review_budget=BUDGET) as client:
        game_id = imported(client, Record.from_game(game))
        first = client.post(f"/api/games/{game_id}/analysis")
        second = client.post(f"/api/games/{game_id}/analysis")
        assert first.status_code == second.status_code == 202
        assert first.json()["status"] in ("pending", "running", "done")
        body = done(client, game_id)
        again = client.post(f"/api/games/{game_id}/analysis")
        assert again.status_code == 202 and again.json() == body
    assert rows(db_url) == 1


def test_a_finished_express_game_has_the_contract_shape(sqlite_url):
    game = played(Rules(Variant.EXPRESS, 2), 2, 5)
    with client_for(sqlite_url, review_budget=BUDGET) as client:
        game_id = imported(client, Record.from_game(game))
        client.post(f"/api/games/{game_id}/analysis")
        body = done(client, game_id)
        assert client.get(f"/api/games/{game_id}/analysis?probe=1").json() == body
    check_shape(body, 2, [str(a) for a in game.history])
    last = body["actions"][-1]
    winner = "og"[game.outcome.winners[0]] if game.outcome else None
    assert last["seat"] == winner and last["proven"] == 1  # the winning action is proven
    assert last["expected_after"]["og".index(winner)] == 1.0


def test_a_three_player_expert_game_has_each_seats_expectation(sqlite_url):
    game = played(Rules(Variant.EXPERT, 3), 2, 9, actions=12)
    with client_for(sqlite_url, review_budget=BUDGET) as client:
        game_id = imported(client, Record.from_game(game))
        assert client.post(f"/api/games/{game_id}/analysis").status_code == 202
        body = done(client, game_id)
    check_shape(body, 3, [str(a) for a in game.history])
    assert "mean reward" in body["unit"]
    # the MCTS gives a value per seat: the three differ somewhere in the game
    assert any(len(set(a["expected_before"])) == 3 for a in body["actions"])
    for entry in body["actions"]:  # the mover's value is its reward, its expectation
        mover = "ogb".index(entry["seat"])
        assert entry["expected_after"][mover] == pytest.approx(entry["value"], abs=1e-3)


def test_playing_into_a_loss_is_a_blunder(sqlite_url):
    game = Game(position=THREAT)
    game.play("L1")  # does not push green's line apart: green wins at once
    win = next(a for a in game.legal_actions() if game.state.after(a).outcome is not None)
    game.play(win)
    with client_for(sqlite_url, review_budget=BUDGET) as client:
        game_id = imported(client, Record.from_game(game))
        client.post(f"/api/games/{game_id}/analysis")
        body = done(client, game_id)
    blunder, winning = body["actions"]
    assert blunder["judgement"] == "blunder" and blunder["proven"] == -1
    assert blunder["best"] in {"Bb", "Bc", "Bd", "Be"}
    assert blunder["expected_after"] == [0.0, 1.0] and blunder["expected_before"][0] > 0
    assert winning["judgement"] is None and winning["proven"] == 1
    assert winning["best_proven"] == 1  # the best there wins too
    assert blunder["best_proven"] in (0, 1)  # blocking: no loss proven
    orange, green = body["summary"]
    lost = 100 * blunder["expected_before"][0]  # all of orange's expectation, given away
    assert orange["blunders"] == 1
    assert orange["accuracy"] == pytest.approx(action_accuracy(lost), abs=0.05)
    assert green["accuracy"] == 100.0


def test_progress_then_done(sqlite_url, monkeypatch):
    """While running, GET shows the actions reviewed so far and their share."""
    release = threading.Event()
    calls = []
    review = analysis.review_position

    def slow(*args: Any, **kwargs: Any) -> Any:
        if len(calls) == 3:
            release.wait(20)
        calls.append(1)
        return review(*args, **kwargs)

    monkeypatch.setattr(analysis, "review_position", slow)
    game = played(Rules(Variant.EXPRESS, 2), 2, 5, actions=10)
    with client_for(sqlite_url, review_budget=BUDGET) as client:
        game_id = imported(client, Record.from_game(game))
        client.post(f"/api/games/{game_id}/analysis")
        body = wait_until(
            lambda: client.get(f"/api/games/{game_id}/analysis").json(),
            lambda body: body["progress"] >= 0.3,
        )
        assert body["status"] == "running" and body["progress"] == 0.3
        assert [a["index"] for a in body["actions"]] == [0, 1, 2]
        release.set()
        assert done(client, game_id)["progress"] == 1.0


def test_an_interrupted_review_resumes_after_a_restart(db_url, monkeypatch):
    calls: list[int] = []
    review = analysis.review_position
    stopped = threading.Event()

    def interrupted(*args: Any, **kwargs: Any) -> Any:
        if len(calls) == 4:  # the server stops during this search, which never answers
            stopped.wait(20)
            raise RuntimeError("the search was cut short")
        calls.append(1)
        return review(*args, **kwargs)

    game = played(Rules(Variant.EXPRESS, 2), 2, 5, actions=10)
    monkeypatch.setattr(analysis, "review_position", interrupted)
    with client_for(db_url, review_budget=BUDGET) as client:
        game_id = imported(client, Record.from_game(game))
        client.post(f"/api/games/{game_id}/analysis")
        body = wait_until(
            lambda: client.get(f"/api/games/{game_id}/analysis").json(),
            lambda body: body["progress"] >= 0.4,
        )
        assert body["status"] == "running" and len(body["actions"]) == 4
    stopped.set()
    calls.clear()
    monkeypatch.setattr(
        analysis, "review_position", lambda *a, **k: calls.append(1) or review(*a, **k)
    )
    with client_for(db_url, review_budget=BUDGET) as client:
        resumed = done(client, game_id)
    assert len(calls) == 6  # only the actions not reviewed before the stop
    assert resumed["actions"][:4] == body["actions"]
    check_shape(resumed, 2, [str(a) for a in game.history])
    with client_for(db_url, review_budget=BUDGET) as client:  # no third review
        assert client.post(f"/api/games/{game_id}/analysis").json() == resumed
    assert rows(db_url) == 1


def test_unknown_games_and_games_never_analysed_are_404(sqlite_url):
    with client_for(sqlite_url, review_budget=BUDGET) as client:
        game_id, _ = create(client)
        assert client.get(f"/api/games/{game_id}/analysis").status_code == 404
        probed = client.get(f"/api/games/{game_id}/analysis?probe=1")
        assert probed.status_code == 200 and probed.json() is None
        for bad in ("x", "nosuchgame12", "a" * 30, "..%2F..%2Fetc"):
            assert client.get(f"/api/games/{bad}/analysis").status_code == 404
            assert client.get(f"/api/games/{bad}/analysis?probe=1").status_code == 404
            assert client.post(f"/api/games/{bad}/analysis").status_code == 404


def test_an_unfinished_game_with_more_actions_gets_a_new_review(sqlite_url):
    with client_for(sqlite_url, review_budget=BUDGET) as client:
        game_id, (ann, ben) = create(client, first="o")
        with connect(client, game_id) as o, connect(client, game_id) as g:
            o.hello(ann)
            g.hello(ben)
            o.act("L3", 0)
            first = client.post(f"/api/games/{game_id}/analysis").json()
            assert first["version"] == 1
            assert done(client, game_id)["version"] == 1
            g.act("Td", 1)
        assert client.post(f"/api/games/{game_id}/analysis").json()["version"] == 2
        body = done(client, game_id)
        assert [a["action"] for a in body["actions"]] == ["L3", "Td"]
        assert body["actions"][1]["turn"] == 2
    assert rows(sqlite_url) == 2


# --- reviews that fail -----------------------------------------------------------------
def failing_at(monkeypatch: pytest.MonkeyPatch, index: int) -> list[int]:
    """The search raises at action ``index`` (0-based); the calls are counted."""
    calls: list[int] = []
    review = analysis.review_position

    def search(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == index + 1:
            raise RuntimeError("the search broke")
        return review(*args, **kwargs)

    monkeypatch.setattr(analysis, "review_position", search)
    return calls


def test_a_review_whose_search_fails_is_failed_with_a_reason(sqlite_url, monkeypatch):
    failing_at(monkeypatch, 2)
    game = played(Rules(Variant.EXPRESS, 2), 2, 5, actions=6)
    with client_for(sqlite_url, review_budget=BUDGET) as client:
        _, body = reviewed(client, game)
    assert body["status"] == "failed"
    third = str(game.history[2])
    assert body["error"] == f"the computer's search failed at action 3 ({third}): RuntimeError"
    # the code and the action let a page say it in its own words
    assert body["error_code"] == "search_failed"
    assert (body["error_step"], body["error_action"]) == (3, third)
    assert [a["index"] for a in body["actions"]] == [0, 1]  # what was made stays
    assert body["progress"] == round(2 / 6, 4)


def test_asking_again_after_a_failure_starts_it_again(db_url, monkeypatch):
    review = analysis.review_position
    calls = failing_at(monkeypatch, 2)
    game = played(Rules(Variant.EXPRESS, 2), 2, 5, actions=6)
    with client_for(db_url, review_budget=BUDGET) as client:
        game_id, failed = reviewed(client, game)
        assert failed["status"] == "failed"
        assert client.get(f"/api/games/{game_id}/analysis").json() == failed  # it stays
        calls.clear()
        monkeypatch.setattr(
            analysis, "review_position", lambda *a, **k: calls.append(1) or review(*a, **k)
        )
        again = client.post(f"/api/games/{game_id}/analysis")
        assert again.status_code == 202
        assert again.json()["status"] in ("pending", "running", "done")
        assert again.json()["error"] is None and again.json()["error_code"] is None
        body = done(client, game_id)
    assert len(calls) == 4  # on from where it failed
    assert body["actions"][:2] == failed["actions"] and body["error"] is None
    assert (body["error_code"], body["error_step"], body["error_action"]) == (None, None, None)
    check_shape(body, 2, [str(a) for a in game.history])
    assert rows(db_url) == 1


def test_a_failed_review_is_not_resumed_by_a_restart(sqlite_url, monkeypatch):
    failing_at(monkeypatch, 0)
    game = played(Rules(Variant.EXPRESS, 2), 2, 5, actions=4)
    with client_for(sqlite_url, review_budget=BUDGET) as client:
        game_id, failed = reviewed(client, game)
        assert failed["status"] == "failed"
        analyses = client.app.state.analyses
        queued: list[Any] = []

        async def submit(job: Any) -> None:
            queued.append(job)

        monkeypatch.setattr(analyses.hub, "submit", submit)
        client.portal.call(analyses.resume)  # what a start-up queues again
        assert queued == []
        assert client.get(f"/api/games/{game_id}/analysis").json()["status"] == "failed"


def test_a_game_that_cannot_be_read_fails_its_review(sqlite_url, monkeypatch):
    from shiftago.core import ShiftagoError
    from shiftago.interfaces.server.jobs.queue import Job

    game = played(Rules(Variant.EXPRESS, 2), 2, 5, actions=4)
    with client_for(sqlite_url, review_budget=BUDGET) as client:
        game_id = imported(client, Record.from_game(game))
        analyses = client.app.state.analyses
        hub = analyses.hub
        stored, _ = client.portal.call(
            hub.db,
            AnalysisStore(hub.store).request_analysis,
            game_id,
            "x" * 64,
            4,
            7,
            '{"actions": []}',
        )

        async def unreadable(game_id: str) -> Any:
            raise ShiftagoError("a position that breaks the rules")

        monkeypatch.setattr(hub, "get", unreadable)
        client.portal.call(analyses.run, Job("review", game_id, 0, game_id, stored.id))
        monkeypatch.undo()
        body = client.get(f"/api/games/{game_id}/analysis").json()
    assert body["status"] == "failed"
    assert body["error"] == "the game cannot be read: a position that breaks the rules"
    assert (body["error_code"], body["error_step"]) == ("unreadable", None)


def test_a_take_back_drops_the_review_of_the_actions_taken_back(sqlite_url):
    with client_for(sqlite_url, review_budget=BUDGET) as client:
        game_id, (ann, _) = create(
            client, first="o", seats=[{"kind": "human"}, {"kind": "computer", "level": 1}]
        )
        with connect(client, game_id) as o:
            o.hello(ann)
            o.act("L3", 0)
            o.until(lambda e: e["type"] == "action" and e["version"] == 2)
            assert client.post(f"/api/games/{game_id}/analysis").status_code == 202
            assert done(client, game_id)["version"] == 2
            o.send({"type": "takeback"})
            assert o.until_type("takeback")["version"] == 0
        assert client.get(f"/api/games/{game_id}/analysis").status_code == 404
        assert client.get(f"/api/games/{game_id}/analysis?probe=1").json() is None
    assert rows(sqlite_url) == 0


def test_a_long_review_makes_way_for_a_short_one_asked_after_it(sqlite_url, monkeypatch):
    """A review runs :data:`analysis.REVIEW_CHUNK` actions at a time, then queues itself
    again: another address's short review, asked while a long one holds the only review
    slot, is done before the long one."""
    gate = threading.Event()
    review = analysis.review_position

    def paced(*args: Any, **kwargs: Any) -> Any:
        gate.wait(20)  # the long review waits for the short one to be asked
        time.sleep(0.05)  # a long review: its time is what the short one is asked in
        return review(*args, **kwargs)

    monkeypatch.setattr(analysis, "review_position", paced)
    monkeypatch.setattr(analysis, "REVIEW_CHUNK", 2)
    long_game = played(Rules(Variant.EXPRESS, 2), 2, 5, actions=16)
    short_game = played(Rules(Variant.EXPRESS, 2), 2, 6, actions=2)
    app = create_app(sqlite_url, bot_delay=0, review_budget=BUDGET, bot_threads=2)
    with TestClient(addressed(app)) as client:
        long_id = imported(client, Record.from_game(long_game))
        short_id = imported(client, Record.from_game(short_game))
        assert client.post(f"/api/games/{long_id}/analysis", headers=at("10.0.0.1")).is_success
        wait_until(lambda: any(t.name.startswith("shiftago-review") for t in threading.enumerate()))
        assert client.post(f"/api/games/{short_id}/analysis", headers=at("10.0.0.2")).is_success
        gate.set()
        done(client, short_id)
        long_review = client.get(f"/api/games/{long_id}/analysis").json()
        assert long_review["status"] == "running" and long_review["progress"] < 1
        assert done(client, long_id)["version"] == 16


@pytest.mark.parametrize(
    ("queued", "running", "oldest", "wait"),
    [
        (0, 0, 0.0, REVIEW_SECONDS),  # nothing known: one round
        (0, 2, 0.0, REVIEW_SECONDS),
        (4, 2, 0.0, 3 * REVIEW_SECONDS),  # two rounds ahead, then its own
        (1, 1, 100.0, 100),  # a queue that moves slower than the rounds say
        (1000, 1, 0.0, REVIEW_RETRY_BOUNDS[1]),  # bounded above
    ],
)
def test_a_refused_review_is_told_a_wait_from_the_queue_s_figures(queued, running, oldest, wait):
    figures = {"review": {"queued": queued, "running": running, "oldest_seconds": oldest}}
    assert review_retry(figures) == int(wait)
    assert REVIEW_RETRY_BOUNDS[0] <= review_retry({}) <= REVIEW_RETRY_BOUNDS[1]


def test_reviews_beyond_the_bounds_answer_429_not_an_endless_pending(db_url):
    """Issue 55: per address and on the whole server, a review beyond the unfinished ones
    allowed is refused with Retry-After, and the refused review is not kept pending."""
    import asyncio

    app = create_app(
        db_url, bot_delay=0, review_budget=BUDGET, reviews_per_address=1, reviews_total=2
    )
    with TestClient(addressed(app)) as client:

        async def never_ends(job: Any) -> None:
            await asyncio.Event().wait()  # the review stays running: unfinished

        app.state.runtime.analyses.run = never_ends
        games = [
            imported(client, Record.from_game(played(Rules(Variant.EXPRESS, 2), 2, n)))
            for n in range(3)
        ]

        def ask(game_id: str, address: str) -> Any:
            return client.post(
                f"/api/games/{game_id}/analysis", headers={"x-test-address": address}
            )

        assert ask(games[0], "10.0.0.1").status_code == 202
        assert ask(games[0], "10.0.0.1").status_code == 202  # the same review again
        mine = ask(games[1], "10.0.0.1")
        assert mine.status_code == 429
        # estimated from the queue: one review running, none waiting, a round of one
        assert mine.headers["Retry-After"] == str(int(REVIEW_SECONDS))
        assert mine.json()["code"] == "too_many_reviews"
        assert "your address already has 1 reviews" in mine.json()["message"]
        assert client.get(f"/api/games/{games[1]}/analysis").status_code == 404
        assert ask(games[1], "10.0.0.2").status_code == 202
        full = ask(games[2], "10.0.0.3")
        assert full.status_code == 429 and full.json()["code"] == "too_many_reviews"
        assert "the server already has 2 reviews" in full.json()["message"]
        jobs = client.get("/healthz").json()["jobs"]
        assert jobs["review"]["queued"] + jobs["review"]["running"] == 2


def test_a_review_mends_the_action_before_by_what_the_next_search_proved(sqlite_url, monkeypatch):
    """The web's review searches each position on its own: the computer's winning action
    was marked a blunder because its own search did not prove the win that the next
    position's search proved (an Italian walk). The next review mends the one before."""
    chance = "express 2 7/7/7/7/7/g6/oooo3 o insert 18,21 0,0 0,0"
    game = Game(position=chance)
    game.play("Ta")  # keeps a win that orange's scripted search does not see
    game.play("Tg")
    win, lost = 9990.0, -9990.0  # the top level's unit: proven, 10 actions from the end
    script = {0: ("L1", win, 40.0), 1: ("Tg", lost, lost)}

    def scripted(bot: Any, state: Any, action: Any, *, number: int, limits: Any) -> Any:
        best_action, best, played = script[number - 1]
        best_entry = RankedAction(Action.parse(best_action), best, (Action.parse(best_action),))
        mine = RankedAction(action, played, (action,))
        judge = bot.for_rules(state.rules)
        mark = classify(judge, best, played, judge.mistake_threshold)
        return PlyReview(number, state, state.turn, action, mine, best_entry, best - played, mark)

    monkeypatch.setattr(analysis, "review_position", scripted)
    with client_for(sqlite_url, review_budget=BUDGET) as client:
        game_id = imported(client, Record.from_game(game))
        client.post(f"/api/games/{game_id}/analysis")
        kept, after = done(client, game_id)["actions"]
    assert kept["judgement"] is None and kept["proven"] == 1  # Ta kept the win
    assert after["proven"] == -1
