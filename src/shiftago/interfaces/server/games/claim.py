"""Claiming a seat whose person is away past the grace time (docs/web-protocol.md): the
others hand it to the computer or end the game against it. A seat whose person is
connected on any process is here (:mod:`.presence`), and cannot be claimed; nor can any
seat of a correspondence game, whose players are away between turns by design."""

from __future__ import annotations

import datetime as dt

from shiftago.core import COLOURS
from shiftago.engine.levels import default_level
from shiftago.interfaces.server.games import announce
from shiftago.interfaces.server.games.ending import terminate
from shiftago.interfaces.server.games.hub import Hub
from shiftago.interfaces.server.games.live import LiveGame
from shiftago.interfaces.server.games.refusals import Refused, seated
from shiftago.interfaces.server.games.stored import StoredSeat


async def claim(
    hub: Hub, live: LiveGame, by: int | None, seat: int, to: str, level: int | None = None
) -> None:
    """Hand a seat whose person is away past the grace time to the computer (at
    ``level``, the default level when None), or end the game."""
    async with live.lock:
        by = seated(live, by)
        if not 0 <= seat < len(live.stored.seats) or seat == by:
            raise Refused("not_allowed", "claim another player's seat", "claim_own_seat")
        if live.stored.seats[seat].kind != "human" or live.connected(seat):
            raise Refused("not_allowed", f"{COLOURS[seat]} is here", "claim_present")
        if live.correspondence:
            raise Refused(
                "not_allowed",
                "in a correspondence game a player may be away between turns: the clock"
                " ends a turn not taken",
                "claim_correspondence",
            )
        away = live.away_since[seat]
        now = dt.datetime.now(dt.UTC)
        grace = hub.grace_seconds
        if away is None or (now - away).total_seconds() < grace:
            raise Refused(
                "not_allowed", f"{COLOURS[seat]} has not been away for {grace} s", "claim_early"
            )
        if to == "end":
            await terminate(hub, live, seat, "abandoned")
            return
        old = live.stored.seats[seat]
        level = default_level() if level is None else level
        new = StoredSeat("computer", old.name, level, old.token_hash)
        await hub.store_change(live, hub.store.set_seat, seat, new)
        live.stored.seats[seat] = new
        live.away_since[seat] = None
        announce.state(live)
        hub.presence.changed(live)
        await hub.after_change(live)
