"""Iterative deepening, time management and parallel search around
:func:`.negamax.search_root`.

Numba code cannot read the clock cheaply, so the clock stays in Python. Each depth is
one compiled call that runs without the GIL; an alarm thread
(:mod:`shiftago.engine.alarm`) lowers the search's node limit to zero at the hard
deadline (``movetime`` less a margin for Python's own work, or the hard limit of a
clock's :class:`~shiftago.engine.timing.TimeBudget`) or when the caller's stop event is
set, and the search stops at its next node.

* With ``movetime`` the search uses its time: new depths start until the alarm stops
  it. With a clock it stops after a finished depth once it has spent a share of its
  target, stretched where the position needs it (:func:`shiftago.engine.timing.stretch`).
* When a depth is cut off the search keeps the result of the last finished depth,
  improved by any action of the cut-off depth that was searched to the end and beat it
  (the best so far). An analysis (``exact_all``) keeps the last finished depth alone,
  so that its ranking compares values of one depth. The answer never waits for a depth
  to finish, except depth 1 (a few dozen nodes), which no alarm or stop can cut: a
  search stopped before it began still answers with the values of depth 1.
* ``threads`` > 1 runs a parallel search: helper threads search the same root to the
  main thread's depth over the same transposition table (:mod:`.ttable`), each with its
  own stack, killers and history, and share a table of the actions each is in, so that
  one puts off what another is searching (simplified ABDADA, :mod:`.sharing`), and the
  best root action of each depth so far. A helper takes the root actions after the
  first from the last, so that it and the main thread meet somewhere in the middle.
  They fill the table with results the others then find; the answer is the deepest
  finished depth of any thread, improved as above by its cut-off next depth.
* ``on_depth`` hears of each depth the main thread finishes (the progress of a search
  that thinks aloud), and of a deeper one a helper finished, before the answer.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from shiftago.engine.alarm import Alarm, hard_deadline
from shiftago.engine.timing import NEW_DEPTH_SHARE, TimeBudget, stretch

from .endgame import plies_left
from .evaluate import TUNED_EXPRESS
from .layout import (
    DEFER,
    MAX_PLY,
    NETWORK,
    NODE_LIMIT,
    NODES,
    REDUCE,
    STOPPED,
    TUNED,
    USE_TT,
    WEIGHTS,
    SearchTables,
    new_tables,
)
from .negamax import NO_GUESS, PROVEN, search_root
from .network import EXPRESS_NETWORK
from .ttable import new_table
from .variation import principal_variation

#: Transposition-table slots of a search by default: ``2 ** TT_BITS`` (16 bytes each,
#: 8 MiB; the levels' play depends on it, so it stays fixed).
TT_BITS = 19
#: No node limit.
UNLIMITED = 1 << 62

#: Each thread's transposition table (keys, data), shared by its searchers one search at a
#: time: a table is several MiB, and making a fresh one for each search cost more than
#: the search itself at the low levels (docs/deploy.md, "The computer").
_THREAD = threading.local()
#: The owner of a table just made: all zero, no searcher's entries (nothing to clear).
_FRESH = object()


def _thread_table(tt_bits: int) -> tuple[np.ndarray, np.ndarray]:
    table: tuple[np.ndarray, np.ndarray] | None = getattr(_THREAD, "table", None)
    if table is None or table[0].shape[0] != 1 << tt_bits:
        table = new_table(tt_bits)
        _THREAD.table = table
        _THREAD.owner = _FRESH
    return table


@dataclass
class SearchResult:
    """What a search found: the root actions (kernel codes) best first with their
    values (see :mod:`.negamax`; exact for the best, and for all with ``exact_all``)
    and principal variations (for the first ``len(pvs)`` actions), the depth finished
    and the nodes visited (all threads)."""

    codes: list[int]
    values: list[int]
    pvs: list[list[int]]
    depth: int
    nodes: int
    seconds: float
    depths: list[tuple[int, int]] = field(default_factory=list)  # (depth, nodes)


@dataclass
class _Finished:
    """A thread's last finished depth: its ranking; ``beaten``: a deeper depth, cut off,
    found an action better than that ranking's first (now first)."""

    depth: int = 0
    codes: list[int] = field(default_factory=list)
    values: list[int] = field(default_factory=list)
    beaten: bool = False


@dataclass
class _MainDepth:
    """The depth the main thread searches now (the helpers never search one it has
    passed), and the first value of each depth it finished (a helper that skipped a
    depth centres its aspiration window on the main thread's value of it)."""

    depth: int = 0
    firsts: dict[int, int] = field(default_factory=dict)


class Searcher:
    """A 2-player alpha-beta search of one kernel state.

    ``order`` is the first order of the root actions (later depths sort them by value;
    the sort is stable, so equal values keep it). ``use_tt=False`` turns the
    transposition table off (for tests); ``reductions=True`` turns late move
    reductions on (see :mod:`.negamax`), so that a depth no longer means every line of
    that length. ``tuned=True`` values the leaves by the tuned evaluation (see
    :mod:`.evaluate`), in 2-player Express with ``express_weights`` (the layout of
    :data:`.evaluate.TUNED_EXPRESS`, which it is by default) and ``express_network``
    (the layout of :mod:`.network`; by default the shipped one)."""

    def __init__(
        self,
        tt_bits: int = TT_BITS,
        use_tt: bool = True,
        reductions: bool = False,
        tuned: bool = False,
        express_weights: np.ndarray = TUNED_EXPRESS,
        express_network: np.ndarray = EXPRESS_NETWORK,
    ) -> None:
        self.tt_bits = tt_bits
        self.tables = new_tables(_thread_table(tt_bits))
        self.tables.info[USE_TT] = 1 if use_tt else 0
        self.tables.info[REDUCE] = 1 if reductions else 0
        self.tables.info[TUNED] = 1 if tuned else 0
        self.tables.info[WEIGHTS:NETWORK] = express_weights
        self.tables.info[NETWORK:] = express_network
        #: The helper threads' own tables around the same transposition table.
        self._helpers: list[SearchTables] = []
        if getattr(_THREAD, "owner", None) is not _FRESH:
            _THREAD.owner = None  # the table may hold another searcher's entries

    def clear(self) -> None:
        """Forget earlier searches (the table; killers and history start afresh in every
        search): the next search is exactly that of a new searcher, without paying again
        for the table's fresh memory."""
        self.tables.tt_key[:] = 0
        self.tables.tt_data[:] = 0
        _THREAD.owner = self

    def _own_table(self) -> None:
        """The thread's table holds only this searcher's entries (cleared otherwise), and
        the searcher uses the calling thread's table."""
        table = _thread_table(self.tt_bits)
        if self.tables.tt_key is not table[0]:
            self.tables = self.tables._replace(tt_key=table[0], tt_data=table[1])
            self._helpers = []
        owner = getattr(_THREAD, "owner", None)
        if owner is not self:
            if owner is not _FRESH:
                table[0][:] = 0
                table[1][:] = 0
            _THREAD.owner = self

    def _helper_tables(self, count: int) -> list[SearchTables]:
        main_info = self.tables.info
        while len(self._helpers) < count:
            tables = new_tables((self.tables.tt_key, self.tables.tt_data), shared=self.tables)
            for switch in (USE_TT, REDUCE, TUNED):
                tables.info[switch] = main_info[switch]
            tables.info[WEIGHTS:] = main_info[WEIGHTS:]
            self._helpers.append(tables)
        return self._helpers[:count]

    def search(
        self,
        state: np.ndarray,
        order: list[int],
        *,
        depth: int | None = None,
        nodes: int | None = None,
        movetime_ms: float | None = None,
        budget: TimeBudget | None = None,
        exact_all: bool = False,
        started: float | None = None,
        stop_when_proven: bool = True,
        proven_lines: int = 1,
        threads: int = 1,
        stop: threading.Event | None = None,
        on_depth: Callable[[SearchResult], None] | None = None,
    ) -> SearchResult:
        """Search ``state`` (not over) to ``depth``, within ``nodes`` (of the main
        thread) and the time of ``movetime_ms`` or ``budget`` from ``started``, until
        ``stop`` is set; whichever comes first. With ``stop_when_proven`` a depth whose
        first ``proven_lines`` values are proven ends it too."""
        start = time.perf_counter() if started is None else started
        if movetime_ms is not None:
            budget = TimeBudget(float(movetime_ms), float(movetime_ms), fill=True)
        self._own_table()
        stack, info = self.tables.stack, self.tables.info
        helpers = self._helper_tables(threads - 1) if threads > 1 else []
        for tables in (self.tables, *helpers):
            # the ordering tables start afresh: killers belong to plies of one root, and
            # history summed over many searches would outgrow the ordering keys
            tables.killers[:] = -1
            tables.history[:] = 0
            tables.info[DEFER] = 1 if helpers else 0
            # every thread counts this search's nodes only: a helper's count is summed
            # into each report from depth 1 on, before the helper starts (at depth 2)
            tables.info[NODES] = 0
        if helpers:
            self.tables.busy[:] = 0  # no thread is in any action yet (one never marks)
            self.tables.root_best[:] = 0  # nor has any found a best
        stack[0] = state
        info[NODES] = 1  # the root
        info[STOPPED] = 0
        # a depth that reaches the end of every game is exact: deeper is the same
        max_depth = min(depth or MAX_PLY - 1, MAX_PLY - 1, max(plies_left(state), 1))
        codes = list(order)
        values = [0] * len(codes)
        finished = 0
        beaten = False  # the cut-off last depth found a better action (_Finished)
        depths: list[tuple[int, int]] = []
        buffer = np.empty(len(codes), dtype=np.int64)
        infos = [info] + [h.info for h in helpers]
        deadline = None if budget is None else hard_deadline(start, budget.hard_ms)
        # the alarm starts with depth 2: depth 1 is always finished (a few dozen nodes),
        # so that even a search stopped at once answers with values it found
        alarm: Alarm | None = None
        helper_results = [_Finished() for _ in helpers]
        main = _MainDepth()
        workers: list[threading.Thread] = []
        factor = 1.0
        firsts = main.firsts  # the first value of each finished depth
        try:
            for d in range(1, max_depth + 1):
                limit = UNLIMITED
                if d > 1 and nodes is not None:
                    limit = nodes
                if int(info[NODES]) >= limit:
                    break
                if d > 1:
                    if budget is not None and _spent(budget, start, factor):
                        break
                    if alarm is None and (budget is not None or helpers or stop is not None):
                        alarm = Alarm(infos, NODE_LIMIT, deadline, stop=stop)
                if alarm is None:
                    info[NODE_LIMIT] = limit
                elif not alarm.set(limit):
                    break
                main.depth = d
                if d == 2 and helpers:
                    assert alarm is not None  # made above whenever there are helpers
                    workers = self._start_helpers(
                        helpers, helper_results, main, state, codes, max_depth, exact_all, alarm
                    )
                guess = _aspiration_guess(firsts, d)
                done = _search_depth(self.tables, codes, buffer, d, exact_all, guess)
                if done == len(codes):
                    previous_best = codes[0]
                    codes, values = _sorted(codes, [int(v) for v in buffer])
                    finished = d
                    firsts[d] = values[0]
                    depths.append((d, _total(infos)))
                    if d > 1:
                        factor = stretch(codes[0] != previous_best, _fall(firsts, d))
                    if on_depth is not None:
                        on_depth(
                            self._result(state, codes, values, d, infos, start, depths, exact_all)
                        )
                    if stop_when_proven and all(abs(v) >= PROVEN for v in values[:proven_lines]):
                        break
                    continue
                # cut off: keep the last depth, unless an action of this one beat it
                if not exact_all:
                    codes, values, beaten = _beaten(codes, values, _searched(codes, buffer, done))
                break
        finally:
            if alarm is not None:
                if workers:
                    alarm.ring()
                alarm.cancel()
            for worker in workers:
                worker.join()
        known = _best_known(_Finished(finished, codes, values, beaten), helper_results)
        result = self._result(
            state, known.codes, known.values, known.depth, infos, start, depths, True
        )
        if on_depth is not None and known.depth > finished:
            on_depth(result)  # a helper finished a depth the main thread did not
        return result

    def _start_helpers(
        self,
        helpers: list[SearchTables],
        results: list[_Finished],
        main: _MainDepth,
        state: np.ndarray,
        codes: list[int],
        max_depth: int,
        exact_all: bool,
        alarm: Alarm,
    ) -> list[threading.Thread]:
        workers = []
        for k, (tables, result) in enumerate(zip(helpers, results, strict=True)):
            worker = threading.Thread(
                target=_helper_search,
                args=(tables, result, main, state, list(codes), max_depth, exact_all, alarm),
                name=f"search-helper-{k + 1}",
                daemon=True,
            )
            worker.start()
            workers.append(worker)
        return workers

    def _result(
        self,
        state: np.ndarray,
        codes: list[int],
        values: list[int],
        depth: int,
        infos: list[np.ndarray],
        start: float,
        depths: list[tuple[int, int]],
        all_pvs: bool,
    ) -> SearchResult:
        pvs = self._pvs(state, codes if all_pvs else codes[:1])
        return SearchResult(
            list(codes),
            list(values),
            pvs,
            depth,
            _total(infos),
            time.perf_counter() - start,
            list(depths),
        )

    def _pvs(self, state: np.ndarray, codes: list[int]) -> list[list[int]]:
        """Each root action followed by the table's best line after it."""
        from shiftago.engine.kernel import apply_action

        tt_key, tt_data = self.tables.tt_key, self.tables.tt_data
        out = np.empty(MAX_PLY, dtype=np.int64)
        pvs = []
        for code in codes:
            s = state.copy()
            apply_action(s, code)
            n = principal_variation(s, tt_key, tt_data, out)
            pvs.append([code, *(int(c) for c in out[:n])])
        return pvs


def _helper_search(
    tables: SearchTables,
    result: _Finished,
    main: _MainDepth,
    state: np.ndarray,
    root: list[int],
    max_depth: int,
    exact_all: bool,
    alarm: Alarm,
) -> None:
    """A helper thread: deepen from depth 2 until the alarm stops it, keeping the
    ranking of the last depth it finished; the first thread to finish the search's last
    depth ends the search."""
    stack, info = tables.stack, tables.info
    stack[0] = state
    info[NODES] = 0
    info[STOPPED] = 0
    codes = list(root)
    buffer = np.empty(len(codes), dtype=np.int64)
    firsts: dict[int, int] = {}
    d = 2
    while d <= max_depth:
        if not alarm.set(UNLIMITED, info):
            return
        order = _meeting_order(codes)
        guess = _aspiration_guess({**main.firsts, **firsts}, d)
        done = _search_depth(tables, order, buffer, d, exact_all, guess)
        if done < len(codes):
            if result.depth and not exact_all:
                result.codes, result.values, result.beaten = _beaten(
                    result.codes, result.values, _searched(order, buffer, done)
                )
            return
        codes, values = _sorted(order, [int(v) for v in buffer])
        firsts[d] = values[0]
        result.depth, result.codes, result.values = d, codes, values
        if d == max_depth:
            alarm.ring()  # the last depth is done: the main thread need not finish it too
            return
        if abs(values[0]) >= PROVEN:
            return
        d += 1
        # the main thread's depth when it is further on: a depth it has passed would only
        # fill the table with what it knows (docs/strength.md, "Two threads")
        d = max(d, main.depth)


def _meeting_order(codes: list[int]) -> list[int]:
    """A helper's order of the root actions ranked ``codes``: the first (whose tree the
    threads split by putting off), then the others from the last, so that the main
    thread, which goes on from the second, and the helper meet somewhere in the middle
    and each other root action's tree is mostly one thread's (docs/strength.md, "Two
    threads")."""
    return codes[:1] + codes[:0:-1]


def _aspiration_guess(firsts: dict[int, int], depth: int) -> int:
    """The value the first root action of ``depth`` is searched around, from the first
    values ``firsts`` of the finished depths: that of the deepest one of the same parity
    (two depths before, unless a helper skipped it), as the values alternate with the
    depth's parity (docs/strength.md, "The aspiration window"), else the deepest one's,
    else :data:`.negamax.NO_GUESS`."""
    same_parity = [d for d in firsts if d < depth and (depth - d) % 2 == 0]
    if same_parity:
        return firsts[max(same_parity)]
    return firsts[max(firsts)] if firsts else NO_GUESS


def _fall(firsts: dict[int, int], depth: int) -> int:
    """How far the first value of the finished ``depth`` fell (positive: it fell) from
    that of two depths before, of the same parity (the values alternate with it,
    docs/strength.md, "The aspiration window"), else from the depth before."""
    before = firsts.get(depth - 2, firsts.get(depth - 1, firsts[depth]))
    return before - firsts[depth]


def _search_depth(
    tables: SearchTables,
    codes: list[int],
    buffer: np.ndarray,
    depth: int,
    exact_all: bool,
    guess: int,
) -> int:
    """One depth of one thread's search of the root actions ``codes`` in that order
    (their values into ``buffer``); how many it finished (:func:`.negamax.search_root`)."""
    root = np.array(codes, dtype=np.int64)
    return int(search_root(*tables, root, buffer, depth, exact_all, guess))


def _spent(budget: TimeBudget, start: float, factor: float) -> bool:
    """Whether a search with ``budget`` that began at ``start`` should start no new depth:
    at the hard limit, or (unless it fills its time) past a share of its target,
    stretched by ``factor``."""
    spent_ms = (time.perf_counter() - start) * 1000
    if spent_ms >= budget.hard_ms:
        return True
    aim = min(budget.target_ms * factor, budget.hard_ms)
    return not budget.fill and spent_ms >= NEW_DEPTH_SHARE * aim


def _total(infos: list[np.ndarray]) -> int:
    return sum(int(info[NODES]) for info in infos)


def _best_known(main: _Finished, helpers: list[_Finished]) -> _Finished:
    """The ranking of the thread that knows most: the deepest finished depth, and of
    those one whose cut-off next depth found a better action, the best of such actions
    (their values are exact values of that next depth, so they compare); the main
    thread's on a tie."""

    def knowledge(known: _Finished) -> tuple[int, bool, int]:
        return known.depth, known.beaten, known.values[0] if known.beaten else 0

    return max([main, *helpers], key=knowledge)


def _searched(order: list[int], buffer: np.ndarray, done: int) -> dict[int, int]:
    """The actions a cut-off depth finished (the first ``done`` of ``order``, the order
    it searched them in) with their values in ``buffer``, in that order."""
    return {code: int(value) for code, value in zip(order[:done], buffer[:done], strict=True)}


def _beaten(
    codes: list[int], values: list[int], searched: dict[int, int]
) -> tuple[list[int], list[int], bool]:
    """The ranking ``codes``/``values`` of a finished depth after the next depth was cut
    off with the actions of ``searched`` valued (in the order searched, the ranking's
    first action first): the same, or with the action that beat the first there moved
    to the front with its value; and whether one did. The first action's value at the
    cut-off depth is exact, so a better one is the better action at that depth."""
    if len(searched) < 2 or codes[0] not in searched:
        return codes, values, False
    first = searched[codes[0]]
    best = max(searched, key=lambda code: searched[code])  # the first searched of equals
    if searched[best] <= first:
        return codes, values, False
    at = codes.index(best)
    codes, values = list(codes), list(values)
    codes.insert(0, codes.pop(at))
    values.pop(at)
    values.insert(0, searched[best])
    return codes, values, True


def _sorted(codes: list[int], values: list[int]) -> tuple[list[int], list[int]]:
    """Codes and values by value, best first; a stable sort (equal values keep order)."""
    ranks = sorted(range(len(codes)), key=lambda j: -values[j])
    return [codes[j] for j in ranks], [values[j] for j in ranks]
