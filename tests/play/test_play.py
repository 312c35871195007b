"""``shiftago play`` driven as a user drives it: lines of input, piped, to the end.

Each test points ``SHIFTAGO_HOME`` at its own directory, so the autosave is private.
"""

from __future__ import annotations

import io
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from shiftago.core import Game, Rules, Variant
from shiftago.engine.levels import bot_for_level
from shiftago.formats.record import Record, format_record, parse_record
from shiftago.interfaces.cli import cli
from shiftago.interfaces.play.session import TURN, LineReader, Session
from shiftago.interfaces.shared.how_to_play import VARIANT_RULES
from support.waiting import wait_until

START_EXPRESS = "express 2 7/7/7/7/7/7/7 o insert 22,22 0,0 0,0"
#: Orange fills rank 1 from the left while green fills rank 7: orange's 5th L1 wins.
ORANGE_WINS = ["L1", "L7", "L1", "L7", "L1", "L7", "L1", "L7", "L1"]
#: Every insertion, over and over: whatever the computer does, some of them are legal.
EVERY_LANE = [f"{side}{lane}" for side in "LR" for lane in "1234567"] + [
    f"{side}{lane}" for side in "TB" for lane in "abcdefg"
]


def play(home: Path, args: list[str], lines: list[str]) -> Result:
    runner = CliRunner()
    text = "".join(line + "\n" for line in lines)
    # English whatever the machine's language: the words are asserted as English
    env = {"SHIFTAGO_HOME": str(home), "LANGUAGE": "", "LC_ALL": "C"}
    return runner.invoke(cli, ["play", *args], input=text, env=env)


def positions(output: str) -> list[str]:
    """The answers to the ``position`` command in a transcript."""
    return [line for line in output.splitlines() if line.split()[:1] in (["express"], ["expert"])]


def errors(output: str) -> list[str]:
    return [line for line in output.splitlines() if line.startswith("error:")]


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "home"


# --- whole games --------------------------------------------------------------------
def test_hotseat_express_game_to_the_end(home: Path) -> None:
    result = play(home, ["--first", "o"], [*ORANGE_WINS, "quit"])
    assert result.exit_code == 0, result.output
    assert "orange plays L1" in result.output
    assert "green plays L7" in result.output
    assert "Game over: orange wins with a line." in result.output
    assert not (home / "autosave.txt").exists()
    record = parse_record((home / "last-game.txt").read_text())
    assert record.result == "o"
    assert [str(a) for a in record.actions] == ORANGE_WINS
    # filled to the width: the path may begin a line of its own
    assert f"The record is in {home / 'last-game.txt'}" in " ".join(result.output.split())


def test_the_board_and_whose_turn_show_after_each_action(home: Path) -> None:
    result = play(home, ["--first", "g"], ["Td", "Ta"])
    out = result.output
    assert "7 . . .[g]. . ." in out  # the entry cell of the last insertion is marked
    assert "Express, 2 players: orange (o) to insert" in out
    assert out.count("  a b c d e f g") == 3  # start, after Td, after Ta
    assert "green to insert> Td" in out  # piped input is echoed after the prompt


def test_against_the_computer_to_the_end(home: Path) -> None:
    result = play(home, ["--first", "o", "--computer", "g", "--seed", "3"], EVERY_LANE * 10)
    assert result.exit_code == 0, result.output
    assert "green (computer) plays" in result.output
    assert "Game over:" in result.output
    record = parse_record((home / "last-game.txt").read_text())
    assert record.levels[1] is not None and record.levels[0] is None
    assert record.to_game().is_over


def test_computer_against_computer_needs_no_input(home: Path) -> None:
    args = ["--variant", "expert", "-c", "o", "-c", "green", "--level", "1", "--seed", "4"]
    result = play(home, args, [])
    assert result.exit_code == 0, result.output
    assert "Game over:" in result.output
    assert "orange (computer) plays" in result.output


def test_expert_score_phase_lists_the_options(home: Path) -> None:
    result = play(home, ["--variant", "expert", "--first", "o"], [*ORANGE_WINS, "L4", "position"])
    out = result.output
    assert "Expert, 2 players: orange (o) must score a line" in out
    assert "xa1-e1   line a1-e1 (5), 2 points, removes b1 c1 d1" in out
    assert errors(out) == ["error: Orange must score a line first: L4 is not possible now."]
    assert positions(out) == ["expert 2 gggg3/7/7/7/7/7/ooooo2 o score 17,18 0,0 0,0"]


def test_three_players_choose_the_end_marble_that_stays(home: Path) -> None:
    lines = ["L1", "L7", "L6", "L1", "L7", "L6", "L1", "L7", "L6", "L1"]
    result = play(home, ["--variant", "expert", "--players", "3", "--first", "o"], lines)
    out = result.output
    # with 3-4 players the end that stays is the choice: each line says it
    assert "xa1-d1   line a1-d1 (4), 2 points, keeps a1, removes b1 c1 d1" in out
    assert "xd1-a1   line a1-d1 (4), 2 points, keeps d1, removes a1 b1 c1" in out
    result = play(home, ["--resume"], ["XD1-A1", "position"])
    assert "orange scores xd1-a1: 2 points, 2 in all; moves again" in result.output
    assert positions(result.output) == [
        "expert 3 ggg4/bbb4/7/7/7/7/3o3 o insert 21,19,19 2,0,0 0,0,0"
    ]


def test_actions_in_any_case(home: Path) -> None:
    result = play(home, ["--first", "o"], ["l1", " tD ", "position"])
    assert errors(result.output) == []
    assert positions(result.output) == ["express 2 3g3/7/7/7/7/7/o6 o insert 21,21 0,0 0,0"]


def test_handicap_skips_are_announced(home: Path) -> None:
    result = play(home, ["--first", "o", "--handicap", "0,2"], ["Td", "Ta", "Tg", "position"])
    assert result.output.count("green skips a turn") == 2
    assert positions(result.output) == ["express 2 o2o2o/7/7/7/7/7/7 g insert 19,22 0,0 0,0"]


def test_skips_before_the_first_action_are_announced(home: Path) -> None:
    """Orange, asked to start, skips at once: said before the board, not only seen."""
    result = play(home, ["--new", "--first", "o", "--handicap", "2,0"], ["quit"])
    out = result.output
    assert "orange skips a turn (handicap, 1 more to come)" in out
    assert out.index("orange skips a turn") < out.index("green to insert>")
    three = play(home, ["--new", "--players", "3", "--first", "o", "--handicap", "1,1,1"], [])
    assert three.output.count("skips a turn (handicap, the last one)") == 3


def test_skips_are_announced_in_the_order_of_play(home: Path) -> None:
    """Green starts: blue's turn comes before orange's, and so do their skips."""
    out = play(home, ["--new", "--players", "3", "--first", "g", "--handicap", "1,0,1"], ["L1"])
    said = re.findall(r"(\w+) skips a turn", out.output)
    assert said == ["blue", "orange"], out.output


# --- invalid input ------------------------------------------------------------------
def test_invalid_input_gets_one_line_and_changes_nothing(home: Path) -> None:
    fill_rank_1 = ["L1"] * 7  # alternating colours: no line, and the lane is full
    bad = ["L1", "foo", "T9", "xa1-b1", "xa1-a1", "save", "", "position"]
    result = play(home, ["--first", "o"], [*fill_rank_1, "position", *bad])
    out = result.output
    assert errors(out) == [
        "error: L1 cannot be played: its lane is full, and a marble may never be pushed off the "
        "board.",
        "error: 'foo' is not an action or a command (type help for the list)",
        "error: 'T9' is not an action: actions are written like L3, Tc or xc3-g3.",
        "error: There is no line to score: xa1-b1 is not possible now.",
        "error: 'xa1-a1' is not an action: actions are written like L3, Tc or xc3-g3.",
        "error: save needs a file name: save FILE",
    ]
    before, after = positions(out)
    assert before == after == "express 2 7/7/7/7/7/7/ogogogo g insert 18,19 0,0 0,0"


def test_legal_help_and_board_commands(home: Path) -> None:
    result = play(home, ["--first", "o"], ["legal", "help", "board"])
    out = result.output
    assert "L1 L2 L3 L4 L5 L6 L7 R1 R2" in out and "Bg" in out
    assert "undo" in out and "save FILE" in out and "quit" in out
    assert out.count("  a b c d e f g") == 2
    assert errors(out) == []


def test_rules_says_how_a_turn_is_typed_and_how_each_variant_is_won(home: Path) -> None:
    result = play(home, ["--first", "o"], ["rules", "rules now", "help"])
    out = result.output
    # filled to the width (words broke where a terminal ran out, a German walk)
    told = out[out.index("Every turn") : out.index("error:")].rstrip().splitlines()
    assert told and max(len(line) for line in told) <= 100
    flowing = " ".join(out.split())
    paragraphs = [" ".join(text.split()) for text in (TURN, *VARIANT_RULES)]
    assert all(paragraph in flowing for paragraph in paragraphs)
    assert sorted(paragraphs, key=flowing.index) == paragraphs  # in that order
    assert errors(out) == ["error: rules takes nothing after it, got 'now'"]
    assert "  rules          how to play" in out  # help lists it


# --- undo ---------------------------------------------------------------------------
def test_undo_takes_back_one_action_at_a_time(home: Path) -> None:
    result = play(home, ["--first", "o"], ["L1", "L7", "undo", "position", "undo", "undo"])
    out = result.output
    assert "took back L7" in out and "took back L1" in out
    assert positions(out) == ["express 2 7/7/7/7/7/7/o6 g insert 21,22 0,0 0,0"]
    assert errors(out) == ["error: there is no action to take back"]


def test_undo_against_the_computer_goes_back_to_the_humans_turn(home: Path) -> None:
    args = ["--first", "o", "--computer", "g", "--seed", "1"]
    result = play(home, args, ["L1", "position", "undo", "position"])
    out = result.output
    played, undone = positions(out)
    assert played.endswith("o insert 21,21 0,0 0,0")
    assert undone == START_EXPRESS
    took_back = next(line for line in out.splitlines() if line.startswith("took back"))
    assert took_back.startswith("took back L1 ") and len(took_back.split()) == 4


def test_undo_with_no_human_action_yet(home: Path) -> None:
    result = play(home, ["--first", "g", "--computer", "g", "--seed", "1"], ["undo"])
    assert errors(result.output) == ["error: there is no action of yours to take back"]


def test_undo_after_the_end_goes_on_playing(home: Path) -> None:
    result = play(home, ["--first", "o"], [*ORANGE_WINS, "undo", "L2", "position"])
    assert "Game over: orange wins" in result.output
    assert positions(result.output)[-1].endswith("g insert 17,18 0,0 0,0")
    assert (home / "autosave.txt").exists()


# --- save and load ------------------------------------------------------------------
def test_save_then_load_and_continue(home: Path, tmp_path: Path) -> None:
    saved = tmp_path / "game.txt"
    first = play(home, ["--first", "o"], [*ORANGE_WINS[:5], f"save {saved}", "quit"])
    assert f"saved the record to {saved}" in first.output
    assert [str(a) for a in parse_record(saved.read_text()).actions] == ORANGE_WINS[:5]
    second = play(home, ["--load", str(saved)], ORANGE_WINS[5:])
    assert second.exit_code == 0, second.output
    assert "Resume the unfinished" not in second.output
    # the unfinished game of the autosave is not replaced by the loaded one: kept aside
    kept = sorted(home.glob("autosave-*.txt"))
    assert len(kept) == 1 and f"is kept in {kept[0]}" in second.output
    assert [str(a) for a in parse_record(kept[0].read_text()).actions] == ORANGE_WINS[:5]
    assert "Game over: orange wins with a line." in second.output


def test_save_to_an_unwritable_place_is_an_error(home: Path, tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    result = play(home, ["--first", "o"], ["L1", f"save {tmp_path / 'file' / 'x.txt'}", "L7"])
    assert len(errors(result.output)) == 1
    assert errors(result.output)[0].startswith(f"error: cannot write {tmp_path / 'file'}")
    assert "green plays L7" in result.output


def test_save_into_a_folder_that_is_not_there_is_an_error(home: Path, tmp_path: Path) -> None:
    missing = tmp_path / "no such folder" / "game.txt"
    result = play(home, ["--new", "--first", "o"], ["L1", f"save {missing}", "quit"])
    assert f"error: cannot write {missing}: there is no folder {missing.parent}" in result.output
    assert not missing.parent.exists()  # not made behind the player's back


def test_load_a_broken_record_names_the_line(home: Path, tmp_path: Path) -> None:
    broken = tmp_path / "broken.txt"
    broken.write_text('[Variant "express"]\n[Players "2"]\n[First "o"]\n\n1. Td 2. Q9 *\n')
    result = play(home, ["--load", str(broken)], [])
    assert result.exit_code == 2
    assert f"{broken}:5: 'Q9' is not an action" in result.output
    assert "Traceback" not in result.output


def test_go_on_from_a_position(home: Path) -> None:
    position = "expert 3 7/7/7/7/7/7/3oooo o score 18,22,22 0,0,0 0,0,0"
    result = play(home, ["--position", position], ["xd1-g1", "Tc", "position"])
    assert errors(result.output) == []
    assert positions(result.output) == ["expert 3 2o4/7/7/7/7/7/3o3 g insert 20,22,22 2,0,0 0,0,0"]
    record = parse_record((home / "autosave.txt").read_text())
    assert record.position == position


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--first", "x"], "unknown colour 'x'"),
        (["--players", "3", "--computer", "w"], "'w' has no seat with 3 players: the seats are"),
        (["--handicap", "1,2,3"], "the handicap needs one number per seat (2), got 3"),
        (["--handicap", "a"], "one number of skipped turns per seat"),
        (["--handicap", "7,0"], "each handicap is 0 to 6 skipped turns"),
        # one number out of range is said so, not counted (an Italian walk's "9")
        (["--handicap", "9"], "each handicap is 0 to 6 skipped turns"),
        (["--level", "99", "--computer", "o"], "99 is not in the range 1<=x<=7"),
        (["--position", "express 2 7/7"], "bad position"),
        (["--load", "x.txt", "--position", START_EXPRESS], "either --load or --position"),
        (["--load", "does-not-exist.txt"], "cannot read does-not-exist.txt"),
    ],
)
def test_bad_options(home: Path, args: list[str], message: str) -> None:
    result = play(home, args, [])
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output


def test_a_record_file_that_is_not_text_is_named_so(home: Path, tmp_path: Path) -> None:
    path = tmp_path / "binary.dat"
    path.write_bytes(b"\xff\xfe")
    result = play(home, ["--load", str(path)], [])
    assert result.exit_code == 2, result.output
    assert f"cannot read {path}: not UTF-8 text (byte 0xff at offset 0)" in result.output


# --- autosave and resume --------------------------------------------------------------
def test_end_of_input_saves_and_the_next_session_resumes(home: Path) -> None:
    first = play(home, ["--first", "o"], ["L1", "L7"])
    assert first.exit_code == 0
    assert "Input ended: the game is saved" in first.output
    assert (home / "autosave.txt").exists()
    second = play(home, [], ["y", "position", "L1", "quit"])
    assert "Resume the unfinished game from " in second.output
    assert "[Y/n] y" in second.output
    assert positions(second.output) == ["express 2 g6/7/7/7/7/7/o6 o insert 21,21 0,0 0,0"]
    third = play(home, [], ["", "position"])  # an empty answer means yes
    assert positions(third.output) == ["express 2 g6/7/7/7/7/7/oo5 g insert 20,21 0,0 0,0"]


def test_the_resume_question_writes_the_date_as_the_language_does(home: Path) -> None:
    """The ISO form (2026-12-07 11:07) read as foreign in German (a German walk)."""
    play(home, ["--first", "o"], ["L1"])
    english = play(home, [], ["quit"])
    assert re.search(r"from [A-Z][a-z]{2} \d{1,2}, \d{4},? \d{1,2}:\d{2}", english.output)
    german = CliRunner().invoke(
        cli,
        ["play", "--lang", "de"],
        input="quit\n",
        env={"SHIFTAGO_HOME": str(home), "LANGUAGE": "", "LC_ALL": "C"},
    )
    said = re.search(r"Die unterbrochene Partie vom (\S+ \S+) fortsetzen", german.output)
    assert said, german.output
    assert re.fullmatch(r"\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}", said.group(1))


def test_declining_to_resume_starts_a_new_game(home: Path) -> None:
    play(home, ["--first", "o"], ["L1"])
    result = play(home, ["--first", "o"], ["maybe", "n", "position", "quit"])
    assert "Please answer y or n." in result.output
    assert positions(result.output) == [START_EXPRESS]
    assert result.output.rstrip().endswith("Leaving.")
    # the unfinished game is still there until the new game makes its first move
    assert "1. L1" in (home / "autosave.txt").read_text()


def test_resume_and_new_flags_answer_without_asking(home: Path) -> None:
    play(home, ["--first", "o"], ["L1"])
    resumed = play(home, ["--resume"], ["position"])
    assert "Resume the unfinished" not in resumed.output
    assert positions(resumed.output) == ["express 2 7/7/7/7/7/7/o6 g insert 21,22 0,0 0,0"]
    new = play(home, ["--new", "--first", "g"], ["position", "Td"])
    assert "Resume the unfinished" not in new.output
    assert positions(new.output) == ["express 2 7/7/7/7/7/7/7 g insert 22,22 0,0 0,0"]
    assert "1. Td" in (home / "autosave.txt").read_text()


def test_a_script_for_a_new_game_is_stopped_at_the_question_not_spent_on_it(
    home: Path,
) -> None:
    play(home, ["--first", "o"], ["L1"])
    for first_line in ("L1", "save game.txt", "position"):
        result = play(home, ["--first", "o"], [first_line, "L7", "quit"])
        assert result.exit_code == 2, result.output
        assert "give --resume to go on with it, or --new" in result.output
        assert "Please answer y or n." not in result.output
    assert "1. L1" in (home / "autosave.txt").read_text()  # the saved game is kept
    left = play(home, [], ["quit"])  # quit at the question leaves it, keeping the game
    assert left.exit_code == 0 and (home / "autosave.txt").exists()


def test_end_of_input_at_the_question_keeps_the_game(home: Path) -> None:
    play(home, ["--first", "o"], ["L1"])
    result = play(home, [], [])
    assert result.exit_code == 0
    assert (home / "autosave.txt").exists()


def test_a_finished_game_clears_the_autosave(home: Path) -> None:
    play(home, ["--first", "o"], ORANGE_WINS[:4])
    assert (home / "autosave.txt").exists()
    result = play(home, ["--resume"], ORANGE_WINS[4:])
    assert "Game over: orange wins" in result.output
    assert not (home / "autosave.txt").exists()
    again = play(home, ["--first", "o"], ["quit"])
    assert "Resume" not in again.output


def test_the_computer_seats_come_back_on_resume(home: Path) -> None:
    play(home, ["--first", "o", "--computer", "g", "--seed", "2"], ["L1"])
    record = parse_record((home / "autosave.txt").read_text())
    assert record.levels[1] is not None
    result = play(home, ["--resume", "--seed", "2"], ["L2", "position"])
    assert "green (computer) plays" in result.output
    assert positions(result.output)[0].split()[3] == "o"


def test_an_unreadable_autosave_is_moved_aside(home: Path) -> None:
    home.mkdir()
    (home / "autosave.txt").write_text("this is no record\n")
    result = play(home, ["--resume", "--first", "o"], ["position"])
    assert "The saved game cannot be read" in result.output
    assert (home / "autosave-broken.txt").exists()
    assert positions(result.output) == [START_EXPRESS]
    # not UTF-8, and then a second broken one: each kept, the first not replaced
    (home / "autosave.txt").write_bytes(b"\xff\xfe\x00garbage\x80")
    again = play(home, ["--resume", "--first", "o"], ["position"])
    assert again.exit_code == 0, again.output
    assert "not UTF-8 text" in again.output
    assert (home / "autosave-broken-2.txt").read_bytes().startswith(b"\xff")
    assert (home / "autosave-broken.txt").read_text() == "this is no record\n"
    # a save naming a computer level that does not exist is set aside too
    play(home, ["--new", "--first", "o", "--computer", "g", "--seed", "2"], ["L1"])
    saved = (home / "autosave.txt").read_text()
    # a computer seat is named as the web app's records name it (a French walk)
    assert '[Green "Computer"]' in saved.splitlines()
    level = next(line for line in saved.splitlines() if line.startswith("[GreenLevel"))
    (home / "autosave.txt").write_text(saved.replace(level, '[GreenLevel "99"]'))
    third = play(home, ["--resume", "--first", "o"], ["position"])
    assert "The saved game cannot be read (unknown level 99" in third.output, third.output
    assert positions(third.output) == [START_EXPRESS]


def test_xdg_data_home_is_the_default_place(tmp_path: Path) -> None:
    env = {"SHIFTAGO_HOME": "", "XDG_DATA_HOME": str(tmp_path / "xdg")}
    CliRunner().invoke(cli, ["play", "--first", "o"], input="L1\n", env=env)
    assert (tmp_path / "xdg" / "shiftago" / "autosave.txt").exists()


def test_resume_after_the_process_is_killed(home: Path) -> None:
    env = {**os.environ, "SHIFTAGO_HOME": str(home)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "shiftago", "play", "--first", "o"],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        env=env,
        text=True,
    )
    assert proc.stdin is not None
    try:
        proc.stdin.write("L1\nL7\nL1\n")
        proc.stdin.flush()
        autosave = home / "autosave.txt"
        wait_until(lambda: autosave.exists() and "3. L1" in autosave.read_text(), timeout=30)
        assert proc.poll() is None  # still waiting for input
    finally:
        proc.kill()
        proc.wait()
    result = play(home, [], ["y", "position"])
    assert positions(result.output) == ["express 2 g6/7/7/7/7/7/oo5 g insert 20,21 0,0 0,0"]


def _default_interrupt() -> None:
    """In the child before it starts: Ctrl-C as a terminal gives it. A test process may
    have SIGINT ignored or blocked (what a program inherits), and Python keeps an
    ignored SIGINT ignored: the full suite's run hung here so."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _sleeping(pid: int) -> bool:
    """Whether the main thread of process ``pid`` sleeps in a system call (Linux)."""
    stat = Path(f"/proc/{pid}/task/{pid}/stat").read_text()
    return stat.rsplit(")", 1)[1].split()[0] == "S"


def test_ctrl_c_at_the_resume_question_keeps_the_game(home: Path) -> None:
    play(home, ["--first", "o"], ["L1", "L7"])  # the input ends: the game is saved
    saved = (home / "autosave.txt").read_text()
    env = {**os.environ, "SHIFTAGO_HOME": str(home)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "shiftago", "play"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        text=True,
        preexec_fn=_default_interrupt,
    )
    assert proc.stdin is not None and proc.stdout is not None
    try:
        said = ""
        while not said.endswith("[Y/n] "):  # the question, asked and waiting
            char = proc.stdout.read(1)
            assert char, said
            said += char
        # Ctrl-C once the program waits in the read: a signal that comes between the
        # prompt's flush and the read is only seen when the read returns (Python checks
        # for signals between its own steps), which a person never hits but a test can
        wait_until(lambda: _sleeping(proc.pid), what="the program waiting for an answer")
        proc.send_signal(signal.SIGINT)
        # stdin stays open until the program has ended: closing it (as communicate()
        # does) would race the signal with the end of the input, which also ends the
        # question
        proc.wait(timeout=30)
        out, err = proc.stdout.read(), proc.stderr.read() if proc.stderr else ""
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == 130, (out, err)
    assert "Interrupted before the game began. The unfinished game stays saved" in out
    assert "Traceback" not in err and "Aborted" not in err, err
    assert (home / "autosave.txt").read_text() == saved


def test_the_record_of_a_session_replays_to_its_game(home: Path, tmp_path: Path) -> None:
    moves = ["Td", "Tc", "L4", "Bb"]
    play(home, ["--variant", "expert", "--first", "g"], [*moves, f"save {tmp_path / 'g.txt'}"])
    game = Game(Rules(Variant.EXPERT, 2), first="g")
    for action in moves:
        game.play(action)
    assert parse_record((tmp_path / "g.txt").read_text()).to_game().state == game.state


def test_undo_to_the_empty_board_leaves_nothing_to_resume(home: Path) -> None:
    play(home, ["--first", "o"], ["L1", "undo"])
    assert not (home / "autosave.txt").exists()


def as_in_a_terminal() -> None:
    """Ctrl-C's signal at its default, as in a terminal: a suite started in the background
    (``cmd &``) passes SIGINT on ignored, and Python then never raises KeyboardInterrupt."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_leaves_the_game_saved(home: Path) -> None:
    env = {**os.environ, "SHIFTAGO_HOME": str(home)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "shiftago", "play", "--first", "o"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env=env,
        text=True,
        preexec_fn=as_in_a_terminal,
    )
    assert proc.stdin is not None
    proc.stdin.write("L1\n")
    proc.stdin.flush()
    autosave = home / "autosave.txt"
    wait_until(autosave.exists, timeout=30)
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=30)
    assert proc.returncode == 130
    assert "Interrupted: the game is saved" in out
    assert "1. L1" in autosave.read_text()


def test_an_action_limit_ends_the_game(home: Path) -> None:
    result = play(home, ["--first", "o", "--limit", "3"], ["L1", "L7", "L1", "position"])
    assert "Game over: the game is a draw (action limit)." in result.output
    assert positions(result.output) == ["express 2 g6/7/7/7/7/7/oo5 o over 20,21 0,0 0,0"]


def test_load_one_game_of_several(home: Path, tmp_path: Path) -> None:
    two = tmp_path / "two.txt"
    first = play(home, ["--first", "o"], ["L1", f"save {tmp_path / 'a.txt'}", "quit"])
    second = play(home, ["--new", "--first", "g"], ["Td", f"save {tmp_path / 'b.txt'}", "quit"])
    assert first.exit_code == second.exit_code == 0
    two.write_text((tmp_path / "a.txt").read_text() + "\n" + (tmp_path / "b.txt").read_text())
    result = play(home, ["--load", str(two), "--game", "2"], ["position"])
    assert positions(result.output) == ["express 2 3g3/7/7/7/7/7/7 o insert 22,21 0,0 0,0"]
    result = play(home, ["--load", str(two), "--game", "3"], [])
    assert result.exit_code == 2
    assert "holds 2 game(s), not a game 3" in result.output


def test_options_a_loaded_game_would_not_use_are_refused(home: Path, tmp_path: Path) -> None:
    game = Game(Rules(), first=0)
    game.play("L1")
    path = tmp_path / "game.txt"
    path.write_text(format_record(Record.from_game(game)) + "\n")
    for extra, words in (
        (["--variant", "expert"], "--variant set up a new game; --load takes them"),
        (["--players", "4", "--first", "g"], "--players, --first set up a new game"),
        (["--limit", "3"], "--limit applies to a new game or a --position"),
    ):
        result = play(home, ["--load", str(path), *extra], ["position"])
        assert result.exit_code == 2 and words in result.output, result.output
    at = play(home, ["--position", START_EXPRESS, "--handicap", "0,2"], [])
    assert at.exit_code == 2 and "--handicap set up a new game; --position" in at.output


def test_a_game_that_a_termination_ended_is_not_played_on(home: Path, tmp_path: Path) -> None:
    game = Game(Rules(), first=0)
    game.play("L1")
    path = tmp_path / "resigned.txt"
    record = Record.from_game(game, result="g", termination="resignation")
    path.write_text(format_record(record) + "\n")
    result = play(home, ["--load", str(path)], ["L7"])
    assert result.exit_code == 2
    assert (
        "the game ended (green wins by resignation); there is nothing to play on" in result.output
    )


def test_new_game_options_with_a_game_resumed_are_said_to_be_unused(home: Path) -> None:
    play(home, ["--first", "o"], ["L1"])
    result = play(home, ["--variant", "expert"], ["y", "position", "quit"])
    assert "Resuming the game: 1 action played." in result.output
    assert "(--variant: for a new game, not used for the game resumed.)" in result.output


def test_a_long_or_unprintable_line_comes_back_short(home: Path) -> None:
    result = play(home, ["--new", "--first", "o"], ["L" + "1" * 5000, "fo\x01o", "position"])
    errors = [line for line in result.output.splitlines() if "error: " in line]
    assert len(errors) == 2 and all(len(line) < 400 for line in errors), errors
    assert "'L" + "1" * 197 + "… is not an action" in errors[0]
    assert "\\x01" in errors[1] and "\x01" not in errors[1]  # escaped, never raw
    assert positions(result.output) == [START_EXPRESS]  # nothing was played


def test_commands_take_no_stray_words_and_save_takes_a_quoted_name(
    home: Path, tmp_path: Path
) -> None:
    target, unquoted = tmp_path / "a b.txt", tmp_path / "c  d.txt"
    result = play(home, ["--new", "--first", "o"], ["legal extra", "position x", "quit now",
                                                    "L1", f'save "{target}"',
                                                    f"save {unquoted}", "quit"])  # fmt: skip
    assert "error: legal takes nothing after it, got 'extra'" in result.output
    assert "error: position takes nothing after it, got 'x'" in result.output
    assert "error: quit takes nothing after it, got 'now'" in result.output
    assert target.exists() and "1. L1" in target.read_text()
    # unquoted, the name is the rest of the line, its spaces kept
    assert unquoted.exists() and "1. L1" in unquoted.read_text()


def test_a_finished_game_is_not_loaded_and_the_last_game_stays(home: Path, tmp_path: Path) -> None:
    play(home, ["--new", "--first", "o"], ORANGE_WINS)
    last = (home / "last-game.txt").read_text()
    finished = tmp_path / "finished.txt"
    other = Game(Rules(), first=0)
    for action in ["L2", "L6", "L2", "L6", "L2", "L6", "L2", "L6", "L2"]:
        other.play(action)
    finished.write_text(format_record(Record.from_game(other)) + "\n")
    result = play(home, ["--load", str(finished)], [])
    assert result.exit_code == 2 and "the game ended (orange wins with a line)" in result.output
    assert "nothing to play on" in result.output
    assert (home / "last-game.txt").read_text() == last


def test_a_position_over_at_once_is_not_played_and_the_last_game_stays(home: Path) -> None:
    play(home, ["--new", "--first", "o"], ORANGE_WINS)
    last = (home / "last-game.txt").read_text()
    empty_supply = "express 2 7/7/7/7/7/7/7 o insert 0,22 0,0 0,0"  # orange cannot insert
    result = play(home, ["--new", "--position", empty_supply], ["quit"])
    assert result.exit_code == 2, result.output
    assert "the game is over in this position (no marbles); there is nothing to play on" in (
        result.output
    )
    assert (home / "last-game.txt").read_text() == last


def test_a_loaded_record_keeps_its_names_event_date_and_levels(home: Path, tmp_path: Path) -> None:
    game = Game(Rules(Variant.EXPRESS, 3), first=0)
    game.play("L1")
    record = Record.from_game(
        game, names=["Ann", "Bot one", "Bot five"], levels=[None, 1, 5], date="2025-01-02",
        event="Club night",
    )  # fmt: skip
    source = tmp_path / "club.txt"
    source.write_text(format_record(record) + "\n")
    saved = tmp_path / "again.txt"
    play(home, ["--load", str(source), "--seed", "1"], ["L2", f"save {saved}", "quit"])
    again = parse_record(saved.read_text())
    assert again.names == ("Ann", "Bot one", "Bot five")
    assert again.levels == (None, 1, 5)  # each computer seat at its own level
    assert again.event == "Club night" and again.date == "2025-01-02"
    assert saved.stat().st_mode & 0o044  # an export others may read (the umask allowing)


def test_two_computer_seats_play_at_their_own_levels(home: Path, tmp_path: Path) -> None:
    """-c COLOUR:LEVEL: a 3-player game against the computer at two levels, which a
    German walk could set up only by writing a record by hand."""
    saved = tmp_path / "game.txt"
    args = ["--players", "3", "--first", "o", "-c", "g:2", "-c", "blue:4", "--level", "6"]
    result = play(home, [*args, "--seed", "1"], ["L1", f"save {saved}", "quit"])
    assert result.exit_code == 0, result.output
    assert parse_record(saved.read_text()).levels == (None, 2, 4)
    mixed = tmp_path / "mixed.txt"
    play(home, ["--new", "--players", "3", "-c", "g", "-c", "b:1", "--level", "3",
                "--first", "o", "--seed", "1"], ["L1", f"save {mixed}", "quit"])  # fmt: skip
    assert parse_record(mixed.read_text()).levels == (None, 3, 1)  # --level where none named


@pytest.mark.parametrize("given", ["g:0", "g:8", "g:two", "g:"])
def test_a_computer_seat_s_level_out_of_the_ladder_is_refused(home: Path, given: str) -> None:
    result = play(home, ["--new", "-c", given], [])
    assert result.exit_code == 2
    assert f"{given!r}: the level after the colon is a number from 1 to 7" in result.output
    assert not (home / "autosave.txt").exists()


def test_level_without_a_computer_seat_and_resume_without_a_save(home: Path) -> None:
    result = play(home, ["--new", "--level", "2"], [])
    assert result.exit_code == 2
    assert "--level is the level of the computer's seats: give them with -c" in result.output
    fresh = play(home, ["--resume", "--first", "o"], ["quit"])
    assert "There is no unfinished game to resume: a new game starts." in fresh.output
    # a resumed game's computer seats keep their level: --level alone changes nothing
    play(home, ["--new", "--first", "o", "-c", "g", "--level", "3", "--seed", "1"], ["L1"])
    saved = (home / "autosave.txt").read_text()
    resumed = play(home, ["--resume", "--level", "2"], ["quit"])
    assert resumed.exit_code == 2
    assert "--level is the level of the computer's seats: give them with -c" in resumed.output
    assert (home / "autosave.txt").read_text() == saved


def test_a_level_that_does_not_exist_is_refused_without_a_computer_seat(home: Path) -> None:
    result = play(home, ["--level", "99"], [])
    assert result.exit_code == 2 and "99 is not in the range 1<=x<=7" in result.output


def test_at_a_terminal_the_computer_says_it_is_thinking() -> None:
    """Piped sessions stay as they are; at a terminal a search of seconds is announced."""
    for interactive in (False, True):
        out = io.StringIO()
        reader = LineReader(io.StringIO("L1\nquit\n"), out)
        if interactive:  # as at a terminal, without reading the test's own stdin
            reader.interactive = True
            typed = iter(["L1", "quit"])
            reader.read = lambda prompt, typed=typed: next(typed, None)  # type: ignore[method-assign]
        bots = {1: bot_for_level(1, 0)}
        Session(Game(Rules(), first=1), reader, out, bots=bots, levels={1: 1}).run()
        assert ("green (computer) is thinking..." in out.getvalue()) is interactive


BOARD_FOOT = "  a b c d e f g"


def test_every_change_is_shown_on_a_board_the_computers_too(home: Path) -> None:
    """The board after a person's action and after each of the computer's, its scoring
    included (the x of the marbles it took off), before the next action is announced."""
    position = "expert 2 gggg3/7/7/7/7/7/o3o2 g insert 20,18 0,0 0,0"
    result = play(home, ["-c", "g", "--level", "1", "--seed", "1", "--position", position],
                  ["position", "quit"])  # fmt: skip
    lines = result.output.splitlines()
    said = [i for i, line in enumerate(lines) if line.startswith("green (computer) ")]
    assert any(" scores x" in lines[i] for i in said), result.output
    boards = [i for i, line in enumerate(lines) if line == BOARD_FOOT]
    for before, after in zip(said, [*said[1:], len(lines)], strict=True):
        assert any(before < board < after for board in boards), (lines[before], result.output)
    scored = next(i for i in said if " scores x" in lines[i])
    shown = lines[scored + 1 : next(b for b in boards if b > scored)]
    assert any("x" in row.split()[1:] for row in shown[:7]), shown  # the cells it emptied

    result = play(home, ["--new", "--first", "o", "-c", "g", "--level", "1"], ["L1", "quit"])
    lines = result.output.splitlines()
    mine = lines.index("orange plays L1")
    theirs = next(i for i, line in enumerate(lines) if line.startswith("green (computer) plays"))
    assert any(line == BOARD_FOOT for line in lines[mine:theirs]), result.output


def test_a_terminal_without_unicode_gets_question_marks_not_a_crash(home: Path) -> None:
    """A Latin-1 terminal: a shortened line's ellipsis cannot be encoded, and is a ``?``."""
    result = subprocess.run(
        [sys.executable, "-m", "shiftago", "play", "--new", "--first", "o", "-c", "g",
         "--level", "1"],
        input="L" + "1" * 300 + "\nL4\nquit\n",
        capture_output=True,
        text=True,
        encoding="latin-1",
        env={**os.environ, "SHIFTAGO_HOME": str(home), "PYTHONIOENCODING": "latin-1"},
        timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "? is not an action" in result.stdout and "green (computer) plays" in result.stdout


def test_a_resumed_game_says_it_does_not_use_limit_and_game_needs_load(home: Path) -> None:
    play(home, ["--first", "o"], ["L1"])
    result = play(home, ["--resume", "--limit", "2"], ["position", "quit"])
    assert "(--limit: for a new game, not used for the game resumed.)" in result.output
    for source in ([], ["--position", START_EXPRESS]):
        result = play(home, ["--new", "--game", "2", *source], [])
        assert result.exit_code == 2
        assert "--game picks one game of the file of --load" in result.output
