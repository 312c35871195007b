"""What the load tool reads and writes of the live protocol (docs/web-protocol.md),
kept light: events are recognised by their first keys, and an ``action`` event is read
without parsing the game it carries (its whole history), as thousands of sockets
receive them."""

from __future__ import annotations

import json
import re
import time
from typing import Any

#: The first keys of every server event: its type and, for most, its version. Events
#: that need no more (presence, thinking, pong; everything a watcher gets) are never
#: parsed as a whole.
HEAD = re.compile(r'\{"type":"(\w+)"(?:,"version":(\d+))?')
#: An action event's own fields, then its game's first ``turn`` with a colour or null
#: (``history`` entries, later, have numbers) and its ``legal`` list. JSON escapes
#: every quote inside a string, so these only match keys.
ACTION_HEAD = re.compile(
    r'\{"type":"action","version":(\d+),"action":"([^"\\]+)","seat":(\d+|null),'
)
TURN = re.compile(r'"turn":(?:null|"(\w)")')
LEGAL = re.compile(r'"legal":\[([^\]]*)\]')
#: The server closes a socket with this code when the game does not exist.
NOT_FOUND_CLOSE = 4404


#: The clock of every figure: finer than the event loop's (uvloop's counts milliseconds).
clock = time.perf_counter


def read_action(text: str) -> tuple[int, str, int | None, str | None, list[str]] | None:
    """An ``action`` event read without parsing its game (which carries the whole
    history): version, action, seat, the colour to act (None once over) and the legal
    actions; None when the text is not in the expected shape (then it is parsed).

    >>> read_action('{"type":"action","version":3,"action":"L3","seat":0,'
    ...             '"game":{"turn":"g","legal":["L1","R2"],"history":[{"turn":1}]}}')
    (3, 'L3', 0, 'g', ['L1', 'R2'])
    """
    head = ACTION_HEAD.match(text)
    if head is None:
        return None
    turn = TURN.search(text, head.end())
    legal = LEGAL.search(text, head.end())
    if turn is None or legal is None:
        return None
    seat = None if head.group(3) == "null" else int(head.group(3))
    items = legal.group(1)
    actions = [item.strip().strip('"') for item in items.split(",")] if items.strip() else []
    return int(head.group(1)), head.group(2), seat, turn.group(1), actions


def dumps(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"))


def socket_url(base: str, game_id: str) -> str:
    """``http://host:port`` -> ``ws://host:port/ws/games/{id}`` (https -> wss)."""
    scheme, _, rest = base.rstrip("/").partition("://")
    return f"{'wss' if scheme == 'https' else 'ws'}://{rest}/ws/games/{game_id}"


def retry_after(header: str | None) -> float:
    """The seconds a 429 asks to wait (``Retry-After``), 1 when it does not say."""
    try:
        return min(60.0, max(0.0, float(header if header is not None else "1")))
    except ValueError:
        return 1.0
