"""The shipped set of puzzles (engine/puzzles/shipped.jsonl.gz): its size and spread
over the variants and player counts, a sample of 30 re-proven by the prover, and the
short ones among them proven again by the plain reference search of tests/support."""

from __future__ import annotations

import random
from collections import Counter

from shiftago.engine.puzzles.puzzle import THEMES
from shiftago.engine.puzzles.shipped import shipped
from shiftago.engine.puzzles.solving import check_puzzle
from support.puzzle_reference import winning_firsts

SAMPLE = 30


def test_the_shipped_set_is_large_and_covers_every_variant_and_player_count() -> None:
    puzzles = shipped()
    assert len(puzzles) >= 2000
    kinds = Counter((p.variant, p.players) for p in puzzles)
    for variant in ("express", "expert", "extreme"):
        for players in (2, 3, 4):
            assert kinds[(variant, players)] > 0, (variant, players)
    assert len({p.id for p in puzzles}) == len(puzzles)
    assert {t for p in puzzles for t in p.themes} <= set(THEMES)
    assert Counter(p.actions for p in puzzles).keys() == {1, 2, 3}


def test_a_sample_of_the_shipped_set_is_re_proven() -> None:
    sample = random.Random(51).sample(shipped(), SAMPLE)
    problems = {p.id: check_puzzle(p) for p in sample}
    assert problems == dict.fromkeys(problems)


def test_short_2_player_express_puzzles_hold_under_the_reference_search() -> None:
    short = [p for p in shipped() if p.actions <= 2 and (p.variant, p.players) == ("express", 2)]
    for puzzle in random.Random(7).sample(short, 4):
        state = puzzle.state
        for fewer in range(1, puzzle.actions):
            assert winning_firsts(state, fewer) == [], puzzle.id
        assert winning_firsts(state, puzzle.actions) == [puzzle.solution[0]], puzzle.id


def test_other_variants_and_player_counts_hold_under_the_reference_search() -> None:
    """Wins in 1 with 3-4 players (every other seat's turn is after the goal) and wins
    in 2 of 2-player Expert and Extreme (the insertion and its scoring, both counted)."""
    puzzles = shipped()
    many = [p for p in puzzles if p.players > 2 and p.actions == 1]
    scoring = [p for p in puzzles if p.variant != "express" and p.players == 2 and p.actions == 2]
    rng = random.Random(11)
    for puzzle in rng.sample(many, 3) + rng.sample(scoring, 2):
        state = puzzle.state
        for fewer in range(1, puzzle.actions):
            assert winning_firsts(state, fewer) == [], puzzle.id
        assert winning_firsts(state, puzzle.actions) == [puzzle.solution[0]], puzzle.id


def test_3_player_wins_in_2_answer_every_combination_of_replies() -> None:
    """The paranoid proof: after the first action, every pair of the two other seats'
    actions is answered by a win (the reference search tries them all)."""
    chosen = [p for p in shipped() if (p.variant, p.players, p.actions) == ("express", 3, 2)]
    assert chosen
    for puzzle in chosen:
        state = puzzle.state
        assert winning_firsts(state, 1) == [], puzzle.id
        assert winning_firsts(state, 2) == [puzzle.solution[0]], puzzle.id
        assert len(puzzle.solution) == 4  # the solver, two other seats, the solver
