"""Reviewing a game: each action's value for its mover and the mistakes marked."""

from __future__ import annotations

from typing import Any

import pytest

from shiftago import Action, Game, Rules, State, Variant
from shiftago.engine.alphabeta import AlphaBetaBot
from shiftago.engine.baseline import BaselineBot
from shiftago.engine.bot import NO_LIMITS, Analysis, Bot, Limits, RankedAction
from shiftago.engine.greedy import LOSS, WIN, GreedyBot
from shiftago.engine.levels import bot_for_level
from shiftago.engine.review import (
    BLUNDER,
    GOOD,
    INACCURACY,
    MISTAKE,
    classify,
    iter_review,
    review_game,
    review_position,
)

#: Green threatens a1 and f1 at once; only pushing a green marble up (Bb-Be) saves orange.
THREAT = "express 2 7/7/7/7/7/7/1gggg2 o insert 22,18 0,0 0,0"
SAVES = {Action.parse(a) for a in ("Bb", "Bc", "Bd", "Be")}
#: Orange wins with L1 or Be; green cannot win at once after any other action.
CHANCE = "express 2 7/7/7/7/7/g6/oooo3 o insert 18,21 0,0 0,0"
WINS = {Action.parse("L1"), Action.parse("Be")}


def pairs(position: str, actions: list[str]) -> list[tuple[State, Action]]:
    game = Game(position=position)
    for action in actions:
        game.play(action)
    return list(zip(game.states, game.history, strict=False))


@pytest.mark.parametrize(
    ("best", "played", "mark"),
    [
        (0, 0, GOOD),
        (3, 0, GOOD),
        (0, LOSS, BLUNDER),  # a loss allowed in a position that was not lost
        (WIN, 0, BLUNDER),  # a proven win missed
        (WIN, LOSS, BLUNDER),
        (LOSS, LOSS, GOOD),  # lost anyway
    ],
)
def test_classify_with_the_greedy_unit(best: float, played: float, mark: str) -> None:
    assert classify(GreedyBot(1), best, played, threshold=100) == mark


@pytest.mark.parametrize(
    ("best", "played", "mark"),
    [
        (9999, 9997, GOOD),  # a longer win is still a win
        (9999, 50, BLUNDER),  # a win in one missed, nothing lost yet
        (9999, -9996, BLUNDER),
        (50, -9996, BLUNDER),
        (-9996, -9998, GOOD),  # lost anyway
    ],
)
def test_classify_with_the_alphabeta_unit(best: float, played: float, mark: str) -> None:
    assert classify(AlphaBetaBot(1), best, played, threshold=100) == mark


@pytest.mark.parametrize(
    ("loss", "mark"), [(0, GOOD), (50, GOOD), (51, INACCURACY), (100, INACCURACY), (101, MISTAKE)]
)
def test_classify_by_the_threshold(loss: float, mark: str) -> None:
    assert classify(BaselineBot(1), 40, 40 - loss, threshold=100) == mark


def review_bots() -> list[Bot]:
    return [BaselineBot(1, depth=2), GreedyBot(1), bot_for_level(5, 1)]


@pytest.mark.parametrize("bot", review_bots(), ids=lambda b: b.name)
def test_ignoring_an_immediate_threat_is_a_blunder(bot: Bot) -> None:
    reviews = review_game(bot, pairs(THREAT, ["R5", "L1"]), Limits(depth=3))
    first, second = reviews
    assert first.number == 1 and first.seat == 0 and str(first.action) == "R5"
    assert first.mark == BLUNDER
    assert first.best.action in SAVES
    assert first.value is not None and bot.for_rules(Rules()).proven(first.value) == -1
    assert first.loss is not None and first.loss > 0
    assert second.seat == 1 and second.mark == GOOD and second.is_best
    assert second.value is not None and bot.for_rules(Rules()).proven(second.value) == 1


@pytest.mark.parametrize("bot", review_bots(), ids=lambda b: b.name)
def test_missing_a_win_is_a_blunder(bot: Bot) -> None:
    (review,) = review_game(bot, pairs(CHANCE, ["R7"]), Limits(depth=2))
    assert review.mark == BLUNDER
    assert review.best.action in WINS
    assert bot.for_rules(Rules()).proven(review.best.value) == 1


@pytest.mark.parametrize(
    ("position", "action"),
    [
        # the opponent moves next, and loses whatever it does
        ("express 2 goo1oog/1go2go/gg4g/g6/5go/o2og1g/3ogoo o insert 10,10 0,0 0,0", "Be"),
        # the mover scores next (Expert), then wins
        (
            "expert 2 ggoggoo/goo2gg/gg1oggg/gg1ggoo/o2oggo/go1oooo/oooggog o insert 2,0 6,4 0,0",
            "L2",
        ),
    ],
)
def test_a_win_kept_beyond_the_search_is_no_blunder(position: str, action: str) -> None:
    """At depth 2 the action is not proven a win (its win comes later than the best
    action's), but the position after it is: it kept the win, so no mark."""
    bot = bot_for_level(5, 1)
    judge = bot.for_rules(State.from_position(position).rules)
    state = State.from_position(position)
    ranked = {str(r.action): r.value for r in bot.analyse(state, Limits(depth=2))}
    assert judge.proven(max(ranked.values())) == 1 and judge.proven(ranked[action]) == 0
    review = review_position(bot, state, Action.parse(action), limits=Limits(depth=2))
    assert review.mark == GOOD, review
    assert review.value is not None and judge.proven(review.value) == 1
    assert review.played is not None and review.played.pv[0] == Action.parse(action)


def test_the_default_threshold_is_the_bots() -> None:
    class Strict(BaselineBot):
        mistake_threshold = 0.5

    steps = pairs(THREAT, ["Bc"])
    strict, lenient = Strict(1, depth=2), BaselineBot(1, depth=2)
    (review,) = review_game(strict, steps)
    (same,) = review_game(lenient, steps)
    assert review.best == same.best and review.loss == same.loss
    assert review.loss is not None and 0.5 < review.loss < 50  # another save is a bit better
    assert review.mark == MISTAKE and same.mark == GOOD


def test_the_best_action_is_unmarked() -> None:
    bot = BaselineBot(1, depth=2)
    (review,) = review_game(bot, pairs(THREAT, ["Bc"]))
    assert review.mark == GOOD and review.loss is not None
    # another saving action may be ranked first; it is worth about the same
    assert review.best.action in SAVES


def test_values_are_from_the_movers_point_of_view_with_three_players() -> None:
    state = State.from_position("express 3 7/7/7/7/g6/b6/ooo4 o insert 19,21,21 0,0,0 0,0,0")
    game = Game(position=state)
    game.play("Ta")  # orange misses its win on a4: a blunder
    game.play("Tb")
    reviews = review_game(GreedyBot(1), zip(game.states, game.history, strict=False))
    assert [r.seat for r in reviews] == [0, 1]
    assert reviews[0].mark == BLUNDER and reviews[0].best.value == WIN


def test_a_two_player_scoring_in_either_spelling_is_found() -> None:
    state = State.from_position("expert 2 7/7/7/7/7/ooooo2/oooooo1 o score 11,22 5,0 0,0")
    review = review_position(GreedyBot(1), state, Action.parse("xe2-a2"))
    assert str(review.action) == "xa2-e2"
    assert review.played is not None and review.played.action == review.action


def test_iter_review_gives_the_same_reviews_one_at_a_time() -> None:
    game = Game(Rules(Variant.EXPRESS, 2), first=0)
    for action in ("L4", "R4", "Td", "Bd", "L3"):
        game.play(action)
    steps = list(zip(game.states, game.history, strict=False))
    bot = BaselineBot(2, depth=2)
    assert list(iter_review(bot, steps)) == review_game(bot, steps)


def test_bad_threshold_and_a_finished_game() -> None:
    with pytest.raises(ValueError, match="threshold"):
        review_game(GreedyBot(1), pairs(CHANCE, ["R7"]), threshold=-1)
    game = Game(position=CHANCE)
    game.play("L1")
    with pytest.raises(ValueError, match="over"):
        review_position(GreedyBot(1), game.state, Action.parse("L2"))


def test_every_action_that_wins_at_once_is_a_proven_win_with_three_players() -> None:
    """Green's two scorings of one line (each end kept) both reach 10 points. The MCTS
    solver stops at the first proven win and never tries the other, which must still
    read as a proven win, not as the search's mean, and is no blunder."""
    state = State.from_position(
        "expert 3 bgb2ob/b4b1/4bb1/g6/goo3o/go1o3/gobboob g score 13,17,12 6,8,4 0,0,0"
    )
    bot = bot_for_level(5, 0)
    ranked = bot.analyse(state, Limits(nodes=2_000))
    assert sorted(str(r.action) for r in ranked) == ["xa1-a4", "xa4-a1"]
    assert [r.value for r in ranked] == [1, 1]
    assert all(r.seat_values == (0.0, 1.0, 0.0) for r in ranked)
    for action in ("xa1-a4", "xa4-a1"):
        review = review_position(bot, state, Action.parse(action), limits=Limits(nodes=2_000))
        assert review.mark == "" and review.loss == 0, review


class Scripted(GreedyBot):
    """The greedy bot's unit and proofs, with the analyses a test gives it by position,
    in the order they are asked for (the last one again after that): two searches of a
    position may differ, and one may miss what another proves, as bounded searches
    with their own budgets and seeds do."""

    def __init__(self, script: dict[str, list[dict[str, float]]]) -> None:
        super().__init__(1)
        self.script = {position: list(answers) for position, answers in script.items()}

    def analyse(self, state: State, limits: Limits = NO_LIMITS) -> Analysis:
        answers = self.script.get(state.position(), [{}])  # no analysis of the others
        values = answers.pop(0) if len(answers) > 1 else answers[0]
        ranked = sorted(values.items(), key=lambda item: -item[1])
        return [RankedAction(Action.parse(a), v, (Action.parse(a),)) for a, v in ranked]


def scripted_reviews(
    position: str, actions: list[str], script: list[list[dict[str, float]]]
) -> Any:
    """The reviews of :func:`iter_review`, and of each action alone (searched anew)."""
    steps = pairs(position, actions)
    by_position = {
        state.position(): answers for (state, _), answers in zip(steps, script, strict=True)
    }
    reviews = list(iter_review(Scripted(by_position), steps))
    bot = Scripted(by_position)
    alone = [review_position(bot, state, action) for state, action in steps]
    return alone, reviews


def test_a_win_the_next_position_proves_kept_is_no_blunder() -> None:
    """A review called an action that kept a proven win a blunder: the search after it
    did not prove the win, the next review's search of that same position did (the
    Italian walk: the computer's winning 42. R5??)."""
    alone, reviews = scripted_reviews(
        CHANCE,
        ["Ta", "Tg", "Tb"],
        [
            [{"L1": WIN, "Ta": 40.0, "Tb": 10.0}],  # orange wins with L1; Ta's win not seen
            # green's position after Ta: first searched without a proof, then with one
            [{"Tg": -30.0, "Tf": -35.0}, {"Tg": LOSS, "Tf": LOSS}],
            [{"Tc": WIN, "Tb": LOSS}],  # a blunder of orange's, green's loss no proof of it
        ],
    )
    assert reviews[0].mark == GOOD and reviews[0].value == WIN
    assert [r.mark for r in reviews[1:]] == [GOOD, BLUNDER]
    assert alone[0].mark == BLUNDER  # searched alone, the first search decides


def test_a_seat_proved_lost_throws_nothing_away_when_it_acts_again() -> None:
    """A review called an action a blunder, a loss played where the best was not proven
    lost, right after the same seat's forced scoring whose review proved it lost (the
    Italian walk: 41. R3??, after the only action xa5-e1)."""
    alone, reviews = scripted_reviews(
        "expert 2 7/7/7/7/7/7/ooooo2 o score 17,22 0,9 0,0",
        ["xa1-e1", "L3"],
        [[{"xa1-e1": LOSS}], [{"L4": 30.0, "L3": LOSS}]],
    )
    assert [r.mark for r in alone] == [GOOD, BLUNDER]
    assert [r.mark for r in reviews] == [GOOD, GOOD]


def test_a_loss_where_the_best_loses_too_is_no_blunder() -> None:
    """A review called a lost action a blunder beside a best of 39% that the analysis
    board proved lost (the Spanish walk: "37. Tb??"). The position after the best is
    searched: where its mover is proven lost there too, nothing was thrown away."""
    state = State.from_position(THREAT)  # green's b1-e1 threatens five
    lost_too = Scripted(
        {
            THREAT: [{"Bb": 39.0, "L7": LOSS}],
            state.after(Action.parse("Bb")).position(): [{"Tc": WIN}],  # green still wins
        }
    )
    review = review_position(lost_too, state, Action.parse("L7"))
    assert review.mark != BLUNDER
    assert review.best.action == Action.parse("Bb") and lost_too.proven(review.best.value) < 0
    assert [str(a) for a in review.best.pv] == ["Bb", "Tc"]
    # where the search after the best proves nothing, the loss played stays a blunder
    holds = Scripted(
        {
            THREAT: [{"Bb": 39.0, "L7": LOSS}],
            state.after(Action.parse("Bb")).position(): [{"Tc": 20.0}],
        }
    )
    assert review_position(holds, state, Action.parse("L7")).mark == BLUNDER
