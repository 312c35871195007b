"""The book's view of positions: symmetries of positions and actions, turned seats."""

from __future__ import annotations

import random

import pytest

from shiftago import Game, Rules, State, Variant
from shiftago.engine.book.symmetry import (
    INVERSE,
    SYMMETRIES,
    canonical,
    mover_first,
    representative,
    transform_action,
    transform_state,
)

SCORING_POSITIONS = [
    "expert 2 7/7/7/7/7/gg5/ooooo2 o score 17,20 0,0 0,0",
    "expert 3 7/7/7/7/b6/gg5/oooo3 o score 18,20,21 0,0,0 0,0,0",
]


def random_states(variant: Variant, players: int, seed: int, actions: int) -> list[State]:
    """The states of a game of random actions, from the empty board."""
    rng = random.Random(seed)
    game = Game(Rules(variant, players), first=rng.randrange(players))
    states = [game.state]
    while not game.is_over and len(states) <= actions:
        game.play(rng.choice(game.legal_actions()))
        states.append(game.state)
    return [s for s in states if not s.is_over]


def states_to_try() -> list[State]:
    states = [State.from_position(p) for p in SCORING_POSITIONS]
    for seed, (variant, players) in enumerate(
        [(Variant.EXPRESS, 2), (Variant.EXPERT, 3), (Variant.EXTREME, 4)]
    ):
        states += random_states(variant, players, seed, 12)
    return states


def test_the_symmetries_are_a_group_with_inverses() -> None:
    state = random_states(Variant.EXPRESS, 2, 7, 8)[-1]
    for g in range(SYMMETRIES):
        assert transform_state(transform_state(state, g), INVERSE[g]) == state
    images = {transform_state(state, g).position() for g in range(SYMMETRIES)}
    assert len(images) == SYMMETRIES  # a board with no symmetry of its own


def test_an_action_maps_with_its_position() -> None:
    """Playing the image of an action in the image of a position gives the image of the
    position after it: insertions and scorings (both spellings of 3-4 players)."""
    for state in states_to_try():
        for g in range(SYMMETRIES):
            image = transform_state(state, g)
            legal = set(image.legal_actions())
            for action in state.legal_actions():
                moved = transform_action(action, g, state.players)
                assert moved in legal
                assert image.after(moved) == transform_state(state.after(action), g)
                assert transform_action(moved, INVERSE[g], state.players) == action


def test_every_symmetric_position_and_first_seat_has_one_key() -> None:
    for state in states_to_try():
        key = canonical(state).key
        for g in range(SYMMETRIES):
            assert canonical(transform_state(state, g)).key == key
        assert State.from_position(key).turn == 0


def test_the_same_opening_from_every_first_seat_has_one_key() -> None:
    for players in (2, 3, 4):
        keys = set()
        for first in range(players):
            game = Game(Rules(Variant.EXPERT, players), first=first)
            for action in ("L4", "Tc", "R2"):
                game.play(action)
            keys.add(canonical(game.state).key)
            assert mover_first(game.state).turn == 0
        assert len(keys) == 1


def test_actions_map_to_and_from_the_canonical_frame() -> None:
    for state in states_to_try():
        form = canonical(state)
        for action in state.legal_actions():
            booked = form.to_book(action)
            assert booked in form.state.legal_actions()
            assert form.from_book(booked) == action
            after, booked_after = state.after(action), form.state.after(booked)
            if not after.is_over:
                assert canonical(booked_after).key == canonical(after).key


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_empty_board_has_four_classes_of_first_action(players: int) -> None:
    start = State.initial(Rules(Variant.EXPRESS, players), 0)
    classes = {representative(a, start) for a in start.legal_actions()}
    assert sorted(str(a) for a in classes) == ["L1", "L2", "L3", "L4"]


def test_a_board_without_symmetry_keeps_every_action_apart() -> None:
    state = random_states(Variant.EXPRESS, 2, 7, 8)[-1]
    for action in state.legal_actions():
        assert representative(action, state) == action
