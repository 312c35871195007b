"""Setting up ``shiftago play``: a new game, a record or position to go on from, or the
unfinished game of the autosave; and the computer players of the seats that have one.
"""

from __future__ import annotations

import random
from typing import TextIO

from shiftago.core import Game, ShiftagoError
from shiftago.engine.levels import level as level_of
from shiftago.formats.record import Record, parse_record
from shiftago.formats.text_board import use_color
from shiftago.interfaces.play.commands import (
    QUIT,
    command_of,
    is_action,
    yes_no_again,
    yes_no_hint,
    yes_or_no,
)
from shiftago.interfaces.play.session import LineReader, Session
from shiftago.interfaces.shared.autosave import Autosave
from shiftago.interfaces.shared.catalogues import _, moment, ngettext
from shiftago.interfaces.shared.game_words import error_words, record_result
from shiftago.interfaces.shared.newgame import (
    PlaySetup,
    SetupError,
    game_from_position,
    make_bots,
    new_game,
    read_record_file,
    seat_levels,
)


def _resume(
    setup: PlaySetup, autosave: Autosave, reader: LineReader, out: TextIO
) -> Record | bool | None:
    """The autosaved record to go on from; None: start anew; False: the input ended."""
    if not autosave.exists():
        if setup.resume:
            out.write(_("There is no unfinished game to resume: a new game starts.") + "\n")
        return None
    if setup.resume is False:
        return None
    if setup.resume is None:
        when = moment(autosave.saved_at())
        answer = _ask_to_resume(reader, when)
        if answer is None:
            return False
        if not answer:
            starting = _("Starting a new game (the unfinished one is replaced at its first move).")
            out.write(starting + "\n")
            return None
    try:
        record = parse_record(autosave.read())
        record.to_game()
        for level in record.levels:
            if level is not None:
                level_of(level)
    except (OSError, ShiftagoError, ValueError) as e:
        broken = autosave.set_aside("broken")
        said = _("The saved game cannot be read (%(error)s); it was moved to %(path)s.")
        out.write(said % {"error": error_words(e), "path": broken} + "\n")
        return None
    return record


def _keep_unfinished(autosave: Autosave | None, out: TextIO) -> None:
    """A game from ``--load`` or ``--position`` is autosaved in the autosave's place:
    the unfinished game there is moved to a file of its own first, and said where."""
    if autosave is None or not autosave.exists():
        return
    when = autosave.saved_at()
    kept = autosave.set_aside_by_date()
    said = _(
        "The unfinished game from %(when)s is kept in %(path)s "
        "(shiftago play --load %(path)s goes on with it)."
    )
    out.write(said % {"when": moment(when), "path": kept} + "\n")


def _ask_to_resume(reader: LineReader, when: str) -> bool | None:
    """Whether to resume the autosave of ``when``; None at the end of the input or at
    ``quit``. A line meant for the game (an action or a command) is no answer: a script
    written for a new game would otherwise spend every line on the question, so it ends
    the setup with a :class:`SetupError` that names ``--resume`` and ``--new``."""
    while True:
        answer = reader.read(
            _("Resume the unfinished game from %(when)s?") % {"when": when} + yes_no_hint(True)
        )
        if answer is None:
            return None
        word = answer.strip().lower()
        said = True if not word else yes_or_no(word)
        if said is not None:
            return said
        if command_of(word) is QUIT:
            return None
        if command_of(word.split()[0]) is not None or is_action(word):
            raise SetupError(
                _(
                    "an unfinished game from %(when)s is saved, and %(answer)s does not say "
                    "whether to go on with it: give --resume to go on with it, or --new to "
                    "start a new game (which replaces it at its first move)"
                )
                % {"when": when, "answer": repr(answer.strip())}
            )
        reader.out.write(yes_no_again() + "\n")


def _refuse_unused_options(setup: PlaySetup) -> None:
    """Options that a game from a record or a position would not use (with the autosave
    they make the game started when there is none to resume)."""
    options = ", ".join(f"--{name}" for name in setup.given)
    source = "--load" if setup.load is not None else "--position" if setup.position else None
    if source is not None and options:
        raise SetupError(
            _("%(options)s set up a new game; %(source)s takes them from the game")
            % {"options": options, "source": source}
        )
    if setup.load is not None and setup.limit is not None:
        raise SetupError(_("--limit applies to a new game or a --position, not to --load"))


def prepare(
    setup: PlaySetup, inp: TextIO, out: TextIO, autosave: Autosave | None = None
) -> Session | None:
    """The session the options ask for; None when the input ended before it began."""
    reader = LineReader(inp, out)
    if setup.load is not None and setup.position is not None:
        raise SetupError(_("give either --load or --position, not both"))
    _refuse_unused_options(setup)
    if setup.level is not None:
        try:
            level_of(setup.level)  # a level that does not exist, with or without -c
        except ValueError as e:
            raise SetupError(error_words(e)) from None
    record: Record | None = None
    record_date = None
    resumed_autosave = False
    if setup.load is not None:
        record = read_record_file(setup.load, setup.game_number)
        game = _game_of(record, str(setup.load))
        if record.termination is not None or game.is_over:
            raise SetupError(
                _("%(path)s: the game ended (%(result)s); there is nothing to play on")
                % {"path": setup.load, "result": record_result(record, game)}
            )
        record_date = record.date
        _keep_unfinished(autosave, out)
    elif setup.position is not None:
        game = game_from_position(setup, setup.position)
        if game.is_over:  # a full board, or an empty supply to move: it ends at once
            outcome = game.outcome
            why = "?" if outcome is None else outcome.reason.value
            raise SetupError(
                _(
                    "--position: the game is over in this position (%(why)s); there is "
                    "nothing to play on"
                )
                % {"why": why}
            )
        _keep_unfinished(autosave, out)
    else:
        resumed = None if autosave is None else _resume(setup, autosave, reader, out)
        if resumed is False:
            return None
        if isinstance(resumed, Record):
            record = resumed
            game = resumed.to_game()
            record_date = resumed.date
            resumed_autosave = True
            played = len(game.history)
            resuming = ngettext(
                "Resuming the game: %(n)d action played.",
                "Resuming the game: %(n)d actions played.",
                played,
            )
            out.write(resuming % {"n": played} + "\n")
            unused = [*setup.given, *(["limit"] if setup.limit is not None else [])]
            if unused:
                options = ", ".join(f"--{name}" for name in unused)
                said = _("(%(options)s: for a new game, not used for the game resumed.)")
                out.write(said % {"options": options} + "\n")
        else:
            game = new_game(setup)
    if setup.level is not None and not setup.computer:  # a resumed game's seats too
        raise SetupError(_("--level is the level of the computer's seats: give them with -c"))
    wanted = seat_levels(setup, game.rules.players, record)
    seed = setup.seed if setup.seed is not None else random.randrange(2**31)
    bots, levels = make_bots(wanted, seed)
    return Session(
        game,
        reader,
        out,
        bots=bots,
        levels=levels,
        autosave=autosave,
        color=use_color(out),
        record_date=record_date,
        saved=resumed_autosave,
        source=record,
    )


def play_game(setup: PlaySetup, inp: TextIO, out: TextIO) -> int:
    """``shiftago play``: the game the options ask for, autosaved in the data directory
    and played to its end; the exit status. Options that make no game raise
    :class:`SetupError`."""
    autosave = Autosave()
    try:
        session = prepare(setup, inp, out, autosave)
    except KeyboardInterrupt:
        # Ctrl-C at the resume question or while the computer warms up: nothing is lost
        if autosave.exists():
            said = _(
                "Interrupted before the game began. The unfinished game stays saved; "
                "'shiftago play' offers to resume it."
            )
        else:
            said = _("Interrupted before the game began.")
        out.write("\n" + said + "\n")
        return 130
    return 0 if session is None else session.run()


def _game_of(record: Record, where: str) -> Game:
    try:
        return record.to_game()
    except ShiftagoError as e:
        raise SetupError(f"{where}: {error_words(e)}") from None
