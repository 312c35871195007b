"""The engine protocol's input loop (version 1.1: info lines, stop, isready, options)
and ``serve``, with a stand-in bot that thinks in steps at no cost (tests/support/stp_bots.py).

The in-process tests feed the loop through a real pipe, so that a command can arrive
while a search thinks; the last tests serve the bot from a real subprocess, as a bot
author's script does.
"""

from __future__ import annotations

import io
import os
import queue
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

import shiftago
from shiftago.core import Action
from shiftago.engine.bot import Analysis, Progress, RankedAction
from shiftago.interfaces.stp import Ladder, StpEngine, run
from shiftago.interfaces.stp.session import Session
from support.stp_bots import DEFAULT_STEPS, SteppingBot
from support.waiting import wait_until

TIMEOUT = 20.0
BOTS_SCRIPT = Path(__file__).parent.parent / "support" / "stp_bots.py"
START = "express 2 7/7/7/7/7/7/7 o insert 22,22 0,0 0,0"


class Sink(io.StringIO):
    """An output stream that hands on each complete line as it is written."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: queue.Queue[str] = queue.Queue()
        self._partial = ""

    def write(self, text: str) -> int:
        self._partial += text
        *complete, self._partial = self._partial.split("\n")
        for line in complete:
            self.lines.put(line)
        return len(text)


class Conversation:
    """A session of the loop over a pipe, with the stepping bot as its one level."""

    def __init__(self) -> None:
        self.bot = SteppingBot()
        self.log = io.StringIO()
        self.engine = StpEngine(self.log, ladder=Ladder.of(self.bot), name=self.bot.name)
        read_end, write_end = os.pipe()
        self._input = os.fdopen(write_end, "w")
        self._stdin = os.fdopen(read_end, "r")
        self.out = Sink()
        self.session = Session(self.engine, self._stdin, self.out)
        self.exit_codes: list[int] = []
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        self.exit_codes.append(self.session.run())

    def send(self, line: str) -> None:
        self._input.write(line + "\n")
        self._input.flush()

    def line(self) -> str:
        return self.out.lines.get(timeout=TIMEOUT)

    def response(self) -> tuple[list[str], list[str]]:
        """The next response: its info lines, then its own lines without the empty one."""
        infos: list[str] = []
        lines: list[str] = []
        while (line := self.line()) != "" or not lines:
            if line.startswith("info "):
                assert not lines, "an info line inside a response"
                infos.append(line)
            else:
                lines.append(line)
        return infos, lines

    def ask(self, line: str) -> list[str]:
        """The response to a command that thinks aloud not at all."""
        self.send(line)
        infos, lines = self.response()
        assert infos == []
        return lines

    def behind_a_search(self, search: str, *queued: str) -> None:
        """Send ``search`` (finite) and, while it thinks, the ``queued`` lines; let the
        search answer once the loop has read them all (they wait for it)."""
        self.bot.gate = threading.Event()
        self.send(search)
        assert self.bot.thinking.wait(TIMEOUT)
        for line in queued:
            self.send(line)
        wait_until(
            lambda: len(self.session._waiting) >= len(queued),
            timeout=TIMEOUT,
            what="the commands were not read",
            poll=0.001,  # behind a stop they wait only until the search ends
        )
        self.bot.gate.set()

    def close(self) -> int:
        if not self._input.closed:
            self._input.close()
        self._thread.join(TIMEOUT)
        assert not self._thread.is_alive(), "the loop did not end"
        self._stdin.close()
        return self.exit_codes[0]


@pytest.fixture
def talk() -> Iterator[Conversation]:
    conversation = Conversation()
    yield conversation
    conversation.close()


def info(step: int) -> str:
    """The info line of the stepping bot's step ``step`` at the start of a game."""
    progress = Progress(step, 0.0, 0, 100 * step, step / 100, ())
    nps = round(progress.nodes / progress.seconds)
    return (
        f"info depth {step} value 0 nodes {progress.nodes} nps {nps} "
        f"time {round(progress.seconds * 1000)} pv L1 Bg"
    )


# --- info lines -----------------------------------------------------------------------------
def test_info_lines_come_before_the_answer_one_per_step(talk: Conversation) -> None:
    talk.send("7 go depth=4 info=1")
    assert talk.response() == ([info(step) for step in range(1, 5)], ["=7 L1"])
    talk.send("analyse info=1 depth=2")
    infos, lines = talk.response()
    assert infos == [info(1), info(2)]
    assert lines[0] == "=" and lines[1] == "L1 0 L1 Bg" and len(lines) == 1 + 28


def test_without_info_no_info_line_is_written(talk: Conversation) -> None:
    assert talk.ask("go depth=4") == ["= L1"]
    assert talk.ask("go depth=4 info=0") == ["= L1"]
    assert talk.bot.seen[-1].progress is None


def test_every_search_runs_in_the_engines_one_search_thread(talk: Conversation) -> None:
    # a bot's table is kept per thread: in one thread it is made once, not at every go
    assert talk.ask("go depth=1") == ["= L1"]
    assert talk.ask("analyse depth=1")[0] == "="
    assert talk.ask("go depth=2") == ["= L1"]
    first, *others = talk.bot.threads
    assert others and all(thread is first for thread in others)
    assert first is not threading.current_thread() and first is not talk._thread
    assert first.name.startswith("stp-search")


def test_no_info_line_after_the_answer(talk: Conversation) -> None:
    # A helper thread of a bot may report a step late; the answer has ended the search.
    talk.send("go depth=1 info=1")
    assert talk.response() == ([info(1)], ["= L1"])
    late = talk.bot.seen[-1].progress
    assert late is not None
    late(Progress(2, 0.0, 0, 1, 1.0, ()))
    assert talk.ask("isready") == ["= ready"]


# --- stop, isready, quit while a search thinks --------------------------------------------------
def test_stop_ends_an_infinite_analysis_and_isready_answers_meanwhile(
    talk: Conversation,
) -> None:
    talk.send("3 analyse infinite info=1")
    assert talk.line() == info(1)  # it thinks
    talk.send("4 isready")
    line = talk.line()
    while line.startswith("info "):
        line = talk.line()
    assert line == "=4 ready"
    assert talk.line() == ""
    talk.send("5 stop")
    infos, lines = talk.response()
    assert all(line.startswith("info depth ") for line in infos)
    assert lines[0] == "=3" and len(lines) == 1 + 28
    assert talk.response() == ([], ["=5"])
    assert talk.bot.seen[-1].infinite and talk.bot.seen[-1].stop is not None


def test_stop_while_nothing_runs_answers_at_once(talk: Conversation) -> None:
    assert talk.ask("stop") == ["="]
    assert talk.ask("9 stop") == ["=9"]
    assert talk.ask("stop now") == ["? stop takes no arguments, got 'now'"]


def test_quit_with_stray_words_is_refused_and_the_engine_stays(talk: Conversation) -> None:
    assert talk.ask("quit now") == ["? quit takes no arguments, got 'now'"]
    assert talk.ask("protocol_version") == ["= 1"]  # still there


def test_other_commands_wait_for_the_answer(talk: Conversation) -> None:
    talk.send("analyse infinite")
    assert talk.bot.thinking.wait(TIMEOUT)
    talk.send("position")
    talk.send("stop")
    infos, lines = talk.response()
    assert infos == [] and lines[0] == "=" and len(lines) == 1 + 28
    assert talk.response() == ([], [f"= {START}"])
    assert talk.response() == ([], ["="])


def test_a_stop_behind_a_waiting_command_ends_the_running_search(talk: Conversation) -> None:
    talk.send("analyse infinite")
    assert talk.bot.thinking.wait(TIMEOUT)
    talk.send("go depth=2")  # waits for the analysis, which only a stop ends
    talk.send("stop")
    assert talk.response()[1][0] == "="
    assert talk.response() == ([], ["= L1"])
    assert talk.response() == ([], ["="])


def test_a_quit_behind_waiting_commands_ends_every_search_before_it(
    talk: Conversation,
) -> None:
    # PROTOCOL 1.1: quit is served while a search thinks, whatever waits before it
    talk.behind_a_search("1 go depth=4 info=1", "2 go depth=2 info=1", "3 quit")
    assert talk.response()[1] == ["=1 L1"]
    assert talk.response()[1] == ["=2 L1"]
    assert talk.response() == ([], ["=3"])
    assert all(limits.stop is not None and limits.stop.is_set() for limits in talk.bot.seen)
    talk._thread.join(TIMEOUT)
    assert talk.exit_codes == [0]


def test_a_stop_behind_waiting_commands_ends_every_search_before_it(
    talk: Conversation,
) -> None:
    talk.behind_a_search("1 go depth=2", "2 analyse infinite", "3 stop")
    assert talk.response() == ([], ["=1 L1"])
    _, lines = talk.response()
    assert lines[0] == "=2" and len(lines) == 1 + 28
    assert talk.response() == ([], ["=3"])
    first, second = talk.bot.seen
    assert first.stop is not None and first.stop.is_set()
    assert second.infinite and second.stop is not None and second.stop.is_set()


def test_a_finite_search_with_a_command_waiting_ends_at_stop(talk: Conversation) -> None:
    # a search that would think for ever but for a stop: the waiting name must not hold
    # the stop back, and isready answers at once past the waiting command
    talk.bot.gate = threading.Event()  # never opened: only a stop ends the search
    talk.send("1 go depth=2")
    assert talk.bot.thinking.wait(TIMEOUT)
    talk.send("2 name")
    talk.send("3 isready")
    assert talk.response() == ([], ["=3 ready"])
    talk.send("4 stop")
    assert talk.response() == ([], ["=1 L1"])
    assert talk.response() == ([], ["=2 stepper"])
    assert talk.response() == ([], ["=4"])
    assert talk.ask("5 isready") == ["=5 ready"]


def test_quit_ends_the_search_then_the_engine(talk: Conversation) -> None:
    talk.send("analyse infinite")
    assert talk.bot.thinking.wait(TIMEOUT)
    talk.send("8 quit")
    assert talk.response()[1][0] == "="
    assert talk.response() == ([], ["=8"])
    talk._thread.join(TIMEOUT)
    assert talk.exit_codes == [0]


def test_commands_after_quit_in_the_queue_are_not_answered(talk: Conversation) -> None:
    talk.send("analyse infinite")
    assert talk.bot.thinking.wait(TIMEOUT)
    talk.send("quit")
    talk.send("go depth=1")
    talk.response()
    assert talk.response() == ([], ["="])
    talk._thread.join(TIMEOUT)
    assert talk.exit_codes == [0] and talk.out.lines.empty()


def test_the_end_of_input_stops_an_infinite_search() -> None:
    stdout = io.StringIO()
    bot = SteppingBot()
    engine = StpEngine(io.StringIO(), ladder=Ladder.of(bot))
    assert run(io.StringIO("1 analyse infinite\n"), stdout, engine=engine) == 0
    assert stdout.getvalue().startswith("=1\nL1 0 L1 Bg\n")
    assert stdout.getvalue().count("\n\n") == 1


def test_at_the_end_of_input_a_finite_search_answers_in_full() -> None:
    stdout = io.StringIO()
    bot = SteppingBot()
    engine = StpEngine(io.StringIO(), ladder=Ladder.of(bot))
    assert run(io.StringIO("go depth=5 info=1\nlegal\n"), stdout, engine=engine) == 0
    lines = stdout.getvalue().split("\n")
    assert lines[:6] == [*(info(step) for step in range(1, 6)), "= L1"]
    assert lines[7].startswith("= L1 L2")


# --- options and limits ----------------------------------------------------------------------
def test_options_and_limits_reach_the_bot(talk: Conversation) -> None:
    assert talk.ask("options") == [
        "=",
        "Threads int 1 1 64",
        "Hash int 8 1 16384",
        "Level int 1 1 1",
    ]
    assert talk.ask("go clock=5000 increment=100 moves=10") == ["= L1"]
    limits = talk.bot.seen[-1]
    assert (limits.clock_ms, limits.increment_ms, limits.moves_to_go) == (5000, 100, 10)
    assert (limits.threads, limits.hash_mib, limits.movetime_ms) == (1, None, None)
    assert talk.ask("setoption threads 3") == ["="]
    assert talk.ask("setoption Hash 32") == ["="]
    assert talk.ask("setoption Level 1") == ["="]
    assert talk.ask("analyse movetime=300 nodes=5 clock=0")[0] == "="
    limits = talk.bot.seen[-1]
    assert (limits.threads, limits.hash_mib, limits.movetime_ms, limits.nodes) == (3, 32, 300, 5)
    assert (limits.clock_ms, limits.increment_ms, limits.infinite) == (0, 0, False)


@pytest.mark.parametrize(
    ("command", "words"),
    [
        ("setoption Hash 0", "1 to 16384"),
        ("setoption Hash 16385", "1 to 16384"),
        ("setoption Threads two", "whole number"),
        ("setoption Level 2", "1 to 1"),
        ("setoption Colour o", "unknown option 'Colour'"),
        ("setoption Hash", "takes a name and one value"),
        ("setoption Hash 8 16", "takes a name and one value"),
        ("options now", "takes no arguments"),
    ],
)
def test_option_errors_change_nothing(talk: Conversation, command: str, words: str) -> None:
    talk.ask("setoption Threads 2")
    before = talk.ask("options")
    [failure] = talk.ask(command)
    assert failure.startswith("? ") and words in failure
    assert talk.ask("options") == before
    talk.ask("go")
    assert (talk.bot.seen[-1].threads, talk.bot.seen[-1].hash_mib) == (2, None)


@pytest.mark.parametrize(
    ("command", "words"),
    [
        ("go infinite depth=3", "infinite searches until stop: it takes no depth="),
        ("analyse infinite movetime=10 clock=5", "movetime= clock="),
        ("analyse infinite infinite", "infinite given twice"),
        ("go increment=100", "increment= only go with clock="),
        ("go moves=5 movetime=10", "moves= only go with clock="),
        ("go clock=-1", "clock must be at least"),
        ("go clock=1000 moves=0", "moves must be at least 1"),
        ("go info=2", "info must be 0 to 1"),
        ("go info", "unknown option"),
        ("analyse level=2", "unknown level 2: the levels are 1"),
        ("go infinity", "unknown option for go: 'infinity'"),
    ],
)
def test_search_errors_answer_at_once_and_ask_no_bot(
    talk: Conversation, command: str, words: str
) -> None:
    [failure] = talk.ask(command)
    assert failure.startswith("? ") and words in failure
    assert talk.bot.seen == []


def test_a_search_in_a_finished_game_fails_before_searching(talk: Conversation) -> None:
    talk.ask("setposition express 2 7/7/7/7/7/g6/oooo3 o insert 18,21 0,0 0,0")
    talk.ask("play L1")
    assert talk.ask("go info=1") == ["? the game is over: there is no action to choose"]
    assert talk.ask("analyse infinite") == ["? the game is over: there is no action to analyse"]
    assert talk.bot.seen == []


def test_a_bot_that_fails_answers_with_a_failure_and_the_loop_goes_on(
    talk: Conversation,
) -> None:
    def broken(*args: object) -> object:
        raise RuntimeError("boom")

    talk.bot.analyse = broken  # type: ignore[method-assign]
    assert talk.ask("3 go") == ["?3 internal error: RuntimeError: boom"]
    assert "Traceback" in talk.log.getvalue()
    assert talk.ask("isready") == ["= ready"]


class ClosedLog(io.StringIO):
    """A standard error whose reader has gone: every write fails."""

    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")


def test_a_bot_that_fails_is_answered_when_its_log_cannot_be_written(
    talk: Conversation,
) -> None:
    """The traceback's write to a closed standard error raised on the search thread, so
    no answer came and the loop waited for ever (a bot author's walk, 7 December 2026)."""

    def broken(*args: object) -> object:
        raise RuntimeError("boom")

    talk.bot.analyse = broken  # type: ignore[method-assign]
    talk.engine.log = ClosedLog()
    assert talk.ask("3 go") == ["?3 internal error: RuntimeError: boom"]
    assert talk.ask("isready") == ["= ready"]
    # whatever else fails on the search's thread, an answer comes and the loop goes on

    def failing(*args: object) -> str:
        raise RuntimeError("lost")

    talk.engine.finish = failing  # type: ignore[method-assign]
    assert talk.ask("4 go") == ["?4 internal error: RuntimeError"]
    assert talk.ask("isready") == ["= ready"]


@pytest.mark.parametrize(
    ("ranking", "command", "message"),
    [
        ((), "go", "RuntimeError: the bot 'stepper' ranked no action in a game that is not over"),
        ((), "analyse", "BotAnswerError: the bot 'stepper' ranked no action"),
        (("xa1-e1",), "go", "BotAnswerError: the bot 'stepper' chose xa1-e1, not legal here"),
        (("L1", "xa1-e1"), "analyse", "the bot 'stepper' chose xa1-e1, not legal here"),
        (("L1", "L1"), "analyse", "the bot 'stepper' ranked an action twice"),
    ],
)
def test_a_bot_that_answers_what_no_engine_may_is_refused(
    talk: Conversation, ranking: tuple[str, ...], command: str, message: str
) -> None:
    """serve(bot) passes on no illegal or empty answer: it says the bot's fault."""

    def wrong(*args: object) -> Analysis:
        return tuple(RankedAction(Action.parse(text), 0, ()) for text in ranking)

    talk.bot.analyse = wrong  # type: ignore[method-assign]
    (answer,) = talk.ask(f"5 {command}")
    assert answer.startswith("?5 internal error: ") and answer.endswith(message)
    assert talk.ask("isready") == ["= ready"]


# --- handle: one line in, the whole output out ------------------------------------------------
def test_handle_runs_a_search_with_its_info_lines_first() -> None:
    engine = StpEngine(io.StringIO(), ladder=Ladder.of(SteppingBot()))
    response = engine.handle("2 go info=1")
    assert response == "".join(f"{info(s)}\n" for s in range(1, DEFAULT_STEPS + 1)) + "=2 L1\n\n"


def test_handle_refuses_an_infinite_search() -> None:
    bot = SteppingBot()
    engine = StpEngine(io.StringIO(), ladder=Ladder.of(bot))
    assert (
        engine.handle("analyse infinite") == "? infinite needs the input loop, which reads stop\n\n"
    )
    assert bot.seen == []


# --- serve: a bot author's script -------------------------------------------------------------
def served(script: str) -> tuple[int, str]:
    done = subprocess.run(
        [sys.executable, str(BOTS_SCRIPT)],
        input=script.encode(),
        capture_output=True,
        timeout=TIMEOUT * 3,
    )
    return done.returncode, done.stdout.decode()


def test_serve_speaks_the_protocol_for_the_bot() -> None:
    script = (
        "name\nversion\nlevels\nnewgame expert 3 first=g\ngo info=1\nplay Ta\nanalyse depth=1\n"
    )
    # no quit at the end: read while a search thinks, it would end that search early
    code, out = served(script + "go level=2\n")
    assert code == 0
    infos = "".join(f"{info(step)}\n" for step in range(1, DEFAULT_STEPS + 1))
    assert out.startswith(
        "= stepper\n\n= 2.5\n\n=\n1 stepper\n\n=\n\n" + infos + "= L1\n\n=\n\n=\nL1 "
    )
    assert out.endswith("\n\n? unknown level 2: the levels are 1\n\n")


def test_serve_honours_stop_and_the_end_of_input() -> None:
    # The whole input arrives at once: the stop ends the infinite analysis at once, and
    # the end of the input would end a second one. The isready answers at once if the
    # first analysis still thinks when it is read, else in its turn.
    code, out = served("analyse infinite\nstop\nisready\nanalyse infinite\n")
    assert code == 0
    answers = out.split("\n\n")
    assert answers.pop() == ""
    ready = answers.index("= ready")
    assert ready in (0, 2)
    del answers[ready]
    assert answers[0].startswith("=\nL1 0 L1 Bg\n") and answers[1] == "="
    assert answers[2].startswith("=\nL1 0 L1 Bg\n") and len(answers) == 3


def test_an_engine_answers_the_library_version_unless_given_one() -> None:
    engine = StpEngine(io.StringIO(), ladder=Ladder.of(SteppingBot()), name="stepper")
    assert engine.handle("version") == f"= {shiftago.__version__}\n\n"
    assert engine.handle("name") == "= stepper\n\n"


def test_newgame_asks_a_served_bot_nothing_while_hash_is_unset(talk: Conversation) -> None:
    """The built-in engine makes its default table ahead of the first go; a served bot is
    asked to search only by the controller (and by Hash, to make its table)."""
    assert talk.ask("newgame express 2 first=o") == ["="]
    assert talk.bot.seen == []
    assert talk.ask("setoption Hash 32") == ["="]
    assert [limits.hash_mib for limits in talk.bot.seen] == [32]
