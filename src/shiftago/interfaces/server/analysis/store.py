"""The computer's reviews of games in the database: the rows of ``analyses``.

A review judges a game's first ``version`` actions (``digest``: their SHA-256), one per
game and set of actions, so asking twice for the same actions finds the stored one.
Like every store, its methods are synchronous and short (the hub runs them in its
database threads) and return plain values.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError

from shiftago.interfaces.server.db.schema import AnalysisRow
from shiftago.interfaces.server.db.store import Database, now, utc


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


class AnalysisStore:
    """The reviews' reads and writes, each in its own transaction."""

    def __init__(self, db: Database) -> None:
        self.sessions = db.sessions

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
