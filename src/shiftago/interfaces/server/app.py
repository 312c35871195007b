"""The web app: :func:`create_app` puts the API, the live socket and the pages together;
:func:`run` serves it with uvicorn (``shiftago serve``)."""

from __future__ import annotations

import contextlib
import logging
import math
from collections.abc import AsyncIterator, Callable
from functools import partial
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline
from starlette.exceptions import HTTPException

from shiftago import __version__
from shiftago.interfaces.server.accounts import routes as accounts_api
from shiftago.interfaces.server.accounts.accounts import (
    language_of,
    said_in_language,
    seat_holder,
    session_of,
)
from shiftago.interfaces.server.accounts.devices import DEVICE_COOKIE
from shiftago.interfaces.server.analysis import routes as analysis_api
from shiftago.interfaces.server.analysis.searches import LiveAnalysis
from shiftago.interfaces.server.analysis.socket import analysis_socket
from shiftago.interfaces.server.chat.chat import Chat
from shiftago.interfaces.server.db.store import (
    DATABASE_AWAY,
    DATABASE_AWAY_WORDS,
    migrate,
    open_engine,
)
from shiftago.interfaces.server.door.admission import Admission, protocol_class
from shiftago.interfaces.server.door.csrf import CsrfCheck
from shiftago.interfaces.server.door.http import Invalid, invalid_response
from shiftago.interfaces.server.door.redaction import log_config
from shiftago.interfaces.server.door.security import API_DOCS, SWAGGER_FILES, protect
from shiftago.interfaces.server.games import routes as api
from shiftago.interfaces.server.games.access import NotFound
from shiftago.interfaces.server.games.hub import Hub, Refused
from shiftago.interfaces.server.games.socket import game_socket
from shiftago.interfaces.server.games.store import Store
from shiftago.interfaces.server.languages import COOKIE, COOKIE_SECONDS, LOCALE_DIR, Catalogues
from shiftago.interfaces.server.learn import routes as learn_api
from shiftago.interfaces.server.metrics import MeasureRequests, Metrics, NoteRoute, job_kinds
from shiftago.interfaces.server.pages import Pages
from shiftago.interfaces.server.players import routes as players_api
from shiftago.interfaces.server.puzzles import routes as puzzles_api
from shiftago.interfaces.server.runtime import Runtime
from shiftago.interfaces.server.seeks import routes as seeks_api
from shiftago.interfaces.server.seeks.socket import lobby_socket
from shiftago.interfaces.server.settings import SERVED_BOT_DELAY, Settings
from shiftago.interfaces.server.startup import check_services, hold_the_only_process, listen
from shiftago.interfaces.shared.catalogues import _

#: The pages' templates (pages.py renders them) and their scripts (no build step).
WEB_DIR = Path(__file__).resolve().parent / "web"

log = logging.getLogger("shiftago.server")


def create_app(
    db_url: str,
    public_url: str | None = None,
    *,
    settings: Settings | None = None,
    **options: Any,
) -> FastAPI:
    """The app on the database at ``db_url`` (migrated here, before anything else).

    ``settings`` (:class:`Settings`) says everything else; ``public_url`` and
    ``options`` (names of its fields) change it, as tests do.
    """
    settings = (settings or Settings()).with_options(**options)
    if public_url is not None:
        settings = settings.with_options(public_url=public_url)
    engine = open_engine(db_url)
    migrate(engine)
    store = Store(engine)
    web = settings.web_dir if settings.web_dir is not None else WEB_DIR
    public_url = settings.public_url
    # a known device's request goes ahead of a crowd (docs/security.md)
    admission = Admission(ahead=f"{DEVICE_COOKIE}=".encode())

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        runtime = await Runtime.start(store, settings, runs_jobs=settings.redis_url is None)
        live_analysis = LiveAnalysis(settings.live_analysis_cap)
        app.state.runtime = runtime
        app.state.hub = runtime.hub
        app.state.chat = Chat(runtime.hub)  # also hears other processes' messages
        app.state.seeks = runtime.seeks
        app.state.redis = runtime.redis
        app.state.analyses = runtime.analyses
        app.state.live_analysis = live_analysis
        hub = runtime.hub
        admission.busy = lambda: hub.changing > 0  # the players' work goes first
        live_analysis.warm_up()
        try:
            yield
        finally:
            live_analysis.close()
            await runtime.stop()
            store.dispose()

    # the API's page draws Swagger UI from this server's files: it shows where the server
    # cannot reach the internet, and sends no visitor to a CDN
    app = FastAPIOffline(
        title="Shiftago",
        version=__version__,
        summary="Play Shiftago in the browser; the stable part is in WEBAPI.md",
        lifespan=lifespan,
        docs_url=API_DOCS,
        redoc_url=None,
        static_url=SWAGGER_FILES,
        favicon_url="/static/favicon.svg",
    )
    metrics = Metrics(settings.metrics_from)
    app.add_middleware(NoteRoute)  # added first: runs innermost, after the router
    app.add_middleware(CsrfCheck, settings=settings, session_of=session_of)  # inside protect's
    protect(app, settings)  # forwarded headers, Origin, security headers, strict JSON, logs
    app.add_middleware(MeasureRequests, metrics=metrics)  # added last: runs first
    app.state.metrics = metrics
    app.state.settings = settings
    app.state.admission = admission  # run() paces new connections with it
    app.state.public_url = public_url
    app.state.rate = settings.rate
    app.state.holder_of = seat_holder  # the games know a seat's account by it
    app.state.burst = settings.burst
    app.include_router(api.router)
    app.include_router(analysis_api.router)
    app.include_router(accounts_api.router)
    app.include_router(players_api.router)
    app.include_router(puzzles_api.router)
    app.include_router(learn_api.router)
    app.include_router(seeks_api.router)
    app.add_api_websocket_route("/ws/games/{game_id}", game_socket)
    app.add_api_websocket_route("/ws/analysis", analysis_socket)
    app.add_api_websocket_route("/ws/lobby", lobby_socket)
    locale = settings.locale_dir if settings.locale_dir is not None else LOCALE_DIR
    catalogues = Catalogues(locale, preview=settings.preview_languages)
    app.state.catalogues = catalogues
    pages = Pages(web, catalogues)
    _errors(app, pages)
    _pages(app, pages, web)
    return app


def _errors(app: FastAPI, pages: Pages) -> None:
    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError) -> Response:
        errors = exc.errors()
        first = errors[0] if errors else {"loc": ("body",), "msg": "invalid"}
        loc = [str(p) for p in first.get("loc", ()) if p not in ("body", "query", "path")]
        if first.get("type") == "json_invalid":  # its place is a character offset
            loc = []
        field = ".".join(loc) or "body"
        return invalid_response(field, str(first.get("msg", "invalid")), detail=_plain(errors))

    @app.exception_handler(Invalid)
    async def _invalid(request: Request, exc: Invalid) -> Response:
        words = None if exc.said is None else await said_in_language(request, exc.said)
        return invalid_response(exc.field, exc.message, code=exc.code, words=words)

    @app.exception_handler(NotFound)
    async def _not_found(request: Request, exc: NotFound) -> Response:
        answer = {"message": str(exc), "detail": str(exc), "code": "not_found"}
        return JSONResponse(answer, status_code=404)

    async def _database_away(request: Request, exc: Exception) -> Response:
        answer = {"message": DATABASE_AWAY_WORDS, "code": "unavailable"}
        return JSONResponse(answer, status_code=503, headers={"Retry-After": "5"})

    for away in DATABASE_AWAY:
        app.add_exception_handler(away, _database_away)

    @app.exception_handler(Refused)
    async def _refused(request: Request, exc: Refused) -> Response:
        return JSONResponse({"message": exc.message, "code": exc.code}, status_code=409)

    @app.exception_handler(HTTPException)
    async def _http(request: Request, exc: HTTPException) -> Response:
        path = request.url.path
        if exc.status_code == 404 and request.method in ("GET", "HEAD") and not _is_api(path):
            return await _page(request, pages.not_found)
        answer = await http_exception_handler(request, exc)
        if not isinstance(answer, JSONResponse):
            return answer  # no body to say it in (204, 304)
        message = exc.detail if isinstance(exc.detail, str) else "error"
        code = HTTP_CODES.get(exc.status_code, f"http_{exc.status_code}")
        body = {"message": message, "code": code, "detail": exc.detail}
        return JSONResponse(body, status_code=exc.status_code, headers=dict(exc.headers or {}))


#: The ``code`` of the errors FastAPI and Starlette answer themselves (WEBAPI.md: every
#: error carries one).
HTTP_CODES: dict[int, str] = {
    400: "bad_request",
    401: "signed_out",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "too_large",
    415: "unsupported_media_type",
    429: "too_many",
}


async def _page(request: Request, render: Callable[[str], Response]) -> Response:
    """A page in the request's language; ``?lang=`` of an offered one is kept in the
    ``lang`` cookie."""
    lang = await language_of(request)
    response = render(lang)
    response.headers["Vary"] = "Cookie, Accept-Language"
    if request.query_params.get("lang", "").lower() == lang:
        response.set_cookie(COOKIE, lang, max_age=COOKIE_SECONDS, samesite="lax")
    return response


def _is_api(path: str) -> bool:
    return path == "/api" or path.startswith(("/api/", "/ws/"))


def _plain(errors: object) -> object:
    """Validation errors as JSON can take them (their ``ctx`` may hold exceptions)."""
    if isinstance(errors, dict):
        return {k: _plain(v) for k, v in errors.items() if k != "ctx"}
    if isinstance(errors, list | tuple):
        return [_plain(v) for v in errors]
    if isinstance(errors, float) and not math.isfinite(errors):
        return str(errors)  # JSON has no NaN or infinity: an input of NaN is echoed as text
    return errors if isinstance(errors, str | int | float | bool | None) else str(errors)


def _pages(app: FastAPI, pages: Pages, web: Path) -> None:
    async def page(request: Request, name: str) -> Response:
        return await _page(request, partial(pages.page, name))

    @app.get("/", include_in_schema=False)
    async def home(request: Request) -> Response:
        return await page(request, "index.html")

    async def game_page(request: Request, game_id: str) -> Response:
        hub: Hub = request.app.state.hub
        if await hub.get(game_id) is None:
            return await _page(request, pages.not_found)
        return await page(request, "game.html")

    @app.get("/play/{game_id}", include_in_schema=False)
    async def play(request: Request, game_id: str) -> Response:
        return await game_page(request, game_id)

    @app.get("/watch/{game_id}", include_in_schema=False)
    async def watch(request: Request, game_id: str) -> Response:
        return await game_page(request, game_id)

    @app.get("/analysis", include_in_schema=False)
    async def analysis(request: Request) -> Response:
        return await page(request, "analysis.html")

    @app.get("/puzzles", include_in_schema=False)
    async def puzzles(request: Request) -> Response:
        return await page(request, "puzzles.html")

    @app.get("/puzzles/{puzzle_id}", include_in_schema=False)
    async def one_puzzle(request: Request, puzzle_id: str) -> Response:
        return await page(request, "puzzles.html")  # an unknown id: the page says so

    @app.get("/healthz", include_in_schema=False)
    async def healthz(request: Request) -> Response:
        runtime: Runtime = request.app.state.runtime
        figures: dict[str, Any] = {
            "process": runtime.hub.bus.process,
            **runtime.game_figures(),
            "rss_mib": resident_mib(),
        }
        try:
            await runtime.healthy()
        except Exception as error:  # the database or Redis does not answer
            return JSONResponse({"ok": False, "error": str(error), **figures}, status_code=503)
        figures.update(await runtime.job_figures())  # Redis answered the ping just now
        figures["jobs"] = await job_kinds(runtime)  # per kind, with or without Redis
        figures["password_checks"] = accounts_api.hashing_pool(request.app).figures()
        figures["watchers_waiting_to_join"] = runtime.hub.joins.waiting()
        return JSONResponse({"ok": True, **figures})

    @app.get("/metrics", include_in_schema=False)
    async def metrics(request: Request) -> Response:
        figures: Metrics = request.app.state.metrics
        return await figures.answer(request, request.app.state.runtime)

    @app.get("/players/{name}", include_in_schema=False)
    async def player(request: Request, name: str) -> Response:
        return await page(
            request, "players.html"
        )  # an unknown name: the page says so (its API is 404)

    @app.get("/leaderboard", include_in_schema=False)
    async def leaderboard(request: Request) -> Response:
        return await page(request, "leaderboard.html")

    @app.get("/learn", include_in_schema=False)
    async def learn(request: Request) -> Response:
        return await page(request, "learn.html")

    @app.get("/learn/{lesson_id}", include_in_schema=False)
    async def lesson(request: Request, lesson_id: str) -> Response:
        if not learn_api.is_lesson(lesson_id):
            return await _page(request, pages.not_found)
        return await page(request, "lesson.html")

    @app.get("/how-to-play", include_in_schema=False)
    async def how_to_play(request: Request) -> Response:
        return await page(request, "howto.html")

    @app.get("/static/i18n/{lang}.json", include_in_schema=False)
    async def catalogue(request: Request, lang: str) -> Response:
        """A language's messages for the scripts (cached; its ETag answers 304)."""
        found = pages.catalogues.by_lang.get(lang)
        if found is None:
            message = f"no catalogue of the language {lang!r}"
            return JSONResponse({"message": message, "code": "not_found"}, status_code=404)
        headers = {"ETag": found.etag, "Cache-Control": "public, max-age=300"}
        if request.headers.get("if-none-match") == found.etag:
            return Response(status_code=304, headers=headers)
        return Response(found.json, media_type="application/json", headers=headers)

    app.mount("/static", StaticFiles(directory=web / "static", check_dir=False), name="static")


def resident_mib() -> float | None:
    """This process's resident memory in MiB (Linux's /proc; None elsewhere)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return None


def run(
    host: str = "127.0.0.1",
    port: int = 8000,
    db_url: str = "sqlite:///shiftago.db",
    settings: Settings | None = None,
) -> None:
    """Serve the app with uvicorn until interrupted (or told to stop with SIGTERM); a
    database or Redis that does not answer, or an address that cannot be listened on,
    raises :class:`.startup.StartupError` first."""
    import logging.config

    import uvicorn

    settings = settings or Settings(bot_delay=SERVED_BOT_DELAY)
    # the address first: a port taken or a host unknown then leaves no database made
    listening = listen(host, port)
    try:
        check_services(db_url, settings.redis_url)
        lock = hold_the_only_process(db_url, settings.redis_url)
    except BaseException:
        listening.close()
        raise
    # the logs' handlers once it is sure to start (before the migration, which it names):
    # a start refused before this leaves the process's logging as it was
    logging.config.dictConfig(log_config())
    settings = settings.with_options(listening_host=host)  # a name there is answered
    app = create_app(db_url, settings=settings)
    app.state.serve_lock = lock  # held while the app runs
    public_url = settings.public_url
    shown = public_url or f"http://{'localhost' if host in ('127.0.0.1', '::1') else host}:{port}"
    print(_("Shiftago is served at %(url)s  (Ctrl+C stops it)") % {"url": shown}, flush=True)
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        http=protocol_class(app.state.admission),  # a crowd's connections at a pace
        ws_max_size=64 * 1024,
        # no per-message compression: deflating every event for every socket cost more
        # CPU than anything else the server does per event (docs/deploy.md, "Sizing")
        ws_per_message_deflate=False,
        proxy_headers=False,  # security.py believes forwarded headers of trusted proxies
        log_config=log_config(),  # seat secrets redacted (redaction.py)
        timeout_graceful_shutdown=10,
        log_level="info",
    )
    uvicorn.Server(config).run(sockets=[listening])
