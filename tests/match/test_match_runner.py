"""Running matches: records, the results file, resuming, parallel play, the SPRT."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from shiftago.core import Variant
from shiftago.engine.bot import Limits
from shiftago.formats.record import parse_record
from shiftago.interfaces import arena_report
from shiftago.interfaces.arena_report import format_standings
from shiftago.match import MatchConfig, SprtSettings, TimeControl, register_bot, run_match
from shiftago.match.errors import MatchSetupError
from shiftago.match.games import GameResult
from shiftago.match.participants import BOTS, REGISTERED
from shiftago.match.results import ResultsFile
from support import registered

#: Fast and deterministic: the greedy bot against the 1-ply alpha-beta level.
FAST = ("greedy@depth=1", "level:2")


def config(tmp_path: Path, **changes: object) -> MatchConfig:
    base = MatchConfig(participants=FAST, games=4, results=tmp_path / "m.jsonl", date="2026-01-02")
    return replace(base, **changes)


def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def test_a_match_keeps_records_and_a_line_per_game(tmp_path):
    result = run_match(config(tmp_path))
    assert (result.scheduled, result.played, result.resumed) == (4, 4, 0)
    assert len(result.games) == 4
    stored = lines(tmp_path / "m.jsonl")
    assert [s["key"] for s in stored] == [g.key for g in result.games]
    records = sorted((tmp_path / "m-records").iterdir())
    assert len(records) == 4
    for game in result.games:
        assert sum(game.points) == pytest.approx(1.0)
        record = parse_record((tmp_path / "m-records" / game.record_file).read_text())
        replayed = record.to_game()
        assert replayed.outcome is not None
        assert record.result == game.result
        assert len(record.actions) == game.actions
        assert record.event is not None and f"opening {game.opening} " in record.event
        names = [p.name for p in result.participants]
        seats = [names[0], names[1]] if game.rotation == 0 else [names[1], names[0]]
        assert list(record.names) == seats
        assert record.levels == ((None, 2) if game.rotation == 0 else (2, None))
    # Both games of a pair start with the same opening actions.
    by_opening: dict[int, set[tuple[str, ...]]] = {}
    for game in result.games:
        record = parse_record((tmp_path / "m-records" / game.record_file).read_text())
        by_opening.setdefault(game.opening, set()).add(tuple(map(str, record.actions[:2])))
    assert all(len(v) == 1 for v in by_opening.values())


def test_standings_count_what_was_played(tmp_path):
    result = run_match(config(tmp_path, games=6))
    rows = {r.key: r for r in result.standings.rows}
    games = result.games
    for key, row in rows.items():
        mine = [(g, g.seats.index(key)) for g in games]
        assert row.games == 6
        assert row.points == pytest.approx(sum(g.points[s] for g, s in mine))
        assert row.wins + row.draws + row.losses == 6
        assert row.moves == sum(g.moves[s] for g, s in mine) > 0
        assert row.ms_per_move is not None and row.ms_per_move > 0
    assert sum(r.points for r in rows.values()) == pytest.approx(6)
    h2h = result.standings.head_to_head
    assert h2h is not None and h2h.pairs == 3 and sum(h2h.pentanomial) == 3
    assert h2h.estimate.score == pytest.approx(rows["greedy@depth=1"].score)
    text = arena_report.tables(result)
    assert "greedy@depth=1 vs level:2:" in text and "pentanomial over 3 game pairs" in text
    data = result.to_json()
    assert data["played"] == 6
    assert [p["key"] for p in data["participants"]] == ["greedy@depth=1", "level:2"]
    json.dumps(data, allow_nan=False)  # plain JSON: no infinities


def test_a_match_is_repeatable(tmp_path):
    first = run_match(config(tmp_path / "a"))
    second = run_match(config(tmp_path / "b"))
    assert [(g.key, g.result, g.actions) for g in first.games] == [
        (g.key, g.result, g.actions) for g in second.games
    ]


def test_a_resumed_match_skips_finished_games(tmp_path):
    first = run_match(config(tmp_path, games=4))
    assert first.played == 4
    longer = run_match(config(tmp_path, games=8))
    assert (longer.resumed, longer.played, len(longer.games)) == (4, 4, 8)
    assert [g.key for g in longer.games[:4]] == [g.key for g in first.games]
    again = run_match(config(tmp_path, games=8))
    assert (again.resumed, again.played) == (8, 0)
    assert again.standings == longer.standings
    assert len(lines(tmp_path / "m.jsonl")) == 8

    # A kill in the middle of a write leaves a broken last line: that game is played again.
    path = tmp_path / "m.jsonl"
    text = path.read_text().splitlines()
    path.write_text("\n".join(text[:6]) + "\n" + text[6][:25])
    resumed = run_match(config(tmp_path, games=8))
    assert (resumed.resumed, resumed.played) == (6, 2)
    store = ResultsFile(path)
    assert len(store.load()) == 8 and store.skipped == 1
    assert [g.key for g in resumed.games] == [g.key for g in longer.games]


def test_a_results_file_keeps_other_matches_apart(tmp_path):
    run_match(config(tmp_path, games=2))
    other = run_match(config(tmp_path, games=2, seed=9))
    assert other.played == 2  # another seed: other games
    assert len(lines(tmp_path / "m.jsonl")) == 4


def test_parallel_play_gives_the_same_games(tmp_path):
    inline = run_match(config(tmp_path / "one", games=6))
    pooled = run_match(config(tmp_path / "two", games=6, jobs=2))
    assert [(g.key, g.result, g.actions) for g in pooled.games] == [
        (g.key, g.result, g.actions) for g in inline.games
    ]
    assert len(lines(tmp_path / "two" / "m.jsonl")) == 6


@pytest.fixture
def agent_name():
    """A name for a registered bot, taken out of the registry after the test."""
    yield "my-agent"
    BOTS.pop("my-agent", None)
    REGISTERED.pop("my-agent", None)


def test_a_registered_bot_plays_in_the_worker_processes(tmp_path, agent_name):
    """A researcher wrote into the module's BOTS and played with jobs=1 (a walk):
    register_bot's bots reach the workers of jobs > 1 and play as the built-in did."""
    register_bot(agent_name, registered.greedy_agent)
    inline = run_match(config(tmp_path / "one", participants=("greedy", "level:2"), games=4))
    pooled = run_match(
        config(tmp_path / "two", participants=(agent_name, "level:2"), games=4, jobs=2)
    )
    assert pooled.played == 4
    assert [(g.result, g.actions) for g in pooled.games] == [
        (g.result, g.actions) for g in inline.games
    ]
    assert pooled.standings.rows[0].name == agent_name


def test_a_closure_s_bot_is_refused_for_the_workers_and_plays_with_one_job(tmp_path, agent_name):
    def factory(argument, seed):
        return registered.greedy_agent(argument, seed)

    register_bot(agent_name, factory)
    with pytest.raises(MatchSetupError, match="play it with jobs=1"):
        run_match(config(tmp_path / "two", participants=(agent_name, "level:2"), jobs=2))
    assert not (tmp_path / "two" / "m.jsonl").exists()  # nothing played
    alone = run_match(config(tmp_path / "one", participants=(agent_name, "level:2"), games=2))
    assert alone.played == 2


@pytest.mark.parametrize(
    ("name", "words"),
    [("level", "is a built-in bot"), ("My Agent", "lower-case letters"), ("", "lower-case")],
)
def test_a_bot_s_name_that_cannot_be_registered(name, words):
    with pytest.raises(ValueError, match=words):
        register_bot(name, registered.greedy_agent)
    assert BOTS["level"] is not registered.greedy_agent


def test_worker_processes_keep_the_clocks_too(tmp_path):
    result = run_match(config(tmp_path, games=2, jobs=2, clock=TimeControl(60, 1)))
    for game in result.games:
        assert game.key.endswith(" clock=1+1")
        assert game.clock_left_s is not None and len(game.clock_left_s) == 2
        assert game.reason is not None


def test_progress_reports_every_game(tmp_path):
    seen: list[tuple[GameResult | None, int, int]] = []
    run_match(config(tmp_path, games=4), lambda g, done, total: seen.append((g, done, total)))
    assert [(done, total) for _, done, total in seen] == [(0, 4), (1, 4), (2, 4), (3, 4), (4, 4)]
    assert seen[0][0] is None and all(g is not None for g, _, _ in seen[1:])


def test_the_sprt_stops_a_clear_match(tmp_path):
    sprt = SprtSettings(-100, 100)
    result = run_match(
        config(tmp_path, participants=("greedy", "greedy@depth=1"), games=60, sprt=sprt)
    )
    status = result.standings.sprt
    assert status is not None and status.verdict == "H1"
    assert status.llr >= status.upper
    assert result.stopped_early and result.played < 60
    assert len(lines(tmp_path / "m.jsonl")) == result.played
    assert "H1 accepted" in format_standings(result.standings)
    # Run again: the verdict is already in the file, nothing more is played.
    again = run_match(
        config(tmp_path, participants=("greedy", "greedy@depth=1"), games=60, sprt=sprt)
    )
    assert again.played == 0 and again.standings.sprt == status


def test_the_sprt_can_reject_the_gain(tmp_path):
    sprt = SprtSettings(0, 200)
    result = run_match(config(tmp_path, participants=("level:2", "level:3"), games=60, sprt=sprt))
    assert result.standings.sprt is not None and result.standings.sprt.verdict == "H0"
    assert result.played < 60


def test_three_players_get_a_rating_list(tmp_path):
    result = run_match(
        config(
            tmp_path,
            participants=("greedy@depth=1", "level:1", "level:2"),
            players=3,
            variant=Variant.EXPERT,
            games=3,
        )
    )
    assert len(result.games) == 3
    assert {g.seats for g in result.games} == {
        ("greedy@depth=1", "level:1", "level:2"),
        ("level:1", "level:2", "greedy@depth=1"),
        ("level:2", "greedy@depth=1", "level:1"),
    }
    assert result.standings.head_to_head is None
    assert result.standings.fair_share == pytest.approx(1 / 3)
    text = arena_report.tables(result)
    assert "ordinal" in text and "score (fair 33.3%)" in text
    rows = sorted(result.standings.rows, key=lambda r: r.points)
    assert rows[-1].points > rows[0].points  # (level:1 wins all three, as it happens)
    assert rows[-1].rating.mu > rows[0].rating.mu
    assert rows[-1].rating.ordinal > rows[0].rating.ordinal
    assert text.index(rows[-1].name) < text.index(rows[0].name)  # sorted by ordinal


def test_more_participants_than_seats_play_every_group(tmp_path):
    result = run_match(
        config(tmp_path, participants=("greedy@depth=1", "level:1", "level:2"), games=6)
    )
    assert len(result.games) == 6
    assert all(r.games == 4 for r in result.standings.rows)


def test_a_handicap_goes_with_its_participant(tmp_path):
    result = run_match(config(tmp_path, games=2, handicap=(2, 0)))
    for game in result.games:
        record = parse_record((tmp_path / "m-records" / game.record_file).read_text())
        seat = game.seats.index("greedy@depth=1")
        assert record.rules.handicap[seat] == 2
        assert record.rules.handicap[1 - seat] == 0


def test_default_limits_apply_to_every_participant(tmp_path):
    result = run_match(config(tmp_path, participants=("greedy", "level:3"), limits=Limits(depth=1)))
    assert [p.spec for p in result.participants] == ["greedy@depth=1", "level:3@depth=1"]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"participants": ("greedy",), "players": 2}, "at least 2 participants"),
        ({"handicap": (1,)}, "one number per participant"),
        ({"participants": (*FAST, "level:1"), "sprt": SprtSettings(0, 10)}, "SPRT"),
        ({"games": 0}, "at least one game"),
        # a bot author's walk: a timeout of 0 lost every game "on time", and these were
        # plain ValueErrors that `except MatchSetupError` missed
        ({"timeout": 0.0}, "the timeout is above 0 s, not 0.0"),
        ({"timeout": -1.0}, "the timeout is above 0 s"),
        ({"startup_timeout": 0.0}, "the start-up timeout is above 0 s"),
        ({"time_margin": -0.5}, "the time margin is 0 s or more"),
        ({"players": 5}, "2, 3 or 4 players, not 5"),
        ({"handicap": (7, 0)}, "each handicap is 0 to 6 skipped turns"),
        ({"handicap": (-1, 0)}, "each handicap is 0 to 6 skipped turns"),
        ({"action_limit": 0}, "the action limit must be 1 to"),
    ],
)
def test_bad_configurations_are_refused(tmp_path, changes, message):
    with pytest.raises(MatchSetupError, match=message):
        run_match(config(tmp_path, **changes))


def test_a_results_file_written_before_reasons_and_clocks_still_resumes(tmp_path):
    first = run_match(config(tmp_path, games=2))
    path = tmp_path / "m.jsonl"
    assert all(line["reason"] in ("line", "action limit") for line in lines(path))
    # The lines as they were written before the reason and the clocks were kept.
    old = [
        {k: v for k, v in line.items() if k not in ("reason", "clock_left_s")}
        for line in lines(path)
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in old))
    again = run_match(config(tmp_path, games=4))
    assert (again.resumed, again.played) == (2, 2)
    for before, after in zip(first.games, again.games[:2], strict=True):
        assert after == replace(before, reason=None)
        assert after.clock_left_s is None and after.lost_on_time is None
    assert [r.time_losses for r in again.standings.rows] == [0, 0]


def test_an_old_line_lost_on_time_counts_as_a_loss_on_time():
    line = {
        "key": "k",
        "opening": 0,
        "group": 0,
        "rotation": 0,
        "seats": ["a", "b"],
        "result": "g",
        "termination": "time forfeit",
        "points": [0.0, 1.0],
        "actions": 9,
        "think_s": [1.5, 0.5],
        "moves": [4, 3],
        "detail": "a did not answer 'go' in time",
        "record_file": None,
    }
    game = GameResult.from_json(line)
    assert game.reason == "time forfeit" and game.lost_on_time == 0


def test_adjudication_ends_a_game_the_winner_s_search_has_proven(tmp_path):
    # the same games with and without adjudication: the bot that proves its win ends
    # the game there, the winner the one that won it played out
    base = MatchConfig(
        participants=("level:5@depth=5", "level:2"), games=2, seed=0, date="2026-01-02"
    )
    played = run_match(base).games
    judged = run_match(replace(base, adjudicate_win=1)).games
    twice = run_match(replace(base, adjudicate_win=2)).games
    for full, short, longer in zip(played, judged, twice, strict=True):
        assert short.termination == short.reason == "adjudication"
        assert short.points == full.points and short.actions < full.actions
        assert "level:5@depth=5's search proved a win (in " in str(short.detail)
        assert short.detail is not None and short.detail.endswith("after its action")
        assert short.forfeited_by is None
        # two proven wins in a row need one more action of the winner, if any is left
        assert longer.points == full.points and short.actions < longer.actions <= full.actions
    standings = run_match(replace(base, adjudicate_win=1)).standings
    assert standings.forfeits == () and [r.forfeits for r in standings.rows] == [0, 0]
