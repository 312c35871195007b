"""Make an opening book of balanced openings for `shiftago arena --openings`.

    python scripts/balanced_book.py --by value --candidates 500 --keep 100 > book.txt
    python scripts/balanced_book.py --by results --candidates 500 --keep 100 > book.txt

Draws ``candidates`` distinct openings of ``plies`` random actions (2-player Express,
orange first) and keeps ``keep`` of them, one per line with the figures that chose it
in a comment. In a match between two close engines most pairs of games of an arena's
random 2-action openings are won by the same seat in both games (docs/strength.md, "Two
threads"): openings that neither seat wins by itself leave more games to the players'
strength.

- ``--by value``: the top level's search (one thread, a fresh table) values each
  opening to depth 10 and to depth 11 (the values of even and odd depths differ,
  docs/strength.md "The aspiration window"); the openings whose two values lie nearest
  0 are kept.
- ``--by results``: the top level plays each opening against itself at two depths
  (``--pairs``, such as 7 against 9), from both seats, for each pair of depths; the
  openings after which orange wins one game of the two of every pair are kept, in the
  order drawn. The value does not see who is to move (the tuned evaluation has no such
  term), the games do.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import defaultdict

from shiftago.core import Game, Rules
from shiftago.engine import kernel
from shiftago.engine.kernel import from_state
from shiftago.engine.search import Searcher, warm_up
from shiftago.match.book import parse_book
from shiftago.match.runner import MatchConfig, run_match

#: The two depths each opening is valued at by ``--by value`` (an even and an odd one).
DEPTHS = (10, 11)

Opening = tuple[str, ...]


def value(game: Game, depth: int) -> int:
    """The top level's value of the position for the seat to act, at ``depth``."""
    row = from_state(game.state, len(game.history))
    result = Searcher(reductions=True, tuned=True).search(row, kernel.legal_codes(row), depth=depth)
    return result.values[0]


def draw_openings(count: int, plies: int, seed: int) -> list[tuple[Opening, Game]]:
    """``count`` distinct openings of ``plies`` random actions that do not end the game."""
    rng = random.Random(seed)
    drawn: dict[Opening, Game] = {}
    while len(drawn) < count:
        game = Game(Rules(), first=0)
        for _ in range(plies):
            game.play(rng.choice(game.legal_actions()))
        actions = tuple(str(a) for a in game.history)
        if not game.is_over:
            drawn.setdefault(actions, game)
    return list(drawn.items())


def by_value(openings: list[tuple[Opening, Game]], keep: int) -> list[tuple[Opening, str]]:
    """The ``keep`` openings whose values at :data:`DEPTHS` lie nearest 0."""
    warm_up()
    valued = {actions: tuple(value(game, d) for d in DEPTHS) for actions, game in openings}
    kept = sorted(valued.items(), key=lambda item: sum(abs(v) for v in item[1]))[:keep]
    return [(actions, " ".join(map(str, values))) for actions, values in kept]


def by_results(
    openings: list[tuple[Opening, Game]], keep: int, pairs: list[tuple[int, int]], jobs: int
) -> list[tuple[Opening, str]]:
    """The first ``keep`` openings after which orange wins one game of two with each
    pair of depths: neither seat wins them by itself at these depths."""
    book = parse_book("\n".join(" ".join(actions) for actions, _ in openings), "candidates")
    orange: defaultdict[int, list[float]] = defaultdict(lambda: [0.0] * len(pairs))
    for pair, (weaker, stronger) in enumerate(pairs):
        config = MatchConfig(
            participants=(f"level:7@depth={stronger}", f"level:7@depth={weaker}"),
            games=2 * len(openings),
            book=book,
            jobs=jobs,
            save_records=False,
        )
        for game in run_match(config).games:
            orange[game.opening][pair] += game.points[0]
        print(f"# depths {weaker} and {stronger} played", file=sys.stderr)
    kept = [n for n in range(len(openings)) if all(p == 1 for p in orange[n])][:keep]
    depths = ",".join(f"{weaker}:{stronger}" for weaker, stronger in pairs)
    return [(openings[n][0], f"orange 1 of 2 at each of depths {depths}") for n in kept]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--by", choices=("value", "results"), default="value")
    parser.add_argument("--plies", type=int, default=4, help="random actions per opening")
    parser.add_argument("--candidates", type=int, default=500, help="openings drawn")
    parser.add_argument("--keep", type=int, default=100, help="openings written")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--pairs", default="7:9,8:10", help="depth pairs of the self-play games (--by results)"
    )
    parser.add_argument("--jobs", type=int, default=2, help="games at once (--by results)")
    args = parser.parse_args()
    openings = draw_openings(args.candidates, args.plies, args.seed)
    if args.by == "value":
        kept = by_value(openings, args.keep)
        how = f"values at depths {DEPTHS[0]} and {DEPTHS[1]} lie nearest 0"
    else:
        pairs = [(int(a), int(b)) for a, b in (p.split(":") for p in args.pairs.split(","))]
        kept = by_results(openings, args.keep, pairs, args.jobs)
        how = f"self-play games at depths {args.pairs} orange wins one in two"
    print(
        f"# {len(kept)} of {args.candidates} openings of {args.plies} random actions "
        f"(seed {args.seed}) whose {how}"
    )
    for actions, figures in kept:
        print(f"{' '.join(actions)}  # {figures}")


if __name__ == "__main__":
    main()
