"""Puzzles from the site's own finished games (docs/puzzles.md, "From the site's games").

The engine searches each finished public game as it searches a record
(:func:`shiftago.engine.puzzles.harvest.candidates`: the last positions, and those where
a seat could have won at once), proves each candidate exactly and keeps the puzzles
(one fastest first action against every defence). They join the puzzles table beside the
shipped set; a puzzle the table has (by its id, the same under the board's symmetries)
is not added twice, so running it again adds only what newer games bring.
"""

from __future__ import annotations

from dataclasses import dataclass

from shiftago.core import ShiftagoError
from shiftago.engine.puzzles.generate import Harvest
from shiftago.engine.puzzles.harvest import candidates, game_states
from shiftago.interfaces.server.games.live import ABORTS, rebuild
from shiftago.interfaces.server.games.store import Store
from shiftago.interfaces.server.puzzles.store import load_puzzles


@dataclass(frozen=True)
class FromGames:
    """What one search of the site's games did."""

    games: int  # finished games searched
    positions: int  # candidate positions proven (or given up past the node budget)
    found: int  # puzzles found among them
    added: int  # of those, new to the table


def puzzles_from_games(store: Store, newest: int, most: int, nodes: int) -> FromGames:
    """Search the ``newest`` finished public games for puzzles of at most ``most`` of the
    solver's actions (``nodes``: the prover's budget per position) and add them."""
    harvest = Harvest(most=most, nodes=nodes)
    searched = 0
    for summary in store.listing(True, newest):
        stored = store.load(summary.id)
        if stored is None or not stored.actions or stored.termination in ABORTS:
            continue
        try:
            game = rebuild(stored)
        except ShiftagoError:  # a game the rules no longer replay is not searched
            continue
        searched += 1
        for state in candidates(game_states(game)):
            harvest.consider(state, f"site:{stored.id}")
    added = load_puzzles(store, harvest.puzzles)
    return FromGames(searched, harvest.candidates, len(harvest.puzzles), added)
