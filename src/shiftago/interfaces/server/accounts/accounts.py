"""Accounts and sessions (docs/web-protocol.md, "Accounts and ratings").

An account is a name and the argon2 hash of a password (argon2-cffi; no home-made
crypto). Signing in makes a session: a random secret in the ``shiftago_session`` cookie,
of which the database keeps only the SHA-256, and a CSRF token in the ``csrf`` cookie,
kept beside it (:mod:`.csrf` checks it). Playing needs no account: an account only puts
a name and a rating on the seats it holds.

Expired sessions are deleted by a sweep of every process (:func:`sweep_sessions`,
``Settings.session_sweep_seconds``), whether or not their accounts sign in again.

The store functions are synchronous (the app runs them in its database thread through
``hub.db``); hashing and checking a password are slow on purpose, so the app runs them
in another thread (:func:`hash_password`, :func:`password_matches`), never in the
database's or on the event loop.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import re
import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session as DbSession
from starlette.requests import HTTPConnection
from starlette.responses import Response

from shiftago.interfaces.server.db.schema import AccountRow, SessionRow
from shiftago.interfaces.server.db.store import Store, now, token_hash, utc

if TYPE_CHECKING:
    from shiftago.interfaces.server.games.hub import Hub

log = logging.getLogger("shiftago.server")

#: The session cookie (its value is the session's secret).
SESSION_COOKIE: Final = "shiftago_session"
#: The CSRF cookie: readable by the pages' scripts, which send it back as a header
#: (:data:`.csrf.CSRF_HEADER`).
CSRF_COOKIE: Final = "csrf"
#: How long a session lasts.
SESSION_DAYS: Final = 30
NAME: Final = re.compile(r"[a-z0-9_-]{3,20}")
PASSWORD_MIN: Final = 8
PASSWORD_MAX: Final = 200

_hasher = PasswordHasher()  # argon2id with the library's recommended parameters
#: Checked against when a name is unknown, so that an unknown name takes as long to
#: refuse as a wrong password.
_DUMMY_HASH: Final = _hasher.hash("not a password of anyone")


@dataclass(frozen=True)
class Account:
    id: int
    name: str
    #: Closed by a moderator (``shiftago admin close-account``): no signing in.
    closed: bool = False


@dataclass(frozen=True)
class Session:
    """A signed-in browser: its account and its CSRF token."""

    account: Account
    csrf: str


class NameTaken(ValueError):
    """An account of that name exists (names are compared in lower case)."""


def check_name(name: str) -> str:
    """The account name as stored (lower case); ValueError saying what is wrong."""
    lowered = name.strip().lower()
    if not NAME.fullmatch(lowered):
        raise ValueError("3 to 20 letters a-z, digits, '_' or '-'")
    return lowered


def check_password(password: str) -> str:
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise ValueError(f"{PASSWORD_MIN} to {PASSWORD_MAX} characters")
    return password


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


# --- the store (run in the database thread) ----------------------------------------------
def create_account(store: Store, name: str, password_hash: str) -> Account:
    """Store a new account; :class:`NameTaken` if the name is taken."""
    try:
        with store.sessions.begin() as s:
            row = AccountRow(name=name, password_hash=password_hash, created=now())
            s.add(row)
            s.flush()
            return Account(row.id, row.name)
    except IntegrityError:
        raise NameTaken(name) from None


def _account(row: AccountRow) -> Account:
    return Account(row.id, row.name, row.closed is not None)


def _named(s: DbSession, name: str) -> AccountRow | None:
    """The row of the account ``name`` (any case)."""
    return s.scalars(select(AccountRow).where(AccountRow.name == name.lower())).first()


def _end_sessions(s: DbSession, account_id: int) -> int:
    """Delete every session of the account; how many there were."""
    done = s.execute(delete(SessionRow).where(SessionRow.account_id == account_id))
    return int(getattr(done, "rowcount", 0))


def account_with_hash(store: Store, name: str) -> tuple[Account, str] | None:
    """The account of ``name`` and its password's hash (None: no such account)."""
    with store.sessions() as s:
        row = s.scalar(select(AccountRow).where(AccountRow.name == name))
        return None if row is None else (_account(row), row.password_hash)


def find_account(store: Store, name: str) -> Account | None:
    with store.sessions() as s:
        row = _named(s, name)
        return None if row is None else _account(row)


def make_session(store: Store, account_id: int) -> tuple[str, str]:
    """A new session of the account: its secret (the cookie) and its CSRF token. Expired
    sessions of the account go on the way."""
    token, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
    stamp = now()
    with store.sessions.begin() as s:
        s.execute(
            delete(SessionRow).where(
                SessionRow.account_id == account_id, SessionRow.expires <= stamp
            )
        )
        s.add(
            SessionRow(
                token_hash=token_hash(token),
                account_id=account_id,
                csrf=csrf,
                created=stamp,
                expires=stamp + dt.timedelta(days=SESSION_DAYS),
            )
        )
    return token, csrf


def find_session(store: Store, token: str) -> Session | None:
    """The session of the cookie ``token`` (None: unknown or expired)."""
    with store.sessions() as s:
        found = s.execute(
            select(AccountRow.id, AccountRow.name, SessionRow.csrf, SessionRow.expires)
            .join(AccountRow, AccountRow.id == SessionRow.account_id)
            .where(SessionRow.token_hash == token_hash(token), AccountRow.closed.is_(None))
        ).first()
    if found is None or utc(found.expires) <= now():
        return None
    return Session(Account(found.id, found.name), found.csrf)


def delete_session(store: Store, token: str) -> None:
    with store.sessions.begin() as s:
        s.execute(delete(SessionRow).where(SessionRow.token_hash == token_hash(token)))


def sign_out_everywhere(store: Store, name: str, password_hash: str | None = None) -> int | None:
    """Delete every session of the account ``name`` and, with ``password_hash``, give
    it that password (moderation, a forgotten or leaked password): how many sessions
    ended, or None when there is no such account."""
    with store.sessions.begin() as s:
        account = _named(s, name)
        if account is None:
            return None
        if password_hash is not None:
            account.password_hash = password_hash
        return _end_sessions(s, account.id)


def close_account(store: Store, name: str, closed: bool = True) -> tuple[Account, int] | None:
    """Close the account ``name`` (moderation: it can no longer sign in, every session
    ends, it leaves the leaderboard; its games, ratings and name stay), or open it
    again with ``closed=False``: the account as it is now and how many sessions
    ended, or None when there is no such account."""
    with store.sessions.begin() as s:
        account = _named(s, name)
        if account is None:
            return None
        if not closed:
            account.closed = None
            return _account(account), 0
        account.closed = account.closed or now()
        return _account(account), _end_sessions(s, account.id)


def delete_expired_sessions(store: Store) -> int:
    """Delete every session that has expired; how many."""
    with store.sessions.begin() as s:
        done = s.execute(delete(SessionRow).where(SessionRow.expires <= now()))
        return int(getattr(done, "rowcount", 0))


async def sweep_sessions(hub: Hub, every: float) -> None:
    """Delete the expired sessions every ``every`` seconds (a task of the runtime; every
    process does it, and a session is deleted once)."""
    while True:
        await asyncio.sleep(every)
        try:
            swept = await hub.db(delete_expired_sessions, hub.store)
            if swept:
                log.info("%d expired sessions deleted", swept)
        except Exception:
            log.exception("the sessions' sweep failed")


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


def _secure(conn: HTTPConnection) -> bool:
    """Whether the cookies are Secure: the page came over https, or the app's public
    address is https (a proxy that does not pass the scheme on then still gets them)."""
    public_url: str | None = getattr(conn.app.state, "public_url", None)
    return conn.url.scheme == "https" or (public_url or "").lower().startswith("https://")


def set_session_cookies(response: Response, conn: HTTPConnection, token: str, csrf: str) -> None:
    """The cookies of a new session: the secret for the server only (HttpOnly), the CSRF
    token for the pages' scripts; Secure where the site is https (:func:`_secure`)."""
    secure = _secure(conn)
    age = SESSION_DAYS * 24 * 3600
    response.set_cookie(
        SESSION_COOKIE, token, max_age=age, path="/", secure=secure, httponly=True, samesite="lax"
    )
    response.set_cookie(
        CSRF_COOKIE, csrf, max_age=age, path="/", secure=secure, httponly=False, samesite="strict"
    )


def clear_session_cookies(response: Response, conn: HTTPConnection) -> None:
    secure = _secure(conn)
    response.delete_cookie(SESSION_COOKIE, path="/", secure=secure, httponly=True, samesite="lax")
    response.delete_cookie(CSRF_COOKIE, path="/", secure=secure, samesite="strict")
