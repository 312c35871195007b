"""End to end: ``shiftago serve`` in a subprocess, played in a real headless Chromium.

Only the stable hooks of the pages are used (WEBAPI.md): each clickable action carries
``data-action`` (``[aria-disabled="false"]`` when it can be played now),
``[data-testid=status]``
says whose turn it is or the result, ``[data-testid=position]`` holds the position. What
the server holds is read through ``GET /api/games/{id}``. Opponents that are not the
browser under test play through the WebSocket protocol (docs/web-protocol.md).
"""

from __future__ import annotations

import contextlib
import json
import random
import time
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from websockets.sync.client import ClientConnection, connect

from support import waiting
from support.board_clicks import PLAYABLE, click_action
from support.web_fixtures import LiveServer, NewContext, StartServer

# Wraps the page's WebSocket so that a test can drop its connections (as a network
# failure would); `__dropAfterSend` closes a socket right after it sends an action.
SOCKET_HOOK = """
window.__sockets = [];
window.__dropAfterSend = false;
window.__refuseSockets = false;  // new sockets go nowhere (a refused connection)
const Native = window.WebSocket;
window.WebSocket = class extends Native {
  constructor(url, ...rest) {
    super(window.__refuseSockets ? "ws://127.0.0.1:9/" : url, ...rest);
    window.__sockets.push(this);
  }
  send(data) {
    super.send(data);
    if (window.__dropAfterSend && String(data).includes('"act"')) {
      window.__dropAfterSend = false;
      this.close();
    }
  }
};
"""


@pytest.fixture
def live_server(shared_server: LiveServer) -> LiveServer:
    """One server for the module: each test makes its own games and reads only them; the
    tests that stop or kill a server start their own (``start_server``)."""
    return shared_server


def wait_until(check: Callable[[], Any], timeout: float = 10.0, what: str = "") -> Any:
    return waiting.wait_until(check, timeout=timeout, what=what or repr(check))


def create(server: LiveServer, **spec: Any) -> dict[str, Any]:
    response = server.api("POST", "/api/games", json=spec)
    assert response.status_code == 201, response.text
    return response.json()


def ann_and_ben(server: LiveServer, **spec: Any) -> dict[str, Any]:
    """A 2-player Express game between two people, Ann (orange, first) and Ben."""
    return create(
        server,
        variant="express",
        players=2,
        first="o",
        seats=[{"name": "Ann", "kind": "human"}, {"name": "Ben", "kind": "human"}],
        **spec,
    )


def read(server: LiveServer, game_id: str) -> dict[str, Any]:
    response = server.api("GET", f"/api/games/{game_id}")
    assert response.status_code == 200, response.text
    return response.json()


def open_page(context: Any, url: str) -> Any:
    page = context.new_page()
    page.goto(url)
    page.wait_for_function(
        "() => document.querySelector('[data-testid=position]').textContent.trim() !== ''"
    )
    return page


def hold_seat(context: Any, join_url: str) -> None:
    """Opens a seat's link in `context` until the browser remembers the seat, then closes it.

    The page shows the game (over HTTP) before its socket's welcome confirms the seat;
    only the welcome stores the seat for the other pages of the browser.
    """
    page = open_page(context, join_url)
    token = parse_qs(urlsplit(join_url).query)["seat"][0]
    page.wait_for_function(
        "(token) => (localStorage.getItem('shiftago.games') || '').includes(token)", arg=token
    )
    page.close()


def hotseat(server: LiveServer, new_context: NewContext, variant: str) -> tuple[str, Any]:
    """A 2-player game, orange first, with both seats in one browser (people taking turns
    at one screen: the page plays for whoever is to act): its id and the page."""
    created = create(server, variant=variant, players=2, first="o")
    context = new_context()
    hold_seat(context, created["seats"][0]["join_url"])
    return created["id"], both_seats_here(open_page(context, created["seats"][1]["join_url"]))


def both_seats_here(page: Any) -> Any:
    """Answers the page's question about a link to a second seat: play both here."""
    page.click("[data-testid=another-seat-both]")
    return page


def position(page: Any) -> str:
    return page.text_content("[data-testid=position]").strip()


def status(page: Any) -> str:
    return page.text_content("[data-testid=status]").strip()


def shows(page: Any, expected: str) -> None:
    """Wait until the page shows the position ``expected``."""
    page.wait_for_function(
        "p => document.querySelector('[data-testid=position]').textContent.trim() === p",
        arg=expected,
    )


def moves(page: Any) -> list[str]:
    """The action list as the page shows it."""
    return page.eval_on_selector_all(
        "[data-testid=moves] .move", "nodes => nodes.map(n => n.textContent.trim())"
    )


def playable(page: Any) -> list[str]:
    return page.eval_on_selector_all(PLAYABLE, "nodes => nodes.map(n => n.dataset.action)")


def play(server: LiveServer, game_id: str, page: Any, action: str) -> dict[str, Any]:
    """Click ``action`` on ``page`` and wait until the server and the page have it."""
    before = read(server, game_id)
    click_action(page, action)
    after = wait_until(
        lambda: (g := read(server, game_id))["actions"][len(before["actions"]) :] and g,
        what=f"{action} to be played",
    )
    assert after["actions"][len(before["actions"])] == action
    shows(page, after["position"])
    return after


class Seat:
    """A seat played from Python over the game's WebSocket (docs/web-protocol.md)."""

    def __init__(self, ws: ClientConnection, token: str | None) -> None:
        self.ws = ws
        self.send({"type": "hello", "token": token, "seen": 0})
        self.receive("welcome")

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send(json.dumps(message))

    def receive(self, kind: str, timeout: float = 10.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            message = json.loads(self.ws.recv(timeout=max(0.01, deadline - time.monotonic())))
            if message["type"] == kind:
                return message

    def act(self, action: str, server: LiveServer, game_id: str) -> None:
        """Play ``action`` with the server's current count, and wait until it is stored."""
        version = read(server, game_id)["version"]
        self.send({"type": "act", "action": action, "seen": version})
        wait_until(lambda: read(server, game_id)["version"] > version, what=f"{action} by a socket")


OpenSeat = Callable[[LiveServer, str, str], Seat]


@pytest.fixture
def seat() -> Iterator[OpenSeat]:
    """``seat(server, join_url, game_id)``: a :class:`Seat`, closed after the test."""
    with contextlib.ExitStack() as stack:

        def open_seat(server: LiveServer, join_url: str, game_id: str) -> Seat:
            url = f"ws://127.0.0.1:{server.port}/ws/games/{game_id}"
            ws = stack.enter_context(connect(url, origin=server.url))
            return Seat(ws, join_url.split("seat=")[1])

        yield open_seat


def test_a_whole_game_against_the_computer(live_server: LiveServer, new_context: NewContext):
    created = create(
        live_server,
        variant="express",
        players=2,
        first="o",
        seats=[{"name": "Ann", "kind": "human"}, {"kind": "computer", "level": 1}],
    )
    game_id = created["id"]
    page = open_page(new_context(), created["seats"][0]["join_url"])
    page.wait_for_selector("[data-testid=connection][data-state=connected]")
    page.evaluate(LIVE_REGION_WRITES)
    chooser = random.Random(3)
    deadline = time.monotonic() + 60  # at most 22 actions each, the computer's 0.4 s apart
    while time.monotonic() < deadline:
        game = waiting.wait_until(
            lambda: read(live_server, game_id),
            lambda g: g["status"].startswith("over") or g["turn"] == "o",
            timeout=max(0.0, deadline - time.monotonic()),
        )
        if game["status"].startswith("over"):
            break
        shows(page, game["position"])
        page.wait_for_selector(PLAYABLE)
        assert set(playable(page)) == set(game["legal"])
        play(live_server, game_id, page, chooser.choice(playable(page)))
    game = read(live_server, game_id)
    assert game["status"].startswith("over"), game["status"]
    shows(page, game["position"])
    page.wait_for_function(
        "() => document.querySelector('[data-testid=status]').textContent.includes('Game over')"
    )
    assert playable(page) == []
    assert moves(page) == game["actions"]
    # a screen reader hears each change once: no live region is told the same words twice
    said = page.evaluate("() => window.__said")
    assert said["conn"] == [], said["conn"]  # connected all along: nothing to say
    for region in ("status", "event"):
        twice = [a for a, b in zip(said[region], said[region][1:], strict=False) if a == b]
        assert twice == [], (region, twice)
    assert said["status"].count(said["status"][-1]) == 1  # the result, said once


#: Records every text each live region of the game page is given, from now on.
LIVE_REGION_WRITES = """() => {
  window.__said = {};
  for (const id of ["conn", "status", "event"]) {
    const node = document.getElementById(id);
    window.__said[id] = [];
    new MutationObserver(() => window.__said[id].push(node.textContent))
      .observe(node, { childList: true, characterData: true, subtree: true });
  }
}"""


def test_an_online_game_between_two_browsers_with_a_spectator(
    live_server: LiveServer, new_context: NewContext
):
    created = ann_and_ben(live_server)
    game_id = created["id"]
    ann = open_page(new_context(), created["seats"][0]["join_url"])
    ben = open_page(new_context(), created["seats"][1]["join_url"])
    watcher = open_page(new_context(), created["watch_url"])
    pages = {"o": ann, "g": ben}
    script = ["L1", "L7", "L1", "L7", "L1", "L7", "L1", "L7", "L1"]
    for action in script:
        game = read(live_server, game_id)
        mover, other = pages[game["turn"]], pages["g" if game["turn"] == "o" else "o"]
        shows(mover, game["position"])
        assert playable(other) == []
        assert playable(watcher) == []
        game = play(live_server, game_id, mover, action)
        for page in (other, watcher):
            shows(page, game["position"])
    assert game["actions"] == script
    assert game["status"] == "over winner o"
    for page in (ann, ben, watcher):
        page.wait_for_function(
            "() => document.querySelector('[data-testid=status]').textContent.includes('Ann')"
            " && document.querySelector('[data-testid=status]').textContent.includes('wins')"
        )
        assert moves(page) == script
        assert playable(page) == []


def test_expert_a_line_is_scored_by_clicking_it(
    live_server: LiveServer, new_context: NewContext, seat: OpenSeat
):
    created = create(live_server, variant="expert", players=2, first="o")
    game_id = created["id"]
    page = open_page(new_context(), created["seats"][0]["join_url"])
    ben = seat(live_server, created["seats"][1]["join_url"], game_id)
    for _ in range(4):
        play(live_server, game_id, page, "L1")
        ben.act("L7", live_server, game_id)
    game = play(live_server, game_id, page, "L1")
    assert game["phase"] == "score"
    shows(page, game["position"])
    page.wait_for_selector('[data-action="xa1-e1"][aria-disabled="false"]', state="attached")
    assert playable(page) == ["xa1-e1"]
    # a1 holds the marble just pushed in and is in the line: it keeps the line's look
    # (with the last action's frame, the line read one marble shorter)
    look = """c => { const cell = document.querySelector(`rect.cell[data-cell=${c}]`);
                      const s = getComputedStyle(cell); return [s.stroke, s.strokeWidth]; }"""
    assert page.evaluate(look, "a1") == page.evaluate(look, "c1")
    assert "last" in (page.get_attribute("rect.cell[data-cell=a1]", "class") or "")
    game = play(live_server, game_id, page, "xa1-e1")
    assert game["scores"] == [2, 0]
    assert game["position"].split()[2].split("/")[-1] == "o3o2"  # both ends stay
    assert (game["turn"], game["phase"]) == ("o", "insert")  # and orange moves again
    page.wait_for_selector(f"{PLAYABLE}[data-action=L1]")
    assert page.text_content("[data-testid=score-o]").strip() == "2"
    # the status says why it is orange's turn again
    assert page.text_content("#status").strip().startswith("You scored, ")
    assert page.text_content("#status").strip().endswith(": push a marble in again.")


def test_expert_with_three_players_the_end_marble_is_chosen(
    live_server: LiveServer, new_context: NewContext, seat: OpenSeat
):
    created = create(live_server, variant="expert", players=3, first="o")
    game_id = created["id"]
    page = open_page(new_context(), created["seats"][0]["join_url"])
    green = seat(live_server, created["seats"][1]["join_url"], game_id)
    blue = seat(live_server, created["seats"][2]["join_url"], game_id)
    for _ in range(3):
        play(live_server, game_id, page, "L1")
        green.act("L7", live_server, game_id)
        blue.act("L5", live_server, game_id)
    game = play(live_server, game_id, page, "L1")
    assert game["phase"] == "score"
    page.wait_for_selector(PLAYABLE)
    assert sorted(playable(page)) == ["xa1-d1", "xd1-a1"]
    game = play(live_server, game_id, page, "xd1-a1")  # keep d1
    assert game["position"].split()[2].split("/")[-1] == "3o3"
    assert game["scores"] == [2, 0, 0]


#: The board's one Tab stop: the playable element the keyboard was on last, else the
#: first (a roving tabindex; the arrow keys move between the others).
BOARD_STOP = '.shiftago-board [data-action][tabindex="0"]'


def arrow_to(page: Any, action: str, key: str, limit: int = 60) -> None:
    """Press the arrow ``key`` until the board's focus is on ``action``."""
    for _ in range(limit):
        if focused_action(page) == action:
            return
        page.keyboard.press(key)
    raise AssertionError(f"{key} never reached {action}")


def tab_to(page: Any, selector: str, limit: int = 120) -> None:
    """Press Tab until the focused element matches ``selector``."""
    for _ in range(limit):
        if page.evaluate("s => !!document.activeElement?.matches(s)", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def focused_action(page: Any) -> str | None:
    found: str | None = page.evaluate("() => document.activeElement?.dataset.action ?? null")
    return found


def test_a_whole_game_by_keyboard_only(live_server: LiveServer, new_context: NewContext):
    game_id, page = hotseat(live_server, new_context, "express")
    script = ["L1", "L7", "L1", "L7", "L1", "L7", "L1", "L7", "L1"]
    for n, action in enumerate(script):
        game = read(live_server, game_id)
        shows(page, game["position"])
        page.wait_for_selector(PLAYABLE)
        if n % 2 == 0:  # typed in notation
            tab_to(page, "[data-testid=action-input]:not([disabled])")
            page.keyboard.type(action.lower())
            page.keyboard.press("Enter")
        else:  # chosen among the arrows with the arrow keys, which go where they point
            # the board is one Tab stop: the first arrow, then the one chosen last
            tab_to(page, BOARD_STOP)
            assert focused_action(page) == ("L1" if n == 1 else "L7")
            while focused_action(page) != "L1":
                page.keyboard.press("ArrowDown")
            page.keyboard.press("ArrowUp")
            assert focused_action(page) == "L2"  # the arrow above
            page.keyboard.press("ArrowDown")
            assert focused_action(page) == "L1"
            for _ in range(6):
                page.keyboard.press("ArrowUp")
            assert focused_action(page) == action  # L7, six rows up
            page.keyboard.press("Enter")
        wait_until(lambda n=n: len(read(live_server, game_id)["actions"]) == n + 1, what=action)
        if n % 2 == 0 and n + 1 < len(script):  # typed and played: the focus stays there
            page.wait_for_function(f"() => window.shiftago.version === {n + 1}")
            focused = page.evaluate("() => document.activeElement.outerHTML.slice(0, 80)")
            assert 'id="action-input"' in focused, focused
    game = read(live_server, game_id)
    assert game["actions"] == script
    assert game["status"] == "over winner o"
    shows(page, game["position"])
    page.wait_for_function(
        "() => document.querySelector('[data-testid=status]').textContent.includes('wins')"
    )
    # both seats at this screen: one press of Rematch asks for both, and the game starts
    tab_to(page, "[data-testid=rematch]")
    page.keyboard.press("Enter")
    following = wait_until(lambda: read(live_server, game_id)["next"], what="the rematch")
    page.wait_for_url(f"**/play/{following}?seat=*")


@pytest.mark.parametrize("key", ["ArrowRight", "ArrowLeft", "ArrowDown", "ArrowUp"])
def test_one_arrow_key_held_down_visits_every_arrow(
    live_server: LiveServer, new_context: NewContext, key: str
):
    _, page = hotseat(live_server, new_context, "express")
    page.wait_for_selector(PLAYABLE)
    tab_to(page, '[data-action="L1"][aria-disabled="false"]')
    seen = []
    for _ in range(28):
        page.keyboard.press(key)
        seen.append(focused_action(page))
    assert sorted(seen) == sorted(playable(page)), " ".join(map(str, seen))  # each once
    page.keyboard.press(key)
    assert focused_action(page) == seen[0]


def test_copying_the_record_says_so_at_the_button(live_server: LiveServer, new_context: NewContext):
    created = create(live_server, variant="express", players=2, first="o")
    context = new_context(permissions=["clipboard-read", "clipboard-write"])
    page = open_page(context, created["seats"][0]["join_url"])
    play(live_server, created["id"], page, "L3")
    button = page.locator("#copy-record")
    button.click()
    page.wait_for_function("() => document.getElementById('copy-record').textContent === 'Copied'")
    copied = page.evaluate("() => navigator.clipboard.readText()")
    assert "1. L3" in copied
    page.wait_for_function(
        "() => document.getElementById('copy-record').textContent === 'Copy record'"
    )  # back after a moment
    assert button.inner_text() == "Copy record"


def test_after_a_scoring_by_keyboard_the_focus_stays_on_the_board(
    live_server: LiveServer, new_context: NewContext
):
    game_id, page = hotseat(live_server, new_context, "expert")
    # orange makes a row a1-e1 and a column a1-a5 at once with L1
    script = "Ta Tg Ta Tf Ta Tg Ta Ta Bb Ta Bc Tf Bd Tg Be Tf L1".split()  # noqa: SIM905
    for n, action in enumerate(script):
        page.fill("[data-testid=action-input]", action)
        page.keyboard.press("Enter")
        wait_until(lambda n=n: len(read(live_server, game_id)["actions"]) == n + 1, what=action)
    for scoring, then in (("xa1-e1", "Tg"), ("xa1-a5", None)):
        shows(page, read(live_server, game_id)["position"])
        tab_to(page, BOARD_STOP)
        arrow_to(page, scoring, "ArrowRight")
        page.keyboard.press("Space")
        wait_until(lambda s=scoring: read(live_server, game_id)["actions"][-1] == s, what=scoring)
        shows(page, read(live_server, game_id)["position"])
        # the next action is one key away: the focus is on a playable element of the board
        page.wait_for_function(
            "s => document.activeElement?.matches(s)", arg=f".shiftago-board {PLAYABLE}"
        )
        # placed there by the page, it previews nothing: no push shown that nobody chose
        assert page.evaluate(
            "() => !document.querySelector('.shiftago-board.previewing, [data-preview]')"
        )
        if then is not None:  # the column a1-a5 is still there, to score after Tg
            page.fill("[data-testid=action-input]", then)
            page.keyboard.press("Enter")
            wait_until(lambda t=then: read(live_server, game_id)["actions"][-1] == t, what=then)


def go_offline(context: Any, page: Any) -> None:
    """Take the page (with SOCKET_HOOK) offline once it has seen its sockets close.

    The sockets are closed while still online, so that their closing handshakes end at
    once (offline, a close waits for an answer that does not come, and the page shows
    "connected" meanwhile); the page's reconnections are refused until it is offline."""
    page.evaluate(
        "() => { window.__refuseSockets = true; window.__sockets.forEach(s => s.close()); }"
    )
    wait_until(lambda: not connected(page), what="the page to notice")
    context.set_offline(True)
    page.evaluate("() => { window.__refuseSockets = false; }")


def connected(page: Any) -> bool:
    return page.get_attribute("[data-testid=connection]", "data-state") == "connected"


def test_a_dropped_connection_loses_and_repeats_nothing(
    live_server: LiveServer, new_context: NewContext, seat: OpenSeat
):
    created = create(live_server, variant="express", players=2, first="o")
    game_id = created["id"]
    context = new_context()
    context.add_init_script(SOCKET_HOOK)
    page = open_page(context, created["seats"][0]["join_url"])
    ben = seat(live_server, created["seats"][1]["join_url"], game_id)
    play(live_server, game_id, page, "L1")
    ben.act("L7", live_server, game_id)

    # The socket closes right after the action went out: the action is not lost, and
    # the page learns of it when it has connected again.
    game = read(live_server, game_id)
    shows(page, game["position"])
    page.evaluate("() => { window.__dropAfterSend = true; }")
    click_action(page, "L2")
    game = wait_until(lambda: (g := read(live_server, game_id))["version"] == 3 and g, what="L2")
    shows(page, game["position"])
    wait_until(lambda: connected(page), what="the page to reconnect")

    # Offline: the other side plays meanwhile; a click while offline sends nothing.
    go_offline(context, page)
    ben.act("L6", live_server, game_id)
    page.click('[data-action="L3"]', force=True)
    time.sleep(0.8)  # what is checked: offline, in this while, nothing gets through
    assert not connected(page)  # offline, the page could not connect again
    assert read(live_server, game_id)["version"] == 4
    context.set_offline(False)
    game = read(live_server, game_id)
    shows(page, game["position"])  # the missed action arrived
    wait_until(lambda: connected(page), what="the page to reconnect")
    time.sleep(0.3)  # what is checked: the click made offline is not sent later
    assert read(live_server, game_id)["actions"] == ["L1", "L7", "L2", "L6"]

    # A resend with the old count is refused: nothing is played twice.
    game = play(live_server, game_id, page, "L3")
    page.evaluate(
        """() => window.__sockets.filter(s => s.readyState === 1).forEach(
            s => s.send(JSON.stringify({type: "act", action: "L4", seen: 4})))"""
    )
    time.sleep(0.3)  # what is checked: in this while the resend plays nothing
    game = read(live_server, game_id)
    assert game["actions"] == ["L1", "L7", "L2", "L6", "L3"]
    shows(page, game["position"])
    assert moves(page) == game["actions"]


def test_a_resignation_while_the_page_is_offline_is_shown_when_it_is_back(
    live_server: LiveServer, new_context: NewContext, seat: OpenSeat
):
    # a resignation changes no count of actions: the page must still learn of it
    created = ann_and_ben(live_server)
    game_id = created["id"]
    context = new_context()
    context.add_init_script(SOCKET_HOOK)
    page = open_page(context, created["seats"][0]["join_url"])
    wait_until(lambda: connected(page), what="the page to connect")
    go_offline(context, page)
    seat(live_server, created["seats"][1]["join_url"], game_id).send({"type": "resign"})
    wait_until(lambda: read(live_server, game_id)["status"] == "over winner o", what="Ben out")
    context.set_offline(False)
    page.wait_for_selector("[data-testid=result]", state="visible")
    assert status(page).startswith("Game over: Ann (orange) wins by resignation")


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_the_server_killed_and_restarted_mid_game(
    database: str,
    request: pytest.FixtureRequest,
    start_server: StartServer,
    new_context: NewContext,
):
    db_url = request.getfixturevalue("postgres_url") if database == "postgresql" else None
    live_server = start_server(db_url=db_url)
    created = create(live_server, variant="express", players=2, first="o")
    game_id = created["id"]
    ann = open_page(new_context(), created["seats"][0]["join_url"])
    ben = open_page(new_context(), created["seats"][1]["join_url"])
    play(live_server, game_id, ann, "L1")
    play(live_server, game_id, ben, "L7")
    live_server.kill()
    wait_until(lambda: not connected(ann), what="the page to notice")
    # Ann's own seat is not "connected" while her socket is down; what the server last
    # said of Ben is not known now, so his seat says nothing
    assert ann.get_by_test_id("presence-o").text_content() == "reconnecting…"
    assert ann.get_by_test_id("presence-g").count() == 0
    live_server.start()
    game = read(live_server, game_id)
    assert game["actions"] == ["L1", "L7"]
    wait_until(lambda: connected(ann) and connected(ben), timeout=15, what="reconnecting")
    play(live_server, game_id, ann, "L2")
    live_server.restart()  # a clean stop as well
    wait_until(lambda: connected(ann) and connected(ben), timeout=15, what="reconnecting")
    game = play(live_server, game_id, ben, "L6")
    assert game["actions"] == ["L1", "L7", "L2", "L6"]
    shows(ann, game["position"])
    assert moves(ann) == game["actions"]


def test_a_page_shown_again_reconnects_at_once(start_server: StartServer, new_context: NewContext):
    """A dropped socket waits before it tries again (up to 5 s); a page shown again
    tries at once. The page's clock is stopped once it is live, so no wait of its own
    can end: what reconnects it is the page shown again, and nothing before it."""
    server = start_server()
    created = create(server, variant="express", players=2, first="o")
    context = new_context()
    context.clock.install()
    page = open_page(context, created["seats"][0]["join_url"])
    wait_until(lambda: connected(page), what="the page to connect")
    page.clock.pause_at(page.evaluate("Date.now()") + 1)
    server.kill()
    wait_until(lambda: not connected(page), what="the page to notice")
    server.start()
    time.sleep(1.5)  # the server is back; a page whose clock stands still stays away
    assert not connected(page)
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    wait_until(lambda: connected(page), what="reconnecting at once")
    assert read(server, created["id"])["seats"][0]["connected"] is True
    play(server, created["id"], page, "L1")


def test_the_server_killed_while_the_computer_thinks(
    start_server: StartServer, new_context: NewContext
):
    # the computer waits long enough that the kill comes first on a busy machine too
    server = start_server(bot_delay=2.0)
    created = create(
        server,
        variant="express",
        players=2,
        first="o",
        seats=[{"name": "Ann", "kind": "human"}, {"kind": "computer", "level": 1}],
    )
    game_id = created["id"]
    page = open_page(new_context(), created["seats"][0]["join_url"])
    play(server, game_id, page, "L1")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=status]').textContent.includes('thinking')"
    )
    server.kill()
    server.start()
    assert read(server, game_id)["actions"] == ["L1"]
    # a fresh process: its first search loads the compiled engine, slow on a busy machine
    game = wait_until(
        lambda: (g := read(server, game_id))["version"] == 2 and g, timeout=30, what="computer"
    )
    shows(page, game["position"])
    page.wait_for_selector(PLAYABLE)
    game = play(server, game_id, page, "L2")
    assert game["actions"][::2] == ["L1", "L2"]
    assert len(game["actions"]) == 3


PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}


def test_on_a_touch_screen_a_tap_previews_and_a_second_tap_plays(
    live_server: LiveServer, new_context: NewContext, seat: OpenSeat
):
    created = ann_and_ben(live_server)
    game_id = created["id"]
    page = open_page(new_context(**PHONE), created["seats"][0]["join_url"])
    arrow = page.wait_for_selector('[data-action="L3"][aria-disabled="false"]')
    # before the first tap the board says how taps work (a newcomer's first one only
    # previewed, without a word before it)
    assert page.inner_text("[data-testid=tap-hint]") == (
        "Tap once to see what an action does, twice to play it."
    )
    box = arrow.bounding_box()
    assert box
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_selector('[data-preview="L3"]', state="attached")
    # the board says what the first tap did, and what the second does
    assert page.inner_text("[data-testid=tap-hint]") == "Tap L3 again to play it."
    time.sleep(0.3)  # what is checked: in this while the tap plays nothing
    assert read(live_server, game_id)["actions"] == []  # a first tap only previews
    # the other player comes: the page draws the same position again (presence), and
    # the first tap stays armed through it
    seat(live_server, created["seats"][1]["join_url"], game_id)
    page.wait_for_function(
        "() => document.querySelector('[data-testid=presence-g]')?.textContent === 'connected'"
    )
    page.wait_for_selector('[data-preview="L3"]', state="attached")
    assert page.is_visible("[data-testid=tap-hint]")  # through the redraw too
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    game = wait_until(lambda: (g := read(live_server, game_id))["actions"] and g, what="L3")
    assert game["actions"] == ["L3"]
    shows(page, game["position"])
    assert page.is_hidden("[data-testid=tap-hint]")


def test_on_a_phone_the_result_is_said_once_above_the_board(
    live_server: LiveServer, new_context: NewContext, seat: OpenSeat
):
    created = ann_and_ben(live_server)
    game_id = created["id"]
    page = open_page(new_context(**PHONE), created["seats"][0]["join_url"])
    seat(live_server, created["seats"][1]["join_url"], game_id).send({"type": "resign"})
    page.wait_for_selector("[data-testid=result]", state="visible")
    status = page.inner_text("[data-testid=status]")
    assert status.startswith("Game over: Ann") and "wins" in status, status
    assert page.is_visible("[data-testid=rematch]")
    # the status line right below says it: the card keeps only its offer, no heading
    # over nothing
    assert not page.is_visible("#result-text") and not page.is_visible("#result-title")
    wide = open_page(new_context(), created["seats"][0]["join_url"])
    wide.wait_for_selector("[data-testid=result]", state="visible")
    assert wide.is_visible("#result-text")  # beside the board, the card says it itself
    assert wide.is_visible("#result-title")


@pytest.mark.parametrize(
    ("players", "said"),
    [
        (2, "ann (orange) wins by resignation."),
        (3, "ann (orange) and Cat (blue) share the win by resignation."),
    ],
)
def test_the_result_card_keeps_names_as_written(
    live_server: LiveServer, new_context: NewContext, seat: OpenSeat, players: int, said: str
):
    names = ["ann", "Ben", "Cat"][:players]
    created = create(
        live_server,
        variant="express",
        players=players,
        first="o",
        seats=[{"name": name, "kind": "human"} for name in names],
    )
    game_id = created["id"]
    page = open_page(new_context(), created["seats"][0]["join_url"])
    seat(live_server, created["seats"][1]["join_url"], game_id).send({"type": "resign"})
    page.wait_for_selector("#result-text", state="visible")
    assert page.inner_text("#result-text") == said
    assert status(page) == f"Game over: {said}"


@pytest.mark.parametrize("path", ["/", "/how-to-play", "game"])
def test_phone_sized_pages_do_not_scroll_sideways(
    live_server: LiveServer, new_context: NewContext, path: str
):
    context = new_context(**PHONE)
    if path == "game":
        created = create(
            live_server,
            variant="expert",
            players=4,
            seats=[{"name": f"Player {n}", "kind": "human"} for n in range(4)],
        )
        page = open_page(context, created["seats"][0]["join_url"])
    else:
        page = context.new_page()
        page.goto(live_server.url + path)
        page.wait_for_load_state("networkidle")
    overflow = page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0, f"{path} scrolls sideways by {overflow}px at 390px wide"
    hidden = page.eval_on_selector_all(
        "[data-testid=menu] a",
        """nodes => nodes.filter(n => n.getBoundingClientRect().right > innerWidth + 0.5)
            .map(n => n.textContent.trim())""",
    )
    assert hidden == [], f"menu entries past the screen's edge on {path}: {hidden}"
    small = page.eval_on_selector_all(
        "button, .button, select",
        """nodes => nodes.filter(n => n.checkVisibility())
            .map(n => [n.textContent.trim() || n.id, n.getBoundingClientRect().height])
            .filter(([, height]) => height < 39.5)""",
    )
    assert small == [], f"{path}: buttons too small to tap: {small}"


def test_the_home_page_offers_the_variant_and_players_chosen_last(
    live_server: LiveServer, new_context: NewContext
):
    page = new_context().new_page()
    page.goto(live_server.url + "/")
    assert page.is_checked("input[name=variant][value=express]")
    assert page.is_checked('input[name=players][value="2"]')
    page.check("input[name=variant][value=extreme]")
    page.check('input[name=players][value="4"]')
    page.reload()
    page.locator("[data-testid=seat-kind-3]").wait_for()  # four seats again
    assert page.is_checked("input[name=variant][value=extreme]")
    assert page.is_checked('input[name=players][value="4"]')


def test_a_seat_added_to_the_form_takes_the_second_seat_s_kind(
    live_server: LiveServer, new_context: NewContext
):
    """Three players added a seat played at this screen: a lone player against the
    computer then played two colours, unawares (a French walk by keyboard)."""
    page = new_context().new_page()
    page.goto(live_server.url + "/")
    page.check('input[name=players][value="3"]')
    assert page.input_value("[data-testid=seat-kind-2]") == "computer"
    page.select_option("[data-testid=seat-kind-1]", "friend")
    page.check('input[name=players][value="4"]')
    kinds = [page.input_value(f"[data-testid=seat-kind-{i}]") for i in range(4)]
    assert kinds == ["here", "friend", "computer", "friend"]


def test_a_game_with_a_friend_started_on_the_home_page(
    live_server: LiveServer, new_context: NewContext
):
    page = new_context().new_page()
    page.goto(live_server.url + "/")
    page.fill("[data-testid=seat-name-0]", "Ann")
    page.select_option("[data-testid=seat-kind-1]", "friend")
    page.fill("[data-testid=seat-name-1]", "Ben")
    page.select_option("#first", "o")
    page.click("[data-testid=start-game]")
    page.wait_for_selector("#invites:not([hidden])")
    assert page.inner_text("#invite-list .invite-name") == "Ben (green)"
    link = page.input_value("[data-testid=invite-g]")
    game_id = urlsplit(link).path.rsplit("/", 1)[1]
    # "My games" lists it at once, not only at the next visit
    page.wait_for_selector(f'#mine-playing [data-game="{game_id}"]')
    assert page.is_hidden("#mine-empty")
    page.click("#go-game")
    page.wait_for_selector(PLAYABLE)  # Ann, at this screen, moves first
    ben = open_page(new_context(), link)
    seats = read(live_server, game_id)["seats"]
    assert [s["name"] for s in seats] == ["Ann", "Ben"]
    play(live_server, game_id, page, "L4")
    ben.wait_for_selector(PLAYABLE)  # now Ben's turn, on his link
    play(live_server, game_id, ben, "R4")
    assert read(live_server, game_id)["actions"] == ["L4", "R4"]

    # Ann opens Ben's link in her own browser (to check it): asked, not added quietly
    mine = page.context.new_page()
    mine.goto(link)
    mine.wait_for_selector("[data-testid=another-seat]:not([hidden])")
    words = mine.inner_text("#another-seat-text")
    assert "already plays orange" in words and "this link is for green" in words, words
    mine.click("[data-testid=another-seat-keep]")
    assert "seat=" not in mine.url
    # the question's box is gone and the keyboard's place with it: it goes on to the
    # status line (the game is not there yet), not back to the page's start
    assert mine.evaluate("() => document.activeElement.id") == "status"
    mine.wait_for_selector(PLAYABLE)  # her own turn: she plays orange here, green is Ben's
    stored = mine.evaluate("JSON.parse(localStorage.getItem('shiftago.games'))")
    assert list(stored[game_id]["tokens"]) == ["o"]
    assert not mine.is_visible("[data-testid=takeback]")  # not every seat: no take-back
    play(live_server, game_id, mine, "L5")
    ben.wait_for_selector(PLAYABLE)


#: Records every text the notice line shows, from the page's start (an init script, as
#: the first notice may come before a test could evaluate LIVE_REGION_WRITES).
RECORD_NOTICES = """
window.noticesShown = [];
document.addEventListener("DOMContentLoaded", () => {
  const line = document.getElementById("notice");
  new MutationObserver(() => {
    if (!line.hidden && line.textContent) window.noticesShown.push(line.textContent);
  }).observe(line, { childList: true, characterData: true, subtree: true, attributes: true });
});
"""


def test_a_wrong_seat_link_says_what_the_browser_does_instead(
    live_server: LiveServer, new_context: NewContext
):
    created = ann_and_ben(live_server)
    wrong = f"{live_server.url}/play/{created['id']}?seat=not-a-seat-token"
    stranger = new_context().new_page()
    stranger.add_init_script(RECORD_NOTICES)
    stranger.goto(wrong)
    said = stranger.wait_for_selector("#notice:not([hidden])").text_content() or ""
    assert said.endswith("not valid for this game; you are watching.")
    # one notice, not the server's refusal first and then the page's own words
    assert stranger.evaluate("window.noticesShown") == [said]
    assert playable(stranger) == []
    ann = new_context()
    hold_seat(ann, created["seats"][0]["join_url"])
    page = ann.new_page()
    page.goto(wrong)
    said = page.wait_for_selector("#notice:not([hidden])").text_content() or ""
    assert said.endswith("you play the seats this browser already holds.")
    page.wait_for_selector(PLAYABLE)  # Ann's seat, to act


def refused_q9(live_server: LiveServer, new_context: NewContext) -> tuple[dict[str, Any], Any]:
    """Ann and Ben's game, and Ann's page showing the refusal of a typed "Q9"."""
    created = ann_and_ben(live_server)
    page = open_page(new_context(), created["seats"][0]["join_url"])
    page.wait_for_selector(PLAYABLE)
    page.fill("[data-testid=action-input]", "Q9")
    page.press("[data-testid=action-input]", "Enter")
    notice = page.wait_for_selector("#notice.error:not([hidden])")
    assert "'Q9' is not an action" in (notice.text_content() or "")
    return created, page


def test_an_error_notice_goes_when_the_game_moves_on(
    live_server: LiveServer, new_context: NewContext
):
    created, page = refused_q9(live_server, new_context)
    game_id = created["id"]
    # Enter on the empty box says what to type, in place of the last error
    page.press("[data-testid=action-input]", "Enter")
    page.wait_for_function(
        "() => document.getElementById('notice').textContent.startsWith('Type an action first')"
    )
    play(live_server, game_id, page, "L4")
    page.wait_for_selector("#notice", state="hidden", timeout=2000)  # not its own 6 s


def test_an_error_notice_goes_when_the_game_ends_without_an_action(
    live_server: LiveServer, new_context: NewContext, seat: OpenSeat
):
    """An Italian walk's error notice stayed on a game ended by a resignation, which
    plays no action."""
    created, page = refused_q9(live_server, new_context)
    game_id = created["id"]
    seat(live_server, created["seats"][1]["join_url"], game_id).send({"type": "resign"})
    wait_until(lambda: read(live_server, game_id)["result"], what="the resignation")
    page.wait_for_selector("#notice", state="hidden", timeout=2000)  # not its own 6 s


def test_while_an_action_is_on_its_way_the_status_does_not_call_the_player_to_play(
    live_server: LiveServer, new_context: NewContext
):
    """A blind player's walk heard "Orange to play." after each of their own actions:
    the page waited for the server's answer. The server's answers are held back here
    until the status is read."""
    created = ann_and_ben(live_server)
    page = new_context().new_page()
    held: list[Any] = []
    holding = [False]
    page_socket: list[Any] = []

    def relay(ws: Any) -> None:
        server = ws.connect_to_server()
        page_socket[:] = [ws]

        def to_page(message: Any) -> None:
            (held.append(message) if holding[0] else ws.send(message))

        def to_server(message: Any) -> None:
            if '"act"' in str(message):
                holding[0] = True
            server.send(message)

        server.on_message(to_page)
        ws.on_message(to_server)

    page.route_web_socket("**/ws/games/**", relay)
    page.goto(created["seats"][0]["join_url"])
    page.wait_for_selector(PLAYABLE)
    page.fill("[data-testid=action-input]", "L4")
    page.press("[data-testid=action-input]", "Enter")
    page.wait_for_function(
        "() => document.getElementById('status').textContent === 'Playing L4\u2026'"
    )
    # the answers held meanwhile reach the page, which goes on to Ben's turn
    for _ in range(100):  # Playwright's events come in only while it is called
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "the server did not answer"
    holding[0] = False
    for message in held:
        page_socket[0].send(message)
    page.wait_for_function(
        "() => document.getElementById('status').textContent === 'Ben (green) to play.'"
    )


def test_on_a_phone_a_player_page_fits_and_its_plot_is_readable(
    live_server: LiveServer, new_context: NewContext
):
    # the player's answers as the API gives them after a few rated games (routed, so
    # that the test needs no rated games)
    player = {
        "name": "ben2594",
        "ratings": {"express-2": {"rating": 1338.2, "deviation": 290.1, "games": 3}},
    }
    games = [
        {
            "id": f"game{n:07d}",
            "watch_url": f"/watch/game{n:07d}",
            "created": "2026-11-29T08:00:00+00:00",
            "category": "express-2",
            "rated": True,
            "opponents": ["ann2594"],
            "outcome": "loss",
            "finished": True,
            "rating_before": 1500.0,
            "rating_after": 1338.2,
        }
        for n in range(3)
    ]
    history = [
        {"game": f"game{n:07d}", "before": 1500.0 - 60 * n, "rating": 1440.0 - 60 * n,
         "deviation": 300.0 - 5 * n}
        for n in range(3)
    ]  # fmt: skip
    page = new_context(**PHONE).new_page()
    base = "**/api/players/ben2594"
    page.route(base, lambda route: route.fulfill(json=player))
    page.route(base + "/games*", lambda route: route.fulfill(json={"games": games}))
    page.route(base + "/history*", lambda route: route.fulfill(json={"history": history}))
    page.goto(live_server.url + "/players/ben2594")
    page.wait_for_selector("[data-testid=games] tbody tr")
    page.wait_for_selector("[data-testid=history-plot] circle", state="attached")
    overflow = page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0, f"the player page scrolls sideways by {overflow}px at 390px wide"
    # every column of the recent games in sight, the rating's change last: it was out of
    # sight in a table that scrolled with no sign of it (a French walk), in French too
    for locale in ("fr", "en"):
        page.goto(f"{live_server.url}/players/ben2594?lang={locale}")
        page.wait_for_selector("[data-testid=games] tbody tr")
        rights = page.eval_on_selector_all(
            "[data-testid=games] tbody tr:first-child td",
            "cells => cells.map(c => c.getBoundingClientRect().right)",
        )
        assert len(rights) == 5 and max(rights) <= 390, (locale, rights)
        change = page.inner_text("[data-testid=games] tbody tr td:last-child")
        assert change.endswith("(\u2212162)")  # the minus sign, as the game page writes it
    label_heights = page.eval_on_selector_all(
        "[data-testid=history-plot] text",
        "nodes => nodes.map(n => n.getBBox().height * n.ownerSVGElement.getScreenCTM().a)",
    )
    assert label_heights and min(label_heights) >= 10, label_heights


def test_express_tournament_shows_the_score_between_games(
    live_server: LiveServer, new_context: NewContext, seat: OpenSeat
):
    created = ann_and_ben(live_server, tournament=True)
    game_id = created["id"]
    page = open_page(new_context(), created["seats"][0]["join_url"])
    # before anybody has won: the heading and the score, nothing else (no stray "null")
    page.wait_for_selector("#tournament:not([hidden]) [data-testid=tournament-score]")
    lines = [line for line in page.inner_text("#tournament").split("\n") if line]
    assert lines == ["Tournament to 10 wins", "Ann 0 · Ben 0"]
    ben = seat(live_server, created["seats"][1]["join_url"], game_id)
    for _ in range(4):  # orange builds a1-e1 while green plays on rank 7
        play(live_server, game_id, page, "L1")
        ben.act("L7", live_server, game_id)
    play(live_server, game_id, page, "L1")
    assert read(live_server, game_id)["status"] == "over winner o"
    score = page.wait_for_selector("[data-testid=tournament-score]")
    wait_until(lambda: "Ann 1" in score.text_content() and "Ben 0" in score.text_content())
    # the result card says the score too, beside its "Next game"
    assert page.text_content("[data-testid=result-tournament]") == "Tournament score: Ann 1 · Ben 0"
    # one player's ask is not a game: the page waits for the other
    ben_page = open_page(new_context(), created["seats"][1]["join_url"])
    page.click("#next-game")
    page.wait_for_selector("#next-game:disabled")
    assert page.inner_text("#next-game") == "Next game asked"
    note = page.locator("[data-testid=rematch-note]")
    waiting = "Waiting for Ben (green) to agree to the next game."
    wait_until(lambda: note.text_content() == waiting, what=waiting)
    ben_note = ben_page.locator("[data-testid=rematch-note]")
    asking = "Ann (orange) asks for the next game."
    wait_until(lambda: ben_note.text_content() == asking, what=asking)
    assert ben_page.inner_text("#next-game") == "Accept the next game"
    assert read(live_server, game_id)["next"] is None
    ben_page.click("#next-game")
    following = wait_until(lambda: read(live_server, game_id)["next"], what="the next game")
    for shown in (page, ben_page):  # both pages move on to it
        shown.wait_for_url(f"**/play/{following}?seat=*")
    nxt = read(live_server, following)
    assert nxt["tournament"]["wins"] == [1, 0]
    assert nxt["status"] == "playing g insert"  # the player after the winner starts


def test_on_a_phone_news_and_turns_do_not_move_the_board(
    live_server: LiveServer, new_context: NewContext, seat: OpenSeat
):
    """A phone walk saw the board jump 23 to 91 px as the scoring news above it came and
    went and the status changed length: a finger about to tap an arrow lands on another
    lane. The news line comes under the board there, and the status keeps two lines; a
    resignation leaves no scoring news behind it."""
    created = create(live_server, variant="expert", players=2, first="o")
    game_id = created["id"]
    page = open_page(new_context(**PHONE), created["seats"][0]["join_url"])
    ben = seat(live_server, created["seats"][1]["join_url"], game_id)
    board_top = "() => document.querySelector('#board svg').getBoundingClientRect().top"
    tops = {page.evaluate(board_top)}
    for _ in range(4):
        play(live_server, game_id, page, "L1")
        tops.add(page.evaluate(board_top))
        ben.act("L7", live_server, game_id)
        page.wait_for_selector(f"{PLAYABLE}[data-action=L1]")
        tops.add(page.evaluate(board_top))
    play(live_server, game_id, page, "L1")
    tops.add(page.evaluate(board_top))
    play(live_server, game_id, page, "xa1-e1")
    page.wait_for_selector("[data-testid=event]:not(.idle)")
    tops.add(page.evaluate(board_top))
    news = page.locator("[data-testid=event]").bounding_box()
    board = page.locator("#board svg").bounding_box()
    assert news and board and news["y"] >= board["y"] + board["height"]  # under the board
    assert len(tops) == 1, f"the board moved: its top at {sorted(tops)}"
    # green resigns: the scoring is no news of the end, which the status says (a walk
    # read the last scoring under "Game over")
    ben.send({"type": "resign"})
    page.wait_for_function(
        "() => document.querySelector('[data-testid=status]').textContent.includes('resignation')"
    )
    assert page.locator("[data-testid=event]").is_hidden()
