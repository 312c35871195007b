"""What a record says about its moves besides the moves: comments, marks, numeric
annotations and variations, as PGN has them, and their text form written.

A :class:`Note` belongs to one action of a line (the main line or a variation): the
numeric annotations after it (``$1`` ... where 1-6 are the marks ``!``, ``?``, ``!!``,
``??``, ``!?``, ``?!``), the comment after it, and the variations that replace it. A
:class:`Variation` is a line of its own: its actions, their notes and the comment before
its first action. Lines keep one note per action, or none at all when no action has one,
so that equal annotations make equal records.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Final

from shiftago.core.actions import Action, Scoring
from shiftago.formats.record_syntax import starts_turn

#: The marks and their numeric annotations, as in PGN ($1 is ``!`` ... $6 is ``?!``).
MARKS: Final[dict[str, int]] = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}
MARK_OF_NAG: Final[dict[int, str]] = {nag: mark for mark, nag in MARKS.items()}
#: The highest numeric annotation (PGN's: a byte).
MAX_NAG: Final = 255
_NAG: Final = re.compile(r"\$(\d{1,3})")


def clean_comment(text: str | None) -> str | None:
    """A comment as records keep it: runs of white space made one space, the ends
    trimmed, and none at all when nothing is left (writing may break lines anywhere)."""
    if text is None:
        return None
    if not isinstance(text, str):
        raise ValueError(f"a comment is text, not {text!r}")
    if "}" in text:
        raise ValueError(f"a comment cannot hold '}}' (it would end the comment): {text!r}")
    words = text.split()
    return " ".join(words) if words else None


def parse_nag(token: str) -> int | None:
    """The number of a mark (``!?``) or a numeric annotation (``$14``), else None."""
    if token in MARKS:
        return MARKS[token]
    match = _NAG.fullmatch(token)
    if match is None or int(match.group(1)) > MAX_NAG:
        return None
    return int(match.group(1))


def _check_nags(nags: Iterable[int]) -> tuple[int, ...]:
    nags = tuple(nags)
    for nag in nags:
        if type(nag) is not int or not 0 <= nag <= MAX_NAG:
            raise ValueError(f"a numeric annotation is a whole number 0-{MAX_NAG}, not {nag!r}")
    return nags


@dataclass(frozen=True)
class Note:
    """What is said about one action: numeric annotations, a comment, variations."""

    nags: tuple[int, ...] = ()
    comment: str | None = None
    variations: tuple[Variation, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "nags", _check_nags(self.nags))
        object.__setattr__(self, "comment", clean_comment(self.comment))
        variations = tuple(self.variations)
        if not all(isinstance(v, Variation) for v in variations):
            raise ValueError("variations must be Variation values")
        object.__setattr__(self, "variations", variations)

    @property
    def mark(self) -> str | None:
        """The first mark among the annotations (``!``, ``??``, ...), if any."""
        return next((MARK_OF_NAG[n] for n in self.nags if n in MARK_OF_NAG), None)

    def __bool__(self) -> bool:
        return bool(self.nags or self.comment or self.variations)


@dataclass(frozen=True)
class Variation:
    """Another line in place of an action: its actions (one at least), their notes,
    and the comment before its first action."""

    actions: tuple[Action, ...]
    notes: tuple[Note, ...] = field(default=())
    comment: str | None = None

    def __post_init__(self) -> None:
        actions = tuple(self.actions)
        if not actions or not all(isinstance(a, Action) for a in actions):
            raise ValueError("a variation is one or more Action values")
        object.__setattr__(self, "actions", actions)
        object.__setattr__(self, "notes", normal_notes(self.notes, len(actions)))
        object.__setattr__(self, "comment", clean_comment(self.comment))


def normal_notes(notes: Iterable[Note], count: int) -> tuple[Note, ...]:
    """One note per action (missing ones at the end are empty), or none at all."""
    notes = tuple(notes)
    if not all(isinstance(n, Note) for n in notes):
        raise ValueError("notes must be Note values")
    if len(notes) > count:
        raise ValueError(f"{len(notes)} notes for {count} actions")
    if not any(notes):
        return ()
    return notes + (Note(),) * (count - len(notes))


def canonical_line(
    actions: tuple[Action, ...], notes: tuple[Note, ...]
) -> tuple[tuple[Action, ...], tuple[Note, ...]]:
    """A line with every scoring in its 2-player spelling, variations included."""
    actions = tuple(a.canonical_for_two() if isinstance(a, Scoring) else a for a in actions)
    notes = tuple(
        replace(n, variations=tuple(_canonical_variation(v) for v in n.variations)) for n in notes
    )
    return actions, notes


def _canonical_variation(variation: Variation) -> Variation:
    actions, notes = canonical_line(variation.actions, variation.notes)
    return replace(variation, actions=actions, notes=notes)


# --- writing ---------------------------------------------------------------------------
def comment_pieces(comment: str | None) -> list[str]:
    """A comment as pieces that lines may be broken between: ``{a``, ``b``, ``c}``."""
    if comment is None:
        return []
    words = comment.split(" ")
    words[0] = "{" + words[0]
    words[-1] += "}"
    return words


def line_pieces(
    actions: tuple[Action, ...],
    notes: tuple[Note, ...],
    comment: str | None,
    turn: int = 0,
    previous: Action | None = None,
) -> list[str]:
    """The movetext of a line: the comment before it, then each action with its turn
    number where a turn begins, its mark, other annotations, comment and variations.

    ``turn`` and ``previous`` are the turn count and the action before the line (a
    variation goes on from the action before the one it replaces).
    """
    pieces = comment_pieces(comment)
    for index, action in enumerate(actions):
        note = notes[index] if notes else Note()
        starts = starts_turn(previous, action)
        turn += starts
        # a mark that comes first is glued to the action (Td!), the rest are $n
        glued = MARK_OF_NAG.get(note.nags[0]) if note.nags else None
        text = str(action) + (glued or "")
        pieces.append(f"{turn}. {text}" if starts else text)
        pieces += [f"${nag}" for nag in note.nags[1 if glued else 0 :]]
        pieces += comment_pieces(note.comment)
        for variation in note.variations:
            inner = line_pieces(
                variation.actions, variation.notes, variation.comment, turn - starts, previous
            )
            inner[0] = "(" + inner[0]
            inner[-1] += ")"
            pieces += inner
        previous = action
    return pieces
