"""Challenges to a named player (docs/web-protocol.md, "Challenges to a player"): a
seek addressed to one account. Its creator holds place 0 as in any seek; the lobby does
not list it and it waits while its creator is away (:mod:`.store`); only the account it
is for accepts it (which fills it: two players, so both seats belong to accounts) or
declines it; its creator cancels it. Both players see it by asking
(``GET /api/challenges``), the pages every few seconds.
"""

from __future__ import annotations

from typing import Any, Final

from shiftago.interfaces.server.accounts.store import Account
from shiftago.interfaces.server.db.store import from_epoch
from shiftago.interfaces.server.seeks.challenges import (
    NewSeek,
    SeekRefused,
    Seeks,
    clock_view,
)
from shiftago.interfaces.server.seeks.store import StoredSeek

#: The open challenges one account may have sent at once.
MAX_SENT: Final = 20
#: The challenges listed at most, each way.
MAX_LISTED: Final = 50


def named_view(seek: StoredSeek, names: dict[int, str], base: str) -> dict[str, Any]:
    """A challenge as both of its players see it (never a secret); ``url`` opens the
    game once it is accepted (each player's session is the seat's credential)."""
    status = seek.status
    if status == "filled" and seek.game_id is None:
        status = "open"  # the game is being made
    to = names.get(seek.to_account_id or 0, "")
    return {
        "id": seek.id,
        "from": seek.places[0].name if seek.places else "",
        "to": to,
        "variant": seek.variant,
        "players": seek.players,
        "clock": clock_view(seek.control),
        "rated": seek.rated,
        "status": "accepted" if status == "filled" else status,
        "url": None if seek.game_id is None else f"{base}/play/{seek.game_id}",
        "created": seek.created.isoformat(),
    }


class Named:
    """The challenges to named players, on the server's seeks."""

    def __init__(self, seeks: Seeks) -> None:
        self.seeks = seeks
        self.hub = seeks.hub
        self.store = seeks.store

    async def views(self, seeks: list[StoredSeek], base: str) -> list[dict[str, Any]]:
        ids = sorted({s.to_account_id for s in seeks if s.to_account_id is not None})
        names = await self.hub.db(self.store.names_of, ids)
        return [named_view(seek, names, base) for seek in seeks]

    async def create(self, new: NewSeek, to: Account) -> StoredSeek:
        """Store a challenge from ``new.account`` to ``to``: 409 to oneself or past
        :data:`MAX_SENT` open ones."""
        account = new.account
        if account is None:
            raise SeekRefused(401, "sign_in", "sign in to challenge a player")
        if account.id == to.id:
            raise SeekRefused(409, "own", "you cannot challenge yourself")
        _received, sent = await self.hub.db(self.store.addressed, account.id, MAX_SENT)
        if len(sent) >= MAX_SENT:
            raise SeekRefused(
                409, "too_many_challenges", f"you have {MAX_SENT} open challenges: cancel one first"
            )
        seek, _token = new.opened(from_epoch(self.hub.now()), to_account_id=to.id)
        await self.hub.db(self.store.insert, seek)
        return seek

    async def listing(self, account: Account) -> tuple[list[StoredSeek], list[StoredSeek]]:
        """The open challenges the account received, and those it sent."""
        received, sent = await self.hub.db(self.store.addressed, account.id, MAX_LISTED)
        return received, sent

    async def one(self, seek_id: str, account: Account) -> StoredSeek:
        """A challenge of the account's (sent or received): 404 for any other."""
        seek = await self.seeks.load(seek_id)
        sender = seek.places[0].account_id if seek.places else None
        if seek.to_account_id is None or account.id not in (seek.to_account_id, sender):
            raise SeekRefused(404, "not_found", f"there is no challenge {seek_id!r} of yours")
        return seek

    async def decline(self, seek_id: str, account: Account) -> StoredSeek:
        """The player it is for says no: it is gone for both."""
        seek = await self.one(seek_id, account)
        if seek.to_account_id != account.id:
            raise SeekRefused(403, "not_yours", "only the challenged player declines")
        if not await self.hub.db(self.store.close, seek_id, None, "declined"):
            Seeks.check_open(await self.seeks.load(seek_id))
        return await self.seeks.load(seek_id)

    async def cancel(self, seek_id: str, account: Account) -> None:
        """Its creator takes it back."""
        seek = await self.one(seek_id, account)
        if seek.places[0].account_id != account.id:
            raise SeekRefused(403, "not_creator", "only the challenge's creator cancels it")
        await self.seeks.cancel(seek_id, seek.places[0])


__all__ = ["MAX_SENT", "Named", "named_view"]
