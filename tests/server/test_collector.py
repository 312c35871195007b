"""The garbage collector's pauses are kept short (server/collector.py): survivors are
frozen, frozen objects still go with their last reference, and a cycle among them goes
at the next full collection."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator

import pytest

from shiftago.interfaces.server.collector import NEVER, Collector


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def collector(clock: Clock) -> Iterator[Collector]:
    yield Collector(freeze_seconds=1.0, full_seconds=60.0, clock=clock)
    gc.unfreeze()  # the rest of the test session as it was
    gc.collect()


def test_survivors_are_frozen_and_later_collections_do_not_look_at_them(
    collector: Collector,
) -> None:
    survivor = Node()
    collector.step()
    assert not any(o is survivor for o in gc.get_objects())  # frozen: in no generation
    assert gc.get_freeze_count() > 0


def test_a_frozen_object_still_goes_with_its_last_reference(collector: Collector) -> None:
    survivor = Node()
    gone = weakref.ref(survivor)
    collector.step()
    del survivor
    assert gone() is None


def test_a_cycle_frozen_alive_waits_for_the_full_collection(
    collector: Collector, clock: Clock
) -> None:
    a, b = Node(), Node()
    a.other, b.other = b, a
    gone = weakref.ref(a)
    collector.step()  # frozen while alive
    del a, b
    gc.collect()
    assert gone() is not None  # garbage now, but frozen: a plain collection leaves it
    clock.now = 30.0
    collector.step()  # not due yet: freezes again
    assert gone() is not None
    clock.now = 61.0
    collector.step()  # due: unfreezes and collects everything
    assert gone() is None
    assert collector.last_full == 61.0


def test_while_it_runs_the_oldest_generation_is_left_to_it_and_given_back_after() -> None:
    """CPython's own collections of the oldest generation (100-220 ms after a burst of
    sockets, docs/deploy.md) are off while a collector runs, and on again once it
    stops."""
    kept = gc.get_threshold()

    async def run() -> tuple[int, int, int]:
        running = asyncio.ensure_future(Collector(freeze_seconds=3600.0).run())
        await asyncio.sleep(0)
        during = gc.get_threshold()
        running.cancel()
        with pytest.raises(asyncio.CancelledError):
            await running
        return during

    try:
        assert asyncio.run(run()) == (kept[0], kept[1], NEVER)
        assert gc.get_threshold() == kept
    finally:
        gc.set_threshold(*kept)
