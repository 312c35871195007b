"""The baseline bot: windows, evaluation, and a plain depth-limited alpha-beta search."""

from __future__ import annotations

import random

import pytest

from shiftago import Action, Game, Phase, Rules, Scoring, State, Variant
from shiftago.engine.baseline import (
    PROVEN,
    WIN,
    WINDOW_WEIGHT,
    WINDOWS,
    BaselineBot,
    evaluate,
    window_scores,
)
from shiftago.engine.bot import Limits


def wins_at_once(state: State, action: Action) -> bool:
    """Brute force: the mover wins with this action, or with the scoring it sets up."""
    mover = state.turn
    after = state.after(action)
    if after.outcome is not None:
        return after.outcome.winners == (mover,)
    if after.phase is Phase.SCORE and after.turn == mover:
        return any(after.scores[mover] + o.points >= 10 for o in after.scoring_options())
    return False


def next_player_wins(state: State, action: Action) -> bool:
    after = state.after(action)
    if after.phase is not Phase.INSERT or after.turn == state.turn:
        return False
    return any(wins_at_once(after, reply) for reply in after.legal_actions())


# --- windows and evaluation -----------------------------------------------------------
def coordinate_windows(length: int) -> set[int]:
    """The windows from file and rank coordinates, independently of the bit layout."""
    found = set()
    for file in range(7):
        for rank in range(7):
            for df, dr in ((1, 0), (0, 1), (1, 1), (-1, 1)):
                cells = [(file + k * df, rank + k * dr) for k in range(length)]
                if all(0 <= f < 7 and 0 <= r < 7 for f, r in cells):
                    found.add(sum(1 << (8 * r + f) for f, r in cells))
    return found


@pytest.mark.parametrize(("length", "count"), [(4, 88), (5, 60)])
def test_window_tables(length: int, count: int) -> None:
    assert len(WINDOWS[length]) == count
    assert set(WINDOWS[length]) == coordinate_windows(length)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_window_scores_match_a_brute_force_count(players: int) -> None:
    rng = random.Random(players)
    cells = [8 * r + f for r in range(7) for f in range(7)]
    for _ in range(200):
        boards = [0] * players
        for cell in rng.sample(cells, rng.randrange(40)):
            boards[rng.randrange(players)] |= 1 << cell
        for length in (4, 5):
            expected = [0] * players
            for window in WINDOWS[length]:
                owners = [s for s in range(players) if boards[s] & window]
                if len(owners) == 1:
                    seat = owners[0]
                    expected[seat] += WINDOW_WEIGHT[(boards[seat] & window).bit_count()]
            assert window_scores(tuple(boards), WINDOWS[length]) == expected


def test_evaluation_is_zero_sum_with_two_players() -> None:
    state = State.from_position("expert 2 7/7/2g4/2oo3/1g1o3/7/7 g insert 19,20 2,0 0,0")
    assert evaluate(state, 0) == -evaluate(state, 1)
    assert evaluate(state, 0) > 0  # two points ahead


def test_an_empty_board_is_even() -> None:
    for players in (2, 3, 4):
        state = Game(Rules(Variant.EXPRESS, players), first=0).state
        assert all(evaluate(state, seat) == 0 for seat in range(players))


# --- search -----------------------------------------------------------------------------
WIN_POSITIONS = [
    "express 2 7/7/7/7/7/g6/oooo3 o insert 18,21 0,0 0,0",
    "express 3 7/7/7/7/g6/b6/ooo4 o insert 19,21,21 0,0,0 0,0,0",
    "expert 2 7/7/7/7/7/g6/oooo3 o insert 18,21 8,0 0,0",
    "expert 2 7/7/7/7/7/ooooo2/oooooo1 o score 11,22 5,0 0,0",
]


@pytest.mark.parametrize("position", WIN_POSITIONS)
def test_baseline_takes_an_immediate_win(position: str) -> None:
    state = State.from_position(position)
    winning = [a for a in state.legal_actions() if wins_at_once(state, a)]
    assert winning and len(winning) < len(state.legal_actions())
    bot = BaselineBot(1, depth=3)
    assert bot.choose(state) in winning
    best = bot.analyse(state, Limits(depth=2))[0]
    assert best.action in winning and best.value >= WIN - 2
    assert bot.proven(best.value) == 1


BLOCK_POSITIONS = [
    "express 2 7/7/7/7/7/7/1gggg2 o insert 22,18 0,0 0,0",
    "express 2 7/7/7/g6/g6/g6/g6 o insert 22,18 0,0 0,0",
]


@pytest.mark.parametrize("position", BLOCK_POSITIONS)
def test_baseline_blocks_the_opponents_immediate_win(position: str) -> None:
    state = State.from_position(position)
    assert any(next_player_wins(state, a) for a in state.legal_actions())
    action = BaselineBot(2).choose(state)  # the default depth, 4
    assert not next_player_wins(state, action)


def test_baseline_depth_4_with_three_players() -> None:
    game = Game(Rules(Variant.EXPRESS, 3), first=1)
    for action in ("L4", "R4", "Td", "Bd", "L3", "R5"):
        game.play(action)
    bot = BaselineBot(3)
    action = bot.choose(game.state)
    assert action in game.legal_actions()
    assert bot.nodes > 28**2  # it searched deeper than two plies


def test_baseline_scores_a_line_when_it_can() -> None:
    game = Game(position="expert 2 7/7/7/7/7/g6/oooo3 o insert 18,21 0,0 0,0")
    bot = BaselineBot(4)
    game.play(bot.choose(game.state))
    assert game.phase is Phase.SCORE and game.turn == 0  # the insertion made a line
    action = bot.choose(game.state)
    assert isinstance(action, Scoring)
    game.play(action)
    assert game.state.scores[0] == 2


def test_baseline_scores_with_three_players() -> None:
    state = State.from_position("expert 3 7/7/7/7/o6/b6/ggg4 g insert 21,19,21 0,0,0 0,0,0")
    action = BaselineBot(5, depth=3).choose(state)
    after = state.after(action)
    assert after.phase is Phase.SCORE and after.turn == 1


def test_same_seed_same_choice_and_analysis() -> None:
    game = Game(Rules(), first=0)
    for action in ("L4", "R4", "Td", "Bd"):
        game.play(action)
    first = BaselineBot(9, depth=3)
    second = BaselineBot(9, depth=3)
    assert first.choose(game.state) == second.choose(game.state)
    assert first.analyse(game.state) == second.analyse(game.state)


@pytest.mark.parametrize("seed", range(4))
def test_choose_is_the_best_of_the_analysis(seed: int) -> None:
    game = Game(Rules(Variant.EXPERT, 2), first=0)
    rng = random.Random(seed)
    for _ in range(10):
        game.play(rng.choice(game.legal_actions()))
    bot = BaselineBot(seed, depth=3)
    ranked = bot.analyse(game.state)
    assert bot.choose(game.state) == ranked[0].action
    assert [r.value for r in ranked] == sorted((r.value for r in ranked), reverse=True)
    assert sorted(r.action for r in ranked) == game.legal_actions()
    assert all(r.pv[0] == r.action for r in ranked)


def test_limits_depth_overrides_the_bots_depth() -> None:
    state = Game(Rules(), first=0).state
    bot = BaselineBot(1, depth=4)
    bot.choose(state, Limits(depth=1))
    assert bot.nodes == 1 + 28
    assert all(len(r.pv) == 2 for r in bot.analyse(state, Limits(depth=2)))


def test_a_proven_loss_is_preferred_late() -> None:
    # Green threatens a1 and f1 at once after most actions; every loss is a proven one.
    state = State.from_position("express 2 7/7/7/7/7/7/1gggg2 o insert 22,18 0,0 0,0")
    ranked = BaselineBot(1, depth=2).analyse(state)
    losing = [r for r in ranked if r.value <= -PROVEN]
    assert losing and all(r.value == 2 - WIN for r in losing)
    assert all(BaselineBot(1).proven(r.value) == -1 for r in losing)


def test_bad_depth() -> None:
    with pytest.raises(ValueError, match="depth"):
        BaselineBot(1, depth=0)
