"""The eight symmetries commute with the rules: over random games of every variant and
player count, moving the position then playing the moved action gives the moved
result, in the kernel and in the core, with observations and masks moved alike."""

from __future__ import annotations

import numpy as np
import pytest

from shiftago.core import Rules, State, Variant
from shiftago.core.geometry import cell_of
from shiftago.engine.kernel import from_state, to_state
from shiftago.engine.kernel.moves import apply_action
from shiftago.engine.kernel.tables import COUNT, INSERTIONS, OVER, PHASE, TURN
from shiftago.env.spaces import ACTION_COUNT, action_mask, action_of, index_of, observe
from shiftago.env.symmetry import (
    SYMMETRIES,
    inverse,
    transform_action,
    transform_kernel,
    transform_mask,
    transform_observation,
    transform_state,
)

CONFIGS = [
    (variant, players, handicap)
    for variant in Variant
    for players in (2, 3, 4)
    for handicap in ((), (0, 2) + (0,) * (players - 2))
]


def random_game(rules: Rules, seed: int) -> list[tuple[np.ndarray, int]]:
    """The (kernel state, action index) pairs of one random game."""
    rng = np.random.default_rng(seed)
    s = from_state(State.initial(rules, seed % rules.players))
    played = []
    while int(s[PHASE]) != OVER:
        a = int(rng.choice(np.flatnonzero(action_mask(s))))
        played.append((s.copy(), a))
        apply_action(s, a)
    return played


def test_the_symmetries_are_a_group_acting_on_cells_and_actions() -> None:
    a1, g1, a7 = cell_of(0, 0), cell_of(6, 0), cell_of(0, 6)
    images = {transform_state(State.initial(Rules(Variant.EXPRESS, 2), 0), g) for g in range(8)}
    assert len(images) == 1  # the empty board is fixed by all of them
    corners = set()
    for g in range(SYMMETRIES):
        board = transform_kernel(from_state(_with_marble(a1)), g)
        corners.add(int(board[0]))
        assert inverse(inverse(g)) == g
        for players in (2, 3):
            actions = np.arange(ACTION_COUNT)
            moved = transform_action(actions, g, players)
            assert sorted(moved.tolist()) == list(range(ACTION_COUNT))  # a permutation
            back = transform_action(moved, inverse(g), players)
            np.testing.assert_array_equal(back, actions)
    assert corners == {1 << a1, 1 << g1, 1 << a7, 1 << cell_of(6, 6)}
    # the mirror takes L3 to R3 and keeps a scoring's kept end with 3 players
    assert str(action_of(int(transform_action(index_of("L3", 2), 4, 2)), 2)) == "R3"
    moved = transform_action(index_of("xa1-c1", 3), 4, 3)
    assert str(action_of(int(moved), 3)) == "xg1-e1"
    with pytest.raises(ValueError, match="symmetry"):
        transform_action(0, 8, 2)
    with pytest.raises(ValueError, match="action index"):
        transform_action(ACTION_COUNT, 1, 2)


def _with_marble(cell: int) -> State:
    empty = State.initial(Rules(Variant.EXPRESS, 2), 0)
    return State(empty.rules, (1 << cell, 0), 1, empty.phase, (21, 22), (0, 0), (0, 0), None)


@pytest.mark.parametrize(("variant", "players", "handicap"), CONFIGS)
def test_every_symmetry_commutes_with_step(
    variant: Variant, players: int, handicap: tuple[int, ...]
) -> None:
    rules = Rules(variant, players, handicap, action_limit=60)
    kinds: set[str] = set()
    wanted = {"insertion"} | (
        set()
        if variant is Variant.EXPRESS
        else {"scoring end 0"}
        if players == 2
        else {"scoring end 0", "scoring end 1"}
    )
    for seed in range(8):  # two games at least, more until every kind of action came
        if seed >= 2 and wanted <= kinds:
            break
        for s, a in random_game(rules, seed + 7 * players):
            after = s.copy()
            apply_action(after, a)
            mask = action_mask(s)
            observer = int(s[TURN])
            seen = observe(s, observer, 1)
            kinds.add("insertion" if a < INSERTIONS else f"scoring end {(a - INSERTIONS) % 2}")
            g = (seed * 5 + len(kinds) + int(s[COUNT])) % SYMMETRIES  # a varied symmetry
            moved = transform_kernel(s, g)
            b = int(transform_action(a, g, players))
            np.testing.assert_array_equal(action_mask(moved), transform_mask(mask, g, players))
            np.testing.assert_array_equal(
                observe(moved, observer, 1), transform_observation(seen, g)
            )
            apply_action(moved, b)
            np.testing.assert_array_equal(moved, transform_kernel(after, g))
            # the core agrees: the moved position, the moved action, the moved result
            core = transform_state(to_state(s, rules), g)
            at_limit = int(after[COUNT]) >= 60
            expected = to_state(transform_kernel(after, g), rules)
            assert core.after(action_of(b, players), at_limit=at_limit) == expected
    assert kinds == wanted  # 3-4 players in Expert and Extreme: both kept ends


def test_transforms_take_batches_and_refuse_bad_input() -> None:
    game = random_game(Rules(Variant.EXPERT, 3), 3)
    states = np.stack([s for s, _ in game[:5]])
    moved = transform_kernel(states, 3)
    for k in range(5):
        np.testing.assert_array_equal(moved[k], transform_kernel(states[k], 3))
    masks = np.stack([action_mask(s) for s in states])
    np.testing.assert_array_equal(transform_mask(masks, 3, 3)[2], transform_mask(masks[2], 3, 3))
    with pytest.raises(ValueError, match="uint64"):
        transform_kernel(states.astype(np.int64), 1)
    with pytest.raises(ValueError, match="668"):
        transform_mask(np.zeros(5), 1, 2)
    with pytest.raises(ValueError, match="players"):
        transform_mask(masks, 1, 5)
