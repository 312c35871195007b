"""The HTTP routes of a game's analysis: ``POST`` asks for the computer's review of the
game's actions so far (202), ``GET`` answers the newest one asked for (404 before any).
The object is :mod:`.analysis`'s (docs/web-protocol.md, "The game's analysis"); a review
whose job failed says ``"status": "failed"`` with an ``error``, and ``POST`` starts it
again."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from shiftago.interfaces.server.analysis.reviews import GameAnalyses
from shiftago.interfaces.server.door import limits
from shiftago.interfaces.server.door.security import client_address
from shiftago.interfaces.server.games.routes import LIMITED, found

router = APIRouter(prefix="/api")


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
    review = await analyses_of(request).request(live, client_address(request))
    return JSONResponse(review, status_code=202)


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
        return JSONResponse({"message": message, "detail": message}, status_code=404)
    return JSONResponse(body)
