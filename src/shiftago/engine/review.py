"""Reviewing a game: a bot's judgement of every action played, and the mistakes marked.

:func:`review_game` asks a bot to analyse the position before each action and compares
the action played with the bot's best. Every value is from the point of view of the
seat that acted (the mover), in the bot's :attr:`~.bot.Bot.value_unit`, whatever the
number of players. :func:`classify` names what an action lost:

* ``??`` (:data:`BLUNDER`): the action throws away a proven result (by
  :meth:`.bot.Bot.proven`): it is a proven loss although the position before it was
  not lost, or it is not a proven win although the best action is one (a win missed;
  the position after it is searched too before it is called so, see :func:`_kept_win`);
* ``?`` (:data:`MISTAKE`): otherwise, its value is worse than the best action's by more
  than the threshold (by default the bot's :attr:`~.bot.Bot.mistake_threshold`);
* ``?!`` (:data:`INACCURACY`): worse by more than half the threshold;
* ``""`` (:data:`GOOD`): anything else, the best action itself included.

Each position is searched on its own, so a search may miss a proof that its neighbour
found; :func:`iter_review` makes neighbours agree (:func:`agree`): a win called
missed is kept when the next position proves it still the mover's, and an action of a
seat whose position the previous review proved lost, with the same seat to act again
(a scoring's extra action), throws nothing away.

This module computes; it never prints. The command line's ``shiftago analyse`` and
any other interface only format its :class:`PlyReview` values.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from typing import Final

from shiftago.core import Action, State
from shiftago.engine.bot import NO_LIMITS, Analysis, Bot, Limits, RankedAction

BLUNDER: Final = "??"
MISTAKE: Final = "?"
INACCURACY: Final = "?!"
GOOD: Final = ""

#: The marks and their names, worst first.
MARKS: Final[dict[str, str]] = {
    BLUNDER: "blunder",
    MISTAKE: "mistake",
    INACCURACY: "inaccuracy",
}


@dataclass(frozen=True)
class PlyReview:
    """The judgement of one action of a game.

    ``number`` counts the actions from 1; ``state`` is the position before the action,
    ``seat`` the seat that played it. ``played`` is the bot's entry for the action
    (None if the bot's analysis left it out), ``best`` its best action there and
    ``loss`` how much worse the action played is (0 for the best; None when unknown).
    """

    number: int
    state: State
    seat: int
    action: Action
    played: RankedAction | None
    best: RankedAction
    loss: float | None
    mark: str

    @property
    def value(self) -> float | None:
        """The value of the action played, from the mover's point of view."""
        return None if self.played is None else self.played.value

    @property
    def is_best(self) -> bool:
        return self.loss == 0


def classify(bot: Bot, best: float, played: float, threshold: float) -> str:
    """The mark of an action worth ``played`` where the best action is worth ``best``."""
    best_proves, played_proves = bot.proven(best), bot.proven(played)
    if played_proves < 0 <= best_proves or best_proves > 0 >= played_proves:
        return BLUNDER
    loss = best - played
    if loss > threshold:
        return MISTAKE
    if loss > threshold / 2:
        return INACCURACY
    return GOOD


def review_position(
    bot: Bot,
    state: State,
    action: Action,
    *,
    number: int = 1,
    limits: Limits = NO_LIMITS,
    threshold: float | None = None,
) -> PlyReview:
    """The review of ``action`` played in ``state`` (which must not be over); the
    threshold defaults to the :attr:`~.bot.Bot.mistake_threshold` of the bot that plays
    the game (:meth:`~.bot.Bot.for_rules`). ``bot`` itself analyses, so that a level
    searches its own budget for the game."""
    judge = bot.for_rules(state.rules)
    if threshold is None:
        threshold = judge.mistake_threshold
    action = state.validate(action)  # the canonical spelling, as the bots report it
    ranked: Analysis = bot.analyse(state, limits)
    if not ranked:
        raise ValueError("the game is over: there is no action to review")
    best = ranked[0]
    played = next((r for r in ranked if r.action == action), None)
    if played is None:
        return PlyReview(number, state, state.turn, action, None, best, None, GOOD)
    if judge.proven(best.value) > 0 >= judge.proven(played.value) and action != best.action:
        played = _kept_win(bot, judge, state, played, limits) or played
    if judge.proven(played.value) < 0 == judge.proven(best.value) and action != best.action:
        best = _lost_anyway(bot, judge, state, best, limits) or best
    loss = max(0.0, best.value - played.value)
    mark = GOOD if action == best.action else classify(judge, best.value, played.value, threshold)
    return PlyReview(number, state, state.turn, action, played, best, loss, mark)


def _value_for(seat: int, best: RankedAction, mover: int, players: int) -> float | None:
    """The value for ``seat`` of a position whose ``mover``'s best action is ``best``: its
    own value, the seat's entry of its seat values, or the 2-player mover's negated;
    None where the bot judged for the mover only."""
    if mover == seat:
        return best.value
    if best.seat_values is not None:
        return best.seat_values[seat]
    return -best.value if players == 2 else None


def _searched_after(
    bot: Bot, judge: Bot, state: State, ranked: RankedAction, limits: Limits, proof: int
) -> RankedAction | None:
    """``ranked`` (an action of ``state``) with the value of the position after it,
    where a search there proves ``proof`` (1: a win, -1: a loss) for its mover; else
    None. The value is then that of the position after it, one action nearer the end,
    and the line goes on with that search's."""
    seat = state.turn
    after = state.after(ranked.action)
    if after.is_over:
        return None
    answers = bot.analyse(after, limits)
    if not answers:
        return None
    reply = answers[0]
    value = _value_for(seat, reply, after.turn, state.rules.players)
    if value is None or judge.proven(value) != proof:
        return None
    return RankedAction(ranked.action, value, (ranked.action, *reply.pv), reply.seat_values)


def _kept_win(
    bot: Bot, judge: Bot, state: State, played: RankedAction, limits: Limits
) -> RankedAction | None:
    """``played`` proven won by a search of the position after it; else None.

    A search proves its best action's win, but may leave another action at a bound or
    a heuristic value (a cut, a reduction, too few playouts) although it wins too, only
    later. Before calling such an action a win missed, the position after it is
    searched: if the mover still has a proven win there, the action kept it."""
    return _searched_after(bot, judge, state, played, limits, 1)


def _lost_anyway(
    bot: Bot, judge: Bot, state: State, best: RankedAction, limits: Limits
) -> RankedAction | None:
    """``best`` proven lost by a search of the position after it; else None.

    The mirror of :func:`_kept_win`: a proven loss played where the search's best was
    not proven lost reads as a blunder, yet the best may lose too, only later (a walk
    saw "37. Tb??" beside a best of 39% that the analysis board proved lost). Before
    calling the action a loss thrown away, the position after the best is searched: if
    its mover is proven lost there, the position was lost whatever it played."""
    return _searched_after(bot, judge, state, best, limits, -1)


def review_game(
    bot: Bot,
    states_and_actions: Iterable[tuple[State, Action]],
    limits: Limits = NO_LIMITS,
    threshold: float | None = None,
) -> list[PlyReview]:
    """One :class:`PlyReview` per action: each action with the state it was played in."""
    return list(iter_review(bot, states_and_actions, limits, threshold))


def iter_review(
    bot: Bot,
    states_and_actions: Iterable[tuple[State, Action]],
    limits: Limits = NO_LIMITS,
    threshold: float | None = None,
) -> Iterator[PlyReview]:
    """:func:`review_game` one action at a time, for callers that show progress."""
    if threshold is not None and threshold < 0:
        raise ValueError(f"the threshold must not be negative, not {threshold}")
    held: PlyReview | None = None  # each review waits for the next, which may mend it
    for number, (state, action) in enumerate(states_and_actions, 1):
        review = review_position(
            bot, state, action, number=number, limits=limits, threshold=threshold
        )
        if held is not None:
            judge = bot.for_rules(state.rules)
            limit = judge.mistake_threshold if threshold is None else threshold
            held, review = agree(judge, held, review, limit)
            yield held
        held = review
    if held is not None:
        yield held


def agree(
    judge: Bot, before: PlyReview, after: PlyReview, threshold: float
) -> tuple[PlyReview, PlyReview]:
    """``before`` and ``after`` (the reviews of two actions in a row) made to agree on
    what the searches proved.

    A win called missed at ``before`` is kept where the position after it (``after``'s)
    is proven won for the same seat: the action is marked by that value. A blunder at
    ``after`` (a proven loss played where the best was not proven lost) is none where
    ``before`` proved its seat lost and that seat acts again at ``after``: nothing the
    seat does can lose a lost position."""
    seat = before.seat
    if before.mark == BLUNDER and before.played is not None and judge.proven(before.best.value) > 0:
        kept = _value_for(seat, after.best, after.seat, before.state.rules.players)
        if kept is not None and judge.proven(kept) > 0:
            played = replace(before.played, value=kept)
            before = replace(
                before,
                played=played,
                loss=max(0.0, before.best.value - kept),
                mark=classify(judge, before.best.value, kept, threshold),
            )
    lost = judge.proven(before.best.value) < 0 and after.seat == seat
    if lost and after.mark == BLUNDER and judge.proven(after.best.value) >= 0:
        after = replace(after, mark=GOOD)
    return before, after
