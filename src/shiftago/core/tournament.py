"""The Express tournament: first to ten game wins (RULES.md section 4)."""

from __future__ import annotations

import random

from shiftago.core.errors import IllegalActionError
from shiftago.core.game import Game
from shiftago.core.rules import Rules, Variant, seat_of_colour

TOURNAMENT_WINS = 10


class Tournament:
    """A series of Express games; interfaces play :attr:`game` and call :meth:`next_game`.

    The player after the winner starts the next game. The first game's starter, and
    the starter after a drawn game, are drawn by lot from one generator seeded with
    ``seed`` (so the first draw is ``Random(seed).randrange(players)`` as for a game).
    """

    def __init__(
        self,
        players: int = 2,
        *,
        handicap: tuple[int, ...] = (),
        first: int | str | None = None,
        seed: int | None = None,
        target: int = TOURNAMENT_WINS,
    ) -> None:
        if target < 1:
            raise ValueError("a tournament is won by at least one game")
        self.rules = Rules(Variant.EXPRESS, players, handicap)
        self.target = target
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**32)
        self._lot = random.Random(self.seed)
        self.wins = [0] * players
        self.draws = 0
        self.finished: list[Game] = []
        if first is None:
            starter = self._lot.randrange(players)
        elif isinstance(first, str):
            starter = seat_of_colour(first, players)
        else:
            starter = first
        self.game = Game(self.rules, first=starter)

    @property
    def winner(self) -> int | None:
        """The seat that has won the tournament, if any."""
        for seat, won in enumerate(self.wins):
            if won >= self.target:
                return seat
        return None

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    def next_game(self) -> Game:
        """Count the finished current game and start the next one."""
        outcome = self.game.outcome
        if outcome is None:
            raise IllegalActionError("the current game is not over yet")
        if self.is_over:
            raise IllegalActionError("the tournament is over")
        self.finished.append(self.game)
        if outcome.winner is None:
            self.draws += 1
            starter = self._lot.randrange(self.rules.players)
        else:
            self.wins[outcome.winner] += 1
            starter = (outcome.winner + 1) % self.rules.players
        if self.is_over:
            return self.game
        self.game = Game(self.rules, first=starter)
        return self.game
