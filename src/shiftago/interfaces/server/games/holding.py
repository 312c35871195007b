"""Seats that belong to accounts: a seat taken while signed in is the account's, and
the account's session then opens it in any browser (docs/web-protocol.md, "Games of an
account").

The games sit below the accounts, so they do not look sessions up themselves: the app
hands in :data:`HolderOf` (``app.state.holder_of``), which says which account a request
or socket is signed in as. A seat token keeps working for players without accounts.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace

from starlette.requests import HTTPConnection

from shiftago.interfaces.server.games import announce
from shiftago.interfaces.server.games.creating import GameSpec
from shiftago.interfaces.server.games.hub import Hub
from shiftago.interfaces.server.games.live import LiveGame, name_with_account


@dataclass(frozen=True)
class Holder:
    """The account a connection is signed in as."""

    id: int
    name: str


#: The account a request or socket is signed in as (None: a guest).
HolderOf = Callable[[HTTPConnection], Awaitable[Holder | None]]


async def holder_of(conn: HTTPConnection) -> Holder | None:
    """The connection's account, by the lookup the app hands in (none in an app
    without accounts)."""
    lookup: HolderOf | None = getattr(conn.app.state, "holder_of", None)
    return None if lookup is None else await lookup(conn)


def seat_of_account(live: LiveGame, account_id: int) -> int | None:
    """The first person's seat of the game that the account holds (None: none)."""
    for i, seat in enumerate(live.stored.seats):
        if seat.kind == "human" and seat.account_id == account_id:
            return i
    return None


def taken_by(spec: GameSpec, holder: Holder | None) -> GameSpec:
    """The game to make, with its maker's seat (``spec.maker``, if it has one) the
    signed-in maker's: a seat taken by making the game is the account's, as one taken by
    its link is (:func:`hold`)."""
    seat = spec.maker
    if seat is None or holder is None:
        return spec
    seats = list(spec.seats)
    seats[seat] = replace(
        seats[seat],
        account_id=holder.id,
        account=holder.name,
        name=name_with_account(seat, seats[seat].name, holder.name),
    )
    return replace(spec, seats=seats)


async def hold(hub: Hub, live: LiveGame, seat: int, holder: Holder | None) -> None:
    """Under the game's lock: the seat just taken by its link becomes ``holder``'s when
    it has no account yet, the game goes on, and the account holds no other seat of it
    (a game played on one screen stays one account's seat and a guest's others)."""
    stored = live.stored
    if (
        holder is None
        or live.over
        or stored.seats[seat].kind != "human"
        or stored.seats[seat].account_id is not None
        or seat_of_account(live, holder.id) is not None
    ):
        return
    # results and a tournament's score name the player
    name = name_with_account(seat, stored.seats[seat].name, holder.name)
    await hub.db(hub.store.hold_seat, live.id, seat, holder.id, name)
    stored.seats[seat] = replace(
        stored.seats[seat], account_id=holder.id, account=holder.name, name=name
    )
    announce.state(live)


__all__ = ["Holder", "HolderOf", "hold", "holder_of", "seat_of_account", "taken_by"]
