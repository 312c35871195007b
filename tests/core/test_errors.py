"""The core's errors keep an English template and its fields: ``str`` is the English
message, ``words`` the same message through another language's gettext, nested errors
and colours included, and both survive a pickle."""

from __future__ import annotations

import pickle

import pytest

from shiftago.core import Action, State
from shiftago.core.errors import Colour, IllegalActionError, ParseError, ShiftagoError

#: A pretend German catalogue of the templates these tests meet.
GERMAN = {
    "rank {rank} of the board has {found}: expected a colour ({allowed}) or a digit 1-7 "
    "for empty cells": "Reihe {rank} des Bretts hat {found}: erwartet eine Farbe ({allowed}) "
    "oder eine Ziffer 1-7 für leere Felder",
    "{colour} is to act and so cannot have skips pending": "{colour} ist am Zug und kann "
    "daher keine ausstehenden Aussetzer haben",
    "outer {inner}": "außen {inner}",
}


def german(template: str) -> str:
    return GERMAN.get(template, template)


def colour_de(seat: int) -> str:
    return ("Orange", "Grün", "Blau", "Weiß")[seat]


def test_a_parse_error_says_its_template_in_english_and_through_gettext() -> None:
    with pytest.raises(ParseError) as caught:
        State.from_position("express 2 7/7/7/7/7/7/x6 o insert 22,22 0,0 0,0")
    error = caught.value
    assert str(error) == (
        "rank 1 of the board has 'x': expected a colour (o g) or a digit 1-7 for empty cells"
    )
    assert error.fields["rank"] == 1
    assert error.words(german, colour_de) == (
        "Reihe 1 des Bretts hat 'x': erwartet eine Farbe (o g) oder eine Ziffer 1-7 für "
        "leere Felder"
    )


def test_a_position_s_refusal_names_the_seat_by_its_colour_in_the_reader_s_words() -> None:
    """Not by the notation's letter: "o: 23 marbles" read as a stray letter (a German
    walk)."""
    with pytest.raises(ShiftagoError) as caught:
        State.from_position("express 2 7/7/7/7/7/7/7 g insert 22,22 0,0 0,1")
    error = caught.value
    assert str(error) == "green is to act and so cannot have skips pending"
    assert error.words(german, colour_de) == (
        "Grün ist am Zug und kann daher keine ausstehenden Aussetzer haben"
    )
    with pytest.raises(ShiftagoError) as caught:
        State.from_position("express 2 7/7/7/7/7/7/7 o insert 23,22 0,0 0,0")
    assert str(caught.value).startswith("orange: 0 on the board and 23 in supply")


def test_a_nested_error_is_said_in_the_same_language() -> None:
    inner = ParseError("{colour} is to act and so cannot have skips pending", colour=Colour(2))
    outer = IllegalActionError("outer {inner}", inner=inner)
    assert str(outer) == "outer blue is to act and so cannot have skips pending"
    assert outer.words(german, colour_de) == (
        "außen Blau ist am Zug und kann daher keine ausstehenden Aussetzer haben"
    )


def test_a_template_without_fields_is_said_as_it_is() -> None:
    error = ParseError("a {brace} stays")
    assert str(error) == "a {brace} stays" and error.words(german) == "a {brace} stays"


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_errors_pickle_with_their_template_and_fields(protocol: int) -> None:
    try:
        Action.parse("Q9")
    except ParseError as error:
        again = pickle.loads(pickle.dumps(error, protocol))
        assert type(again) is ParseError
        assert str(again) == str(error) and again.template == error.template
        assert again.fields == error.fields
    nested = IllegalActionError("outer {inner}", inner=ParseError("{c}", c=Colour(3)))
    again = pickle.loads(pickle.dumps(nested, protocol))
    assert again.words(german, colour_de) == "außen Weiß"
