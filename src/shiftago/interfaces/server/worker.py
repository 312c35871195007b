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
