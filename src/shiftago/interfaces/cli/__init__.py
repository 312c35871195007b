"""``shiftago``: the one command line, a dispatcher to the programs of the project.

Each subcommand parses its options and hands them to its module: ``engine`` to the
engine protocol (:mod:`shiftago.interfaces.stp`), ``play`` to the terminal game
(:mod:`shiftago.interfaces.play.session`), ``show`` to :mod:`shiftago.interfaces.show`,
``bench`` to :mod:`shiftago.engine.bench` and :mod:`shiftago.env.bench`, ``arena`` to
:mod:`shiftago.match`, and ``serve`` to the web app (:mod:`shiftago.interfaces.server`).
"""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import urlsplit

import click

from shiftago import __version__
from shiftago.formats.words import counted
from shiftago.interfaces.server.settings import Settings

if TYPE_CHECKING:  # the match package loads the engine: imported when a match is played
    from shiftago.match.clock import TimeControl

FC = TypeVar("FC", bound=Callable[..., object])

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


def _handicap(ctx: click.Context, param: click.Parameter, value: str | None) -> tuple[int, ...]:
    if not value:
        return ()
    try:
        return tuple(int(part) for part in value.split(","))
    except ValueError:
        raise click.BadParameter(
            f"{value!r}: one number of skipped turns per seat, such as 0,2"
        ) from None


def _public_url(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """An absolute http(s) address of the site's root: the join links are made from it,
    and the app serves only at ``/``."""
    if value is None:
        return None
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise click.BadParameter(f"{value!r}: a whole address such as https://shiftago.example.org")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise click.BadParameter(
            f"{value!r}: the site's root only (the app serves at /), such as "
            f"{parts.scheme}://{parts.netloc}"
        )
    return f"{parts.scheme}://{parts.netloc}"


def game_number_option(help_text: str) -> Callable[[FC], FC]:
    """``--game N``: which game of a record file that holds several."""
    return click.option(
        "--game",
        "game_number",
        type=click.IntRange(min=1),
        default=1,
        show_default=True,
        help=help_text,
    )


@click.group(context_settings=CONTEXT_SETTINGS)
@click.version_option(__version__, "-V", "--version", prog_name="shiftago")
def cli() -> None:
    """Shiftago, the board game: play it, show games, run the engine.

    Actions are written as in the rules: L3 R3 Tc Bc insert a marble (side, then the
    lane), xc3-g3 scores the line from c3 to g3.
    """
    _print_whatever_the_encoding()


def _print_whatever_the_encoding() -> None:
    """A character the terminal's encoding lacks (a Latin-1 locale, an ASCII pipe) is
    printed as ``?`` instead of ending the command with a UnicodeEncodeError: the words
    are mostly ASCII, but a shortened line ends with an ellipsis and a name or a
    record's text may hold anything."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="replace")


@cli.command(short_help="Speak the engine protocol (STP) on stdin and stdout.")
def engine() -> None:
    """Speak the Shiftago Text Protocol (STP) on standard input and output.

    For tournament managers, GUIs and other programs; one command per line, see
    PROTOCOL.md. Ends at 'quit' or at the end of the input.
    """
    from shiftago.interfaces import stp

    sys.exit(stp.main())


@cli.command(short_help="Play a game at the terminal (also with piped input).")
@click.option(
    "--variant",
    type=click.Choice(["express", "expert", "extreme"], case_sensitive=False),
    default="express",
    show_default=True,
    help="The variant of a new game.",
)
@click.option(
    "--players",
    type=click.IntRange(2, 4),
    default=2,
    show_default=True,
    help="The number of players of a new game (2-4).",
)
@click.option(
    "--handicap",
    metavar="N,N..",
    callback=_handicap,
    help="Skipped turns (0-6) per seat in seat order, such as 0,2.",
)
@click.option(
    "--first",
    metavar="COLOUR",
    help="Who starts a new game: o, g, b, w (or orange...). Default: drawn by lot.",
)
@click.option("--seed", type=int, help="Seed of the draw for the first seat and of the computer.")
@click.option(
    "--computer",
    "-c",
    metavar="COLOUR",
    multiple=True,
    help="A seat the computer plays (repeat the option for several seats).",
)
@click.option("--level", type=click.IntRange(min=1), help="The computer's level (default: best).")
@click.option(
    "--limit",
    type=click.IntRange(min=1),
    help="End the game after this many actions (default: no limit; 1000 when the "
    "computer plays every seat).",
)
@click.option(
    "--load",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Go on from the game in this record file.",
)
@game_number_option("Which game of a --load file that holds several.")
@click.option("--position", metavar="POSITION", help="Go on from this position string.")
@click.option(
    "--resume/--new",
    default=None,
    help="Resume the unfinished (autosaved) game without asking, or start a new one.",
)
def play(
    variant: str,
    players: int,
    handicap: tuple[int, ...],
    first: str | None,
    seed: int | None,
    computer: tuple[str, ...],
    level: int | None,
    limit: int | None,
    load: Path | None,
    game_number: int,
    position: str | None,
    resume: bool | None,
) -> None:
    """Play a game at the terminal: type actions (L3, Tc, xc3-g3) and commands.

    Works with piped input too. The game is saved after every action and the next
    'shiftago play' offers to resume it (the data directory is $SHIFTAGO_HOME, else
    $XDG_DATA_HOME/shiftago, else ~/.local/share/shiftago). Type 'help' in the game
    for its commands: legal, undo, save FILE, board, position, quit.
    """
    from shiftago.interfaces.play.autosave import Autosave
    from shiftago.interfaces.play.setup import NEW_GAME_OPTIONS, PlaySetup, SetupError, prepare

    context = click.get_current_context()
    by_default = click.core.ParameterSource.DEFAULT
    given = tuple(
        name for name in NEW_GAME_OPTIONS if context.get_parameter_source(name) is not by_default
    )
    if load is None and context.get_parameter_source("game_number") is not by_default:
        raise click.UsageError("--game picks one game of the file of --load; give --load FILE")
    setup = PlaySetup(
        given=given,
        variant=variant,
        players=players,
        handicap=handicap,
        first=first,
        seed=seed,
        computer=computer,
        level=level,
        limit=limit,
        load=load,
        game_number=game_number,
        position=position,
        resume=resume,
    )
    out = sys.stdout
    inp = sys.stdin
    autosave = Autosave()
    try:
        session = prepare(setup, inp, out, autosave)
    except SetupError as e:
        raise click.UsageError(str(e)) from None
    except KeyboardInterrupt:
        # Ctrl-C at the resume question or while the computer warms up: nothing is lost
        kept = " The unfinished game stays saved; 'shiftago play' offers to resume it."
        out.write(f"\nInterrupted before the game began.{kept if autosave.exists() else ''}\n")
        sys.exit(130)
    if session is not None:
        sys.exit(session.run())


@cli.command(short_help="Show a position or replay a record, as text or SVG.")
@click.argument("target", metavar="FILE|POSITION")
@click.option("--final", is_flag=True, help="Show only the final board of a record.")
@click.option(
    "--svg",
    "svg_dir",
    metavar="DIR",
    type=click.Path(file_okay=False, path_type=Path),
    help="Write SVG files to DIR (one per step, or only the final one) instead of text.",
)
@game_number_option("Which game of a file that holds several.")
def show(target: str, final: bool, svg_dir: Path | None, game_number: int) -> None:
    """Show a position string or a game record file ('-' reads standard input).

    A record is replayed: each action, then the board. A position string has 8 fields,
    so quote it: shiftago show "express 2 7/7/7/7/7/7/7 o insert 22,22 0,0 0,0".
    """
    from shiftago.interfaces.show import ShowError
    from shiftago.interfaces.show import show as show_target

    out = sys.stdout
    try:
        show_target(
            target,
            out,
            final=final,
            svg_dir=svg_dir,
            game_number=game_number,
            stdin=sys.stdin,
        )
    except ShowError as e:
        click.echo(f"error: {e}", err=True)
        sys.exit(2)


@cli.command(short_help="Judge a position, or review a record and mark its mistakes.")
@click.argument("target", metavar="POSITION|RECORD")
@click.option(
    "--level",
    type=click.IntRange(min=1),
    help="The bot that judges: a level of 'shiftago engine' (default: the strongest).",
)
@click.option("--depth", type=click.IntRange(min=1), help="Search at most this deep.")
@click.option("--nodes", type=click.IntRange(min=1), help="Search at most this many nodes.")
@click.option(
    "--movetime", type=click.IntRange(min=1), metavar="MS", help="Think at most MS ms each."
)
@click.option(
    "--top", type=click.IntRange(min=1), metavar="N", help="Show only the N best actions."
)
@click.option(
    "--threshold",
    type=click.FloatRange(min=0),
    help="A record's action worse than the best by more than this (in the bot's unit) is "
    "a mistake (?), by more than half of it an inaccuracy (?!). Default: the bot's own "
    "(100 for the greedy and alpha-beta levels, 0.1 for the MCTS).",
)
@click.option("--seed", type=int, default=0, show_default=True, help="The bot's seed.")
@click.option("--json", "json_output", is_flag=True, help="Print one JSON document.")
@game_number_option("Which game of a record file that holds several.")
def analyse(
    target: str,
    level: int | None,
    depth: int | None,
    nodes: int | None,
    movetime: int | None,
    top: int | None,
    threshold: float | None,
    seed: int,
    json_output: bool,
    game_number: int,
) -> None:
    """Judge a position string, or review a game record ('-' reads standard input).

    A position gets its evaluation, every legal action ranked with its value and
    expected line of play. A record gets the value of each action and, where the bot
    finds a better one, the best action; mistakes are marked ?! ? and ??. Values are
    from the point of view of the seat to act (in a record: the seat that acted), in
    the unit the output names.
    """
    from shiftago.engine.bot import Limits
    from shiftago.engine.levels import default_level
    from shiftago.interfaces.analyse import AnalyseError, Settings
    from shiftago.interfaces.analyse import analyse as analyse_target

    settings = Settings(
        level=default_level() if level is None else level,
        limits=Limits(movetime, depth, nodes),
        seed=seed,
        top=top,
        threshold=threshold,
        game_number=game_number,
    )
    try:
        analyse_target(target, sys.stdout, settings, as_json=json_output, stdin=sys.stdin)
    except AnalyseError as e:
        click.echo(f"error: {e}", err=True)
        sys.exit(2)


#: ``--bot-delay``, the same for ``serve`` and ``worker``.
bot_delay_option = click.option(
    "--bot-delay",
    type=click.FloatRange(0, 10),
    default=0.4,
    show_default=True,
    metavar="SECONDS",
    help="How long the computer waits before it acts, so that people can follow.",
)


#: ``--time-offset-file``, for tests of timed games (hidden): the same for ``serve`` and
#: ``worker``, so that every process reads the same time.
time_offset_option = click.option(
    "--time-offset-file",
    type=click.Path(dir_okay=False, path_type=Path),
    hidden=True,
    help="Tests: a file with seconds added to the real time of the clocks.",
)


def _addresses(
    ctx: click.Context, param: click.Parameter, values: tuple[str, ...]
) -> tuple[str, ...]:
    """Addresses or networks (``10.0.0.0/8``), or ``*`` for any; else a usage error."""
    from shiftago.interfaces.server.door.security import Proxies

    for value in values:
        try:
            Proxies([value])
        except ValueError:
            raise click.BadParameter(
                f"{value!r} is not an address or a network (10.0.0.0/8), or *", param=param
            ) from None
    return values


@cli.command(short_help="Serve the web app: play in the browser, alone or with friends.")
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on.")
@click.option(
    "--port",
    type=click.IntRange(1, 65535),
    default=8000,
    show_default=True,
    help="The port to listen on.",
)
@click.option(
    "--db",
    "db_url",
    metavar="URL",
    help="The database, as a SQLAlchemy URL (sqlite:///FILE or "
    "postgresql+psycopg://USER@HOST/DB). Default: server.db in the data directory.",
)
@click.option(
    "--public-url",
    metavar="URL",
    callback=_public_url,
    help="Where people reach the app (https://shiftago.example.org); join links and the "
    "allowed WebSocket origins follow from it. Default: the address a browser used.",
)
@bot_delay_option
@click.option(
    "--redis",
    "redis_url",
    metavar="URL",
    envvar="SHIFTAGO_REDIS_URL",
    help="Redis (redis://HOST:PORT/0), for several serve processes on one database: "
    "they share live events, and `shiftago worker` processes play the computer's seats "
    "and make the reviews. Default: $SHIFTAGO_REDIS_URL, else none (this process alone).",
)
@click.option(
    "--allowed-host",
    "allowed_hosts",
    multiple=True,
    metavar="HOST",
    help="A host name (with :port if not the default) whose pages may open the app's "
    "sockets, beside --public-url's. Repeat for several.",
)
@click.option(
    "--trusted-proxy",
    "trusted_proxies",
    multiple=True,
    metavar="ADDRESS",
    callback=_addresses,
    help="An address (or network, 10.0.0.0/8) whose X-Forwarded-* headers are believed. "
    "Repeat for several. Default: 127.0.0.1 and ::1 (a proxy on this machine).",
)
@click.option(
    "--metrics-from",
    "metrics_from",
    multiple=True,
    metavar="ADDRESS",
    callback=_addresses,
    help="An address (or network) that GET /metrics answers, for Prometheus; others get "
    "404. Repeat for several. Default: 127.0.0.1 and ::1.",
)
@click.option(
    "--bot-threads",
    type=click.IntRange(1, 64),
    default=Settings.bot_threads,
    show_default=True,
    help="Computer seats thinking at once in this process (without --redis).",
)
@click.option(
    "--idle-seconds",
    type=click.FloatRange(1, 86400),
    default=Settings.idle_seconds,
    show_default=True,
    help="A game nobody watches leaves memory after this long (it is loaded back when needed).",
)
@click.option(
    "--games-per-minute",
    type=click.IntRange(1),
    default=Settings.games_per_minute,
    show_default=True,
    help="Games one address may create per minute.",
)
@click.option(
    "--imports-per-minute",
    type=click.IntRange(1),
    default=Settings.imports_per_minute,
    show_default=True,
    help="Games one address may import per minute.",
)
@click.option(
    "--analyses-per-minute",
    type=click.IntRange(1),
    default=Settings.analyses_per_minute,
    show_default=True,
    help="Reviews one address may ask for per minute.",
)
@click.option(
    "--live-analyses-per-minute",
    type=click.IntRange(1),
    default=Settings.live_analyses_per_minute,
    show_default=True,
    help="Positions one address may start analysing per minute on the analysis board.",
)
@click.option(
    "--logins-per-minute",
    type=click.IntRange(1),
    default=Settings.logins_per_minute,
    show_default=True,
    help="Sign-in and sign-up attempts per minute, per address and per account name.",
)
@click.option(
    "--computer-games-per-address",
    type=click.IntRange(0),
    default=Settings.computer_games_per_address,
    show_default=True,
    help="Unfinished games without a human seat that one address may have.",
)
@click.option(
    "--computer-games-total",
    type=click.IntRange(0),
    default=Settings.computer_games_total,
    show_default=True,
    help="Unfinished games without a human seat on the whole server.",
)
@click.option(
    "--sockets-per-address",
    type=click.IntRange(1),
    default=Settings.sockets_per_address,
    show_default=True,
    help="Open WebSockets one address may have.",
)
@time_offset_option
def serve(
    host: str,
    port: int,
    db_url: str | None,
    public_url: str | None,
    bot_delay: float,
    redis_url: str | None,
    allowed_hosts: tuple[str, ...],
    trusted_proxies: tuple[str, ...],
    metrics_from: tuple[str, ...],
    time_offset_file: Path | None,
    **limits: Any,
) -> None:
    """Serve the web app: open the address it prints in a browser and play.

    Games are stored in the database after every action and survive a restart. The data
    directory is $SHIFTAGO_HOME, else $XDG_DATA_HOME/shiftago, else ~/.local/share/shiftago.
    Several processes on one PostgreSQL and one Redis serve the same games: docs/deploy.md.
    """
    from shiftago.interfaces.server import run
    from shiftago.interfaces.server.startup import StartupError

    settings = Settings(
        public_url=public_url,
        allowed_hosts=allowed_hosts,
        trusted_proxies=trusted_proxies or Settings.trusted_proxies,
        metrics_from=metrics_from or Settings.metrics_from,
        redis_url=redis_url,
        bot_delay=bot_delay,
        time_offset_file=time_offset_file,
        **limits,
    )
    try:
        run(host=host, port=port, db_url=_server_db(db_url), settings=settings)
    except StartupError as error:
        click.echo(f"error: {error}", err=True)
        sys.exit(1)


#: ``--db`` of the commands that work beside the serve processes (worker, admin).
serve_db_option = click.option(
    "--db",
    "db_url",
    metavar="URL",
    help="The database the serve processes use (as for `shiftago serve`).",
)


@cli.command(short_help="Play the computer's seats and make reviews for serve processes.")
@serve_db_option
@click.option(
    "--redis",
    "redis_url",
    metavar="URL",
    envvar="SHIFTAGO_REDIS_URL",
    required=True,
    help="The Redis the serve processes use (or $SHIFTAGO_REDIS_URL).",
)
@click.option(
    "--threads",
    type=click.IntRange(1, 64),
    default=Settings.bot_threads,
    show_default=True,
    help="Jobs worked on at once (computer moves and reviews).",
)
@bot_delay_option
@click.option(
    "--lease",
    type=click.FloatRange(0.5, 3600),
    default=Settings.job_lease_seconds,
    show_default=True,
    metavar="SECONDS",
    help="A job that a worker has not vouched for this long (it died) is done again.",
)
@click.option(
    "--name",
    metavar="NAME",
    help="The worker's name among the workers, the same across restarts (a systemd "
    "instance: %H-%i): a restarted worker takes back its jobs at once instead of after "
    "the lease. Default: a new name each start.",
)
@time_offset_option
def worker(
    db_url: str | None,
    redis_url: str,
    threads: int,
    bot_delay: float,
    lease: float,
    name: str | None,
    time_offset_file: Path | None,
) -> None:
    """Take the computer's moves and the reviews from Redis and do them.

    Run one or more beside `shiftago serve --redis URL` processes (docs/deploy.md). A
    worker killed mid-job loses nothing: its job is done again by another once its lease
    runs out.
    """
    from shiftago.interfaces.server.startup import StartupError
    from shiftago.interfaces.server.worker import run_worker

    settings = Settings(
        redis_url=redis_url,
        bot_threads=threads,
        bot_delay=bot_delay,
        job_lease_seconds=lease,
        worker_name=name,
        time_offset_file=time_offset_file,
    )
    try:
        run_worker(_server_db(db_url), settings)
    except StartupError as error:
        click.echo(f"error: {error}", err=True)
        sys.exit(1)


@cli.group(short_help="Moderate a server's database: chat messages, sessions, accounts.")
@serve_db_option
@click.pass_context
def admin(ctx: click.Context, db_url: str | None) -> None:
    """Moderate the games and accounts of a server, in its database (docs/deploy.md,
    "Moderation"). The serve processes may be running."""
    ctx.obj = _server_db(db_url)


@contextmanager
def _admin_store(ctx: click.Context) -> Iterator[Any]:
    """The store of the database ``admin --db`` named, disposed of afterwards."""
    from shiftago.interfaces.server.db.store import open_engine
    from shiftago.interfaces.server.games.store import Store

    url: str = ctx.obj
    try:
        store = Store(open_engine(url))
    except Exception as e:  # the URL was checked: the database does not answer
        raise click.ClickException(f"cannot open the database {url}: {e}") from None
    try:
        yield store
    finally:
        store.dispose()


@admin.command("chat", short_help="List a game's chat messages with their ids.")
@click.argument("game_id")
@click.pass_context
def admin_chat(ctx: click.Context, game_id: str) -> None:
    """List the chat messages of GAME_ID, both rooms, oldest first: id, time, room,
    name and text, one per line."""
    from shiftago.interfaces.server.chat.store import ChatStore

    with _admin_store(ctx) as store:
        if store.load(game_id) is None:
            raise click.ClickException(f"there is no game {game_id!r}")
        for m in ChatStore(store).messages(game_id):
            click.echo(f"{m.id}\t{m.at:%Y-%m-%d %H:%M}\t{m.room}\t{m.name}\t{m.text}")


@admin.command("delete-message", short_help="Delete chat messages by id.")
@click.argument("ids", metavar="ID...", nargs=-1, required=True, type=click.IntRange(1))
@click.pass_context
def admin_delete_message(ctx: click.Context, ids: tuple[int, ...]) -> None:
    """Delete the chat messages ID... (as `shiftago admin chat` lists them): nobody who
    opens the game from now on sees them; pages that show them keep them until they
    load the game again."""
    from shiftago.interfaces.server.chat.store import ChatStore

    with _admin_store(ctx) as store:
        done = ChatStore(store).delete(ids)
    click.echo(f"deleted {done} of {counted(len(ids), 'message')}")
    if done < len(ids):
        sys.exit(1)


@admin.command("sign-out", short_help="Sign an account out everywhere; a new password.")
@click.argument("name")
@click.option(
    "--new-password",
    is_flag=True,
    help="Also set a new password, asked for twice (two lines when piped).",
)
@click.pass_context
def admin_sign_out(ctx: click.Context, name: str, new_password: bool) -> None:
    """Delete every session of the account NAME: each browser signed in as it must sign
    in again, so a session cookie that leaked no longer works. With --new-password the
    account also gets a new password (a forgotten or leaked one)."""
    from shiftago.interfaces.server.accounts.accounts import check_password, hash_password
    from shiftago.interfaces.server.accounts.store import sign_out_everywhere

    hashed = None
    if new_password:
        password = click.prompt("New password", hide_input=True, confirmation_prompt=True)
        try:
            hashed = hash_password(check_password(password))
        except ValueError as e:
            raise click.BadParameter(f"a password has {e}", param_hint="--new-password") from None
    with _admin_store(ctx) as store:
        done = sign_out_everywhere(store, name, hashed)
    if done is None:
        raise click.ClickException(f"there is no account {name!r}")
    changed = "; the password is changed" if hashed else ""
    click.echo(f"{name.lower()}: {counted(done, 'session')} ended{changed}")


@admin.command("close-account", short_help="Close an account, or open it again.")
@click.argument("name")
@click.option("--reopen", is_flag=True, help="Open a closed account again.")
@click.pass_context
def admin_close_account(ctx: click.Context, name: str, reopen: bool) -> None:
    """Close the account NAME: it can no longer sign in, each browser signed in as it is
    signed out, and it leaves the leaderboard. Its games, its ratings and its name stay
    (nobody else can take the name). With --reopen it can sign in again with its
    password (`sign-out --new-password` gives it a new one)."""
    from shiftago.interfaces.server.accounts.store import close_account

    with _admin_store(ctx) as store:
        done = close_account(store, name, closed=not reopen)
    if done is None:
        raise click.ClickException(f"there is no account {name!r}")
    account, ended = done
    if reopen:
        click.echo(f"{account.name}: open; it can sign in again")
    else:
        click.echo(f"{account.name}: closed; {counted(ended, 'session')} ended")


def _server_db(db_url: str | None) -> str:
    """The database URL given, else server.db in the data directory."""
    from shiftago.interfaces.play.autosave import data_dir

    if db_url is not None:
        if not db_url.strip():
            raise click.BadParameter("the database URL is empty", param_hint="--db")
        from shiftago.interfaces.server.db.store import check_url

        try:
            check_url(db_url)
        except ValueError as e:
            raise click.BadParameter(
                f"{db_url!r} is not a database URL this shiftago can use ({e}); "
                "for example sqlite:///FILE or postgresql+psycopg://USER@HOST/DB",
                param_hint="--db",
            ) from None
        return db_url
    directory = data_dir()
    directory.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{directory / 'server.db'}"


@cli.command(short_help="Measure the speed of the engine and the RL environments.")
@click.option("--json", "json_output", is_flag=True, help="Print the figures as one JSON object.")
@click.option(
    "--runs",
    type=click.IntRange(min=1),
    default=5,
    show_default=True,
    help="Timed runs per figure (the median is reported).",
)
@click.option("--quick", is_flag=True, help="Measure less: a smoke test, not a figure to quote.")
def bench(json_output: bool, runs: int, quick: bool) -> None:
    """Measure the speed of the rules engine and the RL environments; print the figures."""
    from shiftago.engine.bench import run_bench
    from shiftago.env.bench import AEC_KEY, AEC_NOTE, env_figures

    figures = run_bench(runs=runs, quick=quick)
    figures.update(env_figures(runs=runs, quick=quick))
    if AEC_KEY not in figures:
        click.echo(f"note: {AEC_NOTE}", err=True)
    if json_output:
        click.echo(json.dumps(figures, sort_keys=True))
        return
    width = max((len(k) for k in figures), default=0)
    for key, value in figures.items():
        click.echo(f"{key:<{width}}  {figure_text(value)}")


def figure_text(value: float) -> str:
    """A bench figure as the bench rounded it: a count with thousands separators
    (``1,584,374``), a time or a ratio with its decimals (``0.351``, ``1.57``)."""
    return f"{value:,}"


def _sprt(
    ctx: click.Context, param: click.Parameter, value: str | None
) -> tuple[float, float] | None:
    if not value:
        return None
    try:
        elo0, elo1 = (float(part) for part in value.split(","))
    except ValueError:
        raise click.BadParameter(f"{value!r}: two Elo values such as 0,10") from None
    if not elo0 < elo1:
        raise click.BadParameter(f"{value!r}: elo0 must be below elo1")
    return elo0, elo1


def _clock(ctx: click.Context, param: click.Parameter, value: str | None) -> TimeControl | None:
    if not value:
        return None
    from shiftago.match.clock import TimeControl

    try:
        control = TimeControl.parse(value)
    except ValueError as e:
        raise click.BadParameter(str(e)) from None
    if control.correspondence:
        raise click.BadParameter(f"{value!r}: a match clock is minutes+seconds, such as 3+2")
    return control


@cli.command(short_help="Play a match between bots and/or external engines.")
@click.argument("participants", metavar="PARTICIPANT...", nargs=-1, required=True)
@click.option(
    "--variant",
    type=click.Choice(["express", "expert", "extreme"], case_sensitive=False),
    default="express",
    show_default=True,
    help="The variant of every game.",
)
@click.option(
    "--players", type=click.IntRange(2, 4), default=2, show_default=True, help="Seats per game."
)
@click.option(
    "--games",
    type=click.IntRange(min=1),
    default=20,
    show_default=True,
    help="Games in all, rounded up to whole openings (every seating of every opening).",
)
@click.option(
    "--opening-plies",
    type=click.IntRange(min=0),
    help="Random actions of each opening.  [default: 2]",
)
@click.option(
    "--openings",
    "book_path",
    type=click.Path(dir_okay=False, path_type=Path),
    metavar="FILE",
    help="Take the openings from FILE in order instead: one opening per line, its actions "
    "from the empty board (L3 Tc); # starts a comment.",
)
@click.option(
    "--seed", type=int, default=0, show_default=True, help="Seed of the openings and the bots."
)
@click.option(
    "--handicap",
    metavar="N,N..",
    callback=_handicap,
    help="Skipped turns (0-6) per participant, in the order given; they go with it.",
)
@click.option(
    "--limit",
    type=click.IntRange(min=1),
    default=1000,
    show_default=True,
    help="The action limit of every game (RULES.md section 7).",
)
@click.option(
    "--clock",
    metavar="MIN+SEC",
    callback=_clock,
    help="A clock for every seat of every game: minutes plus an increment in seconds per "
    "turn, such as 1+0 or 3+2. A side whose time runs out loses on time.",
)
@click.option("--movetime", type=click.IntRange(min=1), metavar="MS", help="Default movetime.")
@click.option("--depth", type=click.IntRange(min=1), help="Default depth limit.")
@click.option("--nodes", type=click.IntRange(min=1), help="Default node limit.")
@click.option(
    "--timeout",
    type=click.FloatRange(min=0, min_open=True),
    metavar="SECONDS",
    help="Hard limit of an external engine's move; an engine that answers later loses "
    "the game. Default: its movetime + 1 s, else 60 s; under --clock its time left + 1 s.",
)
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Games played at once (worker processes).",
)
@click.option(
    "--results",
    type=click.Path(dir_okay=False, path_type=Path),
    default=Path("arena.jsonl"),
    show_default=True,
    help="Results file (one JSON line per game); games already in it are not played again.",
)
@click.option(
    "--records",
    type=click.Path(file_okay=False, path_type=Path),
    help="Directory of the game records. Default: NAME-records beside the results NAME.jsonl.",
)
@click.option("--no-records", is_flag=True, help="Keep no game records.")
@click.option(
    "--sprt",
    metavar="ELO0,ELO1",
    callback=_sprt,
    help="Stop when the SPRT decides between the first participant being ELO0 or ELO1 "
    "stronger than the second.",
)
@click.option(
    "--alpha",
    type=click.FloatRange(0, 0.5, min_open=True, max_open=True),
    default=0.05,
    show_default=True,
    help="The SPRT's chance of accepting ELO1 when ELO0 is true.",
)
@click.option(
    "--beta",
    type=click.FloatRange(0, 0.5, min_open=True, max_open=True),
    default=0.05,
    show_default=True,
    help="The SPRT's chance of accepting ELO0 when ELO1 is true.",
)
@click.option("--json", "json_output", is_flag=True, help="Print the standings as JSON.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar or notes on stderr.")
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
    jobs: int,
    results: Path,
    records: Path | None,
    no_records: bool,
    sprt: tuple[float, float] | None,
    alpha: float,
    beta: float,
    json_output: bool,
    quiet: bool,
) -> None:
    """Play a match between built-in bots and external engines, and print the standings.

    A PARTICIPANT is a built-in bot (greedy, level:1 .. level:7, random, mcts,
    mcts-plain, baseline) or cmd:COMMAND, an engine speaking STP. Options follow an @
    (movetime=MS, depth=N, nodes=N, level=N for engines, threads=N, hash=MIB,
    name=TEXT):

    \b
        level:7@movetime=100  greedy@depth=1  level:7@threads=2,hash=64
        "cmd:shiftago engine@level=3,name=stp3"

    Each opening is played from every seat. Run the same command again to resume
    (see docs/cli.md).
    """
    import contextlib

    from shiftago.core import Variant
    from shiftago.engine.bot import Limits
    from shiftago.match import EngineError, MatchConfig, SprtSettings, run_match
    from shiftago.match.book import read_book
    from shiftago.match.external import CLOCK_GRACE
    from shiftago.match.games import GameResult

    if clock is not None and movetime is not None:
        raise click.UsageError(
            "--clock and --movetime do not go together: under a clock each side decides "
            "how long to think"
        )
    if clock is not None and timeout is not None:
        raise click.UsageError(
            "--clock and --timeout do not go together: under a clock an engine may take "
            f"its time left (plus {CLOCK_GRACE:g} s) before it is stopped"
        )
    if book_path is not None and opening_plies is not None:
        raise click.UsageError(
            "--openings and --opening-plies do not go together: the book's lines are the openings"
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
        )
    except ValueError as e:
        raise click.UsageError(str(e)) from None
    with contextlib.ExitStack() as stack:
        bar: list[Any] = []  # the progress bar, once the match knows its size

        def progress(game: GameResult | None, done: int, total: int) -> None:
            if quiet:
                return
            if game is None:
                if done:
                    click.echo(f"resuming: {done} of {total} games are in {results}", err=True)
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
            outcome = run_match(config, progress)
        except ValueError as e:
            raise click.UsageError(str(e)) from None
        except EngineError as e:
            raise click.ClickException(str(e)) from None
        except OSError as e:  # the results or the records cannot be written there
            where = f"{e.filename}: " if e.filename else ""
            message = f"cannot write the results: {where}{e.strerror or e}"
            raise click.ClickException(message) from None
        except KeyboardInterrupt:
            stack.close()
            click.echo(
                f"\ninterrupted: the finished games are in {results}; "
                "run the same command again to go on",
                err=True,
            )
            sys.exit(130)
    if json_output:
        click.echo(json.dumps(outcome.to_json(), sort_keys=True))
        return
    click.echo(outcome.summary())
    click.echo(outcome.table())


def _pace(ctx: click.Context, param: click.Parameter, value: str) -> tuple[float, float]:
    low, _, high = value.partition("-")
    try:
        pace = (float(low), float(high or low))
    except ValueError:
        raise click.BadParameter(f"{value!r}: seconds such as 1-3 (or one number)") from None
    if not 0 <= pace[0] <= pace[1] < 3600:
        raise click.BadParameter(f"{value!r}: from a low to a high number of seconds")
    return pace


@cli.command(short_help="Play many games against running servers and measure them.")
@click.argument("urls", metavar="URL...", nargs=-1, required=True)
@click.option(
    "--games", type=click.IntRange(1), default=10, show_default=True, help="Games at once."
)
@click.option(
    "--duration",
    type=click.FloatRange(0, min_open=True),
    default=60.0,
    show_default=True,
    metavar="SECONDS",
    help="Stop after this long (the ramp included).",
)
@click.option(
    "--actions", type=click.IntRange(1), metavar="N", help="Stop after people sent N actions."
)
@click.option(
    "--pace",
    default="1-3",
    show_default=True,
    metavar="MIN-MAX",
    callback=_pace,
    help="Seconds a person waits after the event that gives it the turn (uniform).",
)
@click.option(
    "--computer-share",
    type=click.FloatRange(0, 1),
    default=0.0,
    show_default=True,
    help="The share of games of one person against the computer.",
)
@click.option(
    "--computer-level",
    type=click.IntRange(1),
    default=3,
    show_default=True,
    help="The computer's level in those games.",
)
@click.option(
    "--watchers", type=click.IntRange(0), default=0, show_default=True, help="Spectators per game."
)
@click.option(
    "--ramp",
    type=click.FloatRange(0),
    default=5.0,
    show_default=True,
    metavar="SECONDS",
    help="Spread the games' starts over this long.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of every choice.")
@click.option(
    "--pid",
    "pids",
    type=click.IntRange(1),
    multiple=True,
    metavar="PID",
    help="A local serve process whose memory (VmRSS) is read too. Repeat for several.",
)
@click.option(
    "--deflate/--no-deflate",
    default=True,
    show_default=True,
    help="Compress the sockets' messages, as browsers do.",
)
@click.option(
    "--sockets",
    type=click.Choice(["across", "by-game"]),
    default="across",
    show_default=True,
    help="With several URLs: each game's two people on two processes (across), or every "
    "socket of a game on the game's process (by-game), as behind a proxy that routes by game.",
)
@click.option("--json", "json_output", is_flag=True, help="Print the report as one JSON object.")
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
    json_output: bool,
) -> None:
    """Play games of scripted people against serve processes; print latency, errors,
    lost and duplicated actions, and the processes' memory (docs/cli.md).

    Several URLs are processes of one deployment (one database, one Redis): each game is
    played across two of them, or on one (--sockets by-game). Exits with 1 when an
    action was lost or duplicated.
    """
    from shiftago.interfaces.loadtest import LoadConfig, LoadError, format_report, run_command

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
        click.echo(f"error: {e}", err=True)
        sys.exit(2)
    click.echo(json.dumps(report) if json_output else format_report(report))
    if report["lost"] or report["duplicated"]:
        sys.exit(1)


def main() -> None:
    """The ``shiftago`` console script."""
    cli()


if __name__ == "__main__":
    main()
