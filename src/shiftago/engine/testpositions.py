"""Test positions with known answers: the tactics every level is measured on.

Each position comes with the set of actions that are right there, proven by a
full-width search (:func:`prove`): a value beyond :data:`~.search.PROVEN` counts only
finished games, so it is exact, not a guess. The kinds:

* ``win1`` to ``win5``: the seat to act wins with its 1st to 5th own action at the
  earliest, whatever the opponent does; the answers are the actions that keep the
  fastest win. A search needs ``2n - 2`` plies (and the check for an immediate win at
  its leaves) to see a win with the ``n``-th own action, so each kind asks for one more
  level of depth.
* ``block``: the opponent threatens to win with its next action; the answers are the
  actions that stop every such threat (all others lose at once).
* ``defend2``, ``defend3``: the opponent threatens to win with its 2nd or 3rd own
  action; the answers are the actions that hold out longer than that (all others lose
  by then). Seeing the threat takes ``2n - 1`` plies.
* ``scoring``: Expert or Extreme, a choice between scorings; the answers are the
  choices with the best proven result (one wins sooner, or the others lose).

The generator keeps a position only if a search one step too shallow to prove its
answer plays a wrong action there, so that each kind tells apart the depths that see
it from those that do not (luck aside, a shallower search fails it).

The set ships with the package (``testpositions.txt``, one position per line:
``KIND<TAB>POSITION<TAB>ANSWERS``) and is made by ``scripts/make_test_positions.py``,
which proves each answer before writing it; ``tests/engine/test_testpositions.py`` proves
them again. ``shiftago bench`` counts how many the top level solves at 0.5 s each.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from typing import Final

from shiftago.core import Action, State
from shiftago.engine.bot import Bot, Limits

#: The kinds, in the order of the file, and the plies a proof of each needs.
KINDS: Final[dict[str, int]] = {
    "win1": 1,
    "win2": 3,
    "win3": 5,
    "win4": 7,
    "win5": 9,
    "block": 2,
    "defend2": 4,
    "defend3": 6,
    "scoring": 6,
}


@dataclass(frozen=True)
class TestPosition:
    """A position, its kind and the actions that are right there."""

    __test__ = False  # not a pytest class

    kind: str
    position: str
    answers: frozenset[Action]

    @property
    def state(self) -> State:
        return State.from_position(self.position)

    def line(self) -> str:
        """The line of ``testpositions.txt`` for this position."""
        answers = " ".join(sorted(str(a) for a in self.answers))
        return f"{self.kind}\t{self.position}\t{answers}"

    @classmethod
    def from_line(cls, line: str) -> TestPosition:
        kind, position, answers = line.rstrip("\n").split("\t")
        if kind not in KINDS:
            raise ValueError(f"unknown kind of test position: {kind!r}")
        return cls(kind, position, frozenset(Action.parse(a) for a in answers.split()))


def load() -> list[TestPosition]:
    """Every test position of the package, in the order of the file."""
    text = resources.files("shiftago.engine").joinpath("testpositions.txt").read_text()
    return [TestPosition.from_line(line) for line in text.splitlines() if line.strip()]


def solved(bot: Bot, positions: list[TestPosition], limits: Limits) -> list[bool]:
    """For each position, whether ``bot`` plays one of its answers under ``limits``."""
    return [bot.choose(p.state, limits) in p.answers for p in positions]


@dataclass(frozen=True)
class Proof:
    """Exact values (the search's unit) of every legal action, searched ``depth`` plies."""

    values: dict[Action, int]
    depth: int


def prove(state: State, depth: int, nodes: int | None = None) -> Proof | None:
    """Search every action of a 2-player ``state`` full width to ``depth`` plies.

    Proven values (wins, losses, draws at the end) are exact; ``None`` when the node
    budget ran out first."""
    from shiftago.engine import kernel
    from shiftago.engine.search.solver import search_full_width

    solution = search_full_width(kernel.from_state(state), depth, nodes)
    if solution is None:
        return None
    values = {
        kernel.to_action(code, state.players): value
        for code, value in zip(solution.codes, solution.values, strict=True)
    }
    return Proof(values, solution.depth)


def answers_of(kind: str, proof: Proof) -> frozenset[Action] | None:
    """The right actions of a position of ``kind`` given its proof, or ``None`` when
    the position is not of that kind (the proof shows something else)."""
    from shiftago.engine.search import PROVEN, WIN

    values = proof.values
    best = max(values.values())
    if kind.startswith("win"):
        plies = KINDS[kind]
        if best != WIN - plies:
            return None
        return frozenset(a for a, v in values.items() if v == best)
    if kind == "block":
        lose_at_once = {a for a, v in values.items() if v == -(WIN - 2)}
        if best >= PROVEN or not lose_at_once:
            return None
        keep = frozenset(a for a in values if a not in lose_at_once)
        return keep or None
    if kind.startswith("defend"):
        plies = KINDS[kind]
        lost = {a for a, v in values.items() if v <= -PROVEN}
        if best <= -PROVEN or not any(v == -(WIN - plies) for v in values.values()):
            return None
        return frozenset(a for a in values if a not in lost)
    if kind == "scoring":
        if len(values) < 2 or best <= -PROVEN:
            return None  # no choice, or every choice loses: nothing to find
        if best >= PROVEN:  # the fastest win
            right = frozenset(a for a, v in values.items() if v == best)
        else:  # no win: every choice that is not a proven loss
            right = frozenset(a for a, v in values.items() if v > -PROVEN)
        return right if len(right) < len(values) else None
    raise ValueError(f"unknown kind of test position: {kind!r}")
