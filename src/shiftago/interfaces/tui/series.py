"""A tournament in progress kept beside the autosave, so that the app resumes the series
and not only its current game (docs/cli.md, "A tournament").

``tournament.json`` in the autosave's directory holds what rebuilds the core's
:class:`~shiftago.core.Tournament` exactly: its players, handicap, seed, the first
game's starter when it was chosen (not drawn), the records of the finished games and
the record of the current one. Rebuilding replays every game through the core, so a
file that does not describe a tournament the rules allow is refused, never half read.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Final

from shiftago.core import Action, Game, ShiftagoError, Tournament, seat_of_colour
from shiftago.formats.record import Record, format_record, parse_record
from shiftago.interfaces.shared.catalogues import _
from shiftago.interfaces.shared.game_words import error_words

VERSION: Final = 1


class SeriesError(ValueError):
    """The kept tournament cannot be read or replayed: why, in one line."""


@dataclass(frozen=True)
class Series:
    """A tournament as the file keeps it; :meth:`tournament` rebuilds it."""

    players: int
    handicap: tuple[int, ...]
    seed: int
    first: int | None  # the first game's starter when chosen; None when drawn by lot
    finished: tuple[Record, ...]
    current: Record

    @classmethod
    def of(cls, tournament: Tournament, finished: list[Record], current: Record) -> Series:
        """The series of ``tournament``, its finished games' and current game's records."""
        first_game = tournament.finished[0] if tournament.finished else tournament.game
        return cls(
            players=tournament.rules.players,
            handicap=tuple(tournament.rules.handicap),
            seed=tournament.seed,
            first=None if tournament.first_drawn else first_game.first,
            finished=tuple(finished),
            current=current,
        )

    def text(self) -> str:
        return json.dumps(
            {
                "version": VERSION,
                "players": self.players,
                "handicap": list(self.handicap),
                "seed": self.seed,
                "first": self.first,
                "finished": [format_record(r) for r in self.finished],
                "current": format_record(self.current),
            },
            indent=1,
        )

    @classmethod
    def read(cls, text: str) -> Series:
        """The series of a file's ``text`` (a :class:`SeriesError` says what is wrong)."""
        try:
            data = json.loads(text)
            if not isinstance(data, dict) or data.get("version") != VERSION:
                raise SeriesError(_("not a tournament file of this version"))
            series = cls(
                players=_whole(data["players"]),
                handicap=tuple(_whole(h) for h in _listed(data["handicap"])),
                seed=_whole(data["seed"]),
                first=None if data["first"] is None else _whole(data["first"]),
                finished=tuple(parse_record(_text(t)) for t in _listed(data["finished"])),
                current=parse_record(_text(data["current"])),
            )
        except (KeyError, json.JSONDecodeError, ShiftagoError) as e:
            raise SeriesError(
                _("the tournament file cannot be read: %(why)s") % {"why": error_words(e)}
            ) from None
        series.tournament()  # replayed once, so that a file that reads is one that plays
        return series

    def tournament(self) -> Tournament:
        """The tournament rebuilt: every finished game replayed and counted, then the
        current game's actions (a :class:`SeriesError` when they do not fit)."""
        try:
            tournament = Tournament(
                self.players, handicap=self.handicap, first=self.first, seed=self.seed
            )
            for number, record in enumerate((*self.finished, self.current), start=1):
                _replay(tournament.game, record.to_game(), number)
                if number <= len(self.finished):
                    tournament.next_game(_ended_off_the_board(tournament.game, record))
        except (ShiftagoError, ValueError, TypeError) as e:
            raise SeriesError(
                _("the tournament cannot be replayed: %(why)s") % {"why": error_words(e)}
            ) from None
        return tournament


def _replay(into: Game, game: Game, number: int) -> None:
    """Play ``game``'s actions into the tournament's game ``number``, which must start
    as it did."""
    if game.first != into.first or game.rules != into.rules:
        raise SeriesError(
            _("game %(number)d does not start as the tournament's game %(number)d")
            % {"number": number}
        )
    action: Action
    for action in game.history:
        into.play(action)


def _ended_off_the_board(game: Game, record: Record) -> tuple[int, ...] | None:
    """The winners a finished game's record gives when the rules did not end it (a
    flag); None when they did (their result counts)."""
    if game.is_over or record.termination is None or record.result in ("", "*"):
        return None
    return tuple(seat_of_colour(c, game.rules.players) for c in record.result.split("="))


def _whole(value: Any) -> int:
    if type(value) is not int:
        raise SeriesError(_("a whole number was expected, not %(value)s") % {"value": repr(value)})
    return value


def _listed(value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise SeriesError(_("a list was expected, not %(value)s") % {"value": repr(value)})
    return value


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise SeriesError(_("a record's text was expected, not %(value)s") % {"value": repr(value)})
    return value
