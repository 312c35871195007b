"""Draw offers (docs/web-protocol.md, "Draw offers and aborting"): a person offers, the
other accepts (the game ends, a draw shared by both) or declines; a declined offer holds
back a repeat, and an offer lapses when its receiver acts instead (:mod:`.acting`)."""

from __future__ import annotations

from shiftago.interfaces.server.games import announce
from shiftago.interfaces.server.games.ending import terminate
from shiftago.interfaces.server.games.hub import Hub
from shiftago.interfaces.server.games.live import LiveGame, result_token
from shiftago.interfaces.server.games.refusals import Refused, seated


async def offer(hub: Hub, live: LiveGame, seat: int | None) -> None:
    async with live.lock:
        seat = seated(live, seat)
        refusal = live.draw_offer_refusal(seat)
        if refusal is not None:
            raise Refused("not_allowed", refusal[1], refusal[0])
        await set_offer(hub, live, seat)
        announce.state(live)


async def answer(hub: Hub, live: LiveGame, seat: int | None, accept: bool) -> None:
    """Accept (the game ends, a draw shared by both) or decline the other's offer."""
    async with live.lock:
        seat = seated(live, seat)
        offered = live.stored.draw_offer
        if offered is None or offered == seat:
            raise Refused("not_allowed", "there is no draw offer to answer", "no_draw_offer")
        if accept:
            players = range(live.game.rules.players)
            await terminate(hub, live, seat, "agreement", result_token(tuple(players)))
            return
        await set_offer(hub, live, None, declined=(offered, live.version))
        announce.state(live)


async def set_offer(
    hub: Hub, live: LiveGame, seat: int | None, declined: tuple[int, int] | None = None
) -> None:
    """Store who offers a draw now, and the declined offer that holds back a repeat
    (a change of its own, through the revision gate; stored, so every process
    refuses the repeat)."""
    live.stored.updated = await hub.store_change(live, hub.store.set_draw_offer, seat, declined)
    live.stored.draw_offer = seat
    live.stored.draw_declined = declined
