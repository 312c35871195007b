"""The opening book: for each position of the first actions, how each action fared.

A :class:`Book` holds one variant and player count. Its positions are keyed by their
canonical form (:mod:`.symmetry`), and each lists its actions in that form's frame,
one per class of actions the position's symmetries make equal. An action carries the
self-play statistics (games, wins and draws of the mover who played it, and the
mover's score: 1 a win, a draw shared among those who draw) and, where the deep search
looked at the position, the value it found (an expected score for the mover in [0, 1],
as :meth:`shiftago.engine.bot.Bot.expectation` gives it) and what it proved.

:meth:`Book.lines` answers in the frame of the position asked about; :meth:`Book.choice`
is the action the top level plays (:func:`sound_choice`). The text form is
:meth:`Book.to_json` / :meth:`Book.from_json`; reading and writing files is the
caller's (see :mod:`.shipped`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from shiftago.core import Action, Phase, State, Variant

from .symmetry import canonical

#: The version of the text form; a book of another version is refused.
FORMAT: Final = 1
#: The words of a proof in the text form.
PROOF_WORDS: Final = {1: "win", -1: "loss"}


@dataclass(frozen=True)
class BookAction:
    """One action of a book position and how it fared.

    ``games`` is how many self-play games played it here, ``wins`` and ``draws`` how many
    of them the mover won and drew, ``points`` the mover's score summed over them.
    ``value`` is the deep search's expected score for the mover (None where it did not
    search the position) and ``proven`` what it proved: 1 a win, -1 a loss, 0 nothing.
    """

    action: Action
    games: int = 0
    wins: int = 0
    draws: int = 0
    points: float = 0.0
    value: float | None = None
    proven: int = 0

    @property
    def score(self) -> float | None:
        """The mover's mean score over the games (None without games)."""
        return self.points / self.games if self.games else None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"action": str(self.action), "games": self.games}
        if self.games:
            out |= {"wins": self.wins, "draws": self.draws, "points": self.points}
        if self.value is not None:
            out["value"] = self.value
        if self.proven:
            out["proven"] = PROOF_WORDS[self.proven]
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> BookAction:
        proofs = {word: number for number, word in PROOF_WORDS.items()}
        proven = data.get("proven")
        if proven is not None and proven not in proofs:
            raise ValueError(f"a proof is win or loss, not {proven!r}")
        games, wins, draws = int(data["games"]), int(data.get("wins", 0)), int(data.get("draws", 0))
        if min(games, wins, draws) < 0 or wins + draws > games:
            raise ValueError(f"{data['action']}: games, wins and draws do not add up")
        value = data.get("value")
        return cls(
            Action.parse(str(data["action"])),
            games,
            wins,
            draws,
            float(data.get("points", 0.0)),
            None if value is None else float(value),
            proofs[proven] if proven is not None else 0,
        )


@dataclass(frozen=True)
class BookPosition:
    """A position of the book (its canonical position string ``key``), its actions in
    that frame (most played first), and the deep search's ``choice`` (None where it did
    not search here)."""

    key: str
    actions: tuple[BookAction, ...]
    choice: Action | None = None

    @property
    def games(self) -> int:
        return sum(a.games for a in self.actions)

    @property
    def searched(self) -> bool:
        return self.choice is not None


def sound_choice(position: BookPosition) -> Action | None:
    """The action the top level plays from the book here: a proven win first (the best
    valued); else the deep search's choice, unless it is proven to lose while another
    action is not; never a proven loss while something else is open. None where the
    position was not searched or every action is proven to lose (the search decides)."""
    if position.choice is None:
        return None

    def valued(actions: list[BookAction]) -> Action:
        return max(actions, key=lambda a: -1.0 if a.value is None else a.value).action

    searched = [a for a in position.actions if a.value is not None or a.proven]
    wins = [a for a in searched if a.proven > 0]
    if wins:
        return valued(wins)
    open_ = [a for a in searched if a.proven >= 0]
    if not open_:
        return None
    if any(a.action == position.choice for a in open_):
        return position.choice
    return valued(open_)


@dataclass(frozen=True)
class BookLine:
    """A book action in the frame of the position asked about (:meth:`Book.lines`)."""

    action: Action
    entry: BookAction
    chosen: bool


@dataclass(frozen=True)
class Book:
    """The book of one variant and player count: positions by canonical key, and
    ``settings``, the build's settings that made it (so that it can be made again)."""

    variant: Variant
    players: int
    positions: Mapping[str, BookPosition]
    settings: Mapping[str, Any] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.positions)

    def position(self, state: State) -> BookPosition | None:
        """The book's entry of ``state`` (None where it has none)."""
        if not self._covers(state):
            return None
        return self.positions.get(canonical(state).key)

    def lines(self, state: State) -> list[BookLine]:
        """The book's actions at ``state`` in ``state``'s own frame, most played first
        (empty where the position is not in the book)."""
        if not self._covers(state):
            return []
        form = canonical(state)
        entry = self.positions.get(form.key)
        if entry is None:
            return []
        chosen = sound_choice(entry)
        return [BookLine(form.from_book(a.action), a, a.action == chosen) for a in entry.actions]

    def choice(self, state: State) -> Action | None:
        """The action the top level plays at ``state`` (in its frame), or None."""
        if not self._covers(state):
            return None
        form = canonical(state)
        entry = self.positions.get(form.key)
        chosen = None if entry is None else sound_choice(entry)
        return None if chosen is None else form.from_book(chosen)

    def _covers(self, state: State) -> bool:
        rules = state.rules
        return (
            rules.variant is self.variant
            and rules.players == self.players
            and state.phase is not Phase.OVER
        )

    def to_json(self) -> dict[str, Any]:
        """The book as JSON values: its text form, read back by :meth:`from_json`."""
        return {
            "format": FORMAT,
            "variant": self.variant.value,
            "players": self.players,
            "settings": dict(self.settings),
            "positions": {
                key: {
                    **({"choice": str(p.choice)} if p.choice is not None else {}),
                    "actions": [a.to_json() for a in p.actions],
                }
                for key, p in sorted(self.positions.items())
            },
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Book:
        """A book from :meth:`to_json`'s values; ValueError (naming the position) for a
        book of another format, another game or an action that is not legal there."""
        if data.get("format") != FORMAT:
            raise ValueError(f"an opening book of format {FORMAT}, not {data.get('format')!r}")
        variant, players = Variant.parse(str(data["variant"])), int(data["players"])
        positions = {}
        for key, entry in data["positions"].items():
            try:
                state = State.from_position(key)
                if state.rules.variant is not variant or state.players != players:
                    raise ValueError("another variant or player count than the book's")
                if canonical(state).key != key:
                    raise ValueError("not in its canonical form")
                actions = tuple(BookAction.from_json(a) for a in entry["actions"])
                legal = set(state.legal_actions())
                for a in actions:
                    if a.action not in legal:
                        raise ValueError(f"{a.action} is not legal there")
                choice = Action.parse(entry["choice"]) if "choice" in entry else None
            except (KeyError, TypeError, ValueError) as e:
                raise ValueError(f"the book position {key!r}: {e}") from None
            positions[key] = BookPosition(key, actions, choice)
        return cls(variant, players, positions, dict(data.get("settings", {})))
