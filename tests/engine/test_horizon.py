"""Playouts cut at a horizon and valued by the points (3-4 player Expert): the value of
hand-built positions, the cut itself against the core's rules, and the search that uses
them (proven wins taken, losses avoided), under iteration limits only."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from shiftago.core import Action, Phase, Rules, State, Variant
from shiftago.engine import kernel
from shiftago.engine.bot import Bot, Limits
from shiftago.engine.kernel.moves import occupied
from shiftago.engine.kernel.playout import play_out
from shiftago.engine.kernel.policy import GREEDY
from shiftago.engine.kernel.rng import seed_of
from shiftago.engine.kernel.tables import BOARD, EXPERT
from shiftago.engine.levels import bot_for_level
from shiftago.engine.mcts.horizon import point_shares, reach_points
from shiftago.engine.mcts.rollout import playout_reward
from shiftago.engine.mcts_bot import MctsBot
from shiftago.match.participants import parse_participant

#: Green (seat 1, 8 points) to act: its fourth marble on the bottom rank scores 2 points,
#: 10 in all, a win.
GREEN_WINS = "expert 3 7/7/7/7/o6/b6/ggg4 g insert 21,19,21 0,8,0 0,0,0"
GREEN_WINS_4 = "expert 4 7/7/7/w6/o6/b6/ggg4 g insert 21,19,21,21 0,8,0,0 0,0,0,0"
#: Orange to act; green (next, 8 points) wins with its fourth marble on the bottom rank
#: unless orange stops it.
GREEN_THREATENS = "expert 3 7/7/7/7/7/7/1ggg3 o insert 22,19,22 0,8,0 0,0,0"
GREEN_THREATENS_4 = "expert 4 7/7/7/7/7/7/1ggg3 o insert 22,19,22,22 0,8,0,0 0,0,0,0"


def kernel_of(position: str) -> np.ndarray:
    return kernel.from_state(State.from_position(position))


def shares(position: str, scale: float, reach: float = 0.0) -> list[float]:
    s = kernel_of(position)
    reward = np.zeros(4)
    point_shares(s, scale, reach, reward)
    return [float(v) for v in reward[: int(State.from_position(position).players)]]


def test_equal_points_share_equally() -> None:
    assert shares("expert 3 7/7/7/7/7/7/7 o insert 22,22,22 5,5,5 0,0,0", 1.0) == (
        pytest.approx([1 / 3, 1 / 3, 1 / 3])
    )


def test_the_leader_gets_the_most_and_the_shares_sum_to_one() -> None:
    values = shares("expert 4 7/7/7/7/7/7/7 o insert 22,22,22,22 2,7,0,2 0,0,0,0", 0.5)
    assert sum(values) == pytest.approx(1.0)
    assert values[0] == pytest.approx(values[3])
    assert values[1] > values[0] > values[2] > 0
    # a larger scale gives the leader more of the same lead
    steeper = shares("expert 4 7/7/7/7/7/7/7 o insert 22,22,22,22 2,7,0,2 0,0,0,0", 2.0)
    assert steeper[1] > values[1]


def test_a_threat_counts_with_reach() -> None:
    # green's three on the bottom rank make a line of four (2 points) with one insertion
    position = "expert 3 7/7/7/7/7/7/1ggg3 o insert 22,19,22 0,0,0 0,0,0"
    assert shares(position, 1.0) == pytest.approx([1 / 3, 1 / 3, 1 / 3])
    values = shares(position, 1.0, 0.5)
    assert values[1] > values[0] == pytest.approx(values[2])
    assert values[1] / values[0] == pytest.approx(math.exp(1.0))


def core_reach(state: State) -> int:
    """The points of the longest line one insertion gives the mover (the core's rules)."""
    table = state.rules.points_table
    best = 0
    for action in state.legal_actions():
        for line in state.after(action).lines(state.turn, min_length=4):
            best = max(best, table.get(line.length, 0))
    return best


@pytest.mark.parametrize("players", [3, 4])
def test_the_reach_is_the_cores_longest_line(players: int) -> None:
    rng = random.Random(players)
    seen = set()
    for _ in range(60):
        state = random_state(players, rng.randrange(10**6), 30)
        if state.is_over or state.phase is not Phase.INSERT:
            continue
        s = kernel.from_state(state)
        me = s[BOARD + state.turn]
        expected = core_reach(state)
        assert reach_points(me, occupied(s), EXPERT, 1) == expected
        seen.add(expected)
    assert len(seen) > 1  # the positions had threats and none


def random_state(players: int, seed: int, most: int = 16) -> State:
    rng = random.Random(seed)
    state = State.initial(Rules(Variant.EXPERT, players), 0)
    for _ in range(rng.randint(4, most)):
        if state.is_over:
            break
        state = state.after(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("players", [3, 4])
def test_a_cut_playout_stops_after_its_horizon_in_a_legal_position(players: int) -> None:
    moves = kernel.action_buffer()
    for seed in range(20):
        state = random_state(players, seed)
        if state.is_over:
            continue
        s = kernel.from_state(state)
        winners, _, played = play_out(s, np.uint64(seed_of(seed)), moves, GREEDY, True, 0, 6)
        if winners == 0:
            assert played == 6
            # what the cut left is a position the core accepts, with no winner yet
            after = kernel.to_state(s, state.rules)
            assert not after.is_over and after.legal_actions()
        else:
            assert played <= 6
        # without a horizon the same playout goes on to the end
        s = kernel.from_state(state)
        full, _, length = play_out(s, np.uint64(seed_of(seed)), moves, GREEDY, True, 0, 0)
        assert full != 0
        assert (winners == 0) == (length > 6)
        if winners != 0:
            assert winners == full and played == length


def test_the_reward_of_a_cut_playout_is_the_points_share() -> None:
    state = State.from_position("expert 3 7/7/7/7/7/7/7 o insert 22,22,22 6,0,2 0,0,0")
    s = kernel.from_state(state)
    reward = np.zeros(4)
    playout_reward(s, np.uint64(seed_of(3)), kernel.action_buffer(), GREEDY, 0, 1, 0.5, 0.5, reward)
    assert sum(reward[:3]) == pytest.approx(1.0)
    expected = np.zeros(4)
    point_shares(s, 0.5, 0.5, expected)  # ``s`` holds the position after the one action
    assert list(reward) == pytest.approx(list(expected))


def horizon_bot(seed: int) -> MctsBot:
    return MctsBot(seed, iterations=3000, horizon=10, scale=0.5, reach=0.5)


def cut_searches(seed: int) -> list[tuple[str, Bot, Limits]]:
    """The searches whose playouts stop at a horizon: the points' softmax, and the
    top level's fitted values (:mod:`shiftago.engine.mcts.seat_eval`)."""
    return [
        ("points", horizon_bot(seed), Limits()),
        ("top level", bot_for_level(7, seed=seed), Limits(nodes=400)),
    ]


def core_wins(state: State) -> set[Action]:
    """The insertions after which the mover can end the game as its own win by scoring
    (the core's rules)."""
    found = set()
    for action in state.legal_actions():
        after = state.after(action)
        if after.phase is Phase.SCORE and after.turn == state.turn:
            for scoring in after.legal_actions():
                outcome = after.after(scoring).outcome
                if outcome is not None and outcome.winners == (state.turn,):
                    found.add(action)
    return found


@pytest.mark.parametrize("position", [GREEN_WINS, GREEN_WINS_4])
def test_the_search_takes_a_win(position: str) -> None:
    state = State.from_position(position)
    winning = core_wins(state)
    assert winning and len(winning) < len(state.legal_actions())
    for seed in range(3):
        for name, bot, limits in cut_searches(seed):
            assert bot.choose(state, limits) in winning, name


def next_seat_wins(state: State, action: Action) -> bool:
    after = state.after(action)
    return after.turn != state.turn and bool(core_wins(after))


@pytest.mark.parametrize("position", [GREEN_THREATENS, GREEN_THREATENS_4])
def test_the_search_stops_the_next_seats_win(position: str) -> None:
    state = State.from_position(position)
    losing = {a for a in state.legal_actions() if next_seat_wins(state, a)}
    assert losing and len(losing) < len(state.legal_actions())
    for seed in range(3):
        for name, bot, limits in cut_searches(seed):
            assert bot.choose(state, limits) not in losing, name


def test_the_arena_names_the_cut_playouts() -> None:
    bot = parse_participant("mcts-horizon:300:12:0.75").make_bot(1)
    assert isinstance(bot, MctsBot) and bot.iterations == 300
    assert bot.horizon == 12 and bot.mcts.scale == 0.75
    assert parse_participant("mcts:300").make_bot(1).horizon == 0
    with pytest.raises(ValueError):
        parse_participant("mcts-horizon:300:12:wide").make_bot(1)


@pytest.mark.parametrize(
    ("position", "cut"),
    [
        (GREEN_WINS, True),
        ("express 3 7/7/7/7/g6/b6/ooo4 o insert 19,21,21 0,0,0 0,0,0", False),
        ("extreme 3 7/7/7/7/o6/b6/ggg4 g insert 21,19,21 0,8,0 0,0,0", False),
        ("expert 2 7/7/7/7/7/g6/oooo3 o insert 18,21 8,0 0,0", False),
    ],
)
def test_only_multi_player_expert_cuts_its_playouts(position: str, cut: bool) -> None:
    bot = horizon_bot(1)
    bot.analyse(State.from_position(position))
    assert bot.mcts.horizon == (10 if cut else 0)
