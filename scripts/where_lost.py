#!/usr/bin/env python3
"""Where a 3-4 player game was lost: for each game of an arena's results that a seat
lost, walk back over that seat's own actions from the end and search each position
with the top level's guarded MCTS, until one where some action is not proven lost for
it (docs/strength.md, "Where the lost games were lost").

    python scripts/where_lost.py RESULTS.jsonl RECORDS_DIR --seat-name yours-main \\
        --iterations 200000 --games 30

Prints one JSON line per lost game: who won (the seat after the loser, or another),
the game's length, and each position walked: actions before the end, the action
played, the search's first choice, and whether every action was proven lost.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from shiftago.core import Game, State
from shiftago.engine import kernel
from shiftago.engine.mcts import Mcts
from shiftago.engine.mcts.driver import MULTI_PLAYER_C
from shiftago.formats.record_read import parse_record

#: Own actions walked back at most per game.
MOST_BACK = 6


def lost_at(state: State, seat: int, mcts: Mcts, iterations: int) -> tuple[bool, str]:
    """Whether every action of ``seat`` (to act) is proven lost, and the first choice."""
    found = mcts.search(kernel.from_state(state), 1, iterations=iterations)
    lost = all(proof != 0 and not (proof >> seat) & 1 for proof in found.proofs)
    return lost, str(kernel.to_action(found.codes[0], state.players))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results", type=Path)
    parser.add_argument("records", type=Path)
    parser.add_argument("--seat-name", required=True, help="a part of the seat's command")
    parser.add_argument("--iterations", type=int, default=200_000)
    parser.add_argument("--games", type=int, default=30)
    args = parser.parse_args(argv)
    mcts = Mcts(c=MULTI_PLAYER_C, guard=True)
    done = 0
    for line in args.results.read_text().splitlines():
        row = json.loads(line)
        seat = next(i for i, name in enumerate(row["seats"]) if args.seat_name in name)
        if row["points"][seat] != 0.0 or 1.0 not in row["points"]:
            continue
        players = len(row["seats"])
        winner = row["points"].index(1.0)
        record = parse_record((args.records / row["record_file"]).read_text())
        game = Game(record.rules, first=record.first)
        before: list[State] = []
        for action in record.actions:
            before.append(game.state)
            game.play(action)
        own = [i for i, state in enumerate(before) if state.turn == seat]
        walked = []
        for i in reversed(own[-MOST_BACK:]):
            lost, choice = lost_at(before[i], seat, mcts, args.iterations)
            walked.append([len(before) - i, str(record.actions[i]), choice, lost])
            if not lost:
                break
        won_by = "next" if (winner - seat) % players == 1 else "other"
        print(json.dumps({"game": row["record_file"], "won_by": won_by, "walk": walked}))
        sys.stdout.flush()
        done += 1
        if done >= args.games:
            break
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
