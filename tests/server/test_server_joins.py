"""Watchers join without stalling play (issue 55): their hellos wait in the game's queue
of joins, admitted in batches behind the players' actions, and what they are sent to
catch up is made once per state of the game (games/joining.py)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from shiftago.interfaces.server.games import acting
from shiftago.interfaces.server.games.joining import JOIN_BATCH, snapshots
from shiftago.interfaces.server.games.live import Connection
from support.server_support import client_for, connect, create

BURST = 8 * JOIN_BATCH


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'shiftago.db'}"


def drained(connection: Connection) -> list[object]:
    items = []
    while not connection.queue.empty():
        items.append(connection.queue.get_nowait())
    return items


def test_the_catch_up_is_made_once_for_many_watchers(sqlite_url):
    with client_for(sqlite_url) as client:
        game_id, (ann, _) = create(client, first="o")
        with connect(client, game_id) as o:
            o.hello(ann)
            o.act("L3", 0)
            seen = []
            for _ in range(6):
                with connect(client, game_id) as w:
                    events = w.hello()
                    seen.append([e for e in events if e["type"] == "action"])
            assert all(actions == seen[0] for actions in seen)
            assert [a["version"] for a in seen[0]] == [1]
            live = client.app.state.hub.games[game_id]
            assert snapshots(live).built == 2  # the player's hello at version 0; version 1's


def test_an_action_is_answered_while_a_burst_of_watchers_joins(sqlite_url):
    """The player acts while hundreds of watchers wait to join: the action is stored
    and sent before the burst is through (the order, not the time), the watchers
    admitted before it hear it, those after are welcomed at its version, and each
    version's catch-up was made once."""
    with client_for(sqlite_url) as client:
        game_id, _ = create(client, first="o")
        hub = client.app.state.hub

        async def burst() -> tuple[int, list[Connection], list[asyncio.Task[None]]]:
            live = await hub.get(game_id)
            assert live is not None
            watchers = [Connection() for _ in range(BURST)]
            joins = [asyncio.ensure_future(hub.joins.join(live, w, 0)) for w in watchers]
            while hub.joins.batches == 0:  # the burst is under way
                await asyncio.sleep(0)
            await acting.act(hub, live, 0, "L3", 0)
            admitted_by_then = sum(j.done() for j in joins)
            await asyncio.gather(*joins)
            return admitted_by_then, watchers, joins

        admitted, watchers, _ = client.portal.call(burst)
        assert 0 < admitted < BURST // 2
        live = hub.games[game_id]
        assert live.version == 1
        welcomed_at = []
        for watcher in watchers:
            items = [i for i in drained(watcher) if isinstance(i, str)]
            welcome = next(i for i in items if '"type":"welcome"' in i)
            welcomed_at.append('"version":1' in welcome)
            assert any('"type":"action","version":1' in i for i in items), items[:3]
        assert welcomed_at[:admitted] == [False] * admitted
        assert welcomed_at[-JOIN_BATCH:] == [True] * JOIN_BATCH
        assert snapshots(live).built == 2  # version 0's, version 1's
        assert len(live.connections) == BURST
        assert hub.joins.waiting() == 0


def test_a_watcher_gone_while_it_waited_is_let_go_not_joined(sqlite_url):
    with client_for(sqlite_url) as client:
        game_id, _ = create(client)
        hub = client.app.state.hub

        async def burst() -> tuple[list[Connection], list[bool]]:
            live = await hub.get(game_id)
            assert live is not None
            watchers = [Connection() for _ in range(3 * JOIN_BATCH)]
            joins = [asyncio.ensure_future(hub.joins.join(live, w, 0)) for w in watchers]
            await asyncio.sleep(0)  # all queued, none admitted yet
            watchers[-1].close()
            await asyncio.wait_for(asyncio.gather(*joins), 30)
            return watchers, [w in live.connections for w in watchers]

        watchers, joined = client.portal.call(burst)
        assert joined == [True] * (len(watchers) - 1) + [False]
        assert hub.joins.waiting() == 0 and hub.joins.queues == {}
