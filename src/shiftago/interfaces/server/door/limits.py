"""Limits per address that keep a public server healthy (docs/web-protocol.md, "Limits
and presence").

- Rates: new games, imports and analyses each have a number per minute per address,
  counted in a window of a minute from the address's first request in it. Over it, a
  request is answered 429 with ``Retry-After`` (the seconds left in the window). One
  process counts in memory; several count together in Redis (the app's
  ``state.redis``), so that a second process is no second allowance.
- Games without a person: an address may have a few unfinished ones, the server a
  bounded number (each one keeps a computer thinking). The database counts them, under
  a lock of every process when there is Redis.
- Sockets: an address may hold a number of open sockets (games and analyses together)
  in one process.

The address is :func:`.security.client_address`: the client's, or the one a trusted
proxy forwards.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import TYPE_CHECKING, Any, Literal, Protocol

from fastapi.responses import JSONResponse
from redis.exceptions import RedisError
from starlette.requests import HTTPConnection
from starlette.websockets import WebSocket

from shiftago.interfaces.server.door.security import client_address
from shiftago.interfaces.server.settings import Settings

if TYPE_CHECKING:
    from redis.asyncio import Redis

log = logging.getLogger("shiftago.server")

#: The length of a rate window (seconds).
WINDOW = 60
#: Addresses the memory counter keeps at most; past it the oldest windows are forgotten
#: early (an address forgotten only gets its allowance again a little sooner).
MAX_TRACKED = 100_000
#: Seconds a request waits for Redis to count it before it goes on uncounted: a Redis
#: that hangs lets requests through as one that is down does.
COUNT_SECONDS = 1.0
#: Seconds a client is told to wait when a cap on games without a person refuses it.
COMPUTER_GAMES_RETRY = 60
#: The Redis lock under which every process counts and stores games without a person.
COMPUTER_GAMES_LOCK = "shiftago:lock:computer-games"
#: Seconds the Redis lock is held at most: a holder that was killed frees it then.
LOCK_TIMEOUT = 10.0
#: Seconds a request waits for the Redis lock; longer than :data:`LOCK_TIMEOUT`, so that
#: only a lock that is taken again and again, not a dead holder, makes it give up.
LOCK_WAIT = 15.0
#: Seconds between two tries to take the Redis lock.
LOCK_POLL = 0.02

#: What is counted: new games (imports included), imports, reviews of a game, and
#: searches started on ``/ws/analysis``.
Bucket = Literal[
    "games", "imports", "analyses", "live-analyses", "logins", "seeks", "puzzle-attempts"
]

#: Each bucket's setting and the words for it.
BUCKETS: dict[Bucket, tuple[Callable[[Settings], int], str]] = {
    "games": (lambda s: s.games_per_minute, "new games"),
    "imports": (lambda s: s.imports_per_minute, "imported games"),
    "analyses": (lambda s: s.analyses_per_minute, "reviews asked for"),
    "live-analyses": (lambda s: s.live_analyses_per_minute, "analyses started"),
    "logins": (lambda s: s.logins_per_minute, "sign-in attempts"),
    "seeks": (lambda s: s.seeks_per_minute, "open challenges"),
    "puzzle-attempts": (lambda s: s.puzzle_attempts_per_minute, "puzzle attempts"),
}


class Limited(Exception):
    """A request over a limit: answered 429 with ``Retry-After`` and a ``code``."""

    def __init__(self, code: str, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.retry_after = max(1, retry_after)

    def response(self) -> JSONResponse:
        return JSONResponse(
            {"message": self.message, "code": self.code},
            status_code=429,
            headers={"Retry-After": str(self.retry_after)},
        )


class RateLimiter(Protocol):
    async def hit(self, key: str, limit: int) -> int:
        """Count one request under ``key``; 0 when it is within ``limit`` per window,
        else the whole seconds until the window lets one in again."""
        ...

    async def peek(self, key: str) -> tuple[int, int]:
        """The count under ``key`` in its window and the whole seconds left of it,
        without counting one ((0, 0): no window open)."""
        ...


class MemoryLimiter:
    """Counts in this process. Windows are kept in the order they began, so the ones
    that have ended are forgotten from the front as time goes on: memory follows the
    addresses of the last minute, and :data:`MAX_TRACKED` bounds even that."""

    def __init__(
        self, clock: Callable[[], float] = time.monotonic, max_tracked: int = MAX_TRACKED
    ) -> None:
        self.clock = clock
        self.max_tracked = max_tracked
        self.windows: dict[str, tuple[float, int]] = {}  # key -> (start, count)

    async def hit(self, key: str, limit: int) -> int:
        now = self.clock()
        self._forget(now)
        start, count = self.windows.get(key, (now, 0))
        if now - start >= WINDOW:  # a new window, at the end of the order
            del self.windows[key]
            start, count = now, 0
        self.windows[key] = (start, count + 1)  # an old key keeps its place
        if count < limit:
            return 0
        return max(1, math.ceil(start + WINDOW - now))

    async def peek(self, key: str) -> tuple[int, int]:
        """The count under ``key`` in its window and the whole seconds left of it, not
        counting a request ((0, 0) when no window is open)."""
        now = self.clock()
        start, count = self.windows.get(key, (now, 0))
        if count == 0 or now - start >= WINDOW:
            return 0, 0
        return count, max(1, math.ceil(start + WINDOW - now))

    def _forget(self, now: float) -> None:
        windows = self.windows
        while windows:
            oldest = next(iter(windows))
            if now - windows[oldest][0] < WINDOW and len(windows) < self.max_tracked:
                return
            del windows[oldest]


#: One request counted in Redis: the count and the milliseconds left of its window,
#: which the first request of a window starts.
_HIT = """
local count = redis.call('INCR', KEYS[1])
if count == 1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
end
local left = redis.call('PTTL', KEYS[1])
if left < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  left = tonumber(ARGV[1])
end
return {count, left}
"""


#: A count in Redis without counting: the count and the milliseconds left of its window.
_PEEK = """
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
local left = redis.call('PTTL', KEYS[1])
if count == 0 or left < 0 then
  return {0, 0}
end
return {count, left}
"""


class RedisLimiter:
    """Counts in Redis, shared by every process that uses it: one script per request
    (``INCR``, the window's expiry set by its first request, what is left of it)."""

    PREFIX = "shiftago:limit:"

    def __init__(self, redis: Redis) -> None:
        self.redis = redis
        self.script = redis.register_script(_HIT)
        self.peek_script = redis.register_script(_PEEK)

    async def hit(self, key: str, limit: int) -> int:
        count, left = await self.script(keys=[self.PREFIX + key], args=[WINDOW * 1000])
        if int(count) <= limit:
            return 0
        return math.ceil(int(left) / 1000)

    async def peek(self, key: str) -> tuple[int, int]:
        count, left = await self.peek_script(keys=[self.PREFIX + key])
        return int(count), math.ceil(int(left) / 1000)


def limiter_for(app: Any) -> RateLimiter:
    """The app's rate counter: in Redis when the app has one (``app.state.redis``),
    else in memory; made once for each Redis client and kept on ``app.state``."""
    redis = getattr(app.state, "redis", None)
    cached: tuple[Any, RateLimiter] | None = getattr(app.state, "rate_limiter", None)
    if cached is not None and cached[0] is redis:
        return cached[1]
    limiter: RateLimiter = MemoryLimiter() if redis is None else RedisLimiter(redis)
    app.state.rate_limiter = (redis, limiter)
    return limiter


def settings_of(app: Any) -> Settings:
    settings: Settings = app.state.settings
    return settings


async def count(connection: HTTPConnection, bucket: Bucket, who: str | None = None) -> None:
    """Count one request of ``bucket`` for the connection's address (or for ``who``, such
    as an account name); :class:`Limited` when it is over the number per minute. A Redis
    that does not answer lets the request through: the limits guard the server, they are
    not its truth."""
    setting, words = BUCKETS[bucket]
    limit = setting(settings_of(connection.app))
    key = f"{bucket}:{client_address(connection) if who is None else who}"
    try:
        wait = await asyncio.wait_for(limiter_for(connection.app).hit(key, limit), COUNT_SECONDS)
    except (RedisError, OSError, TimeoutError) as error:  # Redis away: counted nowhere
        log.warning("rate limits not counted: %s", str(error) or "Redis did not answer in time")
        return
    if wait:
        raise Limited(
            "rate_limited",
            f"too many {words} {'from your address' if who is None else 'for this account'}: "
            f"at most {limit} a minute; try again in {wait} s",
            wait,
        )


async def peek(connection: HTTPConnection, key: str) -> tuple[int, int]:
    """The count under ``key`` in its window and the seconds left of it, without counting
    one; (0, 0) when Redis does not answer (the limits guard the server, they are not
    its truth)."""
    try:
        return await asyncio.wait_for(limiter_for(connection.app).peek(key), COUNT_SECONDS)
    except (RedisError, OSError, TimeoutError) as error:
        log.warning("rate limits not read: %s", str(error) or "Redis did not answer in time")
        return 0, 0


async def note(connection: HTTPConnection, key: str) -> None:
    """Count one event under ``key`` (such as a wrong password), for :func:`peek`; a Redis
    that does not answer counts nothing."""
    try:
        await asyncio.wait_for(limiter_for(connection.app).hit(key, 0), COUNT_SECONDS)
    except (RedisError, OSError, TimeoutError) as error:
        log.warning("rate limits not counted: %s", str(error) or "Redis did not answer in time")


#: How many unfinished games without a person an address has (``None``: everyone).
Unfinished = Callable[[str | None], Awaitable[int]]


@contextlib.asynccontextmanager
async def computer_game_room(
    connection: HTTPConnection, unfinished: Unfinished, owner: str | None
) -> AsyncIterator[None]:
    """Room for a new game without a person of ``owner`` under the caps on unfinished
    ones, which ``unfinished`` counts; held until the game is stored (:class:`Limited`
    when there is none). The games decide which game needs room. One game is counted and
    made at a time: in this process under an asyncio lock, and with Redis under a lock
    of every process (:func:`redis_lock`), so that two requests at once cannot both take
    the last place."""
    app = connection.app
    settings = settings_of(app)
    lock: asyncio.Lock | None = getattr(app.state, "computer_games_lock", None)
    if lock is None:
        lock = app.state.computer_games_lock = asyncio.Lock()
    async with lock, redis_lock(getattr(app.state, "redis", None), COMPUTER_GAMES_LOCK):
        mine = await unfinished(owner)
        if mine >= settings.computer_games_per_address:
            raise Limited(
                "too_many_computer_games",
                f"your address already has {mine} unfinished games without a person "
                f"(at most {settings.computer_games_per_address}); finish one or wait",
                COMPUTER_GAMES_RETRY,
            )
        everyone = await unfinished(None)
        if everyone >= settings.computer_games_total:
            raise Limited(
                "too_many_computer_games",
                f"the server already runs {everyone} unfinished games without a person "
                f"(at most {settings.computer_games_total} in all); try again later",
                COMPUTER_GAMES_RETRY,
            )
        yield


@contextlib.asynccontextmanager
async def redis_lock(redis: Redis | None, name: str) -> AsyncIterator[bool]:
    """Hold the Redis lock ``name`` (redis-py's) for the block; whether it was had. It
    expires after :data:`LOCK_TIMEOUT`, so that a killed holder frees it. Without Redis,
    or when Redis does not answer or the lock is not had within :data:`LOCK_WAIT`, the
    block runs without it (the caller's process lock still holds), with a warning: the
    limits guard the server, a Redis away must not stop it."""
    if redis is None:
        yield False
        return
    lock = redis.lock(name, timeout=LOCK_TIMEOUT, thread_local=False)
    try:
        held = await _take(lock)
    except (RedisError, OSError, TimeoutError) as error:
        why = str(error) or f"Redis did not answer within {COUNT_SECONDS:g} s"
        log.warning("going on without the Redis lock %s: %s", name, why)
        held = False
    else:
        if not held:
            log.warning("going on without the Redis lock %s: not had in %g s", name, LOCK_WAIT)
    try:
        yield held
    finally:
        if held:
            try:
                await asyncio.wait_for(lock.release(), COUNT_SECONDS)
            except (RedisError, OSError, TimeoutError) as error:  # expired, or Redis away
                log.warning("the lock %s could not be let go: %s", name, str(error) or "no answer")


async def _take(lock: Any) -> bool:
    """Try for ``lock`` every :data:`LOCK_POLL` seconds until :data:`LOCK_WAIT`; whether
    it was had. Each try waits :data:`COUNT_SECONDS` for Redis at most (a TimeoutError):
    a Redis that hangs is a Redis away, not a holder to wait for. A try given up that
    Redis carries out later holds the lock until it expires, as a killed holder would."""
    deadline = time.monotonic() + LOCK_WAIT
    while True:
        if await asyncio.wait_for(lock.acquire(blocking=False), COUNT_SECONDS):
            return True
        if time.monotonic() >= deadline:
            return False
        await asyncio.sleep(LOCK_POLL)


class SocketCounts:
    """The open sockets of each address in this process."""

    def __init__(self) -> None:
        self.open: Counter[str] = Counter()

    @contextlib.contextmanager
    def slot(self, address: str, limit: int) -> Iterator[bool]:
        """Whether the address may open one more; if so, it is counted until the end."""
        if self.open[address] >= limit:
            yield False
            return
        self.open[address] += 1
        try:
            yield True
        finally:
            self.open[address] -= 1
            if self.open[address] <= 0:
                del self.open[address]


def sockets_of(app: Any) -> SocketCounts:
    counts: SocketCounts | None = getattr(app.state, "socket_counts", None)
    if counts is None:
        counts = app.state.socket_counts = SocketCounts()
    return counts


@contextlib.asynccontextmanager
async def socket_slot(websocket: WebSocket) -> AsyncIterator[bool]:
    """A place for the socket under the cap per address, held while it is open. Over the
    cap it is refused before the upgrade, with 429 and ``code: too_many_sockets`` (403
    where the server cannot answer a refused upgrade with a body), and False."""
    limit = settings_of(websocket.app).sockets_per_address
    with sockets_of(websocket.app).slot(client_address(websocket), limit) as granted:
        if not granted:
            refusal = Limited(
                "too_many_sockets",
                f"too many open connections from your address (at most {limit}); "
                "close some pages of this site",
                5,
            )
            try:
                await websocket.send_denial_response(refusal.response())
            except RuntimeError:  # no denial responses: a plain refused upgrade
                await websocket.close(code=1008)
        yield granted


__all__ = [
    "Limited",
    "MemoryLimiter",
    "RedisLimiter",
    "SocketCounts",
    "computer_game_room",
    "count",
    "limiter_for",
    "note",
    "peek",
    "redis_lock",
    "socket_slot",
]
