"""Raster pictures: PNG sizes, GIF frames (one per step), the marked last push, and the
marbles an Expert scoring took off."""

from __future__ import annotations

import io
import itertools

import pytest
from PIL import Image, ImageChops

from shiftago.core import Game, Rules, Variant
from shiftago.core.geometry import CELL_BY_NAME, SIZE, file_index, rank_index
from shiftago.formats import board_style as style
from shiftago.formats.picture import (
    FRAME_MS,
    LAST_FRAME_MS,
    board_image,
    game_frames,
    gif_bytes,
    png_bytes,
)

#: Orange builds a1-d1 while green and blue fill files g and f: a line of 4 (3 players).
ORANGE_LINE = ("Ba", "Tg", "Tf", "Bb", "Tg", "Tf", "Bc", "Tg", "Tf", "Bd")


def play(rules: Rules, *actions: str, first: int = 0) -> Game:
    game = Game(rules, first=first)
    for action in actions:
        game.play(action)
    return game


def rgb(colour: str) -> tuple[int, int, int]:
    value = int(colour.removeprefix("#"), 16)
    return (value >> 16) & 0xFF, (value >> 8) & 0xFF, value & 0xFF


def pixel_at(image: Image.Image, cell: str, dx: float = 0.0, dy: float = 0.0) -> tuple[int, ...]:
    """The pixel at a cell's centre, moved by ``dx``/``dy`` cells (the layout of the SVG)."""
    index = CELL_BY_NAME[cell]
    margin = style.PAD + style.LABELS + 6
    total = SIZE * style.CELL_SIZE + 2 * margin
    k = image.width / total
    x = margin + style.CELL_SIZE * (file_index(index) + 0.5 + dx)
    y = margin + style.CELL_SIZE * (SIZE - 1 - rank_index(index) + 0.5 + dy)
    value = image.convert("RGB").getpixel((round(x * k), round(y * k)))
    assert isinstance(value, tuple)
    return value


def near(a: tuple[int, ...], b: tuple[int, ...], tolerance: int = 24) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))


def test_png_is_a_png_of_the_asked_size() -> None:
    game = play(Rules(), "L3")
    data = png_bytes(game.state, last_action=game.history[-1], size=300)
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    assert image.size == (300, 300)


@pytest.mark.parametrize("size", [0, 50, 5000])
def test_a_size_out_of_bounds_is_refused(size: int) -> None:
    with pytest.raises(ValueError, match="pixels"):
        board_image(Game(Rules(), first=0).state, size=size)


def test_marbles_have_their_colours_and_an_empty_cell_its_own() -> None:
    game = play(Rules(Variant.EXPRESS, 4), "L3", "L2", "L1", "Bg")
    image = board_image(game.state, size=600)
    # off the symbol, each marble shows its seat's colour
    assert near(pixel_at(image, "a3", dx=0.28), rgb(style.MARBLE_COLOURS[0]))
    assert near(pixel_at(image, "a2", dx=0.28), rgb(style.MARBLE_COLOURS[1]))
    assert near(pixel_at(image, "a1", dx=0.28), rgb(style.MARBLE_COLOURS[2]))
    assert near(pixel_at(image, "g1", dx=0.28), rgb(style.MARBLE_COLOURS[3]))
    assert near(pixel_at(image, "d4"), rgb(style.CELL))


def test_symbols_tell_the_colours_apart_without_colour() -> None:
    """Green's ring, blue's dot and white's cross put their ink where orange has none."""
    game = play(Rules(Variant.EXPRESS, 4), "L3", "L2", "L1", "Bg")
    image = board_image(game.state, size=600)
    white_ink = rgb(style.SYMBOL_INK[1])
    assert near(pixel_at(image, "a3"), rgb(style.MARBLE_COLOURS[0]))  # orange: plain
    assert near(pixel_at(image, "a2", dx=0.2), white_ink)  # green: the ring
    assert not near(pixel_at(image, "a2"), white_ink)  # ... hollow
    assert near(pixel_at(image, "a1"), white_ink)  # blue: the dot
    assert near(pixel_at(image, "g1"), rgb(style.SYMBOL_INK[3]), tolerance=60)  # white: x


def test_the_last_push_is_marked_at_its_entry_cell_and_lane() -> None:
    game = play(Rules(), "L3", "Td")
    marked = board_image(game.state, last_action=game.history[-1], size=600)
    plain = board_image(game.state, size=600)
    corner = {"dx": -0.42, "dy": -0.42}  # inside the cell, off the marble
    assert near(pixel_at(marked, "d7", **corner), rgb(style.LAST))
    assert near(pixel_at(marked, "d4", **corner), rgb(style.LAST_LANE))
    assert near(pixel_at(marked, "e4", **corner), rgb(style.CELL))
    assert near(pixel_at(plain, "d7", **corner), rgb(style.CELL))


def test_gif_has_a_frame_per_action_and_the_start() -> None:
    game = play(Rules(), "L3", "Td", "R5", "Ba")
    image = Image.open(io.BytesIO(gif_bytes(game, size=200)))
    assert image.format == "GIF"
    assert image.size == (200, 200)
    assert image.n_frames == len(game.history) + 1
    durations = []
    for n in range(image.n_frames):
        image.seek(n)
        durations.append(image.info["duration"])
    assert durations == [FRAME_MS] * len(game.history) + [LAST_FRAME_MS]
    assert image.info.get("loop") == 0


def test_each_frame_marks_its_push_and_differs_from_the_one_before() -> None:
    game = play(Rules(), "L3", "Td", "R5")
    frames = game_frames(game, size=300)
    assert len(frames) == 4
    for before, after in itertools.pairwise(frames):
        assert ImageChops.difference(before, after).getbbox() is not None
    corner = {"dx": -0.42, "dy": -0.42}
    assert near(pixel_at(frames[2], "d7", **corner), rgb(style.LAST))  # Td's entry
    assert not near(pixel_at(frames[3], "d7", **corner), rgb(style.LAST))  # R5's frame
    assert near(pixel_at(frames[3], "g5", **corner), rgb(style.LAST))  # R5's entry


def test_gif_frames_in_one_palette_still_show_the_marked_push() -> None:
    game = play(Rules(), "L3", "Td")
    image = Image.open(io.BytesIO(gif_bytes(game, size=300)))
    image.seek(2)
    assert near(pixel_at(image, "d7", dx=-0.42, dy=-0.42), rgb(style.LAST), tolerance=30)


def test_an_expert_scoring_frame_shows_the_removed_marbles() -> None:
    game = play(Rules(Variant.EXPERT, 3), *ORANGE_LINE, "xa1-d1")
    frames = game_frames(game, size=600)
    scored = frames[-1]
    before = frames[-2]
    # the emptied cells (b1, c1; d1 too with 3 players) are tinted, each with a ghost
    # of orange; the kept end a1 keeps its marble
    for cell in ("b1", "c1", "d1"):
        assert game.state.seat_at(CELL_BY_NAME[cell]) is None
        ghost = pixel_at(scored, cell, dx=0.2, dy=0.2)
        assert not near(ghost, rgb(style.LAST), tolerance=8)
        assert not near(ghost, pixel_at(before, cell, dx=0.2, dy=0.2), tolerance=8)
        assert near(pixel_at(scored, cell, dx=-0.38, dy=-0.38), rgb(style.LAST))
    assert near(pixel_at(scored, "a1", dx=0.28), rgb(style.MARBLE_COLOURS[0]))


def test_a_game_without_actions_is_one_frame() -> None:
    image = Image.open(io.BytesIO(gif_bytes(Game(Rules(), first=0), size=150)))
    assert image.n_frames == 1
