"""Counted words for the text that people read: ``1 opening``, ``3 inaccuracies``.

One place for the English plural, so that every command and report counts alike.
"""

from __future__ import annotations


def counted(n: int, word: str) -> str:
    """``n`` and ``word``, in the plural unless ``n`` is 1 (``-y`` after a consonant
    becomes ``-ies``)."""
    if n == 1:
        return f"1 {word}"
    if word.endswith("y") and word[-2:-1] not in tuple("aeiou"):
        return f"{n} {word[:-1]}ies"
    return f"{n} {word}s"
