"""Drawing a kernel state for the environments' ``render()``: text and an RGB image.

The image is drawn with numpy alone (no pillow, no pygame), so ``rgb_array`` costs no
dependency: a wooden board with a grid, a hole in each empty cell, each marble a filled
disc in its seat's colour with a dark rim, and a frame in the colour of the seat to act
(no frame once the game is over). Rank 7 is at the top and file ``a`` on the left, as
the text board shows it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import numpy as np

from shiftago.core.rules import Rules
from shiftago.engine.kernel.convert import to_action, to_state
from shiftago.engine.kernel.tables import BOARD, OVER, PHASE, PLAYERS, TURN
from shiftago.formats.text_board import render_status, render_text

#: Pixels per cell and of the margin around the grid.
CELL: Final = 48
MARGIN: Final = 24
SIDE: Final = 7
#: Width and height of the image.
IMAGE_SIZE: Final = SIDE * CELL + 2 * MARGIN

#: Seat colours in seat order: orange, green, blue, white (RULES.md section 1).
SEAT_RGB: Final[tuple[tuple[int, int, int], ...]] = (
    (255, 140, 0),
    (30, 160, 60),
    (30, 100, 230),
    (245, 245, 245),
)
BOARD_RGB: Final = (205, 160, 95)
GRID_RGB: Final = (120, 80, 40)
HOLE_RGB: Final = (150, 105, 55)
RIM_RGB: Final = (40, 30, 20)
#: Width of the frame that shows the seat to act.
FRAME: Final = 8


def _disc_masks() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    y, x = np.mgrid[0:CELL, 0:CELL]
    centre = (CELL - 1) / 2
    d2 = (y - centre) ** 2 + (x - centre) ** 2
    hole = d2 <= (0.30 * CELL) ** 2
    marble = d2 <= (0.42 * CELL) ** 2
    rim = marble & (d2 > (0.42 * CELL - 2) ** 2)
    return hole, marble, rim


_HOLE, _MARBLE, _RIM = _disc_masks()


def cell_centre(file: int, rank: int) -> tuple[int, int]:
    """The pixel ``(row, column)`` at the centre of a cell (file and rank 0-6)."""
    return MARGIN + (SIDE - 1 - rank) * CELL + CELL // 2, MARGIN + file * CELL + CELL // 2


def rgb_board(s: np.ndarray) -> np.ndarray:
    """An ``IMAGE_SIZE`` x ``IMAGE_SIZE`` x 3 ``uint8`` picture of kernel state ``s``."""
    image = np.empty((IMAGE_SIZE, IMAGE_SIZE, 3), dtype=np.uint8)
    image[:] = BOARD_RGB
    if int(s[PHASE]) != OVER:
        image[:FRAME] = image[-FRAME:] = SEAT_RGB[int(s[TURN])]
        image[:, :FRAME] = image[:, -FRAME:] = SEAT_RGB[int(s[TURN])]
    end = MARGIN + SIDE * CELL
    for k in range(SIDE + 1):
        at = MARGIN + k * CELL
        image[max(at - 1, 0) : at + 1, MARGIN:end] = GRID_RGB
        image[MARGIN:end, max(at - 1, 0) : at + 1] = GRID_RGB
    owners = [int(s[BOARD + seat]) for seat in range(int(s[PLAYERS]))]
    for rank in range(SIDE):
        for file in range(SIDE):
            bit = 1 << (8 * rank + file)
            top = MARGIN + (SIDE - 1 - rank) * CELL
            left = MARGIN + file * CELL
            tile = image[top : top + CELL, left : left + CELL]
            seat = next((i for i, b in enumerate(owners) if b & bit), None)
            if seat is None:
                tile[_HOLE] = HOLE_RGB
            else:
                tile[_MARBLE] = SEAT_RGB[seat]
                tile[_RIM] = RIM_RGB
    return image


def ansi_board(s: np.ndarray, rules: Rules, last_action: int | None = None) -> str:
    """The text board (the last action marked), the status lines and the agent to act."""
    state = to_state(s, rules)
    last = None if last_action is None else to_action(last_action, rules.players)
    text = render_text(state, last_action=last) + "\n" + render_status(state)
    if int(s[PHASE]) != OVER:
        text += f"\nto act: player_{int(s[TURN])}"
    return text


def render_in_mode(
    mode: str | None, s: np.ndarray, rules: Rules, history: Sequence[int]
) -> str | np.ndarray | None:
    """What an environment's ``render()`` gives in ``mode``: an image for
    ``"rgb_array"``, the text board for ``"ansi"``, printed for ``"human"``."""
    if mode is None:
        import gymnasium

        gymnasium.logger.warn("render() was called without a render_mode")
        return None
    if mode == "rgb_array":
        return rgb_board(s)
    text = ansi_board(s, rules, history[-1] if history else None)
    if mode == "human":
        print(text)
        return None
    return text
