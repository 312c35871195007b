"""``shiftago serve``: the web app (HTTP API, live WebSocket play, pages) on a database.

Modules, one concept each: :mod:`.schema` (tables) and :mod:`.store` (database access
and migrations), :mod:`.live` (a game in memory), :mod:`.creating` (new games),
:mod:`.views` (the JSON shapes), :mod:`.hub` (every change: check, store, announce),
:mod:`.bus` (events between processes), :mod:`.jobs` (the computer's work, fairly
ordered), :mod:`.bots` (computer seats), :mod:`.protocol` (client messages, rate limit),
:mod:`.ws` (the socket), :mod:`.api` (HTTP routes), :mod:`.analysis` (a game's review)
and :mod:`.analysis_api` (its routes), :mod:`.live_analysis` (the analysis socket),
:mod:`.settings` (what a process is told), :mod:`.runtime` (a process's working parts),
:mod:`.worker` (``shiftago worker``) and :mod:`.app` (the app, ``run``).
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
