"""``shiftago loadtest``: many games played by scripted people against running serve
processes, to measure latency, errors, lost and duplicated actions, and memory.

It is a client like the browser: it knows the HTTP API and the live protocol
(docs/web-protocol.md), never the server's code. Modules: :mod:`.protocol` (reading
events lightly), :mod:`.players` (the sockets), :mod:`.run` (the games, the bounds, the
check at the end), :mod:`.figures` (percentiles and the accounting of lost and
duplicated actions) and :mod:`.report` (the table).
"""

from __future__ import annotations

import asyncio
import importlib.util
import resource
import sys
from typing import Any, TextIO

from shiftago.interfaces.loadtest.report import format_report
from shiftago.interfaces.loadtest.run import LoadConfig, LoadError, run_load
from shiftago.interfaces.shared.catalogues import _, ngettext
from shiftago.interfaces.shared.eventloop import fast_loop_factory

__all__ = ["LoadConfig", "LoadError", "format_report", "run_command", "run_load"]


def run_command(config: LoadConfig, err: TextIO = sys.stderr) -> dict[str, Any]:
    """Run ``config`` on the fastest event loop there is (uvloop, with uvicorn) and
    answer the report; Ctrl-C ends the run early with a report."""
    sockets = config.games * (2 + config.watchers) + 64
    _raise_open_files(sockets, err)
    _remember_missing("sniffio")
    with asyncio.Runner(loop_factory=fast_loop_factory()) as runner:
        return runner.run(run_load(config, handle_signals=True))


def _remember_missing(module: str) -> None:
    """httpx's transport imports ``module`` (optional) on every request: where it is not
    installed, Python searches the whole path each time. Remember its absence once."""
    if module not in sys.modules and importlib.util.find_spec(module) is None:
        sys.modules[module] = None  # type: ignore[assignment]  # "import module" fails at once


def _raise_open_files(wanted: int, err: TextIO) -> None:
    """Every socket is a file: raise this process's limit as far as it may go."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < wanted and soft != hard:
        target = hard if hard == resource.RLIM_INFINITY else min(hard, max(wanted, soft))
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        soft = target
    if soft != resource.RLIM_INFINITY and soft < wanted:
        sockets = ngettext("%(n)d socket", "%(n)d sockets", wanted) % {"n": wanted}
        files = ngettext("%(n)d file", "%(n)d files", soft) % {"n": soft}
        note = _("note: %(sockets)s wanted but this process may open %(files)s (ulimit -n)")
        print(note % {"sockets": sockets, "files": files}, file=err)
