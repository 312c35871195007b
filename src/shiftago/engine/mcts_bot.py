"""The Monte Carlo tree search bot: the front object of :mod:`shiftago.engine.mcts`.

It converts a core state to the kernel's array, runs the MCTS for every variant and 2,
3 or 4 players, and reports through return values only.

Limits: ``iterations`` is the bot's own limit (its level); :attr:`Limits.nodes
<shiftago.engine.bot.Limits.nodes>` counts iterations too (one iteration: one path
from the root, one expansion, one playout), and the smaller of the two applies.
``Limits.movetime_ms`` is a hard cap on top; with a clock (``Limits.clock_ms``) the
tree searches for the time manager's target (:mod:`shiftago.engine.timing`), and
``Limits.stop`` ends it at once. ``Limits.depth`` is ignored: a tree search has no
depth to limit; so are ``threads`` and ``hash_mib``. Its progress (``Limits.progress``)
comes after chunks of iterations that double (1,024, then 2,048 more, ...), and once
more at the end for the iterations since (``Progress.final``): the ``depth`` of a
report is the length of the best line's principal variation, its ``nodes`` the
iterations so far, and its ``proven`` the distance to the end of a proven best line
whose principal variation ends the game (``info ... value win 2`` in the protocol).
With no limit at all the bot runs :data:`DEFAULT_ITERATIONS` iterations.

Value unit (:attr:`MctsBot.value_unit`), from the mover's point of view: the mover's
mean reward in [0, 1] over the iterations through the action (a win counts 1, a loss
0, a draw ``1 / k`` to each of its ``k`` winners), or, when the MCTS-Solver proved the
action, its exact reward: 1 a proven win, 0 a proven loss, ``1 / k`` a proven draw. An
action that ends the game has its exact reward whether or not the search tried it; any
other action the search never tried gets the mean of the whole search. An unproven mean is
reported within [0.001, 0.999], so that 1 and 0 always mean proven (see
:meth:`MctsBot.proven`). Every legal action is
listed: a proven win first, then by visits, proven losses last; the principal
variation is the action and the most visited line below it. With 3 or 4 players the
value is the mover's own, and :attr:`RankedAction.seat_values
<shiftago.engine.bot.RankedAction.seat_values>` holds every seat's value (seat order,
each from that seat's point of view); :meth:`MctsBot.analyse_vector` (and
:attr:`MctsBot.last_values` after :meth:`~MctsBot.analyse`) give these vectors for 2
players too.

A bot with a ``contempt`` counts a draw at the contempt for its own seat, instead of its
share, in the searches of the actions it plays (:meth:`MctsBot.choose`) in Express with
``contempt_players`` players (3 or 4); so the values of a game's ``info`` lines count
its draws so, never those of an analysis (:meth:`MctsBot.analyse`, a review, the
analysis board).

The search is deterministic under an iteration limit: the same seed, state and
iterations give the same analysis. The random numbers come from the seed and the
position, so the answer does not depend on what the bot was asked before.
"""

from __future__ import annotations

import random
import time

from shiftago.core import Action, Rules, State, Variant
from shiftago.engine import kernel
from shiftago.engine.bot import (
    NO_LIMITS,
    Analysis,
    Bot,
    Limits,
    Progress,
    RankedAction,
    smaller,
)
from shiftago.engine.mcts import (
    DEFAULT_C,
    DEFAULT_MAX_NODES,
    MULTI_PLAYER_C,
    PLAIN_C,
    Mcts,
    MctsResult,
)
from shiftago.engine.timing import budget

#: ``blocking`` for blocking playouts in every action of a playout (a game is shorter).
EVERY_ACTION = 1_000
#: Iterations when neither the bot nor the caller sets a limit.
DEFAULT_ITERATIONS = 50_000
#: The range of an unproven mean as the bot reports it, so that 0 and 1 mean proven.
UNPROVEN_MIN = 0.001
UNPROVEN_MAX = 0.999


class MctsBot(Bot):
    """UCT with the MCTS-Solver (``solver=True``, the default), or plain UCT
    (``solver=False``: no solver, plain random playouts and ``c = sqrt(2)``, the
    comparison baseline).

    ``iterations`` is the bot's own limit (its level); the caller's :class:`Limits` can
    only lower it. ``c`` is the exploration constant (by default
    :data:`~shiftago.engine.mcts.DEFAULT_C` with the solver, or
    :data:`~shiftago.engine.mcts.MULTI_PLAYER_C` with 3-4 players;
    :data:`~shiftago.engine.mcts.PLAIN_C` without), ``greedy`` the playout policy
    (:mod:`shiftago.engine.mcts.rollout`: a win at once ends an Express playout, the
    longest line worth points is made and scored in Expert and Extreme; by default on
    with the solver, off without; they are the stronger policy in every variant, see
    docs/strength.md, "Figures behind the constants"), ``blocking`` the number of actions at
    the start of each greedy playout in which, in Express with 3-4 players, the mover
    also stops the next seat's win at once (0: none; :data:`EVERY_ACTION`: all, the top
    level's choice; docs/strength.md, "Blocking playouts"), ``guard`` the guarded expansions of
    :mod:`shiftago.engine.mcts.knowledge` (3-4 players: no child that loses at
    once), ``horizon``, ``scale`` and ``reach`` the playouts of 3-4 player Expert cut
    after ``horizon`` actions and valued by the points
    (:mod:`shiftago.engine.mcts.horizon`; 0: to the end, as in every other game and at
    every level: docs/strength.md, "3 and 4 players in Expert (issue 52)"),
    ``fitted_horizon`` the playouts of the 3-4 player games of ``fitted_variants`` cut
    after that many actions and valued by the fitted evaluation instead
    (:mod:`shiftago.engine.mcts.seat_eval`; 0: none), ``contempt`` what a draw is
    worth to the bot's own seat when it plays Express with ``contempt_players`` players
    (None: its share; module docstring), ``max_nodes`` the tree's memory cap, ``reuse``
    a search limited by time alone starting from the last search's tree
    (:mod:`shiftago.engine.mcts.reuse`)."""

    name = "mcts"
    value_unit = (
        "the mover's mean reward in [0,1] (win 1, loss 0, a draw 1/k to each of its k "
        "winners); proven: 1 a win, 0 a loss, 1/k a draw"
    )
    #: A tenth of a win in expected reward: the review's "mistake".
    mistake_threshold = 0.1

    def __init__(
        self,
        seed: int | None = None,
        *,
        iterations: int | None = None,
        solver: bool = True,
        name: str | None = None,
        c: float | None = None,
        greedy: bool | None = None,
        blocking: int = 0,
        guard: bool = False,
        horizon: int = 0,
        scale: float = 0.0,
        reach: float = 0.0,
        fitted_horizon: int = 0,
        fitted_variants: frozenset[Variant] = frozenset(Variant),
        contempt: float | None = None,
        contempt_players: frozenset[int] = frozenset({3, 4}),
        max_nodes: int = DEFAULT_MAX_NODES,
        reuse: bool = False,
    ) -> None:
        self.seed: int = seed if seed is not None else random.SystemRandom().randrange(2**63)
        if iterations is not None and iterations < 1:
            raise ValueError(f"the iterations must be at least 1, not {iterations}")
        self.iterations = iterations
        self.solver = solver
        if name is not None:
            self.name = name
        #: The exploration constant for 2 players and for 3-4 (the same when ``c`` is given).
        self.c = (DEFAULT_C if solver else PLAIN_C) if c is None else c
        self.multi_player_c = MULTI_PLAYER_C if c is None and solver else self.c
        self.greedy = solver if greedy is None else greedy
        self.mcts = Mcts(
            c=self.c,
            solver=solver,
            greedy=self.greedy,
            blocking=blocking,
            guard=guard,
            scale=scale,
            reach=reach,
            max_nodes=max_nodes,
            reuse=reuse,
        )
        #: The horizon of the playouts in 3-4 player Expert (0: played to the end).
        self.horizon = horizon
        #: The horizon of the playouts with 3-4 players valued by the fitted evaluation
        #: (0: none).
        self.fitted_horizon = fitted_horizon
        self.fitted_variants = fitted_variants
        if contempt is not None and not 0.0 <= contempt <= 1.0:
            raise ValueError(f"the contempt is a reward from 0 to 1, not {contempt}")
        #: What a draw is worth to the bot's seat in the 3-4 player Express it plays.
        self.contempt = contempt
        self.contempt_players = contempt_players
        #: The last search's result (for benchmarks and tests).
        self.last: MctsResult | None = None
        #: After :meth:`analyse`: each action's value for every seat, in its order.
        self.last_values: list[tuple[float, ...]] = []

    def cuts_fitted(self, rules: Rules) -> bool:
        """Whether this bot's playouts in games of ``rules`` stop at the fitted horizon."""
        fitted = self.fitted_horizon > 0 and rules.variant in self.fitted_variants
        return fitted and rules.players > 2

    def blocks(self, rules: Rules) -> bool:
        """Whether this bot's playouts in games of ``rules`` block the next seat's win
        (3-4 player Express, where asked)."""
        return self.mcts.blocking > 0 and rules.players > 2 and rules.variant is Variant.EXPRESS

    def choose(self, state: State, limits: Limits = NO_LIMITS) -> Action:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if state.players in self.contempt_players and state.rules.variant is Variant.EXPRESS:
            self.mcts.contempt = self.contempt
        try:
            return super().choose(state, limits)
        finally:
            self.mcts.contempt = None

    def analyse(self, state: State, limits: Limits = NO_LIMITS) -> Analysis:
        return [ranked for ranked, _ in self.analyse_vector(state, limits)]

    def analyse_vector(
        self, state: State, limits: Limits = NO_LIMITS
    ) -> list[tuple[RankedAction, tuple[float, ...]]]:
        """As :meth:`analyse`, each action with its value for every seat (seat order;
        the mover's value is the one in the :class:`RankedAction`)."""
        started = time.perf_counter()
        self.last_values = []
        if state.is_over:
            return []
        iterations = smaller(self.iterations, limits.nodes)
        # a tree has no depths to stop between: a clock gives it its target time
        time_budget = budget(limits)
        movetime_ms = None if time_budget is None else time_budget.target_ms
        if iterations is None and movetime_ms is None and not limits.infinite:
            iterations = DEFAULT_ITERATIONS
        seed = random.Random(f"mcts {self.seed} {state.position()}").randrange(2**63)
        self.mcts.c = self.multi_player_c if state.players > 2 else self.c
        self.mcts.horizon = 0
        if self.cuts_fitted(state.rules):
            self.mcts.horizon = self.fitted_horizon
        elif state.players > 2 and state.rules.variant is Variant.EXPERT:
            self.mcts.horizon = self.horizon
        on_progress = None
        reported = [0]  # the iterations of the last report
        if limits.progress is not None:
            report = limits.progress

            def on_progress(so_far: MctsResult, final: bool = False) -> None:
                reported[0] = so_far.iterations
                lines = tuple(ranked for ranked, _ in self._ranking(so_far, state))
                report(
                    Progress(
                        len(lines[0].pv),
                        lines[0].value,
                        _proven(state, lines[0]),
                        so_far.iterations,
                        so_far.seconds,
                        lines,
                        final,
                    )
                )

        result = self.mcts.search(
            kernel.from_state(state),
            seed,
            iterations=iterations,
            movetime_ms=movetime_ms,
            started=started,
            stop=limits.stop,
            on_progress=on_progress,
        )
        if on_progress is not None and result.iterations != reported[0]:
            on_progress(result, final=True)
        self.last = result
        pairs = self._ranking(result, state)
        self.last_values = [values for _, values in pairs]
        return pairs

    @staticmethod
    def _ranking(result: MctsResult, state: State) -> list[tuple[RankedAction, tuple[float, ...]]]:
        """The search's actions with their values, best first. An action that ends the
        game gets its exact reward even where the search never tried it (the solver
        stops at the first proven win, and an untried action would get the search's
        mean), so that two winning actions both read as proven wins."""
        players = state.players
        pairs = []
        for code, values, proof, pv in zip(
            result.codes, result.values, result.proofs, result.pvs, strict=True
        ):
            if not proof:
                ending = state.after(kernel.to_action(code, players)).outcome
                if ending is not None:
                    values, pv = ending.returns(), [code]
                else:
                    values = tuple(min(max(v, UNPROVEN_MIN), UNPROVEN_MAX) for v in values)
            ranked = RankedAction(
                kernel.to_action(code, players),
                values[result.mover],
                tuple(kernel.to_action(c, players) for c in pv),
                values if players > 2 else None,
            )
            pairs.append((ranked, values))
        # proven wins first and proven losses last, each group in the search's order
        pairs.sort(key=lambda pair: 0 if pair[0].value == 1 else 2 if pair[0].value == 0 else 1)
        return pairs

    def proven(self, value: float) -> int:
        return 1 if value == 1 else -1 if value == 0 else 0

    def expectation(self, value: float, rules: Rules) -> float:
        # The unit is already an expected score: a mean reward, or a proven one.
        return min(max(float(value), 0.0), 1.0)

    def value_of(self, expectation: float, rules: Rules) -> float | None:
        # the expected score itself, kept off 0 and 1, which would read as proven
        return min(max(float(expectation), UNPROVEN_MIN), UNPROVEN_MAX)


def _proven(state: State, line: RankedAction) -> int:
    """``Progress.proven`` of a line: ``+n`` or ``-n`` when its value is a proven win or
    loss (1 or 0) and its principal variation ends the game after ``n`` actions; 0 for
    any other (a line the solver proved from a position it did not expand is shorter
    than the game, and its length is not the distance to the end)."""
    if line.value not in (0.0, 1.0):
        return 0
    after = state
    for action in line.pv:
        if after.is_over:
            return 0
        after = after.after(action)
    if not after.is_over:
        return 0
    return len(line.pv) if line.value == 1.0 else -len(line.pv)
