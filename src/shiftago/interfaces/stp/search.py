"""``go`` and ``analyse``: their options as :class:`~shiftago.engine.bot.Limits`, the run
of the bot, and the ``info`` lines it writes while it thinks (PROTOCOL.md, version 1.1).

A :class:`Search` is checked in full before it starts, so a bad option answers ``?`` at
once; running it only asks the bot. It carries its own stop event, which whoever reads
the controller's ``stop`` sets from another thread.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from shiftago.core import Action, GameOverError, State
from shiftago.engine.bot import LARGEST_LIMIT, Bot, Limits, Progress, format_value

from .words import CommandError, key_values, whole_number

#: The ``key=`` options of ``go`` and ``analyse``.
SEARCH_OPTIONS = (
    "movetime",
    "depth",
    "nodes",
    "level",
    "clock",
    "increment",
    "moves",
    "info",
)
#: Their bare words.
SEARCH_FLAGS = ("infinite",)
#: The limits an infinite search cannot take: it ends at ``stop`` alone.
FINITE_ONLY = ("movetime", "depth", "nodes", "clock")


@dataclass(frozen=True)
class SearchRequest:
    """What a ``go`` or ``analyse`` line asks for: the level it names (None: the
    engine's ``Level``), its limits and whether it thinks aloud."""

    level: int | None
    limits: Limits
    info: bool

    @classmethod
    def parse(cls, args: Sequence[str], command: str) -> SearchRequest:
        """The request of ``command``'s argument words; a :class:`CommandError` for an
        unknown, repeated or malformed option or one that contradicts another."""
        options, flags = key_values(args, SEARCH_OPTIONS, command, SEARCH_FLAGS)
        lowest = {"clock": 0, "increment": 0, "info": 0}
        highest = {"info": 1}
        values = {
            key: whole_number(
                text, key, lowest=lowest.get(key, 1), highest=highest.get(key, LARGEST_LIMIT)
            )
            for key, text in options.items()
        }
        infinite = "infinite" in flags
        if infinite and (bounded := [key for key in FINITE_ONLY if key in values]):
            given = " ".join(f"{key}=" for key in bounded)
            raise CommandError(f"infinite searches until stop: it takes no {given}")
        if "clock" not in values and (
            clockless := [k for k in ("increment", "moves") if k in values]
        ):
            given = " ".join(f"{key}=" for key in clockless)
            raise CommandError(f"{given} only go with clock=")
        limits = Limits(
            movetime_ms=values.get("movetime"),
            depth=values.get("depth"),
            nodes=values.get("nodes"),
            clock_ms=values.get("clock"),
            increment_ms=values.get("increment", 0),
            moves_to_go=values.get("moves"),
            infinite=infinite,
            stop=threading.Event(),
        )
        return cls(values.get("level"), limits, bool(values.get("info", 0)))


class BotAnswerError(RuntimeError):
    """A bot answered what no engine may: an illegal action, or no action in a game
    that is not over. The engine's fault, not its input's: it is logged."""


@dataclass
class Search:
    """One ``go`` or ``analyse`` of ``state`` by ``bot``, ready to run once (from any
    thread); :meth:`halt` ends it early from another thread."""

    command: Literal["go", "analyse"]
    bot: Bot
    state: State
    request: SearchRequest
    #: The id of the command line, echoed in the answer.
    ident: str = ""
    _reporting: bool = field(default=True, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def __post_init__(self) -> None:
        if self.state.is_over:  # analyse fails here as go does: no action to rank
            if self.command == "go":
                raise GameOverError("the game is over: there is no action to choose")
            raise GameOverError("the game is over: there is no action to analyse")

    @property
    def infinite(self) -> bool:
        """Whether it runs until :meth:`halt`."""
        return self.request.limits.infinite

    @property
    def halted(self) -> bool:
        """Whether :meth:`halt` was asked."""
        stop = self.request.limits.stop
        return stop is not None and stop.is_set()

    def halt(self) -> None:
        """Ask the bot to answer now with its best so far (it may take a moment)."""
        assert self.request.limits.stop is not None
        self.request.limits.stop.set()

    def run(self, emit: Callable[[str], None]) -> tuple[str, bool]:
        """The answer's payload and whether it spans lines; with ``info=1`` each step
        the bot reports goes to ``emit`` as an ``info`` line first (none after the
        answer is known, even from a helper thread of the bot)."""
        progress = self._reporter(emit) if self.request.info else None
        limits = replace(self.request.limits, progress=progress)
        try:
            if self.command == "go":
                action = self.bot.choose(self.state, limits)
                self._check_legal([action])
                return str(action), False
            ranked = self.bot.analyse(self.state, limits)
            if not ranked:
                raise BotAnswerError(f"the bot {self.bot.name!r} ranked no action")
            self._check_legal([line.action for line in ranked])
            if len({line.action for line in ranked}) < len(ranked):
                raise BotAnswerError(f"the bot {self.bot.name!r} ranked an action twice")
            return "\n".join(str(line) for line in ranked), True
        finally:
            with self._lock:
                self._reporting = False

    def _check_legal(self, actions: Sequence[Action]) -> None:
        """A :class:`BotAnswerError` for the first of ``actions`` that is not legal in the
        searched state: an engine never answers with an illegal action."""
        legal = set(self.state.legal_actions())
        for action in actions:
            if action not in legal:
                raise BotAnswerError(f"the bot {self.bot.name!r} chose {action}, not legal here")

    def _reporter(self, emit: Callable[[str], None]) -> Callable[[Progress], None]:
        def report(progress: Progress) -> None:
            with self._lock:
                if self._reporting:
                    emit(info_line(progress))

        return report


def info_line(progress: Progress) -> str:
    """The ``info`` line of one step:
    ``info depth 9 value 34 nodes 1830211 nps 3121050 time 586 pv Td L3 Bb``, with a
    proven result as ``value win N`` or ``value loss N`` (N actions to the end).

    >>> info_line(Progress(3, 1000, 5, 2000, 0.5, ()))
    'info depth 3 value win 5 nodes 2000 nps 4000 time 500'
    """
    if progress.proven > 0:
        value = f"win {progress.proven}"
    elif progress.proven < 0:
        value = f"loss {-progress.proven}"
    else:
        value = format_value(progress.value)
    nps = round(progress.nodes / progress.seconds) if progress.seconds > 0 else 0
    text = (
        f"info depth {progress.depth} value {value} nodes {progress.nodes} "
        f"nps {nps} time {round(progress.seconds * 1000)}"
    )
    pv = " ".join(str(action) for action in progress.pv)
    return f"{text} pv {pv}" if pv else text
