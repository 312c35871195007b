"""Blocking playouts (Express, 3-4 players) and the 3-4 player searches: positions
built by hand, iteration (node) limits only."""

from __future__ import annotations

import numpy as np
import pytest

from shiftago.core import Action, Phase, Rules, State, Variant
from shiftago.engine import kernel
from shiftago.engine.bot import Bot, Limits
from shiftago.engine.kernel.playout import play_out
from shiftago.engine.kernel.policy import BLOCKING, GREEDY, blocking_choice, wins_at_once
from shiftago.engine.kernel.rng import seed_of
from shiftago.engine.kernel.tables import BOARD
from shiftago.engine.levels import LevelBot, bot_for_level, default_level
from shiftago.engine.mcts_bot import EVERY_ACTION, MctsBot

#: Orange (seat 0) to act; green (seat 1, next) holds three in a row on the bottom rank
#: with both ends open, so it wins at once unless orange stops it.
GREEN_THREATENS = "express 3 7/7/7/7/7/7/1ggg3 o insert 22,19,22 0,0,0 0,0,0"
#: The same with four players: green is still the next seat.
GREEN_THREATENS_4 = "express 4 7/7/7/7/7/7/1ggg3 o insert 22,19,22,22 0,0,0,0 0,0,0,0"
#: Orange to act and wins at once (L7 or Td: its fourth marble on the bottom rank).
ORANGE_WINS = "express 3 7/7/7/7/g6/b6/ooo4 o insert 19,21,21 0,0,0 0,0,0"
ORANGE_WINS_4 = "express 4 7/7/7/w6/g6/b6/ooo4 o insert 19,21,21,21 0,0,0,0 0,0,0,0"


def next_seat_wins_at_once(state: State) -> bool:
    """Brute force on the core's rules: the seat to act in ``state`` has an insertion
    that ends the game as its own win."""
    if state.phase is not Phase.INSERT:
        return False
    for action in state.legal_actions():
        outcome = state.after(action).outcome
        if outcome is not None and outcome.winners == (state.turn,):
            return True
    return False


def safe_actions(state: State) -> set[Action]:
    """The actions after which the next seat cannot win at once."""
    return {a for a in state.legal_actions() if not next_seat_wins_at_once(state.after(a))}


def test_wins_at_once_reads_a_three_with_an_open_end() -> None:
    s = kernel.from_state(State.from_position(GREEN_THREATENS))
    occupied = s[BOARD] | s[BOARD + 1] | s[BOARD + 2]
    assert wins_at_once(s[BOARD + 1], occupied, 4)  # green: ggg + one = four
    assert not wins_at_once(s[BOARD + 2], occupied, 4)  # blue has no marble
    assert not wins_at_once(s[BOARD + 1], occupied, 5)  # four is no five


@pytest.mark.parametrize("position", [GREEN_THREATENS, GREEN_THREATENS_4])
def test_blocking_choice_stops_the_next_seats_win(position: str) -> None:
    state = State.from_position(position)
    safe = safe_actions(state)
    assert safe and len(safe) < len(state.legal_actions()), "both kinds must be there"
    s = kernel.from_state(state)
    moves = kernel.action_buffer()
    n = kernel.legal_actions(s, moves)
    chosen = set()
    for seed in range(100):
        j, _ = blocking_choice(s, moves, n, np.uint64(seed_of(seed)))
        assert j >= 0
        chosen.add(kernel.to_action(int(moves[j]), state.players))
    assert chosen <= safe
    assert len(chosen) > 1  # the search for a blocking action starts at random


def test_blocking_choice_leaves_a_quiet_position_alone() -> None:
    s = kernel.from_state(State.from_position(ORANGE_WINS))  # green, next, has one marble
    moves = kernel.action_buffer()
    n = kernel.legal_actions(s, moves)
    assert blocking_choice(s, moves, n, np.uint64(5))[0] == -1


def test_blocking_playouts_never_let_the_next_seat_win_at_once() -> None:
    """From :data:`GREEN_THREATENS` a greedy playout lets green win on its first turn
    whenever orange's random insertion leaves the three open; a blocking one never."""
    start = kernel.from_state(State.from_position(GREEN_THREATENS))
    moves = kernel.action_buffer()
    at_once = {}
    for policy in (GREEDY, BLOCKING):
        x, count = np.uint64(99), 0
        for _ in range(300):
            s = start.copy()
            winners, after, played = play_out(s, x, moves, policy, True, 100)
            x = np.uint64(after)
            count += winners == 0b010 and played == 1  # orange's action, then green's win
        at_once[policy] = count
    assert at_once[GREEDY] > 30 and at_once[BLOCKING] == 0, at_once


def searches() -> list[tuple[str, Bot]]:
    """The 3-4 player searches: the top level, and the MCTS with blocking playouts."""
    return [
        ("top level", bot_for_level(default_level(), seed=3)),
        ("blocking", MctsBot(3, blocking=EVERY_ACTION)),
    ]


@pytest.mark.parametrize("position", [ORANGE_WINS, ORANGE_WINS_4])
def test_a_win_at_once_is_taken(position: str) -> None:
    state = State.from_position(position)
    for name, bot in searches():
        for nodes in (200, 3000):
            action = bot.choose(state, Limits(nodes=nodes))
            outcome = state.after(action).outcome
            assert outcome is not None and outcome.winners == (0,), (name, nodes)


@pytest.mark.parametrize("position", [GREEN_THREATENS, GREEN_THREATENS_4])
def test_the_next_seats_win_is_stopped(position: str) -> None:
    state = State.from_position(position)
    safe = safe_actions(state)
    for name, bot in searches():
        assert bot.choose(state, Limits(nodes=3000)) in safe, name
        ranked = bot.analyse(state, Limits(nodes=3000))
        assert {r.action for r in ranked} == set(state.legal_actions())
        assert ranked[0].action in safe


def test_only_the_top_levels_playouts_block_and_only_in_3_4_player_express() -> None:
    """Blocking playouts won at equal time with the top level's guarded expansions
    (docs/strength.md, "Blocking playouts"): the top level plays them in 3-4 player
    Express, every level below the greedy ones."""
    rules = State.from_position(GREEN_THREATENS).rules
    top = bot_for_level(default_level(), seed=0)
    assert isinstance(top, LevelBot)
    assert top.mcts.mcts.policy == BLOCKING
    for variant in Variant:
        for players in (2, 3, 4):
            expected = variant is Variant.EXPRESS and players > 2
            assert top.mcts.blocks(Rules(variant, players)) is expected
    for number in range(3, default_level()):
        mcts = bot_for_level(number, seed=0).for_rules(rules)
        assert isinstance(mcts, MctsBot) and mcts.mcts.policy == GREEDY
        assert not mcts.blocks(rules)
    assert MctsBot(0, blocking=EVERY_ACTION).mcts.policy == BLOCKING
