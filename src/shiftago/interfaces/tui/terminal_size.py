"""The smallest terminal that shows the whole game, and what a smaller one is told.

Below :data:`WHOLE_GAME_SIZE` the side panel's lower parts (the scoring choices, the
log) fall under its foot; the app says so once as the terminal shrinks
(:meth:`shiftago.interfaces.tui.app.ShiftagoApp.on_resize`).
"""

from __future__ import annotations

from typing import Final

from shiftago.interfaces.shared.catalogues import _

#: The smallest terminal (columns, rows) that shows the whole game: the board, four
#: seats, the scoring choices and the log (tests/tui/test_app.py plays it at this size).
WHOLE_GAME_SIZE: Final = (80, 24)


def cuts_off(width: int, height: int) -> bool:
    """Whether a terminal of ``width`` x ``height`` cuts parts of the game off."""
    least_width, least_height = WHOLE_GAME_SIZE
    return width < least_width or height < least_height


def cut_off_words(width: int, height: int) -> str:
    """The notice for a terminal of ``width`` x ``height`` that cuts parts off."""
    least_width, least_height = WHOLE_GAME_SIZE
    return _(
        "The terminal is %(width)sx%(height)s: below %(least_width)sx%(least_height)s "
        "parts of the game are cut off. Enlarge it to see them all."
    ) % {"width": width, "height": height, "least_width": least_width, "least_height": least_height}
