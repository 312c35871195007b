"""``shiftago worker``: a process that plays the computer's seats and makes the reviews
of the games that serve processes hold, taking its jobs from Redis (:mod:`.jobs`).

It is a serve process without sockets: the same hub stores each move only from the
revision it was asked for and tells the serve processes through the bus. It loads the
engine's compiled searches before it takes its first job. On SIGTERM or
SIGINT it stops taking jobs and finishes storing; a job it was thinking on is done again
by another worker once its lease runs out.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import time

from shiftago.engine import warm_up
from shiftago.interfaces.server.db.store import migrate, open_engine
from shiftago.interfaces.server.games.bots import lower_priority
from shiftago.interfaces.server.games.store import Store
from shiftago.interfaces.server.runtime import Runtime, shown_url
from shiftago.interfaces.server.settings import Settings
from shiftago.interfaces.server.startup import check_services
from shiftago.interfaces.shared.catalogues import _
from shiftago.interfaces.shared.eventloop import fast_loop_factory

log = logging.getLogger("shiftago.worker")


async def work(db_url: str, settings: Settings, stop: asyncio.Event | None = None) -> None:
    """Run jobs until ``stop`` is set (or a SIGTERM/SIGINT arrives)."""
    if not settings.redis_url:
        raise ValueError("a worker takes its jobs from Redis: give --redis URL")
    engine = open_engine(db_url)
    migrate(engine)
    store = Store(engine)
    unused = unused_database(store.last_beat(), time.time())
    if unused is not None:
        log.warning("%s", unused)
    stop = stop if stop is not None else asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(signum, stop.set)
    # compile (or load from numba's cache) the searches before taking a job: on a fresh
    # install the first search of a level would take its job 15 s or more
    log.info("loading the engine's searches")
    await asyncio.to_thread(warm_up)
    runtime = await Runtime.start(store, settings, runs_jobs=True, serves=False)
    # the name it takes its jobs under in Redis (--name, else the process's own)
    name = settings.worker_name or runtime.hub.bus.process
    log.info("worker %s takes jobs (%d at a time)", name, settings.bot_threads)
    try:
        await stop.wait()
    finally:
        await runtime.stop()
        store.dispose()


#: Seconds without a serve process's heartbeat (twice a second while one runs) after
#: which a worker's database looks like one no serve process uses.
QUIET_DATABASE_SECONDS = 60.0


def unused_database(last_beat: float | None, now: float) -> str | None:
    """The warning for a worker whose database no serve process has used lately (None:
    one has): the jobs in Redis then name games that database does not have."""
    if last_beat is None:
        since = "no serve process has ever used this database"
    elif now - last_beat > QUIET_DATABASE_SECONDS:
        since = f"no serve process has used this database for {now - last_beat:.0f} s"
    else:
        return None
    return (
        f"{since}: unless every serve process is stopped, --db is not their database, "
        "and this worker will find none of their games"
    )


def run_worker(db_url: str, settings: Settings) -> None:
    """Work until stopped; a database or Redis that does not answer raises
    :class:`.startup.StartupError` first."""
    check_services(db_url, settings.redis_url)
    lower_priority()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    shown = shown_url(settings.redis_url or "")
    print(_("Shiftago worker on %(url)s  (Ctrl+C stops it)") % {"url": shown}, flush=True)
    with asyncio.Runner(loop_factory=fast_loop_factory()) as runner:
        runner.run(work(db_url, settings))
