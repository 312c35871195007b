"""The shipped set of puzzles: package data made by ``shiftago puzzles generate``
(docs/puzzles.md, "The shipped set"), JSON lines compressed with gzip."""

from __future__ import annotations

import functools
import gzip
from importlib import resources

from .puzzle import Puzzle

#: The file of the shipped set, beside this module.
SHIPPED = "shipped.jsonl.gz"


def read_lines(text: str) -> list[Puzzle]:
    """The puzzles of a puzzle file's text (blank lines skipped)."""
    return [Puzzle.from_json(line) for line in text.splitlines() if line.strip()]


@functools.cache
def shipped() -> tuple[Puzzle, ...]:
    """Every puzzle of the shipped set, in the file's order (read once)."""
    packed = resources.files(__package__).joinpath(SHIPPED).read_bytes()
    return tuple(read_lines(gzip.decompress(packed).decode("utf-8")))
