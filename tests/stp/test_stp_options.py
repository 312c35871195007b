"""The engine protocol's ladders and options (Threads, Hash, Level)."""

from __future__ import annotations

import io
import os
from pathlib import Path

import numpy as np
import pytest

from shiftago.core import State
from shiftago.engine.bot import NO_LIMITS, Analysis, Limits
from shiftago.engine.levels import LEVELS, default_level
from shiftago.engine.search.driver import TT_BITS
from shiftago.engine.search.ttable import MAX_BITS, SLOT_BYTES, bits_for_mib
from shiftago.interfaces.stp import CommandError, Ladder
from shiftago.interfaces.stp.memory import available_memory
from shiftago.interfaces.stp.options import (
    DEFAULT_HASH_MIB,
    MOST_HASH_MIB,
    EngineOptions,
)
from support.stp_bots import SteppingBot


def test_hash_numbers_are_the_searchs_own() -> None:
    assert DEFAULT_HASH_MIB * (1 << 20) == (1 << TT_BITS) * SLOT_BYTES
    assert MOST_HASH_MIB * (1 << 20) == (1 << MAX_BITS) * SLOT_BYTES
    assert bits_for_mib(DEFAULT_HASH_MIB) == TT_BITS
    assert bits_for_mib(MOST_HASH_MIB) == MAX_BITS


def test_the_built_in_ladder_is_the_levels() -> None:
    ladder = Ladder.built_in()
    assert list(ladder.levels) == LEVELS and ladder.default == default_level()
    options = EngineOptions(ladder)
    last = LEVELS[-1][0]
    assert options.listing().splitlines()[-2:] == [
        f"Level int {default_level()} 1 {last}",
        "OwnBook int 1 0 1",
    ]
    assert options.own_book == 1
    options.set("ownbook", "0")
    assert options.own_book == 0
    assert options.level == default_level()
    options.set("LEVEL", "2")
    assert options.level == 2


def test_a_served_bot_is_the_only_level() -> None:
    bot = SteppingBot()
    ladder = Ladder.of(bot)
    assert ladder.levels == ((1, "stepper"),)
    assert ladder.make(1, 99) is bot and ladder.check(1) == 1
    with pytest.raises(CommandError, match="unknown level 2: the levels are 1"):
        ladder.check(2)


def test_defaults_and_set_values() -> None:
    options = EngineOptions(Ladder.of(SteppingBot()))
    assert (options.threads, options.hash_mib, options.level) == (1, None, 1)
    options.set("threads", "4")
    options.set("Hash", str(DEFAULT_HASH_MIB))
    assert (options.threads, options.hash_mib) == (4, DEFAULT_HASH_MIB)


@pytest.mark.parametrize(
    ("name", "value", "words"),
    [
        ("Threads", "0", "Threads must be 1 to 64, not 0"),
        ("Threads", "65", "Threads must be 1 to 64, not 65"),
        ("Hash", "-1", "Hash must be 1 to"),
        ("Hash", "1.5", "whole number"),
        ("Level", "0", "Level must be 1 to 7"),
        ("Ponder", "1", "unknown option 'Ponder': the options are Threads, Hash, Level"),
    ],
)
def test_a_bad_value_is_refused_and_changes_nothing(name: str, value: str, words: str) -> None:
    options = EngineOptions(Ladder.built_in())
    options.set("Threads", "3")
    before = options.listing(), options.threads, options.hash_mib, options.level
    with pytest.raises(CommandError, match=words):
        options.set(name, value)
    assert (options.listing(), options.threads, options.hash_mib, options.level) == before


def test_setting_hash_makes_the_table_before_it_answers() -> None:
    # The table of a Hash of some hundred MiB takes longer to make than a short
    # movetime: it is made (in the search thread, where the searches find it) before
    # setoption answers, and again cleared at newgame, never at the next go.
    from shiftago.engine.search import driver
    from shiftago.interfaces.stp import StpEngine

    engine = StpEngine()

    def slots_there() -> int:
        table = getattr(driver._THREAD, "table", None)
        return 0 if table is None else int(table[0].shape[0])

    assert engine.handle("setoption Hash 64") == "=\n\n"
    assert engine.search_thread.submit(slots_there).result() == 1 << bits_for_mib(64)
    assert engine.handle("setoption Hash 32") == "=\n\n"
    assert engine.search_thread.submit(slots_there).result() == 1 << bits_for_mib(32)


def resident_bytes() -> int:
    """The memory this process holds now (Linux's /proc/self/statm, in pages)."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE")


def test_the_table_of_a_hash_is_the_process_s_memory_before_setoption_answers() -> None:
    # a table only reserved would be paid for by the first timed go, page by page
    from shiftago.interfaces.stp import StpEngine

    engine = StpEngine()
    before = resident_bytes()
    assert engine.handle("setoption Hash 256") == "=\n\n"
    assert resident_bytes() - before > 200 << 20


def test_a_hash_beyond_the_memory_available_is_refused_before_it_is_made(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from shiftago.interfaces.stp import StpEngine, commands

    engine = StpEngine(io.StringIO())
    assert engine.handle("setoption Hash 64") == "=\n\n"
    monkeypatch.setattr(commands, "available_memory", lambda: 40 << 20)
    refused = engine.handle("setoption Hash 128")
    assert refused.startswith("? not enough memory for the table of Hash 128 MiB")
    assert engine.options.hash_mib == 64
    # the table in use is not made again: nothing more is asked of the memory
    assert engine.handle("setoption Hash 64") == "=\n\n"
    assert engine.handle("setoption Hash 32") == "=\n\n"


def test_the_memory_available_is_read_from_meminfo(tmp_path: Path) -> None:
    meminfo = tmp_path / "meminfo"
    meminfo.write_text("MemTotal:       24000000 kB\nMemAvailable:    1500 kB\n")
    assert available_memory(meminfo) == 1500 * 1024
    meminfo.write_text("MemTotal:       24000000 kB\n")
    assert available_memory(meminfo) is None
    assert available_memory(tmp_path / "absent") is None


class _WantsStop(SteppingBot):
    def analyse(self, state: State, limits: Limits = NO_LIMITS) -> Analysis:
        assert limits.stop is not None, "an event is never None when the protocol calls"
        return super().analyse(state, limits)


def test_a_served_bot_gets_a_stop_event_when_its_table_is_made() -> None:
    from shiftago.interfaces.stp import StpEngine

    log = io.StringIO()
    engine = StpEngine(log, ladder=Ladder.of(_WantsStop()))
    for line in ("setoption Hash 16", "setoption Level 1", "newgame express 2"):
        assert engine.handle(line) == "=\n\n"
    assert "Traceback" not in log.getvalue()


def test_a_hash_the_memory_cannot_hold_is_refused_and_changes_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from shiftago.engine.search import driver
    from shiftago.interfaces.stp import StpEngine

    engine = StpEngine(io.StringIO())
    assert engine.handle("setoption Hash 16") == "=\n\n"
    made = driver.new_table
    too_large = bits_for_mib(32)

    def short_of_memory(bits: int) -> tuple[np.ndarray, np.ndarray]:
        if bits >= too_large:
            raise MemoryError(f"Unable to allocate {1 << bits} slots")
        return made(bits)

    monkeypatch.setattr(driver, "new_table", short_of_memory)
    refused = engine.handle("setoption Hash 64")
    assert (
        refused
        == "? not enough memory for the table of Hash 64 MiB: the options stay as they were\n\n"
    )
    assert engine.options.hash_mib == 16
    answer = engine.handle("go depth=2")
    assert answer is not None and answer.startswith("= ")


class _ShortOfMemory(SteppingBot):
    def analyse(self, state: State, limits: Limits = NO_LIMITS) -> Analysis:
        raise MemoryError("Unable to allocate 8.00 GiB")


def test_a_search_short_of_memory_says_so_and_the_engine_plays_on() -> None:
    from shiftago.interfaces.stp import StpEngine

    engine = StpEngine(io.StringIO(), ladder=Ladder.of(_ShortOfMemory()))
    assert engine.handle("go") == "? not enough memory for the search\n\n"
    assert engine.handle("setoption Threads 2") == "=\n\n"
    assert engine.handle("position") is not None
