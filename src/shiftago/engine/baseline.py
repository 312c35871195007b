"""The baseline: plain fixed-depth alpha-beta in pure Python, as public programs play.

This bot reproduces what the best public Shiftago programs do, so that our strength
measurements have an outside yardstick: a fixed-depth alpha-beta search (depth 4 by
default) written directly on the core (:class:`~shiftago.core.State`: ``legal_actions``,
``after``, ``outcome``, ``boards``), with a window-count evaluation and nothing else: no
transposition table, no iterative deepening, no move ordering beyond the order the
actions are generated in, no time control (``movetime`` and ``nodes`` are ignored;
``Limits.depth`` replaces the bot's depth).

Search. Every action counts one ply: insertions, scorings, and the extra turn after a
scoring alike (scorings are searched like any other action). The search is *paranoid*:
the seat to act at the root maximises its own evaluation and every other seat minimises
it; whose turn it is is read from each node's state, so the repeated turns after a
scoring (and handicap skips) need no special case. With 2 players this is ordinary
minimax with alpha-beta, the same search as negamax, because the evaluation is
zero-sum. The root's actions are first shuffled with a generator seeded from the bot's
seed and the position, so equal values are broken the same way every time.

Evaluation (:func:`evaluate`), from the point of view of one seat. Every window of W
consecutive cells along a rank, a file or a diagonal (W = the winning length in Express:
5 with 2 players, 4 with 3-4; Expert and Extreme: the windows of 4 and of 5 both) that
holds marbles of one seat only counts for that seat by how many it holds: 1, 4, 16,
64, 256 for 1-5 marbles (:data:`WINDOW_WEIGHT`). The seat's own windows count plus,
every other seat's minus. In Expert and Extreme the points count :data:`POINT_WEIGHT`
each and the marbles in supply :data:`SUPPLY_WEIGHT` each, again the seat's own plus and
the others' minus.

Value unit (:attr:`BaselineBot.value_unit`), from the mover's point of view: the
evaluation above, or a proven result within the search: ``1000000 - n``
(:data:`WIN`) wins and ``n - 1000000`` loses after ``n`` more actions in all (the
analysed action included), so quicker wins and later losses are preferred; ``0`` is a
draw the mover shares (a game lost with 3-4 players counts as a loss).
"""

from __future__ import annotations

import random
import time
from typing import Final

from shiftago.core import Action, State, Variant
from shiftago.core.geometry import CELLS, DIRECTIONS, union
from shiftago.engine.bot import NO_LIMITS, Analysis, Bot, Limits, RankedAction

#: The depth searched unless the bot or the caller's limits say otherwise.
DEFAULT_DEPTH: Final = 4
#: A win at the root; a win after ``n`` actions is worth ``WIN - n``.
WIN: Final = 1_000_000
#: Values beyond this (in absolute value) are proven wins or losses.
PROVEN: Final = WIN // 2
#: What a window holding only one seat's marbles is worth, by how many it holds.
WINDOW_WEIGHT: Final[tuple[int, ...]] = (0, 1, 4, 16, 64, 256)
#: Expert and Extreme: the worth of one point and of one marble in supply.
POINT_WEIGHT: Final = 1000
SUPPLY_WEIGHT: Final = 2

_INFINITY: Final = 10 * WIN


def _windows(length: int) -> tuple[int, ...]:
    """Every window of ``length`` consecutive cells in one of the four directions, as a
    mask, computed from the core's geometry (the guard bit stops a window that would
    wrap around an edge: its cell is not a real cell)."""
    cells = set(CELLS)
    found = []
    for step in DIRECTIONS:
        for start in CELLS:
            window = [start + k * step for k in range(length)]
            if all(cell in cells for cell in window):
                found.append(sum(1 << cell for cell in window))
    return tuple(found)


#: The windows by length: 4 (88 of them) and 5 (60).
WINDOWS: Final[dict[int, tuple[int, ...]]] = {length: _windows(length) for length in (4, 5)}


def window_lengths(state: State) -> tuple[int, ...]:
    """The window lengths the evaluation uses for the game of ``state``."""
    if state.rules.variant is Variant.EXPRESS:
        return (state.rules.win_length,)
    return (4, 5)


def window_scores(boards: tuple[int, ...], windows: tuple[int, ...]) -> list[int]:
    """For each seat, the weights of the windows that hold that seat's marbles only."""
    weight = WINDOW_WEIGHT
    if len(boards) == 2:  # the common case, written out
        mine, theirs = boards
        first = second = 0
        for window in windows:
            a = mine & window
            b = theirs & window
            if a:
                if not b:
                    first += weight[a.bit_count()]
            elif b:
                second += weight[b.bit_count()]
        return [first, second]
    occupied = union(boards)
    totals = [0] * len(boards)
    for window in windows:
        inside = occupied & window
        if not inside:
            continue
        for seat, board in enumerate(boards):
            mine = board & window
            if mine:
                if mine == inside:
                    totals[seat] += weight[mine.bit_count()]
                break
    return totals


def evaluate(state: State, seat: int) -> int:
    """The window-count evaluation of ``state`` from ``seat``'s point of view."""
    boards = state.boards
    value = 0
    for length in window_lengths(state):
        scores = window_scores(boards, WINDOWS[length])
        value += 2 * scores[seat] - sum(scores)  # own plus, every other seat's minus
    if state.rules.variant is not Variant.EXPRESS:
        points, supplies = state.scores, state.supplies
        value += POINT_WEIGHT * (2 * points[seat] - sum(points))
        value += SUPPLY_WEIGHT * (2 * supplies[seat] - sum(supplies))
    return value


class BaselineBot(Bot):
    """Fixed-depth alpha-beta (paranoid with 3-4 players), window-count evaluation."""

    name = "baseline"
    value_unit = (
        "window points for the mover: windows of the winning length (Expert/Extreme: 4 "
        "and 5) holding one seat's marbles only count 1, 4, 16, 64, 256 for 1-5 marbles, "
        "the mover's plus, the others' minus; Expert/Extreme add 1000 per point and 2 per "
        "marble in supply (the mover's minus the others'); 1000000-n wins and n-1000000 "
        "loses after n more actions; 0 a draw"
    )

    def __init__(self, seed: int | None = None, *, depth: int = DEFAULT_DEPTH) -> None:
        if depth < 1:
            raise ValueError(f"the depth must be at least 1, not {depth}")
        self.seed: int = seed if seed is not None else random.SystemRandom().randrange(2**63)
        self.depth = depth
        #: Nodes visited and seconds taken by the last search (for measurements).
        self.nodes = 0
        self.seconds = 0.0
        self._root = 0
        self._started = 0.0

    def proven(self, value: float) -> int:
        if value >= PROVEN:
            return 1
        return -1 if value <= -PROVEN else 0

    def choose(self, state: State, limits: Limits = NO_LIMITS) -> Action:
        """The best action; only its value is searched exactly (the others are cut off)."""
        order = self._start(state)
        if not order:
            raise ValueError("the game is over: there is no action to choose")
        depth = limits.depth or self.depth
        best, choice = -_INFINITY, order[0]
        for action in order:
            value, _ = self._search(state.after(action), depth - 1, best, _INFINITY, 1)
            if value > best:
                best, choice = value, action
        self.seconds = time.perf_counter() - self._started
        return choice

    def analyse(self, state: State, limits: Limits = NO_LIMITS) -> Analysis:
        """Every legal action with its exact value at the depth, best first."""
        order = self._start(state)
        depth = limits.depth or self.depth
        ranked = []
        for action in order:
            value, pv = self._search(state.after(action), depth - 1, -_INFINITY, _INFINITY, 1)
            ranked.append(RankedAction(action, value, (action, *pv)))
        ranked.sort(key=lambda r: r.value, reverse=True)  # stable: ties keep the shuffle
        self.seconds = time.perf_counter() - self._started
        return ranked

    # --- the search -----------------------------------------------------------------
    def _start(self, state: State) -> list[Action]:
        """Set up a search of ``state``: its root actions in the seeded shuffled order."""
        self._started = time.perf_counter()
        self.nodes = 1
        self._root = state.turn
        order = state.legal_actions()
        random.Random(f"baseline {self.seed} {state.position()}").shuffle(order)
        return order

    def _search(
        self, state: State, depth: int, alpha: int, beta: int, ply: int
    ) -> tuple[int, tuple[Action, ...]]:
        """The value of ``state`` for the root seat within ``(alpha, beta)``, and the
        line of play that leads to it (fail-soft: outside the window it is a bound)."""
        self.nodes += 1
        outcome = state.outcome
        if outcome is not None:
            winners = outcome.winners
            if self._root not in winners:
                return ply - WIN, ()
            return (WIN - ply if len(winners) == 1 else 0), ()
        if depth == 0:
            return evaluate(state, self._root), ()
        line: tuple[Action, ...] = ()
        if state.turn == self._root:
            best = -_INFINITY
            for action in state.legal_actions():
                value, pv = self._search(state.after(action), depth - 1, alpha, beta, ply + 1)
                if value > best:
                    best, line = value, (action, *pv)
                    if value > alpha:
                        alpha = value
                        if alpha >= beta:
                            break
        else:
            best = _INFINITY
            for action in state.legal_actions():
                value, pv = self._search(state.after(action), depth - 1, alpha, beta, ply + 1)
                if value < best:
                    best, line = value, (action, *pv)
                    if value < beta:
                        beta = value
                        if alpha >= beta:
                            break
        return best, line
