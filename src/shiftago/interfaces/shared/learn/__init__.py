"""Lessons that teach Shiftago by playing it: their content and the checks of their
goals (no I/O; the web app serves them at ``/learn``)."""

from shiftago.interfaces.shared.learn.goals import (
    Status,
    TryError,
    Verdict,
    explain,
    judge,
    tryable,
)
from shiftago.interfaces.shared.learn.lessons import BY_ID, LESSONS, Lesson, Step

__all__ = [
    "BY_ID",
    "LESSONS",
    "Lesson",
    "Status",
    "Step",
    "TryError",
    "Verdict",
    "explain",
    "judge",
    "tryable",
]
