"""``shiftago puzzles``: generate puzzle files from games and self-play, and check them.

The work is the engine's (:mod:`shiftago.engine.puzzles`); this program reads records
and puzzle files, shows a progress bar on standard error and writes JSON lines (gzip
when the name ends in ``.gz``, with no time stamp so that the same run writes the same
bytes).
"""

from __future__ import annotations

import gzip
import io
import random
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TextIO

import click
import numpy as np

from shiftago.core import Rules, Variant
from shiftago.engine.puzzles.generate import Harvest, retagged
from shiftago.engine.puzzles.harvest import candidates, game_states, self_play
from shiftago.engine.puzzles.puzzle import Puzzle
from shiftago.engine.puzzles.solving import check_puzzle
from shiftago.formats.record_stream import iter_records
from shiftago.interfaces.shared.catalogues import _, ngettext
from shiftago.interfaces.shared.game_words import colour_name, error_words


@dataclass(frozen=True)
class Job:
    """What ``generate`` is asked for."""

    records: tuple[Path, ...]
    self_play: int
    seed: int
    variant: Variant
    players: int
    most: int
    nodes: int
    limit: int | None


def game_seed(seed: int, variant: Variant, players: int, number: int) -> str:
    """The seed of one self-play game: the same job plays the same games."""
    return f"{seed}/{variant}/{players}/{number}"


def _games(job: Job) -> Iterator[tuple[str, list[np.ndarray]]]:
    for path in job.records:
        with path.open(encoding="utf-8") as handle:
            for number, record in enumerate(iter_records(handle), start=1):
                yield f"{path.name} game {number}", game_states(record.to_game())
    rules = Rules(job.variant, job.players)
    for number in range(job.self_play):
        rng = random.Random(game_seed(job.seed, job.variant, job.players, number))
        yield f"self-play seed {job.seed} game {number}", self_play(rules, rng)


def _count_games(job: Job) -> int:
    total = job.self_play
    for path in job.records:
        with path.open(encoding="utf-8") as handle:
            total += sum(1 for _ in iter_records(handle))
    return total


class _PackedOnClose(io.StringIO):
    """Text gathered in memory and written gzip-packed when closed: no file name and
    no time stamp in the header, so the same puzzles make the same bytes."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = path

    def close(self) -> None:
        if not self.closed:
            self.path.write_bytes(gzip.compress(self.getvalue().encode("utf-8"), mtime=0))
        super().close()


def open_text(path: Path, mode: str) -> IO[str]:
    """A puzzle file for reading (``"r"``) or writing (``"w"``) text, gzip when its
    name ends in ``.gz``."""
    if path.suffix == ".gz":
        if mode == "w":
            return _PackedOnClose(path)
        return io.TextIOWrapper(gzip.GzipFile(filename=str(path), mode="rb"), encoding="utf-8")
    return path.open(mode, encoding="utf-8")


def generate(job: Job, out: IO[str], err: TextIO) -> Harvest:
    """Run ``job``, writing each puzzle's line to ``out`` as it is found."""
    harvest = Harvest(most=job.most, nodes=job.nodes)
    start = time.monotonic()
    label = _("games")
    with click.progressbar(_games(job), length=_count_games(job), label=label, file=err) as games:
        for source, states in games:
            for s in candidates(states):
                puzzle = harvest.consider(s, source)
                if puzzle is not None:
                    out.write(puzzle.to_json() + "\n")
                if job.limit is not None and len(harvest.puzzles) >= job.limit:
                    break
            if job.limit is not None and len(harvest.puzzles) >= job.limit:
                break
    seconds = time.monotonic() - start
    found = ngettext(
        "%(n)s puzzle from %(positions)s positions (%(unknown)s beyond the node budget) "
        "in %(seconds)s s",
        "%(n)s puzzles from %(positions)s positions (%(unknown)s beyond the node budget) "
        "in %(seconds)s s",
        len(harvest.puzzles),
    )
    values = {"positions": harvest.candidates, "unknown": harvest.unknown}
    err.write(found % {"n": len(harvest.puzzles), **values, "seconds": round(seconds)} + "\n")
    return harvest


def puzzle_lines(path: Path) -> list[tuple[int, str]]:
    """The lines of a puzzle file with their numbers (blank lines skipped)."""
    with open_text(path, "r") as handle:
        return [(number, line) for number, line in enumerate(handle, start=1) if line.strip()]


def read_puzzles(path: Path) -> Iterator[tuple[int, Puzzle]]:
    """The puzzles of a file with their line numbers (blank lines skipped)."""
    for number, line in puzzle_lines(path):
        yield number, Puzzle.from_json(line)


def check(path: Path, err: TextIO) -> tuple[list[str], int, int]:
    """Re-prove every puzzle of ``path``: the problems found in the file's order, one
    line each with its line number (a line that is no puzzle is one of them, and the
    others are still checked); how many puzzles the file has, and how many fail."""
    problems: list[tuple[int, str]] = []
    puzzles: list[tuple[int, Puzzle]] = []
    lines = puzzle_lines(path)
    for number, line in lines:
        try:
            puzzles.append((number, Puzzle.from_json(line)))
        except ValueError as error:
            problems.append((number, error_words(error)))
    ids: set[str] = set()
    with click.progressbar(puzzles, label=_("puzzles"), file=err) as bar:
        for number, puzzle in bar:
            if puzzle.id in ids:
                problems.append((number, _("puzzle %(id)s appears twice") % {"id": puzzle.id}))
            ids.add(puzzle.id)
            problem = check_puzzle(puzzle)
            if problem:
                words = problem.words(_, colour_name)
                problems.append(
                    (number, _("puzzle %(id)s: %(problem)s") % {"id": puzzle.id, "problem": words})
                )
    problems.sort(key=lambda found: found[0])
    failed = len({number for number, _said in problems})
    lined = [_("line %(n)s: %(said)s") % {"n": number, "said": text} for number, text in problems]
    return lined, len(lines), failed


def main_check(path: Path) -> int:
    """``puzzles check``: 0 when every puzzle holds, else 1 with each failure named."""
    problems, total, failed = check(path, sys.stderr)
    for line in problems:
        print(line)
    proven = ngettext(
        "%(proven)s of %(n)s puzzle proven", "%(proven)s of %(n)s puzzles proven", total
    )
    print(proven % {"proven": total - failed, "n": total})
    return 1 if problems else 0


def main_retag(path: Path, out: Path) -> None:
    """``puzzles retag``: every puzzle of ``path`` with its themes found again, to
    ``out`` (read whole first, so ``out`` may be ``path``); how many changed, on
    standard error."""
    puzzles = [puzzle for _number, puzzle in read_puzzles(path)]
    changed = 0
    with open_text(out, "w") as handle:
        for puzzle in puzzles:
            again = retagged(puzzle)
            changed += again.themes != puzzle.themes
            handle.write(again.to_json() + "\n")
    said = ngettext(
        "%(changed)s of %(n)s puzzle has other themes now",
        "%(changed)s of %(n)s puzzles have other themes now",
        len(puzzles),
    )
    sys.stderr.write(said % {"changed": changed, "n": len(puzzles)} + "\n")
