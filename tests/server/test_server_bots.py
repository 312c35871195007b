"""Computer seats (:mod:`shiftago.interfaces.server.games.bots`): each thinks with the search
threads of the settings (``$SHIFTAGO_ENGINE_THREADS``, 1 unless configured) and within
the clock's movetime when the game is timed; a bad thread count is refused in words."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

from shiftago.core import Action, Rules, State
from shiftago.engine.bot import NO_LIMITS, Limits
from shiftago.engine.levels import LEVELS, LevelBot, bot_for_level
from shiftago.interfaces.server.games import bots
from shiftago.interfaces.server.settings import (
    ENGINE_THREADS_VARIABLE,
    Settings,
    engine_threads_from,
)
from support.server_support import TIMEOUT, client_for, create
from support.waiting import wait_until


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'bots.db'}"


@pytest.mark.parametrize(
    ("environment", "threads"),
    [({}, 1), ({ENGINE_THREADS_VARIABLE: ""}, 1), ({ENGINE_THREADS_VARIABLE: " 3 "}, 3)],
)
def test_the_engine_threads_come_from_the_environment(environment, threads):
    assert engine_threads_from(environment) == threads


@pytest.mark.parametrize("text", ["0", "-2", "65", "two", "1.5"])
def test_a_bad_engine_thread_count_is_refused_in_words(text):
    with pytest.raises(ValueError, match=ENGINE_THREADS_VARIABLE) as refused:
        engine_threads_from({ENGINE_THREADS_VARIABLE: text})
    assert repr(text) in str(refused.value) and "1 to 64" in str(refused.value)


def test_settings_read_the_engine_threads_once_and_check_them(monkeypatch):
    monkeypatch.delenv(ENGINE_THREADS_VARIABLE, raising=False)
    assert Settings().engine_threads == 1
    monkeypatch.setenv(ENGINE_THREADS_VARIABLE, "2")
    settings = Settings()
    assert settings.engine_threads == 2
    monkeypatch.setenv(ENGINE_THREADS_VARIABLE, "5")
    assert settings.with_options(rate=1.0).engine_threads == 2  # a copy keeps its value
    assert Settings(engine_threads=4).engine_threads == 4
    with pytest.raises(ValueError, match="engine threads must be from 1 to 64, not 0"):
        Settings(engine_threads=0)


def test_a_seat_s_limits_carry_its_threads_and_its_movetime():
    assert bots.seat_limits(None) == Limits()
    assert bots.seat_limits(None, 3) == Limits(threads=3)
    assert bots.seat_limits(1.5, 2) == Limits(movetime_ms=1500, threads=2)
    assert bots.seat_limits(0.0001).movetime_ms == 1  # never below a millisecond


def thinks_with(sqlite_url: str, monkeypatch: Any, **options: Any) -> Limits:
    """The limits the computer seat of a new game thinks within (it acts first)."""
    seen: list[Limits] = []
    thought = threading.Event()
    real_choose = bots.choose

    def recording(level: int, seed: int, state: State, limits: Limits) -> Action:
        seen.append(limits)
        thought.set()
        return real_choose(level, seed, state, limits)

    monkeypatch.setattr(bots, "choose", recording)
    with client_for(sqlite_url, **options) as client:
        create(client, first="g", seats=[{"kind": "human"}, {"kind": "computer", "level": 1}])
        assert thought.wait(TIMEOUT), "the computer never thought"
    return seen[0]


def test_a_computer_seat_thinks_with_one_thread_unless_configured(sqlite_url, monkeypatch):
    monkeypatch.delenv(ENGINE_THREADS_VARIABLE, raising=False)
    assert thinks_with(sqlite_url, monkeypatch) == Limits(threads=1)


def test_a_computer_seat_thinks_with_the_configured_threads(sqlite_url, monkeypatch):
    monkeypatch.setenv(ENGINE_THREADS_VARIABLE, "3")  # as a serve process is told
    assert thinks_with(sqlite_url, monkeypatch) == Limits(threads=3)


def test_a_computer_move_whose_job_failed_is_made_by_the_sweep(sqlite_url, monkeypatch):
    calls: list[int] = []
    real_choose = bots.choose

    def fails_once(level: int, seed: int, state: State, limits: Limits) -> Action:
        calls.append(level)
        if len(calls) == 1:
            raise RuntimeError("the first search breaks")
        return real_choose(level, seed, state, limits)

    monkeypatch.setattr(bots, "choose", fails_once)
    with client_for(sqlite_url, computer_sweep_seconds=0.2) as client:
        game_id, _ = create(
            client, first="g", seats=[{"kind": "human"}, {"kind": "computer", "level": 1}]
        )
        game = wait_until(
            lambda: client.get(f"/api/games/{game_id}").json(),
            lambda game: game["version"] != 0,
            TIMEOUT,
            "the computer never moved",
        )
    assert len(calls) == 2 and game["version"] == 1 and game["turn"] == "o"


def test_without_the_sweep_a_failed_computer_move_stays_unmade(sqlite_url, monkeypatch):
    calls: list[int] = []

    def fails(level: int, seed: int, state: State, limits: Limits) -> Action:
        calls.append(level)
        raise RuntimeError("every search breaks")

    monkeypatch.setattr(bots, "choose", fails)
    with client_for(sqlite_url, computer_sweep_seconds=3600) as client:
        game_id, _ = create(
            client, first="g", seats=[{"kind": "human"}, {"kind": "computer", "level": 1}]
        )
        wait_until(lambda: calls, timeout=TIMEOUT, what="the computer never thought")
        time.sleep(0.5)  # what is checked: in this while no second try comes
        assert calls == [1] and client.get(f"/api/games/{game_id}").json()["version"] == 0


def test_a_timed_seat_searches_no_more_than_its_level_untimed(monkeypatch):
    """The top level spends a share of its clock where it is told one; a seat of the
    web app keeps its level's budget inside the clock's movetime instead."""
    seen: list[Limits] = []

    def recording(self: LevelBot, state: State, limits: Limits = NO_LIMITS) -> Action:
        seen.append(self.limits_for(state, limits))
        return state.legal_actions()[0]

    monkeypatch.setattr(LevelBot, "choose", recording)
    state = State.initial(Rules(), 0)
    top = bot_for_level(LEVELS[-1][0], 1)
    assert isinstance(top, LevelBot)
    bots.choose(top.rung.number, 1, state, bots.seat_limits(40.0))
    bots.choose(top.rung.number, 1, state, bots.seat_limits(None))
    bots.choose(top.rung.number, 1, state, Limits(movetime_ms=40_000, nodes=1_000))
    assert [(limits.movetime_ms, limits.nodes) for limits in seen] == [
        (40_000, top.budget(state)),
        (None, top.budget(state)),
        (40_000, 1_000),
    ]
