"""The 2-player alpha-beta search and its bot: tactics, scoring choices, every variant,
repeatability, analysis, the transposition table, and the bench signature. Every search
here is limited by depth or nodes, never by time, except the checks that `movetime`
stops a search (they assert that it stops, not how fast)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from shiftago.core import Action, Game, Rules, State, Variant
from shiftago.engine import kernel, levels
from shiftago.engine.alphabeta import AlphaBetaBot
from shiftago.engine.bench import middle_game_positions
from shiftago.engine.bot import Limits
from shiftago.engine.levels import (
    BLOCKING_BUDGET_DIVISOR,
    FITTED_BUDGET_FACTOR,
    FOUR_PLAYER_LOW_ITERATION_SHARE,
    ITERATION_SHARE,
    LEVELS,
    LOW_ITERATION_SHARE,
    NODE_SHARE,
    LevelBot,
    bot_for_level,
    scaled_budget,
)
from shiftago.engine.mcts_bot import MctsBot
from shiftago.engine.search import MAX_HEURISTIC, PROVEN, WIN, Searcher, evaluate, immediate_win
from shiftago.engine.search.evaluate import TUNED_EXPRESS
from shiftago.engine.search.network import NO_NETWORK
from support.waiting import wait_until

WIN_IN_1 = "express 2 7/7/7/7/7/g6/oooo3 o insert 18,21 0,0 0,0"
#: Orange wins with its third action at the earliest (found and checked by the search).
WIN_IN_3 = "express 2 gog1ooo/1g5/og5/go3gg/oogoggg/o5g/1o2g1o o insert 10,9 0,0 0,0"
#: Green threatens to complete b1-f1 in three ways; only pushing it apart stops that.
MUST_BLOCK = "express 2 7/7/7/7/7/7/1gggg2 o insert 22,18 0,0 0,0"
#: Two crossing lines: a3-f3 (6 marbles, 5 points) and c1-c5 (5 marbles, 2 points).
TWO_LINES = "expert 2 7/7/2o4/2o4/oooooo1/2o4/2o4 o score 12,22 0,0 0,0"


def state(position: str) -> State:
    return State.from_position(position)


def wins_for_mover(position: str, actions: list[Action]) -> bool:
    s = state(position)
    mover = s.turn
    for action in actions:
        s = s.after(action)
    return s.outcome is not None and s.outcome.winners == (mover,)


def test_finds_a_win_in_one() -> None:
    bot = AlphaBetaBot(1, depth=1)
    action = bot.choose(state(WIN_IN_1))
    assert str(action) in {"L1", "Be"}
    assert bot.analyse(state(WIN_IN_1))[0].value == WIN - 1


def test_finds_a_win_in_three_own_actions() -> None:
    bot = AlphaBetaBot(1, depth=5)
    ranked = bot.analyse(state(WIN_IN_3))
    assert ranked[0].value == WIN - 5  # three own actions, two of the opponent's
    winners = {str(r.action) for r in ranked if r.value == WIN - 5}
    assert str(bot.choose(state(WIN_IN_3))) in winners
    shallow = AlphaBetaBot(1, depth=3).analyse(state(WIN_IN_3))
    assert shallow[0].value < PROVEN  # no faster win exists
    # the principal variation is legal play, and the win is there after its end
    pv = list(ranked[0].pv)
    s = state(WIN_IN_3)
    for action in pv:
        assert action in s.legal_actions()
        s = s.after(action)


def test_blocks_an_immediate_threat() -> None:
    for depth in (1, 2, 3):
        bot = AlphaBetaBot(3, depth=depth)
        assert str(bot.choose(state(MUST_BLOCK))) in {"Bb", "Bc", "Bd", "Be"}
        ranked = bot.analyse(state(MUST_BLOCK))
        losing = {str(r.action) for r in ranked if r.value <= -PROVEN}
        assert losing == {str(a) for a in state(MUST_BLOCK).legal_actions()} - {
            "Bb",
            "Bc",
            "Bd",
            "Be",
        }
        for r in ranked:
            if r.value <= -PROVEN:  # green wins: the principal variation shows how
                assert not wins_for_mover(MUST_BLOCK, list(r.pv))
                after = state(MUST_BLOCK).after(r.pv[0])
                assert after.turn == 1 and wins_for_mover(after.position(), list(r.pv[1:]))


def test_picks_the_higher_scoring_line() -> None:
    ranked = AlphaBetaBot(2, depth=1).analyse(state(TWO_LINES))
    assert [str(r.action) for r in ranked] == ["xa3-f3", "xc1-c5"]
    assert ranked[0].value > ranked[1].value
    # Deeper, xc1-c5 then L3 remakes a3-f3 (7 points in all): both are good, and
    # whatever the search plays, its line of play collects at least 5 points.
    for depth in (2, 3, 4):
        best = AlphaBetaBot(2, depth=depth).analyse(state(TWO_LINES))[0]
        s = state(TWO_LINES)
        for action in best.pv:
            s = s.after(action)
        pending = max((o.points for o in s.scoring_options()), default=0)
        assert s.scores[0] + pending >= 5  # a scoring due at the end counts


def test_picks_the_scoring_that_wins_on_points_at_the_action_limit() -> None:
    # Green has 3 points and the scoring is the last action the limit allows: only the
    # line of six (5 points) wins the game on points.
    position = TWO_LINES.replace("0,0 0,0", "0,3 0,0")
    game = Game(Rules(Variant.EXPERT, 2, action_limit=40), position=position)
    s = kernel.from_state(game.state, actions_played=39)
    for depth in (1, 2, 3):
        result = Searcher().search(s, kernel.legal_codes(s), depth=depth, exact_all=True)
        pairs = zip(result.codes, result.values, strict=True)
        ranked = [(kernel.action_text(c, 2), v) for c, v in pairs]
        assert ranked == [("xa3-f3", WIN - 1), ("xc1-c5", 1 - WIN)]


def test_a_scoring_that_reaches_ten_points_wins() -> None:
    position = "expert 2 7/7/2o4/2o4/oooooo1/2o4/2o4 o score 12,22 5,0 0,0"
    ranked = AlphaBetaBot(2, depth=2).analyse(state(position))
    assert str(ranked[0].action) == "xa3-f3" and ranked[0].value == WIN - 1


@pytest.mark.parametrize("players", (2, 3, 4))
@pytest.mark.parametrize("variant", list(Variant))
def test_a_legal_action_in_every_variant(variant: Variant, players: int) -> None:
    game = Game(Rules(variant, players, action_limit=60), first=0)
    bot = AlphaBetaBot(5, depth=2)
    for _ in range(12):
        if game.is_over:
            break
        action = bot.choose(game.state)
        assert action in game.legal_actions()
        game.play(action)


def test_plays_whole_expert_games_with_handicap_and_scorings() -> None:
    for seed, rules in enumerate((Rules(Variant.EXPERT, 2, (0, 3)), Rules(Variant.EXTREME, 2))):
        game = Game(Rules(rules.variant, 2, rules.handicap, action_limit=80), first=seed)
        bots = [AlphaBetaBot(seed, depth=2), AlphaBetaBot(seed + 1, nodes=3000)]
        while not game.is_over:
            game.play(bots[game.turn].choose(game.state))
        assert game.outcome is not None


def test_deterministic_for_the_same_seed() -> None:
    positions = middle_game_positions(3, seed=11)
    for row in positions:
        s = kernel.to_state(row)
        first = [str(AlphaBetaBot(9, nodes=20_000).choose(s)) for _ in range(3)]
        assert len(set(first)) == 1
        assert str(AlphaBetaBot(9, depth=3).choose(s)) == str(AlphaBetaBot(9, depth=3).choose(s))


def test_analyse_covers_every_legal_action_best_first() -> None:
    for row in middle_game_positions(2, seed=3):
        s = kernel.to_state(row)
        ranked = AlphaBetaBot(1, depth=3).analyse(s)
        assert sorted(str(r.action) for r in ranked) == sorted(str(a) for a in s.legal_actions())
        values = [r.value for r in ranked]
        assert values == sorted(values, reverse=True)
        assert all(r.pv[0] == r.action for r in ranked)
    won = state(WIN_IN_1).after(Action.parse("L1"))
    assert won.is_over and AlphaBetaBot(1, depth=2).analyse(won) == []


def test_limits_only_lower_the_level() -> None:
    bot = AlphaBetaBot(1, depth=4)
    bot.choose(kernel.to_state(middle_game_positions(1, seed=5)[0]), Limits(depth=2))
    assert bot.last is not None and bot.last.depth == 2
    bot.choose(kernel.to_state(middle_game_positions(1, seed=5)[0]), Limits(nodes=500))
    assert bot.last is not None and bot.last.nodes <= 500 + 200  # depth 1 always finishes


def test_the_transposition_table_does_not_change_the_value() -> None:
    for row in middle_game_positions(4, seed=21):
        codes = kernel.legal_codes(row)
        for depth in (2, 3, 4):
            with_tt = Searcher(use_tt=True).search(row, codes, depth=depth, exact_all=True)
            without = Searcher(use_tt=False).search(row, codes, depth=depth, exact_all=True)
            assert dict(zip(with_tt.codes, with_tt.values, strict=True)) == dict(
                zip(without.codes, without.values, strict=True)
            )


def test_reductions_search_fewer_nodes_and_keep_the_tactics() -> None:
    rows = middle_game_positions(6, seed=7)
    plain = reduced = 0
    for row in rows:
        codes = kernel.legal_codes(row)
        plain += Searcher().search(row, codes, depth=6).nodes
        reduced += Searcher(reductions=True).search(row, codes, depth=6).nodes
    assert reduced < 0.8 * plain, (reduced, plain)
    # the win with the third own action is still found at its depth, and no sooner
    bot = AlphaBetaBot(1, depth=5, reductions=True)
    assert bot.analyse(state(WIN_IN_3))[0].value == WIN - 5
    assert str(bot.choose(state(MUST_BLOCK))) in {"Bb", "Bc", "Bd", "Be"}
    # only the top level reduces: a level's depth means every line of that length
    reducing = [n for n, _ in LEVELS[2:] if bot_for_level(n, 1).for_rules(Rules()).reductions]
    assert reducing == [LEVELS[-1][0]]


def test_evaluation_is_symmetric_and_bounded() -> None:
    for row in middle_game_positions(20, seed=8):
        value = evaluate(row, False, TUNED_EXPRESS, NO_NETWORK)
        assert abs(value) <= MAX_HEURISTIC
        assert immediate_win(row) in (0, 1)
    assert immediate_win(kernel.from_state(state(WIN_IN_1))) == 1


#: The bench signature: nodes of a depth-5 search (choose mode) of fixed positions.
#: Any change to the search or the evaluation changes it: update it on purpose.
BENCH_SIGNATURE = {"positions": 6, "seed": 7, "depth": 5, "nodes": 110_782}


def bench_signature_nodes() -> int:
    total = 0
    for row in middle_game_positions(6, seed=7):
        total += Searcher().search(row, kernel.legal_codes(row), depth=5).nodes
    return total


def test_bench_signature_is_stable() -> None:
    assert bench_signature_nodes() == bench_signature_nodes()
    assert bench_signature_nodes() == BENCH_SIGNATURE["nodes"]


def test_levels_are_a_ladder_of_searches() -> None:
    searches = LEVELS[2:]
    assert len(searches) >= 4
    s = state(MUST_BLOCK)
    depths = []
    for level, name in searches:
        bot = bot_for_level(level, 5)
        assert bot.name == name
        two, many = bot.for_rules(Rules()), bot.for_rules(Rules(players=3))
        assert isinstance(two, AlphaBetaBot) and isinstance(many, MctsBot)
        depths.append(two.depth if two.depth is not None else 99)
        assert many.iterations is None  # each search gets the level's budget for its game
        if level <= 5:
            assert str(bot.choose(s)) in {"Bb", "Bc", "Bd", "Be"}
    assert depths == sorted(depths) and len(set(depths)) == len(depths)
    three = State.initial(Rules(players=3), 0)
    iterations = [search_level(n).budget(three) or 0 for n, _ in searches]
    assert iterations == sorted(iterations) and len(set(iterations)) == len(iterations)


def search_level(number: int) -> LevelBot:
    bot = bot_for_level(number, 1)
    assert isinstance(bot, LevelBot)
    return bot


def test_levels_search_a_share_of_their_budget_in_the_slower_variants() -> None:
    top, novice, casual = search_level(LEVELS[-1][0]), search_level(3), search_level(4)
    assert top.rung.nodes is not None and top.rung.iterations is not None
    assert novice.rung.iterations is not None and casual.rung.iterations is not None
    for variant in Variant:
        two = State.initial(Rules(variant, 2), 0)
        four = State.initial(Rules(variant, 4), 0)
        share = ITERATION_SHARE[variant]
        # the MCTS levels keep their order in every variant
        budgets = [search_level(n).budget(four) or 0 for n, _ in LEVELS[2:]]
        assert budgets == sorted(budgets) and len(set(budgets)) == len(budgets)
        assert novice.budget(two) is None  # a depth level stays a depth level
        expected = variant is Variant.EXPRESS
        assert (top.budget(two) == top.rung.nodes) is expected
        two_share = ITERATION_SHARE if variant in top.rung.mcts_with_two else NODE_SHARE
        full = top.rung.iterations if variant in top.rung.mcts_with_two else top.rung.nodes
        assert top.budget(two) == round(full * two_share[variant])
        # the top level's cut playouts (3-4 player Expert and Extreme) are cheaper: more
        # of them; its blocking ones (3-4 player Express) dearer: fewer
        own = round(top.rung.iterations * share)
        if variant in top.rung.fitted_variants:
            assert top.budget(four) == own * FITTED_BUDGET_FACTOR
        else:
            assert variant is Variant.EXPRESS
            assert top.budget(four) == round(own / BLOCKING_BUDGET_DIVISOR)
        # the smallest budget at its own share, the ones between between the two shares
        low_share = FOUR_PLAYER_LOW_ITERATION_SHARE[variant]
        assert novice.budget(four) == round(novice.rung.iterations * low_share)
        between = casual.budget(four) or 0
        shares = sorted((low_share, share))
        assert round(casual.rung.iterations * shares[0]) <= between
        assert between <= round(casual.rung.iterations * shares[1])
        assert (shares[0] < shares[1]) is (variant is not Variant.EXTREME)
        if variant is Variant.EXPERT:  # level 3 whole, level 4 more than the top's share
            assert novice.budget(four) == novice.rung.iterations
            assert round(casual.rung.iterations * share) < between < casual.rung.iterations
        # with 3 players the plain low share; with 4 in Express twice level 3's budget
        three = State.initial(Rules(variant, 3), 0)
        assert novice.budget(three) == round(novice.rung.iterations * LOW_ITERATION_SHARE[variant])
        assert top.budget(three) == top.budget(four)
        if variant is Variant.EXPRESS:
            assert novice.budget(four) == 2 * novice.rung.iterations
            assert casual.rung.iterations < between < 2 * casual.rung.iterations
        else:
            assert novice.budget(three) == novice.budget(four)
    extreme = State.initial(Rules(Variant.EXTREME, 3), 0)
    budget = casual.budget(extreme)
    assert budget is not None and budget < casual.rung.iterations
    assert casual.limits_for(extreme, Limits(movetime_ms=500)) == Limits(500, None, budget)
    assert casual.limits_for(extreme, Limits(nodes=10)).nodes == 10  # the caller's lower limit
    casual.analyse(extreme)
    mcts = casual.for_rules(Rules(players=3))
    assert isinstance(mcts, MctsBot) and mcts.last is not None
    assert mcts.last.iterations == budget


def test_a_level_searches_its_budget_even_above_its_express_budget() -> None:
    novice = search_level(3)
    four = State.initial(Rules(players=4), 0)
    assert novice.rung.iterations is not None
    assert novice.budget(four) == 2 * novice.rung.iterations
    novice.choose(four)
    assert novice.mcts.last is not None and novice.mcts.last.iterations == novice.budget(four)
    novice.choose(State.initial(Rules(players=3), 0))
    assert novice.mcts.last.iterations == novice.rung.iterations


def test_the_top_level_keeps_its_node_budget_only_without_a_limit() -> None:
    """Given no limit, every search of the top level gets its node budget for the
    variant; with a clock, a movetime or a depth nothing caps its nodes, neither the
    limits nor the bot, and nodes it is given it searches, also above its budget."""
    top = search_level(LEVELS[-1][0])
    two = State.initial(Rules(), 0)
    budget = top.budget(two)
    assert budget == top.rung.nodes
    assert top.limits_for(two, Limits()).nodes == budget
    for bounded in (
        Limits(movetime_ms=5_000),
        Limits(clock_ms=180_000, increment_ms=2_000),
        Limits(depth=12),
    ):
        assert top.limits_for(two, bounded) == bounded
    assert top.limits_for(two, Limits(nodes=3 * budget)).nodes == 3 * budget
    # the MCTS (3-4 players) has no depths: a depth alone leaves its budget in place
    three = State.initial(Rules(players=3), 0)
    assert top.limits_for(three, Limits(depth=12)).nodes == top.budget(three)
    assert top.limits_for(three, Limits(nodes=5)).nodes == 5
    # a level below the top keeps its budget whatever the caller gives
    casual = search_level(4)
    assert casual.limits_for(three, Limits(depth=12)).nodes == casual.budget(three)
    assert top.alphabeta.nodes is None  # the bot itself adds no cap of its own
    # a node limit still stops an untimed search there (depth 1 always finishes)
    top.choose(State.from_position(MUST_BLOCK), Limits(nodes=3_000))
    assert top.alphabeta.last is not None and top.alphabeta.last.nodes <= 3_000 + 200


def test_a_scaled_budget_moves_geometrically_from_one_share_to_the_other() -> None:
    assert scaled_budget(1_000, 1.0, 0.25, 1_000, 100_000) == 1_000
    assert scaled_budget(100_000, 1.0, 0.25, 1_000, 100_000) == 25_000
    assert scaled_budget(10_000, 1.0, 0.25, 1_000, 100_000) == 5_000  # halfway: sqrt(0.25)
    assert scaled_budget(10_000, 0.15, 0.15, 1_000, 100_000) == 1_500  # one share: flat
    assert scaled_budget(500, 1.0, 0.25, 1_000, 100_000) == 500  # outside: the end's share
    assert scaled_budget(2_000_000, 0.4, 0.4, 2_000_000, 2_000_000) == 800_000  # one budget


def test_the_top_level_plays_the_alpha_beta_search_with_two_players_in_every_variant() -> None:
    """Extreme too, since its tuned evaluation beat the MCTS there (docs/strength.md)."""
    top = search_level(LEVELS[-1][0])
    for variant in Variant:
        assert top.for_rules(Rules(variant, 2)) is top.alphabeta
        assert top.for_rules(Rules(variant, 3)) is top.mcts
    assert all(not search_level(n).rung.mcts_with_two for n, _ in LEVELS[2:])
    assert "except in" not in top.value_unit


def test_a_level_can_play_the_mcts_with_two_players_in_chosen_variants() -> None:
    rung = replace(levels.level(LEVELS[-1][0]), mcts_with_two=frozenset({Variant.EXTREME}))
    top = LevelBot(rung, 1)
    assert rung.iterations is not None
    for variant in Variant:
        mcts = variant is Variant.EXTREME
        assert (top.for_rules(Rules(variant, 2)) is top.mcts) is mcts
    assert "2 players, except in Extreme" in top.value_unit
    # in 2-player Extreme it searches its share of the MCTS iterations, and finds the win
    win = State.from_position("extreme 2 7/7/7/7/7/g6/oooo3 o insert 18,21 8,0 0,0")
    ranked = top.analyse(win)
    assert top.mcts.last is not None and top.mcts.last.iterations <= (top.budget(win) or 0)
    assert top.budget(win) == round(rung.iterations * ITERATION_SHARE[Variant.EXTREME])
    assert top.mcts.proven(ranked[0].value) == 1
    options = win.after(ranked[0].action).scoring_options()
    assert max(option.points for option in options) == 2  # a line of five: 8 + 2 points


def test_a_rung_alarm_stops_the_search_and_cannot_be_undone() -> None:
    import time

    import numpy as np

    from shiftago.engine.alarm import Alarm
    from shiftago.engine.search.layout import NODE_LIMIT

    info = np.zeros(4, dtype=np.int64)
    alarm = Alarm(info, NODE_LIMIT, time.perf_counter())  # due at once
    wait_until(lambda: alarm.rung)
    assert alarm.rung and info[NODE_LIMIT] == 0
    assert not alarm.set(10_000) and info[NODE_LIMIT] == 0
    later = Alarm(info, NODE_LIMIT, time.perf_counter() + 60)
    assert later.set(10_000) and info[NODE_LIMIT] == 10_000
    later.cancel()


def test_movetime_stops_a_search_that_has_no_other_limit() -> None:
    # Without the alarm this search would go on to depth 60 (minutes); it answers in
    # about movetime, with the last finished depth and a legal best action.
    row = middle_game_positions(1, seed=5)[0]
    codes = kernel.legal_codes(row)
    result = Searcher().search(row, codes, movetime_ms=150)
    assert 1 <= result.depth < 40 and result.seconds < 10
    assert sorted(result.codes) == sorted(codes)


def test_a_search_stopped_before_it_starts_still_finishes_depth_1() -> None:
    # a controller's stop (or quit) can come before the search has begun: the answer
    # is then depth 1's, with the values it found, not the actions unsearched
    import threading

    row = middle_game_positions(1, seed=5)[0]
    codes = kernel.legal_codes(row)
    stop = threading.Event()
    stop.set()
    for threads in (1, 2):
        stopped = Searcher().search(row, codes, depth=8, stop=stop, threads=threads)
        one = Searcher().search(row, codes, depth=1)
        assert stopped.depth == 1
        assert (stopped.codes, stopped.values) == (one.codes, one.values)
        assert len(set(stopped.values)) > 1  # depth 1 tells the actions apart here


def test_a_cleared_searcher_searches_like_a_new_one() -> None:
    first, second = middle_game_positions(2, seed=13)
    reused = Searcher()
    reused.search(first, kernel.legal_codes(first), depth=5)
    reused.clear()
    again = reused.search(second, kernel.legal_codes(second), depth=5)
    fresh = Searcher().search(second, kernel.legal_codes(second), depth=5)
    assert (again.codes, again.values, again.nodes) == (fresh.codes, fresh.values, fresh.nodes)


def test_an_analysis_cut_off_by_its_node_limit_ranks_by_one_depth() -> None:
    bot = AlphaBetaBot(1)
    for row in middle_game_positions(4, seed=3):
        position = kernel.to_state(row)
        for nodes in (5_000, 20_000, 60_000):
            values = [ranked.value for ranked in bot.analyse(position, Limits(nodes=nodes))]
            assert values == sorted(values, reverse=True), (nodes, values)


@pytest.mark.parametrize(
    ("cores", "asked", "searched"), [(2, 64, 2), (2, 2, 2), (4, 3, 3), (1, 2, 1)]
)
def test_threads_beyond_the_cores_search_with_one_a_core(
    monkeypatch: pytest.MonkeyPatch, cores: int, asked: int, searched: int
) -> None:
    from shiftago.engine import alphabeta

    monkeypatch.setattr(alphabeta, "usable_cores", lambda: cores)
    seen: list[int] = []
    search = Searcher.search

    def spy(self: Searcher, *args: Any, **kwargs: Any) -> Any:
        seen.append(kwargs["threads"])
        return search(self, *args, **kwargs)

    monkeypatch.setattr(Searcher, "search", spy)
    start = Game(Rules(), first=0).state
    assert AlphaBetaBot(1, depth=2).choose(start, Limits(threads=asked)) in start.legal_actions()
    assert seen == [searched]


def test_the_first_report_of_a_second_parallel_search_counts_its_own_nodes() -> None:
    # the helpers' counts of the search before once made depth 1 of the next search
    # report hundreds of thousands of nodes (issue 53): each search counts its own
    row = middle_game_positions(1, seed=7)[0]
    codes = kernel.legal_codes(row)
    alone = Searcher().search(row, codes, depth=1)
    searcher = Searcher()
    firsts: list[tuple[int, int]] = []
    totals: list[int] = []
    for _ in range(2):
        reports: list[tuple[int, int]] = []
        searcher.clear()
        result = searcher.search(
            row,
            codes,
            nodes=30_000,
            threads=2,
            on_depth=lambda r, reports=reports: reports.append((r.depth, r.nodes)),
        )
        firsts.append(reports[0])
        totals.append(result.nodes)
    assert firsts[0] == firsts[1] == (1, alone.nodes)
    assert totals[0] > 30_000 > alone.nodes  # the first search did run its helper


def test_the_engines_first_info_line_of_a_second_search_has_its_own_nodes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # what the STP engine writes for go ... info=1 with Threads 2, two go in a row
    from shiftago.engine import alphabeta
    from shiftago.interfaces.stp.search import info_line

    monkeypatch.setattr(alphabeta, "usable_cores", lambda: 2)
    bot = AlphaBetaBot(1)
    state = kernel.to_state(middle_game_positions(1, seed=7)[0])
    firsts = []
    for _ in range(2):
        lines: list[str] = []
        hear = lines.append
        limits = Limits(nodes=30_000, threads=2, progress=lambda p, hear=hear: hear(info_line(p)))
        bot.choose(state, limits)
        firsts.append(lines[0])
    nodes = [int(line.split(" nodes ")[1].split()[0]) for line in firsts]
    assert all(line.startswith("info depth 1 ") for line in firsts)
    assert nodes[0] == nodes[1] < 1000, firsts
