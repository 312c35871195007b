"""What ``shiftago loadtest`` says to people, in the terminal's language: the load
report, the join-burst's and the sign-in-flood's, and the tool's notes and errors.

English is said as before, byte for byte. With a pseudo catalogue (every message its
English in ⟦brackets⟧, written from a fresh extraction of the sources), every word left
outside the brackets is a name that stays English in every language: a unit, a
percentile, ``rss``/``VmRSS``/``pid``, or a kind of error the report counts."""

from __future__ import annotations

import io
import re
import resource
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from shiftago.interfaces import loadtest
from shiftago.interfaces.loadtest import format_report
from shiftago.interfaces.loadtest.burst import ScenarioError, failed, format_burst, refused
from shiftago.interfaces.loadtest.flood import format_flood
from shiftago.interfaces.loadtest.run import Load, LoadConfig, LoadError
from shiftago.interfaces.loadtest.scenarios import run_scenario
from shiftago.interfaces.shared import catalogues
from shiftago.interfaces.shared.catalogues import (
    DOMAIN,
    LOCALE_DIR,
    PSEUDO_CLOSE,
    PSEUDO_OPEN,
    Catalogues,
    Words,
    use_language,
    write_pseudo,
)

#: A message of the pseudo catalogue with no other inside it (they nest: a count inside
#: its sentence).
INNERMOST = re.compile(
    re.escape(PSEUDO_OPEN) + "[^" + PSEUDO_OPEN + PSEUDO_CLOSE + "]*" + re.escape(PSEUDO_CLOSE)
)
WORD = re.compile(r"[^\W\d_][\w'-]*")
#: The names every language says as English does.
NAMES = frozenset({"ms", "MiB", "s", "p50", "p95", "p99", "rss", "VmRSS", "pid"})


def figures(count: int, base: float) -> dict[str, Any]:
    if not count:
        return {"count": 0, "p50": None, "p95": None, "p99": None, "max": None}
    return {"count": count, "p50": base, "p95": base * 2, "p99": base * 3, "max": base * 4}


def a_report(**changes: Any) -> dict[str, Any]:
    """A load report as :func:`~shiftago.interfaces.loadtest.run.run_load` answers it."""
    report = {
        "urls": ["http://127.0.0.1:8001", "http://127.0.0.1:8002"],
        "sockets": "across", "games": 12, "computer_games": 4, "computer_level": 3,
        "watchers": 2, "pace": [1.0, 3.0], "seed": 0, "elapsed_s": 61.2,
        "played": {"started": 30, "finished": 18, "stalled": 0},
        "actions": {"sent": 1234, "acknowledged": 2345, "by_computer": 111, "per_second": 38.3},
        "latency_ms": {
            "act_to_own_event": figures(1234, 3.1),
            "act_to_opponent_event": figures(1200, 4.2),
            "computer_answer": figures(0, 0),
        },
        "errors": {"closed:1006": 2, "http:429": 1, "ws:ConnectionRefusedError": 3},
        "rate_limited": 1, "reconnects": 5, "checked_games": 30, "unreadable_games": 0,
        "lost": 0, "duplicated": 0, "unacknowledged": 2, "late_computer_actions": 1,
        "memory": [
            {
                "url": "http://127.0.0.1:8001",
                "start": {"ok": True, "rss_mib": 80.5, "games_in_memory": 0, "connections": 0},
                "load": {"ok": True, "rss_mib": 120.25, "games_in_memory": 12, "connections": 36},
                "peak": {"rss_mib": 121.0, "games_in_memory": 14, "connections": 40},
                "end": {"ok": True, "rss_mib": 110.0, "games_in_memory": 3, "connections": 0},
            },
            {"url": "http://127.0.0.1:8002", "start": {}, "peak": {}},
        ],
        "processes": [{"pid": 4242, "start": 75.5, "load": 118.0, "peak": 119.5, "end": None}],
        "tool": {
            "cpu_s": 12.3, "cpu_share": 0.2, "loop_lag_ms": figures(600, 0.5),
            "watcher_events": 999,
        },
    }  # fmt: skip
    return report | changes


def a_burst(**changes: Any) -> dict[str, Any]:
    report = {
        "scenario": "join-burst", "url": "http://127.0.0.1:8000", "game": "abc123",
        "watchers": 800, "joined": 798, "burst_seconds": 1.234,
        "action_ms": {
            "before": figures(4, 2.5), "during": figures(10, 40.0), "after": figures(0, 0)
        },
        "join_ms": figures(798, 300.0), "refused": {"ws:429": 2}, "over_during_burst": True,
    }  # fmt: skip
    return report | changes


def a_flood(signed_in: bool = True) -> dict[str, Any]:
    return {
        "scenario": "sign-in-flood", "url": "http://127.0.0.1:8000", "addresses": 40,
        "attempts": 10, "seconds": 12.5,
        "quiet_sign_in_ms": figures(1, 250.0), "owner_ms": figures(5, 260.0),
        "owner_answers": {"200": 5} if signed_in else {"200": 3, "429 busy": 2},
        "owner_signed_in": signed_in, "owner_known_device": signed_in,
        "newcomer_ms": figures(5, 255.0), "newcomer_answers": {"200": 4, "429 busy": 1},
        "flood_ms": figures(400, 240.0),
        "flood_answers": {"401 wrong_credentials": 390, "429 busy": 10},
    }  # fmt: skip


# --- English, as before ---------------------------------------------------------------

REPORT = """\
shiftago loadtest: 12 games at once (4 against the computer at level 3, 2 watchers each) \
on 2 processes (each game across two), 61.2 s
games        30 started, 18 finished, 0 stalled
actions      2,345 acknowledged (38.3/s): 1,234 sent by people, 111 by the computer
latency (ms)                     count      p50      p95      p99      max
  act -> event, own socket       1,234      3.1      6.2      9.3     12.4
  act -> event, opponent         1,200      4.2      8.4     12.6     16.8
  computer's answer                  0      n/a      n/a      n/a      n/a
errors       closed:1006 2, http:429 1, ws:ConnectionRefusedError 3
rate limited 1 (HTTP 429 and rate_limited events); reconnects 5
checked      30 games read back (0 unreadable): lost 0, duplicated 0, unacknowledged 2, \
computer actions after the end 1
memory       start / under load (at the stop) / peak / end
  http://127.0.0.1:8001: rss MiB 80.5 / 120.2 / 121.0 / 110.0; games in memory \
0 / 12 / 14 / 3; connections 0 / 36 / 40 / 0
  http://127.0.0.1:8002: rss MiB n/a / n/a / n/a / n/a; games in memory \
n/a / n/a / n/a / n/a; connections n/a / n/a / n/a / n/a
  pid 4242: VmRSS MiB 75.5 / 118.0 / 119.5 / n/a
tool         cpu 12.3 s (0.2 of a core), its event loop late p99 1.5 ms, max 2.0 ms"""

BURST = """\
join-burst on http://127.0.0.1:8000: 798 of 800 watchers joined in 1.234 s

                          count   p50 ms   p99 ms   max ms
action, before the burst        4      2.5      7.5     10.0
action, during the burst       10     40.0    120.0    160.0
action, after the burst         0        -        -        -
join (socket to presence)      798    300.0    900.0   1200.0
refused or failed: {'ws:429': 2}
the game ended before the burst was through: fewer actions measured"""

FLOOD = """\
sign-in-flood on http://127.0.0.1:8000: 40 addresses x 10 wrong passwords in 12.5 s; \
the owner signed in every time
the owner presented a known-device cookie (signed in once before the flood)

                              count   p50 ms   p99 ms   max ms
sign-in, quiet server             1    250.0    750.0   1000.0
owner's sign-in, flood            5    260.0    780.0   1040.0
first-time sign-in, flood         5    255.0    765.0   1020.0
flood's wrong passwords         400    240.0    720.0    960.0
owner's answers: {'200': 5}
first-time sign-ins' answers: {'200': 4, '429 busy': 1}
flood's answers: {'401 wrong_credentials': 390, '429 busy': 10}"""


def test_the_reports_are_said_in_english_as_before() -> None:
    assert format_report(a_report()) == REPORT
    assert format_burst(a_burst()) == BURST
    assert format_flood(a_flood()) == FLOOD
    one = a_report(urls=["http://a"], memory=[], processes=[], errors={})
    first, *rest = format_report(one).splitlines()
    assert first.endswith(" each) on 1 process, 61.2 s")
    assert "errors       none" in rest
    by_game = format_report(a_report(sockets="by-game")).splitlines()[0]
    assert by_game.endswith(" on 2 processes (each game on one), 61.2 s")
    quiet = format_burst(a_burst(refused={}, over_during_burst=False))
    assert quiet == BURST.rsplit("\n", 2)[0]
    failing = format_flood(a_flood(signed_in=False)).splitlines()
    assert failing[0].endswith("; the owner did NOT sign in every time")
    assert failing[1] == "the server gave the owner no known-device cookie"


def test_one_of_a_kind_is_said_in_the_singular() -> None:
    first = format_report(a_report(games=1, watchers=1, urls=["http://a"])).splitlines()[0]
    assert first.startswith("shiftago loadtest: 1 game at once (4 against the computer")
    assert "1 watcher each) on 1 process," in first
    assert "  1 game read back (" in format_report(a_report(checked_games=1))
    assert "1 of 1 watcher joined" in format_burst(a_burst(watchers=1, joined=1))


# --- every word from the catalogues ---------------------------------------------------


@pytest.fixture(scope="module")
def pseudo_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A pseudo German catalogue of every message of the template (which
    ``tests/server/test_server_languages.py`` keeps up to date with the sources)."""
    folder = tmp_path_factory.mktemp("pseudo") / "locale"
    write_pseudo(LOCALE_DIR / f"{DOMAIN}.pot", folder, "de")
    return folder


@pytest.fixture
def pseudo(pseudo_folder: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The pseudo catalogue's German for one test; English again after it."""
    monkeypatch.setattr(catalogues, "_words", Words())
    use_language("de", Catalogues(pseudo_folder))
    yield


def outside(text: str) -> str:
    """``text`` without its catalogue messages (innermost first)."""
    while (shorter := INNERMOST.sub(" ", text)) != text:
        text = shorter
    assert PSEUDO_OPEN not in text and PSEUDO_CLOSE not in text, text
    return text


def unmarked(text: str, *names: str) -> set[str]:
    """The words of ``text`` that no catalogue message holds, but for :data:`NAMES`
    and the words of ``names`` (what the report counts: kinds of error, answers)."""
    allowed = NAMES | {word for name in names for word in WORD.findall(name)}
    return set(WORD.findall(outside(text))) - allowed


def test_every_word_of_the_reports_comes_from_the_catalogues(pseudo: None) -> None:
    for report in (a_report(), a_report(sockets="by-game"), a_report(urls=["http://a"])):
        text = format_report(report)
        assert unmarked(text, *report["errors"]) == set(), text
        assert text.count(PSEUDO_OPEN) > 30
        # the table's columns widen for longer words and stay aligned
        table = text.splitlines()[3:7]
        assert len({len(line) for line in table}) == 1, table
        assert table[0].startswith(PSEUDO_OPEN + "latency (ms)" + PSEUDO_CLOSE)
    assert unmarked(format_report(a_report(errors={}))) == set()
    for burst in (a_burst(), a_burst(refused={}, over_during_burst=False)):
        text = format_burst(burst)
        assert unmarked(text, *burst["refused"]) == set(), text
    for signed_in in (True, False):
        flood = a_flood(signed_in)
        text = format_flood(flood)
        answers = [*flood["owner_answers"], *flood["newcomer_answers"], *flood["flood_answers"]]
        assert unmarked(text, *answers) == set(), text
        table = text.splitlines()[3:8]
        assert len({len(line) for line in table}) == 1, table


def test_the_tool_s_notes_and_errors_come_from_the_catalogues(
    pseudo: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    said: list[str] = []
    with pytest.raises(LoadError) as wrong:
        LoadConfig(urls=("http://a",), sockets="anywhere")
    said.append(str(wrong.value))
    with pytest.raises(LoadError) as none:
        Load(LoadConfig(urls=()))
    said.append(str(none.value))
    with pytest.raises(ScenarioError) as unknown:
        run_scenario("stampede", "http://a")
    said.append(str(unknown.value))
    said += [failed("POST http://a/api/games", "refused"), refused("POST /x", 500, "oops")]
    err = io.StringIO()  # a limit of 100 open files, and no raising it
    monkeypatch.setattr(resource, "getrlimit", lambda _kind: (100, 100))
    loadtest._raise_open_files(1000, err)
    said.append(err.getvalue())
    for text in said:
        assert text.lstrip().startswith(PSEUDO_OPEN), text
        words = unmarked(text, "anywhere", "stampede", "http://a", "POST", "refused", "oops")
        assert words == set(), text
    assert "1000" in said[-1] and "100" in said[-1]
