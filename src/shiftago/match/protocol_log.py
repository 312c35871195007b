"""The protocol log of a match: every line between the arena and its external engines.

An engine's author reads it to see why a game went as it did: what the arena sent,
what the engine answered and when, and what it wrote to its standard error. Each
game has a file of its own, named as its record with ``.log`` for ``.txt``; the
engines' start before the first game goes to ``start.log``, their ``quit`` after the
last to ``end.log``. A line is the seconds
since the file was opened, the engine's name, a mark and the text::

       0.412 mine > go movetime=300
       0.713 mine < = L3
       0.713 mine !  (a line of its standard error)

The marks: ``>`` sent to the engine, ``<`` read from its standard output, ``!`` read
from its standard error, ``#`` the arena's note (the engine started or was stopped).
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Final, Protocol

#: What an engine writes its lines to: ``(mark, text)``.
Transcript = Callable[[str, str], None]

#: The marks of a line (the module's docstring says what each means).
SENT: Final = ">"
READ: Final = "<"
STDERR: Final = "!"
NOTE: Final = "#"

#: The file of the engines' start, before the first game.
START_FILE: Final = "start.log"
#: The file of the engines' end, after the last game: their ``quit`` and exit.
END_FILE: Final = "end.log"


class Transcribed(Protocol):
    """What writes its lines to a log: an external engine (:mod:`.external`)."""

    name: str
    transcript: Transcript | None


class ProtocolLog:
    """One log file, written line by line as the lines come.

    The engines' reader threads write to it as well as the game's own thread, so each
    line is written whole under a lock, and flushed: a match stopped by Ctrl-C or a
    killed worker leaves every line read until then.
    """

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._file = path.open("a", encoding="utf-8")
        self._lock = threading.Lock()
        self._opened = time.monotonic()

    def transcript(self, name: str) -> Transcript:
        """The function an engine called ``name`` writes its lines with."""

        def write(mark: str, text: str) -> None:
            self.write(name, mark, text)

        return write

    def write(self, name: str, mark: str, text: str) -> None:
        """Write one line (a closed log takes no more lines and says nothing)."""
        line = f"{time.monotonic() - self._opened:8.3f} {name} {mark}"
        line += f" {text}\n" if text else "\n"  # an answer's closing empty line
        with self._lock:
            if not self._file.closed:
                self._file.write(line)
                self._file.flush()

    def close(self) -> None:
        with self._lock:
            self._file.close()

    def __enter__(self) -> ProtocolLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@contextlib.contextmanager
def transcribed(engines: Sequence[Transcribed], path: Path | None) -> Iterator[None]:
    """While the block runs, the ``engines``' lines go to the log file ``path`` (None:
    nowhere); after it, nowhere again, and the file is closed."""
    if path is None:
        yield
        return
    with ProtocolLog(path) as log:
        for engine in engines:
            engine.transcript = log.transcript(engine.name)
        try:
            yield
        finally:
            for engine in engines:
                engine.transcript = None
