"""The results file and the record files: what makes a long match resumable.

Every finished game is appended at once to the results file as one JSON line (see
:meth:`GameResult.to_json`), and its record is written to a file of its own, so a
match that is stopped (Ctrl-C, a killed job, a lost machine) loses at most the games
in progress. Running it again with the same results file skips every game whose key
(:func:`game_key`) is already there. One file may hold several matches: keys that do
not belong to the current match are left alone.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Sequence
from pathlib import Path

from shiftago.core import Rules
from shiftago.match.clock import TimeControl
from shiftago.match.games import GameResult, game_file_stem
from shiftago.match.participants import Participant
from shiftago.match.schedule import Slot


def game_key(
    rules: Rules,
    plies: int,
    seed: int,
    slot: Slot,
    seats: Sequence[Participant],
    clock: TimeControl | None = None,
    *,
    book: str | None = None,
) -> str:
    """What identifies a game across runs: the settings, the opening, the seating and
    the time control (left out without one, so that untimed keys stay as they were).
    An opening from a book is named by ``book``, the digest of its actions, in place
    of the random actions' count.

    >>> from shiftago.match.participants import parse_participants
    >>> a, b = parse_participants(["greedy", "level:2"])
    >>> game_key(Rules(), 2, 0, Slot(3, 0, 1, (1, 0)), [b, a])
    'express 2p limit=- plies=2 seed=0 opening=3 rotation=1 seats=level:2|greedy handicap=0,0'
    >>> game_key(Rules(), 2, 0, Slot(3, 0, 1, (1, 0)), [b, a], TimeControl(180, 2))[-22:]
    'handicap=0,0 clock=3+2'
    >>> game_key(Rules(), 2, 0, Slot(3, 0, 1, (1, 0)), [b, a], book="0123456789")[:49]
    'express 2p limit=- book=0123456789 seed=0 opening'
    """
    limit = "-" if rules.action_limit is None else str(rules.action_limit)
    source = f"plies={plies}" if book is None else f"book={book}"
    return (
        f"{rules.variant.value} {rules.players}p limit={limit} {source} seed={seed} "
        f"opening={slot.opening} rotation={slot.rotation} "
        f"seats={'|'.join(p.key for p in seats)} "
        f"handicap={','.join(map(str, rules.handicap))}"
        + ("" if clock is None else f" clock={clock}")
    )


def record_name(result: GameResult) -> str:
    """The record file's name: opening, group, rotation, and a digest of the key."""
    return game_file_stem(result.opening, result.group, result.rotation, result.key) + ".txt"


class ResultsFile:
    """A results file (JSON lines), read once and appended to game by game."""

    def __init__(self, path: Path) -> None:
        self.path = path
        #: Lines that could not be read (a line cut off by a kill, say).
        self.skipped = 0

    def load(self) -> dict[str, GameResult]:
        """The games in the file by key (the last line of a key wins)."""
        found: dict[str, GameResult] = {}
        self.skipped = 0
        if not self.path.exists():
            return found
        with self.path.open(encoding="utf-8") as lines:
            for line in lines:
                if not line.strip():
                    continue
                try:
                    result = GameResult.from_json(json.loads(line))
                except (ValueError, KeyError, TypeError):
                    self.skipped += 1
                    continue
                found[result.key] = result
        return found

    def append(self, result: GameResult) -> None:
        """Add one game: a single write of one line, flushed to the disk at once."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        line = json.dumps(result.to_json(), separators=(",", ":")) + "\n"
        with self.path.open("a", encoding="utf-8") as out:
            # A line cut off by an earlier kill must not swallow this one.
            if out.tell() > 0 and not _ends_with_newline(self.path):
                line = "\n" + line
            out.write(line)
            out.flush()
            os.fsync(out.fileno())


def default_records_dir(results: Path) -> Path:
    """Where records go by default: ``NAME-records/`` beside the results file ``NAME.jsonl``."""
    return results.with_name(results.stem + "-records")


def default_games_file(results: Path) -> Path:
    """The match's records file by default: ``NAME-games.txt`` beside ``NAME.jsonl``."""
    return results.with_name(results.stem + "-games.txt")


def write_games_file(path: Path, results: Sequence[GameResult], records: Path | None) -> int:
    """Write every game of ``results`` (in their order) into one records file, the form
    of :func:`shiftago.formats.record.format_records`: the records a blank line apart.
    A game's text is its ``record``, else its record file in ``records`` (a game of an
    earlier run); a game with neither is left out. The file is replaced whole (written
    beside it, then renamed), so that a reader never sees half of it; how many games
    it holds."""
    texts = []
    for result in results:
        text = result.record
        if not text and records is not None and result.record_file is not None:
            with contextlib.suppress(OSError):
                text = (records / result.record_file).read_text(encoding="utf-8")
        if text.strip():
            texts.append(text.strip())
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    partial.write_text("".join(t + "\n\n" for t in texts).removesuffix("\n"), encoding="utf-8")
    partial.replace(path)
    return len(texts)


def write_record(directory: Path, result: GameResult) -> str:
    """Write a game's record to its own file in ``directory``; the file's name."""
    directory.mkdir(parents=True, exist_ok=True)
    name = record_name(result)
    (directory / name).write_text(result.record + "\n", encoding="utf-8")
    return name


def _ends_with_newline(path: Path) -> bool:
    with path.open("rb") as f:
        f.seek(-1, os.SEEK_END)
        return f.read(1) == b"\n"
