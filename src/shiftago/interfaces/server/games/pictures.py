"""A game as a picture to share: a PNG of one step, an animated GIF of the whole game.

The drawing is :mod:`shiftago.formats.picture`'s; here a game's states are copied under
its lock, drawn in a worker thread (a long game's GIF takes a second or two, which must
not hold the event loop), at most :data:`DRAWING_AT_ONCE` at a time (and beyond
:data:`MAX_WAITING` waiting, refused as busy rather than queued), and the newest
pictures are kept: a shared link is asked for by many. Each picture has an entity tag
made from what it shows, so a browser or proxy asks again cheaply, and a finished
game's pictures never change.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections import OrderedDict
from dataclasses import dataclass
from typing import Final, Literal

from shiftago.core import Action, State
from shiftago.formats.picture import gif_bytes, png_bytes
from shiftago.interfaces.server.door.http import Invalid
from shiftago.interfaces.server.games.live import LiveGame

Kind = Literal["png", "gif"]

#: Pictures drawn at the same time at most (each holds a core of the process).
DRAWING_AT_ONCE: Final = 2
#: Pictures waiting to be drawn at most; one more is refused as busy, not queued.
MAX_WAITING: Final = 16
#: Pictures kept (a GIF of a long game is a few hundred kB).
KEPT: Final = 64
#: How long a finished game's picture may be kept by a browser or proxy, in seconds.
FINISHED_MAX_AGE: Final = 86_400

MEDIA_TYPES: Final[dict[Kind, str]] = {"png": "image/png", "gif": "image/gif"}


@dataclass(frozen=True)
class Picture:
    """A drawn picture and how it may be cached."""

    data: bytes
    media_type: str
    etag: str
    finished: bool

    @property
    def cache_control(self) -> str:
        """A finished game's pictures are kept a day; a game in play's are checked again
        (by their entity tag) each time, since it moves on or takes an action back."""
        if self.finished:
            return f"public, max-age={FINISHED_MAX_AGE}"
        return "no-cache"


class PicturesBusy(Exception):
    """Too many pictures wait to be drawn: answered 503 with ``Retry-After``."""


class Pictures:
    """The pictures of the games of one process (``app.state`` holds one)."""

    def __init__(self) -> None:
        self._kept: OrderedDict[str, bytes] = OrderedDict()
        self._drawing = asyncio.Semaphore(DRAWING_AT_ONCE)
        self._waiting = 0

    async def of(self, live: LiveGame, kind: Kind, step: int | None, size: int) -> Picture:
        """The picture of ``live``: a PNG of ``step`` (actions from the start; the
        current position when None), or the GIF of every step; a step out of the game
        is :class:`Invalid` naming ``step``; :class:`PicturesBusy` when too many wait."""
        async with live.lock:
            states = list(live.game.states)
            actions = list(live.game.history)
            finished = live.over
        if kind == "png":
            last = len(actions)
            n = last if step is None else step
            if not 0 <= n <= last:
                raise Invalid(
                    "step",
                    f"a number of actions from the start, 0 to {last} in this game, not {n}",
                )
            states, actions = states[: n + 1], actions[:n]
        etag = _etag(kind, size, states[0], actions)
        data = self._kept.get(etag)
        if data is None:
            if self._waiting >= MAX_WAITING:
                raise PicturesBusy
            self._waiting += 1
            try:
                async with self._drawing:
                    data = await asyncio.to_thread(_draw, kind, size, states, actions)
            finally:
                self._waiting -= 1
            self._keep(etag, data)
        else:
            self._kept.move_to_end(etag)
        return Picture(data, MEDIA_TYPES[kind], etag, finished)

    def _keep(self, etag: str, data: bytes) -> None:
        self._kept[etag] = data
        while len(self._kept) > KEPT:
            self._kept.popitem(last=False)


def _draw(kind: Kind, size: int, states: list[State], actions: list[Action]) -> bytes:
    if kind == "png":
        return png_bytes(states[-1], last_action=actions[-1] if actions else None, size=size)
    return gif_bytes((states, actions), size=size)


def _etag(kind: Kind, size: int, start: State, actions: list[Action]) -> str:
    """The picture's entity tag: its kind and size, the start and the actions (which
    decide every state)."""
    text = " ".join((kind, str(size), start.position(), *map(str, actions)))
    return '"' + hashlib.sha256(text.encode()).hexdigest()[:32] + '"'


__all__ = ["FINISHED_MAX_AGE", "MAX_WAITING", "Kind", "Picture", "Pictures", "PicturesBusy"]
