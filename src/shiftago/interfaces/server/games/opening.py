"""A person's seat opened: its person came for the first time (its link followed), and a
timed game's clock may start waiting for a first action (:mod:`.waiting`)."""

from __future__ import annotations

from shiftago.interfaces.server.db.store import Conflict, from_epoch
from shiftago.interfaces.server.games import announce
from shiftago.interfaces.server.games.hub import Hub
from shiftago.interfaces.server.games.live import LiveGame
from shiftago.interfaces.server.games.waiting import waiting


async def open_seat(hub: Hub, live: LiveGame, seat: int) -> None:
    """Under the game's lock: store that ``seat``'s person has come (the first time
    only, in a timed game not over), with the clock that then waits for the seat to
    act; everyone hears the game's clock again. The revision stays: a computer thinking
    meanwhile keeps its answer."""
    stored = live.stored
    if stored.clock is None or live.over or stored.seats[seat].opened is not None:
        return
    at = hub.now()
    stored.seats[seat].opened = from_epoch(at)
    clock = waiting(live, stored.clock, hub.waits)
    try:
        await hub.db(hub.store.open_seat, live.id, live.revision, seat, from_epoch(at), clock)
    except Conflict:
        stored.seats[seat].opened = None
        await hub.reload(live)
        return
    except BaseException:
        stored.seats[seat].opened = None
        raise
    stored.clock = clock
    announce.state(live)
