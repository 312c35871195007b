"""The games' reads and writes: the rows of ``games``, ``seats`` and ``actions``.

:class:`Store` is the hub's store (``hub.store``): the :class:`~.db.store.Database`
with every statement about a game. Each change goes through one gate, the game's
revision (:meth:`Store._advance`): a change made from a revision that is no longer the
stored one stores nothing and raises :class:`~.db.store.Conflict`. What a game's row
holds, and how it maps to :class:`~.stored.StoredGame`, is declared once in
:mod:`.stored`.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import (
    Connection,
    Engine,
    Select,
    Table,
    and_,
    bindparam,
    delete,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from shiftago.core import COLOURS
from shiftago.interfaces.server.db.schema import (
    AccountRow,
    ActionRow,
    AnalysisRow,
    GameRow,
    HeartbeatRow,
    SeatRow,
)
from shiftago.interfaces.server.db.store import Conflict, Database, epoch, from_epoch, now
from shiftago.interfaces.server.games.stored import (
    CONVERTED,
    StoredGame,
    StoredSeat,
    asks_columns,
    clock_columns,
    declined_columns,
    game_columns,
    seat_columns,
    stored_game,
    stored_seat,
)
from shiftago.match.clock import Clock, remaining_text

#: Game ids asked for in one statement at most (SQLite's oldest bound is 999 parameters).
IDS_PER_QUERY = 500


def _of_profile(what: Any, account_id: int, limit: int, every: bool) -> Select[Any]:
    """``what`` of the newest games with a seat of the account; unless ``every``, only
    those its profile lists to anybody: public or rated (an unlisted game stays its
    players' own)."""
    ids = select(SeatRow.game_id).where(SeatRow.account_id == account_id).scalar_subquery()
    held = GameRow.id.in_(ids)
    listed = held if every else and_(held, or_(GameRow.public.is_(True), GameRow.rated.is_(True)))
    return select(what).where(listed).order_by(GameRow.created.desc(), GameRow.id).limit(limit)


_GAMES: Table = GameRow.__table__  # type: ignore[assignment]
_ACTIONS: Table = ActionRow.__table__  # type: ignore[assignment]
#: The revision gate of :meth:`Store._advance` for an action, with the game's new version.
_ADVANCE_WITH_ACTION = (
    update(_GAMES)
    .where(_GAMES.c.id == bindparam("b_id"), _GAMES.c.revision == bindparam("b_revision"))
    .values(
        revision=bindparam("b_next"),
        version=bindparam("b_version"),
        status=bindparam("b_status"),
        finished=bindparam("b_finished"),
        updated=bindparam("b_updated"),
    )
)
#: The same gate for an action of a timed game: the clock's columns change with it, and
#: the last pause of the server is no longer news once a seat has acted after it.
_ADVANCE_WITH_TIMED_ACTION = _ADVANCE_WITH_ACTION.values(
    clock_remaining=bindparam("b_clock_remaining"),
    clock_since=bindparam("b_clock_since"),
    clock_running=bindparam("b_clock_running"),
    clock_deadline=bindparam("b_clock_deadline"),
    clock_paused=None,
)
_INSERT_ACTION = insert(_ACTIONS)


def _advance_and_insert(advance: Any) -> Any:
    """The gate ``advance`` and the action's row in one statement, for PostgreSQL: the
    row is inserted only if the game moved (no row returned is the Conflict), and a taken
    action number fails the whole statement. One statement in autocommit is one round
    trip where the two statements in a transaction take four (docs/deploy.md, "Measured").
    SQLite has no data-modifying ``WITH``; it runs the two statements."""
    moved = advance.returning(_GAMES.c.id).cte("moved")
    row = select(
        moved.c.id,
        bindparam("number", type_=_ACTIONS.c.number.type),
        bindparam("notation", type_=_ACTIONS.c.notation.type),
        bindparam("played", type_=_ACTIONS.c.played.type),
        bindparam("clock", type_=_ACTIONS.c.clock.type),
    )
    columns = ["game_id", "number", "notation", "played", "clock"]
    return insert(_ACTIONS).from_select(columns, row).returning(_ACTIONS.c.number)


_STORE_ACTION = _advance_and_insert(_ADVANCE_WITH_ACTION)
_STORE_TIMED_ACTION = _advance_and_insert(_ADVANCE_WITH_TIMED_ACTION)


class Store(Database):
    """The games' reads and writes, each in its own transaction."""

    def __init__(self, engine: Engine) -> None:
        super().__init__(engine)
        #: Whether an action is stored by one statement in autocommit (PostgreSQL).
        self.one_statement_actions = engine.dialect.name == "postgresql"
        self._autocommit = engine.execution_options(isolation_level="AUTOCOMMIT")

    def insert(self, game: StoredGame) -> None:
        with self.sessions.begin() as s:
            s.add(GameRow(**game_columns(game)))
            s.flush()  # the game row before the rows that refer to it
            for i, seat in enumerate(game.seats):
                s.add(SeatRow(game_id=game.id, seat=i, **seat_columns(seat)))
            for number, notation in enumerate(game.actions, 1):
                row = ActionRow(
                    game_id=game.id, number=number, notation=notation, played=game.created
                )
                s.add(row)

    def load(self, game_id: str) -> StoredGame | None:
        with self.sessions() as s:
            row = s.get(GameRow, game_id)
            if row is None:
                return None
            actions = s.scalars(
                select(ActionRow.notation)
                .where(ActionRow.game_id == game_id)
                .order_by(ActionRow.number)
            ).all()
            return stored_game(row, _seats(s, game_id), list(actions))

    def load_many(self, game_ids: list[str]) -> list[StoredGame]:
        """The games of ``game_ids`` that are stored, in that order, each whole: three
        statements for :data:`IDS_PER_QUERY` games (their rows, seats and actions), not
        three a game as :meth:`load` would make them."""
        found: dict[str, StoredGame] = {}
        with self.sessions() as s:
            for start in range(0, len(game_ids), IDS_PER_QUERY):
                chunk = game_ids[start : start + IDS_PER_QUERY]
                rows = s.scalars(select(GameRow).where(GameRow.id.in_(chunk))).all()
                seats: dict[str, list[StoredSeat]] = {row.id: [] for row in rows}
                seated = s.execute(
                    select(SeatRow, AccountRow.name)
                    .outerjoin(AccountRow, AccountRow.id == SeatRow.account_id)
                    .where(SeatRow.game_id.in_(chunk))
                    .order_by(SeatRow.game_id, SeatRow.seat)
                ).all()
                for seat_row, account in seated:
                    seats[seat_row.game_id].append(stored_seat(seat_row, account))
                actions: dict[str, list[str]] = {row.id: [] for row in rows}
                played = s.execute(
                    select(ActionRow.game_id, ActionRow.notation)
                    .where(ActionRow.game_id.in_(chunk))
                    .order_by(ActionRow.game_id, ActionRow.number)
                ).all()
                for game_id, notation in played:
                    actions[game_id].append(notation)
                for row in rows:
                    found[row.id] = stored_game(row, seats[row.id], actions[row.id])
        return [found[game_id] for game_id in game_ids if game_id in found]

    @staticmethod
    def _advance(s: Session | Connection, game_id: str, revision: int, **values: Any) -> None:
        """Move the game from ``revision`` to the next, with ``values``; the one gate of
        every change: if the stored revision is another, nothing is stored (Conflict).

        On PostgreSQL a second writer of the same row waits for the first to commit and
        then finds the revision moved on; SQLite takes one writer at a time.
        """
        done = s.execute(
            update(GameRow)
            .where(GameRow.id == game_id, GameRow.revision == revision)
            .values(revision=revision + 1, **values)
        )
        if getattr(done, "rowcount", 0) != 1:
            raise Conflict(f"game {game_id} is no longer at revision {revision}")

    def append_action(
        self,
        game_id: str,
        revision: int,
        number: int,
        notation: str,
        status: str,
        finished: bool,
        clock: Clock | None = None,
    ) -> dt.datetime:
        """Store action ``number`` (1-based) on ``revision``, with the game's ``clock``
        right after it in a timed game; committed when this returns.

        The most frequent write, so it is plain statements on a connection (the same
        revision gate as :meth:`_advance`), without the ORM's work per call: on
        PostgreSQL one statement, elsewhere two in a transaction."""
        stamp = now()
        values = {
            "b_id": game_id,
            "b_revision": revision,
            "b_next": revision + 1,
            "b_version": number,
            "b_status": status,
            "b_finished": finished,
            "b_updated": stamp,
        }
        advance, advance_and_insert = _ADVANCE_WITH_ACTION, _STORE_ACTION
        if clock is not None:
            advance, advance_and_insert = _ADVANCE_WITH_TIMED_ACTION, _STORE_TIMED_ACTION
            columns = clock_columns(clock)
            for name in ("clock_remaining", "clock_since", "clock_running", "clock_deadline"):
                values[f"b_{name}"] = columns[name]
        row = {
            "game_id": game_id,
            "number": number,
            "notation": notation,
            "played": stamp,
            "clock": None if clock is None else remaining_text(clock.remaining),
        }
        try:
            if self.one_statement_actions:
                with self._autocommit.connect() as connection:
                    if connection.execute(advance_and_insert, values | row).first() is None:
                        raise Conflict(f"game {game_id} is no longer at revision {revision}")
                return stamp
            with self.engine.begin() as connection:
                done = connection.execute(advance, values)
                if done.rowcount != 1:
                    raise Conflict(f"game {game_id} is no longer at revision {revision}")
                connection.execute(_INSERT_ACTION, row)
        except IntegrityError as error:  # the action's number is taken: the same race
            raise Conflict(f"action {number} of game {game_id} is stored already") from error
        return stamp

    def truncate(
        self, game_id: str, revision: int, keep: int, status: str, clock: Clock | None = None
    ) -> dt.datetime:
        """Take back every action after the first ``keep`` (with the game's ``clock`` then,
        in a timed game), and the reviews of actions taken back: they judge a game that
        is no longer this one."""
        stamp = now()
        timed = {} if clock is None else clock_columns(clock)
        with self.sessions.begin() as s:
            self._advance(
                s,
                game_id,
                revision,
                version=keep,
                status=status,
                finished=False,
                updated=stamp,
                **asks_columns(frozenset()),
                **timed,
            )
            s.execute(
                delete(ActionRow).where(ActionRow.game_id == game_id, ActionRow.number > keep)
            )
            s.execute(
                delete(AnalysisRow).where(
                    AnalysisRow.game_id == game_id, AnalysisRow.version > keep
                )
            )
        return stamp

    def terminate(
        self,
        game_id: str,
        revision: int,
        result: str,
        termination: str,
        status: str,
        clock: Clock | None = None,
        by: int | None = None,
    ) -> dt.datetime:
        """End a game that the rules did not end (resignation, abandoned, time, aborted)
        against the seat ``by``, with the game's stopped ``clock`` in a timed game."""
        stamp = now()
        timed = {} if clock is None else clock_columns(clock)
        with self.sessions.begin() as s:
            self._advance(
                s,
                game_id,
                revision,
                result=result,
                termination=termination,
                ended_by=by,
                status=status,
                finished=True,
                updated=stamp,
                **timed,
            )
        return stamp

    def set_seat(self, game_id: str, revision: int, seat: int, stored: StoredSeat) -> None:
        with self.sessions.begin() as s:
            self._advance(s, game_id, revision, updated=now())
            s.execute(
                update(SeatRow)
                .where(SeatRow.game_id == game_id, SeatRow.seat == seat)
                .values(kind=stored.kind, name=stored.name, level=stored.level)
            )

    def hold_seat(self, game_id: str, seat: int, account_id: int, name: str) -> None:
        """The seat, still without an account, becomes the account's, named ``name``; the
        revision stays (a computer's answer being thought stays good)."""
        with self.sessions.begin() as s:
            s.execute(
                update(SeatRow)
                .where(
                    SeatRow.game_id == game_id, SeatRow.seat == seat, SeatRow.account_id.is_(None)
                )
                .values(account_id=account_id, name=name)
            )

    def games_held(self, account_id: int, finished: bool, limit: int) -> list[StoredGame]:
        """The games, finished or not, with a seat of the account, last changed first
        (seats without their token hashes, no actions)."""
        ids = select(SeatRow.game_id).where(SeatRow.account_id == account_id).scalar_subquery()
        with self.sessions() as s:
            rows = s.scalars(
                select(GameRow)
                .where(GameRow.id.in_(ids), GameRow.finished.is_(finished))
                .order_by(GameRow.updated.desc(), GameRow.id)
                .limit(limit)
            ).all()
            return [_summary(s, row) for row in rows]

    def set_draw_offer(
        self,
        game_id: str,
        revision: int,
        seat: int | None,
        declined: tuple[int, int] | None = None,
    ) -> dt.datetime:
        """Store the seat that offers a draw now (None: no offer stands) and the declined
        offer that holds back a repeat (its seat and the version then; None: none)."""
        stamp = now()
        with self.sessions.begin() as s:
            self._advance(
                s,
                game_id,
                revision,
                draw_offer=seat,
                **declined_columns(declined),
                updated=stamp,
            )
        return stamp

    def set_rematch_asks(self, game_id: str, revision: int, seats: frozenset[int]) -> dt.datetime:
        """Store the seats whose holders asked for a rematch."""
        stamp = now()
        with self.sessions.begin() as s:
            self._advance(s, game_id, revision, **asks_columns(seats), updated=stamp)
        return stamp

    def revision_of(self, game_id: str) -> int | None:
        """The stored revision of a game (None if there is no such game)."""
        with self.sessions() as s:
            return s.scalar(select(GameRow.revision).where(GameRow.id == game_id))

    def unfinished_without_human(self, owner: str | None = None) -> int:
        """How many unfinished games have no human seat (of ``owner``, or of everyone)."""
        with self.sessions() as s:
            humans = select(SeatRow.game_id).where(SeatRow.kind == "human")
            query = select(func.count(GameRow.id)).where(
                GameRow.finished.is_(False), GameRow.id.not_in(humans)
            )
            if owner is not None:
                query = query.where(GameRow.owner == owner)
            return int(s.scalar(query) or 0)

    def link_next(self, game_id: str, next_game: StoredGame) -> str:
        """Store ``next_game`` as the rematch of ``game_id`` unless one is there already;
        the id of the rematch either way."""
        with self.sessions.begin() as s:
            done = s.execute(
                update(GameRow)
                .where(GameRow.id == game_id, GameRow.next_id.is_(None))
                .values(next_id=next_game.id)
            )
            if getattr(done, "rowcount", 0) != 1:
                existing = s.scalar(select(GameRow.next_id).where(GameRow.id == game_id))
                return existing or ""
        self.insert(next_game)
        return next_game.id

    def listing(self, finished: bool | None, limit: int) -> list[StoredGame]:
        """The newest public games (seats without their token hashes, no actions)."""
        with self.sessions() as s:
            query = select(GameRow).where(GameRow.public.is_(True))
            if finished is not None:
                query = query.where(GameRow.finished.is_(finished))
            rows = s.scalars(query.order_by(GameRow.updated.desc()).limit(limit)).all()
            return [_summary(s, row) for row in rows]

    def games_of_account(
        self, account_id: int, limit: int, every: bool = False
    ) -> list[StoredGame]:
        """The newest games with a seat of the account, newest first, each once (seats
        without their token hashes, no actions): only those listed on a profile (public
        or rated) unless ``every``."""
        with self.sessions() as s:
            rows = s.scalars(_of_profile(GameRow, account_id, limit, every)).all()
            return [_summary(s, row) for row in rows]

    def game_ids_of_account(self, account_id: int, limit: int, every: bool) -> list[str]:
        """The ids of the games :meth:`games_of_account` lists, newest first."""
        with self.sessions() as s:
            return list(s.scalars(_of_profile(GameRow.id, account_id, limit, every)).all())

    def out_of_time(self, at: dt.datetime, limit: int = 100) -> list[str]:
        """Unfinished timed games whose running clock ran out by ``at`` (the flag sweep)."""
        with self.sessions() as s:
            query = (
                select(GameRow.id)
                .where(GameRow.finished.is_(False), GameRow.clock_deadline <= at)
                .order_by(GameRow.clock_deadline)
                .limit(limit)
            )
            return list(s.scalars(query).all())

    def revisions(self, game_ids: list[str]) -> dict[str, int]:
        """The stored revision of each of ``game_ids`` (the stale sweep), asked for
        :data:`IDS_PER_QUERY` at a time (a database bounds a statement's parameters)."""
        found: dict[str, int] = {}
        with self.sessions() as s:
            for start in range(0, len(game_ids), IDS_PER_QUERY):
                chunk = game_ids[start : start + IDS_PER_QUERY]
                query = select(GameRow.id, GameRow.revision).where(GameRow.id.in_(chunk))
                found.update((game_id, revision) for game_id, revision in s.execute(query).all())
        return found

    def computer_to_act(self, before: dt.datetime, limit: int = 100) -> list[tuple[str, int]]:
        """Unfinished games whose seat to act is the computer's and that have not changed
        since ``before``, with their revisions: a move whose job was lost with the process
        that stored the action before it (the computer sweep). The status says the colour
        to act (``playing g insert``), the seats which colours the computer holds."""
        acting = func.substr(GameRow.status, len("playing ") + 1, 1)
        colour = func.substr(COLOURS, SeatRow.seat + 1, 1)
        with self.sessions() as s:
            query = (
                select(GameRow.id, GameRow.revision)
                .join(SeatRow, SeatRow.game_id == GameRow.id)
                .where(
                    GameRow.finished.is_(False),
                    GameRow.status.like("playing %"),
                    GameRow.updated <= before,
                    SeatRow.kind == "computer",
                    colour == acting,
                )
                .order_by(GameRow.updated)
                .limit(limit)
            )
            return [(game_id, revision) for game_id, revision in s.execute(query).all()]

    def unfinished_with_computer(self) -> list[str]:
        """Games not over that have a computer seat (their computer may be to act)."""
        with self.sessions() as s:
            query = (
                select(GameRow.id)
                .join(SeatRow, SeatRow.game_id == GameRow.id)
                .where(GameRow.finished.is_(False), SeatRow.kind == "computer")
                .distinct()
            )
            return list(s.scalars(query).all())

    # --- the server's pauses (docs/web-protocol.md, "Clocks") -------------------------
    def beat(self, at: dt.datetime) -> None:
        """Say that a serve process is alive at ``at`` (the heartbeat)."""
        with self.sessions.begin() as s:
            done = s.execute(update(HeartbeatRow).where(HeartbeatRow.id == 1).values(beat=at))
            if getattr(done, "rowcount", 0) == 0:
                s.add(HeartbeatRow(id=1, beat=at))

    def last_beat(self) -> float | None:
        """When a serve process last said it was alive (None: never)."""
        with self.sessions() as s:
            last = s.scalar(select(HeartbeatRow.beat).where(HeartbeatRow.id == 1))
        return None if last is None else epoch(last)

    def resume_clocks(self, at: float, stale: float) -> float | None:
        """At a process's start: when the heartbeat is older than ``stale`` seconds at
        ``at`` (every serve process was down since), shift the running and waiting
        clocks of the unfinished games by the pause, so that nobody is charged for it,
        and beat; one process does it (the heartbeat moves from the time it read, or the
        shift is another's). Without a heartbeat (none stored yet) each clock goes on
        from what it had when it was last stored. The pause in seconds (0.0: none, the
        server was up; None: not known)."""
        with self.sessions.begin() as s:
            last = s.scalar(select(HeartbeatRow.beat).where(HeartbeatRow.id == 1))
            if last is None:
                try:
                    with s.begin_nested():
                        s.add(HeartbeatRow(id=1, beat=from_epoch(at)))
                except IntegrityError:
                    return 0.0  # another process beat first: it is up
                pause = None
            else:
                pause = at - epoch(last)
                if pause <= stale:
                    return 0.0
                done = s.execute(
                    update(HeartbeatRow)
                    .where(HeartbeatRow.id == 1, HeartbeatRow.beat == last)
                    .values(beat=from_epoch(at))
                )
                if getattr(done, "rowcount", 0) != 1:
                    return 0.0  # another process starting now shifts them
            rows = s.scalars(
                select(GameRow).where(
                    GameRow.finished.is_(False),
                    GameRow.clock_since.is_not(None),
                    GameRow.clock_deadline.is_not(None),
                )
            ).all()
            for row in rows:
                clock = CONVERTED["clock"].read(row)
                if clock is None:
                    continue
                seconds = at - clock.since if pause is None else pause
                clock, moved = clock.paused(seconds, at)
                for name, value in clock_columns(clock).items():
                    setattr(row, name, value)
                # a pause not known is not said: the page would name a downtime that
                # is only the time since the game's last action was stored
                row.clock_paused = None if pause is None else round(moved, 3)
                row.revision += 1  # a process that held the game reads it again
            return pause

    def open_seat(
        self, game_id: str, revision: int, seat: int, at: dt.datetime, clock: Clock | None
    ) -> None:
        """Store that ``seat``'s person came at ``at``, with a timed game's ``clock``
        then (it may start waiting for the seat to act; None for a game without one);
        the revision stays (a computer's answer being thought stays good), but must be
        ``revision`` (else Conflict)."""
        with self.sessions.begin() as s:
            done = s.execute(
                update(GameRow)
                .where(GameRow.id == game_id, GameRow.revision == revision)
                .values(**({"revision": revision} if clock is None else clock_columns(clock)))
            )
            if getattr(done, "rowcount", 0) != 1:
                raise Conflict(f"game {game_id} is no longer at revision {revision}")
            s.execute(
                update(SeatRow)
                .where(SeatRow.game_id == game_id, SeatRow.seat == seat)
                .values(opened=at)
            )


def _seats(s: Session, game_id: str) -> list[StoredSeat]:
    """A game's seats in seat order, with the names of their accounts."""
    rows = s.execute(
        select(SeatRow, AccountRow.name)
        .outerjoin(AccountRow, AccountRow.id == SeatRow.account_id)
        .where(SeatRow.game_id == game_id)
        .order_by(SeatRow.seat)
    ).all()
    return [stored_seat(r, account) for r, account in rows]


def _summary(s: Session, row: GameRow) -> StoredGame:
    """A game of a listing: its seats without their token hashes, no actions."""
    game = stored_game(row, _seats(s, row.id), [])
    for seat in game.seats:
        seat.token_hash = None
    return game
