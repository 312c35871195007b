"""Games under a clock: time comes off, the increment comes on, and a side whose time runs
out loses on time. The bots here think in a made-up time that the runner reads through
its injected timer, so no test waits and none depends on the machine's speed."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest

from shiftago.core import Phase, State, Variant
from shiftago.engine.bot import NO_LIMITS, Analysis, Bot, Limits, RankedAction
from shiftago.formats.record import parse_record
from shiftago.interfaces import arena_report
from shiftago.interfaces.arena_report import format_forfeits, format_standings
from shiftago.match import MatchConfig, TimeControl, run_match
from shiftago.match import participants as registry
from shiftago.match.games import TIME_FORFEIT, GameResult
from shiftago.match.standings import Forfeit


@dataclass
class FakeTime:
    """The seconds the runner reads: only a thinking bot moves them on."""

    now: float = 1000.0
    #: Every bot made, one per seat of each game, in the order they were made.
    bots: list[Thinker] = field(default_factory=list)
    #: Every action asked for: the bot and the limits it was given, in order.
    log: list[tuple[Thinker, Limits]] = field(default_factory=list)
    #: Whether each action asked for was a scoring (the position's phase).
    scoring: list[bool] = field(default_factory=list)

    def __call__(self) -> float:
        return self.now


class Thinker(Bot):
    """Spends ``seconds`` of the fake time on each action, then plays the first legal one."""

    name = "thinker"

    def __init__(self, seconds: float, time: FakeTime) -> None:
        self.seconds = seconds
        self.time = time
        #: The limits of each action, in order.
        self.asked: list[Limits] = []

    def analyse(self, state: State, limits: Limits = NO_LIMITS) -> Analysis:
        self.asked.append(limits)
        self.time.log.append((self, limits))
        self.time.scoring.append(state.phase is Phase.SCORE)
        self.time.now += self.seconds
        return [RankedAction(a, 0.0) for a in state.legal_actions()]


@pytest.fixture
def fake_time(monkeypatch: pytest.MonkeyPatch) -> FakeTime:
    """A fake time, and the bot ``think:SECONDS`` that spends it."""
    time = FakeTime()

    def make(argument: str | None, seed: int) -> Bot:
        bot = Thinker(float(argument or 0), time)
        time.bots.append(bot)
        return bot

    monkeypatch.setitem(registry.BOTS, "think", make)
    return time


def timed(tmp_path: Path, *participants: str, **changes: object) -> MatchConfig:
    base = MatchConfig(
        participants=participants,
        games=2,
        clock=TimeControl(60, 0),
        results=tmp_path / "m.jsonl",
        date="2026-01-02",
    )
    return replace(base, **changes)


def test_a_side_that_thinks_too_long_loses_on_time(tmp_path, fake_time):
    # 25 s an action on a minute: the third answer comes after 75 s.
    result = run_match(timed(tmp_path, "think:25", "think:1"), timer=fake_time)
    slow, quick = result.participants
    for game in result.games:
        seat = game.seats.index(slow.key)
        assert game.termination == game.reason == TIME_FORFEIT
        assert game.lost_on_time == seat
        assert game.points[seat] == 0 and game.points[1 - seat] == 1
        assert game.moves[seat] == 3 and game.think_s[seat] == pytest.approx(75)
        assert game.clock_left_s is not None and game.clock_left_s[seat] == 0
        assert game.detail is not None and "think:25 ran out of time" in game.detail
        record = parse_record((tmp_path / "m-records" / game.record_file).read_text())
        assert record.termination == f"{TIME_FORFEIT}: {game.detail}"  # the kind, and why
        assert record.result == "og"[1 - seat]
        assert len(record.actions) == game.actions  # the late action is not played
        record.to_game()
    rows = {r.key: r for r in result.standings.rows}
    assert (rows[slow.key].time_losses, rows[slow.key].losses) == (2, 2)
    assert rows[quick.key].time_losses == 0
    assert rows[slow.key].ms_per_move == pytest.approx(25_000)
    table = format_standings(result.standings)
    assert "lost on time" in table.splitlines()[0]
    assert result.to_json()["participants"][0]["time_losses"] == 2
    assert (rows[slow.key].forfeits, rows[quick.key].forfeits) == (2, 0)
    listed = result.to_json()["forfeits"]
    assert [(f["participant"], f["termination"]) for f in listed] == [
        ("think:25", TIME_FORFEIT)
    ] * 2
    assert all("ran out of time" in f["detail"] for f in listed)
    assert "lost by a forfeit: 2 games" in table


def test_the_table_lists_the_first_forfeits_and_says_how_many_there_were() -> None:
    forfeits = [Forfeit("bad", "engine crash", f"crash {n}", f"game-{n}.txt") for n in range(7)]
    lines = format_forfeits(forfeits)
    assert lines[0] == "lost by a forfeit: 7 games, the first 5 (each in the results file):"
    assert lines[1:] == [f"  bad, engine crash: crash {n} (game-{n}.txt)" for n in range(5)]
    one = format_forfeits([Forfeit("bad", "engine error", None, None)])
    assert one == [
        "lost by a forfeit: 1 game (each in the results file):",
        "  bad, engine error: no detail",
    ]


def test_the_clock_reaches_the_bot_and_gains_the_increment_when_the_turn_passes(
    tmp_path, fake_time
):
    # 1+2: one second spent and two gained on every turn (each Express action is a turn).
    result = run_match(
        timed(tmp_path, "think:1@depth=3", "think:3", clock=TimeControl(60, 2)),
        timer=fake_time,
    )
    thinkers = [b for b in fake_time.bots if b.asked]  # (the spec check makes one too)
    assert len(thinkers) == 4  # two games, two seats
    for bot in thinkers:
        clocks = [limits.clock_ms for limits in bot.asked]
        assert clocks == [60_000 + (2000 - 1000 * bot.seconds) * k for k in range(len(clocks))]
        assert all(limits.increment_ms == 2000 for limits in bot.asked)
        assert all(limits.movetime_ms is None for limits in bot.asked)
        assert all(limits.depth == (3 if bot.seconds == 1 else None) for limits in bot.asked)
    for game in result.games:
        assert game.termination is None and game.reason == "line"
        # Every turn gains the increment but the last, which ends the game.
        last = 0 if game.moves[0] > game.moves[1] else 1
        assert game.clock_left_s is not None
        for seat, key in enumerate(game.seats):
            per_action = 1.0 if key.startswith("think:1") else 3.0
            moves = game.moves[seat]
            gained = 2.0 * (moves - 1 if seat == last else moves)
            assert game.clock_left_s[seat] == pytest.approx(60 - per_action * moves + gained)


def test_without_a_clock_bots_get_their_own_limits_only(tmp_path, fake_time):
    result = run_match(timed(tmp_path, "think:25@depth=2", "think:1", clock=None), timer=fake_time)
    assert all(g.termination is None and g.clock_left_s is None for g in result.games)
    assert {limits.clock_ms for bot in fake_time.bots for limits in bot.asked} == {None}
    assert "lost on time" not in format_standings(result.standings)


def test_three_players_share_the_game_a_side_loses_on_time(tmp_path, fake_time):
    result = run_match(
        timed(tmp_path, "think:25", "think:1", "think:2", players=3, games=3),
        timer=fake_time,
    )
    for game in result.games:
        seat = game.seats.index("think:25")
        assert game.lost_on_time == seat and game.reason == TIME_FORFEIT
        assert game.points[seat] == 0
        assert sorted(game.points) == [0.0, 0.5, 0.5]


def test_a_clock_game_is_its_own_game_in_the_results_file(tmp_path, fake_time):
    untimed = run_match(timed(tmp_path, "think:1", "think:2", clock=None), timer=fake_time)
    clocked = run_match(timed(tmp_path, "think:1", "think:2"), timer=fake_time)
    assert clocked.played == 2 and clocked.resumed == 0
    assert all(g.key.endswith(" clock=1+0") for g in clocked.games)
    assert not any("clock=" in g.key for g in untimed.games)
    again = run_match(timed(tmp_path, "think:1", "think:2"), timer=fake_time)
    assert (again.played, again.resumed) == (0, 2)
    assert again.games == clocked.games  # the clocks read back as they were written
    assert "clock 1+0" in arena_report.summary(again)
    assert again.to_json()["settings"]["clock"] == "1+0"


def test_results_read_back_with_the_reason_and_the_clocks(tmp_path, fake_time):
    result = run_match(timed(tmp_path, "think:25", "think:1"), timer=fake_time)
    for game in result.games:
        assert GameResult.from_json(game.to_json()) == game


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"limits": Limits(movetime_ms=100)}, "a clock and a movetime"),
        ({"participants": ("think:1@movetime=100", "think:2")}, "think:1@movetime=100: a clock"),
        ({"timeout": 5.0}, "a clock and a timeout"),
        ({"clock": TimeControl(days=2)}, "minutes\\+seconds"),
        ({"jobs": 2}, "jobs=1"),
    ],
)
def test_settings_that_do_not_fit_a_clock_are_refused(tmp_path, fake_time, changes, message):
    with pytest.raises(ValueError, match=message):
        run_match(timed(tmp_path, "think:1", "think:2", **changes), timer=fake_time)
    assert not (tmp_path / "m.jsonl").exists()


def test_a_turn_with_a_scoring_gains_the_increment_once(tmp_path, fake_time):
    """Expert: an insertion, its scoring and the extra turn a scoring earns are one turn
    of the same seat; its clock gains the increment only when the turn passes."""
    result = run_match(
        timed(tmp_path, "think:1", "think:2", variant=Variant.EXPERT, clock=TimeControl(60, 5)),
        timer=fake_time,
    )
    assert all(g.termination is None for g in result.games)
    last: dict[Thinker, tuple[int, int]] = {}  # a bot's last action: log index, clock
    same_turn = new_turn = 0
    for index, (bot, limits) in enumerate(fake_time.log):
        assert limits.clock_ms is not None
        if bot in last:
            at, clock = last[bot]
            if at == index - 1:  # nobody acted between: the same turn goes on
                same_turn += 1
                assert limits.clock_ms - clock == -1000 * bot.seconds
            else:
                new_turn += 1
                assert limits.clock_ms - clock == 5000 - 1000 * bot.seconds
        last[bot] = index, limits.clock_ms
    assert same_turn > 0 and new_turn > 0
    # a scoring never ends the turn, so an engine is told it gains nothing after it
    # (PROTOCOL.md's increment is what the clock gains after the action asked for)
    told = {
        (scoring, limits.increment_ms)
        for (_, limits), scoring in zip(fake_time.log, fake_time.scoring, strict=True)
    }
    assert told == {(True, 0), (False, 5000)}
