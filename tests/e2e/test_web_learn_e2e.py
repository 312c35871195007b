"""End to end (issue 51): the lessons of /learn in headless Chromium. A lesson completed
by clicks and one by keys; a wrong action explained and tried again; progress kept
after a reload, merged into the account at sign-up and brought to another browser at
sign-in; and the closing game against the computer's gentlest level opened."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import expect
from test_web_accounts_e2e import sign_up
from test_web_e2e import focused_action, read, tab_to

from support.board_clicks import click_action
from support.web_fixtures import LiveServer, NewContext

PASSWORD = "correct horse"


@pytest.fixture
def live_server(shared_server: LiveServer) -> LiveServer:
    """One server for the module: a lesson's progress is its browser context's, and the
    one account is its own test's."""
    return shared_server


def open_lesson(server: LiveServer, context: Any, lesson: str) -> Any:
    page = context.new_page()
    page.goto(f"{server.url}/learn/{lesson}")
    page.locator("[data-testid=goal]:not(:empty)").wait_for()
    return page


def explanation(page: Any, kind: str) -> str:
    """The explanation once it shows a verdict of ``kind`` (info: met or going on)."""
    box = page.locator(f"[data-testid=explanation][data-kind={kind}]")
    box.wait_for()
    return str(box.text_content())


def stored_progress(page: Any) -> dict[str, int]:
    found: dict[str, int] = json.loads(
        page.evaluate("() => localStorage.getItem('shiftago.learn') || '{}'")
    )
    return found


def account_progress(page: Any) -> dict[str, int]:
    found: dict[str, int] = page.evaluate(
        "async () => (await (await fetch('/api/account/learn')).json()).lessons"
    )
    return found


def test_a_lesson_completed_by_clicks_and_kept_after_a_reload(
    live_server: LiveServer, new_context: NewContext
):
    context = new_context()
    page = open_lesson(live_server, context, "push")
    assert page.locator("[data-testid=step-count]").text_content() == "Step 1 of 3"
    for number, action in enumerate(["Bc", "L3", "Bd"], 1):
        click_action(page, action)
        assert explanation(page, "info").startswith("Well done")
        assert stored_progress(page)["push"] == number
        # the status says where to go from here, not the explanation's words again
        status = page.text_content("[data-testid=status]")
        assert status == ("On to the next step." if number < 3 else "The lesson is done.")
        if number < 3:
            page.click("[data-testid=next-step]")
            page.locator(f"[data-testid=step-count]:has-text('Step {number + 1} of 3')").wait_for()
    page.locator("[data-testid=lesson-finished]").wait_for()
    marks = page.locator("[data-testid=step-mark][data-done=true]")
    assert marks.count() == 3
    page.goto(live_server.url + "/learn")
    lesson = page.locator("[data-testid=lesson][data-lesson=push]")
    lesson.wait_for()
    assert lesson.get_attribute("data-complete") == "true"
    assert page.locator("[data-testid=lesson][data-lesson=full]").get_attribute("data-done") == "0"
    progress = "[data-testid=lesson][data-lesson={}] [data-testid=lesson-progress]"
    assert page.locator(progress.format("push")).text_content() == "Done"
    assert page.locator(progress.format("full")).text_content() == "2 steps"
    assert page.locator(progress.format("handicap")).text_content() == "1 step"
    french = new_context(locale="fr-FR").new_page()
    french.goto(live_server.url + "/learn")
    french.locator(progress.format("handicap")).wait_for()
    assert french.locator(progress.format("handicap")).text_content() == "1 étape"
    assert french.locator(progress.format("full")).text_content() == "2 étapes"
    page.reload()
    lesson.wait_for()
    assert lesson.get_attribute("data-complete") == "true"


def test_the_status_names_the_colour_as_a_sentence_does(
    live_server: LiveServer, new_context: NewContext
):
    """A Spanish walk read "Juegas con verde." above "Juegas con Verde: ...": the status
    takes the colour's in-sentence word, as the goal does."""
    page = new_context(locale="es-ES").new_page()
    page.goto(f"{live_server.url}/learn/push?lang=es")
    page.locator("[data-testid=goal]:not(:empty)").wait_for()
    status = page.text_content("[data-testid=status]")
    assert status == "Juegas con naranja: introduce una bola.", status


def test_a_lesson_completed_by_keys(live_server: LiveServer, new_context: NewContext):
    page = open_lesson(live_server, new_context(), "line-of-5")
    # the arrows by the keyboard: L1, then up the left side to L4, and Enter
    tab_to(page, '[data-action="L1"][aria-disabled="false"]')
    for _ in range(3):
        page.keyboard.press("ArrowUp")
    assert focused_action(page) == "L4"
    page.keyboard.press("Enter")
    explanation(page, "info")
    # the focus is on Next step: Enter goes on
    page.wait_for_function("() => document.activeElement?.dataset.testid === 'next-step'")
    page.keyboard.press("Enter")
    page.locator("[data-testid=step-count]:has-text('Step 2 of 2')").wait_for()
    # the keyboard is on the board: the new goal, above it, is said (a screen reader's walk)
    goal = page.text_content("[data-testid=goal]")
    assert page.text_content("[data-testid=step-told]") == f"Step 2 of 2. {goal}"
    tab_to(page, "[data-testid=action-input]")
    page.keyboard.type("te")
    page.keyboard.press("Enter")
    assert explanation(page, "info").startswith("Well done")
    page.locator("[data-testid=lesson-finished]").wait_for()
    page.wait_for_function("() => document.activeElement?.dataset.testid === 'play-gentle'")
    assert stored_progress(page)["line-of-5"] == 2


def test_a_wrong_action_is_explained_and_tried_again(
    live_server: LiveServer, new_context: NewContext
):
    page = open_lesson(live_server, new_context(), "full?step=2")
    start = page.locator("[data-cell=a4].marble, .marble[data-cell=a4]").first
    start.wait_for(state="attached")
    # rank 4 is full: its arrows are drawn as in a game (not legal), yet may be tried
    full = page.locator(".arrow[data-action=L4]")
    assert full.get_attribute("data-legal") == "false"
    assert full.get_attribute("class") == "arrow illegal active"
    assert page.locator(".arrow[data-action=Ba]").get_attribute("data-legal") == "true"
    click_action(page, "L4")  # and the refusal is explained
    words = explanation(page, "error")
    assert "L4 cannot be played: its lane is full" in words
    assert page.locator("[data-testid=try-again]").is_visible()
    page.click("[data-testid=try-again]")
    click_action(page, "Tg")  # a push that makes no line: explained, and shown on the board
    assert "Tg makes no line of 5" in explanation(page, "error")
    page.locator(".marble[data-cell=g7]").wait_for(state="attached")
    page.click("[data-testid=try-again]")
    page.wait_for_function("() => !document.querySelector('.marble[data-cell=\"g7\"]')")
    click_action(page, "Ba")
    assert explanation(page, "info").startswith("Well done")
    assert page.locator("[data-testid=explanation]").text_content().endswith("a line of 5.")


def test_progress_is_merged_into_the_account_and_reaches_another_browser(
    live_server: LiveServer, new_context: NewContext
):
    first = new_context()
    page = first.new_page()
    page.goto(live_server.url + "/learn")
    page.evaluate("() => localStorage.setItem('shiftago.learn', JSON.stringify({block: 1}))")
    page.reload()
    page.locator("[data-testid=lesson][data-lesson=block][data-done='1']").wait_for()
    sign_up(page, "Ann")
    page.wait_for_function(
        "async () => (await (await fetch('/api/account/learn')).json()).lessons.block === 1"
    )
    page.goto(live_server.url + "/learn/push")
    page.locator("[data-testid=goal]:not(:empty)").wait_for()
    click_action(page, "Bc")
    explanation(page, "info")
    page.wait_for_function(
        "async () => (await (await fetch('/api/account/learn')).json()).lessons.push === 1"
    )
    assert account_progress(page) == {"block": 1, "push": 1}

    other = new_context()  # another browser, with no progress of its own
    page = other.new_page()
    page.goto(live_server.url + "/learn")
    page.locator("[data-testid=lesson][data-lesson=push][data-done='0']").wait_for()
    page.click("[data-testid=account-open]")
    page.fill("[data-testid=account-form] input[name=name]", "ann")
    page.fill("[data-testid=account-form] input[name=password]", PASSWORD)
    page.click("[data-testid=sign-in]")
    page.locator("[data-testid=lesson][data-lesson=push][data-done='1']").wait_for()
    page.locator("[data-testid=lesson][data-lesson=block][data-done='1']").wait_for()
    assert stored_progress(page) == {"block": 1, "push": 1}


def test_a_sign_up_on_another_page_brings_the_progress_into_the_account(
    live_server: LiveServer, new_context: NewContext
):
    """An Italian walk signed up on the home page after the lessons: the account had
    none of them until the lessons page was opened again in that browser."""
    page = new_context().new_page()
    page.goto(live_server.url + "/")
    page.evaluate("() => localStorage.setItem('shiftago.learn', JSON.stringify({block: 1}))")
    sign_up(page, "Giulia")
    assert account_progress(page) == {"block": 1}  # at once: no lessons page opened


def test_the_closing_game_is_against_the_gentlest_level(
    live_server: LiveServer, new_context: NewContext
):
    page = open_lesson(live_server, new_context(), "tournament")
    click_action(page, "Bf")
    page.locator("[data-testid=lesson-finished]").wait_for()
    page.click("[data-testid=play-gentle]")
    page.wait_for_url("**/play/**")
    game_id = page.url.split("/play/")[1].split("?")[0]
    game = read(live_server, game_id)
    levels = live_server.api("GET", "/api/levels").json()["levels"]
    gentlest = min(level["level"] for level in levels)
    assert (game["variant"], len(game["seats"])) == ("express", 2)
    assert [(s["kind"], s["level"]) for s in game["seats"]] == [
        ("human", None),
        ("computer", gentlest),
    ]


def test_the_lessons_fit_a_phone(live_server: LiveServer, new_context: NewContext):
    context = new_context(viewport={"width": 375, "height": 740})
    page = open_lesson(live_server, context, "push")
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 375
    top = "() => document.querySelector('#board svg').getBoundingClientRect().top + scrollY"
    before = page.evaluate(top)
    click_action(page, "Bc")
    explanation(page, "info")
    # the explanation comes under the board: the board does not move under the finger
    assert page.evaluate(top) == before
    page.goto(live_server.url + "/learn")
    page.locator("[data-testid=lesson]").first.wait_for()
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 375


#: Whether the whole of an element is inside the window.
IN_VIEW = """(s) => {
  const box = document.querySelector(s).getBoundingClientRect();
  return box.top >= -1 && box.bottom <= innerHeight + 1;  // a pixel for rounding
}"""


def test_on_a_tablet_the_action_field_is_one_line_high(
    live_server: LiveServer, new_context: NewContext
):
    """The action field's form took a row's flex basis (14rem) as its height in the
    board's column: bands of empty page above and below it pushed "Next lesson" below
    the screen of an upright tablet (an Italian walk)."""
    tablet = new_context(viewport={"width": 820, "height": 1180}, has_touch=True, is_mobile=True)
    page = open_lesson(live_server, tablet, "push")
    form = page.locator("#typed").bounding_box()
    field = page.locator("[data-testid=action-input]").bounding_box()
    assert form is not None and field is not None
    assert form["height"] <= field["height"] + 2


def test_on_a_tablet_the_explanation_and_the_next_goal_stay_in_view(
    live_server: LiveServer, new_context: NewContext
):
    """Upright on a tablet the board is most of the screen: the focus moved to the
    button under it scrolled the explanation of a try above the screen, and a new step
    opened scrolled past its goal."""
    tablet = new_context(viewport={"width": 768, "height": 1024}, has_touch=True, is_mobile=True)
    page = open_lesson(live_server, tablet, "push")
    click_action(page, "Ba")  # not the column the goal names
    explanation(page, "error")
    page.wait_for_function(IN_VIEW, arg="[data-testid=explanation]")
    assert page.evaluate("document.activeElement.dataset.testid") == "try-again"
    page.click("[data-testid=try-again]")
    click_action(page, "Bc")
    explanation(page, "info")
    page.wait_for_function(IN_VIEW, arg="[data-testid=explanation]")
    page.click("[data-testid=next-step]")
    page.locator("[data-testid=step-count]:has-text('Step 2 of')").wait_for()
    page.wait_for_function(IN_VIEW, arg="[data-testid=goal]")


def test_a_scoring_step_keeps_the_end_chosen_and_explains_the_other(
    live_server: LiveServer, new_context: NewContext
):
    page = open_lesson(live_server, new_context(), "keep-an-end")
    page.locator("[data-testid=status]:has-text('score a line')").wait_for()
    click_action(page, "xc2-c5")  # keeps c2: the wrong end
    assert "xc2-c5 keeps c2 on the board; the goal is to keep c5." in explanation(page, "error")
    page.click("[data-testid=try-again]")
    # the choices are a list under the board too, a finger wide, each with its end kept
    # (the board's "keep" badges are small on a phone)
    listed = page.locator("[data-testid=score-choices] button")
    listed.first.wait_for()
    assert sorted(listed.evaluate_all("bs => bs.map(b => b.dataset.action)")) == [
        "xc2-c5",
        "xc5-c2",
    ]
    chosen = page.locator("[data-testid=score-choices] button[data-action='xc5-c2']")
    assert "keep c5" in chosen.inner_text()
    chosen.click()
    assert explanation(page, "info").startswith("Well done")
    page.locator(".marble[data-cell=c5]").wait_for(state="attached")
    assert page.locator(".marble[data-cell=c3]").count() == 0  # scored: it came off


def test_on_a_touch_screen_a_score_choice_previews_then_plays(
    live_server: LiveServer, new_context: NewContext
):
    """The page says one tap previews and two play; a scoring button scored at the
    first tap (an Italian tablet walk), past taking back in a game between people."""
    tablet = new_context(viewport={"width": 768, "height": 1024}, has_touch=True, is_mobile=True)
    page = open_lesson(live_server, tablet, "keep-an-end")
    page.locator("[data-testid=status]:has-text('score a line')").wait_for()
    # no choice is a toggle until a tap previews it: a screen reader heard each as
    # "toggle button, not pressed" (a blind player's walk)
    assert page.locator("[data-testid=score-choices] button[aria-pressed]").count() == 0
    chosen = page.locator("[data-testid=score-choices] button[data-action='xc5-c2']")
    chosen.tap()
    page.wait_for_selector(
        "[data-testid=score-choices] button[data-action='xc5-c2'][aria-pressed=true]"
    )
    page.wait_for_selector(".marble.to-remove", state="attached")  # the board previews it
    assert page.locator(".marble[data-cell=c3]").count() == 1  # not scored yet
    chosen.tap()
    assert explanation(page, "info").startswith("Well done")
    page.locator(".marble[data-cell=c3]").wait_for(state="detached")


#: Each "keep" marker's word and whether it lies inside the marker's circle.
KEEP_WORDS_FIT = """() => [...document.querySelectorAll(".choice-keep")].map((marker) => {
  const word = marker.querySelector(".keep-text");
  const radius = marker.querySelector("circle").r.baseVal.value;
  return [word.textContent, word.getBBox().width <= 2 * radius];
})"""


def test_the_keep_marker_holds_its_word_in_every_language(
    live_server: LiveServer, new_context: NewContext
):
    """The end that stays is marked by a word in a circle; a longer word than English's
    (Dutch "houden", German "bleibt") is pressed to fit inside it."""
    page = new_context().new_page()
    for language in ("nl", "de", "en"):
        page.goto(f"{live_server.url}/learn/keep-an-end?lang={language}")
        page.locator(".choice-keep").first.wait_for()
        words = page.evaluate(KEEP_WORDS_FIT)
        assert len(words) == 2 and all(fits for _, fits in words), (language, words)


def test_on_a_phone_the_end_of_a_lesson_comes_into_view(
    live_server: LiveServer, new_context: NewContext
):
    """The card that says the lesson is complete, with the next lesson and a game, is
    below the board and the steps on a phone: it came out of sight (a phone walk)."""
    phone = new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = open_lesson(live_server, phone, "tournament")
    click_action(page, "Bf")
    page.locator("[data-testid=lesson-finished]").wait_for()
    page.wait_for_function(IN_VIEW, arg="[data-testid=lesson-finished]")


def test_the_keep_marker_s_pointer_target_is_no_tab_stop(
    live_server: LiveServer, new_context: NewContext
):
    """The larger disc that takes a pointer's click on a keep marker was a nameless Tab
    stop before the marker's own button (a screen reader's walk): every Tab stop of the
    lesson page has a name."""
    page = new_context().new_page()
    page.goto(f"{live_server.url}/learn/keep-an-end")
    page.locator(".choice-keep").first.wait_for()
    stops = []
    for _ in range(40):
        page.keyboard.press("Tab")
        stops.append(
            page.evaluate(
                """() => { const e = document.activeElement;
                  const label = e.labels && e.labels.length ? e.labels[0].textContent : '';
                  return [e.tagName.toLowerCase(), e.getAttribute('class') || '',
                          e.getAttribute('aria-label') || e.textContent.trim() || label]; }"""
            )
        )
    assert not [s for s in stops if "hit-disc" in s[1]], stops
    assert [s for s in stops if not s[2]] == [], stops


def test_back_and_forward_move_between_the_steps(live_server: LiveServer, new_context: NewContext):
    """Each step is an entry of the browser's history: "Next step" replaced the address,
    and Back left the lesson from its second step."""
    page = new_context().new_page()
    page.goto(f"{live_server.url}/learn")
    page.goto(f"{live_server.url}/learn/push?step=1")
    count = page.locator("[data-testid=step-count]")
    expect(count).to_have_text("Step 1 of 3")
    click_action(page, "Bc")
    explanation(page, "info")
    page.click("[data-testid=next-step]")
    expect(count).to_have_text("Step 2 of 3")
    assert page.url.endswith("/learn/push?step=2")
    page.locator("[data-testid=step-mark]").nth(2).click()  # a step chosen is one too
    expect(count).to_have_text("Step 3 of 3")
    page.reload()  # a reload keeps the step
    expect(count).to_have_text("Step 3 of 3")
    page.go_back()
    expect(count).to_have_text("Step 2 of 3")
    assert page.url.endswith("/learn/push?step=2")
    goal = page.text_content("[data-testid=goal]")
    assert page.text_content("[data-testid=step-told]") == f"Step 2 of 3. {goal}"
    expect(page.locator("[data-testid=explanation]")).to_be_hidden()  # the step afresh
    page.go_back()
    expect(count).to_have_text("Step 1 of 3")
    page.go_forward()
    expect(count).to_have_text("Step 2 of 3")
    page.go_back()
    expect(count).to_have_text("Step 1 of 3")
    page.go_back()  # from the first step, Back leaves the lesson
    page.wait_for_url(f"{live_server.url}/learn")
