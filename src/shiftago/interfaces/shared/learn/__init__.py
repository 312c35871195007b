"""Lessons that teach Shiftago by playing it: their content and the checks of their
goals (no I/O; the web app serves them at ``/learn``)."""

from shiftago.interfaces.shared.learn.goals import Goal, Tried
from shiftago.interfaces.shared.learn.judging import TryError, judge, tryable
from shiftago.interfaces.shared.learn.lessons import BY_ID, LESSONS, Lesson, Step
from shiftago.interfaces.shared.learn.verdicts import Status, Verdict, explain

__all__ = [
    "BY_ID",
    "LESSONS",
    "Goal",
    "Lesson",
    "Status",
    "Step",
    "Tried",
    "TryError",
    "Verdict",
    "explain",
    "judge",
    "tryable",
]
