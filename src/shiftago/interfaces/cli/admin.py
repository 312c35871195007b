"""``shiftago admin``: moderation in a server's database (docs/deploy.md, "Moderation")."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import click

from shiftago.interfaces.cli.extras import require_web
from shiftago.interfaces.cli.options import proof_options
from shiftago.interfaces.cli.serve import serve_db_option, server_db
from shiftago.interfaces.cli.words import argument, group, option
from shiftago.interfaces.shared.catalogues import N_, _, ngettext

#: What a refused new password is told, by :class:`~.accounts.Unfit`'s code: the words
#: the web pages say (errors.js).
PASSWORD_REFUSALS = {
    "password_length": N_("A password has {least} to {most} characters."),
    "password_common": N_(
        "This password is one of the most common ones, which are guessed first: choose another."
    ),
}


@group(
    short_help=N_("Moderate a server's database: chat messages, sessions, accounts."),
    help=N_(
        "Moderate the games and accounts of a server, in its database (docs/deploy.md, "
        '"Moderation"). The serve processes may be running.'
    ),
)
@serve_db_option
@click.pass_context
def admin(ctx: click.Context, db_url: str | None) -> None:
    """Keep the URL of the database the subcommands work in."""
    require_web()
    ctx.obj = server_db(db_url)


@contextmanager
def _admin_store(ctx: click.Context) -> Iterator[Any]:
    """The store of the database ``admin --db`` named, disposed of afterwards."""
    from shiftago.interfaces.server.db.store import open_engine
    from shiftago.interfaces.server.games.store import Store
    from shiftago.interfaces.server.startup import StartupError, check_served_database

    url: str = ctx.obj
    try:
        check_served_database(url)
    except StartupError as error:
        raise click.ClickException(str(error)) from None
    try:
        store = Store(open_engine(url))
    except Exception as e:  # the URL was checked: the database does not answer
        raise click.ClickException(
            _("cannot open the database %(url)s: %(error)s") % {"url": url, "error": e}
        ) from None
    try:
        yield store
    finally:
        store.dispose()


@admin.command(
    "chat",
    short_help=N_("List a game's chat messages with their ids."),
    help=N_(
        "List the chat messages of GAME_ID, both rooms, oldest first: id, time, room, name "
        "and text, one per line."
    ),
)
@argument("game_id")
@click.pass_context
def admin_chat(ctx: click.Context, game_id: str) -> None:
    """Print the chat messages of a game, one per line, tab-separated."""
    from shiftago.interfaces.server.chat.store import ChatStore

    with _admin_store(ctx) as store:
        if store.load(game_id) is None:
            raise click.ClickException(_("there is no game %(game)s") % {"game": repr(game_id)})
        for m in ChatStore(store).messages(game_id):
            click.echo(f"{m.id}\t{m.at:%Y-%m-%d %H:%M}\t{m.room}\t{m.name}\t{m.text}")


@admin.command(
    "delete-message",
    short_help=N_("Delete chat messages by id."),
    help=N_(
        "Delete the chat messages ID... (as `shiftago admin chat` lists them): nobody who "
        "opens the game from now on sees them; pages that show them keep them until they "
        "load the game again."
    ),
)
@argument("ids", metavar="ID...", nargs=-1, required=True, type=click.IntRange(1))
@click.pass_context
def admin_delete_message(ctx: click.Context, ids: tuple[int, ...]) -> None:
    """Delete chat messages by id; exits with 1 when some were not there."""
    from shiftago.interfaces.server.chat.store import ChatStore

    with _admin_store(ctx) as store:
        done = ChatStore(store).delete(ids)
    click.echo(
        ngettext(
            "deleted %(done)d of %(n)d message", "deleted %(done)d of %(n)d messages", len(ids)
        )
        % {"done": done, "n": len(ids)}
    )
    if done < len(ids):
        sys.exit(1)


@admin.command(
    "sign-out",
    short_help=N_("Sign an account out everywhere; a new password."),
    help=N_(
        "Delete every session of the account NAME: each browser signed in as it must sign "
        "in again, so a session cookie that leaked no longer works. With --new-password the "
        "account also gets a new password (a forgotten or leaked one)."
    ),
)
@argument("name")
@option(
    "--new-password",
    is_flag=True,
    help=N_("Also set a new password, asked for twice (two lines when piped)."),
)
@click.pass_context
def admin_sign_out(ctx: click.Context, name: str, new_password: bool) -> None:
    """End every session of an account, and set a new password if asked."""
    from shiftago.interfaces.server.accounts.accounts import (
        PASSWORD_MAX,
        PASSWORD_MIN,
        Unfit,
        check_new_password,
        hash_password,
    )
    from shiftago.interfaces.server.accounts.store import sign_out_everywhere

    hashed = None
    if new_password:
        password = click.prompt(_("New password"), hide_input=True, confirmation_prompt=True)
        try:
            hashed = hash_password(check_new_password(password))
        except Unfit as e:
            raise click.BadParameter(
                _(PASSWORD_REFUSALS[e.code]).format(least=PASSWORD_MIN, most=PASSWORD_MAX),
                param_hint="--new-password",
            ) from None
    with _admin_store(ctx) as store:
        done = sign_out_everywhere(store, name, hashed)
    if done is None:
        raise click.ClickException(_("there is no account %(name)s") % {"name": repr(name)})
    if hashed:
        said = ngettext(
            "%(name)s: %(n)d session ended; the password is changed",
            "%(name)s: %(n)d sessions ended; the password is changed",
            done,
        )
    else:
        said = ngettext("%(name)s: %(n)d session ended", "%(name)s: %(n)d sessions ended", done)
    click.echo(said % {"name": name.lower(), "n": done})


@admin.command(
    "close-account",
    short_help=N_("Close an account, or open it again."),
    help=N_(
        "Close the account NAME: it can no longer sign in, each browser signed in as it is "
        "signed out, and it leaves the leaderboard. Its games, its ratings and its name stay "
        "(nobody else can take the name). With --reopen it can sign in again with its "
        "password (`sign-out --new-password` gives it a new one)."
    ),
)
@argument("name")
@option("--reopen", is_flag=True, help=N_("Open a closed account again."))
@click.pass_context
def admin_close_account(ctx: click.Context, name: str, reopen: bool) -> None:
    """Close an account (ending its sessions), or open it again."""
    from shiftago.interfaces.server.accounts.store import close_account

    with _admin_store(ctx) as store:
        done = close_account(store, name, closed=not reopen)
    if done is None:
        raise click.ClickException(_("there is no account %(name)s") % {"name": repr(name)})
    account, ended = done
    if reopen:
        click.echo(_("%(name)s: open; it can sign in again") % {"name": account.name})
    else:
        click.echo(
            ngettext(
                "%(name)s: closed; %(n)d session ended",
                "%(name)s: closed; %(n)d sessions ended",
                ended,
            )
            % {"name": account.name, "n": ended}
        )


@admin.command(
    "puzzles-from-games",
    short_help=N_("Add the puzzles found in the site's finished games."),
    help=N_(
        "Search the newest finished public games of the site for puzzles, prove them "
        'exactly and add the new ones to the puzzles the site serves (docs/puzzles.md, "From '
        "the site's games\"). Run it again later: it adds only what newer games bring."
    ),
)
@option(
    "--games",
    "newest",
    type=click.IntRange(1),
    default=1000,
    show_default=True,
    help=N_("How many of the newest finished public games to search."),
)
@proof_options
@click.pass_context
def admin_puzzles_from_games(ctx: click.Context, newest: int, most: int, nodes: int) -> None:
    """Search the site's newest finished games for puzzles and add the new ones."""
    from shiftago.interfaces.server.puzzles.from_games import puzzles_from_games

    with _admin_store(ctx) as store:
        done = puzzles_from_games(store, newest, most, nodes)
    counts = {
        "games": ngettext("%(n)d game", "%(n)d games", done.games) % {"n": done.games},
        "positions": ngettext("%(n)d position", "%(n)d positions", done.positions)
        % {"n": done.positions},
        "puzzles": ngettext("%(n)d puzzle", "%(n)d puzzles", done.found) % {"n": done.found},
        "added": done.added,
    }
    click.echo(
        _("%(games)s searched, %(positions)s proven, %(puzzles)s found, %(added)d new") % counts
    )
