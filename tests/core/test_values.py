"""Core values copy, deep-copy and pickle as values, and a copy of a game is its own.

Multiprocessing, caches and search code hand states, actions and games around by
pickling and copying them; these tests draw random games of every variant and player
count and check each value after play and after ``legal_actions()`` has filled the
caches of its states.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
from pathlib import Path
from typing import TypeVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shiftago import (
    INSERTIONS,
    Action,
    EndReason,
    Game,
    Outcome,
    Phase,
    Rules,
    State,
    Variant,
    perft,
)
from shiftago.core.motion import motion
from shiftago.core.position import read_position
from shiftago.core.tournament import Tournament, TournamentScore

T = TypeVar("T")
PERFT_FILE = Path(__file__).parent / "golden" / "perft.json"


@st.composite
def games(draw: st.DrawFn) -> Game:
    """A random game of any variant and player count, some actions in (to its end at most)."""
    variant = draw(st.sampled_from(list(Variant)))
    players = draw(st.integers(2, 4))
    handicap = draw(st.one_of(st.just(()), st.tuples(*[st.integers(0, 3)] * players)))
    limit = draw(st.one_of(st.none(), st.integers(1, 200)))
    game = Game(Rules(variant, players, handicap, limit), first=draw(st.integers(0, players - 1)))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    for _ in range(draw(st.integers(0, 120))):
        legal = game.legal_actions()
        if not legal:
            break
        game.play(rng.choice(legal))
    return game


def round_trips(value: T) -> list[T]:
    """The value pickled (every protocol), deep-copied and copied."""
    protocols = range(pickle.HIGHEST_PROTOCOL + 1)
    return [
        *(pickle.loads(pickle.dumps(value, protocol)) for protocol in protocols),
        copy.deepcopy(value),
        copy.copy(value),
    ]


@settings(max_examples=60, deadline=None)
@given(games())
def test_every_value_of_a_game_round_trips(game: Game) -> None:
    for state in game.states:
        state.legal_actions()  # the cached fields that once broke pickling
        state.scoring_options()
        state.position()
    values: list[object] = [game, game.rules, game.state, *game.history, *game.states]
    values += [game.rules.variant, game.phase, *game.scoring_options(), *game.lines()]
    values += [read_position(game.position(), finished=True)]
    if game.outcome is not None:
        values.append(game.outcome)
    for action in game.legal_actions()[:3]:
        values.append(motion(game.state, action))
    for value in values:
        for again in round_trips(value):
            assert again == value, value
            assert type(again) is type(value)


@pytest.mark.parametrize("variant", list(Variant))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_whole_games_of_every_variant_round_trip(variant: Variant, players: int) -> None:
    rng = random.Random(f"{variant}{players}")
    game = Game(Rules(variant, players, action_limit=300), first=rng.randrange(players))
    while not game.is_over:
        game.legal_actions()
        game.play(rng.choice(game.legal_actions()))
    for again in round_trips(game):
        assert again == game and again.states == game.states
        assert again.outcome == game.outcome
    for state in game.states[:: max(1, len(game.states) // 20)]:
        for copied in round_trips(state):
            assert copied == state and copied.legal_actions() == state.legal_actions()


@settings(max_examples=60, deadline=None)
@given(games(), st.integers(0, 2**32 - 1))
def test_playing_on_a_copy_leaves_the_original(game: Game, seed: int) -> None:
    before = (game.history, game.states, game.position())
    rng = random.Random(seed)
    for twin in [game.copy(), copy.copy(game), copy.deepcopy(game), *round_trips(game)]:
        assert isinstance(twin, Game) and twin == game
        if twin.history:
            twin.undo()
            assert twin != game
        for _ in range(3):
            legal = twin.legal_actions()
            if legal:
                twin.play(rng.choice(legal))
        assert (game.history, game.states, game.position()) == before


def test_a_copy_of_the_start_plays_on_alone() -> None:
    game = Game(Rules(Variant.EXPERT, 3), first="g")
    game.play("Td")
    twin = copy.copy(game)
    twin.play("Tc")
    assert game.history == [Action.parse("Td")]
    assert twin.history == [Action.parse("Td"), Action.parse("Tc")]
    assert twin.seed == game.seed and twin.first == game.first and twin.start is game.start


def test_deepcopy_copies_a_game_once_however_often_it_is_held() -> None:
    game = Game(Rules(), first=0)
    held = copy.deepcopy({"game": game, "again": game})
    assert held["game"] is held["again"] and held["game"] is not game


def test_games_differ_in_how_they_were_set_up() -> None:
    a = Game(Rules(Variant.EXPRESS, 2), first="o")
    assert a != Game(Rules(Variant.EXPRESS, 2), first="g")
    assert a != Game(Rules(Variant.EXPRESS, 2, action_limit=9), first="o")
    assert a == Game(Rules(Variant.EXPRESS, 2), first=0)
    with pytest.raises(TypeError):
        hash(a)  # a game changes as it is played


def test_unpickled_insertions_are_the_shared_ones() -> None:
    for insertion in INSERTIONS:
        assert pickle.loads(pickle.dumps(insertion)) is insertion
        assert copy.deepcopy(insertion) is insertion
    scoring = Action.parse("xa1-e1")
    assert pickle.loads(pickle.dumps(scoring)) == scoring


def test_pickled_state_leaves_its_caches_behind() -> None:
    state = Game(Rules(Variant.EXPERT, 4), first=2).state
    bare = len(pickle.dumps(state))
    state.legal_actions()
    state.position()
    assert len(pickle.dumps(state)) == bare
    again = pickle.loads(pickle.dumps(state))
    assert again.legal_actions() == state.legal_actions()


def test_other_values_round_trip() -> None:
    outcome = Outcome((0, 2), 3, EndReason.BOARD_FULL)
    score = TournamentScore.start(3).after((1,))
    for value in [outcome, score, Phase.SCORE, Rules(Variant.EXTREME, 4, (0, 1, 2, 3), 50)]:
        for again in round_trips(value):
            assert again == value


def test_a_copied_tournament_goes_on_alone() -> None:
    tournament = Tournament(2, seed=3)
    for action in ("L1", "L7", "L2", "L7", "L3", "L7", "L4", "L7", "L5"):
        tournament.game.play(action)
    for twin in (
        tournament.copy(),
        copy.copy(tournament),
        copy.deepcopy(tournament),
        pickle.loads(pickle.dumps(tournament)),
    ):
        # a twin equals its original (an unpickled one compared unequal) until it moves on
        assert twin == tournament and twin is not tournament
        twin.next_game()
        assert twin != tournament
        twin.game.play("Td")
        assert twin.wins != tournament.wins and tournament.finished == []
        assert tournament.game.is_over and len(tournament.game.history) == 9
    assert repr(tournament).startswith("<Tournament 2p to 10 wins, score 0-0, 0 games finished")


# --- perft ---------------------------------------------------------------------------
def plain_count(state: State, depth: int) -> int:
    """A recursive count over ``legal_actions`` and ``after`` (the helper's definition)."""
    if state.is_over:
        return 1
    if depth == 0:
        return 1
    return sum(plain_count(state.after(action), depth - 1) for action in state.legal_actions())


PERFT_CASES = json.loads(PERFT_FILE.read_text(encoding="utf-8"))["positions"]


@pytest.mark.parametrize("case", PERFT_CASES, ids=[str(c["name"]) for c in PERFT_CASES])
def test_perft_gives_the_golden_counts(case: dict[str, object]) -> None:
    state = Game(position=str(case["position"])).state
    counts = case["counts"]
    assert isinstance(counts, list)
    assert [perft(state, depth) for depth in (1, 2)] == counts[:2]
    assert perft(state, 2) == plain_count(state, 2)
    assert perft(state, 0) == 1


def test_perft_of_the_empty_board() -> None:
    state = State.initial(Rules(Variant.EXPRESS, 2), 0)
    assert [perft(state, d) for d in range(4)] == [1, 28, 784, 21952]


@settings(max_examples=30, deadline=None)
@given(games())
def test_perft_agrees_with_a_plain_count(game: Game) -> None:
    assert perft(game.state, 2) == plain_count(game.state, 2)


def test_perft_of_an_ended_game_is_one_leaf() -> None:
    game = Game(Rules(Variant.EXPRESS, 2, action_limit=1), first="o")
    game.play("L1")
    assert game.is_over and perft(game.state, 3) == 1


@pytest.mark.parametrize("depth", [-1, 1.5, "2"])
def test_perft_refuses_a_bad_depth(depth: object) -> None:
    with pytest.raises(ValueError, match="perft depth"):
        perft(State.initial(Rules(), 0), depth)  # type: ignore[arg-type]


def test_every_public_member_of_the_library_says_what_it_does() -> None:
    """A bot author's walk (7 December 2026) found 21 public members of the classes
    ``shiftago`` exports without a docstring (``Game.state``, ``State.is_over``...)."""
    import inspect

    import shiftago

    missing = []
    for name in shiftago.__all__:
        value = getattr(shiftago, name)
        if not inspect.isclass(value):
            continue
        for attribute, member in vars(value).items():
            if attribute.startswith("_"):
                continue
            if isinstance(member, property):
                doc = member.__doc__
            elif isinstance(member, (classmethod, staticmethod)):
                doc = member.__func__.__doc__
            elif callable(member):
                doc = member.__doc__
            else:
                continue
            if not (doc or "").strip():
                missing.append(f"{name}.{attribute}")
    assert missing == []
