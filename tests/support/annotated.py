"""Random records with every kind of annotation: marks, numeric annotations, comments,
nested variations and other headers, for the round-trip tests of records."""

from __future__ import annotations

import random

from hypothesis import strategies as st

from shiftago.core import Game, Rules, Variant
from shiftago.core.actions import Action
from shiftago.formats.record import Note, Record, Variation

#: Comment texts with what a writer must take care of: several lines, spaces, brackets,
#: parentheses, a semicolon, marks and dollars that are not annotations.
COMMENTS = (
    "a quiet move",
    "  several\nlines   and\tspaces ",
    '[Site "here"] is not a header',
    "(not a variation) ; not a line comment",
    "Td?? $4 1. { x",
    "ünïcödé ✓",
)
OTHER_HEADERS = (("Site", "Berlin"), ("Round", "3.1"), ("Annotator", 'Ann "A" \\ B'))


def random_game(rng: random.Random, variant: Variant, players: int, length: int) -> Game:
    game = Game(Rules(variant, players, action_limit=rng.choice((None, 400))), first=0)
    while not game.is_over and len(game.history) < length:
        game.play(rng.choice(game.legal_actions()))
    return game


def random_note(rng: random.Random, before: Game, depth: int) -> Note:
    """A note for the action to be played on ``before``, with variations from there."""
    nags = tuple(rng.choice((1, 2, 3, 4, 5, 6, 14, 146, 0)) for _ in range(rng.randrange(3)))
    comment = rng.choice((None, None, *COMMENTS))
    variations = []
    if depth and rng.random() < 0.4:
        for _ in range(rng.randrange(1, 3)):
            variations.append(random_variation(rng, before.copy(), depth - 1))
    return Note(nags, comment, tuple(variations))


def random_variation(rng: random.Random, game: Game, depth: int) -> Variation:
    actions: list[Action] = []
    notes = []
    for _ in range(rng.randrange(1, 5)):
        if game.is_over:
            break
        notes.append(random_note(rng, game, depth))
        game.play(rng.choice(game.legal_actions()))
        actions.append(game.history[-1])
    return Variation(tuple(actions), tuple(notes), rng.choice((None, *COMMENTS)))


@st.composite
def annotated_records(draw: st.DrawFn) -> Record:
    rng = random.Random(draw(st.integers(0, 2**32)))
    variant = draw(st.sampled_from(list(Variant)))
    players = draw(st.integers(2, 4))
    game = random_game(rng, variant, players, draw(st.integers(1, 60)))
    replay = Game(game.rules, first=game.first)
    notes = []
    for action in game.history:
        notes.append(random_note(rng, replay, 2) if rng.random() < 0.5 else Note())
        replay.play(action)
    others = tuple(rng.sample(OTHER_HEADERS, rng.randrange(len(OTHER_HEADERS) + 1)))
    record = Record.from_game(game)
    return Record(
        record.rules,
        record.actions,
        first=record.first,
        result=record.result,
        comment=rng.choice((None, *COMMENTS)),
        notes=tuple(notes),
        other_headers=others,
    )
