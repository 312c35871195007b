"""Take the README's screenshots: the home page, a game in progress, a finished game's
review and the analysis board, desktop and phone.

    .venv/bin/python scripts/screenshots.py [OUT_DIR]     (default: docs/screenshots)

Starts ``shiftago serve`` on a fresh database in a temporary folder, makes an Express
game of Ann against the computer, plays a few actions in Debian's Chromium (as the
tests do: ``SHIFTAGO_CHROMIUM`` or /usr/bin/chromium) and writes home-desktop.png,
home-phone.png, game-desktop.png and game-phone.png (1280x800 and 390x844); then
imports a short finished game, has the computer review it and writes
review-desktop.png and review-phone.png (the review at the step before a blunder),
analysis-desktop.png and analysis-phone.png (the analysis board with the computer's
lines and a variation with a side line), analysis-dark-desktop.png (the same in the dark theme) and
game-expert-phone.png (an Expert game on a phone: the points in the strip above the
board); last, game.gif: a whole game between two computer levels as the game page's
Share card gives it (``GET /api/games/{id}.gif``).
"""

from __future__ import annotations

import sys
import tempfile
import time
import urllib.parse
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from playwright.sync_api import Page, sync_playwright  # noqa: E402

from support.web_fixtures import CHROMIUM_ARGS, LiveServer, chromium_path  # noqa: E402

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
ACTIONS = ["L4", "Td", "R3", "Bc"]  # Ann's; the computer answers each
# A finished game for the review (played until the rules end it).
REVIEWED = ["L1", "L7", "L1", "L7", "L1", "L7", "L1", "L7", "R4", "L7"]  # orange misses L1
ANALYSED = "express 2 7/7/2g4/2og3/3o3/7/7 o insert 20,20 0,0 0,0"
TRIED = ["Tc", "Bd"]
SIDE_LINE = "L4"  # played after Back: a side line in place of Bd


def play_some(server: LiveServer, page: Page, game_id: str) -> None:
    for action in ACTIONS:
        page.click(f'[data-action="{action}"][aria-disabled="false"]')
        count = len(server.api("GET", f"/api/games/{game_id}").json()["actions"])
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            game = server.api("GET", f"/api/games/{game_id}").json()
            if len(game["actions"]) > count and game["turn"] == "o":
                break
            time.sleep(0.1)
        page.wait_for_function(
            "p => document.querySelector('[data-testid=position]').textContent.trim() === p",
            arg=game["position"],
        )


def review_shots(server: LiveServer, context: Any, out: Path) -> None:
    """A finished game reviewed by the computer, shown at the step before a blunder."""
    from shiftago import Game, Rules
    from shiftago.formats.record import Record, format_record

    game = Game(Rules(), first="o")
    for action in REVIEWED:
        if game.state.is_over:
            break
        game.play(action)
    assert game.state.is_over, "the game to review must be finished"
    record = format_record(Record.from_game(game, names=["Ann", "Bob"]))
    created = server.api("POST", "/api/games/import", json={"record": record}).json()
    server.api("POST", f"/api/games/{created['id']}/analysis")
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if server.api("GET", f"/api/games/{created['id']}/analysis").json()["status"] == "done":
            break
        time.sleep(0.5)
    review = server.api("GET", f"/api/games/{created['id']}/analysis").json()
    marked = [a["index"] for a in review["actions"] if a["judgement"] == "blunder"]
    step = marked[0] if marked else len(review["actions"]) // 2
    page = context.new_page()
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        page.goto(f"{server.url}/watch/{created['id']}")
        page.wait_for_selector("[data-testid=eval-graph]")
        page.click(f'.moment[data-index="{step}"]')
        page.wait_for_selector("[data-testid=best-action]:not([hidden])")
        page.wait_for_timeout(300)
        if size == "phone":
            page.locator(".review").scroll_into_view_if_needed()
        page.screenshot(path=str(out / f"review-{size}.png"), full_page=size == "desktop")
    page.close()


def analysis_shots(server: LiveServer, context: Any, out: Path) -> None:
    """The analysis board: a position, two actions tried and a side line, the computer's
    lines."""
    page = context.new_page()
    url = server.url + "/analysis?position=" + urllib.parse.quote(ANALYSED)
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        page.goto(url)
        for action in TRIED:
            page.click(f'[data-action="{action}"][aria-disabled="false"]')
            page.wait_for_function(
                "a => [...document.querySelectorAll('[data-testid=variation] .var-move')]"
                ".some(b => b.textContent.includes(a))",
                arg=action,
            )
        page.click("[data-testid=back]")
        page.click(f'[data-action="{SIDE_LINE}"][aria-disabled="false"]')
        page.wait_for_selector(f'[data-testid=variation] .var-side [data-move="{SIDE_LINE}"]')
        page.wait_for_selector("[data-testid=engine-line]")
        page.wait_for_timeout(1500)
        page.screenshot(path=str(out / f"analysis-{size}.png"), full_page=size == "desktop")
        if size == "desktop":
            page.click("[data-testid=theme-toggle]")  # auto -> light
            page.click("[data-testid=theme-toggle]")  # light -> dark
            page.wait_for_timeout(300)
            page.screenshot(path=str(out / "analysis-dark-desktop.png"))
            page.click("[data-testid=theme-toggle]")  # dark -> auto
    page.close()


def expert_phone_shot(server: LiveServer, browser: Any, out: Path) -> None:
    """An Expert game on a phone, a few actions in: the points above the board."""
    created = server.api(
        "POST",
        "/api/games",
        json={
            "variant": "expert",
            "players": 2,
            "first": "o",
            "seats": [{"name": "Ann", "kind": "human"}, {"name": "Ben", "kind": "human"}],
            "clock": {"initial": 600, "increment": 5},
        },
    ).json()
    context = browser.new_context(
        viewport=SIZES["phone"], reduced_motion="reduce", is_mobile=True, has_touch=True
    )
    page = context.new_page()
    page.goto(created["seats"][0]["join_url"])
    page.wait_for_selector("[data-testid=strip-score-o]")
    page.wait_for_timeout(300)
    page.screenshot(path=str(out / "game-expert-phone.png"))
    context.close()


def shared_gif(server: LiveServer, out: Path) -> None:
    """A whole game between level 4 and level 3, imported and fetched as its GIF."""
    from shiftago import Game, Rules
    from shiftago.engine.levels import bot_for_level
    from shiftago.formats.record import Record, format_record

    game = Game(Rules(), first="o")
    bots = [bot_for_level(4, seed=1), bot_for_level(3, seed=2)]
    while not game.state.is_over:
        game.play(bots[game.state.turn].choose(game.state))
    record = format_record(Record.from_game(game, names=["Level 4", "Level 3"]))
    created = server.api("POST", "/api/games/import", json={"record": record}).json()
    picture = server.api("GET", f"/api/games/{created['id']}.gif?size=360")
    picture.raise_for_status()
    (out / "game.gif").write_bytes(picture.content)


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    executable = chromium_path()
    if executable is None:
        sys.exit("Chromium not found: install Debian's chromium or set SHIFTAGO_CHROMIUM")
    with tempfile.TemporaryDirectory() as home:
        server = LiveServer(Path(home))
        server.start(timeout=120)  # a busy machine starts it slowly
        try:
            created = server.api(
                "POST",
                "/api/games",
                json={
                    "variant": "express",
                    "players": 2,
                    "first": "o",
                    "seed": 7,
                    "seats": [
                        {"name": "Ann", "kind": "human"},
                        {"name": "Computer", "kind": "computer", "level": 1},
                    ],
                },
            ).json()
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=executable, headless=True, args=CHROMIUM_ARGS
                )
                context = browser.new_context(viewport=SIZES["desktop"], reduced_motion="reduce")
                page = context.new_page()
                page.goto(created["seats"][0]["join_url"])
                page.wait_for_selector('[data-action][aria-disabled="false"]')
                play_some(server, page, created["id"])
                for size, viewport in SIZES.items():
                    page.set_viewport_size(viewport)
                    page.goto(created["seats"][0]["join_url"])
                    page.wait_for_selector('[data-action][aria-disabled="false"]', state="attached")
                    page.wait_for_timeout(300)
                    page.screenshot(path=str(out / f"game-{size}.png"))
                    page.goto(server.url + "/")
                    page.wait_for_load_state("networkidle")
                    page.screenshot(path=str(out / f"home-{size}.png"))
                page.close()
                analysis_shots(server, context, out)
                expert_phone_shot(server, browser, out)
                review_shots(server, context, out)
                browser.close()
            shared_gif(server, out)
        finally:
            server.stop()
    for path in [*sorted(out.glob("*-*.png")), out / "game.gif"]:
        print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)


if __name__ == "__main__":
    main()
