"""The opening book: self-play statistics and deep searches of the first actions of
every variant and player count, keyed by position up to the board's symmetries
(docs/book.md)."""

from .book import Book, BookAction, BookLine, BookPosition, sound_choice
from .shipped import shipped_book

__all__ = ["Book", "BookAction", "BookLine", "BookPosition", "shipped_book", "sound_choice"]
