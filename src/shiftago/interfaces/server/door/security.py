"""What stands at the app's door (docs/security.md): forwarded headers believed from
trusted proxies only, the Origin check, and the security headers of every answer.

:class:`Security` is pure ASGI middleware, so WebSockets pass through it too. It runs
before everything else, so what it decides is all that the routes see:

- **Forwarded headers.** When the peer is one of ``Settings.trusted_proxies``,
  ``X-Forwarded-For`` gives the client's address, ``X-Forwarded-Proto`` the scheme and
  ``X-Forwarded-Host`` the ``Host`` header; from anyone else they are ignored. Either
  way they are removed, so the routes read only the scope (:func:`client_address`,
  ``request.url``) and uvicorn's own proxy handling stays off.
- **Hosts.** A request for a ``Host`` that is not the app's (:mod:`.hosts`) is answered
  421, a forwarded host that is no host name (or too long) 400.
- **Origin.** A WebSocket, and an HTTP request that changes something, coming from a
  browser (it carries ``Origin``) is let in only from the app's own pages
  (:func:`origin_allowed`); scripts send no Origin and are let in.
- **Headers.** A Content-Security-Policy that allows the pages' own files only, no
  framing, ``nosniff``, and no referrer (a game page's address holds its seat's secret),
  on every answer: refusals, errors, and the 500 of an error nothing handled.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from typing import Final
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.requests import HTTPConnection
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from shiftago.interfaces.server.door.body_size import BodySizeLimit
from shiftago.interfaces.server.door.hosts import HOST, configured_names, host_allowed, well_formed
from shiftago.interfaces.server.door.redaction import redact_logs
from shiftago.interfaces.server.door.strict_json import StrictJsonBodies
from shiftago.interfaces.server.door.text import PlainText
from shiftago.interfaces.server.settings import Settings

#: The pages' policy: their own scripts, styles and sockets, nothing inline, no frames.
#: ``connect-src 'self'`` covers the page's own ``ws:``/``wss:`` origin (CSP level 3).
CONTENT_SECURITY_POLICY: Final = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "font-src 'self'",
        "frame-ancestors 'none'",
        "base-uri 'none'",
        "object-src 'none'",
        "form-action 'self'",
    )
)
#: The API's page, and where it takes Swagger UI's files from (this server: the page
#: shows without the internet and sends no visitor to a CDN).
API_DOCS: Final = "/docs"
SWAGGER_FILES: Final = "/api-docs"
#: The API's page starts Swagger UI with an inline script (FastAPI's page); it holds no
#: secret and shows no input of the site's.
DOCS_POLICY: Final = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self' 'unsafe-inline'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "worker-src 'self' blob:",
        "connect-src 'self'",
        "frame-ancestors 'none'",
        "base-uri 'none'",
        "object-src 'none'",
        "form-action 'self'",
    )
)
SECURITY_HEADERS: Final = (
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
)
#: Headers only a trusted proxy may send; removed from every request.
FORWARDED: Final = frozenset(
    {
        b"x-forwarded-for",
        b"x-forwarded-proto",
        b"x-forwarded-host",
        b"x-forwarded-port",
        b"x-forwarded-prefix",
        b"forwarded",
    }
)
#: Methods that change nothing, so a foreign page's request does no harm.
SAFE_METHODS: Final = frozenset({"GET", "HEAD", "OPTIONS"})
#: The scope key set when a trusted proxy forwarded a host that is no host (answered 400).
BAD_FORWARDED_HOST: Final = "shiftago.bad_forwarded_host"
DEFAULT_PORTS: Final = {"http": 80, "https": 443, "ws": 80, "wss": 443}


#: The length of the IPv6 prefix that counts as one address in the limits: a client
#: gets a whole /64 and can take any address in it (docs/security.md, "Limits").
IPV6_PREFIX: Final = 64


def client_address(connection: Scope | HTTPConnection) -> str:
    """The client's address, after the forwarded headers of a trusted proxy: the key of
    every per-address limit (``unknown`` when the server was not told one). An IPv6
    client counts by its /64 network (``2001:db8:1:2::/64``), so that moving from one
    of its addresses to the next is no new allowance; an IPv4-mapped one by its IPv4."""
    scope = connection.scope if isinstance(connection, HTTPConnection) else connection
    client = scope.get("client")
    return limit_key(str(client[0])) if client else "unknown"


def limit_key(address: str) -> str:
    """The key of ``address`` in the limits (see :func:`client_address`)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address  # not an address (a test client's name): itself
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network(f"{ip}/{IPV6_PREFIX}", strict=False))
    return address


# ---------------------------------------------------------------- forwarded headers


class Proxies:
    """The addresses of ``--trusted-proxy``: single addresses or networks (CIDR), or
    ``*`` for any peer (a proxy whose address is not known in advance)."""

    def __init__(self, entries: Iterable[str]) -> None:
        entries = [e.strip() for e in entries]
        self.anyone = "*" in entries
        self.networks = [_network(e) for e in entries if e != "*"]

    def __contains__(self, address: object) -> bool:
        if self.anyone:
            return True
        ip = _ip(str(address))
        return ip is not None and any(ip in network for network in self.networks)


def _network(text: str) -> ipaddress.IPv4Network | ipaddress.IPv6Network:
    try:
        return ipaddress.ip_network(text, strict=False)
    except ValueError:
        raise ValueError(
            f"a trusted proxy is an address or a network (10.0.0.0/8), or *; not {text!r}"
        ) from None


def _ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        ip = ipaddress.ip_address(text.strip().removeprefix("[").removesuffix("]"))
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    return ip


def _values(headers: list[tuple[bytes, bytes]], name: bytes) -> list[str]:
    """Every comma-separated value of every ``name`` header, in order."""
    found = [v.decode("latin-1") for n, v in headers if n == name]
    return [part.strip() for value in found for part in value.split(",") if part.strip()]


def forwarded(scope: Scope, proxies: Proxies) -> Scope:
    """The scope as the client made the request: with a trusted proxy's forwarded
    client, scheme and host applied; in every case without the forwarded headers."""
    headers: list[tuple[bytes, bytes]] = list(scope.get("headers", []))
    if not any(name in FORWARDED for name, _ in headers):
        return scope
    scope = dict(scope)
    client = scope.get("client")
    kept = [(n, v) for n, v in headers if n not in FORWARDED]
    if client and client[0] in proxies:
        chain = _values(headers, b"x-forwarded-for")
        if chain:
            # the nearest address no trusted proxy stands for; all trusted: the first
            who = next((a for a in reversed(chain) if a not in proxies), chain[0])
            scope["client"] = (who, 0)
        protos = _values(headers, b"x-forwarded-proto")
        proto = protos[-1].lower() if protos else ""
        if proto in ("http", "https"):
            secure = proto == "https"
            if scope["type"] == "websocket":
                scope["scheme"] = "wss" if secure else "ws"
            else:
                scope["scheme"] = proto
        hosts = _values(headers, b"x-forwarded-host")
        if hosts and well_formed(hosts[-1]):
            kept = [(n, v) for n, v in kept if n != b"host"]
            kept.append((b"host", hosts[-1].encode("latin-1")))
        elif hosts:
            scope[BAD_FORWARDED_HOST] = True
    scope["headers"] = kept
    return scope


# ---------------------------------------------------------------- the Origin check


def origin_of(url: str) -> str:
    """An origin as browsers write it: lower case, without a default port."""
    try:
        parts = urlsplit(url.strip())
        scheme, host, port = parts.scheme.lower(), parts.hostname, parts.port
    except ValueError:
        return url.strip().lower()
    if not scheme or not host:
        return url.strip().lower()  # "null", or not a URL at all
    if ":" in host:
        host = f"[{host}]"
    if port is not None and port != DEFAULT_PORTS.get(scheme):
        host = f"{host}:{port}"
    return f"{scheme}://{host}"


def is_local_host(host: str) -> bool:
    """Whether ``Host`` names no domain: ``localhost`` or an IP literal, with or without
    a port. A domain name may point anywhere (DNS rebinding), so it is never assumed."""
    if not HOST.fullmatch(host):
        return False
    name = host[: host.index("]") + 1] if host.startswith("[") else host.split(":", 1)[0]
    return name.lower() == "localhost" or _ip(name) is not None


def configured_origins(settings: Settings) -> frozenset[str]:
    """The origins of ``--public-url`` and of each ``--allowed-host`` (http and https)."""
    allowed = set()
    if settings.public_url:
        allowed.add(origin_of(settings.public_url))
    for host in settings.allowed_hosts:
        allowed |= {origin_of(f"http://{host}"), origin_of(f"https://{host}")}
    return frozenset(allowed)


def origin_allowed(origin: str | None, host: str | None, settings: Settings) -> bool:
    """Whether a request with ``Origin`` (None: not from a browser) and ``Host`` comes
    from the app's own pages: those of ``--public-url`` or ``--allowed-host``; without
    either, those of the host it was reached at, when that host is no domain name."""
    if origin is None:
        return True
    allowed = configured_origins(settings)
    if not allowed and host and is_local_host(host):
        allowed = frozenset({origin_of(f"http://{host}"), origin_of(f"https://{host}")})
    return origin_of(origin) in allowed


# ---------------------------------------------------------------- the middleware


class Security:
    """ASGI middleware: forwarded headers, the Host and Origin checks, the security
    headers (on every answer, the 500 of an unhandled error included)."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.settings = settings
        self.proxies = Proxies(settings.trusted_proxies)
        self.hosts = configured_names(settings)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        scope = forwarded(scope, self.proxies)
        headers = {n: v.decode("latin-1") for n, v in scope["headers"] if n in (b"origin", b"host")}
        origin, host = headers.get(b"origin"), headers.get(b"host")
        host_refused = scope.get(BAD_FORWARDED_HOST) or not host_allowed(host, scope, self.hosts)
        if scope["type"] == "websocket":
            if host_refused or not origin_allowed(origin, host, self.settings):
                await receive()  # the connect message
                await send({"type": "websocket.close", "code": 1008})  # answered 403
                return
            await self.app(scope, receive, send)
            return
        send = self._with_headers(scope, send)
        if scope.get(BAD_FORWARDED_HOST):
            message = "the proxy forwarded a host that is no host name (X-Forwarded-Host)"
            await JSONResponse({"message": message, "code": "bad_host"}, status_code=400)(
                scope, receive, send
            )
            return
        if host_refused:
            message = (
                "this server does not serve that host (it is told its own with "
                "--public-url or --allowed-host)"
            )
            await JSONResponse({"message": message, "code": "wrong_host"}, status_code=421)(
                scope, receive, send
            )
            return
        if scope["method"] not in SAFE_METHODS and not origin_allowed(origin, host, self.settings):
            message = (
                f"requests from the page {origin} are refused: it is not one of this app's "
                "(the server is told its own with --public-url or --allowed-host)"
            )
            await JSONResponse({"message": message, "code": "origin"}, status_code=403)(
                scope, receive, send
            )
            return
        await self._answer(scope, receive, send)

    async def _answer(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The app's answer; when an error escapes it before an answer began, a 500 with
        the headers (Starlette's own 500 is sent outside every middleware, without
        them). The error goes on up, to be logged (and raised by a test client)."""
        started = False

        async def noting_start(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, noting_start)
        except Exception:
            if not started:
                answer = {
                    "message": "the server failed to answer; please try again later",
                    "code": "server_error",
                }
                await JSONResponse(answer, status_code=500)(scope, receive, send)
            raise

    def _with_headers(self, scope: Scope, send: Send) -> Send:
        policy = DOCS_POLICY if scope["path"] == API_DOCS else CONTENT_SECURITY_POLICY

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                for name, value in (
                    (b"content-security-policy", policy.encode()),
                    *SECURITY_HEADERS,
                ):
                    if name not in present:
                        headers.append((name, value))
                message = {**message, "headers": headers}
            await send(message)

        return send_with_headers


def protect(app: Starlette, settings: Settings) -> None:
    """Put the door in place: :class:`Security` first, then :class:`BodySizeLimit`,
    :class:`StrictJsonBodies` and :class:`PlainText` (so a refused body, path or query
    gets the headers too), and the secrets kept out of the logs."""
    Proxies(settings.trusted_proxies)  # a wrong address is an error now, not at a request
    app.add_middleware(PlainText)
    app.add_middleware(StrictJsonBodies)
    app.add_middleware(BodySizeLimit)
    app.add_middleware(Security, settings=settings)  # added last: runs first
    redact_logs()
