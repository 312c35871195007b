"""Records keep what PGN keeps beside the moves: comments, marks, numeric annotations,
nested variations and headers of other names, in the text and the JSON form alike."""

from __future__ import annotations

import copy
import dataclasses
import json
import pickle

import pytest
from hypothesis import given, settings

from shiftago.core import Action, Game, Rules, Variant
from shiftago.formats.record import (
    MARKS,
    GameHeaders,
    Note,
    Record,
    RecordError,
    Variation,
    format_record,
    parse_record,
    parse_records,
)
from shiftago.formats.record_json import KEYS, record_from_json, record_to_json
from support.annotated import annotated_records

HEAD = '[Variant "express"]\n[Players "2"]\n[First "o"]\n'


def moves(*names: str) -> tuple[Action, ...]:
    return tuple(Action.parse(n) for n in names)


@settings(max_examples=80, deadline=None)
@given(annotated_records())
def test_annotated_records_round_trip(record: Record) -> None:
    text = format_record(record)
    again = parse_record(text)
    assert again == record
    assert format_record(again) == text  # writing is stable
    assert max(len(line) for line in text.splitlines()) <= 79 or "{" in text
    obj = json.loads(json.dumps(record_to_json(record)))
    assert list(obj) == list(KEYS)
    assert record_from_json(obj) == record
    values = [record, *record.seats, *record.notes, GameHeaders(1, {"Site": "Berlin"})]
    for value in values:
        for twin in (pickle.loads(pickle.dumps(value)), copy.deepcopy(value), copy.copy(value)):
            assert twin == value


def test_every_mark_and_numeric_annotation() -> None:
    text = HEAD + "\n1. Td! 2. Tc? 3. Tb!! 4. Ta?? 5. Te!? 6. Tf?! 7. Tg $14 $146 8. Td $1 *"
    record = parse_record(text)
    assert [n.nags for n in record.notes] == [(1,), (2,), (3,), (4,), (5,), (6,), (14, 146), (1,)]
    assert [n.mark for n in record.notes] == ["!", "?", "!!", "??", "!?", "?!", None, "!"]
    assert MARKS == {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}
    written = format_record(record)
    assert written.endswith(
        "\n1. Td! 2. Tc? 3. Tb!! 4. Ta?? 5. Te!? 6. Tf?! 7. Tg $14 $146 8. Td! *"
    )
    # a mark standing apart is read too, and written glued when it comes first
    assert parse_record(HEAD + "\n1. Td ! $14 2. Tc $14 ?? *").notes[1].nags == (14, 4)
    assert format_record(parse_record(HEAD + "\n1. Td ! $14 2. Tc $14 ?? *")).endswith(
        "1. Td! $14 2. Tc $14 $4 *"
    )


def test_comments_are_kept_where_they_stand() -> None:
    text = HEAD + "\n{ before  the\n game } 1. Td { after Td } {and more} 2. Tc ; dropped\n{last} *"
    record = parse_record(text)
    assert record.comment == "before the game"
    assert record.notes[0].comment == "after Td and more"
    assert record.notes[1].comment == "last"
    assert format_record(record).endswith(
        "{before the game} 1. Td {after Td and more} 2. Tc {last} *"
    )


def test_nested_variations_replace_the_action_before_them() -> None:
    text = HEAD + "\n1. Td (1. Tc {or this} 2. Ta (2. Tb?)) (1. L1) 2. Tc *"
    record = parse_record(text)
    first = record.notes[0].variations
    assert [v.actions for v in first] == [moves("Tc", "Ta"), moves("L1")]
    assert first[0].notes[0].comment == "or this"
    assert first[0].notes[1].variations == (Variation(moves("Tb"), (Note((2,)),)),)
    assert format_record(record).endswith("1. Td (1. Tc {or this} 2. Ta (2. Tb?)) (1. L1) 2. Tc *")
    assert record.to_game().history == list(moves("Td", "Tc"))


def test_variation_of_a_scoring_keeps_the_turn() -> None:
    base = '[Variant "expert"]\n[Players "2"]\n[First "o"]\n\n'
    main = "1. L1 2. L7 3. L1 4. L7 5. L1 6. L7 7. L1 8. L7 9. L1 xa1-e1 L4 10. L7"
    record = parse_record(base + main.replace("L4", "L4 (L5!? 10. L2)") + " *")
    (variation,) = record.notes[10].variations
    assert variation.actions == moves("L5", "L2")
    assert "9. L1 xa1-e1 L4 (L5!? 10. L2) 10. L7 *" in " ".join(format_record(record).split())
    with pytest.raises(RecordError, match=r"line 5: turn number 11\. where turn 10 begins"):
        parse_record(base + main.replace("L4", "L4 (L5 11. L2)") + " *")


def test_other_headers_are_kept_in_order() -> None:
    text = '[Site "Berlin"]\n' + HEAD + '[Round "2"]\n[White_Elo "1500"]\n\n1. Td *'
    record = parse_record(text)
    assert record.other_headers == (("Site", "Berlin"), ("Round", "2"), ("White_Elo", "1500"))
    written = format_record(record)
    assert written.index("Site") < written.index("Round") < written.index("White_Elo")
    assert record_to_json(record)["other_headers"] == {
        "Site": "Berlin",
        "Round": "2",
        "White_Elo": "1500",
    }
    with pytest.raises(RecordError, match="line 6: a second Round header"):
        parse_record(text.replace('[White_Elo "1500"]', '[Round "3"]'))
    with pytest.raises(RecordError, match=r"line 6: bad White_Elo header: .* one printable line"):
        parse_record(text.replace('"1500"', '"15\t00"'))


@pytest.mark.parametrize(
    ("movetext", "line", "words"),
    [
        ("1. Td (1. Tg Tg Tg Tg Tg Tg Tg Tg) *", 5, "turn 8, action 8: illegal move: Tg"),
        ("1. Td (1. Tc *", 5, "the result token * inside a variation"),
        ("1. Td ) *", 5, "')' closes no variation"),
        ("(1. Tc) 1. Td *", 5, "a variation comes before any action"),
        ("$1 1. Td *", 5, "the annotation $1 comes before any action"),
        ("1. Td () *", 5, "a variation holds one action at least"),
        ("1. Td 2. (Tc) *", 5, "turn number 2. has no action after it"),
        ("1. Td $256 *", 5, "'$256' is not an action"),
        ("1. Td\n(1. Tc\n2. Q9) *", 7, "'Q9' is not an action"),
    ],
)
def test_broken_annotations_name_their_line(movetext: str, line: int, words: str) -> None:
    with pytest.raises(RecordError) as info:
        parse_record(HEAD + "\n" + movetext)
    assert info.value.line == line
    assert words in str(info.value)


def test_to_game_checks_the_variations_of_a_record_made_in_code() -> None:
    game = Game(Rules(Variant.EXPRESS, 2), first="o")
    game.play("Td")
    record = Record.from_game(game)
    fine = dataclasses.replace(record, notes=(Note(variations=(Variation(moves("Td", "L1")),)),))
    assert fine.to_game().history == [Action.parse("Td")]
    worse = dataclasses.replace(
        record, notes=(Note(variations=(Variation(moves("Td", *["Td"] * 7)),)),)
    )
    with pytest.raises(RecordError, match="turn 8, action 8: illegal move: Td"):
        worse.to_game()
    with pytest.raises(RecordError, match="turn 8, action 8: illegal move: Td"):
        record_from_json(record_to_json(worse))


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"notes": (Note(),) * 3}, "3 notes for 1 actions"),
        ({"comment": "a } b"}, "cannot hold '}'"),
        ({"other_headers": (("Variant", "x"),)}, "a header of the record's own fields"),
        ({"other_headers": (("Site", "a"), ("Site", "b"))}, "given twice"),
        ({"other_headers": (("Si te", "a"),)}, "letters, digits and _"),
        ({"other_headers": (("Site", ""),)}, "one printable line"),
    ],
)
def test_record_checks_its_new_fields(fields: dict[str, object], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        Record(Rules(), moves("Td"), first=0, **fields)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"nags": (256,)}, "0-255"),
        ({"nags": ("!",)}, "0-255"),
        ({"comment": "}"}, "cannot hold"),
    ],
)
def test_note_checks_its_fields(fields: dict[str, object], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        Note(**fields)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="one or more Action"):
        Variation(())


def test_empty_notes_compare_equal_to_none() -> None:
    record = Record(Rules(), moves("Td", "Tc"), first=0, notes=(Note(), Note(comment="  ")))
    assert record.notes == () and record == Record(Rules(), moves("Td", "Tc"), first=0)
    short = Record(Rules(), moves("Td", "Tc"), first=0, notes=(Note((1,)),))
    assert short.notes == (Note((1,)), Note())


def test_json_notes_are_checked_by_field() -> None:
    obj = record_to_json(parse_record(HEAD + "\n1. Td! 2. Tc *"))
    with pytest.raises(RecordError, match=r"notes\[1\]\.nags: expected a list"):
        record_from_json({**obj, "notes": [obj["notes"][0], {"nags": 3}]})
    with pytest.raises(RecordError, match=r"notes: expected none or one per action"):
        record_from_json({**obj, "notes": obj["notes"][:1]})
    with pytest.raises(RecordError, match=r"notes\[0\]\.mark: unknown key"):
        record_from_json({**obj, "notes": [{"mark": "!"}, obj["notes"][1]]})
    with pytest.raises(RecordError, match=r"other_headers\.Site: expected a string"):
        record_from_json({**obj, "other_headers": {"Site": 3}})
    plain = {k: v for k, v in obj.items() if k not in ("comment", "notes", "other_headers")}
    assert record_from_json(plain).notes == ()


def test_several_annotated_games_in_one_file() -> None:
    one = HEAD + '[Site "a"]\n\n{x} 1. Td! (1. Tc) *\n'
    two = HEAD + "\n1. L1 $3 *\n"
    records = parse_records(one + "\n" + two)
    assert [r.other_headers for r in records] == [(("Site", "a"),), ()]
    assert records[1].notes == (Note((3,)),)
