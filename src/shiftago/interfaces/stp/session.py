"""The engine's input loop: commands from one stream, responses to another, and a search
that thinks while the loop goes on reading (PROTOCOL.md, "Version 1.1 additions").

A reader thread hands each input line to the loop, which answers the commands in the
order they came. A ``go`` or ``analyse`` runs in the engine's search thread (one for
all searches, see :mod:`.commands`), writing its ``info`` lines as it goes. While it
runs, ``isready`` answers at once, and ``stop`` and ``quit`` end it as soon as they are
read, whatever waits before them: the search answers with its best so far. Any other
command waits until the search has answered, and the waiting commands answer in the
order they came, the ``stop`` or ``quit`` in its turn. A search that starts from the
queue with a ``stop`` or ``quit`` waiting behind it ends at once too: they were sent
after it, to end it. An infinite search answers at ``stop`` only: one that ends sooner
(a greedy level, an MCTS level's iterations, a single legal action) holds its answer
until then. At the end of the input an infinite search is stopped, as no ``stop`` can
come any more; a finite one finishes and answers.

Only responses and ``info`` lines go to standard output, each flushed at once; logs go
to standard error.
"""

from __future__ import annotations

import contextlib
import os
import queue
import sys
import threading
from collections import deque
from typing import TextIO

from shiftago import __version__
from shiftago.engine.bot import Bot

from .commands import StpEngine, frame
from .options import Ladder
from .search import Search
from .words import CommandLine

#: What the loop waits for: an input line, the end of the input, or a search's answer.
_LINE, _END, _ANSWER = "line", "end", "answer"


class Session:
    """One controller's conversation with an :class:`StpEngine` over two streams."""

    def __init__(self, engine: StpEngine, stdin: TextIO, stdout: TextIO) -> None:
        self.engine = engine
        self.stdin = stdin
        self.stdout = stdout
        self._events: queue.Queue[tuple[str, str]] = queue.Queue()
        self._output = threading.Lock()
        #: The search that is thinking, if any.
        self._running: Search | None = None
        #: Lines read while a search thinks, to answer once it has answered.
        self._waiting: deque[str] = deque()
        self._input_ended = False
        #: The answer of an infinite search that ended before its ``stop``.
        self._held: str | None = None

    def run(self) -> int:
        """Answer commands until end of input or ``quit``; the exit status."""
        threading.Thread(target=self._read, name="stp-input", daemon=True).start()
        while not self.engine.done:
            kind, text = self._events.get()
            if kind == _LINE:
                self._line(text)
            elif kind == _ANSWER:
                self._answered(text)
            else:
                self._ended()
            if self._input_ended and self._running is None and not self._waiting:
                break
        return 0

    # --- the reader thread ---------------------------------------------------------------
    def _read(self) -> None:
        try:
            for line in iter(self.stdin.readline, ""):
                self._events.put((_LINE, line))
        finally:
            self._events.put((_END, ""))

    # --- the loop ---------------------------------------------------------------------------
    def _line(self, line: str) -> None:
        parsed = CommandLine.parse(line)
        if parsed is None:
            return
        if self._running is None:
            self._dispatch(line)
            return
        if _ends_a_search(parsed):
            self._running.halt()
        elif parsed.name == "isready" and not parsed.args:
            self._write(frame("=", parsed.ident, "ready"))
            return
        self._waiting.append(line)
        self._release_held()

    def _answered(self, response: str) -> None:
        running = self._running
        if running is not None and running.infinite and not running.halted:
            self._held = response  # an infinite search answers at its stop
            return
        self._running = None
        self._write(response)
        while self._waiting and self._running is None and not self.engine.done:
            self._dispatch(self._waiting.popleft())

    def _release_held(self) -> None:
        """The held answer of an infinite search, once it has been halted."""
        if self._held is not None and self._running is not None and self._running.halted:
            response, self._held = self._held, None
            self._answered(response)

    def _ended(self) -> None:
        self._input_ended = True
        if self._running is not None and self._running.infinite:
            self._running.halt()
            self._release_held()

    def _dispatch(self, line: str) -> None:
        accepted = self.engine.accept(line)
        if isinstance(accepted, Search):
            self._start(accepted)
        elif accepted is not None:
            self._write(accepted)

    def _start(self, search: Search) -> None:
        self._running = search
        if self._stop_waiting() or (search.infinite and self._input_ended):
            search.halt()
        self.engine.search_thread.submit(self._think, search)

    def _stop_waiting(self) -> bool:
        """Whether a ``stop`` or ``quit`` waits in the queue (to end the search before it)."""
        return any(_ends_a_search(CommandLine.parse(line)) for line in self._waiting)

    # --- the search thread ---------------------------------------------------------------
    def _think(self, search: Search) -> None:
        # an answer always comes: the loop waits for one, and an exception here would end
        # this thread without it (``finish`` answers a search's own failures itself)
        try:
            answer = self.engine.finish(search, self._info)
        except Exception as error:
            answer = frame("?", search.ident, f"internal error: {type(error).__name__}")
        self._events.put((_ANSWER, answer))

    def _info(self, line: str) -> None:
        # A controller that has gone shows when the loop writes the answer, not here.
        with contextlib.suppress(OSError, ValueError):
            self._write(line + "\n")

    # --- output ------------------------------------------------------------------------------
    def _write(self, text: str) -> None:
        with self._output:
            self.stdout.write(text)
            self.stdout.flush()


def _ends_a_search(parsed: CommandLine | None) -> bool:
    """Whether a command line is a ``stop`` or ``quit`` (either with arguments is an
    error, answered in its turn)."""
    if parsed is None:
        return False
    return parsed.name in ("quit", "stop") and not parsed.args


def run(
    stdin: TextIO, stdout: TextIO, log: TextIO | None = None, *, engine: StpEngine | None = None
) -> int:
    """Answer commands from ``stdin`` until end of input or ``quit``; the exit status.

    ``engine`` is the built-in one (logging to ``log``) unless given."""
    return Session(engine if engine is not None else StpEngine(log), stdin, stdout).run()


def serve(bot: Bot, *, name: str | None = None, version: str | None = None) -> int:
    """Speak the engine protocol for ``bot`` on standard input and output until ``quit``
    or the end of the input; the exit status (docs/engine.md).

    The bot is the engine's one level: ``go`` asks its :meth:`~Bot.choose`, ``analyse``
    its :meth:`~Bot.analyse`, with the limits the controller gives (clocks, ``stop``,
    ``Threads``, ``Hash``, and a ``progress`` callback for ``info=1``), and the game
    commands, the framing and the errors are the built-in engine's. ``name`` answers
    ``name`` (the bot's name unless given), ``version`` answers ``version`` (this
    library's version unless given)."""
    engine = StpEngine(
        sys.stderr,
        ladder=Ladder.of(bot),
        name=name if name is not None else bot.name,
        version=version if version is not None else __version__,
    )
    return _on_standard_streams(engine)


def main() -> int:
    """The built-in engine on the process's standard streams.

    The searches are compiled (or loaded from numba's cache) before the first command
    is read, so that no timed ``go`` pays for it."""
    from shiftago.engine import warm_up

    warm_up()
    engine = StpEngine(sys.stderr)
    engine.prepare()  # the first go's table, made before its clock runs
    return _on_standard_streams(engine)


def _on_standard_streams(engine: StpEngine) -> int:
    """Run ``engine`` on standard input and output, tolerating any bytes on input and
    a controller that goes away."""
    if hasattr(sys.stdin, "reconfigure"):
        sys.stdin.reconfigure(errors="replace")
    try:
        return run(sys.stdin, sys.stdout, engine=engine)
    except BrokenPipeError:
        # The controller went away; point stdout at devnull so the exit flush is quiet.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        return 0
