"""Rating the rated games when they end (docs/web-protocol.md, "Accounts and ratings").

Each account has a rating per category, ``f"{variant}-{players}"`` (``express-2``,
``expert-3``...), and every rated game is a rating period of its own:

- 2 players: Glicko-2 (:mod:`shiftago.match.glicko2`), from 1500 / 350 / 0.06.
- 3-4 players: OpenSkill's Plackett-Luce model, from the same 1500 / 350. Its ``beta``
  (the spread of one game's performance) is ``173.7178 / sqrt(2)``, so that two settled
  players 400 points apart expect ten to one, as in Glicko; its ``tau`` (uncertainty
  added per game) is Glicko-2's starting volatility on the Glicko scale (0.06 x
  173.7178). The mean is shown as the rating and the uncertainty as the deviation.

A rating is provisional while its deviation is above 110 (Lichess's rule): it is shown
with a "?" and kept off the leaderboard.

A game is rated when it is marked rated, ended with a result (an aborted game has none)
and every seat is a person with an account of its own. The ratings and the changes of
one game are written in one transaction; the changes' unique (account, game) pair makes
the second rating of a game (twice in one process, or by two processes at once) store
nothing.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence
from typing import Any, Final

from openskill.models import PlackettLuce

from shiftago.interfaces.server.db.store import Database
from shiftago.interfaces.server.games.hub import Hub
from shiftago.interfaces.server.games.live import LiveGame
from shiftago.interfaces.server.jobs.bus import Event
from shiftago.interfaces.server.players.store import (
    Change,
    changes_of_game,
    store_ratings,
)
from shiftago.match.glicko2 import SCALE, START, Glicko, provisional, rate_game

log = logging.getLogger("shiftago.server")

#: OpenSkill on the Glicko scale (see the module's words).
MODEL: Final = PlackettLuce(
    mu=START.rating, sigma=START.deviation, beta=SCALE / math.sqrt(2), tau=START.volatility * SCALE
)
#: The bus event that tells other processes a game was rated.
RATED: Final = "rated"


def new_ratings(before: Sequence[Glicko], winners: Sequence[int]) -> list[Glicko]:
    """Every seat's rating after one game (seats in order; ``winners`` share the win, all
    of them: a draw)."""
    if len(before) == 2:
        score = 0.5 if len(winners) == 2 else (1.0 if 0 in winners else 0.0)
        return list(rate_game(before[0], before[1], score))
    teams = [[MODEL.rating(mu=r.rating, sigma=r.deviation)] for r in before]
    ranks = [1.0 if seat in winners else 2.0 for seat in range(len(before))]
    rated = MODEL.rate(teams, ranks=ranks)
    return [Glicko(float(t[0].mu), float(t[0].sigma), 0.0) for t in rated]


# --- the store (run in the database thread) ----------------------------------------------
def rate_stored_game(
    store: Database, game_id: str, variant: str, winners: Sequence[int]
) -> list[Change] | None:
    """Rate the stored game ``game_id`` with ``winners``: the changes, or None when it is
    not to be rated (a seat without an account of its own) or is rated already."""
    return store_ratings(
        store, game_id, variant, lambda before: new_ratings(before, winners), START
    )


def unplayed_view() -> dict[str, Any]:
    """The rating of a category an account has not played: where every rating starts."""
    return {
        "rating": START.rating,
        "deviation": START.deviation,
        "games": 0,
        "provisional": provisional(START.deviation),
    }


# --- the hooks ---------------------------------------------------------------------------
def rated_message(changes: Sequence[Change]) -> dict[str, Any]:
    return {"type": "rated", "changes": [c.view() for c in changes]}


def never_started(live: LiveGame) -> bool:
    """Whether the game ended on time against a seat that never acted in it: a player
    who never came (a challenge whose clock started without them, or who left after
    agreeing to a rematch). As an abort, it is not rated, so that nobody gains a rating
    from an absent opponent."""
    stored = live.stored
    return (
        stored.termination == "time"
        and stored.ended_by is not None
        and not live.has_acted(stored.ended_by)
    )


async def rate_finished(hub: Hub, live: LiveGame) -> None:
    """The finish hook: rate the game if it is to be rated, then tell its sockets here and
    (through the bus) in the other processes."""
    stored = live.stored
    winners = live.winners()
    if not live.rated or live.aborted or not winners:
        return
    if never_started(live):
        log.info("game %s not rated: its flag fell before its first action", live.id)
        return
    changes = await hub.db(rate_stored_game, hub.store, live.id, stored.variant, winners)
    if not changes:
        return
    log.info("game %s rated: %s", live.id, ", ".join(f"{c.name} {c.after:.0f}" for c in changes))
    live.broadcast(rated_message(changes))
    await hub.publish({"game": live.id, "revision": live.revision, "kind": RATED})


async def _rated_elsewhere(hub: Hub, event: Event) -> None:
    """Another process rated a game: tell this process's sockets of it."""
    live = hub.games.get(str(event.get("game")))
    if live is None or not live.connections:
        return
    changes = await hub.db(changes_of_game, hub.store, live.id)
    if changes:
        live.broadcast(rated_message(changes))


def install(hub: Hub) -> None:
    """Rate games as they end in this process, and hear of those rated elsewhere."""

    async def on_finish(live: LiveGame) -> None:
        await rate_finished(hub, live)

    async def on_rated(event: Event) -> None:
        await _rated_elsewhere(hub, event)

    hub.finish_hooks.append(on_finish)
    hub.event_hooks[RATED] = on_rated
