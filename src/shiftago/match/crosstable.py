"""The crosstable of a match: every participant against every other, as fastchess and
cutechess-cli print it for a tournament.

Each cell is one participant (the row) against another (the column) over the games
both played in: a win where the row scored more points than the column in that game,
a draw where they scored the same (a game both lost, or a draw they shared), a loss
else. With two players that is the game's result; with three or four it compares the
two seats of the game. The row's points are its wins plus half its draws, so that a
cell and its mirror add up to the games between them, and the Elo of the row over the
column comes from those per-game scores (:func:`~.stats.elo_estimate`, a 95% interval,
infinite when one side won every game).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from shiftago.match.games import GameResult
from shiftago.match.participants import Participant
from shiftago.match.stats import EloEstimate, elo_estimate


@dataclass(frozen=True)
class PairScore:
    """The row against the column: its wins, draws and losses, points and Elo."""

    wins: int
    draws: int
    losses: int
    elo: EloEstimate | None

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> float:
        """Wins plus half the draws: the row's share of the games between the two."""
        return self.wins + self.draws / 2


@dataclass(frozen=True)
class Crosstable:
    """Every ordered pair of participants (by their order in the match)."""

    names: tuple[str, ...]
    cells: tuple[tuple[PairScore | None, ...], ...]  # None on the diagonal

    def cell(self, row: int, column: int) -> PairScore:
        """The row's score against the column (not itself)."""
        score = self.cells[row][column]
        if score is None:
            raise ValueError("a participant has no score against itself")
        return score

    def to_json(self) -> dict[str, Any]:
        """The names and one entry per ordered pair (infinite Elo values become None)."""
        pairs = []
        for i, row in enumerate(self.names):
            for j, column in enumerate(self.names):
                if i == j:
                    continue
                cell = self.cell(i, j)
                e = cell.elo
                pairs.append(
                    {
                        "participant": row,
                        "opponent": column,
                        "games": cell.games,
                        "wins": cell.wins,
                        "draws": cell.draws,
                        "losses": cell.losses,
                        "points": cell.points,
                        "elo": None if e is None else _finite(e.elo),
                        "elo_low": None if e is None else _finite(e.low),
                        "elo_high": None if e is None else _finite(e.high),
                    }
                )
        return {"participants": list(self.names), "pairs": pairs}


def crosstable(participants: Sequence[Participant], games: Sequence[GameResult]) -> Crosstable:
    """The crosstable after ``games``."""
    keys = [p.key for p in participants]
    samples: dict[tuple[int, int], list[float]] = {
        (i, j): [] for i in range(len(keys)) for j in range(len(keys)) if i != j
    }
    index = {key: i for i, key in enumerate(keys)}
    for game in games:
        seated = [(index[key], seat) for seat, key in enumerate(game.seats) if key in index]
        for i, seat_i in seated:
            for j, seat_j in seated:
                if i != j:
                    mine, theirs = game.points[seat_i], game.points[seat_j]
                    samples[i, j].append(1.0 if mine > theirs else 0.5 if mine == theirs else 0.0)
    cells = tuple(
        tuple(None if i == j else _score(samples[i, j]) for j in range(len(keys)))
        for i in range(len(keys))
    )
    return Crosstable(tuple(p.name for p in participants), cells)


def _score(samples: list[float]) -> PairScore:
    wins = sum(1 for s in samples if s == 1.0)
    losses = sum(1 for s in samples if s == 0.0)
    elo = elo_estimate(samples) if samples else None
    return PairScore(wins, len(samples) - wins - losses, losses, elo)


def _finite(value: float) -> float | None:
    return value if math.isfinite(value) else None
