"""How a game ended: who won, who shares a draw, and why."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from shiftago.core.rules import COLOURS, Rules, Variant


class EndReason(Enum):
    """Why the game ended (RULES.md sections 4, 5 and 7)."""

    LINE = "line"  # Express: the mover made a winning line
    POINTS = "points"  # Expert/Extreme: the mover reached 10 points
    BOARD_FULL = "board full"
    NO_MARBLES = "no marbles"  # the player to move has an empty supply
    ACTION_LIMIT = "action limit"


@dataclass(frozen=True)
class Outcome:
    """The result: ``winners`` is one seat for a win, several for a shared draw."""

    winners: tuple[int, ...]
    players: int
    reason: EndReason

    @property
    def is_draw(self) -> bool:
        """Whether several seats share the result (a draw, or a shared win on points)."""
        return len(self.winners) != 1

    @property
    def winner(self) -> int | None:
        """The single winning seat, or None for a draw."""
        return self.winners[0] if len(self.winners) == 1 else None

    @property
    def losers(self) -> tuple[int, ...]:
        """The seats that are not among the winners."""
        return tuple(s for s in range(self.players) if s not in self.winners)

    def returns(self) -> tuple[float, ...]:
        """Per-seat score: 1 for a win, a draw shared equally among those who draw."""
        share = 1.0 / len(self.winners)
        return tuple(share if s in self.winners else 0.0 for s in range(self.players))

    def status(self) -> str:
        """The engine protocol's words: ``over winner o`` or ``over draw o g``."""
        colours = " ".join(COLOURS[s] for s in self.winners)
        return f"over {'draw' if self.is_draw else 'winner'} {colours}"

    def result(self) -> str:
        """The record's result token: ``o`` for a win, ``o=g`` for a draw between them."""
        return "=".join(COLOURS[s] for s in self.winners)

    def __str__(self) -> str:
        return f"{self.status()} ({self.reason.value})"


def final_winners(rules: Rules, scores: tuple[int, ...]) -> tuple[int, ...]:
    """Who wins when the game ends without a win: nobody in Express, top points otherwise."""
    if rules.variant is Variant.EXPRESS:
        return tuple(range(rules.players))
    best = max(scores)
    return tuple(s for s in range(rules.players) if scores[s] == best)
