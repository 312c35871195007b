"""The HTTP routes of analysis (docs/web-protocol.md).

The analysis board's view of any position (issue 15): ``POST /api/positions`` and
``POST /api/positions/play``, and the opening book's lines at a position, ``POST
/api/positions/book`` (:mod:`.book`). Only translation: the core sets the position up
and plays the action, and its words come back as a 422 naming the field when it refuses, with a
``reason`` (:data:`POSITION_REASONS`, :data:`ACTION_REASONS`) that lets a page say why in
its own language.

A game's review: ``POST /api/games/{id}/analysis`` asks for the computer's review of
the game's actions so far (202; 429 ``too_many_reviews`` when the asking address or
the server has as many unfinished reviews as ``reviews_per_address`` and
``reviews_total`` allow), ``GET`` answers the newest one asked for (404 before any).
The object is :mod:`.reviews`'s ("The game's analysis"); a review whose job
failed says ``"status": "failed"`` with an ``error``, and ``POST`` starts it again.
"""

from __future__ import annotations

import asyncio
import json
from typing import Annotated, Any, Final

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import Field

from shiftago.core import (
    Action,
    ParseError,
    State,
)
from shiftago.core.errors import TranslatableError
from shiftago.interfaces.server.accounts.accounts import said_in_language
from shiftago.interfaces.server.analysis import searches
from shiftago.interfaces.server.analysis.book import book_view
from shiftago.interfaces.server.analysis.reviews import GameAnalyses
from shiftago.interfaces.server.door import limits
from shiftago.interfaces.server.door.http import LIMITED, Body, invalid_response
from shiftago.interfaces.server.door.security import client_address
from shiftago.interfaces.server.games.access import found
from shiftago.interfaces.server.games.views import position_view
from shiftago.interfaces.server.jobs.admission import (
    REVIEW_RETRY_SECONDS,
    QueueFull,
    ReviewBounds,
    review_retry,
)
from shiftago.interfaces.shared.refusals import REASONS, action_reason

router = APIRouter(prefix="/api")
#: The longest wait for the queue's figures before a refusal's Retry-After (seconds).
FIGURES_WAIT = 1.0

# --- any position ------------------------------------------------------------------------
#: Far longer than any position string or action, short enough to refuse junk at once.
MAX_CHARS = 200

Text = Annotated[str, Field(strict=True, min_length=1, max_length=MAX_CHARS)]


class PositionIn(Body):
    position: Text = Field(description="a position string (PROTOCOL.md)")


class PlayIn(PositionIn):
    action: Text = Field(description="an action in notation, such as L3 or xc3-g3")


#: Why a position string is refused: it does not read as one (``unreadable``) or it
#: reads but cannot occur in a game (``impossible``: marbles, skips, points, phase).
POSITION_REASONS: Final = ("unreadable", "impossible")
#: Why an action is refused (:data:`shiftago.interfaces.shared.refusals.REASONS`).
ACTION_REASONS: Final = REASONS


class Refused(Exception):
    """The core's refusal of a field: the 422 :func:`.invalid_response` answers, with
    the ``reason`` a page says in its own words."""

    def __init__(self, field: str, error: ValueError, reason: str) -> None:
        super().__init__(f"{field}: {error}")
        self.field, self.message, self.reason = field, str(error), reason
        self.error = error

    async def response(self, request: Request) -> JSONResponse:
        """The 422, with the core's reason in the request's language (``words``)."""
        said = self.error if isinstance(self.error, TranslatableError) else None
        words = None if said is None else await said_in_language(request, said)
        answer = invalid_response(self.field, self.message, words=words)
        body = {**json.loads(bytes(answer.body)), "reason": self.reason}
        return JSONResponse(body, status_code=answer.status_code)


def set_up(text: str) -> State:
    """The state of a position string, the end of a game too (the last step of a game
    opens here); the core's refusal as :class:`Refused` on ``position``."""
    try:
        return searches.set_up(text)
    except ValueError as error:
        reason = "unreadable" if isinstance(error, ParseError) else "impossible"
        raise Refused("position", error, reason) from None


@router.post("/positions", summary="A position as the server sees it", response_model=None)
async def read_position(body: PositionIn, request: Request) -> dict[str, Any] | JSONResponse:
    """The canonical position with its legal actions, scorings, supplies, points,
    skips, who acts, the phase and the result once it is over."""
    try:
        state = set_up(body.position)
    except Refused as refused:
        return await refused.response(request)
    return position_view([state], [])


@router.post("/positions/play", summary="The position after an action", response_model=None)
async def play_position(body: PlayIn, request: Request) -> dict[str, Any] | JSONResponse:
    """The same view of the position after ``action``; an illegal action is a 422."""
    try:
        state = set_up(body.position)
    except Refused as refused:
        return await refused.response(request)
    action: Action | None = None
    try:
        action = Action.parse(body.action)
        played, after = state.step(action)
    except ValueError as error:
        illegal = Refused("action", error, action_reason(state, action, error))
        return await illegal.response(request)
    return position_view([state, after], [played])


@router.post("/positions/book", summary="The opening book at a position", response_model=None)
async def read_book(body: PositionIn, request: Request) -> dict[str, Any] | JSONResponse:
    """Each action the opening book has at the position: how often it won in the
    computer's games, the deep search's expected score and proof, and the top level's
    choice (no lines outside the book); an impossible position is a 422."""
    try:
        state = set_up(body.position)
    except Refused as refused:
        return await refused.response(request)
    return book_view(state)


# --- a game's review ---------------------------------------------------------------------
def analyses_of(request: Request) -> GameAnalyses:
    analyses: GameAnalyses = request.app.state.analyses
    return analyses


@router.post(
    "/games/{game_id}/analysis",
    status_code=202,
    summary="Ask for the game's review",
    responses=LIMITED,
)
async def ask_for_analysis(game_id: str, request: Request) -> JSONResponse:
    """The computer's review of the game's actions so far (finished or not): the one
    asked for before (started again if it failed), or a new one that starts now."""
    try:
        await limits.count(request, "analyses")
    except limits.Limited as limited:
        return limited.response()
    live = await found(request, game_id)
    settings = request.app.state.settings
    bounds = ReviewBounds(settings.reviews_per_address, settings.reviews_total)
    try:
        review = await analyses_of(request).request(live, client_address(request), bounds)
    except QueueFull as full:
        wait = await retry_estimate(request)
        return limits.Limited("too_many_reviews", refusal(full), wait).response()
    return JSONResponse(review, status_code=202)


async def retry_estimate(request: Request) -> int:
    """``Retry-After`` of a review refused for the bounds: estimated from the queue's
    figures (:func:`.admission.review_retry`), or :data:`.REVIEW_RETRY_SECONDS` when
    they are not had within a second (a Redis that hangs)."""
    jobs = request.app.state.hub.jobs
    try:
        return review_retry(await asyncio.wait_for(jobs.figures(), FIGURES_WAIT))
    except Exception:
        return REVIEW_RETRY_SECONDS


def refusal(full: QueueFull) -> str:
    """The words of a review refused for the bounds (a whole sentence per case)."""
    if full.scope == "owner":
        return (
            f"your address already has {full.bounds.per_owner} reviews waiting or running "
            f"(at most {full.bounds.per_owner}); wait for one to finish and ask again"
        )
    return (
        f"the server already has {full.bounds.total} reviews waiting or running "
        f"(at most {full.bounds.total}); ask again in a little while"
    )


@router.get("/games/{game_id}/analysis", summary="The game's review")
async def read_analysis(game_id: str, request: Request, probe: bool = False) -> JSONResponse:
    """The newest review asked for, done, growing or failed (with its ``error``); 404
    when none was asked for, or with ``probe`` 200 and ``null`` (the game page asks so
    when it opens: for a game never reviewed a browser then logs no failed request)."""
    await found(request, game_id)
    body = await analyses_of(request).read(game_id)
    if body is None and probe:
        return JSONResponse(None)
    if body is None:
        message = f"no analysis of the game {game_id!r} was asked for"
        return JSONResponse(
            {"message": message, "detail": message, "code": "not_found"}, status_code=404
        )
    return JSONResponse(body)
