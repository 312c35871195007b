"""The alpha-beta bots of 3-4 player Express: paranoid, best-reply and max-n
(:mod:`.multi_search`).

It deepens until its limits end the search: ``Limits.depth`` (plies), ``Limits.nodes``
(nodes of the search; a depth that would pass it is cut short and thrown away),
``Limits.movetime_ms`` or a clock's target, ``Limits.stop``. The answer is the ranking of
the deepest finished depth. Value unit: the mover's expected share of the result in
[0, 1] as its rule sees it (paranoid and best-reply: 1 a proven win, 0 a loss against
every other seat; max-n: the share each seat's own best leaves it); actions that let
the next seat make its line at once come last at 0. Its
progress (``Limits.progress``) comes after each finished depth; it proves no distance to
the end (``Progress.proven`` is 0) and its lines are one action long.
It plays 3-4 player Express only; other games are a ValueError.
"""

from __future__ import annotations

import time

import numpy as np

from shiftago.core.rules import Rules, Variant
from shiftago.core.state import State
from shiftago.engine import kernel
from shiftago.engine.alarm import Alarm, hard_deadline
from shiftago.engine.bot import NO_LIMITS, Analysis, Bot, Limits, Progress, RankedAction
from shiftago.engine.kernel.tables import MAX_ACTIONS
from shiftago.engine.multi_search import (
    BEST_REPLY,
    INFO_SIZE,
    MAX_N,
    MAX_PLY,
    NODE_LIMIT,
    NODES,
    PARANOID,
    STOP,
    SURE_WIN,
    new_tables,
    root_actions,
    search_depth,
)
from shiftago.engine.timing import budget

#: The depth searched when no limit is given.
DEFAULT_DEPTH = 4
#: The rules by their names in the arena's specs.
RULES = {"paranoid": PARANOID, "best-reply": BEST_REPLY, "max-n": MAX_N, "sure-win": SURE_WIN}


class MultiSearchBot(Bot):
    """Alpha-beta of 3-4 players by one rule (``paranoid``, ``best-reply``, ``max-n`` or
    ``sure-win``), with the fitted evaluation."""

    value_unit = "expected share"
    mistake_threshold = 0.1

    def __init__(self, rule: str = "paranoid", depth: int | None = None) -> None:
        self.rule = RULES[rule]
        self.depth = depth
        self.name = rule
        self.last_depth = 0
        self.last_nodes = 0

    def analyse(self, state: State, limits: Limits = NO_LIMITS) -> Analysis:
        started = time.perf_counter()
        if state.is_over:
            return []
        if state.players < 3 or state.rules.variant is not Variant.EXPRESS:
            raise ValueError(f"the {self.name} search plays 3-4 player Express only")
        s = kernel.from_state(state)
        codes = np.empty(MAX_ACTIONS, dtype=np.int64)
        n, kept = root_actions(s, codes)
        most = self.depth if limits.depth is None else limits.depth
        time_budget = budget(limits)
        if most is None and time_budget is None and not limits.infinite and limits.nodes is None:
            most = DEFAULT_DEPTH
        most = min(most or MAX_PLY - 2, MAX_PLY - 2)
        info = np.zeros(INFO_SIZE, dtype=np.int64)
        info[NODE_LIMIT] = limits.nodes or 0
        at = None if time_budget is None else hard_deadline(started, time_budget.target_ms)
        alarm = Alarm(info, STOP, at, value=1, stop=limits.stop)
        killers, history = new_tables(state.players)
        order = codes[:kept].copy()
        ranked_values = np.full(kept, 0.5)
        values = np.empty(kept, dtype=np.float64)
        self.last_depth = 0
        try:
            for depth in range(1, most + 1):
                if kept == 0 or not search_depth(
                    s, self.rule, depth, order, kept, values, info, killers, history
                ):
                    break
                ranking = sorted(range(kept), key=lambda j: -values[j])
                if values[ranking[0]] == 0.0 and self.last_depth > 0:
                    # lost whatever it does: keep the last depth's order,
                    # which hopes for the most, with the values proven now
                    self.last_depth = depth
                    ranked_values[:] = 0.0
                    break
                self.last_depth = depth
                order = order[ranking]
                ranked_values = values[ranking].copy()
                if limits.progress is not None:
                    lines = self._lines(state, order, ranked_values, codes[kept:n])
                    limits.progress(
                        Progress(
                            depth,
                            lines[0].value,
                            0,
                            int(info[NODES]),
                            time.perf_counter() - started,
                            tuple(lines),
                        )
                    )
                if kept == 1 or ranked_values[0] == 1.0:
                    break
        finally:
            alarm.cancel()
        self.last_nodes = int(info[NODES])
        return self._lines(state, order, ranked_values, codes[kept:n])

    @staticmethod
    def _lines(
        state: State, order: np.ndarray, values: np.ndarray, lost: np.ndarray
    ) -> list[RankedAction]:
        """The ranking: the searched actions in order, then those that lose at once."""
        players = state.players

        def line(code: int, value: float) -> RankedAction:
            action = kernel.to_action(int(code), players)
            return RankedAction(action, float(value), (action,))

        searched = [line(code, value) for code, value in zip(order, values, strict=True)]
        return searched + [line(code, 0.0) for code in lost]

    def proven(self, value: float) -> int:
        return 1 if value == 1 else -1 if value == 0 else 0

    def expectation(self, value: float, rules: Rules) -> float:
        # The unit is already an expected share of the result.
        return min(max(float(value), 0.0), 1.0)


def warm_up() -> None:
    """Compile (or load from numba's cache) the searches, as the top level's sure-win
    check runs in timed answers: one search compiles them all (every rule is a branch
    of the same compiled functions)."""
    MultiSearchBot("sure-win").analyse(State.initial(Rules(Variant.EXPRESS, 3), 0), Limits(depth=2))
