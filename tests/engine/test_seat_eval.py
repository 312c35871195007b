"""The fitted evaluations of 3-4 player games (``mcts/seat_eval``): their features against
hand counts and the core's rules, their shares, and the MCTS whose cut playouts use them."""

from __future__ import annotations

import random

import numpy as np
import pytest

from shiftago.core import Phase, Rules, State, Variant
from shiftago.engine import kernel
from shiftago.engine.bot import Limits
from shiftago.engine.kernel.moves import occupied
from shiftago.engine.kernel.tables import BOARD
from shiftago.engine.levels import FITTED_HORIZON, LevelBot, bot_for_level
from shiftago.engine.mcts.seat_eval import (
    DRAW_FEATURES,
    SEAT_FEATURES,
    SF_CELL,
    SF_CONSTANT,
    SF_DOUBLE,
    SF_THREAT,
    SF_WINDOWS,
    SP_CELL,
    SP_CONSTANT,
    SP_PENDING,
    SP_POINTS,
    SP_REACH,
    SP_REACH_WINS,
    SP_SUPPLY,
    all_features,
    fitted_shares,
    open_windows,
    seat_features,
    seat_shares,
)
from shiftago.engine.mcts_bot import MctsBot
from shiftago.match.participants import parse_participant

#: Every window of four cells: (rank, file) steps along the rows, files and diagonals.
WINDOWS = [
    [(r + k * dr, f + k * df) for k in range(4)]
    for dr, df in ((0, 1), (1, 0), (1, 1), (1, -1))
    for r in range(7)
    for f in range(7)
    if 0 <= r + 3 * dr < 7 and 0 <= f + 3 * df < 7
]


def bit(rank: int, file: int) -> int:
    return 1 << (8 * rank + file)


def counted_windows(me: int, others: int) -> tuple[int, int, int]:
    """Open windows of four holding 1, 2 and 3 of ``me``'s marbles, cell by cell."""
    counts = [0, 0, 0, 0, 0]
    for cells in WINDOWS:
        if any(others & bit(r, f) for r, f in cells):
            continue
        counts[sum(1 for r, f in cells if me & bit(r, f))] += 1
    return counts[1], counts[2], counts[3]


def winning_insertions(state: State, seat: int) -> int:
    """How many different insertions would make ``seat`` a line of four if it had the
    turn (the core's rules, on the position with ``seat`` to act)."""
    text = state.position().split(" ")
    text[3] = "ogbw"[seat]
    mine = State.from_position(" ".join(text))
    found = 0
    for action in mine.legal_actions():
        outcome = mine.after(action).outcome
        if outcome is not None and seat in outcome.winners:
            found += 1
    return found


def random_positions(
    variant: Variant, players: int, count: int, seed: int, actions: tuple[int, int] = (6, 30)
) -> list[State]:
    """Positions of random games after a number of ``actions`` in that range, not over,
    the seat to act in the insertion phase (in Expert and Extreme the lines left on the
    board are the ones a seat could still score)."""
    rng = random.Random(seed)
    found: list[State] = []
    while len(found) < count:
        state = State.initial(Rules(variant, players), 0)
        for _ in range(rng.randint(*actions)):
            state = state.after(rng.choice(state.legal_actions()))
            if state.is_over:
                break
        if not state.is_over and state.phase is Phase.INSERT:
            found.append(state)
    return found


def test_a_lone_marble_counts_the_windows_through_its_cell() -> None:
    assert open_windows(np.uint64(bit(0, 0)), np.uint64(0)) == (3, 0, 0)  # a corner
    assert open_windows(np.uint64(bit(3, 3)), np.uint64(0)) == (16, 0, 0)  # the centre
    # a marble of another seat beside the corner closes the row's one window
    assert open_windows(np.uint64(bit(0, 0)), np.uint64(bit(0, 1))) == (2, 0, 0)


def test_three_in_a_row_makes_windows_of_three() -> None:
    me = bit(6, 1) | bit(6, 2) | bit(6, 3)
    c1, c2, c3 = open_windows(np.uint64(me), np.uint64(0))
    assert c3 == 2  # files a-d and b-e of the bottom rank
    assert (c1, c2, c3) == counted_windows(me, 0)


@pytest.mark.parametrize("players", [3, 4])
def test_the_features_match_counts_by_hand_and_the_cores_rules(players: int) -> None:
    for state in random_positions(Variant.EXPRESS, players, 30, seed=players):
        s = kernel.from_state(state)
        occ = occupied(s)
        out = np.zeros(SEAT_FEATURES)
        for seat in range(players):
            seat_features(s, seat, occ, out)
            me = int(s[BOARD + seat])
            assert tuple(out[SF_WINDOWS : SF_WINDOWS + 3]) == counted_windows(me, int(occ) & ~me)
            wins = winning_insertions(state, seat)
            assert out[SF_THREAT] == (wins >= 1)
            assert out[SF_DOUBLE] == (wins >= 2)
            assert out[SF_CELL : SF_CELL + 10].sum() == bin(me).count("1")
            assert out[SF_CONSTANT] == 1


def test_the_features_go_by_the_place_after_the_seat_to_act() -> None:
    state = State.from_position("express 3 7/7/7/7/7/7/1ggg3 o insert 22,19,22 0,0,0 0,0,0")
    seats = np.zeros((3, SEAT_FEATURES))
    draw = np.zeros(DRAW_FEATURES)
    all_features(kernel.from_state(state), seats, draw)
    assert seats[1, SF_THREAT] == 1 and seats[1, SF_DOUBLE] == 1  # green, next: L7, Ba and Be
    assert seats[0, SF_THREAT] == 0 and seats[2, SF_THREAT] == 0
    assert draw[1] == pytest.approx(46 / 49)


@pytest.mark.parametrize("players", [3, 4])
def test_the_shares_are_a_distribution_that_favours_a_threat_to_move(players: int) -> None:
    for state in random_positions(Variant.EXPRESS, players, 10, seed=10 + players):
        reward = np.zeros(4)
        fitted_shares(kernel.from_state(state), reward)
        assert reward[:players].sum() == pytest.approx(1.0)
        assert (reward[:players] > 0).all()
    zeros = ",".join(["0"] * players)
    supplies = ",".join(["19"] + ["22"] * (players - 1))
    state = State.from_position(
        f"express {players} 7/7/7/7/7/7/ooo4 o insert {supplies} {zeros} {zeros}"
    )
    reward = np.zeros(4)
    fitted_shares(kernel.from_state(state), reward)
    assert reward[0] > 0.5  # orange, to act, makes its line of four at once


def test_zero_weights_share_equally_with_the_draw() -> None:
    state = random_positions(Variant.EXPRESS, 3, 1, seed=5)[0]
    reward = np.zeros(4)
    seat_shares(kernel.from_state(state), np.zeros((4, SEAT_FEATURES)), np.zeros(3), reward)
    assert reward[:3] == pytest.approx([1 / 3] * 3)


def test_the_arena_names_the_cut_playouts_valued_by_the_fit() -> None:
    bot = parse_participant("mcts-eval:300:4").make_bot(1)
    assert isinstance(bot, MctsBot) and bot.iterations == 300
    assert bot.fitted_horizon == 4 and bot.horizon == 0 and bot.mcts.guard
    assert parse_participant("mcts-eval::2").make_bot(1).iterations is None
    for spec in ("mcts-eval:300:0", "mcts-eval:300", "mcts-eval"):
        with pytest.raises(ValueError):
            parse_participant(spec).make_bot(1)


def reach_by_the_core(state: State, seat: int) -> int:
    """The most points one insertion of ``seat`` (had it the turn) would let it score
    at once (the core's rules: the scorings offered after the insertion)."""
    text = state.position().split(" ")
    text[3] = "ogbw"[seat]
    mine = State.from_position(" ".join(text))
    best = 0
    for action in mine.legal_actions():
        after = mine.after(action)
        if after.phase is Phase.SCORE and after.turn == seat:
            for scoring in after.legal_actions():
                best = max(best, after.after(scoring).scores[seat] - state.scores[seat])
    return best


@pytest.mark.parametrize("variant", [Variant.EXPERT, Variant.EXTREME])
@pytest.mark.parametrize("players", [3, 4])
def test_the_points_features_match_the_cores_rules(variant: Variant, players: int) -> None:
    for state in random_positions(variant, players, 12, seed=players, actions=(10, 40)):
        s = kernel.from_state(state)
        occ = occupied(s)
        out = np.zeros(SEAT_FEATURES)
        for seat in range(players):
            seat_features(s, seat, occ, out)
            reach = reach_by_the_core(state, seat)
            assert out[SP_REACH] == reach
            assert out[SP_REACH_WINS] == (reach > 0 and state.scores[seat] + reach >= 10)
            points = state.scores[seat]
            assert out[SP_POINTS : SP_POINTS + 9].sum() == (points > 0)
            if points:
                assert out[SP_POINTS - 1 + min(points, 9)] == 1
            assert out[SP_PENDING] == 0  # the insertion phase
            assert out[SP_SUPPLY] == pytest.approx(state.supplies[seat] / 22)
            me = int(s[BOARD + seat])
            assert out[SP_CELL : SP_CELL + 10].sum() == bin(me).count("1")
            assert tuple(out[SF_WINDOWS : SF_WINDOWS + 3]) == counted_windows(me, int(occ) & ~me)
            assert out[SP_CONSTANT] == 1


def test_the_seat_to_act_in_the_scoring_phase_is_pending() -> None:
    state = State.from_position("expert 3 7/7/7/7/7/7/ooo4 o insert 19,22,22 0,0,0 0,0,0")
    after = next(
        state.after(a) for a in state.legal_actions() if state.after(a).phase is Phase.SCORE
    )
    assert after.turn == 0  # orange made its line of four and scores it
    s = kernel.from_state(after)
    out = np.zeros(SEAT_FEATURES)
    seat_features(s, 0, occupied(s), out)
    assert out[SP_PENDING] == 1
    seat_features(s, 1, occupied(s), out)
    assert out[SP_PENDING] == 0


@pytest.mark.parametrize("variant", [Variant.EXPERT, Variant.EXTREME])
def test_the_fitted_shares_of_the_points_games_are_a_distribution(variant: Variant) -> None:
    for players in (3, 4):
        for state in random_positions(variant, players, 5, seed=7, actions=(10, 40)):
            reward = np.zeros(4)
            fitted_shares(kernel.from_state(state), reward)
            assert reward[:players].sum() == pytest.approx(1.0)
            assert (reward[:players] > 0).all()


@pytest.mark.parametrize(
    ("variant", "players", "cut"),
    [
        (Variant.EXPERT, 3, FITTED_HORIZON),
        (Variant.EXPERT, 4, FITTED_HORIZON),
        (Variant.EXTREME, 3, FITTED_HORIZON),
        (Variant.EXTREME, 4, FITTED_HORIZON),
        (Variant.EXPRESS, 3, 0),
        (Variant.EXPRESS, 4, 0),
    ],
)
def test_the_top_level_cuts_its_playouts_in_3_4_player_expert_and_extreme(
    variant: Variant, players: int, cut: int
) -> None:
    state = random_positions(variant, players, 1, seed=3, actions=(10, 40))[0]
    bot = bot_for_level(7, seed=1)
    assert isinstance(bot, LevelBot)
    bot.analyse(state, Limits(nodes=100))
    assert bot.mcts.mcts.horizon == cut
