"""The load tool's tests: a real server in this process (uvicorn in a thread)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from shiftago.interfaces.server import create_app
from support.served import served


@pytest.fixture
def server_url(tmp_path: Path) -> Iterator[str]:
    """The app on a fresh SQLite file, without limits that a load of one address would
    meet."""
    app = create_app(
        f"sqlite:///{tmp_path / 'load.db'}",
        bot_delay=0,
        games_per_minute=10_000,
        computer_games_per_address=1000,
        computer_games_total=1000,
        sockets_per_address=10_000,
        rate=1000.0,
        burst=1000,
    )
    with served(app) as url:
        yield url
