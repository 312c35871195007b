"""Errors of the core, split by cause; all are ``ValueError`` and none changes state."""

from __future__ import annotations


class ShiftagoError(ValueError):
    """Base of every error the rules engine raises about its input."""


class ParseError(ShiftagoError):
    """Text that does not parse: an action, a cell, a position, a record."""


class InvalidPositionError(ShiftagoError):
    """A position that parses but cannot occur (PROTOCOL.md, ``setposition``)."""


class IllegalActionError(ShiftagoError):
    """A well-formed action that the rules do not allow now."""


class GameOverError(IllegalActionError):
    """An action asked of a game that has ended."""
