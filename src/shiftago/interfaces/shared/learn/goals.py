"""The goals of the lessons' steps, and how a try is judged against one.

A step's player acts on a position until the goal is met or can no longer be met; a
goal looks at what the player's actions did (the states after each one) and says
"met", "going on" (act again: the player's turn goes on, as after a scoring) or
"missed" with the reason, as a code and a sentence marked for the catalogues. The
rules themselves are the core's: a goal only reads the states it made.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Final

from shiftago.core import (
    INSERTIONS,
    Action,
    IllegalActionError,
    Insertion,
    Phase,
    Scoring,
    State,
    Variant,
    cell_name,
    parse_cell,
)
from shiftago.core.geometry import push_run
from shiftago.interfaces.shared.catalogues import N_

#: The players' names in a sentence, by colour letter (the pages' names for them).
COLOUR_WORDS: Final[Mapping[str, str]] = {
    "o": N_("Orange"),
    "g": N_("Green"),
    "b": N_("Blue"),
    "w": N_("White"),
}


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


@dataclass(frozen=True)
class Tried:
    """What the player's actions did: the start, each action, and the state after it."""

    start: State
    actions: tuple[Action, ...]
    states: tuple[State, ...]  # the start, then one state after each action

    @property
    def mover(self) -> int:
        return self.start.turn

    @property
    def last(self) -> State:
        return self.states[-1]

    @property
    def still_acting(self) -> bool:
        """Whether the player is still to act (after a scoring, or a handicap's skips)."""
        return not self.last.is_over and self.last.turn == self.mover


# --- the words of the usual reasons ---------------------------------------------------
MET_WORDS: Final = N_("Well done: the goal is met.")
GOING_ON_WORDS: Final = N_("Right so far: your turn goes on.")
LANE_FULL: Final = N_(
    "%(action)s cannot be played: its lane is full, and a marble may never be pushed off the board."
)
SCORE_FIRST: Final = N_("%(action)s is not allowed now: first score one of your lines.")
NO_SUCH_LINE: Final = N_("%(action)s is not one of the lines you can score now.")
NOTHING_TO_SCORE: Final = N_("%(action)s is not allowed now: there is no line to score.")
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
    "%(colour)s can still complete a line: after %(action)s, %(reply)s makes %(start)s-%(end)s."
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
NOT_SCORED: Final = N_("%(action)s scores no line of %(length)s.")
NO_WIN_IN_TIME: Final = N_(
    "Your extra pushes are used up and no line of %(need)s was made: your longest line "
    "has %(length)s marbles."
)


def met() -> Verdict:
    return Verdict(Status.MET, "met", MET_WORDS)


def going_on() -> Verdict:
    return Verdict(Status.GOING_ON, "going_on", GOING_ON_WORDS)


def refusal(state: State, action: Action) -> Verdict:
    """A try the rules refuse, explained: a full lane, or the core's own reason."""
    values = {"action": str(action)}
    if isinstance(action, Insertion):
        if state.phase is Phase.SCORE:
            return Verdict(Status.MISSED, "score_first", SCORE_FIRST, values)
        if push_run(action.index, state.occupied) < 0:
            return Verdict(Status.MISSED, "lane_full", LANE_FULL, values)
        return Verdict(Status.MISSED, "apart", APART, values)
    if state.phase is Phase.SCORE:
        return Verdict(Status.MISSED, "no_such_line", NO_SUCH_LINE, values)
    return Verdict(Status.MISSED, "nothing_to_score", NOTHING_TO_SCORE, values)


# --- facts the goals read ---------------------------------------------------------------
def longest(state: State, seat: int) -> int:
    """The length of ``seat``'s longest line (1 for a lone marble, 0 for none)."""
    lines = state.lines(seat, 2)
    if lines:
        return max(line.length for line in lines)
    return 1 if state.boards[seat] else 0


def line_length(state: State) -> int:
    """The line length that wins (Express) or scores (the least that scores)."""
    if state.rules.variant is Variant.EXPRESS:
        return state.rules.win_length
    return min(state.rules.points_table)


def gifts(state: State, mover: int, before: State | None = None) -> Verdict | None:
    """A line of the winning length that ``mover``'s push made for another colour, or
    left standing when it was there ``before``."""
    need = state.rules.win_length
    for seat in range(state.players):
        if seat == mover:
            continue
        for line in state.lines(seat, need):
            left = before is not None and line in before.lines(seat, need)
            return Verdict(
                Status.MISSED,
                "line_left" if left else "gives_line",
                LINE_LEFT if left else GIVES_LINE,
                {
                    "colour": _colour(seat),
                    "start": cell_name(line.cells[0]),
                    "end": cell_name(line.cells[-1]),
                },
            )
    return None


def threat(state: State, mover: int) -> Verdict | None:
    """A push by which another colour would win at once in ``state`` (Express)."""
    for seat in range(state.players):
        if seat == mover:
            continue
        as_if = State(
            state.rules, state.boards, seat, Phase.INSERT, state.supplies, state.scores,
            (0,) * state.players,
        )  # fmt: skip
        for action in as_if.legal_actions():
            after = as_if.after(action)
            if after.outcome is not None and after.outcome.winners == (seat,):
                line = max(after.lines(seat, state.rules.win_length), key=lambda x: x.length)
                return Verdict(
                    Status.MISSED,
                    "threat_left",
                    THREAT_LEFT,
                    {
                        "colour": _colour(seat),
                        "reply": str(action),
                        "start": cell_name(line.cells[0]),
                        "end": cell_name(line.cells[-1]),
                    },
                )
    return None


def no_line(tried: Tried, action: Action) -> Verdict:
    """Why the last push made no line: it moved the player's marbles apart, or it did
    not bring enough of them together."""
    state = tried.last
    mover = tried.mover
    need = line_length(tried.start)
    now, before = longest(state, mover), longest(tried.states[-2], mover)
    values: dict[str, str | int] = {"action": str(action), "length": now, "need": need}
    if now < before:
        return Verdict(Status.MISSED, "moved_away", MOVED_AWAY, values)
    return Verdict(Status.MISSED, "no_line", NO_LINE, values)


def _colour(seat: int) -> str:
    return "ogbw"[seat]


def _won(tried: Tried) -> bool:
    outcome = tried.last.outcome
    return outcome is not None and outcome.winners == (tried.mover,)


# --- the goals --------------------------------------------------------------------------
class Goal:
    """What a step asks for. ``check`` answers once the player's actions decide it, or
    None while the player is still to act and may yet meet it."""

    #: The most actions of the player the goal waits for.
    actions: int = 1

    def check(self, tried: Tried) -> Verdict | None:
        raise NotImplementedError


@dataclass(frozen=True)
class Occupy(Goal):
    """After the push, each of ``cells`` holds a marble (the player's, with ``own``)."""

    cells: tuple[str, ...]
    own: bool = True

    def check(self, tried: Tried) -> Verdict | None:
        state, action = tried.last, tried.actions[-1]
        for name in self.cells:
            seat = state.seat_at(parse_cell(name))
            if self.own and seat != tried.mover:
                return Verdict(
                    Status.MISSED, "not_on_cell", NOT_ON_CELL, {"action": str(action), "cell": name}
                )
            if not self.own and seat is None:
                return Verdict(
                    Status.MISSED, "still_empty", STILL_EMPTY, {"action": str(action), "cell": name}
                )
        return met()


@dataclass(frozen=True)
class Win(Goal):
    """Win the Express game with a line within ``actions`` pushes of the player's (more
    than one only when a handicap gives the player pushes in a row)."""

    actions: int = 1

    def check(self, tried: Tried) -> Verdict | None:
        if _won(tried):
            return met()
        if tried.still_acting and len(tried.actions) < self.actions:
            return None
        if self.actions > 1:
            need = line_length(tried.start)
            length = longest(tried.last, tried.mover)
            return Verdict(
                Status.MISSED,
                "no_win_in_time",
                NO_WIN_IN_TIME,
                {"need": need, "length": length},
            )
        return no_line(tried, tried.actions[-1])


@dataclass(frozen=True)
class Block(Goal):
    """Push so that no other colour has a line, nor can make one with its next push
    (a win of the player's own meets it too)."""

    def check(self, tried: Tried) -> Verdict | None:
        if _won(tried):
            return met()
        action = str(tried.actions[-1])
        before = tried.states[-2]
        for found in (gifts(tried.last, tried.mover, before), threat(tried.last, tried.mover)):
            if found is not None:
                return Verdict(
                    found.status, found.code, found.words, {**found.values, "action": action}
                )
        return met()


@dataclass(frozen=True)
class ScoreBest(Goal):
    """Score the line worth the most points (the step starts in the score phase)."""

    def check(self, tried: Tried) -> Verdict | None:
        options = tried.start.scoring_options()
        best = max(options, key=lambda o: o.points)
        action = tried.actions[-1]
        chosen = next(o for o in options if o.action == action)
        if chosen.points == best.points:
            return met()
        return Verdict(
            Status.MISSED,
            "fewer_points",
            FEWER_POINTS,
            {
                "action": str(action),
                "points": chosen.points,
                "best": best.points,
                "start": cell_name(best.line.cells[0]),
                "end": cell_name(best.line.cells[-1]),
            },
        )


@dataclass(frozen=True)
class ReachPoints(Goal):
    """Have ``points`` points before the turn passes on, within ``actions`` actions."""

    points: int
    actions: int = 2

    def check(self, tried: Tried) -> Verdict | None:
        have = tried.last.scores[tried.mover]
        if have >= self.points:
            return met()
        if tried.still_acting and len(tried.actions) < self.actions:
            return None
        if isinstance(tried.actions[-1], Insertion) and tried.last.phase is not Phase.SCORE:
            return no_line(tried, tried.actions[-1])
        return Verdict(
            Status.MISSED, "points_short", POINTS_SHORT, {"points": have, "goal": self.points}
        )


@dataclass(frozen=True)
class Keep(Goal):
    """Score a line keeping ``cell`` (3-4 players choose the end that stays)."""

    cell: str
    actions: int = 2

    def check(self, tried: Tried) -> Verdict | None:
        action = tried.actions[-1]
        if not isinstance(action, Scoring):
            return None if tried.still_acting and len(tried.actions) < 2 else no_line(tried, action)
        kept = cell_name(action.keep)
        if kept == self.cell:
            return met()
        values = {"action": str(action), "kept": kept, "cell": self.cell}
        return Verdict(Status.MISSED, "kept_other", KEPT_OTHER, values)


@dataclass(frozen=True)
class ScoreLength(Goal):
    """Make and score a line of ``length`` (a push, then its scoring)."""

    length: int
    actions: int = 2

    def check(self, tried: Tried) -> Verdict | None:
        action = tried.actions[-1]
        if isinstance(action, Scoring):
            before = tried.states[-2]
            option = next(o for o in before.scoring_options() if o.action == action)
            if option.line.length == self.length:
                return met()
            values: dict[str, str | int] = {"action": str(action), "length": self.length}
            return Verdict(Status.MISSED, "not_scored", NOT_SCORED, values)
        if tried.last.phase is Phase.SCORE and len(tried.actions) < self.actions:
            return None
        return no_line(tried, action)


# --- judging a try ----------------------------------------------------------------------
class TryError(ValueError):
    """A try that is not one: an action that does not parse, an illegal action before
    the last, or actions after the step was already decided."""


def judge(start: State, goal: Goal, tried: Sequence[str]) -> tuple[Verdict, Tried]:
    """The verdict on the actions ``tried`` from ``start`` (in notation, in order), and
    what they did. A refused last action is explained (the state stays as it was)."""
    if not tried:
        raise TryError("a try has at least one action")
    states = [start]
    actions: list[Action] = []
    verdict: Verdict | None = None
    for number, text in enumerate(tried, 1):
        if verdict is not None:
            raise TryError(f"the step was decided by action {number - 1}; nothing follows it")
        try:
            action = Action.parse(text)
        except ValueError as error:
            raise TryError(f"action {number}: {error}") from None
        state = states[-1]
        try:
            played, after = state.step(action)
        except IllegalActionError as error:
            if number < len(tried):
                raise TryError(f"action {number}: {error}") from None
            return refusal(state, action), Tried(start, tuple(actions), tuple(states))
        actions.append(played)
        states.append(after)
        verdict = goal.check(Tried(start, tuple(actions), tuple(states)))
        if verdict is None and not Tried(start, tuple(actions), tuple(states)).still_acting:
            raise AssertionError("a goal decides once the player's turn ends")  # pragma: no cover
    done = Tried(start, tuple(actions), tuple(states))
    return (verdict if verdict is not None else going_on()), done


def tryable(start: State, full_lanes: bool) -> list[str]:
    """The actions a step's page lets the player try: the legal ones, and with
    ``full_lanes`` the pushes into full lanes too (to learn why they are refused)."""
    legal = [str(a) for a in start.legal_actions()]
    if full_lanes and start.phase is Phase.INSERT:
        return [str(a) for a in INSERTIONS]
    return legal


def explain(verdict: Verdict, gettext: Callable[[str], str]) -> str:
    """The verdict's words in the language of ``gettext`` (colours by their names)."""
    values = {
        key: gettext(COLOUR_WORDS[value]) if key == "colour" and isinstance(value, str) else value
        for key, value in verdict.values.items()
    }
    return gettext(verdict.words) % values
