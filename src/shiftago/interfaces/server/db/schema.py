"""The tables of the web app's database (SQLAlchemy 2 typed ORM).

A game row keeps what rebuilds the game (rules, the first seat or a set-up position,
the seed) and what the rules cannot know (a resignation, the seats' people, the links
of a rematch series); its actions are rows of their own, one per accepted action,
replayed through the core when the game is loaded. Seats keep only the SHA-256 of
their secret, never the secret itself. The migrations in ``migrations/versions``
create exactly these tables; a test compares the two.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

NAMING = {
    "ix": "ix_%(table_name)s_%(column_0_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class GameRow(Base):
    """One game; ``version`` and ``status`` repeat what the actions give, for listings."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(24), primary_key=True)
    variant: Mapped[str] = mapped_column(String(16))
    players: Mapped[int] = mapped_column(Integer)
    handicap: Mapped[str] = mapped_column(String(32))  # "0,2,0"
    first: Mapped[int | None] = mapped_column(Integer)
    position: Mapped[str | None] = mapped_column(Text)  # a set-up start position
    seed: Mapped[int | None] = mapped_column(BigInteger)
    action_limit: Mapped[int | None] = mapped_column(Integer)
    public: Mapped[bool] = mapped_column(Boolean, index=True)
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    updated: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), index=True)
    version: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(40))
    finished: Mapped[bool] = mapped_column(Boolean, index=True)
    # A result token and why, only where no rule ended the game (resignation, abandoned).
    result: Mapped[str | None] = mapped_column(String(16))
    termination: Mapped[str | None] = mapped_column(String(32))
    # The series of rematches: the game before and the one after.
    previous_id: Mapped[str | None] = mapped_column(String(24))
    next_id: Mapped[str | None] = mapped_column(String(24))
    # Express tournament: the target and the wins per seat before this game ("3,2").
    tournament_target: Mapped[int | None] = mapped_column(Integer)
    tournament_wins: Mapped[str | None] = mapped_column(String(32))
    # Every stored change counts one: a change is stored only from the revision it was
    # made from (see games/store.py), so two processes never both change one version.
    revision: Mapped[int] = mapped_column(Integer, server_default="0")
    # The address that created the game (limits and the computer's fair share).
    owner: Mapped[str | None] = mapped_column(String(64), index=True)
    # Rated games change the ratings of the accounts in their seats when they end.
    rated: Mapped[bool] = mapped_column(Boolean, server_default=false())
    # The time control (docs/web-protocol.md, "Clocks"): initial seconds plus an increment
    # per turn, or days per turn (correspondence); all None for an untimed game.
    clock_initial: Mapped[float | None] = mapped_column(Float)
    clock_increment: Mapped[float | None] = mapped_column(Float)
    clock_days: Mapped[int | None] = mapped_column(Integer)
    # The seconds left per seat ("299.5,300") when the clock of ``clock_running`` (None:
    # stopped) last started, at ``clock_since``; ``clock_deadline`` is when its time runs
    # out (the flag sweep looks for it).
    clock_remaining: Mapped[str | None] = mapped_column(String(80))
    clock_since: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True))
    clock_running: Mapped[int | None] = mapped_column(Integer)
    clock_deadline: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), index=True)
    # The seconds of the server's last pause that the clocks were shifted by (charged to
    # nobody), None when the game has had none (docs/web-protocol.md, "Clocks").
    clock_paused: Mapped[float | None] = mapped_column(Float)
    # The seat that offers a draw now (2 players), None when none does.
    draw_offer: Mapped[int | None] = mapped_column(Integer)
    # The seat whose draw offer was declined, and the game's version then: it offers
    # again only after an action (kept here so that every process refuses the repeat).
    draw_declined: Mapped[int | None] = mapped_column(Integer)
    draw_declined_version: Mapped[int | None] = mapped_column(Integer)
    # The seat that ended a game the rules did not end (resigned, aborted, flagged...).
    ended_by: Mapped[int | None] = mapped_column(Integer)
    # The seats that asked for a rematch, a bit each (bit 0: the first seat); None: none.
    rematch_asked: Mapped[int | None] = mapped_column(Integer)
    # An imported record's Event and Date (YYYY-MM-DD) headers; None for a game made here.
    event: Mapped[str | None] = mapped_column(String(200))
    record_date: Mapped[str | None] = mapped_column(String(10))
    # Made from an imported record: its seats are never adopted into an account.
    imported: Mapped[bool] = mapped_column(Boolean, server_default=false())


class SeatRow(Base):
    __tablename__ = "seats"

    game_id: Mapped[str] = mapped_column(
        String(24), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(10))  # human | computer
    name: Mapped[str] = mapped_column(String(80))
    level: Mapped[int | None] = mapped_column(Integer)
    token_hash: Mapped[str | None] = mapped_column(String(64), index=True)
    # The account that holds the seat (None for a guest or the computer).
    account_id: Mapped[int | None] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="SET NULL"), index=True
    )
    # When the seat's person first came (its link followed, its seek filled); None for
    # the computer and until then: clocks wait for every person (WEBAPI.md, "Clocks").
    opened: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True))


class ActionRow(Base):
    __tablename__ = "actions"

    game_id: Mapped[str] = mapped_column(
        String(24), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    number: Mapped[int] = mapped_column(Integer, primary_key=True)  # 1, 2, ...
    notation: Mapped[str] = mapped_column(String(16))
    played: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    # The seconds left per seat right after this action, in a timed game ("299.5,300").
    clock: Mapped[str | None] = mapped_column(String(80))


class AnalysisRow(Base):
    """The computer's review of a game's first ``version`` actions (``digest``: their
    SHA-256), one per game and set of actions; ``result`` is the review so far as JSON
    (its ``actions`` and what the page needs beside them)."""

    __tablename__ = "analyses"
    __table_args__ = (UniqueConstraint("game_id", "digest"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(
        String(24), ForeignKey("games.id", ondelete="CASCADE"), index=True
    )
    digest: Mapped[str] = mapped_column(String(64))
    version: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16), index=True)  # pending | running | done
    progress: Mapped[float] = mapped_column(Float)
    level: Mapped[int] = mapped_column(Integer)
    result: Mapped[str] = mapped_column(Text)
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    updated: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class AccountRow(Base):
    """A player's account: a name (lower case, unique) and the argon2 hash of the
    password (never the password). ``closed`` is when it was closed, by its player (on
    their page) or a moderator (``shiftago admin close-account``): it cannot sign in and
    leaves the leaderboard, and its name stays taken."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(24), unique=True)
    password_hash: Mapped[str] = mapped_column(String(200))
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    closed: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True))
    #: The name's folded form (:func:`.names.name_key`): a new name whose key an account
    #: has is refused as too like it. Unique (migration 0011: accounts made before the
    #: check that shared one keep it marked with their id), so two lookalike sign-ups
    #: at once cannot both be stored.
    name_key: Mapped[str] = mapped_column(String(80), index=True, unique=True)
    #: The language the account chose for the site (``en``, ``de``, ...; None: the
    #: browser's). Migration 0013.
    language: Mapped[str | None] = mapped_column(String(8))


class SessionRow(Base):
    """A signed-in browser: the SHA-256 of its session cookie, and its CSRF token."""

    __tablename__ = "sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    csrf: Mapped[str] = mapped_column(String(64))
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    expires: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), index=True)


class RatingRow(Base):
    """An account's rating in one category (``express-2``, ``expert-3``...): Glicko-2's
    rating, deviation and volatility for 2 players; OpenSkill's mean and uncertainty,
    on the same scale, in ``rating`` and ``deviation`` for 3-4 (volatility unused)."""

    __tablename__ = "ratings"

    account_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    category: Mapped[str] = mapped_column(String(16), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    updated: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class RatingChangeRow(Base):
    """What one rated game did to one account's rating (the history and the change shown
    at the end of the game); one per account and game, so a game is rated once."""

    __tablename__ = "rating_changes"
    __table_args__ = (UniqueConstraint("account_id", "game_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    game_id: Mapped[str] = mapped_column(
        String(24), ForeignKey("games.id", ondelete="CASCADE"), index=True
    )
    category: Mapped[str] = mapped_column(String(16))
    rating_before: Mapped[float] = mapped_column(Float)
    rating_after: Mapped[float] = mapped_column(Float)
    deviation_after: Mapped[float] = mapped_column(Float)
    at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class SeekRow(Base):
    """An open challenge of the lobby. ``seen`` is refreshed while its creator's page is
    open; a seek not seen for a while is gone. The people who took a place are
    :class:`SeekPlaceRow`; ``game_id`` is set when the last place is taken."""

    __tablename__ = "seeks"

    id: Mapped[str] = mapped_column(String(24), primary_key=True)
    variant: Mapped[str] = mapped_column(String(16))
    players: Mapped[int] = mapped_column(Integer)
    clock_initial: Mapped[float | None] = mapped_column(Float)
    clock_increment: Mapped[float | None] = mapped_column(Float)
    clock_days: Mapped[int | None] = mapped_column(Integer)
    rated: Mapped[bool] = mapped_column(Boolean)
    rating_min: Mapped[int | None] = mapped_column(Integer)
    rating_max: Mapped[int | None] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(8), index=True)  # open | filled | gone | declined
    game_id: Mapped[str | None] = mapped_column(String(24))
    owner: Mapped[str | None] = mapped_column(String(64))
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    seen: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), index=True)
    #: The one account a challenge to a named player is for (None: the lobby's, anyone's).
    to_account_id: Mapped[int | None] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    #: Seats the computer plays at ``computer_level`` (3-4 players; places are the rest).
    computers: Mapped[int] = mapped_column(Integer, server_default="0")
    computer_level: Mapped[int | None] = mapped_column(Integer)


class SeekPlaceRow(Base):
    """One place taken in a seek (place 0 is its creator's): who, and the SHA-256 of the
    place's secret, which becomes the secret of its seat in the game when the seek fills
    (so the seat link is never stored)."""

    __tablename__ = "seek_places"

    seek_id: Mapped[str] = mapped_column(
        String(24), ForeignKey("seeks.id", ondelete="CASCADE"), primary_key=True
    )
    place: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    account_id: Mapped[int | None] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="SET NULL")
    )
    token_hash: Mapped[str] = mapped_column(String(64), index=True)
    joined: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    # When a page or script of the place's holder was last there: an acceptor's place
    # that nobody has seen for a while is freed (the creator's is the seek's ``seen``).
    seen: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class ChatRow(Base):
    """A chat message of a game: ``room`` is ``players`` (the seats) or ``spectators``."""

    __tablename__ = "chat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(
        String(24), ForeignKey("games.id", ondelete="CASCADE"), index=True
    )
    room: Mapped[str] = mapped_column(String(12))
    seat: Mapped[int | None] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(80))
    #: Said by a guest (no account): the pages mark the name as a guest's.
    guest: Mapped[bool] = mapped_column(Boolean, server_default=false())
    text: Mapped[str] = mapped_column(String(500))
    at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class HeartbeatRow(Base):
    """The last moment a serve process was alive (one row): a process that starts and
    finds it older than the beat knows that every process was down since, and shifts the
    running clocks by that pause (docs/web-protocol.md, "Clocks")."""

    __tablename__ = "heartbeat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    beat: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class PuzzleRow(Base):
    """A proven puzzle (docs/puzzles.md): its position, how many of the solver's actions
    it takes, its solution line and themes (space-separated), and its puzzle rating
    (Glicko-2), which moves with every rated attempt."""

    __tablename__ = "puzzles"

    id: Mapped[str] = mapped_column(String(24), primary_key=True)
    variant: Mapped[str] = mapped_column(String(16))
    players: Mapped[int] = mapped_column(Integer)
    position: Mapped[str] = mapped_column(Text)
    actions: Mapped[int] = mapped_column(Integer)
    solution: Mapped[str] = mapped_column(Text)
    themes: Mapped[str] = mapped_column(String(200))
    rating: Mapped[float] = mapped_column(Float, index=True)
    deviation: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    attempts: Mapped[int] = mapped_column(Integer)


class PuzzlePlayerRow(Base):
    """An account's puzzle rating (Glicko-2) and its streak of puzzles solved in a row."""

    __tablename__ = "puzzle_players"

    account_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    puzzles: Mapped[int] = mapped_column(Integer)
    streak: Mapped[int] = mapped_column(Integer)
    best_streak: Mapped[int] = mapped_column(Integer)
    updated: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class PuzzleRoundRow(Base):
    """An account's first finished attempt at a puzzle, the one that is rated (one per
    account and puzzle, as on lichess: a puzzle played again moves no rating)."""

    __tablename__ = "puzzle_rounds"

    account_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    puzzle_id: Mapped[str] = mapped_column(
        String(24), ForeignKey("puzzles.id", ondelete="CASCADE"), primary_key=True
    )
    solved: Mapped[bool] = mapped_column(Boolean)
    rating_after: Mapped[float] = mapped_column(Float)
    at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class LearnProgressRow(Base):
    """How many steps of a lesson an account has completed (``/learn``): only ever
    grows, so progress merged from several browsers keeps the most of each."""

    __tablename__ = "learn_progress"

    account_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    lesson: Mapped[str] = mapped_column(String(40), primary_key=True)
    steps: Mapped[int] = mapped_column(Integer)
    updated: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
