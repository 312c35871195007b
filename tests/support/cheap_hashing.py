"""Passwords hashed cheaply in the tests' own process.

The app hashes with argon2id at the library's recommended costs (3 passes over 64 MiB,
about 0.2 s a hash on the 2-core machine) on purpose, and the server tests sign up and
in hundreds of times: that was about a third of their time (docs/testing.md, "Passwords
in the tests"). The suite therefore swaps, in its own process only, the app's hasher
for argon2id at the lowest costs; the servers the tests start as processes (``shiftago
serve``, the e2e tests) keep the real one, and ``test_server_accounts.py`` checks that
the app's own hasher has the library's costs. No setting of the app lowers them."""

from __future__ import annotations

from typing import Final

from argon2 import PasswordHasher

from shiftago.interfaces.server.accounts import accounts

#: The app's own hasher, as a serve process uses it.
APP_HASHER: Final = accounts._hasher
#: argon2id at its lowest costs: one pass over 64 KiB, one lane.
CHEAP_HASHER: Final = PasswordHasher(time_cost=1, memory_cost=64, parallelism=1)


def install() -> None:
    """Make the app in this process hash and check passwords with :data:`CHEAP_HASHER`
    (the dummy hash of unknown names too, so that it stays of the hasher's costs)."""
    accounts._hasher = CHEAP_HASHER
    accounts._DUMMY_HASH = accounts._dummy_hash(CHEAP_HASHER)  # type: ignore[misc]
