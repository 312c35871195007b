"""Snapshots of the terminal app's main screens at 80x24 (pytest-textual-snapshot): a
change to what a player sees shows in the SVGs under ``__snapshots__``; run with
``--snapshot-update`` and look at them when the change is meant."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

from textual.pilot import Pilot

from shiftago.core import Game, Rules, Variant
from shiftago.engine.levels import bot_for_level
from shiftago.interfaces.shared.newgame import PlaySetup
from shiftago.interfaces.tui.clock import Clocks
from shiftago.interfaces.tui.dialogs import ResumeScreen
from shiftago.interfaces.tui.match import Match
from support.tui_pilot import app_for, autosave_in, game_in_score_phase, settle

Compare = Callable[..., bool]


def test_a_game_against_the_computer(snap_compare: Compare, tmp_path: Path) -> None:
    game = Game.from_actions(Rules(Variant.EXPRESS, 2), ["L3", "Tc", "Bd", "R5"], first=0)
    match = Match(game, bots={1: bot_for_level(1, 1)}, levels={1: 1})
    assert snap_compare(app_for(match), press=["right", "right"])


def test_an_expert_scoring_shown_before_it_is_chosen(snap_compare: Compare) -> None:
    match = Match(game_in_score_phase(Variant.EXPERT, 2, seed=5))
    assert snap_compare(app_for(match), press=["down"])


def test_four_players_with_the_engine_lines(snap_compare: Compare) -> None:
    game = Game.from_actions(Rules(Variant.EXTREME, 4, (0, 0, 1, 0)), ["Ta", "L7"], first=0)

    async def engine(pilot: Pilot[int]) -> None:
        await pilot.press("f5")
        await settle(pilot)

    assert snap_compare(app_for(Match(game)), run_before=engine)


def test_a_finished_game_with_its_record(snap_compare: Compare) -> None:
    game = Game(Rules(Variant.EXPRESS, 2), first=0, seed=1)
    chooser = random.Random(4)
    while not game.is_over:
        game.play(chooser.choice(game.legal_actions()))

    async def reviewed(pilot: Pilot[int]) -> None:
        await settle(pilot)

    assert snap_compare(app_for(Match(game)), run_before=reviewed)


def test_a_timed_game_of_three(snap_compare: Compare) -> None:
    game = Game.from_actions(Rules(Variant.EXPERT, 3), ["L1", "L2"], first=0)
    match = Match(game, bots={2: bot_for_level(1, 1)}, levels={2: 1})
    match.clocks = Clocks([61.0, 9.5, 300.0], increment=2, control="5+2")
    assert snap_compare(app_for(match, now=lambda: 500.0))


def test_the_new_game_dialog(snap_compare: Compare) -> None:
    game = Game(Rules(Variant.EXPRESS, 2), first=0, seed=1)
    match = Match(game, bots={1: bot_for_level(3)}, levels={1: 3})
    assert snap_compare(app_for(match, setup=PlaySetup(computer=("g",), level=3)), press=["f2"])


def test_the_question_to_resume(snap_compare: Compare, tmp_path: Path) -> None:
    match = Match(Game(Rules(Variant.EXPRESS, 2), first=0, seed=1), autosave=autosave_in(tmp_path))
    app = app_for(match)

    async def ask(pilot: Pilot[int]) -> None:
        await pilot.app.push_screen(ResumeScreen("2026-12-01 20:15", 12))

    assert snap_compare(app, run_before=ask)
