"""End to end: every action is said in words in the game page's polite live region
(``[data-testid=announcer]``), the opponent's and the computer's included, for a player,
a spectator and a replay (issue 49). What was played is read from the server's GAME."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.sync.client import connect

from shiftago.core import Action, Game, State, cell_name
from shiftago.core.geometry import CELLS
from shiftago.core.motion import motion
from support import waiting
from support.web_fixtures import LiveServer, NewContext

SIDES = {
    "L": "at the left of row",
    "R": "at the right of row",
    "T": "at the top of column",
    "B": "at the bottom of column",
}
COLOURS = {"o": "orange", "g": "green", "b": "blue", "w": "white"}


@pytest.fixture
def live_server(shared_server: LiveServer) -> LiveServer:
    """One server for the module: each test makes its own game and reads only it."""
    return shared_server


def create(server: LiveServer, **spec: Any) -> dict[str, Any]:
    response = server.api("POST", "/api/games", json=spec)
    assert response.status_code == 201, response.text
    return response.json()


def read(server: LiveServer, game_id: str) -> dict[str, Any]:
    response = server.api("GET", f"/api/games/{game_id}")
    assert response.status_code == 200, response.text
    return response.json()


def who(game: dict[str, Any], colour: str) -> str:
    """A seat as the page names it: its name, with its colour where they differ."""
    name = next(s["name"] for s in game["seats"] if s["colour"] == colour)
    return name if name.lower() == COLOURS[colour] else f"{name} ({COLOURS[colour]})"


def pushed(game: dict[str, Any], colour: str, action: str) -> str:
    return f"{who(game, colour)} pushed in {SIDES[action[0]]} {action[1:].lower()}."


def moved(game: dict[str, Any], index: int) -> str:
    """What the page says the push ``index`` of ``game`` moved, from the core's motion:
    a screen reader cannot see the marbles slide (a French walk); "" for none."""
    return moves_words(
        game["actions"][:index], game["actions"][index], " {marbles} moved: {listed}."
    )


def board_words(position: str) -> str:
    """The board as the page describes it to a screen reader: each colour's cells, rank
    by rank, then the empty cells' count."""
    state = State.from_position(position)
    cells: dict[int, list[str]] = {seat: [] for seat in range(state.players)}
    for cell in CELLS:
        seat = state.seat_at(cell)
        if seat is not None:
            cells[seat].append(cell_name(cell))
    ranked = {seat: sorted(names, key=lambda n: (n[1], n[0])) for seat, names in cells.items()}
    words = [
        f"{COLOURS['ogbw'[seat]].capitalize()}: {', '.join(names)}."
        for seat, names in ranked.items()
        if names
    ]
    empty = 49 - sum(len(names) for names in cells.values())
    return " ".join([*words, f"{empty} empty cell{'' if empty == 1 else 's'}."])


def moves_words(before: list[str], action: str, sentence: str, colours: bool = False) -> str:
    """The words for the marbles ``action`` moves after the actions ``before`` (orange
    first), in ``sentence`` (its ``{marbles}``, "2 marbles", and ``{listed}``, each move);
    with ``colours`` each marble's colour before the push."""
    played = Game(first="o")  # the tests' games start with orange
    for earlier in before:
        played.play(earlier)
    shifts = motion(played.state, Action.parse(action)).shifts
    if not shifts:
        return ""
    state = played.state
    steps = []
    for a, b in reversed(shifts):
        seat = state.seat_at(a)
        colour = f"{COLOURS['ogbw'[seat]]} " if colours and seat is not None else ""
        steps.append(f"{colour}{cell_name(a)} to {cell_name(b)}")
    listed = steps[0] if len(steps) == 1 else ", ".join(steps[:-1]) + f", and {steps[-1]}"
    if len(steps) == 2:
        listed = f"{steps[0]} and {steps[1]}"
    marbles = "1 marble" if len(steps) == 1 else f"{len(steps)} marbles"
    return sentence.format(marbles=marbles, listed=listed)


def hears(page: Any, words: str, timeout: float = 30_000) -> None:
    """Wait until the page's live region says ``words``."""
    try:
        page.wait_for_function(
            "w => (document.querySelector('[data-testid=announcer]') || {}).textContent === w",
            arg=words,
            timeout=timeout,
        )
    except Exception as error:
        said = page.text_content("[data-testid=announcer]")
        raise AssertionError(f"the page says {said!r}, not {words!r}") from error


def open_game(context: Any, url: str) -> Any:
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector("[data-testid=connection][data-state=connected]")
    return page


@contextlib.contextmanager
def socket_seat(server: LiveServer, game_id: str, join_url: str) -> Iterator[Any]:
    """A seat played over the game's WebSocket (docs/web-protocol.md)."""
    url = f"ws://127.0.0.1:{server.port}/ws/games/{game_id}"
    with connect(url, origin=server.url) as ws:
        ws.send(json.dumps({"type": "hello", "token": join_url.split("seat=")[1], "seen": 0}))
        while json.loads(ws.recv(timeout=10))["type"] != "welcome":
            pass
        yield ws


def test_the_computer_s_action_is_said_in_words(
    live_server: LiveServer, new_context: NewContext
) -> None:
    created = create(
        live_server,
        variant="express",
        players=2,
        first="o",
        seats=[{"name": "Ann", "kind": "human"}, {"kind": "computer", "level": 1}],
    )
    game_id = created["id"]
    page = open_game(new_context(), created["seats"][0]["join_url"])
    region = page.locator("[data-testid=announcer]")
    assert region.get_attribute("aria-live") == "polite"
    assert region.text_content() == ""  # opening the page says no action
    element = page.wait_for_selector('[data-action="Tc"][aria-disabled="false"]', state="attached")
    # each arrow says what its push would move, as a sighted player's preview shows it,
    # and the board what stands on it: its cells one by one were 49 stops
    assert element.get_attribute("aria-description") == "Pushes no marble."
    board = "svg.shiftago-board"
    assert page.get_attribute(board, "aria-description") == "49 empty cells."
    element.click()
    game = waiting.wait_until(
        lambda: read(live_server, game_id),
        lambda g: g["version"] >= 2,
        timeout=30,
        what="the computer's action",
    )
    answer = game["actions"][1]
    assert answer[0] in SIDES, answer  # Express: an insertion
    hears(page, pushed(game, "g", answer) + moved(game, 1))
    arrow = page.locator('[data-action="Tc"]')
    expected = moves_words(game["actions"], "Tc", "Pushes {marbles}: {listed}.", colours=True)
    page.wait_for_function(
        "e => document.querySelector('[data-action=Tc]').getAttribute('aria-description') === e",
        arg=expected or "Pushes no marble.",
    )
    assert arrow.get_attribute("aria-description") == (expected or "Pushes no marble.")
    assert page.get_attribute(board, "aria-description") == board_words(game["position"])


def test_a_spectator_hears_each_action_and_the_end(
    live_server: LiveServer, new_context: NewContext
) -> None:
    created = create(
        live_server,
        variant="express",
        players=2,
        first="o",
        seats=[{"name": "Ann", "kind": "human"}, {"name": "Ben", "kind": "human"}],
    )
    game_id = created["id"]
    watcher = open_game(new_context(), created["watch_url"])
    script = ["L1", "L7", "L1", "L7", "L1", "L7", "L1", "L7", "L1"]
    with (
        socket_seat(live_server, game_id, created["seats"][0]["join_url"]) as ann,
        socket_seat(live_server, game_id, created["seats"][1]["join_url"]) as ben,
    ):
        for version, action in enumerate(script):
            (ann if version % 2 == 0 else ben).send(
                json.dumps({"type": "act", "action": action, "seen": version})
            )
            game = waiting.wait_until(
                lambda v=version: read(live_server, game_id),
                lambda g, v=version: g["version"] > v,
                timeout=10,
                what=f"{action} to be stored",
            )
            mover = "o" if version % 2 == 0 else "g"
            if version < len(script) - 1:
                hears(watcher, pushed(game, mover, action) + moved(game, version))
    assert game["status"] == "over winner o"
    hears(watcher, f"{pushed(game, 'o', 'L1')}{moved(game, 8)} {who(game, 'o')} won.")
    # the replay says the action that led to each step shown
    watcher.click("#rp-prev")
    hears(watcher, f"Action 8 of 9: {pushed(game, 'g', 'L7')}")
    watcher.click("#rp-first")
    hears(watcher, "The start position.")


def test_the_news_line_says_why_arrows_are_greyed_while_one_colour_is_alone(
    live_server: LiveServer, new_context: NewContext
) -> None:
    """With a handicap one player moves twice: while only her marbles are on the board,
    arrows that would put two side by side are greyed, with no word of why in the game
    (a German family's walk). The news line says it, to her only, and so does the live
    region, with the handicap's skipped turn."""
    created = create(
        live_server,
        variant="express",
        players=2,
        first="o",
        handicap=[0, 1],
        seats=[{"name": "Ann", "kind": "human"}, {"name": "Ben", "kind": "human"}],
    )
    page = open_game(new_context(), created["seats"][0]["join_url"])
    ben = open_game(new_context(), created["seats"][1]["join_url"])
    page.wait_for_selector('[data-action="Td"][aria-disabled="false"]', state="attached")
    assert "may not touch" not in (page.text_content("[data-testid=event]") or "")
    page.click('[data-action="Td"]')
    hint = "While only your marbles are on the board, they may not touch"
    page.wait_for_function(
        "w => document.querySelector('[data-testid=event]').textContent.includes(w)", arg=hint
    )
    assert page.get_attribute('[data-action="Tc"]', "aria-disabled") == "true"
    assert hint not in (ben.text_content("[data-testid=event]") or "")
    # the live region says the action, the handicap's skip and (to her) the hint, once:
    # the news line shows the same and is no live region (a French walk heard both)
    game = read(live_server, created["id"])
    skip = f"{who(game, 'g')} skips a turn (handicap)."
    hears(ben, f"{pushed(game, 'o', 'Td')} {skip}")
    full_hint = f"{hint}: the greyed arrows would put two side by side."
    hears(page, f"{pushed(game, 'o', 'Td')} {skip} {full_hint}")
    assert page.get_attribute("[data-testid=event]", "aria-live") is None
