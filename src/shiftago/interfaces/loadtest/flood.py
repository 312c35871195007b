"""The ``sign-in-flood`` scenario: many addresses send wrong passwords for one account,
each within its own limit, while the account's owner signs in with the right one
(issue 55: a real sign-in under 1 s, and the owner never locked out).

The owner's account is made first (a fresh name) and signed in to once, which makes the
owner's browser a known device of the account (the ``shiftago_device`` cookie,
docs/security.md "Sign-in under attack"). Then ``addresses`` flooders each send
``attempts`` wrong passwords for it one after the other, all at once, while the owner
signs in ``owner_tries`` times from an address of its own with that cookie, one try
every ``owner_every`` seconds, and a newcomer signs in as often with the right
password from a fresh address and no cookie (a first-time sign-in, as from a new
browser) half a period later. Addresses are simulated with ``X-Forwarded-For``, which the
server believes from a trusted proxy (by default this machine: docs/security.md,
"Forwarded headers"), so run it against a server on this machine or behind a proxy that
trusts it. The report gives the owner's and the newcomer's sign-in latency and answers,
the flood's answers by status, and the latency of a sign-in on the quiet server before
the flood.
"""

from __future__ import annotations

import asyncio
import random
import secrets
from dataclasses import dataclass, field
from typing import Any, Final

import httpx

from shiftago.interfaces.loadtest.burst import ScenarioError, failed, figure_rows, refused
from shiftago.interfaces.loadtest.figures import percentiles
from shiftago.interfaces.loadtest.protocol import clock
from shiftago.interfaces.shared.catalogues import N_, _, ngettext

#: The owner's address (TEST-NET-1), apart from the flood's (benchmarking range).
OWNER_ADDRESS = "192.0.2.10"
#: The server's cookie of a known device (accounts/devices.py).
DEVICE_COOKIE = "shiftago_device"
#: The table's rows: the report's figures and their labels.
ROWS: Final = (
    ("quiet_sign_in_ms", N_("sign-in, quiet server")),
    ("owner_ms", N_("owner's sign-in, flood")),
    ("newcomer_ms", N_("first-time sign-in, flood")),
    ("flood_ms", N_("flood's wrong passwords")),
)
#: The table's narrowest columns (its English layout): the labels, and the figures.
LABEL_WIDTH: Final = 26
FIGURE_WIDTH: Final = 8
#: Fresh names tried for the owner's account.
SIGN_UP_TRIES: Final = 5


def newcomer_address(i: int) -> str:
    """The address of the newcomer's ``i``-th first-time sign-in (TEST-NET-1)."""
    return f"192.0.2.{100 + i}"


@dataclass(frozen=True)
class FloodConfig:
    """What ``shiftago loadtest --scenario sign-in-flood`` is told (docs/cli.md)."""

    url: str
    addresses: int = 40
    #: Wrong passwords per address (within its own limit: ``--logins-per-minute``, 10).
    attempts: int = 10
    #: The owner's tries (with its sign-up and a first sign-in, within its own address's
    #: limit of 10 a minute).
    owner_tries: int = 5
    owner_every: float = 1.0
    seed: int = 0
    timeout: float = 300.0


@dataclass
class _Figures:
    quiet: list[float] = field(default_factory=list)
    owner: list[float] = field(default_factory=list)
    owner_answers: dict[str, int] = field(default_factory=dict)
    newcomer: list[float] = field(default_factory=list)
    newcomer_answers: dict[str, int] = field(default_factory=dict)
    flood: list[float] = field(default_factory=list)
    flood_answers: dict[str, int] = field(default_factory=dict)


def flood_address(i: int) -> str:
    """Flooder ``i``'s address (the benchmarking range, 198.18.0.0/15)."""
    return f"198.19.{i // 250}.{i % 250 + 1}"


def _answer(response: httpx.Response) -> str:
    """A status with the refusal's code: ``401``, ``429 busy``, ``429 rate_limited``."""
    code = ""
    if response.status_code >= 400:
        try:
            code = str(response.json().get("code") or "")
        except ValueError:
            code = ""
    return f"{response.status_code} {code}".strip()


def _tally(counts: dict[str, int], key: str) -> None:
    counts[key] = counts.get(key, 0) + 1


async def _sign_in(
    client: httpx.AsyncClient, name: str, password: str, address: str, device: str = ""
) -> tuple[float, str]:
    """One sign-in with no session cookie, and the known ``device``'s cookie if given."""
    client.cookies.clear()  # no session, no CSRF cookie
    headers = {"X-Forwarded-For": address}
    if device:
        headers["Cookie"] = f"{DEVICE_COOKIE}={device}"
    began = clock()
    try:
        response = await client.post(
            "/api/session", json={"name": name, "password": password}, headers=headers
        )
    except httpx.HTTPError as error:
        return clock() - began, f"http:{type(error).__name__}"
    return clock() - began, _answer(response)


async def _sign_up(client: httpx.AsyncClient, rng: random.Random) -> tuple[str, str]:
    """A fresh account: its name and password."""
    password = secrets.token_urlsafe(18)
    for _try in range(SIGN_UP_TRIES):
        name = f"flood{rng.randrange(10**9)}"
        try:
            response = await client.post(
                "/api/accounts",
                json={"name": name, "password": password},
                headers={"X-Forwarded-For": OWNER_ADDRESS},
            )
        except httpx.HTTPError as error:
            raise ScenarioError(failed(f"POST {client.base_url}/api/accounts", error)) from None
        if response.status_code == 201:
            return name, password
        if response.status_code != 409:
            raise ScenarioError(
                refused("POST /api/accounts", response.status_code, response.text[:300])
            )
    raise ScenarioError(
        ngettext(
            "no fresh name for the owner's account after %(n)d try",
            "no fresh name for the owner's account after %(n)d tries",
            SIGN_UP_TRIES,
        )
        % {"n": SIGN_UP_TRIES}
    )


async def run_flood(config: FloodConfig) -> dict[str, Any]:
    """Run the scenario; its report (:func:`format_flood` writes it as a table)."""
    figures = _Figures()
    rng = random.Random(config.seed)
    limits = httpx.Limits(max_connections=config.addresses + 8)
    async with httpx.AsyncClient(
        base_url=config.url, timeout=60, trust_env=False, limits=limits
    ) as client:
        name, password = await _sign_up(client, rng)
        client.cookies.clear()
        began = clock()
        first = await client.post(
            "/api/session",
            json={"name": name, "password": password},
            headers={"X-Forwarded-For": OWNER_ADDRESS},
        )
        figures.quiet.append(clock() - began)
        if first.status_code != 200:
            raise ScenarioError(
                _("the owner's first sign-in answered %(answer)s") % {"answer": _answer(first)}
            )
        device = first.cookies.get(DEVICE_COOKIE) or ""

        async def flooder(i: int) -> None:
            for _attempt in range(config.attempts):
                wrong = secrets.token_urlsafe(12)
                seconds, answer = await _sign_in(client, name, wrong, flood_address(i))
                figures.flood.append(seconds)
                _tally(figures.flood_answers, answer)

        async def owner() -> None:
            await asyncio.sleep(config.owner_every)  # the flood has begun
            for _try in range(config.owner_tries):
                seconds, answer = await _sign_in(client, name, password, OWNER_ADDRESS, device)
                figures.owner.append(seconds)
                _tally(figures.owner_answers, answer)
                await asyncio.sleep(config.owner_every)

        async def newcomer() -> None:
            await asyncio.sleep(config.owner_every * 1.5)
            for i in range(config.owner_tries):
                seconds, answer = await _sign_in(client, name, password, newcomer_address(i))
                figures.newcomer.append(seconds)
                _tally(figures.newcomer_answers, answer)
                await asyncio.sleep(config.owner_every)

        began = clock()
        async with asyncio.timeout(config.timeout):
            await asyncio.gather(
                owner(), newcomer(), *(flooder(i) for i in range(config.addresses))
            )
        lasted = clock() - began
    return {
        "scenario": "sign-in-flood",
        "url": config.url,
        "addresses": config.addresses,
        "attempts": config.attempts,
        "seconds": round(lasted, 3),
        "quiet_sign_in_ms": percentiles(figures.quiet),
        "owner_ms": percentiles(figures.owner),
        "owner_answers": figures.owner_answers,
        "owner_signed_in": figures.owner_answers.get("200", 0) == len(figures.owner),
        "owner_known_device": bool(device),
        "newcomer_ms": percentiles(figures.newcomer),
        "newcomer_answers": figures.newcomer_answers,
        "flood_ms": percentiles(figures.flood),
        "flood_answers": figures.flood_answers,
    }


def format_flood(report: dict[str, Any]) -> str:
    """The report in words and a table, in the terminal's language."""
    if report["owner_signed_in"]:
        owner = _("the owner signed in every time")
    else:
        owner = _("the owner did NOT sign in every time")
    if report["owner_known_device"]:
        device = _("the owner presented a known-device cookie (signed in once before the flood)")
    else:
        device = _("the server gave the owner no known-device cookie")
    addresses, attempts = report["addresses"], report["attempts"]
    lines = [
        _("sign-in-flood on %(url)s: %(addresses)s x %(passwords)s in %(seconds)s s; %(owner)s")
        % {
            "url": report["url"],
            "addresses": ngettext("%(n)d address", "%(n)d addresses", addresses) % {"n": addresses},
            "passwords": ngettext("%(n)d wrong password", "%(n)d wrong passwords", attempts)
            % {"n": attempts},
            "seconds": report["seconds"],
            "owner": owner,
        },
        device,
        "",
    ]
    rows = [(_(label), report[key]) for key, label in ROWS]
    heads = [_("count"), "p50 ms", "p99 ms", _("max") + " ms"]
    widths = [max(FIGURE_WIDTH, len(head) + 1) for head in heads]
    width = max(LABEL_WIDTH, *(len(label) + 1 for label, _row in rows))
    lines.append(
        f"{'':{width}} " + " ".join(f"{h:>{w}}" for h, w in zip(heads, widths, strict=True))
    )
    lines += figure_rows(rows, width, widths)
    lines.append(_("owner's answers: %(answers)s") % {"answers": report["owner_answers"]})
    lines.append(
        _("first-time sign-ins' answers: %(answers)s") % {"answers": report["newcomer_answers"]}
    )
    lines.append(_("flood's answers: %(answers)s") % {"answers": report["flood_answers"]})
    return "\n".join(lines)


__all__ = ["FloodConfig", "flood_address", "format_flood", "run_flood"]
