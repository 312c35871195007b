"""``shiftago loadtest``: games of scripted people against serve processes
(:mod:`shiftago.interfaces.loadtest`)."""

from __future__ import annotations

import json
import sys

import click

from shiftago.interfaces.cli.extras import require_web
from shiftago.interfaces.cli.refusal import InputRefused
from shiftago.interfaces.cli.words import argument, command, option
from shiftago.interfaces.shared.catalogues import N_, _


def _pace(ctx: click.Context, param: click.Parameter, value: str) -> tuple[float, float]:
    """``--pace``: a range of seconds, ``MIN-MAX`` or one number; else a usage error."""
    low, _dash, high = value.partition("-")
    try:
        pace = (float(low), float(high or low))
    except ValueError:
        raise click.BadParameter(
            _("%(value)s: seconds such as 1-3 (or one number)") % {"value": repr(value)}
        ) from None
    if not 0 <= pace[0] <= pace[1] < 3600:
        raise click.BadParameter(
            _("%(value)s: from a low to a high number of seconds") % {"value": repr(value)}
        )
    return pace


@command(
    short_help=N_("Play many games against running servers and measure them."),
    help=N_(
        "Play games of scripted people against serve processes; print latency, errors, lost "
        "and duplicated actions, and the processes' memory (docs/cli.md).\n\n"
        "Several URLs are processes of one deployment (one database, one Redis): each game is "
        "played across two of them, or on one (--sockets by-game). Exits with 1 when an "
        "action was lost or duplicated."
    ),
)
@argument("urls", metavar="URL...", nargs=-1, required=True)
@option("--games", type=click.IntRange(1), default=10, show_default=True, help=N_("Games at once."))
@option(
    "--duration",
    type=click.FloatRange(0, min_open=True),
    default=60.0,
    show_default=True,
    metavar=N_("SECONDS"),
    help=N_("Stop after this long (the ramp included)."),
)
@option(
    "--actions", type=click.IntRange(1), metavar="N", help=N_("Stop after people sent N actions.")
)
@option(
    "--pace",
    default="1-3",
    show_default=True,
    metavar=N_("MIN-MAX"),
    callback=_pace,
    help=N_("Seconds a person waits after the event that gives it the turn (uniform)."),
)
@option(
    "--computer-share",
    type=click.FloatRange(0, 1),
    default=0.0,
    show_default=True,
    help=N_("The share of games of one person against the computer."),
)
@option(
    "--computer-level",
    type=click.IntRange(1),
    default=3,
    show_default=True,
    help=N_("The computer's level in those games."),
)
@option(
    "--watchers",
    type=click.IntRange(0),
    default=0,
    show_default=True,
    help=N_("Spectators per game."),
)
@option(
    "--ramp",
    type=click.FloatRange(0),
    default=5.0,
    show_default=True,
    metavar=N_("SECONDS"),
    help=N_("Spread the games' starts over this long."),
)
@option("--seed", type=int, default=0, show_default=True, help=N_("Seed of every choice."))
@option(
    "--pid",
    "pids",
    type=click.IntRange(1),
    multiple=True,
    metavar="PID",
    help=N_("A local serve process whose memory (VmRSS) is read too. Repeat for several."),
)
@option(
    "--deflate/--no-deflate",
    default=True,
    show_default=True,
    help=N_("Compress the sockets' messages, as browsers do."),
)
@option(
    "--sockets",
    type=click.Choice(["across", "by-game"]),
    default="across",
    show_default=True,
    help=N_(
        "With several URLs: each game's two people on two processes (across), or every "
        "socket of a game on the game's process (by-game), as behind a proxy that routes by game."
    ),
)
@option(
    "--scenario",
    type=click.Choice(["games", "join-burst", "sign-in-flood"]),
    default="games",
    show_default=True,
    help=N_(
        "games: many games at once. join-burst: --watchers watchers join one live game "
        "at once while two people play it. sign-in-flood: --addresses addresses send "
        "--attempts wrong passwords each while the owner signs in (one URL, on this machine "
        "or behind a proxy that trusts it: addresses come as X-Forwarded-For)."
    ),
)
@option(
    "--addresses",
    type=click.IntRange(1, 60_000),
    default=40,
    show_default=True,
    help=N_("sign-in-flood: addresses that send wrong passwords."),
)
@option(
    "--attempts",
    type=click.IntRange(1),
    default=10,
    show_default=True,
    help=N_("sign-in-flood: wrong passwords per address."),
)
@option("--json", "json_output", is_flag=True, help=N_("Print the report as one JSON object."))
def loadtest(
    urls: tuple[str, ...],
    games: int,
    duration: float,
    actions: int | None,
    pace: tuple[float, float],
    computer_share: float,
    computer_level: int,
    watchers: int,
    ramp: float,
    seed: int,
    pids: tuple[int, ...],
    deflate: bool,
    sockets: str,
    scenario: str,
    addresses: int,
    attempts: int,
    json_output: bool,
) -> None:
    """Run the load test (or a scenario) and print its report."""
    require_web()
    from shiftago.interfaces.loadtest import LoadConfig, LoadError, format_report, run_command

    if scenario != "games":
        if len(urls) != 1:
            raise click.UsageError(
                _("--scenario %(scenario)s runs against one URL") % {"scenario": scenario}
            )
        _scenario(
            scenario, urls[0], watchers, pace[0], addresses, attempts, seed, deflate, json_output
        )
        return
    config = LoadConfig(
        urls=urls,
        games=games,
        duration=duration,
        actions=actions,
        pace=pace,
        computer_share=computer_share,
        computer_level=computer_level,
        watchers=watchers,
        ramp=ramp,
        seed=seed,
        pids=pids,
        deflate=deflate,
        sockets=sockets,
    )
    try:
        report = run_command(config)
    except LoadError as e:
        raise InputRefused(str(e)) from None
    click.echo(json.dumps(report) if json_output else format_report(report))
    if report["lost"] or report["duplicated"]:
        sys.exit(1)


def _scenario(
    scenario: str,
    url: str,
    watchers: int,
    pace: float,
    addresses: int,
    attempts: int,
    seed: int,
    deflate: bool,
    json_output: bool,
) -> None:
    """Run one of the scenarios of issue 55 and print its report; exits with 1 when the
    owner could not sign in every time during the flood."""
    from shiftago.interfaces.loadtest.scenarios import ScenarioError, run_scenario

    try:
        report, text = run_scenario(
            scenario,
            url,
            watchers=watchers or 800,
            pace=pace,
            addresses=addresses,
            attempts=attempts,
            seed=seed,
            deflate=deflate,
        )
    except ScenarioError as e:
        raise InputRefused(str(e)) from None
    click.echo(json.dumps(report) if json_output else text)
    if report.get("owner_signed_in") is False:
        sys.exit(1)
