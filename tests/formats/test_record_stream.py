"""Reading records from a handle: lazily, game by game, with a broken game reported at
its line and passed over."""

from __future__ import annotations

import io

import pytest

from shiftago.core import Game, Rules, Variant
from shiftago.formats.record import (
    GameHeaders,
    Record,
    RecordError,
    RecordReader,
    format_records,
    iter_records,
    parse_records,
    read_record,
    scan_headers,
)

GAMES = 1000
BAD = 500  # the broken game, counted from 0


class CountingHandle(io.StringIO):
    """A text handle that counts the lines read from it."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.reads = 0

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        self.reads += 1
        return super().readline(-1 if size is None else size)

    def read(self, size: int | None = -1) -> str:
        raise AssertionError("the reader reads line by line")


def many_records(count: int) -> list[Record]:
    records = []
    for number in range(count):
        game = Game(Rules(Variant.EXPRESS, 2), first=number % 2)
        for action in ("Td", "Tc", "L1")[: 1 + number % 3]:
            game.play(action)
        records.append(Record.from_game(game, event=f"game {number}"))
    return records


def file_with_a_bad_game() -> tuple[str, list[Record], int]:
    """1,000 games; game 500 has an action the rules refuse. Gives the text, the good
    records and the line of the bad action."""
    records = many_records(GAMES)
    text = format_records(records)
    games = text.split("\n\n[Event")
    games[BAD] = games[BAD].replace("1. Td", "1. Td Td Td Td Td Td Td Td")
    text = "\n\n[Event".join(games)
    line = text.splitlines().index(next(g for g in text.splitlines() if "Td Td Td" in g)) + 1
    return text, records[:BAD] + records[BAD + 1 :], line


def test_thousand_games_read_lazily_and_past_a_bad_one() -> None:
    text, good, line = file_with_a_bad_game()
    total_lines = text.count("\n") + 1
    handle = CountingHandle(text)
    errors: list[RecordError] = []
    records = iter_records(handle, on_error=errors.append)
    first = next(records)
    assert first == good[0]
    assert handle.reads <= 8 < total_lines  # the first game came before the file was read
    rest = list(records)
    assert [first, *rest] == good
    assert len(errors) == 1
    assert errors[0].line == line
    assert "illegal move: Td (lane full)" in str(errors[0])
    assert handle.reads >= total_lines


def test_a_syntax_error_spoils_only_its_game() -> None:
    records = many_records(4)
    text = format_records(records)
    lines = text.split("\n")
    where = [i for i, text in enumerate(lines) if text.startswith("[Event")][2]
    lines[where + 1] = '[Variant "express"'  # the third game's second header is broken
    errors: list[RecordError] = []
    read = list(iter_records(io.StringIO("\n".join(lines)), on_error=errors.append))
    assert read == [records[0], records[1], records[3]]
    assert [e.line for e in errors] == [where + 2]
    assert "a header is" in str(errors[0])


@pytest.mark.parametrize(
    ("change", "line", "words"),
    [
        (lambda t: t.replace("1. Td *", "1. Td } *", 1), 7, "'}' closes no comment"),
        (lambda t: t.replace("1. Td *\n\n", "1. Td\n", 1), 8, "moves before them have no"),
        (lambda t: t.replace("1. Td *", "1. Td ) *", 1), 7, "')' closes no variation"),
        (lambda t: t.replace("1. Td *", "1. Td * Tc", 1), 7, "after the result token"),
        (lambda t: t.replace("1. Td *", "1. Td *\nTc", 1), 8, "after the result token"),
    ],
)
def test_broken_moves_spoil_only_their_game(change: object, line: int, words: str) -> None:
    records = many_records(6)
    text = change(format_records(records))  # type: ignore[operator]
    errors: list[RecordError] = []
    read = list(iter_records(io.StringIO(text), on_error=errors.append))
    assert len(errors) == 1 and words in str(errors[0])
    assert errors[0].line == line
    assert read == (records if "\nTc" in text else records[1:])


def test_without_on_error_the_error_is_raised() -> None:
    text, good, line = file_with_a_bad_game()
    records = iter_records(io.StringIO(text))
    for expected in good[:BAD]:
        assert next(records) == expected
    with pytest.raises(RecordError) as info:
        next(records)
    assert info.value.line == line


def test_read_record_reads_one_game_at_a_time() -> None:
    records = many_records(3)
    handle = io.StringIO(format_records(records) + "\n{ a comment after the last game }\n")
    assert [read_record(handle) for _ in range(3)] == records
    assert read_record(handle) is None
    assert read_record(handle) is None


def test_a_reader_counts_lines_across_games() -> None:
    text = format_records(many_records(2)).replace("2. Tc", "2. Q9")
    reader = RecordReader(io.StringIO(text))
    assert reader.read() is not None
    with pytest.raises(RecordError, match=r"^line 15: 'Q9' is not an action"):
        reader.read()
    assert reader.read() is None


def test_the_end_of_the_file_in_the_middle_of_a_game() -> None:
    text = format_records(many_records(2))
    errors: list[RecordError] = []
    read = list(iter_records(io.StringIO(text[:-3]), on_error=errors.append))
    assert len(read) == 1 and len(errors) == 1
    assert "ends without a result token" in str(errors[0])


def test_lines_end_as_in_parse_records() -> None:
    records = many_records(3)
    for text in (format_records(records), format_records(records).replace("\n", "\r\n")):
        assert list(iter_records(io.StringIO("\ufeff" + text))) == records
    assert list(iter_records(io.StringIO(format_records(records).replace("\n", "\r")))) == records


def test_scan_headers_reads_headers_only() -> None:
    text, _, _ = file_with_a_bad_game()
    text = text.replace('[Event "game 7"]', '[Event "game 7"]\n[Site "Berlin"]')
    found = list(scan_headers(io.StringIO(text)))
    assert len(found) == GAMES  # the bad game's moves are not replayed
    assert found[0] == GameHeaders(
        1, {"Event": "game 0", "Variant": "express", "Players": "2", "First": "o", "Result": "*"}
    )
    assert found[7].headers["Site"] == "Berlin"
    assert [h.line for h in found[:2]] == [1, 9]


def test_parse_records_still_reads_a_whole_text() -> None:
    records = many_records(5)
    assert parse_records(format_records(records)) == records
    text, _, line = file_with_a_bad_game()
    with pytest.raises(RecordError) as info:
        parse_records(text)
    assert info.value.line == line


@pytest.mark.parametrize(
    ("change", "line"),
    [
        (lambda t: t.replace("2. Tc *", "2. Tc } *", 1), 15),  # broken moves
        (lambda t: t.replace('[First "g"]', '[First "g"', 1), 12),  # a broken header
        (lambda t: t.replace("2. Tc *\n\n", "2. Tc\n", 1), 16),  # no result token
        (lambda t: t.replace("2. Tc *", "2. Q9 *", 1), 15),  # an action that is not one
    ],
)
def test_read_record_goes_on_after_a_broken_game(change: object, line: int) -> None:
    records = many_records(4)
    handle = io.StringIO(change(format_records(records)))  # type: ignore[operator]
    assert read_record(handle) == records[0]
    with pytest.raises(RecordError) as info:
        read_record(handle)
    assert info.value.line == line - 7  # counted from where the call began (line 8)
    assert [read_record(handle), read_record(handle), read_record(handle)] == [
        records[2],
        records[3],
        None,
    ]
