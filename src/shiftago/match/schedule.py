"""Which games a match plays: openings, seatings and their rotations.

Fairness comes from playing every opening from every seat. An opening is a few random
actions from the empty board (orange first), drawn from a generator seeded with the
match seed and the opening's number, so it does not depend on how many openings the
match has or in which order they are played. Each opening is played by every group of
``players`` participants (all of them when there are exactly ``players``), once in
each cyclic rotation of the seats: with two participants that is one game with the
colours swapped, a *pair*.

With 3 or 4 players a rotation keeps who sits after whom, and that matters: a player
who misses a threat hands the win to the seat after it. So the cyclic order of each
group changes from opening to opening, through all ``(players - 1)!`` orders in turn
(2 with 3 players, 6 with 4): over that many openings every participant sits after
every other equally often.
"""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass

from shiftago.core import Action, Game, Rules
from shiftago.match.errors import MatchSetupError


@dataclass(frozen=True)
class Slot:
    """One game of the schedule: participant indices by seat (seat 0 moves first).

    ``group`` numbers the set of participants playing (always 0 when the match has
    exactly ``players`` participants); ``rotation`` r seats participant
    ``members[(seat + r) % players]`` of the group, in the opening's cyclic order
    (:func:`cyclic_order`), at each seat.
    """

    opening: int
    group: int
    rotation: int
    seats: tuple[int, ...]

    @property
    def unit(self) -> tuple[int, int]:
        """The games that belong together for statistics: one opening, one group."""
        return self.opening, self.group


def groups(participants: int, players: int) -> list[tuple[int, ...]]:
    """The groups of participants that play each opening, in a fixed order."""
    if participants < players:
        raise MatchSetupError(
            "{players}-player games need at least {players} participants, not {count} "
            "(the same spec may be given twice)",
            players=players,
            count=participants,
        )
    return list(itertools.combinations(range(participants), players))


def cyclic_order(members: tuple[int, ...], opening: int) -> tuple[int, ...]:
    """The group's members in the cyclic order of ``opening``: the first stays first,
    the others take their ``(n - 1)!`` orders in turn.

    >>> [cyclic_order((0, 1, 2), k) for k in range(3)]
    [(0, 1, 2), (0, 2, 1), (0, 1, 2)]
    """
    orders = list(itertools.permutations(members[1:]))
    return (members[0], *orders[opening % len(orders)])


def games_per_opening(participants: int, players: int) -> int:
    """How many games one opening makes: every group in every rotation."""
    return len(groups(participants, players)) * players


def openings_for(games: int, participants: int, players: int) -> int:
    """The openings that give at least ``games`` games (whole opening sets only)."""
    return max(1, math.ceil(games / games_per_opening(participants, players)))


def schedule(participants: int, players: int, openings: int) -> list[Slot]:
    """Every game of a match, opening by opening (so that pairs complete early).

    >>> [s.seats for s in schedule(2, 2, 2)]
    [(0, 1), (1, 0), (0, 1), (1, 0)]
    >>> [s.seats for s in schedule(3, 3, 2)]
    [(0, 1, 2), (1, 2, 0), (2, 0, 1), (0, 2, 1), (2, 1, 0), (1, 0, 2)]
    """
    slots = []
    for opening in range(openings):
        for number, group in enumerate(groups(participants, players)):
            members = cyclic_order(group, opening)
            for rotation in range(players):
                seats = tuple(members[(seat + rotation) % players] for seat in range(players))
                slots.append(Slot(opening, number, rotation, seats))
    return slots


def opening(rules: Rules, plies: int, seed: int, number: int) -> tuple[Action, ...]:
    """Opening ``number``: ``plies`` random legal actions from the empty board.

    Orange (seat 0) moves first. A draw that would end the game is drawn again, so an
    opening always leaves a game to play.

    >>> len(opening(Rules(), 2, seed=0, number=0))
    2
    """
    if plies < 0:
        raise MatchSetupError("an opening has 0 or more actions, not {plies}", plies=plies)
    rng = random.Random(f"shiftago arena opening {seed} {number}")
    for _ in range(1000):
        game = Game(rules, first=0)
        for _ in range(plies):
            game.play(rng.choice(game.legal_actions()))
            if game.is_over:
                break
        if not game.is_over:
            return tuple(game.history)
    raise MatchSetupError("no opening of {plies} actions leaves the game open", plies=plies)


def bot_seed(seed: int, slot: Slot, seat: int) -> int:
    """The seed of the bot at ``seat`` of a game: repeatable, different for each game."""
    text = f"shiftago arena bot {seed} {slot.opening} {slot.group} {slot.rotation} {seat}"
    return random.Random(text).randrange(2**63)
