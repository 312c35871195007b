"""The HTTP API: the stable part of ``WEBAPI.md`` (create, read, record) and what the
pages need besides (listing public games, importing a record, the computer's levels).

Invalid input answers 422 with ``{"message": "<field>: <what is wrong>", "field": ...}``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from pydantic import Field

from shiftago.core import COLOURS, Phase, ShiftagoError, State, Variant
from shiftago.core.errors import TranslatableError
from shiftago.core.rules import letter_of_colour_word
from shiftago.engine.levels import LEVELS, default_level
from shiftago.formats.picture import DEFAULT_SIZE, MAX_SIZE, MIN_SIZE
from shiftago.formats.record import format_record
from shiftago.formats.record_json import parse_records_of_either_form, record_to_json
from shiftago.formats.record_syntax import is_text_value
from shiftago.interfaces.server.door import limits
from shiftago.interfaces.server.door.http import (
    LIMITED,
    Body,
    Invalid,
    VariantIn,
    base_url,
    prefers_json,
)
from shiftago.interfaces.server.door.security import client_address
from shiftago.interfaces.server.games.access import computer_game_room, found, hub_of
from shiftago.interfaces.server.games.creating import (
    ClockIn,
    GameSpec,
    SeatSpec,
    computer_level,
    spec_of_record,
)
from shiftago.interfaces.server.games.holding import holder_of, taken_by
from shiftago.interfaces.server.games.live import LiveGame, unnamed_seat
from shiftago.interfaces.server.games.pictures import Kind, Picture, Pictures, PicturesBusy
from shiftago.interfaces.server.games.views import game_view, rules_view, summary_view
from shiftago.interfaces.shared.newgame import COMPUTER_NAME

router = APIRouter(prefix="/api")

MAX_HANDICAP = 6
MAX_RECORD_CHARS = 200_000
#: A position string is about 60 characters; a few hundred is room for any.
MAX_POSITION_CHARS = 400


class SeatIn(Body):
    name: Annotated[str, Field(max_length=40)] | None = None
    kind: Literal["human", "computer"] = "human"
    level: int | None = None
    mine: bool | None = Field(
        default=None,
        description="made while signed in: true, this person's seat is the maker's account's; "
        "false, it is not (a friend's); unset, the one person's seat of a game with one is",
    )


class NewGame(Body):
    """A new game, as ``POST /api/games`` takes it (WEBAPI.md)."""

    variant: VariantIn = "express"
    players: Annotated[int, Field(ge=2, le=4)] = 2
    handicap: list[int] | None = None
    first: str | None = Field(None, description="a colour (o g b w, or its name); else by lot")
    public: bool = False
    seats: list[SeatIn] | None = Field(None, description="one per seat; all people if absent")
    seed: Annotated[int, Field(ge=0, lt=2**63)] | None = None
    tournament: bool = Field(False, description="Express only: a series to 10 game wins")
    tournament_target: Annotated[int, Field(ge=1, le=99)] = 10
    clock: ClockIn | None = Field(None, description="a time control; untimed when absent")
    position: Annotated[str, Field(max_length=MAX_POSITION_CHARS)] | None = Field(
        None, description="a position string to start from (PROTOCOL.md); the empty board if absent"
    )


class ImportIn(Body):
    record: Annotated[str, Field(min_length=1, max_length=MAX_RECORD_CHARS)]
    public: bool = False
    level: int | None = Field(None, description="the level of computer seats without one")


def set_up(body: NewGame) -> State | None:
    """The position a new game starts from, checked by the core's parser; its variant
    and number of players are the game's (a body that names others is refused)."""
    if body.position is None:
        return None
    try:
        state = State.from_position(body.position.strip())
    except ShiftagoError as error:
        raise Invalid("position", str(error)) from None
    if state.phase is Phase.OVER:
        raise Invalid("position", "the game is over in this position: there is nothing to play")
    given = body.model_fields_set
    variant = state.rules.variant.value
    if "variant" in given and body.variant != variant:
        raise Invalid("variant", f"the position is a game of {variant}, not {body.variant}")
    if "players" in given and body.players != state.rules.players:
        players = state.rules.players
        raise Invalid("players", f"the position is a game of {players} players, not {body.players}")
    if body.first is not None:
        raise Invalid("first", "the position says whose turn it is")
    if body.handicap is not None:
        raise Invalid("handicap", "the position holds the turns still to be skipped")
    if body.tournament:
        raise Invalid("tournament", "a tournament starts from the empty board")
    return state


def spec_of(body: NewGame) -> GameSpec:
    """The game a request asks for, each field checked with words that name it."""
    start = set_up(body)
    if start is not None:
        body = body.model_copy(
            update={"variant": start.rules.variant.value, "players": start.rules.players}
        )
    players = body.players
    handicap = tuple(body.handicap or ())
    if handicap and len(handicap) != players:
        raise Invalid("handicap", f"one number per seat ({players}), got {len(handicap)}")
    if any(not 0 <= h <= MAX_HANDICAP for h in handicap):
        raise Invalid("handicap", f"each handicap is 0 to {MAX_HANDICAP} skipped turns")
    first = None
    if body.first is not None:
        letter = letter_of_colour_word(body.first)
        if len(letter) != 1 or letter not in COLOURS[:players]:
            raise Invalid("first", f"a colour of this game: {' '.join(COLOURS[:players])}")
        first = COLOURS.index(letter)
    seats_in = body.seats if body.seats is not None else [SeatIn() for _ in range(players)]
    if len(seats_in) != players:
        raise Invalid("seats", f"one seat per player ({players}), got {len(seats_in)}")
    seats = [_seat(i, seat) for i, seat in enumerate(seats_in)]
    if body.tournament and body.variant != "express":
        raise Invalid("tournament", "tournaments are played in Express")
    return GameSpec(
        variant=Variant.parse(body.variant),
        players=players,
        seats=seats,
        handicap=handicap,
        first=first,
        seed=body.seed,
        public=body.public,
        tournament_target=body.tournament_target if body.tournament else None,
        tournament_wins=(0,) * players if body.tournament else None,
        clock=None if body.clock is None else body.clock.control(),
        position=None if start is None else start.position(),
        maker=_makers_seat(seats_in),
    )


def _seat(i: int, seat: SeatIn) -> SeatSpec:
    where = f"seats.{i}"
    name = (seat.name or "").strip()
    if seat.kind == "computer":
        level = computer_level(seat.level, f"{where}.level")
        name = name or COMPUTER_NAME
    else:
        if seat.level is not None:
            raise Invalid(f"{where}.level", "only a computer seat has a level")
        level = None
        name = name or unnamed_seat(i)
    if not is_text_value(name):
        raise Invalid(f"{where}.name", "a name is one line of printable characters")
    return SeatSpec(seat.kind, name, level)


def _makers_seat(seats: list[SeatIn]) -> int | None:
    """The seat a signed-in maker takes by making the game (WEBAPI.md, "Games of an
    account"): the one marked ``mine``, else the one person's seat of a game with one
    (none marked ``false``), else none (whose each is, the maker did not say)."""
    marked = [i for i, seat in enumerate(seats) if seat.mine]
    if len(marked) > 1:
        raise Invalid("seats", "at most one seat is the maker's (mine: true)")
    for i in marked:
        if seats[i].kind != "human":
            raise Invalid(f"seats.{i}.mine", "only a person's seat is the maker's")
        return i
    people = [i for i, seat in enumerate(seats) if seat.kind == "human"]
    return people[0] if len(people) == 1 and seats[people[0]].mine is None else None


def created(request: Request, live: LiveGame, tokens: list[str | None]) -> JSONResponse:
    base = base_url(request)
    seats = []
    for i, (seat, token) in enumerate(zip(live.stored.seats, tokens, strict=True)):
        entry: dict[str, Any] = {"colour": COLOURS[i], "kind": seat.kind}
        if token is not None:
            entry["join_url"] = f"{base}/play/{live.id}?seat={token}"
        seats.append(entry)
    body = {"id": live.id, "seats": seats, "watch_url": f"{base}/watch/{live.id}"}
    return JSONResponse(body, status_code=201)


@router.post("/games", status_code=201, summary="Create a game", responses=LIMITED)
async def create_game(body: NewGame, request: Request) -> JSONResponse:
    """Create a game; each person's seat gets a join link with its secret (once)."""
    try:
        await limits.count(request, "games")
        spec = spec_of(body)
        spec.owner = client_address(request)
        spec = taken_by(spec, await holder_of(request))
        async with computer_game_room(request, spec):
            live, tokens = await hub_of(request).create(spec)
    except limits.Limited as limited:
        return limited.response()
    return created(request, live, tokens)


@router.post(
    "/games/import", status_code=201, summary="Import a record as a new game", responses=LIMITED
)
async def import_game(body: ImportIn, request: Request) -> JSONResponse:
    """A game record (the text or the JSON form) as a new game, to replay it or to play
    on from its end."""
    try:
        await limits.count(request, "imports")
        await limits.count(request, "games")
    except limits.Limited as limited:
        return limited.response()
    level = computer_level(body.level, "level")
    try:
        records = parse_records_of_either_form(body.record)
        if not records:
            raise TranslatableError("there is no game record in the text")
        if len(records) > 1:
            raise TranslatableError(
                "the text holds {n} games: import one at a time", n=len(records)
            )
        spec = spec_of_record(records[0], body.public, level)
        spec.owner = client_address(request)
        async with computer_game_room(request, spec):
            live, tokens = await hub_of(request).create(spec)
    except (ShiftagoError, ValueError) as error:
        said = error if isinstance(error, TranslatableError) else None
        raise Invalid("record", str(error), said=said) from None
    except limits.Limited as limited:
        return limited.response()
    return created(request, live, tokens)


@router.get("/games", summary="List public games")
async def list_games(
    request: Request,
    public: Annotated[bool, Query(description="only public games are listed")] = True,
    finished: Annotated[bool | None, Query()] = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
) -> dict[str, Any]:
    """The newest public games (never a seat link)."""
    if not public:
        raise Invalid("public", "only public games are listed")
    hub = hub_of(request)
    games = await hub.db(hub.store.listing, finished, limit)
    return {"games": [summary_view(g) for g in games]}


def _pictures(request: Request) -> Pictures:
    """The process's pictures, made at the first one asked for."""
    state = request.app.state
    if getattr(state, "pictures", None) is None:
        state.pictures = Pictures()
    pictures: Pictures = state.pictures
    return pictures


SizeQuery = Annotated[
    int, Query(ge=MIN_SIZE, le=MAX_SIZE, description="width and height in pixels")
]


#: What a request for a picture is told while too many wait to be drawn.
PICTURES_BUSY_WORDS = "too many pictures are being drawn: try again in a few seconds"


async def _picture(
    request: Request, game_id: str, kind: Kind, step: int | None, size: int
) -> Response:
    live = await found(request, game_id)
    try:
        picture = await _pictures(request).of(live, kind, step, size)
    except PicturesBusy:
        answer = {"message": PICTURES_BUSY_WORDS, "code": "busy"}
        return JSONResponse(answer, status_code=503, headers={"Retry-After": "5"})
    return _picture_response(request, picture)


def _picture_response(request: Request, picture: Picture) -> Response:
    headers = {"ETag": picture.etag, "Cache-Control": picture.cache_control}
    if picture.etag in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=headers)
    return Response(picture.data, media_type=picture.media_type, headers=headers)


# Declared before ``/games/{game_id}``, which would otherwise take "<id>.png" as an id.
@router.get(
    "/games/{game_id}.png",
    summary="A position of the game as a PNG picture",
    responses={200: {"content": {"image/png": {}}}},
    response_class=Response,
)
async def game_png(
    game_id: str,
    request: Request,
    step: Annotated[
        int | None, Query(description="actions from the start; the current position if absent")
    ] = None,
    size: SizeQuery = DEFAULT_SIZE,
) -> Response:
    """The board after ``step`` actions, its last action marked, to share."""
    return await _picture(request, game_id, "png", step, size)


@router.get(
    "/games/{game_id}.gif",
    summary="The game as an animated GIF picture",
    responses={200: {"content": {"image/gif": {}}}},
    response_class=Response,
)
async def game_gif(game_id: str, request: Request, size: SizeQuery = DEFAULT_SIZE) -> Response:
    """Every step of the game, one frame each with its action marked, to share."""
    return await _picture(request, game_id, "gif", None, size)


@router.get("/games/{game_id}", summary="Read a game")
async def read_game(game_id: str, request: Request) -> dict[str, Any]:
    """The game as the live protocol's ``GAME`` (a superset of WEBAPI.md's answer)."""
    live = await found(request, game_id)
    async with live.lock:
        return game_view(live)


@router.get(
    "/games/{game_id}/record",
    summary="The game record",
    responses={200: {"content": {"text/plain": {}, "application/json": {}}}},
)
async def game_record(game_id: str, request: Request) -> Response:
    """The record as text, or its JSON form with ``Accept: application/json``."""
    live = await found(request, game_id)
    async with live.lock:
        record = live.record()
    if prefers_json(request.headers.get("accept", "")):
        return JSONResponse(record_to_json(record))
    return PlainTextResponse(format_record(record) + "\n")


@router.get("/games/{game_id}/steps", summary="Every position of the game (replay)")
async def game_steps(game_id: str, request: Request) -> dict[str, Any]:
    """Each position from the start to now, with the action that led to it."""
    live = await found(request, game_id)
    async with live.lock:
        states, actions = live.game.states, live.game.history
    last = [None, *(str(a) for a in actions)]
    return {
        "steps": [
            {"step": n, "position": state.position(), "last": last[n]}
            for n, state in enumerate(states)
        ]
    }


@router.get("/levels", summary="The computer's levels")
async def levels() -> dict[str, Any]:
    return {
        "levels": [{"level": n, "name": name} for n, name in LEVELS],
        "default": default_level(),
        "rules": rules_view(),
    }
