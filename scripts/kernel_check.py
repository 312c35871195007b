"""The long check of the numba kernel against the core, action by action.

    .venv/bin/python scripts/kernel_check.py [--games N] [--seed S]

Plays N seeded games (default 200) from the start and N from random set-up positions
for every variant and player count (18 N games in all, plus fixed positions for the
rarest rules), checking at every step the state, the legal actions and at the end the
outcome (see ``shiftago.engine.kernel.check``). Prints how often each rare rule was met;
exits with 1 if one was never met (any disagreement stops it with an AssertionError).
"""

from __future__ import annotations

import argparse
import sys
import time

from shiftago.engine.kernel.check import RARE, report, run_games


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per configuration")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    start = time.perf_counter()
    seen = run_games(args.games, seed=args.seed)
    print(report(seen))
    print(f"agreed at every step, {time.perf_counter() - start:.1f} s")
    missing = [name for name in RARE if not seen[name]]
    if missing:
        print(f"never met: {', '.join(missing)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
