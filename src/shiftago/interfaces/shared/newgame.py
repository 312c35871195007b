"""The game that the options of ``shiftago play`` and ``shiftago tui`` ask for: a new
game, one from a record file or a position, the computer's seats, and the record the
game is saved as. Shared by both programs; it reads a record file and nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Final

from shiftago.core import COLOURS, Game, Rules, ShiftagoError, State, Variant
from shiftago.core.rules import MAX_HANDICAP, letter_of_colour_word, seat_of_colour
from shiftago.engine.bot import Bot
from shiftago.engine.levels import LADDER, bot_for_level, default_level
from shiftago.formats.record import Record, RecordError
from shiftago.formats.record_json import parse_records_of_either_form
from shiftago.formats.source import SourceError, read_text
from shiftago.interfaces.shared.catalogues import _
from shiftago.interfaces.shared.game_words import colour_name, error_words

#: A new game that only the computer plays ends after this many actions (Extreme may
#: otherwise go on and on): the optional limit RULES.md section 7 allows automated play.
COMPUTER_ONLY_ACTION_LIMIT = 1000


#: The name a record gives a computer seat that has none, the same in the records of
#: every interface (the web page shows it in its reader's language: "Ordinateur (vert)";
#: the terminal's records said "shiftago" before, a French walk found them apart).
COMPUTER_NAME: Final = "Computer"


class SetupError(ValueError):
    """Options that do not make a game; the message says why in one line."""


#: The options that make a new game (their names as ``shiftago play`` spells them).
NEW_GAME_OPTIONS = ("variant", "players", "handicap", "first")


@dataclass(frozen=True)
class PlaySetup:
    """The options of ``shiftago play``; ``given`` names those of
    :data:`NEW_GAME_OPTIONS` that were given (not left at their defaults)."""

    variant: str = "express"
    players: int = 2
    handicap: tuple[int, ...] = ()
    first: str | None = None
    seed: int | None = None
    computer: tuple[str, ...] = ()
    level: int | None = None
    #: The action limit of RULES.md section 7 for a new game or a position.
    limit: int | None = None
    load: Path | None = None
    #: Which game of a ``load`` file that holds several (from 1).
    game_number: int = 1
    position: str | None = None
    #: True: resume the autosave without asking; False: start anew; None: ask.
    resume: bool | None = None
    given: tuple[str, ...] = ()
    #: The clocks of ``shiftago tui`` (``5`` minutes, ``3+2`` with an increment); the
    #: line game has none.
    clock: str | None = None
    #: A tournament of Express games (to ten wins) in ``shiftago tui``.
    tournament: bool = False


def parse_colour(text: str, players: int) -> int:
    """A seat from a colour letter or name (``o``, ``orange``, or the name in the
    player's language: ``vert``, ``groen``), any case."""
    word = letter_of_colour_word(text)
    if word in (here := [colour_name(seat).lower() for seat in range(len(COLOURS))]):
        word = COLOURS[here.index(word)]
    try:
        return seat_of_colour(word, players)
    except ShiftagoError:
        names = ", ".join(f"{COLOURS[s]} ({colour_name(s)})" for s in range(players))
        values = {"text": repr(text), "players": players, "names": names}
        if word in COLOURS:  # a colour of the game, but of a seat not in this one
            raise SetupError(
                _("%(text)s has no seat with %(players)d players: the seats are %(names)s") % values
            ) from None
        raise SetupError(
            _("unknown colour %(text)s: with %(players)d players: %(names)s") % values
        ) from None


def read_record_file(path: Path, game_number: int = 1) -> Record:
    """Game ``game_number`` (from 1) of a record file; errors name the file and the line."""
    try:
        text = read_text(path)
    except SourceError as e:
        raise SetupError(error_words(e)) from None
    try:
        records = parse_records_of_either_form(text)
    except RecordError as e:
        where = f"{path}:{e.line}" if e.line is not None else str(path)
        raise SetupError(f"{where}: {error_words(e.without_line())}") from None
    except ShiftagoError as e:
        raise SetupError(f"{path}: {error_words(e)}") from None
    if not records:
        raise SetupError(_("%(path)s: there is no game record in it") % {"path": path})
    if not 1 <= game_number <= len(records):
        raise SetupError(
            _("%(path)s holds %(n)d game(s), not a game %(number)d")
            % {"path": path, "n": len(records), "number": game_number}
        )
    return records[game_number - 1]


def computer_seat(text: str, players: int) -> tuple[int, int | None]:
    """A seat of ``-c``: a colour (``g``, ``green``), or a colour and that seat's own level
    after a colon (``g:2``); the level None where none is named."""
    colour, colon, number = text.partition(":")
    seat = parse_colour(colour.strip(), players)
    if not colon:
        return seat, None
    level = int(number) if number.strip().isdigit() else 0
    if not 1 <= level <= len(LADDER):
        raise SetupError(
            _("%(text)s: the level after the colon is a number from 1 to %(top)d")
            % {"text": repr(text), "top": len(LADDER)}
        )
    return seat, level


def computer_levels(setup: PlaySetup, players: int) -> dict[int, int | None]:
    """The computer's seats of ``-c``, each with its level: its own after a colon, else
    ``--level`` (None: the default level). Two computer seats may play at two levels."""
    wanted: dict[int, int | None] = {}
    for text in setup.computer:
        seat, level = computer_seat(text, players)
        wanted[seat] = setup.level if level is None else level
    return wanted


def seat_levels(setup: PlaySetup, players: int, record: Record | None) -> dict[int, int | None]:
    """The computer's seats and levels of a game to play: ``-c``'s (:func:`computer_levels`),
    a resumed or loaded game's too; without ``-c`` the record's computer seats, each at its
    own level; else none."""
    if setup.computer:
        return computer_levels(setup, players)
    if record is None:
        return {}
    return {seat: level for seat, level in enumerate(record.levels) if level is not None}


def kept_names(source: Record | None, levels: dict[int, int]) -> dict[int, str]:
    """The names of ``source`` that stay with their seats in a game whose computer seats
    play at ``levels``: where the record's kind of player (a person, the computer) is
    the seat's kind still."""
    if source is None:
        return {}
    pairs = enumerate(zip(source.names, source.levels, strict=True))
    return {
        seat: name
        for seat, (name, level) in pairs
        if name is not None and (level is None) == (seat not in levels)
    }


def check_handicap(handicap: tuple[int, ...], players: int) -> None:
    """A :class:`SetupError` in the reader's words unless ``handicap`` is empty (none) or
    one number of skipped turns (0-6) per seat."""
    if not handicap:
        return
    # a number out of range first: "--handicap 9" was told it needs one number per seat
    if any(not 0 <= turns <= MAX_HANDICAP for turns in handicap):
        raise SetupError(_("each handicap is 0 to %(most)d skipped turns") % {"most": MAX_HANDICAP})
    if len(handicap) != players:
        raise SetupError(
            _("the handicap needs one number per seat (%(players)d), got %(given)d")
            % {"players": players, "given": len(handicap)}
        )


def new_game(setup: PlaySetup) -> Game:
    """A game from the empty board; the computer alone gets an action limit (RULES.md 7)."""
    limit = setup.limit
    computer = computer_levels(setup, setup.players)
    if limit is None and len(computer) == setup.players:
        limit = COMPUTER_ONLY_ACTION_LIMIT
    check_handicap(setup.handicap, setup.players)
    try:
        rules = Rules(Variant.parse(setup.variant), setup.players, setup.handicap, limit)
    except ValueError as e:
        raise SetupError(error_words(e)) from None
    first = None if setup.first is None else parse_colour(setup.first, setup.players)
    return Game(rules, first=first, seed=setup.seed)


def game_from_position(setup: PlaySetup, position: str) -> Game:
    """A game that goes on from a position string (with the action limit, if any)."""
    try:
        state = State.from_position(position)
        if setup.limit is None:
            return Game(position=state)
        rules = Rules(state.rules.variant, state.rules.players, action_limit=setup.limit)
        return Game(rules, position=state)
    except ShiftagoError as e:
        raise SetupError(_("bad position: %(error)s") % {"error": error_words(e)}) from None


def make_bots(
    levels: dict[int, int | None], seed: int | None
) -> tuple[dict[int, Bot], dict[int, int]]:
    """One bot per computer seat (``levels``: each seat's level, None for the default),
    with the level each plays."""
    bots: dict[int, Bot] = {}
    chosen: dict[int, int] = {}
    for seat, level in levels.items():
        chosen[seat] = default_level() if level is None else level
        bot_seed = None if seed is None else seed + seat
        try:
            bots[seat] = bot_for_level(chosen[seat], bot_seed)
        except ValueError as e:
            raise SetupError(error_words(e)) from None
    return bots, chosen


def game_record(
    game: Game,
    levels: dict[int, int],
    date: str,
    source: Record | None = None,
    *,
    result: str | None = None,
    termination: str | None = None,
) -> Record:
    """The record of ``game`` whose computer seats play at ``levels``; the names and the
    event of the record it goes on from (``source``) stay where the kind of player is
    the same. ``result`` and ``termination`` end it otherwise than its rules (a flag)."""
    seats = range(game.rules.players)
    names = [(COMPUTER_NAME if seat in levels else None) for seat in seats]
    for seat, name in kept_names(source, levels).items():
        names[seat] = name
    event = None if source is None else source.event
    return Record.from_game(
        game,
        names=names,
        levels=tuple(levels.get(s) for s in seats),
        date=date,
        event=event,
        result=result,
        termination=termination,
    )
