"""Lessons over HTTP (docs/web-protocol.md, "Lessons").

``GET /api/learn`` lists the lessons and ``GET /api/learn/{lesson}`` gives one with its
steps, in the request's language; ``POST /api/learn/{lesson}/{step}/try`` judges the
player's actions in a step (the server judges, the page draws). ``GET`` and ``PUT
/api/account/learn`` read and add to a signed-in account's progress.
"""

from __future__ import annotations

from typing import Annotated, Any, Final

from babel.support import NullTranslations
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import Field

from shiftago.interfaces.server.accounts.accounts import language_of, session_of
from shiftago.interfaces.server.door.http import Body, Invalid
from shiftago.interfaces.server.games.access import hub_of
from shiftago.interfaces.server.languages import Catalogues
from shiftago.interfaces.server.learn import store as learn_store
from shiftago.interfaces.server.learn.views import lesson_view, summary_view, try_view
from shiftago.interfaces.shared.learn import BY_ID, LESSONS, Lesson, TryError, judge

router = APIRouter(prefix="/api")

#: The most actions a try may list (the longest step takes 3).
MOST_ACTIONS: Final = 8
Notation = Annotated[str, Field(strict=True, min_length=1, max_length=12)]
LessonId = Annotated[str, Field(strict=True, min_length=1, max_length=40)]


class TryIn(Body):
    actions: list[Notation] = Field(
        min_length=1,
        max_length=MOST_ACTIONS,
        description="the player's actions in the step so far, in order",
    )


class ProgressIn(Body):
    lessons: dict[LessonId, Annotated[int, Field(strict=True, ge=0)]] = Field(
        max_length=len(LESSONS) + 1,
        description="steps completed per lesson; only ever adds",
    )


async def _words(request: Request) -> NullTranslations:
    """The gettext of the request's language (WEBAPI.md, "Languages")."""
    catalogues: Catalogues = request.app.state.catalogues
    return catalogues.translations(await language_of(request))


def _not_found(what: str) -> JSONResponse:
    return JSONResponse({"message": f"there is no {what}", "code": "not_found"}, status_code=404)


def _lesson(lesson_id: str) -> Lesson | None:
    return BY_ID.get(lesson_id)


def is_lesson(lesson_id: str) -> bool:
    """Whether ``/learn/{lesson_id}`` is a lesson's page."""
    return lesson_id in BY_ID


@router.get("/learn", summary="The lessons")
async def lessons(request: Request) -> dict[str, Any]:
    """Every lesson's title, what it teaches and its number of steps, in order."""
    words = await _words(request)
    return {"lessons": [summary_view(lesson, words) for lesson in LESSONS]}


@router.get("/learn/{lesson_id}", summary="A lesson and its steps", response_model=None)
async def lesson(lesson_id: str, request: Request) -> dict[str, Any] | JSONResponse:
    """The lesson's steps: goal, hint, start position (as the analysis board's view)."""
    found = _lesson(lesson_id)
    if found is None:
        return _not_found(f"lesson {lesson_id[:40]!r}")
    return lesson_view(found, await _words(request))


@router.post("/learn/{lesson_id}/{step}/try", summary="Judge the actions tried in a step")
async def try_step(lesson_id: str, step: int, body: TryIn, request: Request) -> JSONResponse:
    """``met``, ``going_on`` (act again) or ``missed``, with why and the position after."""
    found = _lesson(lesson_id)
    if found is None:
        return _not_found(f"lesson {lesson_id[:40]!r}")
    if not 1 <= step <= len(found.steps):
        return _not_found(f"step {step} in the lesson {lesson_id!r}")
    chosen = found.steps[step - 1]
    try:
        verdict, tried = judge(chosen.start(), chosen.check, body.actions)
    except TryError as error:
        raise Invalid("actions", str(error), code="bad_try") from None
    return JSONResponse(try_view(chosen, verdict, tried, await _words(request)))


def _signed_out() -> JSONResponse:
    return JSONResponse({"message": "sign in first", "code": "signed_out"}, status_code=401)


@router.get("/account/learn", summary="The signed-in account's progress in the lessons")
async def account_progress(request: Request) -> JSONResponse:
    """``{"lessons": {"push": 3, ...}}``: the steps completed per lesson; 401 signed out."""
    session = await session_of(request)
    if session is None:
        return _signed_out()
    hub = hub_of(request)
    done = await hub.db(learn_store.progress, hub.store, session.account.id)
    return JSONResponse({"lessons": done}, headers={"Cache-Control": "no-store"})


@router.put("/account/learn", summary="Add to the signed-in account's progress")
async def add_account_progress(body: ProgressIn, request: Request) -> JSONResponse:
    """Keeps the greater of the stored and the given steps of each lesson (so a
    browser's progress merges in) and answers the progress after it."""
    session = await session_of(request)
    if session is None:
        return _signed_out()
    for lesson_id, count in body.lessons.items():
        found = _lesson(lesson_id)
        if found is None:
            raise Invalid(f"lessons.{lesson_id}", "there is no such lesson", code="no_lesson")
        if count > len(found.steps):
            raise Invalid(
                f"lessons.{lesson_id}", f"the lesson has {len(found.steps)} steps", code="invalid"
            )
    hub = hub_of(request)
    done = await hub.db(learn_store.add_progress, hub.store, session.account.id, body.lessons)
    return JSONResponse({"lessons": done})
