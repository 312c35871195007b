"""Everything a serve process (and a worker) can be told, in one frozen value.

``shiftago serve`` and ``shiftago worker`` turn their options into :class:`Settings`;
the few settings without an option read the environment (``$SHIFTAGO_ENGINE_THREADS``);
tests build one with the few fields they change. The defaults are those of the embedded
default (one process, SQLite) and of a small public server; docs/deploy.md says how to
size them.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from shiftago.interfaces.server.jobs.queue import LEASE_SECONDS

if TYPE_CHECKING:  # the engine is imported only by the app, not by the command line
    from shiftago.interfaces.server.analysis.reviews import ReviewBudget


#: The environment variable of :attr:`Settings.engine_threads` (no option sets it).
ENGINE_THREADS_VARIABLE: Final = "SHIFTAGO_ENGINE_THREADS"
#: The most search threads a computer seat may have.
MAX_ENGINE_THREADS: Final = 64


def engine_threads_from(environment: Mapping[str, str]) -> int:
    """The search threads of each computer seat that ``environment`` asks for (1 when it
    does not); raises ``ValueError`` in words for a value that is not 1 to 64."""
    text = environment.get(ENGINE_THREADS_VARIABLE, "").strip()
    if not text:
        return 1
    try:
        threads = int(text)
    except ValueError:
        threads = 0
    if not 1 <= threads <= MAX_ENGINE_THREADS:
        raise ValueError(
            f"${ENGINE_THREADS_VARIABLE} must be a whole number from 1 to "
            f"{MAX_ENGINE_THREADS}, not {text!r}"
        )
    return threads


@dataclass(frozen=True)
class Settings:
    # --- where the app is reached, and whom it trusts -------------------------------
    #: Where people reach the app: join links and the allowed WebSocket Origin follow.
    public_url: str | None = None
    #: Further host names (``example.org``, ``example.org:8443``) whose Origin is allowed
    #: beside ``public_url``'s; without both, only loopback hosts are (docs/deploy.md).
    allowed_hosts: tuple[str, ...] = ()
    #: Addresses whose ``X-Forwarded-*`` headers are believed (a reverse proxy).
    trusted_proxies: tuple[str, ...] = ("127.0.0.1", "::1")
    #: Addresses (or networks) that ``GET /metrics`` answers (a Prometheus server);
    #: others get 404. A request through a proxy counts as its client's.
    metrics_from: tuple[str, ...] = ("127.0.0.1", "::1")

    # --- several processes -----------------------------------------------------------
    #: Redis, when several processes serve the same games (None: this process alone).
    redis_url: str | None = None
    #: Computer seats thinking at once in this process (when it does that work itself).
    bot_threads: int = 4
    #: Search threads of each thinking computer seat (``$SHIFTAGO_ENGINE_THREADS``, else 1).
    engine_threads: int = field(default_factory=lambda: engine_threads_from(os.environ))
    #: A game nobody watches and nothing works on leaves memory after this many seconds.
    idle_seconds: float = 300.0
    #: A worker's job that nobody has vouched for this long is done again by another
    #: (the computer's clock runs meanwhile: docs/deploy.md, "The lease").
    job_lease_seconds: float = LEASE_SECONDS
    #: A worker's name among the workers, the same across its restarts (a restarted
    #: worker takes back its jobs at once); None: a new name each start.
    worker_name: str | None = None

    # --- the game --------------------------------------------------------------------
    #: Seconds before a computer acts, so that people can follow.
    bot_delay: float = 0.0
    #: How long a seat may be away before the others can claim it.
    grace_seconds: int = 120
    #: Each connection's messages: a rate per second and a burst.
    rate: float = 10.0
    burst: int = 30
    #: What a game's review searches per position (tests lower it); None: the default.
    review_budget: ReviewBudget | None = None
    #: A lower budget for the live analysis (tests); None: the level's own.
    live_analysis_cap: int | None = None
    #: The pages' folder (tests use their own); None: the package's.
    web_dir: Path | None = None
    #: Tests: a file holding seconds added to the real time of every clock (None: the
    #: real time; :mod:`.timesource`).
    time_offset_file: Path | None = None
    #: How often (seconds) the flag sweep looks for timed games whose time ran out.
    flag_sweep_seconds: float = 1.0
    #: How often (seconds) a process that runs jobs queues again the move of each game
    #: whose computer is to act and that has not changed for as long, in its memory or
    #: named by the database (a job that failed or was lost); a job that is queued stays
    #: one job, and one queued again while it runs waits for that run (and is dropped if
    #: the game moved on).
    computer_sweep_seconds: float = 15.0
    #: How often (seconds) a process of several (with Redis) compares the revisions of
    #: the games it holds for sockets with the database's, and reads again those behind:
    #: a process that stored a change and died before announcing it leaves the others'
    #: copies old, and no event may come to mend them.
    stale_sweep_seconds: float = 15.0
    #: How often (seconds) each process deletes the sessions (sign-ins) that expired.
    session_sweep_seconds: float = 3600.0

    # --- limits per address (docs/deploy.md, "Limits") ----------------------------------
    #: Games one address may create per minute (imports included).
    games_per_minute: int = 30
    #: Games one address may import per minute.
    imports_per_minute: int = 20
    #: Sign-ins and sign-ups per minute, per address and per account name (a
    #: guessed password costs a try).
    logins_per_minute: int = 10
    #: Open challenges (seeks) one address may create per minute.
    seeks_per_minute: int = 20
    #: Reviews one address may ask for per minute.
    analyses_per_minute: int = 20
    #: Positions one address may start analysing on the analysis board per minute: each
    #: step through a game starts one (and stops the one before, so one runs at a time
    #: per socket).
    live_analyses_per_minute: int = 240
    #: Unfinished games without a human seat: per address, and on the whole server.
    computer_games_per_address: int = 4
    computer_games_total: int = 64
    #: Open WebSockets per address.
    sockets_per_address: int = 64
    #: Presence goes out at most this often per game (seconds), however many come and go.
    presence_interval: float = 0.5

    def __post_init__(self) -> None:
        if not 1 <= self.engine_threads <= MAX_ENGINE_THREADS:
            raise ValueError(
                f"engine threads must be from 1 to {MAX_ENGINE_THREADS}, not {self.engine_threads}"
            )

    def with_options(self, **options: Any) -> Settings:
        """A copy with ``options`` (field names) changed; an unknown name is an error."""
        known = {f.name for f in fields(self)}
        unknown = sorted(set(options) - known)
        if unknown:
            raise TypeError(f"unknown server settings: {', '.join(unknown)}")
        return replace(self, **options)
