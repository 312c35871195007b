"""How every feature's routes reach the games: the hub, a game by its id (404 when there
is none), and room for a new game under the caps on games without a person."""

from __future__ import annotations

import contextlib
from contextlib import AbstractAsyncContextManager

from fastapi import Request

from shiftago.interfaces.server.door import limits
from shiftago.interfaces.server.games.creating import GameSpec
from shiftago.interfaces.server.games.hub import Hub
from shiftago.interfaces.server.games.live import LiveGame


class NotFound(Exception):
    """No game of that id: answered 404."""

    def __init__(self, game_id: str) -> None:
        super().__init__(f"there is no game {game_id!r}")


def hub_of(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


async def found(request: Request, game_id: str) -> LiveGame:
    """The game as stored now (:meth:`.Hub.current`), for a route that reads it."""
    live = await hub_of(request).current(game_id)
    if live is None:
        raise NotFound(game_id)
    return live


def computer_game_room(request: Request, spec: GameSpec) -> AbstractAsyncContextManager[None]:
    """Room for ``spec`` under the caps on unfinished games without a person
    (:func:`.limits.computer_game_room`), held until the game is stored; a game with a
    person needs none."""
    if any(seat.kind == "human" for seat in spec.seats):
        return contextlib.nullcontext()
    hub = hub_of(request)

    async def unfinished(owner: str | None) -> int:
        return await hub.db(hub.store.unfinished_without_human, owner)

    return limits.computer_game_room(request, unfinished, spec.owner)


__all__ = ["NotFound", "computer_game_room", "found", "hub_of"]
