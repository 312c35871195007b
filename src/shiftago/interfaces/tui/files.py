"""The app's record files: F4 saves the game shown, F3 goes on from a record.

A mixin of :class:`~shiftago.interfaces.tui.app.ShiftagoApp`, kept apart because the two
dialogs and their answers are one concept (files), not the game on the screen.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from textual.screen import ModalScreen

from shiftago.interfaces.shared.catalogues import _
from shiftago.interfaces.shared.game_words import error_words
from shiftago.interfaces.shared.message import one_line
from shiftago.interfaces.shared.newgame import PlaySetup, SetupError
from shiftago.interfaces.tui.dialogs import PathScreen
from shiftago.interfaces.tui.match import Match, RecordEndedError, open_match

T = TypeVar("T")


class RecordFiles:
    """Saving and loading records; the app supplies the game, the log and the dialogs."""

    match: Match

    def say(self, text: str) -> None:
        raise NotImplementedError

    def ask(self, screen: ModalScreen[T], answered: Callable[[T | None], None]) -> None:
        raise NotImplementedError

    def begin(self, match: Match) -> None:
        raise NotImplementedError

    def action_save(self) -> None:
        question = _("Save the record to the file:")
        self.ask(PathScreen(question, "shiftago.txt"), self._saving)

    def _saving(self, path: Path | None) -> None:
        if path is None:
            return
        try:
            self.match.save_to(path)
        except OSError as e:
            self.say(
                _("Cannot write %(path)s: %(why)s") % {"path": str(path), "why": error_words(e)}
            )
            return
        self.say(_("Saved the record to %(path)s.") % {"path": str(path)})

    def action_load(self) -> None:
        self.ask(PathScreen(_("Go on from the game in the record file:")), self._loading)

    def _loading(self, path: Path | None) -> None:
        if path is None:
            return
        autosave = self.match.autosave
        try:
            match = open_match(PlaySetup(load=path), autosave, None)
        except SetupError as e:
            self.say(
                _("Cannot go on from %(path)s: %(why)s")
                % {"path": str(path), "why": one_line(error_words(e))}
            )
            if isinstance(e, RecordEndedError):
                # a path with spaces is quoted, so that the command can be pasted as it is
                words = _("A finished game is replayed with: %(command)s")
                self.say(words % {"command": f"shiftago show {shlex.quote(str(path))}"})
            return
        self.say(_("Loaded the game from %(path)s.") % {"path": str(path)})
        self.keep_unfinished()
        try:
            match.saved()
        except OSError as e:
            self.say(_("The game cannot be saved: %(why)s") % {"why": error_words(e)})
        self.begin(match)

    def keep_unfinished(self) -> None:
        """Before another game takes the autosave's place: the game on the screen, when
        unfinished, and a tournament not yet won go to files of their own, said where (an
        Italian family lost four tournament games to F2's new game)."""
        autosave = self.match.autosave
        if autosave is None:
            return
        try:
            if autosave.exists() and not self.match.game.is_over:
                kept = autosave.set_aside_by_date()  # its tournament beside it
                self.say(
                    _("The unfinished game is kept in %(path)s (F3 goes on with it).")
                    % {"path": str(kept)}
                )
            elif self.match.tournament_unwon and autosave.series_path.is_file():
                kept = autosave.set_aside_series()
                self.say(_("The tournament so far is kept in %(path)s.") % {"path": str(kept)})
        except OSError as e:
            self.say(_("The game cannot be saved: %(why)s") % {"why": error_words(e)})
