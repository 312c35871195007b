"""External engines over STP: the real ``shiftago engine``, and fakes that fail."""

from __future__ import annotations

import re
import shlex
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from shiftago.core import Game, Rules, State, Variant
from shiftago.engine.bot import Limits
from shiftago.formats.record import parse_record, parse_records
from shiftago.interfaces.arena_report import format_standings
from shiftago.interfaces.cli import cli
from shiftago.match import (
    EngineCrash,
    EngineOptionError,
    EngineProtocolError,
    EngineTimeout,
    ExternalEngine,
    MatchConfig,
    TimeControl,
    run_match,
)
from shiftago.match.external import CLOCK_GRACE
from support.waiting import wait_until

ENGINE = [sys.executable, "-m", "shiftago", "engine"]

#: A fake engine: plays the first legal action, or fails at its first ``go`` as
#: ``sys.argv[1]`` says (sleep, crash, crash-once, garbage, illegal, refuse, no-blank:
#: no empty line after its answer, with-id: an id it was not sent, twice: two answers
#: to one ``go``); ``log``
#: writes every command it reads to the file ``sys.argv[2]``, ``no-options`` refuses
#: every ``setoption`` and has no ``options``; the others list Threads and Temperature.
#: ``illegal-counted`` plays illegal and writes a line to ``sys.argv[2]`` each time it starts.
#: ``proves`` writes an info line of a proven win before each answer asked with info=1,
#: counting down as a proof does; ``claims`` writes the same win in 3 every time.
FAKE = r"""
import sys, time
from pathlib import Path
from shiftago.core import State

mode = sys.argv[1]
marker = Path(sys.argv[2]) if len(sys.argv) > 2 else None
state = None
gos = 0
if mode == "illegal-counted":
    with marker.open("a") as starts:
        starts.write("started\n")
def reply(text=""):
    sys.stdout.write(("= " + text if text else "=") + "\n\n")
    sys.stdout.flush()
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if mode == "log":
        with marker.open("a") as log:
            log.write(line)
    if words[0] == "protocol_version":
        reply("1")
    elif words[0] == "setposition":
        state = State.from_position(line.split(None, 1)[1])
        if mode == "think-on-setposition":
            time.sleep(60)  # the move's thinking done before go: the move's time all the same
        reply()
    elif words[0] == "go":
        if mode == "sleep":
            time.sleep(60)  # a hang: the time it takes is what is checked
        elif mode == "crash" or (mode == "crash-once" and not marker.exists()):
            if marker is not None:
                marker.write_text("crashed")
            sys.stderr.write("fake engine: out of luck\n")
            sys.stderr.flush()
            sys.exit(3)
        elif mode == "garbage":
            reply("hello")
        elif mode in ("illegal", "illegal-counted"):
            reply("xa1-e1")
        elif mode == "refuse":
            sys.stdout.write("? no idea\n\n")
            sys.stdout.flush()
        elif mode == "no-blank":
            sys.stdout.write("= " + str(state.legal_actions()[0]) + "\n")
            sys.stdout.flush()
        elif mode == "with-id":
            sys.stdout.write("=99 " + str(state.legal_actions()[0]) + "\n\n")
            sys.stdout.flush()
        elif mode == "multiline":
            sys.stdout.write("=\n" + str(state.legal_actions()[0]) + "\n\n")
            sys.stdout.flush()
        elif mode == "twice":
            reply(str(state.legal_actions()[0]))
            reply(str(state.legal_actions()[0]))
        elif mode in ("proves", "claims") and "info=1" in words:
            # a proof that counts down by the two actions of a round (win 5, then win
            # 3), or the same claim every time, which no proof makes
            gos += 1
            distance = 7 - 2 * gos if mode == "proves" else 3
            sys.stdout.write(f"info depth 3 value win {distance} nodes 40 nps 4000 time 10 pv L1\n")
            reply(str(state.legal_actions()[0]))
        else:
            reply(str(state.legal_actions()[0]))
    elif words[0] == "setoption" and mode == "no-options":
        sys.stdout.write("? unknown option " + words[1] + "\n\n")
        sys.stdout.flush()
    elif words[0] == "options" and mode == "no-options":
        sys.stdout.write("? unknown command options\n\n")
        sys.stdout.flush()
    elif words[0] == "options":
        sys.stdout.write("=\nThreads int 1 1 64\nTemperature int 1 0 9\n\n")
        sys.stdout.flush()
    elif words[0] == "quit":
        reply()
        break
    else:
        if words[0] == "newgame":
            gos = 0
        reply()
"""


@pytest.fixture
def fake(tmp_path: Path):
    script = tmp_path / "fake_engine.py"
    script.write_text(FAKE)

    def command(mode: str, *extra: str) -> list[str]:
        return [sys.executable, str(script), mode, *extra]

    return command


def spec(command: list[str], options: str) -> str:
    return "cmd:" + shlex.join(command) + "@" + options


def test_the_real_engine_chooses_legal_actions_and_quits():
    engine = ExternalEngine(ENGINE, level=2)
    game = Game(Rules(Variant.EXPERT, 2), first=0)
    engine.new_game(game.rules, seed=3)
    for _ in range(6):
        action = engine.choose(game.state, Limits(depth=1))
        game.play(action)  # raises if it is not legal
    ranked = engine.analyse(game.state, Limits(depth=1))
    assert {r.action for r in ranked} == set(game.legal_actions())
    process = engine._process
    assert process is not None and engine.running and engine.starts == 1
    engine.close()
    assert process.returncode == 0  # it quit by itself
    assert not engine.running


def test_a_match_against_the_real_engine(tmp_path):
    engine = spec(ENGINE, "level=2,name=stp-2")
    result = run_match(
        MatchConfig(
            participants=("greedy@depth=1", engine),
            games=2,
            results=tmp_path / "r.jsonl",
            date="2026-01-02",
        )
    )
    assert len(result.games) == 2
    assert all(g.termination is None for g in result.games)
    stp = next(r for r in result.standings.rows if r.name == "stp-2")
    assert stp.games == 2 and stp.moves > 0 and stp.ms_per_move is not None
    for game in result.games:
        record = parse_record((tmp_path / "r-records" / game.record_file).read_text())
        assert record.to_game().outcome is not None
        seat = game.seats.index(result.participants[1].key)
        assert record.names[seat] == "stp-2" and record.levels[seat] == 2


def test_a_slow_engine_times_out_and_is_stopped(fake):
    engine = ExternalEngine(fake("sleep"), move_timeout=0.5)
    state = State.initial(Rules(), 0)
    started = time.monotonic()
    with pytest.raises(EngineTimeout, match="did not answer 'go'"):
        engine.choose(state)
    assert time.monotonic() - started < 10
    assert not engine.running  # killed, not left thinking


def test_an_engine_that_thinks_on_setposition_spends_the_moves_time(fake):
    """The move's hard limit covers ``setposition`` and ``go`` together: setposition
    had a limit of its own (10 s), so an engine could think there at 15 times its
    movetime without a forfeit (a bot author's walk)."""
    engine = ExternalEngine(fake("think-on-setposition"), time_margin=0.3)
    engine.start()
    started = time.monotonic()
    with pytest.raises(EngineTimeout, match="did not answer 'setposition"):
        engine.choose(State.initial(Rules(), 0), Limits(movetime_ms=100))
    assert time.monotonic() - started < 5  # the movetime and its margin, not 10 s
    assert not engine.running


@pytest.mark.parametrize(
    ("mode", "error", "message"),
    [
        ("crash", EngineCrash, "exit status 3.*out of luck"),
        ("garbage", EngineProtocolError, "answered go with 'hello'"),
        ("refuse", EngineProtocolError, "refused 'go.*no idea"),
    ],
)
def test_failing_engines_raise_and_restart(fake, mode, error, message):
    engine = ExternalEngine(fake(mode))
    state = State.initial(Rules(), 0)
    with pytest.raises(error, match=message):
        engine.choose(state)
    assert not engine.running
    with pytest.raises(error):
        engine.choose(state)  # started afresh for the next request
    assert engine.starts == 2
    engine.close()


@pytest.mark.parametrize(
    ("mode", "message"),
    [
        ("no-blank", "answered 'go' with '= L1' but never ended the answer with an empty line"),
        ("with-id", "answered 'go' with '=99 L1'"),
        # the action on a line of its own after '=': a shape error, not an illegal action
        ("multiline", "answered go with 2 lines: ['', 'L1']"),
    ],
)
def test_an_answer_out_of_the_protocol_s_shape_is_the_engine_s_error(fake, mode, message):
    engine = ExternalEngine(fake(mode), move_timeout=0.5)
    with pytest.raises(EngineProtocolError, match=re.escape(message)):
        engine.choose(State.initial(Rules(), 0))
    assert not engine.running


def test_output_nobody_asked_for_is_named_before_the_next_command(fake):
    engine = ExternalEngine(fake("twice"))
    state = State.initial(Rules(), 0)
    assert str(engine.choose(state)) == "L1"
    wait_until(lambda: not engine._lines.empty(), timeout=10)  # the second answer arrives
    with pytest.raises(EngineProtocolError, match="wrote '= L1' after its last answer"):
        engine.choose(state)
    engine.close()


def test_a_crash_message_has_only_the_words_of_the_process_that_crashed(fake):
    engine = ExternalEngine(fake("crash"))
    state = State.initial(Rules(), 0)
    for _ in range(3):
        with pytest.raises(EngineCrash) as crashed:
            engine.choose(state)
    assert str(crashed.value).count("out of luck") == 1, str(crashed.value)
    assert engine.starts == 3


def test_an_engine_that_cannot_start():
    engine = ExternalEngine(["/nonexistent/engine"])
    with pytest.raises(EngineCrash, match="could not start"):
        engine.new_game(Rules())


def test_the_timeout_follows_the_movetime():
    engine = ExternalEngine(["x"])
    assert engine.timeout_for(Limits(movetime_ms=250)) == pytest.approx(1.25)
    assert engine.timeout_for(Limits()) == 60.0
    assert ExternalEngine(["x"], move_timeout=2.0).timeout_for(Limits(movetime_ms=9)) == 2.0


@pytest.mark.parametrize(
    ("mode", "termination"),
    [("sleep", "time forfeit"), ("crash", "engine crash"), ("illegal", "illegal action")],
)
def test_a_failing_engine_loses_the_game(tmp_path, fake, mode, termination):
    result = run_match(
        MatchConfig(
            participants=(spec(fake(mode), "name=bad"), "greedy@depth=1"),
            games=2,
            timeout=0.5,
            results=tmp_path / "r.jsonl",
            date="2026-01-02",
        )
    )
    assert len(result.games) == 2
    bad, good = result.standings.rows
    assert (bad.losses, good.wins) == (2, 2)
    assert (bad.forfeits, good.forfeits) == (2, 0)
    forfeits = result.standings.forfeits
    assert [(f.name, f.termination) for f in forfeits] == [("bad", termination)] * 2
    assert [f.record_file for f in forfeits] == [g.record_file for g in result.games]
    table = format_standings(result.standings).splitlines()
    at = table.index("lost by a forfeit: 2 games (each in the results file):")
    for line, game in zip(table[at + 1 : at + 3], result.games, strict=True):
        assert line == f"  bad, {termination}: {game.detail} ({game.record_file})"
    for game in result.games:
        assert game.termination == termination
        assert game.detail is not None and "bad" in game.detail
        record = parse_record((tmp_path / "r-records" / game.record_file).read_text())
        assert record.termination == f"{termination}: {game.detail}"  # the kind, and why
        assert record.result == "og"[game.seats.index(result.participants[1].key)]
        record.to_game()  # the record reads and replays


def test_a_crash_loses_one_game_and_the_engine_plays_the_next(tmp_path, fake):
    marker = tmp_path / "crashed-once"
    result = run_match(
        MatchConfig(
            participants=(spec(fake("crash-once", str(marker)), "name=shaky"), "greedy@depth=1"),
            games=2,
            date="2026-01-02",
        )
    )
    first, second = result.games
    assert first.termination == "engine crash"
    assert second.termination is None and second.actions > 2


def test_an_engine_that_played_an_illegal_action_starts_afresh_for_the_next_game(tmp_path, fake):
    """A well-formed action the rules refuse, as an answer that is none, leaves the
    engine's idea of the game astray: docs/cli.md promises a new process."""
    starts = tmp_path / "starts"
    result = run_match(
        MatchConfig(
            participants=(spec(fake("illegal-counted", str(starts)), "name=bad"), "greedy@depth=1"),
            games=2,
            date="2026-01-02",
        )
    )
    assert [game.termination for game in result.games] == ["illegal action"] * 2
    assert starts.read_text().splitlines() == ["started"] * 2


def test_three_players_share_the_game_a_failing_engine_loses(tmp_path, fake):
    result = run_match(
        MatchConfig(
            participants=(spec(fake("crash"), "name=bad"), "greedy@depth=1", "level:1"),
            players=3,
            games=3,
            date="2026-01-02",
        )
    )
    for game in result.games:
        loser = game.seats.index(result.participants[0].key)
        assert game.points[loser] == 0
        assert sorted(game.points) == [0.0, 0.5, 0.5]


def test_an_engine_under_a_clock_gets_its_time_left_and_its_options(tmp_path, fake):
    log = tmp_path / "commands.txt"
    engine = spec(fake("log", str(log)), "threads=2,hash=16,name=logger")
    result = run_match(
        MatchConfig(
            participants=(engine, "greedy@depth=1"),
            games=2,
            clock=TimeControl(60, 2),
            results=tmp_path / "r.jsonl",
            date="2026-01-02",
        )
    )
    assert all(g.termination is None and g.clock_left_s is not None for g in result.games)
    commands = log.read_text().splitlines()
    assert commands[:3] == ["protocol_version", "setoption Threads 2", "setoption Hash 16"]
    assert commands.count("setoption Threads 2") == 1  # started once, kept for both games
    # each game starts with orange, and newgame says so (without first= the engine
    # would draw its own first seat from the seed)
    newgames = [c for c in commands if c.startswith("newgame")]
    assert len(newgames) == 2
    assert all(re.fullmatch(r"newgame express 2 first=o seed=\d+", c) for c in newgames), newgames
    goes = [c for c in commands if c.startswith("go")]
    assert len(goes) == sum(
        g.moves[g.seats.index(result.participants[0].key)] for g in result.games
    )
    for go in goes:
        match = re.fullmatch(r"go clock=(\d+) increment=2000", go)
        assert match is not None, go
        assert int(match.group(1)) <= 60_000 + 2000 * len(goes)
    assert goes[0] == "go clock=60000 increment=2000"  # the first action of the first game


def test_an_engine_that_refuses_an_option_stops_the_match_before_it_starts(tmp_path, fake):
    engine = spec(fake("no-options"), "hash=16,name=stubborn")
    config = MatchConfig(
        participants=(engine, "greedy@depth=1"), games=2, results=tmp_path / "r.jsonl"
    )
    with pytest.raises(EngineOptionError, match=r"stubborn refused 'setoption Hash 16'.*unknown"):
        run_match(config)
    assert not (tmp_path / "r.jsonl").exists()
    run = CliRunner().invoke(
        cli, ["arena", engine, "greedy", "--results", str(tmp_path / "r.jsonl")]
    )
    assert run.exit_code == 1
    assert "stubborn refused 'setoption Hash 16'" in run.output
    assert not (tmp_path / "r.jsonl").exists()


def test_the_timeout_under_a_clock_is_the_time_left_and_a_grace():
    engine = ExternalEngine(["x"])
    assert engine.timeout_for(Limits(clock_ms=2500)) == pytest.approx(2.5 + CLOCK_GRACE)
    assert engine.timeout_for(Limits(clock_ms=0)) == pytest.approx(CLOCK_GRACE)
    words = engine._limit_words(Limits(clock_ms=1234, increment_ms=500, depth=3), level=True)
    assert words == " depth=3 clock=1234 increment=500"


def test_an_engine_that_cannot_start_stops_the_match_before_it_starts(tmp_path):
    config = MatchConfig(
        participants=("cmd:/nonexistent/engine", "greedy@depth=1"),
        games=2,
        results=tmp_path / "r.jsonl",
    )
    with pytest.raises(EngineCrash, match="could not start"):
        run_match(config)
    assert not (tmp_path / "r.jsonl").exists()  # no game was played and lost for it


def test_any_option_the_engine_lists_is_set_and_stays_off_its_command_line(tmp_path, fake):
    log = tmp_path / "commands.txt"
    engine = spec(fake("log", str(log)), "option.Temperature=2,threads=2,name=warm")
    result = run_match(
        MatchConfig(participants=(engine, "greedy@depth=1"), games=2, date="2026-01-02")
    )
    assert result.participants[0].command == tuple(fake("log", str(log)))
    assert result.participants[0].spec.endswith("@threads=2,option.Temperature=2")
    assert all(g.termination is None for g in result.games)
    commands = log.read_text().splitlines()
    assert commands[:4] == [
        "protocol_version",
        "options",
        "setoption Threads 2",
        "setoption Temperature 2",
    ]


def test_an_option_the_engine_does_not_list_stops_the_match_before_it_starts(tmp_path, fake):
    results = tmp_path / "r.jsonl"
    for mode, message in [
        ("log", r"cold has no option 'Colour': its options are Threads, Temperature"),
        ("no-options", r"cold lists no options .*so Colour cannot be set"),
    ]:
        engine = spec(fake(mode, str(tmp_path / "log.txt")), "option.Colour=3,name=cold")
        config = MatchConfig(participants=(engine, "greedy@depth=1"), games=2, results=results)
        with pytest.raises(EngineOptionError, match=message):
            run_match(config)
        run = CliRunner().invoke(cli, ["arena", engine, "greedy", "--results", str(results)])
        assert run.exit_code == 1
        assert re.search(message, run.output)
        assert not results.exists()
    with pytest.raises(ValueError, match=r"has no option 'Colour'"):
        run_match(MatchConfig(participants=("greedy@option.Colour=3", "level:1")))


def test_the_start_up_wait_and_the_time_margin_can_be_set(tmp_path, fake):
    engine = ExternalEngine(fake("plain"), startup_timeout=5.0, time_margin=0.25)
    assert engine.timeout_for(Limits(movetime_ms=100)) == pytest.approx(0.35)
    assert engine.timeout_for(Limits(clock_ms=2000)) == pytest.approx(2.25)
    sleeper = [sys.executable, "-c", "import time; time.sleep(30)"]
    slow = ExternalEngine(sleeper, startup_timeout=0.5)
    started = time.monotonic()
    with pytest.raises(EngineTimeout, match="protocol_version"):
        slow.start()
    assert time.monotonic() - started < 10
    run = CliRunner().invoke(
        cli,
        [
            "arena",
            spec(sleeper, "name=sleepy"),
            "greedy",
            "--startup-timeout",
            "0.5",
            "--time-margin",
            "250",
            "--results",
            str(tmp_path / "r.jsonl"),
        ],
    )
    assert run.exit_code == 1 and "sleepy did not answer 'protocol_version' in time" in run.output


def test_the_records_file_says_why_each_forfeit_was_lost(tmp_path, fake):
    marker = tmp_path / "crashed-once"
    result = run_match(
        MatchConfig(
            participants=(
                spec(fake("garbage"), "name=babbler"),
                spec(fake("crash-once", str(marker)), "name=shaky"),
                "greedy@depth=1",
            ),
            games=6,
            results=tmp_path / "r.jsonl",
            date="2026-01-02",
        )
    )
    text = (tmp_path / "r-games.txt").read_text()
    records = parse_records(text)
    assert len(records) == len(result.games) == 6  # every pairing, both seats
    terminations = [r.termination for r in records if r.termination is not None]
    babbled = "illegal action: babbler answered go with 'hello'"
    crashes = [t for t in terminations if t.startswith("engine crash: shaky ended")]
    # babbler loses every game it plays but the one shaky's crash ended first
    assert (terminations.count(babbled), len(crashes), len(terminations)) == (3, 1, 4)
    assert "its last words: fake engine: out of luck" in crashes[0]
    for record, game in zip(records, result.games, strict=True):
        if game.termination is not None:
            assert record.termination == f"{game.termination}: {game.detail}"
        record.to_game()


def test_a_win_proven_for_n_actions_in_a_row_ends_the_game(tmp_path, fake):
    log = tmp_path / "commands.txt"
    config = MatchConfig(
        participants=(spec(fake("proves"), "name=prover"), spec(fake("log", str(log)), "name=l")),
        games=2,
        adjudicate_win=2,
        results=tmp_path / "r.jsonl",
        date="2026-01-02",
    )
    result = run_match(config)
    for game in result.games:
        prover = game.seats.index(result.participants[0].key)
        assert (game.termination, game.reason) == ("adjudication", "adjudication")
        assert game.points[prover] == 1 and game.forfeited_by is None
        assert game.moves[prover] == 2  # the second proven win in a row ends it
        assert game.detail == "prover's search proved a win (in 3) after its 2 actions in a row"
    assert all(" info=1" in c for c in log.read_text().splitlines() if c.startswith("go"))
    records = parse_records((tmp_path / "r-games.txt").read_text())
    assert [r.termination for r in records] == [f"adjudication: {result.games[0].detail}"] * 2
    assert result.standings.forfeits == ()
    assert [r.adjudicated for r in result.standings.rows] == [2, 0]
    table = format_standings(result.standings)
    assert "won by adjudication (a win the winner's search proved): 2 games (prover 2)" in table
    plain = run_match(replace(config, adjudicate_win=None, results=None))
    assert all(g.termination is None and g.actions > 4 for g in plain.games)


def test_claims_that_do_not_count_down_are_no_proof(tmp_path, fake):
    """An engine that says "win in 3" at every action proves nothing: a proof that
    holds ends no later as the game goes on, so a claim that ends later starts the
    streak again, and the games are played out (a bot author's random bot won every
    game against level 6 by such claims)."""
    config = MatchConfig(
        participants=(spec(fake("claims"), "name=liar"), "greedy"),
        games=2,
        adjudicate_win=2,
        date="2026-01-02",
    )
    result = run_match(config)
    assert all(g.termination is None and g.reason != "adjudication" for g in result.games)


LOG_LINE = re.compile(r"^ *\d+\.\d{3} (\S+) ([<>!#])(?: (.*))?$")


def logged(path: Path) -> list[tuple[str, str, str]]:
    """A protocol log's lines as (engine, mark, text); each line must have the shape."""
    lines = []
    for line in path.read_text().splitlines():
        match = LOG_LINE.match(line)
        assert match is not None, line
        lines.append((match[1], match[2], match[3] or ""))
    return lines


def test_the_protocol_log_has_each_game_s_lines_beside_its_record(tmp_path, fake):
    """An engine's author reads why a game went as it did: the lines both ways, the
    engine's standard error, its start and its stop, in a file named as the record."""
    marker = tmp_path / "crashed-once"
    result = run_match(
        MatchConfig(
            participants=(spec(fake("crash-once", str(marker)), "name=shaky"), "greedy@depth=1"),
            games=2,
            results=tmp_path / "r.jsonl",
            protocol_log=tmp_path / "logs",
            date="2026-01-02",
        )
    )
    crashed, played = result.games
    assert crashed.record_file is not None and played.record_file is not None
    assert sorted(p.name for p in (tmp_path / "logs").iterdir()) == sorted(
        [
            "start.log",
            crashed.record_file[:-4] + ".log",
            played.record_file[:-4] + ".log",
            "end.log",
        ]
    )
    # the engines' end after the last game: their quit, its answer and their exit
    end = logged(tmp_path / "logs" / "end.log")
    assert end[0] == ("shaky", ">", "quit") and ("shaky", "<", "=") in end
    assert end[-1] == ("shaky", "#", "stopped (exit status 0)")
    start = logged(tmp_path / "logs" / "start.log")
    assert start[0][:2] == ("shaky", "#") and start[0][2].startswith("started ")
    assert ("shaky", ">", "protocol_version") in start and ("shaky", "<", "= 1") in start
    first = logged(tmp_path / "logs" / (crashed.record_file[:-4] + ".log"))
    assert first[0] == ("shaky", ">", "newgame express 2 first=o seed=" + first[0][2][31:])
    assert ("shaky", "!", "fake engine: out of luck") in first
    assert first[-1][:2] == ("shaky", "#") and first[-1][2] == "stopped (exit status 3)"
    second = logged(tmp_path / "logs" / (played.record_file[:-4] + ".log"))
    assert second[0][1:] == ("#", second[0][2]) and second[0][2].startswith("started ")
    sent = [text for _, mark, text in second if mark == ">"]
    answers = [text for _, mark, text in second if mark == "<" and text.startswith("= ")]
    seat = next(at for at, key in enumerate(played.seats) if "crash-once" in key)
    moves = played.moves[seat]  # shaky's actions in the game it played to the end
    assert sent.count("go") == moves and len(answers) == moves + 1  # and protocol_version's
    assert {name for name, _, _ in first + second} == {"shaky"}  # the built-in bot says none


def test_without_a_protocol_log_the_engine_writes_none(tmp_path, fake):
    result = run_match(
        MatchConfig(
            participants=(spec(fake("first"), "name=plain"), "greedy@depth=1"),
            games=2,
            results=tmp_path / "r.jsonl",
            date="2026-01-02",
        )
    )
    assert [game.termination for game in result.games] == [None, None]
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "fake_engine.py",
        "r-games.txt",
        "r-records",
        "r.jsonl",
    ]


def test_the_arena_command_writes_the_protocol_log(tmp_path, fake):
    engine = spec(fake("first"), "name=plain")
    outcome = CliRunner().invoke(
        cli,
        [
            "arena",
            engine,
            "greedy@depth=1",
            "--games",
            "2",
            "--results",
            str(tmp_path / "r.jsonl"),
            "--protocol-log",
            str(tmp_path / "logs"),
            "--jobs",
            "2",
            "-q",
        ],
    )
    assert outcome.exit_code == 0, outcome.output
    records = sorted(p.name[:-4] for p in (tmp_path / "r-records").iterdir())
    logs = sorted(p.name[:-4] for p in (tmp_path / "logs").iterdir())
    assert logs == sorted([*records, "start", "end"])
    quits = [line for line in logged(tmp_path / "logs" / "end.log") if line[1:] == (">", "quit")]
    # the start's engine, and the own engine of each worker that played a game
    assert 2 <= len(quits) <= 3
    for name in records:  # each worker starts its own engine in its first game
        lines = logged(tmp_path / "logs" / f"{name}.log")
        assert any(mark == ">" and text.startswith("setposition ") for _, mark, text in lines)
