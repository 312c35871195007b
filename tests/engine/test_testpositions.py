"""The test positions with known answers: the file reads, every answer is proven again
by a full-width search, the search solves them under depth limits, and the levels make
fewer mistakes on them the higher they are (all limits are depths or nodes)."""

from __future__ import annotations

from itertools import pairwise

import pytest

from shiftago.core import Phase, Variant
from shiftago.engine.alphabeta import AlphaBetaBot
from shiftago.engine.bot import Limits
from shiftago.engine.levels import bot_for_level
from shiftago.engine.search import PROVEN
from shiftago.engine.testpositions import KINDS, TestPosition, answers_of, load, prove, solved

POSITIONS = load()


def test_every_kind_is_there_with_legal_answers() -> None:
    kinds = {p.kind for p in POSITIONS}
    assert kinds == set(KINDS)
    assert len(POSITIONS) >= 40
    for p in POSITIONS:
        legal = set(p.state.legal_actions())
        assert p.answers and p.answers <= legal
        assert len(p.answers) < len(legal), "a test with every action right tests nothing"
        if p.kind == "scoring":
            assert p.state.phase is Phase.SCORE and p.state.rules.variant is not Variant.EXPRESS
        else:
            assert p.state.rules.variant is Variant.EXPRESS and p.state.players == 2


def test_a_line_round_trips() -> None:
    for p in POSITIONS:
        assert TestPosition.from_line(p.line()) == p
    with pytest.raises(ValueError, match="unknown kind"):
        TestPosition.from_line("mate\texpress 2 7/7/7/7/7/7/7 o insert 22,22 0,0 0,0\tL1")


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_the_answers_are_proven_again(kind: str) -> None:
    for p in (p for p in POSITIONS if p.kind == kind):
        proof = prove(p.state, KINDS[kind], nodes=20_000_000)
        assert proof is not None
        assert answers_of(kind, proof) == p.answers, p.position


def test_a_shallower_search_does_not_prove_the_deep_wins() -> None:
    for p in (p for p in POSITIONS if p.kind in ("win3", "win5")):
        proof = prove(p.state, KINDS[p.kind] - 2)
        assert proof is not None and max(proof.values.values()) < PROVEN, p.position


@pytest.mark.parametrize("reductions", [False, True])
def test_the_search_solves_every_position_at_its_depth(reductions: bool) -> None:
    # late move reductions never reduce an action that threatens a win, so a reduced
    # search still finds every win and defence of its depth
    for p in POSITIONS:
        bot = AlphaBetaBot(7, depth=KINDS[p.kind], reductions=reductions)
        assert bot.choose(p.state) in p.answers, p.position


def test_mistakes_fall_level_by_level() -> None:
    shares = []
    for level in range(1, 7):  # the depth-limited levels (the top ones are slow here)
        right = solved(bot_for_level(level, seed=5), POSITIONS, Limits())
        shares.append(right.count(False) / len(right))
    # strictly: every level makes fewer mistakes than the one below it
    assert all(low > high for low, high in pairwise(shares)), shares
    assert shares[0] > 0.3 and shares[-1] < shares[0] / 2, shares


def test_the_answers_of_each_kind_follow_from_a_proof() -> None:
    from shiftago.core import Action
    from shiftago.engine.search import WIN
    from shiftago.engine.testpositions import Proof

    a, b, c = (Action.parse(x) for x in ("L1", "L2", "L3"))
    defend = Proof({a: -(WIN - 4), b: 12, c: -(WIN - 2)}, 4)
    assert answers_of("defend2", defend) == {b}
    assert answers_of("defend3", defend) is None  # no loss after exactly 6 actions
    assert answers_of("block", defend) == {a, b}  # only c loses at once
    win = Proof({a: WIN - 5, b: WIN - 7, c: 0}, 7)
    assert answers_of("win3", win) == {a} and answers_of("win4", win) is None
    assert answers_of("scoring", win) == {a}
    assert answers_of("scoring", Proof({a: 30, b: 2 - WIN}, 6)) == {a}
    assert answers_of("scoring", Proof({a: 30, b: 20}, 6)) is None  # nothing proven apart
