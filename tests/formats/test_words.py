"""Counted words: the singular for one, the English plural otherwise."""

from __future__ import annotations

import pytest

from shiftago.formats.words import counted


@pytest.mark.parametrize(
    ("n", "word", "expected"),
    [
        (1, "game", "1 game"),
        (0, "game", "0 games"),
        (2, "session", "2 sessions"),
        (1, "inaccuracy", "1 inaccuracy"),
        (3, "inaccuracy", "3 inaccuracies"),
        (2, "day", "2 days"),
        (5, "random action", "5 random actions"),
    ],
)
def test_counted_uses_the_plural_unless_one(n: int, word: str, expected: str) -> None:
    assert counted(n, word) == expected
