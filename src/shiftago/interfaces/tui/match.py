"""One game of the app: the game, its computer seats, and where it is saved.

The match plays actions through the core and keeps the autosave of
:mod:`shiftago.interfaces.shared.autosave` in step, so that ``shiftago play`` and
``shiftago tui`` resume each other's games. It draws nothing.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import date, datetime
from pathlib import Path

from shiftago.core import COLOURS, Action, Game, GameOverError, ShiftagoError, Tournament
from shiftago.engine.bot import Bot
from shiftago.engine.levels import level as level_of
from shiftago.formats.record import Record, format_record, parse_record
from shiftago.interfaces.shared.autosave import Autosave, write_atomically
from shiftago.interfaces.shared.catalogues import _, moment
from shiftago.interfaces.shared.game_words import error_words, record_result
from shiftago.interfaces.shared.newgame import (
    PlaySetup,
    SetupError,
    check_handicap,
    game_from_position,
    game_record,
    kept_names,
    make_bots,
    new_game,
    parse_colour,
    read_record_file,
    seat_levels,
)
from shiftago.interfaces.tui.clock import Clocks
from shiftago.interfaces.tui.series import Series, SeriesError
from shiftago.interfaces.tui.words import opening_skips


class Match:
    """A game with its computer seats (``bots``, playing at ``levels``)."""

    def __init__(
        self,
        game: Game,
        *,
        bots: dict[int, Bot] | None = None,
        levels: dict[int, int] | None = None,
        autosave: Autosave | None = None,
        source: Record | None = None,
    ) -> None:
        self.game = game
        self.bots = bots or {}
        self.levels = levels or {}
        self.autosave = autosave
        self.source = source
        self.date = (source.date if source is not None else None) or date.today().isoformat()
        #: The players' clocks of a timed game (None: untimed).
        self.clocks: Clocks | None = None
        #: The seat whose time ran out, which ended the game.
        self.flagged: int | None = None
        #: The series this game is one of (None: a game on its own).
        self.tournament: Tournament | None = None
        #: The clocks' time source (the app hands in its own).
        self.now: Callable[[], float] = time.monotonic

    def opening_skips(self) -> list[str]:
        """What the log says first of a new game: the turns its handicaps skipped."""
        return opening_skips(self.game)

    def person_names(self) -> dict[int, str]:
        """The names a loaded or resumed record gives the seats people play (its
        records keep them, and the side panel shows them: a German walk saw only the
        colours)."""
        kept = kept_names(self.source, self.levels)
        return {seat: name for seat, name in kept.items() if name and seat not in self.levels}

    def setup_like(self, setup: PlaySetup) -> PlaySetup:
        """``setup`` with this game's kind: its variant, players, handicap, computer
        seats and level, clock and tournament, so that a new game asked for while this
        one is on the screen (a resumed or loaded one too) is offered as the same kind."""
        rules = self.game.rules
        levels = sorted(set(self.levels.values()))
        # each seat with its own level (g:2), so that seats at two levels stay so
        computer = tuple(
            f"{COLOURS[seat]}:{self.levels[seat]}" if seat in self.levels else COLOURS[seat]
            for seat in sorted(self.bots)
        )
        return replace(
            setup,
            variant=rules.variant.value,
            players=rules.players,
            handicap=rules.handicap if any(rules.handicap) else (),  # (0, 0): none
            computer=computer,
            level=levels[0] if len(levels) == 1 else setup.level,
            clock=self.clocks.control if self.clocks is not None else None,
            tournament=self.tournament is not None,
        )

    @property
    def winners(self) -> tuple[int, ...] | None:
        """Who won the game, once it has ended: by the rules, or by a clock (the seats
        other than the one whose time ran out); None while it goes on."""
        outcome = self.game.outcome
        if outcome is not None:
            return outcome.winners
        if self.flagged is not None:
            return flag_winners(self.game.rules.players, self.flagged)
        return None

    @property
    def wins(self) -> list[int] | None:
        """Each seat's games won in the tournament, the game just ended counted."""
        tournament = self.tournament
        if tournament is None:
            return None
        winners = self.winners
        if winners is None or tournament.is_over:
            return tournament.wins
        return list(tournament.score.after(winners).wins)

    @property
    def champion(self) -> int | None:
        """The tournament's winner, once the game that decides it has ended."""
        tournament = self.tournament
        winners = self.winners
        if tournament is None or winners is None:
            return None
        if tournament.winner is not None:
            return tournament.winner
        return tournament.score.after(winners).champion

    @property
    def tournament_unwon(self) -> bool:
        """Whether this game is one of a tournament that nobody has won yet."""
        return self.tournament is not None and self.champion is None

    @property
    def next_game_ready(self) -> bool:
        """Whether the tournament's next game may begin."""
        return self.finished and self.tournament_unwon

    def next_game(self) -> Game:
        """The tournament's next game, once this one is over (a :class:`ShiftagoError`
        when it is not, or when the tournament is); on a clock every game starts with
        the time control's whole time."""
        if self.tournament is None or not self.next_game_ready:
            raise GameOverError("there is no next game of a tournament to begin")
        self.game = self.tournament.next_game(self.winners)
        self.flagged = None
        self.source = None
        if self.clocks is not None:
            self.clocks = Clocks.parse(self.clocks.control, self.game.rules.players)
        self.saved()
        return self.game

    @property
    def finished(self) -> bool:
        """Whether the game has ended, by its rules or by a clock."""
        return self.game.is_over or self.flagged is not None

    @property
    def computer_to_move(self) -> bool:
        return not self.finished and self.game.turn in self.bots

    def flag(self, seat: int) -> Path | None:
        """``seat``'s time has run out: the others win (a draw shared when several); the
        record kept as the last game (its path)."""
        self.flagged = seat
        return self.saved()

    def play(self, action: Action) -> Action:
        """Play a legal action (a :class:`ShiftagoError` says why one is not); the action
        as the game holds it."""
        if self.flagged is not None:
            raise GameOverError("the game is over: a player's time has run out")
        before = self.game.turn
        self.game.play(action)
        clocks = self.clocks
        if clocks is not None:  # switched before the save, which keeps the time left
            running = None if self.game.is_over else self.game.turn
            ended = self.game.is_over or self.game.turn != before
            clocks.switch(running, self.now(), turn_ended=ended)
        self.saved()
        return self.game.history[-1]

    def take_back(self) -> list[Action]:
        """Take back the last action, or against the computer every action since the
        last one a person played; the actions taken back, last first ([] when none)."""
        game = self.game
        history = game.history
        if not history or self.flagged is not None:
            return []
        target = len(history) - 1
        if self.bots:
            states = game.states
            people = [i for i in range(len(history)) if states[i].turn not in self.bots]
            if not people:
                return []
            target = people[-1]
        taken = [game.undo() for _ in range(len(history) - target)]
        self.saved()
        return taken

    def record(self) -> Record:
        """The game's record, with its clocks' headers on a clock (as they stand now)."""
        winners = None if self.flagged is None else self.winners
        record = self._record_of(self.game, winners, self.source)
        if self.clocks is None:
            return record
        return replace(record, other_headers=self.clocks.headers(self.now()))

    def record_text(self) -> str:
        return format_record(self.record()) + "\n"

    def save_to(self, path: Path) -> None:
        """Write the record to ``path`` (an :class:`OSError` when it cannot be)."""
        if not path.parent.is_dir():
            raise FileNotFoundError(_("there is no folder %(path)s") % {"path": path.parent})
        write_atomically(path, self.record_text(), private=False)

    def saved(self) -> Path | None:
        """Keep the autosave in step: the game in progress, or when it ended its record
        as the last game (that file's path); and a tournament's series until it is won
        (a game that is not one replaces the series at its first action)."""
        autosave = self.autosave
        if autosave is None:
            return None
        tournament = self.tournament
        if self.tournament_unwon:
            autosave.save_series(self.series().text())
        elif tournament is not None or self.game.history:
            autosave.clear_series()
        if self.finished:
            return autosave.finish(self.record_text())
        if not self.game.history and self.game.first is not None:
            autosave.clear()  # back at the empty board: nothing to resume
        else:
            autosave.save(self.record_text())
        return None

    def _record_of(
        self, game: Game, on_time: tuple[int, ...] | None, source: Record | None = None
    ) -> Record:
        """``game``'s record; with ``on_time`` won by those seats when a clock ended it
        (the one way this app ends a game off the board)."""
        if on_time is None:
            return game_record(game, self.levels, self.date, source)
        result = "=".join(COLOURS[s] for s in on_time)
        return game_record(game, self.levels, self.date, source, result=result, termination="time")

    def series(self) -> Series:
        """The tournament as ``tournament.json`` keeps it (only for a tournament)."""
        tournament = self.tournament
        assert tournament is not None
        finished = [
            self._record_of(g, None if g.is_over else winners)
            for g, winners in zip(tournament.finished, tournament.results, strict=True)
        ]
        return Series.of(tournament, finished, self.record())


@dataclass(frozen=True)
class Saved:
    """An unfinished game in the autosave, and when it was saved; with the tournament
    it is a game of (``series``), when it is one."""

    record: Record
    when: str
    series: Series | None = None


def unfinished(autosave: Autosave) -> Saved | None:
    """The autosaved game (or tournament) that can be resumed; None when there is none.
    A file that cannot be read is set aside (as ``shiftago play`` does) and not
    offered; so is a tournament whose current game is no longer the autosave's (another
    program went on with that game)."""
    series = _kept_series(autosave)
    if not autosave.exists():
        if series is None:
            return None
        when = datetime.fromtimestamp(autosave.series_path.stat().st_mtime)
        return Saved(series.current, moment(when), series)
    try:
        record = parse_record(autosave.read())
        record.to_game()
        for number in record.levels:
            if number is not None:
                level_of(number)
    except (OSError, ShiftagoError, ValueError):
        autosave.set_aside("broken")
        return None
    if series is not None and series.current.to_game().history != record.to_game().history:
        autosave.series_path.replace(autosave.directory / "tournament-stale.json")
        series = None
    return Saved(record, moment(autosave.saved_at()), series)


def _kept_series(autosave: Autosave) -> Series | None:
    """The kept tournament, or None (one that cannot be read is moved aside)."""
    try:
        text = autosave.read_series()
        return None if text is None else Series.read(text)
    except (OSError, ShiftagoError, SeriesError):
        autosave.series_path.replace(autosave.directory / "tournament-broken.json")
        return None


def open_match(
    setup: PlaySetup,
    autosave: Autosave | None,
    resumed: Record | None,
    series: Series | None = None,
) -> Match:
    """The match the options ask for (or the ``resumed`` record, of the tournament
    ``series`` when given); a :class:`SetupError` says in one line why the options make
    no game."""
    if setup.load is not None and setup.position is not None:
        raise SetupError(_("give either --load or --position, not both"))
    record = resumed
    tournament: Tournament | None = None
    if series is not None:
        try:
            tournament = series.tournament()
        except SeriesError as e:
            raise SetupError(error_words(e)) from None
        game = tournament.game
        record = series.current
    else:
        if record is None and setup.load is not None:
            record = read_record_file(setup.load, setup.game_number)
        if setup.tournament and record is None and setup.position is None:
            tournament = _tournament(setup)
            game = tournament.game
        else:
            game = _game_asked_for(setup, record)
    players = game.rules.players
    wanted = seat_levels(setup, players, record)  # -c's for a resumed game too
    seed = setup.seed if setup.seed is not None else random.randrange(2**31)
    bots, levels = make_bots(wanted, seed)
    match = Match(game, bots=bots, levels=levels, autosave=autosave, source=record)
    match.tournament = tournament
    try:  # a record's clocks go on as it kept them; else the options' time control
        if record is not None:
            match.clocks = Clocks.from_headers(dict(record.other_headers), players)
        if match.clocks is None and setup.clock:
            match.clocks = Clocks.parse(setup.clock, players)
    except ValueError as e:
        raise SetupError(error_words(e)) from None
    return match


class RecordEndedError(SetupError):
    """The record to go on from holds a finished game: it can be replayed, not played."""


def _game_asked_for(setup: PlaySetup, record: Record | None) -> Game:
    """The game of ``record`` (the resumed one or ``--load``'s), else of ``--position``,
    else a new one."""
    if record is not None:
        try:
            game = record.to_game()
        except ShiftagoError as e:
            raise SetupError(error_words(e)) from None
        if record.termination is not None or game.is_over:
            raise RecordEndedError(
                _("the game ended (%(result)s)") % {"result": record_result(record, game)}
            )
        return game
    if setup.position is not None:
        game = game_from_position(setup, setup.position)
        if game.is_over:
            raise SetupError(_("--position: the game is over in this position"))
        return game
    return new_game(setup)


def _tournament(setup: PlaySetup) -> Tournament:
    """The tournament the options ask for: Express games to ten wins."""
    if setup.variant != "express":
        raise SetupError(_("a tournament is a series of Express games: leave out --variant"))
    first = None if setup.first is None else parse_colour(setup.first, setup.players)
    check_handicap(setup.handicap, setup.players)
    try:
        return Tournament(setup.players, handicap=setup.handicap, first=first, seed=setup.seed)
    except ValueError as e:
        raise SetupError(error_words(e)) from None


def flag_winners(players: int, flagged: int) -> tuple[int, ...]:
    """The seats that win when ``flagged``'s time runs out: all the others (a draw
    shared among them with 3-4 players)."""
    return tuple(seat for seat in range(players) if seat != flagged)
