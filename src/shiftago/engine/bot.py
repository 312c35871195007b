"""The one interface every computer player implements, and the values it reports.

A :class:`Bot` looks at a :class:`~shiftago.core.State` and answers through return
values only (it never prints), so the same bot serves the engine protocol, matches,
the web app and tests alike. Each bot documents the unit of its values in
:attr:`Bot.value_unit`; a value is always from the point of view of the seat to act.
"""

from __future__ import annotations

import math
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from shiftago.core import Action, Rules, State

#: The largest value any limit takes: the searches count nodes and milliseconds in 64
#: bits, and no search comes near this.
LARGEST_LIMIT = 10**18


@dataclass(frozen=True)
class Limits:
    """How much a bot may think, with what, and who listens; ``None`` leaves a limit to
    the bot.

    ``movetime_ms`` is a hard limit on the wall-clock time of the answer; ``depth`` and
    ``nodes`` bound the search independently of the machine's speed (so results repeat).
    ``clock_ms`` is the mover's remaining time (with ``increment_ms`` gained after each
    of its actions and ``moves_to_go`` actions until the clock is topped up): the bot
    decides how much of it to spend (:mod:`shiftago.engine.timing`), and ``movetime_ms``
    wins where both are given. ``infinite`` searches until ``stop`` is set (analysis).

    ``threads`` is how many search threads the bot may run and ``hash_mib`` the size of
    its transposition table (None: the bot's default); bots without such things ignore
    them. ``lines`` is how many of the best actions an analysis shows: a search whose
    best value is proven goes on until the values of that many are proven too (or a
    limit ends it), so that the other lines are not left at a shallow depth's values.
    ``stop``, once set, ends the search at once: the bot answers with its best so far.
    ``progress`` is called from the searching thread each time the search finishes a
    step (a depth), so that a caller can show it thinking; bots that have no steps never
    call it.
    """

    movetime_ms: int | None = None
    depth: int | None = None
    nodes: int | None = None
    clock_ms: int | None = None
    increment_ms: int = 0
    moves_to_go: int | None = None
    infinite: bool = False
    threads: int = 1
    hash_mib: int | None = None
    lines: int = 1
    stop: threading.Event | None = field(default=None, compare=False)
    progress: Callable[[Progress], None] | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        for name in ("movetime_ms", "depth", "nodes", "moves_to_go", "hash_mib", "lines"):
            value = getattr(self, name)
            if value is not None and value < 1:
                raise ValueError(f"the limit {name} must be at least 1, not {value}")
        for name in ("movetime_ms", "depth", "nodes", "clock_ms", "increment_ms", "moves_to_go"):
            value = getattr(self, name)
            if value is not None and value > LARGEST_LIMIT:
                raise ValueError(f"the limit {name} must be at most {LARGEST_LIMIT}, not {value}")
        if self.clock_ms is not None and self.clock_ms < 0:
            raise ValueError(f"the clock must be at least 0 ms, not {self.clock_ms}")
        if self.increment_ms < 0:
            raise ValueError(f"the increment must be at least 0 ms, not {self.increment_ms}")
        if self.threads < 1:
            raise ValueError(f"threads must be at least 1, not {self.threads}")
        if self.infinite and self.stop is None:
            raise ValueError("an infinite search needs a stop event to end it")

    @property
    def timed(self) -> bool:
        """Whether the wall clock bounds this search (a movetime or a clock)."""
        return self.movetime_ms is not None or self.clock_ms is not None

    def after(self, seconds: float) -> Limits:
        """These limits once ``seconds`` of the answer's time are spent: the movetime and
        the clock lower by as much (a movetime keeps 1 ms)."""
        spent = int(seconds * 1000)
        if spent <= 0 or not self.timed:
            return self
        movetime = None if self.movetime_ms is None else max(self.movetime_ms - spent, 1)
        clock = None if self.clock_ms is None else max(self.clock_ms - spent, 0)
        return replace(self, movetime_ms=movetime, clock_ms=clock)


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


@dataclass(frozen=True)
class Progress:
    """One finished step of a search (a depth of an alpha-beta search), as a bot reports
    it to :attr:`Limits.progress` while it thinks.

    ``lines`` is the ranking after this step, best first: in an analysis every legal
    action with its value at this depth, in a ``choose`` at least the best one (the
    values of the others may be bounds). ``value`` is the best line's value in the bot's
    unit; ``proven`` is ``+n`` when it proves a win for the mover after ``n`` more
    actions in all, ``-n`` a loss, 0 for a heuristic value or a draw. ``nodes`` and
    ``seconds`` count from the start of the search (all threads together).

    ``final`` marks the one report a search may add as it ends, where its answer is not
    what its last step reported (an MCTS's iterations since, a better action found in
    a depth cut short), so that the last report a listener sees is the answer's."""

    depth: int
    value: float
    proven: int
    nodes: int
    seconds: float
    lines: tuple[RankedAction, ...]
    final: bool = False

    @property
    def pv(self) -> tuple[Action, ...]:
        """The best line's principal variation."""
        return self.lines[0].pv if self.lines else ()


#: A bot's judgement of a state: one :class:`RankedAction` per legal action, best first.
Analysis = list[RankedAction]


def logistic(value: float, scale: float) -> float:
    """``1 / (1 + exp(-value / scale))``: a heuristic value as an expected score in
    (0, 1), a half at 0 (docs/analysis.md)."""
    x = value / scale
    if x < -700:  # exp would overflow; the score is 0 to double precision anyway
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def logit(expectation: float, scale: float) -> float:
    """The value whose :func:`logistic` over ``scale`` is ``expectation`` (in (0, 1)).

    >>> round(logit(logistic(42.0, 65.0), 65.0), 6)
    42.0
    """
    return scale * math.log(expectation / (1.0 - expectation))


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
        if ranked:
            return ranked[0].action
        if state.is_over:
            raise ValueError("the game is over: there is no action to choose")
        raise RuntimeError(f"the bot {self.name!r} ranked no action in a game that is not over")

    @abstractmethod
    def analyse(self, state: State, limits: Limits = NO_LIMITS) -> Analysis:
        """Every legal action of ``state`` with its value, best first (empty when over)."""

    @property
    def option_values(self) -> dict[str, int]:
        """The options :meth:`set_option` takes (an engine protocol's ``setoption``
        beyond threads and hash), with their values now: none by default."""
        return {}

    def set_option(self, name: str, value: int) -> None:
        """Set one of :attr:`option_values`; a ValueError, changing nothing, for a name the
        bot does not have or a value it does not take."""
        known = ", ".join(self.option_values) or "none"
        raise ValueError(f"the bot {self.name!r} has no option {name!r} (its options: {known})")

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

    def value_of(self, expectation: float, rules: Rules) -> float | None:
        """The unproven value in this bot's unit whose :meth:`expectation` is
        ``expectation`` (an expected score, such as an opening book's), for reporting it
        in that unit; None where the unit has no such value (by default)."""
        return None

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"
