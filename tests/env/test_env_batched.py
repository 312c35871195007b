"""The batched environment plays the core's games: every slot followed by a core game."""

from __future__ import annotations

import copy
import pickle
import random

import numpy as np
import pytest

from shiftago.core import Game, IllegalActionError, Rules, State, Variant
from shiftago.engine.kernel import from_state
from shiftago.engine.kernel.moves import apply_action
from shiftago.engine.kernel.tables import COUNT, LIMIT, PHASE, SCORE_PHASE
from shiftago.env.batched import BatchedEnv, IllegalBatchActionError
from shiftago.env.settings import EXTREME_ACTION_LIMIT
from shiftago.env.spaces import ACTION_COUNT, action_of, index_of, observe

# variant, players, handicap, action limit, points weight
CONFIGS = [
    ("express", 2, None, None, 0.0),
    ("express", 3, None, None, 0.0),
    ("express", 4, None, None, 0.0),
    ("express", 3, (0, 2, 1), None, 0.0),
    ("expert", 2, None, None, 0.5),
    ("expert", 3, None, None, 1.0),
    ("expert", 4, None, None, 0.0),
    ("expert", 2, (3, 0), None, 0.0),
    ("extreme", 2, None, 40, 1.0),
    ("extreme", 3, None, 30, 0.0),
    ("extreme", 4, (0, 0, 2, 0), 30, 0.5),
]


def new_game(env: BatchedEnv, slot: int) -> Game:
    return Game(env.rules, first=int(env.first_seats[slot]))


def expected_rewards(before: Game, mover: int, scores: tuple[int, ...], w: float) -> np.ndarray:
    """The rewards of the action just played in ``before`` by ``mover`` (the scores
    are those before it)."""
    n = before.rules.players
    out = np.zeros(n)
    gained = before.state.scores[mover] - scores[mover]
    if gained:
        out[:] = -w * gained / (10 * (n - 1))
        out[mover] = w * gained / 10
    if before.outcome is not None:
        winners = before.outcome.winners
        out += [2 * (1 / len(winners) if seat in winners else 0) - 1 for seat in range(n)]
    return out


def assert_slot_matches(env: BatchedEnv, slot: int, game: Game) -> None:
    n = env.players
    s = from_state(game.state, len(game.history))
    np.testing.assert_array_equal(env.states[slot], s)
    assert env.to_play[slot] == game.turn
    legal = {index_of(action, n) for action in game.legal_actions()}
    assert set(np.flatnonzero(env.masks[slot]).tolist()) == legal
    np.testing.assert_array_equal(env.observations[slot], observe(s, game.turn))


@pytest.mark.parametrize(("variant", "players", "handicap", "limit", "weight"), CONFIGS)
def test_every_slot_plays_the_core_game(
    variant: str,
    players: int,
    handicap: tuple[int, ...] | None,
    limit: int | None,
    weight: float,
) -> None:
    batch = 8
    env = BatchedEnv(
        batch, variant, players, handicap, limit, points_weight=weight, seed=players + 10
    )
    games = [new_game(env, b) for b in range(batch)]
    firsts = env.first_seats.tolist()
    for b in range(batch):
        assert_slot_matches(env, b, games[b])
    ended = scored = 0
    for _ in range(200):
        actions = env.random_actions()
        movers = [g.turn for g in games]
        scores = [g.state.scores for g in games]
        for b, game in enumerate(games):
            assert env.masks[b, actions[b]]
            game.play(action_of(int(actions[b]), players))
        _, rewards, terminated = env.step(actions)
        for b, game in enumerate(games):
            want = expected_rewards(game, movers[b], scores[b], weight)
            np.testing.assert_allclose(rewards[b], want, atol=1e-6)
            assert terminated[b] == game.is_over
            scored += game.state.scores != scores[b]
            if game.is_over:
                assert game.outcome is not None
                assert env.winners[b] == sum(1 << seat for seat in game.outcome.winners)
                assert env.episode_lengths[b] == len(game.history)
                assert env.ended_first_seats[b] == firsts[b]
                ended += 1
                games[b] = game = new_game(env, b)
                firsts[b] = int(env.first_seats[b])
            else:
                assert env.winners[b] == 0
                assert env.episode_lengths[b] == 0
                assert env.ended_first_seats[b] == -1
            assert_slot_matches(env, b, game)
    assert env.steps == 200 * batch
    assert ended > 0  # the automatic reset was exercised
    if variant != "express":
        assert scored > 0


def test_extreme_gets_the_default_action_limit() -> None:
    env = BatchedEnv(16, Variant.EXTREME, 2, seed=3)
    assert env.rules.action_limit == EXTREME_ACTION_LIMIT
    assert (env.states[:, LIMIT] == EXTREME_ACTION_LIMIT).all()
    lengths = []
    for _ in range(1200):
        env.step(env.random_actions())
        lengths += env.episode_lengths[env.terminated].tolist()
    assert lengths and max(lengths) <= EXTREME_ACTION_LIMIT
    assert BatchedEnv(2, "express").rules.action_limit is None


def test_points_shaping_sums_to_zero() -> None:
    env = BatchedEnv(32, "expert", 3, points_weight=2.0, seed=5)
    shaped = 0
    for _ in range(200):
        _, rewards, terminated = env.step(env.random_actions())
        going_on = ~terminated
        np.testing.assert_allclose(rewards[going_on].sum(axis=1), 0.0, atol=1e-5)
        shaped += int(np.count_nonzero(rewards[going_on]))
    assert shaped > 0


def snapshot(env: BatchedEnv) -> list[np.ndarray]:
    return [
        np.array(a)
        for a in (
            env.states,
            env.observations,
            env.masks,
            env.to_play,
            env.first_seats,
            env.rewards,
            env.terminated,
            env.winners,
            env.episode_lengths,
            env.ended_first_seats,
        )
    ]


def assert_same(a: BatchedEnv, b: BatchedEnv) -> None:
    for x, y in zip(snapshot(a), snapshot(b), strict=True):
        np.testing.assert_array_equal(x, y)


@pytest.mark.parametrize("bad", ["illegal", -1, ACTION_COUNT])
def test_an_illegal_action_raises_and_changes_nothing(bad: str | int) -> None:
    env = BatchedEnv(8, "expert", 3, seed=7)
    twin = BatchedEnv(8, "expert", 3, seed=7)
    for _ in range(10):
        env.step(env.random_actions())
        twin.step(twin.random_actions())
    actions = env.random_actions()
    assert (actions == twin.random_actions()).all()
    slot = 5
    if bad == "illegal":
        bad = int(np.flatnonzero(~env.masks[slot])[0])
    actions[slot] = bad
    before = snapshot(env)
    with pytest.raises(IllegalBatchActionError, match=f"slot {slot}: action {bad}") as info:
        env.step(actions)
    assert isinstance(info.value, IllegalActionError)
    assert isinstance(info.value, ValueError)
    assert (info.value.slot, info.value.action) == (slot, bad)
    again = pickle.loads(pickle.dumps(info.value))  # sent back from a worker process
    assert (again.slot, again.action, str(again)) == (slot, bad, str(info.value))
    for x, y in zip(before, snapshot(env), strict=True):
        np.testing.assert_array_equal(x, y)
    assert env.steps == twin.steps
    # the generator did not move either
    for _ in range(5):
        env.step(env.random_actions())
        twin.step(twin.random_actions())
    assert_same(env, twin)


def test_step_takes_one_integer_per_slot() -> None:
    env = BatchedEnv(4)
    with pytest.raises(ValueError, match="4 integer action indices"):
        env.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(ValueError, match="integer"):
        env.step(np.zeros(4, dtype=np.float32))
    # other integer types are taken
    env.step(env.random_actions().astype(np.int32))
    assert env.steps == 4


def test_the_same_seed_gives_the_same_games_and_another_seed_others() -> None:
    a, b, c = (BatchedEnv(8, "express", 3, seed=seed) for seed in (11, 11, 12))
    assert_same(a, b)
    differs = False
    for _ in range(60):
        for env in (a, b, c):
            env.step(env.random_actions())
        assert_same(a, b)
        differs |= not np.array_equal(a.states, c.states)
    assert differs


def test_seed_none_draws_a_fresh_seed_and_bad_seeds_are_refused() -> None:
    a, b = (BatchedEnv(64, "express", 2, seed=None) for _ in range(2))
    assert not np.array_equal(a.first_seats, b.first_seats)  # alike: 1 in 2**64
    # an omitted seed is None, as in Gymnasium: unseeded workers play different games
    c, d = (BatchedEnv(64, "express", 2) for _ in range(2))
    assert not np.array_equal(c.first_seats, d.first_seats)
    assert a.random_actions().any()  # a generator left at 0 gives action 0 everywhere
    for bad in (-1, 2**63, 2**64, 1.5, "3"):
        with pytest.raises(ValueError, match="a seed is a whole number 0 to 2"):
            BatchedEnv(2, seed=bad)  # type: ignore[arg-type]
    before = a.states.copy()
    with pytest.raises(ValueError, match="not -5"):
        a.reset(seed=-5)
    assert np.array_equal(a.states, before)


def test_reset_starts_new_games() -> None:
    env = BatchedEnv(8, "expert", 2, seed=4)
    fresh = BatchedEnv(8, "expert", 2, seed=9)
    for _ in range(30):
        env.step(env.random_actions())
    observations = env.reset(seed=9)
    assert observations is env.observations
    assert_same(env, fresh)
    for _ in range(20):
        env.step(env.random_actions())
        fresh.step(fresh.random_actions())
    assert_same(env, fresh)
    env.reset()
    assert (env.states[:, COUNT] == 0).all()
    assert not env.terminated.any() and not env.rewards.any()
    for slot in range(env.batch):
        assert_slot_matches(env, slot, new_game(env, slot))


def test_first_seat_fixed_or_random() -> None:
    assert (BatchedEnv(16, "express", 4, first=2).first_seats == 2).all()
    seats = BatchedEnv(64, "express", 4, seed=1).first_seats
    assert set(seats.tolist()) == {0, 1, 2, 3}
    with pytest.raises(ValueError, match="first seat"):
        BatchedEnv(2, "express", 2, first=2)
    with pytest.raises(ValueError, match="first seat"):
        BatchedEnv(2, "express", 2, first=True)
    assert (BatchedEnv(2, "express", 2, first=np.int64(1)).first_seats == 1).all()
    with pytest.raises(ValueError, match="batch"):
        BatchedEnv(0)


def test_arrays_are_read_only_views() -> None:
    env = BatchedEnv(2, "expert", 2)
    masks = env.masks
    with pytest.raises(ValueError, match="read-only"):
        env.masks[0, 0] = False
    with pytest.raises(ValueError, match="read-only"):
        env.observations[0] = 0.0
    env.step(env.random_actions())
    assert env.masks is masks


@pytest.mark.parametrize("how", ["deepcopy", "pickle"])
def test_a_copied_environment_steps_on_its_own_and_shows_its_own_games(how: str) -> None:
    env = BatchedEnv(2, "express", 2, seed=0, first=0)
    twin = copy.deepcopy(env) if how == "deepcopy" else pickle.loads(pickle.dumps(env))
    observations, _rewards, _terminated = twin.step(np.array([3, 3]))  # L4 in both slots
    played = from_state(Game(Rules(Variant.EXPRESS, 2), first=0).state)
    apply_action(played, 3)
    np.testing.assert_array_equal(twin.states, np.stack([played, played]))
    np.testing.assert_array_equal(twin.to_play, [1, 1])
    np.testing.assert_array_equal(observations, twin.observations)
    np.testing.assert_array_equal(observations[0], observe(played, 1))
    # the original has not moved
    np.testing.assert_array_equal(env.to_play, [0, 0])
    assert not env.states[:, :4].any()


def test_without_observations_the_games_are_the_same() -> None:
    seen = BatchedEnv(8, "extreme", 3, seed=2)
    blind = BatchedEnv(8, "extreme", 3, seed=2, observe=False)
    assert blind.observations.shape == (8, 0, 7, 7)
    for _ in range(50):
        seen.step(seen.random_actions())
        blind.step(blind.random_actions())
        np.testing.assert_array_equal(seen.states, blind.states)
        np.testing.assert_array_equal(seen.masks, blind.masks)
        np.testing.assert_array_equal(seen.rewards, blind.rewards)


def test_score_phase_plane_follows_the_phase() -> None:
    env = BatchedEnv(32, "expert", 2, seed=6)
    plane = 4 * env.players
    seen = False
    for _ in range(100):
        env.step(env.random_actions())
        scoring = env.states[:, PHASE] == SCORE_PHASE
        np.testing.assert_array_equal(env.observations[:, plane].max(axis=(1, 2)), scoring)
        seen |= bool(scoring.any())
    assert seen


def test_legal_actions_of_a_slot_that_is_not_there_is_an_error() -> None:
    env = BatchedEnv(3, "express", 2, seed=1)
    assert env.legal_actions(2) == env.legal_actions(np.int64(2))
    for slot, error in ((3, IndexError), (-1, IndexError), (1.0, TypeError)):
        with pytest.raises(error):
            env.legal_actions(slot)  # type: ignore[arg-type]


def test_slots_are_read_set_cloned_and_reset_one_at_a_time() -> None:
    env = BatchedEnv(4, "expert", 3, seed=2, observation_version=1)
    for _ in range(6):
        env.step(env.random_actions())
    kept = env.slot_state(1)
    env.set_slot(3, kept)
    env.clone_slot(1, 2)
    for slot in (2, 3):
        np.testing.assert_array_equal(env.states[slot], env.states[1])
        np.testing.assert_array_equal(env.masks[slot], env.masks[1])
        np.testing.assert_array_equal(env.observations[slot], env.observations[1])
    assert env.first_seats[2] == env.first_seats[1] and env.first_seats[3] == -1
    actions = env.random_actions()
    actions[2] = actions[3] = actions[1]
    env.step(actions)  # the copies play on as the original
    np.testing.assert_array_equal(env.states[2], env.states[1])
    np.testing.assert_array_equal(env.states[3], env.states[1])
    kept[:] = 0  # slot_state gave a copy
    assert env.states[1].any()
    game = Game(env.rules, first=2)
    game.play("L4")
    env.set_slot(0, game.state)  # a core position: its actions count from it
    assert_slot_matches_v1(env, 0, game, played=0)
    env.reset_slot(0, first=1)
    assert_slot_matches_v1(env, 0, Game(env.rules, first=1))
    assert env.first_seats[0] == 1
    env.reset_slot(3)  # the environment's choice: a seat from its generator
    assert_slot_matches_v1(env, 3, Game(env.rules, first=int(env.first_seats[3])))


def assert_slot_matches_v1(
    env: BatchedEnv, slot: int, game: Game, played: int | None = None
) -> None:
    s = from_state(game.state, len(game.history) if played is None else played)
    np.testing.assert_array_equal(env.states[slot], s)
    assert env.to_play[slot] == game.turn
    np.testing.assert_array_equal(env.observations[slot], observe(s, game.turn, 1))
    legal = {index_of(action, env.players) for action in game.legal_actions()}
    assert set(np.flatnonzero(env.masks[slot]).tolist()) == legal


def finished_expert_3() -> State:
    """A 3-player Expert game played at random to its end."""
    chooser = random.Random(4)
    game = Game(Rules(Variant.EXPERT, 3), first=0, seed=4)
    while not game.is_over:
        game.play(chooser.choice(game.legal_actions()))
    return game.state


def test_setting_a_slot_refuses_what_does_not_fit_and_changes_nothing() -> None:
    env = BatchedEnv(2, "expert", 3, seed=2)
    before = env.states.copy()
    other = from_state(Game(Rules(Variant.EXPRESS, 3), first=0).state)
    for bad, words in (
        (other, "expert with 3 players"),
        (np.zeros(5, dtype=np.uint64), "kernel state"),
        (env.slot_state(0).astype(np.int64), "kernel state"),
        (finished_expert_3(), "is over"),
    ):
        with pytest.raises(ValueError, match=words):
            env.set_slot(1, bad)
    with pytest.raises(IndexError, match="0-1"):
        env.clone_slot(0, 2)
    with pytest.raises(ValueError, match="first seat"):
        env.reset_slot(0, first=3)
    with pytest.raises(TypeError, match="whole number"):
        env.slot_state(1.0)  # type: ignore[arg-type]
    np.testing.assert_array_equal(env.states, before)


@pytest.mark.parametrize(("variant", "players"), [("express", 3), ("expert", 4), ("extreme", 2)])
def test_version_1_observations_stay_right_through_automatic_resets(
    variant: str, players: int
) -> None:
    env = BatchedEnv(6, variant, players, action_limit=40, seed=4, observation_version=1)
    assert env.observations.shape == (6, 5 * players + 2, 7, 7)
    ended = 0
    for _ in range(120):
        env.step(env.random_actions())
        ended += int(env.terminated.sum())
        for b in range(env.batch):
            s = env.states[b]
            np.testing.assert_array_equal(env.observations[b], observe(s, int(s[4]), 1))
    assert ended > 0
