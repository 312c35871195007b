"""No word outside the catalogues on any page, in Chromium (issue 50): the server serves
the pseudo catalogue (every message ⟦its English⟧) as German, and on each page (home,
lobby, a game against the computer after a few actions and at its end, its replay, the
analysis board, how to play, a player's page, the leaderboard, the sign-in form) the
visible text and the attributes a person reads have no word outside the brackets.

It fails while pages are still English (languages.UNCONVERTED), naming every string
and its page, and passes once they are converted."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from support import waiting
from support.board_clicks import click_action
from support.unmarked import READ_IN_BROWSER, build_pseudo, offending_texts
from support.web_fixtures import LiveServer, NewContext, StartServer

#: The names the test gives: they stay as written in every language.
NAMES = frozenset({"Ann", "ann", "annika"})


@pytest.fixture(scope="module")
def pseudo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_pseudo(tmp_path_factory.mktemp("pseudo"))


@pytest.fixture
def server(start_server: StartServer, pseudo: Path) -> LiveServer:
    env = {"SHIFTAGO_LOCALE_DIR": str(pseudo), "SHIFTAGO_PREVIEW_LANGUAGES": "1"}
    return start_server(env=env, bot_delay=0)


def read(page: Any) -> list[str]:
    page.wait_for_timeout(300)  # the scripts' words after their first answers
    return offending_texts(page.evaluate(READ_IN_BROWSER), NAMES)


def game(server: LiveServer, game_id: str) -> dict[str, Any]:
    answer = server.api("GET", f"/api/games/{game_id}")
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def test_every_page_says_only_the_catalogues_words(
    server: LiveServer, new_context: NewContext
) -> None:
    found: dict[str, list[str]] = {}
    page = new_context().new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(server.url + "/?lang=de")  # the lang cookie: every page after is German
    assert page.get_attribute("html", "lang") == "de"
    page.wait_for_selector("[data-testid=start-game]")
    found["home"] = read(page)
    page.click("[data-testid=account-open]")
    page.wait_for_selector("[data-testid=account-form] input[name=name]")
    found["sign-in form"] = read(page)
    page.goto(server.url + "/#lobby")
    found["lobby"] = read(page)

    created = server.api(
        "POST",
        "/api/games",
        json={
            "variant": "express",
            "players": 2,
            "first": "o",
            "seats": [{"name": "Ann", "kind": "human"}, {"kind": "computer", "level": 1}],
        },
    ).json()
    game_id = created["id"]
    page.goto(created["seats"][0]["join_url"])
    page.wait_for_selector("[data-testid=connection][data-state=connected]")
    for _ in range(3):
        played = len(game(server, game_id)["actions"])
        click_action(page)
        waiting.wait_until(
            lambda: game(server, game_id), lambda g, n=played: len(g["actions"]) >= n + 2
        )
    found["game, after a few actions"] = read(page)
    page.click("[data-testid=resign]")
    page.click("[data-testid=resign-confirm]")
    waiting.wait_until(lambda: game(server, game_id), lambda g: g["status"].startswith("over"))
    page.wait_for_timeout(500)
    found["game, at its end"] = read(page)
    page.goto(server.url + f"/watch/{game_id}")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=position]').textContent.trim() !== ''"
    )
    found["replay and review"] = read(page)

    for name, address in [
        ("analysis board", "/analysis"),
        ("puzzles", "/puzzles"),
        ("how to play", "/how-to-play"),
        ("a player's page", "/players/annika"),
        ("leaderboard", "/leaderboard"),
        ("lessons", "/learn"),
    ]:
        page.goto(server.url + address)
        page.wait_for_load_state("networkidle")
        found[name] = read(page)
    page.goto(server.url + "/learn/full?step=2")  # a lesson, after a wrong try explained
    click_action(page, "L4")
    page.wait_for_selector("[data-testid=explanation][data-kind=error]")
    found["a lesson, a wrong try explained"] = read(page)
    left = {name: texts for name, texts in found.items() if texts}
    assert left == {}, "\n".join(
        f"{name}:\n  " + "\n  ".join(texts) for name, texts in left.items()
    )
