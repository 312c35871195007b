"""The Shiftago Text Protocol (PROTOCOL.md), through a real engine subprocess."""

from __future__ import annotations

import contextlib
import io
import math
import queue
import random
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator

import pytest

import shiftago
from shiftago import COLOURS, Game, Rules, State, Variant
from shiftago.engine.book import shipped_book
from shiftago.engine.levels import LEVELS
from shiftago.interfaces.stp import StpEngine, run
from shiftago.interfaces.stp.commands import INITIAL_GAME

ENGINE = [sys.executable, "-m", "shiftago.interfaces.stp"]
TIMEOUT = 20.0
START = "express 2 7/7/7/7/7/7/7 o insert 22,22 0,0 0,0"
ALL_COMMANDS = [
    "protocol_version",
    "name",
    "version",
    "list_commands",
    "newgame",
    "setposition",
    "position",
    "showboard",
    "legal",
    "play",
    "undo",
    "status",
    "score",
    "go",
    "analyse",
    "levels",
    "quit",
    "isready",
    "stop",
    "options",
    "setoption",
]
CANONICAL = [f"L{i}" for i in range(1, 8)] + [f"R{i}" for i in range(1, 8)]
CANONICAL += [f"T{f}" for f in "abcdefg"] + [f"B{f}" for f in "abcdefg"]
#: One response: a status line, payload lines, then the empty line.
FRAME = re.compile(r"[=?](\d+)?( \S.*)?\n([^\n]+\n)*\n")


class Response:
    """One parsed response: success or not, the echoed id and the payload."""

    def __init__(self, lines: list[str]) -> None:
        head = lines[0]
        match = re.fullmatch(r"([=?])(\d*)(?: (.*))?", head)
        assert match, f"bad response line {head!r}"
        self.ok = match.group(1) == "="
        self.id = match.group(2) or None
        self.text = match.group(3) or ""
        self.lines = lines[1:]
        assert not (self.text and self.lines), "a payload is on the = line or after it"

    def __repr__(self) -> str:
        return f"<Response ok={self.ok} id={self.id} {self.text!r} {self.lines!r}>"


class Engine:
    """A running engine process with a line reader that cannot hang the tests."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            ENGINE, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        self._lines: queue.Queue[bytes] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._lines.put(line)
        self._lines.put(b"")

    def write(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def readline(self) -> str:
        raw = self._lines.get(timeout=TIMEOUT)
        assert raw.endswith(b"\n"), f"the engine's output ended: {raw!r}"
        assert not raw.endswith(b"\r\n"), "the engine writes \\n line ends"
        return raw[:-1].decode()

    def read_response(self) -> Response:
        lines = [self.readline()]
        while lines[-1] != "":
            lines.append(self.readline())
        return Response(lines[:-1])

    def send(self, command: str) -> Response:
        self.write(command.encode() + b"\n")
        return self.read_response()

    def ok(self, command: str) -> str:
        """The one-line payload of a command that must succeed."""
        response = self.send(command)
        assert response.ok, f"{command!r} failed: {response.text}"
        assert not response.lines
        return response.text

    def lines(self, command: str) -> list[str]:
        """The payload lines of a multi-line command that must succeed."""
        response = self.send(command)
        assert response.ok, f"{command!r} failed: {response.text}"
        assert response.text == ""
        return response.lines

    def fail(self, command: str) -> str:
        """The message of a command that must fail, checking that it changed nothing."""
        before = self.ok("position")
        history = self.ok("status")
        response = self.send(command)
        assert not response.ok, f"{command!r} should fail"
        assert response.text and not response.lines
        assert self.ok("position") == before
        assert self.ok("status") == history
        return response.text

    def close(self) -> int:
        assert self.proc.stdin is not None
        if not self.proc.stdin.closed:
            self.proc.stdin.close()
        code = self.proc.wait(timeout=TIMEOUT)
        self.proc.stdout and self.proc.stdout.close()
        self.proc.stderr and self.proc.stderr.close()
        return code


@pytest.fixture
def fresh_engine() -> Iterator[Engine]:
    """An engine process of the test's own: for what a new engine holds, for its options
    (no command takes them back to unset) and for its ending (quit, end of input)."""
    eng = Engine()
    try:
        yield eng
    finally:
        if eng.proc.poll() is None:
            eng.close()


class SharedEngine:
    """One engine process for a module's tests that need only a new game: starting an
    engine (its imports and compiled searches) costs more than most tests (docs/testing.md).

    Each test gets it after ``newgame`` with the engine's own first game (a new game, its
    bots and their table: what ``newgame`` resets); no test given it sets an option. A
    test that leaves it with output unread or a search running, or ends it, leaves the
    next test a new process."""

    def __init__(self) -> None:
        self.engine: Engine | None = None

    def take(self) -> Engine:
        if self.engine is None or self.engine.proc.poll() is not None:
            self.engine = Engine()
        self.engine.ok(INITIAL_GAME)
        assert self.engine.ok("position") == START
        return self.engine

    def give_back(self) -> None:
        """Keep the process only if it is idle: a ``stop`` and an ``isready`` are the
        next two answers, with nothing before them."""
        engine, self.engine = self.engine, None
        if engine is None or engine.proc.poll() is not None:
            return
        try:
            engine.write(b"901 stop\n902 isready\n")
            stop, ready = engine.read_response(), engine.read_response()
            idle = (stop.id, ready.id, ready.text) == ("901", "902", "ready")
        except (AssertionError, OSError, queue.Empty):
            idle = False
        if idle and engine._lines.empty():
            self.engine = engine
        else:
            engine.proc.kill()
            with contextlib.suppress(OSError):
                engine.close()

    def close(self) -> None:
        if self.engine is not None and self.engine.proc.poll() is None:
            self.engine.close()


@pytest.fixture(scope="module")
def shared_engine() -> Iterator[SharedEngine]:
    shared = SharedEngine()
    try:
        yield shared
    finally:
        shared.close()


@pytest.fixture
def engine(shared_engine: SharedEngine) -> Iterator[Engine]:
    """The module's engine process, in a new game."""
    yield shared_engine.take()
    shared_engine.give_back()


def transcript(data: bytes) -> tuple[int, str, str]:
    """Feed the whole input at once: exit status, stdout and stderr."""
    done = subprocess.run(ENGINE, input=data, capture_output=True, timeout=TIMEOUT * 3)
    return done.returncode, done.stdout.decode(), done.stderr.decode()


# --- the shared engine of these tests ------------------------------------------------------
def test_the_shared_engine_is_handed_on_only_when_idle(shared_engine: SharedEngine) -> None:
    idle = shared_engine.take()
    shared_engine.give_back()
    assert shared_engine.engine is idle
    busy = shared_engine.take()
    busy.write(b"analyse infinite\n")  # left running: its answer would reach the next test
    shared_engine.give_back()
    assert shared_engine.engine is None and busy.proc.poll() is not None
    fresh = shared_engine.take()
    assert fresh is not busy and fresh.ok("status") == "playing o insert"
    shared_engine.give_back()


# --- identity -------------------------------------------------------------------------
def test_identity_commands(engine: Engine) -> None:
    assert engine.ok("protocol_version") == "1"
    assert engine.ok("name") == "shiftago"
    assert engine.ok("version") == shiftago.__version__
    assert engine.lines("list_commands") == ALL_COMMANDS
    levels = engine.lines("levels")
    assert levels[0] == "1 beginner" and levels == [f"{n} {name}" for n, name in LEVELS]


def test_a_new_engine_holds_express_two_players_orange_first(fresh_engine: Engine) -> None:
    assert fresh_engine.ok("position") == START
    assert fresh_engine.ok("status") == "playing o insert"
    assert fresh_engine.ok("score") == "o 0 22 g 0 22"
    assert fresh_engine.ok("legal") == " ".join(CANONICAL)


# --- framing ----------------------------------------------------------------------------
def test_ids_are_echoed(engine: Engine) -> None:
    response = engine.send("12 protocol_version")
    assert (response.ok, response.id, response.text) == (True, "12", "1")
    response = engine.send("7 showboard")
    assert (response.ok, response.id, response.lines) == (True, "7", ["......."] * 7)
    response = engine.send("3 newgame expert 2 first=o")
    assert (response.ok, response.id, response.text) == (True, "3", "")
    response = engine.send("99 frobnicate")
    assert (response.ok, response.id, response.text) == (False, "99", "unknown command: frobnicate")
    response = engine.send("0 play Z9")
    assert (response.ok, response.id) == (False, "0")
    response = engine.send("5")
    assert (response.ok, response.id) == (False, "5")
    position = "expert 2 3o3/7/7/7/7/7/7 g insert 21,22 0,0 0,0"
    response = engine.send(f"4 setposition {position}")
    assert (response.ok, response.id, response.text) == (True, "4", "")
    assert engine.ok("position") == position


def test_unknown_command(engine: Engine) -> None:
    assert engine.fail("frobnicate now") == "unknown command: frobnicate"
    assert engine.fail("-3 legal").startswith("unknown command")


def test_a_failure_quotes_long_or_unprintable_input_in_short(engine: Engine) -> None:
    # a pasted line comes back as one short readable line, not whole
    assert engine.fail("x" * 5000) == "unknown command: " + "x" * 199 + "…"
    said = engine.fail("play " + "L" * 5000)
    assert said.startswith("'" + "L" * 198 + "… is not an action") and len(said) < 500
    assert engine.fail("fro\x02b") == "unknown command: fro?b"
    assert engine.ok("position").startswith("express 2 7/7/7/7/7/7/7 ")  # nothing changed


def test_empty_lines_and_comments_get_no_response() -> None:
    code, out, _ = transcript(b"\n   \n# a comment\n  # indented comment\nname\n")
    assert (code, out) == (0, "= shiftago\n\n")


def test_crlf_line_ends_are_accepted() -> None:
    data = b"1 newgame expert 2 first=o\r\n2 play Td\r\n3 position\r\n\r\n4 legal\r\n"
    code, out, _ = transcript(data)
    assert code == 0
    assert out.startswith(
        "=1\n\n=2\n\n=3 expert 2 3o3/7/7/7/7/7/7 g insert 21,22 0,0 0,0\n\n=4 L1 "
    )
    assert "\r" not in out


def test_end_of_input_exits_with_status_zero(fresh_engine: Engine) -> None:
    fresh_engine.ok("name")
    assert fresh_engine.close() == 0


def test_quit_answers_then_exits(fresh_engine: Engine) -> None:
    response = fresh_engine.send("8 quit")
    assert (response.ok, response.id, response.text) == (True, "8", "")
    assert fresh_engine.proc.wait(timeout=TIMEOUT) == 0
    assert fresh_engine._lines.get(timeout=TIMEOUT) == b""  # nothing after the response


def test_quit_stops_reading_input() -> None:
    code, out, _ = transcript(b"quit\nname\nversion\n")
    assert (code, out) == (0, "=\n\n")


def test_nothing_but_responses_on_stdout() -> None:
    commands = [
        "protocol_version",
        "list_commands",
        "newgame extreme 4 seed=3 limit=40",
        "showboard",
        "go",
        "analyse",
        "legal",
        "play L1",
        "play L1",
        "play nonsense",
        "undo",
        "status",
        "score",
        "levels",
        "setposition garbage",
        "7 go level=1 depth=2",
        "bogus",
    ]
    code, out, _ = transcript(("\n".join(commands) + "\n").encode())
    assert code == 0
    responses = list(FRAME.finditer(out))
    assert "".join(m.group(0) for m in responses) == out
    assert len(responses) == len(commands)


def test_garbage_never_crashes_the_engine() -> None:
    junk = [
        b"\xff\xfe\x00garbage\x01",
        b"play \xe2\x98\x83",
        b"newgame express 2 seed=" + b"9" * 5000,
        b"newgame \x00 2",
        b"play " + b"x" * 100000,
        b"setposition " + b"/" * 1000,
        b"go movetime=abc",
        b"analyse nodes=-1",
        b"12345678901234567890 name",
        b"\t\tname\t",
        b"newgame express 2 first= seed=",
        b"newgame express 2 =",
        b"undo undo",
        b"status please",
        b"play L1 L2",
        b"play",
        b"setposition",
        b"newgame",
    ]
    code, out, err = transcript(b"\n".join(junk) + b"\nposition\n")
    assert code == 0
    responses = [m.group(0) for m in FRAME.finditer(out)]
    assert "".join(responses) == out
    assert len(responses) == len(junk) + 1
    assert responses[-1] == f"= {START}\n\n"
    assert responses[8] == "=12345678901234567890 shiftago\n\n"
    assert responses[9] == "= shiftago\n\n"
    assert "internal error" not in out
    assert "Traceback" not in err


# --- newgame ------------------------------------------------------------------------------
def test_example_position_of_the_protocol(engine: Engine) -> None:
    assert engine.ok("newgame expert 2 first=o") == ""
    assert engine.ok("play Td") == ""
    assert engine.ok("position") == "expert 2 3o3/7/7/7/7/7/7 g insert 21,22 0,0 0,0"
    assert engine.lines("showboard") == ["...o..."] + ["......."] * 6


@pytest.mark.parametrize(("players", "seed"), [(3, 5), (2, 0), (3, 7), (4, 1), (4, 6)])
def test_seed_draws_the_first_seat(engine: Engine, players: int, seed: int) -> None:
    engine.ok(f"newgame express {players} seed={seed}")
    first = COLOURS[random.Random(seed).randrange(players)]
    position = engine.ok("position").split()
    assert position[:2] == ["express", str(players)]
    assert position[3] == first
    assert engine.ok("status") == f"playing {first} insert"


def test_express_3_seed_5(engine: Engine) -> None:
    engine.ok("newgame express 3 seed=5")
    assert engine.ok("position") == (
        f"express 3 7/7/7/7/7/7/7 {COLOURS[random.Random(5).randrange(3)]} insert "
        "22,22,22 0,0,0 0,0,0"
    )


def test_without_first_or_seed_any_seat_may_start(engine: Engine) -> None:
    seen = set()
    for _ in range(40):
        engine.ok("newgame expert 4")
        seen.add(engine.ok("position").split()[3])
    assert seen <= set("ogbw") and len(seen) > 1


def test_first_sets_the_starting_colour(engine: Engine) -> None:
    for players in (2, 3, 4):
        for colour in COLOURS[:players]:
            engine.ok(f"newgame extreme {players} first={colour.upper()}")
            assert engine.ok("status") == f"playing {colour} insert"


def test_handicap_skips_show_in_the_position_and_undo_restores_them(engine: Engine) -> None:
    engine.ok("newgame expert 3 handicap=1,0,2 first=o")
    # o's skip is used up at once: green acts, blue still has two to come.
    assert engine.ok("position") == "expert 3 7/7/7/7/7/7/7 g insert 22,22,22 0,0,0 0,0,2"
    engine.ok("play L1")
    # blue skips once, so orange acts.
    assert engine.ok("position") == "expert 3 7/7/7/7/7/7/g6 o insert 22,21,22 0,0,0 0,0,1"
    engine.ok("play L2")
    assert engine.ok("position") == "expert 3 7/7/7/7/7/o6/g6 g insert 21,21,22 0,0,0 0,0,1"
    engine.ok("undo")
    engine.ok("undo")
    assert engine.ok("position") == "expert 3 7/7/7/7/7/7/7 g insert 22,22,22 0,0,0 0,0,2"
    assert engine.fail("undo") == "there is no action to take back"


@pytest.mark.parametrize(
    ("command", "words"),
    [
        ("newgame", "variant"),
        ("newgame expert", "variant"),
        ("newgame chess 2", "unknown variant"),
        ("newgame expert 5", "players"),
        ("newgame expert two", "players"),
        ("newgame expert 2 colour=o", "unknown option"),
        ("newgame expert 2 first", "unknown option"),
        ("newgame expert 2 handicap=1", "one number per player"),
        ("newgame expert 3 handicap=1,2", "one number per player"),
        ("newgame expert 2 handicap=1,2,3", "one number per player"),
        ("newgame expert 2 handicap=7,0", "0 to 6"),
        ("newgame expert 2 handicap=a,0", "whole number"),
        ("newgame expert 2 handicap=-1,0", "each handicap must be 0 to 6, not -1"),
        ("newgame expert 2 first=b", "colour"),
        ("newgame expert 3 first=w", "colour"),
        ("newgame expert 2 first=red", "colour"),
        ("newgame expert 2 seed=x", "whole number"),
        ("newgame expert 2 seed=-4", "seed must be at least 0, not -4"),
        ("newgame expert 2 limit=0", "at least 1"),
        # past the kernels' 64-bit counts: accepted, it failed every later search
        ("newgame expert 2 limit=99999999999999999999999", "at most 1000000000000000000"),
        ("newgame expert 2 limit=1.5", "whole number"),
        ("newgame expert 2 seed=1 seed=2", "twice"),
        ("newgame expert 2 first=", "needs a value"),
    ],
)
def test_newgame_errors_change_nothing(engine: Engine, command: str, words: str) -> None:
    engine.ok("newgame expert 2 first=g")
    engine.ok("play L4")
    message = engine.fail(command)
    assert words.lower() in message.lower()
    assert engine.ok("position") == "expert 2 7/7/7/g6/7/7/7 o insert 22,21 0,0 0,0"


def test_newgame_is_case_insensitive(engine: Engine) -> None:
    engine.ok("NEWGAME Extreme 4 First=W Seed=3 LIMIT=10 handicap=0,0,0,0")
    assert engine.ok("status") == "playing w insert"


# --- setposition and position -------------------------------------------------------------
VALID_POSITIONS = [
    "expert 2 3o3/7/7/7/7/7/7 g insert 21,22 0,0 0,0",
    "extreme 4 7/7/7/w6/g6/b6/ooo4 o insert 19,21,21,21 8,0,0,0 0,1,6,0",
    "expert 3 7/7/7/7/7/3o3/oooo3 o score 17,22,22 0,0,0 0,0,0",
    "express 3 7/7/7/7/7/7/1bbb3 o insert 1,0,0 0,0,0 0,0,0",
]


@pytest.mark.parametrize("position", VALID_POSITIONS)
def test_setposition_round_trips(engine: Engine, position: str) -> None:
    assert engine.ok(f"setposition {position}") == ""
    assert engine.ok("position") == position
    assert engine.fail("undo") == "there is no action to take back"


def test_setposition_accepts_any_case_and_spacing(engine: Engine) -> None:
    engine.ok("setposition  EXPERT 2   3O3/7/7/7/7/7/7 G insert 21,22 0,0 0,0 ")
    assert engine.ok("position") == VALID_POSITIONS[0]


@pytest.mark.parametrize(
    "position",
    [
        "",
        "expert 2 3o3/7/7/7/7/7/7 g insert 21,22 0,0",  # seven fields
        "expert 2 3o3/7/7/7/7/7/7 g insert 21,22 0,0 0,0 extra",  # nine fields
        "chess 2 7/7/7/7/7/7/7 o insert 22,22 0,0 0,0",
        "expert 5 7/7/7/7/7/7/7 o insert 22,22 0,0 0,0",
        "expert 2 7/7/7/7/7/7 o insert 22,22 0,0 0,0",  # six ranks
        "expert 2 8/7/7/7/7/7/7 o insert 22,22 0,0 0,0",
        "expert 2 6/7/7/7/7/7/7 o insert 22,22 0,0 0,0",
        "expert 2 b6/7/7/7/7/7/7 o insert 22,22 0,0 0,0",  # no blue in 2 players
        "expert 2 7/7/7/7/7/7/7 b insert 22,22 0,0 0,0",
        "expert 2 7/7/7/7/7/7/7 o insert 22,22,22 0,0 0,0",
        "expert 2 7/7/7/7/7/7/7 o insert 22 0,0 0,0",
        "expert 2 7/7/7/7/7/7/7 o insert 22,x 0,0 0,0",
        "expert 2 o6/7/7/7/7/7/7 o insert 22,22 0,0 0,0",  # 23 orange marbles
        "expert 2 7/7/7/7/7/7/7 o insert 22,22 0,0 7,0",  # seven skips
        "expert 2 7/7/7/7/7/7/7 o insert 22,22 0,0 1,0",  # skips for the colour to act
        "expert 2 7/7/7/7/7/7/7 o insert 22,22 10,0 0,0",  # already won
        "expert 2 7/7/7/7/7/7/7 o score 22,22 0,0 0,0",  # nothing to score
        "express 2 7/7/7/7/7/7/ooooo2 o score 17,22 0,0 0,0",  # no scoring in Express
        "expert 2 7/7/7/7/7/7/7 o over 22,22 0,0 0,0",
        "expert 2 7/7/7/7/7/7/7 o wait 22,22 0,0 0,0",
    ],
)
def test_setposition_refuses_invalid_positions(engine: Engine, position: str) -> None:
    engine.ok("newgame expert 2 first=o")
    engine.ok("play Ba")
    engine.fail(f"setposition {position}")
    assert engine.ok("position") == "expert 2 7/7/7/7/7/7/o6 g insert 21,22 0,0 0,0"


# --- play, legal, undo --------------------------------------------------------------------
def test_play_accepts_any_spelling_and_undo_takes_back(engine: Engine) -> None:
    engine.ok("newgame express 2 first=o")
    engine.ok("play  tD ")
    engine.ok("play l1")
    assert engine.ok("position") == "express 2 3o3/7/7/7/7/7/g6 o insert 21,21 0,0 0,0"
    engine.ok("undo")
    assert engine.ok("position") == "express 2 3o3/7/7/7/7/7/7 g insert 21,22 0,0 0,0"
    engine.ok("undo")
    assert engine.ok("position") == START
    engine.fail("undo")


def test_play_refusals_change_nothing(engine: Engine) -> None:
    engine.ok("setposition expert 2 7/7/7/7/7/7/ooggoog o insert 18,19 0,0 0,0")
    assert engine.fail("play L1") == "illegal move: L1 (lane full)"
    assert "not an action" in engine.fail("play Q7")
    assert "not an action" in engine.fail("play L8")
    assert engine.fail("play").startswith("play needs")
    assert engine.fail("play L2 L3").startswith("play needs")
    assert "score" in engine.fail("play xa1-b1")


def test_legal_in_the_score_phase_lists_scorings(engine: Engine) -> None:
    engine.ok("setposition expert 3 7/7/7/7/7/3o3/oooo3 o score 17,22,22 0,0,0 0,0,0")
    assert engine.ok("status") == "playing o score"
    assert engine.ok("legal") == "xa1-d1 xd1-a1"
    assert "score" in engine.fail("play L5")
    engine.ok("play XD1-A1")
    assert engine.ok("position") == "expert 3 7/7/7/7/7/3o3/3o3 o insert 20,22,22 2,0,0 0,0,0"
    assert engine.ok("score") == "o 2 20 g 0 22 b 0 22"


def test_two_player_scorings_accept_both_spellings(engine: Engine) -> None:
    position = "expert 2 7/7/7/7/7/7/ooooo2 o score 17,22 0,0 0,0"
    engine.ok(f"setposition {position}")
    assert engine.ok("legal") == "xa1-e1"
    engine.ok("play xe1-a1")
    assert engine.ok("position") == "expert 2 7/7/7/7/7/7/o3o2 o insert 20,22 2,0 0,0"


def test_a_finished_game(engine: Engine) -> None:
    engine.ok("setposition express 2 7/7/7/7/7/g6/oooo3 o insert 18,21 0,0 0,0")
    engine.ok("play L1")
    assert engine.ok("status") == "over winner o"
    response = engine.send("legal")
    assert (response.ok, response.text, response.lines) == (True, "", [])
    assert engine.fail("play R5").startswith("the game is over")
    assert engine.fail("go").startswith("the game is over")
    assert engine.fail("analyse") == "the game is over: there is no action to analyse"
    assert engine.fail("analyse infinite info=1").startswith("the game is over")
    engine.ok("undo")
    assert engine.ok("status") == "playing o insert"


def test_status_of_a_draw_names_every_colour_sharing_it(engine: Engine) -> None:
    engine.ok("setposition express 3 7/7/7/7/7/7/7 o insert 1,0,5 0,0,0 0,0,0")
    engine.ok("play L1")  # green has no marble left: the Express game is drawn
    assert engine.ok("status") == "over draw o g b"
    engine.ok("setposition expert 3 7/7/7/7/7/7/7 o insert 1,0,5 4,4,2 0,0,0")
    engine.ok("play L1")
    assert engine.ok("status") == "over draw o g"
    engine.ok("setposition extreme 2 7/7/7/7/7/7/7 o insert 1,0 3,4 0,0")
    engine.ok("play L1")
    assert engine.ok("status") == "over winner g"


def test_score_lists_points_and_supplies_in_seat_order(engine: Engine) -> None:
    engine.ok("setposition extreme 4 7/7/7/w6/g6/b6/ooo4 o insert 19,21,20,21 8,1,0,3 0,0,0,0")
    assert engine.ok("score") == "o 8 19 g 1 21 b 0 20 w 3 21"


def test_showboard_uses_the_colour_letters(engine: Engine) -> None:
    engine.ok("setposition extreme 4 7/7/7/w6/g6/b6/ooo4 o insert 19,21,21,21 8,0,0,0 0,0,0,0")
    assert engine.lines("showboard") == [
        ".......",
        ".......",
        ".......",
        "w......",
        "g......",
        "b......",
        "ooo....",
    ]


# --- action limit ----------------------------------------------------------------------------
def test_the_action_limit_counts_from_newgame_and_again_from_setposition(engine: Engine) -> None:
    engine.ok("newgame expert 2 first=o limit=3")
    for action in ("L1", "L2", "L3"):
        assert engine.ok("status").startswith("playing")
        engine.ok(f"play {action}")
    assert engine.ok("status") == "over draw o g"
    engine.fail("play L4")
    engine.ok("setposition expert 2 7/7/7/7/7/7/7 o insert 22,22 0,3 0,0")
    engine.ok("play L1")
    engine.ok("play L2")
    assert engine.ok("status") == "playing o insert"
    engine.ok("play L3")
    assert engine.ok("status") == "over winner g"
    # a newgame without a limit clears it
    engine.ok("newgame expert 2 first=o")
    engine.ok("setposition expert 2 7/7/7/7/7/7/7 o insert 22,22 0,3 0,0")
    for action in ("L1", "L2", "L3", "L4"):
        engine.ok(f"play {action}")
    assert engine.ok("status") == "playing o insert"


# --- go and analyse ------------------------------------------------------------------------
def test_go_answers_a_legal_action_and_does_not_play_it(engine: Engine) -> None:
    # Express: a bare `go` (the top level's 200,000 iterations) takes some 5 s from an
    # empty Extreme board, whose playouts are long, and far more on a busy machine
    engine.ok("newgame express 3 seed=9")
    before = engine.ok("position")
    legal = engine.ok("legal").split()
    for options in ("", "movetime=500", "depth=2", "nodes=1000", "level=1", "level=1 depth=1"):
        assert engine.ok(f"go {options}".strip()) in legal
    assert engine.ok("position") == before


def test_go_finds_the_win(engine: Engine) -> None:
    engine.ok("setposition express 2 7/7/7/7/7/g6/oooo3 o insert 18,21 0,0 0,0")
    action = engine.ok("go")
    state = State.from_position("express 2 7/7/7/7/7/g6/oooo3 o insert 18,21 0,0 0,0")
    after = state.after(shiftago.Action.parse(action))
    assert after.outcome is not None and after.outcome.winners == (0,)


@pytest.mark.parametrize(
    ("position", "wins"),
    [
        ("express 2 7/7/7/7/7/g6/oooo3 o insert 18,21 0,0 0,0", {"L1", "Be"}),
        ("express 3 7/7/7/7/7/g6/ooo4 o insert 19,21,22 0,0,0 0,0,0", {"L1", "Bd"}),
    ],
)
def test_a_search_ended_at_once_by_quit_still_answers_what_it_found(
    position: str, wins: set[str]
) -> None:
    # A script that asks and quits in one go: the quit, read while the analysis runs,
    # ends it at once (PROTOCOL.md 1.1); its answer is still a search's (alpha-beta's
    # first depth, the MCTS's first iterations), here with a win at once first, not
    # the actions unsearched with a value of 0.
    code, out, _ = transcript(f"setposition {position}\nanalyse depth=30\nquit\n".encode())
    assert code == 0
    set_up, analysis, quit_answer, rest = out.split("\n\n")
    assert (set_up, quit_answer, rest) == ("=", "=", "")
    lines = [line.split() for line in analysis.splitlines()[1:]]
    assert lines[0][0] in wins
    assert len({float(line[1]) for line in lines}) > 1


def test_go_is_repeatable_with_the_same_seed() -> None:
    script = b"newgame express 2 seed=31\n" + b"go\nplay L4\ngo\nplay Tc\ngo\ngo\n"
    script += b"go level=1\ngo level=1\n"
    first, second = transcript(script), transcript(script)
    assert first == second
    answers = first[1].split("\n\n")
    assert len(answers) == 10 and answers[-1] == ""
    assert answers[-5] == answers[-4]  # asking again gives the same answer
    assert answers[-3] == answers[-2]  # at level 1 too


def test_go_option_errors(engine: Engine) -> None:
    assert "unknown option" in engine.fail("go speed=3")
    assert "unknown level" in engine.fail("go level=99")
    assert "at least 1" in engine.fail("go level=0")
    assert "whole number" in engine.fail("go depth=two")
    assert "at least 1" in engine.fail("go movetime=0")
    assert "twice" in engine.fail("go depth=1 depth=2")
    assert "unknown option" in engine.fail("go L1")


def test_a_refusal_that_quotes_a_long_input_stays_a_short_line(engine: Engine) -> None:
    said = engine.fail("undo " + "L " * 100_000)
    assert said.startswith("undo takes no arguments, got 'L L") and len(said) <= 1_000
    assert engine.fail("play " + "L" * 1_000_000).endswith(
        "is not an action: an insertion is "
        "a side L, R, T or B and a lane (L3, Tc), a scoring is x and the two end cells of the "
        "line (xc3-g3)"
    )


def test_analyse_ranks_every_legal_action_best_first(engine: Engine) -> None:
    engine.ok("setposition expert 2 7/7/7/7/7/7/1gggg2 o insert 22,18 0,8 0,0")
    legal = engine.ok("legal").split()
    lines = engine.lines("analyse")
    assert sorted(line.split()[0] for line in lines) == sorted(legal)
    values = [int(line.split()[1]) for line in lines]
    assert values == sorted(values, reverse=True)
    for line in lines:
        action, value, *pv = line.split()
        assert pv[0] == action
        if int(value) == -1000:  # lets green win: the pv shows green's winning reply
            assert len(pv) >= 2
    # only Bb..Be stop green's line of five
    assert {line.split()[0] for line in lines if int(line.split()[1]) > -1000} == {
        "Bb",
        "Bc",
        "Bd",
        "Be",
    }
    assert engine.ok("go") in {"Bb", "Bc", "Bd", "Be"}
    assert len(engine.lines("analyse depth=1 nodes=50 movetime=1000")) == len(legal)
    assert "unknown option" in engine.fail("analyse bogus=1")


# --- version 1.1: clocks, info lines, stop, options ------------------------------------------
INFO = re.compile(
    r"info depth (\d+) value (-?\d+|win \d+|loss \d+) nodes \d+ nps \d+ time \d+ pv( \S+)+"
)


def read_thinking(engine: Engine) -> tuple[list[str], Response]:
    """The info lines and then the response of a search that thinks aloud."""
    infos: list[str] = []
    line = engine.readline()
    while line.startswith("info "):
        infos.append(line)
        line = engine.readline()
    lines = [line]
    while lines[-1] != "":
        lines.append(engine.readline())
    return infos, Response(lines[:-1])


def test_go_with_a_clock_answers_a_legal_action(engine: Engine) -> None:
    engine.ok("newgame express 2 seed=4")
    engine.ok("play Td")
    legal = engine.ok("legal").split()
    for options in ("clock=3000", "clock=2000 increment=200", "clock=6000 moves=40", "clock=0"):
        assert engine.ok(f"go {options}") in legal
    assert engine.ok("go level=4 clock=2000 movetime=50") in legal


def test_go_thinks_aloud_one_line_per_depth(fresh_engine: Engine) -> None:
    fresh_engine.ok("newgame express 2 first=o")
    fresh_engine.ok("play Td")
    fresh_engine.ok("setoption OwnBook 0")  # a search, not the opening book's answer
    legal = fresh_engine.ok("legal").split()
    fresh_engine.write(b"3 go depth=4 info=1\n")
    infos, response = read_thinking(fresh_engine)
    assert (response.ok, response.id) == (True, "3")
    matches = [INFO.fullmatch(line) for line in infos]
    assert all(matches), infos
    assert [int(m.group(1)) for m in matches if m] == [1, 2, 3, 4]
    assert all(line.split(" pv ")[1].split()[0] in legal for line in infos)
    assert infos[-1].split(" pv ")[1].split()[0] == response.text
    assert fresh_engine.ok("go depth=4") == response.text  # and without info=1, no info line


def test_the_mcts_thinks_aloud_after_doubling_chunks(fresh_engine: Engine) -> None:
    fresh_engine.ok("newgame express 3 first=o")
    fresh_engine.ok("setoption OwnBook 0")  # a search, not the opening book's answer
    legal = fresh_engine.ok("legal").split()
    fresh_engine.write(b"4 go nodes=5000 info=1\n")
    infos, response = read_thinking(fresh_engine)
    assert (response.ok, response.id) == (True, "4")
    # the value in the MCTS's unit: the mover's mean reward
    mcts_info = re.compile(
        r"info depth \d+ value [01](\.\d+)? nodes \d+ nps \d+ time \d+ pv( \S+)+"
    )
    assert all(mcts_info.fullmatch(line) for line in infos), infos
    # after each doubling chunk, then once more at the end for what the answer is made of
    assert [int(line.split(" nodes ")[1].split()[0]) for line in infos] == [1024, 3072, 5000]
    assert all(line.split(" pv ")[1].split()[0] in legal for line in infos)
    assert response.text == infos[-1].split(" pv ")[1].split()[0]


def test_the_mcts_says_a_proven_win_as_a_distance(engine: Engine) -> None:
    # PROTOCOL 1.1: "a proven result as value win 7", with 3 players too
    engine.ok("setposition express 3 ooo4/7/7/7/7/7/7 o insert 19,22,22 0,0,0 0,0,0")
    engine.write(b"go nodes=2000 info=1\n")
    infos, response = read_thinking(engine)
    assert response.ok and response.text in {"L7", "Td"}
    assert infos and infos[-1].startswith("info depth 1 value win 1 ")


def test_analyse_infinite_runs_until_stop(engine: Engine) -> None:
    engine.ok("newgame expert 2 first=o")
    engine.write(b"5 analyse infinite info=1\n")
    assert INFO.fullmatch(engine.readline())  # it thinks
    engine.write(b"6 isready\n")
    line = engine.readline()
    while line.startswith("info "):
        line = engine.readline()
    assert (line, engine.readline()) == ("=6 ready", "")
    engine.write(b"7 stop\n")
    infos, response = read_thinking(engine)
    assert all(INFO.fullmatch(line) for line in infos)
    assert (response.ok, response.id) == (True, "5")
    assert sorted(line.split()[0] for line in response.lines) == sorted(CANONICAL)
    assert (engine.read_response().id, engine.send("8 stop").id) == ("7", "8")
    assert engine.ok("status") == "playing o insert"


def test_an_infinite_search_that_ends_sooner_answers_at_stop(engine: Engine) -> None:
    """A greedy level, an MCTS level's iterations, a single legal action: the search ends
    on its own, and its answer waits for the stop (PROTOCOL 1.1: until stop)."""
    for setup, search in (
        ("newgame express 2 first=o", "go infinite level=1"),
        ("newgame express 3 first=o", "analyse infinite level=3"),
    ):
        engine.ok(setup)
        engine.write(f"5 {search}\n".encode())
        time.sleep(0.5)  # more than the search takes: its answer still waits (what is checked)
        assert engine.send("6 isready").id == "6"  # the first answer: the search's waits
        engine.write(b"7 stop\n")
        answer = engine.read_response()
        assert (answer.ok, answer.id) == (True, "5") and (answer.text or answer.lines)
        assert engine.read_response().id == "7"


def test_quit_ends_an_infinite_analysis_then_the_engine(fresh_engine: Engine) -> None:
    fresh_engine.write(b"analyse infinite\n")
    assert fresh_engine.send("isready").text == "ready"
    fresh_engine.write(b"quit\n")
    assert len(fresh_engine.read_response().lines) == len(CANONICAL)
    assert fresh_engine.read_response().text == ""
    assert fresh_engine.proc.wait(timeout=TIMEOUT) == 0


def test_the_end_of_input_ends_an_infinite_analysis() -> None:
    code, out, _ = transcript(b"analyse infinite\n")
    assert code == 0
    assert out.startswith("=\n") and out.endswith("\n\n") and out.count("\n\n") == 1
    assert len(out.splitlines()) == 1 + len(CANONICAL) + 1


def test_options_of_the_built_in_engine(fresh_engine: Engine) -> None:
    top = LEVELS[-1][0]
    assert fresh_engine.lines("options") == [
        "Threads int 1 1 64",
        "Hash int 8 1 16384",
        f"Level int {top} 1 {top}",
        "OwnBook int 1 0 1",
    ]
    fresh_engine.ok("setoption Threads 2")
    fresh_engine.ok("setoption hash 16")
    fresh_engine.ok("newgame express 2 seed=6")
    assert fresh_engine.ok("go depth=3") in fresh_engine.ok("legal").split()
    assert "1 to 16384" in fresh_engine.fail("setoption Hash 0")
    assert f"Level must be 1 to {top}" in fresh_engine.fail(f"setoption Level {top + 1}")


def test_the_top_level_plays_its_book_at_once_unless_ownbook_is_off(fresh_engine: Engine) -> None:
    # in the book the answer comes with no search: one info line of depth 0 and no nodes,
    # with the book's expected score in the alpha-beta's unit; OwnBook 0 searches
    fresh_engine.ok("newgame express 2 first=g")
    fresh_engine.write(b"go nodes=3000 info=1\n")
    infos, response = read_thinking(fresh_engine)
    start = Game(Rules(), first=1).state
    book = shipped_book(Variant.EXPRESS, 2)
    assert book is not None and response.ok and response.text == str(book.choice(start))
    entry = next(line.entry for line in book.lines(start) if line.chosen)
    assert entry.value is not None and not entry.proven
    value = round(65.0 * math.log(entry.value / (1.0 - entry.value)))  # HEURISTIC_SCALE
    assert infos == [f"info depth 0 value {value} nodes 0 nps 0 time 0 pv {response.text}"]
    assert INFO.fullmatch(infos[0])
    # with 3 players the MCTS's unit: the expected score itself
    fresh_engine.ok("newgame express 3 first=o")
    fresh_engine.write(b"go info=1\n")
    infos, response = read_thinking(fresh_engine)
    start = Game(Rules(players=3), first=0).state
    book = shipped_book(Variant.EXPRESS, 3)
    assert book is not None and response.ok and response.text == str(book.choice(start))
    entry = next(line.entry for line in book.lines(start) if line.chosen)
    assert entry.value is not None and 0 < entry.value < 1
    line = f"info depth 0 value {entry.value:.3f} nodes 0 nps 0 time 0 pv {response.text}"
    assert infos == [line]
    fresh_engine.ok("newgame express 2 first=g")
    assert "0 to 1" in fresh_engine.fail("setoption OwnBook 2")
    fresh_engine.ok("setoption OwnBook 0")
    fresh_engine.write(b"go nodes=3000 info=1\n")
    infos, response = read_thinking(fresh_engine)
    assert response.ok and infos and all(INFO.fullmatch(line) for line in infos)


def test_no_go_reads_a_book_the_engine_reads_them_before(monkeypatch: pytest.MonkeyPatch) -> None:
    """Reading the 2-player Express book takes about a third of a second, past a short
    movetime: the engine reads every book before it answers its first command, so that
    a first go in any category only looks its answer up."""
    from shiftago.engine.book import shipped

    shipped.shipped_book.cache_clear()
    engine = StpEngine()
    engine.prepare()  # as the engine's main does before it reads a command
    reads: list[bytes] = []
    monkeypatch.setattr(shipped, "read_book", lambda packed: reads.append(packed))
    for variant in ("express", "expert", "extreme"):
        for players in (2, 3, 4):
            assert engine.handle(f"newgame {variant} {players} first=o") == "=\n\n"
            assert engine.handle("go nodes=1").startswith("= ")
    assert reads == []


def test_the_level_option_is_the_level_of_a_search_that_names_none(fresh_engine: Engine) -> None:
    fresh_engine.ok("newgame expert 2 seed=8")
    fresh_engine.ok("play Td")
    greedy = fresh_engine.lines("analyse level=1")
    fresh_engine.ok("newgame expert 2 seed=8")
    fresh_engine.ok("play Td")
    fresh_engine.ok("setoption Level 1")
    assert fresh_engine.lines("analyse") == greedy


# --- in-process: the loop and internal errors ----------------------------------------------
def test_run_loop_in_process() -> None:
    stdin = io.StringIO("1 name\n\nquit\nname\n")
    stdout, log = io.StringIO(), io.StringIO()
    assert run(stdin, stdout, log) == 0
    assert stdout.getvalue() == "=1 shiftago\n\n=\n\n"
    assert log.getvalue() == ""


def test_an_internal_error_becomes_a_failure_and_the_engine_goes_on() -> None:
    log = io.StringIO()
    engine = StpEngine(log)

    def broken(args: list[str], rest: str) -> object:
        raise RuntimeError("boom")

    engine._commands["legal"] = broken  # type: ignore[assignment]
    assert engine.handle("4 legal") == "?4 internal error: RuntimeError: boom\n\n"
    assert "Traceback" in log.getvalue()
    assert engine.handle("position") == f"= {START}\n\n"
    assert not engine.done
    assert engine.handle("quit") == "=\n\n"
    assert engine.done


def test_engine_game_matches_the_core() -> None:
    engine = StpEngine(io.StringIO())
    engine.handle("newgame expert 4 first=b seed=2 limit=30")
    game = Game(Rules(Variant.EXPERT, 4, action_limit=30), first="b")
    assert engine.handle("position") == f"= {game.position()}\n\n"
