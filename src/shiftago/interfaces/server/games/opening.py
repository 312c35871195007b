"""A person's seat opened: its person came for the first time (its link followed). The
others then read the seat as gone when its person leaves, not as not come yet, and a
timed game's clock may start waiting for a first action (:mod:`.waiting`)."""

from __future__ import annotations

from shiftago.interfaces.server.db.store import Conflict, from_epoch
from shiftago.interfaces.server.games import announce
from shiftago.interfaces.server.games.hub import Hub
from shiftago.interfaces.server.games.live import LiveGame
from shiftago.interfaces.server.games.waiting import waiting


async def open_seat(hub: Hub, live: LiveGame, seat: int) -> None:
    """Under the game's lock: store that ``seat``'s person has come (the first time
    only, in a game not over), in a timed game with the clock that then waits for the
    seat to act, which everyone hears again. The revision stays: a computer thinking
    meanwhile keeps its answer."""
    stored = live.stored
    if live.over or stored.seats[seat].opened is not None:
        return
    at = hub.now()
    stored.seats[seat].opened = from_epoch(at)
    clock = None if stored.clock is None else waiting(live, stored.clock, hub.waits)
    try:
        await hub.db(hub.store.open_seat, live.id, live.revision, seat, from_epoch(at), clock)
    except Conflict:
        stored.seats[seat].opened = None
        await hub.reload(live)
        return
    except BaseException:
        stored.seats[seat].opened = None
        raise
    if clock is not None:
        stored.clock = clock
        announce.state(live)
