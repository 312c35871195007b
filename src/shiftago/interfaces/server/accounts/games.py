"""The games of an account (WEBAPI.md, "Games of an account"): the unfinished ones and
the last finished, each as a ``GAMEREF`` whose ``url`` opens the account's seat in any
browser where the account is signed in (the session is the seat's credential)."""

from __future__ import annotations

from typing import Any, Final

from shiftago.core import COLOURS
from shiftago.interfaces.server.games.store import Store
from shiftago.interfaces.server.games.stored import StoredGame

#: The unfinished games listed at most (more than anyone plays at once).
PLAYING_LISTED: Final = 200
#: The finished games listed.
RECENT_LISTED: Final = 20


def game_ref(game: StoredGame, account_id: int, base: str) -> dict[str, Any]:
    """One game of the account: its seat's colour, and whether that seat is to act
    (the stored status names the colour to act: ``playing o insert``)."""
    seat = next(i for i, s in enumerate(game.seats) if s.account_id == account_id)
    colour = COLOURS[seat]
    words = game.status.split()
    to_act = not game.finished and words[:1] == ["playing"] and words[1:2] == [colour]
    return {
        "id": game.id,
        "variant": game.variant,
        "players": game.players,
        "colour": colour,
        "url": f"{base}/play/{game.id}",
        "to_act": to_act,
        "updated": game.updated.isoformat(),
    }


def games_of(store: Store, account_id: int, base: str) -> dict[str, Any]:
    """``{"playing": [...], "recent": [...]}``, each last changed first."""
    playing = store.games_held(account_id, False, PLAYING_LISTED)
    recent = store.games_held(account_id, True, RECENT_LISTED)
    return {
        "playing": [game_ref(g, account_id, base) for g in playing],
        "recent": [game_ref(g, account_id, base) for g in recent],
    }


__all__ = ["game_ref", "games_of"]
