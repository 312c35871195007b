"""A broken record's error keeps its template, fields and line: it pickles with them, and
an interface's gettext reaches the line prefix and every nested problem."""

from __future__ import annotations

import copy
import pickle

import pytest

from shiftago.core.errors import ParseError
from shiftago.core.outcome import EndReason, Outcome
from shiftago.formats.record import RecordError, parse_record
from shiftago.formats.record_json import parse_records_of_either_form
from shiftago.formats.record_model import outcome_phrase
from shiftago.formats.record_syntax import AT_LINE
from shiftago.formats.source import SourceError, parse_source_text

TEXT = """[Variant "express"]
[Players "two"]
[First "o"]

1. Td *
"""


def marked(template: str) -> str:
    """A gettext that shows where it was asked: each template between « and »."""
    return f"«{template}»"


def broken() -> RecordError:
    with pytest.raises(RecordError) as info:
        parse_record(TEXT)
    return info.value


def test_a_record_error_says_its_line_and_problem_in_english() -> None:
    error = broken()
    assert str(error) == "line 2: bad Players header: 'two' is not a whole number"
    assert error.problem == "bad Players header: 'two' is not a whole number"
    assert error.line == 2
    assert error.template == "bad {name} header: {error}"
    nested = error.fields["error"]
    assert isinstance(nested, ParseError)
    assert nested.template == "{text} is not a whole number"


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_a_record_error_pickles_with_its_fields_and_line(protocol: int) -> None:
    error = broken()
    for twin in (pickle.loads(pickle.dumps(error, protocol)), copy.deepcopy(error)):
        assert type(twin) is RecordError
        assert str(twin) == str(error)
        assert (twin.template, twin.line, twin.problem) == (
            error.template,
            error.line,
            error.problem,
        )
        assert twin.fields.keys() == error.fields.keys()
        assert str(twin.fields["error"]) == str(error.fields["error"])
        assert twin.words(marked) == error.words(marked)


def test_a_record_error_without_a_line_pickles() -> None:
    error = RecordError("{field}: missing", field="variant")
    twin = pickle.loads(pickle.dumps(error))
    assert (str(twin), twin.line, twin.problem) == ("variant: missing", None, "variant: missing")


def test_gettext_reaches_the_line_prefix_and_the_nested_problem() -> None:
    error = broken()
    assert error.words(marked) == ("«line 2: «bad Players header: «'two' is not a whole number»»»")
    german = {
        AT_LINE: "Zeile {line}: {problem}",
        "bad {name} header: {error}": "falscher Kopf {name}: {error}",
        "{text} is not a whole number": "{text} ist keine ganze Zahl",
    }
    assert error.words(lambda t: german.get(t, t)) == (
        "Zeile 2: falscher Kopf Players: 'two' ist keine ganze Zahl"
    )


def test_a_seat_colour_is_said_by_the_interface() -> None:
    with pytest.raises(RecordError) as info:
        parse_record(TEXT.replace('"two"', '"2"').replace("[First", '[White "Wu"]\n[First'))
    error = info.value
    assert str(error) == "line 3: there is no white seat in a game of 2 players"
    names = ("Orange", "Grün", "Blau", "Weiß")
    assert error.words(colour=lambda seat: names[seat]) == (
        "line 3: there is no Weiß seat in a game of 2 players"
    )


def test_a_json_game_number_nests_the_problem_without_its_line() -> None:
    with pytest.raises(RecordError) as info:
        parse_records_of_either_form('[{"variant": "express"}, {"x": 1}]')
    error = info.value
    assert str(error) == "game 1: players: missing"
    assert error.words(marked) == "«game 1: «players: missing»»"


def test_a_source_error_names_the_place_and_translates_the_record_problem() -> None:
    with pytest.raises(SourceError) as info:
        parse_source_text(TEXT, "games.rec")
    error = info.value
    assert str(error) == "games.rec:2: bad Players header: 'two' is not a whole number"
    assert error.words(marked) == (
        "«games.rec:2: «bad Players header: «'two' is not a whole number»»»"
    )
    twin = pickle.loads(pickle.dumps(error))
    assert type(twin) is SourceError
    assert str(twin) == str(error)
    assert twin.words(marked) == error.words(marked)


WON_BY_ORANGE = """[Variant "express"]
[Players "2"]
[First "o"]

1. L2 2. L6 3. L2 4. L6 5. L2 6. L6 7. L2 8. L6 9. L2 g
"""


def test_the_outcome_in_a_result_error_is_said_in_the_readers_words() -> None:
    # an Italian walk read "…finita con g won (points)": the outcome was English inside
    # a translated message, with the colours by their letters
    with pytest.raises(RecordError) as info:
        parse_record(WON_BY_ORANGE)
    error = info.value
    assert str(error) == "line 5: the result is g, but orange won with a line"
    italian = {
        AT_LINE: "riga {line}: {problem}",
        "the result is {result}, but {outcome}": "il risultato è {result}, ma {outcome}",
        "{colour} won with a line": "ha vinto {colour} con una fila",
    }
    names = ("arancione", "verde", "blu", "bianco")
    said = error.words(lambda t: italian.get(t, t), lambda seat: names[seat])
    assert said == "riga 5: il risultato è g, ma ha vinto arancione con una fila"
    twin = pickle.loads(pickle.dumps(error))
    assert twin.words(marked) == error.words(marked)


@pytest.mark.parametrize(
    ("winners", "words"),
    [
        ((0, 2), "orange and blue shared the game when the board was full"),
        ((0, 1, 2), "orange, green and blue shared the game when the board was full"),
        ((3, 0, 1, 2), "white, orange, green and blue shared the game when the board was full"),
    ],
)
def test_a_shared_game_names_every_colour_that_shares_it(
    winners: tuple[int, ...], words: str
) -> None:
    outcome = Outcome(winners, 4, EndReason.BOARD_FULL)
    assert str(outcome_phrase(outcome)) == words
    german = {"{first} and {last}": "{first} und {last}"}
    assert "orange und blue" in outcome_phrase(Outcome((0, 2), 3, EndReason.BOARD_FULL)).words(
        lambda t: german.get(t, t)
    )
