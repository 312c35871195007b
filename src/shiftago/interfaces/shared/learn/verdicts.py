"""What a goal answers about a try: met, going on or missed, why (a code and words
marked for the catalogues, with the values they name), and those words in a language."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Final

from shiftago.interfaces.shared.catalogues import N_
from shiftago.interfaces.shared.game_words import COLOUR_WORDS as IN_SENTENCE

#: The players' names inside a sentence, by colour letter: the words the lessons' goals
#: use ("orange has green's marbles..."), not the capitalised names of labels, which a
#: Dutch walk read mid-sentence as "de knikkers van Groen".
COLOUR_WORDS: Final[Mapping[str, str]] = dict(zip("ogbw", IN_SENTENCE, strict=True))


class Status(Enum):
    """Where a try stands: the goal met, the player still acting, or the goal missed."""

    MET = "met"
    GOING_ON = "going_on"
    MISSED = "missed"


@dataclass(frozen=True)
class Verdict:
    """A goal's answer: its status, why (a code and words with ``%(name)s`` values) and
    the states the actions went through (the step's start first)."""

    status: Status
    code: str
    words: str
    values: Mapping[str, str | int] = field(default_factory=dict)


# --- the words of the usual reasons ---------------------------------------------------
MET_WORDS: Final = N_("Well done: the goal is met.")
GOING_ON_WORDS: Final = N_("Right so far: your turn goes on.")
LANE_FULL: Final = N_(
    "%(action)s cannot be played: its lane is full, and a marble may never be pushed off the board."
)
SCORE_FIRST: Final = N_("%(action)s is not allowed now: first score one of your lines.")
NO_SUCH_LINE: Final = N_("%(action)s is not one of the lines you can score now.")
NOTHING_TO_SCORE: Final = N_("%(action)s is not allowed now: there is no line to score.")
OUT_OF_REACH: Final = N_(
    "After %(action)s the goal is out of reach: no actions you have left can meet it."
)
APART: Final = N_(
    "%(action)s is not allowed: while only your marbles are on the board, they may not "
    "touch along a rank or file."
)
GIVES_LINE: Final = N_(
    "%(action)s pushes the marbles of %(colour)s into the line %(start)s-%(end)s: "
    "%(colour)s wins on its own turn unless that push breaks the line."
)
LINE_LEFT: Final = N_(
    "After %(action)s, %(colour)s still has the line %(start)s-%(end)s: it wins on its own "
    "turn unless its own push breaks it."
)
THREAT_LEFT: Final = N_(
    "%(colour)s can still complete a line: after your %(action)s, %(colour)s plays %(reply)s "
    "and makes %(start)s-%(end)s."
)
MOVED_AWAY: Final = N_(
    "%(action)s moves your marbles out of line: your longest line now has %(length)s "
    "marbles, and %(need)s are needed."
)
NO_LINE: Final = N_(
    "%(action)s makes no line of %(need)s: your longest line has %(length)s marbles."
)
NOT_ON_CELL: Final = N_("After %(action)s, %(cell)s does not hold your marble.")
STILL_EMPTY: Final = N_("After %(action)s, %(cell)s is still empty.")
FEWER_POINTS: Final = N_(
    "%(action)s scores %(points)s points, but the line %(start)s-%(end)s is worth %(best)s."
)
POINTS_SHORT: Final = N_(
    "Your turn ended with %(points)s points; the goal was %(goal)s. Lines score by their "
    "length: look at the table again."
)
KEPT_OTHER: Final = N_("%(action)s keeps %(kept)s on the board; the goal is to keep %(cell)s.")
TAKEN_OFF: Final = N_(
    "%(action)s takes your marbles on %(cells)s off the board too; the goal keeps them."
)
NOT_SCORED: Final = N_("%(action)s scores no line of %(length)s.")
NO_WIN_IN_TIME: Final = N_(
    "Your extra pushes are used up and no line of %(need)s was made: your longest line "
    "has %(length)s marbles."
)


def met() -> Verdict:
    return Verdict(Status.MET, "met", MET_WORDS)


def going_on() -> Verdict:
    return Verdict(Status.GOING_ON, "going_on", GOING_ON_WORDS)


def explain(verdict: Verdict, gettext: Callable[[str], str]) -> str:
    """The verdict's words in the language of ``gettext`` (colours by their in-sentence
    words; one that begins the sentence with an upper-case letter, where an action such
    as ``xc2-c5`` keeps its own)."""
    values = {
        key: gettext(COLOUR_WORDS[value]) if key == "colour" and isinstance(value, str) else value
        for key, value in verdict.values.items()
    }
    template = gettext(verdict.words)
    text = template % values
    return text[:1].upper() + text[1:] if template.startswith("%(colour)s") else text
