"""Running a match: :func:`run_match` turns a :class:`MatchConfig` into a :class:`MatchResult`.

This is the programmatic face of ``shiftago arena`` (the command only parses options
and prints): it builds the schedule, skips the games already in the results file,
plays the rest in the main process (``jobs=1``) or in a pool of worker processes (the
built-in bots are CPU bound and hold the GIL), writes each game's record and result
line as the game ends, and stops early when the SPRT has a verdict. When it stops
(finished, stopped early or interrupted) it writes the match's records file: every
game of the match so far, in schedule order, as one file of records.
"""

from __future__ import annotations

import contextlib
import datetime
import multiprocessing
import pickle
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from shiftago.core import Action, Rules, Variant
from shiftago.core.rules import MAX_HANDICAP
from shiftago.engine import warm_up as warm_up_searches
from shiftago.engine.bot import NO_LIMITS, Limits
from shiftago.match.book import OpeningBook, book_opening
from shiftago.match.clock import TimeControl
from shiftago.match.crosstable import Crosstable, crosstable
from shiftago.match.errors import MatchSetupError
from shiftago.match.external import MOVETIME_MARGIN, STARTUP_TIMEOUT
from shiftago.match.games import (
    EnginePool,
    EngineSettings,
    GameResult,
    GameTask,
    Timer,
    init_worker,
    play_game,
    play_in_worker,
)
from shiftago.match.participants import REGISTERED, BotFactory, Participant, parse_participants
from shiftago.match.protocol_log import START_FILE, transcribed
from shiftago.match.results import (
    ResultsFile,
    default_games_file,
    default_records_dir,
    game_key,
    write_games_file,
    write_record,
)
from shiftago.match.schedule import Slot, bot_seed, opening, openings_for, schedule
from shiftago.match.standings import (
    SprtSettings,
    Standings,
    compute_standings,
    pair_scores,
    sprt_status,
)

#: Called with each finished game (None once at the start), games done, games in all.
Progress = Callable[[GameResult | None, int, int], None]


@dataclass(frozen=True)
class MatchConfig:
    """What to play. ``participants`` are specs (:mod:`.participants`).

    ``games`` is rounded up to whole openings (every group of participants, every
    rotation). The openings are ``opening_plies`` random actions each, drawn from
    ``seed``, or the first lines of ``book`` (:mod:`.book`). ``handicap`` gives each
    participant (in order) its skipped turns, which go with it from seat to seat.
    ``limits`` fill the limits a spec leaves open.
    ``clock`` gives every seat of every game a clock of its own (minutes+seconds; no
    movetime then: each side spends its own time). ``timeout`` is the hard limit of an
    external engine's move in seconds (default: its movetime plus one second, else 60;
    under a clock its remaining time plus ``time_margin``, and no ``timeout`` may be
    given); ``time_margin`` is how far past its movetime or clock an engine may answer
    before it is stopped, ``startup_timeout`` how long it may take to start (seconds).
    ``adjudicate_win`` N ends a game as a win for a participant whose search proved a
    win after each of N of its actions in a row. ``results`` is the results file (None:
    nothing is kept, nothing resumed); ``records`` the records directory (None: beside
    the results file, when there is one); ``games_file`` the match's records file
    (None: ``NAME-games.txt`` beside the results file ``NAME.jsonl``). ``protocol_log``
    is the directory of the protocol logs, every line between the arena and its
    external engines (None: none is kept; :mod:`.protocol_log`).
    """

    participants: tuple[str, ...]
    variant: Variant = Variant.EXPRESS
    players: int = 2
    games: int = 2
    opening_plies: int = 2
    seed: int = 0
    book: OpeningBook | None = None
    handicap: tuple[int, ...] = ()
    action_limit: int | None = 1000
    limits: Limits = NO_LIMITS
    clock: TimeControl | None = None
    timeout: float | None = None
    jobs: int = 1
    results: Path | None = None
    records: Path | None = None
    save_records: bool = True
    sprt: SprtSettings | None = None
    date: str | None = None
    startup_timeout: float = STARTUP_TIMEOUT
    time_margin: float = MOVETIME_MARGIN
    adjudicate_win: int | None = None
    games_file: Path | None = None
    protocol_log: Path | None = None

    def __post_init__(self) -> None:
        if self.games < 1 or self.jobs < 1:
            raise MatchSetupError("a match has at least one game and one job")
        if not self.startup_timeout > 0:
            raise MatchSetupError(
                "the start-up timeout is above 0 s, not {timeout}", timeout=self.startup_timeout
            )
        if self.timeout is not None and not self.timeout > 0:
            raise MatchSetupError("the timeout is above 0 s, not {timeout}", timeout=self.timeout)
        if not self.time_margin >= 0:
            raise MatchSetupError(
                "the time margin is 0 s or more, not {margin}", margin=self.time_margin
            )
        if self.adjudicate_win is not None and self.adjudicate_win < 1:
            raise MatchSetupError(
                "adjudication needs a proven win for 1 action or more, not {actions}",
                actions=self.adjudicate_win,
            )
        if self.handicap and len(self.handicap) != len(self.participants):
            raise MatchSetupError(
                "the handicap needs one number per participant ({count}), got {given}",
                count=len(self.participants),
                given=len(self.handicap),
            )
        if self.sprt is not None and (len(self.participants) != 2 or self.players != 2):
            raise MatchSetupError("the SPRT compares two participants in 2-player games")
        if any(not 0 <= turns <= MAX_HANDICAP for turns in self.handicap):
            raise MatchSetupError("each handicap is 0 to {most} skipped turns", most=MAX_HANDICAP)
        try:  # the rules check the players and the action limit
            Rules(self.variant, self.players, action_limit=self.action_limit)
        except ValueError as error:
            raise MatchSetupError("{error}", error=str(error)) from None
        if self.book is not None:
            needed = openings_for(self.games, len(self.participants), self.players)
            if needed > len(self.book):
                raise (
                    MatchSetupError(
                        "{book} has 1 opening; {games} games need {needed} "
                        "(every seating of every opening)",
                        book=self.book.name,
                        games=self.games,
                        needed=needed,
                    )
                    if len(self.book) == 1
                    else MatchSetupError(
                        "{book} has {count} openings; {games} games need {needed} "
                        "(every seating of every opening)",
                        book=self.book.name,
                        count=len(self.book),
                        games=self.games,
                        needed=needed,
                    )
                )
        if self.clock is not None:
            if self.clock.correspondence:
                raise MatchSetupError(
                    "a match clock is minutes+seconds (such as 3+2), not {clock}",
                    clock=str(self.clock),
                )
            if self.limits.movetime_ms is not None:
                raise MatchSetupError(
                    "a clock and a movetime do not go together: under a clock each side "
                    "decides how long to think"
                )
            if self.timeout is not None:
                raise MatchSetupError(
                    "a clock and a timeout do not go together: under a clock an engine "
                    "may answer until its time has run out (plus {margin} s)",
                    margin=format(self.time_margin, "g"),
                )

    @property
    def engine_settings(self) -> EngineSettings:
        """How this match runs its external engines (the same in every game)."""
        return EngineSettings(
            timeout=self.timeout,
            startup_timeout=self.startup_timeout,
            time_margin=self.time_margin,
            think_aloud=self.adjudicate_win is not None,
        )

    @property
    def records_dir(self) -> Path | None:
        """Where the records go, or None when none are kept."""
        if not self.save_records:
            return None
        if self.records is not None:
            return self.records
        return default_records_dir(self.results) if self.results is not None else None

    @property
    def games_path(self) -> Path | None:
        """The match's records file (every game in one), or None when none is kept."""
        if not self.save_records:
            return None
        if self.games_file is not None:
            return self.games_file
        return default_games_file(self.results) if self.results is not None else None


@dataclass(frozen=True)
class MatchResult:
    """The games (in schedule order, resumed ones included) and the standings."""

    config: MatchConfig
    participants: tuple[Participant, ...]
    games: tuple[GameResult, ...]
    standings: Standings
    scheduled: int
    openings: int
    resumed: int
    played: int
    stopped_early: bool = False

    @property
    def crosstable(self) -> Crosstable:
        """Every participant against every other."""
        return crosstable(self.participants, self.games)

    def to_json(self) -> dict[str, Any]:
        """Settings, counts and standings, for programs (``shiftago arena --json``)."""
        c = self.config
        return {
            "settings": {
                "participants": [p.spec for p in self.participants],
                "variant": c.variant.value,
                "players": c.players,
                "openings": self.openings,
                "opening_plies": None if c.book is not None else c.opening_plies,
                "book": None if c.book is None else c.book.name,
                "seed": c.seed,
                "handicap": list(c.handicap),
                "action_limit": c.action_limit,
                "clock": None if c.clock is None else str(c.clock),
                "results": None if c.results is None else str(c.results),
                "records": None if c.records_dir is None else str(c.records_dir),
                "games_file": None if c.games_path is None else str(c.games_path),
                "adjudicate_win": c.adjudicate_win,
            },
            "crosstable": self.crosstable.to_json(),
            "scheduled": self.scheduled,
            "resumed": self.resumed,
            "played": self.played,
            "stopped_early": self.stopped_early,
            **self.standings.to_json(),
        }


def run_match(
    config: MatchConfig,
    progress: Progress | None = None,
    *,
    timer: Timer | None = None,
    play: bool = True,
) -> MatchResult:
    """Play (or resume) a match and return its result; with ``play=False`` only read
    the games already in the results file (the tables of a finished or partial match).

    ``timer`` replaces the wall clock that times the actions and runs the clocks (a
    test's fake time); it needs ``jobs=1``. An external engine that cannot start, does
    not speak the protocol or refuses its options (``threads=``, ``hash=``) stops the
    match before the first game with an :class:`~.external.EngineError`.
    """
    if timer is not None and config.jobs != 1:
        raise ValueError("a timer of its own needs the games played in this process (jobs=1)")
    participants = parse_participants(config.participants, config.limits)
    worker_bots = _registered_for_workers(participants) if config.jobs != 1 else {}
    if config.clock is not None:
        for p in participants:
            if p.limits.movetime_ms is not None:
                raise MatchSetupError(
                    "{name}: a clock and a movetime do not go together: under a clock "
                    "each side decides how long to think",
                    name=p.name,
                )
    openings = openings_for(config.games, len(participants), config.players)
    tasks = _tasks(config, participants, schedule(len(participants), config.players, openings))
    store = ResultsFile(config.results) if config.results is not None else None
    stored = store.load() if store is not None else {}
    finished = {t.key: stored[t.key] for t in tasks if t.key in stored}
    resumed = len(finished)
    records = config.records_dir

    def games() -> list[GameResult]:
        return [finished[t.key] for t in tasks if t.key in finished]

    def decided() -> bool:
        """Whether the SPRT (if any) has a verdict."""
        if config.sprt is None:
            return False
        pairs = pair_scores(games(), participants[0].key, config.players)
        return sprt_status(pairs, config.sprt).verdict is not None

    def accept(result: GameResult) -> bool:
        """Keep a finished game; True when the SPRT says the match can stop."""
        if records is not None:
            result = replace(result, record_file=write_record(records, result))
        if store is not None:
            store.append(result)
        finished[result.key] = result
        if progress is not None:
            progress(result, len(finished), len(tasks))
        return decided()

    if progress is not None:
        progress(None, len(finished), len(tasks))
    todo = [t for t in tasks if t.key not in finished] if play else []
    stopped = decided()
    try:
        if todo and not stopped:
            warm = any(not p.external for p in participants)
            engines = EnginePool()  # the pool's workers start engines of their own
            try:
                _start_engines(participants, engines, config)
                if config.jobs == 1:
                    stopped = _run_inline(todo, engines, warm, accept, timer or time.perf_counter)
            finally:
                engines.close(config.protocol_log)
            if config.jobs != 1:
                stopped = _run_pool(todo, config.jobs, warm, accept, worker_bots)
    finally:
        # this match's games, also where every game was resumed: another match of the
        # same results file may have written the file since
        if play and config.games_path is not None and finished:
            write_games_file(config.games_path, games(), records)
    return MatchResult(
        config=config,
        participants=tuple(participants),
        games=tuple(finished[t.key] for t in tasks if t.key in finished),
        standings=compute_standings(
            participants, games(), config.players, config.sprt, timed=config.clock is not None
        ),
        scheduled=len(tasks),
        openings=openings,
        resumed=resumed,
        played=len(finished) - resumed,
        stopped_early=stopped and len(finished) < len(tasks),
    )


def _tasks(
    config: MatchConfig, participants: list[Participant], slots: list[Slot]
) -> list[GameTask]:
    date = config.date or datetime.date.today().isoformat()
    openings: dict[tuple[int, Rules], tuple[Action, ...]] = {}
    tasks = []
    for slot in slots:
        handicap = tuple(config.handicap[i] for i in slot.seats) if config.handicap else ()
        rules = Rules(config.variant, config.players, handicap, config.action_limit)
        if (slot.opening, rules) not in openings:
            openings[slot.opening, rules] = (
                opening(rules, config.opening_plies, config.seed, slot.opening)
                if config.book is None
                else book_opening(config.book, rules, slot.opening)
            )
        actions = tuple(str(a) for a in openings[slot.opening, rules])
        seats = tuple(participants[i] for i in slot.seats)
        shown = " ".join(actions) if actions else "none"
        source = ""
        if config.book is not None:
            entry = config.book.lines[slot.opening]
            source = f" of {Path(config.book.name).name} line {entry.line}"
        clock = "" if config.clock is None else f", clock {config.clock}"
        tasks.append(
            GameTask(
                slot=slot,
                key=game_key(
                    rules,
                    config.opening_plies,
                    config.seed,
                    slot,
                    seats,
                    config.clock,
                    book=None if config.book is None else config.book.lines[slot.opening].digest,
                ),
                rules=rules,
                participants=seats,
                opening=actions,
                seeds=tuple(bot_seed(config.seed, slot, s) for s in range(config.players)),
                event=(
                    f"shiftago arena{clock}, seed {config.seed}, "
                    f"opening {slot.opening}{source} ({shown}), "
                    f"rotation {slot.rotation}"
                ),
                date=date,
                engines=config.engine_settings,
                clock=config.clock,
                adjudicate_win=config.adjudicate_win,
                protocol_log=config.protocol_log,
            )
        )
    if config.book is not None:  # the lines this match leaves unplayed are checked too
        for rules in {rules for _, rules in openings}:
            for number in range(len(config.book)):
                if (number, rules) not in openings:
                    book_opening(config.book, rules, number)
    return tasks


def _start_engines(
    participants: list[Participant], engines: EnginePool, config: MatchConfig
) -> None:
    """Start each external engine (its handshake, its options), so that one that cannot
    start, does not speak the protocol, or refuses or does not list an option it is
    given (an :class:`~.external.EngineError`) stops the match now rather than losing
    every game."""
    started = [engines.get(p, config.engine_settings) for p in participants if p.external]
    log = None if config.protocol_log is None else config.protocol_log / START_FILE
    with transcribed(started, log):
        for engine in started:
            engine.start()


def _run_inline(
    todo: list[GameTask],
    engines: EnginePool,
    warm: bool,
    accept: Callable[[GameResult], bool],
    timer: Timer,
) -> bool:
    """Play the games one after the other in this process; True if stopped early."""
    if warm:
        warm_up_searches()
    return any(accept(play_game(task, engines, timer)) for task in todo)


def _registered_for_workers(participants: list[Participant]) -> dict[str, BotFactory]:
    """The registered bots (:func:`~.participants.register_bot`) that ``participants``
    play, for the worker processes; one that cannot be pickled stops the match before it
    starts, in words (a closure's bot plays with ``jobs=1``)."""
    bots = {p.bot: REGISTERED[p.bot] for p in participants if p.bot in REGISTERED}
    for name, factory in bots.items():
        try:
            pickle.dumps(factory)
        except (pickle.PicklingError, AttributeError, TypeError) as e:
            raise MatchSetupError(
                "{name}: a registered bot plays in the worker processes of jobs > 1 only "
                "when its factory pickles (a function of a module), and this one does not "
                "({why}); play it with jobs=1",
                name=repr(name),
                why=str(e),
            ) from None
    return bots


def _run_pool(
    todo: list[GameTask],
    jobs: int,
    warm: bool,
    accept: Callable[[GameResult], bool],
    bots: dict[str, BotFactory],
) -> bool:
    """Play the games in ``jobs`` worker processes; True if stopped early.

    Only a few games are queued ahead of the workers, so that a verdict of the SPRT
    stops the match soon; games already running when it comes are finished and kept.
    """
    # workers fork from a fresh server process, never from this one, which may run
    # threads (a library's, a notebook's, a test run's) that a fork would leave stuck
    pool = ProcessPoolExecutor(
        max_workers=jobs,
        mp_context=multiprocessing.get_context("forkserver"),
        initializer=init_worker,
        initargs=(warm, bots),
    )
    pending: set[Future[GameResult]] = set()
    queue: Iterator[GameTask] = iter(todo)
    stop = False
    try:
        while True:
            while not stop and len(pending) < 2 * jobs:
                task = next(queue, None)
                if task is None:
                    break
                pending.add(pool.submit(play_in_worker, task))
            if not pending:
                return stop
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                if future.cancelled():
                    continue
                if accept(future.result()) and not stop:
                    stop = True
                    for other in pending:
                        other.cancel()
    except BaseException:
        for future in pending:
            future.cancel()
        _terminate(pool)
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _terminate(pool: ProcessPoolExecutor) -> None:
    """Stop the workers now (on Ctrl-C or an error): their games are lost anyway."""
    processes = getattr(pool, "_processes", None) or {}
    for process in list(processes.values()):
        with contextlib.suppress(Exception):
            process.terminate()
