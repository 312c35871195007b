"""Static game settings: variant, number of players, handicap and action limit."""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from enum import Enum
from typing import Final

from shiftago.core.errors import ParseError

MARBLES_PER_PLAYER: Final = 22
WINNING_POINTS: Final = 10
MAX_HANDICAP: Final = 6
#: The largest action limit: any game ends long before it, and it fits the kernels'
#: 64-bit counts (a larger one failed every later search).
MAX_ACTION_LIMIT: Final = 10**18
COLOURS: Final = "ogbw"
COLOUR_NAMES: Final = ("orange", "green", "blue", "white")


class Variant(Enum):
    """The three variants of the rulebook."""

    EXPRESS = "express"
    EXPERT = "expert"
    EXTREME = "extreme"

    @classmethod
    def parse(cls, text: str) -> Variant:
        """The variant of its name, in any case (``Expert``); a clear error otherwise."""
        try:
            return cls(text.strip().lower())
        except ValueError:
            raise ParseError(
                "unknown variant {text}: expected express, expert or extreme", text=repr(text)
            ) from None

    def __str__(self) -> str:
        return self.value

    def __repr__(self) -> str:
        return f"Variant.{self.name}"


#: Points per line length, by variant and "many players" (3-4).
_POINTS: Final[dict[tuple[Variant, bool], dict[int, int]]] = {
    (Variant.EXPERT, False): {5: 2, 6: 5, 7: 10},
    (Variant.EXPERT, True): {4: 2, 5: 5, 6: 8, 7: 10},
    (Variant.EXTREME, False): {4: 0, 5: 2, 6: 5, 7: 10},
    (Variant.EXTREME, True): {3: 0, 4: 2, 5: 5, 6: 8, 7: 10},
}


def colour_letter(seat: int) -> str:
    return COLOURS[seat]


def letter_of_colour_word(text: str) -> str:
    """The letter of a colour written as its letter or its English name, in any case
    (``Orange``: ``o``); any other text lower-cased, for :func:`seat_of_colour` to judge."""
    word = text.strip().lower()
    return COLOURS[COLOUR_NAMES.index(word)] if word in COLOUR_NAMES else word


def seat_of_colour(letter: str, players: int) -> int:
    """The seat of a colour letter (``o g b w``) in a game of ``players``."""
    seat = COLOURS.find(letter.strip().lower()) if len(letter.strip()) == 1 else -1
    if seat < 0 or seat >= players:
        allowed = " ".join(COLOURS[:players])
        raise ParseError(
            "unknown colour {letter}: expected one of {allowed}",
            letter=repr(letter),
            allowed=allowed,
        )
    return seat


def _whole(value: object, rule: str) -> int:
    """``value`` as an ``int``: a whole number (numpy's integers too), never a bool or a
    float, which would count turns the kernel cannot (a limit of 2.5 ended the core's
    game after 3 actions and the environments' after 2)."""
    if not isinstance(value, bool):
        try:
            return operator.index(value)  # type: ignore[arg-type]
        except TypeError:
            pass
    raise ValueError(f"{rule}: a whole number, not {value!r}")


@dataclass(frozen=True)
class Rules:
    """What is agreed before a game: variant, players, handicap, optional action limit.

    ``handicap`` has one number of skipped turns (0-6) per seat; an empty tuple means
    no handicap. ``action_limit`` (automated play) ends the game when a turn begins
    after that many actions.
    """

    variant: Variant = Variant.EXPRESS
    players: int = 2
    handicap: tuple[int, ...] = field(default=())
    action_limit: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.variant, Variant):
            object.__setattr__(self, "variant", Variant.parse(str(self.variant)))
        players = _whole(self.players, "a game has 2, 3 or 4 players")
        if players not in (2, 3, 4):
            raise ValueError(f"a game has 2, 3 or 4 players, not {self.players!r}")
        object.__setattr__(self, "players", players)
        handicap = tuple(
            _whole(h, f"each handicap is 0 to {MAX_HANDICAP} skipped turns")
            for h in (self.handicap if self.handicap else (0,) * players)
        )
        if len(handicap) != players:
            raise ValueError(
                f"the handicap needs one number per seat ({players}), got {len(handicap)}"
            )
        if any(not 0 <= h <= MAX_HANDICAP for h in handicap):
            raise ValueError(f"each handicap is 0 to {MAX_HANDICAP} skipped turns")
        object.__setattr__(self, "handicap", handicap)
        if self.action_limit is not None:
            limit = _whole(self.action_limit, f"the action limit must be 1 to {MAX_ACTION_LIMIT}")
            if not 1 <= limit <= MAX_ACTION_LIMIT:
                raise ValueError(f"the action limit must be 1 to {MAX_ACTION_LIMIT}")
            object.__setattr__(self, "action_limit", limit)

    @property
    def win_length(self) -> int:
        """Express: the line length that wins (5 with 2 players, 4 with 3-4)."""
        return 5 if self.players == 2 else 4

    @property
    def points_table(self) -> dict[int, int]:
        """Expert and Extreme: points by line length (empty for Express)."""
        if self.variant is Variant.EXPRESS:
            return {}
        return _POINTS[(self.variant, self.players > 2)]

    @property
    def min_line(self) -> int:
        """The shortest line that matters: wins in Express, is scored otherwise."""
        if self.variant is Variant.EXPRESS:
            return self.win_length
        return min(self.points_table)

    @property
    def keeps_both_ends(self) -> bool:
        """Scoring keeps both end marbles with 2 players, one chosen end with 3-4."""
        return self.players == 2

    @property
    def colours(self) -> str:
        """The colour letters of the seats in play, in seat order (``og``, ``ogb``...)."""
        return COLOURS[: self.players]
