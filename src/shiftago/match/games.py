"""Playing one game of a match, in whichever process runs it.

A :class:`GameTask` holds everything a game needs and pickles, so that the same
function plays it in the main process or in a worker of a process pool; it returns a
:class:`GameResult` with the record text and the thinking time of every seat. An
external engine that fails (timeout, crash, a reply that is not a legal action)
loses the game: with two players the other seat wins, with three or four the other
seats share a draw, and the record says why in its ``Termination`` header: the kind
of forfeit, then what happened (``illegal action: stp answered go with 'Zz9'``).

With adjudication (``adjudicate_win`` N) a participant whose search reports a proven
win (``info ... value win K``, or a built-in bot's :class:`~shiftago.engine.bot.Progress`)
after each of N of its actions in a row wins there: ``Termination "adjudication: ..."``.

Under a time control each seat has a :class:`~shiftago.match.clock.Clock` of its own,
kept by the arena as the web app keeps its games' clocks: the time from just before a
participant is asked to its answer comes off its clock, the increment comes on once
its turn passes (a participant asked for a scoring, which never ends the turn, is told
it gains nothing after it), and a participant whose answer comes when its time has run
out loses on time (``time forfeit``), as after any other forfeit.
"""

from __future__ import annotations

import contextlib
import hashlib
import multiprocessing.util
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final

from shiftago.core import COLOURS, Game, Phase, Rules
from shiftago.core.errors import ShiftagoError
from shiftago.engine import warm_up as warm_up_searches
from shiftago.engine.bot import Bot, Limits, Progress
from shiftago.formats.record import Record, Seat
from shiftago.match.clock import Clock, TimeControl
from shiftago.match.external import (
    MOVETIME_MARGIN,
    STARTUP_TIMEOUT,
    EngineError,
    EngineTimeout,
    ExternalEngine,
)
from shiftago.match.participants import BotFactory, Participant, install_registered
from shiftago.match.protocol_log import END_FILE, transcribed
from shiftago.match.schedule import Slot
from shiftago.match.stats import game_points

#: The record's reason for a game lost by an illegal action.
ILLEGAL_ACTION: Final = "illegal action"
#: The record's reason for a game lost on time (a clock run out, or no answer at all).
TIME_FORFEIT: Final = EngineTimeout.termination
#: The record's reason for a game ended by the arena on a proven win.
ADJUDICATION: Final = "adjudication"

#: Seconds from a fixed but unknown start, as :func:`time.perf_counter` gives them.
Timer = Callable[[], float]


@dataclass(frozen=True)
class EngineSettings:
    """How the arena runs its external engines, the same for every game of a match:
    made once from the match's configuration (``MatchConfig.engine_settings``)."""

    #: The hard limit of one move (None: the engine's default).
    timeout: float | None = None
    #: How long an engine may take to start (seconds).
    startup_timeout: float = STARTUP_TIMEOUT
    #: How far past its movetime or clock an engine may answer before it is stopped
    #: (seconds).
    time_margin: float = MOVETIME_MARGIN
    #: Whether the engines think aloud (``info=1``): the adjudication of proven wins
    #: reads their lines.
    think_aloud: bool = False


@dataclass(frozen=True)
class GameTask:
    """One game to play: its slot, rules (handicap by seat), players and opening."""

    slot: Slot
    key: str
    rules: Rules
    participants: tuple[Participant, ...]
    opening: tuple[str, ...]
    seeds: tuple[int, ...]
    event: str
    date: str
    #: How the external engines run.
    engines: EngineSettings = EngineSettings()
    #: Each seat's clock (None: no clock, only the participants' own limits).
    clock: TimeControl | None = None
    #: Adjudicate a win after this many actions in a row whose search proved it.
    adjudicate_win: int | None = None
    #: The directory of the protocol logs (None: none is kept), :mod:`.protocol_log`.
    protocol_log: Path | None = None

    @property
    def file_stem(self) -> str:
        """The name of the game's files (its record, its protocol log) without the
        suffix."""
        return game_file_stem(self.slot.opening, self.slot.group, self.slot.rotation, self.key)


def game_file_stem(opening: int, group: int, rotation: int, key: str) -> str:
    """A game's files' name without the suffix: opening, group, rotation, and a digest
    of the key (a results file may hold several matches with the same slots)."""
    digest = hashlib.sha1(key.encode()).hexdigest()[:8]
    return f"game-{opening:05d}-{group:02d}-{rotation}-{digest}"


@dataclass(frozen=True)
class GameResult:
    """A finished game, by seat: who played, the points, and the time spent thinking.

    ``points`` are 1 for a win, a draw shared equally, 0 for a loss; ``think_s`` and
    ``moves`` count only the actions the participants chose (not the opening).
    ``reason`` says why the game ended: the rules' reason (``line``, ``points``, ``board
    full``, ...) or the ``termination`` of a forfeit (``time forfeit``, ...).
    ``clock_left_s`` is each seat's time left at the end, in a game with a clock.
    ``record`` is the game record's text (kept out of the results file, which names
    the ``record_file`` instead).
    """

    key: str
    opening: int
    group: int
    rotation: int
    seats: tuple[str, ...]
    result: str
    termination: str | None
    points: tuple[float, ...]
    actions: int
    think_s: tuple[float, ...]
    moves: tuple[int, ...]
    detail: str | None = None
    record: str = field(default="", compare=False)
    record_file: str | None = None
    reason: str | None = None
    clock_left_s: tuple[float, ...] | None = None

    @property
    def unit(self) -> tuple[int, int]:
        """The opening and group this game belongs to (a pair with two participants)."""
        return self.opening, self.group

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats that won or share the draw."""
        return tuple(seat for seat, p in enumerate(self.points) if p > 0)

    @property
    def forfeited_by(self) -> int | None:
        """The seat that lost by a forfeit (its time ran out, its engine crashed, erred or
        chose an illegal action), if one did: the one seat a forfeit leaves at 0."""
        if self.termination is None or self.termination == ADJUDICATION:
            return None
        return next((seat for seat, p in enumerate(self.points) if p == 0), None)

    @property
    def lost_on_time(self) -> int | None:
        """The seat that lost on time, if one did."""
        return self.forfeited_by if self.termination == TIME_FORFEIT else None

    def to_json(self) -> dict[str, Any]:
        """The results file's line (without the record text)."""
        return {
            "key": self.key,
            "opening": self.opening,
            "group": self.group,
            "rotation": self.rotation,
            "seats": list(self.seats),
            "result": self.result,
            "termination": self.termination,
            "points": list(self.points),
            "actions": self.actions,
            "think_s": list(self.think_s),
            "moves": list(self.moves),
            "detail": self.detail,
            "record_file": self.record_file,
            "reason": self.reason,
            "clock_left_s": None if self.clock_left_s is None else list(self.clock_left_s),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameResult:
        """A result read back from its line; raises ``KeyError``/``TypeError`` if broken.

        Lines written before a field existed read with its default: no ``reason`` (then
        the termination, if any) and no ``clock_left_s``.
        """
        left = data.get("clock_left_s")
        return cls(
            key=str(data["key"]),
            opening=int(data["opening"]),
            group=int(data["group"]),
            rotation=int(data["rotation"]),
            seats=tuple(str(s) for s in data["seats"]),
            result=str(data["result"]),
            termination=data.get("termination"),
            points=tuple(float(p) for p in data["points"]),
            actions=int(data["actions"]),
            think_s=tuple(float(t) for t in data["think_s"]),
            moves=tuple(int(m) for m in data["moves"]),
            detail=data.get("detail"),
            record_file=data.get("record_file"),
            reason=data.get("reason", data.get("termination")),
            clock_left_s=None if left is None else tuple(float(t) for t in left),
        )


class EnginePool:
    """The external engines of one process, kept from game to game.

    An engine that failed was stopped; its next request starts it again, so a crash
    costs the crashing side one game, not the match.
    """

    def __init__(self) -> None:
        self._engines: dict[str, ExternalEngine] = {}

    def get(self, participant: Participant, settings: EngineSettings) -> ExternalEngine:
        engine = self._engines.get(participant.key)
        if engine is None:
            engine = ExternalEngine(
                participant.command,
                name=participant.name,
                level=participant.engine_level,
                options=participant.engine_options,
                move_timeout=settings.timeout,
                startup_timeout=settings.startup_timeout,
                time_margin=settings.time_margin,
                think_aloud=settings.think_aloud,
            )
            self._engines[participant.key] = engine
        return engine

    def close(self, protocol_log: Path | None = None) -> None:
        """``quit`` every engine, its lines to ``protocol_log``'s end file where one is
        kept (:mod:`.protocol_log`)."""
        engines, self._engines = self._engines, {}
        log = None if protocol_log is None else protocol_log / END_FILE
        with transcribed(list(engines.values()), log):
            for engine in engines.values():
                with contextlib.suppress(Exception):
                    engine.close()


def play_game(task: GameTask, engines: EnginePool, timer: Timer = time.perf_counter) -> GameResult:
    """Play one game from its opening to the end (or a forfeit).

    ``timer`` measures the thinking time and runs the clocks (a test passes a fake one).
    With ``task.protocol_log`` the external engines' lines go to the game's log file.
    """
    externals = [engines.get(p, task.engines) for p in task.participants if p.external]
    log = None if task.protocol_log is None else task.protocol_log / f"{task.file_stem}.log"
    with transcribed(externals, log):
        return _played(task, engines, timer)


def _played(task: GameTask, engines: EnginePool, timer: Timer) -> GameResult:
    rules = task.rules
    game = Game(rules, first=0)
    for move in task.opening:
        game.play(move)
    players = rules.players
    think = [0.0] * players
    moves = [0] * players
    bots: list[Bot] = []
    forfeit: tuple[int, str, str] | None = None
    adjudged: tuple[int, str] | None = None  # the winner, and why
    streak = [0] * players  # actions in a row whose search proved a win
    proven = [0] * players  # what the last search of each seat proved
    # where each seat's last proof of the streak ends: the count of actions played then
    # plus its distance (a later proof must end no later, or the streak starts again)
    proof_ends = [0] * players
    for seat, participant in enumerate(task.participants):
        if participant.external:
            engine = engines.get(participant, task.engines)
            bots.append(engine)
            try:
                engine.new_game(rules, task.seeds[seat])
            except EngineError as error:
                forfeit = forfeit or (seat, error.termination, str(error))
        else:
            bots.append(participant.make_bot(task.seeds[seat]))
    clock = None if task.clock is None else Clock.start(task.clock, players, None, timer())
    while forfeit is None and adjudged is None and not game.is_over:
        seat = game.turn
        name = task.participants[seat].name
        limits = task.participants[seat].limits
        proven[seat] = 0
        if task.adjudicate_win is not None and not task.participants[seat].external:
            limits = replace(limits, progress=_hearing(proven, seat))
        started = timer()
        if clock is not None:
            clock = clock.resumed(clock.remaining, seat, started)
            limits = _on_the_clock(limits, clock, game.state.phase)
        failure: EngineError | None = None
        try:
            action = bots[seat].choose(game.state, limits)
        except EngineError as error:
            failure = error
        answered = timer()
        think[seat] += answered - started
        moves[seat] += 1
        if clock is not None and clock.flagged(answered) is not None:
            forfeit = (seat, TIME_FORFEIT, _flag_text(name, clock, answered - started))
        elif failure is not None:
            forfeit = (seat, failure.termination, str(failure))
        else:
            try:
                game.play(action)
            except ShiftagoError as error:
                forfeit = (seat, ILLEGAL_ACTION, f"{name} played {action}: {error}")
                stray = bots[seat]
                if isinstance(stray, ExternalEngine):
                    stray.stop()  # its own game went astray: the next one starts afresh
        if forfeit is None and task.adjudicate_win is not None:
            bot = bots[seat]
            if isinstance(bot, ExternalEngine):
                proven[seat] = bot.last_proven
            if proven[seat] <= 0:
                streak[seat] = 0
            else:
                # a win in K from the position before this action, whose count of
                # actions played is one less than the game's now
                ends = len(game.history) - 1 + proven[seat]
                counts_down = streak[seat] > 0 and ends <= proof_ends[seat]
                streak[seat] = streak[seat] + 1 if counts_down else 1
                proof_ends[seat] = ends
            if streak[seat] >= task.adjudicate_win and not game.is_over:
                adjudged = seat, _adjudged_text(name, streak[seat], proven[seat])
        if clock is not None:
            # The increment comes on only when the turn passes to another seat.
            passed = forfeit is None and not game.is_over and game.turn != seat
            clock = clock.after(seat, game.turn if passed else seat, answered).stopped(answered)
    seats = tuple(Seat(p.name, "computer", p.level) for p in task.participants)
    termination: str | None
    detail: str | None
    if forfeit is not None:
        loser, termination, detail = forfeit
        winners = tuple(s for s in range(players) if s != loser)
        reason: str = termination
    elif adjudged is not None:
        winners, termination, detail = (adjudged[0],), ADJUDICATION, adjudged[1]
        reason = termination
    else:
        assert game.outcome is not None
        winners = game.outcome.winners
        termination = detail = None
        reason = game.outcome.reason.value
    result = "=".join(COLOURS[s] for s in winners)
    record = Record.from_game(
        game,
        seats=seats,
        date=task.date,
        event=task.event,
        result=result if termination is not None else None,
        termination=None if termination is None else termination_header(termination, detail),
    )
    return GameResult(
        key=task.key,
        opening=task.slot.opening,
        group=task.slot.group,
        rotation=task.slot.rotation,
        seats=tuple(p.key for p in task.participants),
        result=result,
        termination=termination,
        points=game_points(winners, players),
        actions=len(game.history),
        think_s=tuple(round(t, 6) for t in think),  # as the results file keeps them
        moves=tuple(moves),
        detail=detail,
        record=str(record),
        reason=reason,
        clock_left_s=None if clock is None else tuple(round(t, 6) for t in clock.remaining),
    )


def termination_header(termination: str, detail: str | None) -> str:
    """The record's ``Termination``: the kind, then what happened, on one line
    (``illegal action: stp answered go with 'Zz9'``), so that the records file says why.

    >>> termination_header("engine crash", "e ended\\n(exit status 1)")
    'engine crash: e ended (exit status 1)'
    """
    if not detail:
        return termination
    text = " ".join("".join(c if c.isprintable() else " " for c in detail).split())
    return f"{termination}: {text}" if text else termination


def _hearing(proven: list[int], seat: int) -> Callable[[Progress], None]:
    """A built-in bot's progress callback that keeps what its last report proved."""

    def hear(progress: Progress) -> None:
        proven[seat] = progress.proven

    return hear


def _adjudged_text(name: str, streak: int, distance: int) -> str:
    actions = "action" if streak == 1 else f"{streak} actions in a row"
    return f"{name}'s search proved a win (in {distance}) after its {actions}"


def _on_the_clock(limits: Limits, clock: Clock, phase: Phase) -> Limits:
    """A participant's own limits with the running seat's clock added, in milliseconds.
    The increment is what the clock gains after the action asked for (PROTOCOL.md): 0
    for a scoring, which never ends the turn (:meth:`TimeControl.increment_after`)."""
    assert clock.running is not None
    return replace(
        limits,
        clock_ms=int(clock.remaining[clock.running] * 1000),
        increment_ms=round(clock.control.increment_after(phase) * 1000),
    )


def _flag_text(name: str, clock: Clock, spent: float) -> str:
    assert clock.running is not None
    left = clock.remaining[clock.running]
    return f"{name} ran out of time: it took {spent:.3f} s with {left:.3f} s on its clock"


# --- worker processes ---------------------------------------------------------------
_ENGINES: EnginePool | None = None
#: The protocol log of the worker's match (None: none is kept).
_PROTOCOL_LOG: Path | None = None


def init_worker(warm_up: bool, bots: dict[str, BotFactory] | None = None) -> None:
    """Prepare a pool worker: leave Ctrl-C to the main process, take the bots the main
    process registered (``bots``), compile the search now (so that no timed move pays
    for it), and ``quit`` the engines at exit."""
    global _ENGINES
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    install_registered(bots or {})
    if warm_up:
        warm_up_searches()
    _ENGINES = EnginePool()
    multiprocessing.util.Finalize(_ENGINES, _close_worker_engines, exitpriority=10)


def play_in_worker(task: GameTask) -> GameResult:
    """:func:`play_game` with the worker's own engines; the match's protocol log, if
    any, gets their ``quit`` when the worker ends."""
    global _ENGINES, _PROTOCOL_LOG
    if _ENGINES is None:
        _ENGINES = EnginePool()
    _PROTOCOL_LOG = task.protocol_log
    return play_game(task, _ENGINES)


def _close_worker_engines() -> None:
    if _ENGINES is not None:
        _ENGINES.close(_PROTOCOL_LOG)
