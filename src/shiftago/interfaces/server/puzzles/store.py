"""Puzzles in the database: the puzzles, the accounts' puzzle ratings, the rated rounds.

Like every store these functions are synchronous and short (the app runs them in its
database thread) and return plain values. The shipped set is loaded by
:func:`load_puzzles` the first time a process serves a puzzle: the puzzles the table
lacks are added, so a new version's set reaches an old database.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Final

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError, OperationalError

from shiftago.engine.puzzles.puzzle import Puzzle
from shiftago.interfaces.server.db.schema import PuzzlePlayerRow, PuzzleRoundRow, PuzzleRow
from shiftago.interfaces.server.db.store import Database, now, utc
from shiftago.match.glicko2 import Glicko

#: Where a puzzle's and a player's rating start: a puzzle's own rating with this
#: deviation and volatility; a player at 1500 (lichess's start).
PUZZLE_DEVIATION: Final = 200.0
START: Final = Glicko(1500.0, 350.0, 0.06)
#: Tries of a write that another writer got in the way of (SQLite's busy snapshot).
TRIES: Final = 3


@dataclass(frozen=True)
class StoredPuzzle:
    """A puzzle as the table keeps it, with its rating now."""

    id: str
    variant: str
    players: int
    position: str
    actions: int
    solution: tuple[str, ...]
    themes: tuple[str, ...]
    rating: Glicko
    attempts: int


@dataclass(frozen=True)
class PuzzlePlayer:
    """An account's puzzle rating and streaks."""

    rating: Glicko
    puzzles: int
    streak: int
    best_streak: int


def _stored(row: PuzzleRow) -> StoredPuzzle:
    return StoredPuzzle(
        row.id,
        row.variant,
        row.players,
        row.position,
        row.actions,
        tuple(row.solution.split()),
        tuple(row.themes.split()),
        Glicko(row.rating, row.deviation, row.volatility),
        row.attempts,
    )


def count_puzzles(db: Database) -> int:
    with db.sessions() as s:
        return int(s.scalar(select(func.count()).select_from(PuzzleRow)) or 0)


def load_puzzles(db: Database, puzzles: Iterable[Puzzle]) -> int:
    """Add the puzzles the table lacks (by id); how many were added. Two processes that
    load at once add each puzzle once (the loser of the race adds none)."""
    wanted = {p.id: p for p in puzzles}
    try:
        with db.sessions.begin() as s:
            have = set(s.scalars(select(PuzzleRow.id)))
            rows = [
                PuzzleRow(
                    id=p.id,
                    variant=p.variant,
                    players=p.players,
                    position=p.position,
                    actions=p.actions,
                    solution=" ".join(p.solution),
                    themes=" ".join(p.themes),
                    rating=float(p.rating),
                    deviation=PUZZLE_DEVIATION,
                    volatility=START.volatility,
                    attempts=0,
                )
                for key, p in sorted(wanted.items())
                if key not in have
            ]
            s.add_all(rows)
        return len(rows)
    except (IntegrityError, OperationalError):
        return 0


def puzzle(db: Database, puzzle_id: str) -> StoredPuzzle | None:
    with db.sessions() as s:
        row = s.get(PuzzleRow, puzzle_id)
        return None if row is None else _stored(row)


def puzzles_near(
    db: Database, rating: float, theme: str | None, account_id: int | None, count: int
) -> list[StoredPuzzle]:
    """The ``count`` puzzles whose rating is nearest ``rating`` (with ``theme``, and not
    yet played by ``account_id``), nearest first."""
    with db.sessions() as s:
        query = select(PuzzleRow)
        if theme is not None:
            query = query.where((" " + PuzzleRow.themes + " ").contains(f" {theme} "))
        if account_id is not None:
            played = select(PuzzleRoundRow.puzzle_id).where(PuzzleRoundRow.account_id == account_id)
            query = query.where(PuzzleRow.id.not_in(played))
        query = query.order_by(func.abs(PuzzleRow.rating - rating), PuzzleRow.id).limit(count)
        return [_stored(row) for row in s.scalars(query)]


def puzzle_player(db: Database, account_id: int) -> PuzzlePlayer:
    """The account's puzzle rating (where everyone starts when it has played none)."""
    with db.sessions() as s:
        row = s.get(PuzzlePlayerRow, account_id)
        if row is None:
            return PuzzlePlayer(START, 0, 0, 0)
        return PuzzlePlayer(
            Glicko(row.rating, row.deviation, row.volatility),
            row.puzzles,
            row.streak,
            row.best_streak,
        )


def played_at(db: Database, account_id: int, puzzle_id: str) -> dt.datetime | None:
    """When the account's rated round of the puzzle was (None: not played yet)."""
    with db.sessions() as s:
        row = s.get(PuzzleRoundRow, (account_id, puzzle_id))
        return None if row is None else utc(row.at)


Rate = Callable[[Glicko, Glicko, bool], tuple[Glicko, Glicko]]


def rate_round(
    db: Database, account_id: int, puzzle_id: str, solved: bool, rate: Rate
) -> PuzzlePlayer | None:
    """Rate the account's first finished attempt at the puzzle: both ratings move by
    ``rate(player, puzzle, solved)``, the streak grows or ends. None when the account
    played the puzzle before (nothing changes)."""
    for attempt in range(TRIES):
        try:
            return _rate_once(db, account_id, puzzle_id, solved, rate)
        except IntegrityError:  # another request rated this round first
            return None
        except OperationalError:  # SQLite: another process wrote since this one read
            if attempt == TRIES - 1:
                raise
    return None


def _rate_once(
    db: Database, account_id: int, puzzle_id: str, solved: bool, rate: Rate
) -> PuzzlePlayer | None:
    stamp = now()
    with db.sessions.begin() as s:
        if s.get(PuzzleRoundRow, (account_id, puzzle_id)) is not None:
            return None
        row = s.get(PuzzleRow, puzzle_id)
        if row is None:
            return None
        player = s.get(PuzzlePlayerRow, account_id)
        if player is None:
            player = PuzzlePlayerRow(
                account_id=account_id,
                rating=START.rating,
                deviation=START.deviation,
                volatility=START.volatility,
                puzzles=0,
                streak=0,
                best_streak=0,
                updated=stamp,
            )
            s.add(player)
        before = Glicko(player.rating, player.deviation, player.volatility)
        puzzle_before = Glicko(row.rating, row.deviation, row.volatility)
        after, puzzle_after = rate(before, puzzle_before, solved)
        player.rating, player.deviation = after.rating, after.deviation
        player.volatility = after.volatility
        player.puzzles += 1
        player.streak = player.streak + 1 if solved else 0
        player.best_streak = max(player.best_streak, player.streak)
        player.updated = stamp
        row.rating, row.deviation = puzzle_after.rating, puzzle_after.deviation
        row.volatility = puzzle_after.volatility
        row.attempts += 1
        s.add(
            PuzzleRoundRow(
                account_id=account_id,
                puzzle_id=puzzle_id,
                solved=solved,
                rating_after=after.rating,
                at=stamp,
            )
        )
        s.flush()
        return PuzzlePlayer(after, player.puzzles, player.streak, player.best_streak)
