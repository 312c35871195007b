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
