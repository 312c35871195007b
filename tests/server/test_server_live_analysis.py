"""The live analysis socket ``/ws/analysis`` (docs/web-protocol.md, "Live analysis of a
position"): lines as the computer thinks, each depth of one alpha-beta search as it ends,
final when proven or the budget is spent, bad input answered with an error, a new
position replaces the search and stops it in its thread, stop ends it. The searches are
capped by nodes (``live_analysis_cap``), not time; :class:`SteppingBot` stands in for the
alpha-beta bot where a test needs to hold a search at a depth."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from shiftago.core import Game, Rules, State, Variant
from shiftago.engine.alphabeta import AlphaBetaBot
from shiftago.engine.bot import NO_LIMITS, Analysis, Limits, Progress, RankedAction
from shiftago.engine.levels import bot_for_level, default_level
from shiftago.engine.search import SearchResult
from shiftago.interfaces.server.analysis.searches import LiveAnalysis
from shiftago.interfaces.server.analysis.socket import parse
from shiftago.interfaces.server.door.protocol import BadMessage
from support.server_support import TIMEOUT, Player, client_for

#: Orange wins at once with L1 or Be.
CHANCE = "express 2 7/7/7/7/7/g6/oooo3 o insert 18,21 0,0 0,0"
START = State.initial(Rules(Variant.EXPRESS, 2), 0).position()
#: The live searches' cap in these tests: a few depths, a fraction of a second.
CAP = 6_000


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'live.db'}"


@contextmanager
def analysis_socket(client: Any, **kwargs: Any) -> Iterator[Player]:
    with client.websocket_connect("/ws/analysis", **kwargs) as ws:
        yield Player(ws)


#: How long the first search may wait for the engine's warm-up: with numba's cache cold
#: (a fresh checkout, or a change to a compiled source) it compiles for 25 s or more.
WARM_UP_SECONDS = 180.0


def stream(player: Player, position: str, timeout: float = TIMEOUT) -> list[dict[str, Any]]:
    """The ``lines`` events of ``position`` up to the final one."""
    events = []
    while True:
        event = player.receive(timeout)
        assert event["type"] == "lines", event
        if event["position"] != position:
            continue
        events.append(event)
        if event["final"]:
            return events


def warm(player: Player) -> None:
    """Wait for the engine's warm-up (the first search waits for it in the same thread)."""
    player.send({"type": "analyse", "position": CHANCE, "lines": 1})
    stream(player, CHANCE, WARM_UP_SECONDS)


def service(client: Any) -> LiveAnalysis:
    live: LiveAnalysis = client.app.state.live_analysis
    return live


def count_searches(live: LiveAnalysis) -> list[Limits]:
    """The limits of every search of the 2-player judge from now on (one per search)."""
    calls: list[Limits] = []
    judge = live.bot.alphabeta
    real = judge.analyse

    def counted(state: State, limits: Limits = NO_LIMITS) -> Analysis:
        calls.append(limits)
        return real(state, limits)

    judge.analyse = counted  # type: ignore[method-assign]
    return calls


def pool_is_free(live: LiveAnalysis) -> bool:
    """Whether the analysis thread takes a new job: the search before it has ended."""
    return live.pool.submit(lambda: True).result(timeout=TIMEOUT)


def shown(event: dict[str, Any]) -> list[tuple[str, int]]:
    return [(line["action"], line["value"]) for line in event["lines"]]


class SteppingBot(AlphaBetaBot):
    """A stand-in for the alpha-beta bot: it reports ``depths`` depths, the ``i``-th
    legal action valued ``10 * depth - i`` at each, and answers the last one; in the
    position ``hold`` it waits for the stop event after depth 2, and notes whether the
    stop came (:attr:`stopped`)."""

    def __init__(self, depths: int = 4, hold: str | None = None) -> None:
        super().__init__(0)
        self.depths = depths
        self.hold = hold
        self.calls: list[Limits] = []
        self.stopped: list[bool] = []

    def analyse(self, state: State, limits: Limits = NO_LIMITS) -> Analysis:
        self.calls.append(limits)
        legal = state.legal_actions()
        ranked: list[RankedAction] = []
        depth = 0
        while depth < self.depths and not (limits.stop is not None and limits.stop.is_set()):
            depth += 1
            ranked = [RankedAction(a, 10 * depth - i, (a,)) for i, a in enumerate(legal)]
            if limits.progress is not None:
                progress = Progress(depth, ranked[0].value, 0, 100 * depth, 0.0, tuple(ranked))
                limits.progress(progress)
            if depth == 2 and state.position() == self.hold:
                assert limits.stop is not None
                self.stopped.append(limits.stop.wait(TIMEOUT))
        self.last = SearchResult([], [], [], depth, 100 * depth, 0.0)
        return ranked


@contextmanager
def stepping(client: Any, bot: SteppingBot) -> Iterator[SteppingBot]:
    """``bot`` judges the 2-player positions of the client's live analysis."""
    live = service(client)
    real = live.bot.alphabeta
    live.bot.alphabeta = bot
    try:
        yield bot
    finally:
        live.bot.alphabeta = real


def test_a_win_in_one_comes_first_and_is_final(sqlite_url):
    with client_for(sqlite_url, live_analysis_cap=CAP) as client, analysis_socket(client) as p:
        warm(p)
        p.send({"type": "analyse", "position": CHANCE, "lines": 1})
        first = p.receive()
        assert first["type"] == "lines" and first["position"] == CHANCE
        assert first["final"] is True and first["depth"] == 1 and first["nodes"] > 0
        assert first["unit"].startswith("centi-units")
        [best] = first["lines"]
        assert best["action"] in {"L1", "Be"} and best["value"] > 999
        assert best["expected"] == 1.0 and best["pv"][0] == best["action"]
        assert best["proven"] == 1  # a win, proven
        p.send({"type": "ping"})
        assert p.receive() == {"type": "pong"}  # nothing after the final event


def test_with_more_lines_a_proven_best_does_not_end_the_search(sqlite_url):
    # the two wins in one are proven at depth 1, the third line is not: it is searched
    # deeper (until proven, or the budget is spent) instead of left at depth 1's value
    with client_for(sqlite_url, live_analysis_cap=CAP) as client, analysis_socket(client) as p:
        warm(p)
        p.send({"type": "analyse", "position": CHANCE, "lines": 3})
        events = stream(p, CHANCE)
    first, last = events[0], events[-1]
    assert first["depth"] == 1 and not first["final"]
    assert [line["proven"] for line in first["lines"]] == [1, 1, 0]
    assert last["final"] and last["depth"] > 1
    assert {line["action"] for line in last["lines"][:2]} == {"L1", "Be"}
    assert last["lines"][2]["proven"] != 0 or last["nodes"] >= CAP  # proven, or spent


def test_lines_deepen_in_one_search_until_the_budget_is_spent(sqlite_url):
    with client_for(sqlite_url, live_analysis_cap=CAP) as client, analysis_socket(client) as p:
        searches = count_searches(service(client))
        p.send({"type": "analyse", "position": START, "lines": 2})
        events = stream(p, START)
    assert len(searches) == 1 and searches[0].nodes == CAP  # one search, not one per depth
    depths = [e["depth"] for e in events]
    assert depths[:-1] == list(range(1, len(events))) and len(events) >= 3
    assert depths[-1] == depths[-2]  # the answer: the last depth the budget finished
    assert shown(events[-1]) == shown(events[-2])
    nodes = [e["nodes"] for e in events]
    assert nodes == sorted(nodes) and nodes[-1] <= CAP + 1_000  # counted from the start
    assert all(not e["final"] for e in events[:-1])
    for event in events:
        assert len(event["lines"]) == 2
        for line in event["lines"]:
            assert isinstance(line["value"], int) and 0 < line["expected"] < 1
            assert line["proven"] == 0  # the start proves nothing
            assert line["pv"][0] == line["action"]


def test_each_depth_shows_what_a_search_to_that_depth_finds(sqlite_url):
    with client_for(sqlite_url, live_analysis_cap=CAP) as client, analysis_socket(client) as p:
        p.send({"type": "analyse", "position": START, "lines": 8})
        events = stream(p, START)
    state = State.from_position(START)
    for event in events[:-1]:
        alone = bot_for_level(default_level(), 0).analyse(
            state, Limits(depth=event["depth"], nodes=CAP)
        )
        assert shown(event) == [(str(r.action), int(r.value)) for r in alone[:8]], event["depth"]


def test_the_depths_of_one_search_are_sent_in_order_then_its_answer(sqlite_url):
    with (
        client_for(sqlite_url) as client,
        analysis_socket(client) as p,
        stepping(client, SteppingBot(depths=4)) as fake,
    ):
        p.send({"type": "analyse", "position": START, "lines": 2})
        events = stream(p, START)
    assert len(fake.calls) == 1 and fake.calls[0].progress is not None
    assert [(e["depth"], e["nodes"], e["final"]) for e in events] == [
        (1, 100, False),
        (2, 200, False),
        (3, 300, False),
        (4, 400, False),
        (4, 400, True),
    ]
    legal = [str(a) for a in State.from_position(START).legal_actions()]
    for event in events:
        assert shown(event) == [
            (legal[0], 10 * event["depth"]),
            (legal[1], 10 * event["depth"] - 1),
        ]


def test_a_new_position_stops_the_search_in_its_thread(sqlite_url):
    with (
        client_for(sqlite_url) as client,
        analysis_socket(client) as p,
        stepping(client, SteppingBot(depths=4, hold=START)) as fake,
    ):
        p.send({"type": "analyse", "position": START, "lines": 1})
        assert [p.receive()["depth"] for _ in range(2)] == [1, 2]  # held after depth 2
        p.send({"type": "analyse", "position": CHANCE, "lines": 1})
        events = stream(p, CHANCE)  # the one thread searched it: the first search ended
        assert fake.stopped == [True]
        assert fake.calls[0].stop is not None and fake.calls[0].stop.is_set()
        assert len(fake.calls) == 2 and [e["depth"] for e in events][-1] == 4
        p.send({"type": "ping"})
        assert p.receive() == {"type": "pong"}  # nothing more of the stopped search


def test_stop_and_a_closed_socket_stop_the_search_in_its_thread(sqlite_url):
    with client_for(sqlite_url) as client, stepping(client, SteppingBot(4, START)) as fake:
        with analysis_socket(client) as p:
            p.send({"type": "analyse", "position": START, "lines": 1})
            assert [p.receive()["depth"] for _ in range(2)] == [1, 2]
            p.send({"type": "stop"})
            p.send({"type": "ping"})
            assert p.receive() == {"type": "pong"}
            assert pool_is_free(service(client)) and fake.stopped == [True]
            p.send({"type": "analyse", "position": START, "lines": 1})
            assert [p.receive()["depth"] for _ in range(2)] == [1, 2]
        assert pool_is_free(service(client)) and fake.stopped == [True, True]
    assert all(call.stop is not None and call.stop.is_set() for call in fake.calls)


def test_three_players_hear_one_mcts_search_in_doubling_chunks(sqlite_url):
    game = Game(Rules(Variant.EXPERT, 3), first=1)
    bot = bot_for_level(2, 1)
    for _ in range(6):
        game.play(bot.choose(game.state))
    position = game.position()
    with client_for(sqlite_url, live_analysis_cap=4_000) as client, analysis_socket(client) as p:
        mcts = service(client).bot.mcts
        real = mcts.analyse
        calls: list[Limits] = []

        def counted(state: State, limits: Limits = NO_LIMITS) -> Analysis:
            calls.append(limits)
            return real(state, limits)

        mcts.analyse = counted  # type: ignore[method-assign]
        p.send({"type": "analyse", "position": position, "lines": 8})
        events = stream(p, position)
    # chunks of 1,024 and 2,048 iterations, then the answer at the budget
    assert [e["nodes"] for e in events] == [1_024, 3_072, 4_000]
    assert [e["final"] for e in events] == [False, False, True]
    assert [call.nodes for call in calls] == [4_000]  # one search
    assert all(call.stop is not None and call.stop.is_set() for call in calls)  # ended
    assert "mean reward" in events[0]["unit"]
    for line in events[-1]["lines"]:
        assert line["expected"] == line["value"] and 0 <= line["value"] <= 1


def test_a_finished_position_answers_no_lines(sqlite_url):
    game = Game(position=CHANCE)
    game.play("L1")
    with client_for(sqlite_url) as client, analysis_socket(client) as p:
        p.send({"type": "analyse", "position": game.position()})
        event = p.receive()
    assert event["final"] is True and event["lines"] == [] and event["type"] == "lines"
    assert event["position"] == game.position()  # the core's own words for the end


def test_bad_input_answers_an_error_and_changes_nothing(sqlite_url):
    with client_for(sqlite_url, live_analysis_cap=CAP) as client, analysis_socket(client) as p:
        p.send({"type": "analyse", "position": "express 2 7/7/7 o insert"})
        bad = p.receive()
        assert bad["type"] == "error" and bad["code"] == "bad_position" and bad["message"]
        for message in (
            {"type": "analyse", "position": START, "lines": 9},
            {"type": "analyse", "position": START, "lines": "3"},
            {"type": "analyse"},
            {"type": "think"},
            {"type": "analyse", "position": START, "extra": 1},
        ):
            p.send(message)
            assert p.receive()["code"] == "bad_message", message
        p.ws.send_text("not json")
        assert p.receive()["code"] == "bad_message"
        p.send({"type": "ping"})
        assert p.receive() == {"type": "pong"}


def test_parse_is_strict():
    assert parse('{"type": "analyse", "position": "x"}').lines == 3  # type: ignore[union-attr]
    for text in ('{"type": "analyse", "position": ""}', "[]", b"{}", '{"type": 3}'):
        with pytest.raises(BadMessage):
            parse(text)


def test_a_new_position_replaces_the_search_and_stop_ends_it(sqlite_url):
    with client_for(sqlite_url, live_analysis_cap=400_000) as client, analysis_socket(client) as p:
        p.send({"type": "analyse", "position": START, "lines": 1})
        assert p.receive()["position"] == START  # the first step of a long search
        p.send({"type": "analyse", "position": CHANCE, "lines": 1})
        events = []
        while not (events and events[-1]["position"] == CHANCE):
            events.append(p.receive())
        assert events[-1]["final"] is True
        p.send({"type": "ping"})
        assert p.receive() == {"type": "pong"}  # nothing of the replaced search after it
        p.send({"type": "analyse", "position": START, "lines": 1})
        assert p.receive()["position"] == START
        p.send({"type": "stop"})
        p.send({"type": "ping"})
        while (event := p.receive())["type"] != "pong":  # lines sent before the stop
            assert event["position"] == START and not event["final"]
        assert pool_is_free(service(client))
        p.send({"type": "ping"})
        assert p.receive() == {"type": "pong"}  # the search ended: no more lines


def test_foreign_origins_are_refused(sqlite_url):
    with client_for(sqlite_url, public_url="https://shiftago.example.org") as client:
        evil = {"origin": "https://evil.example"}
        with pytest.raises(WebSocketDisconnect), analysis_socket(client, headers=evil):
            pass
        with analysis_socket(client, headers={"origin": "https://shiftago.example.org"}) as p:
            p.send({"type": "ping"})
            assert p.receive() == {"type": "pong"}


def test_too_many_messages_are_refused_then_the_socket_closed(sqlite_url):
    with client_for(sqlite_url, rate=0.01, burst=2) as client, analysis_socket(client) as p:
        for _ in range(14):
            p.send({"type": "ping"})
        codes = []
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                event = p.receive()
                codes.append(event.get("code", event["type"]))
        assert closed.value.code == 1008
        assert codes[:2] == ["pong", "pong"] and set(codes[2:]) == {"rate_limited"}


def test_one_address_has_at_most_two_searches_at_once(sqlite_url):
    # the searches share one thread: a third socket of the same address waits its turn
    # by being refused, not by holding everyone else's analysis back
    with (
        client_for(sqlite_url) as client,
        stepping(client, SteppingBot(depths=4, hold=START)),
        analysis_socket(client) as first,
        analysis_socket(client) as second,
        analysis_socket(client) as third,
    ):
        first.send({"type": "analyse", "position": START, "lines": 1})
        assert first.receive()["depth"] == 1  # running, held in the thread
        second.send({"type": "analyse", "position": CHANCE, "lines": 1})  # waiting
        third.send({"type": "analyse", "position": CHANCE, "lines": 1})
        refused = third.until_type("error")
        assert refused["code"] == "busy" and "at most 2 analyses at once" in refused["message"]
        first.send({"type": "stop"})  # one of the two ends: the third may start
        first.send({"type": "ping"})
        assert first.until_type("pong") == {"type": "pong"}  # the stop is done
        third.send({"type": "analyse", "position": CHANCE, "lines": 1})
        assert stream(third, CHANCE)[-1]["final"] is True
        second.send({"type": "stop"})
        for player in (second, third):
            player.send({"type": "ping"})
            assert player.until_type("pong") == {"type": "pong"}
        assert not service(client).searching  # no search left: no address counted
