"""The ladder of playing levels, weakest first, and the bot that plays each.

A level's strength is fixed by what it searches (depth, nodes, iterations), never by
time, so it plays the same on any machine, and with the same seed it plays the same
actions. The two bottom levels are the greedy bot, first with a look at the next
player's immediate wins in four positions of five with 2 players and none with 3-4,
then with that look always (with 3 players also at the immediate wins of the seat after
it, which a beginner between them never stops). Above them:

* 2 players: the alpha-beta search (:mod:`shiftago.engine.alphabeta`) at growing
  depths, the top one deepening with late move reductions until its node budget is
  spent;
* 3 and 4 players: the MCTS with vector values (:mod:`shiftago.engine.mcts_bot`) at
  growing iteration counts, the multi-player search chosen by measurement
  (``docs/strength.md``); the top one's expansions make no child that loses at once
  (:mod:`shiftago.engine.mcts.knowledge`);
* except that a level may play the MCTS with 2 players too, in the variants of its
  :attr:`Level.mcts_with_two`; none does now: the top level played it in Extreme until
  the alpha-beta search with Extreme's tuned evaluation beat it (``docs/strength.md``).

The nodes and iterations are set for Express; Expert and Extreme search a share of them
(:data:`NODE_SHARE`, :data:`ITERATION_SHARE`, :data:`LOW_ITERATION_SHARE`,
:func:`scaled_budget`), as a node or a playout costs more there, so that the top level
answers in about half a second in every variant. With 4 players the low levels of
Express search more (:data:`FOUR_PLAYER_LOW_ITERATION_SHARE`), to stay above the greedy
bot.

The top level plays the first actions from the opening book (:mod:`shiftago.engine.book`)
where the book has a sound choice, unless told not to (:attr:`LevelBot.own_book`, the
engine protocol's ``OwnBook`` option); only its :meth:`LevelBot.choose` does, never its
analysis, so a review judges the book's actions like any other. In 3-4 player Express it
first looks for a win that the paranoid search (:mod:`shiftago.engine.multi_search`,
its sure-win rule) proves against any play of the other seats within
:data:`WIN_CHECK_NODES` nodes: such short forced wins are what a search of tens of
thousands of MCTS iterations can miss.

The depths are those of matches in 2-player Express that keep each level at least 150
Elo above the one below it; the depths left out were too close to a neighbour
(``docs/strength.md``, "The ladder of levels").
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, replace
from typing import Final

from shiftago.core import Action, Rules, State, Variant
from shiftago.engine.book.book import BookLine
from shiftago.engine.book.shipped import shipped_book
from shiftago.engine.bot import (
    NO_LIMITS,
    Analysis,
    Bot,
    Limits,
    Progress,
    RankedAction,
    smaller,
)
from shiftago.engine.greedy import GreedyBot
from shiftago.engine.timing import budget


@dataclass(frozen=True)
class Level:
    """One rung of the ladder: its number, its name for people, and what it searches.

    ``depth``/``nodes`` bound the 2-player alpha-beta search (``reductions``: with late
    move reductions; ``tuned``: valuing positions by the tuned evaluation),
    ``iterations`` the 3-4 player MCTS; ``greedy`` levels play the greedy bot
    (``looks_ahead``, ``notices`` and ``watches_all`` as :class:`GreedyBot` names them). ``nodes``
    and ``iterations`` are the Express budgets (see :data:`NODE_SHARE`). In the variants
    of ``mcts_with_two`` the level plays the MCTS with 2 players as well; with ``guard``
    its MCTS makes the guarded expansions of :mod:`shiftago.engine.mcts.knowledge`, and
    in the 3-4 player games of ``fitted_variants`` its playouts stop after
    ``fitted_horizon`` actions, valued by :mod:`shiftago.engine.mcts.seat_eval`; with
    ``blocking`` its playouts of 3-4 player Express block the next seat's win at once
    (:data:`~shiftago.engine.kernel.policy.BLOCKING`). A
    level that ``spends_time`` (the top one) keeps its budget only for searches given no
    limit: given a ``movetime`` or a clock it searches as long as the time manager lets
    it, given ``nodes`` or (alpha-beta) a ``depth`` that far. A level with
    ``opening_book`` plays the book's choice where the shipped book has one, at once;
    one with a ``contempt`` plays for more than a draw in Express with
    ``contempt_players`` players."""

    number: int
    name: str
    depth: int | None = None
    nodes: int | None = None
    iterations: int | None = None
    greedy: bool = False
    looks_ahead: bool = True
    #: (player count, share) pairs: :attr:`GreedyBot.notices` (a tuple, so that a level
    #: pickles and hashes).
    notices: tuple[tuple[int, float], ...] = ()
    watches_all: frozenset[int] = frozenset()
    reductions: bool = False
    tuned: bool = False
    mcts_with_two: frozenset[Variant] = frozenset()
    guard: bool = False
    #: Whether its MCTS keeps the last search's tree under a time limit
    #: (docs/strength.md, "The tree kept between searches").
    reuse: bool = False
    fitted_horizon: int = 0
    fitted_variants: frozenset[Variant] = frozenset()
    blocking: bool = False
    spends_time: bool = False
    opening_book: bool = False
    #: Whether it first looks for a forced win in 3-4 player Express (:data:`WIN_CHECK_NODES`).
    win_check: bool = False
    #: What a draw is worth to its own seat in the Express games of ``contempt_players``
    #: players it plays (None: its share; :class:`~shiftago.engine.mcts_bot.MctsBot`).
    contempt: float | None = None
    contempt_players: frozenset[int] = frozenset()


#: The top level's playouts in 3-4 player Expert and Extreme stop after this many actions
#: and are valued by the fitted evaluation (docs/strength.md, "A fitted evaluation for 3 and 4
#: players").
FITTED_HORIZON: Final = 2
#: A level's MCTS budget in the 3-4 player games where its playouts stop at the fitted
#: horizon, times its share there: a cut playout costs a fraction of one to the end
#: (docs/strength.md, "Figures behind the constants").
FITTED_BUDGET_FACTOR: Final = 4
#: A level's MCTS budget in 3-4 player Express where its playouts block, its share
#: divided by this: a blocking playout costs about three greedy ones (docs/strength.md,
#: "Blocking playouts").
BLOCKING_BUDGET_DIVISOR: Final = 3
#: The most nodes of the sure-win search with which a level that has ``win_check`` looks
#: for a forced win (to its own second action) before its MCTS (docs/strength.md, "A sure
#: win first").
WIN_CHECK_NODES: Final = 100_000
#: The most of a timed action's target time that the sure-win search may spend: it must
#: leave the MCTS its time and never keep an answer past a short ``movetime`` or clock
#: (docs/strength.md, "A sure win first").
WIN_CHECK_SHARE: Final = 0.25

#: What a draw is worth to the top level's own seat in the Express games of
#: :data:`CONTEMPT_PLAYERS` players it plays, instead of its share (docs/strength.md,
#: "A contempt for draws in the playouts").
DRAW_CONTEMPT: Final = 0.0
CONTEMPT_PLAYERS: Final = frozenset({3})

#: How often the beginner checks the next player's replies, by player count: it misses
#: one threat in five with 2 players, where never looking put level 2 over 500 Elo
#: above it, and never looks with 3-4, where level 2 is only just above a blind beginner
#: (docs/strength.md, "The ladder of levels (2-player Express)").
BEGINNER_NOTICES: Final = ((2, 0.8), (3, 0.0), (4, 0.0))

LADDER: Final[tuple[Level, ...]] = (
    Level(1, "beginner", greedy=True, notices=BEGINNER_NOTICES),
    Level(2, "easy", greedy=True, watches_all=frozenset({3})),
    Level(3, "novice", depth=2, iterations=1_000),
    Level(4, "casual", depth=3, iterations=3_000),
    Level(5, "club", depth=5, iterations=10_000),
    Level(6, "strong", depth=6, iterations=40_000),
    Level(
        7,
        "maximum",
        nodes=2_000_000,
        iterations=200_000,
        reductions=True,
        tuned=True,
        guard=True,
        reuse=True,
        fitted_horizon=FITTED_HORIZON,
        fitted_variants=frozenset({Variant.EXPERT, Variant.EXTREME}),
        blocking=True,
        spends_time=True,
        opening_book=True,
        win_check=True,
        contempt=DRAW_CONTEMPT,
        contempt_players=CONTEMPT_PLAYERS,
    ),
)

#: The share of the top level's budget (its nodes with 2 players, its iterations with 3-4)
#: that it searches in each variant when it has no time limit; the MCTS levels below may
#: keep more of theirs (:data:`LOW_ITERATION_SHARE`). The budgets are set for Express; a
#: node or a playout costs more in Expert and Extreme, and these shares keep the top
#: level's answer near half a second in every variant (docs/strength.md, "Figures behind
#: the constants").
NODE_SHARE: Final[dict[Variant, float]] = {
    Variant.EXPRESS: 1.0,
    Variant.EXPERT: 0.4,
    Variant.EXTREME: 0.4,
}
ITERATION_SHARE: Final[dict[Variant, float]] = {
    Variant.EXPRESS: 1.0,
    Variant.EXPERT: 0.25,
    Variant.EXTREME: 0.15,
}
#: The share of its budget that the smallest MCTS level (level 3) searches in each
#: variant; the levels between it and the top level get a share between the two
#: (:func:`scaled_budget`), so that every level stays above the one below it
#: (docs/strength.md, "Figures behind the constants").
LOW_ITERATION_SHARE: Final[dict[Variant, float]] = {
    Variant.EXPRESS: 1.0,
    Variant.EXPERT: 1.0,
    Variant.EXTREME: 0.15,
}
#: :data:`LOW_ITERATION_SHARE` with 4 players: level 3 of 4-player Express searches
#: twice its budget (a share above 1) to stay level with the greedy bot below it
#: (docs/strength.md, "Figures behind the constants").
FOUR_PLAYER_LOW_ITERATION_SHARE: Final[dict[Variant, float]] = {
    **LOW_ITERATION_SHARE,
    Variant.EXPRESS: 2.0,
}


def scaled_budget(
    full: int, low_share: float, top_share: float, smallest: int, largest: int
) -> int:
    """The part of a level's Express budget ``full`` that it searches in a variant: the
    ``smallest`` budget at ``low_share``, the ``largest`` at ``top_share``, and the ones
    between at ``low_share ** (1 - t) * top_share ** t``, ``t`` the place of ``full``
    between ``smallest`` and ``largest`` on a log scale (so the share moves
    geometrically from one end to the other)."""
    if smallest >= largest:
        t = 1.0
    else:
        t = math.log(full / smallest) / math.log(largest / smallest)
        t = min(max(t, 0.0), 1.0)
    share = float(low_share ** (1.0 - t)) * float(top_share**t)
    return max(1, round(full * share))


#: The Express budgets of the ladder, smallest first: the ends of :func:`scaled_budget`.
_NODE_BUDGETS: Final = sorted(rung.nodes for rung in LADDER if rung.nodes is not None)
_ITERATION_BUDGETS: Final = sorted(
    rung.iterations for rung in LADDER if rung.iterations is not None
)

#: (level, name) from 1 (weakest) upwards, as the engine protocol's ``levels`` lists them.
LEVELS: Final[list[tuple[int, str]]] = [(level.number, level.name) for level in LADDER]


def default_level() -> int:
    """The level played when none is asked for: the strongest."""
    return LADDER[-1].number


def level(number: int) -> Level:
    """The level ``number``; raises ``ValueError`` for a level that does not exist."""
    for rung in LADDER:
        if rung.number == number:
            return rung
    raise ValueError(f"unknown level {number}: the levels are {_range_text()}")


def level_name(number: int) -> str:
    """The name of a level; raises ``ValueError`` for a level that does not exist."""
    return level(number).name


def bot_for_level(number: int, seed: int | None = None) -> Bot:
    """A new bot playing at level ``number`` for any number of players, seeded for
    repeatable play."""
    rung = level(number)
    if rung.greedy:
        bot: Bot = GreedyBot(
            seed,
            looks_ahead=rung.looks_ahead,
            watches_all=rung.watches_all,
            notices=dict(rung.notices),
        )
        bot.name = rung.name
        return bot
    return LevelBot(rung, seed)


class LevelBot(Bot):
    """A search level: alpha-beta with 2 players (or MCTS, in the level's
    ``mcts_with_two`` variants), MCTS with 3 or 4, each under the level's own limits;
    the caller's limits can only lower them. A level with an opening book plays from it
    while ``own_book`` is true."""

    #: The option that turns the opening book on (1) and off (0), as the engine
    #: protocol's ``setoption`` names it.
    OWN_BOOK = "OwnBook"

    def __init__(self, rung: Level, seed: int | None) -> None:
        from shiftago.engine.alphabeta import AlphaBetaBot
        from shiftago.engine.mcts_bot import EVERY_ACTION, MctsBot
        from shiftago.engine.multi_search_bot import MultiSearchBot

        self.name = rung.name
        self.rung = rung
        self.own_book = rung.opening_book
        # Neither bot has a cap of its own: limits_for gives every search the level's
        # budget for its game (above the Express budget where the share is above 1),
        # and none to a timed search of a level that spends its time.
        self.alphabeta = AlphaBetaBot(
            seed,
            depth=rung.depth,
            name=rung.name,
            reductions=rung.reductions,
            tuned=rung.tuned,
        )
        self.seed: int = self.alphabeta.seed
        self.mcts = MctsBot(
            self.seed,
            name=rung.name,
            guard=rung.guard,
            blocking=EVERY_ACTION if rung.blocking else 0,
            reuse=rung.reuse,
            fitted_horizon=rung.fitted_horizon,
            fitted_variants=rung.fitted_variants,
            contempt=rung.contempt,
            contempt_players=rung.contempt_players,
        )
        self.sure_win = MultiSearchBot("sure-win") if rung.win_check else None
        with_two = ", ".join(v.value.capitalize() for v in Variant if v in rung.mcts_with_two)
        mcts_games = f"3-4 players, and 2 in {with_two}" if with_two else "3-4 players"
        ab_games = f"2 players, except in {with_two}" if with_two else "2 players"
        self.value_unit = (
            f"{ab_games}: {self.alphabeta.value_unit}; {mcts_games}: {self.mcts.value_unit}"
        )

    def for_rules(self, rules: Rules) -> Bot:
        if rules.players > 2 or rules.variant in self.rung.mcts_with_two:
            return self.mcts
        return self.alphabeta

    def budget(self, state: State) -> int | None:
        """The nodes (alpha-beta) or iterations (MCTS) this level searches in
        ``state``'s variant; None where a depth bounds it instead."""
        variant = state.rules.variant
        if self.for_rules(state.rules) is self.alphabeta:
            full, kind = self.rung.nodes, _NODE_BUDGETS
            low, top = NODE_SHARE[variant], NODE_SHARE[variant]
        else:
            full, kind = self.rung.iterations, _ITERATION_BUDGETS
            lows = FOUR_PLAYER_LOW_ITERATION_SHARE if state.players == 4 else LOW_ITERATION_SHARE
            low, top = lows[variant], ITERATION_SHARE[variant]
        if full is None:
            return None
        share = scaled_budget(full, low, top, kind[0], kind[-1])
        if self.mcts.cuts_fitted(state.rules):
            return share * FITTED_BUDGET_FACTOR
        if self.mcts.blocks(state.rules):
            return max(1, round(share / BLOCKING_BUDGET_DIVISOR))
        return share

    def limits_for(self, state: State, limits: Limits) -> Limits:
        """The caller's ``limits`` lowered to this level's budget in ``state``'s variant;
        for the top level the budget is only the default of a search the caller does
        not bound."""
        budget = self.budget(state)
        if budget is None or (self.rung.spends_time and self._bounded(state, limits)):
            return limits
        return replace(limits, nodes=smaller(limits.nodes, budget))

    def _bounded(self, state: State, limits: Limits) -> bool:
        """Whether ``limits`` end a search of ``state`` on their own: a time, a stop,
        nodes, or a depth where the search has depths (the alpha-beta's)."""
        if limits.timed or limits.infinite or limits.nodes is not None:
            return True
        return limits.depth is not None and self.for_rules(state.rules) is self.alphabeta

    @property
    def option_values(self) -> dict[str, int]:
        """The options :meth:`set_option` takes, with their values now."""
        return {self.OWN_BOOK: int(self.own_book)} if self.rung.opening_book else {}

    def set_option(self, name: str, value: int) -> None:
        if name.lower() != self.OWN_BOOK.lower() or not self.rung.opening_book:
            super().set_option(name, value)  # refuses a name this level does not have
            return
        if value not in (0, 1):
            raise ValueError(f"{self.OWN_BOOK} is 1 (on) or 0 (off), not {value}")
        self.own_book = bool(value)

    def book_line(self, state: State) -> BookLine | None:
        """The opening book's choice at ``state`` (its action and how it fared) where
        this level plays from the book and the shipped book has a sound one; else None
        (the level searches)."""
        if not self.own_book:
            return None
        book = shipped_book(state.rules.variant, state.players)
        if book is None:
            return None
        # the line Book.choice names, read once with its entry
        return next((line for line in book.lines(state) if line.chosen), None)

    def _report_book(self, state: State, line: BookLine, limits: Limits) -> None:
        """Tell ``limits.progress`` of a book answer: depth 0 and no nodes (nothing was
        searched), the book's expected score in the unit of the search it stands for
        (a proof as the edge of that unit), the action alone for its line."""
        if limits.progress is None:
            return
        entry = line.entry
        expected = entry.value if entry.value is not None else 0.5
        if entry.proven:
            expected = 1.0 if entry.proven > 0 else 0.0
        value = self.for_rules(state.rules).value_of(expected, state.rules)
        ranked = RankedAction(line.action, expected if value is None else value, (line.action,))
        limits.progress(Progress(0, ranked.value, 0, 0, 0.0, (ranked,), final=True))

    def forced_win(self, state: State, limits: Limits) -> RankedAction | None:
        """A win that the sure-win search proves for the mover against any play of the
        other seats within :data:`WIN_CHECK_NODES` nodes, where this level looks for one
        (3-4 player Express), valued as the MCTS values a proven win; else None."""
        if self.sure_win is None or state.players < 3 or state.rules.variant is not Variant.EXPRESS:
            return None
        # the mover's second action is the deepest a win can come within this depth; a
        # timed action leaves the check a share of its time
        time_budget = budget(limits)
        check = Limits(
            depth=state.players + 1,
            nodes=WIN_CHECK_NODES,
            movetime_ms=None
            if time_budget is None
            else max(1, int(time_budget.target_ms * WIN_CHECK_SHARE)),
            stop=limits.stop,
        )
        ranked = self.sure_win.analyse(state, check)
        if not ranked or self.sure_win.proven(ranked[0].value) != 1:
            return None
        sure = tuple(1.0 if seat == state.turn else 0.0 for seat in range(state.players))
        return replace(ranked[0], value=1.0, seat_values=sure)

    def _report(self, won: RankedAction, limits: Limits, started: float) -> None:
        """Tell ``limits.progress`` of the sure win the answer is: the first depth that
        proves it is the number of actions to the win."""
        assert self.sure_win is not None
        if limits.progress is not None:
            depth, nodes = self.sure_win.last_depth, self.sure_win.last_nodes
            seconds = time.perf_counter() - started
            limits.progress(Progress(depth, 1.0, depth, nodes, seconds, (won,), final=True))

    def choose(self, state: State, limits: Limits = NO_LIMITS) -> Action:
        booked = self.book_line(state)
        if booked is not None:  # at once: the clock is spared
            self._report_book(state, booked, limits)
            return booked.action
        started = time.perf_counter()
        won = self.forced_win(state, limits)
        if won is not None:
            self._report(won, limits, started)
            return won.action
        limits = limits.after(time.perf_counter() - started)
        return self.for_rules(state.rules).choose(state, self.limits_for(state, limits))

    def analyse(self, state: State, limits: Limits = NO_LIMITS) -> Analysis:
        started = time.perf_counter()
        won = self.forced_win(state, limits)
        ranked = self.for_rules(state.rules).analyse(
            state, self.limits_for(state, limits.after(time.perf_counter() - started))
        )
        if won is None or not ranked or self.mcts.proven(ranked[0].value) == 1:
            return ranked
        # the sure win first, as sure as the search's own proven wins
        self._report(won, limits, started)
        return [won] + [line for line in ranked if line.action != won.action]


def _range_text() -> str:
    first, last = LADDER[0].number, LADDER[-1].number
    return str(first) if first == last else f"{first} to {last}"
