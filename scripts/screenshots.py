"""Take the README's screenshots: the home page and a game in progress, desktop and phone.

    .venv/bin/python scripts/screenshots.py [OUT_DIR]     (default: docs/screenshots)

Starts ``shiftago serve`` on a fresh database in a temporary folder, makes an Express
game of Ann against the computer, plays a few actions in Debian's Chromium (as the
tests do: ``SHIFTAGO_CHROMIUM`` or /usr/bin/chromium) and writes home-desktop.png,
home-phone.png, game-desktop.png and game-phone.png (1280x800 and 390x844).
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from playwright.sync_api import Page, sync_playwright  # noqa: E402

from web_fixtures import CHROMIUM_ARGS, LiveServer, chromium_path  # noqa: E402

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
ACTIONS = ["L4", "Td", "R3", "Bc"]  # Ann's; the computer answers each


def play_some(server: LiveServer, page: Page, game_id: str) -> None:
    for action in ACTIONS:
        page.click(f'[data-action="{action}"][tabindex="0"]')
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


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    executable = chromium_path()
    if executable is None:
        sys.exit("Chromium not found: install Debian's chromium or set SHIFTAGO_CHROMIUM")
    with tempfile.TemporaryDirectory() as home:
        server = LiveServer(Path(home))
        server.start()
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
                page.wait_for_selector('[data-action][tabindex="0"]')
                play_some(server, page, created["id"])
                for size, viewport in SIZES.items():
                    page.set_viewport_size(viewport)
                    page.goto(created["seats"][0]["join_url"])
                    page.wait_for_selector('[data-action][tabindex="0"]', state="attached")
                    page.wait_for_timeout(300)
                    page.screenshot(path=str(out / f"game-{size}.png"))
                    page.goto(server.url + "/")
                    page.wait_for_load_state("networkidle")
                    page.screenshot(path=str(out / f"home-{size}.png"))
                browser.close()
        finally:
            server.stop()
    for path in sorted(out.glob("*-*.png")):
        print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)


if __name__ == "__main__":
    main()
