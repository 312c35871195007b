"""End to end (issue 49): a game shared as a picture, and played on from a position.

"Play from here" on the analysis board starts a game against the computer from the
position shown, and on a finished game's replay a game with a friend by link; the Share
card's picture links fetch a valid PNG (of the step shown) and GIF (of the game).
"""

from __future__ import annotations

import io
import re
import urllib.parse
from typing import Any

import pytest
from PIL import Image
from test_web_e2e import open_page, read, shows

from shiftago.core import Game, Rules
from shiftago.formats.record import Record, format_record
from support.web_fixtures import LiveServer, NewContext

#: An Express game in its middle, green to insert.
MIDDLE = "express 2 7/7/7/7/o6/7/7 g insert 21,22 0,0 0,0"
#: A short Express game orange wins with five in a row on rank 1.
WON = ["L1", "L7", "L1", "L7", "L1", "L7", "L1", "L7", "L1"]


@pytest.fixture
def live_server(shared_server: LiveServer) -> LiveServer:
    """One server for the module: each test imports or starts its own games and reads only
    them."""
    return shared_server


def finished_game(server: LiveServer) -> tuple[dict[str, Any], Game]:
    game = Game(Rules(), first="o")
    for action in WON:
        game.play(action)
    text = format_record(Record.from_game(game))
    response = server.api("POST", "/api/games/import", json={"record": text})
    assert response.status_code == 201, response.text
    return response.json(), game


def start_from_here(page: Any, opponent: str, colour: str) -> str:
    """Open the card, choose, start; the id of the game the page then opens."""
    page.click("[data-testid=play-from] summary")
    page.check(f"[data-testid=play-from-{opponent}]")
    option = f"[data-testid=play-from-colour] option[value={colour}]"
    page.wait_for_selector(option, state="attached")
    page.select_option("[data-testid=play-from-colour]", colour)
    if opponent == "computer":
        page.wait_for_selector("[data-testid=play-from-level] option[value='1']", state="attached")
        page.select_option("[data-testid=play-from-level]", "1")
    page.click("[data-testid=play-from-start]")
    page.wait_for_url(re.compile(r"/play/[^/?]+\?seat="))
    return urllib.parse.urlparse(page.url).path.rsplit("/", 1)[-1]


def test_play_from_the_analysis_board_against_the_computer(
    live_server: LiveServer, new_context: NewContext
) -> None:
    page = new_context().new_page()
    page.goto(live_server.url + "/analysis?position=" + urllib.parse.quote(MIDDLE))
    shows(page, MIDDLE)
    game_id = start_from_here(page, "computer", "g")
    game = read(live_server, game_id)
    assert game["position"] == MIDDLE and game["actions"] == []
    assert [(s["colour"], s["kind"]) for s in game["seats"]] == [
        ("o", "computer"),
        ("g", "human"),
    ]
    assert game["seats"][0]["level"] == 1
    # the page opened the player's seat: green to act, at the analysis board's position
    shows(page, MIDDLE)
    page.wait_for_function("() => document.body.classList.contains('my-turn')")


def test_a_bad_position_on_the_analysis_board_is_told(
    live_server: LiveServer, new_context: NewContext
) -> None:
    """A position that is over cannot be played on: the card says why, nothing opens."""
    over = "express 2 gggg3/7/7/7/7/7/o3o2 o insert 0,18 0,0 0,0"
    page = new_context().new_page()
    page.goto(live_server.url + "/analysis?position=" + urllib.parse.quote(over))
    page.wait_for_function(
        "() => document.querySelector('[data-testid=position]').textContent.trim() !== ''"
    )
    page.click("[data-testid=play-from] summary")
    page.click("[data-testid=play-from-start]")
    page.wait_for_selector("[data-testid=play-from-error]:not([hidden])")
    assert "over" in page.text_content("[data-testid=play-from-error]")
    assert "/analysis" in page.url


def test_play_from_a_replay_step_with_a_friend(
    live_server: LiveServer, new_context: NewContext
) -> None:
    created, game = finished_game(live_server)
    page = open_page(new_context(), f"{live_server.url}/watch/{created['id']}?step=4")
    shows(page, game.states[4].position())
    game_id = start_from_here(page, "friend", "o")
    new = read(live_server, game_id)
    assert new["position"] == game.states[4].position()
    assert [s["kind"] for s in new["seats"]] == ["human", "human"]
    # the friend's link is offered in the new game's Share card
    link = page.wait_for_selector("[data-testid=share-seat-g]")
    assert f"/play/{game_id}?seat=" in (link.get_attribute("value") or "")


def test_the_share_links_fetch_a_png_and_a_gif(
    live_server: LiveServer, new_context: NewContext
) -> None:
    created, game = finished_game(live_server)
    page = open_page(new_context(), f"{live_server.url}/watch/{created['id']}?step=3")
    shows(page, game.states[3].position())
    png_link = page.wait_for_selector("[data-testid=share-png]")
    href = png_link.get_attribute("href") or ""
    assert href.endswith(".png?step=3")
    png = page.request.get(live_server.url + href)
    assert png.status == 200 and png.headers["content-type"] == "image/png"
    with Image.open(io.BytesIO(png.body())) as picture:
        assert picture.format == "PNG" and picture.size == (420, 420)
    gif_href = page.get_attribute("[data-testid=share-gif]", "href") or ""
    gif = page.request.get(live_server.url + gif_href)
    assert gif.status == 200 and gif.headers["content-type"] == "image/gif"
    with Image.open(io.BytesIO(gif.body())) as animation:
        assert animation.n_frames == len(WON) + 1
    # the play-from card is there once the game is over
    assert page.is_visible("[data-testid=play-from]")
