"""``shiftago arena``: a match between bots and external engines (:mod:`shiftago.match`)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from shiftago.core.rules import MAX_ACTION_LIMIT
from shiftago.interfaces.cli.options import handicap
from shiftago.interfaces.cli.words import argument, command, option
from shiftago.interfaces.shared.catalogues import N_, _, ngettext
from shiftago.interfaces.shared.game_words import error_words

if TYPE_CHECKING:  # the match package loads the engine: imported when a match is played
    from shiftago.match.clock import TimeControl


def _sprt(
    ctx: click.Context, param: click.Parameter, value: str | None
) -> tuple[float, float] | None:
    if not value:
        return None
    try:
        elo0, elo1 = (float(part) for part in value.split(","))
    except ValueError:
        raise click.BadParameter(
            _("%(value)s: two Elo values such as 0,10") % {"value": repr(value)}
        ) from None
    if not elo0 < elo1:
        raise click.BadParameter(_("%(value)s: elo0 must be below elo1") % {"value": repr(value)})
    return elo0, elo1


def _clock(ctx: click.Context, param: click.Parameter, value: str | None) -> TimeControl | None:
    if not value:
        return None
    from shiftago.match.clock import TimeControl

    try:
        control = TimeControl.parse(value)
    except ValueError as e:
        raise click.BadParameter(error_words(e)) from None
    if control.correspondence:
        raise click.BadParameter(
            _("%(value)s: a match clock is minutes+seconds, such as 3+2") % {"value": repr(value)}
        )
    return control


@command(
    short_help=N_("Play a match between bots and/or external engines."),
    help=N_(
        "Play a match between built-in bots and external engines, and print the standings.\n\n"
        "A PARTICIPANT is a built-in bot (greedy, level:1 .. level:7, random, mcts, "
        "mcts-plain, mcts-blocking, mcts-guard, mcts-horizon, mcts-eval, paranoid, best-reply, "
        "max-n, baseline) "
        "or cmd:COMMAND, an engine speaking STP. Options follow an @ (movetime=MS, depth=N, "
        "nodes=N, level=N for "
        "engines, threads=N, hash=MIB, option.NAME=VALUE for any option an engine lists, "
        "name=TEXT):\n\n"
        "\b\n"
        "    level:7@movetime=100  greedy@depth=1  level:7@threads=2,hash=64\n"
        '    "cmd:shiftago engine@level=3,name=stp3"\n'
        '    "cmd:./my-engine@option.Temperature=2"\n\n'
        "Each opening is played from every seat. With three or more participants a crosstable "
        "follows the standings. Run the same command again to resume, or with --report to see "
        "the tables so far (see docs/cli.md)."
    ),
)
@argument("participants", metavar=N_("PARTICIPANT..."), nargs=-1, required=True)
@option(
    "--variant",
    type=click.Choice(["express", "expert", "extreme"], case_sensitive=False),
    default="express",
    show_default=True,
    help=N_("The variant of every game."),
)
@option(
    "--players", type=click.IntRange(2, 4), default=2, show_default=True, help=N_("Seats per game.")
)
@option(
    "--games",
    type=click.IntRange(min=1),
    default=20,
    show_default=True,
    help=N_("Games in all, rounded up to whole openings (every seating of every opening)."),
)
@option(
    "--opening-plies",
    type=click.IntRange(min=0),
    help=N_("Random actions of each opening.  [default: 2]"),
)
@option(
    "--openings",
    "book_path",
    type=click.Path(dir_okay=False, path_type=Path),
    metavar=N_("FILE"),
    help=N_(
        "Take the openings from FILE in order instead: one opening per line, its actions "
        "from the empty board (L3 Tc); # starts a comment."
    ),
)
@option(
    "--seed", type=int, default=0, show_default=True, help=N_("Seed of the openings and the bots.")
)
@option(
    "--handicap",
    metavar="N,N..",
    callback=handicap,
    help=N_("Skipped turns (0-6) per participant, in the order given; they go with it."),
)
@option(
    "--limit",
    type=click.IntRange(min=1, max=MAX_ACTION_LIMIT),
    default=1000,
    show_default=True,
    help=N_("The action limit of every game (RULES.md section 7)."),
)
@option(
    "--clock",
    metavar=N_("MIN+SEC"),
    callback=_clock,
    help=N_(
        "A clock for every seat of every game: minutes plus an increment in seconds per "
        "turn, such as 1+0 or 3+2. A side whose time runs out loses on time."
    ),
)
@option("--movetime", type=click.IntRange(min=1), metavar="MS", help=N_("Default movetime."))
@option("--depth", type=click.IntRange(min=1), help=N_("Default depth limit."))
@option("--nodes", type=click.IntRange(min=1), help=N_("Default node limit."))
@option(
    "--timeout",
    type=click.FloatRange(min=0, min_open=True),
    metavar=N_("SECONDS"),
    help=N_(
        "Hard limit of an external engine's move; an engine that answers later loses "
        "the game. Default: its movetime + 1 s, else 60 s; under --clock its time left + 1 s."
    ),
)
@option(
    "--startup-timeout",
    type=click.FloatRange(min=0, min_open=True),
    default=300.0,  # match.external.STARTUP_TIMEOUT, not imported before a match runs
    show_default=True,
    metavar=N_("SECONDS"),
    help=N_("How long an external engine may take to start and answer protocol_version."),
)
@option(
    "--time-margin",
    type=click.IntRange(min=0),
    default=1000,
    show_default=True,
    metavar="MS",
    help=N_(
        "How far past its movetime or its clock an external engine may answer before it "
        "is stopped (an answer past its clock still loses on time)."
    ),
)
@option(
    "--adjudicate-win",
    type=click.IntRange(min=1),
    metavar="N",
    help=N_(
        "End a game as a win for a participant whose search reports a proven win "
        "(info ... value win K) after N of its actions in a row."
    ),
)
@option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help=N_("Games played at once (worker processes)."),
)
@option(
    "--results",
    type=click.Path(dir_okay=False, path_type=Path),
    default=Path("arena.jsonl"),
    show_default=True,
    help=N_("Results file (one JSON line per game); games already in it are not played again."),
)
@option(
    "--records",
    type=click.Path(file_okay=False, path_type=Path),
    help=N_("Directory of the game records. Default: NAME-records beside the results NAME.jsonl."),
)
@option(
    "--games-file",
    type=click.Path(dir_okay=False, path_type=Path),
    metavar=N_("FILE"),
    help=N_(
        "The match's records file, every game in one. Default: NAME-games.txt beside "
        "the results NAME.jsonl."
    ),
)
@option("--no-records", is_flag=True, help=N_("Keep no game records."))
@option(
    "--protocol-log",
    type=click.Path(file_okay=False, path_type=Path),
    metavar=N_("DIR"),
    help=N_(
        "Write every line between the arena and its external engines (their standard "
        "error too) to DIR: one file per game, named as its record, and start.log."
    ),
)
@option(
    "--report",
    is_flag=True,
    help=N_(
        "Play nothing: print the tables of the games already in the results file "
        "(a finished or a partial match)."
    ),
)
@option(
    "--sprt",
    metavar="ELO0,ELO1",
    callback=_sprt,
    help=N_(
        "Stop when the SPRT decides between the first participant being ELO0 or ELO1 "
        "stronger than the second."
    ),
)
@option(
    "--alpha",
    type=click.FloatRange(0, 0.5, min_open=True, max_open=True),
    default=0.05,
    show_default=True,
    help=N_("The SPRT's chance of accepting ELO1 when ELO0 is true."),
)
@option(
    "--beta",
    type=click.FloatRange(0, 0.5, min_open=True, max_open=True),
    default=0.05,
    show_default=True,
    help=N_("The SPRT's chance of accepting ELO0 when ELO1 is true."),
)
@option("--json", "json_output", is_flag=True, help=N_("Print the standings as JSON."))
@option("--quiet", "-q", is_flag=True, help=N_("No progress bar or notes on stderr."))
def arena(
    participants: tuple[str, ...],
    variant: str,
    players: int,
    games: int,
    opening_plies: int | None,
    book_path: Path | None,
    seed: int,
    handicap: tuple[int, ...],
    limit: int,
    clock: TimeControl | None,
    movetime: int | None,
    depth: int | None,
    nodes: int | None,
    timeout: float | None,
    startup_timeout: float,
    time_margin: int,
    adjudicate_win: int | None,
    jobs: int,
    results: Path,
    records: Path | None,
    games_file: Path | None,
    no_records: bool,
    protocol_log: Path | None,
    report: bool,
    sprt: tuple[float, float] | None,
    alpha: float,
    beta: float,
    json_output: bool,
    quiet: bool,
) -> None:
    """Play the match of the options (or only report it) and print its standings."""
    import contextlib

    from shiftago.core import Variant
    from shiftago.engine.bot import Limits
    from shiftago.interfaces import arena_report
    from shiftago.match import EngineError, MatchConfig, SprtSettings, run_match
    from shiftago.match.book import read_book
    from shiftago.match.games import GameResult
    from shiftago.match.results import ResultsFile

    if clock is not None and movetime is not None:
        raise click.UsageError(
            _(
                "--clock and --movetime do not go together: under a clock each side decides "
                "how long to think"
            )
        )
    if clock is not None and timeout is not None:
        raise click.UsageError(
            _(
                "--clock and --timeout do not go together: under a clock an engine may take "
                "its time left (plus --time-margin, %(margin)s ms) before it is stopped"
            )
            % {"margin": time_margin}
        )
    if book_path is not None and opening_plies is not None:
        raise click.UsageError(
            _(
                "--openings and --opening-plies do not go together: the book's lines are the "
                "openings"
            )
        )
    try:
        config = MatchConfig(
            participants=participants,
            variant=Variant.parse(variant),
            players=players,
            games=games,
            opening_plies=2 if opening_plies is None else opening_plies,
            book=None if book_path is None else read_book(book_path),
            seed=seed,
            handicap=handicap,
            action_limit=limit,
            limits=Limits(movetime, depth, nodes),
            clock=clock,
            timeout=timeout,
            jobs=jobs,
            results=results,
            records=records,
            save_records=not no_records,
            sprt=None if sprt is None else SprtSettings(sprt[0], sprt[1], alpha, beta),
            startup_timeout=startup_timeout,
            time_margin=time_margin / 1000,
            adjudicate_win=adjudicate_win,
            games_file=games_file,
            protocol_log=protocol_log,
        )
    except ValueError as e:
        raise click.UsageError(error_words(e)) from None
    if report and not results.is_file():
        raise click.UsageError(
            _("--report reads a results file, and %(file)s is none: give it with --results")
            % {"file": results}
        )
    with contextlib.ExitStack() as stack:
        bar: list[Any] = []  # the progress bar, once the match knows its size

        def progress(game: GameResult | None, done: int, total: int) -> None:
            if game is None and done and not report:
                # said even with -q: games taken from the file change what the table
                # means (an engine edited and run again with the same command plays none)
                resuming = ngettext(
                    "resuming: %(done)s of %(total)s game is in %(results)s",
                    "resuming: %(done)s of %(total)s games are in %(results)s",
                    total,
                )
                click.echo(resuming % {"done": done, "total": total, "results": results}, err=True)
            if game is None and not done and report:
                # a game is found by its settings, seeds and seating: the same engines
                # listed in another order are another match (a bot author's walk)
                held = len(ResultsFile(results).load())
                if held:
                    other = ngettext(
                        "%(results)s holds %(held)s game, none of this match: its games are "
                        "found by the participants in the order given, the variant, the "
                        "players, the openings, the seed and the limits",
                        "%(results)s holds %(held)s games, none of this match: its games are "
                        "found by the participants in the order given, the variant, the "
                        "players, the openings, the seed and the limits",
                        held,
                    )
                    click.echo(other % {"results": results, "held": held}, err=True)
            if quiet:
                return
            if game is None:
                if report:
                    return
                if sys.stderr.isatty():
                    bar.append(
                        stack.enter_context(
                            click.progressbar(length=total, label="arena", file=sys.stderr)
                        )
                    )
                    bar[0].update(done)
            elif bar:
                bar[0].update(1)

        try:
            outcome = run_match(config, progress, play=not report)
        except ValueError as e:
            raise click.UsageError(error_words(e)) from None
        except EngineError as e:
            raise click.ClickException(error_words(e)) from None
        except OSError as e:  # the results or the records cannot be written there
            if e.filename:
                message = _("cannot write the results: %(file)s: %(error)s") % {
                    "file": e.filename,
                    "error": e.strerror or e,
                }
            else:
                message = _("cannot write the results: %(error)s") % {"error": e.strerror or e}
            raise click.ClickException(message) from None
        except KeyboardInterrupt:
            stack.close()
            interrupted = _(
                "interrupted: the finished games are in %(results)s; "
                "run the same command again to go on"
            ) % {"results": results}
            click.echo("\n" + interrupted, err=True)
            sys.exit(130)
    if json_output:
        click.echo(json.dumps(outcome.to_json(), sort_keys=True))
        return
    click.echo(arena_report.summary(outcome))
    click.echo(arena_report.tables(outcome))
