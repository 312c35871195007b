"""Errors of the core, split by cause; all are ``ValueError`` and none changes state.

An error keeps its message as an English template with ``{name}`` fields and the
values of those fields, so that an interface can say it in its reader's language:
:meth:`TranslatableError.words` (the base of :class:`ShiftagoError`, and of the
errors of other rooms about what a person gave them) takes the interface's
``gettext`` (the catalogues hold the templates: ``scripts/catalogues.py`` extracts the
first argument of each error class named in ``catalogues.KEYWORDS``, and any text
marked with :func:`N_`).
``str(error)`` is the English message. A field's value is said as it is, but for a
:class:`Colour` (a seat's colour, a word of the game), a nested error and a
:class:`Phrase` (said in the same language).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

#: The colours' names by seat, as the English messages say them (``rules.COLOUR_NAMES``;
#: repeated here because ``rules`` imports this module).
_COLOUR_NAMES: Final = ("orange", "green", "blue", "white")


def N_(template: str) -> str:
    """Mark ``template`` for the catalogues where it is not an error's first argument."""
    return template


def english(template: str) -> str:
    """The gettext of English: the template as it is."""
    return template


def english_colour(seat: int) -> str:
    """The colour of ``seat`` as the English messages name it."""
    return _COLOUR_NAMES[seat]


class Colour(int):
    """A seat whose colour is a field of an error's message: English says its name, an
    interface the name in its language."""

    def __str__(self) -> str:
        return english_colour(self)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


class Phrase:
    """A part of a message that an interface says in its reader's language, as it says
    a nested error: an English ``template`` whose ``{name}`` fields are filled from
    ``fields`` (a field's value said as :class:`TranslatableError` says it)."""

    __slots__ = ("fields", "template")

    def __init__(self, template: str, /, **fields: object) -> None:
        self.template = template
        self.fields = fields

    def words(
        self,
        gettext: Callable[[str], str] = english,
        colour: Callable[[int], str] = english_colour,
    ) -> str:
        text = gettext(self.template)
        if not self.fields:
            return text
        said = {name: _say(value, gettext, colour) for name, value in self.fields.items()}
        return text.format(**said)

    def __str__(self) -> str:
        return self.words()

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild_phrase, (self.template, self.fields))


def _rebuild_phrase(template: str, fields: dict[str, object]) -> Phrase:
    return Phrase(template, **fields)


class TranslatableError(ValueError):
    """Input refused with a message an interface can translate: ``template`` is the
    English message, ``fields`` fill its ``{name}`` placeholders (a template without
    fields is said as it is, braces and all)."""

    def __init__(self, template: str, /, **fields: object) -> None:
        self.template = template
        self.fields = fields
        super().__init__(self.words())

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild, (type(self), self.template, self.fields))

    def words(
        self,
        gettext: Callable[[str], str] = english,
        colour: Callable[[int], str] = english_colour,
    ) -> str:
        """The message with ``gettext`` applied to its template and to every nested
        error's and :class:`Phrase`'s, and ``colour`` naming each :class:`Colour`;
        English by default."""
        return Phrase(self.template, **self.fields).words(gettext, colour)


def _say(value: object, gettext: Callable[[str], str], colour: Callable[[int], str]) -> object:
    if isinstance(value, TranslatableError | Phrase):
        return value.words(gettext, colour)
    if isinstance(value, Colour):
        return colour(value)
    return value


def _rebuild(
    kind: type[TranslatableError], template: str, fields: dict[str, object]
) -> TranslatableError:
    return kind(template, **fields)


class ShiftagoError(TranslatableError):
    """Base of every error the rules engine raises about its input."""


class ParseError(ShiftagoError):
    """Text that does not parse: an action, a cell, a position, a record."""


class InvalidPositionError(ShiftagoError):
    """A position that parses but cannot occur (PROTOCOL.md, ``setposition``)."""


class IllegalActionError(ShiftagoError):
    """A well-formed action that the rules do not allow now."""


class GameOverError(IllegalActionError):
    """An action asked of a game that has ended."""
