"""Waiting on a condition, never on the clock: a test waits as long as the thing it
waits for takes, no longer, and a slow machine fails it only at the timeout.

A fixed ``sleep`` in a test is right only where the passing of time is itself what the
test checks (a hang, an interval, nothing more arriving); a comment there says so.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

T = TypeVar("T")

#: How often a condition is asked again (seconds).
POLL = 0.02


def _failure(value: object, timeout: float, what: str | Callable[[], str]) -> str:
    said = what() if callable(what) else what
    return f"not within {timeout} s: {said or 'still'} {value!r}"


def wait_until(
    read: Callable[[], T],
    done: Callable[[T], Any] = bool,
    timeout: float = 20.0,
    what: str | Callable[[], str] = "",
    poll: float = POLL,
) -> T:
    """The first value of ``read()`` that is ``done`` (by default: true) within
    ``timeout`` seconds, asked every ``poll`` seconds; otherwise the test fails with
    ``what`` (a callable: asked then, such as a server's log) and the last value."""
    deadline = time.monotonic() + timeout
    while not done(value := read()):
        assert time.monotonic() < deadline, _failure(value, timeout, what)
        time.sleep(poll)
    return value


async def wait_until_async(
    read: Callable[[], Awaitable[T] | T],
    done: Callable[[T], Any] = bool,
    timeout: float = 20.0,
    what: str | Callable[[], str] = "",
) -> T:
    """:func:`wait_until` in an event loop: ``read`` may be a coroutine function, and the
    loop runs other tasks while it waits."""
    deadline = time.monotonic() + timeout
    while True:
        value = read()
        if isinstance(value, Awaitable):
            value = await value
        if done(value):
            return value  # type: ignore[return-value]
        assert time.monotonic() < deadline, _failure(value, timeout, what)
        await asyncio.sleep(POLL)
