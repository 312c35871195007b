"""Stopping asyncio tasks when a cancellation can be lost on the way.

Two ways are known to lose one on Python 3.11: redis-py can answer the cancellation of
a command waiting for its reply with a TimeoutError, which a loop that retries on errors
takes for a failed read; and ``asyncio.wait_for`` returns the awaited result instead of
raising when that result came in the same moment as the cancellation. A task that lost
its cancellation runs on, and a stop that awaits it waits forever (a server that does
not shut down, a test run that hangs)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import Any, Final

#: How long a task being stopped has to end before it is cancelled again (seconds).
RECANCEL_SECONDS: Final = 0.5


def raise_if_cancelled() -> None:
    """End a retrying loop whose task is being cancelled: call it in the loop's handler
    of other errors, which is where a cancellation answered as a TimeoutError lands."""
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError


async def cancel_and_wait(tasks: Iterable[asyncio.Task[Any] | asyncio.Future[Any]]) -> None:
    """Cancel ``tasks`` and wait until each has ended, cancelling again every
    :data:`RECANCEL_SECONDS` a task that still runs (it lost the cancellation). What the
    tasks raised is taken and dropped: they are being stopped."""
    stopping = list(tasks)
    pending = {task for task in stopping if not task.done()}
    while pending:
        for task in pending:
            task.cancel()
        _, pending = await asyncio.wait(pending, timeout=RECANCEL_SECONDS)
    for task in stopping:
        if not task.cancelled():
            task.exception()  # taken, so that asyncio does not log it as never retrieved
