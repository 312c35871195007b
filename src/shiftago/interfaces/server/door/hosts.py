"""Which ``Host`` the app answers, and where people reach it (docs/security.md, "Hosts").

A browser sends the host name of the address it was given; a name that points at the
server without being its own (DNS rebinding: ``evil.example`` made to resolve to
127.0.0.1) must not be answered as the app. So a request is answered only when its
``Host`` (after a trusted proxy's ``X-Forwarded-Host``) names:

- ``--public-url``'s host, or one of ``--allowed-host``;
- this machine by its loopback names (``localhost``, ``127.0.0.1``, ``::1``);
- the ``--host`` it listens at, and the address the connection reached (for a
  wildcard ``--host``, the machine's address the client used).

The port is not compared (a proxy in front may listen on another). Any other host is
answered 421. Join links never come from ``Host``: :func:`served_url` is the public URL,
else the address the connection reached (a loopback one by the loopback name the
browser used).
"""

from __future__ import annotations

import re
from typing import Final
from urllib.parse import urlsplit

from starlette.types import Scope

from shiftago.interfaces.server.settings import Settings

#: The longest ``Host`` taken: a domain name (253) with a port, or a bracketed IPv6.
MAX_HOST_LENGTH: Final = 260
#: A host with an optional port, as ``Host`` carries it (a name, IPv4, or [IPv6]).
HOST: Final = re.compile(
    r"(?:[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?"
)
#: The names of this machine that no other can take.
LOOPBACK_NAMES: Final = frozenset({"localhost", "127.0.0.1", "::1"})
#: The addresses of those names, which a connection to this machine alone reaches.
LOOPBACK_ADDRESSES: Final = frozenset({"127.0.0.1", "::1"})
#: Listening addresses that stand for every address of the machine, not a host name.
WILDCARDS: Final = frozenset({"0.0.0.0", "::", ""})


def well_formed(host: str) -> bool:
    """Whether ``host`` is a host name or address with an optional port, not too long."""
    return len(host) <= MAX_HOST_LENGTH and HOST.fullmatch(host) is not None


def host_name(host: str) -> str:
    """The name of a ``Host`` value without its port or IPv6 brackets, in lower case."""
    if host.startswith("["):
        return host[1 : host.find("]")].lower()
    return host.rsplit(":", 1)[0].lower() if host.count(":") == 1 else host.lower()


def configured_names(settings: Settings) -> frozenset[str]:
    """The host names of ``--public-url``, of each ``--allowed-host`` and of ``--host``."""
    names = {host_name(host) for host in settings.allowed_hosts if host.strip()}
    if settings.listening_host and settings.listening_host not in WILDCARDS:
        names.add(settings.listening_host.strip("[]").lower())
    if settings.public_url:
        public = urlsplit(settings.public_url).hostname
        if public:
            names.add(public.lower())
    return frozenset(names)


def listening_name(scope: Scope) -> str | None:
    """The address the connection reached (the ASGI scope's ``server``), if known."""
    server = scope.get("server")
    return str(server[0]).lower() if server else None


def host_allowed(host: str | None, scope: Scope, configured: frozenset[str]) -> bool:
    """Whether the app answers a request for ``host`` (None: the request named none,
    as HTTP/1.0 may; it reached the listening address and is answered)."""
    if host is None:
        return True
    if not well_formed(host):
        return False
    name = host_name(host)
    return name in configured or name in LOOPBACK_NAMES or name == listening_name(scope)


def served_url(scope: Scope, public_url: str | None) -> str:
    """Where people reach the app, for its join links: ``public_url``, else the address
    the connection reached, over plain HTTP as the app serves it (never the request's
    ``Host`` or a forwarded scheme: behind a proxy, ``--public-url`` says the address).

    A connection to this machine's loopback address is named as the browser named it
    where that is a loopback name (``localhost``, ``127.0.0.1``, ``::1``), else
    ``localhost`` as ``serve`` prints it: the links then share the page's origin, and
    so its seats and cookies, and still lead to this machine whatever ``Host`` says."""
    if public_url:
        return public_url.rstrip("/")
    root = scope.get("root_path", "")
    server = scope.get("server")
    if not server:
        return f"http://localhost{root}"
    name, port = str(server[0]), server[1]
    if name in LOOPBACK_ADDRESSES:
        name = _loopback_name(scope)
    if ":" in name:
        name = f"[{name}]"
    netloc = name if port in (None, 80) else f"{name}:{port}"
    return f"http://{netloc}{root}"


def _loopback_name(scope: Scope) -> str:
    """The loopback name the request's ``Host`` gives, else ``localhost``."""
    for key, value in scope.get("headers", ()):
        if key == b"host":
            host = value.decode("latin-1")
            if well_formed(host) and host_name(host) in LOOPBACK_NAMES:
                return host_name(host)
            break
    return "localhost"
