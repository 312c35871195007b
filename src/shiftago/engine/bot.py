"""The one interface every computer player implements, and the values it reports.

A :class:`Bot` looks at a :class:`~shiftago.core.State` and answers through return
values only (it never prints), so the same bot serves the engine protocol, matches,
the web app and tests alike. Each bot documents the unit of its values in
:attr:`Bot.value_unit`; a value is always from the point of view of the seat to act.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from dataclasses import dataclass, field

from shiftago.core import Action, Rules, State


@dataclass(frozen=True)
class Limits:
    """How much a bot may think; ``None`` leaves that limit to the bot.

    ``movetime_ms`` is a hard limit on the wall-clock time of the answer; ``depth`` and
    ``nodes`` bound the search independently of the machine's speed (so results repeat).
    """

    movetime_ms: int | None = None
    depth: int | None = None
    nodes: int | None = None

    def __post_init__(self) -> None:
        for name in ("movetime_ms", "depth", "nodes"):
            value = getattr(self, name)
            if value is not None and value < 1:
                raise ValueError(f"the limit {name} must be at least 1, not {value}")


#: No limits at all: the bot's own default.
NO_LIMITS = Limits()


def smaller(a: int | None, b: int | None) -> int | None:
    """The tighter of two optional limits (None: no limit), as when a caller's limit
    lowers a bot's own."""
    if a is None:
        return b
    return a if b is None else min(a, b)


@dataclass(frozen=True)
class RankedAction:
    """One legal action as a bot judges it.

    ``value`` is from the mover's point of view in the bot's :attr:`Bot.value_unit`
    (higher is better); ``pv`` is the principal variation, the expected line of play
    starting with ``action`` itself. ``seat_values``, where a bot has them (3-4 players),
    holds one value per seat in seat order, each from that seat's point of view in the
    same unit; None where the bot judges for the mover only.
    """

    action: Action
    value: float
    pv: tuple[Action, ...] = field(default=())
    seat_values: tuple[float, ...] | None = None

    def __str__(self) -> str:
        """The engine protocol's ``analyse`` line: ``ACTION VALUE PV...``."""
        pv = " ".join(str(a) for a in self.pv)
        return f"{self.action} {format_value(self.value)}" + (f" {pv}" if pv else "")


#: A bot's judgement of a state: one :class:`RankedAction` per legal action, best first.
Analysis = list[RankedAction]


def logistic(value: float, scale: float) -> float:
    """``1 / (1 + exp(-value / scale))``: a heuristic value as an expected score in
    (0, 1), a half at 0 (docs/analysis.md)."""
    x = value / scale
    if x < -700:  # exp would overflow; the score is 0 to double precision anyway
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def format_value(value: float) -> str:
    """A value as text: integers without a decimal point, others with three decimals."""
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.3f}"


class Bot(ABC):
    """Anything that chooses actions.

    Subclasses set :attr:`name` and :attr:`value_unit` and implement :meth:`analyse`;
    :meth:`choose` defaults to the best action of the analysis.
    """

    #: A short name, as listed by the engine protocol's ``levels``.
    name: str = "bot"
    #: What the numbers of :attr:`RankedAction.value` mean, in words.
    value_unit: str = ""
    #: How much worse than the best an action must be, in this unit, for a game review
    #: (:mod:`shiftago.engine.review`) to call it a mistake when no threshold is given.
    mistake_threshold: float = 100.0

    def choose(self, state: State, limits: Limits = NO_LIMITS) -> Action:
        """The action the bot plays in ``state`` (which must not be over)."""
        ranked = self.analyse(state, limits)
        if not ranked:
            raise ValueError("the game is over: there is no action to choose")
        return ranked[0].action

    @abstractmethod
    def analyse(self, state: State, limits: Limits = NO_LIMITS) -> Analysis:
        """Every legal action of ``state`` with its value, best first (empty when over)."""

    def for_rules(self, rules: Rules) -> Bot:
        """The bot that plays games under ``rules`` on this one's behalf: itself, unless
        it hands variants and player counts to different bots (a level does); its
        :attr:`value_unit`, :attr:`mistake_threshold` and :meth:`proven` are the ones
        that hold for the values of such games."""
        return self

    def proven(self, value: float) -> int:
        """What a value in this bot's unit proves: ``1`` a win for the mover, ``-1`` a
        loss, ``0`` nothing (a heuristic judgement, or a draw)."""
        return 0

    def expectation(self, value: float, rules: Rules) -> float:
        """The mover's expected score in [0, 1] for a value in this bot's unit in a game
        under ``rules``: 1 a win, 0 a loss, a draw shared; the same scale for every bot,
        so that a page never reads units (docs/analysis.md). By default what
        :meth:`proven` proves, else a half: a bot with a heuristic maps it onto the
        scale itself."""
        proven = self.proven(value)
        return 1.0 if proven > 0 else 0.0 if proven < 0 else 0.5

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"
