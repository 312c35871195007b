"""``shiftago admin``: moderation in a server's database (docs/deploy.md, "Moderation")."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import click

from shiftago.formats.words import counted
from shiftago.interfaces.cli.options import proof_options
from shiftago.interfaces.cli.serve import serve_db_option, server_db


@click.group(short_help="Moderate a server's database: chat messages, sessions, accounts.")
@serve_db_option
@click.pass_context
def admin(ctx: click.Context, db_url: str | None) -> None:
    """Moderate the games and accounts of a server, in its database (docs/deploy.md,
    "Moderation"). The serve processes may be running."""
    ctx.obj = server_db(db_url)


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
    from shiftago.interfaces.server.accounts.accounts import check_new_password, hash_password
    from shiftago.interfaces.server.accounts.store import sign_out_everywhere

    hashed = None
    if new_password:
        password = click.prompt("New password", hide_input=True, confirmation_prompt=True)
        try:
            hashed = hash_password(check_new_password(password))
        except ValueError as e:
            raise click.BadParameter(str(e), param_hint="--new-password") from None
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


@admin.command(
    "puzzles-from-games", short_help="Add the puzzles found in the site's finished games."
)
@click.option(
    "--games",
    "newest",
    type=click.IntRange(1),
    default=1000,
    show_default=True,
    help="How many of the newest finished public games to search.",
)
@proof_options
@click.pass_context
def admin_puzzles_from_games(ctx: click.Context, newest: int, most: int, nodes: int) -> None:
    """Search the newest finished public games of the site for puzzles, prove them
    exactly and add the new ones to the puzzles the site serves (docs/puzzles.md, "From
    the site's games"). Run it again later: it adds only what newer games bring."""
    from shiftago.interfaces.server.puzzles.from_games import puzzles_from_games

    with _admin_store(ctx) as store:
        done = puzzles_from_games(store, newest, most, nodes)
    click.echo(
        f"{counted(done.games, 'game')} searched, {counted(done.positions, 'position')} "
        f"proven, {counted(done.found, 'puzzle')} found, {done.added} new"
    )
