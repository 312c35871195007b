"""End to end: the puzzles page (issue 51) in a real headless Chromium.

Puzzles are picked from the shipped set (``engine/puzzles/shipped.py``) in Python and
opened by their own address, ``/puzzles/{id}``, so that each test knows its puzzle and
its solution; the daily puzzle is asked of the API. Hooks: the status line's
``data-stage`` and ``data-tried``, the outcome box's ``data-refuted``, the streak's
``data-streak`` and the browser's run ``data-run``.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_web_e2e import BOARD_STOP, tab_to

from shiftago.core import Action, State
from shiftago.engine.puzzles.puzzle import THEMES, Puzzle
from shiftago.engine.puzzles.shipped import shipped
from shiftago.engine.puzzles.solving import judge
from support.board_clicks import click_action
from support.heard import LISTEN, forget, said
from support.web_fixtures import LiveServer, NewContext

pytestmark = pytest.mark.e2e

# The defence plays its reply after a pause; a puzzle loads the shipped set first.
SLOW_MS = 30_000


@pytest.fixture
def live_server(shared_server: LiveServer) -> LiveServer:
    """One server for the module: the puzzles are the shipped set, the one account is the
    first test's own, and what a browser keeps (streak, theme) is its context's."""
    return shared_server


def express_2(actions: int, *, skip: int = 0) -> Puzzle:
    found = [
        p for p in shipped() if p.variant == "express" and p.players == 2 and p.actions == actions
    ]
    return found[skip]


def at_stage(page: Any, stage: str, tried: int | None = None) -> None:
    selector = f'[data-testid=puzzle-status][data-stage="{stage}"]'
    if tried is not None:
        selector += f'[data-tried="{tried}"]'
    page.wait_for_selector(selector, timeout=SLOW_MS)


def open_puzzle(page: Any, server: LiveServer, puzzle: Puzzle) -> None:
    page.goto(f"{server.url}/puzzles/{puzzle.id}")
    at_stage(page, "solving", 0)


def solver_actions(puzzle: Puzzle) -> list[str]:
    """The solver's actions of the solution, in order (the defence's left out)."""
    state = State.from_position(puzzle.position)
    solver = state.turn
    mine = []
    for text in puzzle.solution:
        if state.turn == solver:
            mine.append(text)
        state = state.after(Action.parse(text))
    return mine


def a_wrong_first_action(puzzle: Puzzle) -> str:
    """A legal first action of the puzzle that is not its solution's and does not win
    later either: its answer shows why it fails."""
    state = State.from_position(puzzle.position)
    return next(
        str(a)
        for a in state.legal_actions()
        if str(a) != puzzle.solution[0] and judge(state, puzzle.actions, [str(a)]).wins_in is None
    )


def signed_up(new_context: NewContext, server: LiveServer, name: str) -> Any:
    context = new_context()
    answer = context.request.post(
        server.url + "/api/accounts", data={"name": name, "password": "correct horse"}
    )
    assert answer.status == 201, answer.text()
    return context


def test_a_puzzle_solved_by_clicks_moves_the_signed_in_players_rating(
    live_server: LiveServer, new_context: NewContext
) -> None:
    page = signed_up(new_context, live_server, "clicker").new_page()
    puzzle = express_2(3)
    open_puzzle(page, live_server, puzzle)
    page.wait_for_selector("[data-testid=player-puzzle-rating][data-rating='1500']")
    assert (
        page.get_attribute("[data-testid=puzzle-solver]", "data-colour")
        == puzzle.position.split()[3]
    )
    assert "3 actions" in (page.text_content("[data-testid=puzzle-goal]") or "")
    themes = page.eval_on_selector_all(
        "[data-testid=puzzle-themes] li", "els => els.map(e => e.dataset.theme)"
    )
    assert themes == list(puzzle.themes)
    mine = solver_actions(puzzle)
    for number, action in enumerate(mine, start=1):
        click_action(page, action)
        if number < len(mine):
            at_stage(page, "solving", number)  # the defence has replied on the board
    at_stage(page, "solved")
    change = page.text_content("[data-testid=rating-change]") or ""
    assert "+" in change
    # signed in, the figures are the account's only, the first-try run named apart
    page.wait_for_selector("[data-testid=puzzle-streak][data-streak='1']")
    assert page.text_content("[data-testid=puzzle-streak]") == (
        "Solved at the first try in a row: 1 (best 1)"
    )
    assert page.text_content("[data-testid=puzzles-solved]") == "1 puzzle played with your account."
    rating = int(page.evaluate("fetch('/api/puzzles/me').then(r => r.json()).then(b => b.rating)"))
    # a rating as every page writes one, its digits never grouped (1.624 in Dutch read
    # oddly to a Dutch walk)
    assert rating > 1500 and change.startswith(f"Your puzzle rating: {rating} (+")
    page.wait_for_selector(f"[data-testid=player-puzzle-rating][data-rating='{rating}']")
    page.wait_for_selector("[data-testid=puzzle-streak][data-streak='1']")


def test_puzzles_solved_signed_out_are_still_named_after_signing_up(
    live_server: LiveServer, new_context: NewContext
) -> None:
    """An Italian walk solved puzzles as a guest, signed up, and saw "0 puzzles played
    with your account" and nothing of them: the page names them apart."""
    context = new_context()
    page = context.new_page()
    puzzle = express_2(1, skip=3)
    open_puzzle(page, live_server, puzzle)
    click_action(page, puzzle.solution[0])
    at_stage(page, "solved")
    assert page.text_content("[data-testid=puzzles-solved]") == "1 puzzle solved in this browser."
    answer = context.request.post(
        live_server.url + "/api/accounts", data={"name": "giulia", "password": "correct horse"}
    )
    assert answer.status == 201, answer.text()
    open_puzzle(page, live_server, express_2(1, skip=4))
    page.wait_for_selector("[data-testid=player-puzzle-rating][data-rating='1500']")
    assert page.text_content("[data-testid=puzzles-solved]") == (
        "0 puzzles played with your account. "
        "1 puzzle solved in this browser while signed out (not in your rating)."
    )


def test_a_puzzle_solved_by_keys_on_the_board_and_typed(live_server: LiveServer, page: Any) -> None:
    puzzle = express_2(2, skip=3)
    open_puzzle(page, live_server, puzzle)
    first, second = solver_actions(puzzle)
    # opened without a key pressed, the page leaves the focus off the board: a focus ring
    # on an arrow nobody chose looks like a hint
    assert page.evaluate("document.activeElement.dataset.action ?? null") is None
    # the board is one Tab stop; arrow keys go round every action
    tab_to(page, BOARD_STOP)
    # moved there by the player, the focus previews its push
    focused = page.evaluate("document.activeElement.dataset.action")
    page.wait_for_selector(f'[data-preview="{focused}"]', state="attached")
    page.keyboard.press("ArrowRight")
    focused = page.evaluate("document.activeElement.dataset.action")
    page.wait_for_selector(f'[data-preview="{focused}"]', state="attached")  # the player's move
    for _ in range(60):
        if page.evaluate("document.activeElement.dataset.action") == first:
            break
        page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.action") == first
    page.keyboard.press("Enter")
    at_stage(page, "solving", 1)
    page.fill("[data-testid=action-input]", second.lower())
    page.keyboard.press("Enter")
    at_stage(page, "solved")
    # solving closed the field the keyboard was in: it went to the page's start
    assert page.evaluate("document.activeElement.id") == "next"
    stored = page.evaluate("JSON.parse(localStorage.getItem('shiftago.puzzles'))")
    assert puzzle.id in stored["solved"] and stored["streak"] == 1


def test_an_action_the_position_refuses_is_said_in_the_pages_words(
    live_server: LiveServer, page: Any
) -> None:
    """A typed action the position refuses showed the core's English words ("illegal
    move: ..."); the puzzles now say it as the analysis board does, and count no try."""
    puzzle = express_2(2, skip=3)
    open_puzzle(page, live_server, puzzle)
    page.fill("[data-testid=action-input]", "xa1-a5")
    page.keyboard.press("Enter")
    expected = "There is no line to score: xa1-a5 is not possible now."
    page.wait_for_function("w => document.querySelector('#notice').textContent === w", arg=expected)
    at_stage(page, "solving", 0)


def test_a_wrong_action_shows_the_refutation_and_the_solution_step_by_step(
    live_server: LiveServer, page: Any
) -> None:
    puzzle = express_2(2, skip=5)
    open_puzzle(page, live_server, puzzle)
    # a win in two: the status says so, as the goal does
    assert "find the win in 2 actions" in page.text_content("[data-testid=puzzle-status]")
    wrong = a_wrong_first_action(puzzle)
    click_action(page, wrong)
    at_stage(page, "failed")
    page.wait_for_selector("[data-testid=puzzle-outcome][data-refuted=true]", timeout=SLOW_MS)
    answer = page.evaluate(
        "([id, a]) => fetch(`/api/puzzles/${id}/attempt`, {method: 'POST', "
        "headers: {'Content-Type': 'application/json'}, body: JSON.stringify({actions: [a]})})"
        ".then(r => r.json())",
        [puzzle.id, wrong],
    )
    # once the answer is on the board, the words name its first three actions and say
    # what it did: another seat won, or no win is left in the actions to go
    refutation = answer["refutation"]
    named = " ".join(refutation[:3]) + (" …" if len(refutation) > 3 else "")
    end = State.from_position(puzzle.position)
    for action in [wrong, *refutation]:
        end = end.after(Action.parse(action))
    if end.is_over:
        assert end.outcome is not None and end.outcome.winner is not None
        winner = ["orange", "green", "blue", "white"][end.outcome.winner]
        said = f"{wrong} does not win: after the answer {named}, {winner} wins."
    else:
        said = f"{wrong} does not win: after the answer {named}, no win in 1 action is left."
    assert page.text_content("[data-testid=puzzle-status]") == said
    # the status, a live region, says it once: the announcer did too, and the keyboard
    # stayed on the arrow the wrong action closed (a screen reader's walk)
    assert said not in (page.text_content("[data-testid=announcer]") or "")
    assert page.evaluate("document.activeElement.id") == "retry"
    # the board shows the refutation's last action
    last = answer["refutation"][-1]
    page.wait_for_selector(f'.arrow.last[data-action="{last}"]')
    page.click("[data-testid=show-solution]")
    assert " ".join(puzzle.solution) in (page.text_content("[data-testid=solution-line]") or "")
    page.wait_for_selector("[data-testid=solution-step][data-step='0']")
    for step, action in enumerate(puzzle.solution, start=1):
        page.click("[data-testid=solution-forward]")
        page.wait_for_selector(f"[data-testid=solution-step][data-step='{step}']")
        page.wait_for_selector(f'.arrow.last[data-action="{action}"]')
    assert page.is_disabled("[data-testid=solution-forward]")
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector(f"[data-testid=solution-step][data-step='{len(puzzle.solution) - 1}']")
    # try again: the same puzzle from its start
    page.click("[data-testid=puzzle-retry]")
    at_stage(page, "solving", 0)


def test_the_solution_asked_for_while_the_answer_plays_shows_the_puzzles_position(
    live_server: LiveServer, page: Any
) -> None:
    """A 4-player puzzle's answer is three actions, drawn one after another: "Show the
    solution" pressed while they came left the board on the answer's end, labelled the
    puzzle's position (an Italian tablet walk)."""
    puzzle = next(p for p in shipped() if p.players == 4 and p.variant == "express")
    open_puzzle(page, live_server, puzzle)
    board = "svg.shiftago-board"
    start = page.get_attribute(board, "aria-description")
    click_action(page, a_wrong_first_action(puzzle))
    at_stage(page, "failed")
    page.click("[data-testid=show-solution]")
    page.wait_for_selector("[data-testid=solution-step][data-step='0']")
    # the answer has been played out (it would have drawn its three actions by now)
    page.wait_for_selector("[data-testid=puzzle-outcome][data-refuted=true]", timeout=SLOW_MS)
    assert page.text_content("[data-testid=solution-step]") == "The puzzle's position"
    assert page.get_attribute(board, "aria-description") == start
    assert page.locator(".arrow.last").count() == 0  # no action marked as the last


def test_a_wrong_action_that_wins_too_slowly_says_so(live_server: LiveServer, page: Any) -> None:
    """L3 in this win in 2 wins in 3 (tests/engine/test_puzzles.py): the words say so,
    where naming the defence's answer blamed the answer for the lost action."""
    puzzle = next(p for p in shipped() if p.id == "express-2-f8e1d9c9e2")
    open_puzzle(page, live_server, puzzle)
    click_action(page, "L3")
    at_stage(page, "failed")
    assert page.text_content("[data-testid=puzzle-status]") == (
        "L3 also wins, but takes 3 actions; the puzzle asks for 2."
    )


def test_a_scoring_short_of_the_win_says_its_points(live_server: LiveServer, page: Any) -> None:
    """A wrong scoring in a puzzle won by points says what it scored and what would win,
    where a bare 'does not win' explained nothing."""
    for puzzle in shipped():
        state = State.from_position(puzzle.position)
        others = [a for a in state.legal_actions() if str(a) != puzzle.solution[0]]
        one_scoring = puzzle.actions == 1 and state.phase.value == "score"
        if puzzle.variant != "express" and one_scoring and others:
            break
    else:
        pytest.fail("no 1-action scoring puzzle with a wrong scoring in the shipped set")
    wrong = others[0]
    seat = state.turn
    scored = state.after(wrong).scores[seat] - state.scores[seat]
    open_puzzle(page, live_server, puzzle)
    click_action(page, str(wrong))
    at_stage(page, "failed")
    points = "point" if scored == 1 else "points"
    need = 10 - state.scores[seat]
    assert page.text_content("[data-testid=puzzle-status]") == (
        f"{wrong} scores {scored} {points}. {need} point{'' if need == 1 else 's'} would have won."
    )


def test_the_daily_puzzle_on_the_home_page_opens_it(live_server: LiveServer, page: Any) -> None:
    daily = live_server.api("GET", "/api/puzzles/daily").json()
    page.goto(live_server.url + "/")
    link = page.wait_for_selector("[data-testid=daily-puzzle-link]", timeout=SLOW_MS)
    assert page.get_attribute("[data-testid=daily-puzzle-link]", "data-puzzle") == daily["id"]
    assert daily["goal"] in (page.text_content("[data-testid=daily-puzzle-goal]") or "")
    assert page.query_selector("[data-testid=daily-puzzle] svg") is not None
    # the link's name says whose turn it is once (the picture's label said it too)
    name = page.locator("[data-testid=daily-puzzle-link]").aria_snapshot().splitlines()[0]
    assert name.count(" to act") == 1, name
    assert page.is_hidden("[data-testid=daily-puzzle-solved]")
    link.click()
    at_stage(page, "solving", 0)
    assert page.url.endswith(f"/puzzles/{daily['id']}")
    assert page.text_content("[data-testid=puzzle-goal]") == daily["goal"]
    # the page says it is the day's puzzle, and once solved the home page's card does
    page.wait_for_selector("#puzzle-title[data-daily=true]")
    assert page.text_content("#puzzle-title") == "Puzzle of the day"
    puzzle = next(p for p in shipped() if p.id == daily["id"])
    mine = solver_actions(puzzle)
    for number, action in enumerate(mine, start=1):
        click_action(page, action)
        if number < len(mine):
            at_stage(page, "solving", number)
    at_stage(page, "solved")
    page.goto(live_server.url + "/")
    page.wait_for_selector("[data-testid=daily-puzzle-solved]", timeout=SLOW_MS)
    assert page.text_content("[data-testid=daily-puzzle-solved]") == "Solved ✓"
    page.goto(f"{live_server.url}/puzzles/{express_2(1, skip=6).id}")  # another puzzle
    page.wait_for_selector("#puzzle-title[data-daily=false]")
    assert page.text_content("#puzzle-title") == "The puzzle"


def test_a_theme_chosen_gives_puzzles_of_that_theme(live_server: LiveServer, page: Any) -> None:
    page.goto(live_server.url + "/puzzles")
    at_stage(page, "solving", 0)
    options = page.eval_on_selector_all(
        "[data-testid=theme-picker] option", "els => els.map(e => e.value)"
    )
    assert options == ["", *THEMES]
    for theme in ("defend", "expert"):
        page.select_option("[data-testid=theme-picker]", theme)
        page.wait_for_selector(
            f"[data-testid=puzzle-themes] li[data-theme={theme}]", timeout=SLOW_MS
        )
        at_stage(page, "solving", 0)
    # the choice is kept for the next visit
    page.reload()
    at_stage(page, "solving", 0)
    assert page.input_value("[data-testid=theme-picker]") == "expert"
    # the arrow keys only move through the themes (a screen reader's user reads them so):
    # no puzzle is loaded, the keyboard stays, until Enter chooses
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.focus("[data-testid=theme-picker]")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    chosen = page.input_value("[data-testid=theme-picker]")
    assert chosen != "expert"
    page.wait_for_timeout(300)  # a puzzle asked for would be on its way by now
    assert [url for url in asked if "/api/puzzles" in url] == []
    assert page.evaluate("() => document.activeElement.dataset.testid") == "theme-picker"
    page.keyboard.press("Enter")
    page.wait_for_selector(f"[data-testid=puzzle-themes] li[data-theme={chosen}]", timeout=SLOW_MS)


def test_the_streak_mode_counts_solves_in_a_row_until_a_mistake(
    live_server: LiveServer, page: Any
) -> None:
    page.goto(live_server.url + "/puzzles")
    at_stage(page, "solving", 0)
    page.check("[data-testid=streak-mode]")
    for skip in (0, 1):
        puzzle = express_2(1, skip=skip)
        open_puzzle(page, live_server, puzzle)
        click_action(page, puzzle.solution[0])
        at_stage(page, "solved")
        page.wait_for_selector(f"[data-testid=puzzles-solved][data-run='{skip + 1}']")
    puzzle = express_2(1, skip=2)
    open_puzzle(page, live_server, puzzle)
    wrong = a_wrong_first_action(puzzle)
    click_action(page, wrong)
    at_stage(page, "failed")
    assert "2" in (page.text_content("[data-testid=puzzle-outcome-words]") or "")
    # the live status line says the run's end too, also once the answer is played out
    page.wait_for_selector("[data-testid=puzzle-outcome][data-refuted=true]")
    status = page.text_content("[data-testid=puzzle-status]") or ""
    assert "Streak over: 2 solved in a row." in status
    assert page.is_hidden("[data-testid=puzzle-retry]")  # a run ends at its first mistake
    page.wait_for_selector("[data-testid=puzzles-solved][data-run='0']")
    stored = page.evaluate("JSON.parse(localStorage.getItem('shiftago.puzzles'))")
    assert stored["streak"] == 0 and stored["best"] == 2 and stored["streakMode"] is True


def test_a_puzzle_solved_after_a_failure_is_no_first_try_for_the_streak(
    live_server: LiveServer, page: Any
) -> None:
    """Signed out, a puzzle solved on its retry counted in the streak, which counts first
    attempts (docs/puzzles.md) as the server does for an account."""
    page.goto(live_server.url + "/puzzles")
    at_stage(page, "solving", 0)
    page.evaluate("localStorage.removeItem('shiftago.puzzles')")
    puzzle = express_2(1, skip=7)
    open_puzzle(page, live_server, puzzle)
    wrong = a_wrong_first_action(puzzle)
    click_action(page, wrong)
    at_stage(page, "failed")
    page.click("[data-testid=puzzle-retry]")
    at_stage(page, "solving", 0)
    click_action(page, puzzle.solution[0])
    at_stage(page, "solved")
    stored = page.evaluate("JSON.parse(localStorage.getItem('shiftago.puzzles'))")
    assert puzzle.id in stored["solved"] and stored["streak"] == 0
    page.wait_for_selector("[data-testid=puzzle-streak][data-streak='0']")
    # solved again from the start: solved before, so no first try either
    open_puzzle(page, live_server, puzzle)
    click_action(page, puzzle.solution[0])
    at_stage(page, "solved")
    assert page.evaluate("JSON.parse(localStorage.getItem('shiftago.puzzles')).streak") == 0
    # the next puzzle, on the same page: the screen reader's region no longer says the
    # last one's winning action
    region = "() => document.querySelector('[data-testid=announcer]').textContent"
    page.wait_for_function(f"() => ({region})().includes('pushed in')")
    page.click("[data-testid=puzzle-next]")
    at_stage(page, "solving", 0)
    assert page.evaluate(region) == ""
    # a new puzzle solved at once counts
    other = express_2(1, skip=8)
    open_puzzle(page, live_server, other)
    click_action(page, other.solution[0])
    at_stage(page, "solved")
    page.wait_for_selector("[data-testid=puzzle-streak][data-streak='1']")


def test_a_failed_puzzle_is_not_served_next_nor_counted_as_a_first_try_later(
    live_server: LiveServer, page: Any
) -> None:
    """The German walk: "Next puzzle" after a failure served the same puzzle again, and
    solving it then counted as a first try."""
    page.goto(live_server.url + "/puzzles")
    at_stage(page, "solving", 0)
    page.evaluate("localStorage.removeItem('shiftago.puzzles')")
    puzzle = express_2(1, skip=9)
    open_puzzle(page, live_server, puzzle)
    click_action(page, a_wrong_first_action(puzzle))
    at_stage(page, "failed")
    # the server's next answer is the puzzle just failed, then what it would say
    again = page.request.get(f"{live_server.url}/api/puzzles/{puzzle.id}").json()
    answers = [again]

    def next_answer(route: Any) -> None:
        if answers:
            route.fulfill(json=answers.pop())
        else:
            route.continue_()

    page.route("**/api/puzzles/next*", next_answer)
    page.click("[data-testid=puzzle-next]")
    at_stage(page, "solving", 0)
    assert not answers and puzzle.id not in page.url
    page.unroute("**/api/puzzles/next*")
    # opened again and solved: failed before in this browser, so no first try
    open_puzzle(page, live_server, puzzle)
    click_action(page, puzzle.solution[0])
    at_stage(page, "solved")
    stored = page.evaluate("JSON.parse(localStorage.getItem('shiftago.puzzles'))")
    assert puzzle.id in stored["failed"] and stored["streak"] == 0


def test_the_page_fits_a_phone(live_server: LiveServer, new_context: NewContext) -> None:
    page = new_context(viewport={"width": 375, "height": 740}, has_touch=True).new_page()
    puzzle = express_2(1)
    open_puzzle(page, live_server, puzzle)
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= 375
    box = page.query_selector("#board svg").bounding_box()
    assert box and box["width"] >= 300


def test_an_expert_puzzle_of_3_players_is_solved_with_its_scoring_chosen(
    live_server: LiveServer, page: Any
) -> None:
    puzzle = next(
        p for p in shipped() if p.variant == "expert" and p.players == 3 and p.actions == 2
    )
    open_puzzle(page, live_server, puzzle)
    # the points to reach 10 from are shown under the board, with each seat's marbles
    state = State.from_position(puzzle.position)
    chips = page.locator("[data-testid=puzzle-seats] .seat-chip")
    assert chips.all_inner_texts() == [
        f"{colour}\n{state.supplies[n]} marbles left · {state.scores[n]} points"
        for n, colour in enumerate(("Orange", "Green", "Blue"))
    ]
    mine = solver_actions(puzzle)
    assert mine[-1].startswith("x")  # the last action is a scoring, chosen in the list
    listed = page.locator("[data-testid=score-choices] button")
    for number, action in enumerate(mine, start=1):
        if action.startswith("x"):
            # the list under the board holds the board's choices, a finger wide
            listed.first.wait_for()
            on_board = page.eval_on_selector_all(
                ".scoring-choices [data-action]", "cs => cs.map(c => c.dataset.action)"
            )
            assert sorted(listed.evaluate_all("bs => bs.map(b => b.dataset.action)")) == sorted(
                on_board
            )
            page.click(f"[data-testid=score-choices] button[data-action='{action}']")
        else:
            assert listed.count() == 0 and page.is_hidden("#score-choices")
            click_action(page, action)
        if number < len(mine):
            at_stage(page, "solving", number)
    at_stage(page, "solved")


def test_a_puzzle_that_is_not_there_offers_the_next_one(live_server: LiveServer, page: Any) -> None:
    page.goto(live_server.url + "/puzzles/not-a-puzzle")
    at_stage(page, "failed")
    assert page.inner_text("[data-testid=puzzle-status]") == "There is no such puzzle."
    # no board, field or card of a puzzle that is not there: the next one is offered
    assert page.is_hidden("#board") and page.is_hidden("[data-testid=action-input]")
    assert page.is_hidden("[data-testid=puzzle-link]")
    page.click("[data-testid=puzzle-next]")
    at_stage(page, "solving")
    assert page.is_visible("#board") and page.is_visible("[data-testid=puzzle-link]")
    assert "/puzzles/not-a-puzzle" not in page.url


def listening(new_context: NewContext) -> Any:
    """A page whose live regions' words are written down (``support.heard``)."""
    context = new_context()
    context.add_init_script(LISTEN)
    return context.new_page()


def test_the_answer_is_one_sentence_and_solved_is_said_once(
    live_server: LiveServer, new_context: NewContext
) -> None:
    """A blind player's walk heard the other players' answer as one announcement per
    action (seven in a row) and "Solved!" twice: by the status and by the announcer."""
    page = listening(new_context)
    puzzle = next(p for p in shipped() if p.id == "express-3-f8c61b4e33")
    open_puzzle(page, live_server, puzzle)
    first, last = solver_actions(puzzle)
    click_action(page, first)
    at_stage(page, "solving", 1)
    reply = page.evaluate(
        "([id, a]) => fetch(`/api/puzzles/${id}/attempt`, {method: 'POST', "
        "headers: {'Content-Type': 'application/json'}, body: JSON.stringify({actions: [a]})})"
        ".then(r => r.json()).then(v => v.reply)",
        [puzzle.id, first],
    )
    assert len(reply) == 2
    state = State.from_position(puzzle.position).after(Action.parse(first))
    each = []
    for action in reply:
        each.append(f"{['Orange', 'Green', 'Blue', 'White'][state.turn]} {action}")
        state = state.after(Action.parse(action))
    heard = said(page)
    assert f"The answer: {each[0]} and {each[1]}." in heard, heard
    # the solver's own action is said in words; the answer's actions are not said apart
    assert len([words for words in heard if "pushed in" in words]) == 1, heard
    click_action(page, last)
    at_stage(page, "solved")
    page.wait_for_timeout(300)  # anything the page would say after the status is said
    assert [words for words in said(page) if "Solved" in words] == ["Solved!"]


def test_show_the_solution_says_the_solution(
    live_server: LiveServer, new_context: NewContext
) -> None:
    """ "Show the solution" showed it, and a screen reader heard nothing of it."""
    page = listening(new_context)
    puzzle = express_2(1, skip=3)
    open_puzzle(page, live_server, puzzle)
    click_action(page, a_wrong_first_action(puzzle))
    at_stage(page, "failed")
    page.wait_for_selector("[data-testid=puzzle-outcome][data-refuted=true]", timeout=SLOW_MS)
    forget(page)
    page.click("[data-testid=show-solution]")
    page.wait_for_selector("[data-testid=solution-step][data-step='0']")
    page.wait_for_function("() => window.__heard.length > 0")
    assert said(page) == [f"The solution: {' '.join(puzzle.solution)}"]
    page.click("[data-testid=solution-forward]")  # and each step says its action
    page.wait_for_function("() => window.__heard.length > 1")
    solver = ["Orange", "Green", "Blue", "White"][State.from_position(puzzle.position).turn]
    assert said(page)[-1].startswith(f"{solver} pushed in"), said(page)
