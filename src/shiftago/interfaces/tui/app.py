"""The Textual app: the board in place, the seats and the log beside it, the input line
below, the computer and the engine thinking in worker threads.

The app's words are catalogue messages read when its modules are imported, so the
command line chooses the language (``use_language``) before it imports this module.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import replace
from typing import ClassVar, Final, TypeVar

from textual import events, work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.suggester import SuggestFromList
from textual.widgets import Footer, Header, Input, OptionList, Static
from textual.widgets.option_list import Option

from shiftago.core import Action, Phase, ScoringOption, ShiftagoError, State
from shiftago.engine.bot import NO_LIMITS, Bot, Limits, smaller
from shiftago.engine.levels import LevelBot, bot_for_level
from shiftago.engine.review import iter_review
from shiftago.interfaces.shared.catalogues import _, ngettext
from shiftago.interfaces.shared.game_words import error_words
from shiftago.interfaces.shared.message import one_line
from shiftago.interfaces.shared.newgame import PlaySetup, SetupError
from shiftago.interfaces.shared.refusals import precise_reason, refusal_words
from shiftago.interfaces.tui.board import SUBMIT, BoardView, TypedAhead
from shiftago.interfaces.tui.clock import shown
from shiftago.interfaces.tui.dialogs import HelpScreen, NewGameScreen, ResumeScreen
from shiftago.interfaces.tui.engine import EngineLines
from shiftago.interfaces.tui.files import RecordFiles
from shiftago.interfaces.tui.match import Match, Saved, open_match
from shiftago.interfaces.tui.panel import match_heading, record_text, seats
from shiftago.interfaces.tui.style import APP_CSS
from shiftago.interfaces.tui.terminal_size import cut_off_words, cuts_off
from shiftago.interfaces.tui.transcript import Transcript
from shiftago.interfaces.tui.words import action_words, colour, option_text, result, sentence

T = TypeVar("T")

#: The level whose search reviews a finished game (its budget is fixed, not timed).
REVIEW_LEVEL: Final = 4


class ShiftagoApp(RecordFiles, EngineLines, App[int]):
    """Shiftago at the terminal; the exit status is its return value."""

    TITLE = "Shiftago"
    ENABLE_COMMAND_PALETTE = False
    CSS = APP_CSS
    # The footer shows the keys in this order, the most used first: on a narrow screen
    # in a language of long words the last ones go past its edge (F1 lists them all).
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1", "help", _("Help"), priority=True),
        # Shown only between a tournament's games.
        Binding("f8", "next_game", _("Next game"), priority=True),
        Binding("f2", "new_game", _("New game"), priority=True),
        Binding("ctrl+z,f6", "take_back", _("Take back"), priority=True),
        Binding("f7", "replay", _("Replay"), priority=True),
        Binding("f5", "engine", _("Engine"), priority=True),
        Binding("f3", "load", _("Load"), priority=True),
        Binding("f4", "save", _("Save"), priority=True),
        Binding("escape", "focus_board", _("Board"), show=False),
        # Ctrl+Q quits, as in every Textual app (Ctrl+C says so, and so does F1).
        Binding("ctrl+q", "quit", _("Quit"), show=False, priority=True),
    ]

    def __init__(
        self,
        match: Match,
        *,
        setup: PlaySetup | None = None,
        unfinished: Saved | None = None,
        computer_limits: Limits = NO_LIMITS,
        engine_limits: Limits | None = None,
        review_limits: Limits = NO_LIMITS,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        """``unfinished``: an autosaved game to offer before ``match`` begins; the limits
        bound the computer's seats, the engine's lines (None: until stopped) and the
        review of a finished game (tests give small ones)."""
        super().__init__()
        self.match = match
        self.setup = setup or PlaySetup()
        self.unfinished = unfinished
        self.computer_limits = computer_limits
        self.engine_limits = engine_limits
        self.review_limits = review_limits
        #: The clocks' time source (tests hand in their own).
        self.now = now
        #: Counts the changes of the game: a worker's answer for an older one is dropped.
        self.version = 0
        self.stop = threading.Event()
        self.engine_on = False
        self.engine_stop = threading.Event()
        #: The position the engine's lines are of (None: none yet, or to look again).
        self.engine_state: State | None = None
        self.review_stop = threading.Event()
        self.thinking = False
        self.marks: dict[int, str] = {}
        self.reviewed_version = -1
        #: The replay's position (actions shown), None when the game is shown as it is.
        self.replay_at: int | None = None
        #: What the log has said, in order (a transcript that outlives the screen).
        self.said: list[str] = []
        #: Lines the log says when the app starts.
        self.notices: list[str] = []
        #: Whether the terminal cuts parts of the game off (said once as it began to).
        self._cut_off = False

    # --- layout ------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="main"):
            with Vertical(id="board-box"):
                yield BoardView(self.match.game.state, id="board")
            with Vertical(id="side"):
                yield Static(id="heading")
                yield Static(id="seats")
                yield OptionList(id="options")
                yield Static(id="lines")
                with VerticalScroll(id="record-box"):
                    yield Static(id="record")
                # lines wrap at the pane's width, again when it changes
                yield Transcript(self.said, id="log")
        yield Input(
            placeholder=_("Type an action (L3, Tc, xc3-g3) and press Enter"),
            id="command",
            select_on_focus=False,
        )
        yield Footer(compact=True)

    @property
    def board(self) -> BoardView:
        return self.query_one("#board", BoardView)

    def on_mount(self) -> None:
        self.query_one("#options", OptionList).display = False  # until a scoring is due
        self.board.focus()
        self._say_if_cut_off(self.size.width, self.size.height)
        for notice in self.notices:
            self.say(notice)
        self.set_interval(0.1, self.tick)
        if self.unfinished is not None:
            saved = self.unfinished
            played = len(saved.record.to_game().history)
            number = None if saved.series is None else len(saved.series.finished) + 1
            self.push_screen(ResumeScreen(saved.when, played, number), self._resume_answered)
            return
        self.begin(self.match)

    def _resume_answered(self, resume: bool | None) -> None:
        saved = self.unfinished
        self.unfinished = None
        if resume and saved is not None:
            try:
                match = open_match(self.setup, self.match.autosave, saved.record, saved.series)
            except SetupError as e:
                self.say(_("The saved game cannot be resumed: %(why)s") % {"why": error_words(e)})
                match = self.match
            else:
                self.say(
                    ngettext(
                        "Resuming the game: %(n)s action played.",
                        "Resuming the game: %(n)s actions played.",
                        len(match.game.history),
                    )
                    % {"n": len(match.game.history)}
                )
            self.begin(match)
            return
        self.begin(self.match)

    def begin(self, match: Match) -> None:
        """Show ``match`` and play it from where it stands."""
        self.stop.set()
        self.review_stop.set()
        self.reviewed_version = -1
        self.match = match
        match.now = self.now
        self.marks = {}
        self.replay_at = None
        if match.clocks is not None and not match.finished:
            match.clocks.switch(match.game.turn, self.now(), turn_ended=False)
        for words in match.opening_skips():
            self.say(words)
        self.changed()

    # --- showing -----------------------------------------------------------------
    def say(self, text: str) -> None:
        self.said.append(text)
        self.query_one("#log", Transcript).write(text)

    def _log_to_end(self) -> None:
        self.query_one("#log", Transcript).scroll_end(animate=False)

    def changed(self) -> None:
        """The game changed: draw it again and start whoever thinks next."""
        self.version += 1
        self.stop.set()
        self.engine_stop.set()
        self.engine_state = None  # the redraw sets the engine on the position shown
        self.thinking = False
        self.redraw()
        match = self.match
        if match.computer_to_move and self.replay_at is None:
            self.thinking = True
            self.stop = threading.Event()
            seat = match.game.turn
            limits = replace(self.computer_limits, stop=self.stop)
            clocks = match.clocks
            if clocks is not None:
                left = int(clocks.left_of(seat, self.now()) * 1000)
                limits = replace(limits, clock_ms=left, increment_ms=int(clocks.increment * 1000))
            self.think(self.version, match.bots[seat], match.game.state, limits)
        if match.finished and self.reviewed_version < 0:
            self.reviewed_version = self.version
            self.review_stop = threading.Event()
            self.review(self.version)
        self.redraw()

    def shown_state(self) -> State:
        """The position on the screen: the replay's, or the game's as it stands."""
        game = self.match.game
        return game.states[self.replay_at] if self.replay_at is not None else game.state

    def redraw(self) -> None:
        game = self.match.game
        at = self.replay_at
        state = self.shown_state()
        history = game.history
        last = history[at - 1] if at is not None and at > 0 else (history[-1] if history else None)
        if at == 0:
            last = None
        person = not self.match.computer_to_move and not self.match.finished
        board = self.board
        board.replaying = at is not None
        board.show(state, last, active=person and at is None, flagged=self.match.flagged)
        self.query_one("#heading", Static).update(match_heading(self.match, state, at))
        self._draw_seats(state)
        self._show_options(state if person and at is None else None)
        shown_record = at is not None or self.match.finished
        self.query_one("#record-box", VerticalScroll).display = shown_record
        if shown_record:
            self.query_one("#record", Static).update(
                record_text(game.states, history, self.marks, at)
            )
            self.call_after_refresh(self._scroll_record, at, len(history))
        lines = self.lines_box()
        lines.display = self.engine_on
        if self.engine_on and self.engine_state is not state:
            self._engine_follow(state)
        self.refresh_bindings()
        legal = [str(a) for a in game.legal_actions()] if person else []
        self.query_one("#command", Input).suggester = SuggestFromList(legal, case_sensitive=False)

    def lines_box(self) -> Static:
        return self.query_one("#lines", Static)

    def _scroll_record(self, at: int | None, played: int) -> None:
        """Keep the replay's action (the last one, at the end of a game) in the middle of
        the record's few lines: the share of the text before it is that of the actions."""
        box = self.query_one("#record-box", VerticalScroll)
        line = box.virtual_size.height * (1.0 if at is None else at / max(1, played))
        box.scroll_to(y=max(0.0, line - box.size.height / 2), animate=False)

    def _show_options(self, state: State | None) -> None:
        options = self.query_one("#options", OptionList)
        scoring = state is not None and state.phase is Phase.SCORE
        choices = state.scoring_options() if state is not None and scoring else []
        options.display = bool(choices)
        options.clear_options()
        if choices:
            players = state.players if state is not None else 2
            options.add_options(
                [Option(option_text(o, players), id=str(o.action)) for o in choices]
            )
            options.highlighted = None

    # --- people's actions --------------------------------------------------------
    def act(self, action: Action, by_computer: bool = False) -> None:
        """Play ``action`` for the seat to act; a refusal is said and changes nothing."""
        match = self.match
        before = match.game.state
        if self.tick():
            return  # the mover's time ran out first
        if match.finished:
            if match.next_game_ready:  # F2 would begin another tournament
                self.say(_("The game is over: F8 starts the tournament's next game."))
            else:
                self.say(_("The game is over: F2 starts a new one."))
            return
        if not by_computer and self.replay_at is not None:
            self.say(_("This is the replay: Escape leaves it, then play on."))
            return
        if not by_computer and match.computer_to_move:
            self.say(_("It is not your turn: wait for the computer."))
            return
        try:
            played = match.play(action)
        except ShiftagoError as e:
            reason = precise_reason(before, action, e)
            self.say(refusal_words(reason, str(action), sentence(colour(before.turn))))
            return
        except OSError as e:
            self.say(_("The game cannot be saved: %(why)s") % {"why": error_words(e)})
            played = match.game.history[-1]
        self._announce(before, played)
        self.changed()

    def tick(self) -> bool:
        """The clocks: the faces drawn again, and the game ended when the running one
        has run out; whether it did."""
        match = self.match
        clocks = match.clocks
        if clocks is None or match.finished:
            return False
        seat = clocks.flagged(self.now())
        if seat is None:
            # the faces run on; the rest of the panel is the position shown (a replay's
            # panel was painted over with the game's every second: a German walk)
            self._draw_seats(self.shown_state())
            return False
        clocks.switch(None, self.now(), turn_ended=False)
        try:
            match.flag(seat)
        except OSError as e:
            self.say(_("The game cannot be saved: %(why)s") % {"why": error_words(e)})
        self.say(sentence(_("%(colour)s's time has run out.") % {"colour": colour(seat)}))
        self.changed()
        return True

    def _draw_seats(self, state: State) -> None:
        match, now = self.match, self.now()
        clocks, faces = match.clocks, None
        if clocks is not None:
            faces = {s: shown(clocks.left_of(s, now)) for s in range(state.players)}
        panel = seats(
            state,
            match.levels,
            self.thinking,
            faces,
            match.wins,
            match.flagged,
            match.person_names(),
        )
        # the clock's timer can fire while the app closes, its game screen already gone
        for widget in self.query("#seats").results(Static):
            widget.update(panel)

    def _announce(self, before: State, action: Action) -> None:
        after = self.match.game.state
        self.say(action_words(before, after, action))
        if after.outcome is not None:
            self.say(_("Game over: %(result)s") % {"result": result(after.outcome)})
            path = self.match.autosave.last_game_path if self.match.autosave else None
            if path is not None and path.exists():
                self.say(_("The record is in %(path)s.") % {"path": str(path)})

    def on_board_view_pushed(self, message: BoardView.Pushed) -> None:
        self.act(message.action)

    def on_board_view_scored(self, message: BoardView.Scored) -> None:
        self.act(message.option.action)

    def on_board_view_previewed(self, message: BoardView.Previewed) -> None:
        options = self.query_one("#options", OptionList)
        if message.option is None or not options.option_count:
            return
        index = options.get_option_index(str(message.option.action))
        if options.highlighted != index:
            options.highlighted = index

    def on_board_view_stepped(self, message: BoardView.Stepped) -> None:
        if self.replay_at is None:
            return
        end = len(self.match.game.history)
        self.replay_at = max(0, min(end, self.replay_at + message.step))
        self.redraw()

    def _option(self, option_id: str | None) -> ScoringOption | None:
        for option in self.match.game.scoring_options():
            if str(option.action) == option_id:
                return option
        return None

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self.board.set_preview(self._option(event.option.id))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        option = self._option(event.option.id)
        if option is not None:
            self.act(option.action)

    def on_key(self, event: events.Key) -> None:
        """A printable key typed outside the input line (on the list of scorings, say)
        starts the notation there."""
        typed = event.character
        if isinstance(self.screen, ModalScreen):
            return  # a dialog's keys are its own
        if typed and typed.isprintable() and typed != " " and not isinstance(self.focused, Input):
            event.stop()
            self.on_typed_ahead(TypedAhead(typed))

    def on_typed_ahead(self, message: TypedAhead) -> None:
        command = self.query_one("#command", Input)
        command.focus()
        if message.character == SUBMIT:
            self.on_input_submitted(Input.Submitted(command, command.value))
        else:
            command.insert_text_at_cursor(message.character)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id != "command":
            return
        text = event.value.strip()
        if not text:
            return
        try:
            action = Action.parse(text)
        except ShiftagoError:
            self.say(
                _(
                    "%(text)s is not an action: push with a side L, R, T or B and a lane "
                    "(L3, Tc), or score with x and the two ends of a line (xc3-g3)."
                )
                % {"text": text}
            )
            event.input.select_all()  # what is typed next replaces it
            return
        event.input.value = ""
        self.act(action)
        if self.match.game.phase is Phase.SCORE and not self.match.computer_to_move:
            self.board.focus()  # the scorings are chosen by arrows and Enter there

    # --- commands ----------------------------------------------------------------
    def action_focus_board(self) -> None:
        if self.replay_at is not None:
            self.replay_at = None
            self.changed()
        self.board.focus()

    def action_take_back(self) -> None:
        if self.replay_at is not None:
            return
        try:
            taken = self.match.take_back()
        except OSError as e:
            self.say(_("The game cannot be saved: %(why)s") % {"why": error_words(e)})
            return
        if not taken:
            self.say(_("There is no action of yours to take back."))
            return
        moves = " ".join(str(a) for a in reversed(taken))
        self.say(_("Taken back: %(actions)s.") % {"actions": moves})
        self.review_stop.set()
        self.reviewed_version = -1
        self.marks = {}
        self.changed()

    def action_replay(self) -> None:
        if self.replay_at is None:
            self.stop.set()
            self.replay_at = len(self.match.game.history)
            self.board.focus()
            self.redraw()
        else:
            self.action_focus_board()

    def on_resize(self, event: events.Resize) -> None:
        self._say_if_cut_off(event.size.width, event.size.height)

    def _say_if_cut_off(self, width: int, height: int) -> None:
        """Say once, as the terminal becomes too small, that parts of the game are cut off
        (the scoring choices or the log would vanish without a word)."""
        cut_off = cuts_off(width, height)
        if cut_off and not self._cut_off:
            self.notify(cut_off_words(width, height), severity="warning")
        self._cut_off = cut_off

    def action_help_quit(self) -> None:
        """Ctrl+C says how to leave, in the player's words (Textual's notice is English),
        and what becomes of the game: a finished one is not offered again (a German
        walk was told it would be)."""
        autosave = self.match.autosave
        if autosave is None:
            words = _("Ctrl+Q quits the program; this game is not saved.")
        elif not self.match.finished:
            words = _(
                "Ctrl+Q quits the program; the game is saved and offered again at the next start."
            )
        elif autosave.last_game_path.exists():
            words = _("Ctrl+Q quits the program; the finished game's record is in %(path)s.") % {
                "path": str(autosave.last_game_path)
            }
        else:
            words = _("Ctrl+Q quits the program.")
        self.notify(words)

    def action_help(self) -> None:
        """F1 opens how to play, and closes it again; over a question, the question stays."""
        if isinstance(self.screen, HelpScreen):
            self.screen.dismiss(None)
        elif not isinstance(self.screen, ModalScreen):
            self.push_screen(HelpScreen())

    def ask(self, screen: ModalScreen[T], answered: Callable[[T | None], None]) -> None:
        """Open a dialog, unless one (or the help) is open: none stacks on another."""
        if not isinstance(self.screen, ModalScreen):
            self.push_screen(screen, answered)

    def action_new_game(self) -> None:
        self.ask(NewGameScreen(self.match.setup_like(self.setup)), self._new_game_chosen)

    def _new_game_chosen(self, setup: PlaySetup | None) -> None:
        if setup is None:
            return
        try:
            match = open_match(setup, self.match.autosave, None)
        except SetupError as e:
            # the dialog again, with what was chosen and why it made no game
            problem = one_line(error_words(e))
            self.push_screen(NewGameScreen(setup, problem), self._new_game_chosen)
            return
        self.setup = setup
        self.keep_unfinished()
        self.say(_("A new game begins."))
        self.begin(match)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The next game of a tournament is offered once a game of it has ended."""
        if action == "next_game":
            return self.match.next_game_ready
        return True

    def action_next_game(self) -> None:
        try:
            game = self.match.next_game()
        except (ShiftagoError, OSError) as e:
            self.say(one_line(error_words(e)))
            return
        tournament = self.match.tournament
        number = 1 if tournament is None else len(tournament.finished) + 1
        self.say(
            _("Game %(n)s of the tournament: %(colour)s begins.")
            % {"n": number, "colour": colour(game.turn)}
        )
        self.begin(self.match)

    def on_unmount(self) -> None:
        """Leaving ends the searches at once, so that the program ends too."""
        self.stop.set()
        self.engine_stop.set()
        self.review_stop.set()

    # --- workers -----------------------------------------------------------------
    @work(thread=True, group="computer")
    def think(self, version: int, bot: Bot, state: State, limits: Limits) -> None:
        """The computer's action, found off the screen's thread. On a clock a level
        never searches more than its own budget, as the web app's computer seats."""
        if isinstance(bot, LevelBot) and limits.timed:
            limits = replace(limits, nodes=smaller(limits.nodes, bot.budget(state)))
        try:
            action = bot.choose(state, limits)
        except (ValueError, RuntimeError) as e:
            self.call_from_thread(
                self.say, _("The computer could not move: %(why)s") % {"why": error_words(e)}
            )
            return
        self.call_from_thread(self._computer_chose, version, action)

    def _computer_chose(self, version: int, action: Action) -> None:
        if version == self.version and self.match.computer_to_move:
            self.act(action, by_computer=True)

    @work(thread=True, group="review")
    def review(self, version: int) -> None:
        """The review's marks of a finished game, one action after another."""
        game = self.match.game
        pairs = list(zip(game.states, game.history, strict=False))
        bot = bot_for_level(REVIEW_LEVEL, 1)
        limits = replace(self.review_limits, stop=self.review_stop)
        for ply in iter_review(bot, pairs, limits):
            if self.review_stop.is_set():
                return
            if ply.mark:
                self.call_from_thread(self._reviewed, version, ply.number, ply.mark)

    def _reviewed(self, version: int, number: int, mark: str) -> None:
        if version == self.reviewed_version and self.match.finished:
            self.marks[number] = mark
            self.redraw()
