"""The opening book's lines at a position, as the analysis board shows them.

Only translation: the engine's shipped book (:mod:`shiftago.engine.book`) finds the
position up to the board's symmetries and turned seats and answers in its frame; this
module writes its lines as JSON (docs/web-protocol.md, "The opening book").
"""

from __future__ import annotations

from typing import Any

from shiftago.core import State
from shiftago.engine.book import shipped_book


def book_view(state: State) -> dict[str, Any]:
    """``{"position", "lines": [...]}``: each book action at ``state`` with its games,
    wins, draws, the mover's ``score`` over them, the deep search's ``expected`` score
    and ``proven`` result (1 a win, -1 a loss, 0 none) and whether the top level plays
    it (``chosen``); no lines where the position is not in the book."""
    book = shipped_book(state.rules.variant, state.players)
    lines = [] if book is None else book.lines(state)
    return {
        "position": state.position(),
        "lines": [
            {
                "action": str(line.action),
                "games": line.entry.games,
                "wins": line.entry.wins,
                "draws": line.entry.draws,
                "score": line.entry.score,
                "expected": line.entry.value,
                "proven": line.entry.proven,
                "chosen": line.chosen,
            }
            for line in lines
        ],
    }
