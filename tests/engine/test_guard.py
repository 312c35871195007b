"""The guarded expansions of the MCTS (3-4 player Express): positions built by hand and
trees checked against the core's rules, iteration (node) limits only."""

from __future__ import annotations

import random

import numpy as np
import pytest

from shiftago.core import Action, Phase, Rules, State, Variant
from shiftago.engine import kernel
from shiftago.engine.bot import Limits
from shiftago.engine.kernel.policy import wins_at_once
from shiftago.engine.kernel.tables import BOARD
from shiftago.engine.levels import bot_for_level, default_level
from shiftago.engine.mcts import Mcts
from shiftago.engine.mcts.knowledge import guarded_children, next_seat
from shiftago.engine.mcts.tree import ROOT
from shiftago.engine.mcts_bot import MctsBot

#: Orange (seat 0) to act; green (seat 1, next) holds three in a row on the bottom rank
#: with both ends open, so it wins at once unless orange stops it (as in test_blocking).
GREEN_THREATENS = "express 3 7/7/7/7/7/7/1ggg3 o insert 22,19,22 0,0,0 0,0,0"
GREEN_THREATENS_4 = "express 4 7/7/7/7/7/7/1ggg3 o insert 22,19,22,22 0,0,0,0 0,0,0,0"
#: Orange to act and wins at once (L7 or Td: its fourth marble on the bottom rank).
ORANGE_WINS = "express 3 7/7/7/7/g6/b6/ooo4 o insert 19,21,21 0,0,0 0,0,0"
ORANGE_WINS_4 = "express 4 7/7/7/w6/g6/b6/ooo4 o insert 19,21,21,21 0,0,0,0 0,0,0,0"
#: :data:`GREEN_THREATENS` with a handicap skip pending for green: blue acts next, and
#: blue has no win to stop.
GREEN_SKIPS = "express 3 7/7/7/7/7/7/1ggg3 o insert 22,19,22 0,0,0 0,1,0"
#: Orange to act; blue (two seats on) threatens the bottom rank, green (next) nothing.
BLUE_THREATENS = "express 3 7/7/7/7/7/7/1bbb3 o insert 22,22,19 0,0,0 0,0,0"
#: Orange to act; green (next) threatens both the top and the bottom rank: no single
#: insertion stops both, so green wins whatever orange does.
GREEN_THREATENS_TWICE = "express 3 1ggg3/7/7/7/7/7/1ggg3 o insert 22,16,22 0,0,0 0,0,0"
#: Blue to act; green (after orange) threatens three lines: blue and orange stop two at
#: most, so every action of blue leaves orange a node lost to green.
GREEN_THREATENS_THRICE = "express 3 1ggg3/7/g6/g6/g6/7/1ggg3 b insert 22,13,22 0,0,0 0,0,0"


def wins(state: State) -> set[Action]:
    """The actions that end the game as the mover's own win (the core's rules)."""
    found = set()
    if state.phase is Phase.INSERT:
        for action in state.legal_actions():
            outcome = state.after(action).outcome
            if outcome is not None and outcome.winners == (state.turn,):
                found.add(action)
    return found


def safe_actions(state: State) -> set[Action]:
    """The actions after which the seat that acts next cannot win at once."""
    return {a for a in state.legal_actions() if not wins(state.after(a))}


def guarded(state: State) -> tuple[set[Action], int]:
    """The actions :func:`guarded_children` keeps in ``state``, and the seat it finds
    winning whatever the mover does (-1: none)."""
    s = kernel.from_state(state)
    moves = kernel.action_buffer()
    n, lost_to = guarded_children(s, moves, kernel.legal_actions(s, moves))
    return {kernel.to_action(int(code), state.players) for code in moves[:n]}, int(lost_to)


def kept(state: State) -> set[Action]:
    """The actions :func:`guarded_children` keeps in ``state``."""
    return guarded(state)[0]


def expected_children(state: State) -> set[Action]:
    """The children a guarded expansion should make, by brute force on the core: the
    wins at once, else the actions after which the next seat cannot win at once (when
    it could and some such action exists), else every action."""
    legal = set(state.legal_actions())
    if state.rules.variant is not Variant.EXPRESS or state.players < 3:
        return legal
    if state.phase is not Phase.INSERT:
        return legal
    winning = wins(state)
    if winning:
        return winning
    safe = safe_actions(state)
    return safe if safe else legal


@pytest.mark.parametrize("position", [ORANGE_WINS, ORANGE_WINS_4])
def test_a_win_at_once_is_the_only_child(position: str) -> None:
    state = State.from_position(position)
    assert kept(state) == wins(state)
    assert 0 < len(kept(state)) < len(state.legal_actions())


@pytest.mark.parametrize("position", [GREEN_THREATENS, GREEN_THREATENS_4])
def test_only_the_actions_that_stop_the_next_seat_are_children(position: str) -> None:
    state = State.from_position(position)
    safe = safe_actions(state)
    assert 0 < len(safe) < len(state.legal_actions())
    assert kept(state) == safe


def test_a_next_seat_that_wins_whatever_the_mover_does_is_named() -> None:
    state = State.from_position(GREEN_THREATENS_TWICE)
    assert not wins(state) and not safe_actions(state)  # the core's rules agree
    assert guarded(state) == (set(state.legal_actions()), 1)
    for position in (GREEN_THREATENS, ORANGE_WINS, BLUE_THREATENS):
        assert guarded(State.from_position(position))[1] == -1


def test_the_solver_proves_a_node_lost_to_the_next_seat_without_its_children() -> None:
    state = State.from_position(GREEN_THREATENS_THRICE)
    assert all(not safe_actions(state.after(a)) for a in state.legal_actions())
    result = Mcts(guard=True, c=1.0).search(kernel.from_state(state), 3, iterations=100_000)
    # each of blue's 28 actions leads to a node proven at its first expansion, so the
    # root is proven (green's win) after about two iterations a child
    assert result.iterations <= 3 * len(state.legal_actions())
    assert result.root_proof == 1 << 1


def test_a_threat_two_seats_on_is_left_to_the_seat_between() -> None:
    state = State.from_position(BLUE_THREATENS)
    s = kernel.from_state(state)
    occupied = s[BOARD] | s[BOARD + 1] | s[BOARD + 2]
    assert wins_at_once(s[BOARD + 2], occupied, 4)  # blue would win if it acted next
    assert kept(state) == set(state.legal_actions())


def test_a_handicap_skip_moves_the_next_seat_on() -> None:
    state = State.from_position(GREEN_SKIPS)
    after = state.after(state.legal_actions()[0])
    assert after.turn == 2  # green's skip is used up, blue acts
    assert next_seat(kernel.from_state(state)) == 2
    assert kept(state) == set(state.legal_actions())


@pytest.mark.parametrize(
    "position",
    [
        "express 2 7/7/7/7/7/7/1oooo2 g insert 18,18 0,0 0,0",  # 2 players: no guard
        GREEN_THREATENS.replace("express", "expert"),  # Expert: green is far from 10
    ],
)
def test_other_games_keep_every_child(position: str) -> None:
    state = State.from_position(position)
    assert kept(state) == set(state.legal_actions())


@pytest.mark.parametrize("players", [3, 4])
def test_every_expansion_below_the_root_is_guarded(players: int) -> None:
    """Search positions of a random game and check the children of expanded nodes of
    the tree against :func:`expected_children`; the root keeps every action."""
    rng = random.Random(players)
    checked = 0
    for game in range(4):
        state = State.initial(Rules(Variant.EXPRESS, players), 0)
        for _ in range(6 + 3 * game):
            state = state.after(rng.choice(state.legal_actions()))
        if state.is_over:
            continue
        mcts = Mcts(guard=True, c=1.0)
        mcts.search(kernel.from_state(state), game, iterations=300)
        tree = mcts.tree
        assert tree is not None
        root_children = range(int(tree.first[ROOT]), int(tree.first[ROOT] + tree.count[ROOT]))
        assert len(root_children) == len(state.legal_actions())
        for node in list(root_children)[:12]:
            if tree.count[node] == 0:
                continue
            at = state.after(kernel.to_action(int(tree.code[node]), players))
            first, count = int(tree.first[node]), int(tree.count[node])
            children = {kernel.to_action(int(c), players) for c in tree.code[first : first + count]}
            assert children == expected_children(at), at.position()
            checked += 1
    assert checked >= 10


def test_the_guard_changes_nothing_with_2_players() -> None:
    position = "express 2 3gogg/4g1o/4o1o/o6/oo5/gg5/4ogg o insert 14,14 0,0 0,0"
    s = kernel.from_state(State.from_position(position))
    plain = Mcts(guard=False).search(s, 7, iterations=2000)
    guarded = Mcts(guard=True).search(s, 7, iterations=2000)
    assert (plain.codes, plain.visits) == (guarded.codes, guarded.visits)


def guarded_searches() -> list[tuple[str, MctsBot]]:
    top = bot_for_level(default_level(), seed=4).for_rules(Rules(Variant.EXPRESS, 3))
    assert isinstance(top, MctsBot) and top.mcts.guard
    cut = MctsBot(4, guard=True, fitted_horizon=2)  # as the arena's mcts-eval
    return [("top level", top), ("mcts-guard", MctsBot(4, guard=True)), ("cut playouts", cut)]


@pytest.mark.parametrize("position", [ORANGE_WINS, ORANGE_WINS_4])
def test_the_guarded_search_takes_a_win_at_once(position: str) -> None:
    state = State.from_position(position)
    for name, bot in guarded_searches():
        for nodes in (100, 2000):
            assert bot.choose(state, Limits(nodes=nodes)) in wins(state), (name, nodes)


@pytest.mark.parametrize("position", [GREEN_THREATENS, GREEN_THREATENS_4])
def test_the_guarded_search_blocks_and_lists_every_action(position: str) -> None:
    state = State.from_position(position)
    safe = safe_actions(state)
    for name, bot in guarded_searches():
        ranked = bot.analyse(state, Limits(nodes=2000))
        assert {r.action for r in ranked} == set(state.legal_actions()), name
        assert ranked[0].action in safe, name
        # every action that lets green win is proven lost (green takes it at once)
        assert all(r.value == 0 for r in ranked if r.action not in safe), name


def test_a_guarded_search_repeats_under_an_iteration_limit() -> None:
    s = kernel.from_state(State.from_position(GREEN_THREATENS_4))
    one = Mcts(guard=True, c=1.0).search(s, 11, iterations=3000)
    two = Mcts(guard=True, c=1.0).search(s, 11, iterations=3000)
    assert (one.codes, one.visits, one.values) == (two.codes, two.visits, two.values)
    assert np.isclose(sum(one.root_values), 1.0)


# --- Expert and Extreme: a win at once is a scoring that reaches the winning points ---

#: Orange (seat 0) to act with 8 points and three in a row on the bottom rank: a fourth
#: marble there makes a line of four, worth 2 points with 3 players: the win.
ORANGE_SCORES_TO_WIN = "expert 3 7/7/7/7/g6/b6/ooo4 o insert 19,21,21 8,0,0 0,0,0"
#: Orange to act with nothing near a line; green (next) has 8 points and three in a row on
#: the bottom rank: only the insertions that stop its line of four keep it from winning.
GREEN_SCORES_TO_WIN = "expert 3 7/7/7/7/7/7/1ggg3 o insert 22,19,22 0,8,0 0,0,0"
#: :data:`GREEN_SCORES_TO_WIN` with green's threat on two ranks: it wins whatever orange does.
GREEN_SCORES_TWICE = "expert 3 1ggg3/7/7/7/7/7/1ggg3 o insert 22,16,22 0,8,0 0,0,0"


def wins_by_scoring(state: State) -> set[Action]:
    """The actions of the mover after which it wins by its next scoring (the core's
    rules): in the scoring phase the scorings that end the game as its win, in the
    insertion phase the insertions after which it has such a scoring."""
    mover = state.turn
    if state.phase is not Phase.INSERT:
        found = set()
        for action in state.legal_actions():
            outcome = state.after(action).outcome
            if outcome is not None and outcome.winners == (mover,):
                found.add(action)
        return found
    found = set()
    for action in state.legal_actions():
        after = state.after(action)
        scores_next = not after.is_over and after.turn == mover
        if scores_next and after.phase is not Phase.INSERT and wins_by_scoring(after):
            found.add(action)
    return found


def points_safe_actions(state: State) -> set[Action]:
    """The insertions after which the seat that acts next (not the mover again) cannot
    win by one insertion and its scoring."""
    safe = set()
    for action in state.legal_actions():
        after = state.after(action)
        if after.is_over or after.turn == state.turn or not wins_by_scoring(after):
            safe.add(action)
    return safe


def expected_points_children(state: State) -> set[Action]:
    """The children of a guarded expansion in 3-4 player Expert and Extreme, by brute
    force on the core (see :mod:`shiftago.engine.mcts.knowledge`)."""
    legal = set(state.legal_actions())
    winning = wins_by_scoring(state)
    if winning or state.phase is not Phase.INSERT:
        return winning or legal
    safe = points_safe_actions(state)
    return safe if safe else legal


def test_a_scoring_win_at_once_is_the_only_child() -> None:
    state = State.from_position(ORANGE_SCORES_TO_WIN)
    winning = wins_by_scoring(state)
    assert 0 < len(winning) < len(state.legal_actions())
    assert guarded(state) == (winning, -1)
    scoring = state.after(next(iter(winning)))  # orange scores: only the winning lines
    assert scoring.phase is not Phase.INSERT
    assert kept(scoring) == wins_by_scoring(scoring) != set()


def test_only_the_insertions_that_keep_the_next_seat_from_10_are_children() -> None:
    state = State.from_position(GREEN_SCORES_TO_WIN)
    safe = points_safe_actions(state)
    assert 0 < len(safe) < len(state.legal_actions())
    assert guarded(state) == (safe, -1)


def test_a_next_seat_that_reaches_10_whatever_the_mover_does_is_named() -> None:
    state = State.from_position(GREEN_SCORES_TWICE)
    assert not wins_by_scoring(state) and not points_safe_actions(state)
    assert guarded(state) == (set(state.legal_actions()), 1)


def with_scores(state: State, scores: list[int]) -> State:
    """``state`` with the seats' points set to ``scores`` (its position's points field)."""
    fields = state.position().split(" ")
    fields[-2] = ",".join(str(p) for p in scores)
    return State.from_position(" ".join(fields))


@pytest.mark.parametrize(
    ("variant", "players"), [(v, n) for v in (Variant.EXPERT, Variant.EXTREME) for n in (3, 4)]
)
def test_the_points_guard_keeps_what_the_cores_rules_say(variant: Variant, players: int) -> None:
    """Positions of random games, their points set near 10, against the brute force of
    :func:`expected_points_children` on the core."""
    rng = random.Random(10 * players + len(variant.value))
    seen = {"all": 0, "wins": 0, "blocks": 0, "lost": 0}
    for _ in range(60):
        state = State.initial(Rules(variant, players), 0)
        for _ in range(rng.randrange(15, 45)):
            if state.is_over:
                break
            state = state.after(rng.choice(state.legal_actions()))
        if state.is_over:
            continue
        state = with_scores(state, [rng.randrange(7, 10) for _ in range(players)])
        if state.is_over:
            continue
        children, lost_to = guarded(state)
        expected = expected_points_children(state)
        assert children == expected, state.position()
        legal = set(state.legal_actions())
        if lost_to >= 0:
            assert not points_safe_actions(state) and not wins_by_scoring(state)
            seen["lost"] += 1
        elif children == legal:
            seen["all"] += 1
        elif children == wins_by_scoring(state):
            seen["wins"] += 1
        else:
            seen["blocks"] += 1
    assert seen["all"] and seen["wins"] and seen["blocks"], seen
