"""The main screen's look (Textual CSS): the board beside the panel, the log below
them, the input line at the foot; the dialogs' own look joins it."""

from __future__ import annotations

from typing import Final

from shiftago.interfaces.tui.dialogs import DIALOG_CSS

APP_CSS: Final = (
    """
#main { height: 1fr; }
#board-box { width: 35; padding: 0 1; }
#side { width: 1fr; padding: 0 1; }
#heading { height: auto; text-style: bold; }
#seats { height: auto; }
#options { height: auto; max-height: 7; }
#lines { height: auto; color: $text-muted; }
#record-box { height: auto; max-height: 6; }
#record { height: auto; }
#log { height: 1fr; min-height: 3; }
#command { dock: bottom; }
"""
    + DIALOG_CSS
)
