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
from support.board_clicks import PLAYABLE
from support.heard import LISTEN, said
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


def moved(game: dict[str, Any], index: int, first: str = "o") -> str:
    """What the page says the push ``index`` of ``game`` (``first`` to act) moved, from
    the core's motion: a screen reader cannot see the marbles slide (a French walk); ""
    for none."""
    return moves_words(
        game["actions"][:index], game["actions"][index], " {marbles} moved: {listed}.", first=first
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


def moves_words(
    before: list[str], action: str, sentence: str, colours: bool = False, first: str = "o"
) -> str:
    """The words for the marbles ``action`` moves after the actions ``before`` (``first``
    to act: the tests' games start with orange unless they say), in ``sentence`` (its
    ``{marbles}``, "2 marbles", and ``{listed}``, each move); with ``colours`` each
    marble's colour before the push."""
    played = Game(first=first)
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
    # the replay says the action that led to each step shown, and the marbles it moved,
    # as the live game said it (the step named only the push: a blind player's walk)
    watcher.click("#rp-prev")
    hears(watcher, f"Action 8 of 9: {pushed(game, 'g', 'L7')}{moved(game, 7)}")
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


def type_action(page: Any, action: str) -> None:
    """Type ``action`` into the page's action field and send it."""
    page.fill("[data-testid=action-input]", action)
    page.press("[data-testid=action-input]", "Enter")


def test_a_replay_step_says_what_its_scoring_took_off(
    live_server: LiveServer, new_context: NewContext
) -> None:
    """Stepping through a finished game said only each step's action: which marbles a
    push moved and which a scoring took off went unsaid (a blind player's walk)."""
    created = create(live_server, variant="expert", players=2, first="o")
    game_id = created["id"]
    watcher = open_game(new_context(), created["watch_url"])
    script = ["L1", "L7", "L1", "L7", "L1", "L7", "L1", "L7", "L1", "xa1-e1"]
    with (
        socket_seat(live_server, game_id, created["seats"][0]["join_url"]) as ann,
        socket_seat(live_server, game_id, created["seats"][1]["join_url"]) as ben,
    ):
        for version, action in enumerate(script):
            mover = ben if action == "L7" else ann
            mover.send(json.dumps({"type": "act", "action": action, "seen": version}))
            waiting.wait_until(
                lambda: read(live_server, game_id),
                lambda g, v=version: g["version"] > v,
                timeout=10,
                what=f"{action} to be stored",
            )
        ann.send(json.dumps({"type": "resign"}))  # over: the replay opens
        game = waiting.wait_until(
            lambda: read(live_server, game_id),
            lambda g: g["status"].startswith("over"),
            timeout=10,
            what="the resignation",
        )
    watcher.wait_for_selector("#rp-prev:not([disabled])")
    watcher.click("#rp-prev")
    hears(watcher, f"Action 9 of 10: {pushed(game, 'o', 'L1')}{moved(game, 8)}")
    watcher.click("#rp-next")
    hears(
        watcher,
        "Action 10 of 10: Orange scored a line of 5 for 2 points. The line ran from a1 to e1."
        " The marbles on a1 and e1 stayed on the board. 3 marbles came off: b1, c1, and d1.",
    )


def test_the_computer_s_action_before_the_page_opened_is_said_once(
    live_server: LiveServer, new_context: NewContext
) -> None:
    """A player who opened (or reloaded) a game where the computer had just played heard
    nothing of its action: the page said only what came after it opened."""
    created = create(
        live_server,
        variant="express",
        players=2,
        first="g",
        seats=[{"name": "Ann", "kind": "human"}, {"kind": "computer", "level": 1}],
    )
    game_id = created["id"]
    game = waiting.wait_until(
        lambda: read(live_server, game_id),
        lambda g: g["version"] >= 1,
        timeout=30,
        what="the computer's first action",
    )
    context = new_context()
    context.add_init_script(LISTEN)
    page = open_game(context, created["seats"][0]["join_url"])
    words = pushed(game, "g", game["actions"][0]) + moved(game, 0, first="g")
    hears(page, words)
    for _ in range(2):
        page.wait_for_timeout(500)  # the page's other events (a sync's state) say nothing
        assert [s for s in said(page) if "pushed in" in s] == [words]
        assert "Your turn" in page.text_content("[data-testid=status]")
        page.reload()
        page.wait_for_selector("[data-testid=connection][data-state=connected]")
        hears(page, words)


def test_a_refused_scoring_says_why_and_which_lines_to_score(
    live_server: LiveServer, new_context: NewContext
) -> None:
    """A scoring the server refused said only "xa1-a5 is not legal now": no reason, and
    no word of which lines could be scored (a blind player's walk)."""
    created = create(
        live_server,
        variant="expert",
        players=2,
        first="o",
        seats=[{"name": "Ann", "kind": "human"}, {"name": "Ben", "kind": "human"}],
    )
    game_id = created["id"]
    context = new_context()
    context.add_init_script(LISTEN)
    page = open_game(context, created["seats"][0]["join_url"])
    with socket_seat(live_server, game_id, created["seats"][1]["join_url"]) as ben:
        for version in range(9):
            if version % 2:
                ben.send(json.dumps({"type": "act", "action": "L7", "seen": version}))
            else:
                page.wait_for_selector(f'{PLAYABLE}[data-action="L1"]', state="attached")
                type_action(page, "L1")
            waiting.wait_until(
                lambda: read(live_server, game_id),
                lambda g, v=version: g["version"] > v,
                timeout=10,
                what="the action to be stored",
            )
    page.wait_for_selector('[data-action="xa1-e1"][aria-disabled="false"]', state="attached")
    type_action(page, "xa1-a5")
    expected = "xa1-a5 is not the line to score: you can score xa1-e1."
    page.wait_for_function("w => document.querySelector('#notice').textContent === w", arg=expected)
    assert page.get_attribute("#notice", "role") == "alert"
    assert said(page).count(expected) == 1
    # the same refusal again is said again (an alert whose words stay is not read again)
    type_action(page, "xa1-a5")
    waiting.wait_until(
        lambda: said(page).count(expected),
        lambda n: n == 2,
        timeout=10,
        what="the refusal to be said a second time",
    )
