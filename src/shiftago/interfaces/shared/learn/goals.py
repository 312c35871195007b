"""The goals of the lessons' steps: what the player's actions did, and whether that
meets a step's goal.

A step's player acts on a position until the goal is met or can no longer be met; a
goal looks at the states the actions led to and answers met, or missed with the
reason, or None while the player is still to act and may yet meet it. The rules
themselves are the core's: a goal only reads the states it is given.
"""

from __future__ import annotations

from dataclasses import dataclass

from shiftago.core import Action, Insertion, Phase, Scoring, State, Variant, cell_name, parse_cell
from shiftago.interfaces.shared.learn.verdicts import (
    FEWER_POINTS,
    GIVES_LINE,
    KEPT_OTHER,
    LINE_LEFT,
    MOVED_AWAY,
    NO_LINE,
    NO_WIN_IN_TIME,
    NOT_ON_CELL,
    NOT_SCORED,
    POINTS_SHORT,
    STILL_EMPTY,
    TAKEN_OFF,
    THREAT_LEFT,
    Status,
    Verdict,
    met,
)


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


def no_line(tried: Tried, action: Action, need: int | None = None) -> Verdict:
    """Why the last push made no line (of ``need`` marbles, else of the length that wins
    or scores): it moved the player's marbles apart, or it did not bring enough of them
    together."""
    state = tried.last
    mover = tried.mover
    need = line_length(tried.start) if need is None else need
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
            return no_line(tried, tried.actions[-1], self._length(tried, have))
        return Verdict(
            Status.MISSED, "points_short", POINTS_SHORT, {"points": have, "goal": self.points}
        )

    def _length(self, tried: Tried, have: int) -> int:
        """The shortest line whose points make up what the goal still wants."""
        wanted = self.points - have
        table = tried.start.rules.points_table
        worth = [length for length, points in sorted(table.items()) if points >= wanted]
        return worth[0] if worth else max(table)


@dataclass(frozen=True)
class Keep(Goal):
    """Score a line keeping ``cell`` (3-4 players choose the end that stays), and the
    player's marbles on ``spared`` with it (those the kept end is to build on)."""

    cell: str
    actions: int = 2
    spared: tuple[str, ...] = ()

    def check(self, tried: Tried) -> Verdict | None:
        action = tried.actions[-1]
        if not isinstance(action, Scoring):
            return None if tried.still_acting and len(tried.actions) < 2 else no_line(tried, action)
        kept = cell_name(action.keep)
        if kept != self.cell:
            values = {"action": str(action), "kept": kept, "cell": self.cell}
            return Verdict(Status.MISSED, "kept_other", KEPT_OTHER, values)
        after = tried.last
        taken = [name for name in self.spared if after.seat_at(parse_cell(name)) != tried.mover]
        if taken:
            values = {"action": str(action), "cells": ", ".join(taken)}
            return Verdict(Status.MISSED, "taken_off", TAKEN_OFF, values)
        return met()


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
