"""The load tool's scenarios of issue 55 at a tiny size against a real server in this
process: what they count and report, never how fast."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from click.testing import CliRunner

from shiftago.interfaces.cli import cli
from shiftago.interfaces.loadtest.burst import BurstConfig, format_burst, run_burst
from shiftago.interfaces.loadtest.flood import FloodConfig, format_flood, run_flood
from shiftago.interfaces.server import create_app
from support.served import served

FIGURES = {"count", "p50", "p95", "p99", "max"}


def test_a_join_burst_joins_every_watcher_and_times_the_actions(server_url: str) -> None:
    report = asyncio.run(run_burst(BurstConfig(server_url, watchers=12, pace=0.02, warmup=2)))
    assert report["scenario"] == "join-burst"
    assert report["joined"] == 12 and report["refused"] == {}
    assert set(report["action_ms"]) == {"before", "during", "after"}
    assert all(set(row) == FIGURES for row in report["action_ms"].values())
    assert report["action_ms"]["before"]["count"] >= 1  # the warm-up's own actions
    assert report["join_ms"]["count"] == 12 and report["join_ms"]["max"] > 0
    text = format_burst(report)
    assert "12 of 12 watchers joined" in text and "join (socket to presence)" in text


def test_a_sign_in_flood_leaves_the_owner_able_to_sign_in(tmp_path: Path) -> None:
    """The server's own limits, as a deployment has them: each flooding address
    within its limit, and the owner signs in every time."""
    app = create_app(f"sqlite:///{tmp_path / 'flood.db'}", bot_delay=0)
    with served(app) as url:
        config = FloodConfig(url, addresses=4, attempts=2, owner_tries=2, owner_every=0.05)
        report = asyncio.run(run_flood(config))
    assert report["owner_signed_in"] and report["owner_answers"] == {"200": 2}
    assert report["owner_ms"]["count"] == 2 and report["quiet_sign_in_ms"]["count"] == 1
    assert report["owner_known_device"]
    # the first-time sign-ins are counted apart; each is let in or refused busy at once
    assert report["newcomer_ms"]["count"] == 2
    assert set(report["newcomer_answers"]) <= {"200", "429 busy"}
    assert sum(report["flood_answers"].values()) == 8
    # a wrong password is refused as one, or at once as busy; never let in
    assert set(report["flood_answers"]) <= {"401 wrong_credentials", "429 busy"}
    text = format_flood(report)
    assert "the owner signed in every time" in text
    assert "the owner presented a known-device cookie" in text
    assert "first-time sign-in, flood" in text


def test_the_command_runs_a_scenario_and_prints_json(server_url: str) -> None:
    args = ["loadtest", server_url, "--scenario", "join-burst", "--watchers", "3"]
    answer = CliRunner().invoke(cli, [*args, "--pace", "0.02", "--json"])
    assert answer.exit_code == 0, answer.output
    report = json.loads(answer.output)
    assert report["scenario"] == "join-burst" and report["joined"] == 3


def test_a_scenario_runs_against_one_url_only(server_url: str) -> None:
    args = ["loadtest", server_url, server_url, "--scenario", "sign-in-flood"]
    answer = CliRunner().invoke(cli, args)
    assert answer.exit_code == 2 and "one URL" in answer.output
