"""The time manager and the search's use of time, stops, progress and threads.

The budgets are pure arithmetic. The searches here are bounded by depth or nodes,
except where the point is how a search ends under a clock or a stop: those assert that
it ends (and never past its clock), not how fast."""

from __future__ import annotations

import itertools
import threading
import time

import numpy as np
import pytest

from shiftago.core import Game, Rules, State
from shiftago.engine import kernel
from shiftago.engine.alphabeta import AlphaBetaBot
from shiftago.engine.bench import middle_game_positions
from shiftago.engine.bot import Limits, Progress
from shiftago.engine.kernel.tables import INSERTIONS
from shiftago.engine.levels import bot_for_level
from shiftago.engine.search import Searcher, warm_up
from shiftago.engine.timing import CLOCK_SAFETY_MS, TimeBudget, budget, stretch
from support.waiting import wait_until


def test_movetime_is_the_whole_budget_and_wins_over_a_clock() -> None:
    assert budget(Limits(movetime_ms=300)) == TimeBudget(300.0, 300.0, fill=True)
    assert budget(Limits(movetime_ms=300, clock_ms=60_000)) == TimeBudget(300.0, 300.0, fill=True)
    assert budget(Limits(depth=5)) is None


def test_limits_after_time_spent_keep_the_rest() -> None:
    assert Limits(movetime_ms=300).after(0.12) == Limits(movetime_ms=180)
    assert Limits(movetime_ms=300).after(0.5) == Limits(movetime_ms=1)
    assert Limits(clock_ms=1_000, increment_ms=50).after(0.25) == Limits(
        clock_ms=750, increment_ms=50
    )
    assert Limits(clock_ms=100).after(1.0) == Limits(clock_ms=0)
    assert Limits(nodes=500).after(3.0) == Limits(nodes=500)  # no time to spend


@pytest.mark.parametrize("clock", [0, 5, 50, 400, 3_000, 60_000, 180_000])
@pytest.mark.parametrize("increment", [0, 100, 2_000])
@pytest.mark.parametrize("moves", [None, 1, 5, 40])
def test_a_clock_budget_stays_inside_the_clock(
    clock: int, increment: int, moves: int | None
) -> None:
    got = budget(Limits(clock_ms=clock, increment_ms=increment, moves_to_go=moves))
    assert got is not None and not got.fill
    assert got.target_ms <= got.hard_ms
    # never the whole clock: a safety margin (or a share of a tiny clock) stays free
    assert got.hard_ms <= max(clock - min(CLOCK_SAFETY_MS, 0.2 * clock), 1.0)


def test_a_clock_is_spread_over_the_actions_to_come() -> None:
    many = budget(Limits(clock_ms=60_000, moves_to_go=30))
    few = budget(Limits(clock_ms=60_000, moves_to_go=3))
    last = budget(Limits(clock_ms=60_000, moves_to_go=1))
    assert many is not None and few is not None and last is not None
    assert many.target_ms < few.target_ms < last.target_ms
    with_increment = budget(Limits(clock_ms=60_000, increment_ms=2_000))
    without = budget(Limits(clock_ms=60_000))
    assert with_increment is not None and without is not None
    assert with_increment.target_ms > without.target_ms


def test_the_target_stretches_where_the_position_needs_it() -> None:
    assert stretch(False, 0) == 1.0
    assert stretch(True, 0) > 1.0 and stretch(False, 100) > 1.0
    assert stretch(True, 100) > stretch(True, 0)


def test_a_fast_game_on_clocks_never_runs_out_of_time() -> None:
    # 2 s each and 50 ms a move, both sides the top level: far faster than any real
    # game, so the whole game checks that the hard limit stays inside the clock. The
    # search is compiled first, as an engine does before its first timed search.
    warm_up()
    game = Game(Rules(), first=0)
    bots = [bot_for_level(7, 1), bot_for_level(7, 2)]
    clocks = [2_000.0, 2_000.0]
    while not game.is_over and len(game.history) < 60:
        seat = game.turn
        started = time.perf_counter()
        action = bots[seat].choose(game.state, Limits(clock_ms=int(clocks[seat]), increment_ms=50))
        clocks[seat] -= (time.perf_counter() - started) * 1000
        assert clocks[seat] > 0, f"seat {seat} ran out of time at action {len(game.history)}"
        clocks[seat] += 50
        game.play(action)


def test_progress_reports_each_finished_depth_in_order() -> None:
    seen: list[Progress] = []
    position = kernel.to_state(middle_game_positions(1, seed=3)[0])
    bot = AlphaBetaBot(1)
    ranked = bot.analyse(position, Limits(depth=5, progress=seen.append))
    assert [p.depth for p in seen] == [1, 2, 3, 4, 5]
    assert all(len(p.lines) == len(position.legal_actions()) for p in seen)
    assert [p.nodes for p in seen] == sorted(p.nodes for p in seen)
    # the last report is the answer
    assert [r.action for r in seen[-1].lines] == [r.action for r in ranked]
    assert seen[-1].value == ranked[0].value and seen[-1].pv == ranked[0].pv


@pytest.mark.parametrize(("seed", "index", "nodes"), [(1, 0, 2_000), (2, 2, 5_000)])
def test_the_last_report_of_a_choice_is_its_answer(seed: int, index: int, nodes: int) -> None:
    """In these searches the node limit cuts a depth short after one of its actions beat
    the last finished depth's best: the answer is that action, and a final report says
    so after the depths' reports."""
    seen: list[Progress] = []
    position = kernel.to_state(middle_game_positions(4, seed=seed)[index])
    answer = bot_for_level(7, 1).choose(position, Limits(nodes=nodes, progress=seen.append))
    *depths, last = seen
    assert not any(p.final for p in depths) and last.final
    assert last.pv[0] == answer != depths[-1].pv[0]
    assert last.depth == depths[-1].depth and last.nodes >= depths[-1].nodes


def test_progress_of_a_proven_win_counts_the_actions() -> None:
    seen: list[Progress] = []
    win_in_1 = State.from_position("express 2 7/7/7/7/7/g6/oooo3 o insert 18,21 0,0 0,0")
    AlphaBetaBot(1).choose(win_in_1, Limits(depth=3, progress=seen.append))
    assert seen and seen[-1].proven == 1 and str(seen[-1].pv[0]) in {"L1", "R1"}


def test_no_progress_without_a_listener_and_none_from_a_single_action() -> None:
    bot = AlphaBetaBot(1)
    position = kernel.to_state(middle_game_positions(1, seed=4)[0])
    bot.choose(position, Limits(depth=3))  # nothing to call: no error


def test_stop_ends_an_infinite_analysis_with_its_best_so_far() -> None:
    stop = threading.Event()
    seen: list[Progress] = []
    answer: list[object] = []
    position = kernel.to_state(middle_game_positions(1, seed=6)[0])
    bot = bot_for_level(7, 1)
    limits = Limits(infinite=True, stop=stop, progress=seen.append)
    worker = threading.Thread(target=lambda: answer.append(bot.analyse(position, limits)))
    worker.start()
    # up to 30 s for the first depths on a busy machine
    wait_until(lambda: len(seen) >= 3 or not worker.is_alive(), timeout=30)
    assert worker.is_alive(), "an infinite analysis answered before it was stopped"
    stop.set()
    worker.join(timeout=30)
    assert not worker.is_alive()
    ranked = answer[0]
    assert isinstance(ranked, list) and len(ranked) == len(position.legal_actions())


def test_an_infinite_analysis_needs_a_stop() -> None:
    with pytest.raises(ValueError, match="stop"):
        Limits(infinite=True)


@pytest.mark.parametrize("seed", [3, 8, 21])
def test_parallel_search_returns_legal_sound_results(seed: int) -> None:
    # Two and three threads over one table: every root action once, a value that a
    # one-thread search of the same depth agrees with on proven positions, and the
    # best action never worse than the one-thread search's at that depth.
    row = middle_game_positions(1, seed=seed)[0]
    codes = kernel.legal_codes(row)
    single = Searcher(tt_bits=16).search(row, codes, depth=5, exact_all=True)
    for threads in (2, 3):
        parallel = Searcher(tt_bits=16).search(row, codes, depth=5, exact_all=True, threads=threads)
        assert sorted(parallel.codes) == sorted(codes)
        assert parallel.depth >= 5
        if parallel.depth == 5:
            assert parallel.values[0] == single.values[0]
        assert parallel.values == sorted(parallel.values, reverse=True)


def _root_values(
    row: np.ndarray, depth: int, defer: bool, marked: list[int], node_limit: int = 1 << 62
) -> tuple[list[int], int, np.ndarray]:
    """Every root action's exact value at ``depth`` (no table, no reductions: the
    values do not depend on the order of search), the nodes, and the busy table after,
    with the busy marks of ``marked`` (codes) set beforehand for every root child's
    position: as if another thread were in those actions."""
    from shiftago.engine.search import layout, sharing
    from shiftago.engine.search import negamax as nm
    from shiftago.engine.search.ttable import new_table
    from shiftago.engine.search.zobrist import zobrist

    tables = layout.new_tables(new_table(10))
    stack, killers, busy, info = tables.stack, tables.killers, tables.busy, tables.info
    codes = kernel.legal_codes(row)
    for code in codes:
        child = row.copy()
        kernel.apply_action(child, code)
        key = int(np.array([zobrist(child)], dtype=np.uint64).view(np.int64)[0])
        for other in marked:
            mark = sharing.busy_mark(key, other)
            busy[mark & (busy.shape[0] - 1)] = mark
    killers[:] = -1
    stack[0] = row
    info[layout.USE_TT] = 0
    info[layout.DEFER] = 1 if defer else 0
    info[layout.NODE_LIMIT] = node_limit
    values = np.zeros(len(codes), dtype=np.int64)
    nm.search_root(*tables, np.array(codes), values, depth, True, nm.NO_GUESS)
    return [int(v) for v in values], int(info[layout.NODES]), busy


@pytest.mark.parametrize("seed", [4, 9])
def test_an_action_another_thread_is_in_is_put_off_not_left_out(seed: int) -> None:
    # Deferring changes the order in which a node's actions are searched (hence the
    # nodes), never a value; a thread leaves none of its own marks behind.
    row = middle_game_positions(1, seed=seed)[0]
    plain, plain_nodes, _ = _root_values(row, 4, defer=False, marked=[])
    marked = list(range(0, INSERTIONS, 3))
    values, nodes, _ = _root_values(row, 4, defer=True, marked=marked)
    assert values == plain
    assert nodes != plain_nodes
    alone, alone_nodes, busy = _root_values(row, 4, defer=True, marked=[])
    assert (alone, alone_nodes) == (plain, plain_nodes)
    assert not busy.any()


def test_a_stopped_search_takes_its_marks_out_of_the_busy_table() -> None:
    row = middle_game_positions(1, seed=6)[0]
    _, nodes, busy = _root_values(row, 8, defer=True, marked=[], node_limit=20_000)
    assert nodes == 20_000  # stopped deep in the tree, with marks on its way down
    assert not busy.any()


@pytest.mark.parametrize("seed", [11, 12])
def test_the_helper_thread_searches_the_main_thread_s_depth_or_its_own_next(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Two threads: the helper searches the depth the main thread searches (the two
    # share its work by putting off what the other is in), or its own next depth when it
    # finished first; never one the main thread has passed (docs/strength.md, "Two
    # threads").
    from shiftago.engine.search import driver

    searched = driver._search_depth
    main_started: list[int] = []
    helper_starts: list[tuple[int, int]] = []  # (depth, the main thread's depth then)
    lock = threading.Lock()

    def traced(tables, codes, buffer, depth, exact_all, guess):  # type: ignore[no-untyped-def]
        with lock:
            if threading.current_thread().name.startswith("search-helper"):
                helper_starts.append((depth, max(main_started, default=0)))
            else:
                main_started.append(depth)
        return searched(tables, codes, buffer, depth, exact_all, guess)

    monkeypatch.setattr(driver, "_search_depth", traced)
    row = middle_game_positions(20, seed=seed)[0]
    result = Searcher(reductions=True, tuned=True).search(
        row, kernel.legal_codes(row), depth=10, threads=2
    )
    assert result.depth == 10
    # deep enough that a depth takes the main thread milliseconds: it cannot begin one
    # between the helper's choice and its start
    deep = [(d, main) for d, main in helper_starts if 7 <= d < 10]
    assert deep, helper_starts
    assert all(main <= d for d, main in deep), helper_starts
    for (before, _), (d, main) in itertools.pairwise(helper_starts):
        if 7 <= d < 10:
            assert d == max(before + 1, main), helper_starts


def test_a_depth_only_a_helper_finished_is_announced_before_the_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The main thread's depth 4 waits until the helper has finished the search's last
    # depth, and is then cut off: the answer is the helper's depth 6, and the progress
    # says so before it, as the last depth it hears of.
    from shiftago.engine.search import driver

    searched = driver._search_depth
    helper_done = threading.Event()

    def traced(tables, codes, buffer, depth, exact_all, guess):  # type: ignore[no-untyped-def]
        helper = threading.current_thread().name.startswith("search-helper")
        if not helper and depth >= 4:
            assert helper_done.wait(30)
            return 0  # cut off before it finished an action
        done = searched(tables, codes, buffer, depth, exact_all, guess)
        if helper and depth == 6 and done == len(codes):
            helper_done.set()
        return done

    monkeypatch.setattr(driver, "_search_depth", traced)
    row = middle_game_positions(1, seed=7)[0]
    heard: list[tuple[int, int]] = []
    result = Searcher(reductions=True, tuned=True).search(
        row,
        kernel.legal_codes(row),
        depth=6,
        threads=2,
        on_depth=lambda r: heard.append((r.depth, r.codes[0])),
    )
    assert result.depth == 6
    assert [d for d, _ in heard] == [1, 2, 3, 6]
    assert heard[-1] == (6, result.codes[0])


def test_a_cut_off_depth_puts_first_only_an_action_that_beat_the_first() -> None:
    from shiftago.engine.search.driver import _beaten, _searched

    codes, values = [10, 11, 12, 13], [50, 40, 30, 20]
    # at the cut-off depth the first action is worth 45 and the third beat it with 60
    searched = _searched(codes, np.array([45, 44, 60, 0]), 3)
    assert searched == {10: 45, 11: 44, 12: 60}
    assert _beaten(codes, values, searched) == ([12, 10, 11, 13], [60, 50, 40, 20], True)
    # nothing beat the first there: the finished depth's ranking stands
    assert _beaten(codes, values, {10: 45, 11: 44, 12: 45}) == (codes, values, False)
    # only the first action was finished: nothing to compare it with
    assert _beaten(codes, values, {10: 45}) == (codes, values, False)
    # a helper searched in its meeting order: the last action beat the first
    assert _beaten(codes, values, {10: 45, 13: 70}) == ([13, 10, 11, 12], [70, 50, 40, 30], True)
    # of two that beat it equally, the first searched
    assert _beaten(codes, values, {10: 45, 13: 70, 11: 70})[0][0] == 13
    assert codes == [10, 11, 12, 13] and values == [50, 40, 30, 20]  # not changed


def test_a_helper_meets_the_main_thread_in_the_middle_of_the_root_actions() -> None:
    from shiftago.engine.search.driver import _meeting_order

    assert _meeting_order([7, 3, 9, 1, 4]) == [7, 4, 1, 9, 3]
    assert _meeting_order([7]) == [7]


def test_a_depth_s_aspiration_window_is_centred_on_the_value_of_two_depths_before() -> None:
    # the first root action's value alternates with the depth's parity, so the depth
    # of the same parity is the better guess (docs/strength.md, "The aspiration window")
    from shiftago.engine.search.driver import _aspiration_guess
    from shiftago.engine.search.negamax import NO_GUESS

    firsts = {1: 40, 2: -10, 3: 35, 4: -20}
    assert _aspiration_guess(firsts, 5) == 35
    assert _aspiration_guess(firsts, 6) == -20
    # a depth two before that is not finished (a helper skipped it): the deepest one of
    # the same parity, else the deepest one
    assert _aspiration_guess({1: 40, 2: -10, 3: 35}, 6) == -10
    assert _aspiration_guess({1: 40, 3: 35}, 5) == 35
    assert _aspiration_guess({1: 40, 3: 35}, 6) == 35
    assert _aspiration_guess({}, 2) == NO_GUESS


def test_a_value_falls_against_the_depth_of_the_same_parity() -> None:
    # the values alternate with the depth's parity: a fall of the first value, which
    # stretches a clock's target, is measured against two depths before
    from shiftago.engine.search.driver import _fall

    firsts = {1: 10, 2: -40, 3: 15, 4: -45, 5: -30}
    assert _fall(firsts, 4) == 5  # -40 to -45: not the 60 from depth 3
    assert _fall(firsts, 5) == 45  # 15 to -30
    assert _fall({1: 10, 2: -40}, 2) == 50  # no depth two before: the depth before
    assert _fall({1: 10}, 1) == 0


def _shared_root_search(row: np.ndarray, depth: int, root_best: int) -> tuple[list[int], int]:
    """One thread's depth of ``row`` with deferring on (as with other threads), the
    shared root best set to ``root_best`` beforehand: the root values and the shared
    best after."""
    from shiftago.engine.search import layout
    from shiftago.engine.search import negamax as nm
    from shiftago.engine.search.ttable import new_table

    tables = layout.new_tables(new_table(12))
    tables.killers[:] = -1
    tables.stack[0] = row
    tables.info[layout.USE_TT] = 1
    tables.info[layout.DEFER] = 1
    tables.info[layout.NODE_LIMIT] = 1 << 62
    tables.root_best[depth] = root_best
    codes = kernel.legal_codes(row)
    values = np.zeros(len(codes), dtype=np.int64)
    done = nm.search_root(*tables, np.array(codes), values, depth, False, nm.NO_GUESS)
    return [int(v) for v in values[:done]], int(tables.root_best[depth])


def test_threads_share_the_best_root_action_of_a_depth() -> None:
    from shiftago.engine.search.sharing import pack_root_best, unpack_root_best

    row = middle_game_positions(1, seed=5)[0]
    codes = kernel.legal_codes(row)
    # alone, a thread publishes its best action and value
    values, shared = _shared_root_search(row, 4, 0)
    best = max(range(len(codes)), key=lambda j: values[j])
    assert unpack_root_best(shared) == (values[best], codes[best])
    # a better one another thread published is taken: it comes first, with its value
    other = codes[-1] if best != len(codes) - 1 else codes[0]
    taken = values[best] + 500
    better = pack_root_best(taken, other)
    values, shared = _shared_root_search(row, 4, better)
    assert max(values) == values[codes.index(other)] == taken
    assert shared == better  # and stays the shared best
    # packed numbers order as their values, whatever the actions
    assert pack_root_best(-3, 600) < pack_root_best(-2, 0) < pack_root_best(5, 1)
    assert unpack_root_best(pack_root_best(-29_999, 667)) == (-29_999, 667)


def test_the_answer_is_the_ranking_of_the_thread_that_knows_most() -> None:
    from shiftago.engine.search.driver import _best_known, _Finished

    main = _Finished(8, [1, 2], [5, 4])
    beaten = _Finished(8, [2, 1], [9, 5], beaten=True)
    deeper = _Finished(9, [2, 1], [7, 3])
    assert _best_known(main, [beaten, deeper]) is deeper
    assert _best_known(main, [beaten]) is beaten
    assert _best_known(main, [_Finished(7, [2, 1], [9, 5], beaten=True)]) is main
    # both cut-off depths found a better action: the better of the two (exact values of
    # the same depth), and the main thread's on a tie
    main_beaten = _Finished(8, [1, 2], [6, 4], beaten=True)
    assert _best_known(main_beaten, [beaten]) is beaten
    main_beaten_more = _Finished(8, [3, 2], [9, 4], beaten=True)
    assert _best_known(main_beaten_more, [beaten]) is main_beaten_more


def test_a_thread_count_below_one_is_refused() -> None:
    with pytest.raises(ValueError, match="threads"):
        Limits(threads=0)


def test_a_timed_search_keeps_its_table_for_the_next_action() -> None:
    # A timed search is not repeatable anyway: it keeps what it found for the next one.
    # A depth-limited one starts afresh, so the same seed plays the same.
    position = kernel.to_state(middle_game_positions(1, seed=9)[0])
    bot = AlphaBetaBot(1, nodes=20_000)
    first = bot.analyse(position, Limits(depth=4))
    again = bot.analyse(position, Limits(depth=4))
    assert first == again


def test_a_cut_off_depth_never_takes_a_bound_below_another_thread_s_best_for_better() -> None:
    # After taking another thread's better root best, the actions that fail low against
    # it have only bounds above them; a depth cut off then must not rank any of them
    # above the first action, whose value is exact (driver._beaten relies on it).
    from shiftago.engine.search import layout, sharing
    from shiftago.engine.search import negamax as nm
    from shiftago.engine.search.ttable import new_table

    game = Game(Rules(), first=0)
    for text in ("Td", "Tc", "L4", "R4"):
        game.play(next(a for a in game.legal_actions() if str(a) == text))
    row = kernel.from_state(game.state)
    codes = kernel.legal_codes(row)
    depth = 7
    tables = layout.new_tables(new_table(14))
    tables.killers[:] = -1
    tables.stack[0] = row
    tables.info[layout.USE_TT] = 1
    tables.info[layout.DEFER] = 1
    tables.info[layout.TUNED] = 1
    tables.info[layout.NODE_LIMIT] = 100_000  # stops after a few root actions
    tables.root_best[depth] = sharing.pack_root_best(300, codes[-1])
    values = np.zeros(len(codes), dtype=np.int64)
    done = nm.search_root(*tables, np.array(codes), values, depth, False, nm.NO_GUESS)
    assert 2 <= done < len(codes)
    assert max(values[:done]) == values[0], values[:done]
