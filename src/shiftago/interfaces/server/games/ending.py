"""Ending a game before its rules do: resigning, aborting, the flag falling.

Each ends the game against one seat (:func:`terminate`): the others win, a draw shared
when several; a timed game whose clock waited for its players in vain is aborted
(:func:`give_up`, :mod:`.waiting`); an aborted game has no result and is never rated
(docs/web-protocol.md, "Draw offers and aborting").
"""

from __future__ import annotations

from shiftago.core import COLOURS
from shiftago.interfaces.server.games import announce
from shiftago.interfaces.server.games.hub import Hub
from shiftago.interfaces.server.games.live import ABORTED, UNSTARTED, LiveGame, result_token
from shiftago.interfaces.server.games.refusals import Refused, seated
from shiftago.interfaces.server.games.waiting import unopened


async def resign(hub: Hub, live: LiveGame, seat: int | None) -> None:
    async with live.lock:
        seat = seated(live, seat)
        await terminate(hub, live, seat, "resignation")


async def abort(hub: Hub, live: LiveGame, seat: int | None) -> None:
    """End the game without a result, before ``seat``'s first action."""
    async with live.lock:
        seat = seated(live, seat)
        refusal = live.abort_refusal(seat)
        if refusal is not None:
            raise Refused("not_allowed", refusal[1], refusal[0])
        await terminate(hub, live, seat, ABORTED, "")


async def flag(hub: Hub, live: LiveGame) -> bool:
    """End the game if the running clock has run out (the flag sweep); whether it did."""
    async with live.lock:
        try:
            await flag_if_out_of_time(hub, live)
        except Refused as refused:
            return refused.code in ("time", "aborted")
        return False


async def flag_if_out_of_time(hub: Hub, live: LiveGame) -> None:
    """Under the game's lock: when the seat to act has no time left, the game ends
    against it (its flag falls: ``result.reason`` "time") and the change that was
    asked for is refused."""
    clock = live.stored.clock
    if clock is None or live.over:
        return
    now = hub.now()
    if clock.running is None and clock.waits_until is not None and now >= clock.waits_until:
        await give_up(hub, live)
    seat = clock.flagged(now)
    if seat is None:
        return
    try:
        await terminate(hub, live, seat, "time")
    except Refused:
        # another process stored the flag first (its sweep): the game, read again,
        # says so, and the change asked for is refused on time all the same
        if live.stored.termination != "time" or live.stored.ended_by is None:
            raise
        seat = live.stored.ended_by
    raise Refused("time", f"{COLOURS[seat]}'s time has run out")


async def give_up(hub: Hub, live: LiveGame) -> None:
    """Under the game's lock: the clock waited for the players in vain (a seat not
    opened in time, or a person's first action not made in time): the game is aborted
    against that seat, nobody wins or loses, and the change asked for is refused."""
    seat = unopened(live)
    if seat is None:
        seat = live.game.turn
    try:
        await terminate(hub, live, seat, UNSTARTED, "")
    except Refused:
        if not live.aborted:  # another process stored the abort first: it stands
            raise
    raise Refused("aborted", "the game was aborted: a player did not come or act in time")


async def terminate(
    hub: Hub, live: LiveGame, seat: int, termination: str, result: str | None = None
) -> None:
    """Under the game's lock, end the game against ``seat``: the others win (share a
    draw when several); or with ``result`` when given (a draw agreed, ``""`` when
    aborted)."""
    players = live.game.rules.players
    if result is None:
        result = result_token(tuple(s for s in range(players) if s != seat))
    live.stored.result, live.stored.termination = result, termination
    live.stored.ended_by = seat
    status = live.status()
    clock = live.stored.clock
    if clock is not None:
        clock = clock.stopped(hub.now())
    try:
        live.stored.updated = await hub.store_change(
            live, hub.store.terminate, result, termination, status, clock, seat
        )
    except Refused:
        raise  # read again from the database: nothing to put back
    except BaseException:
        live.stored.result = live.stored.termination = live.stored.ended_by = None
        raise
    live.stored.clock = clock
    live.stored.status, live.stored.finished = status, True
    announce.state(live)
    await hub.finished(live)
