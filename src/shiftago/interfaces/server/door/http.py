"""What every feature's HTTP routes share: the 422 of input that does not make sense,
the 429 of a limit for the OpenAPI page, and the address people reach the app at.

Invalid input answers 422 with ``{"message": "<field>: <what is wrong>", "field": ...}``
(the app's handler of :class:`Invalid` and of FastAPI's validation errors).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, BeforeValidator, ConfigDict

from shiftago.core.errors import TranslatableError
from shiftago.interfaces.server.door.hosts import served_url


class Invalid(Exception):
    """Input that does not make sense: answered 422 naming the field, with ``code``
    ("invalid", or a narrower one that a page words in its own language). ``said``, a
    refusal of the rules or the formats, is also answered in the request's language as
    ``words``: the reason a person can act on (a record's missing header)."""

    def __init__(
        self,
        field: str,
        message: str,
        code: str = "invalid",
        said: TranslatableError | None = None,
    ) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message
        self.code = code
        self.said = said


def invalid_response(
    field: str, message: str, detail: Any = None, code: str = "invalid", words: str | None = None
) -> JSONResponse:
    body: dict[str, Any] = {"message": f"{field}: {message}", "field": field, "code": code}
    if detail is not None:
        body["detail"] = detail
    if words is not None:
        body["words"] = words
    return JSONResponse(body, status_code=422)


#: The answer over a limit per address, for the OpenAPI page.
LIMITED: dict[int | str, dict[str, Any]] = {
    429: {"description": "over a limit per address; `Retry-After` says when to try again"}
}


def base_url(request: Request) -> str:
    """Where people reach the app, for join links: ``--public-url``, else the address
    the connection reached (:func:`.hosts.served_url`); never the request's ``Host``,
    which a client chooses."""
    return served_url(request.scope, request.app.state.public_url)


def prefers_json(accept: str) -> bool:
    """Whether an ``Accept`` header asks for JSON before plain text: its media ranges
    read in any case, each with its ``q`` (1 when absent, 0 refuses it); JSON wins a tie,
    and a header that names neither (or none at all) gets text.

    >>> prefers_json("APPLICATION/JSON"), prefers_json("application/json;q=0.1, text/plain")
    (True, False)
    >>> prefers_json("*/*"), prefers_json("text/plain;q=0.5, application/*")
    (False, True)
    """
    json_q = text_q = 0.0
    for part in accept.split(","):
        media, *params = (piece.strip().lower() for piece in part.split(";"))
        q = 1.0
        for param in params:
            key, _, value = param.partition("=")
            if key.strip() == "q":
                try:
                    q = min(1.0, max(0.0, float(value)))
                except ValueError:
                    q = 0.0
        if media in ("application/json", "application/*"):
            json_q = max(json_q, q)
        if media in ("text/plain", "text/*", "*/*"):
            text_q = max(text_q, q)
    return json_q > 0 and json_q >= text_q


class Body(BaseModel):
    """A request's JSON body: no field it does not know, and no value of another JSON
    type read as this one (``"3"`` for 3, ``"yes"`` or ``1`` for true), so that a
    mistaken body is refused with 422 naming the field instead of doing something else
    (WEBAPI.md: "Invalid input answers 422")."""

    model_config = ConfigDict(extra="forbid", strict=True)


__all__ = ["LIMITED", "Body", "Invalid", "base_url", "invalid_response", "prefers_json"]


def _lowered(value: Any) -> Any:
    return value.strip().lower() if isinstance(value, str) else value


#: A variant's name in a request body, read in any case and with spaces around it.
VariantIn = Annotated[Literal["express", "expert", "extreme"], BeforeValidator(_lowered)]
