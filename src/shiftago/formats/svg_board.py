"""The board as a standalone SVG image, for the web, notebooks and documents.

Each colour's marble carries its own symbol (orange plain, green a ring, blue a dot,
white a cross), so the board reads without colour vision too. Elements carry ``class``
and ``data-*`` attributes (``data-cell="c4"``, ``data-action="L3"``) so that a web page
can style them and find what was clicked without knowing the geometry.

>>> from shiftago.core import Game, Rules
>>> game = Game(Rules(), first=0)
>>> game.play("L3")
>>> svg = render_svg(game.state, last_action=game.history[-1], arrows=True)
>>> svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
True
>>> svg.count('data-action=')
28
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final
from xml.sax.saxutils import escape, quoteattr

from shiftago.core.actions import INSERTIONS, Action, Insertion, Scoring
from shiftago.core.game import Game
from shiftago.core.geometry import (
    CELL_NAMES,
    CELLS,
    ENTRY_CELLS,
    FILES,
    LANE_CELLS,
    RANKS,
    SIZE,
    file_index,
    rank_index,
)
from shiftago.core.rules import COLOUR_NAMES, COLOURS
from shiftago.core.state import Phase, State
from shiftago.formats.board_style import ARROWS as _ARROWS
from shiftago.formats.board_style import BOARD as _BOARD
from shiftago.formats.board_style import CELL as _CELL
from shiftago.formats.board_style import CELL_SIZE as _C
from shiftago.formats.board_style import GRID as _GRID
from shiftago.formats.board_style import HIGHLIGHT as _HIGHLIGHT
from shiftago.formats.board_style import HIGHLIGHT_STROKE as _HIGHLIGHT_STROKE
from shiftago.formats.board_style import LABEL as _LABEL
from shiftago.formats.board_style import LABELS as _LABELS
from shiftago.formats.board_style import LAST as _LAST
from shiftago.formats.board_style import LAST_LANE as _LAST_LANE
from shiftago.formats.board_style import LAST_STROKE as _LAST_STROKE
from shiftago.formats.board_style import MARBLE_COLOURS, SYMBOLS
from shiftago.formats.board_style import OUTLINE as _OUTLINE
from shiftago.formats.board_style import PAD as _PAD
from shiftago.formats.board_style import SYMBOL_INK as _SYMBOL_INK
from shiftago.formats.text_board import action_cells

__all__ = ["MARBLE_COLOURS", "SYMBOLS", "SvgBoard", "board_svg", "render_svg"]

_SIDE_WORDS: Final = {"L": "right", "R": "left", "T": "down", "B": "up"}


def render_svg(
    state: State,
    *,
    last_action: Action | None = None,
    arrows: bool = False,
    size: int = 420,
    highlight: Iterable[int] = (),
    title: str | None = None,
) -> str:
    """The board as an SVG document (a string; this room does no file I/O).

    ``last_action`` is marked (an insertion's lane and entry cell, a scoring's line and
    emptied cells); ``arrows`` adds the 28 insertion points, legal ones active;
    ``highlight`` tints cells such as a scoring line; ``size`` is the width and height
    in pixels; ``title`` replaces the default accessible title (a status sentence).
    """
    if size <= 0:
        raise ValueError(f"the size of a board image is a positive number of pixels, not {size}")
    lit = frozenset(highlight)
    for cell in lit:
        if cell not in CELL_NAMES:
            raise ValueError(f"{cell!r} is not a cell index (8 * rank + file, 0-54)")
    margin = _PAD + _LABELS + (_ARROWS if arrows else 0) + 6
    total = SIZE * _C + 2 * margin
    view = _View(margin)

    out: list[str] = [
        _open(
            "svg",
            xmlns="http://www.w3.org/2000/svg",
            width=size,
            height=size,
            viewBox=f"0 0 {total} {total}",
            role="img",
            class_="shiftago-board",
            font_family="DejaVu Sans, Helvetica, Arial, sans-serif",
        ),
        f"<title>{escape(title if title is not None else _default_title(state))}</title>",
        _tag(
            "rect",
            x=margin - _PAD,
            y=margin - _PAD,
            width=SIZE * _C + 2 * _PAD,
            height=SIZE * _C + 2 * _PAD,
            rx=10,
            fill=_BOARD,
            stroke=_GRID,
            stroke_width=2,
            class_="frame",
        ),
    ]

    marked, removed = action_cells(last_action, state.rules) if last_action else ((), ())
    entry = ENTRY_CELLS[last_action.index] if isinstance(last_action, Insertion) else None
    lane = (
        frozenset(LANE_CELLS[last_action.index])
        if isinstance(last_action, Insertion)
        else frozenset(marked)
    )

    for cell in CELLS:
        classes = ["cell"]
        fill, stroke, width = _CELL, _GRID, 1.0
        if cell in lane:
            classes.append("last-lane")
            fill = _LAST_LANE
        if cell in lit:
            classes.append("highlight")
            fill, stroke, width = _HIGHLIGHT, _HIGHLIGHT_STROKE, 2.5
        if cell == entry or cell in removed:
            classes.append("last")
            fill, stroke, width = _LAST, _LAST_STROKE, 3.0
        x, y = view.corner(cell)
        out.append(
            _tag(
                "rect",
                x=x + 1,
                y=y + 1,
                width=_C - 2,
                height=_C - 2,
                rx=4,
                fill=fill,
                stroke=stroke,
                stroke_width=width,
                class_=" ".join(classes),
                data_cell=CELL_NAMES[cell],
            )
        )

    if isinstance(last_action, Scoring) and len(marked) > 1:
        out.append(_scored_line(view, state, last_action, marked, removed))

    for cell in CELLS:
        seat = state.seat_at(cell)
        if seat is not None:
            out.append(_marble(view, cell, seat))

    out.extend(_coordinates(view, arrows))
    if arrows:
        out.extend(_arrows(view, state, last_action))
    out.append("</svg>")
    return "\n".join(out) + "\n"


@dataclass(frozen=True)
class SvgBoard:
    """A state with drawing options that shows itself inline in Jupyter (``_repr_svg_``)."""

    state: State
    last_action: Action | None = None
    arrows: bool = False
    size: int = 420
    highlight: tuple[int, ...] = ()
    title: str | None = None

    def render(self) -> str:
        return render_svg(
            self.state,
            last_action=self.last_action,
            arrows=self.arrows,
            size=self.size,
            highlight=self.highlight,
            title=self.title,
        )

    def _repr_svg_(self) -> str:
        return self.render()

    def __str__(self) -> str:
        return self.render()


def board_svg(
    game_or_state: Game | State,
    *,
    last_action: Action | None = None,
    arrows: bool = False,
    size: int = 420,
    highlight: Iterable[int] = (),
    title: str | None = None,
) -> SvgBoard:
    """A displayable board; for a :class:`Game` the last action defaults to its last one.

    ``str()`` of the result is the SVG text.
    """
    if isinstance(game_or_state, Game):
        state = game_or_state.state
        if last_action is None and game_or_state.history:
            last_action = game_or_state.history[-1]
    else:
        state = game_or_state
    return SvgBoard(state, last_action, arrows, size, tuple(highlight), title)


# --- drawing ----------------------------------------------------------------------
class _View:
    """Where cells lie in the picture: rank 7 at the top, file a on the left."""

    def __init__(self, margin: int) -> None:
        self.margin = margin

    def corner(self, cell: int) -> tuple[int, int]:
        return (
            self.margin + _C * file_index(cell),
            self.margin + _C * (SIZE - 1 - rank_index(cell)),
        )

    def centre(self, cell: int) -> tuple[float, float]:
        x, y = self.corner(cell)
        return x + _C / 2, y + _C / 2


def _marble(view: _View, cell: int, seat: int) -> str:
    cx, cy = view.centre(cell)
    r = _C * 0.4
    ink = _SYMBOL_INK[seat]
    symbol = SYMBOLS[seat]
    parts = [
        _open(
            "g",
            class_=f"marble seat-{seat} colour-{COLOUR_NAMES[seat]}",
            data_cell=CELL_NAMES[cell],
            data_colour=COLOURS[seat],
            data_symbol=symbol,
        ),
        f"<title>{escape(f'{COLOUR_NAMES[seat]} marble on {CELL_NAMES[cell]}')}</title>",
        _tag(
            "circle",
            cx=cx,
            cy=cy,
            r=r,
            fill=MARBLE_COLOURS[seat],
            stroke=_OUTLINE,
            stroke_width=2.5,
            class_="body",
        ),
    ]
    if symbol == "ring":
        parts.append(
            _tag(
                "circle",
                cx=cx,
                cy=cy,
                r=r * 0.5,
                fill="none",
                stroke=ink,
                stroke_width=3.5,
                class_="symbol",
            )
        )
    elif symbol == "dot":
        parts.append(_tag("circle", cx=cx, cy=cy, r=r * 0.3, fill=ink, class_="symbol"))
    elif symbol == "cross":
        d = r * 0.42
        parts.append(
            _tag(
                "path",
                d=f"M{_n(cx - d)} {_n(cy - d)}L{_n(cx + d)} {_n(cy + d)}"
                f"M{_n(cx - d)} {_n(cy + d)}L{_n(cx + d)} {_n(cy - d)}",
                stroke=ink,
                stroke_width=3.5,
                stroke_linecap="round",
                fill="none",
                class_="symbol",
            )
        )
    parts.append("</g>")
    return "".join(parts)


def _scored_line(
    view: _View,
    state: State,
    action: Scoring,
    line: tuple[int, ...],
    removed: tuple[int, ...],
) -> str:
    """The scored line: a bar through it and a dashed ghost where each marble came off."""
    seat = state.seat_at(action.keep)
    ghost = MARBLE_COLOURS[seat] if seat is not None else "#888888"
    (x1, y1), (x2, y2) = view.centre(line[0]), view.centre(line[-1])
    parts = [
        _open("g", class_="last-scoring", data_action=str(action)),
        f"<title>{escape(f'last action {action}: line scored')}</title>",
        _tag(
            "line",
            x1=x1,
            y1=y1,
            x2=x2,
            y2=y2,
            stroke=_LAST_STROKE,
            stroke_width=6,
            stroke_linecap="round",
            opacity=0.6,
        ),
    ]
    for cell in removed:
        cx, cy = view.centre(cell)
        parts.append(
            _tag(
                "circle",
                cx=cx,
                cy=cy,
                r=_C * 0.36,
                fill=ghost,
                fill_opacity=0.35,
                stroke=_OUTLINE,
                stroke_width=2,
                stroke_dasharray="5 4",
                class_="removed",
                data_cell=CELL_NAMES[cell],
            )
        )
    parts.append("</g>")
    return "".join(parts)


def _coordinates(view: _View, arrows: bool) -> list[str]:
    """Ranks on the left, files below, outside the arrows when there are any."""
    gap = _PAD + (_ARROWS if arrows else 0) + _LABELS / 2
    style = {"fill": _LABEL, "font_size": 16, "text_anchor": "middle", "class_": "coord"}
    out = []
    for r in range(SIZE):
        _, cy = view.centre(8 * r)
        out.append(_text(RANKS[r], x=view.margin - gap, y=cy + 6, **style))
    bottom = view.margin + SIZE * _C
    for f in range(SIZE):
        cx, _ = view.centre(f)
        out.append(_text(FILES[f], x=cx, y=bottom + gap + 6, **style))
    return out


def _arrows(view: _View, state: State, last_action: Action | None) -> list[str]:
    """The 28 insertion points: triangles outside the board pointing into their lanes."""
    legal = {a for a in state.legal_actions() if isinstance(a, Insertion)}
    active_fill = MARBLE_COLOURS[state.turn] if state.phase is Phase.INSERT else "#555555"
    low = view.margin - _PAD - _ARROWS / 2
    high = view.margin + SIZE * _C + _PAD + _ARROWS / 2
    out = []
    for insertion in INSERTIONS:
        name = str(insertion)
        ex, ey = view.centre(ENTRY_CELLS[insertion.index])
        side = insertion.side
        # (centre, unit vector pointing into the board)
        if side == "L":
            cx, cy, ux, uy = low, ey, 1.0, 0.0
        elif side == "R":
            cx, cy, ux, uy = high, ey, -1.0, 0.0
        elif side == "T":
            cx, cy, ux, uy = ex, low, 0.0, 1.0
        else:
            cx, cy, ux, uy = ex, high, 0.0, -1.0
        h, w = _ARROWS * 0.62, _C * 0.46
        # a click target filling the arrow's share of the band, clear of the board
        hit_w, hit_h = (_ARROWS, _C) if side in "LR" else (_C, _ARROWS)
        tip = (cx + ux * h / 2, cy + uy * h / 2)
        back = (cx - ux * h / 2, cy - uy * h / 2)
        left = (back[0] - uy * w / 2, back[1] + ux * w / 2)
        right = (back[0] + uy * w / 2, back[1] - ux * w / 2)
        is_legal = insertion in legal
        is_last = insertion == last_action
        classes = ["arrow", "legal" if is_legal else "illegal"]
        fill = active_fill if is_legal else "#9a9a9a"
        if is_last:
            classes.append("last")
        words = (
            f"{name}: insert at {CELL_NAMES[ENTRY_CELLS[insertion.index]]}, "
            f"push {_SIDE_WORDS[side]}" + ("" if is_legal else " (not legal now)")
        )
        out.append(
            "".join(
                (
                    _open(
                        "g",
                        class_=" ".join(classes),
                        data_action=name,
                        data_legal="true" if is_legal else "false",
                        opacity=1 if is_legal else 0.3,
                    ),
                    f"<title>{escape(words)}</title>",
                    _tag(
                        "rect",
                        x=cx - hit_w / 2,
                        y=cy - hit_h / 2,
                        width=hit_w,
                        height=hit_h,
                        fill="transparent",
                        class_="hit",
                    ),
                    _tag(
                        "polygon",
                        points=" ".join(f"{_n(px)},{_n(py)}" for px, py in (tip, left, right)),
                        fill=_LAST if is_last else fill,
                        stroke=_LAST_STROKE if is_last else _OUTLINE,
                        stroke_width=3 if is_last else 1.5,
                        stroke_linejoin="round",
                    ),
                    "</g>",
                )
            )
        )
    return out


def _default_title(state: State) -> str:
    rules = state.rules
    head = f"Shiftago {rules.variant.value}, {rules.players} players: "
    if state.phase is Phase.OVER and state.outcome is not None:
        names = " and ".join(COLOUR_NAMES[s] for s in state.outcome.winners)
        return head + (f"draw between {names}" if state.outcome.is_draw else f"{names} wins")
    verb = "to score a line" if state.phase is Phase.SCORE else "to insert"
    return head + f"{COLOUR_NAMES[state.turn]} {verb}"


# --- XML helpers --------------------------------------------------------------------
def _n(value: float) -> str:
    """A number as short SVG text: integers without a decimal point."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _attrs(attributes: dict[str, object]) -> str:
    """``class_`` -> ``class``, ``data_cell`` -> ``data-cell``; every value escaped."""
    parts = []
    for key, value in attributes.items():
        name = key.rstrip("_").replace("_", "-")
        text = _n(value) if isinstance(value, int | float) else str(value)
        parts.append(f" {name}={quoteattr(text)}")
    return "".join(parts)


def _open(name: str, **attributes: object) -> str:
    return f"<{name}{_attrs(attributes)}>"


def _tag(name: str, **attributes: object) -> str:
    return f"<{name}{_attrs(attributes)}/>"


def _text(content: str, **attributes: object) -> str:
    return f"<text{_attrs(attributes)}>{escape(content)}</text>"
