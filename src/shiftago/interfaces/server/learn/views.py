"""The lessons as the API answers them, in one language (docs/web-protocol.md,
"Lessons"): the words are translated here, the positions drawn by the core."""

from __future__ import annotations

from typing import Any

from babel.support import NullTranslations

from shiftago.interfaces.server.games.views import position_view
from shiftago.interfaces.shared.learn import (
    LESSONS,
    Lesson,
    Status,
    Step,
    Tried,
    Verdict,
    explain,
    tryable,
)


def summary_view(lesson: Lesson, words: NullTranslations) -> dict[str, Any]:
    """A lesson as the list of lessons shows it."""
    return {
        "id": lesson.id,
        "title": words.gettext(lesson.title),
        "summary": words.gettext(lesson.summary),
        "variant": lesson.variant,
        "players": lesson.players,
        "steps": len(lesson.steps),
    }


def step_view(number: int, step: Step, words: NullTranslations) -> dict[str, Any]:
    """A step: its goal, a hint, where it starts and what the page lets the player try."""
    start = step.start()
    return {
        "number": number,
        "goal": words.gettext(step.goal),
        "hint": None if step.hint is None else words.gettext(step.hint),
        "position": step.position,
        "view": position_view([start], []),
        "tryable": tryable(start, step.full_lanes),
    }


def lesson_view(lesson: Lesson, words: NullTranslations) -> dict[str, Any]:
    """A lesson with its steps, and the lesson after it (None after the last)."""
    index = LESSONS.index(lesson)
    after = LESSONS[index + 1].id if index + 1 < len(LESSONS) else None
    steps = [step_view(n, step, words) for n, step in enumerate(lesson.steps, 1)]
    return {**summary_view(lesson, words), "steps": steps, "next": after}


def try_view(step: Step, verdict: Verdict, tried: Tried, words: NullTranslations) -> dict[str, Any]:
    """The verdict on a try: met, going on or missed, why, and the position it led to
    (a refused action leaves the position as it was)."""
    view = position_view(list(tried.states), list(tried.actions))
    if tried.actions:
        view["tryable"] = tryable(tried.last, step.full_lanes)
    else:
        view["tryable"] = tryable(tried.start, step.full_lanes)
    done = step.done if verdict.status is Status.MET and step.done is not None else None
    return {
        "status": verdict.status.value,
        "code": verdict.code,
        "words": explain(verdict, words.gettext),
        "done": None if done is None else words.gettext(done),
        "actions": [str(a) for a in tried.actions],
        "view": view,
    }
