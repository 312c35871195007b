"""The rematch: the next game with the same seats, through the revision gate like every
change; once it is made, this game's result stands (no take-back) and each of its sockets
hears where the next game is."""

from __future__ import annotations

from shiftago.interfaces.server.games import announce
from shiftago.interfaces.server.games.creating import rematch_spec
from shiftago.interfaces.server.games.hub import Hub
from shiftago.interfaces.server.games.live import LiveGame
from shiftago.interfaces.server.games.refusals import Refused, person


async def ask(hub: Hub, live: LiveGame, seat: int | None) -> LiveGame | None:
    """Ask for the next game with the same seats: it is made, once however many ask,
    when every seat a person holds has asked (the computer's seats always agree);
    until then the asks are stored and shown. The next game, or None while seats
    have still to ask."""
    async with live.lock:
        seat = person(live, seat)
        if not live.over:
            raise Refused("not_allowed", "a rematch follows a finished game", "not_finished")
        if live.stored.next_id is None:
            asks = live.stored.rematch_asks | {seat}
            if live.people() - asks:
                if asks != live.stored.rematch_asks:
                    live.stored.updated = await hub.store_change(
                        live, hub.store.set_rematch_asks, asks
                    )
                    live.stored.rematch_asks = asks
                    announce.state(live)
                return None
            new, _ = hub.build(rematch_spec(live))
            next_id = await hub.db(hub.store.link_next, live.id, new.stored)
            if next_id == new.id:
                hub.games[new.id] = new
            live.stored.next_id = next_id
            announce.state(live)  # its `next`, and no take-back from now on
        next_live = await hub.get(live.stored.next_id)
        if next_live is None:  # pragma: no cover - stored just now
            raise Refused("not_allowed", "the rematch could not be made", "rematch_failed")
        announce.rematch(live, next_live.id)
        await hub.publish(
            {
                "game": live.id,
                "revision": live.revision,
                "kind": "rematch",
                "next": next_live.id,
            }
        )
    await hub.after_change(next_live)
    return next_live
