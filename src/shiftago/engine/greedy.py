"""The baseline bot: win at once, else stop the next player's immediate win, else score.

It looks one action ahead for itself and one for the next seat to act, which is enough
to never miss a win in one and never allow a loss in one that can be avoided. Every
stronger bot has to beat it clearly, so it is level 1 of :mod:`shiftago.engine.levels`.

Value unit (:attr:`GreedyBot.value_unit`), from the mover's point of view:

* ``+1000`` (:data:`WIN`): the action wins at once (Express: a winning line; Expert and
  Extreme: a scoring that reaches 10 points, or an insertion whose scoring line does),
  or ends the game with the mover as the only winner;
* ``-1000`` (:data:`LOSS`): after it the next seat to act can win at once, or it ends
  the game and the mover is not among the winners;
* ``0`` for an action that ends the game in a draw the mover shares;
* otherwise the points it scores (a scoring) or sets up (an insertion that makes a
  scoring line: the points of its best scoring), so ``0`` for a quiet insertion.

In the player counts of its ``watches_all`` (3 players at level 2) it also looks at the
seats after the next one: among equal values it prefers the action after which fewer of
them could win at once (as if it were their turn), since the seats between may not stop
them (a beginner never does; docs/strength.md, "The levels with 3 players (Express)").
Then it prefers the action that leaves the mover's own marbles in the longest line, then
with the most marbles in lines of two or more (this also picks the end marble to keep
with 3-4 players), and breaks the remaining ties at random. The
random numbers come from a generator seeded with the bot's seed and the position, so
the same seed and the same state always give the same choice, however often it is
asked and whatever it was asked before.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping

from shiftago.core import Action, Phase, Rules, Scoring, State
from shiftago.core.geometry import runs
from shiftago.engine.bot import NO_LIMITS, Analysis, Bot, Limits, RankedAction, logistic

WIN = 1000
LOSS = -1000
#: The points at which :meth:`GreedyBot.expectation` gives the mover about 0.73 (a
#: logistic of the points over this scale): a judgement, not a fit, as the bot sees one
#: action ahead only (docs/analysis.md).
POINT_SCALE = 5.0
#: The score that wins Expert and Extreme (RULES.md section 5).
_TARGET = 10


class GreedyBot(Bot):
    """One-ply greedy play with a check of the next player's immediate wins.

    ``limits.depth == 1`` turns the check of the next player off; ``nodes`` bounds the
    states it looks at and ``movetime_ms`` the time it spends on that check (the best
    candidates are checked first, so a cut-off leaves the likely choice checked).
    """

    name = "greedy"
    value_unit = (
        "points: +1000 wins at once, -1000 lets the next player win at once, "
        "otherwise the points the action scores or sets up"
    )

    def __init__(
        self,
        seed: int | None = None,
        *,
        looks_ahead: bool = True,
        watches_all: frozenset[int] = frozenset(),
        notices: Mapping[int, float] | None = None,
    ) -> None:
        self.seed: int = seed if seed is not None else random.SystemRandom().randrange(2**63)
        #: False: never check the next player's replies (a beginner who sees only
        #: their own lines), as ``limits.depth == 1`` does for one call.
        self.looks_ahead = looks_ahead
        #: The player counts in which it also counts the seats after the next that could
        #: win at once after an action, and prefers fewer (with ``looks_ahead``; a count
        #: of 2 changes nothing: there is no seat after the next).
        self.watches_all = watches_all
        #: By player count, the share of positions in which it checks the next player's
        #: replies (with ``looks_ahead``; a count not named: every position). Under 1, a
        #: player who sometimes misses a threat; which positions are drawn from the seed
        #: and the position, as the tie-breaks are.
        self.notices: dict[int, float] = dict(notices or {})

    def proven(self, value: float) -> int:
        return 1 if value == WIN else -1 if value == LOSS else 0

    def expectation(self, value: float, rules: Rules) -> float:
        proven = self.proven(value)
        if proven:
            return 1.0 if proven > 0 else 0.0
        return logistic(value, POINT_SCALE)

    def analyse(self, state: State, limits: Limits = NO_LIMITS) -> Analysis:
        start = time.monotonic()
        legal = state.legal_actions()
        if not legal:
            return []
        rng = random.Random(f"greedy {self.seed} {state.position()}")
        mover = state.turn
        entries: list[_Entry] = []
        for action in legal:
            after = state.after(action)
            value, pv = _own_value(state, action, after)
            entries.append(_Entry(action, after, value, pv, _shape(after.boards[mover])))
            entries[-1].tiebreak = rng.random()
        entries.sort(key=_Entry.key, reverse=True)

        looking = self.looks_ahead and (limits.depth is None or limits.depth >= 2)
        if looking and self._notices(state):
            deadline = None
            if limits.movetime_ms is not None:
                deadline = start + limits.movetime_ms / 2000  # half: leave time to answer
            nodes_left = None if limits.nodes is None else limits.nodes - len(legal)
            for entry in entries:
                if entry.value in (WIN, LOSS) or entry.after.phase is not Phase.INSERT:
                    continue
                if entry.after.turn == mover:
                    continue  # the mover scored and moves again: nobody else acts next
                if (deadline is not None and time.monotonic() >= deadline) or (
                    nodes_left is not None and nodes_left <= 0
                ):
                    break
                reply = _immediate_win(entry.after)
                if nodes_left is not None:
                    nodes_left -= len(entry.after.legal_actions())
                if reply is not None:
                    entry.value = LOSS
                    entry.pv = (entry.action, *reply)
                elif state.players in self.watches_all:
                    entry.threats = _later_threats(entry.after, mover)
            entries.sort(key=_Entry.key, reverse=True)
        return [RankedAction(e.action, e.value, e.pv) for e in entries]

    def _notices(self, state: State) -> bool:
        """Whether it looks at the next player's replies in this position."""
        share = self.notices.get(state.players, 1.0)
        if share >= 1:
            return True
        return random.Random(f"notice {self.seed} {state.position()}").random() < share


class _Entry:
    """A legal action while it is being judged."""

    __slots__ = ("action", "after", "pv", "shape", "threats", "tiebreak", "value")

    def __init__(
        self,
        action: Action,
        after: State,
        value: int,
        pv: tuple[Action, ...],
        shape: tuple[int, int],
    ) -> None:
        self.action = action
        self.after = after
        self.value = value
        self.pv = pv
        self.shape = shape
        #: How many seats after the next could win at once after the action.
        self.threats = 0
        self.tiebreak = 0.0

    def key(self) -> tuple[int, int, tuple[int, int], float]:
        return (self.value, -self.threats, self.shape, self.tiebreak)


def _own_value(state: State, action: Action, after: State) -> tuple[int, tuple[Action, ...]]:
    """What ``action`` brings the mover by itself, and the line of play that shows it."""
    mover = state.turn
    if after.outcome is not None:
        winners = after.outcome.winners
        if winners == (mover,):
            return WIN, (action,)
        return (LOSS if mover not in winners else 0), (action,)
    if isinstance(action, Scoring):
        # Legal actions come from the scoring options, so they match them exactly.
        points = next(o.points for o in state.scoring_options() if o.action == action)
        return points, (action,)
    if after.phase is Phase.SCORE:
        best = max(after.scoring_options(), key=lambda o: o.points)
        if after.scores[mover] + best.points >= _TARGET:
            return WIN, (action, best.action)
        return best.points, (action, best.action)
    return 0, (action,)


def _immediate_win(state: State) -> tuple[Action, ...] | None:
    """A way for the seat to act in ``state`` to win at once, or None."""
    seat = state.turn
    for reply in state.legal_actions():
        after = state.after(reply)
        if after.outcome is not None:
            if after.outcome.winners == (seat,):
                return (reply,)
            continue
        if after.phase is Phase.SCORE and after.turn == seat:
            for option in after.scoring_options():
                if after.scores[seat] + option.points >= _TARGET:
                    return (reply, option.action)
    return None


def _later_threats(after: State, mover: int) -> int:
    """How many seats other than ``mover`` and the next to act (``after.turn``) could win
    at once in ``after`` if it were their turn."""
    count = 0
    for seat in range(after.players):
        if seat in (mover, after.turn) or after.supplies[seat] == 0:
            continue
        turn = State(
            after.rules, after.boards, seat, Phase.INSERT, after.supplies, after.scores, after.skips
        )
        if _immediate_win(turn) is not None:
            count += 1
    return count


def _shape(bits: int) -> tuple[int, int]:
    """How well a seat's marbles hang together: longest line, marbles in lines of 2+."""
    lines = runs(bits, 2)
    if not lines:
        return (1 if bits else 0, 0)
    in_lines = 0
    for cells in lines:
        for cell in cells:
            in_lines |= 1 << cell
    return (max(len(cells) for cells in lines), in_lines.bit_count())
