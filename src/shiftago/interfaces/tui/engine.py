"""The engine's lines beside the board (F5): the top level's three best lines of the
position shown, the game's or a replay's, deepening in a worker thread until the
position changes or F5 turns them off.

A mixin of :class:`~shiftago.interfaces.tui.app.ShiftagoApp`, kept apart because the
engine that helps the player is one concept, the game on the screen another. The app
supplies the widgets, the position shown and the redraw; the annotations below name
what it supplies without defining it, so that the app's own methods are the ones used.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from textual import work
from textual.widgets import Static

from shiftago.core import State
from shiftago.engine.bot import Limits, Progress
from shiftago.engine.levels import bot_for_level, default_level
from shiftago.interfaces.tui.match import Match
from shiftago.interfaces.tui.panel import engine_lines


class EngineLines:
    """F5's lines: on and off, set on the position shown, reported at each depth."""

    match: Match
    replay_at: int | None
    #: The engine's budget (tests give a small one); None: until the position changes.
    engine_limits: Limits | None
    engine_on: bool
    engine_stop: threading.Event
    #: The position the engine's lines are of (None: none yet, or to look again).
    engine_state: State | None
    call_from_thread: Callable[..., Any]
    call_after_refresh: Callable[..., Any]

    def redraw(self) -> None:
        raise NotImplementedError

    def lines_box(self) -> Static:
        """The widget the lines are written in."""
        raise NotImplementedError

    def _log_to_end(self) -> None:
        raise NotImplementedError

    def action_engine(self) -> None:
        self.engine_on = not self.engine_on
        self.engine_stop.set()
        self.engine_state = None
        self.redraw()  # which sets the engine on the position shown
        if self.engine_on:
            self.call_after_refresh(self._log_to_end)  # the lines take rows from the log

    def _engine_follow(self, state: State) -> None:
        """Set the engine on ``state``, the position shown: the game's, or a replay's.
        A position with no action left says so: the lines of an earlier position stayed
        beside a finished game and its replay (a German walk)."""
        self.engine_stop.set()
        self.engine_state = state
        lines = self.lines_box()
        over = state.outcome is not None or (self.replay_at is None and self.match.finished)
        lines.update(engine_lines(None, over=over))
        if not over:
            self.engine_stop = threading.Event()
            self.analyse(state, self.engine_stop)

    @work(thread=True, group="engine")
    def analyse(self, state: State, stop: threading.Event) -> None:
        """The engine's lines for the position, reported at each depth until ``stop``."""
        bot = bot_for_level(default_level(), 1)

        def report(progress: Progress) -> None:
            self.call_from_thread(self._engine_reported, stop, progress)

        if self.engine_limits is None:
            limits = Limits(infinite=True, stop=stop, lines=3, progress=report)
        else:
            limits = replace(self.engine_limits, stop=stop, lines=3, progress=report)
        bot.analyse(state, limits)

    def _engine_reported(self, stop: threading.Event, progress: Progress) -> None:
        if stop is self.engine_stop and not stop.is_set() and self.engine_on:
            self.lines_box().update(engine_lines(progress))
