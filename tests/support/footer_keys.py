"""Prints, as JSON, the keys the terminal app's footer shows and whether each lies
wholly on the screen, for each language given (``python footer_keys.py WIDTH
BETWEEN LANG...``; BETWEEN 1: between two games of a tournament).

It runs in a process of its own: the app's key names are catalogue messages read when
its modules are imported, so each language reloads them (never in the tests' process).
"""

from __future__ import annotations

import asyncio
import importlib
import json
import random
import sys

from textual.widgets import Footer

from shiftago.core import Game, Rules, Tournament, Variant
from shiftago.interfaces.shared import catalogues


def match_for(between: bool) -> object:
    from shiftago.interfaces.tui.match import Match

    if not between:
        return Match(Game(Rules(Variant.EXPRESS, 2), first=0), autosave=None)
    tournament = Tournament(2, seed=11, target=10)
    match = Match(tournament.game, autosave=None)
    match.tournament = tournament
    chooser = random.Random(5)
    while not match.game.is_over:
        match.play(chooser.choice(match.game.legal_actions()))
    return match


async def footer_keys(lang: str, width: int, between: bool) -> list[tuple[str, bool]]:
    catalogues.use_language(lang)
    from shiftago.interfaces.tui import app, board, dialogs

    for module in (board, dialogs, app):
        importlib.reload(module)
    shown = app.ShiftagoApp(match_for(between))  # type: ignore[arg-type]
    async with shown.run_test(size=(width, 24)) as pilot:
        # a busy machine can draw the footer a few frames late: wait until every key has
        # its place (a key not yet laid out has an empty region)
        for _frame in range(100):
            await pilot.pause(0.02)
            keys = shown.screen.query_one(Footer).children
            if keys and all(key.region.width for key in keys):
                break
        return [(str(key.key), key.region.right <= width) for key in keys]  # type: ignore[attr-defined]


def main() -> None:
    width, between, *langs = sys.argv[1:]
    found = {lang: asyncio.run(footer_keys(lang, int(width), between == "1")) for lang in langs}
    print(json.dumps(found))


if __name__ == "__main__":
    main()
