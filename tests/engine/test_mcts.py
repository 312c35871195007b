"""The Monte Carlo tree search and its bot: wins in one, must-blocks, the solver's
proofs, the tree's bookkeeping, repeatability, every variant and player count, and a
few games against random play. Every search here is limited by iterations, never by
time, except the checks that ``movetime`` stops a search (they assert that it stops,
not how fast)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from shiftago.core import Action, Game, Phase, Rules, State, Variant
from shiftago.engine import kernel
from shiftago.engine.alphabeta import AlphaBetaBot
from shiftago.engine.bot import Limits, Progress
from shiftago.engine.greedy import GreedyBot
from shiftago.engine.kernel.moves import after_insertion, has_run, push_run
from shiftago.engine.kernel.policy import (
    GREEDY,
    RANDOM,
    can_win,
    completing_cells,
    longest_scoring,
    near_run,
    winning_insertions,
)
from shiftago.engine.kernel.policy import wins_at_once as kernel_wins_at_once
from shiftago.engine.kernel.tables import INSERTIONS, LANE_MASK, SCORE
from shiftago.engine.mcts import (
    BENCH_POSITION,
    DEFAULT_C,
    MULTI_PLAYER_C,
    PLAIN_C,
    Mcts,
    bench_iterations,
)
from shiftago.engine.mcts.rollout import playout_reward
from shiftago.engine.mcts_bot import MctsBot
from shiftago.engine.search import PROVEN
from shiftago.engine.search.evaluate import winning_insertions as search_winning_insertions

#: Wins at once: Express lines of 5 (2 players) and 4 (3-4 players), an insertion whose
#: scoring reaches 10 points (Expert, Extreme), a scoring that reaches 10.
WIN_IN_1 = [
    "express 2 7/7/7/7/7/g6/oooo3 o insert 18,21 0,0 0,0",
    "express 3 7/7/7/7/g6/b6/ooo4 o insert 19,21,21 0,0,0 0,0,0",
    "express 4 7/7/7/w6/g6/b6/ooo4 o insert 19,21,21,21 0,0,0,0 0,0,0,0",
    "expert 2 7/7/7/7/7/g6/oooo3 o insert 18,21 8,0 0,0",
    "expert 3 7/7/7/7/o6/b6/ggg4 g insert 21,19,21 0,8,0 0,0,0",
    "extreme 4 7/7/7/w6/g6/b6/ooo4 o insert 19,21,21,21 8,0,0,0 0,0,0,0",
    "expert 2 7/7/7/7/7/ooooo2/oooooo1 o score 11,22 5,0 0,0",
]
#: Green threatens to complete b1-f1 in three ways; only pushing it apart stops that.
MUST_BLOCK = "express 2 7/7/7/7/7/7/1gggg2 o insert 22,18 0,0 0,0"
BLOCKS = {"Bb", "Bc", "Bd", "Be"}
#: Green to move wins with its second action, only by Tg (found by the alpha-beta search).
WIN_IN_2 = "express 2 1ogggoo/1go3g/7/6g/5oo/ogog1og/oo1o1gg g insert 10,11 0,0 0,0"
#: Orange wins with its third action at the earliest (as in ``test_search``).
WIN_IN_3 = "express 2 gog1ooo/1g5/og5/go3gg/oogoggg/o5g/1o2g1o o insert 10,9 0,0 0,0"


def wins_at_once(state: State, action: Action) -> bool:
    """Brute force: the mover wins with this action, or with the scoring it sets up."""
    mover = state.turn
    after = state.after(action)
    if after.outcome is not None:
        return after.outcome.winners == (mover,)
    if after.phase is Phase.SCORE and after.turn == mover:
        return any(after.scores[mover] + o.points >= 10 for o in after.scoring_options())
    return False


EXPRESS_WINS = [p for p in WIN_IN_1 if p.startswith("express")]


@pytest.mark.parametrize(
    ("position", "solver"),
    [*((p, True) for p in WIN_IN_1), *((p, False) for p in EXPRESS_WINS)],
)
def test_finds_a_win_in_one(position: str, solver: bool) -> None:
    """(Plain MCTS in Expert and Extreme: with 8 points nearly every random game wins,
    so its playouts cannot tell the win at once from the others.)"""
    state = State.from_position(position)
    winning = {a for a in state.legal_actions() if wins_at_once(state, a)}
    assert winning and len(winning) < len(state.legal_actions())
    bot = MctsBot(1, iterations=3000, solver=solver)
    ranked = bot.analyse(state)
    assert ranked[0].action in winning
    if solver:
        assert ranked[0].value == 1
        assert bot.last is not None and bot.last.root_proof == 1 << state.turn
        assert bot.last.iterations < 3000  # the proven root ends the search
        assert wins_at_once(state, ranked[0].action)


def test_blocks_an_immediate_loss() -> None:
    state = State.from_position(MUST_BLOCK)
    for seed in range(3):
        bot = MctsBot(seed, iterations=4000)
        ranked = bot.analyse(state)
        assert str(ranked[0].action) in BLOCKS
        losing = {str(r.action) for r in ranked if r.value == 0}
        assert losing == {str(a) for a in state.legal_actions()} - BLOCKS
        assert all(str(r.action) in BLOCKS for r in ranked[:4])  # proven losses last
        for r in ranked[4:]:  # the principal variation shows green's win
            after = state.after(r.pv[0]).after(r.pv[1])
            assert after.outcome is not None and after.outcome.winners == (1,)
    plain = MctsBot(0, iterations=4000, solver=False)
    assert str(plain.choose(state)) in BLOCKS


def test_the_solver_proves_a_forced_win() -> None:
    state = State.from_position(WIN_IN_2)
    bot = MctsBot(2, iterations=50_000)
    best = bot.analyse(state)[0]
    assert str(best.action) == "Tg" and best.value == 1
    assert bot.last is not None and bot.last.root_proof == 1 << state.turn

    state = State.from_position(WIN_IN_3)
    bot = MctsBot(3, iterations=200_000)
    best = bot.analyse(state)[0]
    assert best.value == 1 and bot.last is not None and bot.last.root_proof == 1
    # the alpha-beta search agrees: after the action green loses by force
    reply = AlphaBetaBot(1, depth=4).analyse(state.after(best.action))
    assert reply[0].value <= -PROVEN


def test_plain_mcts_proves_nothing() -> None:
    bot = MctsBot(2, iterations=3000, solver=False)
    ranked = bot.analyse(State.from_position(WIN_IN_2))
    assert bot.last is not None and bot.last.root_proof == 0 and not any(bot.last.proofs)
    assert bot.last.iterations == 3000
    assert 0 < ranked[0].value < 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_visits_add_up_to_the_iterations(players: int) -> None:
    s = kernel.from_state(State.initial(Rules(Variant.EXPRESS, players), 0))
    mcts = Mcts()
    result = mcts.search(s, 5, iterations=2500)
    assert result.iterations == 2500 == sum(result.visits)
    assert mcts.tree is not None and int(mcts.tree.visits[0]) == 2500
    assert sorted(result.codes) == sorted(kernel.legal_codes(s))
    assert result.visits == sorted(result.visits, reverse=True)
    # the rewards of each game add up to 1 over the seats
    for values in [result.root_values, *result.values]:
        assert len(values) == players and sum(values) == pytest.approx(1.0)
        assert all(0 <= v <= 1 for v in values)


def test_the_stop_slot_ends_the_search_after_its_first_iteration() -> None:
    from shiftago.engine.mcts.search import iterate
    from shiftago.engine.mcts.tree import STOP, new_tree, reset

    s = kernel.from_state(State.from_position(BENCH_POSITION))
    tree = new_tree(10_000)
    reset(*tree, np.uint64(7))
    tree.info[STOP] = 1  # as the alarm sets it
    # every argument given, as the driver gives them: one compiled version, not two
    settings = (0.5, True, GREEDY, 0, False, 0, 0.0, 0.0, -1.0)
    assert iterate(*tree, s, 1000, *settings) == 1
    reset(*tree, np.uint64(7))  # a new search starts unstopped
    assert iterate(*tree, s, 1000, *settings) == 1000


def test_a_search_stopped_before_it_starts_still_runs_its_first_iterations() -> None:
    import threading

    from shiftago.engine.mcts.driver import ALWAYS_ITERATIONS

    s = kernel.from_state(State.from_position(BENCH_POSITION))
    stop = threading.Event()
    stop.set()
    result = Mcts().search(s, 3, stop=stop)
    # the first iterations, then at least one more until the stop is seen
    assert ALWAYS_ITERATIONS < result.iterations == sum(result.visits)
    assert min(result.visits) >= 1  # every root action has a value of its own


def test_movetime_stops_a_search_that_has_no_other_limit() -> None:
    # without the alarm this search would run 2**62 iterations
    s = kernel.from_state(State.from_position(BENCH_POSITION))
    result = Mcts().search(s, 3, movetime_ms=100)
    assert result.iterations > 0 and result.seconds < 10
    assert sum(result.visits) == result.iterations


def test_same_seed_same_analysis() -> None:
    state = State.from_position(BENCH_POSITION)

    def run(seed: int) -> list[tuple[str, float, tuple[str, ...]]]:
        ranked = MctsBot(seed, iterations=3000).analyse(state)
        return [(str(r.action), r.value, tuple(str(a) for a in r.pv)) for r in ranked]

    assert run(4) == run(4)
    assert run(4) != run(5)
    # the nodes limit is the iteration limit, the smaller of the bot's and the caller's
    bot = MctsBot(4, iterations=3000)
    limited = bot.analyse(state, Limits(nodes=1000, depth=1))
    assert bot.last is not None and bot.last.iterations == 1000
    assert limited[0].action == MctsBot(4, iterations=1000).choose(state)


def test_progress_comes_after_doubling_chunks_and_changes_nothing() -> None:
    """Reports after 1,024 and 3,072 iterations (the next chunk ends the search), a
    final one of the answer's 5,000, and the chunked search is the search of one call:
    the same ranking."""
    state = State.from_position(BENCH_POSITION)
    heard: list[Progress] = []
    with_progress = MctsBot(4, iterations=5000).analyse(state, Limits(progress=heard.append))
    assert [(p.nodes, p.final) for p in heard] == [(1024, False), (3072, False), (5000, True)]
    assert all(p.proven == 0 and p.lines and p.depth == len(p.pv) >= 1 for p in heard)
    assert heard[-1].seconds >= heard[0].seconds
    plain = MctsBot(4, iterations=5000).analyse(state)
    assert [(r.action, r.value, r.pv) for r in with_progress] == [
        (r.action, r.value, r.pv) for r in plain
    ]
    assert heard[-1].lines == tuple(with_progress)  # the final report is the answer's
    # the chunk that ends a search is its final report
    heard.clear()
    MctsBot(4, iterations=3072).analyse(state, Limits(progress=heard.append))
    assert [(p.nodes, p.final) for p in heard] == [(1024, False), (3072, True)]


CONFIGS = [(v, n) for v in Variant for n in (2, 3, 4)]


@pytest.mark.parametrize(("variant", "players"), CONFIGS)
def test_every_variant_and_player_count(variant: Variant, players: int) -> None:
    rules = Rules(variant, players, handicap=(0, 1) + (0,) * (players - 2))
    game = Game(rules, first=0)
    rng = random.Random(players)
    bot = MctsBot(players, iterations=300)
    for _ in range(6):  # seat 1 skips its first turn
        game.play(bot.choose(game.state))
    while not game.is_over and game.state.phase is not Phase.SCORE:
        game.play(rng.choice(game.legal_actions()))
    if game.is_over:
        return
    state = game.state
    pairs = MctsBot(1, iterations=300).analyse_vector(state)
    assert {r.action for r, _ in pairs} == set(state.legal_actions())
    for ranked, values in pairs:
        assert len(values) == players and values[state.turn] == ranked.value


def test_three_players_vector_values() -> None:
    state = State.from_position(WIN_IN_1[1])
    bot = MctsBot(0, iterations=2000)
    pairs = bot.analyse_vector(state)
    best, values = pairs[0]
    assert wins_at_once(state, best.action) and values == (1.0, 0.0, 0.0)
    assert bot.last_values == [v for _, v in pairs]
    assert all(r.seat_values == v for r, v in pairs)
    assert bot.proven(best.value) == 1
    # every action that wins at once is a proven win, tried by the search or not
    for ranked, _ in pairs:
        assert (bot.proven(ranked.value) == 1) == wins_at_once(state, ranked.action)
    assert bot.analyse(state)[0].action == best.action


#: One empty cell, no line of four: each of the four insertions fills the board without a
#: line for orange, so the game is a draw shared by all three (checked in the test).
ONLY_DRAWS = ("express 3 bobgggb/ooobboo/gogbgbb/bbgoogb/ggogbgg/booo1bg/goobbog o insert "
              "6,6,6 0,0,0 0,0,0")  # fmt: skip


def test_a_contempt_counts_the_root_seats_draws_at_its_value() -> None:
    state = State.from_position(ONLY_DRAWS)
    for action in state.legal_actions():
        assert (after := state.after(action)).is_over and after.outcome.winners == (0, 1, 2)
    s = kernel.from_state(state)
    for contempt, mine in ((None, 1 / 3), (0.0, 0.0), (0.25, 0.25)):
        for solver in (True, False):
            mcts = Mcts(contempt=contempt, solver=solver)
            result = mcts.search(s, 3, iterations=40)
            assert result.root_values == pytest.approx((mine, 1 / 3, 1 / 3))
    # a cut playout's values are not results: a horizon keeps the fitted shares
    cut = Mcts(contempt=0.0, horizon=2).search(s, 3, iterations=40)
    assert cut.root_values == pytest.approx((1 / 3, 1 / 3, 1 / 3))


def test_a_bot_plays_with_its_contempt_and_analyses_without() -> None:
    express = State.from_position(ONLY_DRAWS)
    expert = State.from_position(ONLY_DRAWS.replace("express", "expert"))
    bot = MctsBot(5, iterations=40, contempt=0.0)
    bot.choose(express)
    assert bot.mcts.contempt is None  # only while it chooses
    assert bot.last is not None and bot.last.root_values[0] == 0.0
    bot.analyse(express)
    assert bot.last.root_values[0] == pytest.approx(1 / 3)
    bot.choose(expert)  # Expert's draws are on points: no contempt there
    assert bot.last.root_values[0] == pytest.approx(1 / 3)
    four_only = MctsBot(5, iterations=40, contempt=0.0, contempt_players=frozenset({4}))
    four_only.choose(express)  # a 3-player game
    assert four_only.last is not None and four_only.last.root_values[0] == pytest.approx(1 / 3)
    with pytest.raises(ValueError, match="contempt"):
        MctsBot(contempt=1.5)


def test_greedy_express_playouts_see_exactly_the_wins_at_once() -> None:
    for position in [*EXPRESS_WINS, MUST_BLOCK, WIN_IN_2, BENCH_POSITION]:
        state = State.from_position(position)
        s = kernel.from_state(state)
        moves = kernel.action_buffer()
        n = kernel.legal_actions(s, moves)
        expected = any(wins_at_once(state, a) for a in state.legal_actions())
        assert can_win(s, moves, n) == expected, position
    four, three = np.uint64(0b1111), np.uint64(0b0111)  # a1-d1, a1-c1
    assert near_run(four, 5) and not near_run(three, 5) and near_run(three, 4)


def every_winning_insertion(b: np.uint64, occ: np.uint64, length: int) -> int:
    """The insertions (a mask) after which ``b`` has a run of ``length``, each tried."""
    found = 0
    for i in range(INSERTIONS):
        if LANE_MASK[i] & ~occ and has_run(after_insertion(b, push_run(i, occ), i), length):
            found |= 1 << i
    return found


def test_the_wins_at_once_lie_in_the_lanes_of_the_completing_cells() -> None:
    """The win tests try only the lanes of :func:`completing_cells` and find the same
    insertions as trying every one: on random boards of every density, with runs
    there already (an opponent's push can make one) and without."""
    rng = random.Random(8)
    kinds = {"none": 0, "some": 0, "made": 0}
    for _ in range(3000):
        mine_share, full_share = rng.uniform(0.1, 0.6), rng.uniform(0.2, 1.0)
        b = occ = 0
        for rank in range(7):
            for file in range(7):
                bit = 1 << (8 * rank + file)
                if rng.random() < full_share:
                    occ |= bit
                    if rng.random() < mine_share:
                        b |= bit
        mine, everyone = np.uint64(b), np.uint64(occ)
        for length in (4, 5):
            expected = every_winning_insertion(mine, everyone, length)
            assert winning_insertions(mine, everyone, length) == expected
            assert kernel_wins_at_once(mine, everyone, length) == (expected != 0)
            if expected and completing_cells(mine, length) != ~np.uint64(0):
                kinds["some"] += 1
            elif expected:
                kinds["made"] += 1
            else:
                kinds["none"] += 1
            if length == 5:
                count = search_winning_insertions(mine, everyone, INSERTIONS)
                assert count == bin(expected).count("1")
    assert min(kinds.values()) > 50, kinds


def longest_line_worth_points(state: State, action: Action) -> int:
    """Brute force on the core: the longest line worth points that ``action`` makes
    (an insertion: the mover's longest such line after it) or scores, 0 for none."""
    points = state.rules.points_table
    if state.phase is Phase.SCORE:
        lengths = [o.line.length for o in state.scoring_options() if o.action == action]
    else:
        lengths = [line.length for line in state.after(action).lines(state.turn, 3)]
    return max((n for n in lengths if points.get(n, 0) > 0), default=0)


def scoring_variant_states(count: int) -> list[State]:
    """States from random games of Expert and Extreme with 2-4 players, many of them
    with a line worth points in reach (the moves favour the mover's own lines)."""
    rng = random.Random(7)
    states: list[State] = []
    while len(states) < count:
        rules = Rules(rng.choice([Variant.EXPERT, Variant.EXTREME]), rng.choice([2, 3, 4]))
        state = State.initial(rules, 0)
        while not state.is_over and len(states) < count:
            states.append(state)
            legal = state.legal_actions()
            reach = [a for a in legal if longest_line_worth_points(state, a)]
            state = state.after(rng.choice(reach if reach and rng.random() < 0.3 else legal))
    return states


def test_greedy_scoring_playouts_make_and_score_the_longest_line() -> None:
    seen = {"makes": 0, "none": 0, "scores": 0}
    moves = kernel.action_buffer()
    for state in scoring_variant_states(600):
        s = kernel.from_state(state)
        n = kernel.legal_actions(s, moves)
        actions = [kernel.to_action(int(code), state.players) for code in moves[:n]]
        best = max(longest_line_worth_points(state, a) for a in actions)
        j = longest_scoring(s, moves, n)
        if best == 0:
            assert j == -1, state.position()
            seen["none"] += 1
        else:
            assert j >= 0 and longest_line_worth_points(state, actions[j]) == best
            seen["scores" if state.phase is Phase.SCORE else "makes"] += 1
    assert min(seen.values()) >= 20, seen  # every case was met often


@pytest.mark.parametrize(
    ("variant", "players"), [(v, n) for v in (Variant.EXPERT, Variant.EXTREME) for n in (2, 3, 4)]
)
def test_greedy_playouts_are_decided_by_points(variant: Variant, players: int) -> None:
    """Greedy players make and score lines, so at least half of their games end with a
    seat at 10 points; random players seldom make a line worth points (most random
    Expert games end on a full board or an empty supply)."""
    start = kernel.from_state(State.initial(Rules(variant, players), 0))
    moves = kernel.action_buffer()
    reward = np.zeros(4)
    decided: dict[bool, float] = {}
    for greedy in (False, True):
        x, by_points = np.uint64(12345), 0
        for _ in range(200):
            s = start.copy()
            policy = GREEDY if greedy else RANDOM
            after = playout_reward(s, x, moves, policy, 0, 0, 0.0, 0.0, reward)
            x = np.uint64(after)  # numba hands the generator back as a Python int
            by_points += max(int(s[SCORE + seat]) for seat in range(players)) >= 10
        decided[greedy] = by_points / 200
    assert decided[True] >= 0.5 and decided[True] >= decided[False], decided


def test_beats_random_play() -> None:
    for g in range(4):
        game = Game(Rules(), first=g % 2)
        bot = MctsBot(g, iterations=2000)
        rng = random.Random(g)
        while not game.is_over:
            if game.state.turn == 0:
                game.play(bot.choose(game.state))
            else:
                game.play(rng.choice(game.legal_actions()))
        assert game.outcome is not None and game.outcome.winners == (0,)


def test_beats_the_greedy_bot() -> None:
    wins = 0
    for g in range(6):
        game = Game(Rules(), first=g % 2)
        bots = {0: MctsBot(g, iterations=10_000), 1: GreedyBot(g)}
        while not game.is_over:
            game.play(bots[game.state.turn].choose(game.state))
        assert game.outcome is not None
        wins += game.outcome.winners == (0,)
    assert wins >= 5


def test_bench_iterations_measures() -> None:
    assert bench_iterations(0.01) > 0


def test_games_of_three_and_four_explore_more_unless_c_is_given() -> None:
    two, three, four = (State.initial(Rules(players=n), 0) for n in (2, 3, 4))
    cases = [
        (MctsBot(1, iterations=30), DEFAULT_C, MULTI_PLAYER_C),
        (MctsBot(1, iterations=30, c=0.3), 0.3, 0.3),
        (MctsBot(1, iterations=30, solver=False), PLAIN_C, PLAIN_C),
    ]
    for bot, c_two, c_more in cases:
        bot.analyse(two)
        assert bot.mcts.c == c_two
        for state in (three, four):
            bot.analyse(state)
            assert bot.mcts.c == c_more
    assert MULTI_PLAYER_C > DEFAULT_C


@pytest.mark.parametrize(
    ("position", "proven"),
    [
        # three players: orange's fourth marble in row 7 wins at once (L7 or Td)
        ("express 3 ooo4/7/7/7/7/7/7 o insert 19,22,22 0,0,0 0,0,0", 1),
        # two players, Extreme: a line of five, then its 2 points reach 11
        ("extreme 2 oooo3/7/7/7/7/7/7 o insert 18,22 9,0 0,0", 2),
    ],
)
def test_a_proven_line_reports_its_distance_to_the_end(position: str, proven: int) -> None:
    reports: list[Progress] = []
    state = State.from_position(position)
    MctsBot(0, iterations=2000).analyse(state, Limits(progress=reports.append))
    last = reports[-1]
    assert last.value == 1.0 and last.proven == proven and len(last.pv) == proven
    for action in last.pv:
        state = state.after(action)
    assert state.outcome is not None and state.outcome.winners == (0,)


def test_an_unproven_line_reports_no_distance() -> None:
    reports: list[Progress] = []
    state = State.from_position("express 3 7/7/7/7/7/7/7 o insert 22,22,22 0,0,0 0,0,0")
    MctsBot(0, iterations=2000).analyse(state, Limits(progress=reports.append))
    assert reports and all(report.proven == 0 for report in reports)
