"""A database outage is said once, again every minute, and when it ends (outage.py):
the periodic tasks fail at every try while the database is away."""

from __future__ import annotations

import asyncio
import logging

from sqlalchemy.exc import OperationalError

from shiftago.interfaces.server.db.outage import REMINDER_SECONDS, Outage


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def away() -> OperationalError:
    cause = Exception('connection is bad: connection to server on socket "/x"\nfailed')
    return OperationalError("SELECT 1", {}, cause)


def said(caplog) -> list[str]:
    lines = [r.getMessage() for r in caplog.records if r.name == "shiftago.server"]
    caplog.clear()
    return lines


def test_an_outage_is_said_once_then_each_minute_then_its_end(caplog):
    clock = Clock()
    outage = Outage(clock)
    with caplog.at_level(logging.INFO, logger="shiftago.server"):
        outage.answered()  # no outage: nothing to say
        assert said(caplog) == []
        assert outage.failed("the heartbeat", away())
        first = said(caplog)
        assert len(first) == 1 and "the heartbeat" in first[0]
        assert 'connection is bad: connection to server on socket "/x" failed' in first[0]
        for _ in range(100):  # twice a second, and the sweeps beside it
            clock.now += 0.5
            assert outage.failed("the flag sweep", away())
        assert said(caplog) == []
        clock.now += REMINDER_SECONDS
        assert outage.failed("the heartbeat", away())
        assert said(caplog) == [f"the database still cannot be reached, for {50 + 60} s now"]
        clock.now += 5
        outage.answered()
        outage.answered()
        assert said(caplog) == ["the database answers again after 115 s"]


def test_other_failures_are_left_to_their_task(caplog):
    outage = Outage(Clock())
    with caplog.at_level(logging.INFO, logger="shiftago.server"):
        assert not outage.failed("the heartbeat", ValueError("a bug"))
    assert said(caplog) == [] and outage.since is None


def test_a_task_s_try_watched_says_outages_logs_other_failures_and_goes_on(caplog):
    outage = Outage(Clock())

    async def tries() -> None:  # as the periodic tasks run them, in the event loop
        with outage.watching("the flag sweep"):
            raise away()
        assert outage.since is not None and len(said(caplog)) == 1
        with outage.watching("the flag sweep"):
            raise ValueError("a bug")  # no outage: logged with its traceback
        failures = [r for r in caplog.records if r.getMessage() == "the flag sweep failed"]
        assert len(failures) == 1 and failures[0].exc_info is not None
        caplog.clear()
        with outage.watching("the heartbeat"):
            pass

    with caplog.at_level(logging.INFO, logger="shiftago.server"):
        asyncio.run(tries())
    assert outage.since is None and said(caplog) == ["the database answers again after 0 s"]
