"""Accounts and sessions in the database: the rows of ``accounts`` and ``sessions``, and
the seats an account adopts.

Only the SHA-256 of a session's secret is stored, and only the argon2 hash of a
password (made by :mod:`.accounts`, never here). Like every store, these functions are
synchronous and short (the app runs them in its database thread through ``hub.db``)
and return plain values.
"""

from __future__ import annotations

import datetime as dt
import secrets
from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy import and_, case, delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session as DbSession

from shiftago.core import COLOURS
from shiftago.interfaces.server.db.names import name_key
from shiftago.interfaces.server.db.schema import AccountRow, GameRow, SeatRow, SessionRow
from shiftago.interfaces.server.db.store import Database, now, token_hash, utc
from shiftago.interfaces.server.games.live import unnamed_seat

#: How long a session lasts.
SESSION_DAYS: Final = 30


@dataclass(frozen=True)
class Account:
    id: int
    name: str
    #: Closed by a moderator (``shiftago admin close-account``): no signing in.
    closed: bool = False
    #: The site's language the account chose (None: the browser's).
    language: str | None = None


@dataclass(frozen=True)
class Session:
    """A signed-in browser: its account and its CSRF token."""

    account: Account
    csrf: str


class NameTaken(ValueError):
    """An account of that name exists (names are compared in lower case)."""


class NameTooLike(NameTaken):
    """An account has a name that looks like this one (the same folded form,
    :func:`.names.name_key`): ``ann0`` beside ``anno``, Cyrillic a (U+0430) for ``a``."""

    def __init__(self, name: str, existing: str) -> None:
        super().__init__(name)
        self.existing = existing


def create_account(db: Database, name: str, password_hash: str) -> Account:
    """Store a new account; :class:`NameTaken` if the name is taken, :class:`NameTooLike`
    if an account's name has the same folded form. The look first answers in words;
    the unique name and name key decide between two sign-ups at once (the second's
    insert fails and is refused the same way)."""
    key = name_key(name)
    try:
        with db.sessions.begin() as s:
            _refuse_like(name, _name_with_key(s, key))
            row = AccountRow(name=name, name_key=key, password_hash=password_hash, created=now())
            s.add(row)
            s.flush()
            return Account(row.id, row.name)
    except IntegrityError:
        with db.sessions() as s:
            like = _name_with_key(s, key)
        _refuse_like(name, like)
        raise NameTaken(name) from None


def _name_with_key(s: DbSession, key: str) -> str | None:
    """The name of the account whose name folds to ``key``, if any."""
    found: str | None = s.scalar(select(AccountRow.name).where(AccountRow.name_key == key).limit(1))
    return found


def _refuse_like(name: str, like: str | None) -> None:
    if like is not None:
        raise NameTaken(name) if like == name else NameTooLike(name, like)


def account_like(db: Database, name: str) -> str | None:
    """The name of an account whose name looks like ``name`` (the same folded form), or
    None: a guest may not go by it."""
    with db.sessions() as s:
        found: str | None = s.scalar(
            select(AccountRow.name).where(AccountRow.name_key == name_key(name)).limit(1)
        )
        return found


def _account(row: AccountRow) -> Account:
    return Account(row.id, row.name, row.closed is not None, row.language)


def _named(s: DbSession, name: str) -> AccountRow | None:
    """The row of the account ``name`` (any case)."""
    return s.scalars(select(AccountRow).where(AccountRow.name == name.lower())).first()


def _end_sessions(s: DbSession, account_id: int) -> int:
    """Delete every session of the account; how many there were."""
    done = s.execute(delete(SessionRow).where(SessionRow.account_id == account_id))
    return int(getattr(done, "rowcount", 0))


def account_with_hash(db: Database, name: str) -> tuple[Account, str] | None:
    """The account of ``name`` and its password's hash (None: no such account)."""
    with db.sessions() as s:
        row = s.scalar(select(AccountRow).where(AccountRow.name == name))
        return None if row is None else (_account(row), row.password_hash)


def find_account(db: Database, name: str) -> Account | None:
    with db.sessions() as s:
        row = _named(s, name)
        return None if row is None else _account(row)


def make_session(db: Database, account_id: int) -> tuple[str, str]:
    """A new session of the account: its secret (the cookie) and its CSRF token. Expired
    sessions of the account go on the way."""
    token, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
    stamp = now()
    with db.sessions.begin() as s:
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


def find_session(db: Database, token: str) -> Session | None:
    """The session of the cookie ``token`` (None: unknown or expired)."""
    with db.sessions() as s:
        found = s.execute(
            select(
                AccountRow.id,
                AccountRow.name,
                AccountRow.language,
                SessionRow.csrf,
                SessionRow.expires,
            )
            .join(AccountRow, AccountRow.id == SessionRow.account_id)
            .where(SessionRow.token_hash == token_hash(token), AccountRow.closed.is_(None))
        ).first()
    if found is None or utc(found.expires) <= now():
        return None
    return Session(Account(found.id, found.name, language=found.language), found.csrf)


def set_language(db: Database, account_id: int, language: str | None) -> None:
    """Keep the account's language (None: the browser's)."""
    with db.sessions.begin() as s:
        s.execute(update(AccountRow).where(AccountRow.id == account_id).values(language=language))


def delete_session(db: Database, token: str) -> None:
    with db.sessions.begin() as s:
        s.execute(delete(SessionRow).where(SessionRow.token_hash == token_hash(token)))


def sign_out_everywhere(db: Database, name: str, password_hash: str | None = None) -> int | None:
    """Delete every session of the account ``name`` and, with ``password_hash``, give
    it that password (moderation, a forgotten or leaked password): how many sessions
    ended, or None when there is no such account."""
    with db.sessions.begin() as s:
        account = _named(s, name)
        if account is None:
            return None
        if password_hash is not None:
            account.password_hash = password_hash
        return _end_sessions(s, account.id)


def close_account(db: Database, name: str, closed: bool = True) -> tuple[Account, int] | None:
    """Close the account ``name`` (moderation: it can no longer sign in, every session
    ends, it leaves the leaderboard; its games, ratings and name stay), or open it
    again with ``closed=False``: the account as it is now and how many sessions
    ended, or None when there is no such account."""
    with db.sessions.begin() as s:
        account = _named(s, name)
        if account is None:
            return None
        if not closed:
            account.closed = None
            return _account(account), 0
        account.closed = account.closed or now()
        return _account(account), _end_sessions(s, account.id)


def delete_expired_sessions(db: Database) -> int:
    """Delete every session that has expired; how many."""
    with db.sessions.begin() as s:
        done = s.execute(delete(SessionRow).where(SessionRow.expires <= now()))
        return int(getattr(done, "rowcount", 0))


def _unowned(tokens: list[str]) -> tuple[Any, ...] | None:
    """The conditions of a human seat held by one of these secrets without an account,
    in a game not made from an imported record (played elsewhere, it would count again
    on a profile); None when no secret is given."""
    hashes = sorted({token_hash(t) for t in tokens if t})
    if not hashes:
        return None
    return (
        SeatRow.token_hash.in_(hashes),
        SeatRow.kind == "human",
        SeatRow.account_id.is_(None),
        SeatRow.game_id.in_(select(GameRow.id).where(GameRow.imported.is_(False))),
    )


def adopt_seats(db: Database, account: tuple[int, str], tokens: list[str]) -> list[str]:
    """Give the account (id, name) the human seats these secrets hold that have no
    account yet, a seat left unnamed (its colour's name) the account's name; the ids of
    their games."""
    if (unowned := _unowned(tokens)) is None:
        return []
    account_id, name = account
    unnamed = [(SeatRow.seat == i, unnamed_seat(i)) for i in range(len(COLOURS))]
    named = case(
        *((and_(seat, SeatRow.name == n), name) for seat, n in unnamed), else_=SeatRow.name
    )
    with db.sessions.begin() as s:
        done = s.execute(
            update(SeatRow)
            .where(*unowned)
            .values(account_id=account_id, name=named)
            .returning(SeatRow.game_id)
        )
        return sorted(set(done.scalars().all()))


def adoptable_games(db: Database, tokens: list[str]) -> list[str]:
    """The ids of the games whose human seats these secrets hold without an account."""
    if (unowned := _unowned(tokens)) is None:
        return []
    with db.sessions.begin() as s:
        found = s.execute(select(SeatRow.game_id).where(*unowned))
        return sorted(set(found.scalars().all()))
