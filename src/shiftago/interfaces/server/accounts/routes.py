"""The accounts' HTTP API (WEBAPI.md, "Players"): signing up, in and out, and taking a
browser's games into the account.

Sign-ins and sign-ups are counted per address and per account name
(``Settings.logins_per_minute``), so that guessing a password is slow from one address
and from many. Hashing runs in a thread of its own, a few at a time (each argon2 hash
takes tens of milliseconds and 64 MiB).
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from shiftago.interfaces.server.accounts.accounts import (
    SESSION_COOKIE,
    NameReserved,
    check_name,
    check_new_name,
    check_password,
    clear_session_cookies,
    hash_password,
    password_matches,
    session_of,
    set_session_cookies,
)
from shiftago.interfaces.server.accounts.store import (
    Account,
    NameTaken,
    NameTooLike,
    account_like,
    account_with_hash,
    adopt_seats,
    adoptable_games,
    create_account,
    delete_session,
    make_session,
)
from shiftago.interfaces.server.db.store import token_hash
from shiftago.interfaces.server.door import limits
from shiftago.interfaces.server.door.http import LIMITED, Invalid
from shiftago.interfaces.server.games.access import hub_of

router = APIRouter(prefix="/api")

#: Passwords hashed or checked at once in one process (each takes 64 MiB for a moment).
HASHING_AT_ONCE = 2
#: Seat secrets one adoption may name.
MAX_ADOPT = 200


class Credentials(BaseModel):
    model_config = ConfigDict(extra="forbid")
    # the name's own check says what a name is, at any length (the body is bounded)
    name: str
    password: Annotated[str, Field(max_length=1000)]


class Adopt(BaseModel):
    model_config = ConfigDict(extra="forbid")
    tokens: Annotated[list[Annotated[str, Field(max_length=100)]], Field(max_length=MAX_ADOPT)]
    #: Only say which games adopting would add (the widget offers its button only then).
    check: bool = False


async def _slow(request: Request, fn: Any, *args: Any) -> Any:
    """Run a password hash or check in a thread, a few at a time per process."""
    gate: asyncio.Semaphore | None = getattr(request.app.state, "hashing", None)
    if gate is None:
        gate = request.app.state.hashing = asyncio.Semaphore(HASHING_AT_ONCE)
    async with gate:
        return await asyncio.to_thread(fn, *args)


def _checked(body: Credentials, new: bool = False) -> tuple[str, str]:
    """The name and password; a new account's name must also be allowed
    (:func:`check_new_name`): :class:`NameReserved` for one kept for the site."""
    try:
        name = check_new_name(body.name) if new else check_name(body.name)
    except NameReserved:
        raise
    except ValueError as error:
        raise Invalid("name", str(error)) from None
    try:
        password = check_password(body.password)
    except ValueError as error:
        raise Invalid("password", str(error)) from None
    return name, password


async def _count_login(request: Request, name: str) -> None:
    await limits.count(request, "logins")
    await limits.count(request, "logins", f"name:{name}")


async def _sign_in(request: Request, account: Account, status_code: int) -> JSONResponse:
    hub = hub_of(request)
    old = request.cookies.get(SESSION_COOKIE)
    if old:  # the browser's previous session ends here
        await hub.db(delete_session, hub.store, old)
    token, csrf = await hub.db(make_session, hub.store, account.id)
    response = JSONResponse({"name": account.name, "csrf": csrf}, status_code=status_code)
    set_session_cookies(response, request, token, csrf)
    return response


@router.post("/accounts", status_code=201, summary="Create an account", responses=LIMITED)
async def create(body: Credentials, request: Request) -> JSONResponse:
    """A new account (the name in lower case), signed in at once. A name kept for the
    site, or too like an account's name (docs/security.md, "Names"), is refused (409)."""
    try:
        name, password = _checked(body, new=True)
    except NameReserved as reserved:
        return _name_refused(str(reserved), "name_reserved")
    try:
        await _count_login(request, name)
    except limits.Limited as limited:
        return limited.response()
    hub = hub_of(request)
    like = await hub.db(account_like, hub.store, name)  # before the slow hash; again on insert
    if like is not None and like != name:
        return _too_like(name, like)
    hashed = await _slow(request, hash_password, password)
    try:
        account = await hub.db(create_account, hub.store, name, hashed)
    except NameTooLike as too_like:
        return _too_like(name, too_like.existing)
    except NameTaken:
        return _name_refused(f"the name {name} is taken", "name_taken")
    return await _sign_in(request, account, 201)


def _too_like(name: str, existing: str) -> JSONResponse:
    return _name_refused(
        f"the name {name} is too like the existing name {existing}; choose another",
        "name_too_like",
    )


def _name_refused(message: str, code: str) -> JSONResponse:
    return JSONResponse({"message": message, "code": code, "field": "name"}, status_code=409)


@router.post("/session", summary="Sign in", responses=LIMITED)
async def sign_in(body: Credentials, request: Request) -> JSONResponse:
    """Sign in: the session and CSRF cookies. A wrong password and an unknown name are
    answered alike (401); a closed account, with its right password, 403."""
    name, password = _checked(body)
    try:
        await _count_login(request, name)
    except limits.Limited as limited:
        return limited.response()
    hub = hub_of(request)
    found = await hub.db(account_with_hash, hub.store, name)
    stored_hash = None if found is None else found[1]
    matches = await _slow(request, password_matches, stored_hash, password)  # even if unknown
    if found is None or not matches:
        return JSONResponse(
            {"message": "wrong name or password", "code": "wrong_credentials"}, status_code=401
        )
    if found[0].closed:  # said only to whoever knows the password
        return JSONResponse(
            {"message": f"the account {name} is closed", "code": "account_closed"},
            status_code=403,
        )
    return await _sign_in(request, found[0], 200)


@router.delete("/session", summary="Sign out")
async def sign_out(request: Request) -> JSONResponse:
    token = request.cookies.get(SESSION_COOKIE)
    if token:
        hub = hub_of(request)
        await hub.db(delete_session, hub.store, token)
    response = JSONResponse({"name": None})
    clear_session_cookies(response, request)
    return response


@router.get("/session", summary="Who is signed in")
async def who(request: Request) -> dict[str, Any]:
    """``{"name", "csrf"}`` of the signed-in account, or ``{"name": null}``."""
    session = await session_of(request)
    if session is None:
        return {"name": None}
    return {"name": session.account.name, "csrf": session.csrf}


@router.post("/session/adopt", summary="Add the games this browser holds to the account")
async def adopt(body: Adopt, request: Request) -> JSONResponse:
    """The human seats held by ``tokens`` (seat secrets) that have no account yet become
    the signed-in account's; with ``check``, only which games that would add."""
    session = await session_of(request)
    if session is None:
        return JSONResponse({"message": "sign in first", "code": "signed_out"}, status_code=401)
    hub = hub_of(request)
    if body.check:
        return JSONResponse({"games": await hub.db(adoptable_games, hub.store, body.tokens)})
    account = session.account
    games = await hub.db(adopt_seats, hub.store, account.id, body.tokens)
    hashes = {token_hash(t) for t in body.tokens}
    for game_id in games:  # this process's copy of the game learns it now (others on load)
        live = hub.games.get(game_id)
        for seat in live.stored.seats if live is not None else ():
            if seat.token_hash in hashes and seat.kind == "human" and seat.account_id is None:
                seat.account_id, seat.account = account.id, account.name
    return JSONResponse({"games": games})
