"""The board as a raster picture: a PNG of a position, an animated GIF of a game.

Drawn with Pillow from the same colours, symbols and layout as the SVG board
(:mod:`.board_style`), so a shared picture looks like the board of the site and reads
without colour vision. Each GIF frame is one step of the game with its last action
marked (an insertion's lane and entry cell; a scoring's line and the marbles it took
off, as dashed ghosts), and the last frame stays longer. The functions return bytes:
this room does no file I/O.

>>> from shiftago.core import Game, Rules
>>> game = Game(Rules(), first=0)
>>> game.play("L3")
>>> png_bytes(game.state, last_action=game.history[-1])[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
>>> gif_bytes(game)[:6]
b'GIF89a'
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import cache
from typing import Final

from PIL import Image, ImageDraw, ImageFont

from shiftago.core.actions import Action, Insertion, Scoring
from shiftago.core.game import Game
from shiftago.core.geometry import (
    CELLS,
    ENTRY_CELLS,
    FILES,
    LANE_CELLS,
    RANKS,
    SIZE,
    file_index,
    rank_index,
)
from shiftago.core.state import State
from shiftago.formats import board_style as style
from shiftago.formats.text_board import action_cells

__all__ = [
    "DEFAULT_SIZE",
    "FRAME_MS",
    "LAST_FRAME_MS",
    "MAX_SIZE",
    "MIN_SIZE",
    "board_image",
    "game_frames",
    "gif_bytes",
    "png_bytes",
]

#: Width and height of a picture in pixels, unless asked otherwise.
DEFAULT_SIZE: Final = 420
#: The sizes a picture may have: large enough to read, small enough to make quickly.
MIN_SIZE: Final = 120
MAX_SIZE: Final = 1200
#: How long a GIF shows each step, and the last one (a pause before it loops).
FRAME_MS: Final = 700
LAST_FRAME_MS: Final = 3000

#: Drawn this many times larger, then scaled down: smooth edges without hand-made
#: antialiasing (Pillow's shapes have none).
_SUPERSAMPLE: Final = 2
_MARGIN: Final = style.PAD + style.LABELS + 6
_TOTAL: Final = SIZE * style.CELL_SIZE + 2 * _MARGIN

_RGB = tuple[int, int, int]


def board_image(
    state: State, *, last_action: Action | None = None, size: int = DEFAULT_SIZE
) -> Image.Image:
    """The board of ``state`` as an RGB picture ``size`` pixels wide and high.

    ``last_action`` (the action that led to ``state``) is marked as the SVG board marks it.
    """
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise ValueError(
            f"the size of a board picture is {MIN_SIZE} to {MAX_SIZE} pixels, not {size}"
        )
    big = size * _SUPERSAMPLE
    image = Image.new("RGB", (big, big), _rgb("#ffffff"))
    _Painter(image, big / _TOTAL).paint(state, last_action)
    return image.resize((size, size), Image.Resampling.LANCZOS)


def png_bytes(
    state: State, *, last_action: Action | None = None, size: int = DEFAULT_SIZE
) -> bytes:
    """The board of ``state`` as a PNG file's bytes."""
    out = io.BytesIO()
    board_image(state, last_action=last_action, size=size).save(out, format="PNG", optimize=True)
    return out.getvalue()


def game_frames(
    game: Game | tuple[Sequence[State], Sequence[Action]], *, size: int = DEFAULT_SIZE
) -> list[Image.Image]:
    """One picture per step of a game: its start, then the state after each action with
    that action marked (so there is one more frame than actions).

    ``game`` is a :class:`Game` or its states and actions (a copy taken while the game
    is locked, for one that goes on playing meanwhile)."""
    states, history = (game.states, game.history) if isinstance(game, Game) else game
    if len(states) != len(history) + 1:
        raise ValueError("a game has one state more than actions")
    actions: list[Action | None] = [None, *history]
    return [
        board_image(state, last_action=action, size=size)
        for state, action in zip(states, actions, strict=True)
    ]


def gif_bytes(
    game: Game | tuple[Sequence[State], Sequence[Action]],
    *,
    size: int = DEFAULT_SIZE,
    frame_ms: int = FRAME_MS,
    last_frame_ms: int = LAST_FRAME_MS,
) -> bytes:
    """The game as an animated GIF that loops: each action a frame, the last one held
    ``last_frame_ms``; a game without actions is one still frame."""
    if frame_ms <= 0 or last_frame_ms <= 0:
        raise ValueError("a frame is shown for a positive number of milliseconds")
    pictures = game_frames(game, size=size)
    palette = _shared_palette(pictures)
    frames = [frame.quantize(palette=palette, dither=Image.Dither.NONE) for frame in pictures]
    durations = [frame_ms] * (len(frames) - 1) + [last_frame_ms]
    out = io.BytesIO()
    frames[0].save(
        out,
        format="GIF",
        save_all=True,
        append_images=frames[1:],
        duration=durations,
        loop=0,
        disposal=1,
        optimize=False,
    )
    return out.getvalue()


def _shared_palette(frames: Sequence[Image.Image]) -> Image.Image:
    """One palette of at most 128 colours for every frame (a GIF holds 256 at most),
    chosen from all of them: frames in one palette differ only where the board changed,
    which keeps the file small (about a quarter of one palette per frame)."""
    side = max(1, frames[0].width // 4)
    strip = Image.new("RGB", (side, side * len(frames)))
    for i, frame in enumerate(frames):
        strip.paste(frame.resize((side, side), Image.Resampling.NEAREST), (0, side * i))
    return strip.quantize(colors=128, method=Image.Quantize.MEDIANCUT)


def _rgb(colour: str) -> _RGB:
    value = int(colour.removeprefix("#"), 16)
    return (value >> 16) & 0xFF, (value >> 8) & 0xFF, value & 0xFF


@cache
def _font(pixels: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's own font (no file of the system is needed) at ``pixels`` high."""
    return ImageFont.load_default(size=pixels)


class _Painter:
    """Draws one board in the SVG's user units, scaled by ``scale`` pixels per unit."""

    def __init__(self, image: Image.Image, scale: float) -> None:
        self.image = image
        self.draw = ImageDraw.Draw(image)
        self.k = scale

    def px(self, units: float) -> int:
        return round(units * self.k)

    def box(self, x0: float, y0: float, x1: float, y1: float) -> tuple[int, int, int, int]:
        return self.px(x0), self.px(y0), self.px(x1), self.px(y1)

    @staticmethod
    def corner(cell: int) -> tuple[float, float]:
        """Rank 7 at the top, file a on the left, as on the site."""
        c = style.CELL_SIZE
        return _MARGIN + c * file_index(cell), _MARGIN + c * (SIZE - 1 - rank_index(cell))

    def centre(self, cell: int) -> tuple[float, float]:
        x, y = self.corner(cell)
        return x + style.CELL_SIZE / 2, y + style.CELL_SIZE / 2

    def paint(self, state: State, last_action: Action | None) -> None:
        c, pad = style.CELL_SIZE, style.PAD
        edge = SIZE * c + 2 * pad
        self.draw.rounded_rectangle(
            self.box(_MARGIN - pad, _MARGIN - pad, _MARGIN - pad + edge, _MARGIN - pad + edge),
            radius=self.px(10),
            fill=_rgb(style.BOARD),
            outline=_rgb(style.GRID),
            width=max(1, self.px(2)),
        )
        marked, removed = action_cells(last_action, state.rules) if last_action else ((), ())
        entry = ENTRY_CELLS[last_action.index] if isinstance(last_action, Insertion) else None
        lane = (
            frozenset(LANE_CELLS[last_action.index])
            if isinstance(last_action, Insertion)
            else frozenset(marked)
        )
        for cell in CELLS:
            fill, stroke, width = style.CELL, style.GRID, 1.0
            if cell in lane:
                fill = style.LAST_LANE
            if cell == entry or cell in removed:
                fill, stroke, width = style.LAST, style.LAST_STROKE, 3.0
            x, y = self.corner(cell)
            self.draw.rounded_rectangle(
                self.box(x + 1, y + 1, x + c - 1, y + c - 1),
                radius=self.px(4),
                fill=_rgb(fill),
                outline=_rgb(stroke),
                width=max(1, self.px(width)),
            )
        if isinstance(last_action, Scoring) and len(marked) > 1:
            self.scored_line(state, last_action, marked, removed)
        for cell in CELLS:
            seat = state.seat_at(cell)
            if seat is not None:
                self.marble(cell, seat)
        self.coordinates()

    def marble(self, cell: int, seat: int) -> None:
        cx, cy = self.centre(cell)
        r = style.CELL_SIZE * 0.4
        self.draw.ellipse(
            self.box(cx - r, cy - r, cx + r, cy + r),
            fill=_rgb(style.MARBLE_COLOURS[seat]),
            outline=_rgb(style.OUTLINE),
            width=max(1, self.px(2.5)),
        )
        ink = _rgb(style.SYMBOL_INK[seat])
        symbol = style.SYMBOLS[seat]
        stroke = max(1, self.px(3.5))
        if symbol == "ring":
            s = r * 0.5 + 1.75  # the SVG's ring is centred on r/2; Pillow draws inward
            self.draw.ellipse(self.box(cx - s, cy - s, cx + s, cy + s), outline=ink, width=stroke)
        elif symbol == "dot":
            s = r * 0.3
            self.draw.ellipse(self.box(cx - s, cy - s, cx + s, cy + s), fill=ink)
        elif symbol == "cross":
            d = r * 0.42
            for (x0, y0), (x1, y1) in (
                ((cx - d, cy - d), (cx + d, cy + d)),
                ((cx - d, cy + d), (cx + d, cy - d)),
            ):
                self.draw.line(self.box(x0, y0, x1, y1), fill=ink, width=stroke)
                for x, y in ((x0, y0), (x1, y1)):  # round caps, as the SVG's
                    h = 1.75
                    self.draw.ellipse(self.box(x - h, y - h, x + h, y + h), fill=ink)

    def scored_line(
        self,
        state: State,
        action: Scoring,
        line: tuple[int, ...],
        removed: tuple[int, ...],
    ) -> None:
        """A bar through the scored line and a ghost where each marble came off."""
        seat = state.seat_at(action.keep)
        ghost = _rgb(style.MARBLE_COLOURS[seat] if seat is not None else "#888888")
        layer = Image.new("RGBA", self.image.size, (0, 0, 0, 0))
        pen = ImageDraw.Draw(layer)
        (x1, y1), (x2, y2) = self.centre(line[0]), self.centre(line[-1])
        bar = (*_rgb(style.LAST_STROKE), 153)
        pen.line(self.box(x1, y1, x2, y2), fill=bar, width=self.px(6))
        for x, y in ((x1, y1), (x2, y2)):
            pen.ellipse(self.box(x - 3, y - 3, x + 3, y + 3), fill=bar)
        r = style.CELL_SIZE * 0.36
        for cell in removed:
            cx, cy = self.centre(cell)
            pen.ellipse(self.box(cx - r, cy - r, cx + r, cy + r), fill=(*ghost, 90))
            self.dashed_circle(pen, cx, cy, r)
        self.image.paste(Image.alpha_composite(self.image.convert("RGBA"), layer).convert("RGB"))

    def dashed_circle(self, pen: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
        """The ghost's outline in dashes, as the SVG draws it."""
        dashes = 12
        step = 360 / dashes
        for i in range(dashes):
            start = i * step
            pen.arc(
                self.box(cx - r, cy - r, cx + r, cy + r),
                start=start,
                end=start + step * 0.55,
                fill=(*_rgb(style.OUTLINE), 255),
                width=max(1, self.px(2)),
            )

    def coordinates(self) -> None:
        """Ranks on the left, files below, as on the site's board."""
        font = _font(max(6, self.px(16)))
        ink = _rgb(style.LABEL)
        gap = style.PAD + style.LABELS / 2
        for r in range(SIZE):
            _, cy = self.centre(8 * r)
            at = (self.px(_MARGIN - gap), self.px(cy))
            self.draw.text(at, RANKS[r], fill=ink, font=font, anchor="mm")
        bottom = _MARGIN + SIZE * style.CELL_SIZE
        for f in range(SIZE):
            cx, _ = self.centre(f)
            at = (self.px(cx), self.px(bottom + gap))
            self.draw.text(at, FILES[f], fill=ink, font=font, anchor="mm")
