"""Ratings in the database: the rows of ``ratings`` and ``rating_changes``.

The ratings and the changes of one game are written in one transaction; the changes'
unique (account, game) pair makes the second rating of a game (twice in one process, or
by two processes at once) store nothing. How a game changes the ratings is
:mod:`.ratings`' to say (the ``rate`` given to :func:`store_ratings`). Like every store,
these functions are synchronous and short (the app runs them in its database thread)
and return plain values.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError, OperationalError

from shiftago.core import COLOURS
from shiftago.interfaces.server.db.schema import (
    AccountRow,
    RatingChangeRow,
    RatingRow,
    SeatRow,
)
from shiftago.interfaces.server.db.store import Database, now, utc
from shiftago.match.glicko2 import PROVISIONAL_DEVIATION, Glicko, provisional

#: Tries of a rating that another writer got in the way of (SQLite's busy snapshot).
TRIES: Final = 3


def category(variant: str, players: int) -> str:
    return f"{variant}-{players}"


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
            "provisional": provisional(self.deviation),
        }


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


#: How a game changes its seats' ratings: their ratings after, from those before.
Rate = Callable[[Sequence[Glicko]], list[Glicko]]


def store_ratings(
    db: Database, game_id: str, variant: str, rate: Rate, start: Glicko
) -> list[Change] | None:
    """Store what ``rate`` makes of the ratings of the stored game's seats (``start``
    for a category not played yet): the changes, or None when it is not to be rated (a
    seat without an account of its own) or is rated already."""
    for attempt in range(TRIES):
        try:
            return _rate_once(db, game_id, variant, rate, start)
        except IntegrityError:  # another rating of the game (or a first rating row) won
            if changes_of_game(db, game_id):
                return None
            if attempt == TRIES - 1:
                raise
        except OperationalError:  # SQLite: another process wrote since this one read
            if attempt == TRIES - 1:
                raise
    return None  # pragma: no cover - the loop returns or raises


def _rate_once(
    db: Database, game_id: str, variant: str, rate: Rate, start: Glicko
) -> list[Change] | None:
    stamp = now()
    with db.sessions.begin() as s:
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
            Glicko(r.rating, r.deviation, r.volatility) if (r := rows.get(a)) else start
            for a in accounts
        ]
        after = rate(before)
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


def changes_of_game(db: Database, game_id: str) -> list[Change]:
    """What the game did to its players' ratings (none: not rated, or not yet)."""
    with db.sessions() as s:
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


def ratings_of(db: Database, account_id: int) -> list[Standing]:
    with db.sessions() as s:
        rows = s.execute(
            select(RatingRow, AccountRow.name)
            .join(AccountRow, AccountRow.id == RatingRow.account_id)
            .where(RatingRow.account_id == account_id)
            .order_by(RatingRow.category)
        ).all()
    return [
        Standing(name, r.category, r.rating, r.deviation, r.games, r.updated) for r, name in rows
    ]


def history_of(db: Database, account_id: int, kind: str, limit: int) -> list[dict[str, Any]]:
    """The account's rating after each rated game of the category, oldest first."""
    with db.sessions() as s:
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


def leaderboard(db: Database, kind: str, limit: int) -> list[Standing]:
    """The best settled ratings of the category (provisional ones and those of closed
    accounts are left out)."""
    with db.sessions() as s:
        rows = s.execute(
            select(RatingRow, AccountRow.name)
            .join(AccountRow, AccountRow.id == RatingRow.account_id)
            .where(
                RatingRow.category == kind,
                RatingRow.deviation <= PROVISIONAL_DEVIATION,
                AccountRow.closed.is_(None),
            )
            .order_by(RatingRow.rating.desc(), AccountRow.name)
            .limit(limit)
        ).all()
    return [
        Standing(name, r.category, r.rating, r.deviation, r.games, r.updated) for r, name in rows
    ]


def names_starting(db: Database, prefix: str, limit: int) -> list[str]:
    """The names of the open accounts that start with ``prefix`` (lower case),
    alphabetical: the names "Find a player" offers."""
    with db.sessions() as s:
        names = s.scalars(
            select(AccountRow.name)
            .where(AccountRow.closed.is_(None), AccountRow.name.startswith(prefix, autoescape=True))
            .order_by(AccountRow.name)
            .limit(limit)
        ).all()
    return list(names)


def rating_changes_of(
    db: Database, account_id: int, game_ids: list[str]
) -> dict[str, tuple[float, float, float]]:
    """The account's rating before and after each of ``game_ids`` that was rated, and its
    deviation after it."""
    with db.sessions() as s:
        found = s.execute(
            select(
                RatingChangeRow.game_id,
                RatingChangeRow.rating_before,
                RatingChangeRow.rating_after,
                RatingChangeRow.deviation_after,
            ).where(
                RatingChangeRow.account_id == account_id,
                RatingChangeRow.game_id.in_(game_ids),
            )
        ).all()
    return {game_id: (before, after, deviation) for game_id, before, after, deviation in found}
