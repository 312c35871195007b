"""The accounts' HTTP API (WEBAPI.md, "Players"): signing up, in and out, and taking a
browser's games into the account.

Sign-ins and sign-ups are counted per address (``Settings.logins_per_minute``), and
wrong passwords per account and address, per account and on the whole server
(:func:`_lane`), so that guessing a password is slow from one address and from many,
while a crowd of addresses can neither lock an account's owner out nor make everyone
wait; a browser that signed in to the account before (:mod:`.devices`) is checked in a
lane of its own. Hashing runs in a bounded pool (:mod:`.hashing`; each argon2 hash takes tens of
milliseconds and 64 MiB). docs/security.md, "Sign-in under attack".
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import Field

from shiftago.interfaces.server.accounts.accounts import (
    SESSION_COOKIE,
    NameReserved,
    Unfit,
    check_name,
    check_new_name,
    check_new_password,
    check_password,
    clear_session_cookies,
    cookies_secure,
    hash_password,
    password_matches,
    session_of,
    set_session_cookies,
)
from shiftago.interfaces.server.accounts.devices import (
    DEVICE_COOKIE,
    known_device,
    set_device_cookie,
)
from shiftago.interfaces.server.accounts.games import games_of
from shiftago.interfaces.server.accounts.hashing import BUSY_RETRY, Busy, HashingPool, Lane
from shiftago.interfaces.server.accounts.store import (
    Account,
    NameTaken,
    NameTooLike,
    account_like,
    account_with_hash,
    adopt_seats,
    adoptable_games,
    close_account,
    create_account,
    delete_session,
    make_session,
    set_language,
    sign_out_everywhere,
)
from shiftago.interfaces.server.db.store import token_hash
from shiftago.interfaces.server.door import limits
from shiftago.interfaces.server.door.http import LIMITED, Body, Invalid, base_url
from shiftago.interfaces.server.door.security import client_address
from shiftago.interfaces.server.games.access import hub_of
from shiftago.interfaces.server.games.live import name_with_account
from shiftago.interfaces.server.languages import LANGUAGES

router = APIRouter(prefix="/api")

#: Seat secrets one adoption may name.
MAX_ADOPT = 200


class Credentials(Body):
    # the name's own check says what a name is, at any length (the body is bounded)
    name: str
    password: Annotated[str, Field(max_length=1000)]


class PasswordChange(Body):
    password: Annotated[str, Field(max_length=1000)]
    new_password: Annotated[str, Field(max_length=1000)]


class Password(Body):
    password: Annotated[str, Field(max_length=1000)]


class Language(Body):
    #: One of the site's languages, or None: the browser's again.
    language: Annotated[str, Field(max_length=8)] | None


class Adopt(Body):
    tokens: Annotated[list[Annotated[str, Field(max_length=100)]], Field(max_length=MAX_ADOPT)]
    #: Only say which games adopting would add (the widget offers its button only then).
    check: bool = False


def hashing_pool(app: Any) -> HashingPool:
    """The app's pool of password checks, made once (``app.state.hashing``)."""
    pool: HashingPool | None = getattr(app.state, "hashing", None)
    if pool is None:
        settings = limits.settings_of(app)
        pool = app.state.hashing = HashingPool(
            settings.password_checks_at_once, settings.password_checks_queued
        )
    return pool


async def _slow(request: Request, lane: Lane, fn: Any, *args: Any) -> Any:
    """Run a password hash or check in the app's pool; :class:`.limits.Limited` at once
    when the lane's queue is full."""
    try:
        return await hashing_pool(request.app).run(lane, fn, *args)
    except Busy:
        raise limits.Limited(
            "busy",
            f"the server is checking too many passwords at the moment; try again in {BUSY_RETRY} s",
            BUSY_RETRY,
        ) from None


def _checked(body: Credentials, *, new: bool = False) -> tuple[str, str]:
    """The name and password. A new account's name must also be allowed
    (:func:`check_new_name`: :class:`NameReserved` for one kept for the site) and its
    password not a common one; one that signs in may have either (an account made
    before the rules keeps them)."""
    try:
        name = check_new_name(body.name) if new else check_name(body.name)
    except NameReserved:
        raise
    except ValueError as error:
        raise Invalid("name", str(error), _code(error)) from None
    try:
        password = (check_new_password if new else check_password)(body.password)
    except ValueError as error:
        raise Invalid("password", str(error), _code(error)) from None
    return name, password


def _code(error: ValueError) -> str:
    """The code of a rule a name or password breaks (``Unfit``), else "invalid"."""
    return error.code if isinstance(error, Unfit) else "invalid"


#: The counters of wrong passwords (:func:`.limits.note`), each for a minute.
def _failure_keys(name: str, address: str, device: str | None = None) -> dict[str, str]:
    keys = {
        "pair": f"login-failures:pair:{name}:{address}",
        "address": f"login-failures:address:{address}",
        "name": f"login-failures:name:{name}",
        "all": "login-failures:all",
    }
    if device is not None:
        keys["device"] = f"login-failures:device:{device}"
    return keys


async def _lane(request: Request, name: str | None, device: str | None = None) -> Lane:
    """Count the attempt for the address, and decide whether its password is checked,
    and in which lane of the pool (:class:`.limits.Limited` if not):

    - an address that sent ``failed_logins_per_account_and_address`` wrong passwords for
      this account in the minute may not try it again until the minute is over;
    - a known ``device`` of this account (:mod:`.devices`) that sent no wrong password in
      the minute is checked in the pool's own lane of known devices, even when the
      account or the server is over its budget (one that did is treated as unknown);
    - an address without a wrong password in the minute is *clean*: it is checked even
      when the account or the server is over its budget of wrong passwords (so that a
      crowd cannot lock an owner out), first in the pool;
    - any other is *suspect*: refused while the account (``failed_logins_per_account``)
      or the server (``failed_logins_per_minute``) is over its budget, else checked in
      the pool's smaller lane.
    """
    await limits.count(request, "logins")
    settings = limits.settings_of(request.app)
    keys = _failure_keys(name or "", client_address(request), device)
    if name is not None:
        pair, left = await limits.peek(request, keys["pair"])
        if pair >= settings.failed_logins_per_account_and_address:
            raise limits.Limited(
                "rate_limited",
                f"too many wrong passwords for this account from your address; "
                f"try again in {left} s",
                left,
            )
    if device is not None:
        failed, _ = await limits.peek(request, keys["device"])
        if not failed:
            return "device"
    mine, _ = await limits.peek(request, keys["address"])
    if not mine:
        return "clean"
    if name is not None:
        named, left = await limits.peek(request, keys["name"])
        if named >= settings.failed_logins_per_account:
            raise limits.Limited(
                "rate_limited",
                f"too many wrong passwords for this account lately; try again in {left} s",
                left,
            )
    everyone, left = await limits.peek(request, keys["all"])
    if everyone >= settings.failed_logins_per_minute:
        raise limits.Limited(
            "rate_limited",
            f"the server has received too many wrong passwords lately; try again in {left} s",
            left,
        )
    return "suspect"


async def _failed(request: Request, name: str, device: str | None) -> None:
    """Count a wrong password (or an unknown name) in each of its counters."""
    for key in _failure_keys(name, client_address(request), device).values():
        await limits.note(request, key)


async def _sign_in(
    request: Request, account: Account, password_hash: str, status_code: int
) -> JSONResponse:
    """The new session's cookies, and the device cookie that makes this browser known to
    the account (:mod:`.devices`)."""
    hub = hub_of(request)
    old = request.cookies.get(SESSION_COOKIE)
    if old:  # the browser's previous session ends here
        await hub.db(delete_session, hub.store, old)
    token, csrf = await hub.db(make_session, hub.store, account.id)
    # the account's language: a page that came in another asks for itself again in it
    answer = {"name": account.name, "csrf": csrf, "language": account.language}
    response = JSONResponse(answer, status_code=status_code)
    set_session_cookies(response, request, token, csrf)
    set_device_cookie(response, request, account.id, password_hash, cookies_secure(request))
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
        lane = await _lane(request, None)
    except limits.Limited as limited:
        return limited.response()
    hub = hub_of(request)
    like = await hub.db(account_like, hub.store, name)  # before the slow hash; again on insert
    if like is not None and like != name:
        return _too_like(name, like)
    try:
        hashed = await _slow(request, lane, hash_password, password)
    except limits.Limited as limited:
        return limited.response()
    try:
        account = await hub.db(create_account, hub.store, name, hashed)
    except NameTooLike as too_like:
        return _too_like(name, too_like.existing)
    except NameTaken:
        return _name_refused(f"the name {name} is taken", "name_taken")
    return await _sign_in(request, account, hashed, 201)


def _too_like(name: str, existing: str) -> JSONResponse:
    return _name_refused(
        f"the name {name} is too like the existing name {existing}; choose another",
        "name_too_like",
    )


def _name_refused(message: str, code: str) -> JSONResponse:
    return JSONResponse({"message": message, "code": code, "field": "name"}, status_code=409)


async def _password_of(
    request: Request, name: str, password: str
) -> tuple[tuple[Account, str] | None, Lane]:
    """Check ``password`` against the account ``name`` under the limits of wrong
    passwords (:func:`_lane`; :class:`.limits.Limited` when refused): the account and its
    hash when it is right, else None (a wrong password counted); and the check's lane."""
    hub = hub_of(request)
    # a browser with a device cookie: the account first, to check the cookie against
    # it (else after the counters, so that a refused guess costs no read)
    found, device = None, None
    if DEVICE_COOKIE in request.cookies:
        found = await hub.db(account_with_hash, hub.store, name)
        device = None if found is None else known_device(request, found[0].id, found[1])
    lane = await _lane(request, name, device)
    if DEVICE_COOKIE not in request.cookies:
        found = await hub.db(account_with_hash, hub.store, name)
    stored_hash = None if found is None else found[1]
    # checked even if the name is unknown, so that it takes as long
    matches = await _slow(request, lane, password_matches, stored_hash, password)
    if found is None or not matches:
        await _failed(request, name, device)
        return None, lane
    return found, lane


@router.post("/session", summary="Sign in", responses=LIMITED)
async def sign_in(body: Credentials, request: Request) -> JSONResponse:
    """Sign in: the session, CSRF and device cookies. A wrong password and an unknown
    name are answered alike (401); a closed account, with its right password, 403."""
    name, password = _checked(body)
    try:
        found, _ = await _password_of(request, name, password)
    except limits.Limited as limited:
        return limited.response()
    if found is None:
        return JSONResponse(
            {"message": "wrong name or password", "code": "wrong_credentials"}, status_code=401
        )
    if found[0].closed:  # said only to whoever knows the password
        return JSONResponse(
            {"message": f"the account {name} is closed", "code": "account_closed"},
            status_code=403,
        )
    return await _sign_in(request, found[0], found[1], 200)


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
    return {
        "name": session.account.name,
        "csrf": session.csrf,
        "language": session.account.language,
    }


def _signed_out() -> JSONResponse:
    return JSONResponse({"message": "sign in first", "code": "signed_out"}, status_code=401)


async def _confirmed(request: Request, password: str) -> tuple[Account, Lane] | JSONResponse:
    """The signed-in account and its lane of the password pool when ``password`` is its
    password, checked as signing in checks one (counted and limited alike, so that a
    browser left signed in is no way round the limits); else the answer to give: 401
    signed out, 403 ``wrong_password`` naming the field, or the limit's 429."""
    session = await session_of(request)
    if session is None:
        return _signed_out()
    try:
        password = check_password(password)
    except ValueError as error:
        raise Invalid("password", str(error), _code(error)) from None
    try:
        found, lane = await _password_of(request, session.account.name, password)
    except limits.Limited as limited:
        return limited.response()
    if found is None:
        return JSONResponse(
            {"message": "wrong password", "code": "wrong_password", "field": "password"},
            status_code=403,
        )
    return found[0], lane


@router.put("/account/password", summary="Change the signed-in account's password")
async def change_password(body: PasswordChange, request: Request) -> JSONResponse:
    """``{"password": the current one, "new_password"}``: the account's password becomes
    the new one (the rules of a new account's), every session of the account ends, and
    this browser gets a new one: a browser that had the old password signs in again.
    401 when not signed in; 403 ``wrong_password`` when the current one is wrong."""
    try:
        new_password = check_new_password(body.new_password)
    except ValueError as error:
        raise Invalid("new_password", str(error), _code(error)) from None
    confirmed = await _confirmed(request, body.password)
    if isinstance(confirmed, JSONResponse):
        return confirmed
    account, lane = confirmed
    try:
        hashed = await _slow(request, lane, hash_password, new_password)
    except limits.Limited as limited:
        return limited.response()
    hub = hub_of(request)
    await hub.db(sign_out_everywhere, hub.store, account.name, hashed)
    return await _sign_in(request, account, hashed, 200)


@router.post("/account/close", summary="Close the signed-in account")
async def close_own_account(body: Password, request: Request) -> JSONResponse:
    """``{"password"}``: the account closes as ``shiftago admin close-account`` closes
    one (it can no longer sign in, every session ends, it leaves the leaderboard; its
    games, ratings and name stay) and this browser is signed out. 401 when not signed
    in; 403 ``wrong_password`` when the password is wrong."""
    confirmed = await _confirmed(request, body.password)
    if isinstance(confirmed, JSONResponse):
        return confirmed
    hub = hub_of(request)
    await hub.db(close_account, hub.store, confirmed[0].name)
    response = JSONResponse({"name": None})
    clear_session_cookies(response, request)
    return response


@router.put("/account/language", summary="Keep the signed-in account's language")
async def account_language(body: Language, request: Request) -> JSONResponse:
    """``{"language": "de"}`` (one of en, de, es, it, fr, nl; null: the browser's) is
    kept for the account: its pages come in it where no ``?lang=`` or cookie says
    otherwise (WEBAPI.md, "Languages"); 401 when not signed in."""
    session = await session_of(request)
    if session is None:
        return _signed_out()
    if body.language is not None and body.language not in LANGUAGES:
        raise Invalid("language", f"not one of {', '.join(LANGUAGES)}")
    hub = hub_of(request)
    await hub.db(set_language, hub.store, session.account.id, body.language)
    return JSONResponse({"language": body.language})


@router.post("/session/adopt", summary="Add the games this browser holds to the account")
async def adopt(body: Adopt, request: Request) -> JSONResponse:
    """The human seats held by ``tokens`` (seat secrets) that have no account yet become
    the signed-in account's; with ``check``, only which games that would add."""
    session = await session_of(request)
    if session is None:
        return _signed_out()
    hub = hub_of(request)
    if body.check:
        return JSONResponse({"games": await hub.db(adoptable_games, hub.store, body.tokens)})
    account = session.account
    games = await hub.db(adopt_seats, hub.store, (account.id, account.name), body.tokens)
    hashes = {token_hash(t) for t in body.tokens}
    for game_id in games:  # this process's copy of the game learns it now (others on load)
        live = hub.games.get(game_id)
        for i, seat in enumerate(live.stored.seats if live is not None else ()):
            if seat.token_hash in hashes and seat.kind == "human" and seat.account_id is None:
                seat.account_id, seat.account = account.id, account.name
                seat.name = name_with_account(i, seat.name, account.name)
    return JSONResponse({"games": games})


@router.get("/account/games", summary="The games of the signed-in account")
async def account_games(request: Request) -> JSONResponse:
    """``{"playing": [GAMEREF], "recent": [GAMEREF]}`` (WEBAPI.md, "Games of an
    account"); 401 when not signed in."""
    session = await session_of(request)
    if session is None:
        return _signed_out()
    hub = hub_of(request)
    body = await hub.db(games_of, hub.store, session.account.id, base_url(request))
    return JSONResponse(body, headers={"Cache-Control": "no-store"})
