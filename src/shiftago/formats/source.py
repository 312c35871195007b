"""What a command-line argument names: a position string, a record file, or ``-``.

``shiftago show`` and ``shiftago analyse`` both take one argument that is either a
position string (PROTOCOL.md) or a file holding game records (docs/records.md, the
text or the JSON form) or one position string; ``-`` reads that text from standard
input. :func:`load_source` tells them apart and reads it; :class:`SourceError` says
what is wrong, naming the file and line where there is one.
"""

from __future__ import annotations

import errno
import sys
from pathlib import Path
from typing import TextIO

from shiftago.core import ShiftagoError, State, Variant
from shiftago.core.errors import TranslatableError
from shiftago.formats.record import Record, RecordError
from shiftago.formats.record_json import parse_records_of_either_form

#: What the system's most common refusals of a file mean, as words to translate (the
#: system's own, ``strerror``, are English whatever the terminal's language).
OS_REASONS: dict[int, TranslatableError] = {
    errno.ENOENT: TranslatableError("there is no such file"),
    errno.EACCES: TranslatableError("permission denied"),
    errno.EPERM: TranslatableError("permission denied"),
    errno.EISDIR: TranslatableError("it is a folder"),
    errno.ENOTDIR: TranslatableError("a part of the path is not a folder"),
    errno.ENOSPC: TranslatableError("the disk is full"),
    errno.EROFS: TranslatableError("the disk is read-only"),
}


def os_reason(error: OSError) -> TranslatableError | str:
    """Why the system refused a file: words to translate where they are known, else the
    system's own."""
    if error.errno in OS_REASONS:
        return OS_REASONS[error.errno]
    return error.strerror or str(error)


#: The first words of a position string.
VARIANT_NAMES = frozenset(v.value for v in Variant)


class SourceError(TranslatableError):
    """Something that cannot be read; the message names the place and the problem.

    It is no :class:`ShiftagoError` (callers catch a file that cannot be read apart
    from a broken game), but a :class:`TranslatableError` all the same."""


def read_text(path: Path) -> str:
    """The text of a file of records or positions; a :class:`SourceError` naming the file
    and what is wrong (it cannot be opened, or it is not UTF-8 text)."""
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as e:
        raise _not_utf8(str(path), e) from None
    except OSError as e:
        raise SourceError(
            "cannot read {name}: {reason}", name=str(path), reason=os_reason(e)
        ) from None


def _read_stream(stream: TextIO) -> str:
    """All of ``stream``; a real standard input is read as bytes and decoded as a file
    is (UTF-8, else a :class:`SourceError`), whatever the locale's encoding."""
    raw = getattr(stream, "buffer", None)
    if raw is None:
        return stream.read()
    try:
        return str(raw.read().decode("utf-8"))
    except UnicodeDecodeError as e:
        raise _not_utf8("<stdin>", e) from None


def _not_utf8(name: str, error: UnicodeDecodeError) -> SourceError:
    """What a text that is not UTF-8 is told: its first bad byte and where it is."""
    return SourceError(
        "cannot read {name}: not UTF-8 text (byte 0x{byte} at offset {offset})",
        name=name,
        byte=format(error.object[error.start], "02x"),
        offset=error.start,
    )


def load_source(target: str, stdin: TextIO | None = None) -> tuple[str, list[Record] | State]:
    """What ``target`` names: ``-`` (standard input), a file, or a position string.

    Returns a short name for it and either its records or the position's state.
    """
    if target == "-":
        return "<stdin>", parse_source_text(_read_stream(stdin or sys.stdin), "<stdin>")
    path = Path(target).expanduser()
    if path.is_file():
        return str(path), parse_source_text(read_text(path), str(path))
    if path.is_dir():
        raise SourceError("{place}: a directory, not a file of records or a position", place=target)
    if len(target.split()) < 2:
        raise SourceError("{place}: no such file (a position string has 8 fields)", place=target)
    try:
        return "position", State.from_position(target, finished=True)
    except ShiftagoError as e:
        raise SourceError("bad position: {error}", error=e) from None


def parse_source_text(text: str, name: str) -> list[Record] | State:
    """The records of a file's text, or its one position string; ``name`` is for errors.

    A text whose first word names a variant is a position string (a record begins with
    its headers, JSON with a brace): its error is the position's, not a record's."""
    text = text.removeprefix("\ufeff")
    numbered = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    first = numbered[0][1].split()[0].lower() if numbered else ""
    if first in VARIANT_NAMES:
        number, line = numbered[0]
        if len(numbered) > 1:
            place = f"{name}:{numbered[1][0]}"
            raise SourceError("{place}: a file holds one position string only", place=place)
        try:
            return State.from_position(line, finished=True)
        except ShiftagoError as e:
            place = f"{name}:{number}"
            raise SourceError("{place}: bad position: {error}", place=place, error=e) from None
    try:
        records = parse_records_of_either_form(text)
    except RecordError as e:
        where = name if e.line is None else f"{name}:{e.line}"
        raise SourceError("{place}: {error}", place=where, error=e.without_line()) from None
    except ShiftagoError as e:
        raise SourceError("{place}: {error}", place=name, error=e) from None
    if not records:
        raise SourceError("{place}: no game record in it", place=name)
    return records
