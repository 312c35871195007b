"""Challenges to a named player (docs/web-protocol.md, "Challenges to a player"): a seek
addressed to one account, which only that account accepts or declines; accepted, its
game's seats belong to both accounts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from shiftago.interfaces.server.seeks.challenges import CHALLENGE_LIFE_SECONDS, Seeks
from support.accounts_support import as_account, games, seat, sign_up
from support.server_support import client_for, fresh_database


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return fresh_database(request, request.param, tmp_path)


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'shiftago.db'}"


def headers(cookies: dict[str, str]) -> dict[str, str]:
    return {"X-CSRF-Token": cookies["csrf"]}


def challenge(client: TestClient, cookies: dict[str, str], **body: Any) -> Any:
    with as_account(client, cookies):
        return client.post("/api/challenges", json=body, headers=headers(cookies))


def listing(client: TestClient, cookies: dict[str, str]) -> dict[str, Any]:
    with as_account(client, cookies):
        answer = client.get("/api/challenges")
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


def test_a_challenge_is_sent_accepted_and_played_by_both_accounts(db_url):
    with client_for(db_url) as client:
        ann, ben = sign_up(client, "ann"), sign_up(client, "ben")
        clock = {"initial": 600, "increment": 5}
        made = challenge(client, ann, to="Ben", variant="expert", clock=clock, rated=True)
        assert made.status_code == 201, made.text
        sent = made.json()
        assert sent["from"] == "ann" and sent["to"] == "ben" and sent["status"] == "open"
        assert sent["clock"] == clock and sent["rated"] is True and sent["url"] is None
        assert client.get("/api/seeks").json()["seeks"] == []  # not the lobby's
        assert listing(client, ben) == {"received": [sent], "sent": []}
        assert listing(client, ann) == {"received": [], "sent": [sent]}
        with as_account(client, ben):
            answer = client.post(f"/api/challenges/{sent['id']}/accept", headers=headers(ben))
        assert answer.status_code == 201, answer.text
        accepted = answer.json()
        assert accepted["status"] == "accepted" and "/play/" in accepted["url"]
        game_id = accepted["url"].rsplit("/", 1)[1]
        assert listing(client, ben) == {"received": [], "sent": []}
        view = client.get(f"/api/games/{game_id}").json()
        assert view["rated"] is True and view["variant"] == "expert"
        assert sorted(s["account"] for s in view["seats"]) == ["ann", "ben"]
        with as_account(client, ann):
            assert client.get(f"/api/challenges/{sent['id']}").json()["url"] == accepted["url"]
            (ann_ref,) = games(client)["playing"]
        with as_account(client, ben):
            (ben_ref,) = games(client)["playing"]
        assert {ann_ref["colour"], ben_ref["colour"]} == {"o", "g"}
        assert ann_ref["to_act"] != ben_ref["to_act"]
        first = ann if ann_ref["to_act"] else ben
        with as_account(client, first), seat(client, game_id, None) as (player, welcome):
            assert welcome["colour"] == (ann_ref if first is ann else ben_ref)["colour"]
            assert player.act("L3", 0)["version"] == 1


def test_only_the_challenged_player_accepts_or_declines(sqlite_url):
    with client_for(sqlite_url) as client:
        ann, ben, cid = sign_up(client, "ann"), sign_up(client, "ben"), sign_up(client, "cid")
        sent = challenge(client, ann, to="ben").json()
        path = f"/api/challenges/{sent['id']}"
        with as_account(client, cid):
            assert client.post(f"{path}/accept", headers=headers(cid)).status_code == 404
            assert client.get(path).status_code == 404
        with as_account(client, ann):
            assert client.post(f"{path}/accept", headers=headers(ann)).status_code == 403
            assert client.post(f"{path}/decline", headers=headers(ann)).status_code == 403
        assert client.post(f"/api/seeks/{sent['id']}/accept").status_code == 403  # a guest
        with as_account(client, ben):
            declined = client.post(f"{path}/decline", headers=headers(ben))
            assert declined.status_code == 200 and declined.json()["status"] == "declined"
            late = client.post(f"{path}/accept", headers=headers(ben))
        assert late.status_code == 409 and late.json()["code"] == "declined"
        assert listing(client, ann) == {"received": [], "sent": []}


def test_the_challenger_cancels_and_bad_challenges_change_nothing(sqlite_url):
    with client_for(sqlite_url) as client:
        ann, ben = sign_up(client, "ann"), sign_up(client, "ben")
        assert client.post("/api/challenges", json={"to": "ben"}).status_code == 401
        assert client.get("/api/challenges").status_code == 401
        assert challenge(client, ann, to="ann").json()["code"] == "own"
        assert challenge(client, ann, to="nobody").status_code == 404
        assert challenge(client, ann, to="ben", players=3).status_code == 422
        assert listing(client, ann) == {"received": [], "sent": []}
        sent = challenge(client, ann, to="ben").json()
        with as_account(client, ben):
            assert (
                client.delete(f"/api/challenges/{sent['id']}", headers=headers(ben)).status_code
                == 403
            )
        with as_account(client, ann):
            gone = client.delete(f"/api/challenges/{sent['id']}", headers=headers(ann))
            assert gone.status_code == 204
        assert listing(client, ben) == {"received": [], "sent": []}


def test_a_challenge_waits_for_its_player_through_the_sweep(sqlite_url):
    with client_for(sqlite_url) as client:
        ann = sign_up(client, "ann")
        sign_up(client, "ben")
        sent = challenge(client, ann, to="ben").json()
        seeks: Seeks = client.app.state.seeks  # type: ignore[attr-defined]
        hub = seeks.hub
        changed = client.portal.call(seeks.sweep, hub.now() + 3600)  # type: ignore[union-attr]
        assert changed == 0
        assert [c["id"] for c in listing(client, ann)["sent"]] == [sent["id"]]


def test_a_challenge_nobody_answers_is_gone_after_its_life(sqlite_url):
    with client_for(sqlite_url) as client:
        ann = sign_up(client, "ann")
        ben = sign_up(client, "ben")
        sent = challenge(client, ann, to="ben").json()
        seeks: Seeks = client.app.state.seeks  # type: ignore[attr-defined]
        life = CHALLENGE_LIFE_SECONDS
        sweep_at = seeks.hub.now() + life - 60  # type: ignore[union-attr]
        assert client.portal.call(seeks.sweep, sweep_at) == 0  # type: ignore[union-attr]
        assert client.portal.call(seeks.sweep, sweep_at + 120) == 1  # type: ignore[union-attr]
        assert listing(client, ann) == {"received": [], "sent": []}
        assert listing(client, ben) == {"received": [], "sent": []}
        with as_account(client, ben):
            late = client.post(f"/api/challenges/{sent['id']}/accept", headers=headers(ben))
        assert late.status_code == 409 and late.json()["code"] == "gone", late.text


def test_past_the_most_open_challenges_the_code_says_so(sqlite_url, monkeypatch):
    # a code of its own: "too_many" is the 429 of a limit, which a page words otherwise
    monkeypatch.setattr("shiftago.interfaces.server.seeks.named.MAX_SENT", 1)
    with client_for(sqlite_url) as client:
        ann = sign_up(client, "ann")
        sign_up(client, "ben")
        assert challenge(client, ann, to="ben").status_code == 201
        refused = challenge(client, ann, to="ben")
        assert refused.status_code == 409
        assert refused.json()["code"] == "too_many_challenges"
        assert len(listing(client, ann)["sent"]) == 1
