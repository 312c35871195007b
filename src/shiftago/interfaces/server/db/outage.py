"""A database outage said once, not at every try.

The periodic tasks of a serve process (the heartbeat twice a second, the sweeps) each
fail at every try while the database is away; a traceback each time filled the log with
thousands of lines a minute and said nothing an operator could act on. They run each try
in the process's :data:`DATABASE_OUTAGE` (:meth:`Outage.watching`) instead: it says when
the database went away, again every :data:`REMINDER_SECONDS` while it stays away, and
when it answers again.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable, Iterator
from typing import Final

from shiftago.interfaces.server.db.store import DATABASE_AWAY
from shiftago.interfaces.shared.cancelling import raise_if_cancelled

log = logging.getLogger("shiftago.server")

#: How often a lasting outage is said again.
REMINDER_SECONDS: Final = 60.0


def _one_line(error: BaseException) -> str:
    """The driver's own words for ``error``, on one line (SQLAlchemy adds the statement
    and a link on lines of their own)."""
    cause = getattr(error, "orig", None) or error
    return " ".join(str(cause).split())


class Outage:
    """What the tasks of one process know of the database's being away."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.since: float | None = None
        self.said = 0.0

    def failed(self, task: str, error: BaseException) -> bool:
        """Note that ``task`` failed with ``error``: True when that is the database being
        away (said once, then every :data:`REMINDER_SECONDS`), False for any other
        failure, which its task logs itself."""
        if not isinstance(error, DATABASE_AWAY):
            return False
        now = self.clock()
        if self.since is None:
            self.since = self.said = now
            log.warning(
                "the database cannot be reached (%s: %s): nothing is stored until it "
                "answers, and the games wait for it",
                task,
                _one_line(error),
            )
        elif now - self.said >= REMINDER_SECONDS:
            self.said = now
            log.warning("the database still cannot be reached, for %.0f s now", now - self.since)
        return True

    def answered(self) -> None:
        """Note a task's success: the end of an outage is said."""
        if self.since is not None:
            log.warning("the database answers again after %.0f s", self.clock() - self.since)
            self.since = None

    @contextlib.contextmanager
    def watching(self, task: str) -> Iterator[None]:
        """One try of a periodic ``task``: its success is :meth:`answered`, its failure
        :meth:`failed`, or logged with its traceback when it is no outage; the task's
        loop goes on either way (a cancellation ends it)."""
        try:
            yield
        except Exception as error:
            raise_if_cancelled()
            if not self.failed(task, error):
                log.exception("%s failed", task)
        else:
            self.answered()


#: The outage of this process's database, which all its tasks share.
DATABASE_OUTAGE: Final = Outage()
