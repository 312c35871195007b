"""Game records: a whole game as text in the spirit of PGN, read back by replaying it.

A :class:`Record` keeps what replays the game (rules, the first seat or the set-up
position, the actions) and what people want to know about it (who played, when, the
result). The text form is specified in ``docs/records.md``; reading a record replays
every action through the rules, so a record that reads is a game that happened, and a
broken one is reported with its line number. The JSON form is in :mod:`record_json`.

This module gathers the public names of records from the modules that hold them: the
value and its writing (:mod:`record_model`), what is said about the moves
(:mod:`record_notes`), reading a text (:mod:`record_read`) or a handle lazily
(:mod:`record_stream`), and the syntax they share (:mod:`record_syntax`).
"""

from __future__ import annotations

from shiftago.formats.record_model import (
    KINDS,
    WIDTH,
    Kind,
    Record,
    Seat,
    describe,
    format_record,
    format_records,
    lot_seed,
    new_game,
    play,
    position_text,
    result_problem,
    result_words,
)
from shiftago.formats.record_notes import MARKS, Note, Variation
from shiftago.formats.record_read import parse_record, parse_records
from shiftago.formats.record_stream import (
    GameHeaders,
    RecordReader,
    iter_records,
    read_record,
    scan_headers,
)
from shiftago.formats.record_syntax import UNFINISHED, RecordError, turn_numbers

__all__ = [
    "KINDS",
    "MARKS",
    "UNFINISHED",
    "WIDTH",
    "GameHeaders",
    "Kind",
    "Note",
    "Record",
    "RecordError",
    "RecordReader",
    "Seat",
    "Variation",
    "describe",
    "format_record",
    "format_records",
    "iter_records",
    "lot_seed",
    "new_game",
    "parse_record",
    "parse_records",
    "play",
    "position_text",
    "read_record",
    "result_problem",
    "result_words",
    "scan_headers",
    "turn_numbers",
]
