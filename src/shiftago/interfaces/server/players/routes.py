"""Players, ratings and the leaderboard over HTTP (WEBAPI.md, "Players"): what the
profile page, the leaderboard page and the end of a rated game show."""

from __future__ import annotations

import re
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response

from shiftago.core import COLOURS
from shiftago.formats.record import Record, format_records
from shiftago.interfaces.server.accounts.accounts import signed_in
from shiftago.interfaces.server.accounts.store import Account, find_account
from shiftago.interfaces.server.door.http import Invalid
from shiftago.interfaces.server.games.access import hub_of
from shiftago.interfaces.server.games.live import ABORTED, LiveGame
from shiftago.interfaces.server.games.store import Store
from shiftago.interfaces.server.games.stored import StoredGame
from shiftago.interfaces.server.players import ratings
from shiftago.interfaces.server.players import store as players_store
from shiftago.match.glicko2 import provisional

router = APIRouter(prefix="/api")

VARIANTS = ("express", "expert", "extreme")
#: Every rating category, in the order the pages show them.
CATEGORIES = tuple(players_store.category(v, n) for v in VARIANTS for n in (2, 3, 4))
#: The games a player's answer lists at most.
GAMES_LISTED = 100
#: The games one download of a player's records holds at most.
RECORDS_AT_MOST = 500
#: The names "Find a player" offers at most.
NAMES_OFFERED = 10
LEADERS = 50
#: What may begin a name (accounts.check_name: a-z, digits, _ and -).
NAME_PREFIX = re.compile(r"[a-z0-9_-]+")


#: A game's rating before and after it, and the deviation after (None where unrated).
Change = tuple[float | None, float | None, float | None]


def recent_games_of(
    store: Store, account_id: int, limit: int, every: bool
) -> list[tuple[StoredGame, Change]]:
    """The account's newest games that its profile lists (seats without their secrets,
    no actions), each with its rating before and after the game when it was rated."""
    games = store.games_of_account(account_id, limit, every)
    found = players_store.rating_changes_of(store, account_id, [game.id for game in games])
    changes: dict[str, Change] = dict(found)
    return [(game, changes.get(game.id, (None, None, None))) for game in games]


def records_of(store: Store, account_id: int, limit: int, every: bool) -> list[Record]:
    """The records of the account's newest games that its profile lists (all of its
    games with ``every``), newest first, read whole from the store together."""
    game_ids = store.game_ids_of_account(account_id, limit, every)
    return [LiveGame.load(stored).record() for stored in store.load_many(game_ids)]


async def _account(request: Request, name: str) -> Account | None:
    hub = hub_of(request)
    return await hub.db(find_account, hub.store, name) if len(name) <= 40 else None


async def _own(request: Request, account: Account) -> bool:
    """Whether the player asks about themself: their unlisted games are theirs to see."""
    signed = await signed_in(request)
    return signed is not None and signed.id == account.id


def _no_player(name: str) -> JSONResponse:
    message = f"there is no player {name!r}"
    return JSONResponse(
        {"message": message, "detail": message, "code": "not_found"}, status_code=404
    )


def _category(text: str) -> str:
    if text not in CATEGORIES:
        raise Invalid("category", f"one of {', '.join(CATEGORIES)}")
    return text


def _outcome(game: StoredGame, account: str) -> tuple[str | None, str | None]:
    """The account's colour in the game and how it ended for it: win, loss, draw (every
    seat shares it), shared (a win some seats share, as a resignation with 3-4 players
    leaves it), aborted, or None (not over)."""
    colours = [COLOURS[i] for i, s in enumerate(game.seats) if s.account == account]
    colour = colours[0] if colours else None
    words = game.status.split()
    if game.finished and words[1:2] == [ABORTED]:
        return colour, ABORTED
    if not game.finished or len(words) < 3 or words[1] not in ("winner", "draw"):
        return colour, None
    winners = words[2:]
    if colour not in winners:
        return colour, "loss"
    if len(winners) == 1:
        return colour, "win"
    return colour, "draw" if len(winners) == len(game.seats) else "shared"


@router.get("/players/{name}", summary="A player's ratings and games")
async def player(name: str, request: Request) -> Any:
    """``{"name", "ratings": {category: {"rating", "deviation", "games", "provisional"}},
    "games": [ids, newest first], "closed"}``, every category (one not played yet at its start, 0
    games); 404 for an unknown name."""
    account = await _account(request, name)
    if account is None:
        return _no_player(name)
    hub = hub_of(request)
    standings = await hub.db(players_store.ratings_of, hub.store, account.id)
    every = await _own(request, account)
    games = await hub.db(hub.store.game_ids_of_account, account.id, GAMES_LISTED, every)
    played = {r.category: r.view() for r in standings}
    return {
        "name": account.name,
        "ratings": {
            category: played.get(category) or ratings.unplayed_view() for category in CATEGORIES
        },
        "games": games,
        "closed": account.closed,
    }


@router.get(
    "/players/{name}/records",
    summary="A player's games as one file of records",
    responses={200: {"content": {"text/plain": {}}}},
)
async def records(
    name: str,
    request: Request,
    limit: Annotated[int, Query(ge=1, le=RECORDS_AT_MOST)] = GAMES_LISTED,
) -> Response:
    """The records of the player's newest games (those the profile lists; signed in as
    the player, all of them), newest first, as one text file to download: what
    ``shiftago analyse`` and ``shiftago play --load`` read (docs/records.md)."""
    account = await _account(request, name)
    if account is None:
        return _no_player(name)
    hub = hub_of(request)
    every = await _own(request, account)
    found = await hub.db(records_of, hub.store, account.id, limit, every)
    headers = {"Content-Disposition": f'attachment; filename="{account.name}-shiftago.txt"'}
    if every:
        headers["Cache-Control"] = "no-store"  # unlisted games: for this browser only
    return PlainTextResponse(format_records(found), headers=headers)


@router.get("/players", summary="The players whose names start with a prefix")
async def players_named(
    request: Request,
    prefix: Annotated[str, Query(min_length=1, max_length=20)],
    limit: Annotated[int, Query(ge=1, le=NAMES_OFFERED)] = NAMES_OFFERED,
) -> Any:
    """``{"players": [names]}``: the open accounts whose names start with ``prefix`` (any
    case), alphabetical; what the leaderboard page's "Find a player" offers."""
    wanted = prefix.lower()
    if not NAME_PREFIX.fullmatch(wanted):
        raise Invalid("prefix", "a name has only the letters a-z, digits, _ and -")
    hub = hub_of(request)
    return {"players": await hub.db(players_store.names_starting, hub.store, wanted, limit)}


@router.get("/players/{name}/history", summary="A player's rating after each rated game")
async def history(
    name: str,
    request: Request,
    category: Annotated[str, Query(max_length=16)] = "express-2",
    limit: Annotated[int, Query(ge=1, le=1000)] = 200,
) -> Any:
    kind = _category(category)
    account = await _account(request, name)
    if account is None:
        return _no_player(name)
    hub = hub_of(request)
    points = await hub.db(players_store.history_of, hub.store, account.id, kind, limit)
    return {"name": account.name, "category": kind, "history": points}


@router.get("/players/{name}/games", summary="A player's recent games and results")
async def recent(
    name: str, request: Request, limit: Annotated[int, Query(ge=1, le=100)] = 20
) -> Any:
    account = await _account(request, name)
    if account is None:
        return _no_player(name)
    hub = hub_of(request)
    every = await _own(request, account)
    found = await hub.db(recent_games_of, hub.store, account.id, limit, every)
    games = []
    for game, (before, after, deviation) in found:
        colour, outcome = _outcome(game, account.name)
        games.append(
            {
                "id": game.id,
                "category": players_store.category(game.variant, game.players),
                "rated": game.rated,
                "created": game.created.isoformat(),
                "finished": game.finished,
                "colour": colour,
                "outcome": outcome,
                "opponents": [s.account or s.name for s in game.seats if s.account != account.name],
                # every seat, so that a page can say a name the server gave in its words
                "seats": [
                    {"colour": COLOURS[i], "name": s.name, "kind": s.kind, "account": s.account}
                    for i, s in enumerate(game.seats)
                ],
                "rating_before": None if before is None else round(before, 2),
                "rating_after": None if after is None else round(after, 2),
                "provisional_after": None if deviation is None else provisional(deviation),
                "watch_url": f"/watch/{game.id}",
            }
        )
    return {"name": account.name, "games": games}


@router.get("/leaderboard/{category}", summary="The best settled ratings of a category")
async def leaders(category: str, request: Request) -> dict[str, Any]:
    """The top 50 ratings that are not provisional, best first."""
    kind = _category(category)
    hub = hub_of(request)
    found = await hub.db(players_store.leaderboard, hub.store, kind, LEADERS)
    return {
        "category": kind,
        "categories": list(CATEGORIES),
        "players": [{"name": r.name, **r.view()} for r in found],
    }


@router.get("/games/{game_id}/ratings", summary="What a rated game did to the ratings")
async def game_ratings(game_id: str, request: Request) -> dict[str, Any]:
    """``{"changes": [{"colour", "name", "before", "after", "deviation", "provisional"}]}``;
    empty when
    the game is not rated (or not yet)."""
    hub = hub_of(request)
    changes = await hub.db(players_store.changes_of_game, hub.store, game_id)
    return {"changes": [c.view() for c in changes]}
