"""An engine in another process, spoken to in STP (PROTOCOL.md), as a :class:`Bot`.

The arena's side of the protocol: start the process, check ``protocol_version``, set
the engine's options (``setoption Threads 2``), and for every move send
``setposition`` with the position string and ``go`` with the limits (a clock as
``clock=MS increment=MS``), then read the ``= ACTION`` reply. Each game starts with
``newgame`` so that a seeded engine plays repeatably; the action limit stays with the
arena (``setposition`` would restart the engine's count). A reply is read with a hard
wall-clock timeout: an engine that answers too late, exits, or answers nonsense raises
an :class:`EngineError` whose :attr:`~EngineError.termination` is the record's word
for it, and is stopped; the next request starts it afresh.
"""

from __future__ import annotations

import contextlib
import os
import queue
import shlex
import signal
import subprocess
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from typing import IO, Final

from shiftago.core import Action, Rules, State
from shiftago.core.errors import ParseError
from shiftago.engine.bot import NO_LIMITS, Analysis, Bot, Limits, RankedAction
from shiftago.match.protocol_log import NOTE, READ, SENT, STDERR, Transcript

#: How long a move may take without a movetime limit (seconds).
DEFAULT_MOVE_TIMEOUT: Final = 60.0
#: How much longer than its movetime an engine may take to answer (seconds).
MOVETIME_MARGIN: Final = 1.0
#: How much longer than its remaining clock an engine may take before it is killed
#: (seconds); an answer in this grace still loses on time, but the engine lives on.
CLOCK_GRACE: Final = 1.0
#: How long the start (and the protocol_version handshake) may take (seconds): a first
#: `shiftago engine` compiles its kernel, 2 min 25 s on a busy 2-core machine (docs/cli.md).
STARTUP_TIMEOUT: Final = 300.0
#: How long any other command may take (seconds).
COMMAND_TIMEOUT: Final = 10.0
#: How many lines of the engine's standard error are kept for error messages.
STDERR_LINES: Final = 20
#: How long a crash report waits for the crashed process's standard error to end.
STDERR_WAIT_S: Final = 2.0


class EngineError(RuntimeError):
    """The engine failed; it loses the game with :attr:`termination` as the reason."""

    termination = "engine error"


class EngineTimeout(EngineError):
    """No answer within the hard time limit."""

    termination = "time forfeit"


class EngineCrash(EngineError):
    """The process ended (or could not start) while it had to answer."""

    termination = "engine crash"


class EngineProtocolError(EngineError):
    """A reply that breaks the protocol: a ``?``, garbage, or an action that is not one."""

    termination = "engine error"


class EngineOptionError(EngineProtocolError):
    """The engine refused an option it was given (``setoption`` answered ``?``), or does
    not list it in its ``options``."""


class EngineIllegalAnswer(EngineProtocolError):
    """``go`` answered with text that is no action at all."""

    termination = "illegal action"


class ExternalEngine(Bot):
    """A :class:`Bot` that asks an STP engine in a subprocess.

    ``command`` is the command line (a string is split as a shell would); ``level`` is
    sent as ``go level=N``; ``options`` are sent as ``setoption NAME VALUE`` each time
    the process starts; an option other than ``Threads`` and ``Hash`` must be one the
    engine lists in its ``options``. ``move_timeout`` is the hard limit of a ``go`` in
    seconds; by default the remaining clock or the movetime plus ``time_margin``
    (:data:`MOVETIME_MARGIN`), else :data:`DEFAULT_MOVE_TIMEOUT`. ``think_aloud`` asks
    every ``go`` for its ``info`` lines (``info=1``): :attr:`last_proven` reads the last.
    :attr:`transcript`, when set, gets every line sent, read and written to standard
    error as it comes (:mod:`.protocol_log`).
    """

    value_unit = "the external engine's own unit"

    def __init__(
        self,
        command: Sequence[str] | str,
        *,
        name: str | None = None,
        level: int | None = None,
        options: Sequence[tuple[str, int | str]] = (),
        move_timeout: float | None = None,
        startup_timeout: float = STARTUP_TIMEOUT,
        time_margin: float = MOVETIME_MARGIN,
        think_aloud: bool = False,
    ) -> None:
        self.command = tuple(shlex.split(command) if isinstance(command, str) else command)
        if not self.command:
            raise ValueError("an external engine needs a command line")
        self.name = name if name is not None else shlex.join(self.command)
        self.level = level
        self.options = tuple(options)
        self.move_timeout = move_timeout
        self.startup_timeout = startup_timeout
        self.time_margin = time_margin
        self.think_aloud = think_aloud
        #: The ``info`` lines of the last ``go`` (with ``think_aloud``).
        self.last_info: list[str] = []
        self._process: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._stderr: deque[str] = deque(maxlen=STDERR_LINES)
        self._stderr_reader: threading.Thread | None = None
        self._answered = False
        #: How many times the process was started (a restart after a failure counts).
        self.starts = 0
        #: Where the lines of the protocol go (None: nowhere), as they come.
        self.transcript: Transcript | None = None

    # --- the Bot interface ---------------------------------------------------------
    def new_game(self, rules: Rules, seed: int | None = None) -> None:
        """Tell the engine a new game begins (``newgame``), starting it if need be. A
        match's games start with the first seat (orange), and ``first=o`` says so: without
        it the engine would draw its own first seat from the seed (PROTOCOL.md)."""
        words = ["newgame", rules.variant.value, str(rules.players), "first=o"]
        if any(rules.handicap):
            words.append("handicap=" + ",".join(map(str, rules.handicap)))
        if seed is not None:
            words.append(f"seed={seed}")
        self.send(" ".join(words))

    def choose(self, state: State, limits: Limits = NO_LIMITS) -> Action:
        words = self._limit_words(limits, level=True) + (" info=1" if self.think_aloud else "")
        self.last_info = []
        reply = self._asked(state, "go" + words, limits, info=self.think_aloud)
        if len(reply) != 1:  # the action is the answer's one line: more is out of shape
            self.stop()
            raise EngineProtocolError(f"{self.name} answered go with {len(reply)} lines: {reply!r}")
        try:
            return Action.parse(reply[0])
        except ParseError:
            self.stop()
            raise EngineIllegalAnswer(f"{self.name} answered go with {reply[0]!r}") from None

    @property
    def last_proven(self) -> int:
        """What the last ``go``'s last ``info`` line proved: +N a win in N actions
        (``value win N``), -N a loss, 0 neither (or no line)."""
        return proven_in(self.last_info[-1]) if self.last_info else 0

    def analyse(self, state: State, limits: Limits = NO_LIMITS) -> Analysis:
        words = self._limit_words(limits, level=False)
        lines = self._asked(state, "analyse" + words, limits)
        ranked: Analysis = []
        try:
            for line in filter(None, lines):
                action, value, *pv = line.split()
                ranked.append(
                    RankedAction(Action.parse(action), float(value), tuple(map(Action.parse, pv)))
                )
        except ValueError:
            self.stop()
            raise EngineProtocolError(f"{self.name} answered analyse with {lines!r}") from None
        return ranked

    def _asked(
        self, state: State, command: str, limits: Limits, *, info: bool = False
    ) -> list[str]:
        """``setposition`` to ``state``, then ``command``'s answer: the two within the
        move's one hard limit, so that an engine that thinks while it answers
        ``setposition`` spends the move's time there. A (re)start of the engine is not
        the move's."""
        self.start()
        deadline = time.monotonic() + self.timeout_for(limits)
        self.send(f"setposition {state.position()}", deadline - time.monotonic())
        return self.send(command, max(0.0, deadline - time.monotonic()), info=info)

    def timeout_for(self, limits: Limits) -> float:
        """The hard limit of one move in seconds (its ``setposition`` and its ``go``)."""
        if self.move_timeout is not None:
            return self.move_timeout
        if limits.clock_ms is not None and limits.movetime_ms is None:
            return limits.clock_ms / 1000 + self.time_margin
        if limits.movetime_ms is not None:
            return limits.movetime_ms / 1000 + self.time_margin
        return DEFAULT_MOVE_TIMEOUT

    # --- the process ---------------------------------------------------------------
    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def start(self) -> None:
        """Start the process (if it is not running), check its protocol version and set
        its options; an option it refuses raises :class:`EngineOptionError`."""
        if self.running:
            return
        self.stop()
        try:
            process = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                bufsize=1,
                errors="replace",
                start_new_session=True,  # so that stop() ends a wrapper's children too
            )
        except OSError as error:
            raise EngineCrash(f"{self.name} could not start: {error}") from None
        self._process = process
        self._answered = False  # nothing asked of this process yet
        self.starts += 1
        self._note(NOTE, f"started {shlex.join(self.command)} (process {process.pid})")
        lines: queue.Queue[str | None] = queue.Queue()
        self._lines = lines
        assert process.stdout is not None and process.stderr is not None
        _pump(process.stdout, self._heard(READ, lines.put), lambda: lines.put(None))
        stderr: deque[str] = deque(maxlen=STDERR_LINES)  # this process's words only
        self._stderr = stderr
        self._stderr_reader = _pump(process.stderr, self._heard(STDERR, stderr.append))
        version = self.send("protocol_version", self.startup_timeout)
        if version[0] != "1":
            self.stop()
            raise EngineProtocolError(f"{self.name} speaks protocol {version[0]!r}, not 1")
        self._check_listed()
        for name, value in self.options:
            try:
                self.send(f"setoption {name} {value}")
            except EngineProtocolError as error:
                raise EngineOptionError(str(error)) from None

    def _check_listed(self) -> None:
        """An :class:`EngineOptionError` for an option (other than ``Threads`` and
        ``Hash``, which every engine of the protocol's 1.1 has) that the engine does
        not list in its ``options``."""
        wanted = [name for name, _ in self.options if name.lower() not in ("threads", "hash")]
        if not wanted:
            return
        try:
            listing = self.send("options")
        except EngineProtocolError:
            raise EngineOptionError(
                f"{self.name} lists no options (no answer to 'options'), so "
                f"{', '.join(wanted)} cannot be set"
            ) from None
        names = [line.split()[0] for line in listing if line.strip()]
        for name in wanted:
            if name.lower() not in (known.lower() for known in names):
                self.stop()
                raise EngineOptionError(
                    f"{self.name} has no option {name!r}: its options are "
                    f"{', '.join(names) or 'none'}"
                )

    def send(
        self, command: str, timeout: float = COMMAND_TIMEOUT, *, info: bool = False
    ) -> list[str]:
        """Send one command and return its payload lines (the ``=`` line's text first).

        With ``info`` the ``info`` lines before the answer go to :attr:`last_info`. Any
        failure stops the process and raises an :class:`EngineError`.
        """
        if not self.running:
            self.start()
        self._check_quiet(command)
        process = self._process
        assert process is not None and process.stdin is not None
        self._note(SENT, command)
        try:
            process.stdin.write(command + "\n")
            process.stdin.flush()
        except OSError:
            raise self._crashed(command) from None
        deadline = time.monotonic() + timeout
        head = self._read_line(command, deadline)
        while info and head.startswith("info "):
            self.last_info.append(head)
            head = self._read_line(command, deadline)
        if not head or head[0] not in "=?" or head[1:2].isdigit():  # the arena sends no id
            self.stop()
            raise EngineProtocolError(f"{self.name} answered {command!r} with {head!r}")
        payload = [head[1:].strip()]
        try:
            while (line := self._read_line(command, deadline)) != "":
                payload.append(line)
        except EngineTimeout:
            raise EngineProtocolError(
                f"{self.name} answered {command!r} with {head!r} but never ended the answer "
                "with an empty line"
            ) from None
        if head[0] == "?":
            self.stop()
            raise EngineProtocolError(f"{self.name} refused {command!r}: {' '.join(payload)}")
        self._answered = True
        return payload

    def stop(self) -> None:
        """End the process at once (after a failure); a later request restarts it."""
        process, self._process = self._process, None
        if process is None:
            return
        _kill(process)  # even after it ended: a wrapper may have left children behind
        status = process.wait()
        self._note(NOTE, f"stopped (exit status {status})")
        if process.stdin is not None:
            with contextlib.suppress(OSError):
                process.stdin.close()

    def close(self) -> None:
        """Send ``quit`` and wait a little for the engine to end, then make sure it has."""
        process = self._process
        if process is not None and process.poll() is None:
            with contextlib.suppress(EngineError):
                self.send("quit", COMMAND_TIMEOUT)
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(COMMAND_TIMEOUT)
        self.stop()

    def __enter__(self) -> ExternalEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self.stop()

    # --- helpers ---------------------------------------------------------------------
    def _note(self, mark: str, text: str) -> None:
        transcript = self.transcript  # read once: a reader thread may race a new game's
        if transcript is not None:
            transcript(mark, text)

    def _heard(self, mark: str, keep: Callable[[str], object]) -> Callable[[str], None]:
        """A reader thread's callback: each line goes to the transcript under ``mark``,
        then to ``keep``."""

        def hear(line: str) -> None:
            self._note(mark, line.rstrip("\r\n"))
            keep(line)

        return hear

    def _limit_words(self, limits: Limits, *, level: bool) -> str:
        words = ""
        clock = limits.clock_ms is not None
        for key, value in (
            ("movetime", limits.movetime_ms),
            ("depth", limits.depth),
            ("nodes", limits.nodes),
            ("clock", limits.clock_ms),
            ("increment", limits.increment_ms if clock else None),
            ("moves", limits.moves_to_go if clock else None),
            ("level", self.level if level else None),
        ):
            if value is not None:
                words += f" {key}={value}"
        return words

    def _read_line(self, command: str, deadline: float) -> str:
        try:
            line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            self.stop()
            raise EngineTimeout(f"{self.name} did not answer {command!r} in time") from None
        if line is None:
            raise self._crashed(command)
        return line.rstrip("\r\n")

    def _check_quiet(self, command: str) -> None:
        """Before a command: anything the engine wrote since its last answer was asked
        for by nobody (a second answer, an ``info`` line after it) and would be taken
        for this command's answer; it is the engine's error, named as such."""
        while self._answered:
            try:
                line = self._lines.get_nowait()
            except queue.Empty:
                return
            if line is None:
                raise self._crashed(command)
            if line.strip():
                self.stop()
                raise EngineProtocolError(
                    f"{self.name} wrote {line.strip()!r} after its last answer, before "
                    f"{command!r} was sent"
                )

    def _crashed(self, command: str) -> EngineCrash:
        process = self._process
        status = None
        if process is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                status = process.wait(1.0)
        # the crashed process's standard error ends: its reader has then read every line
        # (a process that still runs, or a child holding the pipe, is waited for no longer)
        if self._stderr_reader is not None:
            self._stderr_reader.join(STDERR_WAIT_S)
        self.stop()
        tail = " | ".join(line.rstrip() for line in self._stderr)
        return EngineCrash(
            f"{self.name} ended (exit status {status}) at {command!r}"
            + (f"; its last words: {tail}" if tail else "")
        )


def proven_in(line: str) -> int:
    """The proven result of an ``info`` line (PROTOCOL.md 1.1): +N for ``value win N``,
    -N for ``value loss N``, 0 for any other value.

    >>> proven_in("info depth 5 value win 3 nodes 900 nps 1000 time 9 pv L1")
    3
    >>> proven_in("info depth 5 value -42 nodes 900 nps 1000 time 9")
    0
    """
    words = line.split()
    for at, word in enumerate(words[:-2]):
        if word == "value" and words[at + 1] in ("win", "loss") and words[at + 2].isdigit():
            distance = int(words[at + 2])
            return distance if words[at + 1] == "win" else -distance
    return 0


def _pump(
    stream: IO[str], put: Callable[[str], object], at_end: Callable[[], object] | None = None
) -> threading.Thread:
    """Copy a stream's lines to ``put`` in a daemon thread (returned), then call ``at_end``.

    The thread closes the stream when it has read it to its end, so that nothing else
    has to close a pipe another thread may be blocked on.
    """

    def run() -> None:
        with contextlib.suppress(ValueError, OSError), stream:
            for line in stream:
                put(line)
        if at_end is not None:
            at_end()

    reader = threading.Thread(target=run, name="engine-reader", daemon=True)
    reader.start()
    return reader


def _kill(process: subprocess.Popen[str]) -> None:
    """Kill the engine and whatever it started (it leads its own process group)."""
    with contextlib.suppress(OSError):
        if hasattr(os, "killpg"):
            os.killpg(process.pid, signal.SIGKILL)
        else:  # pragma: no cover - not POSIX
            process.kill()
