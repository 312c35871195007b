"""How much memory the machine can still give the engine, so that ``setoption Hash``
refuses a table that would not fit instead of leaving the machine to kill a process
once the table is written (docs/engine.md, "Options")."""

from __future__ import annotations

from pathlib import Path

#: Linux's estimate of the memory that new work can take without swapping.
MEMINFO = Path("/proc/meminfo")


def available_memory(meminfo: Path = MEMINFO) -> int | None:
    """The bytes the kernel says are available (``MemAvailable``), or None where it does
    not say (another system, or an old kernel): then nothing is checked beforehand."""
    try:
        text = meminfo.read_text(encoding="ascii")
    except (OSError, UnicodeDecodeError):
        return None
    for line in text.splitlines():
        name, _, rest = line.partition(":")
        if name == "MemAvailable":
            words = rest.split()
            if len(words) == 2 and words[0].isdigit() and words[1] == "kB":
                return int(words[0]) * 1024
    return None
