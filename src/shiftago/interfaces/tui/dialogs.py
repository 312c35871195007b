"""The app's questions (resume the unfinished game, a new game's options, a file name)
and its help: how to play, in the player's language."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar, Final

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Input, Label, Select, Static

from shiftago.engine.levels import LADDER, default_level
from shiftago.interfaces.shared.catalogues import N_, _, ngettext
from shiftago.interfaces.shared.game_words import listing
from shiftago.interfaces.shared.how_to_play import VARIANT_RULES
from shiftago.interfaces.shared.newgame import (
    PlaySetup,
    SetupError,
    check_handicap,
    computer_seat,
)
from shiftago.interfaces.tui.words import colour

#: The dialogs' look, part of the app's CSS (a screen's own CSS would be scoped to it).
DIALOG_CSS: Final = """
ResumeScreen, NewGameScreen, PathScreen, HelpScreen { align: center middle; }
.dialog {
    width: 76; max-width: 100%; height: auto; max-height: 24; border: round $accent;
    padding: 0 1;
    background: $panel;
}
.dialog Horizontal { height: auto; align: center middle; }
.dialog Button { margin: 0 1; }
.dialog Label { width: 100%; }
.dialog Grid { grid-size: 2; grid-columns: auto 1fr; grid-rows: 3; height: auto; }
.dialog Grid Label { width: auto; padding: 1 1 0 0; }
.dialog Checkbox { border: none; height: 1; }
.dialog { border-subtitle-color: $error; }
.dialog.help { width: 80; max-height: 90%; }
.dialog.help Static { margin: 0 0 1 0; }
"""


class ResumeScreen(ModalScreen[bool]):
    """Whether to go on with the unfinished game saved at ``when``."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", _("Resume")),
        Binding("n", "answer(False)", _("New game")),
        # the first letter of "yes" in the app's languages (ja, sì/sí, oui): an Italian
        # family pressed "s"
        Binding("j,s,o", "answer(True)", show=False),
    ]

    def __init__(self, when: str, played: int, tournament_game: int | None = None) -> None:
        """``tournament_game``: which game of a tournament it is (None: a lone game)."""
        super().__init__()
        self.when = when
        self.played = played
        self.tournament_game = tournament_game

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(
                ngettext(
                    "An unfinished game from %(when)s is saved (%(n)s action played).",
                    "An unfinished game from %(when)s is saved (%(n)s actions played).",
                    self.played,
                )
                % {"when": self.when, "n": self.played}
            )
            if self.tournament_game is not None:
                yield Label(
                    _("It is game %(n)s of a tournament, which goes on with it.")
                    % {"n": self.tournament_game}
                )
            yield Label(_("Resume it? A new game replaces it at its first action."))
            with Horizontal():
                yield Button(_("Resume"), id="resume", variant="primary")
                yield Button(_("New game"), id="new")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "resume")

    def action_answer(self, resume: bool) -> None:
        self.dismiss(resume)


def computer_words(letters: str) -> str:
    """The computer's seats (colour letters) as the dialog offers them."""
    names = [colour("ogbw".index(letter)) for letter in letters]
    return _("The computer plays %(colour)s") % {"colour": listing(names)}


#: The level choice that keeps each computer seat at its own level (none is level 0).
EACH_OWN_LEVEL: Final = 0


class NewGameScreen(ModalScreen[PlaySetup | None]):
    """A new game's options: variant, players, the computer's seats and level, handicaps."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", _("Cancel"))]

    def __init__(self, current: PlaySetup, problem: str | None = None) -> None:
        """``problem``: why the options ``current`` made no game, said at the foot."""
        super().__init__()
        self.current = current
        self.problem = problem
        #: The variant chosen before the tournament was (which fixes Express).
        self.variant_before: object = current.variant
        #: The computer's seats given a level of their own (``-c g:2``), by seat.
        self.own_levels = {
            seat: level
            for seat, level in (computer_seat(c, 4) for c in current.computer)
            if level is not None
        }

    def compose(self) -> ComposeResult:
        setup = self.current
        variants = [(_("Express"), "express"), (_("Expert"), "expert"), (_("Extreme"), "extreme")]
        players = [(str(n), n) for n in (2, 3, 4)]
        # letters or names, each maybe with its own level (-c g:2)
        chosen = [computer_seat(c, 4) for c in setup.computer]
        seats = sorted({seat for seat, _level in chosen})
        computer = "".join("ogbw"[seat] for seat in seats)
        choices = ["g", "b", "w", "gb", "gbw"]
        if computer and computer not in choices:
            choices.append(computer)  # the command line's seats (-c b -c w) stay offered
        opponents = [(_("Nobody: everyone plays at this keyboard"), "")] + [
            (computer_words(letters), letters) for letters in choices
        ]
        top = len(LADDER)
        levels = [
            (_("%(n)s of %(top)s") % {"n": rung.number, "top": top}, rung.number) for rung in LADDER
        ]
        with Vertical(classes="dialog", id="form") as form:
            form.border_title = _("New game")
            with Grid():
                yield Label(_("Variant"))
                yield Select(variants, value=setup.variant, allow_blank=False, id="variant")
                yield Label(_("Players"))
                yield Select(players, value=setup.players, allow_blank=False, id="players")
                yield Label(_("Computer"))
                yield Select(opponents, value=computer, allow_blank=False, id="computer")
                yield Label(_("Level"))
                # the seats' own level where they share one (-c g:2 -c b:2), else --level's;
                # seats at two levels are offered as they are (EACH_OWN_LEVEL) or one for all
                own = set(self.own_levels.values())
                level = own.pop() if len(own) == 1 else setup.level or default_level()
                if len(own) > 1:
                    levels.insert(0, (self._each_own_level(), EACH_OWN_LEVEL))
                    level = EACH_OWN_LEVEL
                yield Select(levels, value=level, allow_blank=False, id="level")
                yield Label(_("Handicap"))
                yield Input(
                    ",".join(str(n) for n in setup.handicap),
                    placeholder=_("Skipped turns per seat, such as 0,2"),
                    id="handicap",
                )
                yield Label(_("Clock"))
                yield Input(
                    setup.clock or "",
                    placeholder=_("None, or minutes+seconds such as 5+3"),
                    id="clock",
                )
            yield Checkbox(
                _("Tournament (first to 10 game wins)"), setup.tournament, id="tournament"
            )
            with Horizontal():
                yield Button(_("Start the game"), id="start", variant="primary")
                yield Button(_("Cancel"), id="cancel")

    def _each_own_level(self) -> str:
        """The level choice that keeps each seat's own: "each as before: green 2, blue 4"."""
        each = [f"{colour(seat)} {level}" for seat, level in sorted(self.own_levels.items())]
        return _("Each as before: %(levels)s") % {"levels": ", ".join(each)}

    def on_mount(self) -> None:
        self._tournament_chosen(self.current.tournament)
        if self.problem:
            self._problem(self.problem)

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        self._tournament_chosen(event.value)

    def _tournament_chosen(self, chosen: bool) -> None:
        """A tournament is of Express games (RULES.md): the variant is fixed while it is
        chosen, and the one chosen before comes back when it is not."""
        variant = self.query_one("#variant", Select)
        if chosen and not variant.disabled:
            self.variant_before = variant.value
            variant.value = "express"
        elif not chosen and variant.disabled:
            variant.value = self.variant_before
        variant.disabled = chosen

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id != "start":
            self.dismiss(None)
            return
        handicap_text = self.query_one("#handicap", Input).value.strip()
        try:
            handicap = tuple(int(n) for n in handicap_text.split(",")) if handicap_text else ()
        except ValueError:
            problem = _("The handicap is whole numbers separated by commas, such as 0,2.")
            self._problem(problem)
            return
        computer = str(self.query_one("#computer", Select).value)
        players = int(str(self.query_one("#players", Select).value))
        missing = [letter for letter in computer if "ogbw".index(letter) >= players]
        if missing:
            self._problem(
                _("With %(n)s players there is no %(colour)s seat.")
                % {"n": players, "colour": colour("ogbw".index(missing[0]))}
            )
            return
        try:
            check_handicap(handicap, players)
        except SetupError as e:
            self._problem(str(e))
            return
        level = int(str(self.query_one("#level", Select).value))
        if level == EACH_OWN_LEVEL:  # each seat its level of before, a new seat the default
            seat_levels = [self.own_levels.get("ogbw".index(c), default_level()) for c in computer]
            seats = tuple(f"{letter}:{n}" for letter, n in zip(computer, seat_levels, strict=True))
            level = seat_levels[0] if seat_levels else default_level()
        else:
            seats = tuple(computer)
        self.dismiss(
            PlaySetup(
                variant=str(self.query_one("#variant", Select).value),
                players=players,
                handicap=handicap,
                computer=seats,
                level=level if computer else None,
                resume=False,
                clock=self.query_one("#clock", Input).value.strip() or None,
                tournament=self.query_one("#tournament", Checkbox).value,
            )
        )

    def _problem(self, text: str) -> None:
        """Say what is wrong with the options, at the foot of the dialog."""
        self.query_one("#form", Vertical).border_subtitle = text
        # the foot holds one line: a longer reason is also said whole, wrapped, aside
        if text and len(text) > self.query_one("#form", Vertical).size.width - 4:
            self.notify(text, severity="error")

    def action_cancel(self) -> None:
        self.dismiss(None)


class PathScreen(ModalScreen[Path | None]):
    """A file name, for saving or loading a record."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", _("Cancel"))]

    def __init__(self, question: str, suggestion: str = "") -> None:
        super().__init__()
        self.question = question
        self.suggestion = suggestion

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.question)
            yield Input(self.suggestion, placeholder=_("File name"), id="path")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        self.dismiss(Path(text).expanduser() if text else None)

    def action_cancel(self) -> None:
        self.dismiss(None)


#: How to play, paragraph by paragraph: how an action is entered here, each variant's
#: rules (:mod:`~shiftago.interfaces.shared.how_to_play`), how a scoring is chosen here,
#: the keys. The web app's "How
#: to play" page shows each rule on the board.
HELP: Final = (
    N_(
        "Every turn, push one of your marbles in from an edge: type the side and the lane, "
        "such as L3 (from the left, rank 3), R5 (from the right), Tc (from the top, file c) "
        "or Bf (from the bottom), and press Enter; or click an arrow of the board, or go "
        "to it with the arrow keys (Escape reaches the board) and press Enter. The marbles "
        "in that lane shift along into its first gap; a full lane cannot be played."
    ),
    *VARIANT_RULES,
    N_(
        "Here a line to score (Expert, Extreme) is listed beside the board: choose it with "
        "the arrow keys, which show on the board what it takes off, and press Enter; or "
        "click a marble of the line (with 3-4 players, the end to keep); or type x and its "
        "two ends."
    ),
    N_(
        "F2 starts a new game (the variant, the players, the computer's seats and level), "
        "F3 loads a record and F4 saves one, F5 shows the engine's best lines, Ctrl+Z or F6 "
        "takes back, F7 replays the game, F8 starts the next game of a tournament, Ctrl+Q "
        "quits. The game is saved after every action, and the next start offers to resume it."
    ),
)


class HelpScreen(ModalScreen[None]):
    """How to play: the actions, each variant's goal and the keys."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,f1", "close", _("Close")),
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog help") as box:
            box.border_title = _("How to play Shiftago")
            for paragraph in HELP:
                yield Static(_(paragraph))
            with Horizontal():
                yield Button(_("Close"), id="close", variant="primary")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)
