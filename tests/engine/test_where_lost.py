"""``scripts/where_lost.py``, the walk back over a lost game (docs/strength.md, "Where the
2-player games are lost"), on 2-player games of careless players: where the loser
could have stopped the winning line at its last action the walk stops there, and the
winner's last action is judged a proven win worth as much as the search's first
choice; where it could not, that position is proven lost and the walk goes on back."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from shiftago.core import Game, Rules
from shiftago.formats.record_model import Record, format_record
from support.scripts import script_module


def wins_at_once(game: Game) -> str | None:
    """An action that ends ``game`` as the win of the seat to act, if it has one."""
    for action in game.legal_actions():
        after = game.copy()
        after.play(action)
        if after.outcome is not None and after.outcome.winner == game.turn:
            return str(action)
    return None


def careless_game(seed: int) -> Game:
    """A 2-player Express game of players who take a win at once and else play at
    random (so the loser's last action did not stop a win it could have stopped, in
    most seeds)."""
    rng = random.Random(seed)
    game = Game(Rules(), first=0)
    while not game.is_over:
        win = wins_at_once(game)
        game.play(win if win is not None else rng.choice(game.legal_actions()))
    return game


def lost_game(stoppable: bool) -> Game:
    """The first careless game whose loser had, at its last action, one that left the
    winner no win at once (``stoppable``), or had none."""
    for seed in range(200):
        game = careless_game(seed)
        assert game.outcome is not None
        if game.outcome.winner is None:
            continue
        before = Game(Rules(), first=0)
        for action in game.history[:-2]:
            before.play(action)
        could = False
        for action in before.legal_actions():
            after = before.copy()
            after.play(action)
            could = could or (not after.is_over and wins_at_once(after) is None)
        if could == stoppable:
            return game
    raise AssertionError("no careless game lost that way")


def walked_back(game: Game, folder: Path, capsys: pytest.CaptureFixture[str]) -> list[Any]:
    """The script's lines for ``game``, whose loser is the seat named ``yours``."""
    assert game.outcome is not None and game.outcome.winner is not None
    loser = 1 - game.outcome.winner
    names = ["yours", "theirs"] if loser == 0 else ["theirs", "yours"]
    (folder / "game.txt").write_text(format_record(Record.from_game(game, names=names)))
    row = {
        "seats": names,
        "points": [1.0 if seat == game.outcome.winner else 0.0 for seat in range(2)],
        "record_file": "game.txt",
    }
    results = folder / "results.jsonl"
    results.write_text(json.dumps(row) + "\n")
    args = [str(results), str(folder), "--seat-name", "yours", "--nodes", "20000"]
    assert script_module("where_lost").main(args) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_the_walk_stops_where_the_loser_could_still_stop_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = lost_game(stoppable=True)
    report, summary = walked_back(game, tmp_path, capsys)
    assert report["won_by"] == "next"
    assert report["actions"] == len(game.history)
    [walked] = report["walk"]  # the last action of the loser was not lost yet
    assert walked[:2] == [2, str(game.history[-2])]
    assert walked[3] is False
    [(relative, played, value, _, best_value)] = report["between"]
    assert (relative, played) == (1, str(game.history[-1]))
    assert value == best_value == 1.0  # a win at once: proven, and none better
    assert summary == {"lost": 1, "to_next_seat": 1, "a_seat_between_slipped": 0}


def test_the_walk_goes_on_past_a_position_lost_whatever_the_loser_did(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = lost_game(stoppable=False)
    report, _ = walked_back(game, tmp_path, capsys)
    walked = report["walk"]
    assert walked[0][:2] == [2, str(game.history[-2])]
    assert walked[0][3] is True  # every action let the winner win at once
    assert [step[0] for step in walked] == [2 + 2 * k for k in range(len(walked))]
    assert len(walked) >= 2
