"""The PettingZoo AEC environment: PettingZoo's own conformance tests, and the game it
plays checked against the core action by action."""

from __future__ import annotations

import functools
import warnings
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

from shiftago.core import Game, IllegalActionError, Phase, Rules, Variant
from shiftago.env import render, shiftago_v0
from shiftago.env.spaces import ACTION_COUNT, action_of, index_of

CONFIGS = [(v, n) for v in ("express", "expert", "extreme") for n in (2, 3, 4)]


def _quiet(test: Any) -> Any:
    """PettingZoo warns that a Dict observation is not a Box unless the env is one of
    its own classic ones; that is the classic layout, so the warning is noise here."""

    @functools.wraps(test)
    def run(*args: Any, **kwargs: Any) -> Any:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message="Observation space for each agent")
            warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
            return test(*args, **kwargs)

    return run


@pytest.mark.parametrize(("variant", "players"), CONFIGS)
@_quiet
def test_pettingzoo_api_seed_and_render(variant: str, players: int) -> None:
    def make(**kwargs: Any) -> Any:
        return shiftago_v0.env(variant=variant, players=players, **kwargs)

    api_test(make(), num_cycles=300)
    seed_test(make, num_cycles=100)
    render_test(make)


@_quiet
def test_the_first_seat_is_a_whole_number() -> None:
    for bad in (1.5, True, 2):
        with pytest.raises(ValueError, match="first seat"):
            shiftago_v0.raw_env(players=2).reset(options={"first": bad})


def test_pettingzoo_api_with_a_handicap_and_another_first_seat() -> None:
    env = shiftago_v0.env(variant="expert", players=3, handicap=(0, 2, 1))
    api_test(env, num_cycles=300)
    env.reset(options={"first": 1})
    assert env.agent_selection == "player_0"  # green and blue skip; orange acts
    assert env.unwrapped.game_state().skips == (0, 1, 0)


def test_metadata_spaces_and_defaults() -> None:
    raw = shiftago_v0.raw_env(variant="extreme", players=4)
    assert raw.metadata["name"] == "shiftago_v0"
    assert raw.metadata["render_modes"] == ["human", "ansi", "rgb_array"]
    assert raw.metadata["is_parallelizable"] is False
    assert raw.possible_agents == ["player_0", "player_1", "player_2", "player_3"]
    assert raw.rules.action_limit == 400  # Extreme's default bound
    assert shiftago_v0.raw_env(variant="extreme", action_limit=30).rules.action_limit == 30
    assert shiftago_v0.raw_env(variant="express").rules.action_limit is None
    assert shiftago_v0.raw_env(variant="expert", action_limit=99).rules.action_limit == 99
    space = raw.observation_space("player_2")
    assert space["observation"].shape == (18, 7, 7)
    assert space["observation"].dtype == np.float32
    assert space["action_mask"].shape == (ACTION_COUNT,)
    assert space["action_mask"].dtype == np.int8
    assert raw.action_space("player_1").n == ACTION_COUNT
    with pytest.raises(ValueError, match="points_weight"):
        shiftago_v0.raw_env(points_weight=-1)
    with pytest.raises(ValueError, match="render_mode"):
        shiftago_v0.raw_env(render_mode="window")
    with pytest.raises(ValueError, match="variant"):
        shiftago_v0.raw_env(variant="blitz")


def _expected_rewards(game: Game) -> list[float]:
    assert game.outcome is not None
    return [2 * r - 1 for r in game.outcome.returns()]


def _play_alongside_core(
    variant: str, players: int, seed: int, handicap: tuple[int, ...] = ()
) -> tuple[int, int]:
    """One random game through the wrapped AEC loop and the core; returns (actions, score
    phases met)."""
    rng = np.random.default_rng(seed)
    first = int(rng.integers(players))
    env = shiftago_v0.env(variant=variant, players=players, handicap=handicap, action_limit=150)
    env.reset(seed=seed, options={"first": first})
    rules = Rules(Variant.parse(variant), players, handicap=handicap, action_limit=150)
    game = Game(rules, first=first)
    finished: dict[str, float] = {}
    score_phases = 0
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        assert not truncated
        if terminated:
            finished[agent] = reward
            assert info["phase"] == "over" and info["outcome"] == game.outcome
            env.step(None)
            continue
        assert game.state.phase is not Phase.OVER
        assert agent == f"player_{game.turn}"
        assert info == {"seat": game.turn, "phase": game.phase.value}
        legal = sorted(index_of(a, players) for a in game.legal_actions())
        assert np.flatnonzero(obs["action_mask"]).tolist() == legal
        for other in env.agents:  # nobody else may act
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        score_phases += game.phase is Phase.SCORE
        code = int(rng.choice(legal))
        env.step(code)
        game.play(action_of(code, players))
    assert game.is_over and env.agents == []
    assert finished == {
        f"player_{seat}": pytest.approx(r) for seat, r in enumerate(_expected_rewards(game))
    }
    return len(game.history), score_phases


@pytest.mark.parametrize(("variant", "players"), CONFIGS)
def test_aec_loop_plays_as_the_core(variant: str, players: int) -> None:
    score_phases = 0
    for seed in range(6):
        handicap = (1,) * (players - 1) + (3,) if seed == 5 else ()
        _, met = _play_alongside_core(variant, players, seed, handicap)
        score_phases += met
    if variant != "express":
        assert score_phases > 0


def test_the_action_limit_terminates_and_never_truncates() -> None:
    env = shiftago_v0.env(variant="extreme", players=3, action_limit=40)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    game = Game(Rules(Variant.EXTREME, 3, action_limit=40), first=0)
    while not game.is_over:
        obs, *_ = env.last()
        code = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(code)
        game.play(action_of(code, 3))
    assert game.outcome is not None and game.outcome.reason.value == "action limit"
    assert len(env.unwrapped.history) == 40
    assert all(env.terminations.values()) and not any(env.truncations.values())
    assert env.infos["player_0"]["outcome"] == game.outcome
    assert [env.rewards[f"player_{i}"] for i in range(3)] == pytest.approx(_expected_rewards(game))


def test_seed_seeds_np_random_only() -> None:
    raw = shiftago_v0.raw_env()
    raw.reset(seed=9)
    draws = raw.np_random.integers(1000, size=4)
    first_obs = raw.observe("player_0")["observation"]
    raw.reset(seed=9)
    np.testing.assert_array_equal(raw.np_random.integers(1000, size=4), draws)
    raw.reset(seed=10)
    np.testing.assert_array_equal(raw.observe("player_0")["observation"], first_obs)
    assert raw.agent_selection == "player_0"


def test_observation_is_relative_to_the_observer() -> None:
    raw = shiftago_v0.raw_env(variant="express", players=3)
    raw.step(index_of("L1", 3))  # orange at a1
    raw.step(index_of("L7", 3))  # green at a7
    a1, a7 = (0, 0), (6, 0)
    for agent, own, nxt, prev in (
        ("player_0", a1, a7, None),
        ("player_1", a7, None, a1),
        ("player_2", None, a1, a7),
    ):
        planes = raw.observe(agent)["observation"]
        for plane, cell in ((0, own), (1, nxt), (2, prev)):
            if cell is None:
                assert not planes[plane].any()
            else:
                assert planes[plane][cell] == 1 and planes[plane].sum() == 1
    assert raw.observe("player_2")["action_mask"].sum() == 28
    assert not raw.observe("player_0")["action_mask"].any()


def test_illegal_action_raises_on_raw_env_and_changes_nothing() -> None:
    raw = shiftago_v0.raw_env(variant="expert", players=2)
    raw.step(index_of("Td", 2))
    before = (raw.game_state(), raw.agent_selection, list(raw.history), dict(raw.rewards))
    obs_before = raw.observe("player_1")
    scoring = index_of("xa1-e1", 2)
    with pytest.raises(IllegalActionError, match=rf"action {scoring} \(xa1-e1\) .*player_1") as e:
        raw.step(scoring)
    assert isinstance(e.value, ValueError)
    assert "0 (L1)" in str(e.value) and "27 (Bg)" in str(e.value)
    with pytest.raises(IllegalActionError, match="0-667"):
        raw.step(ACTION_COUNT)
    for not_an_index in (1.5, True, np.True_):  # True would count as action 1 (L2)
        with pytest.raises(IllegalActionError, match="not an action index"):
            raw.step(not_an_index)
    assert (raw.game_state(), raw.agent_selection, raw.history, raw.rewards) == before
    after = raw.observe("player_1")
    for key in obs_before:
        np.testing.assert_array_equal(after[key], obs_before[key])


def test_wrapped_env_turns_an_illegal_action_into_minus_one() -> None:
    env = shiftago_v0.env(variant="express", players=3)
    env.reset(seed=0)
    env.step(index_of("L1", 3))
    assert env.agent_selection == "player_1"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(index_of("xa1-d1", 3))
    assert env.rewards == {"player_0": 0, "player_1": -1, "player_2": 0}
    assert all(env.terminations.values())
    finished = {}
    for agent in env.agent_iter():
        _, reward, terminated, _, _ = env.last()
        assert terminated
        finished[agent] = reward
        env.step(None)
    assert finished == {"player_0": 0, "player_1": -1, "player_2": 0}


def test_points_weight_shapes_each_scoring_zero_sum() -> None:
    weight = 0.5
    rng = np.random.default_rng(3)
    scorings = 0
    for seed in range(3):
        raw = shiftago_v0.raw_env(variant="expert", players=3, points_weight=weight)
        raw.reset(seed=seed)
        game = Game(Rules(Variant.EXPERT, 3), first=0)
        while not game.is_over:
            seat = game.turn
            legal = np.flatnonzero(raw.observe(raw.agent_selection)["action_mask"])
            code = int(rng.choice(legal))
            before = game.state.scores[seat]
            raw.step(code)
            game.play(action_of(code, 3))
            points = game.state.scores[seat] - before
            scorings += points > 0
            shaping = [-weight * points / 20] * 3
            shaping[seat] = weight * points / 10
            if game.is_over:
                shaping = [a + b for a, b in zip(shaping, _expected_rewards(game), strict=True)]
            else:
                assert sum(raw.rewards.values()) == pytest.approx(0)
            assert [raw.rewards[f"player_{i}"] for i in range(3)] == pytest.approx(shaping)
    assert scorings > 0


def test_points_weight_reaches_every_agent_through_last() -> None:
    env = shiftago_v0.env(variant="extreme", players=2, points_weight=1.0, action_limit=200)
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    collected = dict.fromkeys(env.possible_agents, 0.0)
    game = Game(Rules(Variant.EXTREME, 2, action_limit=200), first=0)
    for agent in env.agent_iter():
        obs, reward, terminated, _, _ = env.last()
        collected[agent] += reward
        if terminated:
            env.step(None)
            continue
        code = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(code)
        game.play(action_of(code, 2))
    scores = game.state.scores
    outcome = _expected_rewards(game)
    for seat in range(2):
        shaping = (scores[seat] - scores[1 - seat]) / 10
        assert collected[f"player_{seat}"] == pytest.approx(outcome[seat] + shaping, abs=1e-6)


def test_render_modes() -> None:
    raw = shiftago_v0.raw_env(variant="expert", players=3, render_mode="rgb_array")
    raw.step(index_of("L1", 3))  # orange at a1
    raw.step(index_of("Tg", 3))  # green at g7
    image = raw.render()
    assert isinstance(image, np.ndarray)
    assert image.shape == (render.IMAGE_SIZE, render.IMAGE_SIZE, 3)
    assert image.dtype == np.uint8
    assert tuple(image[render.cell_centre(0, 0)]) == render.SEAT_RGB[0]
    assert tuple(image[render.cell_centre(6, 6)]) == render.SEAT_RGB[1]
    assert tuple(image[render.cell_centre(3, 3)]) == render.HOLE_RGB
    assert tuple(image[2, 2]) == render.SEAT_RGB[2]  # the frame: blue to act

    text_env = shiftago_v0.raw_env(variant="expert", players=3, render_mode="ansi")
    text_env.step(index_of("L1", 3))
    text = text_env.render()
    assert isinstance(text, str)
    assert "3 . . . . . . ." in text and "1[o]. . . . . ." in text
    assert "green (g) to insert" in text and text.endswith("to act: player_1")

    with pytest.warns(UserWarning, match="without a render_mode"):
        assert shiftago_v0.raw_env().render() is None


def test_human_render_prints(capsys: pytest.CaptureFixture[str]) -> None:
    raw = shiftago_v0.raw_env(players=2, render_mode="human")
    raw.step(index_of("Bd", 2))
    assert raw.render() is None
    printed = capsys.readouterr().out
    assert "1 . . .[o]. . ." in printed and "to act: player_1" in printed


@pytest.mark.parametrize("make", [shiftago_v0.raw_env, shiftago_v0.env])
def test_a_deep_copy_is_the_game_as_it_stands(make: Any) -> None:
    import copy

    env = make(variant="expert", players=3)
    env.reset(options={"first": 2})
    for action in (0, 7, 14):
        env.step(action)
    twin = copy.deepcopy(env)
    raw, twin_raw = env.unwrapped, twin.unwrapped
    assert twin_raw.history == raw.history == [0, 7, 14]
    assert twin_raw.game_state() == raw.game_state() and twin.agent_selection == env.agent_selection
    twin.step(21)  # the copy goes its own way; the original stays
    assert raw.history == [0, 7, 14] and twin_raw.history == [0, 7, 14, 21]


def test_stepping_after_every_agent_is_done_says_so() -> None:
    from shiftago.core import GameOverError

    env = shiftago_v0.raw_env()
    env.reset()
    while not all(env.terminations.values()):
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    while env.agents:
        env.step(None)
    with pytest.raises(GameOverError, match="every agent is done"):
        env.step(None)


@_quiet
def test_version_1_observations_and_the_global_state() -> None:
    env = shiftago_v0.env(variant="expert", players=3, observation_version=1)
    api_test(env, num_cycles=100)  # checks state() against state_space too
    raw = shiftago_v0.raw_env(variant="expert", players=3, observation_version=1)
    assert raw.observation_space("player_0")["observation"].shape == (17, 7, 7)
    assert raw.state_space.shape == (17, 7, 7)
    raw.reset()
    raw.step(index_of("L1", 3))  # green to act
    assert float(raw.observe("player_0")["observation"][15, 0, 0]) == 1.0  # seat 0 + 1
    assert float(raw.observe("player_2")["observation"][16, 0, 0]) == 1.0  # seat 2 + 2
    state = raw.state()
    assert state.shape == (17, 7, 7) and state.dtype == np.float32
    assert state[0, 0, 0] == 1.0  # orange's marble at a1, in absolute seat order
    assert [float(state[p, 0, 0]) for p in (14, 15, 16)] == [0.0, 1.0, 0.0]
    plain = shiftago_v0.raw_env(variant="expert", players=3)
    assert plain.observation_space("player_0")["observation"].shape == (14, 7, 7)
    plain.reset()
    assert plain.state().shape == (17, 7, 7)  # the state has one layout
    with pytest.raises(ValueError, match="observation version"):
        shiftago_v0.raw_env(observation_version=2)


def test_a_numpy_seed_seeds_as_the_same_python_int() -> None:
    """``reset(seed=np.int64(9))`` was refused by Gymnasium's seeding (a researcher's
    seeds come from a numpy generator): it now seeds as 9 does."""
    raw = shiftago_v0.raw_env()
    raw.reset(seed=9)
    draws = raw.np_random.integers(1000, size=4)
    raw.reset(seed=np.int64(9))  # type: ignore[arg-type]
    np.testing.assert_array_equal(raw.np_random.integers(1000, size=4), draws)
