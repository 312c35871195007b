"""The HTTP side of open challenges (WEBAPI.md, "Players"; docs/web-protocol.md, "Open
challenges"): create, list, ask about, accept and cancel a seek. It only translates:
:mod:`.seeks` decides, and its refusals come back with their status and words."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, Response
from pydantic import Field

from shiftago.core import COLOURS, Variant
from shiftago.formats.record_syntax import is_text_value
from shiftago.interfaces.server.accounts.accounts import SESSION_COOKIE, signed_in
from shiftago.interfaces.server.accounts.store import Account, account_like, find_account
from shiftago.interfaces.server.db.store import token_hash
from shiftago.interfaces.server.door import limits
from shiftago.interfaces.server.door.http import LIMITED, Body, Invalid, VariantIn, base_url
from shiftago.interfaces.server.door.security import client_address
from shiftago.interfaces.server.games.access import hub_of
from shiftago.interfaces.server.games.creating import ClockIn, computer_level
from shiftago.interfaces.server.games.live import LiveGame
from shiftago.interfaces.server.seeks.challenges import NewSeek, SeekRefused, Seeks
from shiftago.interfaces.server.seeks.named import Named
from shiftago.match.clock import TimeControl

router = APIRouter(prefix="/api")

#: The lowest and highest rating a range may name.
RATING_LIMITS = (0, 4000)
#: A guest's name when it gives none.
GUEST = "Guest"

Secret = Annotated[str, Field(min_length=1, max_length=200)]


class SeekIn(Body):
    """A new open challenge, as ``POST /api/seeks`` takes it."""

    variant: VariantIn = "express"
    players: Annotated[int, Field(ge=2, le=4)] = 2
    clock: ClockIn | None = Field(None, description="absent or null: untimed")
    rated: bool = False
    rating_range: Annotated[list[int], Field(min_length=2, max_length=2)] | None = Field(
        None, description="[lowest, highest] rating of acceptors (rated challenges)"
    )
    name: Annotated[str, Field(max_length=40)] | None = Field(
        None, description="a guest's name (a signed-in player plays under the account's)"
    )
    computers: Annotated[int, Field(ge=0, le=2)] = Field(
        0, description="seats the computer plays (3-4 players: at least two people play)"
    )
    level: int | None = Field(None, description="the computer's level (default: the usual one)")


class AcceptIn(Body):
    name: Annotated[str, Field(max_length=40)] | None = Field(None, description="a guest's name")
    token: Secret | None = Field(
        None, description="a secret this page holds: accepting its own challenge is refused"
    )


def seeks_of(request: Request) -> Seeks:
    seeks: Seeks = request.app.state.seeks
    return seeks


def refused(refusal: SeekRefused) -> JSONResponse:
    return JSONResponse(
        {"message": refusal.message, "code": refusal.code}, status_code=refusal.status
    )


def control_of(clock: ClockIn | None) -> TimeControl | None:
    """The time control asked for (None: untimed), or :class:`Invalid` naming ``clock``."""
    return None if clock is None else clock.control()


def computer_seats(body: SeekIn) -> int | None:
    """The computer's level for the seek's computer seats (None without any), or
    :class:`Invalid`: at least two people play, a rated game is between people only,
    and a level needs a computer seat."""
    if body.computers == 0:
        if body.level is not None:
            raise Invalid("level", "a level is for a challenge with computer seats")
        return None
    if body.computers > body.players - 2:
        raise Invalid(
            "computers",
            f"at least two people play: with {body.players} players at most "
            f"{body.players - 2} computer seats",
        )
    if body.rated:
        raise Invalid("computers", "a rated challenge is between people only")
    return computer_level(body.level, "level")


def player_name(given: str | None, account: Account | None) -> str:
    """The name a place shows: the account's, else the guest's own or :data:`GUEST`."""
    if account is not None:
        return account.name
    name = (given or "").strip() or GUEST
    if not is_text_value(name):
        raise Invalid("name", "a name is one line of printable characters")
    return name


async def place_name(request: Request, given: str | None, account: Account | None) -> str:
    """:func:`player_name`, which for a guest may not look like an account's name (the
    same folded form, docs/security.md "Names"): :class:`SeekRefused` ``account_name``."""
    name = player_name(given, account)
    if account is None:
        hub = hub_of(request)
        like = await hub.db(account_like, hub.store, name)
        if like is not None:
            raise SeekRefused(
                409,
                "account_name",
                f"the name {name} is too like the account {like}: sign in to play as "
                "that account, or choose another name",
            )
    return name


def session_secret(request: Request, account: Account | None) -> str | None:
    return request.cookies.get(SESSION_COOKIE) if account is not None else None


def game_answer(request: Request, live: LiveGame, token: str | None) -> dict[str, Any]:
    """The game as ``POST /api/games`` answers it, with the link of ``token``'s seat only."""
    base = base_url(request)
    digest = None if token is None else token_hash(token)
    seats = []
    for i, seat in enumerate(live.stored.seats):
        entry: dict[str, Any] = {"colour": COLOURS[i], "kind": seat.kind}
        if digest is not None and seat.token_hash == digest:
            entry["join_url"] = f"{base}/play/{live.id}?seat={token}"
        seats.append(entry)
    return {"id": live.id, "seats": seats, "watch_url": f"{base}/watch/{live.id}"}


REFUSALS: dict[int | str, dict[str, Any]] = {
    401: {"description": "a rated challenge needs a signed-in player"},
    403: {"description": "not yours, or outside the challenge's rating range"},
    404: {"description": "no such challenge"},
    409: {"description": "the challenge is full or gone, or is your own"},
}


ACCEPTED: dict[int | str, dict[str, Any]] = {
    202: {"description": "a place taken; the challenge waits for more players"}
}


@router.post(
    "/seeks", status_code=201, summary="Create an open challenge", responses=LIMITED | REFUSALS
)
async def create_seek(body: SeekIn, request: Request) -> JSONResponse:
    """Open a challenge for others to accept; answers its id and the creator's secret
    (``token``), which asks about it, cancels it, and becomes the creator's seat's secret."""
    account = await signed_in(request)
    if body.rated and account is None:
        return refused(SeekRefused(401, "sign_in", "sign in to open a rated challenge"))
    control = control_of(body.clock)
    rating_range = None
    if body.rating_range is not None:
        low, high = body.rating_range
        if not body.rated:
            raise Invalid("rating_range", "a rating range is for rated challenges")
        if not RATING_LIMITS[0] <= low <= high <= RATING_LIMITS[1]:
            raise Invalid(
                "rating_range",
                f"[lowest, highest], lowest first, each {RATING_LIMITS[0]} to {RATING_LIMITS[1]}",
            )
        rating_range = (low, high)
    level = computer_seats(body)
    try:
        name = await place_name(request, body.name, account)
    except SeekRefused as refusal:
        return refused(refusal)
    try:
        await limits.count(request, "seeks")
    except limits.Limited as limited:
        return limited.response()
    seek, token = await seeks_of(request).create(
        NewSeek(
            variant=Variant.parse(body.variant),
            players=body.players,
            control=control,
            rated=body.rated,
            rating_range=rating_range,
            name=name,
            account=account,
            owner=client_address(request),
            session=session_secret(request, account),
            computers=body.computers,
            computer_level=level,
        )
    )
    return JSONResponse({"id": seek.id, "token": token}, status_code=201)


@router.get("/seeks", summary="List the open challenges")
async def list_seeks(request: Request) -> dict[str, Any]:
    """The open challenges, oldest first (never a secret)."""
    return {"seeks": await seeks_of(request).listing()}


@router.get("/seeks/{seek_id}", summary="A challenge's status, for one who holds a place")
async def seek_status(
    seek_id: str,
    request: Request,
    token: Annotated[str | None, Query(max_length=200)] = None,
) -> Response:
    """Open, filled (with the game and the asker's own seat's link) or gone; asked with
    the place's ``token`` or the session cookie of the place's account. A creator who
    asks is still there (the seek stays open while asked about at least every 30 s)."""
    seeks = seeks_of(request)
    account = await signed_in(request)
    try:
        seek, _place, secret = await seeks.held(
            seek_id, token, account, session_secret(request, account)
        )
    except SeekRefused as refusal:
        return refused(refusal)
    game = None
    if seek.status == "filled" and seek.game_id is not None:
        live = await hub_of(request).get(seek.game_id)
        if live is not None:
            game = game_answer(request, live, secret)
    status = "open" if seek.status == "filled" and game is None else seek.status
    return JSONResponse(
        {"id": seek.id, "status": status, "game": game, "seek": await seeks.view(seek)}
    )


@router.post(
    "/seeks/{seek_id}/accept",
    status_code=201,
    summary="Accept an open challenge",
    responses=ACCEPTED | REFUSALS,
)
async def accept_seek(seek_id: str, request: Request, body: AcceptIn | None = None) -> JSONResponse:
    """Take a place. The place that fills the challenge answers ``201`` with the game as
    ``POST /api/games`` does, for the acceptor's seat; with 3-4 players, an earlier
    place answers ``202`` ``{"id", "token", "status": "open"}`` and waits for the rest."""
    body = body or AcceptIn(name=None, token=None)
    account = await signed_in(request)
    try:
        accepted = await seeks_of(request).accept(
            seek_id,
            await place_name(request, body.name, account),
            account,
            body.token,
            session_secret(request, account),
        )
    except SeekRefused as refusal:
        return refused(refusal)
    if accepted.game is None:
        return JSONResponse(
            {"id": accepted.seek.id, "token": accepted.token, "status": "open"}, status_code=202
        )
    return JSONResponse(game_answer(request, accepted.game, accepted.token), status_code=201)


@router.delete(
    "/seeks/{seek_id}", status_code=204, summary="Cancel your open challenge", responses=REFUSALS
)
async def cancel_seek(
    seek_id: str,
    request: Request,
    token: Annotated[str | None, Query(max_length=200)] = None,
) -> Response:
    """The creator takes the challenge back (its ``token``, or its account's session)."""
    seeks = seeks_of(request)
    account = await signed_in(request)
    try:
        _seek, place, _secret = await seeks.held(
            seek_id, token, account, session_secret(request, account)
        )
        await seeks.cancel(seek_id, place)
    except SeekRefused as refusal:
        return refused(refusal)
    return Response(status_code=204)


# --- challenges to a named player ------------------------------------------------------
class ChallengeIn(Body):
    """A challenge to a named player, as ``POST /api/challenges`` takes it."""

    to: Annotated[str, Field(min_length=1, max_length=40)]
    variant: VariantIn = "express"
    players: Annotated[int, Field(ge=2, le=2, description="two: the challenger and them")] = 2
    clock: ClockIn | None = Field(None, description="absent or null: untimed")
    rated: bool = False


def _signed_out() -> JSONResponse:
    return refused(SeekRefused(401, "sign_in", "sign in to challenge a player"))


@router.post(
    "/challenges", status_code=201, summary="Challenge a named player", responses=LIMITED | REFUSALS
)
async def create_challenge(body: ChallengeIn, request: Request) -> JSONResponse:
    """A challenge that only the account named ``to`` may accept or decline."""
    account = await signed_in(request)
    if account is None:
        return _signed_out()
    control = control_of(body.clock)
    hub = hub_of(request)
    to = await hub.db(find_account, hub.store, body.to.strip())
    if to is None:
        return refused(SeekRefused(404, "no_player", f"there is no player {body.to!r}"))
    try:
        await limits.count(request, "seeks")
    except limits.Limited as limited:
        return limited.response()
    named = Named(seeks_of(request))
    new = NewSeek(
        variant=Variant.parse(body.variant),
        players=body.players,
        control=control,
        rated=body.rated,
        rating_range=None,
        name=account.name,
        account=account,
        owner=client_address(request),
        session=session_secret(request, account),
    )
    try:
        seek = await named.create(new, to)
    except SeekRefused as refusal:
        return refused(refusal)
    view = (await named.views([seek], base_url(request)))[0]
    return JSONResponse(view, status_code=201)


@router.get("/challenges", summary="Your open challenges to and from named players")
async def list_challenges(request: Request) -> JSONResponse:
    """``{"received": [...], "sent": [...]}``, the open ones, oldest first."""
    account = await signed_in(request)
    if account is None:
        return _signed_out()
    named = Named(seeks_of(request))
    received, sent = await named.listing(account)
    base = base_url(request)
    body = {"received": await named.views(received, base), "sent": await named.views(sent, base)}
    return JSONResponse(body, headers={"Cache-Control": "no-store"})


@router.get("/challenges/{challenge_id}", summary="A challenge of yours", responses=REFUSALS)
async def read_challenge(challenge_id: str, request: Request) -> JSONResponse:
    """Open, accepted (with the game's ``url``), declined or gone."""
    account = await signed_in(request)
    if account is None:
        return _signed_out()
    named = Named(seeks_of(request))
    try:
        seek = await named.one(challenge_id, account)
    except SeekRefused as refusal:
        return refused(refusal)
    return JSONResponse((await named.views([seek], base_url(request)))[0])


@router.post(
    "/challenges/{challenge_id}/accept",
    status_code=201,
    summary="Accept a challenge made to you",
    responses=REFUSALS,
)
async def accept_challenge(challenge_id: str, request: Request) -> JSONResponse:
    """The game starts: the challenge as ``GET`` answers it, ``accepted``, with its
    ``url``."""
    account = await signed_in(request)
    if account is None:
        return _signed_out()
    seeks = seeks_of(request)
    named = Named(seeks)
    try:
        await named.one(challenge_id, account)
        await seeks.accept(
            challenge_id, account.name, account, None, session_secret(request, account)
        )
    except SeekRefused as refusal:
        return refused(refusal)
    seek = await seeks.load(challenge_id)
    return JSONResponse((await named.views([seek], base_url(request)))[0], status_code=201)


@router.post(
    "/challenges/{challenge_id}/decline", summary="Decline a challenge", responses=REFUSALS
)
async def decline_challenge(challenge_id: str, request: Request) -> JSONResponse:
    account = await signed_in(request)
    if account is None:
        return _signed_out()
    named = Named(seeks_of(request))
    try:
        seek = await named.decline(challenge_id, account)
    except SeekRefused as refusal:
        return refused(refusal)
    return JSONResponse((await named.views([seek], base_url(request)))[0])


@router.delete(
    "/challenges/{challenge_id}",
    status_code=204,
    summary="Cancel your challenge",
    responses=REFUSALS,
)
async def cancel_challenge(challenge_id: str, request: Request) -> Response:
    account = await signed_in(request)
    if account is None:
        return _signed_out()
    try:
        await Named(seeks_of(request)).cancel(challenge_id, account)
    except SeekRefused as refusal:
        return refused(refusal)
    return Response(status_code=204)
