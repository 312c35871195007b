"""The functional batched API plays the core's games action by action, never writes to
its arguments, and sets, clones and resets slots one at a time."""

from __future__ import annotations

import numpy as np
import pytest

from shiftago.core import Game, Rules, Variant
from shiftago.engine.kernel import from_state
from shiftago.env.batched import IllegalBatchActionError
from shiftago.env.functional import FunctionalEnv, States
from shiftago.env.spaces import action_of, index_of, observe

# variant, players, handicap, action limit, points weight
CONFIGS = [
    (variant, players, handicap, limit, weight)
    for variant, limit, weight in (
        ("express", None, 0.0),
        ("expert", None, 0.5),
        ("extreme", 40, 1.0),
    )
    for players in (2, 3, 4)
    for handicap in (None, (0, 2) + (0,) * (players - 2))
]


def expected_rewards(game: Game, mover: int, scores: tuple[int, ...], w: float) -> np.ndarray:
    n = game.rules.players
    out = np.zeros(n)
    gained = game.state.scores[mover] - scores[mover]
    if gained:
        out[:] = -w * gained / (10 * (n - 1))
        out[mover] = w * gained / 10
    if game.outcome is not None:
        winners = game.outcome.winners
        out += [2 * (1 / len(winners) if seat in winners else 0) - 1 for seat in range(n)]
    return out


def assert_slot_is(states: States, b: int, game: Game, version: int) -> None:
    n = game.rules.players
    s = from_state(game.state, len(game.history))
    np.testing.assert_array_equal(states.kernel[b], s)
    assert states.terminated[b] == (game.outcome is not None)
    assert states.current_player[b] == game.turn
    legal = {index_of(a, n) for a in game.legal_actions()} if game.outcome is None else set()
    assert set(np.flatnonzero(states.legal_action_mask[b]).tolist()) == legal
    np.testing.assert_array_equal(states.observation[b], observe(s, game.turn, version))


@pytest.mark.parametrize(("variant", "players", "handicap", "limit", "weight"), CONFIGS)
def test_every_slot_plays_the_core_game_to_its_end(
    variant: str,
    players: int,
    handicap: tuple[int, ...] | None,
    limit: int | None,
    weight: float,
) -> None:
    version = players % 2  # both versions, over the player counts
    env = FunctionalEnv(
        variant, players, handicap, limit, points_weight=weight, observation_version=version
    )
    batch = 6
    states = env.init(np.arange(batch) + 100 * players)
    games = [Game(env.rules, first=int(seat)) for seat in states.first_seat]
    assert len(set(states.first_seat.tolist())) > 1  # the keys draw different seats
    rng = np.random.default_rng(players)
    scored = False
    while not states.terminated.all():
        for b in range(batch):
            assert_slot_is(states, b, games[b], version)
        actions = np.array(
            [rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in states.legal_action_mask]
        )
        before = states.copy()
        after = env.step(states, actions)
        for name in ("kernel", "observation", "legal_action_mask", "rewards", "terminated"):
            np.testing.assert_array_equal(getattr(states, name), getattr(before, name))
        for b, game in enumerate(games):
            if game.outcome is not None:  # a finished slot stays as it was
                np.testing.assert_array_equal(after.kernel[b], states.kernel[b])
                assert not after.rewards[b].any()
                continue
            mover, scores = game.turn, game.state.scores
            game.play(env_action(int(actions[b]), players))
            scored |= int(actions[b]) >= 28  # a scoring action
            np.testing.assert_allclose(
                after.rewards[b], expected_rewards(game, mover, scores, weight), atol=1e-6
            )
        states = after
    for b in range(batch):
        assert_slot_is(states, b, games[b], version)
    assert scored or variant == "express"


def env_action(index: int, players: int) -> str:
    return str(action_of(index, players))


def test_slots_are_read_set_cloned_and_reset_without_touching_the_input() -> None:
    env = FunctionalEnv("expert", 3, observation_version=1)
    states = env.init(np.array([1, 2, 3]))
    for _ in range(5):
        states = env.step(states, np.argmax(states.legal_action_mask, axis=1))
    kept = states.copy()
    one = states.slot(0)
    assert one.batch == 1
    cloned = env.clone_slot(states, 0, 2)
    np.testing.assert_array_equal(cloned.kernel[2], states.kernel[0])
    np.testing.assert_array_equal(cloned.observation[2], states.observation[0])
    np.testing.assert_array_equal(cloned.kernel[1], states.kernel[1])
    reset = env.reset_slot(cloned, 1, key=9)
    fresh = env.init(np.array([9]))
    np.testing.assert_array_equal(reset.kernel[1], fresh.kernel[0])
    assert reset.first_seat[1] == fresh.first_seat[0]
    game = Game(env.rules, first=1)
    game.play("Tc")
    placed = env.set_slot(reset, 0, env.from_state(game.state))
    assert placed.current_player[0] == game.turn
    assert placed.first_seat[0] == -1
    for name in ("kernel", "observation", "legal_action_mask", "first_seat"):
        np.testing.assert_array_equal(getattr(states, name), getattr(kept, name))
    both = env.concatenate([placed, states.slot(2)])
    assert both.batch == 4
    np.testing.assert_array_equal(both.kernel[3], states.kernel[2])


def test_bad_input_is_refused_in_words() -> None:
    env = FunctionalEnv("express", 2, first=0)
    states = env.init(np.array([0, 1]))
    assert states.first_seat.tolist() == [0, 0]
    with pytest.raises(IllegalBatchActionError, match="slot 1: action 700"):
        env.step(states, np.array([0, 700]))
    with pytest.raises(ValueError, match="2 integer action indices"):
        env.step(states, np.array([0.0, 1.0]))
    with pytest.raises(ValueError, match="non-negative integer keys"):
        env.init(np.array([-1]))
    with pytest.raises(IndexError, match="0-1"):
        states.slot(2)
    with pytest.raises(ValueError, match="batch of one"):
        env.set_slot(states, 0, states)
    with pytest.raises(ValueError, match="other settings"):
        env.set_slot(states, 0, FunctionalEnv("express", 3).init(np.array([0])))
    with pytest.raises(ValueError, match="express with 2 players"):
        env.from_state(Game(Rules(Variant.EXPERT, 2), first=0).state)
    with pytest.raises(ValueError, match="first seat"):
        FunctionalEnv("express", 2, first=2)


def test_states_of_other_rules_are_refused_before_they_are_played() -> None:
    express, expert = FunctionalEnv("express", 2), FunctionalEnv("expert", 2)
    limited = FunctionalEnv("express", 2, action_limit=3)
    ours, theirs = express.init(np.arange(2)), expert.init(np.arange(1))
    refusals = [
        lambda: express.step(expert.init(np.arange(2)), np.array([0, 0])),
        lambda: express.set_slot(ours, 0, theirs),
        lambda: express.concatenate([ours, theirs]),
        lambda: express.step(limited.init(np.arange(2)), np.array([0, 0])),
    ]
    for refused in refusals:
        with pytest.raises(ValueError, match="not all express with 2 players and no action"):
            refused()
    with pytest.raises(ValueError, match="an action limit of 3"):
        limited.step(ours, np.array([0, 0]))
    assert ours.kernel.tolist() == express.init(np.arange(2)).kernel.tolist()
