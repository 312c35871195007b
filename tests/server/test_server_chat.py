"""The game's chat (docs/web-protocol.md, "Chat") through the test client's WebSockets."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from shiftago.interfaces.server import create_app
from shiftago.interfaces.server.chat.chat import CHAT_BURST, HISTORY, ChatLimit
from support.server_support import addressed, at, client_for, connect, create, fresh_database


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return fresh_database(request, request.param, tmp_path)


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'chat.db'}"


def chats(events):
    return [e for e in events if e["type"] == "chat"]


def joined(player, token=None):
    """Say hello; the chat history that comes before the presence."""
    events = player.hello(token)
    assert [e["type"] for e in events][-2:] == ["chat_history", "presence"]
    return events[-2]


def say(player, text):
    """Send a chat message; the answer: its own chat event back, or an error."""
    player.send({"type": "chat", "text": text})
    return player.until(lambda e: e["type"] in ("chat", "error"))


def test_the_rooms_are_apart_and_each_hears_its_own(db_url):
    with client_for(db_url) as client:
        game_id, (ann, ben) = create(
            client, seats=[{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Ben"}]
        )
        with (
            connect(client, game_id) as o,
            connect(client, game_id) as g,
            connect(client, game_id) as w1,
            connect(client, game_id) as w2,
        ):
            assert joined(o, ann) == {"type": "chat_history", "room": "players", "messages": []}
            joined(g, ben)
            assert joined(w1)["room"] == "spectators"
            joined(w2)
            said = say(o, "  good luck  ")
            assert said["room"] == "players" and said["seat"] == "o"
            assert said["name"] == "Ann" and said["text"] == "good luck"
            assert isinstance(said["id"], int) and said["at"]
            assert g.until_type("chat") == said
            watched = say(w1, "who wins?")
            assert watched["room"] == "spectators" and watched["seat"] is None
            assert watched["name"] == "Guest"
            assert w2.until_type("chat") == watched
            # players never hear the spectators, nor spectators the players
            assert chats(o.flush()) == [] and chats(g.flush()) == []
            assert chats(w1.flush()) == [] and chats(w2.flush()) == []


def test_a_newcomer_gets_its_rooms_history_and_it_is_kept_out_of_the_record(db_url):
    with client_for(db_url) as client:
        game_id, (ann, ben) = create(client)
        with connect(client, game_id) as o, connect(client, game_id) as w:
            joined(o, ann)
            joined(w)
            for text in ("one", "two"):
                say(o, text)
            say(w, "three")
        with connect(client, game_id) as g, connect(client, game_id) as w:
            history = joined(g, ben)
            assert [m["text"] for m in history["messages"]] == ["one", "two"]
            assert all(m["room"] == "players" and m["seat"] == "o" for m in history["messages"])
            assert [m["text"] for m in joined(w)["messages"]] == ["three"]
        record = client.get(f"/api/games/{game_id}/record").text
        assert "one" not in record and "three" not in record
        game = client.get(f"/api/games/{game_id}").json()
        assert "chat" not in game


def test_the_history_is_the_last_hundred(sqlite_url):
    with client_for(sqlite_url) as client:
        game_id, (ann, _) = create(client)
        chat = client.app.state.chat
        for n in range(HISTORY + 5):
            chat.store.add(game_id, "players", 0, "Ann", f"m{n}")
        with connect(client, game_id) as o:
            texts = [m["text"] for m in joined(o, ann)["messages"]]
            assert len(texts) == HISTORY
            assert texts[0] == "m5" and texts[-1] == f"m{HISTORY + 4}"


def test_chat_is_rate_limited_per_address_and_refused_messages_are_not_stored(sqlite_url):
    """An address's sockets share one allowance (more sockets are no more messages);
    another address has its own."""
    app = create_app(sqlite_url, bot_delay=0)
    with TestClient(addressed(app)) as client:
        game_id, (ann, ben) = create(client)
        with (
            connect(client, game_id, headers=at("10.0.0.1")) as o,
            connect(client, game_id, headers=at("10.0.0.1")) as watcher,
            connect(client, game_id, headers=at("10.0.0.2")) as g,
        ):
            joined(o, ann)
            joined(watcher)
            joined(g, ben)
            for n in range(CHAT_BURST):
                assert say(o, f"m{n}")["type"] == "chat"
            refused = say(o, "one too many")
            assert refused["type"] == "error" and refused["code"] == "rate_limited"
            # the cause and its numbers, for the page's own words
            assert (refused["reason"], refused["limit"], refused["seconds"]) == (
                "chat_too_fast",
                5,
                10,
            )
            refused = say(watcher, "from my other socket")
            assert refused["type"] == "error" and refused["code"] == "rate_limited"
            # another address has its own allowance; the socket stays open for play
            assert say(g, "my turn to talk")["type"] == "chat"
            assert o.act("L3", 0)["type"] in ("action", "error")
        with connect(client, game_id) as o:
            texts = [m["text"] for m in joined(o, ann)["messages"]]
            assert "one too many" not in texts and len(texts) == CHAT_BURST + 1
        with connect(client, game_id) as w:
            assert joined(w)["messages"] == []


def test_the_chat_limit_is_a_sliding_window():
    moment = [0.0]
    limit = ChatLimit(burst=2, window=10.0, clock=lambda: moment[0])
    assert limit.allow() and limit.allow() and not limit.allow()
    moment[0] = 9.9
    assert not limit.allow()
    moment[0] = 10.0
    assert limit.allow() and limit.allow() and not limit.allow()


@pytest.mark.parametrize(
    "message",
    [
        {"type": "chat", "text": ""},
        {"type": "chat", "text": "   "},
        {"type": "chat", "text": "x" * 301},
        {"type": "chat", "text": "two\nlines"},
        {"type": "chat", "text": "a bell \x07"},
        {"type": "chat", "text": "a\ttab"},
        {"type": "chat", "text": 12},
        {"type": "chat"},
    ],
)
def test_bad_chat_messages_are_refused_and_nothing_is_stored(sqlite_url, message):
    with client_for(sqlite_url) as client:
        game_id, (ann, _) = create(client)
        with connect(client, game_id) as o:
            joined(o, ann)
            o.send(message)
            error = o.until_type("error")
            assert error["code"] == "bad_message"
            assert chats(o.flush()) == []
        assert client.app.state.chat.store.history(game_id, "players") == []


def test_the_longest_message_is_kept_whole(sqlite_url):
    with client_for(sqlite_url) as client:
        game_id, (ann, _) = create(client)
        with connect(client, game_id) as o:
            joined(o, ann)
            assert say(o, "é" * 300)["text"] == "é" * 300


def test_markup_is_kept_verbatim_as_text(sqlite_url):
    text = '<script>alert("x")</script> <b>&amp;</b>'
    with client_for(sqlite_url) as client:
        game_id, (ann, ben) = create(client)
        with connect(client, game_id) as o, connect(client, game_id) as g:
            joined(o, ann)
            joined(g, ben)
            assert say(o, text)["text"] == text
            assert g.until_type("chat")["text"] == text
        with connect(client, game_id) as g:
            assert joined(g, ben)["messages"][0]["text"] == text


def test_a_message_from_another_process_reaches_this_ones_sockets_of_its_room(sqlite_url):
    with client_for(sqlite_url) as client:
        game_id, (ann, _) = create(client)
        hub = client.app.state.hub
        with connect(client, game_id) as o, connect(client, game_id) as w:
            joined(o, ann)
            joined(w)
            message = {
                "type": "chat",
                "id": 99,
                "room": "spectators",
                "seat": None,
                "name": "Guest",
                "guest": True,
                "text": "from afar",
                "at": "2026-11-23T12:00:00+00:00",
            }
            event = {"game": game_id, "revision": 0, "kind": "chat", "message": message}
            client.portal.call(hub.on_event, event)
            assert w.until_type("chat") == message
            assert chats(o.flush()) == []


def test_a_message_from_another_process_reaches_a_newcomer_whose_hello_is_under_way(
    sqlite_url, monkeypatch
):
    """The message arrives after the newcomer's history was read and before it joined:
    it must wait for the join (the game's lock), not find nobody to tell."""
    import asyncio

    from shiftago.interfaces.server.chat.chat import Chat

    message = {
        "type": "chat",
        "id": 7,
        "room": "spectators",
        "seat": None,
        "name": "Guest",
        "guest": True,
        "text": "while you came in",
        "at": "2026-11-23T12:00:00+00:00",
    }
    send_histories = Chat.send_histories
    arrived: list[asyncio.Task[None]] = []

    async def history_then_an_event(self, live, connections):
        await send_histories(self, live, connections)
        event = {"game": live.id, "revision": 0, "kind": "chat", "message": message}
        arrived.append(asyncio.create_task(self.hub.on_event(event)))
        # the event's task runs up to the game's lock, which this hello holds; awaiting
        # the task itself would wait for the lock for ever
        await asyncio.sleep(0.05)

    # a watcher's history comes with its batch of joins (games/joining.py)
    monkeypatch.setattr(Chat, "send_histories", history_then_an_event)
    with client_for(sqlite_url) as client:
        game_id, _ = create(client)
        with connect(client, game_id) as w:
            assert joined(w)["messages"] == []
            assert w.until_type("chat") == message


def test_a_signed_in_spectator_chats_under_the_accounts_name(sqlite_url, monkeypatch):
    from shiftago.interfaces.server.accounts.store import Account
    from shiftago.interfaces.server.chat import chat

    async def signed_in(_conn):
        return Account(1, "carol")

    monkeypatch.setattr(chat, "signed_in", signed_in)
    with client_for(sqlite_url) as client:
        game_id, _ = create(client)
        with connect(client, game_id) as w:
            joined(w)
            assert say(w, "hello")["name"] == "carol"
            assert say(w, "again")["guest"] is False  # an account's line is not a guest's


def test_a_guest_seat_named_like_an_account_chats_marked_as_a_guest(db_url):
    """A guest seat may bear a name an account takes later: its lines and its seat say
    it is a guest, so it is never shown as exactly the account."""
    with client_for(db_url) as client:
        game_id, (ann, ben) = create(
            client, seats=[{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Ben"}]
        )
        with client_for(db_url) as other:  # the account comes after the game
            made = other.post("/api/accounts", json={"name": "ann", "password": "a password"})
            assert made.status_code == 201, made.text
        seats = client.get(f"/api/games/{game_id}").json()["seats"]
        assert [s["guest"] for s in seats] == [True, True]
        assert [s["account"] for s in seats] == [None, None]
        with connect(client, game_id) as o, connect(client, game_id) as w:
            joined(o, ann)
            joined(w)
            said = say(o, "I am ann")
            assert said["name"] == "Ann" and said["guest"] is True
            assert say(w, "are you?")["guest"] is True  # a spectator not signed in
        with connect(client, game_id) as g:  # the mark is kept with the line
            assert [m["guest"] for m in joined(g, ben)["messages"]] == [True]


def test_a_seat_of_an_account_chats_unmarked(sqlite_url):
    with client_for(sqlite_url) as client:
        game_id, (ann, _) = create(client)
        made = client.post("/api/accounts", json={"name": "ann", "password": "a password"})
        assert made.status_code == 201, made.text
        adopted = client.post(
            "/api/session/adopt",
            json={"tokens": [ann]},
            headers={"X-CSRF-Token": client.cookies["csrf"]},
        )
        assert adopted.json()["games"] == [game_id], adopted.text
        seats = client.get(f"/api/games/{game_id}").json()["seats"]
        assert [s["guest"] for s in seats] == [False, True]
        with connect(client, game_id) as o:
            joined(o, ann)
            said = say(o, "hello")
            assert said["name"] == "ann" and said["guest"] is False
