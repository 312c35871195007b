"""Memory over a churn of games: create many games one after another, play a few actions
in each over its socket, leave it, and print the server's resident memory as it goes.

    .venv/bin/python scripts/churn.py http://127.0.0.1:8000 --games 5000

The server's /healthz gives its memory and the games it holds; with idle games leaving
memory (``shiftago serve --idle-seconds``) both stay flat. docs/deploy.md has the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time

import httpx
from websockets.asyncio.client import connect


async def one_game(client: httpx.AsyncClient, base: str, actions: int) -> None:
    seats = [{"kind": "human"}, {"kind": "human"}]
    body = {"variant": "express", "players": 2, "seats": seats, "first": "o"}
    answer = await client.post("/api/games", json=body)
    answer.raise_for_status()
    game = answer.json()
    tokens = [s["join_url"].split("?seat=")[1] for s in game["seats"]]
    url = base.replace("http", "ws", 1) + f"/ws/games/{game['id']}"
    async with connect(url) as first, connect(url) as second:
        sockets = (first, second)
        for socket, token in zip(sockets, tokens, strict=True):
            await socket.send(json.dumps({"type": "hello", "token": token, "seen": 0}))
        await first.send(json.dumps({"type": "sync", "seen": 0}))
        state = await until(first, "state")
        for version in range(actions):
            socket = sockets[version % 2]
            legal: list[str] = state["legal"]  # type: ignore[assignment]
            action = legal[version % len(legal)]
            await socket.send(json.dumps({"type": "act", "action": action, "seen": version}))
            state = await until(socket, "action", version + 1)


async def until(socket: object, kind: str, version: int | None = None) -> dict[str, object]:
    """The game of the next ``kind`` event (of ``version``, when given) on ``socket``."""
    while True:
        event = json.loads(await socket.recv())  # type: ignore[attr-defined]
        if event["type"] == "error":
            raise RuntimeError(f"the server refused: {event}")
        if event["type"] == kind and version in (None, event.get("version")):
            game: dict[str, object] = event["game"]
            return game


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url")
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--actions", type=int, default=6, help="actions played per game")
    parser.add_argument("--at-once", type=int, default=20, help="games played at the same time")
    parser.add_argument("--every", type=int, default=500, help="print memory every N games")
    options = parser.parse_args()
    started = time.monotonic()
    async with httpx.AsyncClient(base_url=options.url, timeout=30) as client:

        async def health() -> str:
            data = (await client.get("/healthz")).json()
            return f"rss {data['rss_mib']} MiB, games in memory {data['games_in_memory']}"

        print(f"{0:>6} games: {await health()}", flush=True)
        done = 0
        while done < options.games:
            batch = min(options.at_once, options.games - done)
            await asyncio.gather(
                *(one_game(client, options.url, options.actions) for _ in range(batch))
            )
            done += batch
            if done % options.every == 0 or done == options.games:
                elapsed = time.monotonic() - started
                print(f"{done:>6} games: {await health()} ({elapsed:.0f} s)", flush=True)


if __name__ == "__main__":
    asyncio.run(main())
