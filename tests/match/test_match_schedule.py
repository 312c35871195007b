"""The schedule of a match: fair seatings, repeatable openings, whole opening sets."""

from __future__ import annotations

from collections import Counter

import pytest

from shiftago.core import Game, Rules, Variant
from shiftago.match.schedule import (
    Slot,
    bot_seed,
    games_per_opening,
    groups,
    opening,
    openings_for,
    schedule,
)


@pytest.mark.parametrize(
    ("participants", "players"), [(2, 2), (3, 2), (4, 2), (3, 3), (4, 3), (4, 4), (5, 4)]
)
def test_every_participant_sits_in_every_seat_equally_often(participants, players):
    slots = schedule(participants, players, openings=3)
    assert len(slots) == 3 * games_per_opening(participants, players)
    seats = Counter((p, seat) for slot in slots for seat, p in enumerate(slot.seats))
    counts = {seats[p, s] for p in range(participants) for s in range(players)}
    assert len(counts) == 1, seats  # the same number for every participant and seat
    for slot in slots:
        assert len(set(slot.seats)) == players  # nobody plays twice in one game


def test_a_pair_is_one_opening_with_the_seats_swapped():
    slots = schedule(2, 2, openings=2)
    assert slots == [
        Slot(0, 0, 0, (0, 1)),
        Slot(0, 0, 1, (1, 0)),
        Slot(1, 0, 0, (0, 1)),
        Slot(1, 0, 1, (1, 0)),
    ]
    assert {s.unit for s in slots} == {(0, 0), (1, 0)}


def test_cyclic_rotations_with_four_players():
    slots = schedule(4, 4, openings=1)
    assert [s.seats for s in slots] == [(0, 1, 2, 3), (1, 2, 3, 0), (2, 3, 0, 1), (3, 0, 1, 2)]


@pytest.mark.parametrize(("participants", "players", "orders"), [(3, 3, 2), (5, 3, 2), (4, 4, 6)])
def test_every_participant_follows_every_other_equally_often(participants, players, orders):
    # who sits after whom matters with 3-4 players, so all cyclic orders are played
    slots = schedule(participants, players, openings=orders)
    follows = Counter(
        (slot.seats[seat], slot.seats[(seat + 1) % players])
        for slot in slots
        for seat in range(players)
    )
    pairs = [(a, b) for a in range(participants) for b in range(participants) if a != b]
    assert len({follows[pair] for pair in pairs}) == 1, follows
    # the first opening keeps the order given, and the orders come round again
    again = schedule(participants, players, openings=2 * orders)
    assert [s.seats for s in again[len(slots) :]] == [s.seats for s in slots]
    assert slots[0].seats == tuple(range(players))


def test_groups_need_enough_participants():
    assert groups(3, 2) == [(0, 1), (0, 2), (1, 2)]
    with pytest.raises(ValueError, match="at least 3 participants"):
        groups(2, 3)


@pytest.mark.parametrize(
    ("games", "participants", "players", "openings"),
    [(1, 2, 2, 1), (2, 2, 2, 1), (3, 2, 2, 2), (20, 2, 2, 10), (7, 3, 3, 3), (13, 3, 2, 3)],
)
def test_games_round_up_to_whole_openings(games, participants, players, openings):
    assert openings_for(games, participants, players) == openings


@pytest.mark.parametrize("variant", list(Variant))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_openings_are_legal_repeatable_and_independent(variant, players):
    rules = Rules(variant, players)
    first = [opening(rules, 4, seed=5, number=n) for n in range(6)]
    again = [opening(rules, 4, seed=5, number=n) for n in reversed(range(6))][::-1]
    assert first == again
    assert len(set(first)) > 1  # different openings
    for actions in first:
        assert len(actions) == 4
        game = Game.from_actions(rules, actions, first=0)
        assert not game.is_over
    assert opening(rules, 4, seed=6, number=0) != first[0]


def test_an_empty_opening():
    assert opening(Rules(), 0, seed=0, number=3) == ()


def test_bot_seeds_differ_between_games_and_seats():
    slots = schedule(2, 2, openings=3)
    seeds = {bot_seed(0, slot, seat) for slot in slots for seat in range(2)}
    assert len(seeds) == 12
    assert bot_seed(0, slots[0], 0) == bot_seed(0, slots[0], 0)
    assert bot_seed(1, slots[0], 0) != bot_seed(0, slots[0], 0)
