"""Puzzles over HTTP (WEBAPI.md, "Puzzles"; docs/web-protocol.md, "Puzzles").

``GET /api/puzzles/next`` (``?theme=``), ``GET /api/puzzles/daily``,
``GET /api/puzzles/me`` (the signed-in player's puzzle rating and streak),
``GET /api/puzzles/{id}`` (one puzzle, for a shared link) and
``POST /api/puzzles/{id}/attempt`` (counted per address:
``puzzle_attempts_per_minute``). The engine judges every attempt
(:func:`shiftago.engine.puzzles.solving.judge`, in a worker thread: the prover holds no
lock of Python's), so an action is right when it keeps the proven win within the
actions left, and the defence is the engine's. An action that does not parse, is not
legal where it is played or comes after the end is a 422 with ``code``
``illegal_action``, and nothing is rated.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import random
from typing import Annotated, Any, Final

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse
from pydantic import Field

from shiftago.core import State
from shiftago.core.errors import IllegalActionError
from shiftago.engine.puzzles.puzzle import THEMES
from shiftago.engine.puzzles.shipped import shipped
from shiftago.engine.puzzles.solving import judge
from shiftago.interfaces.server.accounts.accounts import language_of, signed_in
from shiftago.interfaces.server.door import limits
from shiftago.interfaces.server.door.http import Body, Invalid
from shiftago.interfaces.server.games.access import hub_of
from shiftago.interfaces.server.languages import Catalogues
from shiftago.interfaces.server.puzzles import choosing
from shiftago.interfaces.server.puzzles import store as puzzles_store

router = APIRouter(prefix="/api/puzzles")

#: The most actions an attempt may list (a puzzle's solver acts 3 times at most).
MOST_ACTIONS: Final = 8
Notation = Annotated[str, Field(strict=True, min_length=1, max_length=12)]


class AttemptIn(Body):
    actions: list[Notation] = Field(
        min_length=1,
        max_length=MOST_ACTIONS,
        description="the solver's actions so far, in order, without the defence",
    )


async def _ready(request: Request) -> None:
    """Load the shipped set into the table once per process (docs/puzzles.md)."""
    state = request.app.state
    if getattr(state, "puzzles_loaded", False):
        return
    lock = getattr(state, "puzzles_lock", None)
    if lock is None:
        lock = state.puzzles_lock = asyncio.Lock()
    async with lock:
        if getattr(state, "puzzles_loaded", False):
            return
        hub = hub_of(request)
        puzzles = await asyncio.to_thread(shipped)
        await hub.db(puzzles_store.load_puzzles, hub.store, puzzles)
        state.puzzles_loaded = True


async def _words(request: Request) -> Any:
    """The gettext of the request's language (WEBAPI.md, "Languages")."""
    catalogues: Catalogues = request.app.state.catalogues
    return catalogues.translations(await language_of(request))


async def _stored(hub: Any, puzzle_id: str) -> Any:
    """The stored puzzle of ``puzzle_id`` (None: none, or an id longer than any)."""
    if len(puzzle_id) > 24:
        return None
    return await hub.db(puzzles_store.puzzle, hub.store, puzzle_id)


def _not_found(puzzle_id: str) -> JSONResponse:
    message = f"there is no puzzle {puzzle_id!r}"
    return JSONResponse({"message": message, "code": "not_found"}, status_code=404)


@router.get("/next", summary="A puzzle near the player's puzzle rating")
async def next_puzzle(
    request: Request,
    theme: Annotated[str | None, Query(max_length=40, description="one of the themes")] = None,
) -> JSONResponse:
    """One of the puzzles nearest the player's rating (signed out: 1500), with
    ``theme`` when given, not played before by a signed-in player."""
    if theme is not None and theme not in THEMES:
        raise Invalid("theme", f"one of {', '.join(THEMES)}")
    await _ready(request)
    hub = hub_of(request)
    account = await signed_in(request)
    rating = choosing.GUEST_RATING
    account_id = None
    if account is not None:
        account_id = account.id
        player = await hub.db(puzzles_store.puzzle_player, hub.store, account.id)
        rating = player.rating.rating
    near = await hub.db(
        puzzles_store.puzzles_near, hub.store, rating, theme, account_id, choosing.NEAREST
    )
    if not near and account_id is not None:  # every one played: play them again
        near = await hub.db(
            puzzles_store.puzzles_near, hub.store, rating, theme, None, choosing.NEAREST
        )
    chosen = choosing.pick(near, random.Random())
    if chosen is None:
        message = "there is no puzzle of that theme"
        return JSONResponse({"message": message, "code": "not_found"}, status_code=404)
    return JSONResponse(choosing.view(chosen, await _words(request)))


@router.get("/daily", summary="The day's puzzle")
async def daily_puzzle(request: Request) -> JSONResponse:
    """The same puzzle for everyone all day (UTC), as ``next`` answers one: chosen among
    the shipped set, so that puzzles added from the site's games
    (``shiftago admin puzzles-from-games``) never change the day's puzzle."""
    await _ready(request)
    hub = hub_of(request)
    ids = sorted(p.id for p in shipped())
    if not ids:
        return _not_found("of the day")
    day = dt.datetime.now(dt.UTC).date()
    chosen = await hub.db(puzzles_store.puzzle, hub.store, ids[choosing.daily_index(day, len(ids))])
    if chosen is None:
        return _not_found("of the day")
    return JSONResponse(choosing.view(chosen, await _words(request)))


def _player(player: puzzles_store.PuzzlePlayer) -> dict[str, Any]:
    return {
        "rating": round(player.rating.rating),
        "deviation": round(player.rating.deviation),
        "puzzles": player.puzzles,
        "streak": player.streak,
        "best_streak": player.best_streak,
    }


@router.get("/me", summary="The signed-in player's puzzle rating and streak")
async def me(request: Request) -> JSONResponse:
    """The account's puzzle rating (where everyone starts before a first puzzle), the
    puzzles rated, the streak and the best streak; 401 when signed out."""
    account = await signed_in(request)
    if account is None:
        return JSONResponse({"message": "sign in first", "code": "signed_out"}, status_code=401)
    hub = hub_of(request)
    player = await hub.db(puzzles_store.puzzle_player, hub.store, account.id)
    return JSONResponse(_player(player))


@router.get("/{puzzle_id}", summary="One puzzle, by its id")
async def one_puzzle(puzzle_id: str, request: Request) -> JSONResponse:
    """The puzzle as ``next`` answers one (a link to a puzzle opens it)."""
    await _ready(request)
    hub = hub_of(request)
    found = await _stored(hub, puzzle_id)
    if found is None:
        return _not_found(puzzle_id)
    return JSONResponse(choosing.view(found, await _words(request)))


@router.post("/{puzzle_id}/attempt", summary="Judge the solver's actions so far")
async def attempt(puzzle_id: str, body: AttemptIn, request: Request) -> JSONResponse:
    """Whether the actions are right, the defence's reply, and the whole solution once
    solved or failed (with the refutation of a wrong action); a signed-in player's
    first finished attempt is rated. Counted per address (429 over the limit)."""
    try:
        await limits.count(request, "puzzle-attempts")
    except limits.Limited as limited:
        return limited.response()
    await _ready(request)
    hub = hub_of(request)
    found = await _stored(hub, puzzle_id)
    if found is None:
        return _not_found(puzzle_id)
    state = State.from_position(found.position)
    try:
        verdict = await asyncio.to_thread(judge, state, found.actions, list(body.actions))
    except IllegalActionError as error:
        message = f"actions: {error}"
        return JSONResponse(
            {"message": message, "field": "actions", "code": "illegal_action"}, status_code=422
        )
    answer: dict[str, Any] = {
        "correct": verdict.correct,
        "solved": verdict.solved,
        "reply": [str(a) for a in verdict.reply],
    }
    if verdict.solution is not None:
        answer["solution"] = [str(a) for a in verdict.solution]
    if not verdict.correct:
        answer["refutation"] = answer["reply"]
    if verdict.wins_in is not None:
        answer["wins_in"] = verdict.wins_in
    account = await signed_in(request)
    finished = verdict.solved or not verdict.correct
    if account is not None and finished:
        before = await hub.db(puzzles_store.puzzle_player, hub.store, account.id)
        rated = await hub.db(
            puzzles_store.rate_round,
            hub.store,
            account.id,
            puzzle_id,
            verdict.solved,
            choosing.rate,
        )
        player = (
            rated
            if rated is not None
            else await hub.db(puzzles_store.puzzle_player, hub.store, account.id)
        )
        answer["player"] = {
            **_player(player),
            "rated": rated is not None,
            "change": round(player.rating.rating) - round(before.rating.rating),
        }
    return JSONResponse(answer)
