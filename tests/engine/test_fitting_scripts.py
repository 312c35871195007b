"""``scripts/tune_eval.py`` (``generate``, ``walk``, ``label``) and ``scripts/fit_network.py``,
the steps that fit the 2-player Express network (docs/strength.md, "The network
refitted"), on a few shallow self-play games: a walked position lies one to three
legal actions off its game's path, the labels are the search's without the network,
and the fit keeps its test games whatever its seed."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from shiftago.core import Variant
from shiftago.engine import kernel
from shiftago.engine.kernel.tables import OVER, PHASE
from shiftago.engine.search import PROVEN, Searcher
from shiftago.engine.search.network import NO_NETWORK
from support.scripts import script_module

SCALE = 129.5


@pytest.fixture(scope="module")
def tune_eval() -> ModuleType:
    return script_module("tune_eval")


@pytest.fixture(scope="module")
def files(tune_eval: ModuleType, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Six self-play games at depth 1, their walk, and both labelled at depth 2."""
    folder = tmp_path_factory.mktemp("fitting")
    paths = {name: folder / f"{name}.npz" for name in ("games", "walk", "games-deep", "walk-deep")}
    tune_eval.generate(6, 1, 7, paths["games"], Variant.EXPRESS, 1000, True)
    tune_eval.walk(paths["games"], paths["walk"], 7)
    tune_eval.label(paths["games"], paths["games-deep"], 2, 1, SCALE)
    tune_eval.label(paths["walk"], paths["walk-deep"], 2, 1, SCALE)
    return paths


def within(start: np.ndarray, most: int) -> set[bytes]:
    """Every position one to ``most`` legal actions after ``start``."""
    found: set[bytes] = set()
    frontier = [start]
    for _ in range(most):
        following = []
        for s in frontier:
            if int(s[PHASE]) == OVER:
                continue
            for code in kernel.legal_codes(s):
                after = s.copy()
                kernel.apply_action(after, code)
                following.append(after)
        found.update(s.tobytes() for s in following)
        frontier = following
    return found


def test_a_walked_position_lies_one_to_three_actions_off_its_games_path(
    files: dict[str, Path],
) -> None:
    games, walked = np.load(files["games"]), np.load(files["walk"])
    assert 0 < len(walked["states"]) <= (len(games["states"]) + 1) // 2
    assert np.isnan(walked["results"]).all()  # no game reached them
    assert set(walked["games"]) <= set(games["games"])
    assert all(int(s[PHASE]) != OVER for s in walked["states"])
    # each of the first ones is reached by 1-3 actions from a position of its game that
    # the walk starts from (every second position of the file)
    starts = list(zip(games["states"][::2], games["games"][::2], strict=True))
    for s, game in list(zip(walked["states"], walked["games"], strict=True))[:2]:
        assert any(s.tobytes() in within(start, 3) for start, g in starts if g == game)


def test_the_same_seed_walks_the_same_way(
    tune_eval: ModuleType, files: dict[str, Path], tmp_path: Path
) -> None:
    again, other = tmp_path / "again.npz", tmp_path / "other.npz"
    tune_eval.walk(files["games"], again, 7)
    tune_eval.walk(files["games"], other, 8)
    first = np.load(files["walk"])["states"]
    assert np.array_equal(np.load(again)["states"], first)
    assert not np.array_equal(np.load(other)["states"], first)  # unequal shapes too


def test_labels_are_the_searchs_without_the_network(files: dict[str, Path]) -> None:
    labelled = np.load(files["walk-deep"])
    assert len(labelled["deep"]) > 0
    searcher = Searcher(reductions=True, tuned=True, express_network=NO_NETWORK)
    for s, deep in zip(labelled["states"], labelled["deep"], strict=True):
        values = [
            searcher.search(s.copy(), kernel.legal_codes(s), depth=d).values[0] for d in (2, 3)
        ]
        proven = [v for v in values if abs(v) >= PROVEN]
        expected = float(proven[-1] > 0) if proven else 1 / (1 + np.exp(-np.mean(values) / SCALE))
        assert deep == pytest.approx(expected, abs=1e-12)


def test_a_fit_to_the_results_refuses_walked_positions(
    tune_eval: ModuleType, files: dict[str, Path]
) -> None:
    with pytest.raises(SystemExit, match="no game result"):
        tune_eval.fit([files["walk-deep"]], 1e-6, SCALE, "result")


def test_the_network_fit_keeps_its_test_games_and_repeats_itself(
    files: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fit_network = script_module("fit_network")
    paths = [files["games-deep"], files["walk-deep"]]
    *_, games, walked = fit_network.load(paths)
    assert walked.any() and not walked.all()
    test = fit_network.held_out(games)
    # a whole game is in the test or out of it, its walked positions with it
    for game in set(games):
        assert len(set(test[games == game])) == 1
    outs = [tmp_path / f"net{k}.npz" for k in range(3)]
    for out, seed in zip(outs, (1, 1, 2), strict=True):
        fit_network.fit(paths, out, 2, seed, 1e-4, 3e-3)
    printed = capsys.readouterr().out
    assert "walked" in printed and "games" in printed
    nets = [np.load(out) for out in outs]
    assert nets[0]["hidden"].shape == (2 * fit_network.CELL_INPUTS, fit_network.HIDDEN)
    assert all(np.array_equal(nets[0][k], nets[1][k]) for k in ("hidden", "bias", "out"))
    assert not np.array_equal(nets[0]["hidden"], nets[2]["hidden"])
