"""The OpenSpiel game ``python_shiftago``: registration, parameters, OpenSpiel's own
conformance simulation, its bots, the notation, and the core played alongside."""

from __future__ import annotations

import importlib
import pickle
import random
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms.evaluate_bots import evaluate_bots  # noqa: E402
from open_spiel.python.algorithms.mcts import MCTSBot, RandomRolloutEvaluator  # noqa: E402
from open_spiel.python.bots.uniform_random import UniformRandomBot  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402

import shiftago.env.openspiel as ose  # noqa: E402
from shiftago.core import (  # noqa: E402
    Game,
    GameOverError,
    IllegalActionError,
    ParseError,
    Phase,
    Rules,
    Scoring,
    Variant,
)
from shiftago.env.settings import EXTREME_ACTION_LIMIT  # noqa: E402
from shiftago.env.spaces import ACTION_COUNT, action_of, index_of, observe  # noqa: E402

VARIANTS = ("express", "expert", "extreme")


def load(**params: object) -> Any:
    return pyspiel.load_game(ose.SHORT_NAME, params)


# --- registration and parameters ------------------------------------------------------


def test_registered_on_import_and_importing_again_does_not_fail() -> None:
    assert ose.SHORT_NAME in pyspiel.registered_names()
    assert importlib.import_module("shiftago.env.openspiel") is ose
    game = pyspiel.load_game("python_shiftago")
    assert isinstance(game, ose.ShiftagoGame)
    assert str(game) == (
        "python_shiftago(action_limit=0,first=0,observation=seat,players=2,variant=express)"
    )
    # A reload registers again; in a fresh interpreter, not to swap classes under the
    # other tests.
    script = (
        "import importlib, pyspiel, shiftago.env.openspiel as m; importlib.reload(m); "
        "assert isinstance(pyspiel.load_game('python_shiftago'), m.ShiftagoGame)"
    )
    subprocess.run([sys.executable, "-c", script], check=True, timeout=120)


def test_game_pickles_with_its_parameters() -> None:
    game = load(variant="expert", observation="table", action_limit=30)
    copy = pickle.loads(pickle.dumps(game))
    assert isinstance(copy, ose.ShiftagoGame) and str(copy) == str(game)
    assert copy.rules == game.rules and copy.observation_tensor_shape() == [12, 7, 7]
    state = copy.new_initial_state()
    state.apply_action(state.string_to_action("L4"))
    assert str(state) == str(game.new_initial_state().child(3))


def test_game_type_and_info() -> None:
    game = load()
    kind = game.get_type()
    assert kind.short_name == "python_shiftago"
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert (kind.min_num_players, kind.max_num_players) == (2, 4)
    assert kind.provides_observation_tensor and kind.provides_observation_string
    assert kind.provides_information_state_string
    assert not kind.provides_information_state_tensor
    assert game.num_distinct_actions() == ACTION_COUNT == 668
    assert game.max_chance_outcomes() == 0
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)
    assert game.num_players() == 2
    assert game.observation_tensor_shape() == [10, 7, 7]
    many = load(players=4)
    assert many.get_type().utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert (many.num_players(), many.utility_sum()) == (4, -2.0)
    assert many.observation_tensor_shape() == [18, 7, 7]


@pytest.mark.parametrize(
    ("params", "length"),
    [
        ({}, 44),
        ({"players": 3}, 49),
        ({"players": 4}, 49),
        ({"action_limit": 30}, 30),
        ({"variant": "expert"}, 77),
        ({"variant": "expert", "players": 3}, 98),
        ({"variant": "expert", "players": 4}, 114),
        ({"variant": "expert", "action_limit": 50}, 51),
        ({"variant": "expert", "action_limit": 500}, 77),
        ({"variant": "extreme"}, EXTREME_ACTION_LIMIT + 1),
        ({"variant": "extreme", "players": 4, "action_limit": 60}, 61),
    ],
)
def test_max_game_length(params: dict[str, object], length: int) -> None:
    assert load(**params).max_game_length() == length


def test_extreme_gets_the_default_limit_and_others_none() -> None:
    assert load(variant="extreme").rules.action_limit == EXTREME_ACTION_LIMIT
    assert load(variant="extreme", action_limit=7).rules.action_limit == 7
    assert load(variant="expert").rules.action_limit is None
    with pytest.raises(ValueError, match="no bound"):
        ose.max_game_length(Rules(Variant.EXTREME, 2))


@pytest.mark.parametrize(
    ("params", "words"),
    [
        ({"variant": "classic"}, "unknown variant"),
        ({"players": 5}, "2, 3 or 4 players"),
        ({"players": 3, "first": 3}, "first seat is 0 to 2"),
        ({"action_limit": -1}, "action limit"),
        ({"colour": 1}, "unknown parameter"),
        ({"players": "3"}, "whole number"),
    ],
)
def test_bad_parameters_are_refused_in_words(params: dict[str, object], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        ose.ShiftagoGame(params)


def test_first_seat_and_set_up_position() -> None:
    state = load(players=3, first=2).new_initial_state()
    assert state.current_player() == 2
    game = load(variant="expert")
    position = "expert 2 7/7/7/3g3/2oo3/7/7 o insert 20,21 0,0 0,0"
    set_up = game.new_initial_state(position)
    assert str(set_up) == position
    assert set_up.current_player() == 0
    assert set_up.history() == []


# --- OpenSpiel's own checks and bots ---------------------------------------------------


@pytest.mark.parametrize("players", (2, 3, 4))
@pytest.mark.parametrize("variant", VARIANTS)
def test_openspiel_random_simulation(variant: str, players: int) -> None:
    game = load(variant=variant, players=players)
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


def test_openspiel_random_simulation_with_serialization() -> None:
    game = load(variant="expert", players=3, action_limit=60)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_mcts_bot_plays_express_to_the_end() -> None:
    game = load()
    rng = np.random.RandomState(3)
    bot = MCTSBot(game, 1.4, 12, RandomRolloutEvaluator(1, rng), random_state=rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])


@pytest.mark.parametrize(("variant", "players"), [("express", 2), ("expert", 3), ("extreme", 4)])
def test_evaluate_bots_with_uniform_random_bots(variant: str, players: int) -> None:
    game = load(variant=variant, players=players)
    rng = np.random.RandomState(5)
    bots = [UniformRandomBot(seat, rng) for seat in range(players)]
    returns = evaluate_bots(game.new_initial_state(), bots, rng)
    assert len(returns) == players
    assert sum(returns) == pytest.approx(2 - players)
    assert all(-1.0 <= r <= 1.0 for r in returns)


# --- the state --------------------------------------------------------------------------


def test_clone_is_independent() -> None:
    state = load(variant="expert").new_initial_state()
    state.apply_action(3)
    clone = state.clone()
    assert isinstance(clone, ose.ShiftagoState)
    assert clone.kernel_state is not state.kernel_state
    assert (str(clone), clone.history()) == (str(state), state.history())
    clone.apply_action(10)
    assert state.history() == [3]
    assert str(state) != str(clone)
    assert state.current_player() == 1


def test_illegal_action_raises_and_changes_nothing() -> None:
    state = load().new_initial_state()
    for _ in range(7):
        state.apply_action(0)  # L1 until rank 1 is full
    before = (str(state), state.history())
    assert 0 not in state.legal_actions()
    with pytest.raises(IllegalActionError, match="L1"):
        state.apply_action(0)
    with pytest.raises(IllegalActionError, match="not legal"):
        state.apply_action(ACTION_COUNT - 1)
    assert (str(state), state.history()) == before


def test_terminal_state() -> None:
    state = load(players=3).new_initial_state()
    rng = random.Random(4)
    while not state.is_terminal():
        assert state.returns() == [0.0, 0.0, 0.0]
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    assert state.legal_actions() == []
    assert sum(state.returns()) == pytest.approx(-1.0)
    with pytest.raises(GameOverError):
        state.apply_action(0)
    with pytest.raises(GameOverError):
        state.string_to_action("L1")


def test_observation_tensor_and_strings() -> None:
    game = load(variant="expert", players=3, action_limit=90)
    state = game.new_initial_state()
    for action in (3, 10, 17, 24, 3):
        state.apply_action(action)
    observation = make_observation(game)
    assert observation.dict["observation"].shape == (14, 7, 7)
    for player in range(3):
        expected = observe(state.kernel_state, player)
        observation.set_from(state, player)
        assert np.array_equal(observation.dict["observation"], expected)
        assert np.array_equal(observation.tensor, expected.ravel())
        assert np.array_equal(np.array(state.observation_tensor(player)), expected.ravel())
    text = state.observation_string(0)
    assert "a b c d e f g" in text and "Expert, 3 players" in text
    assert state.information_state_string(1) == state.history_str() == "3, 10, 17, 24, 3"
    with pytest.raises(ValueError, match="no parameters"):
        game.make_py_observer(None, {"perspective": 1})


def test_table_observation_is_seat_zeros_view_with_the_seat_to_act() -> None:
    game = load(players=2, observation="table")
    assert game.observation_tensor_shape() == [12, 7, 7]
    state = game.new_initial_state()
    for action in (3, 10, 17):
        state.apply_action(action)
    expected = observe(state.kernel_state, 0, version=1)
    assert not expected[10].any() and expected[11].all()  # seat 1 to act
    for player in range(2):
        assert np.array_equal(np.array(state.observation_tensor(player)), expected.ravel())
    state.apply_action(24)
    planes = np.array(state.observation_tensor(1)).reshape(12, 7, 7)
    assert planes[10].all() and not planes[11].any()  # seat 0 to act
    with pytest.raises(ValueError, match="observation is one of seat, table"):
        load(observation="board")


# --- notation ----------------------------------------------------------------------------


def _score_phase(variant: str, players: int, seed: int) -> Any:
    """A state in the score phase, reached by seeded random play."""
    game = load(variant=variant, players=players)
    rng = random.Random(seed)
    for _ in range(200):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.core_state().phase is Phase.SCORE:
                return state
            state.apply_action(rng.choice(state.legal_actions()))
    raise AssertionError("no score phase in 200 games")


def _round_trip(state: Any) -> None:
    player = state.current_player()
    for action in state.legal_actions():
        text = state.action_to_string(player, action)
        assert text == str(action_of(action, state.num_players()))
        for spelling in (text, text.upper(), text.lower(), f"  {text} "):
            assert state.string_to_action(spelling) == action
            assert state.string_to_action(player, spelling) == action
        # OpenSpiel's own lookup (a loop over the legal actions) finds it too.
        assert pyspiel.State.string_to_action(state, player, text) == action


def test_action_strings_round_trip_on_insertions() -> None:
    state = load(players=3).new_initial_state()
    _round_trip(state)
    assert state.action_to_string(0, 0) == "L1"
    assert state.action_to_string(0, 27) == "Bg"


@pytest.mark.parametrize(("variant", "players", "seed"), [("expert", 2, 1), ("expert", 3, 2)])
def test_action_strings_round_trip_on_scorings(variant: str, players: int, seed: int) -> None:
    state = _score_phase(variant, players, seed)
    legal = state.legal_actions()
    assert legal and all(a >= 28 for a in legal)
    _round_trip(state)
    scoring = action_of(legal[0], players)
    assert isinstance(scoring, Scoring)
    reversed_text = str(Scoring(scoring.other, scoring.keep))
    if players == 2:  # both ends stay: either spelling is the same action
        assert state.string_to_action(reversed_text) == legal[0]
    else:  # the first cell is the marble that stays: the other end is another action
        assert state.string_to_action(reversed_text) in legal
        assert state.string_to_action(reversed_text) != legal[0]


def test_string_to_action_refuses_bad_text_and_illegal_actions() -> None:
    state = load().new_initial_state()
    with pytest.raises(ParseError):
        state.string_to_action("Z9")
    with pytest.raises(IllegalActionError, match="xa1-e1 is not legal"):
        state.string_to_action("xa1-e1")
    with pytest.raises(IllegalActionError, match="seat 1"):
        state.string_to_action(1, "L1")
    with pytest.raises(ValueError, match="text"):
        state.string_to_action(0)


# --- against the core ------------------------------------------------------------------


#: Express has no limit; Expert with and without one; Extreme with a short one so that
#: the pure-Python core keeps the test quick (the default 400 is met by the simulations).
CASES = [
    (variant, players, limit)
    for players in (2, 3, 4)
    for variant, limit in (
        ("express", 0),
        ("expert", 0),
        ("expert", 25),
        ("extreme", 25),
        ("extreme", 120),
    )
]


@pytest.mark.parametrize(("variant", "players", "limit"), CASES)
def test_plays_as_the_core(variant: str, players: int, limit: int) -> None:
    """Seeded random games, played on the OpenSpiel state and the core game together."""
    rng = random.Random(f"{variant}{players}{limit}")
    for _ in range(10):
        first = rng.randrange(players)
        game = load(variant=variant, players=players, action_limit=limit, first=first)
        state = game.new_initial_state()
        core = Game(game.rules, first=first)
        while not core.is_over:
            assert state.current_player() == core.turn
            assert not state.is_terminal()
            assert str(state) == core.position()
            legal = core.legal_actions()
            assert state.legal_actions() == sorted(index_of(a, players) for a in legal)
            action = rng.choice(legal)
            state.apply_action(index_of(action, players))
            core.play(action)
        assert state.is_terminal()
        assert state.current_player() == pyspiel.PlayerId.TERMINAL
        assert str(state) == core.position()
        assert core.outcome is not None
        expected = [2 * share - 1 for share in core.outcome.returns()]
        assert state.returns() == pytest.approx(expected, abs=1e-12)  # -1/3 as (2-3)/3
        assert len(state.history()) == len(core.history) <= game.max_game_length()
