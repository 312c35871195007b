"""The board drawn in place: marbles in colour with their letters, the arrows at the
edges to click or to reach with the cursor keys, the last action marked, and a scoring
line shown before it is chosen.

Layout (columns, rows of the widget): the rank labels in column 0, the left arrows in
column 2, a cell of 3 columns every 4 from column 4, the right arrows in column 32; the
top arrows on row 0, a rank every 2 rows from row 1 (rank 7 first), the bottom arrows on
row 15 and the file labels on row 16.
"""

from __future__ import annotations

from typing import ClassVar, Final

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from shiftago.core import INSERTIONS, Action, Insertion, Phase, ScoringOption, State
from shiftago.core.geometry import ENTRY_CELLS, FILES, SIZE, cell_of, file_index, rank_index
from shiftago.formats.text_board import action_cells
from shiftago.interfaces.shared.catalogues import _

WIDTH: Final = 33
HEIGHT: Final = 17
#: The marbles' colours by seat (orange, green, blue, white) and the letter's colour.
MARBLE: Final = ("#f08c00", "#2f9e44", "#1c7ed6", "#e9ecef")
INK: Final = ("black", "black", "white", "black")
LETTERS: Final = "ogbw"
#: The 28 insertions in the order the cursor keys walk round the board, clockwise from
#: the top left: Ta..Tg, R7..R1, Bg..Ba, L1..L7.
AROUND: Final[tuple[str, ...]] = (
    tuple(f"T{f}" for f in FILES)
    + tuple(f"R{r}" for r in range(7, 0, -1))
    + tuple(f"B{f}" for f in reversed(FILES))
    + tuple(f"L{r}" for r in range(1, 8))
)
#: The way the cursor goes along each side as it walks AROUND (clockwise).
CLOCKWISE: Final = {"T": "right", "R": "down", "B": "left", "L": "up"}
OPPOSITE: Final = {"right": "left", "left": "right", "up": "down", "down": "up"}


def onward(key: str) -> int:
    """The step of cursor key ``key`` where order, not direction, counts: Right and Down
    go on (1), Left and Up go back (-1)."""
    return 1 if key in ("right", "down") else -1


def ring_step(name: str, key: str) -> int:
    """The step along AROUND (1 or -1) of the cursor key ``key`` ("right", "up"...) on the
    arrow ``name``: the way the key points along that side (on the bottom edge Right
    went left, walking clockwise: a German walk); across the side, Right and Down go
    on and Left and Up go back."""
    along = CLOCKWISE[name[0]]
    if key == along:
        return 1
    if key == OPPOSITE[along]:
        return -1
    return onward(key)


def cell_column(file: int) -> int:
    return 4 + 4 * file


def rank_row(rank: int) -> int:
    """The row of a rank's marbles (0-based rank, rank 7 on top)."""
    return 1 + 2 * (SIZE - 1 - rank)


def arrow_position(name: str) -> tuple[int, int]:
    """Where the arrow of insertion ``name`` (``L3``, ``Tc``) is drawn: ``(x, y)``."""
    side, lane = name[0].upper(), name[1:].lower()
    if side in "TB":
        return cell_column(FILES.index(lane)) + 1, 0 if side == "T" else 15
    return 2 if side == "L" else 32, rank_row(int(lane) - 1)


def cell_position(cell: int) -> tuple[int, int]:
    """Where the letter of ``cell`` is drawn: ``(x, y)``."""
    return cell_column(file_index(cell)) + 1, rank_row(rank_index(cell))


def arrow_at(x: int, y: int) -> str | None:
    """The insertion whose arrow is at ``(x, y)``, if any."""
    file = (x - 4) // 4 if x >= 4 and (x - 4) % 4 < 3 else None
    rank = SIZE - 1 - (y - 1) // 2 if 1 <= y <= 14 else None
    if y == 0 and file is not None and file < SIZE:
        return f"T{FILES[file]}"
    if y == 15 and file is not None and file < SIZE:
        return f"B{FILES[file]}"
    if rank is not None and x in (1, 2, 3):
        return f"L{rank + 1}"
    if rank is not None and x in (31, 32):
        return f"R{rank + 1}"
    return None


def cell_at(x: int, y: int) -> int | None:
    """The cell at ``(x, y)``, if any."""
    if not (1 <= y <= 14 and x >= 4 and (x - 4) % 4 < 3 and (x - 4) // 4 < SIZE):
        return None
    return cell_of((x - 4) // 4, SIZE - 1 - (y - 1) // 2)


class BoardView(Widget, can_focus=True):
    """The board; it posts :class:`Pushed` and :class:`Scored` for the app to play."""

    DEFAULT_CSS = """
    BoardView { width: 33; height: 17; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right", "key('right')", _("Next arrow"), show=False),
        Binding("down", "key('down')", _("Next arrow"), show=False),
        Binding("left", "key('left')", _("Previous arrow"), show=False),
        Binding("up", "key('up')", _("Previous arrow"), show=False),
        Binding("enter,space", "push", _("Push"), show=False),
        Binding("home", "step(-1000)", _("First"), show=False),
        Binding("end", "step(1000)", _("Last"), show=False),
    ]

    class Stepped(Message):
        """A key asked the replay to step ``step`` actions (negative: back)."""

        def __init__(self, step: int) -> None:
            super().__init__()
            self.step = step

    class Pushed(Message):
        """A person chose an insertion on the board."""

        def __init__(self, action: Action) -> None:
            super().__init__()
            self.action = action

    class Scored(Message):
        """A person confirmed a scoring on the board."""

        def __init__(self, option: ScoringOption) -> None:
            super().__init__()
            self.option = option

    class Previewed(Message):
        """The scoring shown on the board changed (None: none shown)."""

        def __init__(self, option: ScoringOption | None) -> None:
            super().__init__()
            self.option = option

    cursor: reactive[int] = reactive(0)

    def __init__(self, state: State, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.state = state
        self.last: Action | None = None
        #: Whether a person may act on the board now (not the computer, not a replay).
        self.active = True
        self.over = False
        self.preview: ScoringOption | None = None
        #: Whether the keys step through the game's positions (a replay).
        self.replaying = False
        #: Whether keys typed here went to the input line since the board had the focus:
        #: keys typed fast reach the board before the focus moves, Enter among them.
        self.typing = False
        self.tooltip = _("Click an arrow to push a marble in; in a scoring, click a line.")

    def show(
        self, state: State, last: Action | None, active: bool, flagged: int | None = None
    ) -> None:
        """Draw ``state`` with ``last`` marked; ``active``: a person acts on it now;
        ``flagged``: the seat whose time ran out, which ended the game (no lane is lit)."""
        self.state = state
        self.last = last
        self.active = active
        self.over = flagged is not None
        self.set_preview(None)
        self.refresh()

    def set_preview(self, option: ScoringOption | None) -> None:
        if option != self.preview:
            self.preview = option
            self.post_message(self.Previewed(option))
            self.refresh()

    # --- input -------------------------------------------------------------------
    def _options(self) -> list[ScoringOption]:
        if not self.active or self.state.phase is not Phase.SCORE:
            return []
        return self.state.scoring_options()

    def action_key(self, key: str) -> None:
        """A cursor key: on the arrows, along the edge the way it points; in a replay
        and among scorings, Right and Down go on and Left and Up go back."""
        if self.replaying or self._options():
            self.action_step(onward(key))
        else:
            self.action_step(ring_step(AROUND[self.cursor], key))

    def action_step(self, step: int) -> None:
        if self.replaying:
            self.post_message(self.Stepped(step))
            return
        step = max(-1, min(1, step))
        options = self._options()
        if options:
            now = options.index(self.preview) if self.preview in options else -step
            self.set_preview(options[(now + step) % len(options)])
            return
        legal = {str(a) for a in self.state.legal_actions()} if self.active else set()
        for k in range(1, len(AROUND) + 1):
            index = (self.cursor + step * k) % len(AROUND)
            if not legal or AROUND[index] in legal:
                self.cursor = index
                return

    def action_push(self) -> None:
        if self.typing:
            self.post_message(TypedAhead(SUBMIT))  # the Enter of the typed notation
            return
        if not self.active or self.state.is_over:
            return
        if self.state.phase is Phase.SCORE:
            if self.preview is not None:
                self.post_message(self.Scored(self.preview))
            else:
                self.action_step(1)
            return
        self.post_message(self.Pushed(Action.parse(AROUND[self.cursor])))

    def on_click(self, event: events.Click) -> None:
        if not self.active or self.state.is_over:
            return
        x, y = event.x, event.y
        if self.state.phase is Phase.INSERT:
            name = arrow_at(x, y)
            if name is not None:
                self.cursor = AROUND.index(name)
                self.post_message(self.Pushed(Action.parse(name)))
            return
        cell = cell_at(x, y)
        if cell is None:
            return
        preview = self.preview
        if (
            preview is not None
            and cell in preview.line.cells
            and (cell == preview.action.keep or self.state.rules.keeps_both_ends)
        ):
            self.post_message(self.Scored(preview))  # a second click confirms
            return
        touching = [o for o in self._options() if cell in o.line.cells]
        keeping = [o for o in touching if o.action.keep == cell]
        if keeping or touching:
            self.set_preview((keeping or touching)[0])

    def on_key(self, event: events.Key) -> None:
        """A printable key starts the notation in the input line."""
        if event.character and event.character.isprintable() and event.key != "space":
            event.stop()
            self.typing = True
            self.post_message(TypedAhead(event.character))

    def on_focus(self) -> None:
        self.typing = False

    # --- drawing -----------------------------------------------------------------
    def render(self) -> Text:
        state = self.state
        playing = state.phase is Phase.INSERT and not self.over
        legal = {str(a) for a in state.legal_actions()} if playing else set()
        removed: set[int] = set()
        entry = None
        last_arrow = None
        if isinstance(self.last, Insertion):
            entry = ENTRY_CELLS[self.last.index]
            last_arrow = str(self.last)
        elif self.last is not None:
            removed = set(action_cells(self.last, state.rules)[1])
        line_cells: set[int] = set()
        going: set[int] = set()
        if self.preview is not None:
            line_cells = set(self.preview.line.cells)
            going = set(self.preview.removed)
        grid = [[" "] * WIDTH for _row in range(HEIGHT)]
        styles: list[list[Style | None]] = [[None] * WIDTH for _row in range(HEIGHT)]

        def put(x: int, y: int, text: str, style: Style | None = None) -> None:
            for k, ch in enumerate(text):
                grid[y][x + k] = ch
                styles[y][x + k] = style

        label = Style(color="grey62")
        cursor_name = AROUND[self.cursor] if self.active and state.phase is Phase.INSERT else None
        for index in range(len(INSERTIONS)):
            name = str(INSERTIONS[index])
            side = name[0]
            x, y = arrow_position(name)
            glyph = {"T": "▼", "B": "▲", "L": "▶", "R": "◀"}[side]
            if name == cursor_name:
                style = Style(color="black", bgcolor="yellow", bold=True)
            elif name == last_arrow:
                style = Style(color="yellow", bold=True)
            elif name in legal:
                style = Style(color="grey70")
            else:
                style = Style(color="grey30")
                glyph = "·"
            put(x, y, glyph, style)
        for r in range(SIZE):
            put(0, rank_row(r), str(r + 1), label)
        for f in range(SIZE):
            put(cell_column(f) + 1, 16, FILES[f], label)
        for r in range(SIZE):
            for f in range(SIZE):
                cell = cell_of(f, r)
                seat = state.seat_at(cell)
                x, y = cell_column(f), rank_row(r)
                if seat is None:
                    if cell in removed:
                        put(x, y, " x ", Style(color="red"))
                    else:
                        put(x, y, " · ", Style(color="grey42"))
                    continue
                style = Style(color=INK[seat], bgcolor=MARBLE[seat], bold=True)
                text = f" {LETTERS[seat]} "
                if cell in going:
                    text = f"x{LETTERS[seat]}x"
                    style += Style(color="red", strike=True)
                elif cell in line_cells:
                    text = f"[{LETTERS[seat]}]"
                    style += Style(underline=True)
                elif cell == entry:
                    text = f"({LETTERS[seat]})"
                put(x, y, text, style)
        out = Text()
        for y in range(HEIGHT):
            for x in range(WIDTH):
                out.append(grid[y][x], styles[y][x] or "")
            if y < HEIGHT - 1:
                out.append("\n")
        return out


#: The :class:`TypedAhead` that submits the input line (an Enter after typed notation).
SUBMIT: Final = "\n"


class TypedAhead(Message):
    """A key typed on the board that belongs in the input line (:data:`SUBMIT`: its
    Enter)."""

    def __init__(self, character: str) -> None:
        super().__init__()
        self.character = character
