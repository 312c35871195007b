"""``shiftago play``: a game at the terminal, one line of input per action or command.

It reads lines from any text stream, so it plays the same at a terminal and with piped
input: a prompt never waits past the end of the input, which ends the session after the
game has been saved. The game in progress is saved after every action (see
:mod:`shiftago.interfaces.shared.autosave`) and the next session offers to resume it.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from datetime import date
from pathlib import Path
from typing import TextIO

from shiftago.core import Action, Game, Insertion, Phase, ShiftagoError, State
from shiftago.engine.bot import Bot, Limits
from shiftago.formats.record import Record, format_record
from shiftago.formats.text_board import render_text
from shiftago.interfaces.play.commands import (
    BOARD,
    HELP,
    LEGAL,
    POSITION,
    QUIT,
    RULES,
    SAVE,
    UNDO,
    command_of,
    fill,
    help_text,
    text_width,
    usage,
    word_of,
    yes_no_again,
    yes_no_hint,
    yes_or_no,
)
from shiftago.interfaces.shared.autosave import Autosave, write_atomically
from shiftago.interfaces.shared.catalogues import N_, _, ngettext
from shiftago.interfaces.shared.game_words import (
    colour_name,
    describe_options,
    describe_outcome,
    error_words,
    opening_skipped_turns,
    skipped_turns,
    status,
)
from shiftago.interfaces.shared.how_to_play import VARIANT_RULES
from shiftago.interfaces.shared.message import one_line
from shiftago.interfaces.shared.newgame import game_record
from shiftago.interfaces.shared.refusals import action_reason, precise_reason, refusal_words

#: How a turn is typed here, before each variant's rules (the ``rules`` command).
TURN = N_(
    "Every turn, push one of your marbles in from an edge: type the side and the lane, "
    "such as L3 (from the left, rank 3), R5 (from the right), Tc (from the top, file c) or "
    "Bf (from the bottom). The marbles in that lane shift along into its first gap; a full "
    "lane cannot be played."
)


class LineReader:
    """Reads one line per prompt; ``None`` at the end of the input.

    At a terminal it uses :func:`input` (line editing); otherwise it writes the prompt,
    reads a line and echoes it, so that a piped session reads like a typed one.
    """

    def __init__(self, inp: TextIO, out: TextIO) -> None:
        self.inp = inp
        self.out = out
        self.interactive = inp is sys.stdin and out is sys.stdout and _isatty(inp)

    def read(self, prompt: str) -> str | None:
        if self.interactive:
            try:
                return input(prompt)
            except EOFError:
                self.out.write("\n")
                return None
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            self.out.write("\n")
            return None
        line = line.rstrip("\r\n")
        self.out.write(line + "\n")
        return line

    def ask_yes_no(self, question: str, default: bool = True) -> bool | None:
        """A yes/no answer (empty means ``default``); ``None`` at the end of the input."""
        while True:
            answer = self.read(question + yes_no_hint(default))
            if answer is None:
                return None
            word = answer.strip().lower()
            if not word:
                return default
            said = yes_or_no(word)
            if said is not None:
                return said
            self.out.write(yes_no_again() + "\n")


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class Session:
    """One game at the terminal: the human seats type, the computer seats think."""

    def __init__(
        self,
        game: Game,
        reader: LineReader,
        out: TextIO,
        *,
        bots: dict[int, Bot] | None = None,
        levels: dict[int, int] | None = None,
        autosave: Autosave | None = None,
        color: bool = False,
        record_date: str | None = None,
        saved: bool = False,
        source: Record | None = None,
    ) -> None:
        self.game = game
        self.reader = reader
        self.out = out
        self.bots = bots or {}
        self.levels = levels or {}
        self.autosave = autosave
        self.color = color
        self.date = record_date or date.today().isoformat()
        self._shown = False
        self._finished = False
        #: Whether the autosave holds this game (it was resumed, or saved since).
        self._saved = saved
        #: The record the game goes on from (loaded or resumed): its names and event
        #: stay in the records written.
        self.source = source

    # --- output ---------------------------------------------------------------------
    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def say_wrapped(self, text: str) -> None:
        """``text``'s paragraphs (blank lines between) filled to the terminal's width
        (:func:`.commands.text_width`): a long line broke words where the terminal ran out
        ("S / palte", a German walk), and 100 columns broke on 80 (an Italian family).
        Notation and paths are never broken."""
        self.say(fill(text, text_width()))

    def seat_label(self, seat: int) -> str:
        if seat in self.bots:
            return _("%(colour)s (computer)") % {"colour": colour_name(seat)}
        return colour_name(seat)

    def show(self) -> None:
        """The board, the status and, when a person is to score, the options."""
        state = self.game.state
        history = self.game.history
        last = history[-1] if history else None
        self.say(render_text(state, color=self.color, last_action=last))
        head, _newline, rows = status(state).partition("\n")
        self.say_wrapped(head)  # a result's sentence may be longer than the terminal
        self.say(rows)
        if state.phase is Phase.SCORE and state.turn not in self.bots:
            for line in describe_options(state):
                self.say(line)
        self._shown = True

    def prompt(self) -> str:
        state = self.game.state
        if state.is_over:
            return _("game over> ")
        colour = {"colour": colour_name(state.turn)}
        if state.phase is Phase.SCORE:
            return _("%(colour)s to score> ") % colour
        return _("%(colour)s to insert> ") % colour

    def record(self) -> Record:
        return game_record(self.game, self.levels, self.date, self.source)

    def record_text(self) -> str:
        return format_record(self.record()) + "\n"

    # --- the loop -------------------------------------------------------------------
    def run(self) -> int:
        """Play until ``quit`` or the end of the input; the exit status (0)."""
        try:
            return self._loop()
        except KeyboardInterrupt:
            self.say()
            self._say_saved(N_("Interrupted"))
            return 130

    def _loop(self) -> int:
        self._announce_start_skips()
        while True:
            if not self._shown:  # the start, and every change: the computer's too (its x)
                self.show()
                self._check_finished()
            game = self.game
            if not game.is_over and game.turn in self.bots:
                self.computer_move()
                continue
            line = self.reader.read(self.prompt())
            if line is None:
                if not self.game.is_over:
                    self._say_saved(N_("Input ended"))
                return 0
            if not self.handle(line):
                return 0

    def handle(self, line: str) -> bool:
        """Carry out one line of input; False when the session should end."""
        text = line.strip()
        if not text:
            return True
        word, _space, rest = text.partition(" ")
        command = command_of(word)
        rest = rest.strip()
        if command is QUIT and not rest:
            if not self.game.is_over:
                self._say_saved(N_("Leaving"))
            return False
        if command is not None and not command.takes_file and rest:
            self.error(
                _("%(command)s takes nothing after it, got %(rest)s")
                % {"command": word.lower(), "rest": repr(rest)}
            )
        elif command is HELP:
            self.say(help_text(text_width()))
        elif command is RULES:
            self.say_wrapped("\n\n".join(_(text) for text in (TURN, *VARIANT_RULES)))
        elif command is LEGAL:
            legal = self.game.legal_actions()
            self.say(" ".join(str(a) for a in legal) if legal else _("no legal actions: game over"))
        elif command is UNDO:
            self.undo()
        elif command is SAVE:
            self.save(word.lower(), rest)
        elif command is BOARD:
            self.show()
        elif command is POSITION:
            self.say(self.game.position())
        else:
            self.human_action(text)
        return True

    def error(self, message: str) -> None:
        self.say(_("error: %(message)s") % {"message": one_line(message)})

    # --- actions --------------------------------------------------------------------
    def human_action(self, text: str) -> None:
        try:
            action = Action.parse(text)
        except ShiftagoError as e:
            if text[0].lower() in "lrtbx":
                reason = action_reason(self.game.state, None, e)
                self.error(refusal_words(reason, repr(text), ""))
            else:
                self.error(
                    _("%(text)s is not an action or a command (type %(help)s for the list)")
                    % {"text": repr(text), "help": word_of(HELP)}
                )
            return
        self.play(action, by_computer=False)

    def computer_move(self) -> None:
        seat = self.game.turn
        if self.reader.interactive:  # at a terminal a search of seconds needs a word
            # ASCII in English: any terminal encodes it
            self.say(_("%(who)s is thinking...") % {"who": self.seat_label(seat)})
        try:
            action = self.bots[seat].choose(self.game.state, Limits())
        except ValueError as e:  # a bot that fails must not lose the human's game
            self.error(_("the computer could not move: %(error)s") % {"error": error_words(e)})
            del self.bots[seat]
            return
        self.play(action, by_computer=True)

    def play(self, action: Action, *, by_computer: bool) -> None:
        before = self.game.state
        try:
            self.game.play(action)
        except ShiftagoError as e:
            reason = precise_reason(before, action, e)
            name = colour_name(before.turn)
            self.error(refusal_words(reason, str(action), name[:1].upper() + name[1:]))
            return
        self.announce(before, self.game.history[-1], by_computer)
        self._shown = False
        self._after_change()

    def announce(self, before: State, action: Action, by_computer: bool) -> None:
        mover = before.turn
        who = self.seat_label(mover) if by_computer or self.bots else colour_name(mover)
        after = self.game.state
        if isinstance(action, Insertion):
            self.say(_("%(who)s plays %(action)s") % {"who": who, "action": action})
        else:
            gained = after.scores[mover] - before.scores[mover]
            values = {"who": who, "action": action, "n": gained, "total": after.scores[mover]}
            if after.phase is not Phase.OVER:
                said = ngettext(
                    "%(who)s scores %(action)s: %(n)d point, %(total)d in all; moves again",
                    "%(who)s scores %(action)s: %(n)d points, %(total)d in all; moves again",
                    gained,
                )
            else:
                said = ngettext(
                    "%(who)s scores %(action)s: %(n)d point, %(total)d in all",
                    "%(who)s scores %(action)s: %(n)d points, %(total)d in all",
                    gained,
                )
            self.say(said % values)
        self._announce_skips(before.skips, after.skips, (mover + 1) % len(after.skips))

    def _announce_start_skips(self) -> None:
        """At the start of a new game, the turns its handicaps skipped before the first
        action (the first seat's among them)."""
        for words in opening_skipped_turns(self.game):
            self.say(words)

    def _announce_skips(self, before: Sequence[int], after: Sequence[int], seat: int) -> None:
        """Say the turns a handicap skipped (:func:`.game_words.skipped_turns`)."""
        for words in skipped_turns(before, after, seat):
            self.say(words)

    def undo(self) -> None:
        game = self.game
        history = game.history
        if not history:
            self.error(_("there is no action to take back"))
            return
        target = len(history) - 1
        if self.bots:
            states = game.states
            humans = [i for i in range(len(history)) if states[i].turn not in self.bots]
            if not humans:
                self.error(_("there is no action of yours to take back"))
                return
            target = humans[-1]
        taken = [game.undo() for _step in range(len(history) - target)]
        actions = " ".join(str(a) for a in reversed(taken))
        self.say(_("took back %(actions)s") % {"actions": actions})
        self._finished = False
        self._shown = False
        self._after_change()

    def save(self, word: str, filename: str) -> None:
        """Write the record to ``filename``, as ``word`` (save, or the language's word)
        asked."""
        if len(filename) >= 2 and filename[0] == filename[-1] and filename[0] in "'\"":
            filename = filename[1:-1]  # a name quoted as in a shell: the quotes are not in it
        if not filename:
            self.error(
                _("%(command)s needs a file name: %(command)s %(file)s")
                % {"command": word, "file": _("FILE")}
            )
            return
        path = Path(filename).expanduser()
        if not path.parent.is_dir():  # a mistyped folder is not made: it is said
            self.error(
                _("cannot write %(path)s: there is no folder %(folder)s")
                % {"path": path, "folder": path.parent}
            )
            return
        try:
            write_atomically(path, self.record_text(), private=False)
        except OSError as e:
            self.error(
                _("cannot write %(path)s: %(error)s") % {"path": path, "error": e.strerror or e}
            )
            return
        self.say(_("saved the record to %(path)s") % {"path": path})

    # --- autosave -------------------------------------------------------------------
    def _after_change(self) -> None:
        if self.autosave is None or self.game.is_over:
            return
        if not self.game.history and self.game.first is not None:
            # Back at the empty board: nothing to resume.
            self.autosave.clear()
            self._saved = False
            return
        try:
            self.autosave.save(self.record_text())
            self._saved = True
        except OSError as e:
            where = {"path": self.autosave.path, "error": e.strerror or e}
            self.error(_("cannot autosave to %(path)s: %(error)s") % where)

    def _check_finished(self) -> None:
        """When the game has just ended: the result, and the record kept as the last game."""
        game = self.game
        if not game.is_over or self._finished:
            return
        self._finished = True
        outcome = game.outcome
        assert outcome is not None
        self.say(_("Game over: %(result)s.") % {"result": describe_outcome(outcome)})
        kept = None
        if self.autosave is not None:
            try:
                kept = self.autosave.finish(self.record_text())
            except OSError as e:
                where = {"path": self.autosave.last_game_path, "error": e.strerror or e}
                self.error(_("cannot write %(path)s: %(error)s") % where)
        words = {"save": usage(SAVE, "\u00a0"), "undo": word_of(UNDO), "quit": word_of(QUIT)}
        if kept:
            self.say_wrapped(
                _(
                    "The record is in %(path)s; type '%(save)s' to save it, '%(undo)s' to "
                    "take back, '%(quit)s' to leave."
                )
                % {"path": kept, **words}
            )
        else:
            self.say_wrapped(
                _("type '%(save)s' to save it, '%(undo)s' to take back, '%(quit)s' to leave.")
                % words
            )

    def _say_saved(self, why: str) -> None:
        """``why`` the session ends (a msgid: "Leaving", ...), and whether the game is
        kept to resume."""
        if self._saved and self.autosave is not None and self.autosave.exists():
            said = _("%(why)s: the game is saved; 'shiftago play' offers to resume it.")
        else:
            said = _("%(why)s.")
        self.say(said % {"why": _(why)})
