"""What an engine plays with: its ladder of levels, and the options ``setoption`` sets.

The built-in engine offers the levels of :mod:`shiftago.engine.levels`; an engine that
serves one bot (:func:`shiftago.interfaces.stp.serve`) offers that bot as its only
level, so that ``levels``, ``go level=N`` and the ``Level`` option mean the same for
both. The options (``Threads``, ``Hash``, ``Level``, and for the built-in engine ``OwnBook``:
1 lets the top level play from its opening book, 0 makes it search every action) are
whole numbers in a range: a value out of range, or an unknown name, is refused and
changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from shiftago.engine.bot import Bot
from shiftago.engine.levels import LEVELS, LevelBot, bot_for_level, default_level

from .words import CommandError, whole_number


@dataclass(frozen=True)
class Ladder:
    """The playing levels an engine offers: ``levels`` as (number, name) from the
    weakest up, ``make(level, seed)`` a bot that plays one, and the ``default`` level
    (the one played when a command names none)."""

    levels: tuple[tuple[int, str], ...]
    make: Callable[[int, int | None], Bot]
    default: int
    #: Whether its top level has an opening book (the ``OwnBook`` option turns it off).
    own_book: bool = False

    @classmethod
    def built_in(cls) -> Ladder:
        """The engine's own levels (:mod:`shiftago.engine.levels`)."""
        return cls(tuple(LEVELS), bot_for_level, default_level(), own_book=True)

    @classmethod
    def of(cls, bot: Bot) -> Ladder:
        """A ladder of one rung: ``bot`` itself, as level 1 under its own name."""
        return cls(((1, bot.name),), lambda level, seed: bot, 1)

    def check(self, level: int) -> int:
        """``level`` itself, if the ladder has it; else a :class:`CommandError`."""
        if level not in (number for number, _ in self.levels):
            known = ", ".join(str(number) for number, _ in self.levels)
            raise CommandError(f"unknown level {level}: the levels are {known}")
        return level


#: The option that turns the top level's opening book on (1, the default) or off (0):
#: the name the level's bot itself takes.
OWN_BOOK: Final = LevelBot.OWN_BOOK
#: The most search threads ``Threads`` accepts.
MOST_THREADS: Final = 64
#: ``Hash``'s default: the table of the built-in search when no size is given
#: (``2 ** search.driver.TT_BITS`` slots of ``search.ttable.SLOT_BYTES``), in MiB. The
#: search's modules are not imported here, as they load numba, which a served bot may
#: not need; tests/stp/test_stp_options.py checks that the numbers agree.
DEFAULT_HASH_MIB: Final = 8
#: The largest ``Hash``: the largest table the search makes (``2 ** ttable.MAX_BITS``
#: slots), in MiB.
MOST_HASH_MIB: Final = 16384


@dataclass(frozen=True)
class Option:
    """One option of ``options``: a whole number from ``lowest`` to ``highest``."""

    name: str
    default: int
    lowest: int
    highest: int

    def __str__(self) -> str:
        """The ``options`` line: ``NAME TYPE DEFAULT MIN MAX``."""
        return f"{self.name} int {self.default} {self.lowest} {self.highest}"


class EngineOptions:
    """The values ``setoption`` has set, over the defaults of ``options``.

    >>> options = EngineOptions(Ladder.built_in())
    >>> options.set("threads", "2")
    >>> options.threads, options.hash_mib
    (2, None)
    """

    def __init__(self, ladder: Ladder) -> None:
        self.ladder = ladder
        numbers = [number for number, _ in ladder.levels]
        self._options: dict[str, Option] = {
            option.name.lower(): option
            for option in (
                Option("Threads", 1, 1, MOST_THREADS),
                Option("Hash", DEFAULT_HASH_MIB, 1, MOST_HASH_MIB),
                Option("Level", ladder.default, min(numbers), max(numbers)),
                *((Option(OWN_BOOK, 1, 0, 1),) if ladder.own_book else ()),
            )
        }
        self._values: dict[str, int] = {}

    def listing(self) -> str:
        """Every option, one ``NAME TYPE DEFAULT MIN MAX`` line each."""
        return "\n".join(str(option) for option in self._options.values())

    def set(self, name: str, text: str) -> None:
        """Set option ``name`` (any case) to the number ``text``; a
        :class:`CommandError`, changing nothing, for an unknown name or a bad value."""
        option = self._options.get(name.lower())
        if option is None:
            known = ", ".join(o.name for o in self._options.values())
            raise CommandError(f"unknown option {name!r}: the options are {known}")
        value = whole_number(text, option.name, lowest=option.lowest, highest=option.highest)
        if option.name == "Level":
            self.ladder.check(value)
        self._values[option.name.lower()] = value

    def values(self) -> dict[str, int]:
        """The values set so far (for :meth:`restore`)."""
        return dict(self._values)

    def restore(self, values: dict[str, int]) -> None:
        """Go back to the values of an earlier :meth:`values`."""
        self._values = dict(values)

    def _value(self, name: str) -> int:
        return self._values.get(name, self._options[name].default)

    @property
    def threads(self) -> int:
        """How many threads a search may run."""
        return self._value("threads")

    @property
    def hash_mib(self) -> int | None:
        """The table size a search is given: None (the bot's own default) until set."""
        return self._values.get("hash")

    @property
    def own_book(self) -> int | None:
        """``OwnBook``: 1 (the top level plays from its book) or 0; None where the
        ladder has no book."""
        return self._value(OWN_BOOK.lower()) if OWN_BOOK.lower() in self._options else None

    @property
    def level(self) -> int:
        """The level ``go`` and ``analyse`` play when they name none."""
        return self._value("level")
