"""``shiftago serve``: the web app (HTTP API, live WebSocket play, pages) on a database.

The server is cut by feature (docs/architecture.md): :mod:`.games`, :mod:`.seeks`,
:mod:`.accounts`, :mod:`.players`, :mod:`.chat` and :mod:`.analysis` each hold their
logic, their store, their routes and their socket; below them :mod:`.db` (tables,
migrations), :mod:`.jobs` (the bus, the job queue, the time source) and :mod:`.door`
(what every request and socket passes through). At the top, :mod:`.settings` (what a
process is told), :mod:`.runtime` (a process's working parts), :mod:`.app` (the app,
``run``) and :mod:`.worker` (``shiftago worker``). The pages are in ``web/``.
"""

from __future__ import annotations

from typing import Any

__all__ = ["create_app", "run"]


def __getattr__(name: str) -> Any:
    """``create_app`` and ``run``, imported when first asked for: the command line reads
    :mod:`.settings` without loading the app and the engine."""
    if name in __all__:
        from shiftago.interfaces.server import app

        return getattr(app, name)
    raise AttributeError(name)
