"""The ``shiftago`` command line: version, help, ``show``, ``engine`` and ``bench``."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result
from PIL import Image

from shiftago import __version__
from shiftago.core import Game, Rules, Variant
from shiftago.formats.record import Record, format_record, format_records, parse_record
from shiftago.formats.record_json import record_to_json
from shiftago.interfaces.cli import cli, figure_text
from support.bench_figures import check_core_figures, check_env_figures
from support.web_fixtures import free_port

POSITION = "expert 2 gggg3/7/7/7/7/7/o3o2 o insert 20,18 2,0 0,0"
MOVES = ["L1", "L7", "L1", "L7", "L1", "L7", "L1", "L7", "L1", "xa1-e1", "L4", "L7"]


def invoke(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=stdin)


def record_file(tmp_path: Path, moves: list[str] = MOVES, name: str = "game.txt") -> Path:
    game = Game(Rules(Variant.EXPERT, 2), first="o")
    for action in moves:
        game.play(action)
    path = tmp_path / name
    path.write_text(format_record(Record.from_game(game, names=("Ann", "Ben"))) + "\n")
    return path


def run_shiftago(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "shiftago", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


# --- version and help ---------------------------------------------------------------
def test_version() -> None:
    result = invoke("--version")
    assert result.exit_code == 0
    assert result.output == f"shiftago, version {__version__}\n"


def test_version_through_python_dash_m() -> None:
    done = run_shiftago("--version")
    assert done.returncode == 0
    assert __version__ in done.stdout


@pytest.mark.parametrize("command", [[], ["engine"], ["play"], ["show"], ["bench"]])
def test_help_of_each_command(command: list[str]) -> None:
    result = invoke(*command, "--help")
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Usage: ")


def test_every_command_and_option_has_help() -> None:
    group = cli
    assert isinstance(group, click.Group)
    assert set(group.commands) >= {"engine", "play", "show", "bench"}
    for name, command in group.commands.items():
        assert command.help, name
        for param in command.params:
            if isinstance(param, click.Option):
                assert param.help, f"{name} {param.name}"


def test_an_unknown_command_is_a_usage_error() -> None:
    result = invoke("fly")
    assert result.exit_code == 2
    assert "No such command 'fly'" in result.output


# --- show -----------------------------------------------------------------------------
def test_show_a_position() -> None:
    result = invoke("show", POSITION)
    assert result.exit_code == 0, result.output
    assert result.output == (
        "7 g g g g . . .\n"
        "6 . . . . . . .\n"
        "5 . . . . . . .\n"
        "4 . . . . . . .\n"
        "3 . . . . . . .\n"
        "2 . . . . . . .\n"
        "1 o . . . o . .\n"
        "  a b c d e f g\n"
        "Expert, 2 players: orange (o) to insert\n"
        "supply  o 20  g 18\n"
        "points  o  2  g  0\n"
    )


def test_show_and_analyse_the_end_of_a_game() -> None:
    over = "expert 2 7/7/7/7/7/7/1gg4 g over 20,19 3,10 0,0"
    result = invoke("show", over)
    assert result.exit_code == 0, result.output
    # the reason in words, not in brackets after the letter's (an Italian walk)
    said = "Expert, 2 players: game over, green (g) wins by reaching 10 points\n"
    assert said in result.output
    result = invoke("analyse", over)
    assert result.exit_code == 2
    assert "the game is over: green wins by reaching 10 points; nothing to analyse" in result.output


def test_show_replays_a_record_action_by_action(tmp_path: Path) -> None:
    result = invoke("show", str(record_file(tmp_path)))
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.startswith("Expert, 2 players; orange: Ann, green: Ben; 12 actions\n")
    titles = [line for line in out.splitlines() if re.match(r"\d+\. ", line)]
    assert titles[:3] == ["1. orange L1", "2. green L7", "3. orange L1"]
    assert "10. orange xa1-e1" in out
    assert "1 o x x x o . ." in out  # the cells the scoring emptied
    assert out.count("  a b c d e f g") == len(MOVES) + 1
    assert out.rstrip().endswith("points  o  2  g  0")


def test_show_names_a_record_s_handicap(tmp_path: Path) -> None:
    """Which seats skip how many turns: the header said nothing of it (an Italian
    family), where the game's own lines say each skip."""
    game = Game(Rules(Variant.EXPRESS, 3, handicap=(0, 2, 1)), first=0)
    game.play("L1")
    path = tmp_path / "handicap.txt"
    path.write_text(format_record(Record.from_game(game)) + "\n")
    result = invoke("show", str(path))
    assert result.exit_code == 0, result.output
    assert result.output.startswith(
        "Express, 3 players; handicap: green skips 2 turns and blue skips 1 turn; 1 action\n"
    )
    plain = invoke("show", str(record_file(tmp_path)))  # none: not a word of it
    assert "handicap" not in plain.output


def test_show_only_the_final_board(tmp_path: Path) -> None:
    result = invoke("show", "--final", str(record_file(tmp_path)))
    assert result.exit_code == 0, result.output
    assert result.output.count("  a b c d e f g") == 1
    assert "12. green L7" in result.output
    assert "Expert, 2 players: green (g) must score a line" in result.output


def test_show_reads_standard_input(tmp_path: Path) -> None:
    text = record_file(tmp_path).read_text()
    result = invoke("show", "--final", "-", stdin=text)
    assert result.exit_code == 0, result.output
    assert "12. green L7" in result.output


def test_show_a_file_that_holds_a_position(tmp_path: Path) -> None:
    path = tmp_path / "position.txt"
    path.write_text(POSITION + "\n")
    assert invoke("show", str(path)).output == invoke("show", POSITION).output


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (
            "express 2 7/7/7/7/o6/7/7 g insert 22,22 0,0 0,0\n",
            "1: bad position: orange: 1 on the board",
        ),
        ("\n\nexpress 2 7/7/7/7/7/7/7 o insert 22,22 0,0\n", "3: bad position: a position has 8"),
        (POSITION + "\n" + POSITION + "\n", "2: a file holds one position string only"),
    ],
)
def test_a_file_with_a_faulty_position_says_what_is_wrong_with_it(
    tmp_path: Path, text: str, said: str
) -> None:
    """Its error is the position's, not a record's ('express' before any header)."""
    path = tmp_path / "position.txt"
    path.write_text(text)
    for command in ("show", "analyse"):
        result = invoke(command, str(path))
        assert (
            result.exit_code == 2
            and result.stderr == f"Error: {path}:{said}" + (result.stderr.split(said, 1)[1])
        ), result.stderr


def test_a_file_with_a_byte_order_mark_reads_in_either_form(tmp_path: Path) -> None:
    position = tmp_path / "position.txt"
    position.write_text("\ufeff" + POSITION + "\n")
    assert invoke("show", str(position)).output == invoke("show", POSITION).output
    as_json = tmp_path / "game.json"
    record = parse_record(record_file(tmp_path).read_text())
    as_json.write_text("\ufeff" + json.dumps(record_to_json(record)))
    result = invoke("show", "--final", str(as_json))
    assert result.exit_code == 0, result.stderr
    assert "12. green L7" in result.output


def test_a_position_has_no_second_game(tmp_path: Path) -> None:
    path = tmp_path / "position.txt"
    path.write_text(POSITION + "\n")
    for command in ("show", "analyse"):
        result = invoke(command, str(path), "--game", "2")
        assert result.exit_code == 2
        assert result.stderr == f"Error: {path} holds a position, not a game 2\n"


def test_standard_input_that_is_not_utf8_is_named_so() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "shiftago", "show", "-"],
        input=b'[Variant "express"]\n{ \xe9 }\n',
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr == b"Error: cannot read <stdin>: not UTF-8 text (byte 0xe9 at offset 22)\n"


def test_show_picks_one_game_of_several(tmp_path: Path) -> None:
    records = []
    for moves in (["Td"], ["L1", "L2"]):
        game = Game(Rules(Variant.EXPRESS, 2), first="g")
        for action in moves:
            game.play(action)
        records.append(Record.from_game(game))
    path = tmp_path / "two.txt"
    path.write_text(format_records(records))
    result = invoke("show", "--final", "--game", "2", str(path))
    assert result.exit_code == 0, result.output
    assert "holds 2 games; this is game 2" in result.output
    assert "2. orange L2" in result.output
    assert invoke("show", "--game", "3", str(path)).exit_code == 2


def test_show_svg_writes_one_parseable_file_per_step(tmp_path: Path) -> None:
    out_dir = tmp_path / "svg"
    result = invoke("show", "--svg", str(out_dir), str(record_file(tmp_path)))
    assert result.exit_code == 0, result.output
    files = sorted(out_dir.iterdir())
    assert [f.name for f in files] == [f"game-{i:03d}.svg" for i in range(len(MOVES) + 1)]
    for path in files:
        root = ET.parse(path).getroot()
        assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert f"wrote {len(files)} SVG files to {out_dir}" in result.output


def test_show_svg_final_and_position(tmp_path: Path) -> None:
    out_dir = tmp_path / "svg"
    assert (
        invoke("show", "--svg", str(out_dir), "--final", str(record_file(tmp_path))).exit_code == 0
    )
    assert invoke("show", "--svg", str(out_dir), POSITION).exit_code == 0
    names = sorted(f.name for f in out_dir.iterdir())
    assert names == ["game-final.svg", "position.svg"]
    for name in names:
        ET.parse(out_dir / name)


def test_show_gif_and_png_of_a_record(tmp_path: Path) -> None:
    gif, png = tmp_path / "game.gif", tmp_path / "last.png"
    result = invoke("show", "--gif", str(gif), "--png", str(png), str(record_file(tmp_path)))
    assert result.exit_code == 0, result.output
    assert f"wrote {gif}" in result.output and f"wrote {png}" in result.output
    with Image.open(gif) as animation:
        assert animation.format == "GIF" and animation.n_frames == len(MOVES) + 1
    with Image.open(png) as picture:
        assert picture.format == "PNG" and picture.size == (420, 420)


def test_show_png_of_a_position_and_an_unwritable_file(tmp_path: Path) -> None:
    png = tmp_path / "position.png"
    assert invoke("show", "--png", str(png), POSITION).exit_code == 0
    with Image.open(png) as picture:
        assert picture.format == "PNG"
    bad = invoke("show", "--png", str(tmp_path / "no" / "such" / "dir.png"), POSITION)
    assert bad.exit_code == 2 and "cannot write" in bad.output


def test_show_a_broken_record_gives_the_line_and_status_2(tmp_path: Path) -> None:
    path = record_file(tmp_path)
    lines = path.read_text().splitlines()
    moves_line = next(i for i, line in enumerate(lines) if line.startswith("1. "))
    lines[moves_line] = lines[moves_line].replace("4. L7", "4. Q9")
    path.write_text("\n".join(lines) + "\n")
    result = invoke("show", str(path))
    assert result.exit_code == 2
    assert result.stderr == f"Error: {path}:{moves_line + 1}: 'Q9' is not an action: " + (
        "an insertion is a side L, R, T or B and a lane (L3, Tc), a scoring is x and the "
        "two end cells of the line (xc3-g3)\n"
    )
    assert "Traceback" not in result.output


def test_show_a_record_with_an_unknown_header(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text('[Variant "express"]\n[Players "2"]\n[Frist "o"]\n\n1. Td *\n')
    result = invoke("show", str(path))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"Error: {path}:3: the record needs First, Seed or Position")
    assert result.stderr.endswith("(is 'Frist' a misspelt header?)\n")


@pytest.mark.parametrize(
    ("target", "message"),
    [
        ("no-such-file.txt", "Error: no-such-file.txt: no such file"),
        ("express 2 7/7", "Error: bad position: a position has 8 fields"),
        ("express 2 7/7/7/7/7/7/7 o insert 22,22 0,0 0,x", "Error: bad position: skips must"),
    ],
)
def test_show_bad_targets_exit_2(target: str, message: str) -> None:
    result = invoke("show", target)
    assert result.exit_code == 2
    assert result.stderr.startswith(message)


def test_show_an_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "empty.txt"
    path.write_text("\n")
    result = invoke("show", str(path))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"Error: {path}")


@pytest.mark.parametrize("command", ["show", "analyse"])
def test_a_file_that_is_not_text_is_named_so(tmp_path: Path, command: str) -> None:
    path = tmp_path / "photo.jpg"
    path.write_bytes(b"[Va\xd7\x01\xff")
    result = invoke(command, str(path))
    assert result.exit_code == 2
    assert result.stderr == f"Error: cannot read {path}: not UTF-8 text (byte 0xd7 at offset 3)\n"


def test_show_through_a_real_process(tmp_path: Path) -> None:
    done = run_shiftago("show", "--final", str(record_file(tmp_path)))
    assert done.returncode == 0, done.stderr
    assert "\x1b[" not in done.stdout  # no colour when the output is not a terminal
    broken = tmp_path / "broken.txt"
    broken.write_text(
        '[Variant "express"]\n[Players "2"]\n[First "o"]\n\nTd Td Td Td Td Td Td Td *\n'
    )
    done = run_shiftago("show", str(broken))
    assert done.returncode == 2
    assert done.stderr == f"Error: {broken}:5: turn 8, action 8: illegal move: Td (lane full)\n"


# --- engine and bench -------------------------------------------------------------------
def test_engine_speaks_the_protocol() -> None:
    done = run_shiftago("engine", stdin="protocol_version\nplay L3\nposition\nquit\n")
    assert done.returncode == 0, done.stderr
    replies = [line for line in done.stdout.splitlines() if line]
    assert replies == ["= 1", "=", "= express 2 7/7/7/7/o6/7/7 g insert 21,22 0,0 0,0", "="]


def test_engine_ends_at_end_of_input() -> None:
    result = invoke("engine", stdin="name\n")
    assert result.exit_code == 0
    assert result.output.startswith("= ")


@pytest.fixture(scope="module")
def bench_figures() -> dict[str, float]:
    """The figures of one real quick bench, as ``bench --json`` prints them (both
    benches take most of a quick run's ten seconds, so the module runs them once)."""
    result = invoke("bench", "--quick", "--runs", "1", "--json")
    assert result.exit_code == 0, result.output
    figures: dict[str, float] = json.loads(result.stdout)
    return figures


def test_bench_json(bench_figures: dict[str, float]) -> None:
    assert bench_figures and all(value > 0 for value in bench_figures.values())
    check_core_figures({k: v for k, v in bench_figures.items() if not k.startswith("env_")})
    check_env_figures({k: v for k, v in bench_figures.items() if k.startswith("env_")})


def test_bench_text(bench_figures: dict[str, float], monkeypatch: pytest.MonkeyPatch) -> None:
    """The table of the same figures (the benches give the real run's figures back)."""
    from shiftago.engine import bench as core_bench
    from shiftago.env import bench as env_bench

    core = {k: v for k, v in bench_figures.items() if not k.startswith("env_")}
    env = {k: v for k, v in bench_figures.items() if k.startswith("env_")}
    monkeypatch.setattr(core_bench, "run_bench", lambda runs, quick: dict(core))
    monkeypatch.setattr(env_bench, "env_figures", lambda runs, quick: dict(env))
    result = invoke("bench", "--quick", "--runs", "1")
    assert result.exit_code == 0, result.output
    assert [line.split()[0] for line in result.stdout.splitlines()] == list(core) + list(env)
    assert "core_actions_per_s_express_2p" in result.output
    # a ratio and a time keep their decimals (they once printed as whole numbers)
    assert re.search(r"^smp_speedup_2_threads +\d+\.\d+$", result.stdout, re.M)
    assert re.search(r"^time_to_depth_s_1_thread +\d+\.\d+$", result.stdout, re.M)
    assert re.search(r"^bench_signature +\d{1,3}(,\d{3})+$", result.stdout, re.M)


def test_bench_figures_print_as_the_bench_rounded_them() -> None:
    assert figure_text(1_584_374) == "1,584,374"
    assert figure_text(1.57) == "1.57"
    assert figure_text(0.351) == "0.351"
    assert figure_text(93.4) == "93.4"


def test_show_and_play_read_the_json_form_of_a_record(tmp_path: Path) -> None:
    import json as json_module

    from shiftago.formats.record_json import record_to_json

    game = Game(Rules(), first=0)
    for action in ("L1", "L7", "L2"):
        game.play(action)
    path = tmp_path / "game.json"
    path.write_text(json_module.dumps(record_to_json(Record.from_game(game))))
    shown = invoke("show", "--final", str(path))
    assert shown.exit_code == 0, shown.output
    assert "3 actions" in shown.output
    played = CliRunner().invoke(
        cli,
        ["play", "--load", str(path)],
        input="position\nquit\n",
        env={"SHIFTAGO_HOME": str(tmp_path / "home")},
    )
    assert played.exit_code == 0, played.output
    assert game.position() in played.output
    folder = invoke("show", str(tmp_path))
    assert folder.exit_code != 0 and "a directory, not a file" in folder.output


# --- serve and worker: what they check before they start --------------------------------
def test_serve_and_worker_say_in_one_line_what_does_not_answer(tmp_path: Path) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        port = taken.getsockname()[1]  # bound, so another bind fails
        free = str(free_port())  # serve binds its port first
        db = f"sqlite:///{tmp_path / 'games.db'}"
        unmade = f"sqlite:///{tmp_path / 'unmade.db'}"
        for args, said in (
            (
                ["serve", "--db", "postgresql://ann:secret@127.0.0.1:1/x", "--port", free],
                "cannot reach the database postgresql://ann:***@127.0.0.1:1/x: ",
            ),
            (
                ["serve", "--db", unmade, "--redis", "redis://127.0.0.1:1", "--port", free],
                "cannot reach Redis",
            ),
            (["worker", "--db", db, "--redis", "redis://127.0.0.1:1"], "cannot reach Redis"),
            (["serve", "--db", unmade, "--port", str(port)], f"cannot serve on 127.0.0.1:{port}: "),
        ):
            result = invoke(*args)
            assert result.exit_code == 1, result.output
            assert result.output.startswith(f"Error: {said}"), result.output
            assert "Traceback" not in result.output and "served at" not in result.output
    # a port taken, or Redis away, is found before the database is asked: none was made
    assert not (tmp_path / "unmade.db").exists()


def test_a_second_serve_on_one_sqlite_file_without_redis_is_refused(tmp_path: Path) -> None:
    """Two would not tell each other of their games' changes (docs/deploy.md); the
    lock is the system's, so a killed first process leaves none behind."""
    from shiftago.interfaces.server.startup import hold_the_only_process

    db = f"sqlite:///{tmp_path / 'games.db'}"
    first = hold_the_only_process(db, None)
    assert first is not None
    try:
        result = invoke("serve", "--db", db, "--port", str(free_port()))
        assert result.exit_code == 1, result.output
        assert result.output.startswith("Error: another shiftago serve runs on sqlite:///")
        assert "several need --redis" in result.output
        assert hold_the_only_process(db, "redis://127.0.0.1:6379/0") is None  # with Redis
    finally:
        first.close()
    again = hold_the_only_process(db, None)  # let go: the next one takes it
    assert again is not None
    again.close()
    assert (tmp_path / "games.db.serve-lock").stat().st_mode & 0o077 == 0


def test_a_database_a_newer_version_migrated_is_said_in_one_line(
    tmp_path: Path, redis_url: str
) -> None:
    """Migrations only go forward: after a rollback of the code, the database's newer
    revision is named with what to do, not a traceback at every restart."""
    import sqlite3

    from shiftago.interfaces.server.db.store import migrate, open_engine

    path = tmp_path / "games.db"
    engine = open_engine(f"sqlite:///{path}")
    migrate(engine)
    engine.dispose()
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE alembic_version SET version_num = '0099'")
    for command in ("serve", "worker"):
        extra = ["--redis", redis_url] if command == "worker" else []  # Redis is asked first
        result = invoke(command, "--db", f"sqlite:///{path}", *extra)
        assert result.exit_code == 1, result.output
        assert result.output.startswith(
            "Error: the database's schema is at revision 0099, which this shiftago does not know"
        ), result.output
        assert "restore the backup" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("shiftago.example.org", "a whole address such as https://shiftago.example.org"),
        ("ftp://shiftago.example.org", "a whole address"),
        ("https://shiftago.example.org/games", "the site's root only"),
        ("https://shiftago.example.org/?x=1", "the site's root only"),
    ],
)
def test_serve_refuses_a_public_url_that_makes_no_join_links(url: str, said: str) -> None:
    result = invoke("serve", "--public-url", url)
    assert result.exit_code == 2 and said in result.output, result.output


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["serve", "--db", "nonsense://x"], "'nonsense://x' is not a database URL"),
        (["serve", "--db", "notaurl"], "'notaurl' is not a database URL"),
        (["serve", "--db", "mysql://host/db"], "No module named"),  # no driver installed
        (
            ["worker", "--db", "nonsense://x", "--redis", "redis://127.0.0.1:1/0"],
            "not a database URL",
        ),
        (["serve", "--trusted-proxy", "nonsense"], "'nonsense' is not an address or a network"),
        (["serve", "--metrics-from", "10.0.0.0/33"], "is not an address or a network"),
        # a whole address where a host is asked for would never match a request's Host
        (["serve", "--allowed-host", "https://www.example.org"], "a host name with an optional"),
        (["serve", "--allowed-host", "www.example.org:http"], "a host name with an optional"),
        (["serve", "--redis", "http://127.0.0.1:6379"], "is not a Redis URL: it starts with"),
        (["worker", "--redis", "garbage", "--db", "sqlite:///x.db"], "is not a Redis URL"),
        (["serve", "--idle-seconds", "nan"], "'nan' is not a number"),
        (["serve", "--bot-delay", "nan"], "'nan' is not a number"),
        (["worker", "--lease", "nan", "--redis", "redis://127.0.0.1:1/0"], "is not a number"),
    ],
)
def test_serve_and_worker_refuse_bad_addresses_in_one_line(args: list[str], said: str) -> None:
    result = invoke(*args)
    assert result.exit_code == 2 and said in result.output, result.output
    assert "Traceback" not in result.output


def test_serve_accepts_a_host_with_its_port_and_an_ipv6_address() -> None:
    from shiftago.interfaces.cli.serve import _hosts

    given = ("www.example.org", "www.example.org:8443", "[::1]:8443", "127.0.0.1")
    assert _hosts(click.Context(click.Command("serve")), click.Option(["--x"]), given) == given


@pytest.mark.parametrize(
    ("environment", "said"),
    [
        ({"SHIFTAGO_ENGINE_THREADS": "0"}, "$SHIFTAGO_ENGINE_THREADS must be a whole number"),
        ({"SHIFTAGO_REDIS_URL": "garbage"}, "'garbage' is not a Redis URL"),
        ({"SHIFTAGO_HOME": "/proc/nope"}, "cannot make the data directory /proc/nope"),
    ],
)
def test_serve_refuses_bad_environment_settings_in_one_line(
    environment: dict[str, str], said: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    result = invoke("serve", "--port", "1")
    assert result.exit_code in (1, 2) and said in result.output, result.output
    assert "Traceback" not in result.output


def test_arena_results_where_nothing_can_be_written_is_one_line() -> None:
    # /proc takes no new files, even from root
    result = invoke("arena", "random", "random", "--games", "2", "--results", "/proc/x.jsonl")
    assert result.exit_code == 1 and "cannot write the results: /proc/x" in result.output
    assert "Traceback" not in result.output
