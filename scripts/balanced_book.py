"""Make an opening book of balanced openings for `shiftago arena --openings`.

    python scripts/balanced_book.py --plies 4 --candidates 500 --keep 100 --seed 7 > book.txt

Draws ``candidates`` distinct openings of ``plies`` random actions (2-player Express,
orange first), values each with the top level's search (one thread, a fresh table) to
depth 10 and to depth 11 (the values of even and odd depths differ, docs/strength.md
"The aspiration window"), and writes the ``keep`` openings whose two values lie nearest
0 (the least sum of their sizes), one per line with both values in a comment. In a
match between two close engines most pairs of games of an arena's random 2-action
openings are won by the same seat in both games (docs/strength.md, "Two threads"):
openings that the search finds even leave more games to the players' strength.
"""

from __future__ import annotations

import argparse
import random

from shiftago.core import Game, Rules
from shiftago.engine import kernel
from shiftago.engine.kernel import from_state
from shiftago.engine.search import Searcher, warm_up

#: The two depths each opening is valued at (an even and an odd one).
DEPTHS = (10, 11)


def value(game: Game, depth: int) -> int:
    """The top level's value of the position for the seat to act, at ``depth``."""
    row = from_state(game.state, len(game.history))
    result = Searcher(reductions=True, tuned=True).search(row, kernel.legal_codes(row), depth=depth)
    return result.values[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plies", type=int, default=4, help="random actions per opening")
    parser.add_argument("--candidates", type=int, default=500, help="openings valued")
    parser.add_argument("--keep", type=int, default=100, help="openings written")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    warm_up()
    rng = random.Random(args.seed)
    valued: dict[tuple[str, ...], tuple[int, ...]] = {}
    while len(valued) < args.candidates:
        game = Game(Rules(), first=0)
        for _ in range(args.plies):
            game.play(rng.choice(game.legal_actions()))
        actions = tuple(str(a) for a in game.history)
        if game.is_over or actions in valued:
            continue
        valued[actions] = tuple(value(game, depth) for depth in DEPTHS)
    kept = sorted(valued.items(), key=lambda item: sum(abs(v) for v in item[1]))[: args.keep]
    print(
        f"# {len(kept)} of {args.candidates} openings of {args.plies} random actions "
        f"(seed {args.seed}) whose values at depths {DEPTHS[0]} and {DEPTHS[1]} lie nearest 0"
    )
    for actions, values in kept:
        print(f"{' '.join(actions)}  # {values[0]} {values[1]}")


if __name__ == "__main__":
    main()
