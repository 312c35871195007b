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
    # made from (see store.py), so two processes never both change one version.
    revision: Mapped[int] = mapped_column(Integer, server_default="0")
    # The address that created the game (limits and the computer's fair share).
    owner: Mapped[str | None] = mapped_column(String(64), index=True)


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


class ActionRow(Base):
    __tablename__ = "actions"

    game_id: Mapped[str] = mapped_column(
        String(24), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    number: Mapped[int] = mapped_column(Integer, primary_key=True)  # 1, 2, ...
    notation: Mapped[str] = mapped_column(String(16))
    played: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


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
