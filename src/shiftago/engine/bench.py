"""Speed figures for ``shiftago bench``: measured, never asserted; and the bench signature.

Each figure is the median of several timed runs. Keys are stable so that figures can
be compared between commits and machines.

The bench signature (:func:`bench_signature`, key ``bench_signature``) is not a speed:
it is the total node count of a fixed set of fixed-depth alpha-beta searches, the same
on every machine, under any load and with any thread count. It changes exactly when
the search visits other nodes (move ordering, pruning, reductions, evaluation, the
kernel's rules), so a commit that changes it changes the search, and says so.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

import numpy as np

from shiftago.core import Game, Rules, State, Variant

#: Express with 2 players is the headline figure; the others are measured alike.
CORE_CONFIGS: tuple[tuple[Variant, int], ...] = tuple((v, n) for v in Variant for n in (2, 3, 4))
#: Extreme has no natural end: random games get this action limit (RULES.md section 7).
RANDOM_GAME_ACTION_LIMIT = 400


def random_game_actions(variant: Variant, players: int, games: int, seed: int) -> int:
    """Play ``games`` seeded random games through the public API; return the actions.

    Each action is the public path a program takes: ``legal_actions()``, a choice from
    a seeded generator, and a validated ``play()``.
    """
    rng = random.Random(seed)
    rules = Rules(variant, players, action_limit=RANDOM_GAME_ACTION_LIMIT)
    actions = 0
    for i in range(games):
        game = Game(rules, first=i % players)
        while not game.is_over:
            game.play(rng.choice(game.legal_actions()))
            actions += 1
    return actions


def median_rate(measure: Callable[[int], int], runs: int) -> float:
    """The median over ``runs`` of (work done / seconds); ``measure(run)`` does the work."""
    rates = []
    for run in range(runs):
        start = time.perf_counter()
        work = measure(run)
        rates.append(work / (time.perf_counter() - start))
    return statistics.median(rates)


def core_figures(runs: int = 5, games: int = 600) -> dict[str, float]:
    """Random-game actions per second of the pure-Python core, per variant and players."""
    figures: dict[str, float] = {}
    for variant, players in CORE_CONFIGS:
        per_run = games if variant is Variant.EXPRESS else max(1, games // 8)

        def measure(run: int, v: Variant = variant, n: int = players, g: int = per_run) -> int:
            return random_game_actions(v, n, g, seed=run)

        key = f"core_actions_per_s_{variant.value}_{players}p"
        figures[key] = round(median_rate(measure, runs))
    return figures


#: Kernel playouts per timed run: many for the fast 2-player Express loop.
KERNEL_PLAYOUTS = 20_000
KERNEL_PLAYOUTS_EXPRESS_2P = 200_000


def middle_game_positions(count: int, seed: int) -> np.ndarray:
    """Kernel arrays of ``count`` 2-player Express positions after 8-20 random actions."""
    from shiftago.engine.kernel import from_state

    rng = random.Random(seed)
    rows: list[np.ndarray] = []
    while len(rows) < count:
        game = Game(Rules(), first=rng.randrange(2))
        for _ in range(rng.randint(8, 20)):
            if game.is_over:
                break
            game.play(rng.choice(game.legal_actions()))
        if not game.is_over:
            rows.append(from_state(game.state, len(game.history)))
    return np.array(rows)


def kernel_figures(runs: int = 5, quick: bool = False) -> dict[str, float]:
    """The numba kernel: random playouts per second from the empty board for every
    variant and player count (Extreme with the random-game action limit), and
    ``kernel_moves_per_s``: legal actions generated and each played on a copy (the
    play includes the line test) in 2-player Express middle-game positions."""
    from shiftago.engine.kernel import count_moves, from_state, random_playouts, warm_up

    warm_up()  # compile (or load the cache) before timing
    figures: dict[str, float] = {}
    for variant, players in CORE_CONFIGS:
        rules = Rules(variant, players, action_limit=RANDOM_GAME_ACTION_LIMIT)
        start = from_state(State.initial(rules, 0))
        games = KERNEL_PLAYOUTS
        if variant is Variant.EXPRESS and players == 2:
            games = KERNEL_PLAYOUTS_EXPRESS_2P
        games = 200 if quick else games

        def playouts(run: int, start: np.ndarray = start, games: int = games) -> int:
            random_playouts(start, games, run)
            return games

        key = f"kernel_playouts_per_s_{variant.value}_{players}p"
        figures[key] = round(median_rate(playouts, runs))
    positions = middle_game_positions(32 if quick else 256, seed=1)
    rounds = 2 if quick else 200

    def moves(run: int) -> int:
        return int(count_moves(positions, rounds))

    figures["kernel_moves_per_s"] = round(median_rate(moves, runs))
    return figures


#: The fixed middle-game search of ``search_nodes_per_s``: positions, seed and depth.
SEARCH_POSITIONS = (8, 1, 7)
#: Positions (count, seed) of ``depth_at_1s_median``.
DEPTH_POSITIONS = (5, 2)
#: The searches of ``smp_speedup_2_threads``: positions, seed and depth.
SMP_POSITIONS = (20, 11, 10)


def search_figures(runs: int = 5, quick: bool = False) -> dict[str, float]:
    """The 2-player alpha-beta search: ``search_nodes_per_s`` (nodes of fixed-depth
    searches of fixed 2-player Express middle-game positions, each with a fresh
    table), ``depth_at_1s_median`` (the depth the top level's iterative deepening, with
    its late move reductions, finishes in one second, median over fixed positions; 50 ms
    when ``quick``), ``time_to_depth_s_1_thread`` and ``time_to_depth_s_2_threads`` (the
    seconds the top level's search takes to a fixed depth of fixed positions, with one
    and two threads) and their ratio ``smp_speedup_2_threads``, and
    ``go_movetime_100_max_ms`` (:func:`go_movetime_max_ms`)."""
    from shiftago.engine.kernel import legal_codes
    from shiftago.engine.search import Searcher, warm_up

    warm_up()
    count, seed, depth = SEARCH_POSITIONS
    positions = middle_game_positions(2 if quick else count, seed=seed)
    depth = 4 if quick else depth

    def search(run: int) -> int:
        return sum(Searcher().search(row, legal_codes(row), depth=depth).nodes for row in positions)

    figures: dict[str, float] = {"search_nodes_per_s": round(median_rate(search, runs))}
    count, seed = DEPTH_POSITIONS
    depths = [  # searched as the top level searches: with late move reductions
        Searcher(reductions=True, tuned=True)
        .search(row, legal_codes(row), movetime_ms=50 if quick else 1000)
        .depth
        for row in middle_game_positions(2 if quick else count, seed=seed)
    ]
    figures["depth_at_1s_median"] = statistics.median(depths)
    count, seed, depth = SMP_POSITIONS
    rows = middle_game_positions(2 if quick else count, seed=seed)

    def time_to_depth(threads: int) -> float:
        start = time.perf_counter()
        for row in rows:
            searcher = Searcher(reductions=True, tuned=True)
            searcher.search(row, legal_codes(row), depth=5 if quick else depth, threads=threads)
        return time.perf_counter() - start

    one, two = time_to_depth(1), time_to_depth(2)
    figures["time_to_depth_s_1_thread"] = round(one, 3)
    figures["time_to_depth_s_2_threads"] = round(two, 3)
    figures["smp_speedup_2_threads"] = round(one / two, 2)
    figures["go_movetime_100_max_ms"] = round(go_movetime_max_ms(3 if quick else 20), 1)
    return figures


def go_movetime_max_ms(calls: int = 20, movetime: int = 100) -> float:
    """The longest answer (ms, from sending the line to reading the reply) of ``go
    movetime=MS`` over ``calls`` calls in a fresh engine (``python -m
    shiftago.interfaces.stp``), the first included; each answer is then played (a new
    game starts when one ends). The clock starts once the engine has answered its first
    command, as a controller waits for a started engine. The opening book is off: it
    answers at once, and the figure is how well a search keeps to its time."""
    import subprocess
    import sys

    proc = subprocess.Popen(
        [sys.executable, "-m", "shiftago.interfaces.stp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        bufsize=1,
    )
    assert proc.stdin is not None and proc.stdout is not None
    stdin, stdout = proc.stdin, proc.stdout

    def ask(line: str) -> str:
        stdin.write(line + "\n")
        stdin.flush()
        answer = stdout.readline()
        stdout.readline()  # the empty line that ends a response
        return answer.strip()

    try:
        ask("protocol_version")
        ask("setoption OwnBook 0")
        ask("newgame express 2 first=o")
        longest = 0.0
        for _ in range(calls):
            start = time.perf_counter()
            answer = ask(f"go movetime={movetime}")
            longest = max(longest, (time.perf_counter() - start) * 1000)
            if not answer.startswith("="):
                raise RuntimeError(f"go failed: {answer}")
            ask(f"play {answer[1:].strip()}")
            if not ask("status").startswith("= playing"):
                ask("newgame express 2 first=o")
        ask("quit")
    finally:
        stdin.close()
        proc.wait(timeout=30)
    return longest


def mcts_figures(quick: bool = False) -> dict[str, float]:
    """``mcts_iterations_per_s``: MCTS iterations (one path, one expansion, one playout)
    per second of the top configuration from a fixed 2-player Express middle game."""
    from shiftago.engine.mcts import bench_iterations

    return {"mcts_iterations_per_s": round(bench_iterations(0.2 if quick else 2.0))}


def test_position_figures(quick: bool = False) -> dict[str, float]:
    """How many of the test positions with known answers (:mod:`.testpositions`) the
    top level solves with ``movetime`` 500 ms each (``quick``: one of each kind, 50 ms),
    and how many there are."""
    from shiftago.engine.bot import Limits
    from shiftago.engine.levels import bot_for_level, default_level
    from shiftago.engine.search import warm_up
    from shiftago.engine.testpositions import load, solved

    warm_up()
    positions = load()
    if quick:
        positions = list({p.kind: p for p in positions}.values())
    bot = bot_for_level(default_level(), seed=1)
    right = solved(bot, positions, Limits(movetime_ms=50 if quick else 500))
    return {"test_positions_solved_at_500ms": sum(right), "test_positions_total": len(right)}


#: The positions of :func:`bench_signature`: 2-player test positions of every kind that
#: takes some search (:mod:`.testpositions`, copied here so that a new test set leaves
#: the signature alone), openings and middle games of Express, Expert and Extreme.
SIGNATURE_POSITIONS: tuple[str, ...] = (
    "express 2 g1ogggo/o1gog1o/o2oo1g/3gg2/3ooo1/2ogggo/gggooo1 g insert 6,7 0,0 0,0",
    "express 2 o2g1og/4ogg/ooggggo/ogooggo/g5o/3ooog/3g2g o insert 8,7 0,0 0,0",
    "express 2 o1og1gg/o3goo/go3g1/go4g/ogoo2o/go4g/1g3og o insert 9,9 0,0 0,0",
    "express 2 ogggoog/og2g1o/g6/7/gogoooo/g5o/5g1 g insert 11,11 0,0 0,0",
    "express 2 oooogog/2ggo1g/2oo3/2ogggo/2g3g/7/o6 g insert 11,12 0,0 0,0",
    "express 2 googggg/gg4o/1o1o2g/1g1o3/1g1o3/o1oo1go/g1og3 o insert 10,9 0,0 0,0",
    "express 2 2ggg2/4g2/7/4o2/4o2/4o2/4o2 g insert 18,18 0,0 0,0",
    "express 2 g6/7/7/5oo/1g2o2/go1ggo1/1o1ggoo g insert 14,15 0,0 0,0",
    "express 2 4o2/4o2/gg2g2/1o5/oggggo1/ogo4/oo5 g insert 13,14 0,0 0,0",
    "express 2 1oogggo/4ogg/5gg/7/7/6o/3o3 o insert 16,15 0,0 0,0",
    "express 2 3gogg/4g1o/4o1o/o6/oo5/gg5/4ogg o insert 14,14 0,0 0,0",
    "express 2 o5o/7/g6/7/5og/7/1g5 o insert 19,19 0,0 0,0",
    "express 2 7/7/7/7/7/7/7 o insert 22,22 0,0 0,0",
    "expert 2 7/7/7/7/7/7/7 o insert 22,22 0,0 0,0",
    "expert 2 4g2/7/7/7/6o/7/go5 o insert 20,20 0,0 0,0",
    "expert 2 gggooog/2oogo1/4g2/oo1g2g/3o3/3o1g1/2ogogg o insert 10,10 0,0 0,0",
    "extreme 2 gogg1oo/3o1og/5og/go4o/g5g/5og/ggo1ooo o insert 9,11 0,0 0,0",
)
#: The depth of every search of :func:`bench_signature` (about a second in all).
SIGNATURE_DEPTH = 8


def bench_signature() -> int:
    """The total nodes of fixed-depth searches of :data:`SIGNATURE_POSITIONS`.

    Each position is searched to :data:`SIGNATURE_DEPTH` as the top level searches
    (late move reductions on, the tuned evaluation) by a new
    :class:`~shiftago.engine.search.Searcher` (a fresh table), on one thread, without a
    time or node limit: the count depends on the search's code alone."""
    from shiftago.engine.kernel import from_state, legal_codes
    from shiftago.engine.search import Searcher

    total = 0
    for position in SIGNATURE_POSITIONS:
        s = from_state(State.from_position(position))
        searcher = Searcher(reductions=True, tuned=True)
        total += searcher.search(s, legal_codes(s), depth=SIGNATURE_DEPTH).nodes
    return total


def run_bench(runs: int = 5, quick: bool = False) -> dict[str, float]:
    """Every figure of ``shiftago bench`` and the bench signature (the same with
    ``quick``, which measures less: for smoke tests)."""
    figures: dict[str, float] = {"bench_signature": bench_signature()}
    figures.update(core_figures(runs=runs, games=20 if quick else 600))
    figures.update(kernel_figures(runs=runs, quick=quick))
    figures.update(search_figures(runs=runs, quick=quick))
    figures.update(mcts_figures(quick=quick))
    figures.update(test_position_figures(quick=quick))
    return figures
