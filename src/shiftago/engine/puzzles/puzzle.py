"""A puzzle and its line of JSON (the puzzle files are JSON lines, docs/puzzles.md).

One line per puzzle::

    {"id": "express-2-1f3a9c04d2", "variant": "express", "players": 2,
     "position": "express 2 ... o insert 12,13 0,0 0,0", "actions": 2,
     "solution": ["L3", "Tc", "R5"], "themes": ["win-in-2", "express", "players-2"],
     "rating": 1350, "source": "self-play seed 7 game 12"}

``variant`` and ``players`` repeat what the position says (for reading and filtering);
``solution`` is the whole line, the solver's and the defence's actions in order;
``rating`` is the initial puzzle rating.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from shiftago.core import State
from shiftago.core.errors import ParseError

#: Every theme a puzzle can have, in the order the pages list them.
THEMES: tuple[str, ...] = (
    "win-in-1",
    "win-in-2",
    "win-in-3",
    "score-the-right-line",
    "defend",
    "express",
    "expert",
    "extreme",
    "players-2",
    "players-3",
    "players-4",
)

_FIELDS = ("id", "variant", "players", "position", "actions", "solution", "themes", "rating")


@dataclass(frozen=True)
class Puzzle:
    """A proven puzzle: the seat to act in ``position`` reaches the goal in ``actions``
    of its own actions with one first action only."""

    id: str
    position: str
    actions: int
    solution: tuple[str, ...]
    themes: tuple[str, ...]
    rating: int
    source: str = ""
    variant: str = field(init=False)
    players: int = field(init=False)

    def __post_init__(self) -> None:
        state = State.from_position(self.position)
        object.__setattr__(self, "variant", str(state.rules.variant))
        object.__setattr__(self, "players", state.rules.players)

    @property
    def state(self) -> State:
        return State.from_position(self.position)

    def to_json(self) -> str:
        """The puzzle's line (without the line break)."""
        data: dict[str, Any] = {
            "id": self.id,
            "variant": self.variant,
            "players": self.players,
            "position": self.position,
            "actions": self.actions,
            "solution": list(self.solution),
            "themes": list(self.themes),
            "rating": self.rating,
            "source": self.source,
        }
        return json.dumps(data, separators=(", ", ": "))

    @classmethod
    def from_json(cls, line: str) -> Puzzle:
        """A puzzle from its line; :class:`ParseError` says what is wrong."""
        try:
            data = json.loads(line.rstrip("\r\n"))  # a column past the end: of this line
        except json.JSONDecodeError as error:
            # json's own line and column would count inside this one line, not the file
            raise ParseError(
                "not JSON at column {column}: {error}", column=error.colno, error=error.msg
            ) from None
        if not isinstance(data, dict):
            raise ParseError("a puzzle line is a JSON object")
        missing = [name for name in _FIELDS if name not in data]
        if missing:
            raise ParseError("a puzzle line lacks {fields}", fields=", ".join(missing))
        try:
            puzzle = cls(
                id=str(data["id"]),
                position=str(data["position"]),
                actions=int(data["actions"]),
                solution=tuple(str(a) for a in data["solution"]),
                themes=tuple(str(t) for t in data["themes"]),
                rating=int(data["rating"]),
                source=str(data.get("source", "")),
            )
        except (TypeError, ValueError) as error:
            raise ParseError(
                "puzzle {puzzle}: {error}", puzzle=repr(data["id"]), error=error
            ) from None
        if (puzzle.variant, puzzle.players) != (data["variant"], data["players"]):
            raise ParseError(
                "puzzle {puzzle}: variant or players differ from the position", puzzle=puzzle.id
            )
        return puzzle


def puzzle_id(key: str, variant: str, players: int) -> str:
    """A stable id from a position's symmetry key: variant, players, a digest."""
    digest = hashlib.sha256(key.encode()).hexdigest()[:10]
    return f"{variant}-{players}-{digest}"
