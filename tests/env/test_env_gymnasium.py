"""The Gymnasium single-agent environment: Gymnasium's checker, determinism, the game it
plays checked against the core, opponents of every kind, illegal actions."""

from __future__ import annotations

import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from shiftago.core import Game, GameOverError, IllegalActionError, Rules, Variant
from shiftago.engine.greedy import GreedyBot
from shiftago.env import render
from shiftago.env.single import ENV_ID, ShiftagoEnv
from shiftago.env.spaces import ACTION_COUNT, action_of, index_of

CONFIGS = [(v, n) for v in ("express", "expert", "extreme") for n in (2, 3, 4)]


def first_legal(observation: np.ndarray, mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


def _random_legal(rng: np.random.Generator, obs: dict[str, np.ndarray]) -> np.int64:
    return np.int64(rng.choice(np.flatnonzero(obs["action_mask"])))


@pytest.mark.parametrize(("variant", "players"), CONFIGS)
def test_gymnasium_check_env(variant: str, players: int) -> None:
    opponent = "level:1" if players == 2 else first_legal
    env = gymnasium.make(ENV_ID, variant=variant, players=players, opponent=opponent)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the checker warns about what is wrong
        check_env(env.unwrapped)


def test_make_by_module_path_and_reimport() -> None:
    import importlib

    import shiftago.env.single as single

    importlib.reload(single)  # registering twice neither warns nor fails
    env = gymnasium.make(f"shiftago.env.single:{ENV_ID}", players=3, opponent="random")
    obs, info = env.reset(seed=3)
    assert obs["observation"].shape == (14, 7, 7)
    assert info["seat"] == 0 and info["phase"] == "insert"
    assert env.action_space == gymnasium.spaces.Discrete(ACTION_COUNT)


def test_defaults_and_bad_settings() -> None:
    env = ShiftagoEnv()
    assert env.rules == Rules(Variant.EXPRESS, 2)
    assert ShiftagoEnv("extreme").rules.action_limit == 400
    assert ShiftagoEnv("extreme", action_limit=60).rules.action_limit == 60
    for bad in ("level:9", 0, "strong", "level:x", 2.5):
        with pytest.raises(ValueError):
            ShiftagoEnv(opponent=bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="learner_seat"):
        ShiftagoEnv(players=3, learner_seat=3)
    with pytest.raises(ValueError, match="points_weight"):
        ShiftagoEnv(points_weight=float("nan"))


def test_a_game_over_before_the_learner_acts_is_no_episode() -> None:
    """With six skips the learner may see the opponents win before its first turn:
    ``reset`` then starts another game, and says how many it left."""
    env = ShiftagoEnv("express", 3, opponent="random", learner_seat=2, handicap=(3, 0, 6))
    left = 0
    for seed in range(40):
        obs, info = env.reset(seed=seed)
        assert info["seat"] == 2 and obs["action_mask"].any() and "outcome" not in info
        left += info["games_ended_before_the_learner"]
    assert left > 0  # seeds 19 and 32 end a first game early
    never = ShiftagoEnv("expert", 3, opponent="random", learner_seat=2, handicap=(0, 0, 6),
                        action_limit=3)  # fmt: skip
    with pytest.raises(ValueError, match="100 games in a row ended before the learner's"):
        never.reset(seed=0)


def _episode(env: ShiftagoEnv, seed: int) -> tuple[list[Any], list[int]]:
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    trace: list[Any] = [obs, info]
    terminated = False
    while not terminated:
        obs, reward, terminated, truncated, info = env.step(_random_legal(rng, obs))
        trace += [obs, reward, terminated, truncated, info]
    return trace, list(env.history)


@pytest.mark.parametrize(("variant", "players", "opponent"), [("expert", 2, 3), ("express", 3, 2)])
def test_same_seed_same_episode(variant: str, players: int, opponent: int) -> None:
    def make() -> ShiftagoEnv:
        return ShiftagoEnv(variant, players, opponent=opponent, learner_seat="random")

    first, history = _episode(make(), 11)
    again, history_again = _episode(make(), 11)
    assert history == history_again
    assert len(first) == len(again)
    for a, b in zip(first, again, strict=True):
        assert gymnasium.utils.env_checker.data_equivalence(a, b, exact=True)
    other = make()
    seats = set()
    for seed in range(30):
        other.reset(seed=seed)
        seats.add(other.learner)
    assert seats == set(range(players))  # "random" draws every seat


def _check_against_core(variant: str, players: int, seed: int, points_weight: float) -> bool:
    """Random learner against random opponents; at each learner turn the history replayed
    through the core must leave the learner to act with the mask as its legal actions."""
    rng = np.random.default_rng(seed)
    opponent_rng = np.random.default_rng(seed + 1000)

    def opponent(observation: np.ndarray, mask: np.ndarray) -> int:
        return int(opponent_rng.choice(np.flatnonzero(mask)))

    env = ShiftagoEnv(
        variant,
        players,
        opponent=opponent,
        learner_seat=seed % players,
        action_limit=150,
        points_weight=points_weight,
    )
    obs, info = env.reset(seed=seed, options={"first": seed % 2})
    rules = Rules(Variant.parse(variant), players, action_limit=150)

    def replay() -> Game:
        actions = [action_of(code, players) for code in env.history]
        return Game.from_actions(rules, actions, first=seed % 2)

    learner = info["seat"]
    total, terminated = 0.0, False
    while not terminated:
        game = replay()
        assert not game.is_over and game.turn == learner
        legal = sorted(index_of(a, players) for a in game.legal_actions())
        assert np.flatnonzero(obs["action_mask"]).tolist() == legal
        assert np.flatnonzero(info["action_mask"]).tolist() == legal
        assert np.flatnonzero(env.action_masks()).tolist() == legal
        obs, reward, terminated, truncated, info = env.step(_random_legal(rng, obs))
        assert not truncated and not info["illegal_action"]
        total += reward
    game = replay()
    assert game.is_over and info["outcome"] == game.outcome == env.outcome
    assert not obs["action_mask"].any() and not env.action_masks().any()
    expected = 2 * game.outcome.returns()[learner] - 1
    if points_weight:
        # replay for the points each seat scored
        points = [0] * players
        for state, after in zip(game.states, game.states[1:], strict=False):
            for seat in range(players):
                points[seat] += after.scores[seat] - state.scores[seat]
        others = sum(points) - points[learner]
        expected += points_weight * (points[learner] - others / (players - 1)) / 10
    assert total == pytest.approx(expected, abs=1e-6)
    return any(game.states[k].scores != game.states[k + 1].scores for k in range(len(game.history)))


@pytest.mark.parametrize(("variant", "players"), CONFIGS)
def test_plays_as_the_core(variant: str, players: int) -> None:
    for seed in range(3):
        _check_against_core(variant, players, seed, 0.0)


def test_points_weight_shaping() -> None:
    scored = [_check_against_core("expert", n, seed, 0.5) for n in (2, 3) for seed in range(3)]
    assert any(scored)


def test_opponent_policy_sees_its_own_seat() -> None:
    calls: list[tuple[np.ndarray, np.ndarray]] = []

    def policy(observation: np.ndarray, mask: np.ndarray) -> int:
        calls.append((observation, mask))
        return first_legal(observation, mask)

    env = ShiftagoEnv("express", 3, opponent=policy, learner_seat=2)
    obs, _ = env.reset(seed=0)
    # orange and green moved first, each with the first legal action: L1 twice
    assert env.history == [index_of("L1", 3)] * 2
    assert len(calls) == 2
    first_obs, first_mask = calls[0]
    assert first_obs.shape == (14, 7, 7) and not first_obs[:3].any() and first_mask.sum() == 28
    green_obs = calls[1][0]
    assert green_obs[2, 0, 0] == 1 and green_obs[0].sum() == 0  # orange is green's previous
    assert obs["observation"][1, 0, 1] == 1  # the learner (blue) sees orange pushed to b1
    assert obs["observation"][2, 0, 0] == 1  # and green, just after it, on a1


def test_bad_opponent_policy_is_an_error_not_a_learner_loss() -> None:
    env = ShiftagoEnv("express", 2, opponent=lambda obs, mask: 400, learner_seat=1)
    with pytest.raises(IllegalActionError, match="opponent at seat 0 chose action 400"):
        env.reset(seed=0)


def test_an_opponent_that_fails_mid_episode_ends_it() -> None:
    """The learner's action was played before the opponent failed: the episode ends
    there, and no later step plays for the opponent's seat."""
    env = ShiftagoEnv("express", 2, opponent=lambda obs, mask: 0)  # always L1
    env.reset(seed=0)
    l1 = np.int64(index_of("L1", 2))
    with pytest.raises(IllegalActionError, match="opponent at seat 1"):
        for _ in range(4):  # rank 1 fills up: the opponent's fourth L1 is illegal
            env.step(l1)
    with pytest.raises(GameOverError, match="reset"):
        env.step(np.int64(index_of("L2", 2)))
    assert env.history == [0] * 7


def test_seats_are_whole_numbers() -> None:
    for bad in (True, 1.5, "1"):
        with pytest.raises(ValueError, match="first seat"):
            ShiftagoEnv().reset(options={"first": bad})
    with pytest.raises(ValueError, match="learner_seat"):
        ShiftagoEnv(learner_seat=True)  # type: ignore[arg-type]
    _, info = ShiftagoEnv(learner_seat=np.int64(1)).reset(options={"first": np.int64(1)})
    assert info["seat"] == 1


def test_opponent_bot_and_levels_play() -> None:
    bot_env = ShiftagoEnv("expert", 2, opponent=GreedyBot(seed=1))
    obs, _ = bot_env.reset(seed=0)
    obs, *_ = bot_env.step(np.int64(index_of("Td", 2)))
    assert len(bot_env.history) == 2
    for opponent in ("level:3", 3):
        env = ShiftagoEnv("express", 3, opponent=opponent, learner_seat=1)
        obs, _ = env.reset(seed=5)
        assert len(env.history) == 1
        env.step(_random_legal(np.random.default_rng(0), obs))
        assert len(env.history) == 4  # the learner, then blue and orange


def test_illegal_action_ends_the_episode() -> None:
    env = ShiftagoEnv("express", 2, opponent="random")
    env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(np.int64(index_of("xa1-e1", 2)))
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    assert env.history == []  # nothing was played
    assert not obs["action_mask"].any() and not env.action_masks().any()
    with pytest.raises(GameOverError, match="reset"):
        env.step(np.int64(0))
    obs, info = env.reset(seed=0)
    assert obs["action_mask"].sum() == 28 and not info["illegal_action"]
    with pytest.raises(IllegalActionError, match="0-667"):
        env.step(np.int64(ACTION_COUNT))
    obs, reward, terminated, *_ = env.step(np.int64(0))  # still playable after that
    assert not terminated and len(env.history) == 2


def test_render_modes(capsys: pytest.CaptureFixture[str]) -> None:
    env = ShiftagoEnv("expert", 2, opponent=first_legal, render_mode="rgb_array")
    env.reset(seed=0)
    env.step(np.int64(index_of("Bg", 2)))  # orange at g1, green answers L1 at a1
    image = env.render()
    assert isinstance(image, np.ndarray) and image.dtype == np.uint8
    assert image.shape == (render.IMAGE_SIZE, render.IMAGE_SIZE, 3)
    assert tuple(image[render.cell_centre(6, 0)]) == render.SEAT_RGB[0]
    assert tuple(image[render.cell_centre(0, 0)]) == render.SEAT_RGB[1]
    text_env = ShiftagoEnv("expert", 2, opponent=first_legal, render_mode="ansi")
    text_env.reset(seed=0)
    text_env.step(np.int64(index_of("Bg", 2)))
    text = text_env.render()
    assert isinstance(text, str) and "1[g]. . . . . o" in text
    human = ShiftagoEnv("expert", 2, opponent=first_legal, render_mode="human")
    human.reset(seed=0)
    capsys.readouterr()
    human.step(np.int64(index_of("Bg", 2)))
    assert "orange (o) to insert" in capsys.readouterr().out


@pytest.mark.parametrize("opponent", ["random", "level:3", 2])
def test_pickled_mid_game_it_plays_on_the_same(opponent: str | int) -> None:
    import importlib
    import pickle

    # the module as imported now (a test above imports it again)
    env = importlib.import_module("shiftago.env.single").ShiftagoEnv(
        "express", 2, opponent=opponent
    )
    obs, _ = env.reset(seed=4)
    for _ in range(3):
        obs, *_ = env.step(np.int64(np.flatnonzero(obs["action_mask"])[0]))
    copy = pickle.loads(pickle.dumps(env))
    for _ in range(3):
        action = np.int64(np.flatnonzero(obs["action_mask"])[-1])
        obs, reward, terminated, _, _ = env.step(action)
        twin, twin_reward, twin_terminated, _, _ = copy.step(action)
        assert np.array_equal(obs["observation"], twin["observation"])
        assert (reward, terminated) == (twin_reward, twin_terminated)
        if terminated:
            break


def test_version_1_observations_for_the_learner_and_policy_opponents() -> None:
    seen: list[np.ndarray] = []

    def policy(observation: np.ndarray, mask: np.ndarray) -> int:
        seen.append(observation)
        return first_legal(observation, mask)

    env = ShiftagoEnv("express", 3, opponent=policy, learner_seat=2, observation_version=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env, skip_render_check=True)
    obs, _ = env.reset(seed=0)
    assert env.observation_space["observation"].shape == (17, 7, 7)
    assert obs["observation"].shape == (17, 7, 7)
    assert float(obs["observation"][14].min()) == 1.0  # the learner is to act
    assert seen[-1].shape == (17, 7, 7) and float(seen[-1][14, 3, 3]) == 1.0
    with pytest.raises(ValueError, match="observation version"):
        ShiftagoEnv(observation_version=3)


def test_a_numpy_seed_plays_the_episode_of_the_same_python_int() -> None:
    def make() -> ShiftagoEnv:
        return ShiftagoEnv("express", 3, opponent=2, learner_seat="random")

    _trace, history = _episode(make(), 11)
    _trace, history_numpy = _episode(make(), np.uint32(11))  # type: ignore[arg-type]
    assert history_numpy == history
