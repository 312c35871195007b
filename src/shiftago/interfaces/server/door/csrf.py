"""The CSRF check of changes that a session cookie authenticates (docs/security.md).

A browser sends the session cookie with any request to the app, even one a foreign
page makes it send. So a change under ``/api`` (POST, PUT, PATCH, DELETE) that carries
a valid session cookie is let in only when it shows it comes from the app's pages:
either its ``Origin`` is the app's own (a browser always sends ``Origin`` with such
requests, and :class:`.security.Security`, which runs first, already refused foreign
ones), or its ``X-CSRF-Token`` header equals the token of the ``csrf`` cookie set at
sign-in (kept with the session), which only the app's own scripts can read. Anything
else answers 403. Requests without a session cookie (or with one of no valid session)
are a guest's and pass: they act for nobody. The sessions are the accounts' (the app
passes their ``session_of`` in).
"""

from __future__ import annotations

import hmac
from collections.abc import Awaitable, Callable
from typing import Final, Protocol

from starlette.requests import HTTPConnection
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from shiftago.interfaces.server.door.security import SAFE_METHODS, origin_allowed
from shiftago.interfaces.server.settings import Settings

#: The header in which the pages' scripts send the ``csrf`` cookie's value back.
CSRF_HEADER: Final = "x-csrf-token"


class Session(Protocol):
    """A signed-in session as the check sees it: the CSRF token given at sign-in."""

    @property
    def csrf(self) -> str: ...


#: The request's valid session, None when it carries none.
SessionOf = Callable[[HTTPConnection], Awaitable[Session | None]]


class CsrfCheck:
    """ASGI middleware, inside :class:`.security.Security` (it sees the forwarded scope)."""

    def __init__(self, app: ASGIApp, settings: Settings, session_of: SessionOf) -> None:
        self.app = app
        self.settings = settings
        self.session_of = session_of

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] != "http"
            or scope["method"] in SAFE_METHODS
            or not str(scope["path"]).startswith("/api/")
        ):
            await self.app(scope, receive, send)
            return
        conn = HTTPConnection(scope)
        if await self._shown(conn):
            await self.app(scope, receive, send)
            return
        message = (
            "a change made with your session cookie needs the X-CSRF-Token header "
            "(the csrf cookie's value) or the Origin of this app's pages"
        )
        await JSONResponse({"message": message, "code": "csrf"}, status_code=403)(
            scope, receive, send
        )

    async def _shown(self, conn: HTTPConnection) -> bool:
        """Whether the request comes from the app's pages, or carries no valid session."""
        origin, host = conn.headers.get("origin"), conn.headers.get("host")
        if origin is not None and origin_allowed(origin, host, self.settings):
            return True
        session = await self.session_of(conn)
        if session is None:
            return True  # no session (or no session cookie): the request acts for nobody
        # the token given at sign-in (the csrf cookie's value, kept with the session): a
        # cookie planted by another site holds some other value
        header = conn.headers.get(CSRF_HEADER, "")
        return bool(header) and hmac.compare_digest(header.encode(), session.csrf.encode())
