"""The alpha-beta searches of 3-4 player Express (paranoid, best-reply, max-n): wins
taken, threats blocked, values against plain searches written here over the core's
rules, depth and node limits only."""

from __future__ import annotations

import random
from dataclasses import replace

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
from shiftago.engine.bot import Limits, Progress, RankedAction
from shiftago.engine.levels import WIN_CHECK_NODES, bot_for_level
from shiftago.engine.mcts.seat_eval import fitted_shares
from shiftago.engine.multi_search_bot import MultiSearchBot
from shiftago.match.participants import parse_participant


def leaf(state: State, root: int) -> float:
    """The fitted evaluation's share of ``root``, as the search values a leaf."""
    return leaf_shares(state)[root]


def leaf_shares(state: State) -> tuple[float, ...]:
    """The fitted evaluation's shares of every seat."""
    reward = np.zeros(4)
    fitted_shares(kernel.from_state(state), reward)
    return tuple(float(r) for r in reward[: state.players])


def result_shares(state: State) -> tuple[float, ...]:
    """The shares of a finished game."""
    assert state.outcome is not None
    winners = state.outcome.winners
    return tuple(1 / len(winners) if seat in winners else 0.0 for seat in range(state.players))


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


def minimax(state: State, depth: int, root: int, free: bool = False) -> float:
    """The paranoid value of ``state`` for ``root``, without pruning; with ``free`` the
    root's opponents keep only their own wins, else every action (the sure-win rule)."""
    if state.is_over:
        return result_shares(state)[root]
    if depth == 0:
        return leaf(state, root)
    if free and state.turn != root:
        own = wins(state)
        after = [state.after(a) for a in (own or state.legal_actions())]
        return min(minimax(child, depth - 1, root, free) for child in after)
    after, winner = children(state)
    if winner is not None:
        return 1.0 if winner == root else 0.0
    values = [minimax(child, depth - 1, root, free) for child in after]
    return max(values) if state.turn == root else min(values)


def max_n(state: State, depth: int) -> tuple[float, ...]:
    """The max-n shares of ``state``: each seat takes the child best for itself (the
    first of equals, in the order of :func:`children`), without pruning."""
    if state.is_over:
        return result_shares(state)
    if depth == 0:
        return leaf_shares(state)
    after, winner = children(state)
    if winner is not None:
        return tuple(1.0 if seat == winner else 0.0 for seat in range(state.players))
    best: tuple[float, ...] | None = None
    for child in after:
        value = max_n(child, depth - 1)
        if best is None or value[state.turn] > best[state.turn]:
            best = value
    assert best is not None
    return best


def as_turn(state: State, seat: int) -> State:
    """``state`` with ``seat`` to act, as best-reply search lets any opponent act."""
    return State(
        state.rules, state.boards, seat, state.phase, state.supplies, state.scores, state.skips
    )


def best_reply(state: State, depth: int, root: int) -> float:
    """The best-reply value of ``state`` for ``root``, without pruning: the root takes
    its win where it has one, else its best action; then the one opponent action that
    is worst for it (a win at once of any opponent first), and the root again."""
    if state.is_over:
        return result_shares(state)[root]
    if depth == 0:
        return leaf(state, root)
    if state.turn == root:
        actions = wins(state) or set(state.legal_actions())
        return max(best_reply(state.after(a), depth - 1, root) for a in actions)
    opponents = [(root + k) % state.players for k in range(1, state.players)]
    if any(wins(as_turn(state, seat)) for seat in opponents):
        return 0.0
    values = []
    for seat in opponents:
        if state.supplies[seat] == 0:
            continue
        acting = as_turn(state, seat)
        for action in acting.legal_actions():
            child = acting.after(action)
            values.append(
                best_reply(child if child.is_over else as_turn(child, root), depth - 1, root)
            )
    return min(values) if values else leaf(state, root)


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


RULES = ["paranoid", "best-reply", "max-n", "sure-win"]


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("position", [ORANGE_WINS, ORANGE_WINS_4])
def test_each_search_takes_a_win_at_once(position: str, rule: str) -> None:
    state = State.from_position(position)
    for depth in (1, 3):
        ranked = MultiSearchBot(rule).analyse(state, Limits(depth=depth))
        assert ranked[0].action in wins(state) and ranked[0].value == 1


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("position", [GREEN_THREATENS, GREEN_THREATENS_4])
def test_each_search_blocks_and_lists_every_action(position: str, rule: str) -> None:
    state = State.from_position(position)
    ranked = MultiSearchBot(rule).analyse(state, Limits(depth=3))
    assert sorted(str(r.action) for r in ranked) == sorted(str(a) for a in state.legal_actions())
    assert ranked[0].action in safe_actions(state)
    assert all(r.value == 0 for r in ranked if r.action not in safe_actions(state))


@pytest.mark.parametrize("rule", RULES)
def test_a_position_lost_to_the_next_seat_is_worth_nothing(rule: str) -> None:
    state = State.from_position(GREEN_THREATENS_TWICE)
    ranked = MultiSearchBot(rule).analyse(state, Limits(depth=2))
    assert {r.value for r in ranked} == {0.0}
    assert ranked[0].action in state.legal_actions()


@pytest.mark.parametrize("players, seed", [(3, 1), (3, 2), (4, 3)])
def test_the_best_value_is_the_minimax_value(players: int, seed: int) -> None:
    state = middle_game(players, seed, actions=12)
    expected = max(minimax(child, 1, state.turn) for child in children(state)[0])
    ranked = MultiSearchBot().analyse(state, Limits(depth=2))
    assert ranked[0].value == pytest.approx(expected)
    best = state.after(ranked[0].action)
    assert minimax(best, 1, state.turn) == pytest.approx(expected)


@pytest.mark.parametrize("players, seed", [(3, 1), (3, 2), (4, 3)])
def test_the_best_sure_win_value_is_that_of_a_minimax_with_free_opponents(
    players: int, seed: int
) -> None:
    state = middle_game(players, seed, actions=12)
    expected = max(minimax(child, 1, state.turn, free=True) for child in children(state)[0])
    ranked = MultiSearchBot("sure-win").analyse(state, Limits(depth=2))
    assert ranked[0].value == pytest.approx(expected)


#: 3-player Express, green to act: orange can make its line at once unless blue, the seat
#: between, blocks it, and blue cannot stop both orange and green (a game of
#: best-reply search against two top levels). Green's wins that the guard proves hold
#: only if blue blocks orange; blue, lost either way, need not.
KINGMAKER = "express 3 boobb2/bog4/o1b4/o1g2g1/2ob1gg/3gbgg/3booo g insert 13,14,14 0,0,0 0,0,0"


def test_a_win_that_needs_a_lost_seat_to_block_is_no_sure_win() -> None:
    state = State.from_position(KINGMAKER)
    guarded = MultiSearchBot("paranoid").analyse(state, Limits(depth=3))
    assert guarded[0].value == 1.0  # if blue blocks orange, green wins
    sure = MultiSearchBot("sure-win").analyse(state, Limits(depth=3))
    assert sure[0].value < 1.0
    after = state.after(guarded[0].action)
    assert any(wins(after.after(reply)) for reply in after.legal_actions())  # orange's


#: 3-player Express, green to act: green has a win in two of its actions that no play of
#: orange and blue stops (Bc or L4; a game of greedy bots).
SURE_WIN = "express 3 goobboo/gbbgo2/2go3/2gb3/2gb3/7/7 g insert 16,16,16 0,0,0 0,0,0"


def test_the_top_level_plays_a_sure_win_its_mcts_misses() -> None:
    state = State.from_position(SURE_WIN)
    ranked = MultiSearchBot("sure-win").analyse(state, Limits(depth=4))
    sure = {line.action for line in ranked if line.value == 1.0}
    assert sure and len(sure) < len(ranked)
    top = bot_for_level(7, seed=1)
    # its MCTS (blocking playouts) finds it with 100 iterations; with 30 and this seed not
    assert top.mcts.choose(state, Limits(nodes=30)) not in sure
    assert top.choose(state, Limits(nodes=30)) in sure
    first = top.analyse(state, Limits(nodes=30))[0]
    assert first.action in sure and first.value == 1.0
    assert first.seat_values == (0.0, 1.0, 0.0)
    # below the top, no level looks
    assert bot_for_level(6, seed=0).sure_win is None


def test_the_check_finds_no_sure_win_where_a_lost_seat_decides() -> None:
    state = State.from_position(KINGMAKER)
    assert bot_for_level(7, seed=0).forced_win(state, Limits()) is None


@pytest.mark.parametrize("players, seed, depth", [(3, 1, 2), (3, 2, 3), (4, 3, 2), (3, 4, 3)])
def test_the_best_max_n_value_is_that_of_a_plain_max_n(players: int, seed: int, depth: int) -> None:
    state = middle_game(players, seed, actions=12)
    root = state.turn
    expected = max(max_n(child, depth - 1)[root] for child in children(state)[0])
    ranked = MultiSearchBot("max-n").analyse(state, Limits(depth=depth))
    assert ranked[0].value == pytest.approx(expected)
    assert max_n(state.after(ranked[0].action), depth - 1)[root] == pytest.approx(expected)


@pytest.mark.parametrize("players, seed, depth", [(3, 1, 2), (3, 2, 3), (4, 3, 3)])
def test_the_best_reply_value_is_that_of_a_plain_best_reply_search(
    players: int, seed: int, depth: int
) -> None:
    state = middle_game(players, seed, actions=12)
    root = state.turn
    expected = max(best_reply(child, depth - 1, root) for child in children(state)[0])
    ranked = MultiSearchBot("best-reply").analyse(state, Limits(depth=depth))
    assert ranked[0].value == pytest.approx(expected)
    assert best_reply(state.after(ranked[0].action), depth - 1, root) == pytest.approx(expected)


@pytest.mark.parametrize("rule", RULES)
def test_a_node_limit_bounds_the_search_and_the_answer_repeats(rule: str) -> None:
    state = middle_game(3, 5, actions=10)
    bot = MultiSearchBot(rule)
    first = bot.analyse(state, Limits(nodes=20_000))
    assert 0 < bot.last_nodes <= 20_001 and bot.last_depth >= 2
    assert first == bot.analyse(state, Limits(nodes=20_000))
    assert first[0].action in state.legal_actions()


def test_progress_comes_after_each_depth() -> None:
    state = middle_game(3, 6, actions=10)
    seen: list[Progress] = []
    ranked = MultiSearchBot().analyse(state, Limits(depth=3, progress=seen.append))
    assert [p.depth for p in seen] == [1, 2, 3]
    assert seen[-1].lines[0] == ranked[0] and seen[-1].nodes > seen[0].nodes


@pytest.mark.parametrize("rules", [Rules(Variant.EXPRESS, 2), Rules(Variant.EXPERT, 3)])
def test_other_games_are_refused(rules: Rules) -> None:
    with pytest.raises(ValueError, match="3-4 player Express"):
        MultiSearchBot().analyse(State.initial(rules, 0), Limits(depth=1))


@pytest.mark.parametrize("rule", RULES[:3])
def test_the_arena_names_them(rule: str) -> None:
    bot = parse_participant(f"{rule}:3").make_bot(0)
    assert isinstance(bot, MultiSearchBot) and bot.depth == 3 and bot.name == rule
    with pytest.raises(ValueError, match=rule):
        parse_participant(f"{rule}:0").make_bot(0)


@pytest.mark.parametrize(
    "limits, most_ms",
    [(Limits(movetime_ms=10), 2), (Limits(movetime_ms=300), 75), (Limits(clock_ms=100), 1)],
)
def test_a_timed_action_leaves_the_sure_win_check_a_share_of_its_time(
    limits: Limits, most_ms: int
) -> None:
    """The check of 4 players reaches its node cap: on a short movetime or clock it must
    stop in time for the answer (PROTOCOL.md: movetime is a hard limit)."""
    top = bot_for_level(7, seed=0)
    assert top.sure_win is not None
    asked: list[Limits] = []
    search = top.sure_win.analyse

    def spy(state: State, check: Limits) -> list[RankedAction]:
        asked.append(check)
        return search(state, replace(check, movetime_ms=None))

    top.sure_win.analyse = spy  # type: ignore[method-assign]
    state = middle_game(4, 3, actions=6)
    top.forced_win(state, limits)
    top.forced_win(state, Limits(nodes=50))
    assert [check.movetime_ms for check in asked] == [most_ms, None]
    assert all(check.nodes == WIN_CHECK_NODES for check in asked)
