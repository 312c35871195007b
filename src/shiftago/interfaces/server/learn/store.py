"""An account's progress through the lessons: the steps completed per lesson.

Progress only grows: :func:`add_progress` keeps the greater of what is stored and
what is given, so a browser's progress merged at sign-in never takes any away.
"""

from __future__ import annotations

from collections.abc import Mapping

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from shiftago.interfaces.server.db.schema import LearnProgressRow
from shiftago.interfaces.server.db.store import Database, now


def progress(db: Database, account_id: int) -> dict[str, int]:
    """The steps completed of each lesson the account has begun."""
    with db.sessions() as s:
        rows = s.scalars(select(LearnProgressRow).where(LearnProgressRow.account_id == account_id))
        return {row.lesson: row.steps for row in rows}


def add_progress(db: Database, account_id: int, steps: Mapping[str, int]) -> dict[str, int]:
    """Keep for each lesson the greater of the stored and the given steps; the
    progress after it. A writer that raced this one is retried once."""
    for attempt in range(2):
        try:
            with db.sessions.begin() as s:
                stored = {
                    row.lesson: row
                    for row in s.scalars(
                        select(LearnProgressRow).where(LearnProgressRow.account_id == account_id)
                    )
                }
                for lesson, count in steps.items():
                    row = stored.get(lesson)
                    if row is None:
                        s.add(
                            LearnProgressRow(
                                account_id=account_id, lesson=lesson, steps=count, updated=now()
                            )
                        )
                    elif count > row.steps:
                        row.steps, row.updated = count, now()
            break
        except IntegrityError:
            if attempt:
                raise
    return progress(db, account_id)
