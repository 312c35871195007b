"""Why the rules refuse an action, as a stable reason, and in the player's words.

The core's errors say why in English for programs (``'xyz' is not an action``); people
read the reason in their language. The web pages name the reasons in their own
catalogue entries (``static/refusals.js``, ``analysis.js``); the terminal programs say
them with the same messages, so one translation serves both.
"""

from __future__ import annotations

from typing import Final, Literal

from shiftago.core import Action, GameOverError, Insertion, Phase, Scoring, State
from shiftago.core.state import open_insertions
from shiftago.interfaces.shared.catalogues import _

Reason = Literal[
    "not_an_action", "game_over", "score_first", "nothing_to_score", "no_such_line", "not_allowed"
]
#: Every reason: no action's notation, the game is over, a push while a line waits to be
#: scored, a scoring with no line to score, not one of the lines to score, a push into a
#: full lane or against the rule of the first marbles.
REASONS: Final[tuple[Reason, ...]] = (
    "not_an_action",
    "game_over",
    "score_first",
    "nothing_to_score",
    "no_such_line",
    "not_allowed",
)

#: The two rules behind ``not_allowed``, where a person is told which: the push's lane
#: is full, or the mover's own marbles alone on the board would touch (``apart``).
PushRule = Literal["lane_full", "apart"]


def action_reason(state: State, action: Action | None, error: ValueError) -> Reason:
    """Which of :data:`REASONS` the core's refusal (``error``) of ``action`` in ``state``
    is; ``action`` is None when the text did not read as one."""
    if isinstance(error, GameOverError):
        return "game_over"
    if isinstance(action, Insertion):
        return "score_first" if state.phase is Phase.SCORE else "not_allowed"
    if isinstance(action, Scoring):
        return "no_such_line" if state.phase is Phase.SCORE else "nothing_to_score"
    return "not_an_action"


def precise_reason(state: State, action: Action | None, error: ValueError) -> Reason | PushRule:
    """:func:`action_reason`, with a refused push's ``not_allowed`` told as the rule that
    refuses it."""
    reason = action_reason(state, action, error)
    if reason == "not_allowed" and isinstance(action, Insertion):
        return "apart" if action in open_insertions(state.occupied) else "lane_full"
    return reason


def refusal_words(reason: Reason | PushRule, action: str, name: str) -> str:
    """The sentence that says ``reason`` of ``action`` (as typed) to a person; ``name``
    is the colour to act, as the program writes colours."""
    values = {"action": action, "name": name}
    if reason == "not_an_action":
        return _("{action} is not an action: actions are written like L3, Tc or xc3-g3.").format(
            **values
        )
    if reason == "game_over":
        return _("The game is over in this position.")
    if reason == "score_first":
        return _("{name} must score a line first: {action} is not possible now.").format(**values)
    if reason == "nothing_to_score":
        return _("There is no line to score: {action} is not possible now.").format(**values)
    if reason == "no_such_line":
        return _("{action} is not one of the lines to score here.").format(**values)
    if reason == "lane_full":
        return _(
            "{action} cannot be played: its lane is full, and a marble may never be pushed "
            "off the board."
        ).format(**values)
    if reason == "apart":
        return _(
            "{action} is not allowed: while only your marbles are on the board, they may not "
            "touch along a rank or file."
        ).format(**values)
    return _(
        "{action} is not allowed here: its lane is full, or it breaks the rule of the first "
        "marbles."
    ).format(**values)
