"""The live protocol (docs/web-protocol.md) through the test client's WebSockets."""

from __future__ import annotations

import datetime as dt
import threading
from pathlib import Path

import pytest
from starlette.websockets import WebSocketDisconnect

from shiftago.engine.levels import default_level
from shiftago.formats.record import parse_record
from support.server_support import client_for, connect, create, fresh_database
from support.waiting import wait_until


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return fresh_database(request, request.param, tmp_path)


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'ws.db'}"


def versions(events):
    return [e["version"] for e in events if e["type"] == "action"]


def test_hello_as_a_seat_and_as_a_spectator(db_url):
    with client_for(db_url) as client:
        game_id, (ann, _) = create(client, first="o")
        with connect(client, game_id) as seat, connect(client, game_id) as watcher:
            events = seat.hello(ann)
            assert events[0] == {"type": "welcome", "seat": 0, "colour": "o", "version": 0}
            presence = events[-1]
            assert presence["seats"][0]["connected"] is True
            away = presence["seats"][1]["away_since"]
            assert presence["seats"][1] == {
                "colour": "g",
                "connected": False,
                "came": False,  # its link not followed yet: not come, rather than gone
                "away_since": away,
                "claimable_at": (
                    dt.datetime.fromisoformat(away) + dt.timedelta(seconds=120)
                ).isoformat(),
            }
            assert presence["seats"][0]["claimable_at"] is None
            assert presence["grace_seconds"] == 120
            events = watcher.hello(None)
            assert events[0]["seat"] is None and events[0]["colour"] is None
            assert watcher.act("L3", 0)["code"] == "not_seated"


def test_a_seat_whose_person_came_and_left_is_gone_after_a_restart_too(sqlite_url):
    """Presence ``came``: a seat's person who came once (its link followed) and left is
    away, not "not here yet", also when the server starts again (stored: the game has
    no clock)."""
    with client_for(sqlite_url) as client:
        game_id, (ann, ben) = create(client, first="o")
        with connect(client, game_id) as o:
            o.hello(ann)
            with connect(client, game_id) as g:
                g.hello(ben)
            left = o.until(lambda e: e["type"] == "presence" and not e["seats"][1]["connected"])
            assert left["seats"][1]["connected"] is False
            assert left["seats"][1]["came"] is True
    with client_for(sqlite_url) as client, connect(client, game_id) as o:
        presence = o.hello(ann)[-1]
        assert presence["seats"][1] == {**presence["seats"][1], "connected": False, "came": True}


def test_an_unknown_token_watches(sqlite_url):
    with client_for(sqlite_url) as client:
        game_id, _ = create(client)
        with connect(client, game_id) as player:
            events = player.hello("not-a-token")
            assert events[0]["code"] == "not_seated"
            assert events[1]["type"] == "welcome" and events[1]["seat"] is None


def test_acting_in_turn_is_stored_then_announced_to_everybody(db_url):
    with client_for(db_url) as client:
        game_id, (ann, ben) = create(client, first="o")
        with connect(client, game_id) as o, connect(client, game_id) as g:
            o.hello(ann)
            g.hello(ben)
            event = o.act("L3", 0)
            assert event["type"] == "action" and event["version"] == 1
            assert event["action"] == "L3" and event["seat"] == 0
            assert event["game"]["turn"] == "g" and event["game"]["last"] == "L3"
            motion = {"moves": [], "entry": "a3", "side": "L", "removed": []}
            assert event["game"]["motion"] == motion  # what the page animates
            assert event["game"]["history"][-1]["motion"] == motion
            assert event["game"]["pushes"]["L3"] == [{"from": "a3", "to": "b3"}]
            assert g.until_type("action")["version"] == 1
            assert g.act("Td", 1)["version"] == 2
        game = client.get(f"/api/games/{game_id}").json()
        assert game["actions"] == ["L3", "Td"] and game["status"] == "playing o insert"


def test_wrong_seat_wrong_turn_stale_and_illegal_change_nothing(db_url):
    with client_for(db_url) as client:
        game_id, (ann, ben) = create(client, first="o")
        with connect(client, game_id) as o, connect(client, game_id) as g:
            o.hello(ann)
            g.hello(ben)
            assert g.act("L3", 0)["code"] == "not_your_turn"
            assert o.act("L3", 5)["code"] == "stale"
            refused = o.act("Q9", 0)
            assert (refused["code"], refused["reason"]) == ("illegal", "not_an_action")
            assert o.act("L3", 0)["version"] == 1
            again = o.act("L3", 0)  # a double click: the same action with the old number
            assert again["code"] == "stale"
            g.flush()
            refused = g.act("xa1-a5", 1)  # no line to score while marbles go in
            assert (refused["code"], refused["reason"]) == ("illegal", "no_line_to_score")
        assert client.get(f"/api/games/{game_id}").json()["actions"] == ["L3"]


def test_a_refused_push_says_which_rule_refuses_it(db_url):
    """A full lane, and the rule of the first marbles (here after a handicap's skips:
    only orange's marbles on the board), each with its own reason."""
    with client_for(db_url) as client:
        game_id, (ann, ben) = create(client, first="o", handicap=[0, 2])
        with connect(client, game_id) as o:
            o.hello(ann)
            assert o.act("L1", 0)["version"] == 1
            refused = o.act("L2", 1)  # a2 would touch a1: orange's marbles alone
            assert (refused["code"], refused["reason"]) == ("illegal", "apart")
        game_id, (ann, ben) = create(client, first="o")
        with connect(client, game_id) as o, connect(client, game_id) as g:
            o.hello(ann)
            g.hello(ben)
            for version in range(7):  # rank 1 filled from the left
                seat = o if version % 2 == 0 else g
                assert seat.act("L1", version)["version"] == version + 1
                (g if seat is o else o).flush()
            refused = g.act("L1", 7)
            assert (refused["code"], refused["reason"]) == ("illegal", "lane_full")


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        "[1, 2]",
        '{"no": "type"}',
        '{"type": "dance"}',
        '{"type": "act", "seen": 0}',
        '{"type": "act", "action": "L3", "seen": "0"}',
        '{"type": "claim", "seat": 1, "to": "moon"}',
        '{"type": "claim", "seat": 1, "to": "computer", "level": 99}',
        '{"type": "claim", "seat": 1, "to": "computer", "level": "3"}',
        '{"type": "claim", "seat": 1, "to": "computer", "level": 2.5}',
        '{"type": "takeback", "tokens": "abc"}',
        '{"type": "takeback", "tokens": ["a", "b", "c", "d", "e"]}',
        '{"type": "takeback", "tokens": ["a", 1]}',
        '{"type": "takeback", "tokens": [""]}',
        '{"type": "takeback", "tokens": ["' + "t" * 201 + '"]}',
        '{"type": "act", "action": "L3", "seen": 0, "pad": "' + "x" * 5000 + '"}',
        # a field a message does not have is refused, not ignored: an Italian walk's
        # resign naming another seat resigned the sender's own
        '{"type": "resign", "seat": 1}',
        '{"type": "act", "action": "L3", "seen": 0, "seat": 1}',
    ],
)
def test_malformed_messages_get_bad_message_and_change_nothing(sqlite_url, text):
    with client_for(sqlite_url) as client:
        game_id, (ann, _) = create(client, first="o")
        with connect(client, game_id) as o:
            o.hello(ann)
            o.ws.send_text(text)
            event = o.receive()
            assert event["type"] == "error" and event["code"] == "bad_message"
            assert o.act("L3", 0)["version"] == 1  # still version 0 before


def test_the_first_message_must_be_hello(sqlite_url):
    with client_for(sqlite_url) as client:
        game_id, _ = create(client)
        with connect(client, game_id) as player:
            player.send({"type": "ping"})
            assert player.receive()["code"] == "bad_message"
            assert player.hello(None)[0]["type"] == "welcome"
            player.send({"type": "hello", "seen": 0})
            assert player.receive()["code"] == "bad_message"


def test_unknown_game_is_refused_on_the_socket(sqlite_url):
    with client_for(sqlite_url) as client, connect(client, "nosuchgame12") as player:
        assert player.receive()["code"] == "not_found"
        with pytest.raises(WebSocketDisconnect) as closed:
            player.receive()
        assert closed.value.code == 4404


def test_rate_limit_refuses_then_disconnects_with_1008(sqlite_url):
    with client_for(sqlite_url, rate=0.001, burst=5) as client:
        game_id, _ = create(client)
        with connect(client, game_id) as player:
            player.hello(None)  # one of the five
            for _ in range(4):
                player.send({"type": "ping"})
                assert player.receive() == {"type": "pong"}
            for _ in range(20):
                player.send({"type": "ping"})
            codes = []
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    codes.append(player.receive()["code"])
            assert closed.value.code == 1008
            assert codes and set(codes) == {"rate_limited"}


def test_foreign_origins_are_refused_before_the_upgrade(sqlite_url):
    with client_for(sqlite_url, public_url="https://shiftago.example.org") as client:
        game_id, _ = create(client)
        for origin in ("https://evil.example", "http://testserver"):  # only --public-url's
            refused = {"origin": origin}
            with pytest.raises(WebSocketDisconnect), connect(client, game_id, headers=refused):
                pass
        with connect(client, game_id, headers={"origin": "https://shiftago.example.org"}) as player:
            assert player.hello(None)[0]["type"] == "welcome"


def test_reconnect_gets_the_missed_actions_or_the_state(db_url):
    with client_for(db_url) as client:
        game_id, (ann, ben) = create(client, first="o")
        with connect(client, game_id) as o, connect(client, game_id) as g:
            o.hello(ann)
            g.hello(ben)
            o.act("L3", 0)
            g.act("Td", 1)
        with connect(client, game_id) as o:
            events = o.hello(ann, seen=1)
            assert events[0]["version"] == 2
            assert versions(events) == [2]
            assert events[1]["game"]["actions"] == ["L3", "Td"]
            o.act("R5", 2)
            o.send({"type": "sync", "seen": 0})
            assert versions(o.flush()) == [1, 2, 3]
            o.send({"type": "sync", "seen": 99})
            (state,) = o.flush()
            assert state["type"] == "state" and state["version"] == 3
            o.send({"type": "sync", "seen": 3})
            assert [e["type"] for e in o.flush()] == ["state"]
        with connect(client, game_id) as g:
            events = g.hello(ben, seen=7)  # more than the server has: the whole state
            assert [e["type"] for e in events] == ["welcome", "state", "chat_history", "presence"]


def test_resign_ends_the_game_for_the_others(db_url):
    with client_for(db_url) as client:
        game_id, (ann, ben) = create(client, first="o")
        with connect(client, game_id) as o, connect(client, game_id) as g:
            o.hello(ann)
            g.hello(ben)
            o.act("L3", 0)
            g.send({"type": "resign"})
            state = o.until_type("state")
            assert state["game"]["result"]["winners"] == ["o"]
            assert state["game"]["result"]["reason"] == "resignation"
            assert state["game"]["status"] == "over winner o" and state["game"]["turn"] is None
            assert o.act("L1", 1)["code"] == "over"
        record = parse_record(client.get(f"/api/games/{game_id}/record").text)
        assert record.termination == "resignation" and record.result == "o"


def test_takeback_only_against_the_computer(db_url):
    with client_for(db_url) as client:
        people, (ann, _) = create(client, first="o")
        with connect(client, people) as o:
            o.hello(ann)
            o.act("L3", 0)
            o.send({"type": "takeback"})
            assert o.until_type("error")["code"] == "not_allowed"
        game_id, (ann, _) = create(
            client, first="o", seats=[{"kind": "human"}, {"kind": "computer", "level": 1}]
        )
        with connect(client, game_id) as o:
            o.hello(ann)
            o.send({"type": "takeback"})
            assert o.until_type("error")["code"] == "not_allowed"
            o.act("L3", 0)
            o.until(lambda e: e["type"] == "action" and e["version"] == 2)
            o.send({"type": "takeback"})
            back = o.until_type("takeback")
            assert back["version"] == 0 and back["game"]["actions"] == []
            assert o.act("R1", 0)["version"] == 1
            reply = o.until(lambda e: e["type"] == "action" and e["version"] == 2)
            assert reply["seat"] == 1
        assert client.get(f"/api/games/{game_id}").json()["actions"][0] == "R1"


def test_with_a_computer_and_two_people_no_one_undoes_the_others_action(db_url):
    """A seat handed to the computer does not make the game one against the computer:
    the other person's actions stay (RULES.md section 9), unless one screen holds
    every person's seat (people taking turns at one screen)."""
    with client_for(db_url, bot_delay=0) as client:
        computer = {"kind": "computer", "level": 1}
        game_id, (ann, ben, _) = create(
            client, players=3, first="o", seats=[{"kind": "human"}, {"kind": "human"}, computer]
        )
        with connect(client, game_id) as o, connect(client, game_id) as g:
            o.hello(ann)
            g.hello(ben)
            o.act("L3", 0)
            g.act("Td", 1)
            o.until(lambda e: e["type"] == "action" and e["version"] == 3)  # the computer
            o.send({"type": "takeback"})
            refused = o.until_type("error")
            assert (refused["code"], refused["reason"]) == ("not_allowed", "takeback_every_seat")
            assert "missing: g" in refused["message"]
            assert len(client.get(f"/api/games/{game_id}").json()["actions"]) == 3
            o.send({"type": "takeback", "tokens": [ann, ben]})  # one screen holds both
            # the last person to act was green: its Td and the computer's answer go, and
            # orange's L3 stays (it went back to orange's turn, undoing green's too)
            back = o.until_type("takeback")
            assert back["version"] == 1 and back["game"]["actions"] == ["L3"]
            o.send({"type": "takeback", "tokens": [ann, ben]})
            assert o.until_type("takeback")["version"] == 0  # then orange's own


def test_takeback_between_people_one_action_at_a_time_with_every_token(db_url):
    with client_for(db_url) as client:
        game_id, (ann, ben) = create(client, variant="expert", first="o")
        with connect(client, game_id) as o, connect(client, game_id) as watcher:
            o.hello(ann)
            watcher.hello(None)
            o.act("L3", 0)
            o.send({"type": "takeback"})
            refused = o.until_type("error")
            assert refused["code"] == "not_allowed" and "every seat" in refused["message"]
            assert refused["reason"] == "takeback_every_seat"
            for tokens in ([ann], [ann, "not-a-token"], [ann, ann]):
                o.send({"type": "takeback", "tokens": tokens})
                refused = o.until_type("error")
                assert refused["code"] == "not_allowed" and "missing: g" in refused["message"]
            with connect(client, game_id) as g:
                g.hello(ben)
                g.act("Td", 1)
            for version in (1, 0):
                o.send({"type": "takeback", "tokens": [ben, ann]})
                back = o.until_type("takeback")
                assert back["version"] == version
                assert len(back["game"]["actions"]) == version
                assert back["game"]["takeback"] == ("action" if version else None)
                assert watcher.until_type("takeback")["version"] == version
            o.send({"type": "takeback", "tokens": [ann, ben]})
            refused = o.until_type("error")
            assert refused["code"] == "not_allowed" and "no action" in refused["message"]
            assert refused["reason"] == "nothing_to_take_back"
        assert client.get(f"/api/games/{game_id}").json()["actions"] == []


def test_takeback_between_people_takes_back_a_scoring_alone(db_url):
    record = (
        '[Variant "expert"]\n[Players "2"]\n[First "o"]\n\n'
        "1. L1 2. R7 3. L2 4. R6 5. L3 6. R5 7. L4 8. R4 9. L5 xa1-a5 *\n"
    )
    with client_for(db_url) as client:
        answer = client.post("/api/games/import", json={"record": record})
        assert answer.status_code == 201, answer.text
        game_id = answer.json()["id"]
        tokens = [seat["join_url"].split("?seat=")[1] for seat in answer.json()["seats"]]
        with connect(client, game_id) as o:
            o.hello(tokens[0])
            o.send({"type": "takeback", "tokens": tokens})
            game = o.until_type("takeback")["game"]
            assert game["version"] == 9 and game["last"] == "L5"
            assert game["phase"] == "score" and game["legal"] == ["xa1-a5"]
        stored = client.get(f"/api/games/{game_id}").json()
        assert stored["version"] == 9 and stored["phase"] == "score"


def test_computer_plays_a_whole_game_against_a_person(db_url):
    with client_for(db_url) as client:
        game_id, (ann, _) = create(
            client, first="o", seats=[{"kind": "human"}, {"kind": "computer", "level": 1}]
        )
        with connect(client, game_id) as o:
            o.hello(ann)
            game = client.get(f"/api/games/{game_id}").json()
            thinking = 0
            while game["turn"] is not None:
                if game["turn"] == "o":
                    event = o.act(game["legal"][0], game["version"])
                    assert event["type"] == "action", event
                else:
                    event = o.until_type("action")
                game = event["game"]
                thinking += 1
            assert game["result"]["winners"]
            assert game["result"]["reason"] in ("line", "board full", "no marbles")
        record = parse_record(client.get(f"/api/games/{game_id}/record").text)
        assert record.to_game().is_over


def test_computers_alone_get_an_action_limit_and_finish(sqlite_url):
    with client_for(sqlite_url) as client:
        game_id, tokens = create(
            client, seats=[{"kind": "computer", "level": 1}, {"kind": "computer", "level": 1}]
        )
        assert tokens == [None, None]
        game = wait_until(
            lambda: client.get(f"/api/games/{game_id}").json(),
            lambda game: game["turn"] is None,
            timeout=60,
        )
        assert game["action_limit"] == 1000 and game["result"] is not None


def test_claim_an_absent_seat_for_the_computer_or_end_it(db_url):
    with client_for(db_url, grace_seconds=0) as client:
        game_id, (ann, _) = create(client, first="o")
        with connect(client, game_id) as o:
            o.hello(ann)
            o.send({"type": "claim", "seat": 0, "to": "computer"})
            own = o.until_type("error")  # not one's own seat
            assert (own["code"], own["reason"]) == ("not_allowed", "claim_own_seat")
            o.act("L3", 0)
            o.send({"type": "claim", "seat": 1, "to": "computer"})
            state = o.until_type("state")
            assert state["game"]["seats"][1]["kind"] == "computer"
            assert state["game"]["seats"][1]["level"] == default_level()
            assert o.until_type("action")["seat"] == 1  # the computer plays green now
        ended, (ann, _) = create(client, first="o")
        with connect(client, ended) as o:
            o.hello(ann)
            o.send({"type": "claim", "seat": 1, "to": "end"})
            result = o.until_type("state")["game"]["result"]
            assert result == {"winners": ["o"], "reason": "abandoned", "line": None, "by": ["g"]}


@pytest.mark.parametrize("level", [1, 2, 7])
def test_claim_for_the_computer_at_a_level(sqlite_url, level):
    with client_for(sqlite_url, grace_seconds=0) as client:
        game_id, (ann, _, _) = create(client, players=3, first="o")
        with connect(client, game_id) as o:
            o.hello(ann)
            o.send({"type": "claim", "seat": 2, "to": "computer", "level": level})
            seats = o.until_type("state")["game"]["seats"]
            assert [(s["kind"], s["level"]) for s in seats] == [
                ("human", None),
                ("human", None),
                ("computer", level),
            ]
        assert client.get(f"/api/games/{game_id}").json()["seats"][2]["level"] == level


def test_claimable_at_follows_the_grace_time(sqlite_url):
    with client_for(sqlite_url, grace_seconds=30) as client:
        game_id, (ann, ben) = create(client, first="o")
        with connect(client, game_id) as o:
            o.hello(ann)
            with connect(client, game_id) as g:
                g.hello(ben)
                here = o.until(lambda e: e["type"] == "presence" and e["seats"][1]["connected"])
                assert [s["claimable_at"] for s in here["seats"]] == [None, None]
            gone = o.until(lambda e: e["type"] == "presence" and not e["seats"][1]["connected"])
            away = dt.datetime.fromisoformat(gone["seats"][1]["away_since"])
            claimable = dt.datetime.fromisoformat(gone["seats"][1]["claimable_at"])
            assert claimable - away == dt.timedelta(seconds=30)
            o.send({"type": "resign"})
            o.until_type("state")
        with connect(client, game_id) as watcher:
            over = watcher.hello(None)[-1]
            assert over["seats"][1]["claimable_at"] is None  # nothing to claim once over


def test_no_seat_of_a_correspondence_game_is_claimed(sqlite_url):
    """With days per move a player is away between moves by design: the page offers no
    claim, and one sent is refused with its reason; the game goes on."""
    with client_for(sqlite_url, grace_seconds=0) as client:
        game_id, (ann, _) = create(client, first="o", clock={"days": 1})
        with connect(client, game_id) as o:
            presence = o.hello(ann)[-1]
            assert presence["type"] == "presence" and not presence["seats"][1]["connected"]
            assert [s["claimable_at"] for s in presence["seats"]] == [None, None]
            for to in ("end", "computer"):
                o.send({"type": "claim", "seat": 1, "to": to})
                refused = o.until_type("error")
                assert (refused["code"], refused["reason"]) == (
                    "not_allowed",
                    "claim_correspondence",
                )
        game = client.get(f"/api/games/{game_id}").json()
        assert game["result"] is None and game["seats"][1]["kind"] == "human"


def test_claim_waits_for_the_grace_time(sqlite_url):
    with client_for(sqlite_url, grace_seconds=120) as client:
        game_id, (ann, _) = create(client)
        with connect(client, game_id) as o:
            o.hello(ann)
            o.send({"type": "claim", "seat": 1, "to": "end"})
            assert o.until_type("error")["code"] == "not_allowed"


def test_rematch_keeps_the_seats_and_each_holder_gets_a_link(db_url):
    with client_for(db_url) as client:
        game_id, (ann, ben) = create(client, first="o", public=True)
        with connect(client, game_id) as o, connect(client, game_id) as g:
            o.hello(ann)
            g.hello(ben)
            o.send({"type": "rematch"})
            assert o.until_type("error")["code"] == "not_allowed"  # not over yet
            o.send({"type": "resign"})
            for player in (o, g):
                assert player.until_type("state")["game"]["rematch_asked"] == []
            g.send({"type": "rematch"})  # green asks: shown to both, no game made yet
            for player in (o, g):
                asked = player.until_type("state")["game"]
                assert asked["rematch_asked"] == ["g"] and asked["next"] is None
            g.send({"type": "rematch"})  # asking again changes nothing
            assert g.flush() == []
            assert client.get(f"/api/games/{game_id}").json()["rematch_asked"] == ["g"]
            o.send({"type": "rematch"})  # orange agrees: the next game
            mine = o.until_type("rematch")
            theirs = g.until_type("rematch")
            assert mine["id"] == theirs["id"] != game_id
            assert mine["url"] == f"/play/{mine['id']}?seat={ann}"
            o.send({"type": "rematch"})  # a second ask gives the same game
            assert o.until_type("rematch")["id"] == mine["id"]
        new = client.get(f"/api/games/{mine['id']}").json()
        assert new["previous"] == game_id and new["public"] is True
        with connect(client, mine["id"]) as g:
            assert g.hello(ben)[0]["seat"] == 1


def test_express_tournament_counts_wins_and_the_next_after_the_winner_starts(sqlite_url):
    with client_for(sqlite_url) as client:
        game_id, (ann, ben) = create(client, first="o", tournament=True)
        assert client.get(f"/api/games/{game_id}").json()["tournament"] == {
            "wins": [0, 0],
            "target": 10,
            "winner": None,
        }
        with connect(client, game_id) as g:
            g.hello(ben)
            g.send({"type": "resign"})
            assert g.until_type("state")["game"]["tournament"]["wins"] == [1, 0]
            g.send({"type": "rematch"})
            with connect(client, game_id) as o:
                o.hello(ann)
                o.send({"type": "rematch"})
                next_id = g.until_type("rematch")["id"]
        nxt = client.get(f"/api/games/{next_id}").json()
        assert nxt["tournament"]["wins"] == [1, 0] and nxt["turn"] == "g"


def test_no_take_back_once_the_next_game_is_made(sqlite_url):
    """The tournament's next game follows this one's result (its score, who starts):
    once it is made, the result stands."""
    with client_for(sqlite_url) as client:
        game_id, (ann, ben) = create(client, first="o", tournament=True)
        with connect(client, game_id) as o, connect(client, game_id) as g:
            o.hello(ann)
            g.hello(ben)
            for version, action in enumerate(
                ["L1", "R7", "L2", "R6", "L3", "R5", "L4", "R4", "L5"]
            ):
                assert (o if version % 2 == 0 else g).act(action, version)["type"] == "action"
            game = client.get(f"/api/games/{game_id}").json()
            assert game["status"] == "over winner o" and game["takeback"] == "action"
            o.send({"type": "rematch"})
            g.send({"type": "rematch"})
            next_id = o.until_type("rematch")["id"]
            o.send({"type": "takeback", "tokens": [ann, ben]})
            refused = o.until_type("error")
            assert refused["code"] == "over" and "result stands" in refused["message"]
        game = client.get(f"/api/games/{game_id}").json()
        assert game["status"] == "over winner o" and game["takeback"] is None
        assert not any(may["takeback"] for may in game["may"].values())
        nxt = client.get(f"/api/games/{next_id}").json()
        assert nxt["tournament"]["wins"] == [1, 0] and nxt["turn"] == "g"


def test_presence_tells_who_left(sqlite_url):
    with client_for(sqlite_url) as client:
        game_id, (ann, ben) = create(client)
        with connect(client, game_id) as o:
            o.hello(ann)
            with connect(client, game_id) as g:
                g.hello(ben)
                here = o.until(lambda e: e["type"] == "presence" and e["seats"][1]["connected"])
                assert here["seats"][1]["away_since"] is None
            gone = o.until(lambda e: e["type"] == "presence" and not e["seats"][1]["connected"])
            assert gone["seats"][1]["away_since"] is not None


def test_a_thinking_computer_does_not_stall_other_games(sqlite_url, monkeypatch):
    from shiftago.interfaces.server.games import bots

    release = threading.Event()
    real_choose = bots.choose

    def slow_choose(level, seed, state, movetime=None):
        assert release.wait(20), "the test never let the computer go on"
        return real_choose(level, seed, state, movetime)

    monkeypatch.setattr(bots, "choose", slow_choose)
    with client_for(sqlite_url) as client:
        slow, (ann, _) = create(
            client, first="o", seats=[{"kind": "human"}, {"kind": "computer", "level": 1}]
        )
        other, (bea, _) = create(client, first="o")
        with connect(client, slow) as o, connect(client, other) as b:
            o.hello(ann)
            o.act("L3", 0)
            assert o.until_type("thinking")["seat"] == 1
            b.hello(bea)
            assert b.act("L3", 0)["version"] == 1  # while the computer still thinks
            release.set()
            assert o.until_type("action")["version"] == 2


def test_a_rematch_waits_for_every_person_and_the_asks_survive_a_restart(db_url):
    """One player's ask is stored and shown, not a game: a player who has left is not
    put on a running clock. Against the computer one ask is all it takes."""
    with client_for(db_url) as client:
        game_id, (ann, ben) = create(client, first="o", clock={"initial": 60, "increment": 0})
        with connect(client, game_id) as o:
            o.hello(ann)
            o.send({"type": "resign"})
            o.until_type("state")
            o.send({"type": "rematch"})
            assert o.until_type("state")["game"]["rematch_asked"] == ["o"]
    with client_for(db_url) as client:  # a restart: the ask is kept, still no game
        game = client.get(f"/api/games/{game_id}").json()
        assert game["rematch_asked"] == ["o"] and game["next"] is None
        with connect(client, game_id) as g:
            g.hello(ben)
            g.send({"type": "rematch"})
            next_id = g.until_type("rematch")["id"]
        assert client.get(f"/api/games/{game_id}").json()["next"] == next_id
        assert client.get(f"/api/games/{next_id}").json()["rematch_asked"] == []
        alone, (cid, _) = create(client, seats=[{"kind": "human"}, {"kind": "computer"}])
        with connect(client, alone) as o:
            o.hello(cid)
            o.send({"type": "resign"})
            o.until_type("state")
            o.send({"type": "rematch"})
            assert o.until_type("rematch")["id"]
