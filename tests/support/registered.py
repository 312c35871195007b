"""A bot factory of a module, as a researcher registers an agent with
:func:`shiftago.match.register_bot`: a match's worker processes unpickle it by name."""

from __future__ import annotations

from shiftago.engine.bot import Bot
from shiftago.engine.greedy import GreedyBot


def greedy_agent(argument: str | None, seed: int) -> Bot:
    """The greedy bot under another name; ``argument`` is ignored."""
    return GreedyBot(seed)
