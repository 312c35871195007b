"""The game page shows how many watch (issue 16), in Chromium.

Browser tests live in files of their own that run after the others: the session's
browser keeps an event loop running in the main thread, which ``asyncio.run`` refuses.
"""

from __future__ import annotations


def test_the_game_page_shows_how_many_watch(live_server, new_context):
    answer = live_server.api("POST", "/api/games", json={"first": "o", "seats": [{}, {}]})
    assert answer.status_code == 201, answer.text
    created = answer.json()
    ann = new_context().new_page()
    ann.goto(created["seats"][0]["join_url"])
    watcher = new_context().new_page()
    watcher.goto(created["watch_url"])
    counted = "n => document.querySelector('[data-testid=spectators]')?.textContent === n"
    for page in (ann, watcher):
        page.wait_for_function(counted, arg="1 watching")
    other = new_context().new_page()
    other.goto(created["watch_url"])
    ann.wait_for_function(counted, arg="2 watching")
    other.close()
    ann.wait_for_function(counted, arg="1 watching")
    watcher.close()
    ann.wait_for_function("() => !document.querySelector('[data-testid=spectators]')")
