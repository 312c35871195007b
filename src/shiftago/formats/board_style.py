"""How the board looks: the colours, marks and layout every board picture shares.

The SVG board (:mod:`.svg_board`) and the raster pictures (:mod:`.picture`) draw from
these values, so a shared PNG or GIF looks like the board of the site. Each colour's
marble carries its own symbol (orange plain, green a ring, blue a dot, white a cross),
so the pictures read without colour vision too.
"""

from __future__ import annotations

from typing import Final

#: Marble fill by seat: orange, green, blue, white.
MARBLE_COLOURS: Final = ("#f08a24", "#2e9e4f", "#2f6bd8", "#fafafa")
#: The symbol inside each seat's marble, so colours differ without colour vision.
SYMBOLS: Final = ("none", "ring", "dot", "cross")
#: The colour of each seat's symbol.
SYMBOL_INK: Final = ("#ffffff", "#ffffff", "#ffffff", "#222222")

OUTLINE: Final = "#1e1e1e"
BOARD: Final = "#d8c39a"
CELL: Final = "#efe3c6"
GRID: Final = "#9c8660"
LABEL: Final = "#4a3f2c"
#: The last action's entry cell (or a scoring's emptied cells), its lane, their edge.
LAST: Final = "#ffd54a"
LAST_LANE: Final = "#fff1b0"
LAST_STROKE: Final = "#7a5a00"
HIGHLIGHT: Final = "#9fd3ff"
HIGHLIGHT_STROKE: Final = "#1f5f99"

#: Layout in the SVG's user units; a picture scales them to its pixel size.
CELL_SIZE: Final = 60
#: The board's frame around the cells.
PAD: Final = 8
#: The band of the coordinates.
LABELS: Final = 22
#: The band of the SVG's insertion arrows.
ARROWS: Final = 34

__all__ = [
    "ARROWS",
    "BOARD",
    "CELL",
    "CELL_SIZE",
    "GRID",
    "HIGHLIGHT",
    "HIGHLIGHT_STROKE",
    "LABEL",
    "LABELS",
    "LAST",
    "LAST_LANE",
    "LAST_STROKE",
    "MARBLE_COLOURS",
    "OUTLINE",
    "PAD",
    "SYMBOLS",
    "SYMBOL_INK",
]
