"""``shiftago serve`` and ``shiftago worker``: the web app and its workers
(:mod:`shiftago.interfaces.server`).

Their settings' options are made from the :class:`~.settings.Option` declared beside
each field of :class:`~.settings.Settings`; only the address, the port and the database
are declared here.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Final
from urllib.parse import urlsplit

import click

from shiftago.interfaces.cli.extras import require_web
from shiftago.interfaces.cli.options import FC
from shiftago.interfaces.cli.words import command, option
from shiftago.interfaces.server.setting_options import Command, Option
from shiftago.interfaces.server.settings import Settings, options_of
from shiftago.interfaces.shared.catalogues import N_, _


def _public_url(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """An absolute http(s) address of the site's root: the join links are made from it,
    and the app serves only at ``/``."""
    if value is None:
        return None
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise click.BadParameter(
            _("%(value)s: a whole address such as https://shiftago.example.org")
            % {"value": repr(value)}
        )
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise click.BadParameter(
            _("%(value)s: the site's root only (the app serves at /), such as %(root)s")
            % {"value": repr(value), "root": f"{parts.scheme}://{parts.netloc}"}
        )
    return f"{parts.scheme}://{parts.netloc}"


def _addresses(
    ctx: click.Context, param: click.Parameter, values: tuple[str, ...]
) -> tuple[str, ...]:
    """Addresses or networks (``10.0.0.0/8``), or ``*`` for any; else a usage error."""
    if not values:
        return values
    require_web()  # the check is the server's own, and parsing comes before the command
    from shiftago.interfaces.server.door.security import Proxies

    for value in values:
        try:
            Proxies([value])
        except ValueError:
            raise click.BadParameter(
                _("%(value)s is not an address or a network (10.0.0.0/8), or *")
                % {"value": repr(value)},
                param=param,
            ) from None
    return values


def _hosts(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]) -> tuple[str, ...]:
    """Host names with an optional port (``example.org``, ``example.org:8443``), in the
    form the server matches a request's Host by: a whole address given where a host is
    asked for would never match one."""
    if not values:
        return values
    require_web()  # the check is the server's own, and parsing comes before the command
    from shiftago.interfaces.server.door.hosts import well_formed

    for value in values:
        if not well_formed(value):
            raise click.BadParameter(
                _("%(value)s: a host name with an optional :port, such as %(example)s")
                % {"value": repr(value), "example": "shiftago.example.org:8443"},
                param=param,
            )
    return values


#: The schemes of a Redis URL (redis-py's).
REDIS_SCHEMES: Final = ("redis", "rediss", "unix")


def _redis_url(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """A Redis URL (``redis://HOST:PORT/0``, ``rediss://`` or ``unix://``)."""
    if value is not None and urlsplit(value).scheme not in REDIS_SCHEMES:
        raise click.BadParameter(
            _("%(value)s is not a Redis URL: it starts with %(schemes)s")
            % {"value": repr(value), "schemes": ", ".join(f"{s}://" for s in REDIS_SCHEMES)},
            param=param,
        )
    return value


#: The checks of :attr:`.settings.Option.check`, as click callbacks.
CHECKS: Mapping[str, Callable[[click.Context, click.Parameter, Any], Any]] = {
    "url": _public_url,
    "address": _addresses,
    "host": _hosts,
    "redis": _redis_url,
}


class FiniteFloatRange(click.FloatRange):
    """A number of seconds or a rate in a range; ``nan`` and ``inf``, which click reads
    as numbers and no range refuses, are refused."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(_("%(value)s is not a number") % {"value": repr(value)}, param, ctx)
        return number


def settings_options(command: Command) -> Callable[[FC], FC]:
    """The click options of ``command``'s settings, in the order of :class:`Settings`'s
    fields, each named after its field; their help (declared in the settings) is read in
    the terminal's language."""

    def decorate(f: FC) -> FC:
        for name, default, declared in reversed(options_of(command)):
            f = option(declared.flag, name, **_click_arguments(declared, default))(f)
        return f

    return decorate


def _click_arguments(option: Option, field_default: Any) -> dict[str, Any]:
    """What click is told of ``option``, whose field defaults to ``field_default``."""
    arguments: dict[str, Any] = {"help": option.help}
    for name in ("metavar", "envvar"):
        if getattr(option, name) is not None:
            arguments[name] = getattr(option, name)
    if option.required:
        arguments["required"] = True
    if option.hidden:
        arguments["hidden"] = True
    if option.check is not None:
        arguments["callback"] = CHECKS[option.check]
    if option.file:
        arguments["type"] = click.Path(dir_okay=False, path_type=Path)
    default = field_default if option.default is None else option.default
    if isinstance(default, tuple):
        arguments["multiple"] = True  # none given: the field's default (settings_from)
    elif isinstance(default, int | float):
        low, high = option.low, option.high
        if isinstance(default, int):  # a whole number's range has whole bounds
            low, high = (None if x is None else int(x) for x in (low, high))
            arguments["type"] = click.IntRange(low, high)
        else:
            arguments["type"] = FiniteFloatRange(low, high)
        arguments["default"] = default
        arguments["show_default"] = True
    return arguments


def settings_from(given: Mapping[str, Any]) -> Settings:
    """The settings of the options ``given`` (field names); a repeated option given no
    times leaves its field's default."""
    try:
        return Settings(**{name: value for name, value in given.items() if value != ()})
    except ValueError as error:  # the environment's settings ($SHIFTAGO_ENGINE_THREADS)
        raise click.ClickException(str(error)) from None


@command(
    short_help=N_("Serve the web app: play in the browser, alone or with friends."),
    help=N_(
        "Serve the web app: open the address it prints in a browser and play.\n\n"
        "Games are stored in the database after every action and survive a restart. The "
        "data directory is $SHIFTAGO_HOME, else $XDG_DATA_HOME/shiftago, else "
        "~/.local/share/shiftago. Several processes on one PostgreSQL and one Redis serve "
        "the same games: docs/deploy.md."
    ),
)
@option("--host", default="127.0.0.1", show_default=True, help=N_("The address to listen on."))
@option(
    "--port",
    type=click.IntRange(1, 65535),
    default=8000,
    show_default=True,
    help=N_("The port to listen on."),
)
@option(
    "--db",
    "db_url",
    metavar="URL",
    help=N_(
        "The database, as a SQLAlchemy URL (sqlite:///FILE or "
        "postgresql+psycopg://USER@HOST/DB). Default: server.db in the data directory."
    ),
)
@settings_options("serve")
def serve(host: str, port: int, db_url: str | None, **given: Any) -> None:
    """Run the web app with the settings given until it is stopped."""
    require_web()
    from shiftago.interfaces.server import run
    from shiftago.interfaces.server.startup import StartupError

    settings = settings_from(given)
    try:
        run(host=host, port=port, db_url=server_db(db_url), settings=settings)
    except StartupError as error:
        raise click.ClickException(str(error)) from None


#: ``--db`` of the commands that work beside the serve processes (worker, admin).
serve_db_option = option(
    "--db",
    "db_url",
    metavar="URL",
    help=N_("The database the serve processes use (as for `shiftago serve`)."),
)


@command(
    short_help=N_("Play the computer's seats and make reviews for serve processes."),
    help=N_(
        "Take the computer's moves and the reviews from Redis and do them.\n\n"
        "Run one or more beside `shiftago serve --redis URL` processes (docs/deploy.md). A "
        "worker killed mid-job loses nothing: its job is done again by another once its "
        "lease runs out."
    ),
)
@serve_db_option
@settings_options("worker")
def worker(db_url: str | None, **given: Any) -> None:
    """Run a worker of the serve processes' jobs until it is stopped."""
    require_web()
    from shiftago.interfaces.server.startup import StartupError
    from shiftago.interfaces.server.worker import run_worker

    settings = settings_from(given)
    try:
        run_worker(server_db(db_url), settings)
    except StartupError as error:
        raise click.ClickException(str(error)) from None


def server_db(db_url: str | None) -> str:
    """The database URL given, else server.db in the data directory."""
    from shiftago.interfaces.shared.autosave import data_dir

    if db_url is not None:
        if not db_url.strip():
            raise click.BadParameter(_("the database URL is empty"), param_hint="--db")
        from shiftago.interfaces.server.db.store import check_url

        try:
            check_url(db_url)
        except ValueError as e:
            raise click.BadParameter(
                _(
                    "%(url)s is not a database URL this shiftago can use (%(error)s); "
                    "for example sqlite:///FILE or postgresql+psycopg://USER@HOST/DB"
                )
                % {"url": repr(db_url), "error": e},
                param_hint="--db",
            ) from None
        return db_url
    directory = data_dir()
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise click.ClickException(
            _("cannot make the data directory %(directory)s: %(error)s")
            % {"directory": directory, "error": error.strerror or error}
        ) from None
    return f"sqlite:///{directory / 'server.db'}"
