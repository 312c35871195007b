"""Make the test positions of :mod:`shiftago.engine.testpositions` (run it rarely).

Plays seeded games of imperfect bots (greedy and shallow searches with random slips),
and keeps positions of each kind whose answers a full-width search proves
(:func:`~shiftago.engine.testpositions.prove`) and that a search one step too shallow
gets wrong: 2-player Express for the wins and the
blocks, 2-player Expert and Extreme for the scoring choices. Prints the file to stdout:

    .venv/bin/python scripts/make_test_positions.py > src/shiftago/engine/testpositions.txt
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Iterator

from shiftago.core import Action, Phase, Rules, State, Variant
from shiftago.engine.alphabeta import AlphaBetaBot
from shiftago.engine.greedy import GreedyBot
from shiftago.engine.search import PROVEN
from shiftago.engine.testpositions import KINDS, TestPosition, answers_of, prove

#: How many positions of each kind to keep.
WANTED = {
    "win1": 12,
    "win2": 12,
    "win3": 12,
    "win4": 12,
    "win5": 12,
    "block": 12,
    "defend2": 12,
    "defend3": 12,
    "scoring": 12,
}
#: Node budget of one proof.
PROOF_NODES = 4_000_000


def positions(variant: Variant, rng: random.Random) -> Iterator[State]:
    """The positions of endless seeded games between slightly random bots."""
    while True:
        state = State.initial(Rules(variant, 2), rng.randrange(2))
        bots = [
            GreedyBot(rng.randrange(1 << 30)),
            AlphaBetaBot(rng.randrange(1 << 30), depth=rng.choice((1, 2))),
        ]
        rng.shuffle(bots)
        while not state.is_over:
            yield state
            if rng.random() < 0.25:
                action = rng.choice(state.legal_actions())
            else:
                action = bots[state.turn].choose(state)
            state = state.after(action)


def quick_kind(state: State) -> str | None:
    """The kind a position may be, judged by a cheap search (the proof follows)."""
    if state.phase is Phase.SCORE:
        return "scoring" if len(state.legal_actions()) > 1 else None
    if state.rules.variant is not Variant.EXPRESS:
        return None
    best = AlphaBetaBot(0, depth=9, nodes=300_000).analyse(state)[0].value
    for kind in ("win1", "win2", "win3", "win4", "win5"):
        if best == 10000 - KINDS[kind]:
            return kind
    if best < PROVEN:
        values = {r.value for r in AlphaBetaBot(0, depth=5).analyse(state)}
        for kind in ("block", "defend2", "defend3"):
            if -(10000 - KINDS[kind]) in values:
                return kind
    return None


def too_easy(kind: str, state: State, answers: frozenset[Action]) -> bool:
    """Whether a search one step too shallow to see the answer plays it anyway."""
    shallow = KINDS[kind] - 2
    if kind == "scoring" or shallow < 1:
        return False
    return AlphaBetaBot(0, depth=shallow).choose(state) in answers


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    kept: dict[str, list[TestPosition]] = {kind: [] for kind in WANTED}
    seen: set[str] = set()
    sources = {
        Variant.EXPRESS: positions(Variant.EXPRESS, rng),
        Variant.EXPERT: positions(Variant.EXPERT, rng),
        Variant.EXTREME: positions(Variant.EXTREME, rng),
    }
    while any(len(kept[k]) < WANTED[k] for k in WANTED):
        need_scoring = len(kept["scoring"]) < WANTED["scoring"]
        variant = rng.choice(
            [Variant.EXPRESS, *([Variant.EXPERT, Variant.EXTREME] if need_scoring else [])]
        )
        state = next(sources[variant])
        if state.position() in seen:
            continue
        seen.add(state.position())
        kind = quick_kind(state)
        if kind is None or len(kept[kind]) >= WANTED[kind]:
            continue
        proof = prove(state, KINDS[kind], PROOF_NODES)
        if proof is None:
            continue
        answers = answers_of(kind, proof)
        if answers is None or too_easy(kind, state, answers):
            continue  # not that kind after all, or too easy to be a test
        test = TestPosition(kind, state.position(), answers)
        kept[kind].append(test)
        print(test.line(), flush=True)  # as found: a stopped run keeps what it made
        print(f"{kind}: {sum(map(len, kept.values()))} kept", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
