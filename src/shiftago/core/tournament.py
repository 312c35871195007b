"""The Express tournament: first to ten game wins (RULES.md section 4).

:class:`TournamentScore` is the rule as a value (wins counted, who starts next, who has
won the series); :class:`Tournament` plays a series of games with it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from shiftago.core.errors import IllegalActionError
from shiftago.core.game import Game
from shiftago.core.rules import Rules, Variant, seat_of_colour

TOURNAMENT_WINS = 10


@dataclass(frozen=True)
class TournamentScore:
    """The games each seat has won in a series played to ``target`` wins.

    >>> score = TournamentScore.start(2, target=2).after((0,)).after((0, 1))
    >>> score.wins, score.champion
    ((1, 0), None)
    >>> score.after((0,)).champion
    0
    """

    wins: tuple[int, ...]
    target: int = TOURNAMENT_WINS

    def __post_init__(self) -> None:
        if self.target < 1:
            raise ValueError("a tournament is won by at least one game")
        if not 2 <= len(self.wins) <= 4 or any(w < 0 for w in self.wins):
            raise ValueError("a tournament counts the wins (0 or more) of 2-4 seats")

    @classmethod
    def start(cls, players: int, target: int = TOURNAMENT_WINS) -> TournamentScore:
        """No game played yet."""
        return cls((0,) * players, target)

    @property
    def players(self) -> int:
        """How many seats the tournament has."""
        return len(self.wins)

    @property
    def champion(self) -> int | None:
        """The seat that has won the series, if any."""
        for seat, won in enumerate(self.wins):
            if won >= self.target:
                return seat
        return None

    @property
    def is_over(self) -> bool:
        """Whether a seat has reached the target of wins."""
        return self.champion is not None

    def after(self, winners: tuple[int, ...]) -> TournamentScore:
        """The score once a game won by ``winners`` is counted (a draw counts for nobody)."""
        if len(winners) != 1:
            return self
        wins = list(self.wins)
        wins[winners[0]] += 1
        return TournamentScore(tuple(wins), self.target)

    def next_first(self, winners: tuple[int, ...]) -> int | None:
        """Who starts the game after one won by ``winners``: the seat after the winner;
        None after a draw (then the lot decides)."""
        if len(winners) != 1:
            return None
        return (winners[0] + 1) % self.players

    def next_series(self) -> TournamentScore:
        """The score the next game starts from: this one, or a new series once it is won."""
        return self if self.champion is None else TournamentScore.start(self.players, self.target)


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
        if isinstance(players, bool) or not isinstance(players, int):
            raise TypeError(f"a tournament takes its number of players (2-4), not {players!r}")
        self.rules = Rules(Variant.EXPRESS, players, handicap)
        self.score = TournamentScore.start(players, target)
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**32)
        self._lot = random.Random(self.seed)
        self.draws = 0
        self.finished: list[Game] = []
        #: The winners of each finished game, as it was counted (a game ended off the
        #: board is not over by the rules: its result is only here).
        self.results: list[tuple[int, ...]] = []
        #: Whether the lot drew the first game's starter (then the lot has drawn once).
        self.first_drawn = first is None
        if first is None:
            starter = self._lot.randrange(players)
        elif isinstance(first, str):
            starter = seat_of_colour(first, players)
        else:
            starter = first
        self.game = Game(self.rules, first=starter)

    def copy(self) -> Tournament:
        """An independent tournament at the same point: its own current game, finished
        games and lot (which draws what this one would draw)."""
        twin = Tournament.__new__(Tournament)
        twin.__dict__.update(self.__dict__)
        twin._lot = random.Random()
        twin._lot.setstate(self._lot.getstate())
        twin.finished = [game.copy() for game in self.finished]
        twin.results = list(self.results)
        twin.game = self.game.copy()
        return twin

    def __copy__(self) -> Tournament:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, object]) -> Tournament:
        twin = memo[id(self)] = self.copy()  # one copy however often it is referred to
        return twin

    def __eq__(self, other: object) -> bool:
        """Tournaments are equal when they were set up alike, their games went alike and
        their lots would draw alike (as a copy or an unpickled one is to its original)."""
        return (
            isinstance(other, Tournament)
            and self.rules == other.rules
            and self.score == other.score
            and self.seed == other.seed
            and self.draws == other.draws
            and self.first_drawn == other.first_drawn
            and self.results == other.results
            and self.finished == other.finished
            and self.game == other.game
            and self._lot.getstate() == other._lot.getstate()
        )

    __hash__ = None  # type: ignore[assignment]  # a tournament changes as it is played

    def __repr__(self) -> str:
        wins = "-".join(map(str, self.score.wins))
        return (
            f"<Tournament {self.rules.players}p to {self.target} wins, score {wins}, "
            f"{len(self.finished)} games finished, game now {self.game!r}>"
        )

    @property
    def target(self) -> int:
        """How many game wins take the tournament."""
        return self.score.target

    @property
    def wins(self) -> list[int]:
        """The games each seat has won so far."""
        return list(self.score.wins)

    @property
    def winner(self) -> int | None:
        """The seat that has won the tournament, if any."""
        return self.score.champion

    @property
    def is_over(self) -> bool:
        """Whether the tournament has its champion."""
        return self.score.is_over

    def next_game(self, winners: tuple[int, ...] | None = None) -> Game:
        """Count the finished current game and start the next one.

        A game that ended off the board (a player's time ran out, a resignation) is not
        over by the rules: ``winners`` gives its result, the seats that won (several for
        a draw, which counts for nobody). A game the rules ended counts as they ended it.
        """
        outcome = self.game.outcome
        if self.is_over:
            raise IllegalActionError("the tournament is over")
        if outcome is not None:
            if winners is not None and tuple(winners) != outcome.winners:
                raise IllegalActionError("the rules ended the current game with another result")
            winners = outcome.winners
        elif winners is None:
            raise IllegalActionError("the current game is not over yet")
        else:
            winners = self._checked(winners)
        self.finished.append(self.game)
        self.results.append(winners)
        self.score = self.score.after(winners)
        starter = self.score.next_first(winners)
        if starter is None:
            self.draws += 1
            starter = self._lot.randrange(self.rules.players)
        if self.is_over:
            return self.game
        self.game = Game(self.rules, first=starter)
        return self.game

    def _checked(self, winners: tuple[int, ...]) -> tuple[int, ...]:
        """``winners`` of a game ended off the board, when they are some of its seats."""
        players = self.rules.players
        seats = tuple(winners)
        if (
            not seats
            or len(set(seats)) != len(seats)
            or any(type(seat) is not int or not 0 <= seat < players for seat in seats)
        ):
            raise IllegalActionError(
                "a game's winners are different seats of 0 to {last}, not {winners}",
                last=players - 1,
                winners=repr(winners),
            )
        return tuple(sorted(seats))
