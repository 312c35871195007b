"""Draw offers and aborting (docs/web-protocol.md, "Draw offers and aborting")."""

from __future__ import annotations

from pathlib import Path

import pytest

from shiftago.formats.record import parse_record
from shiftago.interfaces.server.db.store import Conflict
from support.server_support import client_for, connect, create, fresh_database


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return fresh_database(request, request.param, tmp_path)


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'draw.db'}"


def answer(player, message):
    """Send ``message``; the game as the next ``state`` tells it, or the error (what
    came before is read first)."""
    player.flush()
    player.send(message)
    event = player.until(lambda e: e["type"] in ("state", "error"))
    return event if event["type"] == "error" else event["game"]


OFFER = {"type": "draw", "offer": True}
ACCEPT = {"type": "draw", "accept": True}
DECLINE = {"type": "draw", "accept": False}
ABORT = {"type": "abort"}


def test_an_accepted_draw_ends_the_game_shared_by_both(db_url):
    with client_for(db_url) as client:
        game_id, (ann, ben) = create(client, first="o")
        with connect(client, game_id) as o, connect(client, game_id) as g:
            o.hello(ann)
            g.hello(ben)
            assert o.act("L3", 0)["game"]["draw_offer"] is None
            g.until_type("action")
            game = answer(o, OFFER)
            assert game["draw_offer"] == "o"
            assert game["may"]["o"]["draw"] is False and game["may"]["g"]["draw"] is False
            assert g.until_type("state")["game"]["draw_offer"] == "o"
            game = answer(g, ACCEPT)
            assert game["status"] == "over draw o g"
            assert game["result"] == {
                "winners": ["o", "g"],
                "reason": "agreement",
                "line": None,
                "by": [],
            }
            assert game["draw_offer"] is None and game["turn"] is None
            assert game["may"]["o"]["rematch"] is True
        game = client.get(f"/api/games/{game_id}").json()
        assert game["status"] == "over draw o g"
        record = parse_record(client.get(f"/api/games/{game_id}/record").text)
        assert record.result == "o=g" and record.termination == "agreement"


def test_a_declined_offer_is_gone_and_comes_again_only_after_an_action(sqlite_url):
    with client_for(sqlite_url) as client:
        game_id, (ann, ben) = create(client, first="o")
        with connect(client, game_id) as o, connect(client, game_id) as g:
            o.hello(ann)
            g.hello(ben)
            answer(o, OFFER)
            twice = answer(o, OFFER)  # not twice in a row
            assert (twice["code"], twice["reason"]) == ("not_allowed", "draw_standing")
            game = answer(g, DECLINE)
            assert game["draw_offer"] is None and game["status"] == "playing o insert"
            assert game["may"]["o"]["draw"] is False and game["may"]["g"]["draw"] is True
            refused = answer(o, OFFER)
            assert refused["code"] == "not_allowed" and "declined" in refused["message"]
            assert refused["reason"] == "draw_declined"  # the page's words for it
            assert o.act("L3", 0)["game"]["may"]["o"]["draw"] is True
            assert answer(o, OFFER)["draw_offer"] == "o"


def test_an_offer_lapses_when_the_opponent_acts(sqlite_url):
    with client_for(sqlite_url) as client:
        game_id, (ann, ben) = create(client, first="o")
        with connect(client, game_id) as o, connect(client, game_id) as g:
            o.hello(ann)
            g.hello(ben)
            answer(o, OFFER)
            # the offering seat's own action keeps it
            assert o.act("L3", 0)["game"]["draw_offer"] == "o"
            event = g.act("L3", 1)
            assert event["type"] == "action" and event["game"]["draw_offer"] is None
            assert answer(o, DECLINE)["code"] == "not_allowed"  # nothing to answer
        assert client.app.state.hub.store.load(game_id).draw_offer is None


def test_who_may_not_offer_or_answer(sqlite_url):
    with client_for(sqlite_url) as client:
        game_id, (ann, _) = create(client, first="o")
        with connect(client, game_id) as o, connect(client, game_id) as w:
            o.hello(ann)
            w.hello()
            assert answer(w, OFFER)["code"] == "not_seated"
            assert answer(o, ACCEPT)["code"] == "not_allowed"  # no offer stands
            answer(o, OFFER)
            assert answer(o, ACCEPT)["code"] == "not_allowed"  # one's own offer
        three, (ann, _, _) = create(client, players=3)
        with connect(client, three) as o:
            o.hello(ann)
            assert answer(o, OFFER)["code"] == "not_allowed"
        computer, (ann, _) = create(
            client, first="o", seats=[{"kind": "human"}, {"kind": "computer"}]
        )
        with connect(client, computer) as o:
            events = o.hello(ann)
            assert events[0]["type"] == "welcome"
            refused = answer(o, OFFER)
            assert refused["code"] == "not_allowed" and "computer" in refused["message"]
            assert refused["reason"] == "draw_computer"
        game = client.get(f"/api/games/{computer}").json()
        assert game["may"]["o"]["draw"] is False and game["may"]["g"]["draw"] is False


@pytest.mark.parametrize(
    "message",
    [
        {"type": "draw"},
        {"type": "draw", "offer": True, "accept": True},
        {"type": "draw", "offer": False},
        {"type": "draw", "accept": "yes"},
        # a page offers for a seat through that seat's own socket: one never names another
        {"type": "draw", "offer": True, "seat": 1},
        {"type": "draw", "offer": True, "colour": "g"},
    ],
)
def test_a_draw_message_says_one_thing(sqlite_url, message):
    with client_for(sqlite_url) as client:
        game_id, (ann, _) = create(client)
        with connect(client, game_id) as o:
            o.hello(ann)
            assert answer(o, message)["code"] == "bad_message"


def test_aborting_before_ones_first_action_ends_without_a_result(db_url):
    with client_for(db_url) as client:
        game_id, (ann, ben) = create(client, first="o")
        hub = client.app.state.hub
        ended = []

        async def hook(live):
            ended.append(live.id)

        hub.finish_hooks.append(hook)
        with connect(client, game_id) as o, connect(client, game_id) as g:
            o.hello(ann)
            g.hello(ben)
            game = o.act("L3", 0)["game"]
            assert game["may"]["o"]["abort"] is False and game["may"]["g"]["abort"] is True
            played = answer(o, ABORT)  # o has played
            assert (played["code"], played["reason"]) == ("not_allowed", "abort_under_way")
            game = answer(g, ABORT)
            assert game["status"] == "over aborted"
            assert game["result"] == {
                "winners": [],
                "reason": "aborted",
                "line": None,
                "by": ["g"],  # the seat that aborted, stored with the game
                "waited": False,  # it chose to: the clock did not abort it
            }
            assert game["turn"] is None and game["analysable"] is False
            assert game["may"]["g"]["abort"] is False and game["may"]["g"]["rematch"] is True
            assert o.until_type("state")["game"]["status"] == "over aborted"
            assert answer(o, ABORT)["code"] == "over"
            g.send({"type": "rematch"})
            o.send({"type": "rematch"})
            assert g.until_type("rematch")["id"]
        assert ended == []  # an aborted game is never rated: no hook ran
        text = client.get(f"/api/games/{game_id}/record").text
        assert '[Termination "aborted"]' in text and '[Result "*"]' in text
        record = parse_record(text)
        assert record.result == "*" and [str(a) for a in record.actions] == ["L3"]
        as_json = client.get(f"/api/games/{game_id}/record", headers={"accept": "application/json"})
        assert as_json.status_code == 200
        stored = hub.store.load(game_id)
        assert stored.result == "" and stored.termination == "aborted" and stored.finished
        assert stored.ended_by == 1
    with client_for(db_url) as client:  # read back by a new app: who aborted stays
        assert client.get(f"/api/games/{game_id}").json()["result"]["by"] == ["g"]


def test_a_spectator_never_aborts_and_a_resignation_still_runs_the_hooks(sqlite_url):
    with client_for(sqlite_url) as client:
        game_id, (ann, _) = create(client, first="o")
        hub = client.app.state.hub
        ended = []

        async def hook(live):
            ended.append(live.id)

        hub.finish_hooks.append(hook)
        with connect(client, game_id) as o, connect(client, game_id) as w:
            o.hello(ann)
            w.hello()
            assert answer(w, ABORT)["code"] == "not_seated"
            assert answer(o, {"type": "resign"})["status"] == "over winner g"
        assert ended == [game_id]


def test_a_stale_revision_is_refused_and_the_offer_is_read_again(sqlite_url):
    with client_for(sqlite_url) as client:
        game_id, (ann, ben) = create(client, first="o")
        store = client.app.state.hub.store
        with pytest.raises(Conflict):
            store.set_draw_offer(game_id, 7, 0)
        with connect(client, game_id) as o, connect(client, game_id) as g:
            o.hello(ann)
            g.hello(ben)
            # another process stores g's offer: this one's revision is behind
            store.set_draw_offer(game_id, store.revision_of(game_id), 1)
            o.send(OFFER)
            # the game as stored now comes first, then the refusal
            assert o.until_type("state")["game"]["draw_offer"] == "g"
            assert o.until_type("error")["code"] == "stale"
            assert answer(o, ACCEPT)["status"] == "over draw o g"


def test_a_declined_offer_holds_back_a_repeat_on_another_process(sqlite_url):
    """Two apps on one database: the decline is stored, so the process the offering
    seat asks next refuses the repeat too, until an action has been played."""
    with client_for(sqlite_url) as first, client_for(sqlite_url) as second:
        game_id, (ann, ben) = create(first, first="o")
        with connect(first, game_id) as o, connect(first, game_id) as g:
            o.hello(ann)
            g.hello(ben)
            answer(o, OFFER)
            assert answer(g, DECLINE)["draw_offer"] is None
        assert first.app.state.hub.store.load(game_id).draw_declined == (0, 0)
        assert second.get(f"/api/games/{game_id}").json()["may"]["o"]["draw"] is False
        with connect(second, game_id) as o:
            o.hello(ann)
            refused = answer(o, OFFER)
            assert refused["code"] == "not_allowed" and "declined" in refused["message"]
            assert o.act("L3", 0)["game"]["may"]["o"]["draw"] is True
