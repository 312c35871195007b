"""The JSON form of a game record, for the web app and for tools that speak JSON.

The shape follows the web API (``WEBAPI.md``): ``variant``, ``players``, ``handicap``,
``first`` as a colour, ``seats`` with ``colour``, ``name``, ``kind`` and ``level``, and
``actions`` in notation. Every key is always written (``null`` where unknown) so that
readers need no defaults; reading accepts a missing optional key as ``null``, checks
each field by name, and replays the actions like the text reader does.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable, Mapping
from typing import Any, Final, TypeVar

from shiftago.core.actions import Action
from shiftago.core.errors import ParseError, ShiftagoError
from shiftago.core.game import draw_first_seat
from shiftago.core.rules import COLOURS, Rules, Variant, seat_of_colour
from shiftago.core.state import State
from shiftago.formats.record import KINDS, Note, Record, Seat, Variation, parse_records
from shiftago.formats.record_syntax import RecordError, parse_date, parse_result

T = TypeVar("T")

#: Every key of a JSON record, in the order they are written.
KEYS: Final = (
    "variant",
    "players",
    "handicap",
    "action_limit",
    "first",
    "position",
    "seed",
    "event",
    "date",
    "seats",
    "actions",
    "result",
    "termination",
    "comment",
    "notes",
    "other_headers",
)
_NOTE_KEYS: Final = ("nags", "comment", "variations")
_VARIATION_KEYS: Final = ("comment", "actions", "notes")
_SEAT_KEYS: Final = ("colour", "name", "kind", "level")


def record_to_json(record: Record) -> dict[str, Any]:
    """The record as a JSON-ready dict (``json.dumps`` takes it as it is)."""
    rules = record.rules
    return {
        "variant": rules.variant.value,
        "players": rules.players,
        "handicap": list(rules.handicap),
        "action_limit": rules.action_limit,
        "first": None if record.first is None else COLOURS[record.first],
        "position": record.position,
        "seed": record.seed,
        "event": record.event,
        "date": record.date,
        "seats": [
            {"colour": COLOURS[i], "name": s.name, "kind": s.kind, "level": s.level}
            for i, s in enumerate(record.seats)
        ],
        "actions": [str(a) for a in record.actions],
        "result": record.result,
        "termination": record.termination,
        "comment": record.comment,
        "notes": _notes_to_json(record.notes),
        "other_headers": dict(record.other_headers),
    }


def _notes_to_json(notes: tuple[Note, ...]) -> list[dict[str, Any]]:
    return [
        {
            "nags": list(note.nags),
            "comment": note.comment,
            "variations": [
                {
                    "comment": v.comment,
                    "actions": [str(a) for a in v.actions],
                    "notes": _notes_to_json(v.notes),
                }
                for v in note.variations
            ],
        }
        for note in notes
    ]


def _typed(obj: Mapping[str, Any], key: str, kind: type[T], where: str = "") -> T | None:
    """``obj[key]`` if it is a ``kind`` (None when missing or null)."""
    value = obj.get(key)
    if value is None:
        return None
    # bool is an int in Python, never in a record.
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        field, got = where + key, repr(value)
        if kind is int:
            raise RecordError(
                "{field}: expected a whole number, got {value}", field=field, value=got
            )
        if kind is str:
            raise RecordError("{field}: expected a string, got {value}", field=field, value=got)
        if kind is list:
            raise RecordError("{field}: expected a list, got {value}", field=field, value=got)
        raise RecordError(
            "{field}: expected {kind}, got {value}", field=field, kind=kind.__name__, value=got
        )
    return value


def _field(where: str, convert: Callable[[], T]) -> T:
    """Run a check, naming the field in its error."""
    try:
        return convert()
    except RecordError:
        raise
    except (ValueError, TypeError) as error:
        raise RecordError("{field}: {error}", field=where, error=error) from None


def record_from_json(obj: Mapping[str, Any]) -> Record:
    """Read the JSON form; raises :class:`RecordError` naming the field that is wrong."""
    if not isinstance(obj, Mapping):
        raise RecordError("a JSON record is an object, not {kind}", kind=type(obj).__name__)
    unknown = sorted(set(obj) - set(KEYS))
    if unknown:
        raise RecordError("{field}: unknown key", field=unknown[0])
    position = _typed(obj, "position", str)
    start = None if position is None else _field("position", lambda: State.from_position(position))
    for key in ("variant", "players", "actions", "result"):
        if obj.get(key) is None and (start is None or key in ("actions", "result")):
            raise RecordError("{field}: missing", field=key)
    variant = _typed(obj, "variant", str)
    players = _typed(obj, "players", int)
    if start is not None:
        variant = start.rules.variant.value if variant is None else variant
        players = start.rules.players if players is None else players
    assert variant is not None and players is not None
    count = players
    kind = _field("variant", lambda: Variant.parse(variant))
    _field("players", lambda: Rules(kind, count))
    handicap = _field("handicap", lambda: Rules(kind, count, _handicap(obj)).handicap)
    limit = _typed(obj, "action_limit", int)
    rules = _field("action_limit", lambda: Rules(kind, count, handicap, limit))
    colour = _typed(obj, "first", str)
    first = None if colour is None else _field("first", lambda: seat_of_colour(colour, count))
    seed = _typed(obj, "seed", int)
    if first is None and position is None and seed is not None:
        first = draw_first_seat(count, seed)  # as in the text form: the seed draws the lot
    actions = _actions(obj, "")
    seats = _seats(obj, count)
    raw_date = _typed(obj, "date", str)
    date = None if raw_date is None else _field("date", lambda: parse_date(raw_date))
    record = _field(
        "record",
        lambda: Record(
            rules,
            tuple(actions),
            first=first,
            position=position,
            seed=seed,
            seats=seats,
            date=date,
            event=_typed(obj, "event", str),
            result=_field("result", lambda: parse_result(obj["result"], count)),
            termination=_typed(obj, "termination", str),
            comment=_typed(obj, "comment", str),
            notes=_notes(obj, "", len(actions)),
            other_headers=_other_headers(obj),
        ),
    )
    # Replaying checks the actions, variations and result, and gives 2-player scorings
    # one spelling.
    return dataclasses.replace(record, actions=tuple(record.to_game().history))


def _actions(obj: Mapping[str, Any], where: str) -> tuple[Action, ...]:
    actions = []
    for i, text in enumerate(_typed(obj, "actions", list, where) or []):
        at = f"{where}actions[{i}]"
        if not isinstance(text, str):
            raise RecordError("{field}: expected a string, got {value}", field=at, value=repr(text))
        try:
            actions.append(Action.parse(text))
        except ShiftagoError as error:
            raise RecordError("{field}: {error}", field=at, error=error) from None
    return tuple(actions)


def _object(item: object, where: str, keys: tuple[str, ...]) -> Mapping[str, Any]:
    if not isinstance(item, Mapping):
        raise RecordError("{field}: expected an object, got {value}", field=where, value=repr(item))
    unknown = sorted(set(item) - set(keys))
    if unknown:
        at = f"{where}.{unknown[0]}"
        raise RecordError("{field}: unknown key", field=at)
    return item


def _notes(obj: Mapping[str, Any], where: str, count: int) -> tuple[Note, ...]:
    """The notes of a line (the record's or a variation's), checked field by field."""
    raw = _typed(obj, "notes", list, where) or []
    if len(raw) not in (0, count):
        raise RecordError(
            "{field}: expected none or one per action ({actions}), got {notes}",
            field=where + "notes",
            actions=count,
            notes=len(raw),
        )
    return tuple(_note(item, f"{where}notes[{i}]") for i, item in enumerate(raw))


def _note(item: object, at: str) -> Note:
    note = _object(item, at, _NOTE_KEYS)
    nags = tuple(_typed(note, "nags", list, at + ".") or [])
    comment = _typed(note, "comment", str, at + ".")
    entries = _typed(note, "variations", list, at + ".") or []
    variations = tuple(
        _variation(entry, f"{at}.variations[{j}]") for j, entry in enumerate(entries)
    )
    return _field(at, lambda: Note(nags, comment, variations))


def _variation(entry: object, at: str) -> Variation:
    variation = _object(entry, at, _VARIATION_KEYS)
    actions = _actions(variation, at + ".")
    notes = _notes(variation, at + ".", len(actions))
    comment = _typed(variation, "comment", str, at + ".")
    return _field(at, lambda: Variation(actions, notes, comment))


def _other_headers(obj: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    raw = obj.get("other_headers")
    if raw is None:
        return ()
    if not isinstance(raw, Mapping):
        raise RecordError(
            "{field}: expected an object, got {value}", field="other_headers", value=repr(raw)
        )
    for name, value in raw.items():
        if not isinstance(value, str):
            at = f"other_headers.{name}"
            raise RecordError(
                "{field}: expected a string, got {value}", field=at, value=repr(value)
            )
    return tuple(raw.items())


def _handicap(obj: Mapping[str, Any]) -> tuple[int, ...]:
    handicap = _typed(obj, "handicap", list) or []
    if not all(type(h) is int for h in handicap):
        raise ParseError("expected whole numbers, got {value}", value=repr(handicap))
    return tuple(handicap)


def _seats(obj: Mapping[str, Any], players: int) -> tuple[Seat, ...]:
    raw = _typed(obj, "seats", list)
    if raw is None:
        return ()
    if len(raw) != players:
        raise RecordError(
            "{field}: expected one per seat ({players}), got {count}",
            field="seats",
            players=players,
            count=len(raw),
        )
    return tuple(_seat(item, i) for i, item in enumerate(raw))


def _seat(item: object, i: int) -> Seat:
    seat = f"seats[{i}]"
    where = seat + "."
    if not isinstance(item, Mapping):
        raise RecordError("{field}: expected an object, got {value}", field=seat, value=repr(item))
    unknown = sorted(set(item) - set(_SEAT_KEYS))
    if unknown:
        at = f"{where}{unknown[0]}"
        raise RecordError("{field}: unknown key", field=at)
    colour = _typed(item, "colour", str, where)
    if colour is not None and colour != COLOURS[i]:
        raise RecordError(
            "{field}: seat {seat} is {code}, not {value}",
            field=where + "colour",
            seat=i,
            code=repr(COLOURS[i]),
            value=repr(colour),
        )
    name = _typed(item, "name", str, where)
    kind = _typed(item, "kind", str, where)
    level = _typed(item, "level", int, where)
    if kind is not None and kind not in KINDS:
        raise RecordError(
            "{field}: expected human or computer, got {value}",
            field=where + "kind",
            value=repr(kind),
        )
    return _field(seat, lambda: Seat(name, kind, level))


def parse_records_of_either_form(text: str) -> list[Record]:
    """The records of ``text``: the text form (docs/records.md), or the JSON form, one
    object or a list of them (text that starts with ``{``, or ``[`` then ``{``). A broken one
    raises :class:`RecordError` (the JSON's line where the JSON itself is broken)."""
    stripped = text.removeprefix("\ufeff").lstrip()
    # a text record starts with a header, [Variant "express"]: "[" then a letter
    if not (stripped.startswith("{") or re.match(r"\[\s*[{\]]", stripped)):
        return parse_records(text)
    try:
        data = json.loads(stripped)
    except json.JSONDecodeError as error:
        raise RecordError(
            "not JSON: {reason} (column {column})",
            error.lineno,
            reason=error.msg,
            column=error.colno,
        ) from None
    objects = data if isinstance(data, list) else [data]
    records = []
    for number, obj in enumerate(objects, start=1):
        try:
            records.append(record_from_json(obj))
        except RecordError as error:
            if len(objects) == 1:
                raise
            raise RecordError(
                "game {number}: {error}", number=number, error=error.without_line()
            ) from None
    return records
