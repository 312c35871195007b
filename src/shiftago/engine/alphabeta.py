"""The 2-player alpha-beta bot: the front object of :mod:`shiftago.engine.search`.

It converts a core state to the kernel's array, runs the iterative-deepening search
under the level's depth and node limits and the caller's :class:`~.bot.Limits` (the
smaller of each; ``movetime_ms`` is a hard cap on top), and reports through return
values only.

Value unit (:attr:`AlphaBetaBot.value_unit`), from the mover's point of view: a
heuristic in centi-units within ±999 (open windows of five, points and supplies; see
:mod:`.search.evaluate`), or a proven result: ``10000 - n`` wins and ``n - 10000``
loses after ``n`` more actions in all (both sides' insertions and scorings), ``0`` a
draw. :meth:`AlphaBetaBot.analyse` gives every legal action its exact value;
:meth:`AlphaBetaBot.choose` searches only as much as the best action needs.

With 3 or 4 players (until a multi-player search exists) it plays as the greedy bot
(:mod:`.greedy`), in that bot's unit.

The search is deterministic: the same seed, state and depth or node limits give the
same action. The seed only fixes the first order of the root actions (and so which of
equally good actions is played), drawn from the seed and the position.

``Limits.threads`` beyond the cores the process may run on search with one thread a
core: more threads would only share the cores, and their Python work between depths
queues on the GIL, so that the last of them ends after ``movetime`` (docs/engine.md,
"Options").
"""

from __future__ import annotations

import os
import random
import time
from typing import Final

import numpy as np

from shiftago.core import Action, Rules, State, Variant
from shiftago.engine import kernel
from shiftago.engine.bot import (
    NO_LIMITS,
    Analysis,
    Bot,
    Limits,
    Progress,
    RankedAction,
    logistic,
    logit,
    smaller,
)
from shiftago.engine.greedy import GreedyBot
from shiftago.engine.search import MAX_HEURISTIC, PROVEN, WIN, Searcher, SearchResult
from shiftago.engine.search.driver import TT_BITS
from shiftago.engine.search.evaluate import TUNED_EXPRESS
from shiftago.engine.search.network import EXPRESS_NETWORK
from shiftago.engine.search.ttable import bits_for_mib
from shiftago.engine.timing import budget


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity, where the system has one)."""
    if hasattr(os, "sched_getaffinity"):
        return max(len(os.sched_getaffinity(0)), 1)
    return os.cpu_count() or 1


#: The depth searched when neither the level nor the caller limits it.
DEFAULT_DEPTH = 60
#: The heuristic value (centi-units) at which the mover's expected score is
#: ``1 / (1 + e**-1)``, about 0.73, per variant: :meth:`AlphaBetaBot.expectation` is a
#: logistic of the value over this scale, fitted to the outcomes of self-play games
#: (docs/analysis.md). Express's heuristic has no points term, so its values stay small.
HEURISTIC_SCALE: Final[dict[Variant, float]] = {
    Variant.EXPRESS: 65.0,
    Variant.EXPERT: 200.0,
    Variant.EXTREME: 200.0,
}
#: The scale of the tuned evaluations of Expert and Extreme (the top level's): they were
#: fitted so that ``logistic(value, 130)`` predicts the game's result (docs/strength.md,
#: "The tuned evaluations of 2-player Expert and Extreme").
TUNED_POINTS_SCALE: Final = 130.0


class AlphaBetaBot(Bot):
    """Negamax alpha-beta with iterative deepening for 2 players (greedy for 3-4).

    ``depth`` and ``nodes`` are the bot's own limits (its level); the caller's
    :class:`Limits` can only lower them. ``reductions`` turns on late move reductions
    (the top level's): deeper in the same time, but a depth no longer covers every
    line of its length. ``tuned`` values positions by the tuned evaluation (the top
    level's, see :mod:`shiftago.engine.search.evaluate`), in 2-player Express with
    ``express_weights`` and ``express_network`` (for tuning; the top level's by
    default: :mod:`shiftago.engine.search.network`)."""

    name = "alphabeta"
    # the 2-player search's unit (with 3-4 players it plays as the greedy bot, in that
    # bot's unit, but no level asks it to: they play the MCTS there)
    value_unit = (
        "centi-units: heuristic within +-999; 10000-n wins and n-10000 loses after n "
        "more actions; 0 a draw"
    )

    def __init__(
        self,
        seed: int | None = None,
        *,
        depth: int | None = None,
        nodes: int | None = None,
        name: str | None = None,
        tt_bits: int = TT_BITS,
        use_tt: bool = True,
        reductions: bool = False,
        tuned: bool = False,
        express_weights: np.ndarray = TUNED_EXPRESS,
        express_network: np.ndarray = EXPRESS_NETWORK,
    ) -> None:
        self.seed: int = seed if seed is not None else random.SystemRandom().randrange(2**63)
        self.depth = depth
        self.nodes = nodes
        if name is not None:
            self.name = name
        self.tt_bits = tt_bits
        self.use_tt = use_tt
        self.reductions = reductions
        self.tuned = tuned
        self.express_weights = express_weights
        self.express_network = express_network
        self._greedy = GreedyBot(self.seed)
        #: The last search's result (for benchmarks and tests).
        self.last: SearchResult | None = None
        self._searcher: Searcher | None = None

    def choose(self, state: State, limits: Limits = NO_LIMITS) -> Action:
        if state.players > 2:
            return self._greedy.choose(state, limits)
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        ranked = self._search(state, limits, exact_all=False)
        if not ranked:
            raise ValueError("the game is over: there is no action to choose")
        return ranked[0].action

    def proven(self, value: float) -> int:
        # Beyond the heuristic's range lie proven results, and the greedy bot's +-1000
        # (3-4 players) too.
        if abs(value) <= MAX_HEURISTIC:
            return 0
        return 1 if value > 0 else -1

    def expectation(self, value: float, rules: Rules) -> float:
        # A proven win 1, a loss 0; a heuristic (a proven draw is 0) on the logistic.
        if rules.players > 2:
            return self._greedy.expectation(value, rules)
        proven = self.proven(value)
        if proven:
            return 1.0 if proven > 0 else 0.0
        if self.tuned and rules.variant is not Variant.EXPRESS:
            return logistic(value, TUNED_POINTS_SCALE)
        return logistic(value, HEURISTIC_SCALE[rules.variant])

    def value_of(self, expectation: float, rules: Rules) -> float | None:
        # the heuristic on the logistic of expectation(), inside the heuristic's range
        if rules.players > 2:
            return None
        scale = (
            TUNED_POINTS_SCALE
            if self.tuned and rules.variant is not Variant.EXPRESS
            else HEURISTIC_SCALE[rules.variant]
        )
        edge = logistic(MAX_HEURISTIC, scale)
        value = logit(min(max(expectation, 1.0 - edge), edge), scale)
        return float(round(value))

    def analyse(self, state: State, limits: Limits = NO_LIMITS) -> Analysis:
        if state.players > 2:
            return self._greedy.analyse(state, limits)
        return self._search(state, limits, exact_all=True)

    def _search(self, state: State, limits: Limits, *, exact_all: bool) -> Analysis:
        started = time.perf_counter()
        if state.is_over:
            return []
        s = kernel.from_state(state)
        codes = kernel.legal_codes(s)
        random.Random(f"alphabeta {self.seed} {state.position()}").shuffle(codes)
        tt_bits = self.tt_bits if limits.hash_mib is None else bits_for_mib(limits.hash_mib)
        if self._searcher is None or self._searcher.tt_bits != tt_bits:
            self._searcher = Searcher(
                tt_bits,
                self.use_tt,
                self.reductions,
                self.tuned,
                self.express_weights,
                self.express_network,
            )
        elif not (limits.timed or limits.infinite):
            # each search on its own: the same seed plays the same; a timed search is not
            # repeatable anyway and keeps what the last one found
            self._searcher.clear()
        players = state.players

        def ranked(result: SearchResult) -> list[RankedAction]:
            return [
                RankedAction(
                    kernel.to_action(code, players),
                    value,
                    tuple(kernel.to_action(c, players) for c in pv),
                )
                for code, value, pv in zip(result.codes, result.values, result.pvs, strict=False)
            ]

        on_depth = None
        reported: list[int] = []  # the first action of the last report
        if limits.progress is not None:
            report = limits.progress

            def on_depth(result: SearchResult, final: bool = False) -> None:
                reported[:] = result.codes[:1]
                lines = ranked(result) if exact_all else ranked(result)[:1]
                value = result.values[0]
                report(
                    Progress(
                        result.depth,
                        value,
                        self._plies(value),
                        result.nodes,
                        result.seconds,
                        tuple(lines),
                        final,
                    )
                )

        result = self._searcher.search(
            s,
            codes,
            depth=smaller(self.depth, limits.depth) or DEFAULT_DEPTH,
            nodes=smaller(self.nodes, limits.nodes),
            budget=budget(limits),
            exact_all=exact_all,
            started=started,
            proven_lines=limits.lines if exact_all else 1,
            threads=min(limits.threads, usable_cores()),
            stop=limits.stop,
            on_depth=on_depth,
        )
        if on_depth is not None and result.codes[:1] != reported:
            on_depth(result, final=True)  # a depth cut short found a better action
        if limits.infinite and limits.stop is not None:
            limits.stop.wait()  # an infinite analysis answers only when stopped
        self.last = result
        return ranked(result)

    @staticmethod
    def _plies(value: int) -> int:
        """A proven value as ``Progress.proven``: +n a win after n actions, -n a loss."""
        if value >= PROVEN:
            return WIN - value
        if value <= -PROVEN:
            return -(WIN + value)
        return 0
