"""The event loop the long-running asyncio processes run on.

uvloop (installed with uvicorn's ``standard`` extra, which ``shiftago serve`` runs on)
does a socket's reads and writes in C; a worker and the load tool spend much of their
time in such calls, to Redis, the database and the sockets (docs/deploy.md, "Measured").
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable


def fast_loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's loop factory for :class:`asyncio.Runner`, or None (asyncio's own loop)
    where uvloop is not installed (it is not built for every platform)."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop
