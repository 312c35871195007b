"""The books shipped with the engine: package data made by ``shiftago book build``
(docs/book.md), one gzip-compressed JSON file per variant and player count, each read
the first time it is asked for."""

from __future__ import annotations

import functools
import gzip
import json
from importlib import resources

from shiftago.core import Variant

from .book import Book

#: The folder of the shipped books, beside this module.
DATA = "data"


def book_file(variant: Variant, players: int) -> str:
    """The file name of a category's book: ``express-2.json.gz``."""
    return f"{variant.value}-{players}.json.gz"


def read_book(packed: bytes) -> Book:
    """A book from a book file's bytes (gzip-compressed JSON)."""
    return Book.from_json(json.loads(gzip.decompress(packed).decode("utf-8")))


def write_book(book: Book) -> bytes:
    """A book file's bytes; the same book always gives the same bytes."""
    text = json.dumps(book.to_json(), sort_keys=True, separators=(",", ":"))
    return gzip.compress(text.encode("utf-8"), mtime=0)


@functools.cache
def shipped_book(variant: Variant, players: int) -> Book | None:
    """The shipped book of a category (read once), or None where none is shipped."""
    path = resources.files(__package__).joinpath(DATA, book_file(variant, players))
    if not path.is_file():
        return None
    return read_book(path.read_bytes())


def read_every_shipped_book() -> None:
    """Read every shipped book now, so that no later search pays for reading one: the
    largest (2-player Express) takes about a third of a second, past a short
    ``movetime`` (the engine reads them before its first ``go``, PROTOCOL.md)."""
    for variant in Variant:
        for players in (2, 3, 4):
            shipped_book(variant, players)
