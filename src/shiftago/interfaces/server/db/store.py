"""The database: opening it, migrating it, and the few reads and writes the app makes.

Every method is synchronous and short; the app calls them from a worker thread (one for
SQLite, which takes one writer at a time, a few for PostgreSQL) so that the event loop
never waits on the disk. What comes out are plain values (:class:`StoredGame`), not ORM
objects, so nothing is loaded lazily behind the app's back.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    ColumnElement,
    Connection,
    Engine,
    Table,
    and_,
    bindparam,
    create_engine,
    delete,
    event,
    func,
    insert,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.exc import IntegrityError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.orm import Session, sessionmaker

from shiftago.core import COLOURS
from shiftago.interfaces.server.db.schema import (
    AccountRow,
    ActionRow,
    AnalysisRow,
    GameRow,
    SeatRow,
)
from shiftago.match.clock import Clock, TimeControl, parse_remaining, remaining_text

MIGRATIONS = Path(__file__).with_name("migrations")
#: Game ids asked for in one statement at most (SQLite's oldest bound is 999 parameters).
IDS_PER_QUERY = 500
#: The PostgreSQL advisory lock taken while migrating (any number; "shiftago" in ASCII).
MIGRATION_LOCK = 0x73686966746167


def now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def utc(value: dt.datetime) -> dt.datetime:
    """SQLite gives back naive times; every time the app stores is UTC."""
    return value if value.tzinfo is not None else value.replace(tzinfo=dt.UTC)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def profile_games(account_id: int, every: bool) -> ColumnElement[bool]:
    """The games with a seat of the account; unless ``every``, only those its profile
    lists to anybody: public or rated (an unlisted game stays its players' own)."""
    ids = select(SeatRow.game_id).where(SeatRow.account_id == account_id).scalar_subquery()
    held = GameRow.id.in_(ids)
    return held if every else and_(held, or_(GameRow.public.is_(True), GameRow.rated.is_(True)))


def open_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite gets foreign keys, a patient lock wait, and a file
    that only its owner can read (it holds every seat's secret's hash and every game).

    A plain ``postgresql://`` (or ``postgres://``) URL uses psycopg 3, the driver the
    package depends on.
    """
    for plain in ("postgresql://", "postgres://"):
        if url.startswith(plain):
            url = "postgresql+psycopg://" + url.removeprefix(plain)
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})
        database = engine.url.database
        if database and database != ":memory:" and not database.startswith("file:"):
            path = Path(database)
            if path.parent.is_dir():
                # mode 0600 from the start; SQLite gives its -wal and -journal files the same
                path.touch(mode=0o600)
                for suffix in ("", "-wal", "-shm", "-journal"):
                    side = Path(f"{database}{suffix}")
                    if side.exists():
                        side.chmod(0o600)

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA foreign_keys=ON")
            # Write-ahead log, synced at checkpoints: a commit is in the log (the OS has
            # it) before it returns, so a killed process loses nothing; only a power cut
            # can lose the last commits (docs/deploy.md, "SQLite").
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.close()

        return engine
    return create_engine(url, pool_pre_ping=True)


def migration_config() -> Config:
    """Alembic's configuration: the migrations of this package."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def migrate(engine: Engine) -> None:
    """Bring the schema up to the newest migration (a no-op when it is there)."""
    config = migration_config()
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            # processes starting at once on an empty database migrate one after another
            # (held to the end of this transaction)
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


@dataclass
class StoredSeat:
    kind: str  # human | computer
    name: str
    level: int | None = None
    token_hash: str | None = None
    #: The account that holds the seat, and its name (None for a guest or the computer).
    account_id: int | None = None
    account: str | None = None


@dataclass
class StoredGame:
    """A game as stored: its settings, seats and actions (in notation)."""

    id: str
    variant: str
    players: int
    handicap: tuple[int, ...]
    first: int | None
    position: str | None
    seed: int | None
    action_limit: int | None
    public: bool
    created: dt.datetime
    updated: dt.datetime
    seats: list[StoredSeat]
    actions: list[str] = field(default_factory=list)
    result: str | None = None
    termination: str | None = None
    previous_id: str | None = None
    next_id: str | None = None
    tournament_target: int | None = None
    tournament_wins: tuple[int, ...] | None = None
    status: str = ""
    finished: bool = False
    #: Counts every stored change (see :class:`Conflict`).
    revision: int = 0
    #: The address that created the game (limits, the computer's fair share).
    owner: str | None = None
    #: Whether the game changes its accounts' ratings when it ends.
    rated: bool = False
    #: The game's clock as last stored (None for an untimed game).
    clock: Clock | None = None
    #: The seat that offers a draw now, if any.
    draw_offer: int | None = None
    #: The seat whose draw offer was declined and the game's version then: it may offer
    #: again once an action has been played.
    draw_declined: tuple[int, int] | None = None
    #: The seat that ended a game the rules did not end (resigned, aborted, flagged).
    ended_by: int | None = None
    #: The seats whose holders asked for a rematch (the game is over, none made yet).
    rematch_asks: frozenset[int] = frozenset()
    #: An imported record's Event and Date headers (None for a game made here).
    event: str | None = None
    record_date: str | None = None


def epoch(value: dt.datetime) -> float:
    return utc(value).timestamp()


def from_epoch(seconds: float) -> dt.datetime:
    return dt.datetime.fromtimestamp(seconds, dt.UTC)


def clock_columns(clock: Clock | None) -> dict[str, Any]:
    """The game row's columns of ``clock`` (all None for an untimed game)."""
    if clock is None:
        return {
            "clock_initial": None,
            "clock_increment": None,
            "clock_days": None,
            "clock_remaining": None,
            "clock_since": None,
            "clock_running": None,
            "clock_deadline": None,
        }
    deadline = clock.deadline
    return {
        "clock_initial": clock.control.initial,
        "clock_increment": clock.control.increment,
        "clock_days": clock.control.days,
        "clock_remaining": remaining_text(clock.remaining),
        "clock_since": from_epoch(clock.since),
        "clock_running": clock.running,
        "clock_deadline": None if deadline is None else from_epoch(deadline),
    }


def _clock(row: GameRow) -> Clock | None:
    control = TimeControl.from_columns(row.clock_initial, row.clock_increment, row.clock_days)
    if control is None or row.clock_remaining is None or row.clock_since is None:
        return None
    remaining = parse_remaining(row.clock_remaining)
    return Clock(control, remaining, row.clock_running, epoch(row.clock_since))


#: What the database driver raises when the database cannot be reached (down, the
#: connection dropped, no connection free in time): nothing was stored, and the same
#: change may succeed later.
DATABASE_AWAY: tuple[type[Exception], ...] = (OperationalError, InterfaceError, PoolTimeout)
#: The words for a change refused because of it (HTTP 503, socket error ``unavailable``).
DATABASE_AWAY_WORDS = "the database cannot be reached now: nothing was stored; try again"


class Conflict(Exception):
    """A change made from a revision of the game that is no longer the stored one:
    another process (or a computer's answer) changed the game first. Nothing was stored."""


@dataclass
class StoredAnalysis:
    """A review of a game's first ``version`` actions, as stored; ``result`` is JSON."""

    id: int
    game_id: str
    digest: str
    version: int
    status: str  # pending | running | done
    progress: float
    level: int
    result: str
    created: dt.datetime
    updated: dt.datetime


def _ints(text: str | None) -> tuple[int, ...] | None:
    return None if text is None else tuple(int(p) for p in text.split(",") if p)


def _text(values: tuple[int, ...] | None) -> str | None:
    return None if values is None else ",".join(map(str, values))


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
#: The same gate for an action of a timed game: the clock's columns change with it.
_ADVANCE_WITH_TIMED_ACTION = _ADVANCE_WITH_ACTION.values(
    clock_remaining=bindparam("b_clock_remaining"),
    clock_since=bindparam("b_clock_since"),
    clock_running=bindparam("b_clock_running"),
    clock_deadline=bindparam("b_clock_deadline"),
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


class Store:
    """The reads and writes of the app, each in its own transaction."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.sessions = sessionmaker(engine, expire_on_commit=False)
        #: Whether an action is stored by one statement in autocommit (PostgreSQL).
        self.one_statement_actions = engine.dialect.name == "postgresql"
        self._autocommit = engine.execution_options(isolation_level="AUTOCOMMIT")

    def insert(self, game: StoredGame) -> None:
        with self.sessions.begin() as s:
            s.add(
                GameRow(
                    id=game.id,
                    variant=game.variant,
                    players=game.players,
                    handicap=_text(game.handicap) or "",
                    first=game.first,
                    position=game.position,
                    seed=game.seed,
                    action_limit=game.action_limit,
                    public=game.public,
                    created=game.created,
                    updated=game.updated,
                    version=len(game.actions),
                    status=game.status,
                    finished=game.finished,
                    result=game.result,
                    termination=game.termination,
                    previous_id=game.previous_id,
                    next_id=game.next_id,
                    tournament_target=game.tournament_target,
                    tournament_wins=_text(game.tournament_wins),
                    revision=game.revision,
                    owner=game.owner,
                    rated=game.rated,
                    draw_offer=game.draw_offer,
                    **_declined_columns(game.draw_declined),
                    ended_by=game.ended_by,
                    rematch_asked=_bits(game.rematch_asks),
                    event=game.event,
                    record_date=game.record_date,
                    **clock_columns(game.clock),
                )
            )
            s.flush()  # the game row before the rows that refer to it
            for i, seat in enumerate(game.seats):
                s.add(
                    SeatRow(
                        game_id=game.id,
                        seat=i,
                        kind=seat.kind,
                        name=seat.name,
                        level=seat.level,
                        token_hash=seat.token_hash,
                        account_id=seat.account_id,
                    )
                )
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
            return _stored(row, _seats(s, game_id), list(actions))

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
                rematch_asked=None,
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
                **_declined_columns(declined),
                updated=stamp,
            )
        return stamp

    def set_rematch_asks(self, game_id: str, revision: int, seats: frozenset[int]) -> dt.datetime:
        """Store the seats whose holders asked for a rematch."""
        stamp = now()
        with self.sessions.begin() as s:
            self._advance(s, game_id, revision, rematch_asked=_bits(seats), updated=stamp)
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
            rows = s.scalars(
                select(GameRow)
                .where(profile_games(account_id, every))
                .order_by(GameRow.created.desc(), GameRow.id)
                .limit(limit)
            ).all()
            return [_summary(s, row) for row in rows]

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

    # --- the computer's reviews (see analysis.py) -------------------------------------
    def request_analysis(
        self, game_id: str, digest: str, version: int, level: int, result: str
    ) -> tuple[StoredAnalysis, bool]:
        """The review of ``game_id``'s actions of ``digest``: the one stored, or a new
        pending one (then the flag is True)."""
        stamp = now()
        try:
            with self.sessions.begin() as s:
                row = s.scalar(
                    select(AnalysisRow).where(
                        AnalysisRow.game_id == game_id, AnalysisRow.digest == digest
                    )
                )
                if row is not None:
                    return _analysis(row), False
                row = AnalysisRow(
                    game_id=game_id,
                    digest=digest,
                    version=version,
                    status="pending",
                    progress=0.0,
                    level=level,
                    result=result,
                    created=stamp,
                    updated=stamp,
                )
                s.add(row)
                s.flush()
                return _analysis(row), True
        except IntegrityError:  # asked twice at once: the other request stored it
            with self.sessions() as s:
                row = s.scalars(
                    select(AnalysisRow).where(
                        AnalysisRow.game_id == game_id, AnalysisRow.digest == digest
                    )
                ).one()
                return _analysis(row), False

    def analysis(self, analysis_id: int) -> StoredAnalysis | None:
        with self.sessions() as s:
            row = s.get(AnalysisRow, analysis_id)
            return None if row is None else _analysis(row)

    def latest_analysis(self, game_id: str) -> StoredAnalysis | None:
        """The newest review asked for of ``game_id``, if any."""
        with self.sessions() as s:
            row = s.scalars(
                select(AnalysisRow)
                .where(AnalysisRow.game_id == game_id)
                .order_by(AnalysisRow.created.desc(), AnalysisRow.id.desc())
                .limit(1)
            ).first()
            return None if row is None else _analysis(row)

    def save_analysis(self, analysis_id: int, status: str, progress: float, result: str) -> None:
        with self.sessions.begin() as s:
            s.execute(
                update(AnalysisRow)
                .where(AnalysisRow.id == analysis_id)
                .values(status=status, progress=progress, result=result, updated=now())
            )

    def delete_analysis(self, analysis_id: int) -> None:
        with self.sessions.begin() as s:
            s.execute(delete(AnalysisRow).where(AnalysisRow.id == analysis_id))

    def unfinished_analyses(self) -> list[StoredAnalysis]:
        """Reviews not done (pending, or running when the server stopped), oldest first."""
        with self.sessions() as s:
            rows = s.scalars(
                select(AnalysisRow)
                .where(AnalysisRow.status != "done")
                .order_by(AnalysisRow.created, AnalysisRow.id)
            ).all()
            return [_analysis(row) for row in rows]

    def ping(self) -> None:
        """Raise unless the database answers."""
        with self.engine.connect() as connection:
            connection.execute(select(1))

    def dispose(self) -> None:
        self.engine.dispose()


def _seats(s: Session, game_id: str) -> list[StoredSeat]:
    """A game's seats in seat order, with the names of their accounts."""
    rows = s.execute(
        select(SeatRow, AccountRow.name)
        .outerjoin(AccountRow, AccountRow.id == SeatRow.account_id)
        .where(SeatRow.game_id == game_id)
        .order_by(SeatRow.seat)
    ).all()
    return [
        StoredSeat(r.kind, r.name, r.level, r.token_hash, r.account_id, account)
        for r, account in rows
    ]


def _summary(s: Session, row: GameRow) -> StoredGame:
    """A game of a listing: its seats without their token hashes, no actions."""
    game = _stored(row, _seats(s, row.id), [])
    for seat in game.seats:
        seat.token_hash = None
    return game


def _bits(seats: frozenset[int]) -> int | None:
    """Seats as the bits of a column (None: no seat)."""
    return sum(1 << seat for seat in seats) or None


def _declined_columns(declined: tuple[int, int] | None) -> dict[str, int | None]:
    seat, version = (None, None) if declined is None else declined
    return {"draw_declined": seat, "draw_declined_version": version}


def _stored(row: GameRow, seats: list[StoredSeat], actions: list[str]) -> StoredGame:
    return StoredGame(
        id=row.id,
        variant=row.variant,
        players=row.players,
        handicap=_ints(row.handicap) or (),
        first=row.first,
        position=row.position,
        seed=row.seed,
        action_limit=row.action_limit,
        public=row.public,
        created=utc(row.created),
        updated=utc(row.updated),
        seats=seats,
        actions=actions,
        result=row.result,
        termination=row.termination,
        previous_id=row.previous_id,
        next_id=row.next_id,
        tournament_target=row.tournament_target,
        tournament_wins=_ints(row.tournament_wins),
        status=row.status,
        finished=row.finished,
        revision=row.revision,
        owner=row.owner,
        rated=row.rated,
        clock=_clock(row),
        draw_offer=row.draw_offer,
        draw_declined=(
            None
            if row.draw_declined is None or row.draw_declined_version is None
            else (row.draw_declined, row.draw_declined_version)
        ),
        ended_by=row.ended_by,
        event=row.event,
        record_date=row.record_date,
        rematch_asks=frozenset(
            seat for seat in range(len(seats)) if (row.rematch_asked or 0) >> seat & 1
        ),
    )


def _analysis(row: AnalysisRow) -> StoredAnalysis:
    return StoredAnalysis(
        id=row.id,
        game_id=row.game_id,
        digest=row.digest,
        version=row.version,
        status=row.status,
        progress=row.progress,
        level=row.level,
        result=row.result,
        created=utc(row.created),
        updated=utc(row.updated),
    )
