"""The shared action space and observation of the RL environments (shiftago.env.spaces)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from shiftago.core import INSERTIONS, Action, Game, Phase, Rules, Scoring, State, Variant
from shiftago.engine.kernel import apply_action, from_state
from shiftago.engine.kernel.tables import OVER, PHASE, WINNERS
from shiftago.env.spaces import (
    ACTION_COUNT,
    action_mask,
    action_of,
    index_of,
    observation_shape,
    observe,
    outcome_rewards,
    plane_count,
)

CONFIGS = [(v, n) for v in Variant for n in (2, 3, 4)]


def test_action_count_and_insertions() -> None:
    assert ACTION_COUNT == 668
    assert [action_of(i, 3) for i in range(28)] == list(INSERTIONS)
    assert [str(action_of(i, 2)) for i in (0, 6, 7, 14, 21, 27)] == [
        "L1",
        "L7",
        "R1",
        "Ta",
        "Ba",
        "Bg",
    ]
    for bad in (-1, ACTION_COUNT):
        with pytest.raises(ValueError, match="0-667"):
            action_of(bad, 2)


def test_every_index_round_trips_with_three_players() -> None:
    for i in range(ACTION_COUNT):
        action = action_of(i, 3)
        assert index_of(action, 3) == i
        assert Action.parse(str(action)) == action
        assert index_of(str(action), 3) == i
    # the two ends of a segment: the same line, the other end kept
    for i in range(28, ACTION_COUNT, 2):
        low, high = action_of(i, 3), action_of(i + 1, 3)
        assert isinstance(low, Scoring) and isinstance(high, Scoring)
        assert (low.keep, low.other) == (high.other, high.keep)
        assert low.keep < low.other


def test_two_players_use_end_zero_only() -> None:
    for i in range(ACTION_COUNT):
        action = action_of(i, 2)
        if i < 28 or (i - 28) % 2 == 0:
            assert index_of(action, 2) == i
            assert index_of(str(action), 2) == i
            assert Action.parse(str(action)) == action
        else:  # both ends stay: the "other end" index names the same scoring
            assert action == action_of(i - 1, 2)
            assert index_of(action, 2) == i - 1
    # both spellings of a 2-player scoring give the one index
    assert index_of("xa1-e1", 2) == index_of("xe1-a1", 2)
    assert index_of("xa1-e1", 3) != index_of("xe1-a1", 3)


def test_observation_planes_of_a_hand_built_position_for_seat_1() -> None:
    position = "expert 3 oo5/7/7/6b/7/7/gggg3 g score 20,18,21 2,5,0 0,0,1"
    state = State.from_position(position, Rules(Variant.EXPERT, 3, action_limit=50))
    s = from_state(state, actions_played=10)
    obs = observe(s, 1)  # green: green, blue, orange
    assert obs.shape == observation_shape(3) == (14, 7, 7)
    assert plane_count(3) == 14 and obs.dtype == np.float32

    def cells(*names: str) -> np.ndarray:
        plane = np.zeros((7, 7), dtype=np.float32)
        for name in names:
            plane["1234567".index(name[1]), "abcdefg".index(name[0])] = 1.0
        return plane

    np.testing.assert_array_equal(obs[0], cells("a1", "b1", "c1", "d1"))  # green (observer)
    np.testing.assert_array_equal(obs[1], cells("g4"))  # blue
    np.testing.assert_array_equal(obs[2], cells("a7", "b7"))  # orange
    expected = {
        3: 18 / 22,  # supplies: green, blue, orange
        4: 21 / 22,
        5: 20 / 22,
        6: 5 / 10,  # points
        7: 0.0,
        8: 2 / 10,
        9: 0.0,  # skips
        10: 1 / 6,
        11: 0.0,
        12: 1.0,  # green must score
        13: 10 / 50,  # actions played / limit
    }
    for plane, value in expected.items():
        np.testing.assert_allclose(obs[plane], np.full((7, 7), value), err_msg=f"plane {plane}")
    # the same position seen by orange: orange first, then green, then blue
    seen_by_0 = observe(s, 0)
    np.testing.assert_array_equal(seen_by_0[0], cells("a7", "b7"))
    np.testing.assert_array_equal(seen_by_0[1], cells("a1", "b1", "c1", "d1"))
    assert seen_by_0[12, 0, 0] == 1.0


def test_insert_phase_and_no_limit_planes_are_zero() -> None:
    s = from_state(State.initial(Rules(Variant.EXPRESS, 2), 0))
    obs = observe(s, 1)
    assert not obs[:2].any()  # empty board
    np.testing.assert_allclose(obs[2:4], 1.0)  # full supplies
    assert not obs[4:].any()  # no points, skips, score phase or limit


def _core_indices(game: Game) -> list[int]:
    return sorted(index_of(a, game.rules.players) for a in game.legal_actions())


@pytest.mark.parametrize(("variant", "players"), CONFIGS)
def test_mask_is_the_core_legal_actions(variant: Variant, players: int) -> None:
    rng = random.Random(f"mask {variant} {players}")
    score_phases = 0
    for game_no in range(3):
        handicap = tuple(rng.randrange(3) for _ in range(players)) if game_no == 2 else ()
        rules = Rules(variant, players, handicap=handicap, action_limit=150)
        game = Game(rules, first=rng.randrange(players))
        s = from_state(game.state)
        while True:
            mask = action_mask(s)
            assert mask.dtype == np.int8 and mask.shape == (ACTION_COUNT,)
            assert np.flatnonzero(mask).tolist() == _core_indices(game), game.position()
            if game.is_over:
                break
            score_phases += game.phase is Phase.SCORE
            action = rng.choice(game.legal_actions())
            game.play(action)
            apply_action(s, index_of(action, players))
    if variant is not Variant.EXPRESS:
        assert score_phases > 0, "no score phase was met"


def _over(players: int, winners: int) -> np.ndarray:
    s = from_state(State.initial(Rules(Variant.EXPERT, players), 0))
    s[PHASE] = OVER
    s[WINNERS] = winners
    return s


@pytest.mark.parametrize(
    ("players", "winners", "rewards"),
    [
        (2, 0b01, [1, -1]),  # win and loss
        (2, 0b10, [-1, 1]),
        (2, 0b11, [0, 0]),  # a 2-player draw
        (3, 0b010, [-1, 1, -1]),
        (3, 0b101, [0, -1, 0]),  # a 2-way draw
        (3, 0b111, [-1 / 3] * 3),  # a 3-way draw
        (4, 0b0110, [-1, 0, 0, -1]),
        (4, 0b1011, [-1 / 3, -1 / 3, -1, -1 / 3]),
    ],
)
def test_outcome_rewards(players: int, winners: int, rewards: list[float]) -> None:
    got = outcome_rewards(_over(players, winners))
    assert got.dtype == np.float64 and got.shape == (players,)
    assert got.tolist() == rewards  # exactly: a 3-way draw's -1/3 is Python's -1/3


def test_outcome_rewards_are_zero_while_the_game_goes_on() -> None:
    s = from_state(State.initial(Rules(Variant.EXPRESS, 3), 0))
    np.testing.assert_array_equal(outcome_rewards(s), [0, 0, 0])


def test_outcome_rewards_of_a_played_game_follow_its_outcome() -> None:
    rng = random.Random(5)
    for variant, players in CONFIGS:
        game = Game(Rules(variant, players, action_limit=200), first=0)
        s = from_state(game.state)
        while not game.is_over:
            action = rng.choice(game.legal_actions())
            game.play(action)
            apply_action(s, index_of(action, players))
        assert game.outcome is not None
        expected = [2 * r - 1 for r in game.outcome.returns()]
        np.testing.assert_allclose(outcome_rewards(s), expected, atol=1e-6)


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda: action_of(5.0, 2), TypeError, "whole number, not 5.0"),  # type: ignore[arg-type]
        (lambda: action_of(True, 2), TypeError, "whole number, not True"),
        (lambda: action_of(3, 5), ValueError, "players is 2, 3 or 4, not 5"),
        (lambda: index_of("L3", 1), ValueError, "players is 2, 3 or 4, not 1"),
        (lambda: observation_shape(5), ValueError, "players is 2, 3 or 4, not 5"),
        (lambda: observation_shape("3"), ValueError, "players is 2, 3 or 4, not '3'"),  # type: ignore[arg-type]
        (lambda: index_of(3, 2), TypeError, "an Action or its notation, not 3"),  # type: ignore[arg-type]
        (lambda: index_of(None, 2), TypeError, "not None"),  # type: ignore[arg-type]
        (lambda: observe(from_state(State.initial(Rules(), 0)), 2), ValueError, "seat 0-1, not 2"),
        (lambda: observe(from_state(State.initial(Rules(), 0)), -1), ValueError, "not -1"),
    ],
)
def test_the_converters_refuse_what_is_not_an_index_or_a_player_count(
    call: Any, error: type[Exception], words: str
) -> None:
    with pytest.raises(error, match=words):
        call()
    assert action_of(np.int64(3), 2) == action_of(3, 2)  # numpy's integers are whole numbers


def test_version_1_adds_the_seat_to_act_and_keeps_version_0() -> None:
    game = Game(Rules(Variant.EXPERT, 3), first=0)
    game.play("L1")  # green to act
    green = from_state(game.state)
    blue = green.copy()
    blue[4] = 2  # the same marbles with blue to act
    assert plane_count(3) == 14 and plane_count(3, 1) == 17
    assert observation_shape(4, 1) == (22, 7, 7)
    # seat 0's version 0 view cannot tell them apart; version 1 can
    np.testing.assert_array_equal(observe(green, 0), observe(blue, 0))
    v1_green, v1_blue = observe(green, 0, 1), observe(blue, 0, 1)
    np.testing.assert_array_equal(v1_green[:14], observe(green, 0))
    assert [float(v1_green[p].mean()) for p in (14, 15, 16)] == [0.0, 1.0, 0.0]
    assert [float(v1_blue[p].mean()) for p in (14, 15, 16)] == [0.0, 0.0, 1.0]
    # relative to the observer: green (seat 1) sees itself to act in plane 14
    assert [float(observe(green, 1, 1)[p].mean()) for p in (14, 15, 16)] == [1.0, 0.0, 0.0]
    for bad in (2, -1, 1.0, "1", True):
        with pytest.raises(ValueError, match="observation version"):
            plane_count(3, bad)  # type: ignore[arg-type]


def test_version_1_shows_no_seat_to_act_when_the_game_is_over() -> None:
    s = from_state(State.initial(Rules(Variant.EXPRESS, 2), 0))
    rng = random.Random(5)
    while int(s[PHASE]) != OVER:
        apply_action(s, rng.choice(np.flatnonzero(action_mask(s)).tolist()))
    assert not observe(s, 0, 1)[10:12].any()


def test_observe_and_the_mask_take_a_core_state_and_refuse_other_things_in_words() -> None:
    """A bot's ``analyse`` is given a core State: observe() and action_mask() failed on
    one with "'State' object is not subscriptable" or a numba traceback (a researcher's
    walk). They take it; anything else is refused naming what is wanted."""
    game = Game.from_actions(Rules(Variant.EXPERT, 3), ["L1", "Tc"], first=0)
    kernel = from_state(game.state)
    assert np.array_equal(observe(game.state, 1), observe(kernel, 1))
    assert np.array_equal(observe(game.state, 2, version=1), observe(kernel, 2, version=1))
    assert np.array_equal(action_mask(game.state), action_mask(kernel))
    for wrong in ("L1", [0] * 3, np.zeros(3, dtype=np.uint64), kernel.astype(np.int64)):
        with pytest.raises(TypeError, match=r"a kernel state .* or a core State is wanted"):
            observe(wrong, 0)  # type: ignore[arg-type]
        with pytest.raises(TypeError, match=r"a kernel state .* or a core State is wanted"):
            action_mask(wrong)  # type: ignore[arg-type]
