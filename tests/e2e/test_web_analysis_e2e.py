"""End to end: the analysis board, the game's review, the 404 page and the dark theme,
served by ``shiftago serve`` and used in a real headless Chromium.

Only the pages' stable hooks are used (WEBAPI.md, "Additions (turn 2)"):
``[data-testid=engine-line]`` (with ``data-action``) on the analysis board,
``[data-testid=analyse]``, ``[data-testid=eval-graph]``, ``data-judgement`` on the action
list and ``[data-testid=best-action]`` on a game's page; what is right is asked of the
core (``shiftago.State``, ``shiftago.Game``).
"""

from __future__ import annotations

import urllib.parse
from typing import Any

import pytest
from test_web_e2e import PHONE

from shiftago import Action, Game, Rules, State, Variant
from shiftago.engine.book import shipped_book
from shiftago.formats.record import Record, format_record
from support.board_clicks import click_action
from support.web_fixtures import LiveServer, NewContext

START = "express 2 7/7/7/7/7/7/7 o insert 22,22 0,0 0,0"
# Orange, to act, holds a1-d1 and green a6-d6: orange wins at once (L1 or Be).
WIN_IN_ONE = "express 2 7/gggg3/7/7/7/7/oooo3 o insert 18,18 0,0 0,0"
# Both sides build four in a row; at action 9 (index 8) orange, who wins with L1 or Be,
# plays R4 instead, and green wins with its fifth marble: a blunder (a proven loss).
BLUNDER_GAME = ["L1", "L7", "L1", "L7", "L1", "L7", "L1", "L7", "R4", "L7"]
BLUNDER_INDEX = 8
# Keeps the page's sockets, so that a test can drop them (as a network failure would).
SOCKET_HOOK = """
window.__sockets = [];
const Native = window.WebSocket;
window.WebSocket = class extends Native {
  constructor(...args) { super(...args); window.__sockets.push(this); }
};
"""
# Keeps the ``lines`` events the page hears on its sockets.
LINES_HOOK = """
window.__lines = [];
const NativeSocket = window.WebSocket;
window.WebSocket = class extends NativeSocket {
  constructor(...args) {
    super(...args);
    this.addEventListener("message", (e) => {
      const m = JSON.parse(e.data);
      if (m.type === "lines") window.__lines.push(m);
    });
  }
};
"""
# Drops the ``lines`` events once ``window.__mute`` is set, as if the computer were slow.
MUTE_HOOK = """
window.__mute = false;
const QuietSocket = window.WebSocket;
window.WebSocket = class extends QuietSocket {
  constructor(...args) {
    super(...args);
    this.addEventListener("message", (e) => {
      if (window.__mute && JSON.parse(e.data).type === "lines") e.stopImmediatePropagation();
    });
  }
};
"""
# The first search waits for the engine's warm-up, and then searches the level's budget.
DEEPEN_TIMEOUT_MS = 60_000
# A review waits for the computer; its level's budget per action is short in Express.
REVIEW_TIMEOUT_MS = 90_000


@pytest.fixture
def live_server(shared_server: LiveServer) -> LiveServer:
    """One server for the module: each test imports its own games or analyses positions in
    a browser context of its own."""
    return shared_server


def text(page: Any, selector: str) -> str:
    return (page.text_content(selector) or "").strip()


def shows(page: Any, expected: str) -> None:
    page.wait_for_function(
        "p => (document.querySelector('[data-testid=position]') || {}).textContent?.trim() === p",
        arg=expected,
    )


def winning_actions(position: str) -> set[str]:
    state = State.from_position(position)
    return {str(a) for a in state.legal_actions() if state.after(a).is_over}


def after(position: str, *actions: str) -> str:
    state = State.from_position(position)
    for action in actions:
        state = state.after(state.validate(Action.parse(action)))
    return state.position()


def open_editor(page: Any) -> None:
    """Open the position editor, and wait until the page has loaded it on the opening
    (the details' toggle event, a task of its own: on a busy machine it came after a
    typed string had been used, and loading the editor hid the error that use showed)."""
    page.evaluate(
        """() => { window.__editorOpened = false;
          document.getElementById("editor-box").addEventListener(
            "toggle", () => { window.__editorOpened = true; }, { once: true }); }"""
    )
    page.click("#editor-box summary")
    page.wait_for_function("() => window.__editorOpened")


def analysis_url(server: LiveServer, position: str | None = None) -> str:
    if position is None:
        return server.url + "/analysis"
    return server.url + "/analysis?position=" + urllib.parse.quote(position)


# ------------------------------------------------------------------ the analysis board


def test_the_start_position_is_the_core_s(live_server: LiveServer) -> None:
    assert Game(Rules(), first="o").position() == START


def test_the_analysis_board_lists_a_winning_action_first(
    live_server: LiveServer, page: Any
) -> None:
    wins = winning_actions(WIN_IN_ONE)
    assert wins == {"L1", "Be"}
    page.add_init_script(SOCKET_HOOK)
    page.goto(analysis_url(live_server, WIN_IN_ONE))
    shows(page, WIN_IN_ONE)
    page.wait_for_selector("[data-testid=engine-line]", timeout=20_000)
    page.wait_for_function(
        "wins => { const l = document.querySelector('[data-testid=engine-line]');"
        " return l && wins.includes(l.dataset.action); }",
        arg=sorted(wins),
        timeout=20_000,
    )
    first = page.locator("[data-testid=engine-line]").first
    assert first.get_attribute("data-action") in wins
    # each line names its action, its expected score ("win" where proven, as here) with
    # the computer's value in its tooltip, and the line in notation
    assert first.get_attribute("data-action") in first.inner_text()
    expected = first.locator(".line-expected")
    assert expected.inner_text() == "win"
    assert "The computer's value: +" in (expected.get_attribute("title") or "")
    # and in grey beside it, for a touch screen, which shows no tooltip
    value = first.locator("[data-testid=line-value]").inner_text()
    assert value.startswith("+") and value in (expected.get_attribute("title") or "")
    others = page.locator("[data-testid=engine-line] .line-expected").all_inner_texts()
    assert all(t in ("win", "loss") or t.endswith("%") for t in others), others
    # a longer word than "win" keeps its room before the value ("vittoria+9990" in Italian)
    page.goto(analysis_url(live_server, WIN_IN_ONE) + "&lang=it")
    page.wait_for_function(
        """() => [...document.querySelectorAll('[data-testid=engine-line] .line-expected')]
                 .some(e => e.textContent === 'vittoria')""",
        timeout=20_000,
    )
    # measured once the lines are drawn (a line list drawn again has no boxes meanwhile)
    page.wait_for_function(
        """() => {
          const lines = [...document.querySelectorAll('[data-testid=engine-line]')];
          const gaps = lines.map(l => {
            const text = document.createRange();  // the word itself, past its box or not
            text.selectNodeContents(l.querySelector('.line-expected'));
            const word = text.getBoundingClientRect();
            const value = l.querySelector('[data-testid=line-value]').getBoundingClientRect();
            return word.width > 0 && value.width > 0 ? value.left - word.right : null;
          }).filter(g => g !== null);
          return gaps.length > 0 && Math.min(...gaps) >= 4;
        }""",
        timeout=20_000,
    )
    # the best action is drawn on the board as a hint
    page.wait_for_selector(".hint-arrow[data-hint]", state="attached")
    hint = page.get_attribute(".hint-arrow[data-hint]", "data-hint")
    assert hint in wins
    # its arrow comes in where the marble enters (L1 at a1, Be at e1), and reaches as far
    # as the push goes: the entry cell, on these empty lanes
    entry = {"L1": "a1", "Be": "e1"}[hint]
    assert page.get_attribute(".hint-arrow[data-hint]", "data-entry") == entry
    assert page.get_attribute(".hint-arrow[data-hint]", "data-reach") == entry
    # the socket drops: the page connects again and the new position is analysed
    page.evaluate("window.__sockets.forEach(s => s.close())")
    click_action(page, "Td")
    shows(page, after(WIN_IN_ONE, "Td"))
    page.wait_for_selector("[data-testid=engine-line]", timeout=20_000)
    assert page.evaluate("window.__sockets.length") >= 2


def test_the_opening_book_shows_its_lines_where_it_has_the_position(
    live_server: LiveServer, page: Any
) -> None:
    book = shipped_book(Variant.EXPRESS, 2)
    assert book is not None
    expected = book.lines(State.from_position(START))
    page.goto(analysis_url(live_server))
    shows(page, START)
    page.wait_for_selector("[data-testid=book-line]")
    rows = page.locator("[data-testid=book-line]")
    assert [rows.nth(i).get_attribute("data-action") for i in range(rows.count())] == [
        str(line.action) for line in expected
    ]
    games = [int(rows.nth(i).get_attribute("data-games") or -1) for i in range(rows.count())]
    assert games == [line.entry.games for line in expected]
    assert sum(games) == book.settings["games"]
    first = str(expected[0].action)
    page.click(f"[data-testid=book-line][data-action={first}] button")
    shows(page, after(START, first))
    page.goto(analysis_url(live_server, WIN_IN_ONE))  # not an opening: no card
    shows(page, WIN_IN_ONE)
    page.wait_for_selector("[data-testid=book]", state="hidden")
    assert page.locator("[data-testid=book-line]").count() == 0


def test_the_analysis_board_shows_each_depth_then_the_answer(
    live_server: LiveServer, page: Any
) -> None:
    page.add_init_script(LINES_HOOK)
    page.goto(analysis_url(live_server, START))
    shows(page, START)
    page.wait_for_function(
        "p => window.__lines.some(m => m.position === p && m.final)",
        arg=START,
        timeout=DEEPEN_TIMEOUT_MS,
    )
    events = page.evaluate("p => window.__lines.filter(m => m.position === p)", START)
    *thinking, answer = events
    # one search's depths, in order, then its answer: the last depth it finished
    assert [e["depth"] for e in thinking] == list(range(1, len(thinking) + 1))
    assert len(thinking) >= 2 and not any(e["final"] for e in thinking)
    assert answer["depth"] == thinking[-1]["depth"]
    nodes = [e["nodes"] for e in events]
    assert nodes == sorted(nodes)
    # the board lists the answer's lines, best first
    best = [line["action"] for line in answer["lines"]]
    page.wait_for_function(
        "best => JSON.stringify([...document.querySelectorAll('[data-testid=engine-line]')]"
        ".map(l => l.dataset.action)) === JSON.stringify(best)",
        arg=best,
    )
    assert best and all(
        a in {str(x) for x in State.from_position(START).legal_actions()} for a in best
    )


def test_an_action_tried_on_the_analysis_board_is_taken_back(
    live_server: LiveServer, page: Any
) -> None:
    page.goto(analysis_url(live_server))  # no position: the start of 2-player Express
    shows(page, START)
    click_action(page, "L4")
    one = after(START, "L4")
    shows(page, one)
    assert page.locator("[data-testid=variation] [data-node]").count() == 2  # Start, L4
    click_action(page, "Tc")
    two = after(START, "L4", "Tc")
    shows(page, two)
    assert "position=" in page.url
    assert urllib.parse.unquote(page.url.split("position=", 1)[1]) == two
    # right after a click on the board the Left key takes back, as the how-to says (the
    # clicked arrow kept the focus, and Left moved among the arrows)
    page.keyboard.press("ArrowLeft")
    shows(page, one)
    page.keyboard.press("ArrowRight")
    shows(page, two)
    page.click("[data-testid=back]")
    shows(page, one)
    # each step says where it has gone (a blind player's walk heard nothing)
    page.wait_for_function(
        "() => document.querySelector('[data-testid=announcer]').textContent"
        ".startsWith('Action 1 of 2: Orange pushed in at the left of row 4.')"
    )
    page.keyboard.press("ArrowLeft")  # the Left key takes back too
    shows(page, START)
    page.wait_for_function(
        "() => document.querySelector('[data-testid=announcer]').textContent"
        ".startsWith('The start position.')"
    )
    # the computer's progress is no live region: it spoke 10-15 times a position
    assert page.get_attribute("#engine-info", "aria-live") is None
    page.keyboard.press("ArrowRight")  # and the variation is kept, to go forward again
    shows(page, one)
    page.click('[data-testid=variation] [data-node="2"]')
    shows(page, two)
    # an action typed that the rules refuse changes nothing and says why
    page.fill("[data-testid=action-input]", "L9")
    page.keyboard.press("Enter")
    page.wait_for_selector("#notice:not([hidden])")
    # the page's words for the server's reason, with the action typed
    assert text(page, "#notice").startswith("L9 is not an action"), text(page, "#notice")
    shows(page, two)


def test_a_reload_keeps_the_variation_tried(live_server: LiveServer, page: Any) -> None:
    """The address holds the variation (start, actions, step) before the position shown:
    a reload, or the copied link, brings back Back and Forward."""
    page.goto(analysis_url(live_server))
    click_action(page, "L4")
    one = after(START, "L4")
    shows(page, one)
    click_action(page, "Tc")
    two = after(START, "L4", "Tc")
    shows(page, two)
    page.click("[data-testid=back]")
    shows(page, one)
    page.wait_for_function("() => location.search.includes('at=1')")
    page.reload()
    shows(page, one)
    assert page.locator("[data-testid=variation] [data-node]").count() == 3  # Start, L4, Tc
    page.click("[data-testid=forward]")
    shows(page, two)
    page.click("[data-testid=back]")
    page.click("[data-testid=back]")
    shows(page, START)
    # an address whose variation does not lead to its position shows the position alone
    page.goto(
        f"{live_server.url}/analysis?start={urllib.parse.quote(START)}&line=L4&at=1"
        f"&position={urllib.parse.quote(two)}"
    )
    shows(page, two)
    assert page.is_disabled("[data-testid=back]")


def variation(page: Any) -> str:
    """The move list as its text reads (numbers, actions and brackets)."""
    return " ".join(page.inner_text("[data-testid=variation]").split())


def test_an_action_after_back_starts_a_side_line(live_server: LiveServer, page: Any) -> None:
    """Td, Tc, Te; Back twice; L4: the tree keeps 1. Td 2. Tc 3. Te and the side line
    2. L4; clicks, keys, promoting, deleting and a reload all keep to it."""
    page.goto(analysis_url(live_server))
    shows(page, START)
    for done, action in enumerate(["Td", "Tc", "Te"], 1):
        click_action(page, action)
        shows(page, after(START, *["Td", "Tc", "Te"][:done]))
    page.click("[data-testid=back]")
    page.keyboard.press("ArrowLeft")
    shows(page, after(START, "Td"))
    click_action(page, "L4")
    shows(page, after(START, "Td", "L4"))
    assert variation(page) == "Start 1. Td 2. Tc ( 2. L4 ) 3. Te"
    assert page.get_attribute('[data-move="L4"]', "aria-current") == "step"
    # the address holds the whole tree and the node shown
    page.wait_for_function("() => location.search.includes('at=3')")
    params = urllib.parse.parse_qs(urllib.parse.urlsplit(page.url).query)
    assert params["line"] == ["Td Tc (L4) Te"]
    # Up goes to the line above at this branch, Down back; End to the end of the line
    # (off the board, whose arrows take the arrow keys while one has the focus)
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press("ArrowUp")
    shows(page, after(START, "Td", "Tc"))
    page.keyboard.press("End")
    shows(page, after(START, "Td", "Tc", "Te"))
    page.keyboard.press("ArrowDown")  # Te has no sibling: the branch above it switches
    shows(page, after(START, "Td", "L4"))
    page.keyboard.press("Home")
    shows(page, START)
    assert page.is_disabled("[data-testid=back]")
    page.click('[data-testid=variation] [data-move="Te"]')
    shows(page, after(START, "Td", "Tc", "Te"))
    assert page.is_disabled("[data-testid=promote]")  # the main line already
    # a reload (or the copied link) brings back the tree and the node shown
    page.click('[data-testid=variation] [data-move="L4"]')
    shows(page, after(START, "Td", "L4"))
    page.wait_for_function("() => location.search.includes('at=3')")
    page.reload()
    shows(page, after(START, "Td", "L4"))
    assert variation(page) == "Start 1. Td 2. Tc ( 2. L4 ) 3. Te"
    # promoting makes the side line the main line
    page.click("[data-testid=promote]")
    page.wait_for_function("() => location.search.includes('line=Td%20L4%20(Tc%20Te)')")
    assert variation(page) == "Start 1. Td 2. L4 ( 2. Tc 3. Te )"
    page.keyboard.press("ArrowRight")  # the main line ends at L4
    shows(page, after(START, "Td", "L4"))
    # deleting the side line from Tc on leaves one line, the board at Tc's parent
    page.click('[data-testid=variation] [data-move="Tc"]')
    shows(page, after(START, "Td", "Tc"))
    page.click("[data-testid=delete-line]")
    shows(page, after(START, "Td"))
    assert variation(page) == "Start 1. Td 2. L4"
    # an address of before (one line, its step) still opens
    one_line = after(START, "L4", "Tc")
    page.goto(
        f"{live_server.url}/analysis?start={urllib.parse.quote(START)}&line=L4%20Tc&at=2"
        f"&position={urllib.parse.quote(one_line)}"
    )
    shows(page, one_line)
    assert variation(page) == "Start 1. L4 2. Tc"


def test_the_analysis_board_says_each_action(live_server: LiveServer, page: Any) -> None:
    page.goto(analysis_url(live_server, WIN_IN_ONE))
    shows(page, WIN_IN_ONE)
    announcer = page.locator("[data-testid=announcer]")
    assert announcer.get_attribute("aria-live") == "polite"
    click_action(page, "Te")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=announcer]').textContent"
        " === 'Orange pushed in at the top of column e.'"
    )
    page.click("[data-testid=back]")
    shows(page, WIN_IN_ONE)
    click_action(page, "L1")  # orange's fifth marble in a row: the game is won
    page.wait_for_function(
        "() => document.querySelector('[data-testid=announcer]').textContent"
        " === 'Orange pushed in at the left of row 1. Orange won.'"
    )


def test_the_editor_stays_put_while_the_computer_s_lines_come_and_go(
    live_server: LiveServer, page: Any
) -> None:
    # The lines' box keeps its height, so that a click meant for the editor's board
    # below it never lands elsewhere because the lines arrived or were cleared.
    page.add_init_script(MUTE_HOOK)
    page.goto(analysis_url(live_server))
    shows(page, START)  # the board drawn: the editor's summary no longer moves down
    open_editor(page)
    page.wait_for_selector("[data-testid=engine-line]", timeout=DEEPEN_TIMEOUT_MS)
    # where the editor's board lies in the page (not the window, which the click scrolls)
    in_page = """() => { const r = document.querySelector('.editor-board').getBoundingClientRect();
        return [r.left + scrollX, r.top + scrollY, r.width, r.height]; }"""
    with_lines = page.evaluate(in_page)
    page.evaluate("() => { window.__mute = true; }")
    click_action(page, "L4")  # a new position: the lines are cleared, none come
    shows(page, after(START, "L4"))
    page.wait_for_selector("[data-testid=engine-line]", state="detached")
    assert page.evaluate(in_page) == with_lines


def test_a_finished_position_keeps_no_room_for_lines(live_server: LiveServer, page: Any) -> None:
    # no lines come for a position whose game is over: their box keeps no empty room,
    # and has it again for a position that gets lines
    lines_height = "() => document.getElementById('lines').getBoundingClientRect().height"
    page.goto(analysis_url(live_server, WIN_IN_ONE))
    shows(page, WIN_IN_ONE)
    reserved = page.evaluate(lines_height)
    assert reserved > 100  # three lines' room by default
    click_action(page, "L1")  # the win
    shows(page, after(WIN_IN_ONE, "L1"))
    page.wait_for_function(
        "() => document.getElementById('engine-info').textContent.includes('game is over')"
    )
    assert page.evaluate(lines_height) == 0
    page.click("[data-testid=back]")
    shows(page, WIN_IN_ONE)
    assert page.evaluate(lines_height) == reserved


def test_the_end_of_a_game_opens_and_reloads_on_the_analysis_board(
    live_server: LiveServer, page: Any
) -> None:
    # a game's last step ("Analyse from here") and the address after a winning action
    # both carry a position whose phase is over: the board shows it, with its result
    expert_end = after("expert 2 7/7/7/7/7/7/oooo3 o insert 18,22 8,0 0,0", "L1", "xa1-e1")
    assert expert_end.split()[4] == "over"
    for position in (expert_end, after(WIN_IN_ONE, "L1")):
        page.goto(analysis_url(live_server, position))
        shows(page, position)
        page.wait_for_function(
            "() => document.getElementById('engine-info').textContent.includes('game is over')"
        )
        assert "cannot be set up" not in page.inner_text("body")
    page.reload()
    shows(page, after(WIN_IN_ONE, "L1"))


def test_the_editor_refuses_an_impossible_position(live_server: LiveServer, page: Any) -> None:
    page.goto(analysis_url(live_server))
    shows(page, START)
    open_editor(page)
    page.check("[data-testid=editor-tool-o]")
    page.click('.editor-board [data-cell="d4"]')
    page.check("[data-testid=editor-tool-g]")
    # by keyboard: Tab from the colours reaches the cells (d4 first), the arrow keys
    # move, Enter places
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.dataset.cell") == "d4"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowUp")
    assert page.evaluate("() => document.activeElement.dataset.cell") == "e5"
    page.keyboard.press("Enter")
    page.select_option("[data-testid=editor-turn]", "g")
    # Express scores no points: no field for them; Expert has one per seat
    assert page.locator("[data-testid=editor-points-o]").count() == 0
    page.select_option("[data-testid=editor-variant]", "expert")
    assert page.locator("[data-testid^=editor-points-]").count() == 2
    page.select_option("[data-testid=editor-variant]", "express")
    good = "express 2 7/7/4g2/3o3/7/7/7 g insert 21,21 0,0 0,0"
    assert page.input_value("[data-testid=editor-position]") == good
    # more marbles than a player has: the core refuses, and the page says so in its words
    page.fill("[data-testid=editor-supply-o]", "22")
    page.dispatch_event("[data-testid=editor-supply-o]", "change")
    bad = page.input_value("[data-testid=editor-position]")
    assert bad == "express 2 7/7/4g2/3o3/7/7/7 g insert 22,21 0,0 0,0"
    with pytest.raises(ValueError):
        State.from_position(bad)
    page.click("[data-testid=editor-use]")
    page.wait_for_selector("[data-testid=editor-error]:not([hidden])")
    assert text(page, "[data-testid=editor-error]") == (
        # "o has 1 marbles" before: the sum, always over 22, carries the plural
        "Refused: orange: 1 on the board and 22 in supply make 23 marbles, more than 22"
    )
    shows(page, START)  # the board keeps the last good position
    # a possible one is taken, typed and used at once: the press on the button keeps the
    # focus in the field, so no change comes first (a walk saw the old number used)
    page.fill("[data-testid=editor-supply-o]", "21")
    page.click("[data-testid=editor-use]")
    shows(page, State.from_position(good).position())
    assert page.is_hidden("[data-testid=editor-error]")
    # an error goes once a change makes the editor's position another: it stayed under
    # a text a change of supply had made well-formed (a Dutch walk)
    page.fill("[data-testid=editor-position]", "hallo")
    page.click("[data-testid=editor-use]")
    page.wait_for_selector("[data-testid=editor-error]:not([hidden])")
    page.fill("[data-testid=editor-supply-o]", "20")
    page.dispatch_event("[data-testid=editor-supply-o]", "change")
    assert page.input_value("[data-testid=editor-position]").endswith("insert 20,21 0,0 0,0")
    assert page.is_hidden("[data-testid=editor-error]")


def test_a_position_typed_in_is_taken_at_the_first_click(
    live_server: LiveServer, page: Any
) -> None:
    page.goto(analysis_url(live_server))
    shows(page, START)
    open_editor(page)
    field, use, error = (f"[data-testid=editor-{n}]" for n in ("position", "use", "error"))
    page.fill(field, "express 2 garbage")
    page.click(use)
    page.wait_for_selector(f"{error}:not([hidden])")
    shows(page, START)
    # the field's change, when the click takes its focus, would hide the error and add
    # two seats: the button would move from under the pointer between press and release
    four = "express 4 7/7/7/7/7/7/obgw3 o insert 21,21,21,21 0,0,0,0 0,0,0,0"
    page.fill(field, four)
    page.click(use)
    shows(page, four)
    assert page.is_hidden(error)
    assert page.locator(".editor-seat:not(.head)").count() == 4
    # a string typed in goes as typed (Enter uses it too), refused in the page's words
    page.fill(field, "expresso 2 7/7/7/7/7/7/7 o insert 22,22 0,0 0,0")
    page.press(field, "Enter")
    page.wait_for_selector(f"{error}:not([hidden])")
    assert text(page, error) == (
        "Refused: unknown variant 'expresso': expected express, expert or extreme"
    )
    shows(page, four)
    # "Empty board" sets up a game's start of the same rules: full supplies, no points,
    # the first seat to push in; the handicap's skips stay
    page.fill(field, "expert 3 7/7/7/7/7/7/og5 g score 20,21,22 4,0,0 0,1,2")
    page.dispatch_event(field, "change")
    page.click("button:has-text('Empty board')")
    assert page.input_value(field) == "expert 3 7/7/7/7/7/7/7 o insert 22,22,22 0,0,0 0,1,2"


# ------------------------------------------------------------------ the game's review


def import_game(server: LiveServer, actions: list[str]) -> dict[str, Any]:
    game = Game(Rules(), first="o")
    for action in actions:
        game.play(action)
    record = format_record(Record.from_game(game, names=["Ann", "Bob"]))
    response = server.api("POST", "/api/games/import", json={"record": record})
    assert response.status_code == 201, response.text
    return response.json()


def test_a_finished_game_is_analysed_from_its_page(
    live_server: LiveServer, new_context: NewContext
) -> None:
    game = import_game(live_server, BLUNDER_GAME)
    assert live_server.api("GET", f"/api/games/{game['id']}").json()["analysable"] is True
    # a spectator already watching, who does not ask
    early = new_context().new_page()
    early.goto(f"{live_server.url}/watch/{game['id']}")
    early.wait_for_selector("[data-testid=analyse]")
    page = new_context().new_page()
    page.goto(f"{live_server.url}/watch/{game['id']}")  # a spectator may ask for it
    page.focus("[data-testid=analyse]")  # by the keyboard
    page.keyboard.press("Enter")
    # the button hides as the review starts: the keyboard goes to the review's section,
    # where it fell to the page's start (a screen reader's walk)
    page.wait_for_function("() => document.activeElement.dataset.testid === 'review'")
    # the progress shows while the computer reviews; the summary once it is done
    page.wait_for_selector(".review-table", timeout=REVIEW_TIMEOUT_MS)
    assert page.text_content("[data-testid=review-told]") == "The review is ready."
    # the page already open hears that it was asked for and follows it to its end
    early.wait_for_selector(".review-table", timeout=REVIEW_TIMEOUT_MS)
    assert early.is_hidden("[data-testid=analyse]")
    assert page.is_hidden("[data-testid=analyse]")
    assert page.is_visible("[data-testid=eval-graph]")
    review = live_server.api("GET", f"/api/games/{game['id']}/analysis").json()
    assert review["status"] == "done"
    assert review["actions"][BLUNDER_INDEX]["judgement"] == "blunder"
    assert review["actions"][BLUNDER_INDEX]["best"] in {"L1", "Be"}
    # the graph: one line for the first seat with 2 players, through every step
    graph = page.locator("[data-testid=eval-graph]")
    assert graph.locator("polyline").count() == 1
    assert graph.get_attribute("data-steps") == str(len(BLUNDER_GAME))
    # every entry of the action list carries its judgement; the scripted one is a blunder
    judged = page.locator("[data-testid=moves] [data-judgement]")
    page.wait_for_function(
        "n => document.querySelectorAll('[data-testid=moves] [data-judgement]').length >= n",
        arg=len(BLUNDER_GAME),
    )
    marks = judged.evaluate_all("nodes => nodes.map(n => n.dataset.judgement)")
    assert marks[BLUNDER_INDEX] == "blunder"
    assert set(marks) <= {"", "inaccuracy", "mistake", "blunder"}
    # the summary counts it for orange; its columns' marks are read as their words
    assert page.text_content('.review-table tr[data-seat="o"] [data-count="blunders"]') != "0"
    headings = page.eval_on_selector_all(
        ".review-table th", "ths => ths.map((th) => th.getAttribute('aria-label'))"
    )
    assert headings[1:4] == ["inaccuracies", "mistakes", "blunders"]
    # at the step before the blunder the computer's best is named and drawn
    moment = f'.moment[data-index="{BLUNDER_INDEX}"]'
    assert "by Orange, blunder: show the position before it" in (
        page.get_attribute(moment, "aria-label") or ""
    )  # words for a screen reader, where the button shows a marble and "??"
    chip = "m => document.querySelector(m).getBoundingClientRect().top + scrollY"
    where = page.evaluate(chip, moment)
    page.click(moment)
    page.wait_for_selector("[data-testid=best-action]:not([hidden])")
    # the best and played lines come under the chips: the chip clicked stays put
    assert page.evaluate(chip, moment) == where
    # the status names the chip's move beside the step (steps count scorings too)
    turn = review["actions"][BLUNDER_INDEX]["turn"]
    assert (page.text_content(moment) or "").strip().startswith(f"{turn}. ")
    status = text(page, "[data-testid=status]")
    assert status.startswith(f"Step {BLUNDER_INDEX} of ") and f", move {turn}: " in status
    best = text(page, "[data-testid=best-action]")
    assert best.startswith("Best: ")
    assert best.split()[1] in {"L1", "Be"}
    assert "(a proven win)" in best  # a win in one, in words, not in the unit
    # the computer's own value follows in grey, in sight without a tooltip (a phone has
    # none); the sentence under the summary says what the grey numbers are
    value = text(page, "[data-testid=best-value]")
    # with its words for a screen reader, out of sight (a bare number named nothing)
    assert best.endswith(f"(a proven win) The computer's value: {value}"), (best, value)
    assert value.startswith("+"), value
    played = text(page, ".played-action")
    assert "(a proven loss)" in played or "(expected score " in played, played
    assert played.endswith(" The computer's value: " + text(page, "[data-testid=played-value]"))
    assert "The computer's own values (in grey)" in text(page, ".review-unit")
    page.wait_for_selector(".hint-arrow[data-hint]", state="attached")
    # the graph at each step says what "Best" says there: the position's own expected
    # score (expected_before), the last step the last action's
    graph.focus()
    page.keyboard.press("Home")
    steps = [a["expected_before"][0] for a in review["actions"]]
    steps.append(review["actions"][-1]["expected_after"][0])
    for k, expected in enumerate(steps):
        said = graph.get_attribute("aria-valuetext") or ""
        assert f"Orange {int(expected * 100 + 0.5)}%" in said, (k, said, expected)
        page.keyboard.press("ArrowRight")
    # another viewer sees the stored review at once, without asking
    other = new_context().new_page()
    other.goto(f"{live_server.url}/watch/{game['id']}")
    other.wait_for_selector("[data-testid=eval-graph]")
    assert other.is_hidden("[data-testid=analyse]")
    # on a phone the key moments lie far below the board: one chosen brings it into view
    phone = new_context(**PHONE).new_page()
    phone.goto(f"{live_server.url}/watch/{game['id']}")
    phone.locator(moment).scroll_into_view_if_needed()
    assert not phone.evaluate(BOARD_IN_VIEW)
    phone.click(moment)
    phone.wait_for_selector("[data-testid=best-action]:not([hidden])")
    phone.wait_for_function(BOARD_IN_VIEW)


#: Whether some of the game page's board is inside the window.
BOARD_IN_VIEW = """() => {
  const box = document.querySelector("#board svg").getBoundingClientRect();
  return box.bottom > 0 && box.top < innerHeight;
}"""


def test_a_review_names_an_action_after_another_of_its_turn_by_both(
    live_server: LiveServer, page: Any
) -> None:
    """A scorer moves again: the two insertions of one turn, either side of its scoring,
    read alike in the key moments ("20. R1?!" twice, a French walk). An action after
    another of its turn is named after it, as the move list writes the turn."""
    page.goto(live_server.url + "/")
    names = page.evaluate(
        """async () => {
            const { GameReview } = await import("/static/review.js");
            const actions = [
                { index: 22, turn: 20, action: "R1" },
                { index: 23, turn: 20, action: "xd1-g1" },
                { index: 24, turn: 20, action: "R1" },
                { index: 25, turn: 21, action: "L3" },
            ];
            const review = Object.create(GameReview.prototype);
            review.review = { actions };
            return actions.map((a) => review.numbered(a));
        }"""
    )
    assert names == ["20. R1", "20. \u2026R1 xd1-g1", "20. \u2026xd1-g1 R1", "21. L3"]


def test_a_failed_review_says_so_and_can_be_asked_for_again(
    live_server: LiveServer, new_context: NewContext
) -> None:
    game = import_game(live_server, BLUNDER_GAME)
    failed = {
        "status": "failed", "progress": 0.2, "version": len(BLUNDER_GAME), "level": 7,
        "unit": "points", "scale": "expected score", "actions": [], "summary": [],
        "error": "the computer's search failed at action 3 (L1): RuntimeError",
        "error_code": "search_failed", "error_step": 3, "error_action": "L1",
    }  # fmt: skip
    page = new_context().new_page()
    path = f"**/api/games/{game['id']}/analysis*"  # the page's first look adds ?probe=1
    page.route(path, lambda route: route.fulfill(json=failed))
    page.goto(f"{live_server.url}/watch/{game['id']}")
    error = page.wait_for_selector("[data-testid=review-error]:not([hidden])")
    assert "The review failed" in error.text_content()
    assert "at action 3 (L1)" in error.text_content()
    assert page.is_hidden(".review progress")  # no progress that never moves
    again = page.locator("[data-testid=analyse]")
    assert again.is_visible() and again.text_content() == "Try the review again"
    page.unroute(path)
    again.click()  # the server's own review now
    page.wait_for_selector(".review progress:not([hidden]), .review-table", state="attached")
    assert page.is_hidden("[data-testid=review-error]")


# ------------------------------------------------------------------ 404 and the theme


def test_the_not_found_page(live_server: LiveServer, page: Any) -> None:
    response = page.goto(live_server.url + "/no/such/page")
    assert response.status == 404
    assert "not found" in page.title().lower()
    assert "Page not found" in text(page, "h1")
    page.click("[data-testid=home-link]")
    page.wait_for_url(live_server.url + "/")


def body_background(page: Any) -> str:
    return page.evaluate("getComputedStyle(document.body).backgroundColor")


def test_the_dark_theme(live_server: LiveServer, new_context: NewContext) -> None:
    light = new_context(color_scheme="light").new_page()
    light.goto(live_server.url + "/")
    light.wait_for_selector("[data-testid=theme-toggle]")
    dark = new_context(color_scheme="dark").new_page()
    dark.goto(live_server.url + "/")
    dark.wait_for_selector("[data-testid=theme-toggle]")
    # auto follows the system
    assert body_background(light) != body_background(dark)
    # the toggle: auto -> light -> dark, remembered
    for _ in range(3):
        if light.get_attribute("[data-testid=theme-toggle]", "data-theme-choice") == "dark":
            break
        light.click("[data-testid=theme-toggle]")
    assert light.get_attribute("html", "data-theme") == "dark"
    assert body_background(light) == body_background(dark)
    light.goto(analysis_url(live_server))
    light.wait_for_selector("[data-testid=theme-toggle]")
    assert body_background(light) == body_background(dark)
    cell = light.locator('.board-box [data-cell="d4"]').first
    board_dark = cell.evaluate("n => getComputedStyle(n).fill")
    light.click("[data-testid=theme-toggle]")  # dark -> auto: the light system again
    assert light.get_attribute("html", "data-theme") is None
    # the cells' fill changes over a 150 ms transition
    light.wait_for_function(
        "old => getComputedStyle("
        "document.querySelector('.board-box [data-cell=\"d4\"]')).fill !== old",
        arg=board_dark,
        timeout=5000,
    )
    # the sound toggle says its state, remembered too
    sound = light.locator("[data-testid=sound-toggle]")
    assert sound.get_attribute("data-muted") == "false"
    sound.click()
    assert sound.get_attribute("data-muted") == "true"
    light.reload()
    assert light.get_attribute("[data-testid=sound-toggle]", "data-muted") == "true"


def test_a_keep_marker_takes_a_fingers_tap_on_a_tablet(
    live_server: LiveServer, new_context: NewContext
) -> None:
    """On a 1024x768 tablet the markers are about 30 px; a tap 20 px from a marker's
    centre (a 40 px target) still chooses it, not the other end's marker."""
    position = "expert 3 7/7/7/7/7/7/oooo3 o score 18,22,22 0,0,0 0,0,0"
    page = new_context(viewport={"width": 1024, "height": 768}, has_touch=True).new_page()
    page.goto(analysis_url(live_server, position))
    shows(page, position)
    page.wait_for_selector(".choice-keep")
    hits = page.evaluate(
        """() => [...document.querySelectorAll('.choice-keep')].map(node => {
             const box = node.querySelector('.keep-marker').getBoundingClientRect();
             const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
             const reached = [[20, 0], [-20, 0], [0, 20], [0, -20]].map(([dx, dy]) => {
               const hit = document.elementFromPoint(x + dx, y + dy);
               const owner = hit && hit.closest('[data-hit], [data-action]');
               return owner ? owner.dataset.hit || owner.dataset.action : null;
             });
             return [node.dataset.action, box.width, reached];
           })"""
    )
    assert sorted(a for a, _, _ in hits) == ["xa1-d1", "xd1-a1"]
    for action, width, reached in hits:
        assert width < 40, width  # what the disc is for: the marker alone is smaller
        assert reached == [action] * 4, (action, reached)
    # a tap there previews, a second plays, as on a marker
    box = page.locator('[data-hit="xa1-d1"]').bounding_box()
    assert box
    x, y = box["x"] + box["width"] / 2 + 20, box["y"] + box["height"] / 2
    page.touchscreen.tap(x, y)
    page.wait_for_selector('.choice-keep.previewed[data-action="xa1-d1"]')
    page.touchscreen.tap(x, y)
    shows(page, after(position, "xa1-d1"))


def test_every_keep_marker_can_be_clicked_where_several_share_an_end(
    live_server: LiveServer, page: Any
) -> None:
    # 3-player Extreme, orange to score: eight scorings, two pairs of which keep the
    # same end (b4 and d6), so that two markers sit by one marble
    position = "extreme 3 2bbg1o/oogo2o/2oo3/1ooob2/2g1o2/o5o/o5o o score 7,19,19 8,5,0 0,0,0"
    page.goto(analysis_url(live_server, position))
    shows(page, position)
    page.wait_for_selector(".choice-keep")
    hits = page.evaluate(
        """() => [...document.querySelectorAll('.choice-keep')].map(node => {
             const box = node.querySelector('.keep-marker').getBoundingClientRect();
             const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
             const owner = hit && hit.closest('[data-action]');
             return [node.dataset.action, owner ? owner.dataset.action : null];
           })"""
    )
    assert len(hits) == 8 and {"xb4-d4", "xb4-d6", "xd6-b4", "xd6-d4"} <= {a for a, _ in hits}
    assert all(action == hit for action, hit in hits), hits


def test_on_a_tablet_the_editor_s_board_and_colours_are_finger_sized(
    live_server: LiveServer, new_context: NewContext
) -> None:
    """A Dutch tablet walk placed marbles on a 300 px board in a 790 px card, and chose
    colours by 22 px radios."""
    tablet = {"viewport": {"width": 820, "height": 1180}, "has_touch": True}
    page = new_context(**tablet).new_page()
    page.goto(analysis_url(live_server))
    shows(page, START)
    open_editor(page)
    board = page.locator(".editor-board svg").bounding_box()
    assert board is not None and board["width"] >= 420, board
    labels = page.locator(".palette label").all()
    assert labels
    for label in labels:
        assert (label.bounding_box() or {"height": 0})["height"] >= 40, label.inner_text()
