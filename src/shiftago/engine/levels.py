"""The ladder of playing levels, weakest first, and the bot that plays each.

A level's strength is fixed by what it searches (depth, nodes), never by time, so it
plays the same on any machine, and with the same seed it plays the same actions.
Stronger bots join the ladder at the top as they are written.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from shiftago.engine.bot import Bot
from shiftago.engine.greedy import GreedyBot

#: (level, name) from 1 (weakest) upwards, as the engine protocol's ``levels`` lists them.
LEVELS: Final[list[tuple[int, str]]] = [
    (1, "greedy"),
]

_FACTORIES: Final[dict[int, Callable[[int | None], Bot]]] = {
    1: GreedyBot,
}


def default_level() -> int:
    """The level played when none is asked for: the strongest."""
    return LEVELS[-1][0]


def level_name(level: int) -> str:
    """The name of a level; raises ``ValueError`` for a level that does not exist."""
    for number, name in LEVELS:
        if number == level:
            return name
    raise ValueError(f"unknown level {level}: the levels are {_range_text()}")


def bot_for_level(level: int, seed: int | None = None) -> Bot:
    """A new bot playing at ``level``, seeded for repeatable play."""
    factory = _FACTORIES.get(level)
    if factory is None:
        raise ValueError(f"unknown level {level}: the levels are {_range_text()}")
    return factory(seed)


def _range_text() -> str:
    first, last = LEVELS[0][0], LEVELS[-1][0]
    return str(first) if first == last else f"{first} to {last}"
