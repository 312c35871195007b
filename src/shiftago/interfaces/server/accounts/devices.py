"""Known devices: the browser an account's owner signed in with before (docs/security.md,
"Sign-in under attack").

After a successful sign-in (or sign-up) the browser gets the ``shiftago_device`` cookie:
a random device id and an HMAC-SHA256 of the account's id and that device id, keyed
with the account's stored password hash, which never leaves the server. So the cookie
is signed per account without a site-wide key that every process would have to share;
it names no account, is worthless for any other account, and stops counting when the
password changes. It lets nobody sign in: the password is checked as always. It only
puts the check in the hashing pool's ``device`` lane (:mod:`.hashing`), which the
unknown browsers of a flood never use. HttpOnly, SameSite=Lax, a year long, kept on
signing out.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from typing import Final

from starlette.requests import HTTPConnection
from starlette.responses import Response

#: The cookie's name.
DEVICE_COOKIE: Final = "shiftago_device"
#: How long a browser stays known without signing in again.
DEVICE_DAYS: Final = 365
_VALUE: Final = re.compile(r"([A-Za-z0-9_-]{16})\.([0-9a-f]{64})")


def _signature(account_id: int, password_hash: str, device: str) -> str:
    message = f"shiftago device {account_id} {device}".encode()
    return hmac.new(password_hash.encode(), message, hashlib.sha256).hexdigest()


def device_value(account_id: int, password_hash: str, device: str | None = None) -> str:
    """The cookie's value for the account: ``device`` (a new random id if None) and its
    signature."""
    device = device or secrets.token_urlsafe(12)
    return f"{device}.{_signature(account_id, password_hash, device)}"


def known_device(conn: HTTPConnection, account_id: int, password_hash: str) -> str | None:
    """The id of the connection's device if its cookie was signed for this account with
    its present password hash; None for no cookie, a malformed or forged one, or one of
    another account."""
    value = conn.cookies.get(DEVICE_COOKIE, "")
    match = _VALUE.fullmatch(value)
    if match is None:
        return None
    device, signature = match.groups()
    expected = _signature(account_id, password_hash, device)
    return device if hmac.compare_digest(signature, expected) else None


def set_device_cookie(
    response: Response, conn: HTTPConnection, account_id: int, password_hash: str, secure: bool
) -> None:
    """Mark the browser as the account's known device; a browser that already is keeps
    its device id (its failures stay counted against it)."""
    device = known_device(conn, account_id, password_hash)
    response.set_cookie(
        DEVICE_COOKIE,
        device_value(account_id, password_hash, device),
        max_age=DEVICE_DAYS * 24 * 3600,
        path="/",
        secure=secure,
        httponly=True,
        samesite="lax",
    )


__all__ = ["DEVICE_COOKIE", "DEVICE_DAYS", "device_value", "known_device", "set_device_cookie"]
