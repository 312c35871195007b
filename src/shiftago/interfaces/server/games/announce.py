"""What a game's sockets hear of a change, once it is stored: the action, a take-back,
the whole state, where the rematch is, and what a socket missed (docs/web-protocol.md)."""

from __future__ import annotations

from typing import Any

from shiftago.core import Action
from shiftago.interfaces.server.games.live import Connection, LiveGame
from shiftago.interfaces.server.games.views import action_event, action_message, game_view

#: A client that missed more actions than this gets one ``state`` instead of each action.
MAX_REPLAYED = 20


def state(live: LiveGame) -> None:
    live.broadcast({"type": "state", "version": live.version, "game": game_view(live)})


def action(live: LiveGame, number: int, played: Action, seat: int) -> None:
    live.broadcast(action_message(number, str(played), seat, game_view(live)))


def takeback(live: LiveGame, version: int) -> None:
    live.broadcast({"type": "takeback", "version": version, "game": game_view(live)})


def reloaded(live: LiveGame, before: list[str], terminated: bool) -> None:
    """The game was read again: its sockets hear the actions that follow on from
    ``before`` (the actions held until then), a take-back, or the whole state."""
    after = live.stored.actions
    follows_on = after[: len(before)] == before and live.terminated == terminated
    if follows_on and 0 < len(after) - len(before) <= MAX_REPLAYED:
        for number in range(len(before) + 1, len(after) + 1):
            live.broadcast(action_event(live, number))
        return
    if before[: len(after)] == after and len(after) < len(before):
        takeback(live, len(after))
        return
    state(live)


def catch_up(live: LiveGame, connection: Connection, seen: int) -> None:
    """Send a connection what it missed since ``seen`` actions (see the protocol)."""
    for message in catch_up_messages(live, seen):
        connection.send(message)


def catch_up_messages(live: LiveGame, seen: int) -> list[dict[str, Any]]:
    """What a connection that has seen ``seen`` actions missed: nothing, the actions
    since, or (too many, or more than there are) the whole state."""
    version = live.version
    if seen == version:
        return []
    if seen > version or version - seen > MAX_REPLAYED:
        return [{"type": "state", "version": version, "game": game_view(live)}]
    return [action_event(live, number) for number in range(seen + 1, version + 1)]


def rematch(live: LiveGame, next_id: str) -> None:
    """Tell each socket of the game where the rematch is: its own seat's link, the
    game's page for a seat held by an account (the rematch keeps the seat's account,
    which the page's session plays in any browser), else the spectators' page."""
    for connection in list(live.connections):
        if connection.seat is not None and connection.token is not None:
            url = f"/play/{next_id}?seat={connection.token}"
        elif connection.seat is not None:
            url = f"/play/{next_id}"
        else:
            url = f"/watch/{next_id}"
        connection.send({"type": "rematch", "id": next_id, "url": url})
