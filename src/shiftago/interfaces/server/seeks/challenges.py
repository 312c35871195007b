"""Open challenges (seeks): made, accepted seat by seat, filled into a game, or gone.

A seek is a game that waits for people (docs/web-protocol.md, "Open challenges"). Its
creator takes place 0; each acceptor takes the next free place; the taker of the last
place fills it, and the game is made then, with the seats drawn by lot. Each place has
its own secret (only its SHA-256 is stored), and that secret becomes its seat's secret,
so the link to the game (``/play/{game}?seat={secret}``) is one its holder can make
itself: nothing secret is kept anywhere. A signed-in player's secret is derived from
the session cookie (an HMAC), so that the same session finds its link again.

Who is still there: the pages that hold a place's secret say so on the lobby's socket
(:class:`.feed.Listener`, :mod:`.socket`), and the place's ``seen`` (the seek's,
for its creator) is refreshed while they do. When the creator's page leaves, the seek
is gone after :data:`.feed.LEAVE_GRACE` unless a page holds it again; a sweep
marks gone the seeks whose creator nobody has seen for :data:`UNSEEN_SECONDS` (a
process that died), and frees the places of acceptors nobody has seen for as long (the
seek stays open for others). A script keeps its place by asking for the seek's status
(``GET /api/seeks/{id}``) as often.

Every change is stored first, then announced (:mod:`.feed`).
"""

from __future__ import annotations

import asyncio
import base64
import datetime as dt
import hashlib
import hmac
import logging
import random
from dataclasses import dataclass
from typing import Any, Final

from shiftago.core import Variant
from shiftago.interfaces.server.accounts.store import Account
from shiftago.interfaces.server.db.outage import DATABASE_OUTAGE
from shiftago.interfaces.server.db.store import from_epoch, token_hash
from shiftago.interfaces.server.games.creating import GameSpec, SeatSpec, new_id, new_token
from shiftago.interfaces.server.games.hub import Hub
from shiftago.interfaces.server.games.live import LiveGame
from shiftago.interfaces.server.seeks.feed import LobbyFeed
from shiftago.interfaces.server.seeks.store import (
    PlaceTaken,
    SeekClosed,
    SeekStore,
    StoredPlace,
    StoredSeek,
)
from shiftago.interfaces.shared.newgame import COMPUTER_NAME
from shiftago.match.clock import TimeControl
from shiftago.match.glicko2 import provisional

log = logging.getLogger("shiftago.server")

#: How often the held seeks are marked seen, and the sweep looks for unseen ones.
REFRESH_SECONDS: Final = 10.0
#: A seek whose creator nobody has seen for this long is gone; an acceptor's place
#: nobody has seen for as long is freed.
UNSEEN_SECONDS: Final = 30.0
#: A challenge to a named player that is neither accepted nor declined this long after
#: it was made is gone (its creator may be away meanwhile: it waits for that player).
CHALLENGE_LIFE_SECONDS: Final = 7 * 24 * 3600.0
#: The open seeks listed at most.
MAX_LISTED: Final = 200


class SeekRefused(Exception):
    """A request about a seek that changes nothing: its HTTP status, code and words."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


@dataclass(frozen=True)
class NewSeek:
    """What a creator asks for, checked by the API before it comes here."""

    variant: Variant
    players: int
    control: TimeControl | None
    rated: bool
    rating_range: tuple[int, int] | None
    name: str
    account: Account | None
    owner: str | None
    session: str | None  # the session cookie's secret, when signed in
    #: Seats the computer plays (3-4 players), at ``computer_level``.
    computers: int = 0
    computer_level: int | None = None

    def opened(
        self, stamp: dt.datetime, to_account_id: int | None = None
    ) -> tuple[StoredSeek, str]:
        """The open seek (a challenge when ``to_account_id``) with its creator in place 0,
        and the creator's secret: one shape for the lobby's seeks and named challenges."""
        seek_id = new_id()
        token = place_token(self.session, seek_id)
        low, high = self.rating_range if self.rating_range is not None else (None, None)
        account_id = None if self.account is None else self.account.id
        place = StoredPlace(0, self.name, account_id, token_hash(token), stamp, stamp)
        seek = StoredSeek(
            id=seek_id,
            variant=self.variant.value,
            players=self.players,
            control=self.control,
            rated=self.rated,
            rating_min=low,
            rating_max=high,
            status="open",
            game_id=None,
            owner=self.owner,
            created=stamp,
            seen=stamp,
            places=(place,),
            to_account_id=to_account_id,
            computers=self.computers,
            computer_level=self.computer_level,
        )
        return seek, token


@dataclass(frozen=True)
class Accepted:
    """An accepted seek: the acceptor's secret, and the game when this filled it."""

    seek: StoredSeek
    token: str
    game: LiveGame | None


def place_token(session: str | None, seek_id: str) -> str:
    """A place's secret: random for a guest; for a signed-in player, derived from the
    session's secret, so that the session can make the game's link again."""
    if session is None:
        return new_token()
    digest = hmac.new(session.encode(), f"shiftago seek {seek_id}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(digest.digest()[:24]).decode().rstrip("=")


def clock_view(control: TimeControl | None) -> dict[str, Any] | None:
    if control is None:
        return None
    if control.days is not None:
        return {"days": control.days}
    return {"initial": control.initial, "increment": control.increment}


def seek_view(seek: StoredSeek, ratings: dict[int, tuple[float, float]]) -> dict[str, Any]:
    """A seek as the lobby lists it: never a secret, and no address."""
    places = []
    for place in seek.places:
        entry: dict[str, Any] = {"name": place.name}
        if seek.rated:
            found = None if place.account_id is None else ratings.get(place.account_id)
            # as players show it: rounded, with a "?" while provisional
            entry["rating"] = None if found is None else round(found[0], 2)
            entry["provisional"] = None if found is None else provisional(found[1])
        places.append(entry)
    has_range = seek.rating_min is not None and seek.rating_max is not None
    return {
        "id": seek.id,
        "variant": seek.variant,
        "players": seek.players,
        "clock": clock_view(seek.control),
        "speed": "untimed" if seek.control is None else seek.control.speed,
        "rated": seek.rated,
        "category": seek.category,
        "rating_range": [seek.rating_min, seek.rating_max] if has_range else None,
        "places": places,
        "computers": seek.computers,
        "computer_level": seek.computer_level,
        "created": seek.created.isoformat(),
    }


class Seeks:
    """The seeks of the server: their rules, and who is still at them."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.store = SeekStore(hub.store)
        #: This process's lobby sockets: the places they hold, and what they hear.
        self.feed = LobbyFeed(hub, self.store)

    def _now(self) -> dt.datetime:
        return from_epoch(self.hub.now())

    # --- reading ---------------------------------------------------------------------
    async def view(self, seek: StoredSeek) -> dict[str, Any]:
        return (await self.views([seek]))[0]

    async def views(self, seeks: list[StoredSeek]) -> list[dict[str, Any]]:
        """The seeks' views, with the ratings of the rated ones' players."""
        views = []
        for seek in seeks:
            accounts = [p.account_id for p in seek.places if p.account_id is not None]
            ratings = (
                await self.hub.db(self.store.ratings, accounts, seek.category) if seek.rated else {}
            )
            views.append(seek_view(seek, ratings))
        return views

    async def listing(self) -> list[dict[str, Any]]:
        return await self.views(await self.hub.db(self.store.open_seeks, MAX_LISTED))

    async def load(self, seek_id: str) -> StoredSeek:
        seek = await self.hub.db(self.store.load, seek_id) if len(seek_id) <= 24 else None
        if seek is None:
            raise SeekRefused(404, "not_found", f"there is no challenge {seek_id!r}")
        return seek

    async def held(
        self, seek_id: str, token: str | None, account: Account | None, session: str | None
    ) -> tuple[StoredSeek, StoredPlace, str | None]:
        """The seek, the place of the asker (by its secret, or by its account) and the
        place's secret where the asker has it; one who asks is still there."""
        seek = await self.load(seek_id)
        place = None
        if token:
            place = seek.place_of(token_hash(token))
        elif account is not None:
            place = next((p for p in seek.places if p.account_id == account.id), None)
            token = place_token(session, seek.id) if session is not None else None
            if place is not None and (token is None or token_hash(token) != place.token_hash):
                token = None  # another session: the place is the account's, the link not here
        if place is None:
            raise SeekRefused(403, "not_yours", "you hold no place in this challenge")
        if seek.status == "open":
            await self.feed.still_there([(seek.id, place.place)])
        return seek, place, token

    # --- changing ----------------------------------------------------------------------
    async def create(self, new: NewSeek) -> tuple[StoredSeek, str]:
        """Store a new seek with its creator in place 0; the seek and the creator's secret."""
        seek, token = new.opened(self._now())
        await self.hub.db(self.store.insert, seek)
        await self.feed.seek(await self.view(seek))
        return seek, token

    async def accept(
        self,
        seek_id: str,
        name: str,
        account: Account | None,
        held_token: str | None,
        session: str | None,
    ) -> Accepted:
        """Take the next free place of an open seek for the asker; the taker of the last
        place makes the game. Refused: a seek not open or full (409), rated without an
        account (401), the asker's own seek (409), a rating outside its range (403)."""
        seek = await self.load(seek_id)
        self.check_open(seek)
        if seek.to_account_id is not None and (account is None or account.id != seek.to_account_id):
            raise SeekRefused(403, "not_yours", "this challenge is for another player")
        if seek.rated and account is None:
            raise SeekRefused(401, "sign_in", "a rated challenge is for signed-in players")
        own = account is not None and any(p.account_id == account.id for p in seek.places)
        if own or (held_token and seek.place_of(token_hash(held_token)) is not None):
            raise SeekRefused(409, "own", "you already hold a place in this challenge")
        if account is not None and seek.rating_min is not None and seek.rating_max is not None:
            ratings = await self.hub.db(self.store.ratings, [account.id], seek.category)
            rating = ratings[account.id][0]
            if not seek.rating_min <= rating <= seek.rating_max:
                raise SeekRefused(
                    403,
                    "rating_range",
                    f"this challenge is for ratings {seek.rating_min}-{seek.rating_max}; "
                    f"yours in {seek.category} is {rating:.0f}",
                )
        token = place_token(session, seek.id)
        stamp = self._now()
        account_id = None if account is None else account.id
        mine = StoredPlace(0, name, account_id, token_hash(token), stamp, stamp)
        seek, filled = await self._take(seek, mine)
        if not filled and seek.to_account_id is None:
            await self.feed.seek(await self.view(seek))
            return Accepted(seek, token, None)
        return Accepted(seek, token, await self._fill(seek))

    async def _take(self, seek: StoredSeek, mine: StoredPlace) -> tuple[StoredSeek, bool]:
        """Store the place; a place taken by another at the same moment is tried again
        with the next free one, so only the taker of the last place is refused."""
        for _ in range(seek.people):
            try:
                return await self.hub.db(self.store.take_place, seek.id, mine)
            except SeekClosed as closed:
                self.check_open(closed.status)
            except PlaceTaken:
                continue
        raise SeekRefused(409, "filled", "another player took the last place first")

    @staticmethod
    def check_open(seek: StoredSeek | str) -> None:
        """:class:`SeekRefused` (409) saying why a seek, or its status, is not open."""
        status = seek if isinstance(seek, str) else seek.status
        if status == "filled":
            raise SeekRefused(409, "filled", "this challenge is full: another player was first")
        if status == "declined":
            raise SeekRefused(409, "declined", "this challenge was declined")
        if status != "open":
            raise SeekRefused(409, "gone", "this challenge is gone: its creator left or cancelled")

    async def _fill(self, seek: StoredSeek) -> LiveGame:
        """Make the filled seek's game: a public game whose seats, drawn by lot (the
        computer's among them), carry the places' secrets (hashed) and accounts; then
        every holder hears where it is."""
        seats = [
            SeatSpec(
                "human",
                p.name,
                token_hash=p.token_hash,
                account_id=p.account_id,
                account=p.name if p.account_id is not None else None,
            )
            for p in seek.places
        ]
        computer = seek.computer_level
        seats += [SeatSpec("computer", COMPUTER_NAME, computer) for _ in range(seek.computers)]
        random.SystemRandom().shuffle(seats)
        spec = GameSpec(
            variant=Variant.parse(seek.variant),
            players=seek.players,
            seats=seats,
            public=True,
            owner=seek.owner,
            clock=seek.control,
            opened=True,
            rated=seek.rated,
        )
        try:
            live, _ = await self.hub.create(spec)
        except Exception:
            log.exception("the game of the filled challenge %s could not be made", seek.id)
            await self._abandon_now(seek.id)
            raise
        await self.hub.db(self.store.set_game, seek.id, live.id)
        await self.feed.filled(seek.id, live.id)
        return live

    async def _abandon_now(self, seek_id: str) -> None:
        """A filled seek whose game could not be made is gone."""
        if await self.hub.db(self.store.abandon, seek_id, self._now() + dt.timedelta(days=1)):
            await self.feed.gone(seek_id)

    async def cancel(self, seek_id: str, place: StoredPlace) -> None:
        """The creator takes the seek back (place 0); it is gone for everyone."""
        if place.place != 0:
            raise SeekRefused(403, "not_creator", "only the challenge's creator cancels it")
        if not await self.hub.db(self.store.close, seek_id, None):
            self.check_open(await self.load(seek_id))
        await self.feed.gone(seek_id)

    # --- the sweep -----------------------------------------------------------------------
    async def sweep(self, now: float | None = None) -> int:
        """Mark gone the seeks whose creator nobody has seen for :data:`UNSEEN_SECONDS`
        and the challenges to a named player older than :data:`CHALLENGE_LIFE_SECONDS`
        (at ``now``, the time of the hub's clocks by default), and free the acceptors'
        places nobody has seen for as long (each seek stays open for others); how many
        seeks and places this call changed."""
        at = self.hub.now() if now is None else now
        before = from_epoch(at - UNSEEN_SECONDS)
        made_before = from_epoch(at - CHALLENGE_LIFE_SECONDS)
        changed = 0
        for seek_id in await self.hub.db(self.store.unseen, before, made_before):
            if await self.hub.db(self.store.abandon, seek_id, before, made_before):
                await self.feed.gone(seek_id)
                changed += 1
        for seek_id, place in await self.hub.db(self.store.unseen_places, before):
            seek = await self.hub.db(self.store.free_place, seek_id, place, before)
            if seek is not None:
                log.info("place %d of challenge %s is freed: nobody was there", place, seek_id)
                await self.feed.seek(await self.view(seek))
                changed += 1
        return changed

    async def run(self) -> None:
        """Refresh the held places and sweep the unseen ones, every so often (a task of
        the runtime; every process does it, and each change is made once)."""
        while True:
            await asyncio.sleep(REFRESH_SECONDS)
            with DATABASE_OUTAGE.watching("the seeks' sweep"):
                await self.feed.refresh()
                await self.sweep()

    async def close(self) -> None:
        """Stop the lobby's timers (shutting down)."""
        await self.feed.close()


__all__ = [
    "UNSEEN_SECONDS",
    "Accepted",
    "NewSeek",
    "SeekRefused",
    "Seeks",
    "clock_view",
    "place_token",
    "seek_view",
]
