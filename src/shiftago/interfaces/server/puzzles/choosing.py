"""Which puzzle a player gets, the words of its goal, and how an attempt rates.

- The next puzzle is one of the :data:`NEAREST` puzzles whose rating is nearest the
  player's puzzle rating (an account's, or 1500 signed out), with the theme asked for
  and not played before by the account; lichess does the same, and like lichess a
  signed-out player's attempts move no rating (the page keeps its progress in the
  browser).
- The daily puzzle is the same for everyone all day (UTC): the day's number picks it
  among every puzzle, in the order of their ids.
- An account's first finished attempt at a puzzle is a Glicko-2 game between the
  player and the puzzle (solved: the player wins), each a rating period of its own
  (:func:`shiftago.match.glicko2.rate_game`), as on lichess; later attempts at the
  same puzzle move nothing.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import random
from typing import Any, Final

from babel.support import NullTranslations

from shiftago.interfaces.server.puzzles.store import StoredPuzzle
from shiftago.match.glicko2 import Glicko, rate_game

#: How many of the nearest puzzles the next one is drawn from.
NEAREST: Final = 12
#: The rating a signed-out player's puzzles are chosen near.
GUEST_RATING: Final = 1500.0


def goal(puzzle: StoredPuzzle, words: NullTranslations) -> str:
    """The puzzle's goal as a sentence in the language of ``words``: against "the
    opponent" with 2 players, "the others" with more, and against nobody where the
    solution is the solver's actions alone (an insertion and its scoring, which the
    scorer follows with its next action): a Dutch walk read "whatever the opponent
    plays" over a puzzle the opponent never moves in. In Expert and Extreme it says that
    a scoring counts as an action."""
    n = puzzle.actions
    one = puzzle.players == 2
    if len(puzzle.solution) <= n:  # the solution holds no other seat's action
        if puzzle.variant == "express":
            text = words.ngettext(
                "Make a winning line in %(n)s action.", "Make a winning line in %(n)s actions.", n
            )
        else:
            text = words.ngettext(
                "Reach 10 points in %(n)s action.", "Reach 10 points in %(n)s actions.", n
            )
    elif puzzle.variant == "express" and one:
        text = words.ngettext(
            "Make a winning line in %(n)s action, whatever the opponent plays.",
            "Make a winning line in %(n)s actions, whatever the opponent plays.",
            n,
        )
    elif puzzle.variant == "express":
        text = words.ngettext(
            "Make a winning line in %(n)s action, whatever the others play.",
            "Make a winning line in %(n)s actions, whatever the others play.",
            n,
        )
    elif one:
        text = words.ngettext(
            "Reach 10 points in %(n)s action, whatever the opponent plays.",
            "Reach 10 points in %(n)s actions, whatever the opponent plays.",
            n,
        )
    else:
        text = words.ngettext(
            "Reach 10 points in %(n)s action, whatever the others play.",
            "Reach 10 points in %(n)s actions, whatever the others play.",
            n,
        )
    text %= {"n": n}
    if puzzle.variant != "express" and n > 1:
        # the rulebook's "Zug" holds the scoring that follows an insertion: the count
        # here does not (a German walk counted one action fewer)
        text += " " + words.gettext("Each scoring of a line is one of these actions.")
    return text


def view(puzzle: StoredPuzzle, words: NullTranslations) -> dict[str, Any]:
    """The puzzle as ``next`` and ``daily`` answer it (WEBAPI.md, "Puzzles")."""
    return {
        "id": puzzle.id,
        "variant": puzzle.variant,
        "players": puzzle.players,
        "position": puzzle.position,
        "goal": goal(puzzle, words),
        "actions": puzzle.actions,
        "rating": round(puzzle.rating.rating),
        "themes": list(puzzle.themes),
    }


def pick(candidates: list[StoredPuzzle], rng: random.Random) -> StoredPuzzle | None:
    return rng.choice(candidates) if candidates else None


def daily_index(day: dt.date, count: int) -> int:
    """The index of the day's puzzle among ``count`` puzzles."""
    digest = hashlib.sha256(f"shiftago puzzle {day.isoformat()}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % count


def rate(player: Glicko, puzzle: Glicko, solved: bool) -> tuple[Glicko, Glicko]:
    """The player's and the puzzle's ratings after one attempt."""
    return rate_game(player, puzzle, 1.0 if solved else 0.0)
