"""Clicks on a page's board as a player's mouse makes them, shared by the e2e tests."""

from __future__ import annotations

from typing import Any

#: The board's playable elements: every insertion and scoring the page offers now.
PLAYABLE = '[data-action][aria-disabled="false"]'


def click_action(page: Any, action: str | None = None) -> None:
    """Click the playable element of ``action`` (the first playable one when None) with
    the mouse, in its middle.

    (A mouse click at its place, not Playwright's own: the bar of a straight scoring
    line is drawn with a stroke, and a line's box has no height or width, which
    Playwright counts as hidden. The element is scrolled into the window first: a click
    outside it lands nowhere, and how far down the board starts depends on the header.)
    """
    selector = PLAYABLE if action is None else f'[data-action="{action}"][aria-disabled="false"]'
    element = page.wait_for_selector(selector, state="attached")
    element.scroll_into_view_if_needed()
    box = element.bounding_box()
    assert box, f"{action or 'no action'} is not on the page"
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
