"""The terminal app through Textual's headless pilot: whole games by keys, by clicks
and by typed notation, a scoring choice, a resumed game, take-back, replay, the engine's
lines and a resize. The computer and the engine search to depth 1 (no clock)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from textual import events
from textual.containers import VerticalScroll
from textual.pilot import Pilot
from textual.widgets import Button, Input, OptionList, RichLog, Select, Static

from shiftago.core import Action, Game, Phase, Rules, Variant
from shiftago.engine.levels import bot_for_level
from shiftago.formats.record import Record, format_record, parse_record
from shiftago.interfaces.shared.newgame import PlaySetup
from shiftago.interfaces.tui.app import ShiftagoApp
from shiftago.interfaces.tui.board import AROUND, BoardView, arrow_position, cell_position
from shiftago.interfaces.tui.dialogs import EACH_OWN_LEVEL, NewGameScreen, ResumeScreen
from shiftago.interfaces.tui.match import Match, open_match
from shiftago.interfaces.tui.run import prepare_app
from support.tui_pilot import FAST, app_for, autosave_in, game_in_score_phase, run, settle


def log_text(app: ShiftagoApp) -> str:
    return "\n".join(app.said)


def against_computer(home: Path, variant: Variant = Variant.EXPRESS) -> Match:
    game = Game(Rules(variant, 2), first=0, seed=3)
    return Match(game, bots={1: bot_for_level(1, 3)}, levels={1: 1}, autosave=autosave_in(home))


def test_a_whole_game_against_the_computer_by_keys(tmp_path: Path) -> None:
    match = against_computer(tmp_path)
    app = app_for(match)

    async def scenario(pilot: Pilot[int]) -> None:
        for _turn in range(200):
            await settle(pilot)
            if match.game.is_over:
                break
            assert match.game.turn == 0  # the computer has answered
            await pilot.press("right", "enter")
        await settle(pilot)

    run(app, scenario)
    game = match.game
    assert game.is_over
    people = [a for s, a in zip(game.states, game.history, strict=False) if s.turn == 0]
    assert len(people) >= 4
    assert "Game over:" in log_text(app)
    autosave = match.autosave
    assert autosave is not None and not autosave.exists()
    kept = parse_record(autosave.last_game_path.read_text())
    assert kept.to_game().history == game.history


def test_a_whole_game_against_the_computer_by_clicks(tmp_path: Path) -> None:
    match = against_computer(tmp_path)
    app = app_for(match)
    clicked: list[str] = []

    async def scenario(pilot: Pilot[int]) -> None:
        for turn in range(200):
            await settle(pilot)
            if match.game.is_over:
                break
            legal = match.game.legal_actions()
            name = str(legal[(7 * turn) % len(legal)])
            clicked.append(name)
            await pilot.click("#board", offset=arrow_position(name))
        await settle(pilot)

    run(app, scenario)
    game = match.game
    assert game.is_over
    mine = [str(a) for s, a in zip(game.states, game.history, strict=False) if s.turn == 0]
    assert mine == clicked


def test_an_expert_scoring_is_shown_then_chosen_from_the_list(tmp_path: Path) -> None:
    game = game_in_score_phase(Variant.EXPERT, 2, seed=5)
    seat = game.turn
    options = game.scoring_options()
    app = app_for(Match(game, autosave=autosave_in(tmp_path)))
    before = game.state.scores[seat]

    async def scenario(pilot: Pilot[int]) -> None:
        listed = app.query_one("#options", OptionList)
        assert listed.display and listed.option_count == len(options)
        await pilot.press("down")  # the board's cursor: the first option, shown
        board = app.query_one("#board", BoardView)
        assert board.preview == options[0]
        assert listed.highlighted == 0
        drawn = board.render().plain
        assert drawn.count("x") >= 2 * len(options[0].removed)  # the marbles that go
        assert game.phase is Phase.SCORE  # shown, not yet played
        await pilot.press("enter")
        await settle(pilot)

    run(app, scenario)
    assert game.history[-1] == options[0].action
    assert game.state.scores[seat] == before + options[0].points


def test_a_line_made_by_typing_is_chosen_by_arrows_and_enter(tmp_path: Path) -> None:
    """After a typed push that makes a line the keys of the list work at once (the
    focus left the input line), and a scoring refused keeps its notation's x."""
    scored = game_in_score_phase(Variant.EXPERT, 2, seed=5)
    game = Game.from_actions(scored.rules, [str(a) for a in scored.history[:-1]], first=0)
    last = str(scored.history[-1])
    seat = game.turn
    app = app_for(Match(game, autosave=autosave_in(tmp_path)))

    async def scenario(pilot: Pilot[int]) -> None:
        await pilot.press(*last.lower(), "enter")
        await pilot.pause()
        assert game.phase is Phase.SCORE and game.turn == seat
        await pilot.press(*"xg7-g6", "enter")
        await pilot.pause()
        await pilot.press("down", "enter")  # no Escape first: the board has the keys
        await settle(pilot)

    run(app, scenario)
    assert game.history[-1] == scored.scoring_options()[0].action
    assert "xg7-g6 is not one of the lines to score here." in app.said


def test_a_scoring_by_two_clicks_keeps_the_end_clicked_with_three_players(
    tmp_path: Path,
) -> None:
    game = game_in_score_phase(Variant.EXPERT, 3, seed=2)
    option = game.scoring_options()[-1]
    keep = option.action.keep
    app = app_for(Match(game, autosave=autosave_in(tmp_path)))

    async def scenario(pilot: Pilot[int]) -> None:
        await pilot.click("#board", offset=cell_position(keep))
        board = app.query_one("#board", BoardView)
        assert board.preview is not None and board.preview.action.keep == keep
        assert game.phase is Phase.SCORE
        await pilot.click("#board", offset=cell_position(keep))
        await settle(pilot)

    run(app, scenario)
    played = game.history[-1]
    assert getattr(played, "keep", None) == keep
    assert game.state.seat_at(keep) == game.states[-2].turn  # the end clicked stays


#: A 3-player Express game (first seat 1) that ends on a line of four made by its tenth
#: action, found by random play: typed in lower case, as a player may.
GAME_OF_THREE = ("bg", "te", "l6", "r4", "tf", "l2", "r3", "bb", "bb", "bg")


def test_a_hotseat_game_of_three_typed_in_notation(tmp_path: Path) -> None:
    game = Game(Rules(Variant.EXPRESS, 3), first=1, seed=1)
    app = app_for(Match(game, autosave=autosave_in(tmp_path)))
    movers: list[int] = []

    async def scenario(pilot: Pilot[int]) -> None:
        for text in GAME_OF_THREE:
            assert not game.is_over
            movers.append(game.turn)
            await pilot.press(*text, "enter")  # typed on the board: it goes to the input
            await pilot.pause()
        await settle(pilot)
        assert app.query_one("#command", Input).value == ""

    run(app, scenario)
    assert game.is_over and game.outcome is not None
    assert game.outcome.winner == movers[-1]  # the last action made the line
    assert movers == [1, 2, 0] * 3 + [1]
    assert [str(action).lower() for action in game.history] == list(GAME_OF_THREE)


def test_typing_a_wrong_or_illegal_action_says_so_and_changes_nothing(tmp_path: Path) -> None:
    game = Game(Rules(Variant.EXPRESS, 2), first=0, seed=1)
    app = app_for(Match(game, autosave=autosave_in(tmp_path)))

    async def scenario(pilot: Pilot[int]) -> None:
        await pilot.press(*"q9", "enter")
        await pilot.pause()
        command = app.query_one("#command", Input)
        assert command.value == "q9" and command.selected_text == "q9"  # kept, to be mended
        await pilot.press(*"xa1-c1", "enter")  # what is typed next replaces it
        await pilot.pause()
        assert game.history == []
        assert command.value == ""
        await pilot.press(*"l3", "enter")
        await pilot.pause()
        # the log's long lines wrap at its pane's width on an 80-column screen
        log = app.query_one("#log", RichLog)
        assert (
            log.lines
            and max(line.cell_length for line in log.lines) <= log.scrollable_content_region.width
        )

    run(app, scenario)
    assert [str(a) for a in game.history] == ["L3"]
    said = log_text(app)
    assert "q9 is not an action" in said
    assert "There is no line to score: xa1-c1 is not possible now." in said


@pytest.mark.parametrize("yes", ["y", "s"])  # "s" for "sì" (an Italian family)
def test_an_unfinished_game_is_offered_and_resumed(tmp_path: Path, yes: str) -> None:
    match = against_computer(tmp_path)
    for action in ("L3", "Tc", "L3"):
        match.play(Action.parse(action))
    autosave = match.autosave
    assert autosave is not None and autosave.exists()
    app = prepare_app(PlaySetup(), autosave)
    assert isinstance(app, ShiftagoApp)
    app.computer_limits = app.review_limits = FAST

    async def scenario(pilot: Pilot[int]) -> None:
        assert isinstance(app.screen, ResumeScreen)
        await pilot.press("x", "3")  # no answer: the question stays
        await pilot.pause()
        assert isinstance(app.screen, ResumeScreen)
        await pilot.press(yes)
        await settle(pilot)

    run(app, scenario)
    resumed = app.match
    assert [str(a) for a in resumed.game.history[:3]] == ["L3", "Tc", "L3"]
    assert resumed.levels == {1: 1}
    assert len(resumed.game.history) == 4  # the computer, to move, has answered
    assert "Resuming the game: 3 actions played." in log_text(app)


def test_the_computer_asked_for_takes_its_seat_in_the_resumed_game(tmp_path: Path) -> None:
    """``-c g --resume`` hands green to the computer in the game resumed, as the line
    game does."""
    match = Match(Game(Rules(Variant.EXPRESS, 2), first=0, seed=3), autosave=autosave_in(tmp_path))
    for action in ("L3", "Tc"):
        match.play(Action.parse(action))
    assert match.autosave is not None
    app = prepare_app(PlaySetup(computer=("g",), level=1, resume=True), match.autosave)
    assert [str(a) for a in app.match.game.history] == ["L3", "Tc"]
    assert app.match.levels == {1: 1}


def test_a_new_game_instead_of_the_unfinished_one(tmp_path: Path) -> None:
    match = against_computer(tmp_path)
    match.play(match.game.legal_actions()[0])
    app = prepare_app(PlaySetup(first="o"), match.autosave)
    assert isinstance(app, ShiftagoApp)

    async def scenario(pilot: Pilot[int]) -> None:
        await pilot.press("n")
        await pilot.pause()

    run(app, scenario)
    assert app.match.game.history == []
    assert match.autosave is not None and match.autosave.exists()  # until the first action


def test_take_back_against_the_computer_returns_to_your_turn(tmp_path: Path) -> None:
    match = against_computer(tmp_path)
    app = app_for(match)

    async def scenario(pilot: Pilot[int]) -> None:
        await pilot.press("enter")
        await settle(pilot)
        assert len(match.game.history) == 2
        await pilot.press("ctrl+z")
        await settle(pilot)

    run(app, scenario)
    assert match.game.history == []
    assert "Taken back:" in log_text(app)


def test_replay_steps_through_the_game_by_keys(tmp_path: Path) -> None:
    game = Game.from_actions(Rules(Variant.EXPRESS, 2), ["L3", "Tc", "Bd", "R5"], first=0)
    app = app_for(Match(game, autosave=autosave_in(tmp_path)))

    async def scenario(pilot: Pilot[int]) -> None:
        board = app.query_one("#board", BoardView)
        await pilot.press("f7")
        assert board.state == game.states[4]
        await pilot.press("left", "left")
        assert board.state == game.states[2] and str(board.last) == "Tc"
        await pilot.press("home")
        assert board.state == game.states[0]
        await pilot.press("enter")  # a replay plays nothing
        assert len(game.history) == 4
        await pilot.press("L", "1", "enter")  # nor does an action typed
        assert len(game.history) == 4 and board.state == game.states[0]
        assert log_text(app).endswith("This is the replay: Escape leaves it, then play on.")
        await pilot.press("escape")
        assert board.state == game.state and board.active

    run(app, scenario)


def test_the_record_of_a_long_game_scrolls_to_the_action_shown(tmp_path: Path) -> None:
    chooser = random.Random(5)
    game = Game(Rules(Variant.EXPRESS, 4), first=0, seed=5)
    while len(game.history) < 70 and not game.is_over:
        game.play(chooser.choice(game.legal_actions()))
    app = app_for(Match(game, autosave=autosave_in(tmp_path)))
    seen: list[tuple[float, float]] = []

    async def scenario(pilot: Pilot[int]) -> None:
        box = app.query_one("#record-box", VerticalScroll)
        await pilot.press("f7")  # the replay starts at the last action
        await pilot.pause()
        seen.append((box.scroll_y, box.max_scroll_y))
        await pilot.press("home")
        await pilot.pause()
        seen.append((box.scroll_y, box.max_scroll_y))

    run(app, scenario)
    (at_end, most), (at_start, _most) = seen
    assert most > 0  # more lines than the box shows
    assert at_end == most and at_start == 0


def test_on_the_bottom_edge_the_right_key_moves_right(tmp_path: Path) -> None:
    game = Game(Rules(Variant.EXPRESS, 2), first=0, seed=1)
    app = app_for(Match(game, autosave=autosave_in(tmp_path)))
    at: list[str] = []

    async def scenario(pilot: Pilot[int]) -> None:
        board = app.query_one("#board", BoardView)
        board.cursor = AROUND.index("Bc")
        await pilot.press("right")
        at.append(AROUND[board.cursor])
        board.cursor = AROUND.index("L3")
        await pilot.press("up")
        at.append(AROUND[board.cursor])

    run(app, scenario)
    assert at == ["Bd", "L4"]


def test_a_loaded_record_s_names_show_beside_the_colours(tmp_path: Path) -> None:
    """A record's players' names stay in the records the app writes; the side panel
    showed only the colours (a German walk)."""
    game = Game.from_actions(Rules(Variant.EXPRESS, 3), ["L1"], first=0)
    record = Record.from_game(game, names=["Jonas", "Bot", None], levels=[None, 2, None])
    match = Match(
        record.to_game(),
        bots={1: bot_for_level(2, 1)},
        levels={1: 2},
        autosave=autosave_in(tmp_path),
        source=record,
    )
    app = app_for(match)
    panels: list[str] = []

    async def scenario(pilot: Pilot[int]) -> None:
        await pilot.pause()
        panels.append(str(app.query_one("#seats", Static).render()))

    run(app, scenario)
    (panel,) = panels
    assert "Jonas (orange)" in panel
    assert "Green (computer, level 2)" in panel and "Blue" in panel


def test_the_engine_shows_its_lines_on_request(tmp_path: Path) -> None:
    game = Game(Rules(Variant.EXPRESS, 2), first=0, seed=1)
    app = app_for(Match(game, autosave=autosave_in(tmp_path)))

    async def scenario(pilot: Pilot[int]) -> None:
        lines = app.query_one("#lines", Static)
        assert not lines.display
        await pilot.press("f5")
        await settle(pilot)
        assert lines.display
        text = str(lines.render())
        assert "depth 1" in text and "1. " in text
        await pilot.press("f5")
        await pilot.pause()
        assert not lines.display

    run(app, scenario)


def test_the_engine_on_a_finished_game_says_there_is_nothing_to_look_at(tmp_path: Path) -> None:
    game = Game(Rules(Variant.EXPRESS, 2), first=0, seed=1)
    for action in ("L1", "L7") * 4 + ("L1",):  # orange's five in row 1
        game.play(action)
    app = app_for(Match(game, autosave=autosave_in(tmp_path)))

    async def scenario(pilot: Pilot[int]) -> None:
        await pilot.press("f5")
        await settle(pilot)
        text = str(app.query_one("#lines", Static).render())
        assert text == "No action to look at: the game is over."

    run(app, scenario)


def test_the_engine_follows_the_game_to_its_end_and_the_replay(tmp_path: Path) -> None:
    """The lines of an earlier position stayed beside a game just won, and beside its
    replay (a German walk): the engine looks at the position shown."""
    game = Game(Rules(Variant.EXPRESS, 2), first=0, seed=1)
    for action in ("L1", "L7") * 4:  # orange's fifth in row 1 wins
        game.play(action)
    app = app_for(Match(game, autosave=autosave_in(tmp_path)))
    seen: list[str] = []

    async def scenario(pilot: Pilot[int]) -> None:
        lines = app.query_one("#lines", Static)
        await pilot.press("f5")
        await settle(pilot)
        seen.append(str(lines.render()))
        app.act(Action.parse("L1"))
        await settle(pilot)
        seen.append(str(lines.render()))
        await pilot.press("f7", "left")  # the position before the win: lines again
        await settle(pilot)
        seen.append(str(lines.render()))
        await pilot.press("end")
        await settle(pilot)
        seen.append(str(lines.render()))

    run(app, scenario)
    playing, won, before, end = seen
    assert "depth 1" in playing and "depth 1" in before
    assert won == end == "No action to look at: the game is over."


def test_a_resize_redraws_and_80_by_24_holds_everything(tmp_path: Path) -> None:
    game = Game(Rules(Variant.EXPERT, 4), first=0, seed=1)
    app = app_for(Match(game, autosave=autosave_in(tmp_path)))

    async def scenario(pilot: Pilot[int]) -> None:
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        screen = app.screen.region
        for selector in ("#board", "#seats", "#command"):
            region = app.query_one(selector).region
            assert screen.contains_region(region), selector
        assert app.query_one("#board").region.height == 17
        await pilot.click("#board", offset=arrow_position("Tc"))
        await pilot.pause()
        log = app.query_one("#log", RichLog)
        narrow = len(log.lines)
        await pilot.resize_terminal(160, 40)  # the log's lines wrap again, wider
        await pilot.pause()
        widths.append((narrow, len(log.lines)))

    widths: list[tuple[int, int]] = []
    app.notices.append("A notice long enough to wrap on a narrow screen: " + "words " * 20)
    run(app, scenario, size=(120, 40))
    assert [str(a) for a in game.history] == ["Tc"]
    [(narrow, wide)] = widths
    assert wide < narrow  # fewer lines: each holds more words


def test_a_new_game_from_the_dialog_against_the_computer(tmp_path: Path) -> None:
    game = Game(Rules(Variant.EXPRESS, 2), first=0, seed=1)
    game.play("L3")
    app = app_for(Match(game, autosave=autosave_in(tmp_path)))

    async def scenario(pilot: Pilot[int]) -> None:
        await pilot.press("f2")
        await pilot.pause()
        chosen = {"variant": "expert", "players": 3, "computer": "b", "level": 2}
        for name, value in chosen.items():
            app.screen.query_one(f"#{name}", Select).value = value
        await pilot.pause()
        app.screen.query_one("#start", Button).press()
        await settle(pilot)

    run(app, scenario)
    match = app.match
    assert match.game.rules.variant is Variant.EXPERT and match.game.rules.players == 3
    assert match.levels == {2: 2}
    assert "A new game begins." in log_text(app)


def test_the_dialog_gives_the_computer_two_seats(tmp_path: Path) -> None:
    setup = PlaySetup(players=3, computer=("Blue", "g"), level=1)  # as -c takes them
    app = app_for(open_match(setup, autosave_in(tmp_path), None), setup=setup)

    async def scenario(pilot: Pilot[int]) -> None:
        await pilot.press("f2")
        await pilot.pause()
        assert app.screen.query_one("#computer", Select).value == "gb"  # as started
        await pilot.click("#start")
        await settle(pilot)

    run(app, scenario, size=(100, 40))
    assert app.match.game.rules.players == 3
    assert sorted(app.match.levels) == [1, 2]


def test_the_dialog_offers_the_kind_of_the_game_on_the_screen(tmp_path: Path) -> None:
    """A game loaded or resumed is of its own kind, whatever the command line said: a
    new game is offered as the same variant, players, computer seats and level."""
    game = Game(Rules(Variant.EXPERT, 3, handicap=(0, 1, 0)), first=0, seed=1)
    levels = {2: 3}
    bots = {seat: bot_for_level(level) for seat, level in levels.items()}
    match = Match(game, bots=bots, levels=levels, autosave=autosave_in(tmp_path))
    app = app_for(match, setup=PlaySetup())  # the command line: 2-player Express

    async def scenario(pilot: Pilot[int]) -> None:
        await pilot.press("f2")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, NewGameScreen)
        chosen = [dialog.query_one(f"#{name}", Select).value for name in ("variant", "players")]
        assert chosen == ["expert", 3]
        assert dialog.query_one("#computer", Select).value == "b"
        assert dialog.query_one("#level", Select).value == 3
        assert dialog.query_one("#handicap", Input).value == "0,1,0"
        dialog.query_one("#start", Button).press()
        await settle(pilot)

    run(app, scenario, size=(100, 40))
    assert app.match.game.rules == Rules(Variant.EXPERT, 3, handicap=(0, 1, 0))
    assert app.match.levels == {2: 3}
    assert app.match.game is not game


def test_seats_at_two_levels_stay_so_in_the_next_game(tmp_path: Path) -> None:
    """Two computer seats at their own levels (-c g:2 -c b:4): the dialog's one level
    made the next game play both at one level. It now offers each seat's level as it
    was, and starting keeps them."""
    setup = PlaySetup(players=3, computer=("g:2", "b:4"), resume=False)
    app = prepare_app(setup, autosave_in(tmp_path))
    assert isinstance(app, ShiftagoApp)
    assert app.match.levels == {1: 2, 2: 4}

    async def scenario(pilot: Pilot[int]) -> None:
        await pilot.press("f2")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, NewGameScreen)
        level = dialog.query_one("#level", Select)
        assert level.value == EACH_OWN_LEVEL
        assert dialog._each_own_level() == "Each as before: green 2, blue 4"
        dialog.query_one("#start", Button).press()
        await settle(pilot)

    run(app, scenario, size=(100, 40))
    assert app.match.levels == {1: 2, 2: 4}


def test_options_that_make_no_game_keep_the_dialog_open_with_the_reason(tmp_path: Path) -> None:
    """A handicap out of range or of another count than the seats, and a clock the
    app cannot read, are said at the dialog's foot; what was chosen stays, and the game
    goes on as it was."""
    game = Game(Rules(Variant.EXPRESS, 2), first=0, seed=1)
    game.play("L3")
    app = app_for(Match(game, autosave=autosave_in(tmp_path)))
    problems: list[str] = []
    said_aside: list[str] = []
    app.notify = lambda message, **_: said_aside.append(message)  # type: ignore[method-assign]

    async def start_with(pilot: Pilot[int], handicap: str, clock: str) -> None:
        app.screen.query_one("#handicap", Input).value = handicap
        app.screen.query_one("#clock", Input).value = clock
        app.screen.query_one("#start", Button).press()  # a click within 0.2 s is not taken
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        assert app.screen.query_one("#handicap", Input).value == handicap
        problems.append(str(app.screen.query_one("#form").border_subtitle))

    async def scenario(pilot: Pilot[int]) -> None:
        await pilot.press("f2")
        await pilot.pause()
        await start_with(pilot, "7,0", "")
        await start_with(pilot, "1,0,0", "")
        await start_with(pilot, "1,0", "soon")

    run(app, scenario, size=(100, 40))
    assert problems[:2] == [
        "each handicap is 0 to 6 skipped turns",
        "the handicap needs one number per seat (2), got 3",
    ]
    assert "soon" in problems[2]
    # the foot holds one line: the reason too long for it is also said whole, aside
    assert said_aside == [problems[2]] and len(problems[2]) > 62
    assert [str(a) for a in app.match.game.history] == ["L3"]


def test_save_then_load_keeps_the_unfinished_game_aside(tmp_path: Path) -> None:
    game = Game.from_actions(Rules(Variant.EXPERT, 2), ["L3", "Tc"], first=0)
    match = Match(game, autosave=autosave_in(tmp_path))
    match.saved()
    record = tmp_path / "game.txt"
    app = app_for(match)

    async def scenario(pilot: Pilot[int]) -> None:
        await pilot.press("f4")
        await pilot.pause()
        path = app.screen.query_one("#path", Input)
        path.value = str(record)
        await pilot.press("enter")
        await pilot.pause()
        assert record.exists()
        await pilot.press("enter")  # the board's cursor: Ta
        await pilot.pause()
        assert len(game.history) == 3
        await pilot.press("f3")
        await pilot.pause()
        app.screen.query_one("#path", Input).value = str(record)
        await pilot.press("enter")
        await settle(pilot)

    run(app, scenario)
    assert [str(a) for a in app.match.game.history] == ["L3", "Tc"]
    said = log_text(app)
    assert f"Saved the record to {record}." in said
    kept = list((tmp_path / "shiftago-home").glob("autosave-*.txt"))
    assert len(kept) == 1 and "Ta" in kept[0].read_text()
    assert str(kept[0]) in said


def test_loading_a_file_that_is_not_there_says_so(tmp_path: Path) -> None:
    game = Game(Rules(Variant.EXPRESS, 2), first=0, seed=1)
    app = app_for(Match(game, autosave=autosave_in(tmp_path)))

    async def scenario(pilot: Pilot[int]) -> None:
        await pilot.press("f3")
        await pilot.pause()
        app.screen.query_one("#path", Input).value = str(tmp_path / "nothing.txt")
        await pilot.press("enter")
        await pilot.pause()

    run(app, scenario)
    assert app.match.game is game
    assert "Cannot go on from" in log_text(app)


def test_loading_a_finished_game_names_the_command_that_replays_it(tmp_path: Path) -> None:
    # F3 goes on from a record; a German player who loaded a finished one was told only
    # that it had ended, not where it can be watched again
    finished = Game(Rules(), first=0)
    for action in ["L2", "L6", "L2", "L6", "L2", "L6", "L2", "L6", "L2"]:
        finished.play(action)
    path = tmp_path / "my games" / "won.txt"
    path.parent.mkdir()
    path.write_text(format_record(Record.from_game(finished)) + "\n")
    game = Game(Rules(Variant.EXPRESS, 2), first=0, seed=1)
    app = app_for(Match(game, autosave=autosave_in(tmp_path)))

    async def scenario(pilot: Pilot[int]) -> None:
        await pilot.press("f3")
        await pilot.pause()
        app.screen.query_one("#path", Input).value = str(path)
        await pilot.press("enter")
        await pilot.pause()

    run(app, scenario)
    assert app.match.game is game
    said = log_text(app)
    assert "the game ended (orange wins with a line)" in said
    assert f"shiftago show '{path}'" in said


def test_notation_typed_faster_than_the_focus_moves_is_played_not_the_cursor(
    tmp_path: Path,
) -> None:
    game = Game(Rules(Variant.EXPRESS, 2), first=0, seed=1)
    app = app_for(Match(game, autosave=autosave_in(tmp_path)))

    async def scenario(pilot: Pilot[int]) -> None:
        board = app.query_one("#board", BoardView)
        for key in "l3":  # all three keys reach the board before it hands any on
            board.on_key(events.Key(key, key))
        board.action_push()
        await pilot.pause()
        assert [str(a) for a in game.history] == ["L3"]  # not Ta, the cursor's arrow
        board.focus()
        await pilot.pause()
        await pilot.press("enter")  # the board again: Enter pushes at the cursor
        await pilot.pause()

    run(app, scenario)
    assert [str(a) for a in game.history] == ["L3", "Ta"]


def test_a_turn_a_handicap_skips_is_said_in_the_log(tmp_path: Path) -> None:
    """With green's two skips, orange's first two actions are each followed by green's
    skipped turn, as the line game says them."""
    game = Game(Rules(Variant.EXPRESS, 2, handicap=(0, 2)), first=0, seed=1)
    app = app_for(Match(game, autosave=autosave_in(tmp_path)))

    async def scenario(pilot: Pilot[int]) -> None:
        for action in ("L1", "L3", "L5"):  # apart: only orange's marbles on the board
            app.act(Action.parse(action))
            await pilot.pause()

    run(app, scenario)
    log = log_text(app)
    assert "Orange plays L1. Green skips a turn (handicap, 1 more to come)." in log
    assert "Orange plays L3. Green skips a turn (handicap, the last one)." in log
    assert log.endswith("Orange plays L5.")


def test_in_a_scoring_of_four_players_the_log_shows_whole_in_80_by_24(tmp_path: Path) -> None:
    """The four seats' rows and the scoring choices left the log's last row under the
    panel's foot at 80x24, so a refusal read there lost its end: the log lies whole
    inside the panel, and a refusal's last words are on screen."""
    actions = (
        "Bg Bc Tc Td Bg Bd Tb Td L2 Bb xd1-b1 Bd Ta xa7-c7 L7 Td xd5-d7 Tc L3 Bd xd1-d3 Bd "
        "Tc xa7-c7 Ta Tb xb7-d5 Ta L3 Bd xd1-d3 Be L4 xa4-a6 L3 L7 xa7-c7 Ta R5 Bf xf1-d1 "
        "R2 L5 xa5-a3 L5 Ta xa5-a7 L6 Bf R2 xe2-g2 Bf L6 Tc xa5-c7 L4 L6 Bg Tb xb4-b7 L3 "
        "L6 xa4-a6 L5 Bc R1 xe1-g1 Be xe3-e1 Be L5 L3 Be Bd L5 xb5-b3 L5 xc5-a5 R7 L5 "
        "xa3-a5 L3 Ba L3 xd1-f3 L3 R7 L4 R5"
    )
    game = Game(Rules(Variant.EXTREME, 4), first=0)
    for action in actions.split():
        game.play(action)
    assert game.phase is Phase.SCORE and len(game.scoring_options()) >= 3
    app = app_for(Match(game, autosave=autosave_in(tmp_path)))

    async def scenario(pilot: Pilot[int]) -> None:
        await pilot.press(*"zz", "enter")
        await pilot.pause()
        log = app.query_one("#log", RichLog)
        side = app.query_one("#side").region
        assert log.region.y >= side.y and log.region.bottom <= side.bottom, (log.region, side)
        assert log.scroll_y == log.max_scroll_y  # the newest words in view
        assert "(xc3-g3)." in log.lines[-1].text

    run(app, scenario)


def test_a_terminal_smaller_than_80_by_24_is_told_once_that_parts_are_cut_off(
    tmp_path: Path,
) -> None:
    """Below 80x24 the scoring choices and the log fall under the panel's foot: the
    player is told so once when the terminal shrinks (not at every resize), and not
    at all at 80x24."""
    game = Game(Rules(Variant.EXPRESS, 2), first=0)
    app = app_for(Match(game, autosave=autosave_in(tmp_path)))

    def notices() -> list[str]:
        return [str(notice.message) for notice in app._notifications]

    async def scenario(pilot: Pilot[int]) -> None:
        assert notices() == []  # 80x24 shows the whole game
        await pilot.resize_terminal(80, 20)
        await pilot.pause()
        await pilot.resize_terminal(78, 19)
        await pilot.pause()
        assert notices() == [
            "The terminal is 80x20: below 80x24 parts of the game are cut off. "
            "Enlarge it to see them all."
        ]
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.resize_terminal(70, 24)
        await pilot.pause()
        assert len(notices()) == 2 and "70x24" in notices()[1]

    run(app, scenario)


def test_a_new_game_keeps_the_unfinished_one_in_a_file_of_its_own(tmp_path: Path) -> None:
    """F2's new game took the autosave's place at its first action, and the game on the
    screen was gone: it is set aside first, and the log says where."""
    game = Game(Rules(Variant.EXPRESS, 2), first=0, seed=1)
    match = Match(game, autosave=autosave_in(tmp_path))
    app = app_for(match)

    async def scenario(pilot: Pilot[int]) -> None:
        app.act(Action.parse("Td"))
        await settle(pilot)
        await pilot.press("f2")
        await pilot.pause()
        await pilot.click("#start")
        await settle(pilot)

    run(app, scenario)
    kept = [p for p in tmp_path.glob("**/autosave-*.txt")]
    assert len(kept) == 1 and "1. Td" in kept[0].read_text()
    assert f"The unfinished game is kept in {kept[0]} (F3 goes on with it)." in app.said


def test_the_turns_skipped_before_the_first_action_are_said(tmp_path: Path) -> None:
    """An Italian family gave three seats 2 skipped turns each: the log said nothing of
    the first three, and the panels showed 1 left (``shiftago play`` says them)."""
    game = Game(Rules(Variant.EXPRESS, 4, handicap=(2, 2, 2, 0)), first=0, seed=1)
    assert game.state.turn == 3 and game.state.skips == (1, 1, 1, 0)
    app = app_for(Match(game, autosave=autosave_in(tmp_path)))

    async def scenario(pilot: Pilot[int]) -> None:
        await settle(pilot)

    run(app, scenario)
    assert app.said[:3] == [
        f"{name} skips a turn (handicap, 1 more to come)." for name in ("Orange", "Green", "Blue")
    ]
