"""Where the server's clocks read the time: the real time, or (tests) the real time
plus an offset read from a file, so that a test moves every process's time forward
without sleeping (``shiftago serve --time-offset-file``)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

#: A source of the time: seconds since the epoch.
Now = Callable[[], float]


def offset_time(path: Path) -> Now:
    """The real time plus the seconds written in ``path`` (0 while it is missing or does
    not hold a number), read again whenever the file changes."""
    seen: list[float] = [-1.0, 0.0]  # the file's modification time, and its offset

    def now() -> float:
        try:
            stamp = path.stat().st_mtime_ns
        except OSError:
            return time.time()
        if stamp != seen[0]:
            try:
                seen[1] = float(path.read_text().strip() or 0)
            except (OSError, ValueError):
                seen[1] = 0.0
            seen[0] = stamp
        return time.time() + seen[1]

    return now


def time_source(offset_file: Path | None) -> Now:
    return time.time if offset_file is None else offset_time(offset_file)
