"""The board as text: a labelled grid for terminals and logs, and the protocol's bare grid.

Marbles are always letters (``o g b w``), so the board reads the same with or without
colour; colour (ANSI) only adds to it. The last action is marked in the text itself, so
it shows on a terminal without colour too: ``[o]`` around the cell an insertion entered,
``x`` on the cells a scoring emptied.

>>> from shiftago.core import Game, Rules, Variant
>>> game = Game(Rules(Variant.EXPERT, 3), first=0)
>>> game.play("L3")
>>> print(render_text(game.state, last_action=game.history[-1]))
7 . . . . . . .
6 . . . . . . .
5 . . . . . . .
4 . . . . . . .
3[o]. . . . . .
2 . . . . . . .
1 . . . . . . .
  a b c d e f g
>>> print(render_status(game.state))
Expert, 3 players: green (g) to insert
supply  o 21  g 22  b 22
points  o  0  g  0  b  0
"""

from __future__ import annotations

import os
from typing import Final, TextIO

from shiftago.core.actions import Action, Insertion, Scoring
from shiftago.core.geometry import ENTRY_CELLS, FILES, SIZE, cell_of, file_index, rank_index
from shiftago.core.rules import COLOUR_NAMES, COLOURS, Rules, Variant
from shiftago.core.state import Phase, State

__all__ = [
    "action_cells",
    "render_plain_grid",
    "render_status",
    "render_text",
    "use_color",
]

EMPTY: Final = "."
REMOVED: Final = "x"

_RESET: Final = "\x1b[0m"
#: Bold 256-colour foregrounds by seat: orange, green, blue, bright white.
_SEAT_STYLES: Final = ("1;38;5;208", "1;38;5;40", "1;38;5;33", "1;97")
_EMPTY_STYLE: Final = "2"
_LABEL_STYLE: Final = "2"
_MARK_STYLE: Final = "1"
#: Reverse video for the highlighted cells: visible whatever the hue.
_REVERSE: Final = ";7"


def use_color(stream: TextIO) -> bool:
    """Whether to write ANSI colour to ``stream``.

    Only to a terminal, never when ``NO_COLOR`` is set to a non-empty value
    (https://no-color.org) or when ``TERM`` is ``dumb``.
    """
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    if isatty is None:
        return False
    try:
        return bool(isatty())
    except (ValueError, OSError):  # a closed or detached stream
        return False


def render_plain_grid(state: State) -> str:
    """Exactly 7 lines of 7 characters, rank 7 first: ``o g b w`` or ``.`` (``showboard``)."""
    return "\n".join(
        "".join(_letter(state, cell_of(f, r)) for f in range(SIZE)) for r in reversed(range(SIZE))
    )


def action_cells(action: Action, rules: Rules) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The cells an action touched: ``(marked, removed)``.

    For an insertion ``marked`` is its entry cell and ``removed`` is empty; for a scoring
    ``marked`` is the whole line from the kept end and ``removed`` the cells it emptied
    (both ends stay with 2 players, only the kept end with 3-4). A scoring whose ends
    are not on one straight line marks just its two ends.
    """
    if isinstance(action, Insertion):
        return (ENTRY_CELLS[action.index],), ()
    if isinstance(action, Scoring):
        line = _line_between(action.keep, action.other)
        if line is None:
            return (action.keep, action.other), ()
        removed = line[1:-1] if rules.keeps_both_ends else line[1:]
        return line, removed
    return (), ()


def render_text(
    state: State,
    *,
    color: bool = False,
    last_action: Action | None = None,
    coordinates: bool = True,
) -> str:
    """The board as a labelled grid: ranks 7..1 on the left, files a..g below.

    ``color`` adds ANSI styles (see :func:`use_color`); the letters stay, so removing the
    escape codes gives exactly the uncoloured board.
    """
    entry: int | None = None
    removed: frozenset[int] = frozenset()
    if isinstance(last_action, Insertion):
        entry = ENTRY_CELLS[last_action.index]
    elif last_action is not None:
        removed = frozenset(action_cells(last_action, state.rules)[1])

    def style(text: str, code: str) -> str:
        return f"\x1b[{code}m{text}{_RESET}" if color else text

    lines = []
    for r in reversed(range(SIZE)):
        seps = [" "] * SIZE + [""]
        cells = []
        for f in range(SIZE):
            cell = cell_of(f, r)
            seat = state.seat_at(cell)
            if cell in removed and seat is None:
                cells.append(style(REMOVED, _MARK_STYLE + _REVERSE))
                continue
            code = _EMPTY_STYLE if seat is None else _SEAT_STYLES[seat]
            if cell == entry:
                seps[f], seps[f + 1] = "[", "]"
                code += _REVERSE
            cells.append(style(_letter(state, cell), code))
        row = "".join(sep + text for sep, text in zip(seps, cells, strict=False)) + seps[SIZE]
        lines.append((style(str(r + 1), _LABEL_STYLE) if coordinates else "") + row)
    if coordinates:
        lines.append("  " + style(" ".join(FILES), _LABEL_STYLE))
    elif all(line.startswith(" ") for line in lines):
        lines = [line[1:] for line in lines]
    return "\n".join(lines)


def render_status(state: State) -> str:
    """Two to four short lines: who acts (or the result), supplies, points, skips."""
    rules = state.rules
    players = rules.players
    head = f"{rules.variant.value.capitalize()}, {players} players: "
    if state.phase is Phase.OVER and state.outcome is not None:
        outcome = state.outcome
        if outcome.is_draw:
            names = [_colour(s) for s in outcome.winners]
            who = ", ".join(names[:-1]) + " and " + names[-1]
            head += f"game over, draw between {who} ({outcome.reason.value})"
        else:
            head += f"game over, {_colour(outcome.winners[0])} wins ({outcome.reason.value})"
    elif state.phase is Phase.SCORE:
        head += f"{_colour(state.turn)} must score a line"
    else:
        head += f"{_colour(state.turn)} to insert"
    lines = [head, _per_seat("supply", state.supplies)]
    if rules.variant is not Variant.EXPRESS:
        lines.append(_per_seat("points", state.scores))
    if any(state.skips):
        lines.append(_per_seat("skips", state.skips))
    return "\n".join(lines)


def _letter(state: State, cell: int) -> str:
    seat = state.seat_at(cell)
    return EMPTY if seat is None else COLOURS[seat]


def _colour(seat: int) -> str:
    return f"{COLOUR_NAMES[seat]} ({COLOURS[seat]})"


def _per_seat(label: str, values: tuple[int, ...]) -> str:
    return f"{label:<6}  " + "  ".join(f"{COLOURS[s]} {v:>2}" for s, v in enumerate(values))


def _line_between(start: int, end: int) -> tuple[int, ...] | None:
    """The cells of the straight line from ``start`` to ``end``, or None if not straight."""
    df = file_index(end) - file_index(start)
    dr = rank_index(end) - rank_index(start)
    if df and dr and abs(df) != abs(dr):
        return None
    n = max(abs(df), abs(dr))
    sf = (df > 0) - (df < 0)
    sr = (dr > 0) - (dr < 0)
    f0, r0 = file_index(start), rank_index(start)
    return tuple(cell_of(f0 + k * sf, r0 + k * sr) for k in range(n + 1))
