"""A lesson's position written as its marbles: ``"a3:o b3:g"`` and who acts, made into
the position string of PROTOCOL.md (each supply is what is not on the board)."""

from __future__ import annotations

from shiftago.core import Rules, State, Variant, parse_cell
from shiftago.core.geometry import SIZE, cell_of
from shiftago.core.rules import COLOURS, MARBLES_PER_PLAYER


def position(
    variant: str,
    players: int,
    marbles: str,
    *,
    turn: str = "o",
    phase: str = "insert",
    scores: tuple[int, ...] = (),
    skips: tuple[int, ...] = (),
) -> str:
    """The position string of the board holding ``marbles`` (``"a3:o b3:g"``); it is
    read back by the core, so a position the rules refuse raises here, at import."""
    cells: dict[int, str] = {}
    for part in marbles.split():
        name, _, colour = part.partition(":")
        cells[parse_cell(name)] = colour
    ranks = []
    for r in reversed(range(SIZE)):
        text, empty = "", 0
        for f in range(SIZE):
            letter = cells.get(cell_of(f, r))
            if letter is None:
                empty += 1
                continue
            text += (str(empty) if empty else "") + letter
            empty = 0
        ranks.append(text + (str(empty) if empty else ""))
    supplies = [
        MARBLES_PER_PLAYER - sum(1 for c in cells.values() if c == COLOURS[seat])
        for seat in range(players)
    ]
    fields = (
        variant,
        str(players),
        "/".join(ranks),
        turn,
        phase,
        ",".join(map(str, supplies)),
        ",".join(map(str, scores or (0,) * players)),
        ",".join(map(str, skips or (0,) * players)),
    )
    text = " ".join(fields)
    State.from_position(text, Rules(Variant.parse(variant), players))
    return text
