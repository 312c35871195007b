"""The load tool's scenarios beside its games (issue 55): ``join-burst``
(:mod:`.burst`) and ``sign-in-flood`` (:mod:`.flood`), run on the fastest event loop."""

from __future__ import annotations

import asyncio
import sys
from typing import Any

from shiftago.interfaces.loadtest import _raise_open_files
from shiftago.interfaces.loadtest.burst import BurstConfig, ScenarioError, format_burst, run_burst
from shiftago.interfaces.loadtest.flood import FloodConfig, format_flood, run_flood
from shiftago.interfaces.shared.catalogues import _
from shiftago.interfaces.shared.eventloop import fast_loop_factory

#: The scenarios by name.
SCENARIOS = ("join-burst", "sign-in-flood")


def run_scenario(
    name: str,
    url: str,
    *,
    watchers: int = 800,
    pace: float = 0.1,
    addresses: int = 40,
    attempts: int = 10,
    seed: int = 0,
    deflate: bool = True,
) -> tuple[dict[str, Any], str]:
    """Run scenario ``name`` against ``url``: its report and the report in words."""
    with asyncio.Runner(loop_factory=fast_loop_factory()) as runner:
        if name == "join-burst":
            _raise_open_files(watchers + 64, sys.stderr)
            config = BurstConfig(url, watchers, pace=pace, seed=seed, deflate=deflate)
            report = runner.run(run_burst(config))
            return report, format_burst(report)
        if name == "sign-in-flood":
            flood = FloodConfig(url, addresses, attempts, seed=seed)
            report = runner.run(run_flood(flood))
            return report, format_flood(report)
    raise ScenarioError(
        _("no scenario %(name)s; there are %(scenarios)s")
        % {"name": repr(name), "scenarios": ", ".join(SCENARIOS)}
    )


__all__ = ["SCENARIOS", "ScenarioError", "run_scenario"]
