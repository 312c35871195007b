"""End to end (issue 15): the game page draws what the server sends, in headless Chromium.

A finished game's replay follows the step (``[data-testid=position]``,
``[data-testid=replay-step]``, the panels, keys and ``?step=`` in the URL), the action
list numbers turns as the record does and shows points and skips, take back works at
one screen, the share panel lists the links this browser knows, only the screen that
may act sees coloured arrows, a seat that is away is handed to the computer at a chosen
level, and a phone gets arrows a finger wide and the result above the board.
"""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from test_web_e2e import (
    PHONE,
    Seat,
    both_seats_here,
    create,
    hold_seat,
    hotseat,
    open_page,
    play,
    read,
    shows,
    wait_until,
)
from websockets.sync.client import connect

from shiftago.core import Game, Phase, Rules, Scoring, State, Variant
from shiftago.formats.record import Record, format_record
from support.board_clicks import PLAYABLE, click_action
from support.web_fixtures import LiveServer, NewContext, StartServer

# Where the board's box sits on the page (not in the window, which a click may scroll).
BOARD_TOP = """() => {
  const r = document.getElementById("board").getBoundingClientRect();
  return [r.left + scrollX, r.top + scrollY, r.width, r.height];
}"""


@pytest.fixture
def live_server(shared_server: LiveServer) -> LiveServer:
    """One server for the module: each test makes or imports its own games and reads only
    them; the seat-claim tests use their own (``quick_grace``)."""
    return shared_server


# ---------------------------------------------------------------- games to replay


def random_game(variant: Variant, players: int, handicap: tuple[int, ...], seed: int) -> Game:
    """A whole game of random legal actions (the same for the same seed)."""
    chooser = random.Random(seed)
    game = Game(Rules(variant, players, handicap), first=0)
    while game.state.outcome is None:
        game.play(chooser.choice(list(game.state.legal_actions())))
    return game


def import_game(server: LiveServer, game: Game) -> tuple[dict[str, Any], str]:
    """The game as a new game of the server (``POST /api/games/import``), and its record."""
    text = format_record(Record.from_game(game))
    response = server.api("POST", "/api/games/import", json={"record": text})
    assert response.status_code == 201, response.text
    return response.json(), text


@pytest.fixture(scope="module")
def expert_game() -> Game:
    """A 3-player Expert game won on points, green with a handicap of 2 skipped turns."""
    game = random_game(Variant.EXPERT, 3, (0, 2, 0), seed=2)
    assert game.state.outcome is not None and game.state.outcome.reason.value == "points"
    assert sum(isinstance(a, Scoring) for a in game.history) >= 3
    return game


def step(page: Any) -> int:
    return int(page.text_content("[data-testid=replay-step]").strip())


def shows_step(page: Any, k: int, expected: str) -> None:
    page.wait_for_function(
        """([k, p]) => {
            const text = (id) => document.querySelector(`[data-testid=${id}]`).textContent.trim();
            return text('replay-step') === String(k) && text('position') === p;
        }""",
        arg=[k, expected],
    )


def panels(page: Any) -> dict[str, str]:
    """The players' figures as the page shows them: supply-o, score-o, ..."""
    return page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('.player dd')]
            .map(n => [n.dataset.testid, n.textContent.trim()]))"""
    )


def expected_panels(state: State) -> dict[str, str]:
    out = {}
    for i, colour in enumerate("ogbw"[: state.rules.players]):
        out[f"supply-{colour}"] = str(state.supplies[i])
        out[f"score-{colour}"] = str(state.scores[i])
        if state.skips[i]:
            out[f"skips-{colour}"] = str(state.skips[i])
    return out


def to_act(page: Any) -> list[str]:
    return page.eval_on_selector_all(
        ".player.to-act", "nodes => nodes.map(n => n.dataset.testid.slice(-1))"
    )


def turn_words(page: Any) -> dict[str, str]:
    """Each card's turn words ("to play", "winner", ...) by its colour."""
    return page.eval_on_selector_all(
        ".player",
        "ns => Object.fromEntries(ns.map(n => [n.dataset.testid.slice(-1),"
        " n.querySelector('.turn').textContent]))",
    )


# ---------------------------------------------------------------- replay


def test_the_replay_of_a_finished_game_follows_every_step(
    live_server: LiveServer, new_context: NewContext, expert_game: Game
):
    created, _ = import_game(live_server, expert_game)
    states = expert_game.states
    n = len(expert_game.history)
    page = open_page(new_context(), created["watch_url"])
    shows_step(page, n, states[n].position())
    assert page.is_visible("[data-testid=result]")  # the result at the last step

    page.keyboard.press("Home")
    for k in range(n + 1):
        if k:
            page.keyboard.press("ArrowRight")
        shows_step(page, k, states[k].position())
        assert panels(page) == expected_panels(states[k]), f"step {k}"
        state = states[k]
        if k < n:
            assert to_act(page) == ["ogbw"[state.turn]], f"step {k}"
            assert not page.is_visible("[data-testid=result]"), f"step {k}"
            # before the end no card names a winner; only the seat to act has words
            acting = "to score" if state.phase is Phase.SCORE else "to play"
            assert turn_words(page) == {
                "ogbw"[seat]: acting if seat == state.turn else ""
                for seat in range(state.rules.players)
            }, f"step {k}"
        assert f"step={k}" in page.url
        href = page.get_attribute("[data-testid=analyse-here]", "href")
        assert href == f"/analysis?position={quote(state.position(), safe='')}"
    assert page.is_visible("[data-testid=result]")
    page.keyboard.press("ArrowLeft")
    shows_step(page, n - 1, states[n - 1].position())
    page.keyboard.press("End")
    shows_step(page, n, states[n].position())

    # a link opens at its step; a click in the action list jumps there
    other = new_context().new_page()
    other.goto(f"{live_server.url}/watch/{created['id']}?step=7")
    shows_step(other, 7, states[7].position())
    assert panels(other) == expected_panels(states[7])
    other.click("[data-testid=moves] .move[data-index='19']")
    shows_step(other, 20, states[20].position())
    assert "step=20" in other.url
    other.click("#rp-prev")
    shows_step(other, 19, states[19].position())


def test_in_a_replay_the_computer_to_act_is_not_thinking(
    start_server: StartServer, new_context: NewContext
):
    # a server of its own whose computers act at once: the game is played to its end
    live_server = start_server(bot_delay=0)
    computer = {"kind": "computer", "level": 1}
    created = create(live_server, variant="express", players=2, first="o", seats=[computer] * 2)
    game = wait_until(
        lambda: (g := read(live_server, created["id"]))["status"].startswith("over") and g,
        timeout=60,
        what="the computers' game to end",
    )
    replayed = Game(Rules(), first=0)
    replayed.play(game["actions"][0])
    page = open_page(new_context(), created["watch_url"])
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    shows_step(page, 1, replayed.state.position())
    turns = page.eval_on_selector_all(".player .turn", "ns => ns.map(n => n.textContent)")
    assert "thinking…" not in turns, turns
    assert turns == ["", "to play"], turns  # green acts second; nobody has won yet
    assert "thinking" not in page.text_content("[data-testid=status]")
    # two computers are told apart by their colours, each said once (screen readers too)
    heads = page.eval_on_selector_all(".player-head", "ns => ns.map(n => n.textContent)")
    assert [head.count("(orange)") + head.count("(green)") for head in heads] == [1, 1], heads


def test_the_action_list_numbers_turns_as_the_record_does(
    live_server: LiveServer, new_context: NewContext, expert_game: Game
):
    created, text = import_game(live_server, expert_game)
    game = read(live_server, created["id"])
    page = open_page(new_context(), created["watch_url"])
    page.wait_for_selector("[data-testid=moves] .move")
    lines = page.eval_on_selector_all(
        "[data-testid=moves] li",
        """nodes => nodes.map(li => ({
            number: li.querySelector('.turn-no')?.textContent.trim() ?? null,
            moves: [...li.querySelectorAll('.move')].map(m => m.textContent.trim()),
            indexes: [...li.querySelectorAll('.move')].map(m => +m.dataset.index),
            judgements: [...li.querySelectorAll('.move')].map(m => m.dataset.judgement),
            skips: [...li.querySelectorAll('.skip')].map(s => s.textContent.trim()),
        }))""",
    )
    # the record's movetext: "N." before the first action of each turn
    movetext = text.split("\n\n", 1)[1]
    record_turns = re.findall(r"(\d+)\.\s*(\S+)", movetext)
    numbered = [(line["number"], line["moves"][0].split()[0]) for line in lines if line["moves"]]
    assert numbered == [(f"{t}.", a) for t, a in record_turns]

    # every action once, in order; scorings with their points
    shown = [m for line in lines for m in line["moves"]]
    indexes = [i for line in lines for i in line["indexes"]]
    assert indexes == list(range(len(game["actions"])))
    for entry, text_shown in zip(game["history"], shown, strict=True):
        if entry["points"] is None:
            assert text_shown == entry["action"]
        else:
            assert text_shown == f"{entry['action']} +{entry['points']}"
    assert all(j == "" for line in lines for j in line["judgements"])
    assert any(e["points"] for e in game["history"])

    # green's handicap: its skipped turns are in the list, by the seat's name
    skips = [s for line in lines for s in line["skips"]]
    skipped = [e["skipped"] for e in game["history"] if e["skipped"]]
    if game["skipped_at_start"]:
        skipped.insert(0, game["skipped_at_start"])
    assert skipped == [["g"], ["g"]]
    green = next(seat["name"] for seat in game["seats"] if seat["colour"] == "g")
    assert skips == [f"{green} skips"] * 2
    # shown at the step after a skip, the news line says so
    after = next(i for i, e in enumerate(game["history"]) if e["skipped"]) + 1
    page.goto(f"{live_server.url}/watch/{created['id']}?step={after}")
    page.wait_for_selector(f"[data-testid=replay-step]:text-is('{after}')")
    news = page.text_content("[data-testid=event]") or ""
    assert f"{green} (green) skips a turn (handicap)." in news, news

    # the numbers are text, wholly visible even with three digits
    widths = page.eval_on_selector_all(
        "[data-testid=moves] .turn-no", "ns => ns.map(n => n.scrollWidth <= n.clientWidth + 1)"
    )
    assert all(widths)


def test_an_extreme_zero_point_line_shows_its_zero(
    live_server: LiveServer, new_context: NewContext
):
    for seed in range(40):
        game = random_game(Variant.EXTREME, 3, (0, 0, 0), seed)
        zero = [
            i
            for i, (before, action) in enumerate(zip(game.states, game.history, strict=False))
            if isinstance(action, Scoring)
            and next(o.points for o in before.scoring_options() if o.action == action) == 0
        ]
        if zero:
            break
    else:
        pytest.skip("no random Extreme game with a 0-point line")
    created, _ = import_game(live_server, game)
    page = open_page(new_context(), created["watch_url"])
    node = page.wait_for_selector(f"[data-testid=moves] .move[data-index='{zero[0]}']")
    assert node.text_content().strip() == f"{game.history[zero[0]]} 0"
    assert node.query_selector(".pts.zero")


def test_the_news_line_names_every_scoring_of_the_turn(
    live_server: LiveServer, new_context: NewContext
):
    """A turn that scores three times (Extreme: scoring, insertion, ...): shown at its
    last action, the news line names all three, in order."""
    game = random_game(Variant.EXTREME, 2, (0, 0), 0)
    created, _ = import_game(live_server, game)
    history = read(live_server, created["id"])["history"]
    turns = [
        [h for h in history if h["turn"] == turn and h["seat"] == seat]
        for turn, seat in {(h["turn"], h["seat"]): None for h in history}
    ]
    turn = next(t for t in turns if sum(h["points"] is not None for h in t) >= 3)
    after = history.index(turn[-1]) + 1
    page = new_context().new_page()
    page.goto(f"{live_server.url}/watch/{created['id']}?step={after}")
    page.wait_for_selector(f"[data-testid=replay-step]:text-is('{after}')")
    news = page.text_content("[data-testid=event]") or ""
    scored = [h["action"] for h in turn if h["points"] is not None]
    assert all(action in news for action in scored), news
    assert [news.index(action) for action in scored] == sorted(news.index(a) for a in scored)


# ---------------------------------------------------------------- playing


def test_take_back_at_one_screen_one_action_at_a_time(
    live_server: LiveServer, new_context: NewContext
):
    created = create(live_server, variant="express", players=2, first="o")
    game_id = created["id"]
    context = new_context()
    alone = open_page(new_context(), created["seats"][0]["join_url"])
    hold_seat(context, created["seats"][0]["join_url"])
    page = both_seats_here(open_page(context, created["seats"][1]["join_url"]))
    assert not page.is_visible("[data-testid=takeback]")  # nothing to take back
    for action in ("L1", "L7", "L2"):
        page.wait_for_selector(PLAYABLE)
        play(live_server, game_id, page, action)
    assert read(live_server, game_id)["takeback"] == "action"
    shows(alone, read(live_server, game_id)["position"])
    assert not alone.is_visible("[data-testid=takeback]")  # one seat of two: no
    for left, gone in ((["L1", "L7"], "L2"), (["L1"], "L7"), ([], "L1")):
        page.click("[data-testid=takeback]")
        game = wait_until(
            lambda left=left: (g := read(live_server, game_id))["actions"] == left and g,
            what=f"back to {left}",
        )
        shows(page, game["position"])
        # the other screen is told which action went
        shows(alone, game["position"])
        told = f"1 action was taken back: {gone}."
        alone.wait_for_function(f"() => document.querySelector('#notice').textContent === {told!r}")
    page.wait_for_selector("[data-testid=takeback]", state="hidden")
    page.wait_for_selector(f"{PLAYABLE}[data-action=L3]")
    play(live_server, game_id, page, "L3")  # and play goes on
    assert read(live_server, game_id)["actions"] == ["L3"]


def test_with_the_computer_only_a_screen_of_every_person_takes_back(
    live_server: LiveServer, new_context: NewContext
):
    """Two people and the computer: the screen that holds both people's seats takes
    back to its turn; one that holds one seat offers nothing (RULES.md section 9)."""
    computer = {"kind": "computer", "level": 1}
    seats = [{"kind": "human"}, {"kind": "human"}, computer]
    created = create(live_server, variant="express", players=3, first="o", seats=seats)
    game_id = created["id"]
    context = new_context()
    alone = open_page(new_context(), created["seats"][1]["join_url"])
    hold_seat(context, created["seats"][0]["join_url"])
    page = both_seats_here(open_page(context, created["seats"][1]["join_url"]))
    page.wait_for_selector(PLAYABLE)
    play(live_server, game_id, page, "L1")
    page.wait_for_selector(PLAYABLE)
    # the computer answers L7 at once: the page may never show the position between
    click_action(page, "L7")
    played = wait_until(
        lambda: (
            (g := read(live_server, game_id))["actions"][1:2] == ["L7"]
            and len(g["actions"]) == 3
            and g
        ),
        what="L7 and the computer's answer",
    )
    shows(page, played["position"])
    page.wait_for_selector("[data-testid=takeback]")
    shows(alone, read(live_server, game_id)["position"])
    assert not alone.is_visible("[data-testid=takeback]")  # one person's seat of two
    page.click("[data-testid=takeback]")
    game = wait_until(
        lambda: (g := read(live_server, game_id))["actions"] == ["L1"] and g,
        what="back to green's turn",
    )
    shows(page, game["position"])
    told = f"2 actions were taken back: {' '.join(played['actions'][1:])}."
    alone.wait_for_function(f"() => document.querySelector('#notice').textContent === {told!r}")


def test_a_finished_game_against_the_computer_asks_to_take_back_to_the_turn(
    live_server: LiveServer, new_context: NewContext
):
    """Against the computer a take-back goes back to the player's last turn, so the
    question after the end says so (the German walk: it said "its last action" and two
    went)."""
    created = create(
        live_server,
        position="express 2 gggg3/7/7/7/7/7/1oooo2 o insert 18,18 0,0 0,0",
        seats=[{"kind": "human"}, {"kind": "computer", "level": 1}],
    )
    page = open_page(new_context(), created["seats"][0]["join_url"])
    page.wait_for_selector(PLAYABLE)
    play(live_server, created["id"], page, "L1")  # orange's five on rank 1
    page.click("[data-testid=takeback]")
    question = page.text_content("#takeback-question")
    assert question == "The game is over: take back to your last turn and play on?"


def test_a_take_back_drops_the_review_of_the_actions_taken_back(
    live_server: LiveServer, new_context: NewContext
):
    game_id, page = hotseat(live_server, new_context, "express")
    for action in ("L1", "L7") * 4 + ("L1",):  # orange's five in row 1 win
        page.wait_for_selector(PLAYABLE)
        play(live_server, game_id, page, action)
    page.click("[data-testid=analyse]")
    page.wait_for_selector(".review-table", timeout=90_000)
    assert page.is_visible("[data-testid=eval-graph]")
    # the game is over: taking back reopens it, so the page asks first; No keeps it
    page.click("[data-testid=takeback]")
    page.click("#takeback-no")
    page.wait_for_selector("[data-testid=takeback]")
    assert read(live_server, game_id)["status"].startswith("over")
    said = "() => document.querySelector('[data-testid=announcer]').textContent"
    page.wait_for_function(f"() => ({said})().includes(' won.')")
    page.click("[data-testid=takeback]")
    page.click("[data-testid=takeback-confirm]")
    page.wait_for_selector("[data-testid=eval-graph]", state="hidden")
    # the screen reader's region no longer says who won a game taken back
    page.wait_for_function(f"() => !({said})().includes(' won.')")
    assert page.is_hidden(".review-table") and page.is_hidden("[data-testid=best-action]")
    assert page.locator("[data-testid=moves] [data-judgement=blunder]").count() == 0
    assert live_server.api("GET", f"/api/games/{game_id}/analysis").status_code == 404
    page.wait_for_selector(PLAYABLE)
    play(live_server, game_id, page, "L1")  # the same win again: a new review is offered
    page.wait_for_selector("[data-testid=analyse]:not([hidden])")
    assert page.text_content("[data-testid=analyse]") == "Analyse"


def test_an_unfinished_import_held_here_can_be_studied(
    live_server: LiveServer, new_context: NewContext
):
    """An unfinished record imported on the home page: the browser holds every seat,
    nobody else plays, so the review and "Analyse from here" are offered (not during a
    game against another person)."""
    game = Game(Rules(Variant.EXPERT, 2), first=0)
    for action in ("Td", "L1", "Tc", "L2"):
        game.play(action)
    page = new_context().new_page()
    page.goto(live_server.url + "/")
    page.fill("#import-text", format_record(Record.from_game(game)))
    page.click("#import-go")
    page.wait_for_url("**/play/**")
    page.wait_for_selector(PLAYABLE)
    # shown once the server has welcomed every seat's socket (the first may be playable
    # before the second is welcomed)
    page.wait_for_selector("#analyse-here", state="visible")
    page.click("[data-testid=analyse]")
    page.wait_for_selector(".review-table", timeout=90_000)
    assert page.is_visible("[data-testid=eval-graph]")
    # played on, the review says how much of the game it covers, and offers another
    imported = page.url.split("/play/")[1].split("?")[0].split("#")[0]
    play(live_server, imported, page, "Te")
    page.wait_for_function(
        "() => document.querySelector('.review-progress').textContent"
        " === 'This review covers the first 4 actions of 5.'"
    )
    assert page.text_content("[data-testid=analyse]") == "Analyse again"
    assert page.is_visible("[data-testid=analyse]")
    # one seat of a game between people in progress: neither is offered
    created = create(live_server, variant="express", players=2, first="o")
    alone = open_page(new_context(), created["seats"][0]["join_url"])
    play(live_server, created["id"], alone, "L1")
    alone.wait_for_selector("[data-testid=replay-step]", state="attached")
    assert alone.is_hidden("#analyse-here") and alone.is_hidden("[data-testid=analyse]")


def test_a_record_file_chosen_replaces_the_text_in_the_box(
    live_server: LiveServer, new_context: NewContext, tmp_path: Path
):
    """The box is what Import sends: a file chosen after a bad paste is the record."""
    game = Game(Rules(Variant.EXPRESS, 2), first=0)
    for action in ("Td", "L1"):
        game.play(action)
    record = tmp_path / "game.txt"
    record.write_text(format_record(Record.from_game(game)))
    page = new_context().new_page()
    page.goto(live_server.url + "/")
    page.fill("#import-text", "not a record")
    page.click("#import-go")
    page.wait_for_selector("#import-error:not([hidden])")
    assert page.inner_text("[data-testid=import-file-name]") == "No file chosen"
    page.set_input_files("#import-file", str(record))
    page.wait_for_function("() => document.getElementById('import-text').value.includes('Td')")
    assert page.is_hidden("#import-error")
    assert page.inner_text("[data-testid=import-file-name]") == "game.txt"
    page.click("#import-go")
    page.wait_for_url("**/play/**")
    page.wait_for_selector("[data-testid=replay-step]", state="attached")


def test_a_file_that_is_not_text_is_refused_on_the_page_in_its_language(
    live_server: LiveServer, new_context: NewContext, tmp_path: Path
):
    """An Italian walk chose a binary file and read only "Questo dato non è valido."."""
    picture = tmp_path / "foto.png"
    picture.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe")
    page = new_context(locale="it-IT").new_page()
    page.goto(live_server.url + "/?lang=it")
    page.set_input_files("#import-file", str(picture))
    page.wait_for_selector("#import-error:not([hidden])")
    said = page.inner_text("#import-error")
    assert "foto.png" in said and "non è un file di testo" in said, said
    assert page.input_value("#import-text") == ""
    page.fill("#import-text", "1. Td\u0000 *")
    page.click("#import-go")
    page.wait_for_function(
        "() => document.getElementById('import-error').textContent.includes('non sono testo')"
    )


def test_the_record_file_button_speaks_the_pages_language(
    live_server: LiveServer, new_context: NewContext, tmp_path: Path
):
    """The browser's own file control said "Choose File / No file chosen" on a French
    page (a French walk): the page's button and the file's name say it in French, and
    the button is a control the keyboard reaches."""
    record = tmp_path / "partie.txt"
    record.write_text(format_record(Record.from_game(Game(Rules(), first=0))))
    page = new_context(locale="fr-FR").new_page()
    page.goto(live_server.url + "/?lang=fr")
    button = page.get_by_test_id("import-file-button")
    assert button.inner_text() == "Choisir un fichier\u2026"
    assert page.inner_text("[data-testid=import-file-name]") == "Aucun fichier choisi"
    page.focus("#import-file")
    assert page.evaluate("document.activeElement.id") == "import-file"
    with page.expect_file_chooser() as chooser:
        button.click()
    chooser.value.set_files(str(record))
    page.wait_for_function(
        "() => document.querySelector('[data-testid=import-file-name]').textContent"
        " === 'partie.txt'"
    )


def orange_fills_row_one(live_server: LiveServer, created: dict[str, Any], page: Any) -> None:
    """Orange (``page``) pushes L1 five times and Green (a socket) L7 in between: five
    of Orange's marbles in row 1, a win in Express and a line to score in Expert."""
    game_id = created["id"]
    with connect(
        f"ws://127.0.0.1:{live_server.port}/ws/games/{game_id}", origin=live_server.url
    ) as ws:
        ben = Seat(ws, created["seats"][1]["join_url"].split("seat=")[1])
        for _ in range(4):
            play(live_server, game_id, page, "L1")
            ben.act("L7", live_server, game_id)
        play(live_server, game_id, page, "L1")


def test_the_score_phase_names_the_points_and_the_scoring_is_told(
    live_server: LiveServer, new_context: NewContext
):
    created = create(live_server, variant="expert", players=2, first="o")
    game_id = created["id"]
    page = open_page(new_context(), created["seats"][0]["join_url"])
    watcher = open_page(new_context(), created["watch_url"])
    page.wait_for_selector(PLAYABLE)
    board = page.evaluate(BOARD_TOP)
    orange_fills_row_one(live_server, created, page)
    page.wait_for_selector('[data-action="xa1-e1"][aria-disabled="false"]', state="attached")
    choice = page.wait_for_selector("[data-testid=score-choices] [data-action=xa1-e1]")
    # heard as the board's choice is: the line's ends first, then what it shows
    assert " ".join(choice.text_content().split()) == "Score the line a1 to e1: xa1-e1 2 points"
    labels = page.eval_on_selector_all(".points-label", "ns => ns.map(n => n.textContent.trim())")
    assert labels == ["+2"]
    # the list's button plays too; found again at the click, as the page may have drawn
    # the list anew meanwhile (on an event such as a change of who is there)
    page.locator("[data-testid=score-choices] [data-action=xa1-e1]").click()
    wait_until(lambda: read(live_server, game_id)["scores"] == [2, 0], what="the scoring")
    for p in (page, watcher):
        p.wait_for_function(
            "() => document.querySelector('[data-testid=event]').textContent"
            ".includes('a line of 5 (xa1-e1) for 2 points')"
        )
        # and said in words in the live region, to the player and to the spectator: the
        # line and the ends that stay too (a blind player's walk did not know which)
        p.wait_for_function(
            "() => document.querySelector('[data-testid=announcer]').textContent"
            ".includes('scored a line of 5 for 2 points. The line ran from a1 to e1. "
            "The marbles on a1 and e1 stayed on the board.')"
        )
    assert page.is_hidden("[data-testid=score-choices]")
    # the news line had its room before it had news: the board has not moved
    assert page.evaluate(BOARD_TOP) == board


def test_the_board_stays_put_when_the_game_ends_and_the_result_is_beside_it(
    live_server: LiveServer, new_context: NewContext
):
    created = create(live_server, variant="express", players=2, first="o")
    page = open_page(new_context(), created["seats"][0]["join_url"])
    page.wait_for_selector(PLAYABLE)
    board = page.evaluate(BOARD_TOP)
    orange_fills_row_one(live_server, created, page)  # in Express: Orange wins
    rematch = page.wait_for_selector("[data-testid=rematch]")
    assert page.evaluate(BOARD_TOP) == board
    # the result and its rematch head the side column, in the window (1280 x 800)
    box = rematch.bounding_box()
    assert box and box["x"] >= board[0] + board[2] and box["y"] + box["height"] <= 800, box


def test_arrows_are_coloured_only_on_the_screen_that_may_act(
    live_server: LiveServer, new_context: NewContext
):
    created = create(live_server, variant="express", players=2, first="o")
    mover = open_page(new_context(), created["seats"][0]["join_url"])
    other = open_page(new_context(), created["seats"][1]["join_url"])
    watcher = open_page(new_context(), created["watch_url"])
    mover.wait_for_selector(PLAYABLE)
    fills = "ns => ns.map(n => n.querySelector('.tri').style.fill)"
    assert all(mover.eval_on_selector_all(".arrow.legal", fills))  # coloured
    assert len(mover.query_selector_all(".arrow.active")) == 28
    for page in (other, watcher):
        assert page.query_selector_all(".arrow.active") == []
        assert page.eval_on_selector_all(".arrow", fills) == [""] * 28
    # no computer analysis of a game between people while it goes on: not for its
    # players, nor for a spectator (who is a watch link away from being one)
    for page in (mover, other, watcher):
        assert not page.is_visible("[data-testid=analyse-here]")


def test_the_share_panel_lists_every_known_link(live_server: LiveServer, new_context: NewContext):
    created = create(live_server, variant="expert", players=3, first="o")
    game_id = created["id"]
    page = open_page(new_context(), created["seats"][0]["join_url"])
    # the invites this browser made (the home page keeps them so)
    page.evaluate(
        """([id, invites]) => {
            const data = JSON.parse(localStorage.getItem('shiftago.games') || '{}');
            data[id] = {...data[id], invites};
            localStorage.setItem('shiftago.games', JSON.stringify(data));
        }""",
        [game_id, {"g": created["seats"][1]["join_url"], "b": created["seats"][2]["join_url"]}],
    )
    page.reload()
    page.wait_for_selector("[data-testid=share-seat-b]")
    for i, colour in enumerate("ogb"):
        value = page.input_value(f"[data-testid=share-seat-{colour}]")
        assert value == created["seats"][i]["join_url"], colour
    assert page.input_value("[data-testid=share-watch]") == created["watch_url"]
    assert len(page.query_selector_all("[data-testid=share] button")) == 4  # a copy each
    watcher = open_page(new_context(), created["watch_url"])
    assert watcher.query_selector_all("[data-testid^=share-seat]") == []
    assert watcher.input_value("[data-testid=share-watch]") == created["watch_url"]


class QuickGraceServer(LiveServer):
    """``shiftago serve`` whose seats may be claimed one second after they left."""

    def command(self) -> list[str]:
        code = (
            "import sys, uvicorn; from shiftago.interfaces.server import create_app; "
            "uvicorn.run(create_app(sys.argv[2], grace_seconds=1), host='127.0.0.1', "
            "port=int(sys.argv[1]), log_level='warning')"
        )
        return [sys.executable, "-c", code, str(self.port), self.db_url]


@pytest.fixture(scope="module")
def quick_grace(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A :class:`QuickGraceServer` for the tests of this module."""
    server = QuickGraceServer(tmp_path_factory.mktemp("grace"))
    server.start()
    yield server
    server.stop()


def green_came_and_left(server: LiveServer, new_context: NewContext) -> tuple[str, Any]:
    """A 2-player game on ``server`` whose green seat came and left: its id, and orange's
    page, which may claim green's seat once the grace time is over."""
    created = create(server, variant="express", players=2, first="o")
    game_id = created["id"]
    page = open_page(new_context(), created["seats"][0]["join_url"])
    with connect(f"ws://127.0.0.1:{server.port}/ws/games/{game_id}", origin=server.url) as ws:
        Seat(ws, created["seats"][1]["join_url"].split("seat=")[1])
        # the page hears the seat come (presence is coalesced): the time the seat may be
        # claimed then counts from its leaving, as the server counts it; a page that
        # missed the visit would offer the claim before the server allows it
        page.wait_for_function(
            "() => document.querySelector('[data-testid=presence-g]')?.textContent === 'connected'"
        )
    return game_id, page


def test_a_seat_away_is_handed_to_the_computer_at_the_level_chosen(
    new_context: NewContext, quick_grace: LiveServer
):
    server = quick_grace
    game_id, page = green_came_and_left(server, new_context)
    levels = server.api("GET", "/api/levels").json()
    # a locator, not a handle: a presence that arrives late (within the presence
    # interval) may show the seat back for a moment and draw its claim row anew
    select = page.locator("[data-testid=claim-level]")
    select.wait_for(timeout=15_000)
    page.wait_for_function(
        "n => document.querySelectorAll('[data-testid=claim-level] option').length === n",
        arg=len(levels["levels"]),
    )
    # a browser that never chose a level offers the gentle one of a first visit, not
    # the strongest (welcome.js's GENTLE_LEVEL)
    assert select.input_value() == "2" != str(levels["default"])
    level = levels["levels"][0]["level"]
    select.select_option(str(level))
    page.click("[data-claim=computer]")
    game = wait_until(
        lambda: (g := read(server, game_id))["seats"][1]["kind"] == "computer" and g,
        what="the seat handed to the computer",
    )
    assert game["seats"][1]["level"] == level
    page.wait_for_selector("[data-testid=claim-level]", state="detached")


def test_ending_a_game_of_a_player_who_left_names_who_left(
    new_context: NewContext, quick_grace: LiveServer
):
    server = quick_grace
    game_id, page = green_came_and_left(server, new_context)
    page.locator("[data-claim=end]").click(timeout=15_000)
    # it asks first, and the question stands alone: "No" leaves the game as it was
    page.wait_for_selector("[data-testid=claim-end-confirm]")
    assert page.is_hidden("[data-claim=end]") and page.is_hidden("[data-claim=computer]")
    # the focus goes to the answer, inside a group named by the question; Escape and
    # "No" each give it back to "End the game" (it fell to the page's body)
    focused = "() => document.activeElement.dataset.claim || document.activeElement.tagName"
    assert page.evaluate(focused) == "end-yes"
    group = page.locator("[data-testid=claim-end-confirm]")
    assert group.get_attribute("role") == "group"
    question = group.get_attribute("aria-labelledby")
    assert page.inner_text(f"[id='{question}']") == "Really end the game?"
    page.keyboard.press("Escape")
    page.wait_for_selector("[data-claim=end]")
    assert page.evaluate(focused) == "end"
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-testid=claim-end-confirm]")
    page.click("[data-claim=end-no]")
    page.wait_for_selector("[data-claim=end]")
    assert page.evaluate(focused) == "end"
    assert read(server, game_id)["status"].startswith("playing")
    page.click("[data-claim=end]")
    page.click("[data-claim=end-yes]")
    game = wait_until(
        lambda: (g := read(server, game_id))["status"].startswith("over") and g,
        what="the game ended",
    )
    assert game["result"]["reason"] == "abandoned" and game["result"]["by"] == ["g"]
    page.wait_for_function(
        "() => document.querySelector('[data-testid=status]').textContent.includes('left')"
    )
    assert page.text_content("[data-testid=status]").strip() == (
        "Game over: Orange wins (Green left the game)."
    )


def test_an_unknown_event_is_logged(live_server: LiveServer, new_context: NewContext):
    created = create(live_server, variant="express", players=2, first="o")
    context = new_context()
    context.add_init_script(
        """window.__sockets = []; const Native = window.WebSocket;
        window.WebSocket = class extends Native {
          constructor(...a) { super(...a); window.__sockets.push(this); } };"""
    )
    page = context.new_page()
    warnings: list[str] = []
    page.on("console", lambda m: warnings.append(m.text) if m.type == "warning" else None)
    page.goto(created["watch_url"])
    page.wait_for_function(
        "() => document.querySelector('[data-testid=position]').textContent !== ''"
    )
    page.evaluate(
        """() => window.__sockets[0].dispatchEvent(
            new MessageEvent('message', {data: JSON.stringify({type: 'mystery'})}))"""
    )
    wait_until(lambda: any("mystery" in w for w in warnings), what="a console warning")


# ---------------------------------------------------------------- phones


def test_on_a_phone_the_arrows_are_a_finger_wide_and_the_result_is_above_the_board(
    live_server: LiveServer, new_context: NewContext, expert_game: Game
):
    created = create(live_server, variant="expert", players=4, first="o")
    context = new_context(**PHONE)
    page = open_page(context, created["seats"][0]["join_url"])
    page.wait_for_selector(PLAYABLE)
    boxes = page.eval_on_selector_all(
        ".arrow .hit",
        """ns => ns.map(n => {
            const r = n.getBoundingClientRect();
            return [r.width, r.height, r.left, r.right];
        })""",
    )
    assert len(boxes) == 28
    for width, height, left, right in boxes:
        assert width >= 44 and height >= 44, (width, height)
        assert left >= -0.5 and right <= 390.5, (left, right)
    overflow = page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0

    # a finished game, opened by a seat holder: the result and rematch before the board
    finished, _ = import_game(live_server, expert_game)
    page = open_page(context, finished["seats"][0]["join_url"])
    rematch = page.wait_for_selector("[data-testid=rematch]")
    box = rematch.bounding_box()
    board = page.query_selector("#board").bounding_box()
    assert box and board and box["y"] + box["height"] <= 844 and box["y"] < board["y"]
    # a spectator on a phone: the status line says the result, and a card with
    # nothing to offer is not shown (it held only its title)
    watcher = open_page(new_context(**PHONE), f"{live_server.url}/watch/{finished['id']}")
    watcher.wait_for_function("() => window.shiftago.game && window.shiftago.game.result")
    assert watcher.is_hidden("[data-testid=result]")
    assert "Game over" in watcher.inner_text("[data-testid=status]")
    # the replay bar is one line, within the screen
    page.wait_for_selector("#replay:not([hidden])")
    parts = page.eval_on_selector_all(
        "#replay > :not(.replay-label)",
        "ns => ns.map(n => { const r = n.getBoundingClientRect();"
        " return [r.top, r.bottom, r.right]; })",
    )
    assert len(parts) == 6
    tops, bottoms = [p[0] for p in parts], [p[1] for p in parts]
    assert max(tops) < min(bottoms), parts  # side by side, none below another
    assert max(p[2] for p in parts) <= 390.5, parts


def test_a_game_won_on_points_when_the_marbles_run_out_says_so(
    live_server: LiveServer, new_context: NewContext
):
    # Expert from a set-up position: orange's last marble, then green to move with none
    game = Game(position="expert 2 7/7/7/7/7/7/7 o insert 1,0 3,2 0,0")
    game.play("L1")
    assert game.outcome is not None and game.outcome.reason.value == "no marbles"
    created, _ = import_game(live_server, game)
    page = open_page(new_context(), created["watch_url"])
    page.wait_for_function(
        "() => document.querySelector('[data-testid=status]').textContent.includes('wins')"
    )
    assert page.text_content("[data-testid=status]").strip() == (
        "Game over: Player 1 (orange) wins on points (the player to move has no marble left)."
    )


def test_a_friend_who_has_not_come_yet_is_not_called_away(
    new_context: NewContext, quick_grace: LiveServer
):
    """A seat whose link nobody has followed yet reads "not here yet", and its claim
    says so; once its person came and left, it is away (a walk read "gone for 0:04" for
    a friend who had not come)."""
    server = quick_grace
    created = create(server, variant="express", players=2, first="o")
    page = open_page(new_context(), created["seats"][0]["join_url"])
    badge = "document.querySelector('[data-testid=presence-g]')?.textContent"
    page.wait_for_function(f"() => {badge} === 'not here yet'")
    claim = page.locator("[data-testid=claim]")
    claim.wait_for(timeout=15_000)
    assert "has not come yet" in (claim.text_content() or "")
    assert "away" not in (claim.text_content() or "")
    game_id = created["id"]
    with connect(f"ws://127.0.0.1:{server.port}/ws/games/{game_id}", origin=server.url) as ws:
        Seat(ws, created["seats"][1]["join_url"].split("seat=")[1])
        page.wait_for_function(f"() => {badge} === 'connected'")
    page.wait_for_function(f"() => {badge}?.startsWith('away')")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=claim]')?.textContent.includes('has been away')"
    )


def test_the_keyboard_stays_in_the_replay_bar_at_either_end(
    live_server: LiveServer, new_context: NewContext, expert_game: Game
):
    """The button the keyboard pressed to reach an end of the game is disabled there:
    the keyboard fell to the page's start (a screen reader's walk). It goes to the
    slider, which moves both ways; the step count is no live region of its own."""
    created, _ = import_game(live_server, expert_game)
    n = len(expert_game.history)
    page = open_page(new_context(), created["watch_url"])
    shows_step(page, n, expert_game.states[n].position())
    focused = "() => document.activeElement.id"
    page.focus("#rp-first")
    page.keyboard.press("Enter")
    shows_step(page, 0, expert_game.states[0].position())
    assert page.evaluate(focused) == "rp-range"
    page.focus("#rp-next")
    page.keyboard.press("Enter")
    shows_step(page, 1, expert_game.states[1].position())
    assert page.evaluate(focused) == "rp-next"
    page.focus("#rp-last")
    page.keyboard.press("Enter")
    shows_step(page, n, expert_game.states[n].position())
    assert page.evaluate(focused) == "rp-range"
    assert page.get_attribute("#rp-where", "aria-live") is None
