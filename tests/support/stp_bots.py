"""Stand-in bots for the engine protocol's tests, and a script that serves one of them
(``python tests/support/stp_bots.py``), the way a bot author would.

:class:`SteppingBot` thinks in numbered steps that cost nothing: it reports each step
to ``Limits.progress``, stops after ``Limits.depth`` steps (three unless given; with a
closed ``gate`` it then waits for the gate or a stop), and in an infinite search steps
on until its stop event is set. It ranks the legal actions in
canonical order and keeps every ``Limits`` it was given, and the thread each search ran
in, so tests can see what reached it and where.
"""

from __future__ import annotations

import sys
import threading

from shiftago.core import State
from shiftago.engine.bot import NO_LIMITS, Analysis, Bot, Limits, Progress, RankedAction
from shiftago.interfaces.stp import serve

#: The steps of a search that names no depth.
DEFAULT_STEPS = 3


class SteppingBot(Bot):
    """A bot that reports progress and honours stop, at no cost (see the module)."""

    name = "stepper"
    value_unit = "steps"

    def __init__(self) -> None:
        self.seen: list[Limits] = []
        self.threads: list[threading.Thread] = []
        #: Set while a search is thinking, for tests that must act during one.
        self.thinking = threading.Event()
        #: With a gate, a finite search answers only once it is open (or on a stop), so
        #: that a test can send commands while one runs.
        self.gate: threading.Event | None = None

    def analyse(self, state: State, limits: Limits = NO_LIMITS) -> Analysis:
        self.seen.append(limits)
        self.threads.append(threading.current_thread())
        actions = state.legal_actions()
        if not actions:
            return []
        ranked = [
            RankedAction(action, float(-index), (action, actions[-1]))
            for index, action in enumerate(actions)
        ]
        steps = limits.depth or DEFAULT_STEPS
        step = 0
        self.thinking.set()
        try:
            while True:
                step += 1
                if limits.progress is not None:
                    progress = Progress(step, 0.0, 0, 100 * step, step / 100, tuple(ranked))
                    limits.progress(progress)
                if limits.stop is not None and limits.stop.is_set():
                    break
                if not limits.infinite and step >= steps:
                    self._hold(limits)
                    break
                if limits.infinite and limits.stop is not None:
                    limits.stop.wait(0.01)  # a step of thought between reports
        finally:
            self.thinking.clear()
        return ranked

    def _hold(self, limits: Limits) -> None:
        while self.gate is not None and not self.gate.wait(0.01):
            if limits.stop is not None and limits.stop.is_set():
                return


if __name__ == "__main__":
    sys.exit(serve(SteppingBot(), version="2.5"))
