"""Timed games in Chromium: each player's clock in their card, the line that says what
the clocks wait for, ticking for the seat to act once the first actions (free) are
made, red when low, and the flag falling on the server's clock (moved by an offset
file, never by sleeping) while the page looks on. The tests that move the clock start a
server of their own; the others share the module's."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from test_web_e2e import PHONE, create, open_page, play, read, wait_until

from support.web_fixtures import LiveServer, StartServer


def seconds(page: Any, colour: str) -> float:
    return float(page.get_attribute(f"[data-testid=clock-{colour}]", "data-seconds") or "nan")


def wait_line(page: Any) -> str:
    return page.text_content("[data-testid=clock-wait]") or ""


def test_the_clocks_tick_and_the_flag_falls_on_the_page(
    start_server: StartServer, new_context: Any, tmp_path: Path
):
    offset = tmp_path / "offset"
    offset.write_text("0")
    server = start_server(args=["--time-offset-file", str(offset)])
    created = create(
        server, variant="express", players=2, first="o", clock={"initial": 60, "increment": 1}
    )
    game_id = created["id"]
    page = open_page(new_context(), created["seats"][0]["join_url"])
    ben = open_page(new_context(), created["seats"][1]["join_url"])
    # both came: o's first action is due, free of time, and the page says so
    page.wait_for_function(
        "() => (document.querySelector('[data-testid=clock-wait]') || {}).textContent"
        "?.includes('The clock starts after your first action.')"
    )
    assert "or the game is aborted" in wait_line(page)
    assert page.text_content("[data-testid=clock-o]").strip() == "1:00"
    assert "1+1" in page.text_content("#game-title")
    play(server, game_id, page, "L1")
    started = time.monotonic()  # before g's first action: o's clock runs from it
    play(server, game_id, ben, "L7")
    page.wait_for_selector("[data-testid=clock-o].running")
    page.wait_for_selector("[data-testid=clock-wait]", state="hidden")
    assert page.text_content("[data-testid=clock-g]").strip() == "1:00"
    # o's clock counts down on the page
    page.wait_for_function(
        "() => Number(document.querySelector('[data-testid=clock-o]').dataset.seconds) < 59.5"
    )
    offset.write_text("45")  # 45 s pass on the server
    play(server, game_id, page, "L2")
    page.wait_for_selector("[data-testid=clock-g].running")
    game = read(server, game_id)
    took = time.monotonic() - started
    o_left = game["clock"]["remaining"][0]
    assert 16 - took <= o_left <= 16  # 60 - 45 - the real time taken, + 1 increment
    assert abs(seconds(page, "o") - o_left) < 0.6
    # g's turn: 61 s pass and nobody acts; the server's sweep ends the game on time
    offset.write_text("106")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=status]').textContent.includes('on time')"
    )
    game = wait_until(lambda: (g := read(server, game_id))["result"] and g, what="the flag")
    assert game["result"]["reason"] == "time" and game["result"]["by"] == ["g"]
    assert game["status"] == "over winner o"
    assert page.get_attribute("[data-testid=clock-g]", "class") is not None
    assert seconds(page, "g") == 0


def test_a_low_clock_turns_red(start_server: StartServer, new_context: Any, tmp_path: Path):
    offset = tmp_path / "offset"
    offset.write_text("0")
    server = start_server(args=["--time-offset-file", str(offset)])
    created = create(server, players=2, first="g", clock={"initial": 60, "increment": 0})
    page = open_page(new_context(), created["seats"][0]["join_url"])
    ben = open_page(new_context(), created["seats"][1]["join_url"])
    play(server, created["id"], ben, "L7")  # the first actions are free
    play(server, created["id"], page, "L1")
    page.wait_for_selector("[data-testid=clock-g].running")
    assert "low" not in (page.get_attribute("[data-testid=clock-g]", "class") or "")
    offset.write_text("50")
    page.reload()  # the page reads the game again: 10 s left
    page.wait_for_selector("[data-testid=clock-g].running.low")
    # a second game whose first action never comes: the page says the clock aborted
    # it, and does not say that the seat chose to
    waited = create(server, players=2, first="o", clock={"initial": 60, "increment": 0})
    ann = open_page(new_context(), waited["seats"][0]["join_url"])
    open_page(new_context(), waited["seats"][1]["join_url"])
    ann.wait_for_function(
        "() => (document.querySelector('[data-testid=clock-wait]') || {}).textContent"
        "?.includes('The clock starts after your first action.')"
    )
    offset.write_text("112")  # 62 s more
    ann.wait_for_function(
        "() => document.querySelector('[data-testid=status]').textContent"
        ".includes('did not come or act in time')"
    )
    assert "aborted by" not in (ann.text_content("[data-testid=status]") or "")
    assert read(server, waited["id"])["result"]["waited"] is True


def test_a_timed_game_against_the_computer_from_the_home_page(
    shared_server: LiveServer, new_context: Any
):
    server = shared_server
    page = new_context().new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("[data-testid=seat-level-1]")
    page.select_option("[data-testid=seat-level-1]", "1")
    page.select_option("#first", "g")  # the computer starts, under its clock
    page.select_option("[data-testid=game-clock]", "3+2")
    page.click("[data-testid=start-game]")
    page.wait_for_url("**/play/**")
    game_id = page.url.split("/play/")[1].split("?")[0]
    game = wait_until(lambda: (g := read(server, game_id))["actions"] and g, what="its action")
    assert game["clock"]["control"] == "3+2" and game["clock"]["running"] is None
    assert game["clock"]["remaining"] == [180, 180]  # its first action was free
    page.wait_for_function(
        "() => (document.querySelector('[data-testid=clock-wait]') || {}).textContent"
        "?.includes('The clock starts after your first action.')"
    )
    assert "3+2" in page.text_content("#game-title")
    # the line counts the seconds down, out of the live regions: a screen reader hears
    # the hidden live line, which says the words once (it was read again each second)
    shown = wait_line(page)
    said = page.text_content("#clock-wait-said")
    assert said and "The clock starts after your first action." in said
    page.wait_for_function(
        "shown => document.querySelector('[data-testid=clock-wait]').textContent !== shown",
        arg=shown,
    )
    assert page.text_content("#clock-wait-said") == said
    assert page.eval_on_selector(
        "[data-testid=clock-wait]", "e => !e.closest('[role=status], [aria-live]')"
    )


def test_a_custom_clock_of_seconds_from_the_home_page(shared_server: LiveServer, new_context: Any):
    server = shared_server
    page = new_context().new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("[data-testid=seat-level-1]")
    page.select_option("[data-testid=game-clock]", "custom")
    page.fill("#game-minutes", "0")
    page.fill("#game-seconds", "5")
    page.click("[data-testid=start-game]")
    page.locator("#form-error").wait_for()
    assert "10 seconds to 3 hours" in page.inner_text("#form-error")
    assert "/play/" not in page.url  # nothing was made
    page.fill("#game-seconds", "45")
    page.fill("#game-increment", "2")
    page.click("[data-testid=start-game]")
    page.wait_for_url("**/play/**")
    game_id = page.url.split("/play/")[1].split("?")[0]
    game = read(server, game_id)
    clock = game["clock"]
    assert (clock["initial"], clock["increment"], clock["control"]) == (45, 2, "0:45+2")
    # no level was ever chosen in this browser: the computer plays gently (welcome.js)
    assert game["seats"][1].get("level") == 2, game["seats"][1]
    title = "() => document.getElementById('game-title').textContent"
    page.wait_for_function(f"() => ({title})().includes('0:45+2')")


def test_on_a_phone_the_clocks_are_above_the_board_too(shared_server: LiveServer, new_context: Any):
    """On a phone, and on a tablet upright (the players' cards are below the board there,
    a screen away from it), the clocks are above the board too."""
    server = shared_server
    created = create(
        server, variant="express", players=2, first="o", clock={"initial": 180, "increment": 2}
    )
    tablet = {"viewport": {"width": 768, "height": 1024}, "has_touch": True, "is_mobile": True}
    for device in (tablet, PHONE):
        phone = open_page(new_context(**device), created["seats"][0]["join_url"])
        strip = phone.locator("[data-testid=clock-strip]")
        strip.wait_for()
        above = phone.evaluate(
            "() => document.querySelector('[data-testid=clock-strip]').getBoundingClientRect()"
            ".bottom <= document.getElementById('board').getBoundingClientRect().top"
        )
        assert above, device
    phone.wait_for_function(
        "() => document.querySelector('[data-testid=clock-strip] [data-clock=o]')"
        "?.textContent === '3:00'"
    )
    assert strip.locator("[data-clock=g]").inner_text() == "3:00"
    assert phone.text_content("[data-testid=clock-g]") == "3:00"  # the card's, the same
    desk = open_page(new_context(), created["seats"][0]["join_url"])
    desk.wait_for_function(
        "() => document.querySelector('[data-testid=clock-o]')?.textContent === '3:00'"
    )
    assert desk.locator("[data-testid=clock-strip]").is_hidden()  # beside the board there


@pytest.mark.parametrize(
    "viewport", [{"width": 1024, "height": 768}, {"width": 1366, "height": 768}], ids=str
)
def test_the_line_the_clocks_wait_for_leaves_the_board_in_the_window(
    shared_server: LiveServer, new_context: Any, viewport: dict[str, int]
):
    """Above the board, the line of what the clocks wait for (and the news line) pushed
    its bottom to 837 px of a landscape tablet's 768, the row of files and the lines to
    score out of sight (a tablet walk); they come under it now, on a laptop too."""
    created = create(
        shared_server,
        variant="expert",
        players=3,
        first="o",
        clock={"initial": 300, "increment": 3},
    )
    page = open_page(new_context(viewport=viewport), created["seats"][0]["join_url"])
    page.wait_for_selector("[data-testid=clock-wait]:not([hidden])")
    board = page.locator("#board svg").bounding_box()
    wait = page.locator("[data-testid=clock-wait]").bounding_box()
    assert board and wait and board["y"] + board["height"] <= viewport["height"]
    assert wait["y"] >= board["y"] + board["height"]
