"""``go``/``analyse`` options as limits, and progress as ``info`` lines."""

from __future__ import annotations

import pytest

from shiftago.core import Action, Rules, State, Variant
from shiftago.engine.bot import LARGEST_LIMIT, Limits, Progress, RankedAction
from shiftago.engine.levels import bot_for_level
from shiftago.interfaces.stp import CommandError
from shiftago.interfaces.stp.search import SearchRequest, info_line


@pytest.mark.parametrize(
    ("words", "fields"),
    [
        ("", {"movetime_ms": None, "clock_ms": None, "increment_ms": 0, "infinite": False}),
        ("movetime=250 depth=3 nodes=9", {"movetime_ms": 250, "depth": 3, "nodes": 9}),
        ("clock=0", {"clock_ms": 0, "increment_ms": 0, "moves_to_go": None}),
        ("CLOCK=61000 Increment=0 moves=40", {"clock_ms": 61000, "moves_to_go": 40}),
        ("clock=900 movetime=100", {"clock_ms": 900, "movetime_ms": 100}),
        ("INFINITE", {"infinite": True, "depth": None}),
    ],
)
def test_options_become_limits(words: str, fields: dict[str, object]) -> None:
    request = SearchRequest.parse(words.split(), "go")
    for name, value in fields.items():
        assert getattr(request.limits, name) == value
    assert request.limits.stop is not None and not request.limits.stop.is_set()
    assert (request.level, request.info) == (None, False)


def test_level_and_info() -> None:
    request = SearchRequest.parse(["info=1", "level=3"], "analyse")
    assert (request.level, request.info) == (3, True)
    assert SearchRequest.parse(["info=0"], "go").info is False


def test_every_search_has_its_own_stop() -> None:
    one, two = (SearchRequest.parse([], "go") for _ in range(2))
    assert one.limits.stop is not two.limits.stop


@pytest.mark.parametrize(
    ("words", "message"),
    [
        ("infinite nodes=5", "infinite searches until stop: it takes no nodes="),
        ("increment=5 moves=3", "increment= moves= only go with clock="),
        ("movetime=0", "movetime must be at least 1, not 0"),
        ("movetime=-5", "movetime must be at least 1, not -5"),
        ("depth=-" + "9" * 40, "depth must be at least 1, not a number of 40 digits"),
        ("depth=-x", "depth must be a whole number, not '-x'"),
        ("depth=", "option depth= needs a value"),
        ("clock=1 clock=2", "option clock= given twice"),
        ("ponder", "unknown option for analyse: 'ponder'"),
        ("depth=" + "9" * 5000, "depth must be at most 10{18}, not a number of 5000 digits"),
        ("clock=" + "9" * 33, "clock must be at most 10{18}, not a number of 33 digits"),
        # past what a search counts in 64 bits: refused, not an overflow inside it
        ("nodes=" + "9" * 20, "nodes must be at most 10{18}, not 9{20}"),
        ("nodes=9223372036854775808", "nodes must be at most 10{18}, not 9223372036854775808"),
        ("clock=" + "0" * 40 + "5", None),
        ("depth=x9", "depth must be a whole number, not 'x9'"),
    ],
)
def test_bad_options_are_refused(words: str, message: str | None) -> None:
    if message is None:  # leading zeros are no digits of the number
        assert SearchRequest.parse(words.split(), "analyse").limits.clock_ms == 5
        return
    with pytest.raises(CommandError, match=message):
        SearchRequest.parse(words.split(), "analyse")


LINE = (RankedAction(Action.parse("Td"), 34, (Action.parse("Td"), Action.parse("L3"))),)


@pytest.mark.parametrize(
    ("progress", "expected"),
    [
        (
            Progress(9, 34, 0, 1830211, 0.586, LINE),
            "info depth 9 value 34 nodes 1830211 nps 3123227 time 586 pv Td L3",
        ),
        (Progress(2, 0.25, 0, 10, 0.004, ()), "info depth 2 value 0.250 nodes 10 nps 2500 time 4"),
        (
            Progress(7, 990, 7, 5, 0.0, LINE),
            "info depth 7 value win 7 nodes 5 nps 0 time 0 pv Td L3",
        ),
        (
            Progress(4, -996, -4, 8, 2.0, LINE),
            "info depth 4 value loss 4 nodes 8 nps 4 time 2000 pv Td L3",
        ),
    ],
)
def test_info_lines(progress: Progress, expected: str) -> None:
    assert info_line(progress) == expected


@pytest.mark.parametrize("players", [2, 3])
def test_the_largest_node_limit_searches(players: int) -> None:
    """The largest ``nodes=`` taken reaches the search's 64-bit counters without an
    overflow (2 players: alpha-beta, 3: the MCTS); one past it is refused first."""
    request = SearchRequest.parse([f"nodes={LARGEST_LIMIT}", "movetime=50"], "go")
    state = State.initial(Rules(Variant.EXPRESS, players), 0)
    action = bot_for_level(7, 1).choose(state, request.limits)
    assert action in state.legal_actions()
    with pytest.raises(ValueError, match="the limit nodes must be at most"):
        Limits(nodes=LARGEST_LIMIT + 1)
