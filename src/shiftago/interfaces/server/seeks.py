"""Open challenges (seeks): made, accepted seat by seat, filled into a game, or gone.

A seek is a game that waits for people (docs/web-protocol.md, "Open challenges"). Its
creator takes place 0; each acceptor takes the next free place; the taker of the last
place fills it, and the game is made then, with the seats drawn by lot. Each place has
its own secret (only its SHA-256 is stored), and that secret becomes its seat's secret,
so the link to the game (``/play/{game}?seat={secret}``) is one its holder can make
itself: nothing secret is kept anywhere. A signed-in player's secret is derived from
the session cookie (an HMAC), so that the same session finds its link again.

Who is still there: the pages that hold a seek's secret say so on the lobby's socket
(:class:`Listener`, :mod:`.lobby`). While the creator's page holds it, its ``seen`` is
refreshed; when that page leaves, the seek is gone after :data:`LEAVE_GRACE` unless a
page holds it again (a reload); a sweep marks gone the seeks nobody has seen for
:data:`UNSEEN_SECONDS` (a process that died). A script keeps its seek open by asking
for its status (``GET /api/seeks/{id}``) as often.

Every change is stored first, then announced to this process's lobby sockets and, over
the bus, to the other processes' (``kind: lobby`` events, :meth:`Hub.on_event`).
"""

from __future__ import annotations

import asyncio
import base64
import datetime as dt
import hashlib
import hmac
import logging
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from shiftago.core import Variant
from shiftago.interfaces.server.accounts import Account
from shiftago.interfaces.server.bus import Event
from shiftago.interfaces.server.creating import GameSpec, SeatSpec, new_id, new_token
from shiftago.interfaces.server.hub import Hub
from shiftago.interfaces.server.live import LiveGame
from shiftago.interfaces.server.seek_store import (
    PlaceTaken,
    SeekClosed,
    SeekStore,
    StoredPlace,
    StoredSeek,
)
from shiftago.interfaces.server.store import from_epoch, token_hash
from shiftago.match.clock import TimeControl

log = logging.getLogger("shiftago.server")

#: Seconds a seek outlives its creator's page (a reload holds it again in time).
LEAVE_GRACE: Final = 5.0
#: How often the held seeks are marked seen, and the sweep looks for unseen ones.
REFRESH_SECONDS: Final = 10.0
#: A seek nobody has held or asked about for this long is gone.
UNSEEN_SECONDS: Final = 30.0
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


@dataclass(frozen=True)
class Accepted:
    """An accepted seek: the acceptor's secret, and the game when this filled it."""

    seek: StoredSeek
    token: str
    game: LiveGame | None


class Listener:
    """A lobby socket as the seeks see it: where its events go, and the seeks whose
    secrets its page holds (seek id -> (secret, place))."""

    def __init__(self, send: Callable[[dict[str, Any]], None]) -> None:
        self.send = send
        self.holds: dict[str, tuple[str, int]] = {}


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


def seek_view(seek: StoredSeek, ratings: dict[int, float]) -> dict[str, Any]:
    """A seek as the lobby lists it: never a secret, and no address."""
    places = []
    for place in seek.places:
        entry: dict[str, Any] = {"name": place.name}
        if seek.rated:
            entry["rating"] = None if place.account_id is None else ratings.get(place.account_id)
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
        "created": seek.created.isoformat(),
    }


class Seeks:
    """The seeks of the server, and this process's lobby sockets."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.store = SeekStore(hub.store)
        self.listeners: set[Listener] = set()
        self._graces: dict[str, asyncio.TimerHandle] = {}
        self._checks: set[asyncio.Task[None]] = set()
        hub.event_hooks["lobby"] = self._on_event

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
        place's secret where the asker has it; a creator who asks is still there."""
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
        if place.place == 0 and seek.status == "open":
            await self.hub.db(self.store.touch, [seek.id], self._now())
        return seek, place, token

    # --- changing ----------------------------------------------------------------------
    async def create(self, new: NewSeek) -> tuple[StoredSeek, str]:
        """Store a new seek with its creator in place 0; the seek and the creator's secret."""
        seek_id = new_id()
        token = place_token(new.session, seek_id)
        stamp = self._now()
        low, high = new.rating_range if new.rating_range is not None else (None, None)
        account_id = None if new.account is None else new.account.id
        place = StoredPlace(0, new.name, account_id, token_hash(token), stamp)
        seek = StoredSeek(
            id=seek_id,
            variant=new.variant.value,
            players=new.players,
            control=new.control,
            rated=new.rated,
            rating_min=low,
            rating_max=high,
            status="open",
            game_id=None,
            owner=new.owner,
            created=stamp,
            seen=stamp,
            places=(place,),
        )
        await self.hub.db(self.store.insert, seek)
        await self.announce({"event": "seek", "seek": await self.view(seek)})
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
        self._check_open(seek)
        if seek.rated and account is None:
            raise SeekRefused(401, "sign_in", "a rated challenge is for signed-in players")
        own = account is not None and any(p.account_id == account.id for p in seek.places)
        if own or (held_token and seek.place_of(token_hash(held_token)) is not None):
            raise SeekRefused(409, "own", "you already hold a place in this challenge")
        if account is not None and seek.rating_min is not None and seek.rating_max is not None:
            ratings = await self.hub.db(self.store.ratings, [account.id], seek.category)
            rating = ratings[account.id]
            if not seek.rating_min <= rating <= seek.rating_max:
                raise SeekRefused(
                    403,
                    "rating_range",
                    f"this challenge is for ratings {seek.rating_min}-{seek.rating_max}; "
                    f"yours in {seek.category} is {rating:.0f}",
                )
        token = place_token(session, seek.id)
        mine = StoredPlace(
            0, name, None if account is None else account.id, token_hash(token), self._now()
        )
        seek, filled = await self._take(seek, mine)
        if not filled:
            await self.announce({"event": "seek", "seek": await self.view(seek)})
            return Accepted(seek, token, None)
        return Accepted(seek, token, await self._fill(seek))

    async def _take(self, seek: StoredSeek, mine: StoredPlace) -> tuple[StoredSeek, bool]:
        """Store the place; a place taken by another at the same moment is tried again
        with the next free one, so only the taker of the last place is refused."""
        for _ in range(seek.players):
            try:
                return await self.hub.db(self.store.take_place, seek.id, mine)
            except SeekClosed as closed:
                self._check_open(closed.status)
            except PlaceTaken:
                continue
        raise SeekRefused(409, "filled", "another player took the last place first")

    @staticmethod
    def _check_open(seek: StoredSeek | str) -> None:
        status = seek if isinstance(seek, str) else seek.status
        if status == "filled":
            raise SeekRefused(409, "filled", "this challenge is full: another player was first")
        if status != "open":
            raise SeekRefused(409, "gone", "this challenge is gone: its creator left or cancelled")

    async def _fill(self, seek: StoredSeek) -> LiveGame:
        """Make the filled seek's game: a public game whose seats, drawn by lot, carry the
        places' secrets (hashed) and accounts; then every holder hears where it is."""
        places = list(seek.places)
        random.SystemRandom().shuffle(places)
        spec = GameSpec(
            variant=Variant.parse(seek.variant),
            players=seek.players,
            seats=[
                SeatSpec(
                    "human",
                    p.name,
                    token_hash=p.token_hash,
                    account_id=p.account_id,
                    account=p.name if p.account_id is not None else None,
                )
                for p in places
            ],
            public=True,
            owner=seek.owner,
            clock=seek.control,
            rated=seek.rated,
        )
        try:
            live, _ = await self.hub.create(spec)
        except Exception:
            log.exception("the game of the filled challenge %s could not be made", seek.id)
            await self._abandon_now(seek.id)
            raise
        await self.hub.db(self.store.set_game, seek.id, live.id)
        await self.announce({"event": "filled", "id": seek.id, "game": live.id})
        return live

    async def _abandon_now(self, seek_id: str) -> None:
        """A filled seek whose game could not be made is gone."""
        if await self.hub.db(self.store.abandon, seek_id, self._now() + dt.timedelta(days=1)):
            await self.announce({"event": "gone", "id": seek_id})

    async def cancel(self, seek_id: str, place: StoredPlace) -> None:
        """The creator takes the seek back (place 0); it is gone for everyone."""
        if place.place != 0:
            raise SeekRefused(403, "not_creator", "only the challenge's creator cancels it")
        if not await self.hub.db(self.store.close, seek_id, None):
            self._check_open(await self.load(seek_id))
        await self.announce({"event": "gone", "id": seek_id})

    # --- who is there --------------------------------------------------------------------
    async def hold(self, listener: Listener, token: str) -> None:
        """A page holds a seek's secret: it hears when the seek fills (at once when it
        has), and while it is the creator's, the seek stays."""
        seek = await self.hub.db(self.store.of_token, token_hash(token))
        place = None if seek is None else seek.place_of(token_hash(token))
        if seek is None or place is None:
            listener.send(
                {"type": "error", "code": "not_found", "message": "no challenge has this secret"}
            )
            return
        if seek.status == "gone":
            listener.send({"type": "seek_gone", "id": seek.id})
            return
        listener.holds[seek.id] = (token, place.place)
        if place.place == 0:
            grace = self._graces.pop(seek.id, None)
            if grace is not None:
                grace.cancel()
            await self.hub.db(self.store.touch, [seek.id], self._now())
        listener.send({"type": "held", "seek": seek.id, "place": place.place})
        again = await self.hub.db(self.store.load, seek.id)  # a fill announced meanwhile
        if again is not None and again.status == "filled" and again.game_id is not None:
            self._tell_filled(listener, seek.id, again.game_id)

    def join(self, listener: Listener) -> None:
        self.listeners.add(listener)

    def leave(self, listener: Listener) -> None:
        """A lobby socket closed: the seeks its page created are gone after the grace,
        unless a page holds them again by then (here or on another process)."""
        self.listeners.discard(listener)
        left = self._now()
        loop = asyncio.get_running_loop()
        for seek_id, (_token, place) in listener.holds.items():
            if place == 0 and seek_id not in self._graces:
                self._graces[seek_id] = loop.call_later(
                    LEAVE_GRACE, self._grace_over, seek_id, left
                )
        listener.holds.clear()

    def _grace_over(self, seek_id: str, left: dt.datetime) -> None:
        self._graces.pop(seek_id, None)
        task = asyncio.create_task(self._gone_if_left(seek_id, left))
        self._checks.add(task)
        task.add_done_callback(self._checks.discard)

    async def _gone_if_left(self, seek_id: str, left: dt.datetime) -> None:
        if any(listener.holds.get(seek_id, ("", -1))[1] == 0 for listener in self.listeners):
            return  # held again here
        # held again elsewhere: that page's hold marked it seen after ``left``
        if await self.hub.db(self.store.close, seek_id, left):
            await self.announce({"event": "gone", "id": seek_id})

    async def refresh(self) -> None:
        """Mark seen the seeks whose creator's page is here."""
        held = {
            seek_id
            for listener in self.listeners
            for seek_id, (_token, place) in listener.holds.items()
            if place == 0
        }
        await self.hub.db(self.store.touch, sorted(held), self._now())

    async def sweep(self, now: float | None = None) -> int:
        """Mark gone the seeks nobody has seen for :data:`UNSEEN_SECONDS` (at ``now``, the
        time of the hub's clocks by default); how many this call marked."""
        before = from_epoch((self.hub.now() if now is None else now) - UNSEEN_SECONDS)
        gone = 0
        for seek_id in await self.hub.db(self.store.unseen, before):
            if await self.hub.db(self.store.abandon, seek_id, before):
                await self.announce({"event": "gone", "id": seek_id})
                gone += 1
        return gone

    async def run(self) -> None:
        """Refresh the held seeks and sweep the unseen ones, every so often (a task of
        the runtime; every process does it, and each seek is marked gone once)."""
        while True:
            await asyncio.sleep(REFRESH_SECONDS)
            try:
                await self.refresh()
                await self.sweep()
            except Exception:
                log.exception("the seeks' sweep failed")

    async def close(self) -> None:
        """Stop the grace timers and wait for the checks under way (shutting down)."""
        for grace in self._graces.values():
            grace.cancel()
        self._graces.clear()
        if self._checks:
            await asyncio.gather(*self._checks, return_exceptions=True)

    # --- telling the lobby --------------------------------------------------------------
    async def announce(self, event: Event) -> None:
        """Tell this process's lobby sockets, then the other processes'."""
        self._deliver(event)
        await self.hub.publish({"game": "", "revision": 0, "kind": "lobby", **event})

    async def _on_event(self, event: Event) -> None:
        self._deliver(event)

    def _deliver(self, event: Event) -> None:
        what = event.get("event")
        if what == "seek":
            message: dict[str, Any] = {"type": "seek", "seek": event["seek"]}
        elif what == "gone":
            message = {"type": "seek_gone", "id": str(event["id"])}
        elif what == "filled":
            message = {"type": "seek_filled", "id": str(event["id"]), "game": str(event["game"])}
        else:
            log.error("a lobby event that cannot be read: %r", event)
            return
        for listener in list(self.listeners):
            listener.send(message)
            if what == "filled":
                self._tell_filled(listener, message["id"], message["game"])
            elif what == "gone":
                listener.holds.pop(message["id"], None)

    @staticmethod
    def _tell_filled(listener: Listener, seek_id: str, game_id: str) -> None:
        """A holder of the filled seek hears where its own seat is."""
        held = listener.holds.pop(seek_id, None)
        if held is not None:
            url = f"/play/{game_id}?seat={held[0]}"
            listener.send({"type": "filled", "seek": seek_id, "game": game_id, "url": url})


__all__ = [
    "LEAVE_GRACE",
    "UNSEEN_SECONDS",
    "Accepted",
    "Listener",
    "NewSeek",
    "SeekRefused",
    "Seeks",
    "clock_view",
    "place_token",
    "seek_view",
]
