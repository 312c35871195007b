"""Stopping tasks that lose their cancellation (interfaces/shared/cancelling.py)."""

from __future__ import annotations

import asyncio
import contextlib

from shiftago.interfaces.shared.cancelling import cancel_and_wait, raise_if_cancelled


async def _swallows_once(ended: list[str]) -> None:
    """A loop that loses its first cancellation, as a retrying loop does when its
    client answers the cancellation with a TimeoutError and the loop takes it back."""
    lost = False
    while True:
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            if lost:
                ended.append("cancelled")
                raise
            lost = True
            task = asyncio.current_task()
            assert task is not None
            task.uncancel()


def test_a_task_that_lost_its_cancellation_is_cancelled_again() -> None:
    ended: list[str] = []

    async def stop() -> None:
        task = asyncio.create_task(_swallows_once(ended))
        await asyncio.sleep(0)  # it runs, and waits
        async with asyncio.timeout(10):
            await cancel_and_wait([task])
        assert task.cancelled()

    asyncio.run(stop())
    assert ended == ["cancelled"]


def test_what_the_stopped_tasks_raised_is_dropped_and_done_tasks_are_left() -> None:
    async def fails() -> None:
        raise ValueError("broken")

    async def stop() -> None:
        failed = asyncio.create_task(fails())
        finished = asyncio.create_task(asyncio.sleep(0))
        waiting = asyncio.create_task(asyncio.sleep(3600))
        await asyncio.sleep(0.01)
        assert failed.done() and finished.done() and not waiting.done()
        await cancel_and_wait([failed, finished, waiting])
        assert waiting.cancelled() and not finished.cancelled()
        assert isinstance(failed.exception(), ValueError)

    asyncio.run(stop())


def test_a_retrying_loop_ends_on_an_error_that_came_with_a_cancellation() -> None:
    tries: list[int] = []

    async def retrying() -> None:
        while True:
            try:
                tries.append(1)
                await asyncio.sleep(3600)
            except asyncio.CancelledError:
                raise TimeoutError("the client's answer to the cancellation") from None
            except TimeoutError:
                pass

    async def loop_with_the_check() -> None:
        while True:
            try:
                await retrying()
            except TimeoutError:
                raise_if_cancelled()

    async def stop() -> None:
        task = asyncio.create_task(loop_with_the_check())
        await asyncio.sleep(0)
        task.cancel()
        async with asyncio.timeout(10):
            with contextlib.suppress(asyncio.CancelledError):
                await task
        assert task.cancelled()

    asyncio.run(stop())
    assert len(tries) == 1
