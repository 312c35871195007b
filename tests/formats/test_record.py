"""Game records: round trips of random games, the turn numbering, and every error by line."""

from __future__ import annotations

import dataclasses
import datetime
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shiftago.core import (
    Action,
    Game,
    Phase,
    Rules,
    Variant,
)
from shiftago.core.errors import ParseError
from shiftago.formats.record import (
    Record,
    RecordError,
    Seat,
    format_record,
    format_records,
    parse_record,
    parse_records,
    turn_numbers,
)
from shiftago.formats.record_json import KEYS, record_from_json, record_to_json
from shiftago.formats.record_syntax import is_text_value

LANES = [f"{s}{n}" for s in "LR" for n in range(1, 8)] + [
    f"{s}{f}" for s in "TB" for f in "abcdefg"
]


# --- random games ----------------------------------------------------------------------
def play_randomly(game: Game, rng: random.Random, stop: float) -> None:
    """Play until the end, or stop early with probability ``stop`` per action.

    A few favourite lanes are preferred so that lines (and scorings) are common.
    """
    favourites = rng.sample(LANES, 3)
    while not game.is_over and rng.random() >= stop:
        legal = [str(a) for a in game.legal_actions()]
        liked = [a for a in legal if a in favourites]
        game.play(rng.choice(liked if liked and rng.random() < 0.7 else legal))


@st.composite
def games(draw: st.DrawFn) -> Game:
    variant = draw(st.sampled_from(Variant))
    players = draw(st.sampled_from((2, 3, 4)))
    handicap = draw(st.one_of(st.just(()), st.tuples(*[st.integers(0, 6)] * players)))
    limit = draw(st.one_of(st.none(), st.integers(1, 5), st.integers(20, 300)))
    if variant is Variant.EXTREME and limit is None:
        limit = 300  # Extreme has no bound of its own
    rng = random.Random(draw(st.integers(0, 2**32)))
    rules = Rules(variant, players, handicap, limit)
    stop = draw(st.sampled_from((0.0, 0.01, 0.1)))
    if draw(st.booleans()):  # a game set up from a position reached by play
        before = Game(rules, first=rng.randrange(players))
        play_randomly(before, rng, 0.05)
        states = [s for s in before.states if s.phase is not Phase.OVER]
        start = rng.choice(states)
        game = Game(rules, position=start.position(), seed=draw(st.none() | st.integers()))
    elif draw(st.booleans()):
        game = Game(rules, seed=draw(st.integers(-(2**40), 2**40)))
    else:
        game = Game(rules, first=rng.randrange(players))
    play_randomly(game, rng, stop)
    return game


printable = st.characters(categories=("L", "M", "N", "P", "S"), include_characters=' "\\')
names = st.one_of(st.none(), st.text(printable, min_size=1, max_size=12).filter(is_text_value))
seats = st.builds(
    Seat,
    name=names,
    kind=st.sampled_from((None, "human", "computer")),
)
levels = st.one_of(st.none(), st.integers(1, 9))


@st.composite
def records(draw: st.DrawFn) -> Record:
    game = draw(games())
    players = game.rules.players
    chosen = []
    for _ in range(players):
        seat = draw(seats)
        level = draw(levels) if seat.kind == "computer" else None
        chosen.append(Seat(seat.name, seat.kind, level))
    date = draw(
        st.one_of(st.none(), st.dates(datetime.date(1900, 1, 1), datetime.date(2999, 1, 1)))
    )
    event = draw(names)
    result, termination = None, None
    if not game.is_over and draw(st.booleans()):
        termination = draw(st.sampled_from(("resignation", "time forfeit", 'said "draw"')))
        result = draw(st.sampled_from(["*", "o", "g", "o=g"]))
    return Record.from_game(
        game,
        seats=chosen,
        date=date,
        event=event,
        result=result,
        termination=termination,
    )


def same_game(a: Game, b: Game) -> bool:
    return a.history == b.history and a.states == b.states and a.outcome == b.outcome


# --- round trips -----------------------------------------------------------------------
@settings(max_examples=150)
@given(records())
def test_text_round_trip(record: Record) -> None:
    text = format_record(record)
    again = parse_record(text)
    assert again == record
    assert format_record(again) == text
    assert same_game(again.to_game(), record.to_game())


@settings(max_examples=100)
@given(records())
def test_json_round_trip(record: Record) -> None:
    obj = record_to_json(record)
    assert list(obj) == list(KEYS)
    again = record_from_json(json.loads(json.dumps(obj)))
    assert again == record
    assert same_game(again.to_game(), record.to_game())


@settings(max_examples=60)
@given(games())
def test_record_replays_the_game(game: Game) -> None:
    record = Record.from_game(game)
    replayed = record.to_game()
    assert same_game(replayed, game)
    assert replayed.rules == game.rules
    assert record.result == (game.outcome.result() if game.outcome else "*")
    assert (record.position is None) == (game.first is not None)


@settings(max_examples=30)
@given(st.lists(records(), max_size=4))
def test_several_games_in_one_file(records_: list[Record]) -> None:
    text = format_records(records_)
    assert parse_records(text) == records_
    assert parse_records(text.replace("\n", "\r\n")) == records_
    assert parse_records("\ufeff" + text) == records_


@pytest.mark.parametrize("variant", list(Variant))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_whole_random_games_round_trip(variant: Variant, players: int) -> None:
    """Uniform random play gives long games (hundreds of actions in Extreme)."""
    for seed in range(3):
        rng = random.Random(f"{variant}{players}{seed}")
        handicap = tuple(rng.randrange(3) for _ in range(players)) if seed else ()
        game = Game(Rules(variant, players, handicap, action_limit=400), seed=seed)
        while not game.is_over:
            game.play(rng.choice(game.legal_actions()))
        record = Record.from_game(game, names=[f"P{i}" for i in range(players)])
        assert parse_record(str(record)) == record
        assert record_from_json(json.loads(json.dumps(record_to_json(record)))) == record
        assert same_game(record.to_game(), game)


def test_set_up_position_that_is_over_at_once() -> None:
    # Orange to move with an empty supply: the game ends as it is set up.
    game = Game(position="express 2 o6/7/7/7/7/7/7 o insert 0,22 0,0 0,0")
    assert game.is_over
    record = Record.from_game(game)
    assert record.position == "express 2 o6/7/7/7/7/7/7 o insert 0,22 0,0 0,0"
    assert record.result == "o=g"
    assert parse_record(str(record)) == record
    assert same_game(parse_record(str(record)).to_game(), game)


def test_two_player_scoring_in_either_spelling() -> None:
    moves = ["L1", "L7", "L1", "L7", "L1", "L7", "L1", "L7", "L1", "xe1-a1", "L4"]
    record = Record(Rules(Variant.EXPERT, 2), tuple(map(Action.parse, moves)), first=0)
    assert str(record.actions[9]) == "xa1-e1"
    text = '[Variant "expert"] \n[Players "2"]\n[First "o"]\n\n' + " ".join(moves) + " *"
    assert parse_record(text) == record


def test_a_record_built_without_its_scoring_names_the_scorers_turn() -> None:
    # an Italian walk's import said "turn 35" where the record numbers the turn 34
    moves = ["L1", "L7", "L1", "L7", "L1", "L7", "L1", "L7", "L1", "L4"]
    record = Record(Rules(Variant.EXPERT, 2), tuple(map(Action.parse, moves)), first=0)
    with pytest.raises(RecordError, match="turn 9, action 10: orange must first score"):
        record.to_game()


def test_header_values_with_quotes_and_backslashes() -> None:
    game = Game(Rules(), first=0)
    name = 'Ann "the \\ hammer"'
    record = Record.from_game(game, names=(name, "B[e]n"), event="Cup; round {1}")
    text = str(record)
    assert '[Orange "Ann \\"the \\\\ hammer\\""]' in text
    assert parse_record(text) == record


def test_from_game_names_and_levels() -> None:
    game = Game(Rules(Variant.EXPRESS, 3), first="g")
    record = Record.from_game(game, names=("Ann", None, "Bot"), levels=(None, None, 4))
    assert record.seats == (Seat("Ann", "human"), Seat(None, "human"), Seat("Bot", "computer", 4))
    assert record.names == ("Ann", None, "Bot")
    assert record.levels == (None, None, 4)
    assert Record.from_game(game).seats == (Seat(),) * 3
    assert Record.from_game(game, date=datetime.date(2026, 11, 21)).date == "2026-11-21"
    with pytest.raises(ValueError, match="one entry per seat"):
        Record.from_game(game, names=("Ann",))
    with pytest.raises(ValueError, match="not both"):
        Record.from_game(game, seats=(Seat(),) * 3, names=("a", "b", "c"))


def test_from_game_checks_the_result() -> None:
    game = Game(Rules(Variant.EXPRESS, 2), first="o")
    for action in ["L1", "L7", "L1", "L7", "L1", "L7", "L1", "L7", "L1"]:
        game.play(action)
    assert Record.from_game(game).result == "o"
    with pytest.raises(RecordError, match="but orange won with a line"):
        Record.from_game(game, result="g")
    with pytest.raises(RecordError, match="has no termination"):
        Record.from_game(game, termination="resignation")
    game.undo()
    with pytest.raises(RecordError, match="not over"):
        Record.from_game(game, result="g")
    assert Record.from_game(game, result="g", termination="resignation").result == "g"


# --- turn numbers ----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("moves", "turns"),
    [
        ("", []),
        ("Td", [1]),
        ("Td Tc L1", [1, 2, 3]),
        ("L1 xa1-e1 L4 Tc", [1, 1, 1, 2]),
        ("xa1-e1 L4 Tc", [1, 1, 2]),  # a set-up game in the score phase
        ("L1 xa1-e1 L4 xb4-b7 L2 L3", [1, 1, 1, 1, 1, 2]),
    ],
)
def test_turn_numbers(moves: str, turns: list[int]) -> None:
    assert turn_numbers(Action.parse(m) for m in moves.split()) == turns


def test_handicap_turns_of_the_same_seat_are_numbered_apart() -> None:
    game = Game(Rules(Variant.EXPRESS, 3, (0, 1, 1)), first="o")
    for action in ["Td", "Ta", "Tg", "L4"]:
        game.play(action)
    movers = [s.turn for s in game.states[:-1]]
    assert movers == [0, 0, 1, 2]
    assert str(Record.from_game(game)).endswith("1. Td 2. Ta 3. Tg 4. L4 *")


def test_long_games_wrap_lines() -> None:
    game = Game(Rules(Variant.EXPRESS, 4), first="o")
    play_randomly(game, random.Random(4), 0.0)
    text = str(Record.from_game(game))
    assert max(len(line) for line in text.splitlines()) <= 79
    assert all(not line.endswith(".") for line in text.splitlines())


# --- errors, with their lines ----------------------------------------------------------
BASE = """[Variant "expert"]
[Players "2"]
[First "o"]
[Result "*"]

1. L1 2. L7 3. L1 4. L7 5. L1 6. L7 7. L1 8. L7
9. L1 xa1-e1 L4 10. L7 *
"""
ERRORS = [
    # (case name, old, new, line, words in the message)
    ("bad header name", '[Result "*"]', '[Col-our "o"]', 4, 'a header is [Name "value"]'),
    ("bad variant", '"expert"', '"expart"', 1, "bad Variant header: unknown variant"),
    ("bad players", '"2"', '"5"', 2, "bad Players header: 5 is not from 2 to 4"),
    ("players not a number", '"2"', '"two"', 2, "'two' is not a whole number"),
    ("bad first", '"o"', '"b"', 3, "bad First header: unknown colour 'b'"),
    ("bad date", "[First", '[Date "2026-02-30"]\n[First', 3, "not a day of the calendar"),
    ("date shape", "[First", '[Date "21.11.2026"]\n[First', 3, "written YYYY-MM-DD"),
    ("bad handicap", "[First", '[Handicap "0,7"]\n[First', 3, "7 is not from 0 to 6"),
    ("short handicap", "[First", '[Handicap "1"]\n[First', 3, "one number per seat (2)"),
    ("bad limit", "[First", '[ActionLimit "0"]\n[First', 3, "0 is less than 1"),
    ("bad seed", "[First", '[Seed "x"]\n[First', 3, "'x' is not a whole number"),
    ("empty value", "[First", '[Event ""]\n[First', 3, "has no value"),
    ("bad kind", "[Result", '[GreenKind "robot"]\n[Result', 4, "not human or computer"),
    ("bad level", "[Result", '[GreenLevel "0"]\n[Result', 4, "0 is less than 1"),
    ("human level", "[Result", '[OrangeKind "human"]\n[OrangeLevel "3"]\n[Result', 5, "a human"),
    ("absent seat", "[Result", '[Blue "Ben"]\n[Result', 4, "no blue seat in a game of 2"),
    ("bad result header", '[Result "*"]', '[Result "o=o"]', 4, "names a colour twice"),
    ("bad position", "[First", '[Position "expert 2 8/7"]\n[First', 3, "bad Position header"),
    (
        "first and position",
        '[First "o"]',
        '[Position "expert 2 7/7/7/7/7/7/7 o insert 22,22 0,0 0,0"]\n[First "o"]',
        4,
        "has no First",
    ),
    (
        "position disagrees",
        '[First "o"]',
        '[Position "express 2 7/7/7/7/7/7/7 o insert 22,22 0,0 0,0"]',
        1,
        "Variant is expert, but the Position's is express",
    ),
    ("no variant", '[Variant "expert"]\n', "", 1, "no Variant header"),
    (
        "no start",
        '[First "o"]\n',
        "",
        1,
        'needs First, Seed or Position: where the game starts, such as [First "o"]',
    ),
    ("header twice", '[First "o"]', '[First "o"]\n[First "g"]', 4, "a second First header"),
    ("bad header line", '[First "o"]', "[First o]", 3, 'a header is [Name "value"]'),
    ("not an action", "xa1-e1 L4", "xa1-e1 Q9", 7, "'Q9' is not an action"),
    # the scoring left out: L4 is still in turn 9, the scorer's, as the record numbers it
    ("illegal action", "xa1-e1 L4", "L4", 7, "turn 9, action 10: orange must first score a line"),
    ("wrong scoring", "xa1-e1", "xb1-e1", 7, "turn 9, action 10: illegal move: xb1-e1"),
    ("after the end", '"expert"', '"express"', 7, "turn 9, action 10: the game is over; xa1-e1"),
    ("result not over", "10. L7 *", "10. L7 o", 7, "the result is o, but the game is not over"),
    ("result header differs", '[Result "*"]', '[Result "g"]', 7, "differs from the Result"),
    ("result colour", "10. L7 *", "10. L7 w", 7, "unknown colour 'w'"),
    ("no result token", "10. L7 *", "10. L7", 7, "ends without a result token"),
    ("a chess result", "10. L7 *", "10. L7 1-0", 7, "its last word '1-0' is not an action either"),
    # the last action mistyped: its word is named as no action, not only as no result
    ("last action mistyped", "10. L7 *", "10. Zz", 7, "its last word 'Zz' is not an action either"),
    ("no result after an action", "10. L7 *", "10. L7", 7, "its last word is 'L7'; a result is *"),
    ("text after result", "10. L7 *", "10. L7 * L1", 7, "'L1' after the result token"),
    ("garbage line", "10. L7 *\n", "10. L7 *\nhello\n", 8, "'hello' after the result token"),
    ("garbage first", '[Variant "expert"]', 'hello\n[Variant "expert"]', 1, "before any header"),
    ("wrong number", "4. L7", "5. L7", 6, "turn number 5. where turn 4 begins (every seat's"),
    ("number in a turn", "xa1-e1 L4", "xa1-e1 10. L4", 7, "does not begin a turn"),
    ("two numbers", "4. L7", "4. 4. L7", 6, "turn number 4. after turn number 4."),
    ("number at the end", "10. L7 *", "10. L7 11. *", 7, "turn number 11. has no action"),
    ("open comment", "3. L1", "3. { note", 6, "never closed"),
    ("stray brace", "3. L1", "} 3. L1", 6, "'}' closes no comment"),
    ("moves then headers", "10. L7 *\n", '10. L7\n\n[Variant "expert"]\n', 9, "no result token"),
    ("unknown escape", "[First", '[Event "A \\n B"]\n[First', 3, "the escape '\\\\n'"),
    ("text after a header", '[First "o"]', '[First "o"] L1', 3, "a header is"),
    # only \n, \r\n and \r end a line: a form feed or U+2028 in a comment does not
    ("after a form feed", "3. L1", "{ a\fb\u2028c\x85d } 3. Q9", 6, "'Q9' is not an action"),
]


@pytest.mark.parametrize(
    ("old", "new", "line", "words"), [e[1:] for e in ERRORS], ids=[e[0] for e in ERRORS]
)
def test_errors_name_their_line(old: str, new: str, line: int, words: str) -> None:
    assert old in BASE
    with pytest.raises(RecordError) as info:
        parse_record(BASE.replace(old, new, 1))
    error = info.value
    assert error.line == line, str(error)
    assert words in str(error)
    assert str(error).startswith(f"line {line}: ")
    assert isinstance(error, ParseError) and isinstance(error, ValueError)


def test_the_base_record_reads() -> None:
    record = parse_record(BASE)
    assert len(record.actions) == 12 and record.result == "*"
    assert format_record(record) == BASE.replace("8. L7\n9.", "8. L7 9.").rstrip("\n")


def test_comments_and_spellings_are_accepted() -> None:
    text = BASE.replace("1. L1", "; a comment line\n1.l1 { a comment\n[over lines] ; }")
    text = text.replace("xa1-e1", "XE1-A1 ;").replace("L4", "\nl4")
    record = parse_record(text)
    assert record.notes[0].comment == "a comment [over lines] ;"  # {...} is kept, ; is not
    assert dataclasses.replace(record, notes=()) == parse_record(BASE)


def test_a_comment_may_follow_a_header_on_its_line() -> None:
    text = BASE.replace('[Variant "expert"]', '[Variant "expert"] ; the variant', 1)
    text = text.replace('[First "o"]', '[First "o"] {orange} ; starts', 1)
    assert parse_record(text) == parse_record(BASE)


def test_turn_numbers_are_optional() -> None:
    assert parse_record(BASE.replace("9. ", "").replace("2. ", "")) == parse_record(BASE)


def test_seed_draws_the_first_seat() -> None:
    text = '[VARIANT "express"]\n[players "2"]\n[Seed "7"]\n\nTd L1 *'
    record = parse_record(text)
    assert record.first == 1 and record.seed == 7  # Random(7).randrange(2) is green
    assert '[First "g"]\n[Seed "7"]' in str(record)


def test_error_in_the_second_game_names_its_line_in_the_file() -> None:
    text = BASE + "\n" + BASE.replace("L4", "L8")
    with pytest.raises(RecordError) as info:
        parse_records(text)
    assert info.value.line == 15
    with pytest.raises(RecordError) as info:
        parse_record(text)
    assert info.value.line == 9 and "parse_records" in str(info.value)
    assert parse_records("") == [] and parse_records("; nothing\n\n") == []
    with pytest.raises(RecordError, match="no record"):
        parse_record("  \n")


def test_to_game_names_turn_and_action() -> None:
    record = Record(Rules(), tuple(Action.parse(a) for a in ["Td", "Tc", "Td"]), first=0)
    record = Record(record.rules, (*record.actions, Action.parse("Bd")) * 2, first=0)
    with pytest.raises(RecordError) as info:
        Record(Rules(), (Action.parse("xa1-e1"),), first=0).to_game()
    assert info.value.line is None
    assert str(info.value).startswith("turn 1, action 1: there is no line to score")
    assert record.to_game().history == list(record.actions)
    with pytest.raises(RecordError, match="not over"):
        Record(Rules(), (), first=0, result="o").to_game()


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({}, "either the first seat or a set-up position"),
        ({"first": 0, "position": "express 2 7/7/7/7/7/7/7 o insert 22,22 0,0 0,0"}, "either"),
        ({"first": 2}, "the first seat is 0-1"),
        ({"first": 0, "seats": (Seat(),)}, "one Seat per seat"),
        ({"first": 0, "date": "yesterday"}, "YYYY-MM-DD"),
        ({"first": 0, "event": "two\nlines"}, "one printable line"),
        ({"first": 0, "result": "x"}, "is not a result"),
        ({"first": 0, "seed": 1.5}, "a seed is a whole number"),
        ({"first": 0, "actions": ("Td",)}, "Action values"),
        ({"position": "express 3 7/7/7/7/7/7/7 o insert 22,22,22 0,0,0 0,0,0"}, "differ"),
    ],
)
def test_record_checks_its_fields(fields: dict[str, object], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        Record(Rules(), **fields)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"name": ""}, "a name"),
        ({"name": "  "}, "a name"),
        ({"kind": "robot"}, "human or computer"),
        ({"level": 0}, "a level"),
        ({"kind": "human", "level": 2}, "only a computer"),
    ],
)
def test_seat_checks_its_fields(fields: dict[str, object], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        Seat(**fields)  # type: ignore[arg-type]
    assert Seat(level=3) == Seat(None, "computer", 3)


# --- JSON errors -----------------------------------------------------------------------
GOOD = {"variant": "express", "players": 2, "first": "o", "actions": ["Td"], "result": "*"}


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"colour": "o"}, "colour: unknown key"),
        ({"variant": None}, "variant: missing"),
        ({"result": None}, "result: missing"),
        ({"variant": "quick"}, "variant: unknown variant"),
        ({"players": "2"}, "players: expected a whole number"),
        ({"players": True}, "players: expected a whole number"),
        ({"players": 5}, "players: a game has 2, 3 or 4 players"),
        ({"handicap": [1]}, "handicap: the handicap needs one number per seat"),
        ({"handicap": [0, "1"]}, "handicap: expected whole numbers"),
        ({"action_limit": 0}, "action_limit: the action limit"),
        ({"first": "w"}, "first: unknown colour 'w'"),
        ({"actions": "Td"}, "actions: expected a list"),
        ({"actions": ["Td", 3]}, "actions[1]: expected a string"),
        ({"actions": ["Td", "Q9"]}, "actions[1]: 'Q9' is not an action"),
        ({"actions": ["Td"] * 8}, "turn 8, action 8: illegal move: Td (lane full)"),
        ({"result": "g"}, "the result is g, but the game is not over"),
        ({"result": "oo"}, "result: 'oo' is not a result"),
        ({"date": "2026-1-1"}, "date: '2026-1-1' is not a date"),
        ({"position": "express"}, "position: a position has 8 fields"),
        ({"seats": [{}]}, "seats: expected one per seat (2)"),
        ({"seats": [{}, 3]}, "seats[1]: expected an object"),
        ({"seats": [{}, {"colour": "o"}]}, "seats[1].colour: seat 1 is 'g'"),
        ({"seats": [{}, {"level": "3"}]}, "seats[1].level: expected a whole number"),
        ({"seats": [{}, {"kind": "robot"}]}, "seats[1].kind: expected human or computer"),
        ({"seats": [{}, {"kind": "human", "level": 2}]}, "seats[1]: only a computer"),
        ({"seats": [{}, {"age": 2}]}, "seats[1].age: unknown key"),
    ],
)
def test_json_errors_name_the_field(change: dict[str, object], words: str) -> None:
    with pytest.raises(RecordError) as info:
        record_from_json({**GOOD, **change})
    assert words in str(info.value)
    assert info.value.line is None


def test_json_reading_fills_in_what_may_be_left_out() -> None:
    record = record_from_json(GOOD)
    assert record == Record(Rules(), (Action.parse("Td"),), first=0)
    assert (
        record_from_json(
            {"seed": 7, "actions": [], "result": "*", "players": 2, "variant": "express"}
        ).first
        == 1
    )
    position = "expert 3 7/7/7/7/7/7/3oooo o score 18,22,22 0,0,0 0,0,0"
    record = record_from_json({"position": position, "actions": ["xG1-D1"], "result": "*"})
    assert record.rules == Rules(Variant.EXPERT, 3) and str(record.actions[0]) == "xg1-d1"
    with pytest.raises(RecordError, match="a JSON record is an object"):
        record_from_json([])  # type: ignore[arg-type]
