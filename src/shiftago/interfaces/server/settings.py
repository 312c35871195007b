"""Everything a serve process (and a worker) can be told, in one frozen value.

``shiftago serve`` and ``shiftago worker`` make their options from the
:class:`~.setting_options.Option` declared beside each field (:func:`options_of`), so
that a setting with an option is one change here; the few settings without an option
read the environment (``$SHIFTAGO_ENGINE_THREADS``); tests build one with the few fields
they change. The defaults are those of the embedded default (one process, SQLite) and of
a small public server; docs/deploy.md says how to size them. This module imports nothing
of the server but :mod:`.setting_options`, so that every part of it (and the command
line) may read it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Final

from shiftago.interfaces.server.setting_options import Command, Option, settings_field
from shiftago.interfaces.shared.catalogues import N_, _

#: The environment variable of :attr:`Settings.engine_threads` (no option sets it).
ENGINE_THREADS_VARIABLE: Final = "SHIFTAGO_ENGINE_THREADS"
#: The environment variable of :attr:`Settings.preview_languages` ("1": on).
PREVIEW_LANGUAGES_VARIABLE: Final = "SHIFTAGO_PREVIEW_LANGUAGES"
#: The environment variable of :attr:`Settings.locale_dir` (a folder of catalogues).
LOCALE_DIR_VARIABLE: Final = "SHIFTAGO_LOCALE_DIR"
#: The most search threads a computer seat may have.
MAX_ENGINE_THREADS: Final = 64
#: Seconds a computer of a served game waits before it acts (``--bot-delay``'s default;
#: tests build their settings without it).
SERVED_BOT_DELAY: Final = 0.4
#: How long a worker keeps a job without saying it still has it before another worker
#: may take it (seconds); the holder says so every third of it (docs/deploy.md, "The
#: lease").
LEASE_SECONDS: Final = 6.0

#: The alpha-beta nodes searched per position of a review: with the hard cap below, a
#: 40-action 2-player Express game takes about 10 s on two cores beside another game's
#: computer (docs/analysis.md, "Budget").
REVIEW_NODES: Final = 1_000_000
#: The MCTS iterations per position (3-4 players) (docs/analysis.md).
REVIEW_ITERATIONS: Final = 20_000
#: The hard cap on one position's search, whatever the machine (docs/analysis.md).
REVIEW_MOVETIME_MS: Final = 450


@dataclass(frozen=True)
class ReviewBudget:
    """How much the computer searches per position of a review: ``nodes`` for the
    alpha-beta search, ``iterations`` for the MCTS, each lowered to the level's own
    budget for the game, and ``movetime_ms`` a hard cap on top (None: none). Tests give
    small node limits and no cap, so that their results do not depend on the machine."""

    nodes: int | None = REVIEW_NODES
    iterations: int | None = REVIEW_ITERATIONS
    movetime_ms: int | None = REVIEW_MOVETIME_MS


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
            _("$%(variable)s must be a whole number from 1 to %(most)d, not %(value)s")
            % {"variable": ENGINE_THREADS_VARIABLE, "most": MAX_ENGINE_THREADS, "value": repr(text)}
        )
    return threads


@dataclass(frozen=True)
class Settings:
    # --- given by options of `shiftago serve` and `shiftago worker`, in the order of
    # their help ------------------------------------------------------------------------
    #: Where people reach the app: join links and the allowed WebSocket Origin follow.
    public_url: str | None = field(
        default=None,
        metadata=settings_field(
            Option(
                "serve",
                "--public-url",
                N_(
                    "Where people reach the app (https://shiftago.example.org); join links and "
                    "the allowed WebSocket origins follow from it. Default: the address and "
                    "port the server was reached at (never the Host a browser names)."
                ),
                metavar="URL",
                check="url",
            )
        ),
    )
    #: Seconds before a computer acts, so that people can follow.
    bot_delay: float = field(
        default=0.0,
        metadata=settings_field(
            *(
                Option(
                    command,
                    "--bot-delay",
                    N_("How long the computer waits before it acts, so that people can follow."),
                    low=0,
                    high=10,
                    metavar="SECONDS",
                    default=SERVED_BOT_DELAY,
                )
                for command in ("serve", "worker")
            )
        ),
    )
    #: Redis, when several processes serve the same games (None: this process alone).
    redis_url: str | None = field(
        default=None,
        metadata=settings_field(
            Option(
                "serve",
                "--redis",
                N_(
                    "Redis (redis://HOST:PORT/0), for several serve processes on one database: "
                    "they share live events, and `shiftago worker` processes play the "
                    "computer's seats and make the reviews. Default: $SHIFTAGO_REDIS_URL, else "
                    "none (this process alone)."
                ),
                metavar="URL",
                envvar="SHIFTAGO_REDIS_URL",
                check="redis",
            ),
            Option(
                "worker",
                "--redis",
                N_("The Redis the serve processes use (or $SHIFTAGO_REDIS_URL)."),
                metavar="URL",
                envvar="SHIFTAGO_REDIS_URL",
                required=True,
                check="redis",
            ),
        ),
    )
    #: Further host names (``example.org``, ``example.org:8443``) whose Origin is allowed
    #: beside ``public_url``'s; without both, only loopback hosts are (docs/deploy.md).
    #: They, ``public_url``'s host, the loopback names and the address a connection
    #: reached are the hosts answered; any other ``Host`` gets 421 (door/hosts.py).
    allowed_hosts: tuple[str, ...] = field(
        default=(),
        metadata=settings_field(
            Option(
                "serve",
                "--allowed-host",
                N_(
                    "A host name (with :port if not the default) that the app answers and "
                    "whose pages may open the app's sockets, beside --public-url's; other "
                    "hosts than these, localhost and the listening address get 421. Repeat "
                    "for several."
                ),
                metavar="HOST",
                check="host",
            )
        ),
    )
    #: Addresses whose ``X-Forwarded-*`` headers are believed (a reverse proxy).
    trusted_proxies: tuple[str, ...] = field(
        default=("127.0.0.1", "::1"),
        metadata=settings_field(
            Option(
                "serve",
                "--trusted-proxy",
                N_(
                    "An address (or network, 10.0.0.0/8) whose X-Forwarded-* headers are "
                    "believed. Repeat for several. Default: 127.0.0.1 and ::1 (a proxy on this "
                    "machine)."
                ),
                metavar="ADDRESS",
                check="address",
            )
        ),
    )
    #: Addresses (or networks) that ``GET /metrics`` answers (a Prometheus server);
    #: others get 404. A request through a proxy counts as its client's.
    metrics_from: tuple[str, ...] = field(
        default=("127.0.0.1", "::1"),
        metadata=settings_field(
            Option(
                "serve",
                "--metrics-from",
                N_(
                    "An address (or network) that GET /metrics answers, for Prometheus; others "
                    "get 404. Repeat for several. Default: 127.0.0.1 and ::1."
                ),
                metavar="ADDRESS",
                check="address",
            )
        ),
    )
    #: Computer seats thinking at once in this process (when it does that work itself).
    bot_threads: int = field(
        default=4,
        metadata=settings_field(
            Option(
                "serve",
                "--bot-threads",
                N_("Computer seats thinking at once in this process (without --redis)."),
                low=1,
                high=64,
            ),
            Option(
                "worker",
                "--threads",
                N_("Jobs worked on at once (computer moves and reviews)."),
                low=1,
                high=64,
            ),
        ),
    )
    #: A game nobody watches and nothing works on leaves memory after this many seconds.
    idle_seconds: float = field(
        default=300.0,
        metadata=settings_field(
            Option(
                "serve",
                "--idle-seconds",
                N_(
                    "A game nobody watches leaves memory after this long (it is loaded back "
                    "when needed)."
                ),
                low=1,
                high=86400,
            )
        ),
    )
    #: A worker's job that nobody has vouched for this long is done again by another
    #: (the computer's clock runs meanwhile: docs/deploy.md, "The lease").
    job_lease_seconds: float = field(
        default=LEASE_SECONDS,
        metadata=settings_field(
            Option(
                "worker",
                "--lease",
                N_("A job that a worker has not vouched for this long (it died) is done again."),
                low=0.5,
                high=3600,
                metavar="SECONDS",
            )
        ),
    )
    #: A worker's name among the workers, the same across its restarts (a restarted
    #: worker takes back its jobs at once); None: a new name each start.
    worker_name: str | None = field(
        default=None,
        metadata=settings_field(
            Option(
                "worker",
                "--name",
                N_(
                    "The worker's name among the workers, the same across restarts (a systemd "
                    "instance: %H-%i): a restarted worker takes back its jobs at once instead "
                    "of after the lease. Default: a new name each start."
                ),
                metavar="NAME",
            )
        ),
    )
    # limits per address (docs/deploy.md, "Limits")
    #: Games one address may create per minute (imports included).
    games_per_minute: int = field(
        default=30,
        metadata=settings_field(
            Option(
                "serve", "--games-per-minute", N_("Games one address may create per minute."), low=1
            )
        ),
    )
    #: Games one address may import per minute.
    imports_per_minute: int = field(
        default=20,
        metadata=settings_field(
            Option(
                "serve",
                "--imports-per-minute",
                N_("Games one address may import per minute."),
                low=1,
            )
        ),
    )
    #: Reviews one address may ask for per minute.
    analyses_per_minute: int = field(
        default=20,
        metadata=settings_field(
            Option(
                "serve",
                "--analyses-per-minute",
                N_("Reviews one address may ask for per minute."),
                low=1,
            )
        ),
    )
    #: Puzzle attempts one address may send per minute: each action played on a puzzle
    #: is one, and each asks the engine to judge it.
    puzzle_attempts_per_minute: int = field(
        default=120,
        metadata=settings_field(
            Option(
                "serve",
                "--puzzle-attempts-per-minute",
                N_(
                    "Puzzle attempts (each action played on a puzzle) one address may send "
                    "per minute."
                ),
                low=1,
            )
        ),
    )
    #: Positions one address may start analysing on the analysis board per minute: each
    #: step through a game starts one (and stops the one before, so one runs at a time
    #: per socket).
    live_analyses_per_minute: int = field(
        default=240,
        metadata=settings_field(
            Option(
                "serve",
                "--live-analyses-per-minute",
                N_("Positions one address may start analysing per minute on the analysis board."),
                low=1,
            )
        ),
    )
    #: Unfinished reviews (queued or running): per address, and on the whole server; a
    #: review asked for beyond them is refused (429), not left pending.
    reviews_per_address: int = field(
        default=3,
        metadata=settings_field(
            Option(
                "serve",
                "--reviews-per-address",
                N_("Unfinished reviews that one address may have waiting or running."),
                low=1,
            )
        ),
    )
    reviews_total: int = field(
        default=60,
        metadata=settings_field(
            Option(
                "serve",
                "--reviews-total",
                N_("Unfinished reviews waiting or running on the whole server."),
                low=1,
            )
        ),
    )
    #: Sign-ins and sign-ups per minute, per address (a guessed password costs a try;
    #: guesses from many addresses are bounded by the failures below).
    logins_per_minute: int = field(
        default=10,
        metadata=settings_field(
            Option(
                "serve",
                "--logins-per-minute",
                N_("Sign-in and sign-up attempts per minute, per address."),
                low=1,
            )
        ),
    )
    #: Wrong passwords per minute for one account from one address, after which that
    #: address may not try that account until the minute is over.
    failed_logins_per_account_and_address: int = field(
        default=5,
        metadata=settings_field(
            Option(
                "serve",
                "--failed-logins-per-account-and-address",
                N_("Wrong passwords per minute for one account from one address."),
                low=1,
            )
        ),
    )
    #: Wrong passwords per minute for one account from all addresses, after which only
    #: addresses without a wrong password lately may try it (its owner's, usually).
    failed_logins_per_account: int = field(
        default=10,
        metadata=settings_field(
            Option(
                "serve",
                "--failed-logins-per-account",
                N_(
                    "Wrong passwords per minute for one account from all addresses; beyond "
                    "them only addresses without recent wrong passwords may try it."
                ),
                low=1,
            )
        ),
    )
    #: Wrong passwords per minute on the whole server, after which only addresses
    #: without a wrong password lately may sign in.
    failed_logins_per_minute: int = field(
        default=60,
        metadata=settings_field(
            Option(
                "serve",
                "--failed-logins-per-minute",
                N_(
                    "Wrong passwords per minute on the whole server; beyond them only "
                    "addresses without recent wrong passwords may sign in."
                ),
                low=1,
            )
        ),
    )
    #: Passwords hashed or checked at once by one process (each takes 64 MiB for a
    #: moment), and how many more may wait; beyond them a sign-in is answered 429 at
    #: once (docs/security.md, "Sign-in under attack").
    password_checks_at_once: int = field(
        default=2,
        metadata=settings_field(
            Option(
                "serve",
                "--password-checks-at-once",
                N_("Passwords one process hashes or checks at once."),
                low=1,
                high=64,
            )
        ),
    )
    password_checks_queued: int = field(
        default=8,
        metadata=settings_field(
            Option(
                "serve",
                "--password-checks-queued",
                N_(
                    "Password checks that may wait in one process; beyond them a sign-in "
                    "is refused at once with 429."
                ),
                low=2,
                high=1000,
            )
        ),
    )
    #: Unfinished games without a human seat: per address, and on the whole server.
    computer_games_per_address: int = field(
        default=4,
        metadata=settings_field(
            Option(
                "serve",
                "--computer-games-per-address",
                N_("Unfinished games without a human seat that one address may have."),
                low=0,
            )
        ),
    )
    computer_games_total: int = field(
        default=64,
        metadata=settings_field(
            Option(
                "serve",
                "--computer-games-total",
                N_("Unfinished games without a human seat on the whole server."),
                low=0,
            )
        ),
    )
    #: Open WebSockets per address.
    sockets_per_address: int = field(
        default=64,
        metadata=settings_field(
            Option(
                "serve", "--sockets-per-address", N_("Open WebSockets one address may have."), low=1
            )
        ),
    )
    #: Tests: a file holding seconds added to the real time of every clock (None: the
    #: real time; :mod:`.jobs.timesource`); every process of a test reads the same file.
    time_offset_file: Path | None = field(
        default=None,
        metadata=settings_field(
            *(
                Option(
                    command,
                    "--time-offset-file",
                    N_("Tests: a file with seconds added to the real time of the clocks."),
                    hidden=True,
                    file=True,
                )
                for command in ("serve", "worker")
            )
        ),
    )

    # --- without an option ---------------------------------------------------------------
    #: Search threads of each thinking computer seat (``$SHIFTAGO_ENGINE_THREADS``, else 1).
    engine_threads: int = field(default_factory=lambda: engine_threads_from(os.environ))
    #: Offer the languages whose catalogues are complete over the pages converted so far,
    #: though other pages are still English (``$SHIFTAGO_PREVIEW_LANGUAGES=1``: tests and
    #: translators' previews; docs/translating.md).
    preview_languages: bool = field(
        default_factory=lambda: os.environ.get(PREVIEW_LANGUAGES_VARIABLE, "") == "1"
    )
    #: The catalogues' folder (``$SHIFTAGO_LOCALE_DIR``: tests' and translators' own,
    #: docs/translating.md); None: the package's.
    locale_dir: Path | None = field(
        default_factory=lambda: (
            Path(os.environ[LOCALE_DIR_VARIABLE]) if os.environ.get(LOCALE_DIR_VARIABLE) else None
        )
    )
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
    #: How often (seconds) the flag sweep looks for timed games whose time ran out.
    flag_sweep_seconds: float = 1.0
    #: How often (seconds) a serve process touches the heartbeat: a process that starts
    #: and finds it older than twice this shifts the running clocks by the pause, so that
    #: nobody is charged for the time the server was down (docs/web-protocol.md, "Clocks").
    heartbeat_seconds: float = 0.5
    #: Seconds a person's seat has for its first action once it is due (its turn came and
    #: every person's seat is opened) before the game is aborted (WEBAPI.md, "Clocks").
    first_action_seconds: float = 60.0
    #: Seconds a timed game waits for all its seats to be opened before it is aborted.
    opening_seconds: float = 86_400.0
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
    #: Open challenges (seeks) one address may create per minute.
    seeks_per_minute: int = 20
    #: Presence goes out at most this often per game (seconds), however many come and go.
    presence_interval: float = 0.5
    #: The ``--host`` that ``shiftago serve`` listens at (set by the server itself; None:
    #: not served by it, as in tests): a name given there is a host the app answers.
    listening_host: str | None = None

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


def options_of(command: Command) -> list[tuple[str, Any, Option]]:
    """The options of ``command``, in the order of its help: each with its field's name
    and default."""
    return [
        (f.name, f.default, option)
        for f in fields(Settings)
        for option in f.metadata.get("options", ())
        if option.command == command
    ]
