"""Helpers for the terminal app's tests: games that reach a given phase, an app with a
private autosave, and a pilot session run to its end from synchronous tests."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from pathlib import Path

from textual.pilot import Pilot

from shiftago.core import Game, Phase, Rules, Variant
from shiftago.engine.bot import Limits
from shiftago.interfaces.shared.autosave import Autosave
from shiftago.interfaces.tui.app import ShiftagoApp
from shiftago.interfaces.tui.match import Match

#: Small searches: the tests never wait on a clock.
FAST = Limits(depth=1)


def game_in_score_phase(variant: Variant, players: int, seed: int) -> Game:
    """A game played at random (seeded) until a seat must score."""
    chooser = random.Random(seed)
    game = Game(Rules(variant, players), first=0, seed=seed)
    while game.phase is not Phase.SCORE:
        assert not game.is_over, "the seed gives no scoring; choose another"
        game.play(chooser.choice(game.legal_actions()))
    return game


def app_for(match: Match, **kwargs: object) -> ShiftagoApp:
    """The app for ``match`` with the tests' small limits."""
    limits = {"computer_limits": FAST, "engine_limits": FAST, "review_limits": FAST}
    limits.update(kwargs)  # type: ignore[arg-type]
    return ShiftagoApp(match, **limits)  # type: ignore[arg-type]


def run(
    app: ShiftagoApp,
    scenario: Callable[[Pilot[int]], Awaitable[None]],
    size: tuple[int, int] = (80, 24),
) -> None:
    """Run ``scenario`` against ``app`` in Textual's headless pilot."""

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await scenario(pilot)

    asyncio.run(main())


async def settle(pilot: Pilot[int]) -> None:
    """Wait until the workers (the computer, the engine) have answered and drawn."""
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def autosave_in(folder: Path) -> Autosave:
    return Autosave(folder / "shiftago-home")
