"""``shiftago admin`` (cli.py): moderation in a server's database, the server's own
store functions underneath (chat.py ``ChatStore``, accounts.py ``sign_out_everywhere``)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner, Result

from server_support import client_for, create
from shiftago.interfaces.cli import cli
from shiftago.interfaces.server.accounts import (
    account_with_hash,
    create_account,
    find_session,
    hash_password,
    make_session,
    password_matches,
)
from shiftago.interfaces.server.chat import ChatStore
from shiftago.interfaces.server.store import Store, open_engine


def admin(url: str, *args: str, given: str | None = None) -> Result:
    return CliRunner().invoke(cli, ["admin", "--db", url, *args], input=given)


def test_chat_messages_are_listed_and_deleted(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'server.db'}"
    with client_for(url) as client:  # the app makes the schema and the game
        game_id, _ = create(client)
    store = Store(open_engine(url))
    try:
        chat = ChatStore(store)
        kept = chat.add(game_id, "players", 0, "Ann", "good luck")
        rude = chat.add(game_id, "spectators", None, "Guest", "something rude")
    finally:
        store.dispose()
    listed = admin(url, "chat", game_id)
    assert listed.exit_code == 0, listed.output
    lines = listed.output.splitlines()
    assert [line.split("\t")[0] for line in lines] == [str(kept.id), str(rude.id)]
    assert lines[1].endswith("\tspectators\tGuest\tsomething rude")
    deleted = admin(url, "delete-message", str(rude.id))
    assert deleted.exit_code == 0 and "deleted 1 of 1 message" in deleted.output
    assert admin(url, "chat", game_id).output.splitlines() == lines[:1]
    again = admin(url, "delete-message", str(rude.id))  # gone already: said, status 1
    assert again.exit_code == 1 and "deleted 0 of 1 message" in again.output
    unknown = admin(url, "chat", "no-such-game")
    assert unknown.exit_code == 1 and "there is no game 'no-such-game'" in unknown.output


def test_an_account_is_signed_out_everywhere_and_given_a_new_password(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'server.db'}"
    with client_for(url):
        pass  # the schema
    store = Store(open_engine(url))
    try:
        account = create_account(store, "ann", hash_password("old password"))
        tokens = [make_session(store, account.id)[0] for _ in range(2)]
    finally:
        store.dispose()
    short = admin(url, "sign-out", "ann", "--new-password", given="short\nshort\n")
    assert short.exit_code == 2 and "a password has 8 to 200 characters" in short.output
    done = admin(url, "sign-out", "Ann", "--new-password", given="new password\nnew password\n")
    assert done.exit_code == 0, done.output
    assert "ann: 2 sessions ended; the password is changed" in done.output
    store = Store(open_engine(url))
    try:
        assert all(find_session(store, token) is None for token in tokens)
        found = account_with_hash(store, "ann")
        assert found is not None and password_matches(found[1], "new password")
        assert not password_matches(found[1], "old password")
    finally:
        store.dispose()
    nobody = admin(url, "sign-out", "nobody")
    assert nobody.exit_code == 1 and "there is no account 'nobody'" in nobody.output
