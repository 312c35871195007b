"""The ladder of playing levels, weakest first, and the bot that plays each.

A level's strength is fixed by what it searches (depth, nodes), never by time, so it
plays the same on any machine, and with the same seed it plays the same actions.
Level 1 is the greedy baseline; the levels above it are the 2-player alpha-beta search
(:mod:`shiftago.engine.alphabeta`) at growing depths, the top one deepening until its
node budget is spent. With 3 or 4 players the alpha-beta levels play as the greedy bot
until a multi-player search exists: their names say so.
"""

from __future__ import annotations

from typing import Final

from shiftago.engine.bot import Bot
from shiftago.engine.greedy import GreedyBot

#: The 3-4 player fallback, as the level names state it.
FALLBACK_NOTE: Final = "(3-4 players: greedy)"

#: (level, name, depth, nodes) of the alpha-beta levels; depth None: as deep as the
#: nodes allow.
_ALPHABETA: Final[tuple[tuple[int, str, int | None, int | None], ...]] = (
    (2, "beginner", 1, None),
    (3, "novice", 2, None),
    (4, "casual", 3, None),
    (5, "club", 4, None),
    (6, "advanced", 5, None),
    (7, "strong", 6, None),
    (8, "master", 7, 1_500_000),
    (9, "maximum", None, 2_000_000),
)

#: (level, name) from 1 (weakest) upwards, as the engine protocol's ``levels`` lists them.
LEVELS: Final[list[tuple[int, str]]] = [
    (1, "greedy"),
    *((level, f"{name} {FALLBACK_NOTE}") for level, name, _, _ in _ALPHABETA),
]


def default_level() -> int:
    """The level played when none is asked for: the strongest."""
    return LEVELS[-1][0]


def level_name(level: int) -> str:
    """The name of a level; raises ``ValueError`` for a level that does not exist."""
    for number, name in LEVELS:
        if number == level:
            return name
    raise ValueError(f"unknown level {level}: the levels are {_range_text()}")


def level_limits(level: int) -> tuple[int | None, int | None]:
    """The depth and node limits of an alpha-beta level (``None``: no such limit)."""
    for number, _, depth, nodes in _ALPHABETA:
        if number == level:
            return depth, nodes
    raise ValueError(f"level {level} is not an alpha-beta level")


def bot_for_level(level: int, seed: int | None = None) -> Bot:
    """A new bot playing at ``level``, seeded for repeatable play."""
    if level == 1:
        return GreedyBot(seed)
    for number, name, depth, nodes in _ALPHABETA:
        if number == level:
            from shiftago.engine.alphabeta import AlphaBetaBot

            return AlphaBetaBot(seed, depth=depth, nodes=nodes, name=name)
    raise ValueError(f"unknown level {level}: the levels are {_range_text()}")


def _range_text() -> str:
    first, last = LEVELS[0][0], LEVELS[-1][0]
    return str(first) if first == last else f"{first} to {last}"
