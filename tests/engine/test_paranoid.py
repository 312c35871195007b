"""The paranoid alpha-beta of 3-4 player Express: wins taken, threats blocked, values
against a plain minimax written here over the core's rules, depth and node limits only."""

from __future__ import annotations

import random

import numpy as np
import pytest
from test_guard import (
    GREEN_THREATENS,
    GREEN_THREATENS_4,
    GREEN_THREATENS_TWICE,
    ORANGE_WINS,
    ORANGE_WINS_4,
    safe_actions,
    wins,
)

from shiftago.core import Rules, State, Variant
from shiftago.engine import kernel
from shiftago.engine.bot import Limits, Progress
from shiftago.engine.mcts.seat_eval import fitted_shares
from shiftago.engine.paranoid_bot import ParanoidBot
from shiftago.match.participants import parse_participant


def leaf(state: State, root: int) -> float:
    """The fitted evaluation's share of ``root``, as the search values a leaf."""
    reward = np.zeros(4)
    fitted_shares(kernel.from_state(state), reward)
    return float(reward[root])


def children(state: State) -> tuple[list[State], float | None]:
    """The positions a node searches, by the core's rules: the mover's wins where it has
    some, else the actions after which the next seat cannot win at once; with none of
    those, the value of the node for each root: the next seat wins (None: search)."""
    own = wins(state)
    if own:
        return [state.after(a) for a in sorted(own, key=str)], None
    safe = safe_actions(state)
    if not safe:
        return [], float(state.after(state.legal_actions()[0]).turn)
    return [state.after(a) for a in sorted(safe, key=str)], None


def minimax(state: State, depth: int, root: int) -> float:
    """The paranoid value of ``state`` for ``root``, without pruning."""
    outcome = state.outcome
    if outcome is not None:
        return 1 / len(outcome.winners) if root in outcome.winners else 0.0
    if depth == 0:
        return leaf(state, root)
    after, winner = children(state)
    if winner is not None:
        return 1.0 if winner == root else 0.0
    values = [minimax(child, depth - 1, root) for child in after]
    return max(values) if state.turn == root else min(values)


def middle_game(players: int, seed: int, actions: int) -> State:
    rng = random.Random(seed)
    while True:
        state = State.initial(Rules(Variant.EXPRESS, players), 0)
        for _ in range(actions):
            if state.is_over:
                break
            state = state.after(rng.choice(state.legal_actions()))
        if not state.is_over and len(safe_actions(state)) > 1:
            return state


@pytest.mark.parametrize("position", [ORANGE_WINS, ORANGE_WINS_4])
def test_the_paranoid_search_takes_a_win_at_once(position: str) -> None:
    state = State.from_position(position)
    for depth in (1, 3):
        ranked = ParanoidBot().analyse(state, Limits(depth=depth))
        assert ranked[0].action in wins(state) and ranked[0].value == 1


@pytest.mark.parametrize("position", [GREEN_THREATENS, GREEN_THREATENS_4])
def test_the_paranoid_search_blocks_and_lists_every_action(position: str) -> None:
    state = State.from_position(position)
    ranked = ParanoidBot().analyse(state, Limits(depth=3))
    assert sorted(str(r.action) for r in ranked) == sorted(str(a) for a in state.legal_actions())
    assert ranked[0].action in safe_actions(state)
    assert all(r.value == 0 for r in ranked if r.action not in safe_actions(state))


def test_a_position_lost_to_the_next_seat_is_worth_nothing() -> None:
    state = State.from_position(GREEN_THREATENS_TWICE)
    ranked = ParanoidBot().analyse(state, Limits(depth=2))
    assert {r.value for r in ranked} == {0.0}
    assert ranked[0].action in state.legal_actions()


@pytest.mark.parametrize("players, seed", [(3, 1), (3, 2), (4, 3)])
def test_the_best_value_is_the_minimax_value(players: int, seed: int) -> None:
    state = middle_game(players, seed, actions=12)
    expected = max(minimax(child, 1, state.turn) for child in children(state)[0])
    ranked = ParanoidBot().analyse(state, Limits(depth=2))
    assert ranked[0].value == pytest.approx(expected)
    best = state.after(ranked[0].action)
    assert minimax(best, 1, state.turn) == pytest.approx(expected)


def test_a_node_limit_bounds_the_search_and_the_answer_repeats() -> None:
    state = middle_game(3, 5, actions=10)
    bot = ParanoidBot()
    first = bot.analyse(state, Limits(nodes=20_000))
    assert 0 < bot.last_nodes <= 20_001 and bot.last_depth >= 2
    assert first == bot.analyse(state, Limits(nodes=20_000))
    assert first[0].action in state.legal_actions()


def test_progress_comes_after_each_depth() -> None:
    state = middle_game(3, 6, actions=10)
    seen: list[Progress] = []
    ranked = ParanoidBot().analyse(state, Limits(depth=3, progress=seen.append))
    assert [p.depth for p in seen] == [1, 2, 3]
    assert seen[-1].lines[0] == ranked[0] and seen[-1].nodes > seen[0].nodes


@pytest.mark.parametrize("rules", [Rules(Variant.EXPRESS, 2), Rules(Variant.EXPERT, 3)])
def test_other_games_are_refused(rules: Rules) -> None:
    with pytest.raises(ValueError, match="3-4 player Express"):
        ParanoidBot().analyse(State.initial(rules, 0), Limits(depth=1))


def test_the_arena_names_it() -> None:
    bot = parse_participant("paranoid:3").make_bot(0)
    assert isinstance(bot, ParanoidBot) and bot.depth == 3
    with pytest.raises(ValueError, match="paranoid"):
        parse_participant("paranoid:0").make_bot(0)
