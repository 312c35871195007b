"""``shiftago serve``: the web app (HTTP API, live WebSocket play, pages) on a database.

Modules, one concept each: :mod:`.schema` (tables) and :mod:`.store` (database access
and migrations), :mod:`.live` (a game in memory), :mod:`.creating` (new games),
:mod:`.views` (the JSON shapes), :mod:`.hub` (every change: check, store, announce),
:mod:`.bots` (computer seats), :mod:`.protocol` (client messages, rate limit),
:mod:`.ws` (the socket), :mod:`.api` (HTTP routes), :mod:`.analysis` (a game's review)
and :mod:`.analysis_api` (its routes), :mod:`.live_analysis` (the analysis socket) and
:mod:`.app` (the app, ``run``).
"""

from shiftago.interfaces.server.app import create_app, run

__all__ = ["create_app", "run"]
