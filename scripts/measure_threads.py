"""How much faster two search threads reach a depth than one (docs/strength.md, "Two
threads").

    python scripts/measure_threads.py fixed [--runs 3]
        The top level's search of the benchmark's positions (``SMP_POSITIONS``) to its
        fixed depth, one thread and two in turn on each position, so that the
        machine's drift within a run cancels; one line per run.
    python scripts/measure_threads.py clock [--games 8] [--movetime 600]
        The positions before the 24th action of depth-7 self-play games (2 random
        actions first), each searched at ``movetime`` by one thread and by two: the
        time at which the main thread finished the deepest depth (6 or more) both
        finished, one thread's over two threads' (geometric mean).
    python scripts/measure_threads.py depth [--games 20] [--positions 150] [--movetime 300]
        The first ``positions`` positions of those games that one thread does not
        prove at ``movetime``, each searched by one thread at ``movetime``, 1.6 times
        and twice it, and by two threads at ``movetime``: the mean depth each finished
        (which time one thread needs to search as deep as two).

Run it on an otherwise idle machine; only figures taken one after the other compare.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time

import numpy as np

from shiftago.core import Game, Rules
from shiftago.engine import kernel
from shiftago.engine.bench import SMP_POSITIONS, middle_game_positions
from shiftago.engine.bot import Limits
from shiftago.engine.levels import bot_for_level
from shiftago.engine.search import PROVEN, Searcher, SearchResult, warm_up


def fixed_depth(runs: int) -> None:
    count, seed, depth = SMP_POSITIONS
    rows = middle_game_positions(count, seed=seed)

    def timed(row: np.ndarray, threads: int) -> tuple[float, int]:
        start = time.perf_counter()
        result = Searcher(reductions=True, tuned=True).search(
            row, kernel.legal_codes(row), depth=depth, threads=threads
        )
        return time.perf_counter() - start, result.nodes

    timed(rows[0], 2)  # the helper's first start
    for _ in range(runs):
        seconds = [0.0, 0.0]
        nodes = [0, 0]
        for row in rows:
            for k, threads in enumerate((1, 2)):
                spent, visited = timed(row, threads)
                seconds[k] += spent
                nodes[k] += visited
        print(
            f"depth {depth}: 1 thread {seconds[0]:.2f} s {nodes[0] / 1e6:.1f} M nodes, "
            f"2 threads {seconds[1]:.2f} s {nodes[1] / 1e6:.1f} M nodes, "
            f"ratio {seconds[0] / seconds[1]:.2f}",
            flush=True,
        )


def game_positions(games: int) -> list[np.ndarray]:
    positions = []
    for g in range(games):
        rng = random.Random(g)
        game = Game(Rules(), first=0)
        for _ in range(2):
            game.play(rng.choice(game.legal_actions()))
        player = bot_for_level(7, seed=g)
        while not game.is_over and len(game.history) < 24:
            positions.append(kernel.from_state(game.state))
            game.play(player.choose(game.state, Limits(depth=7)))
    return positions


def under_a_clock(games: int, movetime_ms: int) -> None:
    def depth_times(row: np.ndarray, threads: int) -> dict[int, float]:
        times: dict[int, float] = {}

        def hear(result: SearchResult) -> None:
            times[result.depth] = result.seconds

        Searcher(reductions=True, tuned=True).search(
            row, kernel.legal_codes(row), movetime_ms=movetime_ms, threads=threads, on_depth=hear
        )
        return times

    logs = []
    for row in game_positions(games):
        one, two = depth_times(row, 1), depth_times(row, 2)
        common = [d for d in one if d in two and d >= 6 and one[d] > 0.01]
        if common:
            deepest = max(common)
            logs.append(math.log(one[deepest] / two[deepest]))
    print(
        f"{len(logs)} positions, movetime {movetime_ms}: two threads reach a depth "
        f"{math.exp(statistics.mean(logs)):.2f} times as fast as one (geometric mean)"
    )


def depth_by_time(games: int, positions: int, movetime_ms: int) -> None:
    configs = [(1, movetime_ms), (2, movetime_ms), (1, movetime_ms * 1.6), (1, movetime_ms * 2)]
    depths: list[list[int]] = [[] for _ in configs]
    for row in game_positions(games):
        if len(depths[0]) == positions:
            break
        legal = kernel.legal_codes(row)
        if len(legal) < 2:
            continue
        # one thread at movetime: the figure of the first row, and the test of a proof
        first = Searcher(reductions=True, tuned=True).search(row, legal, movetime_ms=movetime_ms)
        if abs(first.values[0]) >= PROVEN:
            continue
        depths[0].append(first.depth)
        for found, (threads, ms) in zip(depths[1:], configs[1:], strict=True):
            searcher = Searcher(reductions=True, tuned=True)
            found.append(searcher.search(row, legal, movetime_ms=ms, threads=threads).depth)
    for found, (threads, ms) in zip(depths, configs, strict=True):
        print(
            f"{threads} thread{'s' if threads > 1 else ''} at {ms:.0f} ms: mean depth "
            f"{statistics.mean(found):.2f} over {len(found)} positions"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("measure", choices=["fixed", "clock", "depth"])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--games", type=int, default=None)
    parser.add_argument("--movetime", type=int, default=None)
    parser.add_argument("--positions", type=int, default=150)
    args = parser.parse_args()
    warm_up()
    if args.measure == "fixed":
        fixed_depth(args.runs)
    elif args.measure == "clock":
        under_a_clock(args.games or 8, args.movetime or 600)
    else:
        depth_by_time(args.games or 20, args.positions, args.movetime or 300)


if __name__ == "__main__":
    main()
