"""The process's figures for Prometheus at ``GET /metrics`` (docs/deploy.md, "Metrics").

Requests are counted and timed by their route's template (``/api/games/{game_id}``,
never the path itself, which holds game ids and seat secrets), method and status; the
sockets by kind while they are open; the figures of the moment (games in memory, their
sockets, the actions stored, the jobs queued and running per kind, with or without
Redis) are read when the figures are asked for. Each app has a registry of its own, so
that several apps in one process (the tests) keep theirs apart. Only the addresses of
``Settings.metrics_from`` get the figures (by default this machine); to anyone else
``/metrics`` is not there. A request for a host that is not the app's own never gets
this far (421 at the door, door/hosts.py), so a name made to point at 127.0.0.1 reads
no figures.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections.abc import Iterable, Iterator
from typing import Any, Final

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from shiftago.interfaces.server.accounts.hashing import LANES, OUTCOMES
from shiftago.interfaces.server.accounts.routes import hashing_pool
from shiftago.interfaces.server.door.security import Proxies, client_address
from shiftago.interfaces.server.jobs.admission import KindFigures
from shiftago.interfaces.server.runtime import Runtime

#: The scope key under which the outer middleware leaves a place for the route's
#: template: the router writes the route into a copy of the scope (the forwarded
#: headers are applied to a copy), so the inner middleware hands it out this way.
ROUTE_KEY: Final = "shiftago.route"
#: The label of a request that no route took (a 404 of a path that is not the app's).
UNMATCHED: Final = "unmatched"
#: Socket kinds by the path's start; anything else is "other".
#: The longest wait for the jobs' figures (Redis that hangs) before they are left out.
FIGURES_SECONDS: Final = 5.0
SOCKET_KINDS: Final = (("/ws/games/", "game"), ("/ws/analysis", "analysis"), ("/ws/lobby", "lobby"))


class Metrics:
    """The figures of one app and the registry that shows them."""

    def __init__(self, allowed: tuple[str, ...]) -> None:
        self.allowed = Proxies(allowed)
        self.registry = CollectorRegistry()
        ProcessCollector(registry=self.registry)  # memory, CPU time, open files
        self.requests = Counter(
            "shiftago_http_requests",
            "HTTP requests answered, by route template, method and status.",
            ("route", "method", "status"),
            registry=self.registry,
        )
        self.seconds = Histogram(
            "shiftago_http_request_seconds",
            "Time to answer an HTTP request, by route template.",
            ("route",),
            registry=self.registry,
        )
        self.sockets = Gauge(
            "shiftago_websockets_open",
            "WebSockets open now, by kind (game, analysis, lobby).",
            ("kind",),
            registry=self.registry,
        )
        self.socket_count = Counter(
            "shiftago_websockets",
            "WebSockets opened, by kind.",
            ("kind",),
            registry=self.registry,
        )
        self.games = Gauge(
            "shiftago_games_in_memory",
            "Games held in this process's memory.",
            registry=self.registry,
        )
        self.game_sockets = Gauge(
            "shiftago_game_connections",
            "Sockets (players and watchers) on the games in memory.",
            registry=self.registry,
        )
        #: Read from the hub when the figures are asked for (:class:`_StoredActions`).
        self.actions_stored = 0
        self.registry.register(_StoredActions(self))
        #: Read from the app's pool of password checks when the figures are asked for.
        self.password_checks: dict[str, Any] = {}
        self.registry.register(_PasswordChecks(self))
        self.joins_waiting = Gauge(
            "shiftago_watchers_waiting_to_join",
            "Watchers whose hello waits in a game's queue of joins.",
            registry=self.registry,
        )
        self.jobs = Gauge(
            "shiftago_jobs",
            "With Redis: computer moves and reviews waiting for a worker, and held by one.",
            ("state",),
            registry=self.registry,
        )
        self.job_queued = Gauge(
            "shiftago_jobs_queued",
            "Computer moves and reviews waiting for a slot, by kind (move, review).",
            ("kind",),
            registry=self.registry,
        )
        self.job_running = Gauge(
            "shiftago_jobs_running",
            "Computer moves and reviews being worked on, by kind.",
            ("kind",),
            registry=self.registry,
        )
        self.job_oldest = Gauge(
            "shiftago_jobs_oldest_seconds",
            "How long the oldest waiting job has waited, by kind (a review: since asked).",
            ("kind",),
            registry=self.registry,
        )
        self.workers = Gauge(
            "shiftago_workers", "With Redis: the workers seen lately.", registry=self.registry
        )

    async def answer(self, request: Request, runtime: Runtime) -> Response:
        """The figures as Prometheus reads them; 404 to an address not let in."""
        if client_address(request) not in self.allowed:
            return Response("Not Found", status_code=404, media_type="text/plain")
        games = runtime.game_figures()
        self.games.set(games["games_in_memory"])
        self.game_sockets.set(games["connections"])
        self.actions_stored = runtime.hub.actions_stored
        self.password_checks = hashing_pool(request.app).figures()
        self.joins_waiting.set(runtime.hub.joins.waiting())
        # the figures of a Redis that does not answer in time are left as they were
        if jobs := await runtime.job_figures():
            self.jobs.labels("waiting").set(jobs["jobs_waiting"])
            self.jobs.labels("held").set(jobs["jobs_held"])
            self.workers.set(jobs["workers"])
        if kinds := await job_kinds(runtime):
            for kind, row in kinds.items():
                self.job_queued.labels(kind).set(row["queued"])
                self.job_running.labels(kind).set(row["running"])
                self.job_oldest.labels(kind).set(row["oldest_seconds"])
        return Response(generate_latest(self.registry), media_type=CONTENT_TYPE_LATEST)


async def job_kinds(runtime: Runtime) -> dict[str, KindFigures]:
    """The jobs queued and running per kind, in this process or in Redis (``/healthz``,
    ``/metrics``); none when they are not had within :data:`FIGURES_SECONDS`."""
    with contextlib.suppress(Exception):
        return await asyncio.wait_for(runtime.hub.jobs.figures(), FIGURES_SECONDS)
    return {}


class _StoredActions(Collector):
    """The actions stored, a count the hub keeps (the hub knows nothing of Prometheus)."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    def collect(self) -> Iterator[Metric]:
        yield CounterMetricFamily(
            "shiftago_actions_stored",
            "Actions this process stored since it started.",
            value=self.metrics.actions_stored,
        )


class _PasswordChecks(Collector):
    """The pool of password checks (accounts/hashing.py): running and queued now, and
    per lane the checks that ran, waited and were refused because the queue was full."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    def collect(self) -> Iterator[Metric]:
        figures = self.metrics.password_checks
        lanes = figures.get("lanes", {})
        running = GaugeMetricFamily(
            "shiftago_password_checks_running", "Password checks running now."
        )
        running.add_metric((), figures.get("running", 0))
        yield running
        queued = GaugeMetricFamily(
            "shiftago_password_checks_queued",
            "Password checks waiting for a thread, by lane (device, clean, suspect).",
            labels=("lane",),
        )
        counted = CounterMetricFamily(
            "shiftago_password_checks",
            "Password checks since the process started, by lane and outcome (ran, waited, "
            "refused: the lane's queue was full).",
            labels=("lane", "outcome"),
        )
        for lane in LANES:
            row = lanes.get(lane, {})
            queued.add_metric((lane,), row.get("queued", 0))
            for outcome in OUTCOMES:
                counted.add_metric((lane, outcome), row.get(outcome, 0))
        yield queued
        yield counted


def socket_kind(path: str) -> str:
    return next((kind for start, kind in SOCKET_KINDS if path.startswith(start)), "other")


class MeasureRequests:
    """ASGI middleware, outside everything else: times and counts each request (the
    refusals at the door too), and keeps the count of open sockets."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics
        #: The app's route patterns and templates, listed at the first request that
        #: needs them (the routes are all added by then).
        self._templates: list[tuple[re.Pattern[str], str]] | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            kind = socket_kind(str(scope.get("path", "")))
            self.metrics.socket_count.labels(kind).inc()
            with self.metrics.sockets.labels(kind).track_inprogress():
                await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        place: dict[str, str] = {}
        status = [500]  # an app that fails before it answers

        async def send_noting(message: Message) -> None:
            if message["type"] == "http.response.start":
                status[0] = int(message["status"])
            await send(message)

        start = time.perf_counter()
        try:
            await self.app({**scope, ROUTE_KEY: place}, receive, send_noting)
        finally:
            route = place.get("route") or self._route_of(scope)
            self.metrics.seconds.labels(route).observe(time.perf_counter() - start)
            self.metrics.requests.labels(route, scope["method"], str(status[0])).inc()

    def _route_of(self, scope: Scope) -> str:
        """The template of the route of a request that the router did not take: refused
        before it ran (at the door: the Origin check, the body's size, the CSRF check),
        found by its path alone; else :data:`UNMATCHED`."""
        if self._templates is None:
            router = getattr(scope.get("app"), "router", None)
            self._templates = list(_templates(getattr(router, "routes", ())))
        path = str(scope.get("path", ""))
        return next((t for pattern, t in self._templates if pattern.match(path)), UNMATCHED)


def _templates(routes: Iterable[Any]) -> Iterator[tuple[re.Pattern[str], str]]:
    """Each route's path pattern and template, those of included routers too."""
    for route in routes:
        pattern, template = getattr(route, "path_regex", None), getattr(route, "path", None)
        if isinstance(pattern, re.Pattern) and isinstance(template, str):
            yield pattern, template
        inner = getattr(route, "original_router", None)  # FastAPI's include_router
        if inner is not None:
            yield from _templates(getattr(inner, "routes", ()))


class NoteRoute:
    """ASGI middleware, inside everything else: after the router has run, it leaves the
    route's template where :class:`MeasureRequests` reads it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await self.app(scope, receive, send)
        finally:
            place: Any = scope.get(ROUTE_KEY)
            route = scope.get("route")
            if isinstance(place, dict) and route is not None:
                place["route"] = str(getattr(route, "path", UNMATCHED))
