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

import datetime as dt
import logging
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from openskill.models import PlackettLuce
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError, OperationalError

from shiftago.core import COLOURS
from shiftago.interfaces.server.db.schema import (
    AccountRow,
    RatingChangeRow,
    RatingRow,
    SeatRow,
)
from shiftago.interfaces.server.db.store import Store, now, utc
from shiftago.interfaces.server.games.hub import Hub
from shiftago.interfaces.server.games.live import LiveGame
from shiftago.interfaces.server.jobs.bus import Event
from shiftago.match.glicko2 import SCALE, Glicko, rate_game

log = logging.getLogger("shiftago.server")

START: Final = Glicko(1500.0, 350.0, 0.06)
#: A rating is provisional while its deviation is above this (Lichess's rule).
PROVISIONAL: Final = 110.0
#: OpenSkill on the Glicko scale (see the module's words).
MODEL: Final = PlackettLuce(
    mu=START.rating, sigma=START.deviation, beta=SCALE / math.sqrt(2), tau=START.volatility * SCALE
)
#: The bus event that tells other processes a game was rated.
RATED: Final = "rated"
#: Tries of a rating that another writer got in the way of (SQLite's busy snapshot).
TRIES: Final = 3


def category(variant: str, players: int) -> str:
    return f"{variant}-{players}"


def provisional(deviation: float) -> bool:
    return deviation > PROVISIONAL


@dataclass(frozen=True)
class Change:
    """What one game did to the rating of the account in one seat."""

    seat: int
    name: str
    before: float
    after: float
    deviation: float

    def view(self) -> dict[str, Any]:
        return {
            "colour": COLOURS[self.seat],
            "name": self.name,
            "before": round(self.before, 2),
            "after": round(self.after, 2),
            "deviation": round(self.deviation, 2),
        }


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
    store: Store, game_id: str, variant: str, winners: Sequence[int]
) -> list[Change] | None:
    """Rate the stored game ``game_id`` with ``winners``: the changes, or None when it is
    not to be rated (a seat without an account of its own) or is rated already."""
    for attempt in range(TRIES):
        try:
            return _rate_once(store, game_id, variant, winners)
        except IntegrityError:  # another rating of the game (or a first rating row) won
            if changes_of_game(store, game_id):
                return None
            if attempt == TRIES - 1:
                raise
        except OperationalError:  # SQLite: another process wrote since this one read
            if attempt == TRIES - 1:
                raise
    return None  # pragma: no cover - the loop returns or raises


def _rate_once(
    store: Store, game_id: str, variant: str, winners: Sequence[int]
) -> list[Change] | None:
    stamp = now()
    with store.sessions.begin() as s:
        seats = s.execute(
            select(SeatRow.seat, SeatRow.kind, SeatRow.account_id, AccountRow.name)
            .outerjoin(AccountRow, AccountRow.id == SeatRow.account_id)
            .where(SeatRow.game_id == game_id)
            .order_by(SeatRow.seat)
        ).all()
        accounts = [row.account_id for row in seats]
        if (
            len(seats) < 2
            or any(row.kind != "human" or row.account_id is None for row in seats)
            or len(set(accounts)) != len(accounts)
        ):
            return None
        done = s.scalar(select(RatingChangeRow.id).where(RatingChangeRow.game_id == game_id))
        if done is not None:
            return None
        kind = category(variant, len(seats))
        rows = {
            row.account_id: row
            for row in s.scalars(
                select(RatingRow)
                .where(RatingRow.category == kind, RatingRow.account_id.in_(accounts))
                .with_for_update()  # PostgreSQL: two games of one account, one after the other
            )
        }
        before = [
            Glicko(r.rating, r.deviation, r.volatility) if (r := rows.get(a)) else START
            for a in accounts
        ]
        after = new_ratings(before, winners)
        changes = []
        for seat, account, old, new in zip(seats, accounts, before, after, strict=True):
            assert account is not None
            row = rows.get(account)
            if row is None:
                row = RatingRow(account_id=account, category=kind, games=0)
                s.add(row)
            row.rating, row.deviation, row.volatility = new.rating, new.deviation, new.volatility
            row.games += 1
            row.updated = stamp
            s.add(
                RatingChangeRow(
                    account_id=account,
                    game_id=game_id,
                    category=kind,
                    rating_before=old.rating,
                    rating_after=new.rating,
                    deviation_after=new.deviation,
                    at=stamp,
                )
            )
            changes.append(Change(seat.seat, seat.name, old.rating, new.rating, new.deviation))
        return changes


def changes_of_game(store: Store, game_id: str) -> list[Change]:
    """What the game did to its players' ratings (none: not rated, or not yet)."""
    with store.sessions() as s:
        rows = s.execute(
            select(RatingChangeRow, SeatRow.seat, AccountRow.name)
            .join(AccountRow, AccountRow.id == RatingChangeRow.account_id)
            .join(
                SeatRow,
                (SeatRow.game_id == RatingChangeRow.game_id)
                & (SeatRow.account_id == RatingChangeRow.account_id),
            )
            .where(RatingChangeRow.game_id == game_id)
            .order_by(SeatRow.seat)
        ).all()
    return [
        Change(seat, name, c.rating_before, c.rating_after, c.deviation_after)
        for c, seat, name in rows
    ]


@dataclass(frozen=True)
class Standing:
    """An account's rating in one category."""

    name: str
    category: str
    rating: float
    deviation: float
    games: int
    updated: dt.datetime

    def view(self) -> dict[str, Any]:
        return {
            "rating": round(self.rating, 2),
            "deviation": round(self.deviation, 2),
            "games": self.games,
            "provisional": provisional(self.deviation),
        }


def unplayed_view() -> dict[str, Any]:
    """The rating of a category an account has not played: where every rating starts."""
    return {
        "rating": START.rating,
        "deviation": START.deviation,
        "games": 0,
        "provisional": provisional(START.deviation),
    }


def ratings_of(store: Store, account_id: int) -> list[Standing]:
    with store.sessions() as s:
        rows = s.execute(
            select(RatingRow, AccountRow.name)
            .join(AccountRow, AccountRow.id == RatingRow.account_id)
            .where(RatingRow.account_id == account_id)
            .order_by(RatingRow.category)
        ).all()
    return [
        Standing(name, r.category, r.rating, r.deviation, r.games, r.updated) for r, name in rows
    ]


def history_of(store: Store, account_id: int, kind: str, limit: int) -> list[dict[str, Any]]:
    """The account's rating after each rated game of the category, oldest first."""
    with store.sessions() as s:
        rows = s.scalars(
            select(RatingChangeRow)
            .where(RatingChangeRow.account_id == account_id, RatingChangeRow.category == kind)
            .order_by(RatingChangeRow.at.desc(), RatingChangeRow.id.desc())
            .limit(limit)
        ).all()
    return [
        {
            "game": r.game_id,
            "at": utc(r.at).isoformat(),
            "before": round(r.rating_before, 2),
            "rating": round(r.rating_after, 2),
            "deviation": round(r.deviation_after, 2),
        }
        for r in reversed(rows)
    ]


def leaderboard(store: Store, kind: str, limit: int) -> list[Standing]:
    """The best settled ratings of the category (provisional ones and those of closed
    accounts are left out)."""
    with store.sessions() as s:
        rows = s.execute(
            select(RatingRow, AccountRow.name)
            .join(AccountRow, AccountRow.id == RatingRow.account_id)
            .where(
                RatingRow.category == kind,
                RatingRow.deviation <= PROVISIONAL,
                AccountRow.closed.is_(None),
            )
            .order_by(RatingRow.rating.desc(), AccountRow.name)
            .limit(limit)
        ).all()
    return [
        Standing(name, r.category, r.rating, r.deviation, r.games, r.updated) for r, name in rows
    ]


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
    if not live.rated or stored.termination == "aborted" or not winners:
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
