"""The JAX environment (jit and vmap) plays the core's games action by action, with
the observations, masks and rewards of every other environment."""

from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax", reason="the jax extra: pip install shiftago[jax]")

from shiftago.core import Game, Variant  # noqa: E402
from shiftago.engine.kernel import from_state  # noqa: E402
from shiftago.env.jaxenv import JaxEnv, State, device_name  # noqa: E402
from shiftago.env.spaces import action_of, index_of, observe  # noqa: E402

# variant, players, handicap, action limit, points weight: every variant and count once
CONFIGS = [
    ("express", 2, None, None, 0.0),
    ("express", 3, (0, 2, 1), None, 0.0),
    ("express", 4, None, None, 0.0),
    ("expert", 2, (3, 0), None, 0.5),
    ("expert", 3, None, None, 1.0),
    ("expert", 4, None, None, 0.0),
    ("extreme", 2, None, 40, 1.0),
    ("extreme", 3, None, 30, 0.0),
    ("extreme", 4, (0, 0, 2, 0), 30, 0.5),
]


def slot(states: State, b: int) -> State:
    return jax.tree.map(lambda x: x[b], states)


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


@pytest.mark.parametrize(("variant", "players", "handicap", "limit", "weight"), CONFIGS)
def test_jitted_and_vmapped_games_follow_the_core(
    variant: str,
    players: int,
    handicap: tuple[int, ...] | None,
    limit: int | None,
    weight: float,
) -> None:
    version = players % 2
    env = JaxEnv(
        variant, players, handicap, limit, points_weight=weight, observation_version=version
    )
    init, step = jax.jit(jax.vmap(env.init)), jax.jit(jax.vmap(env.step))
    batch = 4
    states = init(jax.random.split(jax.random.key(players), batch))
    games = [Game(env.rules, first=int(seat)) for seat in states.first_seat]
    rng = np.random.default_rng(players)
    kinds: set[str] = set()
    while not bool(states.terminated.all()):
        host = jax.device_get(states)  # read on the host: one transfer, not one per field
        masks = np.asarray(host.legal_action_mask)
        for b, game in enumerate(games):
            one = slot(host, b)
            s = from_state(game.state, len(game.history))
            kernel = env.to_kernel(one)
            kernel[23] = s[23]  # the end reason is the one field not kept
            np.testing.assert_array_equal(kernel, s)
            assert bool(one.terminated) == (game.outcome is not None)
            legal = set() if game.outcome else {index_of(a, players) for a in game.legal_actions()}
            assert set(np.flatnonzero(masks[b]).tolist()) == legal
            np.testing.assert_array_equal(
                np.asarray(one.observation), observe(s, game.turn, version)
            )
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        after = step(states, actions)
        rewards = np.asarray(after.rewards)
        for b, game in enumerate(games):
            if game.outcome is not None:
                assert not rewards[b].any()  # a finished game stays, with nothing more
                continue
            mover, scores = game.turn, game.state.scores
            game.play(str(action_of(int(actions[b]), players)))
            kinds.add("insert" if actions[b] < 28 else f"score {(actions[b] - 28) % 2}")
            np.testing.assert_allclose(
                rewards[b], expected_rewards(game, mover, scores, weight), atol=1e-6
            )
        states = after
    assert all(game.outcome is not None for game in games)
    if variant != "express":
        assert "score 0" in kinds


def test_a_fixed_first_seat_and_the_device() -> None:
    env = JaxEnv("expert", 3, first=2)
    state = env.init(jax.random.key(5))
    assert int(state.current_player) == 2 and int(state.first_seat) == 2
    assert device_name().startswith(("cpu", "gpu", "cuda", "tpu", "rocm"))
    with pytest.raises(ValueError, match="first seat"):
        JaxEnv("expert", 3, first=3)
    # stepping a finished game returns it as it was
    game = Game(env.rules, first=0)
    over = env.from_kernel(from_state(game.state))._replace(terminated=jax.numpy.bool_(True))
    again = env.step(over, jax.numpy.int32(3))
    np.testing.assert_array_equal(np.asarray(again.board), np.asarray(over.board))
    assert Variant.EXPERT is env.rules.variant


def test_to_kernel_refuses_a_batch_in_words() -> None:
    env = JaxEnv("expert", players=3)
    states = jax.vmap(env.init)(jax.random.split(jax.random.key(0), 4))
    with pytest.raises(ValueError, match=r"one game's state, not a batch of shape \(4,\)"):
        env.to_kernel(states)
    assert env.to_kernel(slot(jax.device_get(states), 2)).shape == (24,)
