"""The random bot: a uniformly random legal action, the floor of every strength ladder.

It plays from its own ``random.Random`` seeded once with the bot's seed, so a new bot
with the same seed that is asked the same sequence of questions plays the same actions
(a match that makes a fresh bot per game with a fixed seed repeats exactly), while the
same position met twice in a game may get different actions.

Value unit (:attr:`RandomBot.value_unit`): every action is worth ``0``; the bot has no
opinion, and :meth:`RandomBot.analyse` lists every legal action in canonical order.
"""

from __future__ import annotations

import random

from shiftago.core import Action, State
from shiftago.engine.bot import NO_LIMITS, Analysis, Bot, Limits, RankedAction


class RandomBot(Bot):
    """Each legal action with the same probability; limits are ignored."""

    name = "random"
    value_unit = "none: every action is worth 0 (the bot plays at random)"

    def __init__(self, seed: int | None = None) -> None:
        self.seed: int = seed if seed is not None else random.SystemRandom().randrange(2**63)
        self.rng = random.Random(self.seed)

    def choose(self, state: State, limits: Limits = NO_LIMITS) -> Action:
        legal = state.legal_actions()
        if not legal:
            raise ValueError("the game is over: there is no action to choose")
        return self.rng.choice(legal)

    def analyse(self, state: State, limits: Limits = NO_LIMITS) -> Analysis:
        return [RankedAction(action, 0, (action,)) for action in state.legal_actions()]
