"""Accounts and sessions (docs/web-protocol.md, "Accounts and ratings").

An account is a name and the argon2 hash of a password (argon2-cffi; no home-made
crypto). Signing in makes a session: a random secret in the ``shiftago_session`` cookie,
of which the database keeps only the SHA-256, and a CSRF token in the ``csrf`` cookie,
kept beside it (:mod:`.csrf` checks it). Playing needs no account: an account only puts
a name and a rating on the seats it holds.

Expired sessions are deleted by a sweep of every process (:func:`sweep_sessions`,
``Settings.session_sweep_seconds``), whether or not their accounts sign in again.

The accounts' reads and writes are in :mod:`.store` (the app runs them in its database
thread through ``hub.db``); hashing and checking a password are slow on purpose, so the
app runs them in another thread (:func:`hash_password`, :func:`password_matches`), never
in the database's or on the event loop.
"""

from __future__ import annotations

import asyncio
import base64
import functools
import logging
import re
import secrets
from typing import TYPE_CHECKING, Final

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from argon2.low_level import ARGON2_VERSION
from starlette.requests import HTTPConnection
from starlette.responses import Response

from shiftago.core.errors import TranslatableError, english_colour
from shiftago.engine.levels import LEVELS
from shiftago.interfaces.server.accounts.store import (
    SESSION_DAYS,
    Account,
    Session,
    delete_expired_sessions,
    find_session,
)
from shiftago.interfaces.server.db.names import name_key
from shiftago.interfaces.server.db.outage import DATABASE_OUTAGE
from shiftago.interfaces.server.games.holding import Holder
from shiftago.interfaces.server.languages import COOKIE, Catalogues

if TYPE_CHECKING:
    from shiftago.interfaces.server.games.hub import Hub

log = logging.getLogger("shiftago.server")

#: The session cookie (its value is the session's secret).
SESSION_COOKIE: Final = "shiftago_session"
#: The CSRF cookie: readable by the pages' scripts, which send it back as a header
#: (:data:`.csrf.CSRF_HEADER`).
CSRF_COOKIE: Final = "csrf"
NAME: Final = re.compile(r"[a-z0-9_-]{3,20}")
PASSWORD_MIN: Final = 8
PASSWORD_MAX: Final = 200

_hasher = PasswordHasher()  # argon2id with the library's recommended parameters


def _dummy_hash(hasher: PasswordHasher) -> str:
    """An argon2 hash of ``hasher``'s parameters that no password matches: written out,
    not hashed, so that importing this module (every serve process, every worker) does
    not spend an argon2 hash's time and memory on it; checking against it costs what
    checking against a real hash costs."""
    salt = _b64(secrets.token_bytes(hasher.salt_len))
    digest = _b64(secrets.token_bytes(hasher.hash_len))
    costs = f"m={hasher.memory_cost},t={hasher.time_cost},p={hasher.parallelism}"
    return f"$argon2id$v={ARGON2_VERSION}${costs}${salt}${digest}"


def _b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode().rstrip("=")


#: Checked against when a name is unknown, so that an unknown name takes as long to
#: refuse as a wrong password.
_DUMMY_HASH: Final = _dummy_hash(_hasher)


#: Names nobody may take: they would speak for the site, its staff or its computer
#: (each level's name as the pages show it, engine.levels). Compared by their folded
#: form (:func:`.names.name_key`) with '_' and '-' left out, so ``Adm1n`` and ``admin_``
#: are refused as well.
RESERVED: Final = frozenset(
    {"admin", "administrator", "moderator", "system", "shiftago", "computer", "guest"}
    | {name for _, name in LEVELS}
)
_RESERVED_KEYS: Final = frozenset(name_key(n).replace("_", "").replace("-", "") for n in RESERVED)


class Unfit(ValueError):
    """A name or password that breaks a rule; ``code`` names the rule for the pages,
    which say it in their own language."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class NameReserved(ValueError):
    """A name kept for the site (:data:`RESERVED`) or too like one of them."""


def check_name(name: str) -> str:
    """The account name as stored (lower case); ValueError saying what is wrong."""
    lowered = name.strip().lower()
    if not NAME.fullmatch(lowered):
        raise Unfit("name_form", "3 to 20 letters a-z, digits, '_' or '-'")
    return lowered


def check_new_name(name: str) -> str:
    """A new account's name as stored (:func:`check_name`), which must also hold a letter
    or a digit and be none of the :data:`RESERVED` names, nor look like one."""
    lowered = check_name(name)
    if not any(c.isalnum() for c in lowered):
        raise Unfit("name_letter", "a name needs at least one letter or digit")
    if name_key(lowered).replace("_", "").replace("-", "") in _RESERVED_KEYS:
        raise NameReserved("this name is kept for the site; choose another")
    return lowered


def check_password(password: str) -> str:
    """A password as given at sign-in (its length only: an account's existing password
    signs in even if it is now among :func:`common_passwords`)."""
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise Unfit(
            "password_length", f"a password has {PASSWORD_MIN} to {PASSWORD_MAX} characters"
        )
    return password


def check_new_password(password: str) -> str:
    """A password for a new account or a change: :func:`check_password`, and not one of
    the :func:`common_passwords` (whatever its case); ValueError saying why."""
    check_password(password)
    if password.lower() in common_passwords():
        raise Unfit(
            "password_common",
            "this password is one of the most common ones, which are guessed first; choose another",
        )
    return password


@functools.cache
def common_passwords() -> frozenset[str]:
    """The 30,000 most common passwords of zxcvbn's frequency list (a maintained library
    of Dropbox's password estimator; the list comes from leaked passwords), read once."""
    from zxcvbn.frequency_lists import FREQUENCY_LISTS

    return frozenset(FREQUENCY_LISTS["passwords"])


# --- slow on purpose: run in a thread --------------------------------------------------
def hash_password(password: str) -> str:
    return _hasher.hash(password)


def password_matches(stored_hash: str | None, password: str) -> bool:
    """Whether ``password`` is the one of ``stored_hash`` (None: an unknown name, checked
    against a dummy hash so that it takes the same time)."""
    try:
        return _hasher.verify(stored_hash or _DUMMY_HASH, password) and stored_hash is not None
    except (VerificationError, InvalidHashError):
        return False


async def sweep_sessions(hub: Hub, every: float) -> None:
    """Delete the expired sessions every ``every`` seconds (a task of the runtime; every
    process does it, and a session is deleted once)."""
    while True:
        await asyncio.sleep(every)
        with DATABASE_OUTAGE.watching("the sessions' sweep"):
            swept = await hub.db(delete_expired_sessions, hub.store)
            if swept:
                log.info("%d expired sessions deleted", swept)


# --- the connection's side ---------------------------------------------------------------
#: Where a connection's session is kept once looked up (the CSRF check looks first).
_SCOPE_KEY: Final = "shiftago.session"


async def session_of(conn: HTTPConnection) -> Session | None:
    """The connection's session, looked up once per request or socket."""
    if _SCOPE_KEY in conn.scope:
        cached: Session | None = conn.scope[_SCOPE_KEY]
        return cached
    token = conn.cookies.get(SESSION_COOKIE)
    session = None
    if token and len(token) <= 100:
        hub = conn.app.state.hub
        session = await hub.db(find_session, hub.store, token)
    conn.scope[_SCOPE_KEY] = session
    return session


async def signed_in(conn: HTTPConnection) -> Account | None:
    """The account signed in on this request or socket (None: a guest, or a session that
    is unknown or expired)."""
    session = await session_of(conn)
    return None if session is None else session.account


async def seat_holder(conn: HTTPConnection) -> Holder | None:
    """The signed-in account as the games know a seat's holder (the app hands this to
    the games as ``app.state.holder_of``: they sit below the accounts)."""
    account = await signed_in(conn)
    return None if account is None else Holder(account.id, account.name)


def cookies_secure(conn: HTTPConnection) -> bool:
    """Whether the cookies are Secure: the page came over https, or the app's public
    address is https (a proxy that does not pass the scheme on then still gets them)."""
    public_url: str | None = getattr(conn.app.state, "public_url", None)
    return conn.url.scheme == "https" or (public_url or "").lower().startswith("https://")


def set_session_cookies(response: Response, conn: HTTPConnection, token: str, csrf: str) -> None:
    """The cookies of a new session: the secret for the server only (HttpOnly), the CSRF
    token for the pages' scripts; Secure where the site is https (:func:`cookies_secure`)."""
    secure = cookies_secure(conn)
    age = SESSION_DAYS * 24 * 3600
    response.set_cookie(
        SESSION_COOKIE, token, max_age=age, path="/", secure=secure, httponly=True, samesite="lax"
    )
    response.set_cookie(
        CSRF_COOKIE, csrf, max_age=age, path="/", secure=secure, httponly=False, samesite="strict"
    )


def clear_session_cookies(response: Response, conn: HTTPConnection) -> None:
    secure = cookies_secure(conn)
    response.delete_cookie(SESSION_COOKIE, path="/", secure=secure, httponly=True, samesite="lax")
    response.delete_cookie(CSRF_COOKIE, path="/", secure=secure, samesite="strict")


async def said_in_language(request: HTTPConnection, error: TranslatableError) -> str:
    """A refusal of the rules or the formats in the language ``request`` is served in,
    the colours by their names there (an API error's ``words``)."""
    catalogues: Catalogues = request.app.state.catalogues
    gettext = catalogues.translations(await language_of(request)).gettext
    return error.words(gettext, lambda seat: gettext(english_colour(seat)))


async def language_of(request: HTTPConnection) -> str:
    """The language ``request`` is served in (WEBAPI.md, "Languages"): ``?lang=``, the
    cookie, the signed-in account's setting, Accept-Language, English."""
    catalogues: Catalogues = request.app.state.catalogues
    account = await signed_in(request)
    return catalogues.choose(
        request.query_params.get("lang"),
        request.cookies.get(COOKIE),
        account.language if account is not None else None,
        request.headers.get("accept-language"),
    )
