"""A rated timed game in Chromium, as two players would have it (issue 17): two
accounts, a rated 3+2 challenge opened in the lobby and accepted from another browser,
an action each, then the player to act lets the clock run out (the server's time moved by
an offset file, never by sleeping); both ratings change by exactly Glicko-2's amounts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from test_web_e2e import play, read, wait_until
from test_web_lobby_e2e import meet_in_a_rated_challenge, seat_of

from shiftago.match.glicko2 import Glicko, rate_game
from support.web_fixtures import LiveServer, NewContext, StartServer


def signed_up(new_context: NewContext, server: LiveServer, name: str) -> Any:
    """A browser context signed in to a new account (its cookies set by the API)."""
    context = new_context()
    answer = context.request.post(
        server.url + "/api/accounts", data={"name": name, "password": "correct horse"}
    )
    assert answer.status == 201, answer.text()
    return context


def in_context(context: Any, server: LiveServer) -> Any:
    page = context.new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#lobby[data-live=true]")
    return page


def colour_of(page: Any, game_id: str) -> str:
    """The colour of the seat a page holds (the browser remembers its secret by colour)."""
    _, secret = seat_of(page)
    tokens = page.evaluate(
        "(id) => JSON.parse(localStorage.getItem('shiftago.games') || '{}')[id].tokens", game_id
    )
    return next(colour for colour, token in tokens.items() if token == secret)


def test_a_rated_blitz_game_lost_on_time_rates_both_players(
    start_server: StartServer, new_context: NewContext, tmp_path: Path
):
    offset = tmp_path / "offset"
    offset.write_text("0")
    server = start_server(args=["--time-offset-file", str(offset)])
    ann = in_context(signed_up(new_context, server, "ann"), server)
    ben = in_context(signed_up(new_context, server, "ben"), server)

    ann.select_option("[data-testid=seek-time]", "3+2")
    game_id = meet_in_a_rated_challenge(ann, ben)
    game = read(server, game_id)
    assert game["rated"] is True and game["clock"]["control"] == "3+2"
    pages = {colour_of(page, game_id): page for page in (ann, ben)}
    names = {s["colour"]: s["account"] for s in game["seats"]}
    assert sorted(names.values()) == ["ann", "ben"]

    for action in ("L1", "L7"):
        to_act = read(server, game_id)["turn"]
        play(server, game_id, pages[to_act], action)
    loser = read(server, game_id)["turn"]
    offset.write_text("200")  # more than the 3 minutes of the seat to act
    for page in pages.values():
        page.wait_for_function(
            "() => document.querySelector('[data-testid=status]').textContent.includes('on time')"
        )
    game = read(server, game_id)
    assert game["result"]["reason"] == "time" and game["result"]["by"] == [loser]

    won, lost = rate_game(Glicko(), Glicko(), 1.0)
    winner = next(c for c in names if c != loser)
    for colour, expected in ((winner, won), (loser, lost)):
        player = wait_until(
            lambda colour=colour: (
                (p := server.api("GET", f"/api/players/{names[colour]}").json())["ratings"][
                    "express-2"
                ]["games"]
                and p
            ),
            what=f"{names[colour]}'s rating",
        )
        rating = player["ratings"]["express-2"]
        assert rating["rating"] == round(expected.rating, 2)
        assert rating["deviation"] == round(expected.deviation, 2)
        assert player["games"] == [game_id]
    # each page shows the change under the result: the winner up, the loser down
    delta = round(won.rating) - 1500
    for page in pages.values():
        page.wait_for_selector("[data-testid=rating-changes] li >> nth=1")
        shown = page.text_content("[data-testid=rating-changes]")
        assert f"{names[winner]} {round(won.rating)}? (+{delta})" in shown
        assert f"{names[loser]} {round(lost.rating)}? (\u2212{delta})" in shown  # a minus sign
        # and the players' cards beside the names show the new ratings, without a reload
        for colour, rating in ((winner, won), (loser, lost)):
            page.wait_for_function(
                "([s, w]) => document.querySelector(s)?.textContent === w",
                arg=[f"[data-testid=rating-{colour}]", f"{round(rating.rating)}?"],
            )
