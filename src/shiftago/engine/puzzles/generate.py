"""From candidate positions to puzzles: proven, themed, rated, one per position class.

A candidate (:mod:`.harvest`) becomes a puzzle when :func:`.solving.prove` finds its
fewest actions within the limit with exactly one first action. Positions that are the
same under a symmetry of the board (the eight of the square) are one puzzle: the first
met is kept. Everything here is deterministic, so the same games give the same puzzles.

The initial rating (docs/puzzles.md) grows with the solver's actions, with the legal
actions to choose from, with the player count and the variant, and falls when the
baseline bot (level 1, :class:`shiftago.engine.greedy.GreedyBot`) finds the first
action.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import numpy as np

from shiftago.core import Phase, State
from shiftago.engine.book.symmetry import SYMMETRIES, transform_board
from shiftago.engine.greedy import GreedyBot
from shiftago.engine.kernel import apply_action, from_action, legal_codes, to_state
from shiftago.engine.kernel.tables import INSERTIONS, TURN

from .puzzle import Puzzle, puzzle_id
from .solving import (
    MOST_ACTIONS,
    ProofUnknown,
    keeps_win,
    kernel_state,
    prove,
    solution_line,
)
from .threats import is_defence

#: The prover's node budget per candidate: a bound on the work of each proof.
NODES_PER_PROOF = 2_000_000
#: The fewest legal actions a puzzle's position offers (one is no choice at all).
MIN_CHOICES = 2
#: Seeds of the baseline bot asked for the first action (how often it finds it).
BASELINE_SEEDS = (0, 1, 2)


def symmetry_key(state: State) -> str:
    """The same text for every position that a symmetry of the board makes equal."""
    fields = state.position().split()
    boards = min(tuple(transform_board(b, g) for b in state.boards) for g in range(SYMMETRIES))
    return " ".join([*fields[:2], ",".join(map(str, boards)), *fields[3:]])


@dataclass
class Harvest:
    """What a generation has found so far, and what it skipped."""

    most: int = MOST_ACTIONS
    nodes: int = NODES_PER_PROOF
    puzzles: list[Puzzle] = field(default_factory=list)
    seen: set[str] = field(default_factory=set)
    candidates: int = 0
    unknown: int = 0

    def consider(self, s: np.ndarray, source: str) -> Puzzle | None:
        """Prove one candidate (a kernel state); keep it when it is a new puzzle."""
        state = to_state(s)
        if state.is_over or len(state.legal_actions()) < MIN_CHOICES:
            return None
        key = symmetry_key(state)
        if key in self.seen:
            return None
        self.seen.add(key)
        self.candidates += 1
        try:
            proof = prove(state, self.most, self.nodes)
        except ProofUnknown:
            self.unknown += 1
            return None
        if not proof.is_puzzle or proof.fewest is None:
            return None
        line = solution_line(state, proof.fewest)
        puzzle = Puzzle(
            id=puzzle_id(key, str(state.rules.variant), state.rules.players),
            position=state.position(),
            actions=proof.fewest,
            solution=tuple(str(a) for a in line),
            themes=themes(state, proof.fewest, [str(a) for a in line]),
            rating=initial_rating(state, proof.fewest, str(line[0])),
            source=source,
        )
        self.puzzles.append(puzzle)
        return puzzle


def themes(state: State, actions: int, line: list[str]) -> tuple[str, ...]:
    """The puzzle's themes: its length, the variant and players, "score the right
    line" where the solution scores a line while another scoring would lose the proof,
    and "defend" where another seat threatens a win at once (:mod:`.threats`)."""
    found = [f"win-in-{actions}"]
    if _right_line_matters(state, actions, line):
        found.append("score-the-right-line")
    if is_defence(state, line):
        found.append("defend")
    found += [str(state.rules.variant), f"players-{state.rules.players}"]
    return tuple(found)


def retagged(puzzle: Puzzle) -> Puzzle:
    """The puzzle with its themes found again (after a new theme; the position, the
    proof and the solution stay as they are)."""
    found = themes(puzzle.state, puzzle.actions, list(puzzle.solution))
    return dataclasses.replace(puzzle, themes=found)


def _right_line_matters(state: State, actions: int, line: list[str]) -> bool:
    """Whether one of the solver's scorings in ``line`` had another scoring beside it
    that would lose the proof."""
    s = kernel_state(state)
    solver = state.turn
    players = state.rules.players
    left = actions
    for text in line:
        code = from_action(text, players)
        mover = int(s[TURN])
        if mover == solver and code >= INSERTIONS:
            for other in legal_codes(s):
                child = s.copy()
                apply_action(child, other)
                if not keeps_win(child, solver, left - 1):
                    return True
        apply_action(s, code)
        if mover == solver:
            left -= 1
    return False


def initial_rating(state: State, actions: int, first: str) -> int:
    """The puzzle's first rating (docs/puzzles.md, "Ratings")."""
    legal = len(state.legal_actions())
    found = sum(str(GreedyBot(seed).choose(state)) == first for seed in BASELINE_SEEDS) / len(
        BASELINE_SEEDS
    )
    rating = 900 + 300 * (actions - 1) + 8 * legal + round(350 * (1 - found))
    if state.rules.players > 2:
        rating += 100
    if str(state.rules.variant) != "express":
        rating += 100
    if state.phase is Phase.SCORE:
        rating -= 50
    return max(600, min(2600, rating))
