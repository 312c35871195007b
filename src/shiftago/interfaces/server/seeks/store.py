"""Open challenges (seeks) in the database: the rows of ``seeks`` and ``seek_places``.

A seek lives in the database, not in a process, so that every serve process lists the
same ones and a seek survives the process that took it. Each place (place 0 is the
creator's) keeps only the SHA-256 of its secret: the secret becomes its seat's secret
when the seek fills, so nothing secret is stored here. Each place also keeps when its
holder was last there (``seen``): an acceptor's place nobody has seen for a while is
freed for others (:meth:`SeekStore.free_place`).

Taking a place locks the seek's row (``SELECT ... FOR UPDATE`` on PostgreSQL; SQLite
takes one writer at a time), so places are taken one after another and exactly one
taker fills the seek; the primary key ``(seek_id, place)`` refuses a second taker of the
same place even so (:class:`PlaceTaken`). Like every store (``db/store.py``), every method is
synchronous and short (the app runs them in its database thread) and returns plain
values.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field, replace

from sqlalchemy import ColumnElement, and_, delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from shiftago.interfaces.server.db.schema import AccountRow, RatingRow, SeekPlaceRow, SeekRow
from shiftago.interfaces.server.db.store import Database, utc
from shiftago.match.clock import TimeControl
from shiftago.match.glicko2 import START


@dataclass(frozen=True)
class StoredPlace:
    place: int
    name: str
    account_id: int | None
    token_hash: str
    joined: dt.datetime
    seen: dt.datetime


@dataclass(frozen=True)
class StoredSeek:
    id: str
    variant: str
    players: int
    control: TimeControl | None
    rated: bool
    rating_min: int | None
    rating_max: int | None
    status: str  # open | filled | gone | declined
    game_id: str | None
    owner: str | None
    created: dt.datetime
    seen: dt.datetime
    places: tuple[StoredPlace, ...] = field(default=())
    #: The account a challenge to a named player is for (None: a lobby seek).
    to_account_id: int | None = None
    #: Seats the computer plays, at ``computer_level``; people take the other places.
    computers: int = 0
    computer_level: int | None = None

    @property
    def people(self) -> int:
        """How many places people take: the seats the computer does not play."""
        return self.players - self.computers

    @property
    def category(self) -> str:
        """The rating category of the seek's games (``express-2``)."""
        return f"{self.variant}-{self.players}"

    def place_of(self, digest: str) -> StoredPlace | None:
        """The place whose secret has the SHA-256 ``digest``."""
        return next((p for p in self.places if p.token_hash == digest), None)


class SeekClosed(Exception):
    """The seek is no longer open (``status``: filled or gone), or has no free place."""

    def __init__(self, status: str) -> None:
        super().__init__(status)
        self.status = status


class PlaceTaken(Exception):
    """Another taker stored the same place first (the primary key refused this one)."""


class SeekStore:
    """The seeks' reads and writes, each in its own transaction."""

    def __init__(self, store: Database) -> None:
        self.sessions = store.sessions

    def insert(self, seek: StoredSeek) -> None:
        with self.sessions.begin() as s:
            control = seek.control
            s.add(
                SeekRow(
                    id=seek.id,
                    variant=seek.variant,
                    players=seek.players,
                    clock_initial=None if control is None or control.days else control.initial,
                    clock_increment=None if control is None or control.days else control.increment,
                    clock_days=None if control is None else control.days,
                    rated=seek.rated,
                    rating_min=seek.rating_min,
                    rating_max=seek.rating_max,
                    status=seek.status,
                    game_id=seek.game_id,
                    owner=seek.owner,
                    created=seek.created,
                    seen=seek.seen,
                    to_account_id=seek.to_account_id,
                    computers=seek.computers,
                    computer_level=seek.computer_level,
                )
            )
            s.flush()  # the seek before its places
            for place in seek.places:
                s.add(_place_row(seek.id, place))

    def load(self, seek_id: str) -> StoredSeek | None:
        with self.sessions() as s:
            row = s.get(SeekRow, seek_id)
            return None if row is None else _stored(row, _places(s, [seek_id])[seek_id])

    def of_token(self, digest: str) -> StoredSeek | None:
        """The seek with a place whose secret has the SHA-256 ``digest``."""
        with self.sessions() as s:
            seek_id = s.scalar(
                select(SeekPlaceRow.seek_id).where(SeekPlaceRow.token_hash == digest).limit(1)
            )
        return None if seek_id is None else self.load(seek_id)

    def open_seeks(self, limit: int) -> list[StoredSeek]:
        """The open seeks of the lobby (none addressed to one account), oldest first."""
        with self.sessions() as s:
            rows = s.scalars(
                select(SeekRow)
                .where(SeekRow.status == "open", SeekRow.to_account_id.is_(None))
                .order_by(SeekRow.created)
                .limit(limit)
            ).all()
            places = _places(s, [row.id for row in rows])
            return [_stored(row, places[row.id]) for row in rows]

    def ratings(self, account_ids: list[int], category: str) -> dict[int, tuple[float, float]]:
        """The current rating and deviation of each account in ``category``
        (:data:`START`'s for one without a rated game in it)."""
        if not account_ids:
            return {}
        with self.sessions() as s:
            found = s.execute(
                select(RatingRow.account_id, RatingRow.rating, RatingRow.deviation).where(
                    RatingRow.account_id.in_(account_ids), RatingRow.category == category
                )
            ).all()
        known = {account: (rating, deviation) for account, rating, deviation in found}
        start = (START.rating, START.deviation)
        return {account: known.get(account, start) for account in account_ids}

    def take_place(self, seek_id: str, place: StoredPlace) -> tuple[StoredSeek, bool]:
        """Store ``place`` (its number is the lowest free one, whatever it says) in the open
        seek; the seek after it, and whether this place filled it (its status is then
        ``filled``, its game still to be made). :class:`SeekClosed` when the seek is not
        open or full, :class:`PlaceTaken` when another taker stored that place first."""
        try:
            with self.sessions.begin() as s:
                row = s.scalar(select(SeekRow).where(SeekRow.id == seek_id).with_for_update())
                if row is None:
                    raise SeekClosed("gone")
                if row.status != "open":
                    raise SeekClosed(row.status)
                taken = {p.place for p in _places(s, [seek_id])[seek_id]}
                free = [n for n in range(row.players - row.computers) if n not in taken]
                if not free:
                    raise SeekClosed("filled")
                s.add(_place_row(seek_id, _numbered(place, free[0])))
                s.flush()  # the primary key speaks here, inside the lock
                filled = len(free) == 1
                if filled:
                    row.status = "filled"
                seek = _stored(row, _places(s, [seek_id])[seek_id])
        except IntegrityError:
            raise PlaceTaken(seek_id) from None
        return seek, filled

    def addressed(self, account_id: int, limit: int) -> tuple[list[StoredSeek], list[StoredSeek]]:
        """The open challenges to a named player that the account received, and those it
        sent, oldest first."""
        with self.sessions() as s:
            to_it = SeekRow.to_account_id == account_id
            sent = SeekRow.id.in_(
                select(SeekPlaceRow.seek_id).where(
                    SeekPlaceRow.place == 0, SeekPlaceRow.account_id == account_id
                )
            )
            found = []
            for which in (to_it, and_(SeekRow.to_account_id.is_not(None), sent)):
                rows = s.scalars(
                    select(SeekRow)
                    .where(SeekRow.status == "open", which)
                    .order_by(SeekRow.created)
                    .limit(limit)
                ).all()
                places = _places(s, [row.id for row in rows])
                found.append([_stored(row, places[row.id]) for row in rows])
            return found[0], found[1]

    def names_of(self, account_ids: list[int]) -> dict[int, str]:
        """The names of the accounts."""
        if not account_ids:
            return {}
        with self.sessions() as s:
            rows = s.execute(
                select(AccountRow.id, AccountRow.name).where(AccountRow.id.in_(account_ids))
            ).all()
        return {account_id: name for account_id, name in rows}

    def set_game(self, seek_id: str, game_id: str) -> None:
        """The filled seek's game is made."""
        with self.sessions.begin() as s:
            s.execute(update(SeekRow).where(SeekRow.id == seek_id).values(game_id=game_id))

    def close(
        self, seek_id: str, seen_before: dt.datetime | None = None, status: str = "gone"
    ) -> bool:
        """Mark the open seek gone, or ``status`` (``declined``), only if not seen since
        ``seen_before`` when given; whether this call did it."""
        query = update(SeekRow).where(SeekRow.id == seek_id, SeekRow.status == "open")
        if seen_before is not None:
            query = query.where(SeekRow.seen <= seen_before)
        with self.sessions.begin() as s:
            return int(getattr(s.execute(query.values(status=status)), "rowcount", 0)) == 1

    def touch(self, seek_ids: list[str], at: dt.datetime) -> None:
        """The seeks' creators are still there at ``at``."""
        if not seek_ids:
            return
        with self.sessions.begin() as s:
            s.execute(
                update(SeekRow)
                .where(SeekRow.id.in_(seek_ids), SeekRow.status == "open")
                .values(seen=at)
            )

    def touch_places(self, places: list[tuple[str, int]], at: dt.datetime) -> None:
        """The holders of the places (seek id, place number) are still there at ``at``."""
        by_number: dict[int, list[str]] = {}
        for seek_id, number in places:
            by_number.setdefault(number, []).append(seek_id)
        if not by_number:
            return
        with self.sessions.begin() as s:
            for number, seek_ids in sorted(by_number.items()):
                s.execute(
                    update(SeekPlaceRow)
                    .where(SeekPlaceRow.place == number, SeekPlaceRow.seek_id.in_(seek_ids))
                    .values(seen=at)
                )

    def unseen_places(self, before: dt.datetime) -> list[tuple[str, int]]:
        """The acceptors' places (not the creators') of open seeks not seen since
        ``before``: (seek id, place number)."""
        with self.sessions() as s:
            rows = s.execute(
                select(SeekPlaceRow.seek_id, SeekPlaceRow.place)
                .join(SeekRow, SeekRow.id == SeekPlaceRow.seek_id)
                .where(
                    SeekRow.status == "open",
                    SeekPlaceRow.place > 0,
                    SeekPlaceRow.seen < before,
                )
                .order_by(SeekPlaceRow.seek_id, SeekPlaceRow.place)
            ).all()
            return [(seek_id, place) for seek_id, place in rows]

    def free_place(self, seek_id: str, number: int, before: dt.datetime) -> StoredSeek | None:
        """Free an acceptor's place of the open seek if still not seen since ``before``
        (its holder left); the seek after it, or None when this call freed nothing. The
        seek's row is locked as :meth:`take_place` locks it, so a place is never freed
        from under the taker of the last one."""
        with self.sessions.begin() as s:
            row = s.scalar(select(SeekRow).where(SeekRow.id == seek_id).with_for_update())
            if row is None or row.status != "open" or number == 0:
                return None
            done = s.execute(
                delete(SeekPlaceRow).where(
                    SeekPlaceRow.seek_id == seek_id,
                    SeekPlaceRow.place == number,
                    SeekPlaceRow.seen < before,
                )
            )
            if int(getattr(done, "rowcount", 0)) != 1:
                return None
            return _stored(row, _places(s, [seek_id])[seek_id])

    def unseen(self, before: dt.datetime, made_before: dt.datetime) -> list[str]:
        """The seeks to mark gone: the open ones of the lobby not seen since ``before`` (a
        challenge to a named player waits for that player, but not past its life: made
        before ``made_before``), and the filled ones whose game was never made by then
        (the process that filled them died)."""
        with self.sessions() as s:
            return list(s.scalars(select(SeekRow.id).where(_abandoned(before, made_before))).all())

    def abandon(self, seek_id: str, before: dt.datetime, made_before: dt.datetime) -> bool:
        """Mark gone a seek of :meth:`unseen` (still so); whether this call did."""
        with self.sessions.begin() as s:
            done = s.execute(
                update(SeekRow)
                .where(SeekRow.id == seek_id, _abandoned(before, made_before))
                .values(status="gone")
            )
            return int(getattr(done, "rowcount", 0)) == 1


def _abandoned(before: dt.datetime, made_before: dt.datetime) -> ColumnElement[bool]:
    """The seeks :meth:`SeekStore.unseen` names, as a condition on their rows."""
    lobby = SeekRow.to_account_id.is_(None)
    return (
        ((SeekRow.status == "open") & lobby & (SeekRow.seen < before))
        | ((SeekRow.status == "open") & ~lobby & (SeekRow.created < made_before))
        | ((SeekRow.status == "filled") & SeekRow.game_id.is_(None) & (SeekRow.seen < before))
    )


def _numbered(place: StoredPlace, number: int) -> StoredPlace:
    return replace(place, place=number)


def _place_row(seek_id: str, place: StoredPlace) -> SeekPlaceRow:
    return SeekPlaceRow(
        seek_id=seek_id,
        place=place.place,
        name=place.name,
        account_id=place.account_id,
        token_hash=place.token_hash,
        joined=place.joined,
        seen=place.seen,
    )


def _places(s: Session, seek_ids: list[str]) -> dict[str, list[StoredPlace]]:
    """The places of each of ``seek_ids``, in place order."""
    found: dict[str, list[StoredPlace]] = {seek_id: [] for seek_id in seek_ids}
    if not seek_ids:
        return found
    rows = s.scalars(
        select(SeekPlaceRow)
        .where(SeekPlaceRow.seek_id.in_(seek_ids))
        .order_by(SeekPlaceRow.seek_id, SeekPlaceRow.place)
    ).all()
    for row in rows:
        found[row.seek_id].append(
            StoredPlace(
                row.place,
                row.name,
                row.account_id,
                row.token_hash,
                utc(row.joined),
                utc(row.seen),
            )
        )
    return found


def _stored(row: SeekRow, places: list[StoredPlace]) -> StoredSeek:
    control = TimeControl.from_columns(row.clock_initial, row.clock_increment, row.clock_days)
    return StoredSeek(
        id=row.id,
        variant=row.variant,
        players=row.players,
        control=control,
        rated=row.rated,
        rating_min=row.rating_min,
        rating_max=row.rating_max,
        status=row.status,
        game_id=row.game_id,
        owner=row.owner,
        created=utc(row.created),
        seen=utc(row.seen),
        places=tuple(places),
        to_account_id=row.to_account_id,
        computers=row.computers,
        computer_level=row.computer_level,
    )


__all__ = ["PlaceTaken", "SeekClosed", "SeekStore", "StoredPlace", "StoredSeek"]
