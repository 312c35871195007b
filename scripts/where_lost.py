#!/usr/bin/env python3
"""Where a game was lost: for each game of an arena's results that a seat lost, walk
back over that seat's own actions from the end and search each position deeper than
the top level plays, until one where some action is not proven lost for it; then
judge the actions the other seats played between that one and the seat's next
(docs/strength.md, "Where the lost games were lost", "Where the 3-player games are
lost now", "Where the 2-player games are lost").

    python scripts/where_lost.py RESULTS.jsonl RECORDS_DIR --seat-name yours-main \\
        --iterations 200000 --games 30 [--playouts greedy] [--nodes 20000000]

With 3-4 players the search is the top level's guarded MCTS (``--iterations``, its
playouts blocking or ``greedy``); with 2 the top level's alpha-beta analysis
(``--nodes``), whose values become expected scores as the analysis board shows them.
Prints one JSON line per lost game: who won (the seat after the loser, or another),
the game's length, each position walked (actions before the end, the action played,
the search's first choice, whether every action was proven lost) and, after the last
position not lost, each action of the seats between ("between": its seat counted
from the loser, the action, its value for that seat, the search's first choice and
its value). A last line sums the games up: how many went to the next seat, and in
how many a seat between played an action its search valued at least ``--slip`` under
its first choice.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from shiftago.core import Game, State
from shiftago.engine import kernel
from shiftago.engine.bot import Limits
from shiftago.engine.levels import bot_for_level, default_level
from shiftago.engine.mcts import Mcts
from shiftago.engine.mcts.driver import MULTI_PLAYER_C
from shiftago.engine.mcts_bot import EVERY_ACTION
from shiftago.formats.record_read import parse_record

#: Own actions walked back at most per game, unless ``--most-back`` says otherwise.
MOST_BACK = 6


class Judge:
    """The deeper search of a position: every action's value for the seat to act (an
    expected score in [0, 1]) and whether it is proven lost, best first."""

    def __init__(self, iterations: int, blocking: int, nodes: int) -> None:
        self.iterations = iterations
        self.nodes = nodes
        self.mcts = Mcts(c=MULTI_PLAYER_C, guard=True, blocking=blocking)
        self.top = bot_for_level(default_level(), 0)

    def ranked(self, state: State) -> list[tuple[str, float, bool]]:
        """``(action, value for the mover, proven lost)`` for each action, best first."""
        if state.players > 2:
            found = self.mcts.search(kernel.from_state(state), 1, iterations=self.iterations)
            seat = state.turn
            return [
                (
                    str(kernel.to_action(code, state.players)),
                    values[seat],
                    proof != 0 and not (proof >> seat) & 1,
                )
                for code, values, proof in zip(found.codes, found.values, found.proofs, strict=True)
            ]
        judge = self.top.for_rules(state.rules)
        lines = self.top.analyse(state, Limits(nodes=self.nodes))
        return [
            (
                str(line.action),
                judge.expectation(line.value, state.rules),
                judge.proven(line.value) < 0,
            )
            for line in lines
        ]

    def lost_at(self, state: State) -> tuple[bool, str]:
        """Whether every action of the seat to act is proven lost, and the first choice."""
        ranked = self.ranked(state)
        return all(lost for _, _, lost in ranked), ranked[0][0]

    def judged(self, state: State, played: str) -> tuple[str, float, float]:
        """The first choice at ``state``, its value for the seat to act, and the value of
        the action ``played`` there."""
        ranked = self.ranked(state)
        mine = next(value for action, value, _ in ranked if action == played)
        return ranked[0][0], round(ranked[0][1], 3), round(mine, 3)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results", type=Path)
    parser.add_argument("records", type=Path)
    parser.add_argument("--seat-name", required=True, help="a part of the seat's command")
    parser.add_argument("--iterations", type=int, default=200_000)
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument(
        "--playouts",
        choices=("blocking", "greedy"),
        default="blocking",
        help="the top level's playouts: blocking since 4 December 2026, greedy before",
    )
    parser.add_argument("--nodes", type=int, default=20_000_000, help="2 players")
    parser.add_argument("--slip", type=float, default=0.03)
    parser.add_argument("--most-back", type=int, default=MOST_BACK, help="own actions walked")
    args = parser.parse_args(argv)
    blocking = EVERY_ACTION if args.playouts == "blocking" else 0
    judge = Judge(args.iterations, blocking, args.nodes)
    done = to_next = slipped = 0
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
        free = -1
        for i in reversed(own[-args.most_back :]):
            lost, choice = judge.lost_at(before[i])
            walked.append([len(before) - i, str(record.actions[i]), choice, lost])
            if not lost:
                free = i
                break
        between: list[tuple[int, str, float, str, float]] = []
        if free >= 0:
            later = [i for i in own if i > free]
            until = later[0] if later else len(before)
            for j in range(free + 1, until):
                played = str(record.actions[j])
                best, best_value, value = judge.judged(before[j], played)
                relative = (before[j].turn - seat) % players
                between.append((relative, played, value, best, best_value))
        won_by = "next" if (winner - seat) % players == 1 else "other"
        to_next += won_by == "next"
        slipped += any(best - value >= args.slip for _, _, value, _, best in between)
        report = {"game": row["record_file"], "won_by": won_by, "actions": len(before)}
        print(json.dumps(report | {"walk": walked, "between": between}))
        sys.stdout.flush()
        done += 1
        if done >= args.games:
            break
    print(json.dumps({"lost": done, "to_next_seat": to_next, "a_seat_between_slipped": slipped}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
